"""Sampling of the unseen cards: consistent, uniform, reproducible (tarock_solver.advise.sampling)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tarock_solver.advise.sampling import (
    STREAM_INNER,
    STREAM_WORLD,
    Knowledge,
    knowledge_from_hand,
    rng_for,
    sample_world,
    world_at,
)
from tarock_solver.cards import FULL_MASK, TAROCK_MASK, indices_of, mask_of
from tarock_solver.errors import DealError
from tarock_solver.notation import parse_hand

HAND = parse_hand("21,20,16,15,7,5,2,1.K.KQ.K97.Q9")

#: Chi-square critical values at p = 0.001 (a correct sampler fails 1 run in 1000).
CHI2_001 = {11: 31.26, 37: 69.35}


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def check_consistent(k: Knowledge, w) -> None:
    masks = [*w.hands, w.talon_mask]
    assert sum(m.bit_count() for m in masks) == 54
    union = 0
    for m in masks:
        assert union & m == 0
        union |= m
    assert union == FULL_MASK
    for s in range(3):
        assert w.hands[s] & k.hands[s] == k.hands[s]
        assert w.hands[s].bit_count() == k.sizes[s]
    for pos, card in enumerate(k.talon):
        if card >= 0:
            assert w.talon[pos] == card


def test_worlds_are_consistent_with_the_own_hand() -> None:
    k = knowledge_from_hand(HAND, 1)
    for j in range(50):
        w = world_at(k, 7, STREAM_WORLD, j)
        check_consistent(k, w)
        assert w.hands[1] == HAND
        assert all(h & TAROCK_MASK for h in w.hands)


def test_every_completion_of_a_small_case_is_equally_likely() -> None:
    """4 unknown cards into M (2 slots), R (1) and talon position 3 (1): 12 worlds."""
    cards = list(range(54))
    unknown = [cards[3], cards[30], cards[40], cards[50]]
    rest = [c for c in cards if c not in unknown]
    f, m, r, talon = rest[:16], rest[16:30], rest[30:45], rest[45:]
    talon_known = (talon[0], talon[1], -1, talon[2], talon[3], talon[4])
    k = Knowledge((mask_of(f), mask_of(m), mask_of(r)), talon_known)
    assert k.n_completions() == 12
    rng = np.random.default_rng(123)
    n = 12_000
    seen = Counter()
    for _ in range(n):
        w = sample_world(k, rng, reject_tarockless=False)
        check_consistent(k, w)
        seen[(w.hands[1] & ~k.hands[1], w.talon[2])] += 1
    assert len(seen) == 12
    assert chi_square(list(seen.values()), n / 12) < CHI2_001[11]


def test_each_unknown_card_is_equally_likely_at_talon_position_one() -> None:
    k = knowledge_from_hand(HAND, 0)
    unknown = indices_of(k.unknown_mask)
    assert len(unknown) == 38
    n = 7_600
    counts = Counter(world_at(k, 99, STREAM_WORLD, j, reject_tarockless=False).talon[0]
                     for j in range(n))
    assert set(counts) <= set(unknown)
    assert chi_square([counts[c] for c in unknown], n / 38) < CHI2_001[37]


def test_a_skewed_sampler_would_fail_the_uniformity_check() -> None:
    """The chi-square check above has power: a sampler that favours low cards fails it."""
    k = knowledge_from_hand(HAND, 0)
    unknown = indices_of(k.unknown_mask)
    rng = np.random.default_rng(5)
    n = 7_600
    weights = np.linspace(1.0, 1.5, len(unknown))
    draws = rng.choice(unknown, size=n, p=weights / weights.sum())
    counts = Counter(int(c) for c in draws)
    assert chi_square([counts[c] for c in unknown], n / 38) > CHI2_001[37]


def test_worlds_are_reproducible_and_independent_of_order() -> None:
    k = knowledge_from_hand(HAND, 2)
    forward = [world_at(k, 11, STREAM_WORLD, j) for j in range(20)]
    backward = [world_at(k, 11, STREAM_WORLD, j) for j in reversed(range(20))][::-1]
    assert forward == backward
    assert len({w.talon for w in forward}) == 20
    assert world_at(k, 12, STREAM_WORLD, 0) != forward[0]
    assert world_at(k, 11, STREAM_INNER, 0, 0) != forward[0]
    a = rng_for(1, STREAM_INNER, 3, 4).integers(0, 1 << 30, 4)
    b = rng_for(1, STREAM_INNER, 3, 4).integers(0, 1 << 30, 4)
    assert list(a) == list(b)


def test_inner_worlds_keep_the_given_talon() -> None:
    k = knowledge_from_hand(HAND, 0)
    outer = world_at(k, 3, STREAM_WORLD, 0)
    inner_k = k.with_talon(outer.talon)
    for i in range(20):
        w = world_at(inner_k, 3, STREAM_INNER, 0, i)
        check_consistent(inner_k, w)
        assert w.talon == outer.talon


def test_tarockless_hands_are_redrawn() -> None:
    """Only two tarocks are unknown: a valid world gives one to M and one to R."""
    tarocks = indices_of(TAROCK_MASK)
    suits = indices_of(FULL_MASK & ~TAROCK_MASK)
    f = mask_of(tarocks[:16])
    talon = tuple(tarocks[16:20] + suits[:2])
    k = Knowledge((f, 0, 0), talon)
    rng = np.random.default_rng(0)
    for _ in range(200):
        w = sample_world(k, rng)
        assert w.hands[1] & TAROCK_MASK and w.hands[2] & TAROCK_MASK
    with pytest.raises(DealError):
        sample_world(Knowledge((mask_of(tarocks[:16]), 0, 0),
                               tuple(tarocks[16:22])), rng)


def test_contradictory_knowledge_is_rejected() -> None:
    with pytest.raises(DealError):
        Knowledge((HAND, HAND, 0))
    with pytest.raises(DealError):
        Knowledge((HAND, 0, 0), (indices_of(HAND)[0], -1, -1, -1, -1, -1))
