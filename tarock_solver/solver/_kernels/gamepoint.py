"""The game-point solver's kernel: null-window tests "the declarer's net ≥ X" on the score sheet.

A test is a search of the shared loop of :mod:`.search` with a :class:`GoalTest` as its
``game``; this module holds the loop's game-point hooks, their table layout (exact and
rank-only entries that keep the goal their bounds were proved for) and the entry points
:func:`search`, :func:`test_goal` and :func:`test_goal_value`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ...bits import ctz_nb, pdep_nb, pext_nb, popcount_nb
from . import search as loop
from . import table
from .keys import (
    QS_MASK,
    REGION_MASK,
    REGION_MASK_FIXED,
    REGION_UNION,
    REGION_UNION_FIXED,
    _hash,
    _point_shift,
)
from .play import ALL_CARDS, _bit
from .search import BUCKET, KEY_VALID, _bucket_row, _prefetch
from .stats import ST_BEST

# Regions: inside them every card is worth 1 point, so only its rank among the
# region's cards still in play matters.  Region 0 is tarocks II..XX
# (REGION_MASK), or IV..XX (REGION_MASK_FIXED) when II or III must keep its
# identity (a bird whose outcome or reserve still matters); regions 1..4 are
# the four pips of each suit.

INF = 2000
_BOUND_OFFSET = 2048
_FIELD = np.int64(4095)
_NO_MOVE = 255
FLAG_LOST_TRICK = 64
#: Columns of the threshold-bound tables: 128 flag values × 8 settled-bird masks.
N_BOUND_COLUMNS = 1024
#: Goal indices are kept in 10-bit fields of a table entry's data word.
MAX_GOALS = 1024
#: Columns of one TT row: the exact-key entry (key0..2, data) and the
#: rank-only entry (key0..2, bounds, cards in play).
#: Exact keys (:func:`_key`) are relative-rank keys with the leader and the flags
#: in the spare bits of key2, in buckets of :data:`.search.BUCKET` rows whose first
#: rows keep the entries that saved the most work; the best move is stored
#: normalised.  The rank-only entry (:func:`_rank_key`, one per row, always the
#: newest) has its bounds widened by the point differences of rank-matched cards,
#: as in the card-point table.  The bird cards that matter keep their identity in
#: both: tarock region IV..XX instead of II..XX when II or III matter, and which of
#: I..III are in play.  Neither key holds the goal: each bound is stored with the
#: goal it was proved for (:func:`_pack`, :func:`_bounds_for`), so the breakpoint
#: tests and the principal-variation probes of one solve share one table, best
#: moves included.
TT_COLUMNS = 9
_RANK_SALT = np.int64(0x5bd1e995)

#: The game-point objective of the shared loop (its ``game`` argument):
#: ``relevant``, the birds (bits 1/2/4) whose outcome can change the net;
#: ``flags``, the outcome flags at the root; ``goal``, the goal index.
GoalTest = namedtuple("GoalTest", ["relevant", "flags", "goal"])
#: The loop's threshold rows (its ``rows`` argument): the goal's row of
#: ``thresholds`` (128 flag values), then those of ``t_lo`` and ``t_hi``.
_LO_ROW = 128
_HI_ROW = _LO_ROW + N_BOUND_COLUMNS


@njit(cache=True, inline="always")
def _pack(lo, up, move, work, glo, gup):
    """A table entry's data word: lower and upper bound on u, best move, log2 of the
    nodes, and the goal index each bound was proved for."""
    return ((np.int64(lo) + _BOUND_OFFSET) | ((np.int64(up) + _BOUND_OFFSET) << 12)
            | (np.int64(move) << 24) | (np.int64(work) << 32) | (np.int64(glo) << 40)
            | (np.int64(gup) << 50))


@njit(cache=True, inline="always")
def _lo(data):
    return (data & _FIELD) - _BOUND_OFFSET


@njit(cache=True, inline="always")
def _up(data):
    return ((data >> 12) & _FIELD) - _BOUND_OFFSET


@njit(cache=True, inline="always")
def _glo(data):
    """The goal index the stored lower bound was proved for (valid for every goal ≤ it)."""
    return (data >> 40) & 1023


@njit(cache=True, inline="always")
def _gup(data):
    """The goal index the stored upper bound was proved for (valid for every goal ≥ it)."""
    return (data >> 50) & 1023


@njit(cache=True, inline="always")
def _bounds_for(data, goal):
    """(lower, upper) bound on u for ``goal`` from a stored data word.

    Thresholds never decrease with the goal, so u never increases with it:
    a lower bound proved for goal k holds for every goal ≤ k, an upper bound
    for every goal ≥ k.  This is how the breakpoint tests share the table.
    """
    lo = _lo(data) if goal <= _glo(data) else -INF
    up = _up(data) if goal >= _gup(data) else INF
    return lo, up


@njit(cache=True, inline="always")
def _merge(old, lo, glo, up, gup):
    """The bounds to keep, (lo, glo, up, gup), from an old data word and new bounds.

    Per side, a bound that is valid for at least as many goals and at least as
    tight as the other wins; a new search that proved nothing on a side keeps
    the old bound; otherwise the newer bound replaces the older.
    """
    olo = _lo(old)
    oglo = _glo(old)
    if lo <= -INF or (oglo >= glo and olo >= lo):
        lo = olo
        glo = oglo
    oup = _up(old)
    ogup = _gup(old)
    if up >= INF or (ogup <= gup and oup <= up):
        up = oup
        gup = ogup
    return lo, glo, up, gup


@njit(cache=True, inline="always")
def _rank_key(h0, h1, h2, fixed):
    """Rank-only key (without the leader, flags and goal) of three hands at a trick start.

    Each group renumbered by rank among its cards in play, point values
    ignored: hands 0 and 1 squeezed over the cards in play (hand 2 is the
    rest), the five group counts, and for the birds that keep their
    identity (``fixed``, bits 1/2/4) which of I, II, III are in play, so a
    fixed bird has the same rank — is rank-matched to itself — in every
    position with this key.  Positions with one key have the same legal
    moves, trick winners and bird outcomes on every line; their future
    card points differ at most by :func:`_point_shift`.
    """
    allc = h0 | h1 | h2
    counts = (popcount_nb(allc & QS_MASK[0]) | (popcount_nb(allc & QS_MASK[1]) << 5)
              | (popcount_nb(allc & QS_MASK[2]) << 9) | (popcount_nb(allc & QS_MASK[3]) << 13)
              | (popcount_nb(allc & QS_MASK[4]) << 17))
    meta = counts | (fixed << 21) | ((allc & 7) << 24)
    return pext_nb(h0, allc), pext_nb(h1, allc), meta


@njit(cache=True, inline="always")
def _squeeze_mask(allc, fixed):
    """The cards a key is ``pext``-ed over: region cards in play plus every non-region card.

    Two positions with the same key have the same region card counts, so the
    same mask structure: a card's place in the squeezed string stands for the
    same relative card in both, which also maps stored best moves.
    """
    union = REGION_UNION_FIXED if fixed else REGION_UNION
    return (allc & union) | (ALL_CARDS & ~union)


@njit(cache=True, inline="always")
def _key(h0, h1, h2, fixed):
    """(key0, key1, key2) of three hands; key2 has bits 0..37 used, the rest is free.

    Hands 0 and 1 are squeezed over :func:`_squeeze_mask`; hand 2's region
    cards are the rest of the region cards in play, so only its non-region
    cards are kept (at most 21 bits), followed by the five region counts
    (17 bits) and the normalisation variant.
    """
    allc = h0 | h1 | h2
    m = _squeeze_mask(allc, fixed)
    regions = REGION_MASK_FIXED if fixed else REGION_MASK
    union = REGION_UNION_FIXED if fixed else REGION_UNION
    counts = (popcount_nb(allc & regions[0]) | (popcount_nb(allc & regions[1]) << 5)
              | (popcount_nb(allc & regions[2]) << 8) | (popcount_nb(allc & regions[3]) << 11)
              | (popcount_nb(allc & regions[4]) << 14))
    k2 = pext_nb(h2, ALL_CARDS & ~union) | (counts << 21) | (np.int64(fixed) << 38)
    return pext_nb(h0, m), pext_nb(h1, m), k2


@njit(cache=True, inline="always")
def _resolve_flags(flags, trick_no, c0, c1, c2, leader, winner, declarer):
    """Flags after a trick: bird codes of the bird trick, the lost-trick bit."""
    if trick_no >= 14:
        b = 16 - trick_no  # the bird of this trick: card index 0 Pagat, 1 Uhu, 2 Kakadu
        pos = -1
        if c0 == b:
            pos = 0
        elif c1 == b:
            pos = 1
        elif c2 == b:
            pos = 2
        if pos >= 0:
            holder = (leader + pos) % 3
            if winner == holder:
                code = 1
            elif holder == declarer or winner == declarer:
                code = 2
            else:
                code = 3
            flags |= code << (2 * b)
    if winner != declarer:
        flags |= FLAG_LOST_TRICK
    return flags


@njit(cache=True, inline="always")
def _open_birds(allc, trick_no, relevant):
    """Relevant birds (bits 1/2/4) whose outcome is still open at a trick start.

    Bird b is open while its card is in a hand and its trick (16 − b) is
    not yet over; the others are settled: their code in the flags is final.
    """
    m = relevant & allc & 7
    if trick_no > 14:
        m &= ~np.int64(4)
    if trick_no > 15:
        m &= ~np.int64(2)
    return m


# ----------------------------------------------------------------- the hooks of the loop
# ``game`` is a GoalTest; ``ctx`` is (row mask of the table, goal index).  The
# table is used as one flat view: row r starts at word r * TT_COLUMNS.
# The state of a node is the flags reached so far (updated when a trick ends) and
# the birds whose outcome or reserve still matters, which keep their identity in
# the equivalences and the keys.  The last trick is scored directly (its flags
# resolved, the threshold subtracted).  The root is never closed by the table or a
# bound, so ``stats[ST_BEST]`` is a proven best card for the driver's principal
# variation.

def _game_points(game):
    return isinstance(game, types.BaseNamedTuple) and game.instance_class is GoalTest


@overload(loop._context, inline="always")
def _gp_context(game, declarer, reserve, tt):
    if not _game_points(game):
        return None
    return lambda game, declarer, reserve, tt: (np.int64(tt.shape[0] - 1), np.int64(game.goal))


@overload(loop._begin, inline="always")
def _gp_begin(game, fr, d0, stats):
    if not _game_points(game):
        return None

    def impl(game, fr, d0, stats):
        fr[d0].flg = game.flags
        stats[ST_BEST] = -1
    return impl


@overload(loop._aborted, inline="always")
def _gp_aborted(game):
    if not _game_points(game):
        return None
    return lambda game: 0


@overload(loop._closable, inline="always")
def _gp_closable(game, d, d0):
    if not _game_points(game):
        return None
    # the root is searched move by move, so its best card is proven
    return lambda game, d, d0: d > d0


@overload(loop._leaf, inline="always")
def _gp_leaf(game, rows, fr, d):
    if not _game_points(game):
        return None
    return lambda game, rows, fr, d: -rows[fr[d].flg]


@overload(loop._last_trick, inline="always")
def _gp_last_trick(game, rows, fr, d, c0, c1, c2, s, ws, declarer):
    if not _game_points(game):
        return None

    def impl(game, rows, fr, d, c0, c1, c2, s, ws, declarer):
        return rows[_resolve_flags(fr[d].flg, 16, c0, c1, c2, s, ws, declarer)]
    return impl


@overload(loop._trick_start, inline="always")
def _gp_trick_start(game, ctx, fr, d, h, s, n, allc, reserve, flat):
    if not _game_points(game):
        return None

    def impl(game, ctx, fr, d, h, s, n, allc, reserve, flat):
        openb = _open_birds(allc, 17 - n, game.relevant)
        # Birds whose trick is ahead keep their identity, and so do the
        # reserved ones (their legality depends on the trick number);
        # II/III need the fixed normalisation regions.
        fr[d].fixd = openb | (reserve & allc)
        if n < loop.TT_MIN_CARDS:
            return np.int64(0), np.int64(0), np.int64(0), np.int64(0), openb
        k0, k1, k2 = _key(h[0], h[1], h[2], (fr[d].fixd & 6) != 0)
        k2 |= (np.int64(s) << 39) | (fr[d].flg << 41) | KEY_VALID
        slot = _hash(k0, k1, k2) & ctx[0] & ~np.int64(BUCKET - 1)
        _prefetch(flat, slot * TT_COLUMNS)
        _prefetch(flat, (slot + 2) * TT_COLUMNS)
        return k0, k1, k2, slot, openb
    return impl


@overload(loop._thresholds, inline="always")
def _gp_thresholds(game, rows, key, fr, d):
    if not _game_points(game):
        return None

    # A bound on future card points decides a test only when it decides it for every
    # final outcome still reachable, so it is compared with the least / most threshold
    # over those outcomes (the rows of ``t_lo`` / ``t_hi``, by flags and by which birds
    # are settled); each bound holds for every line of play or is a strategy of one
    # side, so it holds whatever outcome follows.
    def impl(game, rows, key, fr, d):
        col = fr[d].flg | (key[4] << 7)
        return rows[_LO_ROW + col], rows[_HI_ROW + col]
    return impl


@overload(loop._probe, inline="always")
def _gp_probe(game, ctx, key, fr, d, h, s, allc, closable, flat):
    if not _game_points(game):
        return None

    def impl(game, ctx, key, fr, d, h, s, allc, closable, flat):
        tt_mask, goal = ctx
        k0, k1, k2, slot, openb = key
        ttmove = -1
        hits = 0
        data = -1
        for w in range(slot * TT_COLUMNS, (slot + BUCKET) * TT_COLUMNS, TT_COLUMNS):
            if flat[w] == k0 and flat[w + 1] == k1 and flat[w + 2] == k2:
                data = flat[w + 3]
                break
        if data >= 0:
            hits = 1
            lo, up = _bounds_for(data, goal)
            if closable and (lo >= fr[d].be or up <= fr[d].al or lo == up):
                return True, (lo if lo >= fr[d].be else up), ttmove, hits
            tm = (data >> 24) & 255
            if tm != _NO_MOVE:
                sq = _squeeze_mask(allc, (fr[d].fixd & 6) != 0)
                ttmove = ctz_nb(pdep_nb(_bit(tm), sq))
        # the rank-only entry: bounds of a position with the same rank
        # structure, widened by the point differences
        q0, q1, q2 = _rank_key(h[0], h[1], h[2], fr[d].fixd)
        q2 |= (np.int64(s) << 27) | (fr[d].flg << 29) | KEY_VALID
        w2 = (_hash(q0 ^ _RANK_SALT, q1, q2) & tt_mask) * TT_COLUMNS
        if closable and flat[w2 + 4] == q0 and flat[w2 + 5] == q1 and flat[w2 + 6] == q2:
            ddn, ddu = _point_shift(flat[w2 + 8], allc)
            lo2, up2 = _bounds_for(flat[w2 + 7], goal)
            lo2 -= ddn
            up2 += ddu
            if lo2 >= fr[d].be or up2 <= fr[d].al:
                return True, (lo2 if lo2 >= fr[d].be else up2), ttmove, hits + 1
        fr[d].k0 = k0
        fr[d].k1 = k1
        fr[d].k2 = k2
        fr[d].tslot = slot
        return False, np.int64(0), ttmove, hits
    return impl


@overload(loop._identity, inline="always")
def _gp_identity(game, fr, d, d0, p, h, reserve):
    if not _game_points(game):
        return None

    def impl(game, fr, d, d0, p, h, reserve):
        if p > 0:
            if d > d0:
                fr[d].fixd = fr[d - 1].fixd
            else:
                # the root is inside a trick: the trick's leader tells the trick number
                allc = h[0] | h[1] | h[2]
                for i in range(p):
                    allc |= _bit(fr[i].card)
                tn = 17 - popcount_nb(h[fr[d].lead]) - 1
                fr[d].fixd = _open_birds(allc, tn, game.relevant) | (reserve & allc)
        return fr[d].fixd
    return impl


@overload(loop._pass_on, inline="always")
def _gp_pass_on(game, fr, d, p, c, ws, h, declarer):
    if not _game_points(game):
        return None

    def impl(game, fr, d, p, c, ws, h, declarer):
        if p == 2:
            tno = 16 - popcount_nb(h[fr[d].lead])
            fr[d + 1].flg = _resolve_flags(fr[d].flg, tno, fr[d - 2].card, fr[d - 1].card, c,
                                           fr[d].lead, ws, declarer)
        else:
            fr[d + 1].flg = fr[d].flg
    return impl


@overload(loop._finished, inline="always")
def _gp_finished(game, fr, d, d0, stats):
    if not _game_points(game):
        return None

    def impl(game, fr, d, d0, stats):
        if d == d0:
            stats[ST_BEST] = fr[d].bmove
    return impl


@overload(loop._store, inline="always")
def _gp_store(game, ctx, fr, d, v, fail_low, work, h, flat):
    if not _game_points(game):
        return None

    def impl(game, ctx, fr, d, v, fail_low, work, h, flat):
        tt_mask, goal = ctx
        lo = -INF
        up = INF
        if v <= fr[d].al:
            up = v
        elif v >= fr[d].be:
            lo = v
        else:
            lo = v
            up = v
        allp = h[0] | h[1] | h[2]
        tm = _NO_MOVE
        if fr[d].bmove >= 0 and not fail_low:
            sq = _squeeze_mask(allp, (fr[d].fixd & 6) != 0)
            tm = popcount_nb(sq & (_bit(fr[d].bmove) - 1))
        wk = work
        k0 = fr[d].k0
        k1 = fr[d].k1
        k2 = fr[d].k2
        base = fr[d].tslot * TT_COLUMNS
        target = -1
        glo = goal
        gup = goal
        if lo <= -INF:
            glo = 1023  # "u ≥ -INF" holds for every goal
        if up >= INF:
            gup = 0
        for w in range(base, base + BUCKET * TT_COLUMNS, TT_COLUMNS):
            if flat[w] == k0 and flat[w + 1] == k1 and flat[w + 2] == k2:
                # same position: keep the better bounds of old and new
                old = flat[w + 3]
                lo, glo, up, gup = _merge(old, lo, glo, up, gup)
                if tm == _NO_MOVE:
                    tm = (old >> 24) & 255
                if ((old >> 32) & 255) > wk:
                    wk = (old >> 32) & 255
                target = w
                break
        if target < 0:
            target = _bucket_row(flat, base, TT_COLUMNS, wk, 32)
        flat[target] = k0
        flat[target + 1] = k1
        flat[target + 2] = k2
        flat[target + 3] = _pack(lo, up, tm, wk, glo, gup)
        # the rank-only entry: always the newest (merged with an entry of the same cards)
        q0, q1, q2 = _rank_key(h[0], h[1], h[2], fr[d].fixd)
        q2 |= (np.int64(fr[d].mover) << 27) | (fr[d].flg << 29) | KEY_VALID
        w2 = (_hash(q0 ^ _RANK_SALT, q1, q2) & tt_mask) * TT_COLUMNS
        if flat[w2 + 4] == q0 and flat[w2 + 5] == q1 and flat[w2 + 6] == q2 \
                and flat[w2 + 8] == allp:
            lo, glo, up, gup = _merge(flat[w2 + 7], lo, glo, up, gup)
        flat[w2 + 4] = q0
        flat[w2 + 5] = q1
        flat[w2 + 6] = q2
        flat[w2 + 7] = _pack(lo, up, 0, 0, glo, gup)
        flat[w2 + 8] = allp
    return impl


@njit(cache=True)
def search(hands_in, leader0, tcards, ntc, declarer, reserve, relevant, flags0, goal,
           thresholds, t_lo, t_hi, alpha0, beta0, tt, stats):
    """Fail-soft minimax value of u in window (alpha0, beta0).

    The goal of a test is "the declarer's net ≥ X".  Per final outcome (the flags
    of :mod:`..payoff`: where I/II/III were played and who won their tricks,
    whether the declarer lost a trick) that is "future points ≥ T[flags]", because
    the net is monotone in card points.  So the test is the scalar minimax of
    u = (card points the declarer wins from here on) − T[final flags], and the goal
    is met iff ``points already won since the root + u ≥ 0``.  A node's u does not
    depend on the points taken before it, so table entries serve every path to it.

    ``hands_in``: int64[3]; ``tcards``: int64[3] with the ``ntc`` cards of the
    trick in progress; ``reserve``: the declarer's announced birds (bits 1/2/4)
    under ``bird_reserve``; ``relevant``: the birds (bits 1/2/4) whose
    outcome can change the net (they keep their identity in keys and
    equivalences); ``thresholds``: int64[goals, 128]; ``t_lo``/``t_hi``:
    int64[goals, 1024], the least and most threshold of the final outcomes
    reachable from ``flags | open_birds << 7``
    (:meth:`..payoff.Payoff.threshold_bounds`).  ``stats``: see :mod:`.stats`
    (``stats[ST_BEST]`` gets the root's best card).
    """
    rows = np.empty(_HI_ROW + N_BOUND_COLUMNS, np.int64)
    rows[:_LO_ROW] = thresholds[goal, :_LO_ROW]
    rows[_LO_ROW:_HI_ROW] = t_lo[goal]
    rows[_HI_ROW:] = t_hi[goal]
    return loop.run(hands_in, leader0, tcards, ntc, declarer, reserve, alpha0, beta0, tt, stats,
                    GoalTest(relevant, flags0, goal), rows)


@njit(cache=True, nogil=True)
def test_goal(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal, thresholds,
              t_lo, t_hi, gained, tt, stats):
    """Does the declarer reach goal ``goal`` with ``gained`` points won since the root?"""
    v = search(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal, thresholds,
               t_lo, t_hi, -gained - 1, -gained, tt, stats)
    return v >= -gained


@njit(cache=True, nogil=True)
def test_goal_value(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal,
                    thresholds, t_lo, t_hi, gained, tt, stats):
    """The fail-soft value of the null-window test of :func:`test_goal`.

    The goal is reached iff the result is ≥ ``-gained``; the result is then a
    lower bound on u, otherwise an upper bound (the driver uses the margin to
    settle neighbouring goals without a search).
    """
    return search(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal,
                  thresholds, t_lo, t_hi, -gained - 1, -gained, tt, stats)


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of 2**bits rows (on huge pages where possible)."""
    return table.new_table(bits, TT_COLUMNS)


__all__ = ["INF", "MAX_GOALS", "N_BOUND_COLUMNS", "TT_COLUMNS", "GoalTest", "new_table", "search",
           "test_goal", "test_goal_value"]
