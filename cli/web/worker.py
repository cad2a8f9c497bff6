"""The web app's job process: one page's job run on the library, its progress and its
answer written to stdout as JSON lines.

A process of its own, so a closed tab or Cancel ends the job by killing it, and the
server's event loop never waits on the engine.  Lines: ``{"progress": {...}}`` while
it runs, then ``{"result": {...}}`` or ``{"error": "<the CLI's message>"}`` (with
``"field"`` when the message is about a field other than the page's main one).  The
input is read by the CLI's own readers and the answer built by its own JSON, text and
CSV writers, so the page shows what ``tarock advise/solve/review --json`` would print,
and for French Tarot what ``tarock --game french advise/solve/review`` prints.
Run as ``python -m tarock_cli.web.worker KIND ARGS`` (KIND: advise, deal, review,
french-advise, french-deal, french-review; ARGS: the job's arguments as a JSON object,
:mod:`.jobs`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

from tarock_solver.errors import TarockError

from ..main import Settings

_OUT = sys.stdout
#: Seconds between two progress lines (the page redraws its status line for each).
EVERY = 0.25

Emit = Callable[[dict[str, Any]], None]


def emit(obj: dict[str, Any]) -> None:
    """One JSON line to the server."""
    _OUT.write(json.dumps(obj, ensure_ascii=False) + "\n")
    _OUT.flush()


def _warning_lines(messages: list[str]) -> list[str]:
    """Warnings as the CLI prints them on stderr."""
    return [f"Warning: {m}" for m in messages]


def advice_progress_line(p: Any, names: dict[str, str]) -> dict[str, Any]:
    """An :class:`~tarock_solver.advise.AdviceProgress` as the page's progress line
    (``names``: the contracts' names in the rules, the leader's shown by its name)."""
    return {"phase": p.phase, "worlds": p.worlds, "worlds_total": p.worlds_total,
            "exact_solves": p.exact_solves, "seconds": round(p.seconds, 1),
            "time_limit": p.time_limit,
            "leader": None if p.leader is None else names.get(p.leader, p.leader),
            "net_se": None if p.leader_net_se is None else round(p.leader_net_se, 2),
            "points_se": None if p.leader_points_se is None else round(p.leader_points_se, 2)}


def _throttled(send: Emit) -> Callable[[dict[str, Any]], None]:
    """``send`` at most every :data:`EVERY` seconds (the first at once)."""
    last = [-EVERY]

    def report(progress: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - last[0] >= EVERY:
            last[0] = now
            send({"progress": progress})

    return report


def run_advise(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock advise HAND --seat S --time-limit T --samples N --seed K --json``."""
    from tarock_solver.advise import AdviceLimit, AdviceRequest, advise, read_advice_input
    from tarock_solver.advise.text import advice_lines
    from tarock_solver.deal import capture_warnings

    from ..commands.advise import CSV_FORMAT, advice_json

    rules = Settings(rules=args["rules"]).loaded_rules
    with capture_warnings() as messages:
        inp = read_advice_input(args["hand"], args["seat"], None)
    names = {c: rules.contract_name(c) for c in rules.contracts}
    report = _throttled(send)
    req = AdviceRequest(hand=inp.hand, seat=inp.seat, rules=rules, rules_name=rules.name,
                        others=inp.others, limit=AdviceLimit(args["time_limit"], args["samples"]),
                        seed=args["seed"], jobs=os.cpu_count() or 1,
                        on_progress=lambda p: report(advice_progress_line(p, names)))
    adv = advise(req)
    return {"json": json.loads(advice_json(inp, rules, adv)),
            "warnings": _warning_lines(messages),
            "text": advice_lines(adv, names),
            "csv": adv.table.to_csv(**CSV_FORMAT)}


def run_deal(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock solve DEAL --cards --json [--declarer D] [--contract C] [--node-limit N]``."""
    from tarock_solver.deal import capture_warnings
    from tarock_solver.notation import SEATS
    from tarock_solver.solver import Budget, CardPointSearch

    from ..commands.solve import json_document, read_deal, solve_rows

    rules = Settings(rules=args["rules"]).loaded_rules
    with capture_warnings() as messages:
        deal = read_deal((args["deal"],))
    contracts = [rules.contract_key(args["contract"])] if args["contract"] else \
        list(rules.contracts)
    seats = [args["declarer"]] if args["declarer"] else list(SEATS)
    done = [0]

    def row_done(_row: Any) -> None:
        done[0] += 1
        send({"progress": {"phase": "rows", "done": done[0],
                           "total": len(seats) * len(contracts)}})

    dd, leads = solve_rows(deal, rules, seats, contracts, cards=True, solver=CardPointSearch(),
                           budget=Budget(nodes=args["node_limit"]), progress=row_done)
    from tarock_solver.analysis.results import frame_to_csv

    # the CSV is what `tarock batch --mode table` writes (NOTATION 5.3 results rows)
    return {"json": json_document(deal, rules, dd, leads, args["node_limit"]),
            "csv": frame_to_csv(dd.results_frame(deal_id="web")),
            "warnings": _warning_lines(messages)}


def run_review(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock review RECORD --json`` (the record as text, or ``example``), and the
    hands at the first trick for the replay."""
    from tarock_solver.analysis.results import frame_to_csv
    from tarock_solver.cards import CARD_IDS, indices_of
    from tarock_solver.notation import SEATS
    from tarock_solver.review import check_record, parse_record
    from tarock_solver.review.engine import review_line
    from tarock_solver.review.report import review_frame, review_rows, review_to_json
    from tarock_solver.solver import CardPointSearch

    from ..commands.review import example_text

    text = args["record"]
    rec = parse_record(example_text() if text.lower() == "example" else text)
    settings = Settings(rules=args["rules"])
    rules = settings.rules_named(rec.rules or settings.rules, rec.options)
    line = check_record(rec, rules)
    report = _throttled(send)
    rv = review_line(line, rules, search=CardPointSearch(),
                     progress=lambda done, total: report({"phase": "cards", "done": done,
                                                          "total": total}))
    # the CSV is what `tarock batch --mode review` writes (a row per card and the exchange)
    return {"json": review_to_json(rv), "csv": frame_to_csv(review_frame(review_rows(rv))),
            "warnings": [],
            "hands": {SEATS[s]: [CARD_IDS[c] for c in indices_of(h)]
                      for s, h in enumerate(line.hands)}}


# ---------------------------------------------------------------- French Tarot


class FieldProblem(Exception):
    """Bad input in the field ``field`` (not the page's main one)."""

    def __init__(self, field: str, cause: Exception) -> None:
        super().__init__(str(cause))
        self.field = field
        self.cause = cause


@contextlib.contextmanager
def field(name: str) -> Iterator[None]:
    """Bad input read inside is the field ``name``'s."""
    try:
        yield
    except (TarockError, click.ClickException) as exc:
        raise FieldProblem(name, exc) from exc


def _french_rules(name: str) -> Any:
    return Settings(rules=name, game="french").loaded_rules


#: The adviser's messages about the calls heard (their number, their order, their odds).
_CALLS_PROBLEM = re.compile(r"hears \d+ call|speaks first|is not above the|agree with the "
                            r"calls heard")


def run_french_advise(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock --game french advise HAND --seat S [--chien C] --seed K --worlds N``: the
    JSON object, the terminal's lines and the batch advise mode's row as CSV."""
    from tarock_solver.analysis.results import frame_to_csv
    from tarock_solver.french.advice import advise_french
    from tarock_solver.french.advice.rows import advice_frame, advice_row
    from tarock_solver.french.notation import parse_chien

    from ..commands._french_advise import advice_json, advice_lines, advice_request, parse_calls

    rules = _french_rules(args["rules"])
    if args["chien"]:
        with field("chien"):
            parse_chien(args["chien"], players=4)
    calls = args.get("calls")
    if calls:
        with field("calls"):
            parse_calls(calls)
    req = advice_request(rules, args["hand"], args["seat"], args["chien"], seed=args["seed"],
                         worlds=args["worlds"], calls=calls)
    # the adviser reports no progress of its own: the page says what it is working on
    send({"progress": {"phase": "worlds", "worlds": req.worlds}})
    start = time.perf_counter()
    try:
        advice = advise_french(req)
    except TarockError as exc:
        # the calls are checked against the seat, and the worlds against the calls
        if _CALLS_PROBLEM.search(str(exc)):
            raise FieldProblem("calls", exc) from exc
        raise
    row = advice_row(advice, deal_id="web", solve_ms=1000.0 * (time.perf_counter() - start))
    return {"json": advice_json(advice), "text": advice_lines(advice, False, demo=False),
            "csv": frame_to_csv(advice_frame([row])), "warnings": []}


#: The start of the messages about the Deal page's discard and play fields (the command's
#: name the option; the rules of the discard and of play name the discard and the card).
_DEAL_FIELDS = {"discard": re.compile(r"--discard\b|illegal discard"),
                "play": re.compile(r"--play\b|card \d+ of the play")}


def run_french_deal(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock --game french solve DEAL [--taker T] [--contract C] [--discard D] [--play P]
    --time-limit S [--node-limit N] [--cards] --json``, the terminal's lines, and the batch
    table mode's rows as CSV."""
    from tarock_solver.analysis.results import frame_to_csv
    from tarock_solver.batch.french_adapter import rows_frame
    from tarock_solver.french.rules import Contract
    from tarock_solver.solver import Budget

    from ..commands._french_solve import (
        card_list,
        json_document,
        read_deal,
        solve_rows,
        table_lines,
    )

    rules = _french_rules(args["rules"])
    with field("deal"):
        deal = read_deal((args["deal"],))
    for name in ("discard", "play"):
        if args[name]:
            with field(name):
                card_list(args[name], f"the {name}")
    try:
        solved = solve_rows(deal, rules, takers=args["takers"], contracts=args["contracts"],
                            discard=args["discard"], play=args["play"], cards=args["cards"],
                            budget=Budget(nodes=args["node_limit"], seconds=args["time_limit"]),
                            progress=lambda done, total: send({"progress": {
                                "phase": "rows", "done": done, "total": total}}))
    except TarockError as exc:
        # the discard and the play are checked against the deal before the first search;
        # a message about one of them is shown at its field (any other at the deal's)
        for name, about in _DEAL_FIELDS.items():
            if about.match(str(exc)):
                raise FieldProblem(name, exc) from exc
        raise
    # the CSV is what `tarock --game french batch --mode table` writes
    return {"json": json_document(solved), "text": table_lines(solved, False),
            "csv": frame_to_csv(rows_frame(solved.rows, "web")),
            "titles": {c.value: c.title for c in Contract},
            "mover": None if solved.mover is None else solved.mover + 1,
            "taker": None if solved.taker is None else solved.taker + 1,
            "warnings": []}


def run_french_review(args: dict[str, Any], send: Emit) -> dict[str, Any]:
    """``tarock --game french review RECORD --exact-tricks N --time-limit S --json`` (the
    record as text, or ``example``), its terminal lines, the batch review mode's rows as
    CSV, the hands at the first trick and which cards lost something, for the replay."""
    from tarock_solver.analysis.results import frame_to_csv
    from tarock_solver.french.cards import CARD_IDS, cards_of
    from tarock_solver.french.deal_files import parse_record
    from tarock_solver.french.review import check_play, review_line
    from tarock_solver.french.review.report import (
        lost_something,
        review_frame,
        review_lines,
        review_rows,
        review_to_json,
    )
    from tarock_solver.french.rules import FrenchRules
    from tarock_solver.french.solver import FrenchSearch
    from tarock_solver.solver import Budget

    from ..commands._french_review import example_text, learned_evaluator

    text = args["record"]
    rec = parse_record(example_text() if text.lower() == "example" else text)
    settings = Settings(rules=args["rules"], game="french")
    rules = settings.rules_named(rec.rules or settings.rules, rec.options)
    assert isinstance(rules, FrenchRules)
    line = check_play(rec, rules)
    values, evaluator, note = learned_evaluator([line], True, args["exact_tricks"])
    report = _throttled(send)
    rv = review_line(line, search=FrenchSearch(excuse_last=line.excuse_last),
                     budget=Budget(seconds=args["time_limit"]), values=values,
                     evaluator=evaluator, evaluator_note=note,
                     exact_tricks=args["exact_tricks"], margin=True,
                     margin_search=FrenchSearch(excuse_last=line.excuse_last),
                     progress=lambda done, total: report({"phase": "cards", "done": done,
                                                          "total": total}))
    hands = line.positions[0].hands if line.positions else line.deal.hands
    # the CSV is what `tarock --game french batch --mode review` writes (a row per card)
    return {"json": review_to_json(rv), "text": review_lines(rv),
            "csv": frame_to_csv(review_frame(review_rows(rv))),
            "lost": [lost_something(c) for c in rv.cards],
            "hands": {str(s + 1): [CARD_IDS[c] for c in cards_of(h)]
                      for s, h in enumerate(hands)},
            "warnings": []}


RUNS: dict[str, Callable[[dict[str, Any], Emit], dict[str, Any]]] = {
    "advise": run_advise, "deal": run_deal, "review": run_review,
    "french-advise": run_french_advise, "french-deal": run_french_deal,
    "french-review": run_french_review}


def error_message(exc: Exception) -> str:
    """The message the CLI would print for ``exc``, without its "Error:" (a caret line
    under the token may follow); never a traceback."""
    if isinstance(exc, click.ClickException):
        return exc.format_message()
    if isinstance(exc, TarockError):
        return str(exc).removeprefix("Error:").strip()
    return f"{type(exc).__name__}: {exc}"


def run(kind: str, args: dict[str, Any], send: Emit = emit) -> None:
    """Run the job ``kind`` on ``args`` and ``send`` its progress and its answer."""
    try:
        result = RUNS[kind](args, send)
    except FieldProblem as exc:
        send({"error": error_message(exc.cause), "field": exc.field})
        return
    except Exception as exc:  # the page gets a message, never a traceback
        send({"error": error_message(exc)})
        return
    send({"result": result})


if __name__ == "__main__":
    run(sys.argv[1], json.loads(sys.argv[2]))
