"""Card-play rules: a readable pure-Python reference (RULES.md sections 3 and 8).

This module is the oracle the numba solver is tested against, so it favours
clarity over speed.  Seats are 0, 1, 2 = F, M, R in playing order; the player
after seat s is ``(s + 1) % 3``.  Cards are indices of :mod:`tarock_solver.cards`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import (
    BIRD_CARD,
    BIRD_TRICK,
    GROUP_MASKS,
    GROUP_OF,
    HAND_SIZE,
    NOMINAL,
    PAGAT,
    SEAT_NAMES,
    TAROCK,
    TAROCK_MASK,
    bit,
    indices_of,
)

if TYPE_CHECKING:
    import numpy as np

#: Tricks of a deal: every trick takes one card of each hand.
N_TRICKS = HAND_SIZE

#: F (forehand) leads to the first trick in every contract (RULES.md 2 and 3).
LEADER = 0


def reserved_mask(announced_birds: Iterable[str], trick: int) -> int:
    """Cards an announcing declarer must keep back in ``trick`` (1-based; `bird_reserve`).

    After Pagat, I may not be played before trick 16; after Uhu, II only in
    trick 15; after Kakadu, III only in trick 14.
    """
    mask = 0
    for name in announced_birds:
        if trick != BIRD_TRICK[name]:
            mask |= bit(BIRD_CARD[name])
    return mask


def legal_moves(hand: int, led_card: int | None, reserved: int = 0) -> int:
    """Mask of the cards of ``hand`` that may be played to a trick.

    ``led_card`` is the first card of the trick, or None when leading.  Follow
    suit; else play a tarock; else anything.  There is no obligation to beat.
    ``reserved`` cards (announced birds) are removed unless nothing would remain.
    """
    if led_card is None:
        legal = hand
    else:
        follow = hand & GROUP_MASKS[GROUP_OF[led_card]]
        if follow:
            legal = follow
        elif hand & TAROCK_MASK:
            legal = hand & TAROCK_MASK
        else:
            legal = hand
    kept = legal & ~reserved
    return kept if kept else legal


def beats(card: int, best: int) -> bool:
    """Does ``card`` beat ``best``, the card currently winning the trick?"""
    if GROUP_OF[card] == TAROCK:
        return GROUP_OF[best] != TAROCK or card > best
    return GROUP_OF[card] == GROUP_OF[best] and card > best


def winning_position(cards: Sequence[int]) -> int:
    """Position (0 = the lead) of the card that wins the trick so far."""
    best = 0
    for pos in range(1, len(cards)):
        if beats(cards[pos], cards[best]):
            best = pos
    return best


def trick_winner(cards: Sequence[int], leader: int) -> int:
    """Seat that wins a complete trick of three cards led by ``leader``."""
    return (leader + winning_position(cards)) % 3


def trick_points(cards: Iterable[int]) -> int:
    """Whole card points of a trick of three cards: nominal sum − 2."""
    cards = list(cards)
    return sum(int(NOMINAL[c]) for c in cards) - 2 * len(cards) // 3


def trick_thirds(cards: Iterable[int]) -> int:
    """A pile's value in thirds: 3·F − 2·n."""
    cards = list(cards)
    return 3 * sum(int(NOMINAL[c]) for c in cards) - 2 * len(cards)


def trischaken_moves(hand: int, trick_so_far: Sequence[int], *, must_beat: bool = True,
                     pagat_last: bool = True) -> int:
    """Legal cards in Trischaken: legal, then must-beat, then Pagat-last (RULES.md 8).

    A filter that would leave nothing is skipped.  ``must_beat`` and ``pagat_last``
    are the rule options ``trischaken_must_beat`` and ``trischaken_pagat_last``.
    """
    led = trick_so_far[0] if trick_so_far else None
    legal = legal_moves(hand, led)
    if trick_so_far and must_beat:
        best = trick_so_far[winning_position(trick_so_far)]
        beating = sum(bit(c) for c in indices_of(legal) if beats(c, best))
        if beating:
            legal = beating
    if pagat_last and legal & bit(PAGAT) and (hand & TAROCK_MASK) != bit(PAGAT):
        without = legal & ~bit(PAGAT)
        if without:
            legal = without
    return legal


@dataclass
class PlayedCard:
    trick: int  # 1-based
    seat: int
    card: int


@dataclass
class GameState:
    """A deal being played: three hands, a leader, the tricks so far.

    ``declarer`` is a seat or None (Trischaken).  ``announced`` lists the birds
    the declarer announced, for the `bird_reserve` rule (only applied when
    ``bird_reserve`` is True).  ``trischaken`` switches to Trischaken legality.
    """

    hands: list[int]
    leader: int = 0
    declarer: int | None = None
    announced: tuple[str, ...] = ()
    bird_reserve: bool = True
    trischaken: bool = False
    first_trick: int = 1
    trick_cards: list[int] = field(default_factory=list)
    history: list[PlayedCard] = field(default_factory=list)
    piles: list[list[int]] = field(default_factory=lambda: [[], [], []])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0])
    trick_winners: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hands = [int(h) for h in self.hands]
        self.trick = self.first_trick

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick_cards)) % 3

    @property
    def is_over(self) -> bool:
        return not any(self.hands) and not self.trick_cards

    def legal(self) -> int:
        seat = self.to_move
        hand = self.hands[seat]
        if self.trischaken:
            return trischaken_moves(hand, self.trick_cards)
        led = self.trick_cards[0] if self.trick_cards else None
        reserved = 0
        if self.bird_reserve and seat == self.declarer and self.announced:
            reserved = reserved_mask(self.announced, self.trick)
        return legal_moves(hand, led, reserved)

    def play(self, card: int) -> None:
        seat = self.to_move
        if not self.legal() & bit(card):
            raise ValueError(f"card {card} is not legal for seat {SEAT_NAMES[seat]}")
        self.hands[seat] &= ~bit(card)
        self.trick_cards.append(card)
        self.history.append(PlayedCard(self.trick, seat, card))
        if len(self.trick_cards) == 3:
            winner = trick_winner(self.trick_cards, self.leader)
            self.piles[winner].extend(self.trick_cards)
            self.tricks_won[winner] += 1
            self.trick_winners.append(winner)
            self.trick_cards = []
            self.leader = winner
            self.trick += 1

    def card_played_in(self, card: int) -> PlayedCard | None:
        for p in self.history:
            if p.card == card:
                return p
        return None

    def winner_of_trick(self, trick: int) -> int | None:
        idx = trick - self.first_trick
        if 0 <= idx < len(self.trick_winners):
            return self.trick_winners[idx]
        return None

    def pile_thirds(self, seat: int) -> int:
        return trick_thirds(self.piles[seat])


def random_play_out(hands: Sequence[int], leader: int, tricks: int,
                    rng: np.random.Generator) -> tuple[tuple[int, int, int], int]:
    """Play ``tricks`` whole tricks with uniformly random legal cards (no birds reserved);
    the hands and the leader after them."""
    h = [int(x) for x in hands]
    for _ in range(tricks):
        cards: list[int] = []
        for offset in range(3):
            seat = (leader + offset) % 3
            legal = indices_of(legal_moves(h[seat], cards[0] if cards else None))
            card = legal[int(rng.integers(len(legal)))]
            h[seat] &= ~bit(card)
            cards.append(card)
        leader = trick_winner(cards, leader)
    return (h[0], h[1], h[2]), leader
