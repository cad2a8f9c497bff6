"""The numba feature kernel equals the numpy reference bit for bit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tarock_solver import notation as _notation  # noqa: F401  (import order: see positions)
from tarock_solver.estimate import features as F
from tarock_solver.training import positions as P

#: Positions drawn per kind from the sampler (each then under all 9 leader/declarer pairs).
SAMPLED = {"post_exchange": 600, "random": 1500, "short": 1200, "biddable": 600}
#: Own random triples per hand size 1..16 (each under all 9 leader/declarer pairs).
TRIPLES_PER_SIZE = 150
PAIRS = list(itertools.product(range(3), range(3)))  # (leader, declarer)


def _all_pairs(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every position under each of the 9 (leader, declarer) pairs."""
    n = len(hands)
    h = np.repeat(hands, len(PAIRS), axis=0)
    le = np.tile(np.array([p[0] for p in PAIRS], dtype=np.int64), n)
    de = np.tile(np.array([p[1] for p in PAIRS], dtype=np.int64), n)
    return h, le, de


def _random_triples(seed: int, per_size: int) -> np.ndarray:
    """Equal hands of k = 1..16 cards: 3k distinct cards of 54, split in three."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(1, 17):
        for _ in range(per_size):
            cards = rng.choice(54, size=3 * k, replace=False)
            rows.append([sum(1 << int(c) for c in cards[s * k:(s + 1) * k]) for s in range(3)])
    return np.array(rows, dtype=np.uint64)


@pytest.fixture(scope="module")
def positions() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ps = [p for kind, count in SAMPLED.items() for p in P.sample_positions(5, kind, count)]
    sampled = np.array([p.hands for p in ps], dtype=np.uint64)
    # the sampler's own leader / declarer too, then every pair
    own = (sampled, np.array([p.leader for p in ps], dtype=np.int64),
           np.array([p.declarer for p in ps], dtype=np.int64))
    hands = np.concatenate([sampled, _random_triples(11, TRIPLES_PER_SIZE)])
    h, le, de = _all_pairs(hands)
    return (np.concatenate([own[0], h]), np.concatenate([own[1], le]),
            np.concatenate([own[2], de]))


def _bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype == np.float64 and bool(
        np.array_equal(a.view(np.int64), b.view(np.int64)))


def test_coverage_of_the_positions(positions):
    h, le, de = positions
    assert len(h) >= 20_000
    sizes = np.array([int(x).bit_count() for x in h[:, 0]])
    assert set(sizes.tolist()) == set(range(1, 17))
    for k in range(1, 17):
        seen = {(int(a), int(b)) for a, b in zip(le[sizes == k], de[sizes == k], strict=True)}
        assert seen == set(PAIRS), k
    # equal hands, disjoint, and many with cards out of play
    assert all(int(x).bit_count() == k for col in h.T for x, k in zip(col, sizes, strict=True))
    assert not (h[:, 0] & h[:, 1]).any() and not (h[:, 2] & (h[:, 0] | h[:, 1])).any()
    assert (sizes < 16).sum() > 10_000


def test_kernel_equals_reference_bit_for_bit(positions):
    h, le, de = positions
    x = F.features(h, le, de)
    ref = F.features_reference(h, le, de)
    assert x.shape == (len(h), F.N_FEATURES)
    assert np.array_equal(x, ref)
    assert _bits_equal(x, ref)


def test_kernel_converts_input_dtypes(positions):
    h, le, de = (a[:500] for a in positions)
    ref = F.features_reference(h, le, de)
    x = F.features(h.astype(np.int64).tolist(), le.astype(np.int8), de.astype(np.int32))
    assert _bits_equal(x, ref)


def test_out_buffer_is_filled_and_returned(positions):
    h, le, de = (a[:3000] for a in positions)
    ref = F.features_reference(h, le, de)
    big = np.full((4000, F.N_FEATURES), np.nan)
    buf = big[:len(h)]  # a leading view of a larger buffer, as the evaluator uses
    got = F.features(h, le, de, out=buf)
    assert got is buf
    assert _bits_equal(buf, ref)
    assert np.isnan(big[len(h):]).all()  # nothing written past the rows asked for
    # a reused buffer holding another block's values is overwritten everywhere
    h2, le2, de2 = (a[3000:6000] for a in positions)
    assert F.features(h2, le2, de2, out=buf) is buf
    assert _bits_equal(buf, F.features_reference(h2, le2, de2))
    with pytest.raises(ValueError):
        F.features(h, le, de, out=np.empty((len(h) + 1, F.N_FEATURES)))
    with pytest.raises(ValueError):
        F.features(h, le, de, out=np.empty((len(h), F.N_FEATURES), dtype=np.float32))


def test_empty_input():
    h = np.zeros((0, 3), dtype=np.uint64)
    e = np.zeros(0, dtype=np.int64)
    assert F.features(h, e, e).shape == (0, F.N_FEATURES)


def test_positive_control_the_comparison_can_fail(positions):
    h, le, de = (a[:200].copy() for a in positions)
    ref = F.features_reference(h, le, de)
    # swap one card between two hands of one row (sizes stay equal): the row changes
    i = 7
    a = int(h[i, 0]) & -int(h[i, 0])  # lowest card of hand 0
    b = int(h[i, 1]) & -int(h[i, 1])  # lowest card of hand 1
    h[i, 0] = np.uint64(int(h[i, 0]) ^ a ^ b)
    h[i, 1] = np.uint64(int(h[i, 1]) ^ a ^ b)
    x = F.features(h, le, de)
    assert not np.array_equal(x, ref)
    changed = np.flatnonzero((x != ref).any(axis=1))
    assert changed.tolist() == [i]
    assert _bits_equal(x, F.features_reference(h, le, de))
    # a single ulp in a single cell is caught
    y = F.features(h, le, de)
    y[3, F.N_FEATURES - 1] = np.nextafter(y[3, F.N_FEATURES - 1], 1.0)
    assert not _bits_equal(y, x) and not np.array_equal(y, x)
    # another leader changes only the leader one-hot of that row
    le2 = le.copy()
    le2[5] = (le2[5] + 1) % 3
    z = F.features(h, le2, de)
    rows, cols = np.nonzero(z != x)
    assert rows.tolist() == [5, 5]
    assert set(cols.tolist()) <= set(range(F.N_ONEHOT, F.N_ONEHOT + 3))


def test_remaining_points_by_byte_tables_equals_the_card_bits(positions):
    """The evaluator's clip bound: the byte-table sum equals the card-bit definition on
    every position (every size, cards out of play)."""
    h = positions[0]
    got = F.remaining_points(h)
    assert got.dtype == np.int64
    assert np.array_equal(got, F.remaining_points_reference(h))
