"""The worlds of a French Tarot hand: the other three hands and the chien, drawn uniformly.

World ``j`` of a seed is drawn by its own generator (``rng_for(seed, stream, j)``), so
it is the same in any process and any order.  A taker who has seen the chien draws
inner worlds the same way among the deals that leave him his 24 cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...advise.sampling import rng_for
from ..cards import ALL_CARDS, HAND_SIZE, cards_of, split
from ..deal import deal_around

__all__ = ["STREAM_INNER", "STREAM_POLICY", "STREAM_WORLDS", "FrenchWorld", "inner_defences",
           "sample_world", "shuffled_unknown", "words"]

STREAM_WORLDS = 41
STREAM_INNER = 42
STREAM_POLICY = 43


@dataclass(frozen=True)
class FrenchWorld:
    """Four hands by seat and the chien."""

    hands: tuple[int, int, int, int]
    chien: int


def shuffled_unknown(known: int, seed: int, stream: int, *index: int) -> np.ndarray:
    """The cards outside ``known`` in the order drawn by the generator of (``seed``,
    ``stream``, ``index``)."""
    unknown = np.array(cards_of(ALL_CARDS & ~known), np.int64)
    return unknown[rng_for(seed, stream, *index).permutation(len(unknown))]


def sample_world(hand: int, seat: int, seed: int, index: int, chien: int | None = None
                 ) -> FrenchWorld:
    """World ``index``: ``hand`` at ``seat``, the other 60 cards dealt at random (54 when
    the ``chien`` is known)."""
    perm = shuffled_unknown(hand | (chien or 0), seed, STREAM_WORLDS, index)
    hands, rest = deal_around(seat, hand, perm, HAND_SIZE[4])
    return FrenchWorld(hands, rest if chien is None else chien)  # type: ignore[arg-type]


def inner_defences(known: int, taker: int, seed: int, stream: int, index: tuple[int, ...],
                   count: int) -> list[tuple[int, int, int, int]]:
    """``count`` deals of the cards outside ``known`` (the taker's 24, or his hand and
    what he put aside) to the three other seats, the taker's seat left 0."""
    size = (ALL_CARDS & ~known).bit_count() // 3
    return [deal_around(taker, 0, shuffled_unknown(known, seed, stream, *index, k),  # type: ignore[misc]
                        size)[0] for k in range(count)]


def words(hands: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' two words of each hand, (4,) each."""
    lo = np.zeros(len(hands), np.int64)
    hi = np.zeros(len(hands), np.int64)
    for s, h in enumerate(hands):
        lo[s], hi[s] = split(h)
    return lo, hi
