"""Numba kernels of the double-dummy solver (plain-array interfaces).

The search is a fail-soft alpha-beta over single card plays, written with an
explicit stack (no self-recursion: ``cache=True`` on a self-recursive
function crashes numba 0.68 when a second process loads the cache, see
SOLVER_NOTES 2).  The declarer maximises, the two defenders minimise; the
value of a node is the declarer's card points from this node on, the trick
in progress included, so transposition-table entries do not depend on the
points already taken.  Exact values come from MTD(f): null-window tests
that share the table.

Pruning, each measured on random positions (see benchmarks/solver_probe.py):
equivalent cards searched once; quick bounds at every trick start (points
left; tarocks that beat everything of the other side; tarock tricks one side
must win by counting; the side on lead cashing its sure winners; the tricks
the seat order hands the declarer, :func:`_first_trick`; his sure suit
winners, :func:`_suit_tops`); move
ordering (TT move, sure winners, leads that leave the opponents few
replies); relative-rank TT keys; a rank-only second table whose bounds are
shifted by point differences (benchmarks/EXPERIMENTS.md).

Card masks are ``int64`` inside the kernels: 54 bits fit, and signed
arithmetic avoids numba's uint64/int64 promotion to float.

Transposition table: an ``int64`` array of shape (2**bits, TT_COLUMNS) of
64-byte lines, probed and stored at trick starts only.  Without announced
birds every line holds two rank-only entries (see ``QS_MASK`` below); with
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

from ..bits import clz_nb, ctz_nb, pdep_nb, pext_nb, popcount_nb
from ..cards import GROUP_MASKS, GROUP_OF, NOMINAL

# ----------------------------------------------------------------- constants

NOM = NOMINAL.astype(np.int64)
GRP = GROUP_OF.astype(np.int64)
#: Mask of each card's group, by card index.
CGM = np.array([GROUP_MASKS[g] for g in GROUP_OF], dtype=np.int64)
TAROCKS = np.int64(GROUP_MASKS[0])
ALL_CARDS = np.int64((1 << 54) - 1)
#: Group masks by group number (entry 0, the tarocks, unused by suit loops).
SUIT_GROUPS = np.array(GROUP_MASKS, dtype=np.int64)


def _value_mask(at_least: int) -> int:
    return sum(1 << i for i in range(54) if int(NOMINAL[i]) >= at_least)


# A card's nominal value is 1 + [v>=2] + [v>=3] + [v>=4] + [v>=5]; summing
# popcounts of these masks gives the nominal sum of any set in five popcounts.
V2 = np.int64(_value_mask(2))
V3 = np.int64(_value_mask(3))
V4 = np.int64(_value_mask(4))
V5 = np.int64(_value_mask(5))

#: Bird bits (I, II, III) of the ``birds`` argument: the declarer's announced birds.
BIRD_PAGAT, BIRD_UHU, BIRD_KAKADU = 1, 2, 4

INF = 1000
#: Smallest hand (cards per player at a trick start) probed and stored in the
#: TT; measured: skipping 2-card positions costs 4% more nodes, 3-card ones 60%.
TT_MIN_CARDS = 2
#: Rows per TT bucket.
BUCKET = 4
MAXPLY = 52
MAXMOVES = 16
KEY_VALID = np.int64(1) << np.int64(62)

# Stats slots (``stats`` is an int64 array of at least NSTATS entries).
ST_NODES, ST_TT_HITS, ST_TT_CUTS, ST_QB_CUTS = 0, 1, 2, 3
#: ``stats[ST_LIMIT] > 0`` caps the nodes of one search; an over-budget search
#: sets ``stats[ST_ABORTED] = 1``, stores nothing and returns -1.
ST_LIMIT, ST_ABORTED = 6, 7
#: cut-offs at trick positions 0, 1, 2 by the first move (8..10) and by later moves (11..13)
ST_CUT_FIRST = 8
NSTATS = 16

# Relative-rank normalisation: inside these ranges all cards are worth 1 point,
# so only their order among the cards still in play matters.  Tarocks II..XX
# (bits 1..19; bits 3..19 when Uhu or Kakadu is reserved, because then II and
# III keep their identity) and the four pips of every suit.
_SUIT_PIPS = [(22, 4), (30, 4), (38, 4), (46, 4)]
REGION_BASE = np.array([1, 22, 30, 38, 46], dtype=np.int64)
REGION_BASE_FIXED = np.array([3, 22, 30, 38, 46], dtype=np.int64)
REGION_MASK = np.array([((1 << 19) - 1) << 1] + [((1 << n) - 1) << b for b, n in _SUIT_PIPS],
                       dtype=np.int64)
REGION_MASK_FIXED = np.array([((1 << 17) - 1) << 3] + [((1 << n) - 1) << b for b, n in _SUIT_PIPS],
                             dtype=np.int64)
#: All region cards together (the cards whose identity the keys squeeze out).
REGION_UNION = np.int64(sum(int(x) for x in REGION_MASK))
REGION_UNION_FIXED = np.int64(sum(int(x) for x in REGION_MASK_FIXED))


# Rank-only keys: the hands renumbered by rank inside each whole group, point
# values ignored.  Two positions with the same rank-only key have the same legal
# moves and trick winners under every line of play, so their values differ at
# most by the value differences of rank-matched cards; a stored [lo, up] is
# widened by those (``_point_shift``) before it is used.  Off when birds are
# announced (I/II/III keep their identity there).  Measured: 3.75x fewer nodes
# at 12-13 tricks, 9.4x on full deals (benchmarks/EXPERIMENTS.md, idea 5b).  Two
# entries share a cache line (a 2-way bucket: the first keeps the costlier
# search, the second takes the newcomer); entries of one rank structure with
# different cards in play live side by side and a probe uses the tighter of
# their shifted bounds, so an exact repeat (same cards in play) is found there
# too, with shift 0; the best lead is kept as a rank among the cards in play.
# Session 3 dropped the exact-key table beside it for searches without birds:
# +0.6-2% nodes, but one cache line a probe instead of three and the whole
# table for rank-only entries: 15% less CPU (EXPERIMENTS.md, session 3).
QS_MASK = np.array(list(GROUP_MASKS), dtype=np.int64)
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
def _bit(c):
    return np.int64(1) << c


@njit(cache=True, inline="always")
def _high(m):
    """Index of the highest set bit of a non-zero mask."""
    return 63 - clz_nb(m)


@njit(cache=True, inline="always")
def _nominal_sum(m):
    return (popcount_nb(m) + popcount_nb(m & V2) + popcount_nb(m & V3)
            + popcount_nb(m & V4) + popcount_nb(m & V5))


@njit(cache=True, inline="always")
def _beats(c, w):
    """Does card ``c`` beat ``w``, the card winning the trick so far?"""
    if c < 22:
        return w >= 22 or c > w
    return GRP[c] == GRP[w] and c > w


@njit(cache=True, inline="always")
def _above(c):
    """Mask of the cards of c's group that rank above c."""
    return CGM[c] & ~((np.int64(2) << c) - 1)


@njit(cache=True, inline="always")
def _follow_mask(hand, led):
    """Legal cards of ``hand`` when ``led`` was led (-1: leading)."""
    if led < 0:
        return hand
    f = hand & CGM[led]
    if f:
        return f
    t = hand & TAROCKS
    if t:
        return t
    return hand


@njit(cache=True, inline="always")
def _reserved(birds, trick_no):
    """Announced birds the declarer must keep back in trick ``trick_no``."""
    r = birds
    if trick_no == 16:
        r &= ~BIRD_PAGAT
    elif trick_no == 15:
        r &= ~BIRD_UHU
    elif trick_no == 14:
        r &= ~BIRD_KAKADU
    return r


@njit(cache=True, inline="always")
def _legal(hand, led, is_declarer, birds, trick_no):
    legal = _follow_mask(hand, led)
    if is_declarer and birds:
        kept = legal & ~_reserved(birds, trick_no)
        if kept:
            return kept
    return legal


@njit(cache=True, inline="always")
def _defence_sure_points(h_decl, td, ta, tb):
    """The defenders' half of :func:`_sure_points` (``td``/``ta``/``tb``: the
    three hands' tarocks; at least one defender holds one): their tarocks
    above all of the declarer's win.  K >= max(na, nb) tricks hold them, each
    with one declarer card and 2K - na - nb other defender cards: at least
    the declarer's K cheapest."""
    sa = ta
    sb = tb
    if td:
        above = ~((np.int64(2) << _high(td)) - 1)
        sa &= above
        sb &= above
    na = popcount_nb(sa)
    nb = popcount_nb(sb)
    kmax = na if na > nb else nb
    return _nominal_sum(sa) + _nominal_sum(sb) + _cheapest(h_decl, kmax) - na - nb


@njit(cache=True, inline="always")
def _sure_points(h_decl, h_a, h_b):
    """Card points each side is sure to win with its unbeatable tarocks.

    A tarock above every tarock of the other side wins, for its side, the
    trick it is played to, and that trick is worth at least the card's
    nominal value (the two other cards add at least 1 each, minus 2; for the
    declarer's k tricks each defender gives k distinct cards, at least his k
    cheapest).  Two defender cards may fall into one trick: their K tricks
    (max(na, nb) <= K) hold K declarer cards and 2K - na - nb other cards.
    Returns (declarer's sure points, defenders' sure points).
    """
    return _side_bounds(h_decl, h_a, h_b, False)


@njit(cache=True, inline="always")
def _beatable(lo, hi):
    """Most tarocks of ``lo`` that distinct higher tarocks of ``hi`` can beat.

    Greedy matching, which is maximum here: each card of ``hi``, lowest
    first, takes the lowest unmatched card of ``lo`` if that lies below it
    (every card of ``lo`` below one card of ``hi`` is below all later ones).
    """
    cnt = 0
    avail = lo
    m = hi
    while m and avail:
        y = ctz_nb(m)
        m &= m - 1
        if avail & (_bit(y) - 1):
            avail &= avail - 1
            cnt += 1
    return cnt


def _bracket_tables():
    """Per byte b (bit i = the i-th card in rank order, 1 = a higher-side card,
    0 = a lower-side card): the net count (#1 - #0) and the largest such count
    over the byte's prefixes (0 for the empty one)."""
    delta = np.zeros(256, np.int64)
    pmax = np.zeros(256, np.int64)
    for b in range(256):
        run = 0
        top = 0
        for i in range(8):
            run += 1 if (b >> i) & 1 else -1
            top = max(top, run)
        delta[b] = run
        pmax[b] = top
    return delta, pmax


BR_DELTA, BR_PMAX = _bracket_tables()


@njit(cache=True, inline="always")
def _beatable_bits(lo, hi):
    """:func:`_beatable` without a data-dependent loop (disjoint ``lo``, ``hi``).

    Read the cards of both sets in rank order as brackets: a card of ``lo``
    opens, a card of ``hi`` closes.  The greedy matching leaves a card of
    ``hi`` unmatched exactly when the closers so far outnumber the openers, so
    the unmatched ones number the largest prefix surplus of closers, found a
    byte at a time (22 tarocks: three bytes; padding zeros only open).
    """
    x = pext_nb(hi, lo | hi)
    run = 0
    top = 0
    for i in range(3):
        b = (x >> (8 * i)) & 255
        t = run + BR_PMAX[b]
        if t > top:
            top = t
        run += BR_DELTA[b]
    return popcount_nb(hi) - top


@njit(cache=True, inline="always")
def _tarock_tricks(td, tdef):
    """The declarer's tarocks ``td`` against the defenders' ``tdef``: his
    tarocks above all of theirs, their number k, and kk >= k, the tricks his
    tarocks win in any line (his tarocks minus the most of them distinct
    higher defender tarocks can beat, see :func:`_trick_bounds`)."""
    sure = td
    kk = popcount_nb(td)
    if tdef:
        sure = td & ~((np.int64(2) << _high(tdef)) - 1)
        kk -= _beatable_bits(td, tdef)
    return sure, popcount_nb(sure), kk


@njit(cache=True)
def _trick_bounds(h_decl, h_a, h_b):
    """:func:`_sure_points` with the declarer's tarock tricks counted, not only
    his unbeatable ones: (declarer's sure points, defenders' sure points).

    A trick in which the declarer plays tarock d is lost only if a defender
    plays a higher tarock to it (a suit card never beats a tarock), and each
    defender tarock is played to one trick: of his dt tarock tricks the
    defenders can take at most M = the most of his tarocks matched to
    distinct higher defender tarocks (:func:`_beatable`), so he wins
    K >= dt - M tricks.  Those hold his k unbeatable tarocks (never matched,
    so K >= k) and K - k others, worth at least his cheapest non-sure tarocks,
    plus one distinct card of each defender: at least each one's K cheapest.
    Every extra trick is worth >= 1 point (3 cards - 2), so this never falls
    below the bound of the unbeatable tarocks alone.  The bound holds for every
    line of play, so bird reserves do not affect it.  Measured: 3% fewer nodes
    at 12-13 tricks, 8% on full deals (EXPERIMENTS.md, session 2).
    """
    return _side_bounds(h_decl, h_a, h_b, True)


@njit(cache=True, inline="always")
def _side_bounds(h_decl, h_a, h_b, count_tricks):
    """Both sides' sure points: :func:`_trick_bounds` when ``count_tricks``,
    else :func:`_sure_points` (the declarer's unbeatable tarocks only).  One
    body for both; ``count_tricks`` is a constant at each call, so the
    compiler drops the other branch.  The declarer's count uses
    :func:`_beatable_bits` (no branchy loop; same results as
    :func:`_beatable` on 200,000 random deals, 1-5% less CPU, session 4)."""
    td = h_decl & TAROCKS
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    tdef = ta | tb
    lb_decl = 0
    lb_def = 0
    if td:
        if count_tricks:
            sure, k, kk = _tarock_tricks(td, tdef)
        else:
            sure = td
            if tdef:
                sure = td & ~((np.int64(2) << _high(tdef)) - 1)
            k = popcount_nb(sure)
            kk = k
        if kk > k:
            lb_decl = (_nominal_sum(sure) + _cheapest(td & ~sure, kk - k) + _cheapest(h_a, kk)
                       + _cheapest(h_b, kk) - 2 * kk)
        else:
            # each defender adds one card of his own to each of those k tricks
            lb_decl = _nominal_sum(sure) + _cheapest(h_a, k) + _cheapest(h_b, k) - 2 * k
    if tdef:
        lb_def = _defence_sure_points(h_decl, td, ta, tb)
    return lb_decl, lb_def


@njit(cache=True, inline="always")
def _cheapest(hand, k):
    """Lowest possible nominal sum of k cards of ``hand`` (k <= its size)."""
    total = 0
    left = k
    ones = hand & ~V2
    twos = hand & V2 & ~V3
    threes = hand & V3 & ~V4
    fours = hand & V4 & ~V5
    for v, m in ((1, ones), (2, twos), (3, threes), (4, fours)):
        c = popcount_nb(m)
        if c >= left:
            return total + v * left
        total += v * c
        left -= c
    return total + 5 * left


@njit(cache=True, inline="always")
def _top_suit_cards(h_lead, h_a, h_b, ruff_a, ruff_b):
    """In each suit, the highest cards of ``h_lead`` above all of the other
    two hands' cards of that suit, as many as each of those who may ruff
    (``ruff_a``/``ruff_b``: he still holds a tarock) can follow: the cards
    that win one round each while nobody can ruff."""
    out = 0
    for g in range(1, 5):
        gm = SUIT_GROUPS[g]
        mine = h_lead & gm
        if mine == 0:
            continue
        ga = h_a & gm
        gb = h_b & gm
        top = mine
        if ga | gb:
            top &= ~((np.int64(2) << _high(ga | gb)) - 1)
        r = popcount_nb(top)
        if ruff_a:
            ca = popcount_nb(ga)
            if ca < r:
                r = ca
        if ruff_b:
            cb = popcount_nb(gb)
            if cb < r:
                r = cb
        # the r highest of his top cards
        while r > 0:
            c = _high(top)
            top &= ~_bit(c)
            out |= _bit(c)
            r -= 1
    return out


@njit(cache=True)
def _cash_points(h_lead, h_a, h_b, keep):
    """Points the leader surely takes by cashing his unbeatable cards first.

    A strategy, so a lower bound: he first leads his tarocks that beat all of
    the followers' (``keep``: announced birds he may not lead), keeping the
    lead; each follower must play tarocks while he has them.  Then, suit by
    suit, his cards above all of the followers' cards of that suit, for as
    many rounds as every follower who still holds a tarock can follow suit
    (so nobody can trump).  Followers give their cheapest cards: tarocks
    while forced to, else their cheapest other cards.
    """
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    sure = h_lead & TAROCKS & ~keep
    if ta | tb:
        sure &= ~((np.int64(2) << _high(ta | tb)) - 1)
    k = popcount_nb(sure)
    total = _nominal_sum(sure)
    na = popcount_nb(ta)
    nb = popcount_nb(tb)
    left_a = na - k
    left_b = nb - k
    tops = _top_suit_cards(h_lead, h_a, h_b, left_a > 0, left_b > 0)
    total += _nominal_sum(tops)
    rounds = popcount_nb(tops)
    tricks = k + rounds
    if tricks == 0:
        return 0
    total -= 2 * tricks
    for t, nt, hh in ((ta, na, h_a), (tb, nb, h_b)):
        if nt >= k:
            total += _cheapest(t, k) + _cheapest(hh & ~TAROCKS, rounds)
        else:
            total += _nominal_sum(t) + _cheapest(hh & ~TAROCKS, k - nt + rounds)
    return total


@njit(cache=True)
def _first_trick(h_decl, h_a, h_b, decl_leads, birds):
    """Points of the tricks the declarer surely wins by the seat order (0 if
    none): while he wins nothing he never leads, so B (``h_b``, the defender
    before him) always shows his card first, and A (``h_a``) plays after him
    only in tricks B led.

    d_1 > ... > d_m: his tarocks that are not announced birds (never reserved,
    so every choice below is legal with any bird reserve).  Strategy: when he
    leads, a suit card if he has one, else his lowest non-bird tarock; when he
    plays a tarock to a trick he did not lead (he then has no legal card but
    tarocks), his lowest non-bird tarock if a tarock above all of his lies in
    the trick already, else his highest: that one wins unless A plays a
    higher tarock after him.  So each non-bird tarock play of his is
      - a top removal: his highest goes, won (unpaid) or overtaken by a
        tarock of A above it (paid);
      - a bottom removal: his lowest goes, under a tarock above all of his
        (paid), or led by him (unpaid).
    Top removals take d_1..d_j, bottom removals d_m..d_{j+1}; while they go
    his top is >= d_{j+1}.  Suppose he wins W <= K - 1 tricks.  Unpaid top
    removals are wins, <= K - 1 (the defence at best leaves d_1..d_{K-1}
    unpaid); A pays the other top ones with distinct tarocks, A's i-th highest
    above d_{K-1+i}.  Unpaid bottom removals are tarock leads: now (lead_t: on
    lead without a suit card) or after one of his <= K - 1 wins, and only when
    he has no suit card left.  While he holds a non-bird tarock he never
    discards a suit card (void, he must trump), so his suit cards go only to
    his own leads or one to each defender lead of their suit: `spare` =
    his suit cards - sum over suits of min(his, the defenders') - the lead now
    stay for his later leads, so ub = lead_t + max(0, K - 1 - spare).  The
    paid bottom removals need distinct tarocks above d_{j+1}, as do A's
    payers: at least m - (K - 1) - ub defender tarocks above d_{j+1}, unless
    all bottom removals are unpaid (j >= m - ub).  A larger j only helps the
    defence (a lower d_{j+1}; a line with j < K - 1 needs more), so the test
    takes the largest j A's tarocks allow; if it fails, W >= K.  His K tricks
    hold at least his K cheapest cards and each defender's K cheapest: that
    sum minus 2 K.  Holds for every defence.  K = 1 with A's tarocks all
    below his top: he wins a trick if he holds more non-bird tarocks than B
    holds tarocks above his top one (one more when he must lead a tarock now).
    Measured (helper s4/bd): nodes 0.80x on full deals 0,2-8, 0.35x on deal 3.
    Returns (points, K); :func:`_suit_tops` uses K.
    """
    td = h_decl & TAROCKS & ~np.int64(birds)
    if td == 0:
        return 0, 0
    m = popcount_nb(td)
    suits = h_decl & ~TAROCKS
    lead_t = 1 if decl_leads and suits == 0 else 0
    lead_s = 1 if decl_leads and suits != 0 else 0
    ta = h_a & TAROCKS
    tdef = ta | (h_b & TAROCKS)
    k = 0
    top = td
    spare = 0
    while k < m:
        # his unpaid bottom removals: tarock leads now or after one of his k wins
        ub = lead_t
        if k > 0:
            if k == 1:
                # his suit cards spare for leads: while he holds a non-bird
                # tarock he never discards a suit card, so they go only to his
                # own leads or to defender leads of their suit (one card of his
                # for each defender lead of it)
                spare = popcount_nb(suits) - lead_s
                for g in range(1, 5):
                    gm = SUIT_GROUPS[g]
                    nd = popcount_nb(h_decl & gm)
                    nf = popcount_nb((h_a | h_b) & gm)
                    spare -= nd if nd < nf else nf
            later = k - (spare if spare > 0 else 0)
            if later > 0:
                ub += later
        # test W >= k + 1: d_1..d_k may go unpaid; A's tarocks cover d_{k+1}, ...
        x = top
        y = ta
        j = k
        while x and y:
            dc = _high(x)
            ac = _high(y)
            if ac < dc:
                break
            j += 1
            x &= ~_bit(dc)
            y &= ~_bit(ac)
        if j >= m - ub:
            break
        if popcount_nb(tdef & ~((np.int64(2) << _high(x)) - 1)) >= m - k - ub:
            break
        k += 1
        top &= ~_bit(_high(top))
    if k == 0:
        return 0, 0
    return _cheapest(h_decl, k) + _cheapest(h_a, k) + _cheapest(h_b, k) - 2 * k, k


@njit(cache=True)
def _suit_tops(h_decl, h_a, h_b, decl_leads, k_ft):
    """The declarer's sure suit winners, with the tricks he wins by tarocks.

    T: in each suit Y, his r highest cards when they lie above every
    defender card of Y, r = min(his such cards, Y cards of each defender who
    holds a tarock).  Invariant until the r-th Y trick: each defender holds
    a Y card or no tarock (his Y cards leave only in Y tricks while he holds
    a tarock: void in a led suit he must trump; tarocks never come back), so
    nobody ruffs the first r Y tricks and a card of T played to them wins.
    Strategy (compatible with :func:`_first_trick`'s): follow Y with a card
    of T; never discard a card of T; on lead, cash T.  Before his first win
    he holds a tarock when kk >= 1 (his tarock tricks, any line) or
    k_ft >= 1 (the seat-order count applies to the play up to his last
    non-bird tarock), so he never discards (void, he must trump); the first
    Y trick before it is itself a win.  At his first win (or now, if he
    leads) any T card left means another trick to lead: he cashes all of T,
    keeping the lead.  So (if kk >= 1, k_ft >= 1 or he leads now) every
    card of T lies in a trick he wins; those tricks, where he plays a suit
    card, are not his kk tarock tricks: W >= max(kk + |T|, k_ft), and his
    won tricks hold T, plus the tarocks of the kk count (as in
    :func:`_trick_bounds`) or his cheapest others, and W cards of each
    defender.  Birds: every choice above is legal under any reserve (the
    reserve binds only his tarocks).  Measured (helper s4/bd2): nodes 0.80x
    on full deals 0,2-8 (deal 8 0.34x), 0.91x at 12-13 tricks.

    Without kk, k_ft or the lead (a defender leads; helper s4/bd3): before
    his first win every trick is led by a defender.  Y: the suits of T; X:
    suits he is void in while holding a tarock, held by a defender and by
    each defender who holds a tarock.  A Y lead is a win (as above, if he
    still holds T).  An X lead is a win if he still holds a tarock: he must
    ruff, and the other defender holds an X card (his X cards leave only in
    X tricks while he holds a tarock) or no tarock, so whether he plays
    before or after the declarer he cannot overruff.  Every other lead is
    safe for the defence; a lead of Z (tarocks or a suit) removes a Z card
    from each defender holding Z, so at most S = sum over those Z of
    max(A's Z cards, B's Z cards) tricks are safe.  In a safe trick he
    follows Z (not a card of T: Z is not in Y), trumps, or discards a card
    outside T while he has one, so with S_xy < m (his tarocks: he still
    holds one, never discards) or S_y <= n - |T| (X counted safe; he keeps
    T), and S < n (a trick S + 1 exists), trick S + 1 at the latest is a
    win with all of T still his; then he cashes T (as above).  So
    W >= max(1, |T|).  Birds: a reserved tarock is still played when he
    must trump with nothing else; the strategy never needs a given tarock.
    Measured: nodes 0.96-0.98x, CPU 0.95x on full deals, 1.0 at 12-13 tricks.
    """
    td = h_decl & TAROCKS
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    tdef = ta | tb
    kk = 0
    sure = 0
    k = 0
    if td:
        sure, k, kk = _tarock_tricks(td, tdef)
    need = kk == 0 and k_ft == 0 and not decl_leads
    tset = _top_suit_cards(h_decl, h_a, h_b, ta != 0, tb != 0)
    if need:
        # no win proven yet and a defender leads: the forced leads (docstring)
        n = popcount_nb(h_decl)
        m = popcount_nb(td)
        s_y = max(popcount_nb(ta), popcount_nb(tb))
        s_xy = s_y
        for g in range(1, 5):
            gm = SUIT_GROUPS[g]
            if tset & gm:
                continue
            ga = h_a & gm
            gb = h_b & gm
            mx = max(popcount_nb(ga), popcount_nb(gb))
            s_y += mx
            ruffed = (m > 0 and (h_decl & gm) == 0 and (ga | gb) != 0
                      and (ta == 0 or ga != 0) and (tb == 0 or gb != 0))
            if not ruffed:
                s_xy += mx
        nt = popcount_nb(tset)
        if not ((s_xy < m and s_xy < n) or (s_y <= n - nt and s_y < n)):
            return 0
        if tset == 0:
            return _cheapest(h_decl, 1) + _cheapest(h_a, 1) + _cheapest(h_b, 1) - 2
        return _nominal_sum(tset) + _cheapest(h_a, nt) + _cheapest(h_b, nt) - 2 * nt
    if tset == 0:
        return 0
    nt = popcount_nb(tset)
    base = _nominal_sum(tset)
    w1 = kk + nt
    b1 = base + _cheapest(h_a, w1) + _cheapest(h_b, w1) - 2 * w1
    if kk > 0:
        b1 += _nominal_sum(sure) + _cheapest(td & ~sure, kk - k)
    if k_ft > nt:
        w2 = k_ft
        b2 = base + _cheapest(h_decl & ~tset, k_ft - nt) + _cheapest(h_a, w2) + _cheapest(h_b, w2) - 2 * w2
        if b2 > b1:
            b1 = b2
    return b1


@njit(cache=True, inline="always")
def _cheapest_card(m):
    """A card of lowest value in a non-empty mask (the lowest-ranked of them)."""
    for vm in (~V2, V2 & ~V3, V3 & ~V4, V4 & ~V5):
        x = m & vm
        if x:
            return ctz_nb(x)
    return ctz_nb(m)


@njit(cache=True)
def _cash_points_defence(h_lead, h_partner, h_decl):
    """Points a defender on lead surely wins for his side by cashing his
    tarocks that beat all of the declarer's.

    His partner plays his cheapest legal card each time (if that overtakes,
    the trick is still the defenders' but the lead passes, so counting stops);
    the declarer gives his cheapest cards, tarocks while he has them.
    """
    tl = h_lead & TAROCKS
    td = h_decl & TAROCKS
    if tl == 0:
        return 0
    sure = tl
    if td:
        sure = tl & ~((np.int64(2) << _high(td)) - 1)
    if sure == 0:
        return 0
    total = 0
    k = 0
    p = h_partner
    while sure:
        c = _high(sure)
        sure &= ~_bit(c)
        pt = p & TAROCKS
        pc = _cheapest_card(pt if pt else p)
        p &= ~_bit(pc)
        total += NOM[c] + NOM[pc] - 2
        k += 1
        if pc < 22 and pc > c:
            break
    nt = popcount_nb(td)
    if nt >= k:
        total += _cheapest(td, k)
    else:
        total += _nominal_sum(td) + _cheapest(h_decl & ~TAROCKS, k - nt)
    return total


@njit(cache=True, inline="always")
def _equal_neighbours(in_play, birds):
    """The cards in play, squeezed together by ``pext``, that equal their next
    lower card in play (same group, same value, neither an announced bird).

    Squeezed, a card's next lower card in play is the next lower bit.  Groups
    are contiguous index ranges, so that neighbour is of the same group unless
    the card is its group's lowest in play; values are equal when every value
    threshold agrees.
    """
    lowest = 0
    for g in range(5):
        x = in_play & QS_MASK[g]
        lowest |= x & -x
    eq = ~pext_nb(lowest, in_play)
    for vm in (V2, V3, V4, V5):
        b = pext_nb(vm, in_play)
        eq &= ~(b ^ (b << 1))
    if birds:
        b = pext_nb(np.int64(birds & 7), in_play)
        eq &= ~(b | (b << 1))
    return eq


@njit(cache=True, inline="always")
def _drop_equivalent(legal, in_play, eq):
    """``legal`` minus every card whose next lower card in play is also in
    ``legal`` and equal to it (``eq`` from :func:`_equal_neighbours`)."""
    sq = pext_nb(legal, in_play)
    return legal & ~pdep_nb(sq & (sq << 1) & eq, in_play)


@njit(cache=True, inline="always")
def _representatives(legal, in_play, birds):
    """Legal cards minus those equivalent to a lower legal card.

    Two cards are equivalent when they are of one group, of equal value and
    no other card still in play (hands and the trick in progress) lies
    between them: then every trick ends the same with either.  Announced
    birds keep their identity (their play is restricted by trick number).
    """
    return _drop_equivalent(legal, in_play, _equal_neighbours(in_play, birds))


@njit(cache=True, inline="always")
def _exact_key(h0, h1, h2, rmask, runion):
    """Relative-rank key of three hands.

    Inside each region (1-point cards: tarocks II..XX, the four pips of each
    suit) only a card's rank among the region's cards in play matters.  One
    ``pext`` a hand over (cards of the regions still in play) + (every
    card outside the regions) squeezes out the gaps the played 1-point cards
    left; the regions' card counts (in bits 54..) say where each region ends.
    ``runion`` is the union of the masks ``rmask``.
    """
    allc = h0 | h1 | h2
    m = (allc & runion) | (ALL_CARDS & ~runion)
    counts = (popcount_nb(allc & rmask[0]) | (popcount_nb(allc & rmask[1]) << 5)
              | (popcount_nb(allc & rmask[2]) << 8) | (popcount_nb(allc & rmask[3]) << 11)
              | (popcount_nb(allc & rmask[4]) << 14))
    return (pext_nb(h0, m), pext_nb(h1, m) | ((counts & 1023) << 54),
            pext_nb(h2, m) | ((counts >> 10) << 54))


@njit(cache=True, inline="always")
def _rank_key(h0, h1, h2):
    """Rank-only key of three hands at a trick start (at most 48 cards in play),
    two words: hands 0 and 1 squeezed over the cards in play by ``pext``, with
    the five groups' card counts (21 bits) in bits 48.. of the two words saying
    where each group ends.  Hand 2 holds the rest of the cards in play, so it
    adds nothing; bits 54.. of the first word stay free for the caller."""
    allc = h0 | h1 | h2
    counts = (popcount_nb(allc & QS_MASK[0]) | (popcount_nb(allc & QS_MASK[1]) << 5)
              | (popcount_nb(allc & QS_MASK[2]) << 9) | (popcount_nb(allc & QS_MASK[3]) << 13)
              | (popcount_nb(allc & QS_MASK[4]) << 17))
    return (pext_nb(h0, allc) | ((counts >> 16) << 48),
            pext_nb(h1, allc) | ((counts & 65535) << 48))


@njit(cache=True)
def _denormalise(nc, allc, rbase, rmask):
    """The real card behind normalised card ``nc`` in a position with cards ``allc``."""
    for r in range(5):
        if (rmask[r] >> nc) & 1:
            x = pdep_nb(_bit(nc - rbase[r]), allc & rmask[r])
            if x == 0:
                return -1
            return ctz_nb(x)
    return nc


@njit(cache=True)
def _normalise_card(c, allc, rbase, rmask):
    for r in range(5):
        if (rmask[r] >> c) & 1:
            return rbase[r] + popcount_nb(allc & rmask[r] & (_bit(c) - 1))
    return c


@njit(cache=True, inline="always")
def _point_shift(old_all, new_all):
    """How far a value can fall (dn) and rise (up) from the position of cards
    ``old_all`` to the same-rank-structure position of cards ``new_all``: the
    summed value losses and gains of rank-matched cards.

    Both sets have the same card count in every group, so the i-th card of
    one (in card order) is rank-matched to the i-th of the other.  A card's
    value is 1 + [v >= 2] + ... + [v >= 5], and these thresholds are nested,
    so a matched pair differs in one direction only, by the number of
    thresholds one card passes and the other does not: with ``pext`` over
    each set, a popcount per threshold counts them all at once.
    """
    dn = 0
    up = 0
    for vm in (V2, V3, V4, V5):
        a = pext_nb(old_all & vm, old_all)
        b = pext_nb(new_all & vm, new_all)
        up += popcount_nb(b & ~a)
        dn += popcount_nb(a & ~b)
    return dn, up


@njit(cache=True, inline="always")
def _hash(k0, k1, k2):
    x = k0 * np.int64(-7046029254386353131) ^ k1 * np.int64(-4658895280553007687)
    x ^= k2 * np.int64(7640891576956012809)
    x ^= (x >> 31) & np.int64(0x1FFFFFFFF)
    x *= np.int64(-4265267296055464877)
    x ^= (x >> 29) & np.int64(0x7FFFFFFFF)
    return x


# ----------------------------------------------------------------- the search

@njit(cache=True, inline="always")
def _beats_mask(f, w):
    """Does the set ``f`` (one player's legal cards) hold a card that beats ``w``?"""
    return (f & (_above(w) | (TAROCKS if w >= 22 else 0))) != 0


@njit(cache=True, inline="always")
def _lead_score(s, c, declarer, f1, f2):
    """Ordering score of leading card ``c`` from seat ``s`` (higher is tried first).

    Sure winners (no opponent can beat them) come first, the most valuable
    first; among them and among the others, leads that leave the opponents
    fewer legal replies come earlier (smaller proof trees); low cards before
    high ones otherwise.  ``f1``/``f2`` are the legal replies of the next and
    the last seat: they depend on c's group only, so the caller computes them
    once per group (measured: ~10% less CPU with the follow-score context).
    """
    side = s == declarer
    if side:
        replies = popcount_nb(f1) + popcount_nb(f2)
        beaten = _beats_mask(f1, c) or _beats_mask(f2, c)
    else:
        fd = f1 if (s + 1) % 3 == declarer else f2
        replies = popcount_nb(fd)
        beaten = _beats_mask(fd, c)
    if not beaten:
        return 2000 + 10 * NOM[c] - 20 * replies
    if not side:
        # a defender's lead the partner can surely win: the partner's best
        # legal card beats the lead and everything the declarer can play
        partner = 3 - s - declarer
        pl = f2 if (s + 1) % 3 == declarer else f1
        top = _high(pl)
        if _beats(top, c):
            if (partner == (s + 2) % 3 and not _beats(_high(fd), top)) or \
                    (partner == (s + 1) % 3 and not _beats_mask(fd, top)):
                return 1500 + 10 * NOM[c] - 5 * replies
    return 1000 - 10 * NOM[c] - 5 * replies


@njit(cache=True, inline="always")
def _follow_context(h, s, p, led, is_decl, declarer):
    """The per-node parts of :func:`_follow_score` for seat ``s`` following
    at trick position ``p``: (the next player's legal cards if p == 1, is the
    next player on the mover's side, the opponents' highest tarock or -1)."""
    lt = 0
    partner_next = False
    if p == 1:
        t = (s + 1) % 3
        lt = _follow_mask(h[t], led)
        partner_next = (t == declarer) == is_decl
    if is_decl:
        opp = (h[(declarer + 1) % 3] | h[(declarer + 2) % 3]) & TAROCKS
    else:
        opp = h[declarer] & TAROCKS
    ohi = _high(opp) if opp else -1
    return lt, partner_next, ohi


@njit(cache=True, inline="always")
def _follow_score(c, p, side, w, ws, declarer, lt, partner_next, ohi, hd):
    """Ordering score of following with ``c`` at trick position ``p``.

    ``w``/``ws`` are the card and seat winning the trick so far.  A card that
    wins the trick for the mover's side for sure comes first (the most
    valuable: smear points onto it); then cards that may still let the side
    win (cheap ones first); then losing cards, cheapest first.  Among the sure
    winners, a tarock above every tarock of the opponents (one that would win
    a trick of its own later) goes last: spending it here is rarely the move
    that proves a bound (26% fewer nodes at 12-13 tricks, 30% on seven full
    deals, session 3); the same for a defender's last card of a trick: a suit
    card above all of the declarer's cards of that suit goes last (-3% nodes
    at 12-13 tricks, -6% and -12% on two sets of full deals; at the second
    card, or for the declarer, it loses; session 4).

    The per-node parts come from the caller (:func:`_follow_context`): ``side``
    (the mover is the declarer), ``lt`` the next player's legal cards (p == 1
    only), ``partner_next`` (the next player is on the mover's side), ``ohi``
    the opponents' highest tarock (-1: none); ``hd`` is the declarer's hand.
    """
    if _beats(c, w):
        # the mover takes the lead of the trick: his own side wins it so far
        nw = c
        ours = True
    else:
        nw = w
        ours = (ws == declarer) == side
    if p == 2:
        sure = ours
        possible = ours
    else:
        cb = (lt & (_above(nw) | (TAROCKS if nw >= 22 else 0))) != 0
        if partner_next:
            # the partner plays the last card: if he can beat the trick's
            # winner, the trick is surely the defenders' whatever the mover
            # plays, so a duck is as sure as a win of his own (measured: fail-low
            # tests of deals 15/2/6/4/14 35.1 -> 29.0 M nodes, full deals 0-19
            # 0.92x, 20-39 0.97x; session 5)
            sure = ours or cb
            possible = sure
        else:
            possible = ours
            sure = ours and not cb
    if sure:
        if c < 22:
            if c > ohi:
                return 2940 + 10 * NOM[c] - c
        elif p == 2 and not side:
            # a suit card that would win a trick of its own later
            opp = hd & CGM[c]
            if opp != 0 and c > _high(opp):
                return 2940 + 10 * NOM[c] - c
        return 3000 + 10 * NOM[c] - c
    if possible:
        return 2000 - 10 * NOM[c] - c
    return 1000 - 10 * NOM[c] - c


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
                # The last card of a trick: two cards that both win it (or both
                # lose it) and have no card of the hands between them leave
                # positions of the same rank structure, whatever trick cards
                # lie between them.
                w = fr[d].wcard
                wins = legal & (_above(w) | (TAROCKS if w >= 22 else 0))
                eq = _equal_neighbours(in_play, birds)
                m = (_drop_equivalent(wins, in_play, eq)
                     | _drop_equivalent(legal & ~wins, in_play, eq))
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

