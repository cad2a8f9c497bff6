"""What an estimated margin is worth on the score sheet: P(make) and the expected score.

The evaluator's margin ``m`` of a world is an estimate of the exact margin; taking the
exact margin as normal around it, with the evaluator's residual SD on whole deals
(``docs/EVALUATOR.md``), gives the world's P(make) ``Φ(m / σ)`` and its expected score,
the contract's score averaged over that normal by Gauss–Hermite quadrature (the score
jumps by twice 25 × the multiplier at the target, so a hard threshold on ``m`` would
count an estimate a point short of the target as a sure loss).  The petit au bout's net
worth (the evaluator's ``pab`` head, in the margin's half points) adds to it.
"""

from __future__ import annotations

import math

import numpy as np

from ..scoring import BASE, difference_points

__all__ = ["NODES", "contract_value", "expected_value", "made_probability", "petit_au_bout_value"]

#: Quadrature nodes of the normal.
NODES = 16
_X, _W = np.polynomial.hermite_e.hermegauss(NODES)
_W = _W / _W.sum()


def _value(margin: np.ndarray, multiplier: int) -> np.ndarray:
    """The contract's value per defender at a margin in half points: ±(25 + difference)
    × multiplier, the difference in whole points, a half point rounded for the winner."""
    m = np.rint(margin)
    return np.where(m >= 0, 1.0, -1.0) * (BASE + difference_points(m)) * multiplier


def expected_value(margin: np.ndarray, sd: float, multiplier: int) -> np.ndarray:
    """Per world, the contract's expected value per defender, averaged over the exact
    margin ~ N(margin, sd²)."""
    margin = np.asarray(margin, np.float64)
    out = np.zeros(margin.shape)
    for x, w in zip(_X, _W, strict=True):
        out += w * _value(margin + sd * x, multiplier)
    return out


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
    z = (np.asarray(margin, np.float64) + 0.5) / sd
    return 0.5 * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))
