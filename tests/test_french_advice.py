"""French Tarot advice: its rows are the plain means over its worlds, its comparisons
paired, its answer the same for the same seed, its errors clear."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tarock_solver.errors import RulesError
from tarock_solver.french.advice import PASS, FrenchAdviceRequest, advise_french
from tarock_solver.french.advice.adviser import MARGIN_SD, _start_rows
from tarock_solver.french.advice.discard import choose_discard
from tarock_solver.french.advice.value import (
    expected_value,
    made_probability,
    petit_au_bout_value,
)
from tarock_solver.french.advice.worlds import sample_world
from tarock_solver.french.cards import ALL_CARDS, cards_of
from tarock_solver.french.estimate.model import load_french_evaluator
from tarock_solver.french.notation import parse_hand
from tarock_solver.french.rules import Contract, load_rules

HAND = parse_hand("21,19,17,14,11,8,4,EX.K107.KQ5.J2.96", players=4)
WORLDS = 16


@pytest.fixture(scope="module")
def advice():
    return advise_french(FrenchAdviceRequest(HAND, 1, load_rules("fft"), seed=3, worlds=WORLDS))


def test_worlds_deal_the_other_cards() -> None:
    for j in range(5):
        w = sample_world(HAND, 2, 4, j)
        assert w.hands[2] == HAND
        assert [len(cards_of(h)) for h in w.hands] == [18] * 4 and len(cards_of(w.chien)) == 6
        union = w.chien
        for h in w.hands:
            assert not union & h
            union |= h
        assert union == ALL_CARDS
    assert sample_world(HAND, 2, 4, 1) == sample_world(HAND, 2, 4, 1)
    assert sample_world(HAND, 2, 4, 1) != sample_world(HAND, 2, 5, 1)


def test_rows_are_plain_means_over_the_worlds(advice) -> None:
    model = load_french_evaluator()
    worlds = [sample_world(HAND, 1, 3, j) for j in range(WORLDS)]
    chosen = [choose_discard(model, HAND | w.chien, 1, 0, 3, (j,), MARGIN_SD).discard
              for j, w in enumerate(worlds)]
    for contract in (Contract.PETITE, Contract.GARDE, Contract.GARDE_SANS,
                     Contract.GARDE_CONTRE):
        a = _start_rows(worlds, 1, contract, chosen if contract.exchanges else None)
        pts, margin, pab = model.predict_lookahead(a)
        # the petit au bout's half points are the score's per multiplier, times two
        bonus = 3 * pab / 2 * contract.multiplier
        score = 3 * expected_value(margin, MARGIN_SD, contract.multiplier) + bonus
        row = advice.option(contract.value)
        got = next(g for g in advice.petit_au_bout if g.contract == contract.value)
        assert got.gain.mean == pytest.approx(bonus.mean())
        assert got.gain.se == pytest.approx(bonus.std(ddof=1) / math.sqrt(WORLDS))
        assert row.score.mean == pytest.approx(score.mean())
        assert row.score.se == pytest.approx(score.std(ddof=1) / math.sqrt(WORLDS))
        assert advice.values[contract.value] == pytest.approx(score)  # world by world
        assert row.points.mean == pytest.approx(((a.points + pts) / 2).mean())
        assert row.margin.mean == pytest.approx((margin / 2).mean())
        assert row.p_make.mean == pytest.approx(made_probability(margin, MARGIN_SD).mean())
        if contract.exchanges:
            # the discard counts for the taker
            assert np.all(a.points > 0)


def test_the_recommendation_is_the_best_mean_and_its_difference_paired(advice) -> None:
    best = max(advice.options, key=lambda o: o.score.mean)
    assert advice.recommended == best.option
    second = sorted(advice.options, key=lambda o: -o.score.mean)[1]
    assert advice.runner_up == second.option
    assert advice.difference.mean == pytest.approx(best.score.mean - second.score.mean)
    # paired: the SE of the difference is not the two SEs combined as if independent
    assert advice.difference.has_se
    assert advice.close == (abs(advice.difference.mean) < 2 * advice.difference.se)
    assert {o.option for o in advice.options} == {PASS, "petite", "garde", "garde_sans",
                                                  "garde_contre"}


def test_same_seed_same_answer(advice) -> None:
    again = advise_french(FrenchAdviceRequest(HAND, 1, load_rules("fft"), seed=3, worlds=WORLDS))
    assert again.to_dict() | {"seconds": 0} == advice.to_dict() | {"seconds": 0}


def test_the_garde_doubles_the_petite_on_the_same_discards(advice) -> None:
    # one discard serves both; without bonuses the Garde's value is twice the Petite's
    p, g = advice.option("petite"), advice.option("garde")
    assert g.score.mean == pytest.approx(2 * p.score.mean)
    assert g.points.mean == p.points.mean and g.p_make.mean == p.p_make.mean


def test_the_flat_petit_au_bout_is_the_petites_in_every_contract() -> None:
    pab = np.array([20.0, -20.0, 7.0])
    fft, flat = load_rules("fft"), load_rules("fft", {"petit_au_bout": "flat"})
    assert petit_au_bout_value(pab, fft.petit_au_bout_factor(4)).tolist() == [40.0, -40.0, 14.0]
    assert petit_au_bout_value(pab, flat.petit_au_bout_factor(4)).tolist() == [10.0, -10.0, 3.5]


def test_expected_value_tends_to_the_scoring_far_from_the_target() -> None:
    # at 30 points over, the normal's tails do not reach the target: (25 + 30) × 2
    # (a half point of difference is rounded for the winner: up to one point more)
    assert expected_value(np.array([60.0]), 8.0, 2)[0] == pytest.approx(110.5, abs=1.0)
    assert expected_value(np.array([-60.0]), 8.0, 1)[0] == pytest.approx(-55.25, abs=0.5)
    assert made_probability(np.array([0.0]), 8.0)[0] > 0.5


def _direct_expected_value(m: float, sd: float, multiplier: int) -> float:
    """The sum over every whole half point k of margin of P(round(m + sd Z) = k) times
    the score there, from the rules' words: ±(25 + the difference in whole points, a
    half point rounded for the winner), made at 0."""
    total = 0.0
    for k in range(-600, 601):
        p = 0.5 * (math.erf((k + 0.5 - m) / sd / math.sqrt(2))
                   - math.erf((k - 0.5 - m) / sd / math.sqrt(2)))
        total += p * (1 if k >= 0 else -1) * (25 + math.ceil(abs(k) / 2)) * multiplier
    return total


@pytest.mark.parametrize("sd", [4.0, 16.0])
def test_expected_value_is_the_rounded_normals_sum(sd: float) -> None:
    rng = np.random.default_rng(7)
    margins = np.concatenate([rng.uniform(-40, 40, 20), [0.0, -0.5, 0.5, 5.0, 110.0, -112.0]])
    got = expected_value(margins, sd, 2)
    want = [_direct_expected_value(float(m), sd, 2) for m in margins]
    # the table is interpolated on a grid of 1/8 half point
    assert got == pytest.approx(want, abs=5e-3)
    # near the target the jump is smoothed, not stepped: +2.5 points is worth more
    # than half the way from 0 to the sure score (a quadrature would say 5 at sd 16)
    if sd == 16.0:
        assert expected_value(np.array([5.0]), sd, 2)[0] == pytest.approx(18.57, abs=0.01)


@pytest.mark.parametrize("kwargs, message", [
    ({"hand": HAND & ~(1 << cards_of(HAND)[0])}, "18 cards"),
    ({"seat": 4}, "seat 5"),
    ({"worlds": 4}, "at least 8"),
])
def test_bad_requests_are_refused(kwargs, message) -> None:
    args = {"hand": HAND, "seat": 0, "rules": load_rules("fft"), "worlds": 16} | kwargs
    with pytest.raises(RulesError, match=message):
        advise_french(FrenchAdviceRequest(**args))


def test_a_known_chien_gives_one_discard_for_every_world() -> None:
    chien = parse_hand("T3 T9 S1 H2 DK C4", players=None)
    adv = advise_french(FrenchAdviceRequest(HAND, 0, load_rules("fft"), seed=2, worlds=WORLDS,
                                            chien=chien))
    assert len(adv.discards) == 1 and adv.discards[0][1] == 1.0
    for j in range(3):
        assert sample_world(HAND, 0, 2, j, chien).chien == chien
    with pytest.raises(RulesError, match="share"):
        advise_french(FrenchAdviceRequest(HAND, 0, load_rules("fft"), worlds=WORLDS,
                                          chien=parse_hand("T21 T9 S1 H2 DK C4", players=None)))
