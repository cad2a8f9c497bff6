"""`tarock review`: the double-dummy cost of every card of a played deal.

RECORD is a play record (NOTATION.md section 8) given as text (quote it; fields may be
separated by ";"), a file holding one record as text, a ``.jsonl``/``.csv`` file of
records, or ``example`` for the shipped example record.  Every record is read and
checked against the rules of play before any search starts; a bad one stops the
command with exit status 2 and a message naming the trick and the card.  The work is
done by :mod:`tarock_solver.review`; this module reads, checks and formats.
"""

from __future__ import annotations

import json
import sys
from importlib import resources

import click

from tarock_solver.review import PlayRecord, check_record, parse_record
from tarock_solver.review.engine import EstimatedStep, estimate_line, review_line
from tarock_solver.review.files import read_play_records
from tarock_solver.review.report import review_lines, review_to_json

from ..main import Settings
from ._output import PLOT_SUFFIXES, check_output
from ._records import read_record_argument
from ._text import plain, stdout_encoding

EXAMPLE = "review_example.txt"


def example_text() -> str:
    """The shipped example record (``tarock_solver/data/review_example.txt``)."""
    return resources.files("tarock_solver").joinpath("data", EXAMPLE).read_text(encoding="utf-8")


def _read(words: tuple[str, ...]) -> list[PlayRecord]:
    return read_record_argument(
        words, example=example_text, parse=parse_record, read_file=read_play_records,
        usage='give a play record, a file of records or "example", e.g. '
              "tarock review example.")


@click.command("review")
@click.argument("words", nargs=-1, metavar="RECORD|FILE")
@click.option("--id", "record_id", metavar="ID", help="Only the record with this id (files).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the review as JSON (one object per line for several records).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Draw the declarer's DD card points after each card, mistakes marked "
                   "(one record; matplotlib).")
@click.option("--mistakes", "mistakes_only", is_flag=True,
              help="List only the cards that lost something.")
@click.option("--game-points/--no-game-points", "game_points", default=None,
              help="Also the net game points (default: when the record announces something).")
@click.option("--no-exchange", is_flag=True, help="Do not judge the talon exchange.")
@click.option("--estimate", "estimate", is_flag=True,
              help="First print the learned evaluator's instant view: the declarer's "
                   "estimated points before each trick (estimates, not verdicts).")
@click.option("--estimate-only", "estimate_only", is_flag=True,
              help="Only the evaluator's instant view, no search.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N",
              help="At most N search nodes per position; cards it does not settle get no "
                   "verdict.")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], record_id: str | None, as_json: bool,
            plot_path: str | None, mistakes_only: bool, game_points: bool | None,
            no_exchange: bool, estimate: bool, estimate_only: bool,
            node_limit: int | None) -> None:
    """Review a played deal: for every card the declarer's double-dummy card points
    before and after it, the best alternatives and the loss it caused; per player the
    total loss and the worst three decisions; the exchange against the best one.

    RECORD is play-record text (NOTATION.md 8), a file with one record, a .jsonl/.csv
    file of records, or "example" (the shipped example record).
    """
    from tqdm import tqdm

    from tarock_solver.solver import Budget, CardPointSearch

    if estimate_only and plot_path:
        raise click.UsageError("--estimate-only runs no search: there is nothing to plot.")
    if plot_path:
        check_output(plot_path, "--plot", suffixes=PLOT_SUFFIXES)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise click.UsageError("--plot needs matplotlib: pip install "
                                   "'tarock-solver[plot]'.") from None
    records = _read(words)
    if record_id is not None:
        records = [r for r in records if r.id == record_id]
        if not records:
            raise click.UsageError(f'no record with id "{record_id}".')
    if plot_path and len(records) > 1:
        raise click.UsageError("--plot draws one record; choose it with --id.")
    # Every record is checked before the first search: a bad one must not wait behind
    # minutes of work.
    lines = []
    for rec in records:
        rules = settings.rules_named(rec.rules or settings.rules, rec.options)
        lines.append((check_record(rec, rules), rules))
    search = CardPointSearch()
    budget = Budget(nodes=node_limit)
    ascii_only = settings.ascii or not _symbols_ok()
    for i, (line, rules) in enumerate(lines):
        first_view = estimate_line(line) if estimate or estimate_only else None
        if first_view is not None and not as_json:
            if i:
                click.echo()
            for text in _estimate_lines(line.record.id, first_view):
                click.echo(plain(text, ascii_only))
        if estimate_only:
            if as_json:
                click.echo(json.dumps({"record": line.record.id, "estimate": [
                    {"trick": e.trick, "points": round(e.points, 2)} for e in first_view or ()]},
                    ensure_ascii=False))
            continue
        with tqdm(total=len(line.record.play), desc="reviewing", unit="card",
                  file=sys.stderr, disable=None, leave=False) as bar:
            rv = review_line(line, rules, search=search, budget=budget,
                             game_points=game_points, exchange=not no_exchange,
                             progress=lambda done, _total: bar.update(1))
        if as_json:
            doc = review_to_json(rv)
            if first_view is not None:
                doc["estimate"] = [{"trick": e.trick, "points": round(e.points, 2)}
                                   for e in first_view]
            click.echo(json.dumps(doc, ensure_ascii=False,
                                  indent=None if len(lines) > 1 else 1))
        else:
            if i or first_view is not None:
                click.echo()
            for text in review_lines(rv, ascii_only=ascii_only, all_cards=not mistakes_only):
                click.echo(plain(text, ascii_only))
        if plot_path:
            from tarock_solver.review.plot import plot_review

            plot_review(rv, plot_path, ascii_only=ascii_only)
            click.echo(f"Wrote {plot_path}.", err=True)


def _estimate_lines(record_id: str, steps: tuple[EstimatedStep, ...]) -> list[str]:
    """The evaluator's first view: estimated points before each trick, the largest
    swings named (where to look first)."""
    if not steps:
        return []
    head = (f"Evaluator's first view{f' of {record_id}' if record_id else ''}: the "
            "declarer's estimated points before each trick (estimates, not verdicts)")
    cells = [f"{e.trick if e.trick <= 16 else 'end'}: {e.points:.1f}" for e in steps]
    lines = [head] + ["  " + "  ".join(cells[k:k + 9]) for k in range(0, len(cells), 9)]
    swings = sorted(((steps[k + 1].points - steps[k].points, steps[k].trick)
                     for k in range(len(steps) - 1)), key=lambda st: -abs(st[0]))[:3]
    if swings:
        lines.append("  largest swings: " + ", ".join(f"trick {t} {d:+.1f}" for d, t in swings))
    return lines


def _symbols_ok() -> bool:
    from tarock_solver.diagram import can_show_symbols

    return can_show_symbols(stdout_encoding())
