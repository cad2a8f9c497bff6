"""FrenchDeal and FrenchPartialDeal: construction, validation, card points, seeded deals."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tarock_solver.errors import DealError
from tarock_solver.french.cards import (
    ALL_CARDS,
    CARD_IDS,
    CHIEN_SIZE,
    HALF_POINTS,
    HAND_SIZE,
    INDEX_OF,
    cards_of,
    mask_of,
)
from tarock_solver.french.deal import (
    CONTRACTS,
    FrenchDeal,
    FrenchPartialDeal,
    canonical_order,
    contract_name,
    random_deal,
    random_deals,
    seat_number,
)

DEAL = random_deal(2012)


def mask(*names: str) -> int:
    return sum(1 << INDEX_OF[n] for n in names)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals_are_valid_for_every_table(players):
    for seed in range(200):
        deal = random_deal(seed, players)
        deal.validate()
        assert deal.players == players
        assert [h.bit_count() for h in deal.hands] == [HAND_SIZE[players]] * players
        assert deal.chien.bit_count() == CHIEN_SIZE[players]
        assert sum(deal.half_points()) == 182


def test_random_deal_follows_the_documented_algorithm():
    # The algorithm is part of the interface: a seed names one deal for good.
    for players in (3, 4, 5):
        perm = np.random.default_rng(99).permutation(78)
        size = HAND_SIZE[players]
        expected = FrenchDeal(
            hands=tuple(mask_of(int(c) for c in perm[s * size:(s + 1) * size])
                        for s in range(players)),
            chien=mask_of(int(c) for c in perm[players * size:]))
        assert random_deal(99, players) == expected


def test_random_deal_is_reproducible_across_processes():
    code = ("from tarock_solver.french.deal import random_deal; "
            "print(random_deal(31337, 5).hands, random_deal(31337, 5).chien)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    deal = random_deal(31337, 5)
    assert out.strip() == f"{deal.hands} {deal.chien}"
    assert random_deal(31337, 5) == deal and random_deal(31338, 5) != deal


def test_random_deals_are_the_seeds_in_turn():
    deals = random_deals(40, 5, players=3)
    assert deals == [random_deal(40 + i, 3) for i in range(5)]
    assert random_deals(40, 2, players=3) == deals[:2]
    with pytest.raises(ValueError, match="seed"):
        random_deal(-1)
    with pytest.raises(DealError, match="3, 4 or 5 hands; found 6"):
        random_deal(1, 6)


def test_half_points_per_hand():
    assert DEAL.half_points() == (42, 28, 34, 68, 10)
    for pile, half in zip((*DEAL.hands, DEAL.chien), DEAL.half_points(), strict=True):
        assert half == sum(HALF_POINTS[c] for c in cards_of(pile))


def test_deal_is_frozen_hashable_and_plain_ints():
    # The chien of a 4-player deal fits 64 bits only by chance; build one that does.
    low = FrenchDeal(hands=DEAL.hands, chien=np.uint64(DEAL.chien & (2**64 - 1)))
    assert type(low.chien) is int and low.chien == DEAL.chien & (2**64 - 1)
    deal = FrenchDeal(hands=list(DEAL.hands), chien=DEAL.chien)  # type: ignore[arg-type]
    assert deal == DEAL and hash(deal) == hash(DEAL) and type(deal.hands) is tuple
    with pytest.raises(AttributeError):
        deal.chien = 0  # type: ignore[misc]


def test_seats():
    assert DEAL.seat_names == ("1", "2", "3", "4")
    assert DEAL.hand("2") == DEAL.hand(1) == DEAL.hands[1]
    assert seat_number("5", 5) == 4
    for bad in ("0", "5", 4, -1, True, "N"):
        with pytest.raises(DealError, match="seats are 1, 2, 3, 4"):
            DEAL.hand(bad)


def test_construction_checks():
    with pytest.raises(DealError, match="3, 4 or 5 hands; found 2"):
        FrenchDeal(hands=(1, 2), chien=0)
    with pytest.raises(DealError, match="outside the 78 cards"):
        FrenchDeal(hands=(1 << 78, 0, 0, 0), chien=0)
    with pytest.raises(DealError, match="taker seat index 4 is not a seat"):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=4)
    with pytest.raises(DealError, match='unknown contract "garde sans le chien"; expected '
                                        "petite, garde, garde_sans or garde_contre."):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, contract="garde sans le chien")
    with pytest.raises(DealError, match="use FrenchPartialDeal"):
        FrenchDeal(hands=(None, *DEAL.hands[1:]), chien=DEAL.chien)  # type: ignore[arg-type]


def test_contract_names_are_stored_canonical():
    assert CONTRACTS == ("petite", "garde", "garde_sans", "garde_contre")
    assert contract_name("Garde Sans") == contract_name("garde-sans") == "garde_sans"
    deal = FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=1, contract="GARDE CONTRE")
    assert deal.contract == "garde_contre"
    deal.validate()


def test_validation_names_every_problem():
    hands = list(DEAL.hands)
    card = cards_of(hands[0])[0]
    hands[0] &= ~(1 << card)
    with pytest.raises(DealError) as info:
        FrenchDeal(hands=tuple(hands), chien=DEAL.chien).validate()
    assert info.value.messages[0].startswith("the deal has 77 cards; a French Tarot deal has "
                                             "78 (4 hands of 18 and a chien of 6); missing: ")
    assert "hand 1 has 17 cards" in info.value.messages[1]

    hands = list(DEAL.hands)
    stolen = cards_of(hands[3])[0]
    chien = DEAL.chien & (DEAL.chien - 1) | 1 << stolen  # a chien card replaced by one of 4's
    with pytest.raises(DealError) as info:
        FrenchDeal(hands=tuple(hands), chien=chien).validate()
    assert info.value.messages[0].startswith(f"card {_id(stolen)} appears twice: in hand 4 and "
                                             f"in the chien.")
    assert info.value.messages[1].startswith("missing from the deal: ")


def _id(card: int) -> str:
    return CARD_IDS[card]


def test_discard_checks():
    taker = 3
    pool = cards_of(DEAL.hands[taker] | DEAL.chien)
    discard = mask_of(pool[:6])
    FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=taker, contract="garde",
               discard=discard).validate()
    with pytest.raises(DealError, match="a discard needs a taker"):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, discard=discard).validate()
    with pytest.raises(DealError, match="the discard has 5 cards; it needs 6"):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=taker,
                   discard=mask_of(pool[:5])).validate()
    foreign = cards_of(DEAL.hands[0])[0]
    with pytest.raises(DealError, match=f"the discard holds {_id(foreign)}, not in hand 4 nor in "
                                        f"the chien"):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=taker,
                   discard=mask_of([*pool[:5], foreign])).validate()
    with pytest.raises(DealError, match="a garde sans has no discard"):
        FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=taker, contract="garde sans",
                   discard=discard).validate()


def test_partial_deal():
    partial = FrenchPartialDeal(hands=(None, DEAL.hands[1], None, None), chien=None)
    partial.validate()
    assert not partial.is_complete() and partial.players == 4
    assert partial.unknown_mask() == ALL_CARDS & ~DEAL.hands[1]
    with pytest.raises(DealError, match="hand 3 has 1 cards"):
        FrenchPartialDeal(hands=(None, DEAL.hands[1], 1, None), chien=None).validate()
    complete = FrenchPartialDeal(hands=DEAL.hands, chien=DEAL.chien)
    assert complete.is_complete() and complete.to_deal() == DEAL


def test_canonical_order():
    cards = [INDEX_OF[c] for c in ("C1", "EX", "SK", "T1", "H10", "T21", "DC", "S1")]
    assert [_id(c) for c in canonical_order(cards)] == ["T21", "T1", "EX", "SK", "S1", "H10",
                                                        "DC", "C1"]
    assert mask("SK") == 1 << INDEX_OF["SK"]
