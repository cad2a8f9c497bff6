"""pext/pdep intrinsics and the transposition-table keys built from them."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from tarock_solver import bits
from tarock_solver.cards import GROUP_MASKS
from tarock_solver.solver._kernels import cardpoint as kernel
from tarock_solver.solver._kernels import keys
from tarock_solver.solver._kernels.table import new_table


def _pext(x: int, m: int) -> int:
    out, k = 0, 0
    for i in range(64):
        if (m >> i) & 1:
            out |= ((x >> i) & 1) << k
            k += 1
    return out


def _pdep(x: int, m: int) -> int:
    out, k = 0, 0
    for i in range(64):
        if (m >> i) & 1:
            out |= ((x >> k) & 1) << i
            k += 1
    return out


@njit
def _both(x, m):
    return bits.pext_nb(x, m), bits.pdep_nb(x, m)


def test_pext_pdep_match_bit_loops() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        x, m = rng.getrandbits(54), rng.getrandbits(54)
        assert _both(np.int64(x), np.int64(m)) == (_pext(x, m), _pdep(x, m))


def test_software_fallback_matches(monkeypatch) -> None:
    monkeypatch.setattr(bits, "HAS_BMI2", False)

    @njit
    def soft(x, m):  # compiled after the switch: uses the software loops
        return bits.pext_nb(x, m), bits.pdep_nb(x, m)

    rng = random.Random(6)
    for _ in range(500):
        x, m = rng.getrandbits(54), rng.getrandbits(54)
        assert soft(np.int64(x), np.int64(m)) == (_pext(x, m), _pdep(x, m))


def _random_split(rng: random.Random, cards: list[int], n: int) -> tuple[int, int, int]:
    rng.shuffle(cards)
    hs = [0, 0, 0]
    for i, c in enumerate(cards[:3 * n]):
        hs[i % 3] |= 1 << c
    return hs[0], hs[1], hs[2]


def _relative(hands: tuple[int, int, int], regions: list[int]) -> tuple:
    """Readable relative-rank form: per region the owner of each in-play card by rank;
    outside the regions the cards themselves."""
    allc = hands[0] | hands[1] | hands[2]
    out = []
    for rm in regions:
        out.append(tuple(next(s for s in range(3) if (hands[s] >> c) & 1)
                         for c in range(54) if (rm >> c) & 1 and (allc >> c) & 1))
    outside = ~sum(regions) & ((1 << 54) - 1)
    out.append(tuple(h & outside for h in hands))
    return tuple(out)


def _rank_only(hands: tuple[int, int, int]) -> tuple:
    allc = hands[0] | hands[1] | hands[2]
    return tuple(tuple(next(s for s in range(3) if (hands[s] >> c) & 1)
                       for c in range(54) if (gm >> c) & 1 and (allc >> c) & 1)
                 for gm in GROUP_MASKS)


@njit
def _keys(h0, h1, h2, rmask, runion):
    return keys._exact_key(h0, h1, h2, rmask, runion), keys._rank_key(h0, h1, h2)


def test_keys_are_one_to_one_with_the_readable_forms() -> None:
    """Equal keys exactly when the relative-rank (or rank-only) forms are equal,
    over many positions that share most cards (so that collisions are likely)."""
    rng = random.Random(7)
    for rmask, runion in ((keys.REGION_MASK, keys.REGION_UNION),
                          (keys.REGION_MASK_FIXED, keys.REGION_UNION_FIXED)):
        regions = [int(x) for x in rmask]
        seen_exact: dict = {}
        seen_rank: dict = {}
        exact_of_form: dict = {}
        rank_of_form: dict = {}
        for _ in range(4000):
            n = rng.choice((2, 3, 4))
            # draw from a small pool so that distinct positions often share a form
            pool = rng.sample(range(54), 3 * n + rng.randint(0, 3))
            hands = _random_split(rng, pool, n)
            ek, rk = _keys(np.int64(hands[0]), np.int64(hands[1]), np.int64(hands[2]), rmask,
                            runion)
            ef, rf = _relative(hands, regions), _rank_only(hands)
            assert seen_exact.setdefault(ek, ef) == ef
            assert exact_of_form.setdefault(ef, ek) == ek
            assert seen_rank.setdefault(rk, rf) == rf
            assert rank_of_form.setdefault(rf, rk) == rk
        # forms really repeat, so the one-to-one checks above had teeth
        assert 100 < len(seen_exact) < 4000 and len(seen_rank) < len(seen_exact)


def test_new_table_is_zeroed_and_writable() -> None:
    t = new_table(20, kernel.TT_COLUMNS)
    assert t.shape == (1 << 20, kernel.TT_COLUMNS) and t.dtype == np.int64
    assert not t.any()
    t[5, 3] = 7
    t.fill(0)
    assert new_table(10, kernel.TT_COLUMNS).shape == (1 << 10, kernel.TT_COLUMNS)
