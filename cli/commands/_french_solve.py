"""`tarock --game french solve`: the double-dummy table of a French Tarot deal.

Per taker seat and contract: the discard played (the best of the most promising legal
ones, or the one given), the taker's card points, his margin over the target and the
score per defender, exact or, where the time or node budget ran out, the bounds proved
(marked *).  ``--play`` continues the deal from the cards already played; ``--cards``
adds the card points of each card the next player may play.  The work is done by
:mod:`tarock_solver.french.analysis`; this module parses (:func:`read_deal`,
:func:`solve_rows`) and formats (:func:`table_lines`, :func:`json_document`), for the
command and for the web app's Deal page of French Tarot.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click

from tarock_solver.errors import DealError, RulesError
from tarock_solver.french.analysis import (
    DEFAULT_DISCARDS,
    FrenchRow,
    continue_play,
    solve_row,
    start_position,
)
from tarock_solver.french.cards import CARD_IDS
from tarock_solver.french.deal import FrenchDeal
from tarock_solver.french.notation import (
    example_or_text,
    format_cards,
    format_deal,
    parse_cards,
    parse_deal,
)
from tarock_solver.french.rules import Contract, FrenchRules, Poignee
from tarock_solver.french.scoring import Side, format_half_points
from tarock_solver.french.solver import FrenchSearch
from tarock_solver.solver import Budget, SearchResult

from ..main import Settings
from ._text import plain, table


def read_deal(words: tuple[str, ...]) -> FrenchDeal:
    text = " ".join(words).strip()
    if not text:
        raise click.UsageError('give a deal, e.g. tarock --game french solve "1:<hand> <hand> '
                               '<hand> <hand>/<chien>" (or example-1).')
    deal = parse_deal(example_or_text(text))
    if not isinstance(deal, FrenchDeal):
        raise DealError("tarock --game french solve needs a complete deal: four hands of 18 "
                        "cards and the chien of 6 (no '-' or '?').")
    if deal.players != 4:
        raise DealError(f"the solver plays four hands; this deal has {deal.players} (the "
                        "three- and five-player games are in the rules and the scoring only).")
    return deal


def _seat(text: str) -> int:
    if text.strip() not in ("1", "2", "3", "4"):
        raise RulesError(f'--taker "{text}": seats are 1 to 4 (1 leads the first trick).')
    return int(text) - 1


def _poignee(text: str) -> tuple[Side, Poignee]:
    side, sep, level = text.partition(":")
    if not sep:
        raise RulesError(f'--poignee "{text}": expected SIDE:LEVEL, e.g. taker:simple or '
                         "defence:double.")
    return Side.parse(side), Poignee.parse(level)


def _bounds(lower: int, upper: int, half: bool) -> str:
    fmt = format_half_points if half else str
    return fmt(lower) if lower == upper else f"{fmt(lower)}..{fmt(upper)}*"


def _made(row: FrenchRow) -> str:
    return {True: "yes", False: "no", None: "?"}[row.made]


def _lines(rows: list[FrenchRow], ascii_only: bool) -> list[str]:
    body = []
    for row in rows:
        body.append([
            str(row.taker + 1), row.contract.value,
            format_cards(row.discard) if row.discard else "-",
            _bounds(row.points.lower, row.points.upper, True),
            _bounds(row.margin.lower, row.margin.upper, True),
            _bounds(row.score.lower, row.score.upper, False), _made(row),
            (f"{row.discards_examined}/{row.discards_legal}" if row.discards_legal else "-"),
            f"{row.nodes:,}", f"{row.seconds:.1f}",
        ])
    header = ["Taker", "Contract", "Discard", "Points", "Margin", "Score", "Made",
              "Discards", "Nodes", "s"]
    return [plain(line, ascii_only) for line in table(body, header)]


def card_list(text: str, where: str) -> list[int]:
    """The cards of a list given as text (spaces, commas or semicolons between them), in
    order; the error names ``where`` and every bad token."""
    return parse_cards(re.split(r"[\s,;]+", text.strip()), where=where)


@dataclass(frozen=True)
class FrenchTable:
    """A solved table: its rules and deal, the cards played before the rows (in order),
    the rows, and with ``cards`` the taker's card points after each card the next player
    (``mover``, 0-based) may play in the first row's position."""

    rules: FrenchRules
    deal: FrenchDeal
    played: list[int]
    rows: list[FrenchRow]
    values: dict[int, SearchResult] | None = None
    mover: int | None = None
    taker: int | None = None


def solve_rows(deal: FrenchDeal, rules: FrenchRules, *, takers: Sequence[str] = (),
               contracts: Sequence[str] = (), discard: str | None = None,
               max_discards: int = DEFAULT_DISCARDS, play: str | None = None,
               poignees: Sequence[str] = (), chelem: bool = False, cards: bool = False,
               budget: Budget | None = None,
               progress: Callable[[int, int], None] | None = None) -> FrenchTable:
    """The rows of ``deal`` for the ``takers`` (seats "1" to "4"; all when empty) and the
    ``contracts`` (all when empty), as the options of the command give them; ``budget``
    per row.  Every input is read and the play checked for every row before the first
    search; ``progress(done, total)`` after each row."""
    budget = budget or Budget()
    seats = [_seat(t) for t in takers] if takers else list(range(4))
    chosen = [Contract.parse(c) for c in contracts] if contracts else list(Contract)
    shown = [_poignee(p) for p in poignees]
    given = None
    if discard is not None:
        if len(seats) != 1 or any(not c.exchanges for c in chosen):
            raise RulesError("--discard needs one --taker and the contracts petite or garde.")
        given = sum(1 << c for c in card_list(discard, "--discard"))
    played = [] if play is None else card_list(play, "--play")
    # Before any long work: the record of play is legal for every row asked for.
    if played:
        if given is None and any(c.exchanges for c in chosen):
            raise RulesError("--play after a Petite or a Garde needs the --discard played.")
        for seat in seats:
            for contract in chosen:
                pos = start_position(deal, seat, contract, given if contract.exchanges else 0,
                                     chelem_announced=chelem)
                continue_play(pos, played, excuse_last=rules.excuse_last_trick)
    search = FrenchSearch(excuse_last=rules.excuse_last_trick)
    rows = []
    total = len(seats) * len(chosen)
    for seat in seats:
        for contract in chosen:
            rows.append(solve_row(deal, seat, contract, rules, search=search, budget=budget,
                                  discard=given if contract.exchanges else None,
                                  max_discards=max_discards, poignees=shown,
                                  chelem_announced=chelem, play=played))
            if progress is not None:
                progress(len(rows), total)
    if not cards:
        return FrenchTable(rules, deal, played, rows)
    first = rows[0]
    pos = continue_play(start_position(deal, first.taker, first.contract, first.discard,
                                       chelem_announced=chelem), played,
                        excuse_last=rules.excuse_last_trick)
    values = search.card_values(pos, budget=budget)
    return FrenchTable(rules, deal, played, rows, values, pos.mover, pos.taker)


def json_document(solved: FrenchTable) -> dict[str, Any]:
    """What ``--json`` prints."""
    doc: dict[str, Any] = {
        "game": "french", "rules": solved.rules.name, "deal": format_deal(solved.deal),
        # in the order played, which the record needs (not the canonical order of a set)
        "play": " ".join(CARD_IDS[c] for c in solved.played),
        "rows": [r.to_dict() for r in solved.rows]}
    if solved.values is not None:
        doc["cards"] = {format_cards([c]): [v.lower, v.upper] for c, v in solved.values.items()}
    return doc


def table_lines(solved: FrenchTable, ascii_only: bool) -> list[str]:
    """What the command prints without ``--json``: the rows, the budget's note when a row
    ran out of it, the card values."""
    out = [f"French Tarot, rules {solved.rules.name}: card points and margin in points, score "
           "per defender.", *_lines(solved.rows, ascii_only)]
    if any(not r.complete for r in solved.rows):
        out.append("* over the budget: the bounds proved so far (--time-limit, --node-limit); "
                   "a discard count below the legal ones means the best of those examined.")
    if solved.values is not None and solved.mover is not None:
        seat = solved.mover + 1
        wants = "high" if solved.mover == solved.taker else "low"
        out += ["", f"The taker's card points after each card seat {seat} may play "
                    f"(seat {seat} wants them {wants}):"]
        for c, v in sorted(solved.values.items(), key=lambda kv: -kv[1].lower):
            out.append(f"  {format_cards([c]):>4}  {_bounds(v.lower, v.upper, True)}")
    return out


@click.command("solve")
@click.argument("words", nargs=-1, metavar="DEAL")
@click.option("--taker", "takers", multiple=True, metavar="1-4",
              help="Only this taker seat (repeatable; default all four).")
@click.option("--contract", "contracts", multiple=True, metavar="NAME",
              help="Only this contract: petite, garde, garde_sans, garde_contre (repeatable).")
@click.option("--discard", "discard", default=None, metavar="CARDS",
              help="The taker's discard (one taker, Petite or Garde) instead of the best one.")
@click.option("--discards", "max_discards", default=DEFAULT_DISCARDS, show_default=True,
              type=click.IntRange(min=1), metavar="N",
              help="Discards examined exactly per row, the most promising first (most "
                   "suits voided, most points put away).")
@click.option("--play", "play", default=None, metavar="CARDS",
              help="Cards already played, from the first trick, in order (a revoke is "
                   "refused); the rows value the rest of the play.")
@click.option("--poignee", "poignees", multiple=True, metavar="SIDE:LEVEL",
              help="A poignée shown, e.g. taker:simple or defence:double (repeatable).")
@click.option("--chelem", "chelem", is_flag=True,
              help="The taker announces a chelem (he then leads the first trick).")
@click.option("--cards", is_flag=True,
              help="Also the card points of each card the next player may play (first row).")
@click.option("--time-limit", "time_limit", default=10.0, show_default=True,
              type=click.FloatRange(min=0.01), metavar="S", help="Seconds per row.")
@click.option("--node-limit", "node_limit", default=None, type=click.IntRange(min=1),
              metavar="N", help="Search nodes per row (with or instead of --time-limit).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], takers: tuple[str, ...],
            contracts: tuple[str, ...], discard: str | None, max_discards: int,
            play: str | None, poignees: tuple[str, ...], chelem: bool, cards: bool,
            time_limit: float, node_limit: int | None, as_json: bool) -> None:
    """Double-dummy table of a French Tarot deal: per taker seat and contract, the
    discard, the taker's card points, his margin over the target and the score per
    defender (the federation's rules, profile fft).

    DEAL is French Tarot deal notation, "1:<hand> <hand> <hand> <hand>/<chien>", or
    example-1; seat 1 leads the first trick.  A whole deal is a large search: a row
    that runs out of --time-limit (or --node-limit) shows the bounds it proved,
    marked *; --play continues a deal from the cards played, where the search is fast.
    """
    rules = settings.loaded_rules
    assert isinstance(rules, FrenchRules)
    deal = read_deal(words)
    solved = solve_rows(deal, rules, takers=takers, contracts=contracts, discard=discard,
                        max_discards=max_discards, play=play, poignees=poignees, chelem=chelem,
                        cards=cards, budget=Budget(nodes=node_limit, seconds=time_limit))
    if as_json:
        click.echo(json.dumps(json_document(solved), indent=2, ensure_ascii=False))
        return
    for line in table_lines(solved, settings.ascii):
        click.echo(line)
