"""The French Tarot evaluator's labels: exact solves near the end, look-ahead above.

A level is the positions with ``t`` tricks left (:func:`.positions.sample_position`,
indices ``0 … count-1`` of one seed).  Up to :data:`EXACT_LEVELS` tricks left a label is
the exact solver's answer (:func:`exact_level`: the taker's half points from the
remaining tricks and his final margin, each its own search); a position the node budget
does not finish is left out and counted.  Above, a label is one trick of look-ahead over
the model trained on the levels below (:func:`lookahead_level`): every line of the
trick, the model at the next trick's start, the minimax.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...solver import Budget
from ...training.labels import write_npz
from ..estimate.model import FrenchEvaluator, PositionArrays, position_arrays
from ..solver import FrenchPosition, FrenchSearch, margin_table
from .positions import sample_position

__all__ = ["EXACT_LEVELS", "FIELDS", "exact_level", "load_level", "lookahead_level",
           "save_level"]

#: Tricks left up to which labels are exact solves.
EXACT_LEVELS = 8
#: Node budget of one exact label (a position beyond it is left out).
NODE_BUDGET = 40_000_000
#: Positions whose trick lines are valued at once.
LOOKAHEAD_CHUNK = 200
FIELDS = ("hlo", "hhi", "leader", "taker", "points", "oudlers", "y_points", "y_margin", "index")


def _solve_chunk(args: tuple[int, int, Sequence[int]]
                 ) -> list[tuple[FrenchPosition, int, int, int] | None]:
    seed, t, indices = args
    search = FrenchSearch(tt_bits=20)
    table = margin_table()
    out: list[tuple[FrenchPosition, int, int, int] | None] = []
    for i in indices:
        pos = sample_position(seed, i, t)
        search.clear()
        p = search.points(pos, budget=Budget(nodes=NODE_BUDGET))
        if not p.exact:
            out.append(None)
            continue
        search.clear()
        m = search.outcome_value(pos, table, budget=Budget(nodes=NODE_BUDGET),
                                 guess=p.lower - 82)
        out.append((pos, i, p.lower - pos.state.taker_points, m.lower) if m.exact else None)
    return out


def exact_level(seed: int, t: int, count: int, *, jobs: int = 1) -> tuple[dict, int]:
    """Exact labels of level ``t`` and how many positions the budget left out."""
    chunks = [(seed, t, list(range(lo, min(count, lo + 50)))) for lo in range(0, count, 50)]
    if jobs > 1:
        with mp.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_solve_chunk, chunks, chunksize=1)
    else:
        results = [_solve_chunk(c) for c in chunks]
    rows = [r for chunk in results for r in chunk if r is not None]
    a = position_arrays([r[0] for r in rows])
    return _level(a, np.array([r[2] for r in rows], float), np.array([r[3] for r in rows], float),
                  np.array([r[1] for r in rows], np.int64)), count - len(rows)


def lookahead_level(seed: int, t: int, count: int, model: FrenchEvaluator) -> dict:
    """Look-ahead labels of level ``t`` over ``model``."""
    idx = np.arange(count, dtype=np.int64)
    a = position_arrays([sample_position(seed, int(i), t) for i in idx])
    pts = np.zeros(count)
    mar = np.zeros(count)
    for lo in range(0, count, LOOKAHEAD_CHUNK):  # a chunk's lines fit in memory
        rows = np.arange(lo, min(count, lo + LOOKAHEAD_CHUNK))
        pts[rows], mar[rows] = model.predict_lookahead(a.take(rows))
    return _level(a, pts, mar, idx)


def _level(a: PositionArrays, y_points: np.ndarray, y_margin: np.ndarray, idx: np.ndarray
           ) -> dict:
    return {"hlo": a.hlo, "hhi": a.hhi, "leader": a.leader, "taker": a.taker,
            "points": a.points, "oudlers": a.oudlers, "y_points": y_points,
            "y_margin": y_margin, "index": idx}


def save_level(path: Path, level: dict) -> None:
    write_npz(path, level)


def load_level(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        return {f: z[f] for f in FIELDS}


def arrays_of(level: dict) -> PositionArrays:
    n = len(level["leader"])
    return PositionArrays(level["hlo"], level["hhi"], level["leader"], level["taker"],
                          level["points"], level["oudlers"], np.zeros((n, 4), np.int64),
                          np.zeros(n, np.int64))
