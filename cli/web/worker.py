"""The web app's job process: one `tarock` command run in-process, its progress and
its answer written to stdout as JSON lines.

A process of its own, so a closed tab or Cancel ends the job by killing it, and the
server's event loop never waits on the engine.  Lines: ``{"progress": {...}}`` while
it runs, then ``{"result": {...}}`` or ``{"error": "<the CLI's message>"}``.
Run as ``python -m tarock_cli.web.worker KIND ARG...`` (KIND: advise, deal, review;
ARG...: the CLI's own words for the command).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_OUT = sys.stdout


def emit(obj: dict[str, Any]) -> None:
    """One JSON line to the server."""
    _OUT.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
    _OUT.flush()


def _watch_advice(captured: dict[str, Any]) -> None:
    """Report the adviser's progress and keep its answer for the text view.

    The adviser reports progress only to its terminal bar, so the engine run is
    wrapped here (in this process only) to pass on worlds and exact solves.
    """
    from tarock_solver.advise import adviser

    from ..commands import advise as advise_command

    run_engine = adviser.run_engine
    advise = advise_command.advise

    def reporting_run_engine(problem, settings, exact, limit, *, progress=None):
        start = time.time()
        last = [0.0]

        def report(phase: str, done: int, total: int) -> None:
            now = time.time()
            if now - last[0] >= 0.25:
                last[0] = now
                emit({"progress": {"phase": phase, "done": done, "total": total,
                                   "exact_solves": exact.solves,
                                   "seconds": round(now - start, 1),
                                   "time_limit": limit.seconds}})
            if progress is not None:
                progress(phase, done, total)

        return run_engine(problem, settings, exact, limit, progress=report)

    def keeping_advise(req):
        captured["request"] = req
        captured["advice"] = adv = advise(req)
        return adv

    adviser.run_engine = reporting_run_engine
    advise_command.advise = keeping_advise


def _watch_deal() -> None:
    """Report each finished row of the double-dummy table."""
    import tarock_solver.analysis as analysis

    dd_table = analysis.dd_table

    def reporting_dd_table(*args, progress=None, **kwargs):
        done = [0]

        def row_done(row) -> None:
            done[0] += 1
            emit({"progress": {"phase": "rows", "done": done[0]}})
            if progress is not None:
                progress(row)

        return dd_table(*args, progress=row_done, **kwargs)

    analysis.dd_table = reporting_dd_table


def _watch_review(captured: dict[str, Any]) -> None:
    """Keep the checked play line: its hands at the first trick drive the replay."""
    from ..commands import review as review_command

    check_record = review_command.check_record

    def keeping_check_record(rec, rules):
        captured["line"] = line = check_record(rec, rules)
        return line

    review_command.check_record = keeping_check_record


def _advice_extras(captured: dict[str, Any]) -> dict[str, Any]:
    from tarock_solver.advise.text import advice_lines

    req, adv = captured["request"], captured["advice"]
    names = {c: req.rules.contract_name(c) for c in req.rules.contracts}
    return {"text": advice_lines(adv, names)}


def _review_extras(captured: dict[str, Any]) -> dict[str, Any]:
    from tarock_solver.cards import CARD_IDS, indices_of
    from tarock_solver.notation import SEATS

    line = captured["line"]
    return {"hands": {SEATS[s]: [CARD_IDS[c] for c in indices_of(h)]
                      for s, h in enumerate(line.hands)}}


def _error_message(stderr: str) -> str:
    """The CLI's message from its last "Error" line on (a caret line may follow)."""
    lines = [x.rstrip() for x in stderr.splitlines() if x.strip()]
    first = max((i for i, x in enumerate(lines) if x.startswith("Error")), default=None)
    if first is None:
        return lines[-1] if lines else "the command failed."
    return "\n".join(lines[first:]).removeprefix("Error:").strip()


def run(kind: str, words: list[str]) -> None:
    """Run the command ``kind`` on the CLI words ``words`` and emit its answer."""
    from ..main import main

    captured: dict[str, Any] = {}
    if kind == "advise":
        _watch_advice(captured)
    elif kind == "deal":
        _watch_deal()
    elif kind == "review":
        _watch_review(captured)
    out, err = io.StringIO(), io.StringIO()
    code = 0
    csv_file = None
    if kind == "advise":  # the advice table's CSV is the CLI's --csv file
        csv_file = tempfile.NamedTemporaryFile(suffix=".csv", delete=False)
        csv_file.close()
        words = [*words, "--csv", csv_file.name]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(words)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception as exc:  # the page gets a message, never a traceback
            code = 1
            err.write(f"Error: {type(exc).__name__}: {exc}\n")
    if csv_file is not None and code:
        Path(csv_file.name).unlink(missing_ok=True)
    if code:
        emit({"error": _error_message(err.getvalue())})
        return
    text = out.getvalue()
    result: dict[str, Any] = {"json": json.loads(text)}
    warnings = [x for x in err.getvalue().splitlines() if x.startswith("Warning")]
    result["warnings"] = warnings
    if kind == "advise":
        result.update(_advice_extras(captured))
        result["csv"] = Path(csv_file.name).read_text(encoding="utf-8")
        Path(csv_file.name).unlink(missing_ok=True)
    elif kind == "review":
        result.update(_review_extras(captured))
    emit({"result": result})


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2:])
