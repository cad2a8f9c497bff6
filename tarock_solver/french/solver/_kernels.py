"""The French Tarot search kernels: fail-soft alpha-beta over single card plays, MTD(f).

The design is the Illustrated Tarock solver's (:mod:`tarock_solver.solver`): an explicit
stack (numba caches no self-recursive function), null-window tests that share one
transposition table keyed at trick starts, equivalent cards merged, and a budget read
from the shared counter array.  A key names the owner of every remaining card after
renaming the cards by rank within their group where their values allow (a suit's spot
cards, the middle trumps: :func:`_canonical_key`), so positions that differ only in
which of those cards are gone share their rows.  One kernel source serves both
objectives, specialised by the flag ``score``:

* ``score == 0`` — the taker's future card points (half points): a trick's points are
  added on the way back, so the table keys the remaining cards and their owners, the
  leader and the Excuse's settlement flags only;
* ``score == 1`` — the value ``table[points, oudlers, petit au bout, chelem]`` of the
  play's outcome (the contract's score, built from the scoring rules by the driver):
  the key adds the taker's points and oudlers so far.

Both cut at trick starts on quick bounds: the card-point bounds of the master trumps
(:func:`_quick_bounds`), in a score search turned into the least and greatest outcome
over the points, oudlers, petit au bout and chelem still possible (range minima and
maxima of the table built once per call of :func:`mtd`).

Cards are codes 0..85: a suit card is bit ``16 s + r`` of the suit word (code < 64), a
trump or the Excuse bit ``c - 64`` of the trump word (the Excuse is code 85).  Hands
are ``lo`` (trump word) and ``hi`` (suit word) per seat, four seats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import clz_nb, ctz_nb, pdep_nb, pext_nb, popcount_nb
from ...solver import ST_ABORTED, ST_DEADLINE, ST_LIMIT, ST_NODES, ST_TT_CUTS, ST_TT_HITS, cycles

N_SEATS = 4
EX_CODE = 85
PETIT_CODE = 64
T21_CODE = 84
EX_BIT = np.int64(1) << np.int64(21)
TRUMPS_LO = (np.int64(1) << np.int64(21)) - np.int64(1)
LANE = np.int64(0x3FFF)
MAXPLY = 80
MAXMOVES = 24
CLOCK_EVERY = 4096
#: Table row: four key words, lower, upper, best move and work (a row of 64 bytes);
#: a bucket is ``TT_WAYS`` rows.
TT_COLUMNS = 8
TT_KEYS = 4
#: Rows a bucket: a new entry takes the row of least work.
TT_WAYS = 4
#: The suits' spot cards (ranks 1..10, each worth a half point) and honours per lane,
#: and the middle trumps 2..20.
SPOTS_HI = np.int64(0x03FF03FF03FF03FF)
HONOURS_HI = np.int64(0x3C003C003C003C00)
MIDDLE_LO = np.int64(0xFFFFE)
#: The Petit, the 21 and the Excuse in the trump word.
OUDLERS_LO = np.int64(1 | (1 << 20) | (1 << 21))
INF = 1 << 30
#: The state word: leader (2 bits), taker has a trick, defence has a trick, who owes
#: the Excuse's card (2 bits), the Petit won by the taker one trick before the last.
S_TK = 4
S_DF = 8
S_OWED_SHIFT = 4
S_PEN = 64


def _half_points_by_code() -> np.ndarray:
    pts = np.zeros(86, np.int64)
    for s in range(4):
        for r in range(14):
            pts[16 * s + r] = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)[r]
    for t in range(21):
        pts[64 + t] = 1
    pts[PETIT_CODE] = pts[T21_CODE] = pts[EX_CODE] = 9
    return pts


PTS = _half_points_by_code()


@njit(cache=True, inline="always")
def _group(c):
    """0..3 a suit, 4 the trumps, 5 the Excuse."""
    if c < 64:
        return c >> 4
    return 5 if c == EX_CODE else 4


@njit(cache=True, inline="always")
def _trick_facts(tc, n):
    """The group led (-1 none), the position winning so far and the highest trump's
    rank (-1 none) of the first ``n`` cards of trick ``tc``."""
    led = -1
    win = -1
    top = -1
    best = -1
    for i in range(n):
        c = tc[i]
        if c == EX_CODE:
            continue
        g = _group(c)
        if led < 0:
            led = g
        if g == 4:
            if c - 64 > top:
                top = c - 64
                win = i
        elif top < 0 and g == led and (c & 15) > best:
            best = c & 15
            win = i
    return led, win, top


@njit(cache=True, inline="always")
def _legal(lo, hi, led, top):
    """The legal cards of a hand as its two words."""
    if led < 0:
        return lo, hi
    ex = lo & EX_BIT
    if led < 4:
        same = hi & (LANE << (16 * led))
        if same:
            return ex, same
    trumps = lo & TRUMPS_LO
    if trumps == 0:
        return lo, hi
    if top >= 0:
        over = trumps & ~((np.int64(2) << top) - 1)
        if over:
            return over | ex, np.int64(0)
    return trumps | ex, np.int64(0)


@njit(cache=True, inline="always")
def _next_above(word, bit, lane_end):
    """The lowest set bit of ``word`` above ``bit`` below ``lane_end`` (-1 none)."""
    above = word & ~((np.int64(2) << bit) - 1) & ((np.int64(1) << lane_end) - 1)
    if above == 0:
        return -1
    return ctz_nb(above)


@njit(cache=True)
def _moves(lo, hi, led, top, live_lo, live_hi, out, tc, n, wpos, taker_side, win_side, pts,
           tt_move, score, keys, hlo_all, hhi_all, mover, taker):
    """The legal moves minus equivalent ones, ordered best first; returns their count.

    A card is dropped when the next card above it still in play (hands and trick) is the
    mover's own legal card of the same value: the two are interchangeable.  Order: the
    table's move; following, the cheapest card that wins when the trick is the other
    side's, the richest when it is one's own; leading, masters of their group first (a
    suit's master only where no opponent void in it holds a trump)."""
    llo, lhi = _legal(lo, hi, led, top)
    k = 0
    wtop = top
    for word_i in range(2):
        w = lhi if word_i == 0 else llo
        while w:
            b = ctz_nb(w)
            w &= w - 1
            if word_i == 0:
                c = b
                end = 16 * (b >> 4) + 14
                nxt = _next_above(live_hi, b, end)
                if nxt >= 0 and (lhi >> nxt) & 1 and pts[nxt] == pts[c]:
                    continue
            else:
                c = 64 + b
                # in a score search the Petit is itself (the petit au bout)
                if b < 21 and not (score and b == 0):
                    nxt = _next_above(live_lo, b, 21)
                    if nxt >= 0 and (llo >> nxt) & 1 and pts[64 + nxt] == pts[c]:
                        continue
            v = pts[c]
            if c == tt_move:
                order = 1 << 20
            elif n == 0:
                g = _group(c)
                if g == 5:
                    order = 10
                elif g == 4:
                    master = _next_above(live_lo & TRUMPS_LO, c - 64, 21) < 0
                    order = (400 + v) if master else (100 - (c - 64))
                else:
                    master = _next_above(live_hi, c, 16 * g + 14) < 0
                    if master:
                        # a master wins only if no opponent void in the suit trumps it
                        lane = LANE << (16 * g)
                        for s in range(N_SEATS):
                            if ((s == taker) != (mover == taker) and hhi_all[s] & lane == 0
                                    and hlo_all[s] & TRUMPS_LO):
                                master = False
                    order = (500 + v) if master else (200 - v * 8 - (c & 15))
            else:
                if c == EX_CODE:
                    order = 50
                else:
                    g = _group(c)
                    beats = False
                    if g == 4:
                        beats = c - 64 > wtop
                    elif wtop < 0 and wpos >= 0 and g == _group(tc[wpos]) and c > tc[wpos]:
                        beats = True
                    if win_side == taker_side:
                        order = (300 + v * 8 - (c & 15)) if not beats else (200 - (c & 63))
                    elif beats:
                        order = 400 + v * 8 - (c & 63)
                    else:
                        order = 100 - v * 8 - (c & 15)
            # insertion sort, best first (a dozen moves at most, mostly fewer)
            key = (np.int64(order) << 8) | c
            j = k
            while j > 0 and keys[j - 1] < key:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = key
            k += 1
    for i in range(k):
        out[i] = keys[i] & 255
    return k


@njit(cache=True, inline="always")
def _high_bit(w):
    return 63 - clz_nb(w) if w else -1


@njit(cache=True, inline="always")
def _quick_bounds(hlo, hhi, taker, rest, state):
    """Bounds on the taker's future card points at a trick start.

    Up to everything still in play (+1: an Excuse's card the defence may still owe),
    less the trumps of the defence above his highest (they win their tricks, as many
    at least as one defender holds, with the other cards in them); at least,
    for each of his trumps above all of the defence's, the trump and three cards (each
    worth a half point at least, the Excuse's exchange card included).  While the
    defence has no trick, an Excuse it plays pays its card only with its first trick
    (two cards count), and the taker's Excuse may still win the last trick (the defence's
    trumps count for nothing); a card the taker owes costs him one.  Before the last
    trick the Excuse is worth its side eight at least if it plays it then: ``ex_lo``
    (the taker's) and ``ex_up`` (the defence's) are returned beside the bounds that hold
    whatever anyone plays."""
    df = (state & S_DF) != 0
    mine = hlo[taker] & TRUMPS_LO
    theirs_all = np.int64(0)
    for s in range(N_SEATS):
        if s != taker:
            theirs_all |= hlo[s]
    theirs = theirs_all & TRUMPS_LO
    top_mine = _high_bit(mine)
    top_theirs = _high_bit(theirs)
    lower = 0
    upper = rest + 1
    masters = mine & ~((np.int64(2) << top_theirs) - 1) if top_theirs >= 0 else mine
    while masters:
        b = ctz_nb(masters)
        masters &= masters - 1
        lower += PTS[64 + b] + (3 if df else 2)
    if (state >> S_OWED_SHIFT) & 3 == 1:
        lower = max(lower - 1, 0)
    # before the last trick the Excuse's side may play it and keep it, less the
    # half-point card it gives (which the defence's exchange in ``rest + 1`` covers; a
    # defence Excuse among the master tricks' cards is counted there as one).  Unlike
    # the rest, this holds only if that side does play it early: it is returned apart
    # (the taker's gain, the defence's), for the score's bounds must not mix the two.
    ex_lo = 0
    ex_up = 0
    if popcount_nb(np.uint64(hlo[taker])) + popcount_nb(np.uint64(hhi[taker])) >= 2:
        if hlo[taker] & EX_BIT:
            ex_lo = 8
        elif theirs_all & EX_BIT:
            ex_up = 8
    if not df and hlo[taker] & EX_BIT:
        return lower, upper, ex_lo, ex_up
    above = ~((np.int64(2) << top_mine) - 1) if top_mine >= 0 else TRUMPS_LO
    lost = theirs & above
    while lost:
        b = ctz_nb(lost)
        lost &= lost - 1
        upper -= PTS[64 + b]
    # one seat's winners fall in distinct tricks: at least that many tricks go to the
    # defence whole, each other card in them worth a half point at least (the taker's
    # Excuse aside: he keeps it)
    n_lost = 0
    most = 0
    for s in range(N_SEATS):
        if s != taker:
            m = popcount_nb(np.uint64(hlo[s] & above & TRUMPS_LO))
            n_lost += m
            most = max(most, m)
    if most > 0:
        upper -= max(4 * most - n_lost - (1 if hlo[taker] & EX_BIT else 0), 0)
    return lower, upper, ex_lo, ex_up


#: Levels of the outcome table's range minima and maxima over points (2**7 < 183).
RANGE_LEVELS = 8


@njit(cache=True)
def _outcome_ranges(table):
    """Per (oudlers, petit au bout, chelem), the minimum and maximum of the outcome table
    over the points ``p .. p + 2**k - 1``, as ``[k, 9 oudlers + 3 pab + chelem, p]``."""
    npts = table.shape[0]
    rmin = np.zeros((RANGE_LEVELS, 36, npts), np.int64)
    rmax = np.zeros((RANGE_LEVELS, 36, npts), np.int64)
    for o in range(table.shape[1]):
        for pab in range(table.shape[2]):
            for ch in range(table.shape[3]):
                j = 9 * o + 3 * pab + ch
                for p in range(npts):
                    rmin[0, j, p] = table[p, o, pab, ch]
                    rmax[0, j, p] = table[p, o, pab, ch]
                for k in range(1, RANGE_LEVELS):
                    half = 1 << (k - 1)
                    for p in range(npts - (1 << k) + 1):
                        rmin[k, j, p] = min(rmin[k - 1, j, p], rmin[k - 1, j, p + half])
                        rmax[k, j, p] = max(rmax[k - 1, j, p], rmax[k - 1, j, p + half])
    return rmin, rmax


@njit(cache=True, inline="always")
def _outcome_bounds(rmin, rmax, plo, pup, olo, oup, pabs, chs):
    """The least and the greatest outcome over the points ``plo..pup``, the oudlers
    ``olo..oup`` and the petit au bout and chelem values in the bit sets ``pabs``,
    ``chs``."""
    k = _high_bit(np.int64(pup - plo + 1))
    q = pup - (1 << k) + 1
    vlo = INF
    vup = -INF
    for o in range(olo, oup + 1):
        for pab in range(3):
            if (pabs >> pab) & 1:
                for ch in range(3):
                    if (chs >> ch) & 1:
                        j = 9 * o + 3 * pab + ch
                        vlo = min(vlo, rmin[k, j, plo], rmin[k, j, q])
                        vup = max(vup, rmax[k, j, plo], rmax[k, j, q])
    return vlo, vup


@njit(cache=True, inline="always")
def _hash(k0, k1, k2, k3):
    h = (k0 * np.int64(-7046029254386353131)) ^ (k1 * np.int64(-4658895280553007687))
    h ^= (k2 * np.int64(0x2545F4914F6CDD1D)) ^ (k3 * np.int64(-3372029247567499371))
    return h ^ (h >> 29)


@njit(cache=True, inline="always")
def _canonical_key(hlo, hhi, live_lo, live_hi, out):
    """The key words of a trick start's cards, equal for isomorphic positions.

    The live cards are renamed by rank within their group keeping what tells them
    apart: a suit's spot cards (all worth a half point) become its lowest ranks, the
    middle trumps 2..20 likewise; honours, the Petit, the 21 and the Excuse stay.  The
    renamed live set is the counts and the cards kept (``out[3]``); the owners are two
    bits per live card in order (seat 1 or 3, seat 2 or 3), packed with ``pext``."""
    a_hi = pext_nb(hhi[1] | hhi[3], live_hi)
    b_hi = pext_nb(hhi[2] | hhi[3], live_hi)
    a_lo = pext_nb(hlo[1] | hlo[3], live_lo)
    b_lo = pext_nb(hlo[2] | hlo[3], live_lo)
    counts = np.int64(0)
    for g in range(4):
        counts |= popcount_nb(np.uint64(live_hi & (np.int64(0x3FF) << (16 * g)))) << (4 * g)
    out[0] = a_hi
    out[1] = b_hi
    out[2] = a_lo | (b_lo << 22)
    out[3] = (pext_nb(live_hi, HONOURS_HI) | (counts << 16)
              | ((live_lo & ~MIDDLE_LO) << 32)
              | (popcount_nb(np.uint64(live_lo & MIDDLE_LO)) << 54))


@njit(cache=True, inline="always")
def _move_index(c, live_lo, live_hi):
    """A card as its place among the live cards of its word (stable under renaming)."""
    if c >= 64:
        return 128 | popcount_nb(np.uint64(live_lo & ((np.int64(1) << (c - 64)) - 1)))
    return popcount_nb(np.uint64(live_hi & ((np.int64(1) << c) - 1)))


@njit(cache=True, inline="always")
def _move_of_index(m, live_lo, live_hi):
    if m == 255:
        return -1
    if m & 128:
        return 64 + ctz_nb(pdep_nb(np.int64(1) << (m & 127), live_lo))
    return ctz_nb(pdep_nb(np.int64(1) << m, live_hi))


@njit(cache=True, inline="always")
def _flip(hlo, hhi, seat, c, live_lo, live_hi):
    """Take card ``c`` out of ``seat``'s hand and the cards in play, or put it back;
    returns the cards in play."""
    if c >= 64:
        b = np.int64(1) << (c - 64)
        hlo[seat] ^= b
        return live_lo ^ b, live_hi
    b = np.int64(1) << c
    hhi[seat] ^= b
    return live_lo, live_hi ^ b


@njit(cache=True, inline="always")
def _take(best, bmove, d, value, c, maximise):
    """Keep ``value`` (of card ``c``) as frame ``d``'s best if it is better for the mover."""
    if (value > best[d]) if maximise else (value < best[d]):
        best[d] = value
        bmove[d] = c


@njit(cache=True)
def search(hlo, hhi, leader0, tc0, n0, taker, state0, points0, oudlers0, alpha0, beta0,
           score, excuse_kept, table, rmin, rmax, tt, stats):
    """One fail-soft alpha-beta search of the position; its value (see the module).

    ``hlo``/``hhi`` are the four hands (changed during the search, restored after),
    ``tc0[:n0]`` the cards of the trick in progress led by ``leader0``, ``state0`` the
    state word, ``points0``/``oudlers0`` the taker's half points and oudlers so far,
    ``rmin``/``rmax`` the outcome table's ranges (:func:`_outcome_ranges`, score only)."""
    nseats = N_SEATS
    mask = tt.shape[0] - TT_WAYS
    # per ply: mover, window, best, move list, index, trick cards, state to restore
    mv = np.empty((MAXPLY, MAXMOVES), np.int64)
    nm = np.zeros(MAXPLY, np.int64)
    mi = np.zeros(MAXPLY, np.int64)
    al = np.zeros(MAXPLY, np.int64)
    be = np.zeros(MAXPLY, np.int64)
    best = np.zeros(MAXPLY, np.int64)
    bmove = np.zeros(MAXPLY, np.int64)
    gain = np.zeros(MAXPLY, np.int64)
    slot = np.full(MAXPLY, -1, np.int64)
    keys = np.zeros((MAXPLY, TT_KEYS), np.int64)
    scratch = np.empty(MAXMOVES, np.int64)
    nstart = np.zeros(MAXPLY, np.int64)
    trick = np.zeros((MAXPLY + 1, 4), np.int64)
    tn = np.zeros(MAXPLY + 1, np.int64)
    lead = np.zeros(MAXPLY + 1, np.int64)
    st = np.zeros(MAXPLY + 1, np.int64)
    pts_so_far = np.zeros(MAXPLY + 1, np.int64)
    oud_so_far = np.zeros(MAXPLY + 1, np.int64)
    for i in range(n0):
        trick[0, i] = tc0[i]
    tn[0] = n0
    lead[0] = leader0
    st[0] = state0
    pts_so_far[0] = points0
    oud_so_far[0] = oudlers0
    # the node budget covers every test since the counters were armed (one Budget for a
    # whole MTD(f) call), hence the running total against the limit
    limit = stats[ST_LIMIT]
    deadline = stats[ST_DEADLINE]
    nodes = stats[ST_NODES]
    live_lo = np.int64(0)
    live_hi = np.int64(0)
    for s in range(nseats):
        live_lo |= hlo[s]
        live_hi |= hhi[s]
    left_cards = popcount_nb(np.uint64(live_lo)) + popcount_nb(np.uint64(live_hi))
    rest = 0
    w = live_hi
    while w:
        rest += PTS[ctz_nb(w)]
        w &= w - 1
    w = live_lo
    while w:
        rest += PTS[64 + ctz_nb(w)]
        w &= w - 1
    d = 0
    al[0] = alpha0
    be[0] = beta0
    entering = True
    ret = 0
    aborted = False
    while True:
        if entering:
            entering = False
            nodes += 1
            if (limit > 0 and nodes > limit) or (
                    deadline > 0 and (nodes & (CLOCK_EVERY - 1)) == 0 and cycles() > deadline):
                aborted = True
                break
            n = tn[d]
            mover = (lead[d] + n) % nseats
            tt_move = -1
            slot[d] = -1
            nstart[d] = nodes
            qlo = 0
            qup = rest + 1
            if n == 0:
                qlo, qup, ex_lo, ex_up = _quick_bounds(hlo, hhi, taker, rest, st[d])
                if score:
                    # the outcome over the ends the card points allow: the least under
                    # the taker's early Excuse, the greatest under the defence's (any
                    # table, monotone or not)
                    sd = st[d]
                    top = table.shape[0] - 1
                    p0 = pts_so_far[d]
                    oup = min(oud_so_far[d] + popcount_nb(np.uint64(live_lo & OUDLERS_LO)), 3)
                    pabs = 7 if (live_lo & 1) or (sd & S_PEN) else 1
                    chs = 1 | (0 if sd & S_DF else 2) | (0 if sd & S_TK else 4)
                    plo = min(max(p0 + qlo + ex_lo, 0), top)
                    pup = min(max(p0 + qup, plo), top)
                    vlo, _ = _outcome_bounds(rmin, rmax, plo, pup, oud_so_far[d], oup,
                                             pabs, chs)
                    plo = min(max(p0 + qlo, 0), top)
                    pup = min(max(p0 + qup - ex_up, plo), top)
                    _, vup = _outcome_bounds(rmin, rmax, plo, pup, oud_so_far[d], oup,
                                             pabs, chs)
                    qlo, qup = vlo, vup
                else:
                    qlo += ex_lo
                    qup -= ex_up
            if n == 0 and (qup <= al[d] or qlo >= be[d]):
                ret = qup if qup <= al[d] else qlo
                slot[d] = -2
            elif n == 0:
                # a trick start: the table
                kd = keys[d]
                _canonical_key(hlo, hhi, live_lo, live_hi, kd)
                sw = np.int64(st[d] & 127)
                if score:
                    sw |= ((pts_so_far[d] & 511) << 7) | (oud_so_far[d] << 16)
                kd[2] |= sw << 44
                h = _hash(kd[0], kd[1], kd[2], kd[3]) & mask
                found = -1
                for r in range(h, h + TT_WAYS):
                    if (tt[r, 0] == kd[0] and tt[r, 1] == kd[1] and tt[r, 2] == kd[2]
                            and tt[r, 3] == kd[3] and tt[r, 6] != 0):
                        found = r
                        break
                if found >= 0:
                    stats[ST_TT_HITS] += 1
                    lo_b = tt[found, 4]
                    up_b = tt[found, 5]
                    if lo_b >= be[d] or up_b <= al[d] or lo_b == up_b:
                        stats[ST_TT_CUTS] += 1
                        ret = lo_b if lo_b >= be[d] else up_b
                        if lo_b == up_b:
                            ret = lo_b
                        slot[d] = -2
                    else:
                        tt_move = _move_of_index((tt[found, 6] >> 1) & 255, live_lo, live_hi)
                        slot[d] = found
                else:
                    slot[d] = h | (np.int64(1) << 40)
            if slot[d] == -2:
                # decided by the table: unwind as a return
                pass
            else:
                led, wpos, top = _trick_facts(trick[d], n)
                wside = 0
                if n > 0:
                    wside = 1 if (lead[d] + wpos) % nseats == taker else 0
                tside = 1 if mover == taker else 0
                lv_lo = live_lo
                lv_hi = live_hi
                for i in range(n):
                    c = trick[d, i]
                    if c >= 64:
                        lv_lo |= np.int64(1) << (c - 64)
                    else:
                        lv_hi |= np.int64(1) << c
                nm[d] = _moves(hlo[mover], hhi[mover], led, top, lv_lo, lv_hi, mv[d],
                               trick[d], n, wpos, tside, wside, PTS, tt_move, score,
                               scratch, hlo, hhi, mover, taker)
                mi[d] = 0
                best[d] = -INF if mover == taker else INF
                bmove[d] = -1
        # --- the frame at d either plays its next move or returns
        if slot[d] == -2:
            value = ret
            slot[d] = -1
            # fall through to the return below
        else:
            n = tn[d]
            mover = (lead[d] + n) % nseats
            if mi[d] < nm[d] and not (best[d] >= be[d] if mover == taker
                                       else best[d] <= al[d]):
                c = mv[d, mi[d]]
                mi[d] += 1
                live_lo, live_hi = _flip(hlo, hhi, mover, c, live_lo, live_hi)
                left_cards -= 1
                rest -= PTS[c]
                for i in range(n):
                    trick[d + 1, i] = trick[d, i]
                trick[d + 1, n] = c
                st[d + 1] = st[d]
                pts_so_far[d + 1] = pts_so_far[d]
                oud_so_far[d + 1] = oud_so_far[d]
                gain[d] = 0
                if n + 1 < nseats:
                    tn[d + 1] = n + 1
                    lead[d + 1] = lead[d]
                    al[d + 1] = al[d]
                    be[d + 1] = be[d]
                    d += 1
                    entering = True
                    continue
                # the trick is complete: settle it
                tcd = trick[d + 1]
                ld = lead[d]
                last = left_cards == 0
                s0 = st[d]
                tk = (s0 & S_TK) != 0
                df = (s0 & S_DF) != 0
                owed = (s0 >> S_OWED_SHIFT) & 3
                exw = last and tcd[0] == EX_CODE and ld == taker and not df
                if exw:
                    wpos = 0
                else:
                    _, wpos, _ = _trick_facts(tcd, nseats)
                winner = (ld + wpos) % nseats
                tw = winner == taker
                p = 0
                o = 0
                tp = 0
                to = 0
                has_ex = -1
                has_petit = False
                for i in range(nseats):
                    ci = tcd[i]
                    p += PTS[ci]
                    if ci == EX_CODE or ci == PETIT_CODE or ci == T21_CODE:
                        o += 1
                    if ci == EX_CODE:
                        has_ex = i
                    if ci == PETIT_CODE:
                        has_petit = True
                if has_ex >= 0 and not exw:
                    ex_taker = (ld + has_ex) % nseats == taker
                    if ex_taker != tw and not (last and not excuse_kept):
                        p -= 9
                        o -= 1
                        if ex_taker:
                            tp += 9
                            to += 1
                        side_has = tk if ex_taker else df
                        if side_has:
                            tp += -1 if ex_taker else 1
                        else:
                            owed = 1 if ex_taker else 2
                if tw:
                    tp += p
                    to += o
                if owed == 1 and tw:
                    tp -= 1
                    owed = 0
                elif owed == 2 and not tw:
                    tp += 1
                    owed = 0
                tk2 = tk or tw
                df2 = df or not tw
                ns = (S_TK if tk2 else 0) | (S_DF if df2 else 0) | (owed << S_OWED_SHIFT)
                if left_cards == nseats and has_petit and tw:
                    ns |= S_PEN
                if last:
                    if score:
                        pab = 0
                        if has_petit:
                            pab = 1 if tw else 2
                        elif (s0 & S_PEN) and tcd[0] == EX_CODE and not df2:
                            pab = 1
                        ch = 1 if not df2 else (2 if not tk2 else 0)
                        value = table[pts_so_far[d] + tp, oud_so_far[d] + to, pab, ch]
                    else:
                        value = tp
                    # undo the card and take the value as a child's
                    live_lo, live_hi = _flip(hlo, hhi, mover, c, live_lo, live_hi)
                    left_cards += 1
                    rest += PTS[c]
                    nodes += 1
                    _take(best, bmove, d, value, c, mover == taker)
                    continue
                gain[d] = 0 if score else tp
                st[d + 1] = ns | winner
                lead[d + 1] = winner
                tn[d + 1] = 0
                pts_so_far[d + 1] = pts_so_far[d] + tp
                oud_so_far[d + 1] = oud_so_far[d] + to
                al[d + 1] = al[d] - gain[d]
                be[d + 1] = be[d] - gain[d]
                d += 1
                entering = True
                continue
            # every move tried (or a cut-off): store and return
            value = best[d]
            if tn[d] == 0 and slot[d] >= 0:
                r = slot[d]
                fresh = (r >> 40) & 1
                r &= (np.int64(1) << 40) - 1
                kd = keys[d]
                if not fresh and not (tt[r, 0] == kd[0] and tt[r, 1] == kd[1]
                                      and tt[r, 2] == kd[2] and tt[r, 3] == kd[3]):
                    # the row went to another position during the search: a new row
                    fresh = 1
                    r &= ~np.int64(TT_WAYS - 1)
                work = nodes - nstart[d]
                if fresh:
                    # the bucket's row of least work (an empty row has none)
                    least = tt[r, 6] >> 9 if tt[r, 6] != 0 else -1
                    h0 = r
                    for j in range(h0 + 1, h0 + TT_WAYS):
                        wj = tt[j, 6] >> 9 if tt[j, 6] != 0 else -1
                        if wj < least:
                            least = wj
                            r = j
                    for j in range(TT_KEYS):
                        tt[r, j] = kd[j]
                    tt[r, 4] = -INF
                    tt[r, 5] = INF
                lo_b = tt[r, 4]
                up_b = tt[r, 5]
                if value >= be[d]:
                    lo_b = max(lo_b, value)
                elif value <= al[d]:
                    up_b = min(up_b, value)
                else:
                    lo_b = value
                    up_b = value
                tt[r, 4] = lo_b
                tt[r, 5] = up_b
                bm = _move_index(bmove[d], live_lo, live_hi) if bmove[d] >= 0 else 255
                tt[r, 6] = (work << 9) | (bm << 1) | 1
        # --- return ``value`` to the parent
        if d == 0:
            ret = value
            break
        d -= 1
        n = tn[d]
        mover = (lead[d] + n) % nseats
        c = mv[d, mi[d] - 1]
        live_lo, live_hi = _flip(hlo, hhi, mover, c, live_lo, live_hi)
        left_cards += 1
        rest += PTS[c]
        value += gain[d]
        _take(best, bmove, d, value, c, mover == taker)
    if aborted:
        # restore the hands from the frames still open
        while d > 0:
            d -= 1
            n = tn[d]
            mover = (lead[d] + n) % nseats
            if mi[d] > 0:
                live_lo, live_hi = _flip(hlo, hhi, mover, mv[d, mi[d] - 1], live_lo, live_hi)
        stats[ST_ABORTED] = 1
        stats[ST_NODES] = nodes
        return 0
    stats[ST_NODES] = nodes
    return ret


@njit(cache=True, nogil=True)
def mtd(hlo, hhi, leader, tc, n, taker, state, points, oudlers, score, excuse_kept, table,
        lower, upper, guess, max_tests, tt, stats, out):
    """MTD(f): null-window tests from ``guess`` until the bounds meet, ``max_tests`` ran
    (0: no limit) or the budget ran out; the bounds proved into ``out[0:2]``, the tests
    run returned.  The first test is "value >= guess" when the guess lies inside."""
    tests = 0
    if score:
        rmin, rmax = _outcome_ranges(table)
    else:
        rmin = np.zeros((1, 1, 1), np.int64)
        rmax = rmin
    g = min(max(guess, lower), upper)
    while lower < upper and (max_tests == 0 or tests < max_tests):
        # fail-soft steps near a bound are small; halve a wide interval instead
        b = g + 1 if g <= lower else g
        if upper - lower > 3 and tests > 0:
            mid = (lower + upper + 1) // 2
            b = mid if abs(b - mid) > (upper - lower) // 4 else b
        b = min(max(b, lower + 1), upper)
        v = search(hlo, hhi, leader, tc, n, taker, state, points, oudlers, b - 1, b, score,
                   excuse_kept, table, rmin, rmax, tt, stats)
        if stats[ST_ABORTED]:
            break
        tests += 1
        if v >= b:
            lower = v
        else:
            upper = v
        g = v
    out[0] = lower
    out[1] = upper
    return tests
