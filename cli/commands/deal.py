"""`tarock deal`: reproducible random deals as diagrams, JSON Lines or CSV."""

from __future__ import annotations

import io
import secrets
from pathlib import Path

import click

from tarock_solver.deal import random_deals
from tarock_solver.deal_files import DealRecord, dump_deals
from tarock_solver.diagram import can_show_symbols, render_deal
from tarock_solver.errors import FileFormatError
from tarock_solver.notation import format_deal

from ..main import Settings
from ._output import check_output
from ._text import stdout_encoding

_FORMAT_OF_SUFFIX = {".txt": "text", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
#: Fresh seeds stay below 10**9, short enough to read aloud and type back.
_SEED_LIMIT = 10**9


def _output_format(fmt: str | None, output: Path | None) -> str:
    """The format to write: --format, else the one the file name asks for.

    A file type this command does not write is refused rather than filled with text
    (``-o deals.xlsx``); a name without a type is fine when --format says what to write.
    """
    if output is None:
        return fmt or "text"
    suffix = output.suffix.lower()
    suffix_fmt = _FORMAT_OF_SUFFIX.get(suffix)
    if suffix_fmt is None and (suffix or fmt is None):
        check_output(output, "-o", suffixes=_FORMAT_OF_SUFFIX)
    if fmt is None:
        return suffix_fmt or "text"
    if suffix_fmt is not None and suffix_fmt != fmt:
        raise click.UsageError(f"--format {fmt} does not match the file name {output}; "
                               f"use a .{fmt if fmt != 'text' else 'txt'} file or drop --format.")
    return fmt


def _text(records: list[DealRecord], seed: int, rules: str, ascii: bool) -> str:
    count = len(records)
    lines = [f"Seed {seed}: {count} deal{'s' if count != 1 else ''} "
             f"(again with: tarock deal --seed {seed} --count {count})"]
    for record in records:
        lines += ["", render_deal(record.deal, name=record.id, rules=rules, ascii=ascii),
                  format_deal(record.deal)]
    return "\n".join(lines) + "\n"


@click.command("deal")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="N",
              help="Seed of the deal stream (default: a fresh seed, printed with the deals).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Number of deals.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl", "csv"]), default=None,
              help="Output format (default: from the -o file extension, else text).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
@click.option("--players", type=click.IntRange(3, 5), default=None, metavar="3|4|5",
              help="French Tarot: the number of players (default 4).")
@click.pass_obj
def command(settings: Settings, seed: int | None, count: int, fmt: str | None,
            output: Path | None, players: int | None) -> None:
    """Deal random hands: uniform deals, a deal with a tarock-less hand is redealt.

    The same seed always gives the same deals, and deal i does not depend on --count,
    so `--seed 7 --count 100` extends `--seed 7 --count 10`.  Ids are deal-<seed>-<i>.

    With --game french: French Tarot deals of 3, 4 or 5 hands and a chien; deal i is
    the deal of seed N + i, its id deal-<N + i>.
    """
    fmt = _output_format(fmt, output)
    if output is not None:
        check_output(output, "-o")
    if settings.game == "french":
        from ._french_deal import deal_french

        deal_french(settings, seed, count, fmt, output, 4 if players is None else players)
        return
    if players is not None:
        raise click.UsageError("--players is for --game french; Illustrated Tarock has three "
                               "players.")
    if seed is None:
        seed = secrets.randbelow(_SEED_LIMIT)
    records = [DealRecord(id=f"deal-{seed}-{i}", deal=deal, seed=seed)
               for i, deal in enumerate(random_deals(seed, count))]

    if fmt == "text":
        symbols = output is not None or can_show_symbols(stdout_encoding())
        text = _text(records, seed, settings.loaded_rules.name,
                     ascii=settings.ascii or not symbols)
    else:
        buffer = io.StringIO(newline="")
        dump_deals(records, buffer, fmt, name=str(output or "stdout"))  # type: ignore[arg-type]
        text = buffer.getvalue()

    if output is None:
        click.echo(text, nl=False)
        return
    try:
        with output.open("w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise FileFormatError(f"{output}: cannot write the file ({exc.strerror or exc}).",
                              path=str(output)) from None
    click.echo(f"Wrote {count} deal{'s' if count != 1 else ''} (seed {seed}) to {output}.",
               err=True)
