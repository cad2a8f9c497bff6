"""The numba solver against the brute-force reference, on many random positions.

The CI sample is 2,000 positions of 1-6 tricks; the full proof is 10,000:

    pytest -m slow tests/test_solver_oracle.py

Positions come from :func:`random_position` with fixed seeds: random hands
(whole pack, tarock-heavy, or tarocks plus two suits), random leader and
declarer, 0-2 cards already played to the current trick, and in a third of
them announced birds (`bird_reserve`) with the birds usually in the
declarer's hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.oracle import random_position, reference_card_values, reference_value
from tarock_solver.solver import CardPointSearch, Position

# tricks -> positions in the CI sample (the 6-trick reference takes ~0.2 s each)
CI_MIX = {1: 350, 2: 400, 3: 450, 4: 500, 5: 280, 6: 20}


def _positions(seed: int, mix: dict[int, int]) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for tricks, count in mix.items():
        out.extend(random_position(rng, tricks) for _ in range(count))
    return out


def _check(positions: list[dict], card_every: int) -> None:
    # A small shared table: later positions probe entries of earlier ones
    # (other declarers, birds, leaders) and slots are evicted all the time.
    shared = CardPointSearch(tt_bits=12)
    bad = []
    for i, p in enumerate(positions):
        pos = Position(**p)
        want = reference_value(**p)
        got = shared.value(pos).value
        fresh = CardPointSearch(tt_bits=10).value_full_window(pos).value
        if not got == fresh == want:
            bad.append((p, want, got, fresh))
        if i % card_every == 0:
            ref_cards = reference_card_values(**p)
            cards = {c: r.value for c, r in shared.card_values(pos).items()}
            if cards != ref_cards:
                bad.append((p, ref_cards, cards, None))
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


def test_oracle_ci_sample() -> None:
    positions = _positions(20240601, CI_MIX)
    assert len(positions) == 2000
    assert sum(1 for p in positions if p["trick"]) > 1000
    assert sum(1 for p in positions if p["birds"]) > 500
    _check(positions, card_every=7)


@pytest.mark.slow
def test_oracle_full_10000() -> None:
    mix = {t: 10_000 // 6 + (1 if t <= 10_000 % 6 else 0) for t in range(1, 7)}
    positions = _positions(777, mix)
    assert len(positions) == 10_000
    _check(positions, card_every=5)


def _large_positions(seed: int, tricks: int, count: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [random_position(rng, tricks, birds=(i % 2 == 1)) for i in range(count)]


@pytest.mark.parametrize(("tricks", "count"), [(8, 5), (10, 2)])
def test_exact_equals_null_window_and_bisection(tricks: int, count: int) -> None:
    """On 8-10 trick positions: MTD(f) == full window == the null-window
    threshold where the answer flips, and the per-card values agree."""
    for p in _large_positions(tricks * 101, tricks, count):
        pos = Position(**p)
        search = CardPointSearch(tt_bits=16)
        value = search.value(pos).value
        assert CardPointSearch(tt_bits=16).value_full_window(pos).value == value
        # every threshold, with one shared table and a fresh one for a few
        answers = [search.reaches(pos, t).at_least(t) for t in range(0, 75)]
        assert answers == [t <= value for t in range(0, 75)]
        for t in (value, value + 1):
            assert CardPointSearch(tt_bits=14).reaches(pos, t).at_least(t) is (t <= value)
        # bisection with independent null-window tests
        lo, hi = 0, 75
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if CardPointSearch(tt_bits=14).reaches(pos, mid).at_least(mid):
                lo = mid
            else:
                hi = mid - 1
        assert lo == value
        cards = {c: r.value for c, r in search.card_values(pos).items()}
        seat = (p["leader"] + len(p["trick"])) % 3
        pick = max if seat == p["declarer"] else min
        assert pick(cards.values()) == value
