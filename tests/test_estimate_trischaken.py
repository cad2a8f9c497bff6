"""The Trischaken evaluator (estimate/trischaken.py): batch independence, held-out error on
the shipped labels, suit symmetry, and the nets against score_trischaken worked by hand."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tarock_solver.deal import random_deal
from tarock_solver.errors import DealError, RulesError
from tarock_solver.estimate import (
    estimate_trischaken_many,
    expected_trischaken_net,
    load_trischaken_evaluator,
    trischaken_net,
)
from tarock_solver.estimate.trischaken import points_in_play
from tarock_solver.rules import load_rules
from tarock_solver.scoring import score_trischaken

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "data" / "evaluator" / "trischaken_s1.npz"
#: Bounds on the shipped labels' test split (179 exact rows): measured MAE 3.06 and r 0.908
#: (docs/EVALUATOR.md, "The Trischaken evaluator"), with a margin; predicting the labels'
#: mean for every deal gives MAE 7.3.
MAX_TEST_MAE = 3.5
MIN_TEST_R = 0.87

DUMMETT = load_rules("dummett")


def _deals(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    hands = np.array([random_deal(rng).hands for _ in range(n)], dtype=np.uint64)
    return hands, rng.integers(0, 3, n)


def test_batch_equals_row_by_row():
    hands, seats = _deals(5, 300)
    batch = estimate_trischaken_many(hands, seats)
    rows = np.array([estimate_trischaken_many(hands[i:i + 1], seats[i:i + 1])[0]
                     for i in range(len(hands))])
    assert np.array_equal(batch, rows)
    perm = np.random.default_rng(1).permutation(len(hands))
    assert np.array_equal(estimate_trischaken_many(hands[perm], seats[perm]), batch[perm])
    assert (batch >= 0).all() and (batch <= points_in_play(hands)).all() and batch.std() > 1.0


def _permute_suits(hands: np.ndarray, order: list[int]) -> np.ndarray:
    out = hands & np.uint64((1 << 22) - 1)
    for new, old in enumerate(order):
        byte = (hands >> np.uint64(22 + 8 * old)) & np.uint64(255)
        out |= byte << np.uint64(22 + 8 * new)
    return out


def test_suit_permutation_leaves_the_estimate_unchanged():
    # the solver treats the four suits alike, and so must the features
    hands, seats = _deals(6, 100)
    base = estimate_trischaken_many(hands, seats)
    moved = _permute_suits(hands, [2, 0, 3, 1])
    assert not np.array_equal(moved, hands)
    assert np.array_equal(estimate_trischaken_many(moved, seats), base)


def test_held_out_error_on_the_shipped_labels():
    from tarock_solver.training.trischaken import load, split_masks

    d = load([LABELS])
    keep = d["exact"]
    _, _, test = split_masks(d["seed"], d["index"])
    rows = keep & test
    assert rows.sum() >= 50
    pred = estimate_trischaken_many(d["hands"][rows], d["seat"][rows])
    y = d["lower"][rows].astype(float)
    assert np.abs(pred - y).mean() < MAX_TEST_MAE
    assert np.corrcoef(pred, y)[0, 1] > MIN_TEST_R
    # positive control: the predictions of other rows' seats do far worse
    shuffled = np.roll(y, 7)
    assert np.abs(pred - shuffled).mean() > np.abs(pred - y).mean()


def test_sixteen_cards_a_hand():
    hands, seats = _deals(7, 2)
    short = hands.copy()
    for s in range(3):  # one card fewer in every hand
        low = int(short[0, s]) & -int(short[0, s])
        short[0, s] = np.uint64(int(short[0, s]) & ~low)
    with pytest.raises(DealError, match="16 cards"):
        estimate_trischaken_many(short, seats)


@pytest.mark.parametrize(("points", "in_play", "net"), [
    (40, 61, -10),   # others 11 and 10: the seat alone is the loser
    (10, 61, 5),     # others 26 and 25: the next seat loses, the seat writes 5
    (0, 61, 15),     # trickless non-loser: 5 + 5 written, the other non-loser 5
    (1, 61, 10),     # others 30 and 30: two tied losers, the third +10
    (20, 60, 0),     # 20 / 20 / 20: a three-way tie writes nothing
    (30, 60, -10),   # others 15 and 15: the seat loses alone
    (60, 61, -15),   # others 1 and 0: the trickless one writes 10, the other 5
    (61, 61, -20),   # others 0 and 0: both trickless
])
def test_trischaken_net_worked_by_hand(points, in_play, net):
    assert trischaken_net(DUMMETT, points, in_play) == net


def test_trischaken_net_is_score_trischaken_of_the_even_split():
    for in_play in (55, 58, 64):
        for points in range(in_play + 1):
            rest = in_play - points
            pts = [points, rest - rest // 2, rest // 2]
            tricks = [0 if p == 0 else 1 for p in pts]
            tricks[int(np.argmax(pts))] += 16 - sum(tricks)
            assert trischaken_net(DUMMETT, points, in_play) == \
                score_trischaken(DUMMETT, pts, tricks).nets[0]


def test_expected_net_at_sd_zero_is_the_net_of_the_rounded_mean():
    for mean, k in ((20.0, 20), (20.4, 20), (20.5, 21), (-3.0, 0), (80.0, 61)):
        assert expected_trischaken_net(DUMMETT, mean, 0.0, 61) == trischaken_net(DUMMETT, k, 61)
    with pytest.raises(RulesError, match="points in play"):
        expected_trischaken_net(DUMMETT, 20.0, 0.0)


def test_expected_net_is_the_sum_over_points():
    for mean, sd in ((18.3, 4.0), (25.0, 9.5), (2.0, 3.0)):
        phi = [0.5 * (1 + math.erf((k + 0.5 - mean) / (sd * math.sqrt(2)))) for k in range(61)]
        p = np.diff([0.0, *phi, 1.0])  # k = 0 takes all below 0.5, k = 61 all above 60.5
        brute = sum(p[k] * trischaken_net(DUMMETT, k, 61) for k in range(62))
        assert expected_trischaken_net(DUMMETT, mean, sd, 61) == pytest.approx(brute, abs=1e-5)
    # the default sd is the model's held-out error, and it smooths the net
    sd = load_trischaken_evaluator().error_sd
    assert 1.0 < sd < 20.0
    assert expected_trischaken_net(DUMMETT, 18.3, None, 61) == pytest.approx(
        expected_trischaken_net(DUMMETT, 18.3, sd, 61))


def test_profiles_without_trischaken_scoring():
    rules = load_rules("ms2016")
    assert rules.trischaken_value is None
    with pytest.raises(RulesError, match="no Trischaken scoring"):
        trischaken_net(rules, 10, 60)
    with pytest.raises(RulesError, match="no Trischaken scoring"):
        expected_trischaken_net(rules, 10.0, 3.0, 60)
