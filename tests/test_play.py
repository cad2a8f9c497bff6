"""Card play rules (RULES.md 3 and 8): vectors L1–L6 and T1–T4, trick winners, whole deals."""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.cards import (
    BIRD_TRICK,
    FULL_MASK,
    GROUP_OF,
    INDEX_OF,
    KAKADU,
    PAGAT,
    SKUS,
    TAROCK_MASK,
    TOTAL_THIRDS,
    UHU,
    bit,
    indices_of,
    mask_of,
    thirds_of,
)
from tarock_solver.play import (
    GameState,
    beats,
    legal_moves,
    reserved_mask,
    trick_points,
    trick_thirds,
    trick_winner,
    trischaken_moves,
    winning_position,
)
from tarock_solver.talon import exchanges

F, M, R = 0, 1, 2


def c(card_id: str) -> int:
    return INDEX_OF[card_id]


def m(*ids: str) -> int:
    return mask_of(INDEX_OF[i] for i in ids)


def T(n: int) -> int:
    """Tarock n (1 = Pagat, 22 = Sküs) as a card index."""
    return n - 1


# ---------------------------------------------------------------- RULES 10.4 L1–L3


def test_l1_follow_suit():
    hand = m("HQ", "H4", "T5", "T17", "SK")
    assert legal_moves(hand, c("H2")) == m("HQ", "H4")


def test_l2_no_suit_must_play_tarock():
    hand = m("T15", "SK")
    assert legal_moves(hand, c("H2")) == m("T15")


def test_l3_no_suit_no_tarock_any_card():
    hand = m("SK", "D4", "CJ")
    assert legal_moves(hand, c("H2")) == hand


def test_tarock_led_counts_as_a_suit():
    assert legal_moves(m("T2", "T9", "HK"), c("T20")) == m("T2", "T9")
    assert legal_moves(m("HK", "C7"), c("T20")) == m("HK", "C7")
    assert legal_moves(m("HK", "T1"), None) == m("HK", "T1")  # leading: anything


# ---------------------------------------------------------------- RULES 10.4 L4–L6 (bird reserve)


def _bird_position(f_hand: int, trick: int, announced: tuple[str, ...], reserve: bool = True):
    """F declares; R leads a tarock to ``trick`` and F must answer."""
    rest = [i for i in indices_of(FULL_MASK & ~f_hand & ~TAROCK_MASK)]
    size = bin(f_hand).count("1")
    r_hand = bit(T(18)) | mask_of(rest[: size - 1])
    m_hand = mask_of(rest[size - 1: 2 * size - 1])
    state = GameState([f_hand, m_hand, r_hand], leader=R, declarer=F, announced=announced,
                      bird_reserve=reserve, first_trick=trick)
    state.play(T(18))
    assert state.to_move == F
    return state


def test_l4_pagat_kept_back():
    state = _bird_position(bit(PAGAT) | bit(T(7)) | m("HK", "SQ"), trick=5, announced=("pagat",))
    assert state.legal() == bit(T(7))
    with pytest.raises(ValueError):
        state.play(PAGAT)


def test_l4_without_bird_reserve_both_tarocks_are_legal():
    state = _bird_position(bit(PAGAT) | bit(T(7)) | m("HK", "SQ"), trick=5,
                           announced=("pagat",), reserve=False)
    assert state.legal() == bit(PAGAT) | bit(T(7))


def test_l5_pagat_forced_out():
    state = _bird_position(bit(PAGAT) | m("HK", "SQ", "C7"), trick=5, announced=("pagat",))
    assert state.legal() == bit(PAGAT)
    state.play(PAGAT)
    assert state.card_played_in(PAGAT).trick == 5 != BIRD_TRICK["pagat"]  # the Pagat fails


def test_l6_uhu_in_the_wrong_trick():
    state = _bird_position(bit(UHU), trick=16, announced=("uhu",))
    assert state.legal() == bit(UHU)
    state.play(UHU)
    state.play(indices_of(state.legal())[0])
    assert state.is_over
    assert state.card_played_in(UHU).trick == 16 != BIRD_TRICK["uhu"]  # the Uhu has failed


def test_reserved_mask_per_bird():
    assert reserved_mask(("pagat",), 15) == bit(PAGAT)
    assert reserved_mask(("pagat",), 16) == 0
    assert reserved_mask(("uhu",), 14) == bit(UHU) and reserved_mask(("uhu",), 15) == 0
    assert reserved_mask(("kakadu",), 15) == bit(KAKADU) and reserved_mask(("kakadu",), 14) == 0
    assert reserved_mask(("pagat", "uhu", "kakadu"), 15) == bit(PAGAT) | bit(KAKADU)


def test_reserve_applies_when_leading_and_only_to_the_declarer():
    hand = bit(PAGAT) | m("HK")
    assert legal_moves(hand, None, reserved=bit(PAGAT)) == m("HK")
    state = GameState([m("HK"), bit(PAGAT) | m("SK"), m("CK")], leader=F, declarer=F,
                      announced=("pagat",))
    state.play(c("HK"))
    assert state.legal() == bit(PAGAT)  # M is a defender: no reserve; must play a tarock


# ---------------------------------------------------------------- RULES 10.4 T1–T4 (Trischaken)


def test_t1_must_beat():
    assert trischaken_moves(m("HQ", "H4"), [c("H2"), c("HJ")]) == m("HQ")


def test_t2_must_beat_with_a_tarock():
    assert trischaken_moves(m("T20", "T2", "HK"), [c("S7"), T(15)]) == bit(T(20))


def test_t3_pagat_not_while_other_tarocks():
    assert trischaken_moves(m("T2", "T1", "HK"), [c("S7"), T(15)]) == bit(T(2))


def test_t4_pagat_as_last_tarock():
    assert trischaken_moves(m("T1", "HK", "D4"), [T(10)]) == bit(PAGAT)


def test_trischaken_pagat_may_not_be_led_while_other_tarocks():
    assert trischaken_moves(m("T1", "T5", "HK"), []) == m("T5", "HK")
    assert trischaken_moves(m("T1", "HK"), []) == m("T1", "HK")


def test_trischaken_in_game_state():
    state = GameState([m("H2", "S7"), m("HJ", "C7"), m("HQ", "H4")], trischaken=True)
    state.play(c("H2"))
    state.play(c("HJ"))
    assert state.legal() == m("HQ")


# ---------------------------------------------------------------- trick winners


@pytest.mark.parametrize("cards, leader, winner", [
    (("H2", "HK", "T1"), F, R),  # the lowest tarock beats a suit King
    (("HK", "HQ", "H4"), M, M),  # highest of the led suit, leader wins
    (("H4", "SK", "DK"), R, R),  # off-suit Kings do not win
    (("H4", "H3", "SK"), F, M),  # red pips rank 1 > 2 > 3 > 4
    (("T21", "T22", "T20"), F, M),  # Sküs is the highest tarock
    (("T22", "T21", "HK"), R, R),
    (("S7", "S8", "T2"), M, F),
    (("C7", "T3", "T4"), F, R),  # the higher of two tarocks on a suit lead
    (("D4", "C7", "S7"), F, F),  # both others void and without tarocks
])
def test_trick_winner(cards, leader, winner):
    assert trick_winner([c(x) for x in cards], leader) == winner


def test_beats_and_winning_position():
    assert beats(T(1), c("HK")) and not beats(c("HK"), T(1))
    assert not beats(c("SK"), c("H4"))  # off-suit never beats
    assert beats(T(22), T(21)) and not beats(T(21), T(22))
    assert winning_position([c("C9"), c("CQ")]) == 1
    assert winning_position([c("C9")]) == 0


def test_trick_points():
    assert trick_points([c("HK"), c("HC"), c("H4")]) == 7
    assert trick_thirds([c("HK"), c("HC"), c("H4")]) == 21
    assert trick_thirds([c("HK")]) == 13


# ---------------------------------------------------------------- whole random deals


def rule_text_legal(hand: list[int], trick: list[int]) -> set[int]:
    """RULES.md 3 rule 2, written independently of play.legal_moves."""
    if not trick:
        return set(hand)
    led = GROUP_OF[trick[0]]
    same = {x for x in hand if GROUP_OF[x] == led}
    if same:
        return same
    tarocks = {x for x in hand if x < 22}
    return tarocks or set(hand)


def rule_text_winner(trick: list[int]) -> int:
    """Position of the winning card: highest tarock, else highest card of the led suit."""
    tarocks = [p for p, x in enumerate(trick) if x < 22]
    if tarocks:
        return max(tarocks, key=lambda p: trick[p])
    led = GROUP_OF[trick[0]]
    return max((p for p, x in enumerate(trick) if GROUP_OF[x] == led), key=lambda p: trick[p])


def random_deal(rng: np.random.Generator) -> tuple[list[int], tuple[int, ...]]:
    """A uniform deal without a tarock-less hand (RULES.md 2): three hands and the talon."""
    while True:
        perm = [int(x) for x in rng.permutation(54)]
        talon = tuple(perm[:6])
        hands = [mask_of(perm[6 + 16 * s: 22 + 16 * s]) for s in range(3)]
        if all(h & TAROCK_MASK for h in hands):
            return hands, talon


def play_out(state: GameState, rng: np.random.Generator, announced_by_declarer=()) -> None:
    """Play random legal cards to the end, checking each step against the rule text."""
    while not state.is_over:
        seat = state.to_move
        hand = indices_of(state.hands[seat])
        trick = list(state.trick_cards)
        legal = set(indices_of(state.legal()))
        expected = rule_text_legal(hand, trick)
        if state.trischaken:
            if trick:
                best = trick[rule_text_winner(trick)]
                beating = {x for x in expected if rule_text_winner([best, x]) == 1}
                expected = beating or expected
            if PAGAT in expected and any(x < 22 and x != PAGAT for x in hand):
                expected = (expected - {PAGAT}) or expected
        elif seat == state.declarer and announced_by_declarer:
            kept = {x for x in expected
                    if not any(x == b and state.trick != t for b, t in announced_by_declarer)}
            expected = kept or expected
        assert legal == expected
        card = int(rng.choice(sorted(legal)))
        leader = state.leader
        state.play(card)
        if len(trick) == 2:
            assert state.trick_winners[-1] == (leader + rule_text_winner(trick + [card])) % 3


@pytest.mark.parametrize("seed", range(8))
def test_random_contract_deals(seed):
    rng = np.random.default_rng(seed)
    birds = {"pagat": (PAGAT, 16), "uhu": (UHU, 15), "kakadu": (KAKADU, 14)}
    for _ in range(25):
        hands, talon = random_deal(rng)
        declarer = int(rng.integers(0, 3))
        contract = ("three", "two", "one", "solo")[int(rng.integers(0, 4))]
        options = exchanges(hands[declarer], talon, contract)
        ex = options[int(rng.integers(0, len(options)))]
        hands[declarer] = ex.hand_after
        announced = tuple(n for n, (card, _) in birds.items()
                          if ex.hand_after & bit(card) and rng.random() < 0.5)
        dealt = hands[0] | hands[1] | hands[2]
        state = GameState(hands, declarer=declarer, announced=announced)
        play_out(state, rng, tuple(birds[n] for n in announced))
        assert len(state.history) == 48 and len(state.trick_winners) == 16
        assert sum(state.tricks_won) == 16
        assert mask_of(p.card for p in state.history) == dealt \
            == FULL_MASK & ~ex.discard & ~ex.defenders_talon_mask
        piles = [state.pile_thirds(s) for s in range(3)]
        assert all(p == thirds_of(mask_of(state.piles[s])) for s, p in enumerate(piles))
        assert sum(piles) + ex.declarer_pile_thirds + thirds_of(ex.defenders_talon_mask) \
            == TOTAL_THIRDS


@pytest.mark.parametrize("seed", range(4))
def test_random_trischaken_deals(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(25):
        hands, talon = random_deal(rng)
        state = GameState(hands, trischaken=True)
        play_out(state, rng)
        # The talon is unused in Trischaken: the three piles hold everything else.
        assert sum(state.pile_thirds(s) for s in range(3)) + thirds_of(mask_of(talon)) \
            == TOTAL_THIRDS
        assert all(len(state.piles[s]) == 3 * state.tricks_won[s] for s in range(3))


def test_leader_of_each_trick_is_the_previous_winner():
    rng = np.random.default_rng(42)
    hands, _ = random_deal(rng)
    state = GameState(hands)
    play_out(state, rng)
    leaders = [p.seat for p in state.history[::3]]
    assert leaders[0] == F
    assert leaders[1:] == state.trick_winners[:-1]
    assert [state.winner_of_trick(t) for t in range(1, 17)] == state.trick_winners
    assert state.winner_of_trick(17) is None


def test_skus_always_wins_its_trick():
    rng = np.random.default_rng(3)
    for _ in range(30):
        hands, _ = random_deal(rng)
        state = GameState(hands)
        play_out(state, rng)
        played = state.card_played_in(SKUS)
        if played is not None:
            assert state.winner_of_trick(played.trick) == played.seat
