"""Control-variate estimates and their standard errors (tarock_solver.advise.cv)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tarock_solver.advise.cv import TENTATIVE_SHRINK, PrefixTerm, combine, cv_terms


def test_one_term_is_the_mean_and_its_standard_error() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0])
    e = combine([PrefixTerm(x)])
    assert e.mean == 2.5 and e.se == pytest.approx(np.std(x, ddof=1) / 2)
    assert math.isnan(combine([PrefixTerm(np.array([5.0]))]).se)


def test_all_worlds_exact_gives_the_exact_mean() -> None:
    rng = np.random.default_rng(0)
    g = rng.normal(30, 8, 50)
    x = g + rng.normal(1, 3, 50)
    e = combine(cv_terms(g, x))
    assert e.mean == pytest.approx(x.mean())


def test_the_se_formula_matches_the_spread_over_replications() -> None:
    """Over many replications of N evaluator worlds and n exact ones, the mean of the
    estimated variances equals the variance of the estimates, and the estimates are
    unbiased for E[x] although the evaluator is biased."""
    rng = np.random.default_rng(1)
    big_n, n, reps = 120, 12, 4000
    est, var, plain = [], [], []
    for _ in range(reps):
        x = rng.normal(40, 9, big_n)
        g = 0.8 * x + 5 + rng.normal(0, 3, big_n)  # biased, noisy evaluator
        e = combine(cv_terms(g, x[:n]))
        est.append(e.mean)
        var.append(e.se ** 2)
        plain.append(g.mean())
    est = np.array(est)
    assert abs(est.mean() - 40) < 4 * est.std() / math.sqrt(reps)
    assert np.mean(var) == pytest.approx(est.var(), rel=0.1)
    # positive control: the evaluator's mean alone is biased (0.8·40 + 5 = 37)
    assert abs(np.mean(plain) - 40) > 20 * est.std() / math.sqrt(reps)


def test_paired_difference_se_counts_the_common_worlds() -> None:
    """Two options on common worlds: the SE of the difference uses the covariance and
    is much smaller than either SE when the options move together."""
    rng = np.random.default_rng(2)
    base = rng.normal(0, 10, 200)
    a = base + rng.normal(0, 1, 200)
    b = base + 0.5 + rng.normal(0, 1, 200)
    d = combine([PrefixTerm(a), PrefixTerm(b, -1.0)])
    assert d.mean == pytest.approx(a.mean() - b.mean())
    assert d.se == pytest.approx(np.std(a - b, ddof=1) / math.sqrt(200))
    assert d.se < 0.2 * combine([PrefixTerm(a)]).se


def test_the_paired_se_of_mixed_prefixes_matches_replications() -> None:
    rng = np.random.default_rng(3)
    reps, big_n, na, nb = 3000, 80, 10, 20
    est, var = [], []
    for _ in range(reps):
        w = rng.normal(0, 8, big_n)
        xa, xb = w + 2 + rng.normal(0, 2, big_n), w + rng.normal(0, 2, big_n)
        ga, gb = xa + rng.normal(1, 2, big_n), xb + rng.normal(-1, 2, big_n)
        e = combine(cv_terms(ga, xa[:na]) + cv_terms(gb, xb[:nb], -1.0))
        est.append(e.mean)
        var.append(e.se ** 2)
    est = np.array(est)
    assert abs(est.mean() - 2) < 4 * est.std() / math.sqrt(reps)
    assert np.mean(var) == pytest.approx(est.var(), rel=0.12)


def test_the_paired_se_of_terms_on_any_sets_of_worlds_matches_replications() -> None:
    """Terms on sets of worlds other than prefixes (a run's finished solves): the
    covariance of two means counts the worlds they share, |S_a ∩ S_b| / (|S_a| |S_b|)."""
    rng = np.random.default_rng(4)
    reps, big_n = 3000, 80
    est, var = [], []
    for _ in range(reps):
        w = rng.normal(0, 8, big_n)
        xa, xb = w + 2 + rng.normal(0, 2, big_n), w + rng.normal(0, 2, big_n)
        ga, gb = xa + rng.normal(1, 2, big_n), xb + rng.normal(-1, 2, big_n)
        sa = np.sort(rng.choice(big_n, 12, replace=False))
        sb = np.sort(np.union1d(sa[:6], rng.choice(big_n, 14, replace=False)))
        e = combine([PrefixTerm(ga), PrefixTerm(xa[sa] - ga[sa], correction=True, worlds=sa),
                     PrefixTerm(gb, -1.0),
                     PrefixTerm(xb[sb] - gb[sb], -1.0, correction=True, worlds=sb)])
        est.append(e.mean)
        var.append(e.se ** 2)
    est = np.array(est)
    assert abs(est.mean() - 2) < 4 * est.std() / math.sqrt(reps)
    assert np.mean(var) == pytest.approx(est.var(), rel=0.12)
    # prefixes given as explicit worlds are the prefixes
    g, x = w + 1.0, w + rng.normal(0, 2, big_n)
    a = combine(cv_terms(g, x[:10]))
    b = combine([PrefixTerm(g, worlds=np.arange(big_n)),
                 PrefixTerm(x[:10] - g[:10], correction=True, worlds=np.arange(10))])
    assert (a.mean, a.se) == pytest.approx((b.mean, b.se))


def test_short_prefixes_give_no_se() -> None:
    g = np.arange(30.0)
    e = combine(cv_terms(g, g[:3]), min_prefix=8)
    assert math.isfinite(e.mean) and math.isnan(e.se) and e.exact == 3


def test_a_short_correction_is_shrunk_and_a_full_one_is_not() -> None:
    g = np.full(40, 30.0)
    x = g[:12] + 4.0  # the evaluator is 4 points short on every exact world
    for n in range(1, 12):
        e = combine(cv_terms(g, x[:n]), min_prefix=8)
        w = 1.0 if n >= 8 else n / (n + TENTATIVE_SHRINK)
        assert e.mean == pytest.approx(30.0 + 4.0 * w), n
        assert math.isnan(e.se) == (n < 8)
    # only corrections shrink: a short term that is not one enters at face value
    e = combine([PrefixTerm(g), PrefixTerm(np.array([4.0, 4.0]))], min_prefix=8)
    assert e.mean == pytest.approx(34.0)


def test_the_shrunk_tentative_mean_beats_the_raw_one_under_the_two_level_model() -> None:
    """Hands whose evaluator bias has variance tau^2 and worlds with residual variance
    sigma^2 = TENTATIVE_SHRINK * tau^2: with 1-7 exact worlds the shrunk mean is nearer
    the hand's true mean than the raw control variate (and never worse than the
    evaluator alone)."""
    rng = np.random.default_rng(5)
    tau, sigma = 1.0, math.sqrt(TENTATIVE_SHRINK)
    for n in (1, 3, 7):
        err = {"shrunk": 0.0, "raw": 0.0, "evaluator": 0.0}
        for _ in range(1500):
            bias = rng.normal(0.0, tau)
            g = rng.normal(30.0, 4.0, 200)
            x = g[:n] + bias + rng.normal(0.0, sigma, n)
            # each estimate's error about this hand's truth, E[x] = E[g] + bias, with
            # the evaluator's mean (common to all three) taken as exact
            err["shrunk"] += (combine(cv_terms(g, x), min_prefix=8).mean - g.mean() - bias) ** 2
            err["raw"] += ((x - g[:n]).mean() - bias) ** 2
            err["evaluator"] += bias ** 2
        assert err["shrunk"] < 0.9 * err["raw"], n
        assert err["shrunk"] < err["evaluator"], n


def test_a_made_flag_that_saw_no_miss_keeps_the_bernoulli_se() -> None:
    """Eight worlds all made, each with a 10 % chance of a miss: the residuals are all
    alike and their sample variance is ~0, but the SE is the Bernoulli model's, not 0."""
    p = np.full(8, 0.9)
    e = combine(cv_terms(np.full(200, 0.9), np.ones(8), flag=True), min_prefix=8)
    assert e.se == pytest.approx(math.sqrt(0.9 * 0.1 / 8), rel=1e-9)
    assert combine(cv_terms(np.full(200, 0.9), np.ones(8)), min_prefix=8).se < 1e-12
    # a prefix that did see misses keeps its (larger) sample variance
    x = np.array([1, 0, 1, 1, 0, 1, 1, 1], dtype=float)
    e = combine(cv_terms(np.full(200, 0.9), x, flag=True), min_prefix=8)
    assert e.se == pytest.approx(np.std(x - p, ddof=1) / math.sqrt(8))


def test_rare_misses_are_covered_by_two_ses_with_the_floor() -> None:
    """Worlds whose make probability (known to the variate) is mostly near 1: over many
    replications of 8 exact worlds, the estimate lies within 2 SE of the true P(make) on
    about 95 % of them with the Bernoulli floor; without it, on far fewer (the prefixes
    that saw no miss claim an SE near 0)."""
    rng = np.random.default_rng(11)
    reps, big, n = 4000, 400, 8
    hits = {True: 0, False: 0}
    for _ in range(reps):
        q = np.where(rng.random(big) < 0.8, 0.99, rng.uniform(0.6, 0.95, big))
        made = (rng.random(big) < q).astype(float)
        truth = float(q.mean())
        for flag in (True, False):
            e = combine(cv_terms(q, made[:n], flag=flag), min_prefix=n)
            hits[flag] += abs(e.mean - truth) <= 2 * e.se
    assert hits[True] / reps > 0.9
    assert hits[False] / reps < 0.85
