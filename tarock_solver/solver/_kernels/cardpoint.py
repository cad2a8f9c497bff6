"""The card-point solver's side of the search loop and its table layout.

The loop's card-point hooks (selected by ``game=None``: leaves worth 0, bounds compared
with the window as they are, the root treated as any node), the transposition table they
probe and store, and :func:`search`.  A node's value is the declarer's card points from
it on, the trick in progress included, so table entries do not depend on the points
already taken.  The drivers (MTD(f), per-card values, many positions) are in :mod:`.mtd`.
"""


from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ...bits import ctz_nb, pdep_nb, popcount_nb
from . import search as loop
from .keys import (
    REGION_BASE,
    REGION_BASE_FIXED,
    REGION_MASK,
    REGION_MASK_FIXED,
    REGION_UNION,
    REGION_UNION_FIXED,
    _denormalise,
    _exact_key,
    _hash,
    _normalise_card,
    _point_shift,
    _rank_key,
    _representatives,
)
from .play import BIRD_KAKADU, BIRD_UHU, _bit, _legal, _nominal_sum
from .search import BUCKET, KEY_VALID, _bucket_row, _prefetch

INF = 1000

# Transposition table: an int64 array of shape (2**bits, TT_COLUMNS) of 64-byte
# lines, probed and stored at trick starts only.  Without announced birds every line
# holds two rank-only entries (see .keys); with birds, where I/II/III keep their
# identity, it holds exact entries ``key0, key1, key2, data`` in buckets of BUCKET:
# the three hands with the played 1-point cards squeezed out (relative ranks, see
# keys._exact_key) with the leader, the declarer and the birds in the top bits of
# ``key0``; ``data`` packs a lower bound, an upper bound, the best lead (normalised)
# and log2 of the nodes the entry's search took.  The first rows of a bucket keep the
# entries that saved the most work, the last takes the newest.  Keys carry the
# leader, the declarer and the birds, so a table stays valid across calls,
# declarers and birds.

#: Words of one TT row (one 64-byte cache line): two rank-only entries or two
#: exact entries (half of a bucket).
TT_COLUMNS = 8
#: Words of one rank-only entry: key0, key1, data (lower bound, upper bound, best
#: lead as a rank among the cards in play, log2 of the nodes), cards in play.
RANK_WORDS = 4
#: The loop's threshold rows: card points have none.
_NO_ROWS = np.zeros(1, np.int64)


# ----------------------------------------------------------------- table access

@njit(cache=True, inline="always")
def _merge_data(old, lo, up, tm, n):
    """A new entry's bounds, move and work merged with the stored data word
    ``old`` of the same position: the tighter bounds, the known move, the
    larger work."""
    if (old & 255) > lo:
        lo = old & 255
    if ((old >> 8) & 255) < up:
        up = (old >> 8) & 255
    if tm == 255:
        tm = (old >> 16) & 255
    if ((old >> 24) & 255) > n:
        n = (old >> 24) & 255
    return lo, up, tm, n


@njit(cache=True, inline="always")
def _tt_probe_slot(flat, base, k0, k1, k2):
    """Data word of the entry for a key in the bucket at word ``base``, or -1."""
    for w in range(base, base + 4 * BUCKET, 4):
        if flat[w] == k0 and flat[w + 1] == k1 and flat[w + 2] == k2:
            return flat[w + 3]
    return -1


# ----------------------------------------------------------------- the hooks of the loop
# ``game`` is None; ``ctx`` is (rank-only table, key flags, exact-key row mask,
# rank-only row mask, fixed regions: II or III announced).

def _card_points(game):
    return isinstance(game, types.NoneType)


@overload(loop._context, inline="always")
def _cp_context(game, declarer, reserve, tt):
    if not _card_points(game):
        return None

    def impl(game, declarer, reserve, tt):
        # without birds the whole table holds rank-only entries (R lines of two),
        # with birds exact entries (2R of them, buckets of BUCKET on two lines)
        flags = (np.int64(declarer) << 56) | (np.int64(reserve) << 58) | KEY_VALID
        return (reserve == 0, flags, 2 * tt.shape[0] - 1, tt.shape[0] - 1,
                (reserve & (BIRD_UHU | BIRD_KAKADU)) != 0)
    return impl


@overload(loop._begin, inline="always")
def _cp_begin(game, fr, d0, stats):
    if not _card_points(game):
        return None
    return lambda game, fr, d0, stats: None


@overload(loop._aborted, inline="always")
def _cp_aborted(game):
    if not _card_points(game):
        return None
    return lambda game: -1


@overload(loop._closable, inline="always")
def _cp_closable(game, d, d0):
    if not _card_points(game):
        return None
    return lambda game, d, d0: True


@overload(loop._leaf, inline="always")
def _cp_leaf(game, rows, fr, d):
    if not _card_points(game):
        return None
    return lambda game, rows, fr, d: 0


@overload(loop._last_trick, inline="always")
def _cp_last_trick(game, rows, fr, d, c0, c1, c2, s, ws, declarer):
    if not _card_points(game):
        return None
    return lambda game, rows, fr, d, c0, c1, c2, s, ws, declarer: 0


@overload(loop._thresholds, inline="always")
def _cp_thresholds(game, rows, key, fr, d):
    if not _card_points(game):
        return None
    return lambda game, rows, key, fr, d: (0, 0)


@overload(loop._identity, inline="always")
def _cp_identity(game, fr, d, d0, p, h, reserve):
    if not _card_points(game):
        return None
    return lambda game, fr, d, d0, p, h, reserve: reserve


@overload(loop._pass_on, inline="always")
def _cp_pass_on(game, fr, d, p, c, ws, h, declarer):
    if not _card_points(game):
        return None
    return lambda game, fr, d, p, c, ws, h, declarer: None


@overload(loop._finished, inline="always")
def _cp_finished(game, fr, d, d0, stats):
    if not _card_points(game):
        return None
    return lambda game, fr, d, d0, stats: None


@overload(loop._trick_start, inline="always")
def _cp_trick_start(game, ctx, fr, d, h, s, n, allc, reserve, flat):
    if not _card_points(game):
        return None

    def impl(game, ctx, fr, d, h, s, n, allc, reserve, flat):
        use_rank, flags, ex_mask, rk_mask, fixed = ctx
        if n < loop.TT_MIN_CARDS:
            return np.int64(0), np.int64(0), np.int64(0), np.int64(0)
        if use_rank:
            q0, q1 = _rank_key(h[0], h[1], h[2])
            qk0 = q0 | (np.int64(s) << 54) | flags
            # the bucket: one cache line of two entries
            r2 = 2 * RANK_WORDS * (_hash(qk0 ^ np.int64(0x5bd1e995), q1, np.int64(0)) & rk_mask)
            _prefetch(flat, r2)
            return qk0, q1, np.int64(0), r2
        rmask = REGION_MASK_FIXED if fixed else REGION_MASK
        runion = REGION_UNION_FIXED if fixed else REGION_UNION
        n0, n1, n2 = _exact_key(h[0], h[1], h[2], rmask, runion)
        k0 = n0 | (np.int64(s) << 54) | flags
        slot = 4 * (_hash(k0, n1, n2) & ex_mask & ~np.int64(BUCKET - 1))
        _prefetch(flat, slot)
        _prefetch(flat, slot + 8)
        return k0, n1, n2, slot
    return impl


@overload(loop._probe, inline="always")
def _cp_probe(game, ctx, key, fr, d, h, s, allc, closable, flat):
    if not _card_points(game):
        return None

    def impl(game, ctx, key, fr, d, h, s, allc, closable, flat):
        use_rank = ctx[0]
        fixed = ctx[4]
        k0, k1, k2, slot = key
        ttmove = -1
        hits = 0
        if use_rank:
            # both entries may hold this rank structure (with other cards in
            # play): use the tightest shifted bounds
            blo = -INF
            bup = INF
            for r3 in range(slot, slot + 2 * RANK_WORDS, RANK_WORDS):
                if flat[r3] == k0 and flat[r3 + 1] == k1:
                    hits += 1
                    ddn, ddu = _point_shift(flat[r3 + 3], allc)
                    d2 = flat[r3 + 2]
                    lo2 = (d2 & 255) - ddn
                    up2 = ((d2 >> 8) & 255) + ddu
                    if lo2 > blo:
                        blo = lo2
                    if up2 < bup:
                        bup = up2
                    tm2 = (d2 >> 16) & 255
                    if ttmove < 0 and tm2 < 64:
                        # the stored best lead, as a rank among the cards in play
                        x = pdep_nb(_bit(tm2), allc)
                        if x:
                            ttmove = ctz_nb(x)
            # blo == bup is exact: return it at once (never narrow to alpha == beta)
            if closable and (blo >= fr[d].be or bup <= fr[d].al or blo == bup):
                return True, (blo if blo >= fr[d].be else bup), ttmove, hits
        else:
            data = _tt_probe_slot(flat, slot, k0, k1, k2)
            if data >= 0:
                hits = 1
                lo = data & 255
                up = (data >> 8) & 255
                # lo == up is exact: return it at once (never narrow to alpha == beta)
                if closable and (lo >= fr[d].be or up <= fr[d].al or lo == up):
                    return True, (lo if lo >= fr[d].be else up), ttmove, hits
                tm = (data >> 16) & 255
                if tm < 64:
                    rbase = REGION_BASE_FIXED if fixed else REGION_BASE
                    rmask = REGION_MASK_FIXED if fixed else REGION_MASK
                    ttmove = _denormalise(tm, allc, rbase, rmask)
        fr[d].k0 = k0
        fr[d].k1 = k1
        fr[d].k2 = k2
        fr[d].tslot = slot
        return False, np.int64(0), ttmove, hits
    return impl


@overload(loop._store, inline="always")
def _cp_store(game, ctx, fr, d, v, fail_low, work, h, flat):
    if not _card_points(game):
        return None

    def impl(game, ctx, fr, d, v, fail_low, work, h, flat):
        use_rank = ctx[0]
        fixed = ctx[4]
        lo = 0
        up = 255
        if v <= fr[d].al:
            up = v
        elif v >= fr[d].be:
            lo = v
        else:
            lo = v
            up = v
        n = work
        allp = h[0] | h[1] | h[2]
        k0 = fr[d].k0
        k1 = fr[d].k1
        slot = fr[d].tslot
        if use_rank:
            tm2 = 255
            if fr[d].bmove >= 0 and not fail_low:
                tm2 = popcount_nb(allp & (_bit(fr[d].bmove) - 1))
            target = -1
            for r3 in range(slot, slot + 2 * RANK_WORDS, RANK_WORDS):
                if flat[r3] == k0 and flat[r3 + 1] == k1 and flat[r3 + 3] == allp:
                    lo, up, tm2, n = _merge_data(flat[r3 + 2], lo, up, tm2, n)
                    target = r3
                    break
            if target < 0:
                # the first entry keeps the costlier search, the second
                # takes the newcomer (or the entry the newcomer displaces)
                target = slot + RANK_WORDS
                if flat[slot] == 0 or n >= (flat[slot + 2] >> 24) & 255:
                    for j in range(RANK_WORDS):
                        flat[slot + RANK_WORDS + j] = flat[slot + j]
                    target = slot
            flat[target] = k0
            flat[target + 1] = k1
            flat[target + 2] = lo | (up << 8) | (tm2 << 16) | (n << 24)
            flat[target + 3] = allp
            return
        tm = 255
        if fr[d].bmove >= 0 and not fail_low:
            rbase = REGION_BASE_FIXED if fixed else REGION_BASE
            rmask = REGION_MASK_FIXED if fixed else REGION_MASK
            tm = _normalise_card(fr[d].bmove, allp, rbase, rmask)
        k2 = fr[d].k2
        target = -1
        for w in range(slot, slot + 4 * BUCKET, 4):
            if flat[w] == k0 and flat[w + 1] == k1 and flat[w + 2] == k2:
                lo, up, tm, n = _merge_data(flat[w + 3], lo, up, tm, n)
                target = w
                break
        if target < 0:
            target = _bucket_row(flat, slot, 4, n, 24)
        flat[target] = k0
        flat[target + 1] = k1
        flat[target + 2] = k2
        flat[target + 3] = lo | (up << 8) | (tm << 16) | (n << 24)
    return impl


@njit(cache=True, nogil=True)
def search(hands, leader, tcards, ntrick, declarer, birds, alpha, beta, tt, stats):
    """Fail-soft alpha-beta value of a position for the window (alpha, beta).

    ``hands``: int64[3] masks (cards already played to the current trick are
    not in them); ``leader``: seat who led the current trick; ``tcards``:
    int64 array whose first ``ntrick`` (0..2) entries are the cards played to
    it; ``declarer``: seat 0..2; ``birds``: announced-bird bits (1 = Pagat,
    2 = Uhu, 4 = Kakadu).  The result v satisfies: v <= alpha -> value <= v;
    v >= beta -> value >= v; otherwise value == v.  ``stats`` counters are
    incremented and its budgets obeyed (see :mod:`.stats`).
    """
    return loop.run(hands, leader, tcards, ntrick, declarer, birds, alpha, beta, tt, stats, None,
                    _NO_ROWS)


# ----------------------------------------------------------------- drivers

@njit(cache=True)
def remaining_points(hands, ntrick, tcards):
    """Card points still to be won: the upper limit of every value."""
    allc = hands[0] | hands[1] | hands[2]
    for i in range(ntrick):
        allc |= _bit(tcards[i])
    ncards = popcount_nb(allc)
    return _nominal_sum(allc) - 2 * (ncards // 3)


@njit(cache=True)
def legal_cards(hands, leader, tcards, ntrick, declarer, birds):
    """(legal mask, representatives mask) of the player to move."""
    s = (leader + ntrick) % 3
    led = tcards[0] if ntrick > 0 else -1
    trick_no = 17 - popcount_nb(hands[leader]) - (1 if ntrick > 0 else 0)
    legal = _legal(hands[s], led, s == declarer, birds, trick_no)
    in_play = hands[0] | hands[1] | hands[2]
    for i in range(ntrick):
        in_play |= _bit(tcards[i])
    return legal, _representatives(legal, in_play, birds)
