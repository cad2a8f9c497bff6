"""`tarock --game french review`: what every card of a played French Tarot deal cost.

RECORD is a played deal (FRENCH_NOTATION.md section 8) given as text (quote it; fields
may be separated by ";"), a file holding one record as text, a ``.jsonl``/``.csv`` deal
file whose records carry their play, or ``example`` for the shipped example.  Every
record is read and played through the rules of play before any search starts; a bad
one stops the command with exit status 2 and a message naming the trick, the seat and
the card.  The work is done by :mod:`tarock_solver.french.review`; this module reads,
checks and formats.  The web app's Review page of French Tarot takes the shipped example
(:func:`example_text`) and the evaluator (:func:`learned_evaluator`) from here.
"""

from __future__ import annotations

import json
import sys
from importlib import resources

import click

from tarock_solver.french.deal_files import FrenchDealRecord, parse_record, read_deals
from tarock_solver.french.review import (
    EXACT_TRICKS,
    FrenchPlayLine,
    ValueSource,
    check_play,
    learned_values,
    review_line,
)
from tarock_solver.french.review.report import review_lines, review_to_json
from tarock_solver.french.rules import FrenchRules

from ..main import Settings
from ._french import plain_french
from ._records import read_record_argument
from ._text import stdout_encoding

EXAMPLE = "french_review_example.txt"
#: Tricks in a French Tarot deal (four players).
_TRICKS = 18


def example_text() -> str:
    """The shipped example record (``tarock_solver/data/french_review_example.txt``)."""
    return resources.files("tarock_solver").joinpath("data", EXAMPLE).read_text(encoding="utf-8")


def _read(words: tuple[str, ...]) -> list[FrenchDealRecord]:
    return read_record_argument(
        words, example=example_text, parse=parse_record, read_file=read_deals,
        usage='give a played deal, a file of them or "example", e.g. '
              "tarock --game french review example.")


def learned_evaluator(lines: list[FrenchPlayLine], estimate: bool, exact_tricks: int
                      ) -> tuple[ValueSource | None, str | None, str]:
    """The learned evaluator's values for the cards before the exact tricks, its name and
    the note on why there is none: loaded only when ``estimate`` and some card of
    ``lines`` is played with more than ``exact_tricks`` tricks left."""
    if not estimate:
        return None, None, "--no-estimate"
    if any(p.tricks_left > exact_tricks for ln in lines for p in ln.positions):
        values, found = learned_values()
        return (values, found, "") if values is not None else (None, None, found)
    return None, None, ""


@click.command("review")
@click.argument("words", nargs=-1, metavar="RECORD|FILE")
@click.option("--id", "record_id", metavar="ID", help="Only the record with this id (files).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the review as JSON (one object per line for several records).")
@click.option("--mistakes", "mistakes_only", is_flag=True,
              help="List only the cards that lost something.")
@click.option("--exact-tricks", "exact_tricks", default=EXACT_TRICKS, show_default=True,
              type=click.IntRange(1, _TRICKS), metavar="N",
              help="Judge exactly the cards played with at most N tricks left (from 12 on a "
                   "position can take minutes).")
@click.option("--margin/--no-margin", "margin", default=True, show_default=True,
              help="Also the taker's margin over his target per card (a second search).")
@click.option("--estimate/--no-estimate", "estimate", default=True, show_default=True,
              help="Estimate the earlier cards with the learned evaluator when it is "
                   "installed (marked ~); without it they are not judged.")
@click.option("--time-limit", "time_limit", default=10.0, show_default=True,
              type=click.FloatRange(min=0.01), metavar="S",
              help="Seconds per position; a card it does not settle shows the bounds "
                   "proved (and the estimate, if any), no exact verdict.")
@click.option("--node-limit", "node_limit", default=None, type=click.IntRange(min=1),
              metavar="N", help="Search nodes per position (with or instead of --time-limit).")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], record_id: str | None, as_json: bool,
            mistakes_only: bool, exact_tricks: int, margin: bool, estimate: bool,
            time_limit: float, node_limit: int | None) -> None:
    """Review a played French Tarot deal: for every card the taker's double-dummy card
    points before and after it, what it cost its player (in points and in the taker's
    margin over his target), the best alternatives; per seat the total loss and the
    worst decisions.

    Exact from the last --exact-tricks tricks (the solver); before that the learned
    evaluator's estimates, marked ~, when it is installed, else those cards are not
    judged.  RECORD is a played deal as text (FRENCH_NOTATION.md 8), a file with one,
    a .jsonl/.csv deal file whose records carry their play, or "example".
    """
    from tqdm import tqdm

    from tarock_solver.french.solver import FrenchSearch
    from tarock_solver.solver import Budget

    records = _read(words)
    if record_id is not None:
        records = [r for r in records if r.id == record_id]
        if not records:
            raise click.UsageError(f'no record with id "{record_id}".')
    # Every record is checked before the first search: a bad one must not wait behind
    # minutes of work.
    lines: list[FrenchPlayLine] = []
    for rec in records:
        rules = settings.rules_named(rec.rules or settings.rules, rec.options)
        assert isinstance(rules, FrenchRules)
        lines.append(check_play(rec, rules))
    values, evaluator, note = learned_evaluator(lines, estimate, exact_tricks)
    budget = Budget(nodes=node_limit, seconds=time_limit)
    searches: dict[tuple[str, str], FrenchSearch] = {}

    def search(kind: str, excuse_last: str) -> FrenchSearch:
        # One table per objective and Excuse rule, kept from record to record (a table
        # clears itself for another deal).
        if (kind, excuse_last) not in searches:
            searches[kind, excuse_last] = FrenchSearch(excuse_last=excuse_last)
        return searches[kind, excuse_last]

    ascii_only = settings.ascii or not _symbols_ok()
    for i, line in enumerate(lines):
        points = search("points", line.excuse_last)
        margins = search("margin", line.excuse_last) if margin else None
        with tqdm(total=len(line.play), desc="reviewing", unit="card", file=sys.stderr,
                  disable=None, leave=False) as bar:
            rv = review_line(line, search=points, budget=budget, values=values,
                             evaluator=evaluator, evaluator_note=note,
                             exact_tricks=exact_tricks, margin=margin, margin_search=margins,
                             progress=lambda done, _total: bar.update(1))
        if as_json:
            click.echo(json.dumps(review_to_json(rv), ensure_ascii=False,
                                  indent=None if len(lines) > 1 else 1))
            continue
        if i:
            click.echo()
        for text in review_lines(rv, ascii_only=ascii_only, all_cards=not mistakes_only):
            click.echo(plain_french(text, ascii_only))


def _symbols_ok() -> bool:
    from tarock_solver.diagram import can_show_symbols

    return can_show_symbols(stdout_encoding())
