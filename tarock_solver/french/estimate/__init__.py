"""The learned evaluator of French Tarot (inference only).

* :mod:`.features` — the features of a position, invariant under suit renaming;
* :mod:`.model` — :class:`~.model.FrenchEvaluator` (the taker's remaining card points and
  final margin, at a trick start or with one trick of look-ahead), its shipped weights,
  and :func:`estimate_points` / :func:`estimate_margin` for any positions.

The labels and the trainer are :mod:`tarock_solver.french.training`; the model card is
``docs/EVALUATOR.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..solver import FrenchPosition, FrenchSearch, margin_table
from .model import FrenchEvaluator, PositionArrays, load_french_evaluator, position_arrays

__all__ = ["FrenchEvaluator", "PositionArrays", "estimate_margin", "estimate_points",
           "load_french_evaluator", "position_arrays"]


#: Rows (as a power of two) of the table that solves a last trick.
LAST_TRICK_TT_BITS = 8


def _estimate(positions: Sequence[FrenchPosition]) -> tuple[np.ndarray, np.ndarray]:
    """(final half points, final margin) of positions: one trick of look-ahead (to the
    end of the trick in progress), or the exact outcome of a last trick."""
    model = load_french_evaluator()
    pts = np.zeros(len(positions))
    mar = np.zeros(len(positions))
    ahead = [i for i, p in enumerate(positions) if p.tricks_left > 1]
    if ahead:
        a = position_arrays([positions[i] for i in ahead])
        p, m, _ = model.predict_lookahead(a)
        pts[ahead] = a.points + p
        mar[ahead] = m
    last = [i for i, p in enumerate(positions) if p.tricks_left <= 1]
    if last:
        # a last trick has its cards forced: the solver's value is instant and exact (a
        # few rows of table are plenty)
        search = FrenchSearch(tt_bits=LAST_TRICK_TT_BITS)
        table = margin_table()
        for i in last:
            search.clear()
            pts[i] = search.points(positions[i]).lower
            search.clear()
            mar[i] = search.outcome_value(positions[i], table).lower
    return pts, mar


def estimate_points(positions: Sequence[FrenchPosition]) -> np.ndarray:
    """The taker's estimated final half points (what he has, plus what he will take)."""
    return _estimate(positions)[0]


def estimate_margin(positions: Sequence[FrenchPosition]) -> np.ndarray:
    """The taker's estimated final margin over the target, in half points."""
    return _estimate(positions)[1]
