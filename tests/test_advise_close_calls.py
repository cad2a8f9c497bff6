"""A close call settled by the posterior of the pair's difference (report.pair_split)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tarock_solver.advise.cv import MIN_EXACT, bias_weight, combine, masked_term
from tarock_solver.advise.decision import NOISE_SE, pair_split, recommend
from tarock_solver.advise.results import Advice, OptionRow
from tarock_solver.advise.text import recommendation_line

WORLDS, EXACT = 400, 16


class FakeSeries:
    """A contract's nets: the evaluator's on every world, exact ones on the first worlds."""

    count_birds = False  # nets of card points only

    def __init__(self, g: np.ndarray, x: np.ndarray) -> None:
        self.g, self.x, self.worlds = g, x, len(g)

    def terms(self, policy: int, what: str, weight: float = 1.0,
              worlds: np.ndarray | None = None) -> list:
        n = len(self.x)
        return [masked_term(self.g, np.arange(len(self.g)), worlds, weight),
                masked_term(self.x - self.g[:n], np.arange(n), worlds, weight, correction=True)]


def row(series: dict[str, FakeSeries], contract: str) -> OptionRow:
    est = combine(series[contract].terms(0, "net"), min_prefix=MIN_EXACT)
    return OptionRow(contract=contract, policy=0, option="plain", kind="plain", net=est,
                     made=est, points=est, gain=None, announce_rate=0.0, conditional=False,
                     talon_behaviour="")


def residuals(mean: float, se: float, seed: int, n: int = EXACT) -> np.ndarray:
    """``n`` residuals with exactly this mean and this SE of their mean."""
    z = np.random.default_rng(seed).normal(size=n)
    z = (z - z.mean()) / z.std(ddof=1)
    return mean + z * se * math.sqrt(n)


def pair(lead: float, corr: float, corr_se: float, seed: int = 0,
         n: int = EXACT) -> dict[str, FakeSeries]:
    """Two and One: the evaluator puts Two ``lead`` ahead on every world; the exact
    correction of Two − One (``n`` exact worlds) has mean ``corr`` and SE ``corr_se``."""
    base = np.random.default_rng(seed + 100).normal(20.0, 15.0, WORLDS)
    one = FakeSeries(base, base[:n].copy())
    two = FakeSeries(base + lead, base[:n] + lead + residuals(corr, corr_se, seed, n))
    return {"two": two, "one": one}


def advice(series: dict[str, FakeSeries]) -> dict:
    return recommend(series, [row(series, c) for c in series])  # type: ignore[arg-type]


def test_the_bias_weight_keeps_a_large_correction_and_shrinks_noise() -> None:
    # one normal component: the textbook shrinkage τ² / (τ² + se²) in a world's SD units
    n, se = 16, 2.5
    one = bias_weight(1.0, se, n, prior=((1.0, 0.05),))
    v = 1.0 / n
    assert one == pytest.approx(0.05 / (0.05 + v))
    # the shipped mixture: a correction near zero keeps less than one many SEs out
    assert bias_weight(0.5 * se, se, n) < 0.5 < bias_weight(6.0 * se, se, n) < 1.0
    assert bias_weight(0.5 * se, se, 400) > bias_weight(0.5 * se / 5, se / 5, 400) - 1e-12
    assert bias_weight(math.nan, se, n) == 1.0


def test_the_posterior_weighs_the_correction_by_its_noise() -> None:
    series = pair(3.0, -4.0, 2.5)
    split = pair_split(series, row(series, "two"), row(series, "one"))  # type: ignore[arg-type]
    assert split["evaluator"] == pytest.approx(3.0)
    assert split["correction"] == pytest.approx(-4.0)
    assert split["correction_se"] == pytest.approx(2.5)
    assert split["exact_worlds"] == EXACT
    w = split["correction_weight"]
    assert w == pytest.approx(bias_weight(-4.0, 2.5, EXACT))
    assert split["posterior"] == pytest.approx(3.0 - 4.0 * w)
    # passing as the other side: the contract's own posterior, negated
    against = pair_split(series, None, row(series, "two"))  # type: ignore[arg-type]
    alone = pair_split(series, row(series, "two"), None)  # type: ignore[arg-type]
    assert against["posterior"] == pytest.approx(-alone["posterior"])


def test_a_noisy_close_call_goes_to_the_evaluators_side() -> None:
    """One ahead by 1 ± 2.5 on common worlds (the correction's noise), Two ahead by 3 on
    the evaluator's 400 worlds: Two, flagged close, the unbiased margin shown as it is."""
    rec = advice(pair(3.0, -4.0, 2.5))  # type: ignore[arg-type]
    assert rec["contract"] == "two" and rec["runner_up"]["contract"] == "one"
    assert rec["close_call"] is True
    assert rec["runner_up"]["difference"] == pytest.approx(-1.0)
    assert rec["settled"] is True
    assert rec["runner_up"]["split"]["posterior"] > 0
    # each half of the worlds, choosing by the same rule, agrees
    assert rec["held_out_agrees"] is True


def test_a_precise_correction_keeps_its_say() -> None:
    """The same evaluator lead, but a correction measured to ±0.1 on 100 worlds, far
    beyond what the evaluator's bias usually is: it keeps its say, and One stays."""
    se = 0.1
    rec = advice(pair(3.0, -3.0 - 1.5 * se, se, n=100))  # type: ignore[arg-type]
    assert rec["close_call"] is True
    assert rec["contract"] == "one" and rec["settled"] is False
    assert rec["runner_up"]["difference"] == pytest.approx(1.5 * se)


def test_a_margin_beyond_noise_is_never_overturned() -> None:
    """One ahead by 6 ± 2.5: firm, whatever the evaluator says."""
    rec = advice(pair(3.0, -9.0, 2.5))  # type: ignore[arg-type]
    assert rec["runner_up"]["difference"] == pytest.approx(6.0)
    assert rec["runner_up"]["difference"] >= NOISE_SE * rec["runner_up"]["difference_se"]
    assert rec["contract"] == "one" and rec["close_call"] is False and rec["settled"] is False


def test_a_close_call_against_passing_is_settled_the_same_way() -> None:
    """A lone contract worth −1 ± 2.5 by the unbiased estimate and +3 by the evaluator:
    bid it (close call); with a precise correction, pass."""
    base = np.random.default_rng(7).normal(3.0, 15.0, WORLDS)
    base += 3.0 - base.mean()
    noisy = {"three": FakeSeries(base, base[:EXACT] + residuals(-4.0, 2.5, 1))}
    rec = advice(noisy)  # type: ignore[arg-type]
    assert rec["contract"] == "three" and rec["close_call"] is True and rec["settled"] is True
    assert rec["runner_up"]["contract"] == "pass"
    assert rec["runner_up"]["difference"] == pytest.approx(-1.0)
    se = 0.1
    precise = {"three": FakeSeries(base, base[:100] + residuals(-3.0 - 1.5 * se, se, 1, 100))}
    rec = advice(precise)  # type: ignore[arg-type]
    assert rec["contract"] == "pass" and rec["close_call"] is True and rec["settled"] is False


def test_the_line_says_when_a_close_call_went_against_its_sign() -> None:
    settled = advice(pair(3.0, -4.0, 2.5))  # type: ignore[arg-type]
    line = recommendation_line(Advice(pd.DataFrame(), settled, {}), {})
    assert "over one on common worlds (close call; P(it is the better) " in line
    assert f"weighted {settled['correction_weight']:.2f}; settled for it" in line
    assert f"{settled['runner_up']['split']['posterior']:+.1f})" in line
    plain = advice(pair(3.0, -9.0, 2.5))  # type: ignore[arg-type]
    assert "settled" not in recommendation_line(Advice(pd.DataFrame(), plain, {}), {})


def test_a_correction_two_se_from_zero_is_never_overturned() -> None:
    """The evaluator puts Two 8 ahead, the exact correction of Two − One is −9 ± 2.5 (3.6
    SE on its own): One leads by 1 ± 2.5, a close call; the posterior alone would lean to
    Two, but a correction that strong is not outweighed."""
    series = pair(8.0, -9.0, 2.5)
    rec = advice(series)  # type: ignore[arg-type]
    split = pair_split(series, row(series, "one"), row(series, "two"))  # type: ignore[arg-type]
    assert split["posterior"] < 0  # what the posterior alone would do
    assert rec["close_call"] is True
    assert rec["contract"] == "one" and rec["settled"] is False


def test_p_better_follows_the_posterior() -> None:
    """P(better) is above one half for the side the posterior favours, and near 1 for a
    margin far beyond the noise; the weight is the one the split reports."""
    close = advice(pair(3.0, -4.0, 2.5))  # type: ignore[arg-type]
    assert 0.5 < close["p_better"] < 0.99
    assert close["correction_weight"] == pytest.approx(
        close["runner_up"]["split"]["correction_weight"])
    firm = advice(pair(30.0, 0.0, 2.5))  # type: ignore[arg-type]
    assert firm["contract"] == "two" and firm["p_better"] > 0.999
