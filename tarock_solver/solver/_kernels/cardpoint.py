"""Numba kernels of the double-dummy solver (plain-array interfaces).

The search is a fail-soft alpha-beta over single card plays, written with an
explicit stack (no self-recursion: ``cache=True`` on a self-recursive
function crashes numba 0.68 when a second process loads the cache, see
SOLVER_NOTES 2).  The declarer maximises, the two defenders minimise; the
value of a node is the declarer's card points from this node on, the trick
in progress included, so transposition-table entries do not depend on the
points already taken.  Exact values come from MTD(f): null-window tests
that share the table.

Pruning, each measured (benchmarks/EXPERIMENTS.md), lives in its own module:
equivalent cards searched once and the table keys (:mod:`.keys`); quick
bounds at every trick start (:mod:`.bounds`: points left; tarocks that beat
everything of the other side; tarock tricks one side must win by counting;
the side on lead cashing its sure winners; the tricks the seat order hands
the declarer; his sure suit winners); move ordering (:mod:`.ordering`: TT
move, sure winners, leads that leave the opponents few replies); the play
rules on card masks (:mod:`.play_kernel`).  This module holds the search, the
table layout and the drivers.

Transposition table: an ``int64`` array of shape (2**bits, TT_COLUMNS) of
64-byte lines, probed and stored at trick starts only.  Without announced
birds every line holds two rank-only entries (see :mod:`.keys`); with
birds, where I/II/III keep their identity, it holds exact
entries ``key0, key1, key2, data`` in buckets of :data:`BUCKET`: the three
hands with the played 1-point cards squeezed out (relative ranks, see
:func:`_exact_key`) with the leader, the declarer and the birds in the top
bits of ``key0``; ``data`` packs a lower bound, an upper bound, the best lead
(normalised) and log2 of the nodes the entry's search took.  The first rows
of a bucket keep the entries that saved the most work, the last takes the
newest.  Keys carry the leader, the declarer and the birds, so a table stays
valid across calls, declarers and birds.
"""


from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...bits import clz_nb, ctz_nb, pdep_nb, popcount_nb
from .bounds import _cash_points, _cash_points_defence, _first_trick, _suit_tops, _trick_bounds
from .keys import (
    REGION_BASE,
    REGION_BASE_FIXED,
    REGION_MASK,
    REGION_MASK_FIXED,
    REGION_UNION,
    REGION_UNION_FIXED,
    _denormalise,
    _drop_equivalent,
    _equal_neighbours,
    _exact_key,
    _hash,
    _last_card_representatives,
    _normalise_card,
    _point_shift,
    _rank_key,
    _representatives,
)
from .ordering import _follow_context, _follow_score, _lead_score
from .play import (
    BIRD_KAKADU,
    BIRD_UHU,
    GRP,
    NOM,
    _beats,
    _bit,
    _follow_mask,
    _legal,
    _nominal_sum,
)
from .stats import (
    NSTATS,
    ST_ABORTED,
    ST_CUT_FIRST,
    ST_LIMIT,
    ST_NODES,
    ST_QB_CUTS,
    ST_TT_CUTS,
    ST_TT_HITS,
)

INF = 1000
#: Smallest hand (cards per player at a trick start) probed and stored in the
#: TT; measured: skipping 2-card positions costs 4% more nodes, 3-card ones 60%.
TT_MIN_CARDS = 2
#: Rows per TT bucket.
BUCKET = 4
MAXPLY = 52
MAXMOVES = 16
KEY_VALID = np.int64(1) << np.int64(62)


#: Words of one TT row (one 64-byte cache line): two rank-only entries or two
#: exact entries (half of a bucket); see :func:`search`.
TT_COLUMNS = 8
#: Words of one rank-only entry: key0, key1, data (lower bound, upper bound, best
#: lead as a rank among the cards in play, log2 of the nodes), cards in play.
RANK_WORDS = 4


#: One stack frame of :func:`search` per card played, as one record: mover,
#: trick position, leader of the trick, winning card/seat before the mover
#: plays, card tried, window, best value and move so far, points won by the
#: trick this move completes, number of moves and index of the next one, store
#: flag, node count at entry, TT row and key (exact k0..k2 or rank-only q0, q1),
#: the equal-neighbour mask of the cards in play (kept for the second card),
#: the ordered moves as packed sort keys.  One record array instead of
#: nineteen arrays: the search loop ran out of registers and kept reloading
#: array pointers (measured: ~6-10% less CPU, session 4).
FRAME = np.dtype([(f, np.int64) for f in (
    "mover", "pos", "lead", "wcard", "wseat", "card", "al", "be", "best", "bmove", "gain",
    "nm", "mi", "store", "nstart", "tslot", "k0", "k1", "k2", "q0", "q1", "eq")]
    + [("mv", np.int64, (MAXMOVES,))])


# ----------------------------------------------------------------- small helpers

@intrinsic
def _prefetch(typingctx, arr, i):
    """Hint the CPU to fetch the cache line of ``arr[i]`` (1-D) or of row ``i`` (2-D)."""
    if not isinstance(arr, types.Array) or arr.ndim not in (1, 2) \
            or not isinstance(i, types.Integer):
        return None
    sig = types.void(arr, i)

    def codegen(context, builder, signature, args):
        aryty, ity = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        j = context.cast(builder, args[1], ity, types.intp)
        index = [j] if aryty.ndim == 1 else [j, context.get_constant(types.intp, 0)]
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, index, wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        # read access, high temporal locality, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


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


@njit(cache=True)
def search(hands, leader, tcards, ntrick, declarer, birds, alpha, beta, tt, stats):
    """Fail-soft alpha-beta value of a position for the window (alpha, beta).

    ``hands``: int64[3] masks (cards already played to the current trick are
    not in them); ``leader``: seat who led the current trick; ``tcards``:
    int64 array whose first ``ntrick`` (0..2) entries are the cards played to
    it; ``declarer``: seat 0..2; ``birds``: announced-bird bits (1 = Pagat,
    2 = Uhu, 4 = Kakadu).  The result v satisfies: v <= alpha -> value <= v;
    v >= beta -> value >= v; otherwise value == v.  ``stats`` counters are
    incremented (see ``ST_*``).
    """
    h = np.empty(3, np.int64)
    h[0] = hands[0]
    h[1] = hands[1]
    h[2] = hands[2]
    # one stack frame per card played (see FRAME)
    fr = np.zeros(MAXPLY, FRAME)

    if birds & (BIRD_UHU | BIRD_KAKADU):
        rbase = REGION_BASE_FIXED
        rmask = REGION_MASK_FIXED
        runion = REGION_UNION_FIXED
    else:
        rbase = REGION_BASE
        rmask = REGION_MASK
        runion = REGION_UNION
    # one flat view of the table (R rows)
    flat = tt.reshape(tt.size)
    # without birds the whole table holds rank-only entries (R lines of two),
    # with birds exact entries (2R of them, buckets of BUCKET on two lines)
    ex_mask = 2 * tt.shape[0] - 1
    use_rank = birds == 0
    rk_mask = tt.shape[0] - 1
    flags = (np.int64(declarer) << 56) | (np.int64(birds) << 58) | KEY_VALID
    def_a = (declarer + 1) % 3
    def_b = (declarer + 2) % 3

    d0 = ntrick
    for i in range(ntrick):
        fr[i].card = tcards[i]
    fr[d0].pos = ntrick
    fr[d0].lead = leader
    fr[d0].mover = (leader + ntrick) % 3
    if ntrick > 0:
        w = tcards[0]
        ws = leader
        for i in range(1, ntrick):
            if _beats(tcards[i], w):
                w = tcards[i]
                ws = (leader + i) % 3
        fr[d0].wcard = w
        fr[d0].wseat = ws
    fr[d0].al = alpha
    fr[d0].be = beta

    # The counters live in locals until the end: a store to ``stats`` may
    # alias the table and the frames, which forced reloads in the loop
    # (measured: 1.4% fewer instructions, session 5).
    n_qb = 0
    n_hit = 0
    n_ttc = 0
    cuts = np.zeros(6, np.int64)
    # the node budget counts every search since the counters were last reset
    capped = stats[ST_LIMIT] > 0
    limit = stats[ST_LIMIT] - stats[ST_NODES]
    nodes = 0
    d = d0
    v = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    while True:
        if state == ENTER:
            nodes += 1
            if capped and nodes > limit:
                stats[ST_ABORTED] = 1
                v = -1
                break
            p = fr[d].pos
            s = fr[d].mover
            fr[d].store = 0
            ttmove = -1
            if p == 0:
                fr[d].nstart = nodes
                n = popcount_nb(h[s])
                if n == 0:
                    v = 0
                    state = RETURN
                    continue
                if n == 1:
                    # last trick: every card is forced
                    c0 = ctz_nb(h[s])
                    c1 = ctz_nb(h[(s + 1) % 3])
                    c2 = ctz_nb(h[(s + 2) % 3])
                    w = c0
                    ws = s
                    if _beats(c1, w):
                        w = c1
                        ws = (s + 1) % 3
                    if _beats(c2, w):
                        ws = (s + 2) % 3
                    v = NOM[c0] + NOM[c1] + NOM[c2] - 2 if ws == declarer else 0
                    state = RETURN
                    continue
                # The key first, so that the TT line is on its way into the
                # cache while the quick bounds are computed.
                allc = h[0] | h[1] | h[2]
                use_tt = n >= TT_MIN_CARDS
                if use_tt:
                    if use_rank:
                        q0, q1 = _rank_key(h[0], h[1], h[2])
                        qk0 = q0 | (np.int64(s) << 54) | flags
                        # the bucket: one cache line of two entries
                        r2 = 2 * RANK_WORDS * (
                            _hash(qk0 ^ np.int64(0x5bd1e995), q1, np.int64(0)) & rk_mask)
                        _prefetch(flat, r2)
                    else:
                        n0, n1, n2 = _exact_key(h[0], h[1], h[2], rmask, runion)
                        k0 = n0 | (np.int64(s) << 54) | flags
                        slot = 4 * (_hash(k0, n1, n2) & ex_mask & ~np.int64(BUCKET - 1))
                        _prefetch(flat, slot)
                        _prefetch(flat, slot + 8)
                # quick bounds before any move generation
                rest = _nominal_sum(allc) - 2 * n
                lbd, lbf = _trick_bounds(h[declarer], h[def_a], h[def_b])
                if s == declarer:
                    cp = _cash_points(h[s], h[def_a], h[def_b], birds)
                    if cp > lbd:
                        lbd = cp
                else:
                    cp = _cash_points_defence(h[s], h[3 - s - declarer], h[declarer])
                    if cp > lbf:
                        lbf = cp
                if lbd >= fr[d].be:
                    v = lbd
                    n_qb += 1
                    state = RETURN
                    continue
                if rest - lbf <= fr[d].al:
                    v = rest - lbf
                    n_qb += 1
                    state = RETURN
                    continue
                # transposition table
                if use_tt:
                    if use_rank:
                        # both entries may hold this rank structure (with other
                        # cards in play): use the tightest shifted bounds
                        blo = -INF
                        bup = INF
                        for r3 in range(r2, r2 + 2 * RANK_WORDS, RANK_WORDS):
                            if flat[r3] == qk0 and flat[r3 + 1] == q1:
                                n_hit += 1
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
                        if blo >= fr[d].be or bup <= fr[d].al or blo == bup:
                            v = blo if blo >= fr[d].be else bup
                            n_ttc += 1
                            state = RETURN
                            continue
                        fr[d].q0 = qk0
                        fr[d].q1 = q1
                        fr[d].tslot = r2
                    else:
                        data = _tt_probe_slot(flat, slot, k0, n1, n2)
                        if data >= 0:
                            n_hit += 1
                            lo = data & 255
                            up = (data >> 8) & 255
                            # lo == up is exact: return it at once (never narrow to alpha == beta)
                            if lo >= fr[d].be or up <= fr[d].al or lo == up:
                                v = lo if lo >= fr[d].be else up
                                n_ttc += 1
                                state = RETURN
                                continue
                            tm = (data >> 16) & 255
                            if tm < 64:
                                ttmove = _denormalise(tm, allc, rbase, rmask)
                        fr[d].k0 = k0
                        fr[d].k1 = n1
                        fr[d].k2 = n2
                        fr[d].tslot = slot
                    fr[d].store = 1
                # the seat-order bound, only where neither the table nor the
                # cheaper bounds closed the node (it costs about as much as
                # _trick_bounds, and most trick starts end in the table)
                zb, zk = _first_trick(h[declarer], h[def_a], h[def_b], s == declarer, birds)
                if zb >= fr[d].be:
                    v = zb
                    n_qb += 1
                    state = RETURN
                    continue
                # the declarer's sure suit winners, when a defender leads (on
                # lead, _cash_points already counts them: measured, no cut there)
                zb = _suit_tops(h[declarer], h[def_a], h[def_b], False, zk) if s != declarer else 0
                if zb >= fr[d].be:
                    v = zb
                    n_qb += 1
                    state = RETURN
                    continue

            # move generation: legal cards, one per equivalence class, ordered
            hand = h[s]
            led = fr[d - p].card if p > 0 else -1
            is_decl = s == declarer
            legal = _follow_mask(hand, led)
            if birds and is_decl:
                # the declarer keeps his announced birds back (trick number needed only here)
                trick_no = 17 - popcount_nb(h[fr[d].lead]) - (1 if p > 0 else 0)
                legal = _legal(hand, led, is_decl, birds, trick_no)
            in_play = h[0] | h[1] | h[2]
            if legal & (legal - 1) == 0:
                # a forced card: no classes to find, nothing to order
                m = legal
                fr[d].eq = 0
            elif p == 2:
                # the last card of a trick: classes may span trick cards
                m = _last_card_representatives(legal, in_play, fr[d].wcard, birds)
            else:
                for i in range(p):
                    in_play |= _bit(fr[d - p + i].card)
                # At the second card the cards in play (hands + the led card)
                # are those of the trick start: reuse its equal-neighbour mask
                # (0: not computed there, or empty: compute it).
                eq = fr[d - 1].eq if p == 1 and d > d0 else 0
                if eq == 0:
                    eq = _equal_neighbours(in_play, birds)
                fr[d].eq = eq
                m = _drop_equivalent(legal, in_play, eq)
            # Per-node parts of the follow scores, once instead of once per card
            # (the next player's legal cards, the opponents' top tarock).
            # Measured with the lead-score grouping below: ~10% less CPU.
            lt = 0
            partner_next = False
            ohi = -1
            if p > 0 and m & (m - 1) != 0:
                lt, partner_next, ohi = _follow_context(h, s, p, led, is_decl, declarer)
            cnt = 0
            lastg = -1
            f1 = 0
            f2 = 0
            if m & (m - 1) == 0:
                # one move: nothing to order
                fr[d].mv[0] = 63 - ctz_nb(m)
                cnt = 1
                m = 0
            while m:
                c = ctz_nb(m)
                m &= m - 1
                if c == ttmove:
                    sc = np.int64(1) << 40
                elif p == 0:
                    # the replies depend on the led group only (moves come in card order)
                    if GRP[c] != lastg:
                        lastg = GRP[c]
                        f1 = _follow_mask(h[(s + 1) % 3], c)
                        f2 = _follow_mask(h[(s + 2) % 3], c)
                    sc = _lead_score(s, c, declarer, f1, f2)
                else:
                    sc = _follow_score(c, p, is_decl, fr[d].wcard, fr[d].wseat, declarer, lt,
                                           partner_next, ohi, h[declarer])
                # One packed sort key per move, the score above 63 - card: the
                # descending insertion sort moves one word a step and orders
                # equal scores by card, as the stable sort on scores did.
                key = (sc << 6) | (63 - c)
                j = cnt
                while j > 0 and fr[d].mv[j - 1] < key:
                    fr[d].mv[j] = fr[d].mv[j - 1]
                    j -= 1
                fr[d].mv[j] = key
                cnt += 1
            fr[d].nm = cnt
            fr[d].mi = 0
            fr[d].best = -INF if is_decl else INF
            fr[d].bmove = -1
            # straight on to the first move (no trip round the loop)
            state = NEXT

        if state == NEXT:
            if fr[d].mi < fr[d].nm:
                c = 63 - (fr[d].mv[fr[d].mi] & 63)
                fr[d].mi += 1
                s = fr[d].mover
                p = fr[d].pos
                h[s] ^= _bit(c)
                fr[d].card = c
                if p == 0:
                    w = c
                    ws = s
                elif _beats(c, fr[d].wcard):
                    w = c
                    ws = s
                else:
                    w = fr[d].wcard
                    ws = fr[d].wseat
                if p == 2:
                    g = 0
                    if ws == declarer:
                        g = NOM[fr[d - 2].card] + NOM[fr[d - 1].card] + NOM[c] - 2
                    fr[d + 1].pos = 0
                    fr[d + 1].lead = ws
                    fr[d + 1].mover = ws
                else:
                    g = 0
                    fr[d + 1].pos = p + 1
                    fr[d + 1].lead = fr[d].lead
                    fr[d + 1].mover = (s + 1) % 3
                    fr[d + 1].wcard = w
                    fr[d + 1].wseat = ws
                fr[d].gain = g
                # the child's window, shifted by the points this move banks
                if s == declarer:
                    a = fr[d].al if fr[d].al > fr[d].best else fr[d].best
                    b = fr[d].be
                else:
                    a = fr[d].al
                    b = fr[d].be if fr[d].be < fr[d].best else fr[d].best
                fr[d + 1].al = a - g
                fr[d + 1].be = b - g
                d += 1
                state = ENTER
                continue
            v = fr[d].best
            # all moves searched: fall through to the store below
        else:
            # RETURN: v is the value of node d; hand it to the parent
            if d == d0:
                break
            d -= 1
            s = fr[d].mover
            h[s] ^= _bit(fr[d].card)
            v += fr[d].gain
            if s == declarer:
                if v > fr[d].best:
                    fr[d].best = v
                    fr[d].bmove = fr[d].card
                cut = fr[d].best >= fr[d].be
            else:
                if v < fr[d].best:
                    fr[d].best = v
                    fr[d].bmove = fr[d].card
                cut = fr[d].best <= fr[d].al
            # no cut: the next move, or (all searched, e.g. a forced card)
            # straight on to the store without a trip through NEXT
            if not cut and fr[d].mi < fr[d].nm:
                state = NEXT
                continue
            v = fr[d].best
            if cut:
                cuts[fr[d].pos + (3 if fr[d].mi > 1 else 0)] += 1

        # node d is finished with value v: store its bounds at trick starts
        state = RETURN
        if fr[d].store:
            lo = 0
            up = 255
            if v <= fr[d].al:
                up = v
            elif v >= fr[d].be:
                lo = v
            else:
                lo = v
                up = v
            # a fail-low node has no best move worth remembering
            fail_low = v <= fr[d].al if fr[d].mover == declarer else v >= fr[d].be
            # replacement priority: the work this entry saves (log2 of nodes)
            n = 64 - clz_nb(np.int64(nodes - fr[d].nstart) | 1)
            allp = h[0] | h[1] | h[2]
            if use_rank:
                qk0 = fr[d].q0
                q1 = fr[d].q1
                r2 = fr[d].tslot
                tm2 = 255
                if fr[d].bmove >= 0 and not fail_low:
                    tm2 = popcount_nb(allp & (_bit(fr[d].bmove) - 1))
                target = -1
                for r3 in range(r2, r2 + 2 * RANK_WORDS, RANK_WORDS):
                    if flat[r3] == qk0 and flat[r3 + 1] == q1 and flat[r3 + 3] == allp:
                        lo, up, tm2, n = _merge_data(flat[r3 + 2], lo, up, tm2, n)
                        target = r3
                        break
                if target < 0:
                    # the first entry keeps the costlier search, the second
                    # takes the newcomer (or the entry the newcomer displaces)
                    target = r2 + RANK_WORDS
                    if flat[r2] == 0 or n >= (flat[r2 + 2] >> 24) & 255:
                        for j in range(RANK_WORDS):
                            flat[r2 + RANK_WORDS + j] = flat[r2 + j]
                        target = r2
                flat[target] = qk0
                flat[target + 1] = q1
                flat[target + 2] = lo | (up << 8) | (tm2 << 16) | (n << 24)
                flat[target + 3] = allp
            else:
                tm = 255
                if fr[d].bmove >= 0 and not fail_low:
                    tm = _normalise_card(fr[d].bmove, allp, rbase, rmask)
                k0 = fr[d].k0
                k1 = fr[d].k1
                k2 = fr[d].k2
                slot = fr[d].tslot
                target = -1
                for w in range(slot, slot + 4 * BUCKET, 4):
                    if flat[w] == k0 and flat[w + 1] == k1 and flat[w + 2] == k2:
                        lo, up, tm, n = _merge_data(flat[w + 3], lo, up, tm, n)
                        target = w
                        break
                if target < 0:
                    # The first entries keep the ones that save the most work; the
                    # last always takes the newcomer (or the entry it evicts).
                    low = 1 << 30
                    last = slot + 4 * (BUCKET - 1)
                    for w in range(slot, last, 4):
                        cost = -1 if flat[w] == 0 else (flat[w + 3] >> 24) & 255
                        if cost < low:
                            low = cost
                            target = w
                    if n >= low:
                        flat[last] = flat[target]
                        flat[last + 1] = flat[target + 1]
                        flat[last + 2] = flat[target + 2]
                        flat[last + 3] = flat[target + 3]
                    else:
                        target = last
                flat[target] = k0
                flat[target + 1] = k1
                flat[target + 2] = k2
                flat[target + 3] = lo | (up << 8) | (tm << 16) | (n << 24)

    stats[ST_NODES] += nodes
    stats[ST_QB_CUTS] += n_qb
    stats[ST_TT_HITS] += n_hit
    stats[ST_TT_CUTS] += n_ttc
    for i in range(6):
        stats[ST_CUT_FIRST + i] += cuts[i]
    return v


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
def solve_exact(hands, leader, tcards, ntrick, declarer, birds, tt, stats):
    """Exact value by MTD(f): null-window tests that share the TT."""
    return solve_exact_from(hands, leader, tcards, ntrick, declarer, birds, -1, tt, stats)


@njit(cache=True)
def solve_exact_from(hands, leader, tcards, ntrick, declarer, birds, guess, tt, stats):
    """MTD(f) starting at ``guess`` (< 0: the middle of the possible range).

    Each step is a null-window test at the current guess; a fail-soft
    result moves the guess past the bound it proved.  The tests far from
    the value are cheap, the ones at and just above it are the real work.
    """
    lower = 0
    upper = remaining_points(hands, ntrick, tcards)
    g = guess if 0 <= guess <= upper else (lower + upper) // 2
    while lower < upper:
        b = g if g > lower else lower + 1
        g = search(hands, leader, tcards, ntrick, declarer, birds, b - 1, b, tt, stats)
        if stats[ST_ABORTED]:
            return -1
        if g < b:
            upper = g
        else:
            lower = g
    return lower


@njit(cache=True)
def solve_window(hands, leader, tcards, ntrick, declarer, birds, tt, stats):
    """Exact value by one full-window alpha-beta search."""
    upper = remaining_points(hands, ntrick, tcards)
    return search(hands, leader, tcards, ntrick, declarer, birds, -1, upper + 1, tt, stats)


@njit(cache=True)
def solve_target(hands, leader, tcards, ntrick, declarer, birds, target, tt, stats):
    """Does the declarer take at least ``target`` points?  One null-window test."""
    return search(hands, leader, tcards, ntrick, declarer, birds, target - 1, target, tt,
                  stats) >= target


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


@njit(cache=True)
def card_values(hands, leader, tcards, ntrick, declarer, birds, tt, stats, out):
    """Exact value of every legal card of the player to move into ``out`` (int64[54]).

    Illegal cards get -1.  One card of each equivalence class is searched; the
    others are given its value.
    """
    legal, reps = legal_cards(hands, leader, tcards, ntrick, declarer, birds)
    s = (leader + ntrick) % 3
    child = np.empty(3, np.int64)
    ctc = np.zeros(3, np.int64)
    for c in range(54):
        out[c] = -1
    prev = -1
    guess = -1
    if stats[ST_ABORTED]:
        return
    m = legal
    while m:
        c = ctz_nb(m)
        m &= m - 1
        if not (reps >> c) & 1:
            out[c] = out[prev]
            prev = c
            continue
        prev = c
        child[0] = hands[0]
        child[1] = hands[1]
        child[2] = hands[2]
        child[s] ^= _bit(c)
        for i in range(ntrick):
            ctc[i] = tcards[i]
        ctc[ntrick] = c
        if ntrick == 2:
            w = ctc[0]
            ws = leader
            for i in range(1, 3):
                if _beats(ctc[i], w):
                    w = ctc[i]
                    ws = (leader + i) % 3
            g = NOM[ctc[0]] + NOM[ctc[1]] + NOM[ctc[2]] - 2 if ws == declarer else 0
            out[c] = g + solve_exact_from(child, ws, ctc, 0, declarer, birds, guess - g, tt,
                                          stats)
        else:
            out[c] = solve_exact_from(child, leader, ctc, ntrick + 1, declarer, birds, guess, tt,
                                      stats)
        # the next card's value is usually close: start its search there
        guess = out[c]
        if stats[ST_ABORTED]:
            return


@njit(cache=True, parallel=True)
def solve_batch(hands, leaders, tcards, ntricks, declarers, birds, targets, tt_bits, nchunks,
                out, nodes):
    """Solve many independent positions in parallel, one TT per chunk.

    Position i goes to chunk ``i % nchunks``; each chunk runs on one thread
    with its own table, shared by all its positions.  ``targets[i] < 0`` asks
    for the exact value, otherwise ``out[i]`` is 1 if the declarer takes at
    least ``targets[i]`` points and 0 if not.  ``nodes[i]`` gets the nodes
    searched for position i.
    """
    n = hands.shape[0]
    for k in prange(nchunks):
        tt = np.zeros((np.int64(1) << tt_bits, TT_COLUMNS), np.int64)
        st = np.zeros(NSTATS, np.int64)
        for i in range(k, n, nchunks):
            before = st[ST_NODES]
            if targets[i] < 0:
                out[i] = solve_exact(hands[i], leaders[i], tcards[i], ntricks[i], declarers[i],
                                     birds[i], tt, st)
            else:
                ok = solve_target(hands[i], leaders[i], tcards[i], ntricks[i], declarers[i],
                                  birds[i], targets[i], tt, st)
                out[i] = 1 if ok else 0
            nodes[i] = st[ST_NODES] - before

