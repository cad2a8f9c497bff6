"""The French Tarot evaluator's labels: exact solves near the end, look-ahead above.

A level is the positions with ``t`` tricks left (:func:`.positions.sample_position`,
indices ``0 … count-1`` of one seed).  Up to :data:`EXACT_LEVELS` tricks left a label is
the exact solver's answer (:func:`exact_level`: the taker's half points from the
remaining tricks, his final margin, and what the petit au bout adds to the margin when
both sides play for it, each its own search); a position the node budget does not
finish is left out and counted (over budget on the petit au bout alone, its label is
NaN).  Above, a label is one trick of look-ahead over the model trained on the levels
below (:func:`lookahead_level`): every line of the trick, the model at the next trick's
start, the minimax.
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

__all__ = ["EXACT_LEVELS", "FIELDS", "exact_level", "exact_pab", "load_level",
           "lookahead_level", "save_level"]

#: Tricks left up to which labels are exact solves.
EXACT_LEVELS = 8
#: Node budget of one exact label (a position beyond it is left out).
NODE_BUDGET = 40_000_000
#: Positions whose trick lines are valued at once.
LOOKAHEAD_CHUNK = 200
FIELDS = ("hlo", "hhi", "leader", "taker", "points", "oudlers", "y_points", "y_margin", "y_pab",
          "index")
#: A solved position: the position, its index, its points, margin and petit au bout labels.
Solved = tuple[FrenchPosition, int, float, float, float]


def _solve_chunk(args: tuple[int, int, Sequence[int], Sequence[tuple[float, float]] | None]
                 ) -> list[Solved | None]:
    """Solve the positions ``indices``; with ``known`` (their points and margin labels)
    only the petit au bout's search runs."""
    seed, t, indices, known = args
    search = FrenchSearch(tt_bits=20)
    margin, with_pab = margin_table(), margin_table(petit_au_bout=True)
    budget = Budget(nodes=NODE_BUDGET)
    out: list[Solved | None] = []
    for j, i in enumerate(indices):
        pos = sample_position(seed, i, t)
        if known is None:
            search.clear()
            p = search.points(pos, budget=budget)
            if not p.exact:
                out.append(None)
                continue
            search.clear()
            m = search.outcome_value(pos, margin, budget=budget, guess=p.lower - 82)
            if not m.exact:
                out.append(None)
                continue
            y_points, y_margin = float(p.lower - pos.state.taker_points), float(m.lower)
        else:
            y_points, y_margin = known[j]
        search.clear()
        b = search.outcome_value(pos, with_pab, budget=budget, guess=int(y_margin))
        out.append((pos, i, y_points, y_margin, b.lower - y_margin if b.exact else np.nan))
    return out


def _solve(chunks: list, jobs: int) -> list[Solved]:
    if jobs > 1:
        with mp.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_solve_chunk, chunks, chunksize=1)
    else:
        results = [_solve_chunk(c) for c in chunks]
    return [r for chunk in results for r in chunk if r is not None]


def exact_level(seed: int, t: int, count: int, *, jobs: int = 1) -> tuple[dict, int]:
    """Exact labels of level ``t`` and how many positions the budget left out."""
    chunks = [(seed, t, list(range(lo, min(count, lo + 50))), None)
              for lo in range(0, count, 50)]
    rows = _solve(chunks, jobs)
    a = position_arrays([r[0] for r in rows])
    return _level(a, *(np.array([r[k] for r in rows], float) for k in (2, 3, 4)),
                  np.array([r[1] for r in rows], np.int64)), count - len(rows)


def exact_pab(seed: int, t: int, level: dict, *, jobs: int = 1) -> np.ndarray:
    """The petit au bout labels of an exact level's rows (NaN where over budget)."""
    idx = [int(i) for i in level["index"]]
    known = list(zip(level["y_points"].tolist(), level["y_margin"].tolist(), strict=True))
    chunks = [(seed, t, idx[lo:lo + 50], known[lo:lo + 50]) for lo in range(0, len(idx), 50)]
    return np.array([r[4] for r in _solve(chunks, jobs)], float)


def lookahead_level(seed: int, t: int, count: int, model: FrenchEvaluator) -> dict:
    """Look-ahead labels of level ``t`` over ``model``."""
    idx = np.arange(count, dtype=np.int64)
    a = position_arrays([sample_position(seed, int(i), t) for i in idx])
    y = np.zeros((3, count))
    for lo in range(0, count, LOOKAHEAD_CHUNK):  # a chunk's lines fit in memory
        rows = np.arange(lo, min(count, lo + LOOKAHEAD_CHUNK))
        y[:, rows] = model.predict_lookahead(a.take(rows))
    return _level(a, y[0], y[1], y[2], idx)


def _level(a: PositionArrays, y_points: np.ndarray, y_margin: np.ndarray, y_pab: np.ndarray,
           idx: np.ndarray) -> dict:
    return {"hlo": a.hlo, "hhi": a.hhi, "leader": a.leader, "taker": a.taker,
            "points": a.points, "oudlers": a.oudlers, "y_points": y_points,
            "y_margin": y_margin, "y_pab": y_pab, "index": idx}


def save_level(path: Path, level: dict) -> None:
    write_npz(path, level)


def load_level(path: Path) -> dict:
    """A level's arrays (a level labelled before the petit au bout had its head lacks
    ``y_pab``)."""
    with np.load(path, allow_pickle=False) as z:
        return {f: z[f] for f in FIELDS if f in z}


def arrays_of(level: dict) -> PositionArrays:
    n = len(level["leader"])
    return PositionArrays(level["hlo"], level["hhi"], level["leader"], level["taker"],
                          level["points"], level["oudlers"], np.zeros((n, 4), np.int64),
                          np.zeros(n, np.int64))
