"""`tarock show`: print a deal as a diagram with the card points of each hand and the talon."""

from __future__ import annotations

import click

from tarock_solver.cards import (
    FULL_MASK,
    SEAT_NAMES,
    TOTAL_THIRDS,
    format_thirds,
    round_points,
    thirds_of,
)
from tarock_solver.deal import Deal, PartialDeal, capture_warnings
from tarock_solver.deal_files import read_deals
from tarock_solver.diagram import can_show_symbols, render_deal
from tarock_solver.errors import FileFormatError
from tarock_solver.notation import example_or_text, parse_deal

from ..main import Settings
from ._text import stdout_encoding

DEMO = "example-1"
_FILE_SUFFIXES = (".jsonl", ".ndjson", ".csv")


def points_table(deal: Deal | PartialDeal, *, ascii: bool = False) -> list[str]:
    """Card points of F, M, R and the talon (thirds, exact, rounded) and the 210-thirds check.

    Unknown hands and an unknown talon are pooled in one "unknown" row, so the check
    covers partial deals too.
    """
    rows: list[tuple[str, int | None]] = []
    placed = 0
    for seat, mask in zip(SEAT_NAMES, deal.hands, strict=True):
        rows.append((seat, None if mask is None else thirds_of(mask)))
        placed |= mask or 0
    talon_mask = deal.talon_mask
    rows.append(("Talon", None if talon_mask is None else thirds_of(talon_mask)))
    placed |= talon_mask or 0
    unknown = FULL_MASK & ~placed
    if unknown:
        rows.append((f"Unknown ({unknown.bit_count()} cards)", thirds_of(unknown)))

    lines = [f"{'Card points':<20}{'thirds':>7}{'exact':>9}{'rounded':>9}"]
    for label, thirds in rows:
        if thirds is None:
            lines.append(f"{label:<20}{'?':>7}{'?':>9}{'?':>9}")
        else:
            lines.append(f"{label:<20}{thirds:>7}{format_thirds(thirds, ascii):>9}"
                         f"{round_points(thirds):>9}")
    known = [t for _, t in rows if t is not None]
    total = sum(known)
    lines.append(f"{'Total':<20}{total:>7}{format_thirds(total, ascii):>9}")
    sums = " + ".join(str(t) for t in known)
    if total == TOTAL_THIRDS:
        lines.append(f"Check: {sums} = {total} thirds = {total // 3} points, as in every deal.")
    else:
        lines.append(f"Check FAILED: {sums} = {total} thirds, but a pack holds {TOTAL_THIRDS}.")
    return lines


def _print_deal(deal: Deal | PartialDeal, name: str | None, rules: str, ascii: bool) -> bool:
    click.echo(render_deal(deal, name=name, rules=rules, ascii=ascii))
    click.echo()
    table = points_table(deal, ascii=ascii)
    click.echo("\n".join(table))
    return not table[-1].startswith("Check FAILED")


@click.command("show")
@click.argument("words", nargs=-1, metavar="[DEAL | FILE]")
@click.option("--id", "record_id", metavar="ID", help="With a deal file: show only this deal.")
@click.option("--name", metavar="NAME", help="Deal name for the header (default: the id, if any).")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], record_id: str | None,
            name: str | None) -> None:
    """Show a deal as a diagram, with the card points of each hand and the talon.

    DEAL is deal notation, e.g. "F:<hand> <hand> <hand>/<t1>,…,<t6>" (quote it, or give
    the hands and the talon as separate words); `example-1` … `example-3` name the worked
    examples.  A .jsonl or .csv FILE shows every deal in it.  Without an argument the
    demo deal example-1 is shown.

    With --game french, DEAL is French Tarot deal notation, "1:<hand> <hand> <hand>
    <hand>/<chien>" (3, 4 or 5 hands), and the points are counted in half points.
    """
    if settings.game == "french":
        from ._french_show import show_french

        show_french(settings, words, record_id, name)
        return
    rules_name = settings.loaded_rules.name
    ascii = settings.ascii or not can_show_symbols(stdout_encoding())
    text = " ".join(words).strip()
    if not text:
        if words:
            raise click.UsageError('empty deal: give deal notation such as "F:<hand> <hand> '
                                   '<hand>/<t1>,…,<t6>", example-1 … example-3 or a deal file '
                                   "(leave DEAL out for the demo deal).")
        text = DEMO

    with capture_warnings() as messages:
        if len(words) == 1 and text.lower().endswith(_FILE_SUFFIXES):
            records = read_deals(text, strict=True)
            if not records:
                raise FileFormatError(f"{text}: the file holds no deal.", path=text)
            if record_id is not None:
                records = [r for r in records if r.id == record_id]
                if not records:
                    raise click.UsageError(f'{text} has no deal with id "{record_id}".')
            shown = [(r.deal, name or r.id, r.rules or rules_name) for r in records]
        elif record_id is not None:
            raise click.UsageError("--id selects a deal of a .jsonl or .csv file.")
        else:
            deal_text = example_or_text(text)
            example = deal_text is not text
            shown = [(parse_deal(deal_text), name or (text.lower() if example else None),
                      rules_name)]
    for message in messages:
        click.echo(f"Warning: {message}", err=True)

    ok = True
    for k, (deal, deal_name, deal_rules) in enumerate(shown):
        if k:
            click.echo()
        ok &= _print_deal(deal, deal_name, deal_rules, ascii)
    if not ok:
        raise click.exceptions.Exit(1)
