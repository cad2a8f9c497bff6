"""Uniform, reproducible worlds consistent with what the adviser knows.

A *world* is a complete deal (three hands and the ordered talon).
:class:`Knowledge` holds what is known per slot (cards known in each hand, talon
positions known); the unknown cards are dealt into the free slots by one uniform
permutation, redrawn when a hand would have no tarock (``reject_tarockless``: such
deals are redealt at the table).  A world is a pure function of ``(seed, stream,
index…)`` (:func:`rng_for`), so ``--jobs`` never changes results.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import (
    FULL_MASK,
    HAND_SIZE,
    N_CARDS,
    SEAT_NAMES,
    TALON_SIZE,
    TAROCK_MASK,
    indices_of,
    popcount,
)
from ..errors import DealError

#: Seed-stream tags: keep the random numbers of different purposes independent.
STREAM_WORLD = 0  # the evaluation worlds (outer samples), shared by every contract
STREAM_INNER = 1  # inner samples of the other hands, given an outer talon
STREAM_FRESH = 2  # fresh evaluation worlds when the talon is given (--talon)

_MAX_REDRAWS = 10_000


@dataclass(frozen=True)
class Knowledge:
    """What is known about a deal.

    ``hands[s]`` is the mask of cards known to be in seat ``s`` (0 F, 1 M,
    2 R) and ``sizes[s]`` the size of that hand; ``talon[k]`` is the card at
    talon position k+1 or -1 if unknown.
    """

    hands: tuple[int, int, int]
    talon: tuple[int, ...] = (-1,) * TALON_SIZE
    sizes: tuple[int, int, int] = (HAND_SIZE, HAND_SIZE, HAND_SIZE)

    def __post_init__(self) -> None:
        if len(self.talon) != TALON_SIZE:
            raise DealError(f"the talon must list {TALON_SIZE} positions; found {len(self.talon)}.")
        seen = 0
        for s, (mask, size) in enumerate(zip(self.hands, self.sizes, strict=True)):
            if popcount(mask) > size:
                raise DealError(f"seat {SEAT_NAMES[s]}: {popcount(mask)} known cards exceed "
                                f"the hand size {size}.")
            if seen & mask:
                raise DealError("a card is known to be in two places.")
            seen |= mask
        for t in self.talon:
            if t >= 0:
                if seen >> t & 1:
                    raise DealError("a talon card is also known to be in a hand.")
                seen |= 1 << t
        if sum(self.sizes) + TALON_SIZE != N_CARDS:
            raise DealError("hand sizes and talon must add up to 54 cards.")

    @property
    def known_mask(self) -> int:
        """Every card whose place is known."""
        m = self.hands[0] | self.hands[1] | self.hands[2]
        for t in self.talon:
            if t >= 0:
                m |= 1 << t
        return m

    @property
    def unknown_mask(self) -> int:
        """The cards still to be placed."""
        return FULL_MASK & ~self.known_mask

    @property
    def talon_known(self) -> bool:
        return all(t >= 0 for t in self.talon)

    def with_talon(self, talon: tuple[int, ...]) -> Knowledge:
        """The same knowledge plus a fully known talon (an outer talon sample)."""
        return Knowledge(self.hands, tuple(int(t) for t in talon), self.sizes)

    def n_completions(self) -> int:
        """Number of distinct consistent worlds (ignores the no-tarock rule)."""
        from math import factorial

        free = [self.sizes[s] - popcount(self.hands[s]) for s in range(3)]
        free.append(sum(1 for t in self.talon if t < 0))
        out = factorial(sum(free))
        for f in free[:3]:
            out //= factorial(f)
        return out


@dataclass(frozen=True)
class World:
    """One complete deal: hands in seat order F, M, R and the ordered talon."""

    hands: tuple[int, int, int]
    talon: tuple[int, int, int, int, int, int]

    @property
    def talon_mask(self) -> int:
        m = 0
        for t in self.talon:
            m |= 1 << t
        return m


def rng_for(seed: int, stream: int, *index: int) -> np.random.Generator:
    """The generator of one world: independent of every other (seed, stream, index)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(stream), *map(int, index)]))


def sample_world(knowledge: Knowledge, rng: np.random.Generator, *,
                 reject_tarockless: bool = True) -> World:
    """Draw one world uniformly among those consistent with ``knowledge``.

    With ``reject_tarockless`` a completion that leaves a hand without a
    tarock is redrawn (such deals are never played).
    """
    unknown = np.array(indices_of(knowledge.unknown_mask), dtype=np.int64)
    free = [knowledge.sizes[s] - popcount(knowledge.hands[s]) for s in range(3)]
    talon_free = [k for k, t in enumerate(knowledge.talon) if t < 0]
    for _ in range(_MAX_REDRAWS):
        perm = unknown[rng.permutation(len(unknown))] if len(unknown) else unknown
        pos = 0
        hands = []
        for s in range(3):
            m = knowledge.hands[s]
            for c in perm[pos:pos + free[s]]:
                m |= 1 << int(c)
            pos += free[s]
            hands.append(m)
        talon = list(knowledge.talon)
        for k in talon_free:
            talon[k] = int(perm[pos])
            pos += 1
        # Only a hand that received unknown cards can be redrawn; a fully known hand
        # without a tarock is the user's own question (analysed anyway, with a warning).
        if not reject_tarockless or all(h & TAROCK_MASK for s, h in enumerate(hands)
                                        if free[s]):
            return World((hands[0], hands[1], hands[2]), tuple(talon))  # type: ignore[arg-type]
    raise DealError("no deal consistent with what is known gives every hand a tarock.")


def world_at(knowledge: Knowledge, seed: int, stream: int, *index: int,
             reject_tarockless: bool = True) -> World:
    """World number ``index`` of ``stream``: the same for any process and call order."""
    return sample_world(knowledge, rng_for(seed, stream, *index),
                        reject_tarockless=reject_tarockless)


def knowledge_from_hand(hand: int, seat: int, talon: tuple[int, ...] | None = None) -> Knowledge:
    """Knowledge of a player who sees only his own hand (and maybe the talon)."""
    hands = [0, 0, 0]
    hands[seat] = hand
    return Knowledge((hands[0], hands[1], hands[2]),
                     tuple(talon) if talon is not None else (-1,) * TALON_SIZE)
