"""`tarock --game french deal`: seeded random French Tarot deals as text, JSON Lines or CSV."""

from __future__ import annotations

import io
import secrets
from pathlib import Path

import click

from tarock_solver.diagram import can_show_symbols
from tarock_solver.errors import FileFormatError
from tarock_solver.french.deal import random_deals
from tarock_solver.french.deal_files import FrenchDealRecord, dump_deals
from tarock_solver.french.diagram import render_deal
from tarock_solver.french.notation import format_deal

from ..main import Settings
from ._text import stdout_encoding

#: Fresh seeds stay below 10**9, short enough to read aloud and type back.
_SEED_LIMIT = 10**9


def _again(seed: int, count: int, players: int) -> str:
    words = ["tarock --game french deal --seed", str(seed)]
    if count != 1:
        words += ["--count", str(count)]
    if players != 4:
        words += ["--players", str(players)]
    return " ".join(words)


def _text(records: list[FrenchDealRecord], seed: int, count: int, players: int, rules: str,
          ascii: bool) -> str:
    which = f"{count} deal" if count == 1 else f"{count} deals, seeds {seed} to {seed + count - 1}"
    lines = [f"Seed {seed}: {which} (again with: {_again(seed, count, players)})"]
    for record in records:
        lines += ["", render_deal(record.deal, name=record.id, rules=rules, ascii=ascii),
                  format_deal(record.deal)]
    return "\n".join(lines) + "\n"


def deal_french(settings: Settings, seed: int | None, count: int, fmt: str,
                output: Path | None, players: int) -> None:
    """The French Tarot side of `tarock deal`: deal i is the deal of seed ``seed + i``
    (:func:`tarock_solver.french.deal.random_deal`), its id ``deal-<its seed>``."""
    if seed is None:
        seed = secrets.randbelow(_SEED_LIMIT)
    records = [FrenchDealRecord(id=f"deal-{seed + i}", deal=deal, seed=seed + i)
               for i, deal in enumerate(random_deals(seed, count, players))]
    if fmt == "text":
        symbols = output is not None or can_show_symbols(stdout_encoding())
        text = _text(records, seed, count, players, settings.rules,
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
