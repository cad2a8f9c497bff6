"""Merged chien discards: legal, distinct, and standing for every legal discard."""

from __future__ import annotations

import pytest

from tarock_solver.french.cards import JACK, cards_of, mask_of, rank_of, suit_of
from tarock_solver.french.chien import check_discard, legal_discards, merged_discards
from tarock_solver.french.deal import random_deal


def _representative(discard: int, full: int) -> int:
    """The merged discard standing for ``discard``: its spot cards of each suit replaced
    by as many of the lowest spot cards of that suit in ``full``."""
    out = 0
    for s in range(4):
        mine = [c for c in cards_of(discard) if suit_of(c) == s]
        spots = [c for c in mine if rank_of(c) < JACK]
        lowest = [c for c in cards_of(full) if suit_of(c) == s and rank_of(c) < JACK]
        out |= mask_of(lowest[:len(spots)]) | mask_of(c for c in mine if rank_of(c) >= JACK)
    trumps = [c for c in cards_of(discard) if suit_of(c) == 4]
    if trumps:
        low = [c for c in cards_of(full) if suit_of(c) == 4 and c not in (0, 20)]
        out |= mask_of(low[:len(trumps)])
    return out


@pytest.mark.parametrize("seed", range(6))
def test_merged_discards_cover_the_legal_ones(seed: int) -> None:
    deal = random_deal(seed)
    full = deal.hands[seed % 4] | deal.chien
    merged = merged_discards(full)
    assert len(set(merged)) == len(merged)
    for d in merged:
        check_discard(full, d)
    reps = {_representative(d, full) for d in legal_discards(full)}
    assert reps == set(merged)
