"""The trick rules of French Tarot (tarock_solver.french.play), hand-worked: following,
trumping, overtrumping a partner too, the Excuse and its settlement."""

from __future__ import annotations

import pytest

from tarock_solver.errors import RulesError
from tarock_solver.french.cards import INDEX_OF, mask_of
from tarock_solver.french.play import (
    PlayState,
    check_card,
    close_trick,
    legal_cards,
    winning_position,
)


def ids(*names: str) -> list[int]:
    return [INDEX_OF[n] for n in names]


def hand(*names: str) -> int:
    return mask_of(ids(*names))


def test_follow_suit_with_the_excuse_always_allowed() -> None:
    h = hand("H3", "HK", "S2", "T5", "EX")
    assert legal_cards(h, ids("H7")) == hand("H3", "HK", "EX")
    assert legal_cards(h, []) == h


def test_void_must_trump_and_overtrump_even_over_a_partner() -> None:
    h = hand("T5", "T12", "S2", "EX")
    # hearts led, a trump 8 played (by anyone: partners are not spared)
    assert legal_cards(h, ids("H7", "T8")) == hand("T12", "EX")
    # cannot overtrump the 14: any trump
    assert legal_cards(h, ids("H7", "T14")) == hand("T5", "T12", "EX")
    # trumps led: overtrump
    assert legal_cards(h, ids("T3")) == hand("T5", "T12", "EX")


def test_void_without_trumps_plays_anything() -> None:
    h = hand("S2", "DK")
    assert legal_cards(h, ids("H7", "T8")) == h


def test_the_excuse_led_lets_the_next_card_set_the_suit() -> None:
    h = hand("S2", "H3", "T4")
    assert legal_cards(h, ids("EX", "H9")) == hand("H3")
    assert legal_cards(h, ids("EX")) == h


def test_revokes_name_the_rule() -> None:
    with pytest.raises(RulesError, match="must follow suit"):
        check_card(hand("H3", "S2"), ids("H7"), INDEX_OF["S2"])
    with pytest.raises(RulesError, match="must overtrump the T8"):
        check_card(hand("T5", "T12"), ids("H7", "T8"), INDEX_OF["T5"])
    with pytest.raises(RulesError, match="must trump"):
        check_card(hand("T5", "S2"), ids("H7"), INDEX_OF["S2"])
    with pytest.raises(RulesError, match="not in the player's hand"):
        check_card(hand("T5"), [], INDEX_OF["T6"])


def test_winner_highest_trump_else_highest_of_the_suit_led() -> None:
    assert winning_position(ids("H7", "HK", "SK", "H9")) == 1
    assert winning_position(ids("H7", "HK", "T1", "H9")) == 2
    assert winning_position(ids("EX", "H2", "H9", "S1")) == 2
    assert winning_position(ids("EX", "H2", "H9", "S1"), excuse_wins=True) == 0


def test_a_trick_counts_its_half_points_for_the_winner() -> None:
    # taker seat 0 leads HK (9) and wins: 9 + 1 + 1 + 7
    state, winner = close_trick(PlayState(), ids("HK", "H2", "H3", "SQ"), 0, 0, 4, last=False)
    assert winner == 0 and state.taker_points == 18 and state.taker_has_trick


def test_the_excuse_stays_with_its_side_for_a_half_point_card() -> None:
    # a defender's Excuse in the taker's trick: the taker gets the trick less the Excuse
    # plus the exchange card (the defence has a trick already)
    start = PlayState(0, 0, True, True, 0)
    state, _ = close_trick(start, ids("HK", "EX", "H3", "H4"), 0, 0, 4, last=False)
    assert state.taker_points == 9 + 1 + 1 + 1 and state.taker_oudlers == 0
    # the taker's Excuse in the defence's trick: he keeps 4.5 and gives a half point
    state, _ = close_trick(start, ids("HK", "H2", "H3", "EX"), 1, 0, 4, last=False)
    assert state.taker_points == 8 and state.taker_oudlers == 1


def test_the_excuse_card_is_owed_until_its_side_has_a_trick() -> None:
    start = PlayState(0, 0, False, False, 0)
    state, _ = close_trick(start, ids("HK", "H2", "H3", "EX"), 1, 0, 4, last=False)
    assert state.taker_points == 9 and state.owed == 1
    # his first trick pays it
    state, _ = close_trick(state, ids("SK", "S2", "S3", "S4"), 0, 0, 4, last=False)
    assert state.taker_points == 9 + 12 - 1 and state.owed == 0


def test_the_excuse_at_the_last_trick_changes_side_or_stays() -> None:
    start = PlayState(0, 0, True, True, 0)
    # a defender's Excuse at the last trick won by the taker
    changes, _ = close_trick(start, ids("HK", "EX", "H3", "H4"), 0, 0, 4, last=True)
    kept, _ = close_trick(start, ids("HK", "EX", "H3", "H4"), 0, 0, 4, last=True,
                          excuse_last="kept")
    assert changes.taker_points == 9 + 9 + 1 + 1 and changes.taker_oudlers == 1
    assert kept.taker_points == 9 + 1 + 1 + 1 and kept.taker_oudlers == 0


def test_the_excuse_led_to_the_last_trick_of_a_chelem_wins_it() -> None:
    start = PlayState(100, 0, True, False, 0)
    state, winner = close_trick(start, ids("EX", "T21", "H3", "H4"), 0, 0, 4, last=True)
    assert winner == 0 and state.taker_points == 100 + 9 + 9 + 1 + 1
    # once the defence has a trick, the Excuse wins nothing
    state, winner = close_trick(PlayState(100, 0, True, True, 0), ids("EX", "T21", "H3", "H4"),
                                0, 0, 4, last=True)
    assert winner == 1
