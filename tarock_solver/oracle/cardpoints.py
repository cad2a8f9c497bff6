"""A readable pure-Python minimax: the oracle the numba kernel is tested against.

Nothing clever happens here on purpose.  Every position is expanded with the
rules of :mod:`tarock_solver.play` (``legal_moves``, ``reserved_mask``,
``trick_winner``, ``trick_points``) and memoised on the complete state
(hands, leader, cards of the trick in progress).  It is exponential in the
number of tricks and meant for positions of up to about six tricks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..cards import BIRD_CARD, BIRD_NAMES, bit, indices_of
from ..play import N_TRICKS, legal_moves, reserved_mask, trick_points, trick_winner


def trick_number(hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
    """Number (1..16) of the current trick of a position at the end of a 16-trick deal."""
    cards_of_leader = int(hands[leader]).bit_count() + (1 if trick else 0)
    return N_TRICKS + 1 - cards_of_leader


class ReferenceSolver:
    """Exact minimax for one declarer seat and one set of announced birds."""

    def __init__(self, declarer: int, birds: Iterable[str] = ()) -> None:
        self.declarer = declarer
        self.birds = tuple(birds)
        self.memo: dict[tuple[tuple[int, int, int], int, tuple[int, ...]], int] = {}

    def legal(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...]) -> int:
        """Mask of the cards the player to move may play."""
        seat = (leader + len(trick)) % 3
        reserved = 0
        if seat == self.declarer and self.birds:
            reserved = reserved_mask(self.birds, trick_number(hands, leader, trick))
        led = trick[0] if trick else None
        return legal_moves(hands[seat], led, reserved)

    def value(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...] = ()) -> int:
        """Card points the declarer takes from here on (current trick included)."""
        if len(trick) == 3:
            winner = trick_winner(trick, leader)
            won = trick_points(trick) if winner == self.declarer else 0
            return won + self.value(hands, winner, ())
        if not trick and not any(hands):
            return 0
        key = (hands, leader, trick)
        if key in self.memo:
            return self.memo[key]
        results = [self.value(*self.after(hands, leader, trick, card))
                   for card in indices_of(self.legal(hands, leader, trick))]
        seat = (leader + len(trick)) % 3
        result = max(results) if seat == self.declarer else min(results)
        self.memo[key] = result
        return result

    def after(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
              card: int) -> tuple[tuple[int, int, int], int, tuple[int, ...]]:
        """The state after the player to move plays ``card`` (trick not yet collected)."""
        seat = (leader + len(trick)) % 3
        new_hands = list(hands)
        new_hands[seat] &= ~bit(card)
        return (new_hands[0], new_hands[1], new_hands[2]), leader, trick + (card,)

    def card_values(self, hands: tuple[int, int, int], leader: int,
                    trick: tuple[int, ...] = ()) -> dict[int, int]:
        """Value of every legal card of the player to move."""
        return {card: self.value(*self.after(hands, leader, trick, card))
                for card in indices_of(self.legal(hands, leader, trick))}


def reference_value(hands: Sequence[int], leader: int, declarer: int, *,
                    trick: Sequence[int] = (), birds: Iterable[str] = ()) -> int:
    """Exact future card points of the declarer, by brute force."""
    solver = ReferenceSolver(declarer, birds)
    return solver.value((int(hands[0]), int(hands[1]), int(hands[2])), leader,
                        tuple(int(c) for c in trick))


def reference_card_values(hands: Sequence[int], leader: int, declarer: int, *,
                          trick: Sequence[int] = (),
                          birds: Iterable[str] = ()) -> dict[int, int]:
    """Exact value of each legal card of the player to move, by brute force."""
    solver = ReferenceSolver(declarer, birds)
    return solver.card_values((int(hands[0]), int(hands[1]), int(hands[2])), leader,
                              tuple(int(c) for c in trick))


def random_position(rng, tricks: int, *, trick_cards: int | None = None,
                    birds: bool | None = None) -> dict:
    """A random position of ``tricks`` tricks (test and benchmark support).

    Hands are random subsets of the 54 cards drawn from a numpy Generator:
    a third of the positions from the whole pack, a third tarock-heavy and a
    third from the tarocks and two suits, so that following, trumping and
    runs of equivalent tarocks are all common.  ``trick_cards`` (default
    random 0..2) cards are then played legally to the current trick.  With
    ``birds`` (default: one position in three) the declarer announces 1..3
    birds and, usually, holds them.  Returns keyword arguments for the
    solvers: hands, leader, declarer, trick, birds.
    """
    style = int(rng.integers(3))
    if style == 0:
        pool = rng.permutation(54)
    elif style == 1:
        weights = np.where(np.arange(54) < 22, 4.0, 1.0)
        pool = rng.choice(54, size=54, replace=False, p=weights / weights.sum())
    else:
        suits = rng.choice(4, size=2, replace=False)
        allowed = [c for c in range(54) if c < 22 or (c - 22) // 8 in suits]
        pool = rng.permutation(np.array(allowed))
    leader = int(rng.integers(3))
    declarer = int(rng.integers(3))
    hands = [0, 0, 0]
    for s in range(3):
        for c in pool[s * tricks:(s + 1) * tricks]:
            hands[s] |= 1 << int(c)
    if birds is None:
        birds = rng.random() < 1 / 3
    announced: tuple[str, ...] = ()
    if birds:
        names = [n for n in BIRD_NAMES if rng.random() < 0.5] or ["pagat"]
        announced = tuple(names)
        for name in names:
            if rng.random() < 0.8:
                _give(hands, declarer, BIRD_CARD[name], rng)
    if trick_cards is None:
        trick_cards = int(rng.integers(3))
    if tricks == 0:
        trick_cards = 0
    trick: list[int] = []
    solver = ReferenceSolver(declarer, announced)
    for _ in range(trick_cards):
        state = (hands[0], hands[1], hands[2])
        legal = indices_of(solver.legal(state, leader, tuple(trick)))
        card = int(legal[int(rng.integers(len(legal)))])
        seat = (leader + len(trick)) % 3
        hands[seat] &= ~bit(card)
        trick.append(card)
    return {"hands": tuple(hands), "leader": leader, "declarer": declarer,
            "trick": tuple(trick), "birds": announced}


def _give(hands: list[int], seat: int, card: int, rng) -> None:
    """Move ``card`` into hand ``seat``, swapping out a random card to keep sizes."""
    if hands[seat] & bit(card) or not hands[seat]:
        return
    mine = indices_of(hands[seat])
    out = int(mine[int(rng.integers(len(mine)))])
    hands[seat] &= ~bit(out)
    hands[seat] |= bit(card)
    for s in range(3):
        if s != seat and hands[s] & bit(card):
            hands[s] &= ~bit(card)
            hands[s] |= bit(out)
