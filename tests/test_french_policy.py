"""The French adviser's bidding policy: its batched values are the plain ones of its
inner worlds, its quick discard the rule of thumb's, its calls the rule applied in turn."""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.french.advice.adviser import MARGIN_SD
from tarock_solver.french.advice.policy import (
    CONTRACTS,
    PolicySettings,
    _quick_discards,
    auctions,
    calls_agree,
    inner_deals,
    seat_values,
)
from tarock_solver.french.advice.value import contract_value
from tarock_solver.french.advice.worlds import sample_world
from tarock_solver.french.cards import (
    ALL_CARDS,
    cards_of,
    half_points,
    mask_of,
    oudlers_in,
    split,
)
from tarock_solver.french.chien import opening, quick_discard
from tarock_solver.french.deal import random_deal
from tarock_solver.french.estimate.model import load_french_evaluator, opening_arrays
from tarock_solver.french.notation import parse_hand
from tarock_solver.french.rules import load_rules

RULES = load_rules("fft")
SETTINGS = PolicySettings(inner_worlds=6)


@pytest.fixture(scope="module")
def model():
    return load_french_evaluator()


def _reference_values(model, hand: int, seat: int, index: tuple[int, ...]) -> np.ndarray:
    """Each contract's mean value over the speaker's inner worlds, one opening at a time
    by the library's own opening and quick discard."""
    deals = inner_deals(hand, seat, 5, index, SETTINGS.inner_worlds)
    out = []
    for con in CONTRACTS:
        rows = [opening(hands, chien, seat, con) for hands, chien in deals]
        v = model.predict_start(opening_arrays(rows, [seat] * len(rows)), points=False)
        out.append(contract_value(v.margin, v.pab, MARGIN_SD, con.multiplier,
                                  RULES.petit_au_bout_factor(con.multiplier)).mean())
    return np.array(out)


def test_batched_values_are_the_plain_ones(model) -> None:
    hands, seats, indices = [], [], []
    for i in range(6):
        deal = random_deal(100 + i)
        seat = i % 4
        hands.append(deal.hands[seat])
        seats.append(seat)
        indices.append((i, seat))
    got = seat_values(model, hands, seats, 5, indices, RULES, MARGIN_SD, SETTINGS)
    want = np.array([_reference_values(model, h, s, ix)
                     for h, s, ix in zip(hands, seats, indices, strict=True)])
    assert got.shape == (6, 4)
    assert got == pytest.approx(want, abs=1e-9)
    # the values differ between hands and contracts: a constant would fail
    assert np.ptp(got[:, 0]) > 1 and np.ptp(got[0]) > 1


def test_inner_deals_deal_every_unknown_card_once() -> None:
    hand = random_deal(3).hands[2]
    for hands, chien in inner_deals(hand, 2, 1, (0, 2), 5):
        assert hands[2] == hand and bin(chien).count("1") == 6
        assert sum(hands) + chien == ALL_CARDS
        assert all(bin(h).count("1") == 18 for h in hands)


def test_the_batched_quick_discard_is_the_rule_of_thumb() -> None:
    rng = np.random.default_rng(4)
    fulls = [int(sum(1 << int(c) for c in rng.choice(78, 24, replace=False)))
             for _ in range(200)]
    # hands that must put trumps aside: 18 trumps, the four Kings, two more cards
    kings = parse_hand("SK HK DK CK", players=None)
    fulls += [mask_of(range(1, 19)) | kings | parse_hand("S1 H1", players=None),
              mask_of(range(0, 18)) | kings | parse_hand("D2 C3", players=None)]
    assert all(bin(f).count("1") == 24 for f in fulls)
    arr = np.array([cards_of(f) for f in fulls], np.int64)
    lo, hi, pts, oud = _quick_discards(arr)
    for i, full in enumerate(fulls):
        d = quick_discard(full)
        assert (int(lo[i]), int(hi[i])) == split(d)
        assert (pts[i], oud[i]) == (half_points(d), oudlers_in(d))


def test_calls_agree_applies_the_rule_in_turn(model) -> None:
    # a weak hand: the others hold the trumps, and bid on some worlds
    hand = parse_hand("T15 T9 T4 T3 SQ S8 S5 S2 HJ H7 H4 H1 D10 D6 D3 C9 C5 C2", players=4)
    n = 100
    worlds = [sample_world(hand, 2, 9, j) for j in range(n)]
    idx = list(range(n))
    v0 = seat_values(model, [w.hands[0] for w in worlds], [0] * n, 9,
                     [(j, 0) for j in idx], RULES, MARGIN_SD, SETTINGS)
    v1 = seat_values(model, [w.hands[1] for w in worlds], [1] * n, 9,
                     [(j, 1) for j in idx], RULES, MARGIN_SD, SETTINGS)

    def call(v: np.ndarray, bid: int) -> int:
        v = v.copy()
        v[:bid + 1] = -np.inf
        return int(np.argmax(v)) if v.max() > 0 else -1

    passes = calls_agree(model, worlds, idx, [None, None], RULES, 9, MARGIN_SD, SETTINGS)
    want = [call(v0[j], -1) == -1 and call(v1[j], -1) == -1 for j in idx]
    assert passes.tolist() == want
    # a Petite heard from seat 1: its worlds are those where it bids that or more, and
    # seat 2 then passes over the Petite
    petite = calls_agree(model, worlds, idx, [CONTRACTS[0], None], RULES, 9, MARGIN_SD,
                         SETTINGS)
    assert petite.tolist() == [call(v0[j], -1) >= 0 and call(v1[j], 0) == -1 for j in idx]
    assert not (passes & petite).any()
    assert passes.any() and (~passes).any()


def test_auctions_bid_in_turn_on_the_speakers_values(model) -> None:
    hand = parse_hand("21,19,17,14,11,8,4,EX.K107.KQ5.J2.96", players=4)
    worlds = [sample_world(hand, 0, 3, j) for j in range(60)]
    takers, contracts, values = auctions(model, worlds, range(60), 0, RULES, 3, MARGIN_SD,
                                         SETTINGS)
    for j, w in enumerate(worlds):
        bid, taker = -1, -1
        for s in (1, 2, 3):
            v = seat_values(model, [w.hands[s]], [s], 3, [(j, s)], RULES, MARGIN_SD,
                            SETTINGS)[0]
            v[:bid + 1] = -np.inf
            if v.max() > 0:
                bid, taker = int(np.argmax(v)), s
        assert takers[j] == taker
        assert contracts[j] == (CONTRACTS[bid] if bid >= 0 else None)
        assert (values[j] == 0) == (bid < 0)
