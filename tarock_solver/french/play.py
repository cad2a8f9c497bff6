"""The trick rules of French Tarot, plainly written: the reference the solver is tested on.

Follow suit; void in it, trump; on a trump (led or played over a void), overtrump the
highest trump in the trick when you can (a partner's too), else play any trump; with
neither, any card.  The Excuse may be played to any trick and never wins it, except
the last trick led by the taker after he has won all the others (the chelem case).
It stays with its side, which gives the trick's winner a half-point card in exchange
(:func:`trick_points`); a side with no trick yet owes that card until its first trick.
Played to the last trick outside that case, it goes to the trick's winner
(``excuse_last="changes_side"``, the federation's rule) or stays with its side (``"kept"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import RulesError
from .cards import (
    CARD_IDS,
    EXCUSE,
    HALF_POINTS,
    N_TRUMPS,
    OUDLERS,
    TRUMP_GROUP,
    TRUMP_MASK,
    rank_of,
    suit_mask,
    suit_of,
)

EXCUSE_LAST = ("changes_side", "kept")


def led_group(trick: Sequence[int]) -> int:
    """The group the trick asks for: its first card other than the Excuse (-1: none yet)."""
    for card in trick:
        if card != EXCUSE:
            return suit_of(card)
    return -1


def highest_trump(trick: Sequence[int]) -> int:
    """The highest trump in the trick, -1 if none."""
    trumps = [c for c in trick if c < N_TRUMPS]
    return max(trumps) if trumps else -1


def legal_cards(hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far)."""
    excuse = hand & (1 << EXCUSE)
    group = led_group(trick)
    if group == -1:
        return hand
    if group != TRUMP_GROUP:
        same = hand & suit_mask(group)
        if same:
            return same | excuse
    trumps = hand & TRUMP_MASK
    if not trumps:
        return hand
    top = highest_trump(trick)
    over = trumps & ~((2 << top) - 1) if top >= 0 else trumps
    return (over or trumps) | excuse


def check_card(hand: int, trick: Sequence[int], card: int) -> None:
    """RulesError naming the card and the rule when ``card`` may not be played."""
    if not hand >> card & 1:
        raise RulesError(f"{CARD_IDS[card]} is not in the player's hand")
    if not legal_cards(hand, trick) >> card & 1:
        group = led_group(trick)
        if group != TRUMP_GROUP and group >= 0 and hand & suit_mask(group):
            rule = "he must follow suit"
        elif hand & TRUMP_MASK and highest_trump(trick) >= 0 and card < N_TRUMPS:
            rule = f"he must overtrump the {CARD_IDS[highest_trump(trick)]}"
        else:
            rule = "void in the suit led, he must trump"
        raise RulesError(f"{CARD_IDS[card]} is a revoke: {rule}")


def winning_position(trick: Sequence[int], *, excuse_wins: bool = False) -> int:
    """The position (0 = the leader) of the card that wins the trick.

    ``excuse_wins``: the Excuse led to the last trick by a taker who has won every
    other trick wins it (the chelem case)."""
    if excuse_wins and trick and trick[0] == EXCUSE:
        return 0
    top = highest_trump(trick)
    if top >= 0:
        return list(trick).index(top)
    group = led_group(trick)
    best, where = -1, 0
    for i, card in enumerate(trick):
        if card != EXCUSE and suit_of(card) == group and rank_of(card) > best:
            best, where = rank_of(card), i
    return where


@dataclass(frozen=True)
class PlayState:
    """What the play has settled so far, from the taker's side: his half points, his
    oudlers, whether each side has a trick, and who owes the Excuse's exchange card
    (0 nobody, 1 the taker's side, 2 the defence)."""

    taker_points: int = 0
    taker_oudlers: int = 0
    taker_has_trick: bool = False
    defence_has_trick: bool = False
    owed: int = 0


def close_trick(state: PlayState, trick: Sequence[int], leader: int, taker: int, n: int,
                *, last: bool, excuse_last: str = "changes_side") -> tuple[PlayState, int]:
    """The state after a complete trick, and the seat that wins it (the next leader)."""
    excuse_wins = (last and trick[0] == EXCUSE and leader == taker
                   and not state.defence_has_trick)
    winner = (leader + winning_position(trick, excuse_wins=excuse_wins)) % n
    taker_wins = winner == taker
    cards = list(trick)
    tp, to, owed = state.taker_points, state.taker_oudlers, state.owed
    if EXCUSE in cards and not excuse_wins:
        excuse_taker = (leader + cards.index(EXCUSE)) % n == taker
        if excuse_taker != taker_wins and not (last and excuse_last == "changes_side"):
            # the Excuse stays with its side, which hands the winner a half-point card:
            # now if it has a trick already, else with its first trick
            cards.remove(EXCUSE)
            if excuse_taker:
                tp += HALF_POINTS[EXCUSE]
                to += 1
            side_has = state.taker_has_trick if excuse_taker else state.defence_has_trick
            if side_has:
                tp += -1 if excuse_taker else 1
            else:
                owed = 1 if excuse_taker else 2
    if taker_wins:
        tp += sum(HALF_POINTS[c] for c in cards)
        to += sum(1 for c in cards if c in OUDLERS)
    if owed == 1 and taker_wins:
        tp, owed = tp - 1, 0
    elif owed == 2 and not taker_wins:
        tp, owed = tp + 1, 0
    return PlayState(tp, to, state.taker_has_trick or taker_wins,
                     state.defence_has_trick or not taker_wins, owed), winner
