"""The benchmark's fixed positions, built from the shipped seeded deals.

Deal i of ``tarock_solver/data/bench_deals.jsonl`` becomes a Solo-like play: the three dealt hands,
F leads trick 1, declarer seat ``i % 3`` (so every seat declares a third of the
deals), the talon plays no part.  Positions with fewer tricks left come from the same
deal after playing its first tricks with a seeded random legal policy (one generator
per deal, so position i never depends on how many deals are benchmarked); the 14-,
12-, 10- and 8-trick positions of a deal lie on one line of play.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..deal import Deal
from ..deal_files import DealRecord, read_deals
from ..errors import FileFormatError
from ..play import random_play_out

__all__ = [
    "BENCH_FILE",
    "DEFAULT_TRICKS",
    "PLAYOUT_SEED",
    "BenchPosition",
    "bench_positions",
    "find_bench_deals",
    "load_bench_deals",
]

BENCH_FILE = "bench_deals.jsonl"
#: Tricks remaining at which the cost curve is measured.
DEFAULT_TRICKS = (8, 10, 12, 14, 16)
#: Seed of the random play that shortens the deals (part of the benchmark definition).
PLAYOUT_SEED = 20261130


@dataclass(frozen=True)
class BenchPosition:
    """One benchmark position: a fresh trick led by ``leader``."""

    deal_id: str
    index: int
    tricks: int
    hands: tuple[int, int, int]
    leader: int
    declarer: int


def find_shipped_file(name: str, path: str | os.PathLike[str] | None = None, *,
                      what: str = "deal file", hint: str = "") -> Path:
    """A shipped data file: ``path`` if given, else the file shipped as package data
    (``tarock_solver/data``)."""
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise FileFormatError(f"{p}: no such {what}.", path=str(p))
        return p
    packaged = Path(str(resources.files("tarock_solver").joinpath("data", name)))
    if packaged.is_file():
        return packaged
    raise FileFormatError(f"cannot find {name}; looked in {packaged}.{hint}")


def find_bench_deals(path: str | os.PathLike[str] | None = None) -> Path:
    """The benchmark deal file (see :func:`find_shipped_file`)."""
    return find_shipped_file(BENCH_FILE, path, hint=(
        " Reinstall tarock-solver or give the file with --deals-file PATH."))


def load_bench_deals(path: str | os.PathLike[str] | None = None,
                     count: int | None = None) -> list[DealRecord]:
    """The first ``count`` deals (all by default) of the benchmark file."""
    records = read_deals(find_bench_deals(path), strict=True)
    if count is not None:
        if count < 1:
            raise FileFormatError(f"the benchmark needs at least one deal; {count} requested.")
        records = records[:count]
    for r in records:
        if not isinstance(r.deal, Deal):
            raise FileFormatError(f"deal {r.id}: benchmark deals must be complete.",
                                  record_id=r.id)
    return records


def bench_positions(records: list[DealRecord], tricks: tuple[int, ...] = DEFAULT_TRICKS,
                    seed: int = PLAYOUT_SEED) -> dict[int, list[BenchPosition]]:
    """Positions by tricks remaining (each 1..16), one per deal, in deal order."""
    levels = sorted(set(int(t) for t in tricks), reverse=True)
    for t in levels:
        if not 1 <= t <= 16:
            raise ValueError(f"tricks remaining must be 1..16, not {t}")
    out: dict[int, list[BenchPosition]] = {t: [] for t in levels}
    for i, record in enumerate(records):
        deal = record.deal
        assert isinstance(deal, Deal)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        hands, leader, left = deal.hands, 0, 16
        for t in levels:
            hands, leader = random_play_out(hands, leader, left - t, rng)
            left = t
            out[t].append(BenchPosition(record.id, i, t, hands, leader, i % 3))
    return out
