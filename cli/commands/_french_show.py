"""`tarock --game french show`: French Tarot deals as diagrams with card points and the chien."""

from __future__ import annotations

import click

from tarock_solver.deal import capture_warnings
from tarock_solver.diagram import can_show_symbols
from tarock_solver.errors import FileFormatError
from tarock_solver.french.deal import FrenchDeal, FrenchPartialDeal
from tarock_solver.french.deal_files import read_deals
from tarock_solver.french.diagram import points_table, render_deal
from tarock_solver.french.notation import example_or_text, parse_deal

from ..main import Settings
from ._text import stdout_encoding

DEMO = "example-1"
_FILE_SUFFIXES = (".jsonl", ".ndjson", ".csv")


def _print_deal(deal: FrenchDeal | FrenchPartialDeal, name: str | None, rules: str,
                ascii: bool) -> bool:
    click.echo(render_deal(deal, name=name, rules=rules, ascii=ascii))
    click.echo()
    table = points_table(deal)
    click.echo("\n".join(table))
    return not table[-1].startswith("Check FAILED")


def show_french(settings: Settings, words: tuple[str, ...], record_id: str | None,
                name: str | None) -> None:
    """The French Tarot side of `tarock show` (same arguments, same exit statuses)."""
    ascii = settings.ascii or not can_show_symbols(stdout_encoding())
    text = " ".join(words).strip()
    if not text:
        if words:
            raise click.UsageError('empty deal: give deal notation such as "1:<hand> <hand> '
                                   '<hand> <hand>/<chien>", example-1 or a deal file (leave '
                                   "DEAL out for the demo deal).")
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
            shown = [(r.deal, name or r.id, r.rules or settings.rules) for r in records]
        elif record_id is not None:
            raise click.UsageError("--id selects a deal of a .jsonl or .csv file.")
        else:
            deal_text = example_or_text(text)
            example = deal_text is not text
            shown = [(parse_deal(deal_text), name or (text.lower() if example else None),
                      settings.rules)]
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    ok = True
    for k, (deal, deal_name, deal_rules) in enumerate(shown):
        if k:
            click.echo()
        ok &= _print_deal(deal, deal_name, deal_rules, ascii)
    if not ok:
        raise click.exceptions.Exit(1)
