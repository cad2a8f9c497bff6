"""What an estimated margin is worth on the score sheet: P(make) and the expected score.

The evaluator's margin ``m`` of a world is an estimate of the exact margin; taking the
exact margin as normal around it, with the evaluator's residual SD on whole deals
(``docs/EVALUATOR.md``), gives the world's P(make) ``Φ(m / σ)`` and its expected score:
the contract's score at each whole half point of margin weighted by the rounded normal's
probability of it.  The score jumps by twice 25 × the multiplier at the target, so a
hard threshold on ``m`` would count an estimate a point short of the target as a sure
loss, and a quadrature over the jump errs by up to 15 points a defender.  The expectation
is linear in the multiplier: it is tabulated once per SD at multiplier 1 on a grid of
margins and interpolated.  The petit au bout's net worth (the evaluator's ``pab`` head, in
the margin's half points) adds to it.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ...normal import normal_cdf
from ..scoring import BASE, difference_points

__all__ = ["contract_value", "expected_value", "made_probability", "petit_au_bout_value",
           "score_at"]

#: The table's margins (half points): every margin a deal can reach (−112 … 110), with
#: room; beyond it a margin is clipped.
_REACH = 200
_STEP = 0.125
_GRID = np.arange(-_REACH, _REACH + _STEP / 2, _STEP)


def score_at(margin: np.ndarray, multiplier: int = 1) -> np.ndarray:
    """The contract's value per defender at whole half points of margin: ±(25 +
    difference) × multiplier, the difference in whole points, a half point rounded for
    the winner; made at 0."""
    m = np.asarray(margin)
    return np.where(m >= 0, 1.0, -1.0) * (BASE + difference_points(m)) * multiplier


@lru_cache(maxsize=8)
def _unit_table(sd: float) -> np.ndarray:
    """E[score_at(round(m + sd Z))] at multiplier 1 for m on :data:`_GRID` (a smooth
    function of m: the normal's convolution of a step function)."""
    span = _REACH + int(math.ceil(9 * sd)) + 1
    k = np.arange(-span, span + 1)
    v = score_at(k)
    # summation by parts: E = v(top) - Σ_k (v(k+1) - v(k)) P(X < k + 0.5)
    dv = np.diff(v)
    out = np.empty(len(_GRID))
    for i in range(0, len(_GRID), 256):
        g = _GRID[i:i + 256, None]
        out[i:i + 256] = v[-1] - normal_cdf((k[:-1] + 0.5 - g) / sd) @ dv
    return out


def expected_value(margin: np.ndarray, sd: float, multiplier: int) -> np.ndarray:
    """Per world, the contract's expected value per defender when the exact margin is
    round(margin + sd Z), Z standard normal (margins in half points)."""
    m = np.clip(np.asarray(margin, np.float64), -_REACH, _REACH)
    return np.interp(m, _GRID, _unit_table(float(sd))) * multiplier


def petit_au_bout_value(pab: np.ndarray, factor: int) -> np.ndarray:
    """The petit au bout's worth per defender from the ``pab`` head, whose half points are
    the score's per unit of the bonus's ``factor``
    (:meth:`~tarock_solver.french.rules.FrenchRules.petit_au_bout_factor`), times two.
    Under the flat rule the factor is 1 in every contract (the head's trade-off against
    card points is then the Petite's too)."""
    return np.asarray(pab, np.float64) / 2.0 * factor


def contract_value(margin: np.ndarray, pab: np.ndarray, sd: float, multiplier: int,
                   pab_factor: int) -> np.ndarray:
    """Per world, the contract's expected value per defender, the petit au bout in."""
    return expected_value(margin, sd, multiplier) + petit_au_bout_value(pab, pab_factor)


def made_probability(margin: np.ndarray, sd: float) -> np.ndarray:
    """Per world, P(exact margin ≥ 0) under the same normal (a half point of slack for
    the rounding)."""
    return normal_cdf((np.asarray(margin, np.float64) + 0.5) / sd)
