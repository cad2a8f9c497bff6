"""The search loop of both solvers, written once: fail-soft alpha-beta over single card plays.

:func:`run` walks the tree for the card-point search (:mod:`.cardpoint`) and the
game-point test (:mod:`.gamepoint`) alike: stack frames, trick bookkeeping, quick bounds
(:mod:`.bounds`), equivalent cards (:mod:`.keys`), move ordering (:mod:`.ordering`),
budgets and counters.  What differs by objective is a set of hooks (the stubs below).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...bits import clz_nb, ctz_nb, popcount_nb
from .bounds import _cash_points, _cash_points_defence, _first_trick, _suit_tops, _trick_bounds
from .clock import cycles
from .keys import _drop_equivalent, _equal_neighbours, _last_card_representatives
from .ordering import _follow_context, _follow_score, _lead_score
from .play import GRP, NOM, _beats, _bit, _follow_mask, _legal, _nominal_sum
from .stats import (
    ST_ABORTED,
    ST_CUT_FIRST,
    ST_DEADLINE,
    ST_LIMIT,
    ST_NODES,
    ST_QB_CUTS,
    ST_TT_CUTS,
    ST_TT_HITS,
)

MAXPLY = 52
MAXMOVES = 16
#: Smallest hand (cards per player at a trick start) probed and stored in the
#: table; measured: skipping 2-card positions costs 4% more nodes, 3-card ones 60%.
TT_MIN_CARDS = 2
#: Rows per bucket of the exact-key tables.
BUCKET = 4
#: Set in every stored key word that carries it, so that no key is 0 (an empty row).
KEY_VALID = np.int64(1) << np.int64(62)
#: Nodes between two readings of the clock when a seconds budget is set.
CLOCK_EVERY = 4096
_NO_LIMIT = np.int64(1) << np.int64(62)
#: The best value of a node before its first move returns (beyond every value).
_UNSEEN = 1 << 30

#: One stack frame per card played, as one record: mover, trick position,
#: leader of the trick, winning card/seat before the mover plays, card tried,
#: window, best value and move so far, points won by the trick this move
#: completes, number of moves and index of the next one, store flag, node count
#: at entry, the table row and key of the objective, the game-point outcome
#: flags and birds that keep their identity, the equal-neighbour mask of the
#: cards in play (kept for the second card), the ordered moves as packed sort
#: keys.  One record array instead of one array per field: the loop ran out of
#: registers and kept reloading array pointers (measured: ~6-10% less CPU).
FRAME = np.dtype([(f, np.int64) for f in (
    "mover", "pos", "lead", "wcard", "wseat", "card", "al", "be", "best", "bmove", "gain",
    "nm", "mi", "store", "nstart", "tslot", "k0", "k1", "k2", "flg", "fixd", "eq")]
    + [("mv", np.int64, (MAXMOVES,))])


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
def _bucket_row(flat, base, stride, work, shift):
    """The row (its first word) of the exact-key bucket at word ``base`` that takes a
    new entry of ``work`` (log2 of its nodes): the bucket's :data:`BUCKET` rows are
    ``stride`` words apart and keep the work of an entry in bits ``shift``.. of its
    fourth word.  The first rows keep the entries that save the most work; the last
    always takes the newcomer, or the entry the newcomer evicts (moved there)."""
    low = 1 << 30
    target = -1
    last = base + (BUCKET - 1) * stride
    for w in range(base, last, stride):
        cost = -1 if flat[w] == 0 else (flat[w + 3] >> shift) & 255
        if cost < low:
            low = cost
            target = w
    if work < low:
        return last
    flat[last] = flat[target]
    flat[last + 1] = flat[target + 1]
    flat[last + 2] = flat[target + 2]
    flat[last + 3] = flat[target + 3]
    return target


# ----------------------------------------------------------------- the hooks
# Stubs: each objective module registers an overload of every one of them for
# the type of its ``game`` argument (``None``: card points; a
# :class:`.gamepoint.GoalTest`: game points), with ``numba.extending.overload``.
# numba picks the implementation while it types the loop and inlines it, so each
# objective gets its own compiled loop with no run-time dispatch, and a pruning
# idea added to the loop reaches both.  ``ctx`` is the objective's per-search
# context (from :func:`_context`), ``rows`` its threshold rows (see :func:`run`), ``key`` its trick-start key (from
# :func:`_trick_start`), ``flat`` the table as one flat int64 view.

def _context(game, declarer, reserve, tt):
    """Per-search constants of the objective's table (a tuple of integers)."""


def _begin(game, fr, d0, stats):
    """Objective state of the root frame ``d0`` before the search."""


def _aborted(game):
    """The (meaningless) value a search returns when it gives up."""


def _closable(game, d, d0):
    """May node ``d`` be closed by a bound or the table, without searching its moves?"""


def _leaf(game, rows, fr, d):
    """Value of the trick start ``d`` with no cards left."""


def _last_trick(game, rows, fr, d, c0, c1, c2, s, ws, declarer):
    """What the objective subtracts from the points of the last trick (``s`` leads, ``ws`` wins)."""


def _trick_start(game, ctx, fr, d, h, s, n, allc, reserve, flat):
    """The table key of trick start ``d`` (its row prefetched), and its objective state."""


def _thresholds(game, rows, key, fr, d):
    """(least, most) threshold the quick bounds at trick start ``d`` are compared with."""


def _probe(game, ctx, key, fr, d, h, s, allc, closable, flat):
    """Table probe of trick start ``d``: (closed, value, table move or -1, hits).

    When the node is not closed, the key is kept in the frame for :func:`_store`."""


def _identity(game, fr, d, d0, p, h, reserve):
    """The birds (bits 1/2/4) that keep their identity in the equivalences at node ``d``."""


def _pass_on(game, fr, d, p, c, ws, h, declarer):
    """Objective state of child ``d + 1`` after card ``c`` (``ws``: the trick's winner so far)."""


def _finished(game, fr, d, d0, stats):
    """Node ``d`` is finished (the root: ``d == d0``)."""


def _store(game, ctx, fr, d, v, fail_low, work, h, flat):
    """Store the bounds value ``v`` proves for trick start ``d`` (``work``: log2 of its nodes)."""


# ----------------------------------------------------------------- the loop

# run is inlined into each objective's ``search``, which is cached (``cache=True``)
# in the objective's module.  numba's cache looks at the cached function's own file
# only: after editing this module (as after editing .keys or .bounds), remove the
# ``__pycache__/*.nbi`` files.  The stack is explicit because ``cache=True`` on a
# self-recursive function crashes numba when a second process loads the cache.
@njit(cache=True, inline="always")
def run(hands, leader, tcards, ntrick, declarer, reserve, alpha, beta, tt, stats, game, rows):
    """Fail-soft alpha-beta value of a position for the window (alpha, beta).

    ``hands``: int64[3] masks (cards already played to the current trick are not in
    them); ``leader``: seat who led the current trick; ``tcards``: int64 array whose
    first ``ntrick`` (0..2) entries are the cards played to it; ``declarer``: seat
    0..2; ``reserve``: the declarer's announced birds (bits 1/2/4), which he keeps
    back; ``tt``: the objective's table; ``game``: the objective (its type selects
    the hooks), plain integers only; ``rows``: the objective's threshold rows, one
    int64 array (arrays inside ``game`` would be reference-counted at every hook
    call).  The declarer maximises.  The result v satisfies: v <= alpha ->
    value <= v; v >= beta -> value >= v; otherwise value == v.  ``stats`` counters are
    incremented and its budgets obeyed (see :mod:`.stats`).
    """
    h = np.empty(3, np.int64)
    h[0] = hands[0]
    h[1] = hands[1]
    h[2] = hands[2]
    # one stack frame per card played (see FRAME)
    fr = np.zeros(MAXPLY, FRAME)
    flat = tt.reshape(tt.size)
    ctx = _context(game, declarer, reserve, tt)
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
    _begin(game, fr, d0, stats)

    # The counters live in locals until the end: a store to ``stats`` may
    # alias the table and the frames, which forced reloads in the loop
    # (measured: 1.4% fewer instructions).
    n_qb = 0
    n_hit = 0
    n_ttc = 0
    cuts = np.zeros(6, np.int64)
    # The node budget counts every search since the counters were last reset.
    # A seconds budget lowers the local limit to the next reading of the clock,
    # so both cost one comparison per node.
    budget = stats[ST_LIMIT] - stats[ST_NODES] if stats[ST_LIMIT] > 0 else _NO_LIMIT
    deadline = stats[ST_DEADLINE]
    limit = budget
    if deadline > 0 and budget > CLOCK_EVERY:
        limit = CLOCK_EVERY
    nodes = 0
    d = d0
    v = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    while True:
        if state == ENTER:
            nodes += 1
            if nodes > limit:
                # below the node budget only when the clock is due
                # the deadline is read again: another thread may move it to now
                # (ExactSolver.abort), and this check runs once per CLOCK_EVERY nodes
                if nodes > budget or cycles() > stats[ST_DEADLINE]:
                    stats[ST_ABORTED] = 1
                    v = _aborted(game)
                    break
                limit = nodes + CLOCK_EVERY if budget - nodes > CLOCK_EVERY else budget
            p = fr[d].pos
            s = fr[d].mover
            fr[d].store = 0
            ttmove = -1
            closable = _closable(game, d, d0)
            if p == 0:
                fr[d].nstart = nodes
                n = popcount_nb(h[s])
                if n == 0:
                    v = _leaf(game, rows, fr, d)
                    state = RETURN
                    continue
                if n == 1 and closable:
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
                    v -= _last_trick(game, rows, fr, d, c0, c1, c2, s, ws, declarer)
                    state = RETURN
                    continue
                # The key first, so that the table row is on its way into the
                # cache while the quick bounds are computed.
                allc = h[0] | h[1] | h[2]
                key = _trick_start(game, ctx, fr, d, h, s, n, allc, reserve, flat)
                t_lo, t_hi = _thresholds(game, rows, key, fr, d)
                if closable:
                    # quick bounds before any move generation
                    rest = _nominal_sum(allc) - 2 * n
                    lbd, lbf = _trick_bounds(h[declarer], h[def_a], h[def_b])
                    if s == declarer:
                        cp = _cash_points(h[s], h[def_a], h[def_b], reserve)
                        if cp > lbd:
                            lbd = cp
                    else:
                        cp = _cash_points_defence(h[s], h[3 - s - declarer], h[declarer])
                        if cp > lbf:
                            lbf = cp
                    if lbd - t_hi >= fr[d].be:
                        v = lbd - t_hi
                        n_qb += 1
                        state = RETURN
                        continue
                    if rest - lbf - t_lo <= fr[d].al:
                        v = rest - lbf - t_lo
                        n_qb += 1
                        state = RETURN
                        continue
                if n >= TT_MIN_CARDS:
                    closed, v, ttmove, hits = _probe(game, ctx, key, fr, d, h, s, allc, closable,
                                                     flat)
                    n_hit += hits
                    if closed:
                        n_ttc += 1
                        state = RETURN
                        continue
                    fr[d].store = 1
                if closable:
                    # the seat-order bound, only where neither the table nor the
                    # cheaper bounds closed the node (it costs about as much as
                    # _trick_bounds, and most trick starts end in the table)
                    zb, zk = _first_trick(h[declarer], h[def_a], h[def_b], s == declarer,
                                          reserve)
                    if zb - t_hi >= fr[d].be:
                        v = zb - t_hi
                        n_qb += 1
                        state = RETURN
                        continue
                    # the declarer's sure suit winners, when a defender leads (on
                    # lead, _cash_points already counts them: measured, no cut there)
                    if s != declarer:
                        zb = _suit_tops(h[declarer], h[def_a], h[def_b], False, zk)
                        if zb - t_hi >= fr[d].be:
                            v = zb - t_hi
                            n_qb += 1
                            state = RETURN
                            continue

            # move generation: legal cards, one per equivalence class, ordered
            hand = h[s]
            led = fr[d - p].card if p > 0 else -1
            is_decl = s == declarer
            legal = _follow_mask(hand, led)
            if reserve and is_decl:
                # the declarer keeps his announced birds back (trick number needed only here)
                trick_no = 17 - popcount_nb(h[fr[d].lead]) - (1 if p > 0 else 0)
                legal = _legal(hand, led, is_decl, reserve, trick_no)
            keep = _identity(game, fr, d, d0, p, h, reserve)
            in_play = h[0] | h[1] | h[2]
            if legal & (legal - 1) == 0:
                # a forced card: no classes to find, nothing to order
                m = legal
                fr[d].eq = 0
            elif p == 2:
                # the last card of a trick: classes may span trick cards (the
                # objective's flags stay the same, as the birds that matter keep
                # their identity)
                m = _last_card_representatives(legal, in_play, fr[d].wcard, keep)
            else:
                for i in range(p):
                    in_play |= _bit(fr[d - p + i].card)
                # At the second card the cards in play (hands + the led card)
                # are those of the trick start: reuse its equal-neighbour mask
                # (0: not computed there, or empty: compute it).
                eq = fr[d - 1].eq if p == 1 and d > d0 else 0
                if eq == 0:
                    eq = _equal_neighbours(in_play, keep)
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
            # The moves array as a variable that stays live: numba's dead-code
            # pass after inlining the hooks drops stores into a nested record
            # array reached through a temporary (it does not see the alias).
            mv = fr[d].mv
            if m & (m - 1) == 0:
                # one move: nothing to order
                mv[0] = 63 - ctz_nb(m)
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
                # equal scores by card, as a stable sort on scores would.
                sk = (sc << 6) | (63 - c)
                j = cnt
                while j > 0 and mv[j - 1] < sk:
                    mv[j] = mv[j - 1]
                    j -= 1
                mv[j] = sk
                cnt += 1
            fr[d].nm = cnt
            fr[d].mi = 0
            fr[d].best = -_UNSEEN if is_decl else _UNSEEN
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
                _pass_on(game, fr, d, p, c, ws, h, declarer)
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
        _finished(game, fr, d, d0, stats)
        if fr[d].store:
            # a fail-low node has no best move worth remembering
            fail_low = v <= fr[d].al if fr[d].mover == declarer else v >= fr[d].be
            # replacement priority: the work this entry saves (log2 of nodes)
            work = 64 - clz_nb(np.int64(nodes - fr[d].nstart) | 1)
            _store(game, ctx, fr, d, v, fail_low, work, h, flat)

    stats[ST_NODES] += nodes
    stats[ST_QB_CUTS] += n_qb
    stats[ST_TT_HITS] += n_hit
    stats[ST_TT_CUTS] += n_ttc
    for i in range(6):
        stats[ST_CUT_FIRST + i] += cuts[i]
    return v
