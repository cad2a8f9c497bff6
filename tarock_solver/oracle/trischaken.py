"""A plain minimax of Trischaken: the reference the Trischaken search is tested against.

Every line of play is expanded with :func:`tarock_solver.play.trischaken_moves`,
:func:`~tarock_solver.play.trick_winner` and :func:`~tarock_solver.play.trick_points`;
there is no table and no pruning.  The value is the paranoid one (see
:mod:`tarock_solver.solver.trischaken`): the card points one seat takes from the
position on, he minimising, the two others maximising.  Exponential: meant for
positions of up to about four cards a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import bit, indices_of
from ..play import trick_points, trick_winner, trischaken_moves

__all__ = ["random_trischaken_position", "reference_trischaken"]


def reference_trischaken(hands: Sequence[int], leader: int, seat: int, *,
                         trick: Sequence[int] = (), must_beat: bool = True,
                         pagat_last: bool = True) -> int:
    """The card points ``seat`` takes from here on (the current trick included) when he
    takes the fewest and the two others give him the most, by brute force."""

    def value(h: tuple[int, int, int], lead: int, cards: tuple[int, ...]) -> int:
        if len(cards) == 3:
            winner = trick_winner(cards, lead)
            won = trick_points(cards) if winner == seat else 0
            if not any(h):
                return won
            return won + value(h, winner, ())
        mover = (lead + len(cards)) % 3
        legal = trischaken_moves(h[mover], cards, must_beat=must_beat, pagat_last=pagat_last)
        results = []
        for card in indices_of(legal):
            after = list(h)
            after[mover] &= ~bit(card)
            results.append(value((after[0], after[1], after[2]), lead, cards + (card,)))
        return min(results) if mover == seat else max(results)

    return value((int(hands[0]), int(hands[1]), int(hands[2])), int(leader),
                 tuple(int(c) for c in trick))


def random_trischaken_position(rng, tricks: int, *, must_beat: bool = True,
                               pagat_last: bool = True,
                               trick_cards: int | None = None) -> dict:
    """A random Trischaken position of ``tricks`` cards a hand (test and benchmark support).

    Hands are drawn from a numpy Generator as the card-point oracle's
    :func:`~tarock_solver.oracle.cardpoints.random_position` draws them (the whole pack,
    tarock-heavy, or tarocks and two suits), and one position in four is given the
    Pagat, so that its rule matters; then ``trick_cards`` (default random 0..2) cards
    are played to the current trick by the Trischaken rules.  Returns keyword
    arguments: hands, leader, seat, trick.
    """
    from .cardpoints import random_position

    base = random_position(rng, tricks, trick_cards=0, birds=False)
    hands = list(base["hands"])
    if tricks and not any(h & 1 for h in hands) and rng.random() < 0.25:
        # swap the Pagat in for a random card of a random hand
        s = int(rng.integers(3))
        mine = indices_of(hands[s])
        hands[s] = (hands[s] & ~bit(int(mine[int(rng.integers(len(mine)))]))) | 1
    leader = int(rng.integers(3))
    if trick_cards is None:
        trick_cards = int(rng.integers(3))
    if tricks == 0:
        trick_cards = 0
    trick: list[int] = []
    for _ in range(trick_cards):
        mover = (leader + len(trick)) % 3
        legal = indices_of(trischaken_moves(hands[mover], trick, must_beat=must_beat,
                                            pagat_last=pagat_last))
        card = int(legal[int(rng.integers(len(legal)))])
        hands[mover] &= ~bit(card)
        trick.append(card)
    return {"hands": tuple(hands), "leader": leader, "seat": int(rng.integers(3)),
            "trick": tuple(trick)}
