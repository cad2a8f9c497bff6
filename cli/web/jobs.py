"""The web app's jobs: a page's fields turned into the job's arguments, and the job
process (:mod:`.worker`) run and streamed as server-sent events.

Each game has its pages' jobs: :data:`JOBS` for Illustrated Tarock, :data:`FRENCH_JOBS`
for French Tarot (:data:`GAME_JOBS` by ``--game`` name).  A field the server can check
itself (a number, a seat, a profile) is checked here; the rest (hands, deals, records)
is read in the job by the CLI's own readers, whose message names the token.  Either way
the page gets ``{"field": ..., "message": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from tarock_solver.french.rules import Contract
from tarock_solver.games import game_named
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


def _record(params: Mapping[str, str]) -> str:
    record = _text(params, "record", 'a play record, or "example"')
    if record.lower() != "example" and ":" not in record:
        # the CLI would read a file of that name: a page reads no files of the server's
        raise FieldError("record", f'"{record[:40]}" is not a play record: paste the record '
                         '(KEY: VALUE fields), or give "example".')
    return record


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
    return Job("review", {"rules": _rules(params), "record": _record(params)}, "record")


JOBS: dict[str, Callable[[Mapping[str, str]], Job]] = {
    "advise": advise_job, "deal": deal_job, "review": review_job}

# ---------------------------------------------------------------- French Tarot

#: French Tarot's seats: seat 1 leads the first trick.
FRENCH_SEATS = ("1", "2", "3", "4")
#: French Tarot's contracts, weakest first (the keys of ``tarock --game french solve``).
FRENCH_CONTRACTS = tuple(c.value for c in Contract)


def _french_rules(params: Mapping[str, str]) -> str:
    game = game_named("french")
    return _choice(params, "rules", game.profiles, game.default_rules)


def _optional(params: Mapping[str, str], name: str) -> str | None:
    return (params.get(name) or "").strip() or None


def french_advise_job(params: Mapping[str, str]) -> Job:
    """``/advise?hand=…&seat=…&chien=…&calls=…&seed=…&worlds=…&rules=…``: ``tarock --game
    french advise HAND --seat S [--chien C] [--calls CALLS] --seed K --worlds N``."""
    hand = _text(params, "hand", "18 cards: pick them above or paste a hand")
    seat = _choice(params, "seat", FRENCH_SEATS, "1")
    seed = _number(params, "seed", 1, 0, 2**31 - 1, whole=True)
    worlds = _number(params, "worlds", 256, 8, 100_000, whole=True)
    return Job("french-advise", {"rules": _french_rules(params), "hand": hand, "seat": seat,
                                 "chien": _optional(params, "chien"),
                                 "calls": _optional(params, "calls"), "seed": seed,
                                 "worlds": worlds}, "hand")


def french_deal_job(params: Mapping[str, str]) -> Job:
    """``/deal?deal=…&taker=…&contract=…&discard=…&play=…&time=…&nodes=…&cards=…&rules=…``:
    ``tarock --game french solve DEAL [--taker T] [--contract C] [--discard D] [--play P]
    --time-limit S [--node-limit N] [--cards]``."""
    deal = _text(params, "deal", 'a deal, e.g. "example-1"')
    taker = _choice(params, "taker", ("all", *FRENCH_SEATS), "all")
    contract = _choice(params, "contract", ("all", *FRENCH_CONTRACTS), "all")
    seconds = _number(params, "time", 10.0, 0.1, 600.0)
    nodes = _number(params, "nodes", 0, 0, 10**12, whole=True)
    cards = _choice(params, "cards", ("yes", "no"), "yes")
    return Job("french-deal", {"rules": _french_rules(params), "deal": deal,
                               "takers": [] if taker == "all" else [taker],
                               "contracts": [] if contract == "all" else [contract],
                               "discard": _optional(params, "discard"),
                               "play": _optional(params, "play"), "time_limit": seconds,
                               "node_limit": nodes or None, "cards": cards == "yes"}, "deal")


def french_review_job(params: Mapping[str, str]) -> Job:
    """``/review?record=…&exact=…&time=…&rules=…`` (``record=example``: the shipped
    example): ``tarock --game french review RECORD --exact-tricks N --time-limit S``."""
    from tarock_solver.french.review import EXACT_TRICKS

    record = _record(params)
    exact = _number(params, "exact", EXACT_TRICKS, 1, 18, whole=True)
    seconds = _number(params, "time", 10.0, 0.1, 600.0)
    return Job("french-review", {"rules": _french_rules(params), "record": record,
                                 "exact_tricks": exact, "time_limit": seconds}, "record")


FRENCH_JOBS: dict[str, Callable[[Mapping[str, str]], Job]] = {
    "advise": french_advise_job, "deal": french_deal_job, "review": french_review_job}

#: The pages' jobs of each game, by its ``--game`` name.
GAME_JOBS = {"illustrated": JOBS, "french": FRENCH_JOBS}


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
                yield event("error", {"field": msg.get("field") or job.main_field,
                                      "message": msg["error"]})
                return
            else:
                yield event("result", msg["result"])
                return
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
