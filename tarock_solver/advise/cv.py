"""Control-variate estimates over worlds, their standard errors, paired differences.

For every world j the adviser has the learned evaluator's value ``g_j`` and, on
some of the worlds, the exact value ``x_j``; the estimate of E[x] is
``mean(g over every world) + mean(x − g over the exact worlds)``, unbiased
whatever the evaluator's errors.  An estimate is a signed sum of such means
(:class:`PrefixTerm`, :func:`combine`); a correction measured on too few worlds
for an SE is shrunk (:func:`shrink_weight`), and a pair's correction weighed
against the prior of the evaluator's bias (:func:`bias_weight`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Estimate", "MIN_BIRD_WORLDS", "MIN_EXACT", "MIN_WORLDS", "PAIR_BIAS_PRIOR",
           "PrefixTerm", "TENTATIVE_SHRINK", "bernoulli_variance", "bias_weight", "combine",
           "cv_terms", "masked_term", "shrink_weight"]

#: Fewest exact worlds behind a control-variate SE (the residual spread needs them).
MIN_EXACT = 8
#: Fewest game-point worlds behind a net with silent birds: as many as behind the card
#: points, now that the birds have a control variate (the game-point evaluator's value of
#: them on every world).  Without one, 8 values of a skewed term (most worlds 0, a few
#: worth a hundred game points) put 88–100 % of random subsets within 2 SE of the plain
#: exact mean on fixed worlds, and 16 were asked for (``benchmarks/EXPERIMENTS.md``,
#: Adviser, 2026-12-02); with it, see the entry "Silent birds with a control variate".
MIN_BIRD_WORLDS = MIN_EXACT
#: Fewest evaluator worlds behind an estimate.
MIN_WORLDS = 20
#: σ²/τ² of the module's two-level model: a world's residual variance over the variance
#: of the evaluator's bias on a hand, in card points, by the method of moments on the
#: exact-minus-evaluator residuals of plain play grouped by hand and contract: 20 random
#: hands outside the bench set (366 exact worlds in 37 groups) gave σ = 3.3, τ = 0.72,
#: σ²/τ² = 21 (the bench's own runs: 14).  Two exact worlds then move a tentative
#: estimate by a tenth of their mean residual, seven by a quarter.
TENTATIVE_SHRINK = 20.0


#: The evaluator's bias on the paired net difference of two options of one hand, in units
#: of a world's SD of their paired residual: a scale mixture of normals, (share, variance)
#: per component.  Most pairs carry a small bias, a few a large one; fitted by maximum
#: likelihood to the exact corrections of the recommended pair in 10-s runs of 44 hands
#: outside the bench set (``benchmarks/pair_bias_prior.py --fit`` on its two result files;
#: one normal fits worse, its variance known to within a factor of about three).
PAIR_BIAS_PRIOR = ((0.95, 0.0176), (0.05, 0.41))


def bias_weight(mean: float, se: float, n: int,
                prior: Sequence[tuple[float, float]] = PAIR_BIAS_PRIOR) -> float:
    """The weight an exact correction (mean residual ``mean`` ± ``se`` over ``n`` worlds)
    keeps in the posterior mean of the evaluator's bias, under the two-level model with
    the bias drawn from ``prior``: the posterior mean is ``weight × mean``.

    In units of a world's residual SD ``se·√n`` the correction is ``u = b + e``, ``e``
    normal with variance ``1/n``; a prior component of variance ``τ²`` keeps the share
    ``τ² / (τ² + 1/n)`` of it, and the components are weighted by how likely each makes
    ``u``.  A small correction is mostly noise and keeps little; one many SEs from zero
    is a bias the evaluator really has and keeps nearly all."""
    if not (math.isfinite(mean) and math.isfinite(se)) or se <= 0 or n < 1:
        return 1.0
    u, v = mean / (se * math.sqrt(n)), 1.0 / n
    num = den = 0.0
    for share, tau2 in prior:
        var = tau2 + v
        like = share * math.exp(-0.5 * u * u / var) / math.sqrt(var)
        num += like * tau2 / var
        den += like
    return num / den if den > 0 else 1.0


@dataclass(frozen=True)
class PrefixTerm:
    """``weight × mean(values)``: ``values`` are the term on worlds 0 … len-1, or on the
    increasing world indices ``worlds`` when given.
    ``correction``: the values are exact − evaluator residuals (shrunk while short).
    ``floor``: per world, a model's variance of the values; the term's variance is never
    taken below its mean over the prefix (see :func:`combine`)."""

    values: np.ndarray
    weight: float = 1.0
    correction: bool = False
    floor: np.ndarray | None = None
    worlds: np.ndarray | None = None

    def world_indices(self) -> np.ndarray:
        """The worlds of :attr:`values`, in order."""
        if self.worlds is None:
            return np.arange(len(self.values))
        return np.asarray(self.worlds, dtype=np.int64)


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error (NaN when the terms are too short to give one)."""

    mean: float
    se: float
    worlds: int  # the longest prefix behind it (the evaluator's worlds)
    exact: int  # the shortest prefix behind it (exact worlds; = worlds when none)

    @property
    def has_se(self) -> bool:
        return math.isfinite(self.se)


def shrink_weight(n: int, min_prefix: int) -> float:
    """The weight of a correction's mean over ``n`` worlds: 1 from ``min_prefix`` worlds
    on, ``n / (n + TENTATIVE_SHRINK)`` below.

    The estimate is then tentative (no SE) and, rather than unbiased, the empirical-Bayes
    mean of a two-level model in which the evaluator's error on a hand has a bias ``b``
    common to its worlds (variance τ²) plus a world's own residual (variance σ²): after
    ``n`` worlds the posterior mean of ``b`` is ``n τ² / (n τ² + σ²)`` times their mean
    residual.  σ²/τ² is large (:data:`TENTATIVE_SHRINK`), so one or two exact worlds
    barely move a tentative answer, where taken at face value they swung it."""
    return 1.0 if n >= min_prefix else n / (n + TENTATIVE_SHRINK)


def combine(terms: Sequence[PrefixTerm], *, min_prefix: int = 2) -> Estimate:
    """The signed sum of the terms' prefix means, with its standard error.

    Over independent worlds, ``Cov(mean_{S_k} h_k, mean_{S_l} h_l) = |S_k ∩ S_l| ·
    Cov(h_k, h_l) / (|S_k| |S_l|)`` (``1 / max(n_k, n_l)`` for two prefixes), with the
    sample covariance of the two terms on the worlds where both are known.

    The SE is NaN when any term has fewer than ``min_prefix`` values (a
    covariance needs at least two).  A term with no values (a correction not yet
    measured) adds nothing to the mean and leaves the SE NaN: the mean is then the
    evaluator's alone, with no honest error bar.  A correction term shorter than
    ``min_prefix`` enters shrunk (:func:`shrink_weight`; the mean is then tentative).

    A term with a ``floor`` has its variance taken as at least the floor's mean over its
    prefix.  This is for rare outcomes: the residuals of a made flag whose misses are
    rare are all near zero on a prefix that saw none, and their sample variance then
    claims a certainty the worlds do not have (P(make) "98 % ± 1" where 5 % of the worlds
    are missed); the model's Bernoulli variance is a lower bound that does not depend on
    having seen a miss.  Raising a diagonal keeps the covariance matrix valid.
    """
    terms = [t for t in terms if t.weight != 0.0]
    if not terms:
        return Estimate(0.0, 0.0, 0, 0)
    lengths = [len(t.values) for t in terms]
    if max(lengths) == 0:
        return Estimate(math.nan, math.nan, 0, 0)
    floor = max(2, min_prefix)
    mean = float(sum(t.weight * float(np.mean(t.values))
                     * (shrink_weight(len(t.values), floor) if t.correction else 1.0)
                     for t in terms if len(t.values)))
    if min(lengths) == 0:
        return Estimate(mean, math.nan, max(lengths), 0)
    if min(lengths) < floor:
        return Estimate(mean, math.nan, max(lengths), min(lengths))
    var = 0.0
    for a, ta in enumerate(terms):
        for b in range(a, len(terms)):
            tb = terms[b]
            xa, xb = _common(ta, tb)
            m = len(xa)
            if m < 2:
                continue  # (a ≠ b) at most one world in common: no covariance to count
            cov = float(((xa - xa.mean()) * (xb - xb.mean())).sum() / (m - 1))
            if a == b and ta.floor is not None:
                cov = max(cov, float(np.mean(ta.floor)))
            contrib = ta.weight * tb.weight * cov * m / (lengths[a] * lengths[b])
            var += contrib if a == b else 2.0 * contrib
    return Estimate(mean, math.sqrt(max(var, 0.0)), max(lengths), min(lengths))


def _common(a: PrefixTerm, b: PrefixTerm) -> tuple[np.ndarray, np.ndarray]:
    """The two terms' values on the worlds where both are known, aligned."""
    va = np.asarray(a.values, dtype=np.float64)
    vb = np.asarray(b.values, dtype=np.float64)
    if a is b:
        return va, va
    if a.worlds is None and b.worlds is None:
        m = min(len(va), len(vb))
        return va[:m], vb[:m]
    _, ia, ib = np.intersect1d(a.world_indices(), b.world_indices(), assume_unique=True,
                               return_indices=True)
    return va[ia], vb[ib]


def masked_term(values: np.ndarray, at: np.ndarray, mask: np.ndarray | None,
                weight: float = 1.0, *, correction: bool = False,
                floor: np.ndarray | None = None) -> PrefixTerm:
    """A term of ``values`` on the worlds ``at``, kept to the worlds of a boolean
    ``mask`` over the worlds when one is given (a half for cross-fitting)."""
    if mask is not None:
        keep = mask[at] if len(at) else np.zeros(0, dtype=bool)
        values, at = values[keep], at[keep]
        floor = floor[keep] if floor is not None else None
    # increasing worlds 0 … n-1 are a prefix: combine's cheap case, no index to match
    prefix = len(at) == 0 or int(at[-1]) == len(at) - 1
    return PrefixTerm(values, weight, correction=correction, floor=floor,
                      worlds=None if prefix else at)


def cv_terms(evaluator: np.ndarray, exact: np.ndarray, weight: float = 1.0, *,
             flag: bool = False) -> list[PrefixTerm]:
    """The two terms of a control-variate estimate: the evaluator's values on every
    world, and exact − evaluator on the first ``len(exact)`` worlds.  ``flag``: the
    exact values are 0/1 and the evaluator's their probabilities, so the residuals'
    variance is floored by the Bernoulli variance ``g (1 − g)`` (see :func:`combine`)."""
    g = np.asarray(evaluator, dtype=np.float64)
    x = np.asarray(exact, dtype=np.float64)
    if len(x) > len(g):
        raise ValueError("more exact worlds than evaluated worlds")
    floor = bernoulli_variance(g[:len(x)]) if flag else None
    return [PrefixTerm(g, weight),
            PrefixTerm(x - g[:len(x)], weight, correction=True, floor=floor)]


def bernoulli_variance(p: np.ndarray) -> np.ndarray:
    """Per world, the variance of a 0/1 outcome of probability ``p`` (clipped to 0 … 1)."""
    q = np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0)
    return q * (1.0 - q)
