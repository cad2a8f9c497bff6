"""Deal and PartialDeal, validation messages, warnings and the random deal generator."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

from tarock_solver.cards import FULL_MASK, INDEX_OF, TAROCK_MASK, thirds_of
from tarock_solver.deal import (
    ADVICE_NEEDS_HAND,
    Deal,
    DealWarning,
    PartialDeal,
    capture_warnings,
    no_tarock_warnings,
    random_deal,
    random_deals,
)
from tarock_solver.errors import DealError, NotationError
from tarock_solver.notation import EXAMPLE_DEALS, format_deal, format_hand, parse_deal

EX1 = parse_deal(EXAMPLE_DEALS["example-1"])


def mask(*names: str) -> int:
    return sum(1 << INDEX_OF[n] for n in names)


def test_examples_are_valid_and_hold_210_thirds():
    for text in EXAMPLE_DEALS.values():
        deal = parse_deal(text)
        deal.validate()
        piles = [*deal.hands, deal.talon_mask]
        assert sum(thirds_of(p) for p in piles) == 210
        assert not deal.has_no_tarock_hand()


def test_seat_access_and_talon_mask():
    assert EX1.hand(0) == EX1.hand("F") == EX1.hand("f") == EX1.hands[0]
    assert EX1.hand(2) == EX1.hand("R")
    assert EX1.talon_mask == mask("T12", "T19", "T10", "CK", "C10", "HC")
    assert EX1.hand("M") & mask("T13", "T3") == mask("T13", "T3")
    for bad in ("N", 3, -1, "FM"):
        with pytest.raises(NotationError, match="seats are F"):
            EX1.hand(bad)


def test_deal_is_frozen_hashable_and_plain_ints():
    deal = Deal(hands=tuple(np.uint64(h) for h in EX1.hands), talon=np.array(EX1.talon))
    assert deal == EX1 and hash(deal) == hash(EX1)
    assert all(type(h) is int for h in deal.hands) and all(type(c) is int for c in deal.talon)
    with pytest.raises(AttributeError):
        deal.talon = ()  # type: ignore[misc]


def test_construction_rejects_impossible_values():
    with pytest.raises(DealError, match="3 known hands"):
        Deal(hands=(1, 2), talon=())  # type: ignore[arg-type]
    with pytest.raises(DealError, match="outside the 54 cards"):
        Deal(hands=(1 << 54, 0, 0), talon=())
    with pytest.raises(DealError, match="talon position 2 holds card index 60"):
        Deal(hands=(0, 0, 0), talon=(1, 60))


def swap(deal: Deal, seat: int, out: str, into: str) -> Deal:
    hands = list(deal.hands)
    hands[seat] = hands[seat] & ~mask(out) | mask(into)
    return Deal(hands=tuple(hands), talon=deal.talon)


def test_validate_messages():
    # F gives up ♠9 and takes nothing: 15 cards, ♠9 missing.
    short = Deal(hands=(EX1.hands[0] & ~mask("S9"), EX1.hands[1], EX1.hands[2]), talon=EX1.talon)
    with pytest.raises(DealError) as info:
        short.validate()
    assert str(info.value) == ("hand F has 15 cards; every hand needs 16 "
                               "(16 + 16 + 16 + 6 talon = 54).\n"
                               "Missing from the deal: S9 (♠9).")
    # M holds ♥K (also talon position 2) instead of ♥J.
    dup = Deal(hands=(EX1.hands[0] & ~mask("HK") | mask("T19"), EX1.hands[1] & ~mask("HJ")
                      | mask("HK"), EX1.hands[2]),
               talon=(INDEX_OF["T12"], INDEX_OF["HK"], *EX1.talon[2:]))
    with pytest.raises(DealError) as info:
        dup.validate()
    assert info.value.messages == [
        "card HK (♥K) appears twice: in hand M and at talon position 2.",
        "the deal has 53 different cards; missing: HJ (♥J)."]
    three = Deal(hands=(EX1.hands[0], EX1.hands[1] | mask("T21"), EX1.hands[2]),
                 talon=(INDEX_OF["T21"], *EX1.talon[1:]))
    with pytest.raises(DealError) as info:
        three.validate()
    assert info.value.messages == [
        "hand M has 17 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54).",
        "card T21 (XXI) appears 3 times: in hand F, in hand M and at talon position 1.",
        "Missing from the deal: T12 (XII)."]
    with pytest.raises(DealError, match=re.escape("found 5.")):
        Deal(hands=EX1.hands, talon=EX1.talon[:5]).validate()


def test_midplay_validation():
    small = Deal(hands=(mask("T1", "T2"), mask("T3", "T4"), mask("HK", "HQ")), talon=EX1.talon)
    small.validate(midplay=True)
    with pytest.raises(DealError):
        small.validate()
    uneven = Deal(hands=(mask("T1", "T2"), mask("T3"), mask("HK", "HQ")), talon=EX1.talon)
    with pytest.raises(DealError, match="found F 2, M 1, R 2"):
        uneven.validate(midplay=True)


def test_partial_deal():
    partial = PartialDeal(hands=(EX1.hands[0], None, None), talon=None)
    partial.validate()
    assert partial.known_mask() == EX1.hands[0]
    assert partial.unknown_mask() == FULL_MASK & ~EX1.hands[0]
    assert partial.unknown_mask().bit_count() == 38
    assert partial.known_seats() == (0,)
    assert partial.own_seat() == 0
    assert partial.hand("M") is None and partial.talon_mask is None
    assert not partial.is_complete()
    with pytest.raises(DealError):
        partial.to_deal()
    with_talon = PartialDeal(hands=(None, EX1.hands[1], None), talon=EX1.talon)
    assert with_talon.known_mask() == EX1.hands[1] | EX1.talon_mask
    assert with_talon.own_seat() == 1
    assert PartialDeal(hands=EX1.hands, talon=EX1.talon).to_deal() == EX1


def test_partial_deal_errors():
    with pytest.raises(DealError, match="^hand M has 3 cards"):
        PartialDeal(hands=(None, mask("T1", "T2", "T3"), None), talon=None).validate()
    with pytest.raises(DealError, match=re.escape("card T1 (I) appears twice: in hand F and at "
                                                  "talon position 3.")):
        PartialDeal(hands=(EX1.hands[0], None, None),
                    talon=(2, 3, 0, 4, 5, 6)).validate()
    with pytest.raises(DealError) as info:
        PartialDeal(hands=(None, None, None), talon=None).own_seat()
    assert str(info.value).startswith(ADVICE_NEEDS_HAND)
    assert ADVICE_NEEDS_HAND == ('advice needs your own hand: give 16 cards for one seat and '
                                 'mark the others "-" (talon "?").')


def test_tarockless_warnings():
    hands = (mask(*[f"T{n}" for n in range(1, 17)]),
             mask("T17", "T18", "T19", "T20", "T21", "T22", "SK", "SQ", "SC", "SJ", "S10", "S9",
                  "S8", "S7", "C8", "C7"),
             mask("HK", "HQ", "HC", "HJ", "HA", "H2", "H3", "H4",
                  "DK", "DQ", "DC", "DJ", "DA", "D2", "D3", "D4"))
    odd = Deal(hands=hands, talon=tuple(INDEX_OF[c] for c in ("CK", "CQ", "CC", "CJ", "C10", "C9")))
    odd.validate()
    assert odd.has_no_tarock_hand() and odd.seats_without_tarock() == ["R"]
    assert no_tarock_warnings(odd) == [
        "hand R holds no tarock; at the table this deal would be redealt. Analysing it anyway."]
    assert no_tarock_warnings(EX1) == []
    with pytest.warns(RuntimeWarning, match="unrelated"), capture_warnings() as messages:
        parse_deal("F:" + " ".join(format_hand(h) for h in hands) + "/CK,CQ,CC,CJ,C10,C9")
        warnings.warn("unrelated", RuntimeWarning, stacklevel=1)  # passes through
    assert messages == no_tarock_warnings(odd)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DealWarning)
        with pytest.raises(DealWarning):
            parse_deal(format_deal(odd))
        assert parse_deal(format_deal(odd), warn=False) == odd


def test_random_deal_is_valid():
    rng = np.random.default_rng(12)
    for _ in range(200):
        deal = random_deal(rng)
        deal.validate()
        assert not deal.has_no_tarock_hand()


class ScriptedRng:
    """A generator stand-in that returns prepared permutations in turn."""

    def __init__(self, *perms: list[int]) -> None:
        self.perms = list(perms)

    def permutation(self, n: int) -> np.ndarray:
        assert n == 54
        return np.array(self.perms.pop(0))


def test_random_deal_redeals_a_tarockless_hand():
    # The first permutation gives F cards 22..37 (all hearts and diamonds): no tarock.
    bad = list(range(22, 38)) + list(range(0, 22)) + list(range(38, 54))
    good = [*range(0, 48, 3), *range(1, 48, 3), *range(2, 48, 3), *range(48, 54)]
    deal = random_deal(ScriptedRng(bad, good))
    assert deal.hands[0] == sum(1 << c for c in range(0, 48, 3))  # the second permutation
    kept = random_deal(ScriptedRng(bad, good), redeal_no_tarock=False)
    assert not kept.hands[0] & TAROCK_MASK
    assert kept.talon == tuple(range(48, 54))


def test_random_deals_reproducible_and_independent_of_count():
    ten = random_deals(7, 10)
    assert ten == random_deals(7, 10)
    assert random_deals(7, 3) == ten[:3]
    assert random_deals(7, 1, start=7) == [ten[7]]
    assert random_deals(8, 10) != ten
    assert len(set(ten)) == 10
    for deal in ten:
        deal.validate()
    assert random_deals(0, 0) == []
    with pytest.raises(ValueError):
        random_deals(-1, 3)


def test_random_deals_are_roughly_uniform():
    # Each card lands in each of the 4 piles with probability 16/54 or 6/54; over 2000 deals
    # the counts stay within 6 standard deviations of their means.
    deals = random_deals(2024, 2000)
    counts = np.zeros((54, 4))
    talon_pos = np.zeros((54, 6))
    for deal in deals:
        for pile, m in enumerate((*deal.hands, deal.talon_mask)):
            for c in range(54):
                counts[c, pile] += m >> c & 1
        for pos, c in enumerate(deal.talon):
            talon_pos[c, pos] += 1
    for pile, p in enumerate((16 / 54, 16 / 54, 16 / 54, 6 / 54)):
        mean, sd = 2000 * p, (2000 * p * (1 - p)) ** 0.5
        assert np.all(np.abs(counts[:, pile] - mean) < 6 * sd)
    p = 1 / 54
    mean, sd = 2000 * p, (2000 * p * (1 - p)) ** 0.5
    assert np.all(np.abs(talon_pos - mean) < 6 * sd + 1)


def test_game_model_imports_no_text_format():
    # deal.py is the game model; notation.py reads and writes it, never the reverse.
    code = ("import sys, tarock_solver.deal; "
            "print(sorted(m for m in sys.modules if m.startswith('tarock_solver.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "tarock_solver.notation" not in out
    assert "tarock_solver.deal" in out
