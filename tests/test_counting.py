"""Card counting in thirds (RULES.md 1.2–1.4 and the 10.1 vectors)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarock_solver.cards import (
    CARD_IDS,
    FULL_MASK,
    INDEX_OF,
    N_CARDS,
    TOTAL_THIRDS,
    mask_of,
    popcount,
    round_points,
    thirds_of,
    wins,
)


def pile(ids: str) -> int:
    return mask_of(INDEX_OF[i] for i in ids.split())


#: Exact values of single cards from the table of RULES.md 1.2, in thirds (nominal·3 − 2).
VALUE_CLASSES = {
    13: ["T22", "T21", "T1", "HK", "DK", "SK", "CK"],  # 4⅓
    10: ["HQ", "DQ", "SQ", "CQ"],  # 3⅓
    7: ["HC", "DC", "SC", "CC"],  # 2⅓
    4: ["HJ", "DJ", "SJ", "CJ"],  # 1⅓
}
#: Nominal values written out from the same table (5, 4, 3, 2; every other card 1).
NOMINAL_BY_ID = {cid: 1 for cid in CARD_IDS} | {
    cid: (thirds + 2) // 3 for thirds, ids in VALUE_CLASSES.items() for cid in ids
}


def test_single_card_values_and_class_sizes():
    named = {cid for ids in VALUE_CLASSES.values() for cid in ids}
    for thirds, ids in VALUE_CLASSES.items():
        for cid in ids:
            assert thirds_of(pile(cid)) == thirds
    blanks = [cid for cid in CARD_IDS if cid not in named]
    assert len(blanks) == 35
    assert sum(NOMINAL_BY_ID.values()) == 106  # the pack (RULES.md 1.2)
    assert all(thirds_of(pile(cid)) == 1 for cid in blanks)  # ⅓ each


# RULES.md 10.1: (cards, thirds, rounded points)
VECTORS = [
    ("HK HC H4", 21, 7),  # K + C + blank
    ("SK DQ T22", 36, 12),  # K + Q + Sküs
    ("T21 T1 CK", 39, 13),  # XXI + I + K
    ("HQ DQ SQ", 30, 10),
    ("HQ DQ CC", 27, 9),
    ("HJ DJ SJ", 12, 4),
    ("T5 S9 D2", 3, 1),  # three blanks
    ("T1 DK SC", 33, 11),  # I + K + C (a printed 12⅓ is wrong)
    # Sküs, XXI, I, 2 K, 2 Q, 1 C, 2 J + 17 blanks (27 cards)
    ("T22 T21 T1 HK DK HQ DQ HC HJ DJ "
     "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18", 117, 39),
    ("HK", 13, 4),  # one King alone: 4⅓ → 4
    ("HK H4", 14, 5),  # K + blank: 4⅔ → 5
]


@pytest.mark.parametrize("cards, thirds, points", VECTORS)
def test_counting_vectors(cards, thirds, points):
    assert thirds_of(pile(cards)) == thirds
    assert round_points(thirds) == points


def test_27_card_vector_has_27_cards():
    assert popcount(pile(VECTORS[8][0])) == 27


def test_whole_pack():
    assert thirds_of(FULL_MASK) == TOTAL_THIRDS == 210
    assert round_points(210) == 70


def test_two_declarer_with_107_thirds_wins():
    # 35 cards = 11 tricks + 2 discards: only a Two declarer holds 3k + 2 cards.
    two = pile("T21 T19 T18 T17 T15 T14 T12 T11 T10 T8 T7 T6 T5 T4 T3 T2 HK HQ HC HJ HA H4 "
               "DA D3 D4 SJ S10 S9 S7 CK CQ CC C10 C8 C7")
    assert popcount(two) == 35 and thirds_of(two) == 107
    assert round_points(107) == 36 and wins(107)


def test_one_declarer_with_106_thirds_loses():
    # 34 cards = 11 tricks + 1 discard: a One declarer's pile.
    one = pile("T19 T17 T16 T12 T10 T9 T8 T6 T5 T4 T3 T2 HK HJ HA H3 DK DC DJ D2 D3 D4 "
               "SQ SJ S10 S9 S8 S7 CK CQ CJ C10 C8 C7")
    assert popcount(one) == 34 and thirds_of(one) == 106
    assert round_points(106) == 35 and not wins(106)
    assert wins(106, win_thirds=106)  # the regional 35⅓ rule


def test_win_threshold_and_targets():
    assert not wins(105) and not wins(106) and wins(107) and wins(108)
    # Targets compare rounded points: P >= 40 is thirds >= 119, P >= 50 is thirds >= 149.
    assert min(t for t in range(211) if round_points(t) >= 40) == 119
    assert min(t for t in range(211) if round_points(t) >= 50) == 149
    assert min(t for t in range(211) if round_points(t) >= 36) == 107


def test_rounding_by_remainder():
    for whole in range(71):
        assert round_points(3 * whole) == whole
        if whole < 70:
            assert round_points(3 * whole + 1) == whole  # ⅓ rounds down
            assert round_points(3 * whole + 2) == whole + 1  # ⅔ rounds up


cards_subset = st.sets(st.integers(0, N_CARDS - 1)).map(mask_of)


@given(cards_subset)
def test_thirds_match_counting_in_groups_of_three(mask):
    # The table method: nominal values minus 2 per group of three, minus ⅔ per card left over.
    n = popcount(mask)
    nominal = sum(NOMINAL_BY_ID[CARD_IDS[i]] for i in range(N_CARDS) if mask >> i & 1)
    exact = nominal - 2 * (n // 3) - Fraction(2, 3) * (n % 3)
    assert thirds_of(mask) == 3 * exact
    # So the fraction of a pile depends only on its card count (RULES.md 1.4).
    assert thirds_of(mask) % 3 == n % 3


@given(st.lists(st.integers(0, 5), min_size=N_CARDS, max_size=N_CARDS))
def test_every_partition_of_the_pack_sums_to_210(assignment):
    piles = [0] * 6
    for card, which in enumerate(assignment):
        piles[which] |= 1 << card
    assert sum(thirds_of(p) for p in piles) == TOTAL_THIRDS


@given(cards_subset)
def test_rounded_totals_of_two_sides_add_up_to_70(declarer):
    defenders = FULL_MASK & ~declarer
    assert round_points(thirds_of(declarer)) + round_points(thirds_of(defenders)) == 70
