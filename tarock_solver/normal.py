"""The normal error model's arithmetic: Φ on a fine grid and the rounded normal.

Both evaluators take an exact value as normal around their estimate; what the score
sheet makes of it depends on the value rounded to a whole unit (a card point, a half
point), so expectations are sums over the rounded normal's exact probabilities rather
than quadratures of a function with jumps.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["normal_cdf", "rounded_normal"]

#: Φ on a grid of 1/1000 over ±8.5: values by interpolation (error < 1e-7).
_PHI_X = np.linspace(-8.5, 8.5, 17001)
_PHI = np.array([0.5 * (1.0 + math.erf(x / math.sqrt(2.0))) for x in _PHI_X])


def normal_cdf(z: np.ndarray | float) -> np.ndarray:
    """Φ(z), element-wise (0 below −8.5, 1 above 8.5)."""
    return np.interp(z, _PHI_X, _PHI, left=0.0, right=1.0)


def rounded_normal(mean: float, sd: float, top: int) -> np.ndarray:
    """P(k), k = 0 … top, of round(mean + sd·Z) clipped to [0, top], Z standard normal
    (k + 0.5 rounds up)."""
    cuts = normal_cdf((np.arange(top) + 0.5 - mean) / sd)
    return np.diff(np.append(cuts, 1.0), prepend=0.0)
