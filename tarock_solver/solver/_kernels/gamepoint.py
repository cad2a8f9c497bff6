"""Numba kernel of the game-point solver: null-window tests on the score sheet.

The goal of one test is "the declarer's net ≥ X".  Per final outcome (the
flags of :mod:`.payoff`: where I/II/III were played and who won their
tricks, whether the declarer lost a trick) that goal is "future points ≥
T[flags]", because the net is monotone in card points.  So the test is the
scalar minimax of

    u = (card points the declarer wins from here on) − T[final flags]

and the goal is met iff ``points already won since the root + u ≥ 0``.  The
value of a node does not depend on the points taken before it, so
transposition-table entries serve every path to the node.  They also serve
other breakpoints: thresholds never fall as the goal rises, so u never
rises, and a lower bound proved for goal k holds for every goal ≤ k, an
upper bound for every goal ≥ k.  Each entry keeps its bounds with the goal
they were proved for (the key has no goal), so the breakpoint tests and the
principal-variation probes of one solve share one table, best moves
included.

This is the card-point kernel's search (:mod:`.kernel`) with the state
extended by the flags: the same explicit-stack fail-soft alpha-beta over
single card plays, the same move ordering (TT move, sure winners, leads
that leave the opponents few replies), equivalent cards searched once (at
the last card of a trick also across trick cards), and
the same transposition-table design — relative-rank keys, buckets of
:data:`BUCKET` rows whose first rows keep the entries that saved the most
work, the best move stored normalised, rows prefetched while the quick
bounds are computed, and a second, rank-only entry per row whose bounds are
widened by the point differences of rank-matched cards (the card-point
kernel's idea 5b).  What the payoff adds:

* keys: the flags reached so far join the leader in the spare bits of
  key2; the bird cards whose outcome or reserve still matters keep their
  identity (in the exact key: tarock region IV..XX instead of II..XX when II
  or III matter, see :func:`_key`; in the rank-only key: which of I..III are
  in play, see :func:`_rank_key`);
* quick bounds: a bound on future card points (sure points with the
  declarer's tarock-trick count, cashing; where the table did not cut, the
  seat-order bound and his sure suit winners) only decides a test when it
  decides it for every final outcome still reachable, so it is compared
  with the least / most threshold over those outcomes (``t_lo`` / ``t_hi``,
  by flags and by which birds are settled); each is a bound for every line
  of play or a strategy of one side, so it holds whatever outcome follows;
* the last trick is scored directly (flags resolved, threshold subtracted).

The root is always searched move by move (never cut by the table or a
bound), so ``stats[ST_BEST]`` is a proven best card for the driver's
principal variation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import clz_nb, ctz_nb, pdep_nb, pext_nb, popcount_nb
from . import table
from .bounds import (
    _cash_points,
    _cash_points_defence,
    _first_trick,
    _suit_tops,
    _trick_bounds,
)
from .cardpoint import _prefetch
from .keys import (
    QS_MASK,
    REGION_MASK,
    REGION_MASK_FIXED,
    REGION_UNION,
    REGION_UNION_FIXED,
    _hash,
    _last_card_representatives,
    _point_shift,
    _representatives,
)
from .ordering import _follow_context, _follow_score, _lead_score
from .play import (
    ALL_CARDS,
    GRP,
    NOM,
    _beats,
    _bit,
    _follow_mask,
    _legal,
    _nominal_sum,
)
from .stats import ST_ABORTED, ST_BEST, ST_LIMIT, ST_NODES, ST_QB_CUTS, ST_TT_HITS

# The play rules, quick bounds, move ordering, hash, point shift and the
# relative-rank regions above are the card-point kernel's; the table layout
# below is this kernel's own (its entries carry goal-dependent bounds).
# Regions: inside them every card is worth 1 point, so only its rank among the
# region's cards still in play matters.  Region 0 is tarocks II..XX
# (REGION_MASK), or IV..XX (REGION_MASK_FIXED) when II or III must keep its
# identity (a bird whose outcome or reserve still matters); regions 1..4 are
# the four pips of each suit.

#: Rows per TT bucket of the exact-key table.
BUCKET = 4
INF = 2000
MAXPLY = 52
MAXMOVES = 16
#: Smallest hand (cards per player at a trick start) probed and stored in the TT.
TT_MIN_CARDS = 2
KEY_VALID = np.int64(1) << np.int64(62)
_BOUND_OFFSET = 2048
_FIELD = np.int64(4095)
_NO_MOVE = 255
FLAG_LOST_TRICK = 64
#: Columns of the threshold-bound tables: 128 flag values × 8 settled-bird masks.
N_BOUND_COLUMNS = 1024
#: Goals are keyed in bits 48..57 of key2.
MAX_GOALS = 1024
#: Columns of one TT row: the exact-key entry (key0..2, data) and the
#: rank-only entry (key0..2, bounds, cards in play).
TT_COLUMNS = 9
_RANK_SALT = np.int64(0x5bd1e995)


#: One stack frame of :func:`search` per card played, as one record array
#: (the card-point kernel's FRAME: fewer live array pointers in the loop).
PFRAME = np.dtype([(f, np.int64) for f in (
    "mover", "pos", "lead", "wcard", "wseat", "card", "flg", "al", "be", "best", "bmove",
    "gain", "nm", "mi", "store", "nstart", "fixd", "k0", "k1", "k2")]
    + [("mv", np.int64, (MAXMOVES,))])


@njit(cache=True, inline="always")
def _pack(lo, up, move, work, glo, gup):
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


@njit(cache=True)
def search(hands_in, leader0, tcards, ntc, declarer, reserve, relevant, flags0, goal,
           thresholds, t_lo, t_hi, alpha0, beta0, tt, stats):
    """Fail-soft minimax value of u (see the module docstring) in window (alpha0, beta0).

    ``hands_in``: int64[3]; ``tcards``: int64[3] with the ``ntc`` cards of the
    trick in progress; ``reserve``: the declarer's announced birds (bits 1/2/4)
    under ``bird_reserve``; ``relevant``: the birds (bits 1/2/4) whose
    outcome can change the net (they keep their identity in keys and
    equivalences); ``thresholds``: int64[goals, 128]; ``t_lo``/``t_hi``:
    int64[goals, 1024], the least and most threshold of the final outcomes
    reachable from ``flags | open_birds << 7``
    (:meth:`.payoff.Payoff.threshold_bounds`).
    """
    T = thresholds[goal]
    TLO = t_lo[goal]
    THI = t_hi[goal]
    h = np.empty(3, np.int64)
    h[0] = hands_in[0]
    h[1] = hands_in[1]
    h[2] = hands_in[2]
    # one stack frame per card played, one record (as the card-point kernel's FRAME)
    fr = np.zeros(MAXPLY, PFRAME)
    score = np.empty(MAXMOVES, np.int64)

    tt_mask = tt.shape[0] - 1
    def_a = (declarer + 1) % 3
    def_b = (declarer + 2) % 3

    d0 = ntc
    for i in range(ntc):
        fr[i].card = tcards[i]
    fr[d0].pos = ntc
    fr[d0].lead = leader0
    fr[d0].mover = (leader0 + ntc) % 3
    fr[d0].flg = flags0
    if ntc > 0:
        w = tcards[0]
        ws = leader0
        for i in range(1, ntc):
            if _beats(tcards[i], w):
                w = tcards[i]
                ws = (leader0 + i) % 3
        fr[d0].wcard = w
        fr[d0].wseat = ws
    fr[d0].al = alpha0
    fr[d0].be = beta0
    stats[ST_BEST] = -1

    nodes = 0
    capped = stats[ST_LIMIT] > 0
    budget = stats[ST_LIMIT] - stats[ST_NODES]
    d = d0
    v = np.int64(0)
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    while True:
        if state == ENTER:
            nodes += 1
            if capped and nodes > budget:
                stats[ST_ABORTED] = 1
                v = 0
                break
            p = fr[d].pos
            s = fr[d].mover
            f = fr[d].flg
            fr[d].store = 0
            fr[d].nstart = nodes
            ttmove = -1
            if p == 0:
                n = popcount_nb(h[s])
                if n == 0:
                    v = -T[f]
                    state = RETURN
                    continue
                if n == 1 and d > d0:
                    # last trick: every card is forced; score it at once
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
                    g = NOM[c0] + NOM[c1] + NOM[c2] - 2 if ws == declarer else 0
                    v = g - T[_resolve_flags(f, 16, c0, c1, c2, s, ws, declarer)]
                    state = RETURN
                    continue
                allc = h[0] | h[1] | h[2]
                trick_no = 17 - n
                openb = _open_birds(allc, trick_no, relevant)
                # Birds whose trick is ahead keep their identity, and so do the
                # reserved ones (their legality depends on the trick number);
                # II/III need the fixed normalisation regions.
                fr[d].fixd = openb | (reserve & allc)
                fixed = (fr[d].fixd & 6) != 0
                use_tt = n >= TT_MIN_CARDS
                if use_tt:
                    k0, k1, k2 = _key(h[0], h[1], h[2], fixed)
                    k2 |= (np.int64(s) << 39) | (f << 41) | KEY_VALID
                    slot = _hash(k0, k1, k2) & tt_mask & ~np.int64(BUCKET - 1)
                    _prefetch(tt, slot)
                    _prefetch(tt, slot + 2)
                if d > d0:
                    # quick bounds on future card points, admissible for every reachable outcome
                    col = f | (openb << 7)
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
                    if lbd - THI[col] >= fr[d].be:
                        v = lbd - THI[col]
                        stats[ST_QB_CUTS] += 1
                        state = RETURN
                        continue
                    if rest - lbf - TLO[col] <= fr[d].al:
                        v = rest - lbf - TLO[col]
                        stats[ST_QB_CUTS] += 1
                        state = RETURN
                        continue
                if use_tt:
                    data = -1
                    for r in range(slot, slot + BUCKET):
                        if tt[r, 0] == k0 and tt[r, 1] == k1 and tt[r, 2] == k2:
                            data = tt[r, 3]
                            break
                    if data >= 0:
                        stats[ST_TT_HITS] += 1
                        lo, up = _bounds_for(data, goal)
                        if d > d0 and (lo >= fr[d].be or up <= fr[d].al or lo == up):
                            v = lo if lo >= fr[d].be else up
                            state = RETURN
                            continue
                        tm = (data >> 24) & 255
                        if tm != _NO_MOVE:
                            ttmove = ctz_nb(pdep_nb(_bit(tm), _squeeze_mask(allc, fixed)))
                    # the rank-only table: bounds of a position with the same
                    # rank structure, widened by the point differences
                    q0, q1, q2 = _rank_key(h[0], h[1], h[2], fr[d].fixd)
                    q2 |= (np.int64(s) << 27) | (f << 29) | KEY_VALID
                    r2 = _hash(q0 ^ _RANK_SALT, q1, q2) & tt_mask
                    if d > d0 and tt[r2, 4] == q0 and tt[r2, 5] == q1 and tt[r2, 6] == q2:
                        ddn, ddu = _point_shift(tt[r2, 8], allc)
                        d2 = tt[r2, 7]
                        lo2, up2 = _bounds_for(d2, goal)
                        lo2 -= ddn
                        up2 += ddu
                        if lo2 >= fr[d].be or up2 <= fr[d].al:
                            v = lo2 if lo2 >= fr[d].be else up2
                            stats[ST_TT_HITS] += 1
                            state = RETURN
                            continue
                    fr[d].store = 1
                    fr[d].k0 = k0
                    fr[d].k1 = k1
                    fr[d].k2 = k2
                if d > d0:
                    # the seat-order bound and the declarer's sure suit winners
                    # (strategies of his: sound for every reachable outcome
                    # against the most threshold), only where neither the
                    # table nor the cheaper bounds closed the node
                    zb, zk = _first_trick(h[declarer], h[def_a], h[def_b], s == declarer, reserve)
                    if zb - THI[col] >= fr[d].be:
                        v = zb - THI[col]
                        stats[ST_QB_CUTS] += 1
                        state = RETURN
                        continue
                    if s != declarer:
                        zb = _suit_tops(h[declarer], h[def_a], h[def_b], False, zk)
                        if zb - THI[col] >= fr[d].be:
                            v = zb - THI[col]
                            stats[ST_QB_CUTS] += 1
                            state = RETURN
                            continue
            elif d > d0:
                fr[d].fixd = fr[d - 1].fixd
            else:
                # the root is inside a trick: the trick's leader tells the trick number
                allc = h[0] | h[1] | h[2]
                for i in range(p):
                    allc |= _bit(fr[i].card)
                tn = 17 - popcount_nb(h[fr[d].lead]) - 1
                fr[d].fixd = _open_birds(allc, tn, relevant) | (reserve & allc)

            # move generation: legal cards, one per equivalence class, ordered
            hand = h[s]
            led = fr[d - p].card if p > 0 else -1
            is_decl = s == declarer
            trick_no = 17 - popcount_nb(h[fr[d].lead]) - (1 if p > 0 else 0)
            legal = _legal(hand, led, is_decl, reserve, trick_no)
            in_play = h[0] | h[1] | h[2]
            if p == 2:
                # the last card of a trick: classes may span trick cards; the
                # flags stay the same too, because the birds whose outcome
                # matters (fixd) keep their identity
                m = _last_card_representatives(legal, in_play, fr[d].wcard, fr[d].fixd)
            else:
                for i in range(p):
                    in_play |= _bit(fr[d - p + i].card)
                m = _representatives(legal, in_play, fr[d].fixd)
            lt = 0
            partner_next = False
            ohi = -1
            if p > 0:
                lt, partner_next, ohi = _follow_context(h, s, p, led, is_decl, declarer)
            lastg = -1
            f1 = 0
            f2 = 0
            cnt = 0
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
                j = cnt
                while j > 0 and score[j - 1] < sc:
                    score[j] = score[j - 1]
                    fr[d].mv[j] = fr[d].mv[j - 1]
                    j -= 1
                score[j] = sc
                fr[d].mv[j] = c
                cnt += 1
            fr[d].nm = cnt
            fr[d].mi = 0
            fr[d].best = -INF if is_decl else INF
            fr[d].bmove = -1
            state = NEXT
            continue

        if state == NEXT:
            if fr[d].mi < fr[d].nm:
                c = fr[d].mv[fr[d].mi]
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
                    c0 = fr[d - 2].card
                    c1 = fr[d - 1].card
                    g = NOM[c0] + NOM[c1] + NOM[c] - 2 if ws == declarer else 0
                    tno = 16 - popcount_nb(h[fr[d].lead])
                    fr[d + 1].flg = _resolve_flags(fr[d].flg, tno, c0, c1, c, fr[d].lead, ws, declarer)
                    fr[d + 1].pos = 0
                    fr[d + 1].lead = ws
                    fr[d + 1].mover = ws
                else:
                    g = 0
                    fr[d + 1].flg = fr[d].flg
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
                if fr[d].best < fr[d].be:
                    state = NEXT
                    continue
            else:
                if v < fr[d].best:
                    fr[d].best = v
                    fr[d].bmove = fr[d].card
                if fr[d].best > fr[d].al:
                    state = NEXT
                    continue
            v = fr[d].best

        # node d is finished with value v: store its bounds at trick starts
        state = RETURN
        if d == d0:
            stats[ST_BEST] = fr[d].bmove
        if fr[d].store:
            lo = -INF
            up = INF
            if v <= fr[d].al:
                up = v
            elif v >= fr[d].be:
                lo = v
            else:
                lo = v
                up = v
            tm = _NO_MOVE
            # a fail-low node has no best move worth remembering
            fail_low = v <= fr[d].al if fr[d].mover == declarer else v >= fr[d].be
            if fr[d].bmove >= 0 and not fail_low:
                sq = _squeeze_mask(h[0] | h[1] | h[2], (fr[d].fixd & 6) != 0)
                tm = popcount_nb(sq & (_bit(fr[d].bmove) - 1))
            # replacement priority: the work this entry saves (log2 of nodes)
            wk = 64 - clz_nb(np.int64(nodes - fr[d].nstart) | 1)
            k0 = fr[d].k0
            k1 = fr[d].k1
            k2 = fr[d].k2
            slot = _hash(k0, k1, k2) & tt_mask & ~np.int64(BUCKET - 1)
            target = -1
            glo = goal
            gup = goal
            if lo <= -INF:
                glo = 1023  # "u ≥ -INF" holds for every goal
            if up >= INF:
                gup = 0
            for r in range(slot, slot + BUCKET):
                if tt[r, 0] == k0 and tt[r, 1] == k1 and tt[r, 2] == k2:
                    # same position: keep the better bounds of old and new
                    old = tt[r, 3]
                    lo, glo, up, gup = _merge(old, lo, glo, up, gup)
                    if tm == _NO_MOVE:
                        tm = (old >> 24) & 255
                    if ((old >> 32) & 255) > wk:
                        wk = (old >> 32) & 255
                    target = r
                    break
            if target < 0:
                # The first rows keep the entries that save the most work; the
                # last row always takes the newcomer (or the entry it evicts).
                low = 1 << 30
                last = slot + BUCKET - 1
                for r in range(slot, last):
                    cost = -1 if tt[r, 0] == 0 else (tt[r, 3] >> 32) & 255
                    if cost < low:
                        low = cost
                        target = r
                if wk >= low:
                    tt[last, 0] = tt[target, 0]
                    tt[last, 1] = tt[target, 1]
                    tt[last, 2] = tt[target, 2]
                    tt[last, 3] = tt[target, 3]
                else:
                    target = last
            tt[target, 0] = k0
            tt[target, 1] = k1
            tt[target, 2] = k2
            tt[target, 3] = _pack(lo, up, tm, wk, glo, gup)
            # the rank-only entry: always the newest (merged with an entry of the same cards)
            allp = h[0] | h[1] | h[2]
            q0, q1, q2 = _rank_key(h[0], h[1], h[2], fr[d].fixd)
            q2 |= (np.int64(fr[d].mover) << 27) | (fr[d].flg << 29) | KEY_VALID
            r2 = _hash(q0 ^ _RANK_SALT, q1, q2) & tt_mask
            if tt[r2, 4] == q0 and tt[r2, 5] == q1 and tt[r2, 6] == q2 and tt[r2, 8] == allp:
                lo, glo, up, gup = _merge(tt[r2, 7], lo, glo, up, gup)
            tt[r2, 4] = q0
            tt[r2, 5] = q1
            tt[r2, 6] = q2
            tt[r2, 7] = _pack(lo, up, 0, 0, glo, gup)
            tt[r2, 8] = allp

    stats[ST_NODES] += nodes
    return v


@njit(cache=True)
def test_goal(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal, thresholds,
              t_lo, t_hi, gained, tt, stats):
    """Does the declarer reach goal ``goal`` with ``gained`` points won since the root?"""
    v = search(hands, leader, tcards, ntc, declarer, reserve, relevant, flags, goal, thresholds,
               t_lo, t_hi, -gained - 1, -gained, tt, stats)
    return v >= -gained


@njit(cache=True)
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


__all__ = ["INF", "MAX_GOALS", "N_BOUND_COLUMNS", "TT_COLUMNS", "new_table", "search",
           "test_goal", "test_goal_value"]
