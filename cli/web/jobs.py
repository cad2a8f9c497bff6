"""The web app's jobs: a page's fields turned into the job's arguments, and the job
process (:mod:`.worker`) run and streamed as server-sent events.

A field the server can check itself (a number, a seat, a profile) is checked here;
the rest (hands, deals, records) is read in the job by the CLI's own readers, whose
message names the token.  Either way the page gets ``{"field": ..., "message": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from tarock_solver.notation import SEATS
from tarock_solver.rules import DEFAULT_PROFILE, profile_names

#: Seconds between keep-alive comments: a closed tab is noticed at the next write.
KEEPALIVE = 1.0


class FieldError(ValueError):
    """Bad input in one field of a page."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Job:
    """A job to run: the page's kind, its checked arguments (:func:`.worker.run`), the
    field its input came from."""

    kind: str
    args: dict[str, object]
    main_field: str


def _text(params: Mapping[str, str], name: str, what: str) -> str:
    value = (params.get(name) or "").strip()
    if not value:
        raise FieldError(name, f"give {what}.")
    return value


def _number(params: Mapping[str, str], name: str, default: float, low: float, high: float,
            *, whole: bool = False) -> float | int | None:
    raw = (params.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise FieldError(name, f'"{raw}" is not {kind}.') from None
    if not low <= value <= high:
        raise FieldError(name, f"{raw} is out of range: {low:g} to {high:g}.")
    return value


def _choice(params: Mapping[str, str], name: str, choices: tuple[str, ...],
            default: str) -> str:
    value = (params.get(name) or default).strip()
    if value not in choices:
        raise FieldError(name, f'"{value}" is not one of {", ".join(choices)}.')
    return value


def _rules(params: Mapping[str, str]) -> str:
    return _choice(params, "rules", profile_names(), DEFAULT_PROFILE)


def advise_job(params: Mapping[str, str]) -> Job:
    """``/advise?hand=…&seat=…&rules=…&time=…&samples=…&seed=…``."""
    hand = _text(params, "hand", "16 cards: pick them above or paste a hand")
    seat = _choice(params, "seat", tuple(SEATS), "F")
    seconds = _number(params, "time", 10.0, 0.5, 600.0)
    samples = _number(params, "samples", 1000, 2, 1_000_000, whole=True)
    seed = _number(params, "seed", 1, 0, 2**31 - 1, whole=True)
    return Job("advise", {"rules": _rules(params), "hand": hand, "seat": seat,
                          "time_limit": seconds, "samples": samples, "seed": seed}, "hand")


def deal_job(params: Mapping[str, str]) -> Job:
    """``/deal?deal=…&declarer=…&contract=…&nodes=…&rules=…``."""
    deal = _text(params, "deal", 'a deal, e.g. "example-1"')
    declarer = _choice(params, "declarer", ("all", *SEATS), "all")
    contract = (params.get("contract") or "all").strip()
    nodes = _number(params, "nodes", 0, 0, 10**12, whole=True)
    return Job("deal", {"rules": _rules(params), "deal": deal,
                        "declarer": None if declarer == "all" else declarer,
                        "contract": None if contract == "all" else contract,
                        "node_limit": nodes or None}, "deal")


def review_job(params: Mapping[str, str]) -> Job:
    """``/review?record=…&rules=…`` (``record=example``: the shipped example)."""
    record = _text(params, "record", 'a play record, or "example"')
    if record.lower() != "example" and ":" not in record:
        # the CLI would read a file of that name: a page reads no files of the server's
        raise FieldError("record", f'"{record[:40]}" is not a play record: paste the record '
                         '(KEY: VALUE fields), or give "example".')
    return Job("review", {"rules": _rules(params), "record": record}, "record")


JOBS: dict[str, Callable[[Mapping[str, str]], Job]] = {
    "advise": advise_job, "deal": deal_job, "review": review_job}


def event(name: str, data: object) -> str:
    """One server-sent event."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def stream(job: Job) -> AsyncIterator[str]:
    """Run ``job`` in a worker process and yield its events: ``progress`` while it runs,
    then ``result`` or ``error``; the process is killed when the stream is closed
    (the tab closed, Cancel pressed) before it ends."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", f"{__package__}.worker", job.kind, json.dumps(job.args),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, limit=2**26)
    try:
        yield event("progress", {"phase": "starting"})
        while True:
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), KEEPALIVE)
            except TimeoutError:
                yield ": working\n\n"
                continue
            if not line:
                yield event("error", {"field": job.main_field,
                                      "message": "the job ended without an answer."})
                return
            msg = json.loads(line)
            if "progress" in msg:
                yield event("progress", msg["progress"])
            elif "error" in msg:
                yield event("error", {"field": job.main_field, "message": msg["error"]})
                return
            else:
                yield event("result", msg["result"])
                return
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
