"""Numba kernel of the game-point solver: null-window tests on the score sheet.

The goal of one test is "the declarer's net ≥ X".  Per final outcome (the
flags of :mod:`.payoff`: where I/II/III were played and who won their
tricks, whether the declarer lost a trick) that goal is "future points ≥
T[flags]", because the net is monotone in card points.  So the test is the
scalar minimax of

    u = (card points the declarer wins from here on) − T[final flags]

and the goal is met iff ``points already won since the root + u ≥ 0``.  The
value of a node does not depend on the points taken before it, so
transposition-table entries (keyed by the exact hands, the leader, the
flags reached so far and the goal index) serve every path to the node and
every later test at the same breakpoint; the breakpoint tests and the
principal-variation probes of one solve share one table.

The search is fail-soft alpha-beta over single card plays with an explicit
stack (numba's ``cache=True`` cannot load self-recursive functions, see
SOLVER_NOTES 2), probing and storing the table at trick starts.  The table
is an ``int64`` array of shape (2**bits, 4): ``key0, key1, key2, data`` with
``data`` packing a lower bound, an upper bound and the best card.  It is
valid for one payoff (one declarer, one set of thresholds) only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import popcount_nb
from .kernel import (
    GRP,
    NOM,
    _beats,
    _bit,
    _follow_score,
    _high,
    _lead_score,
    _legal,
    _nominal_sum,
    _sure_points,
)

INF = 2000
MAXPLY = 64
TT_MIN_CARDS = 2
KEY_VALID = np.int64(1) << np.int64(62)
_BOUND_OFFSET = 2048
_FIELD = np.int64(4095)
_NO_MOVE = 63
FLAG_LOST_TRICK = 64
# stats slots; ST_BEST receives the root's best card (-1 if the root was cut at once)
ST_NODES, ST_TT_HITS, ST_BEST = 0, 1, 2
NSTATS = 4


@njit(cache=True, inline="always")
def _pack(lo, hi, move):
    return ((np.int64(lo) + _BOUND_OFFSET) | ((np.int64(hi) + _BOUND_OFFSET) << 12)
            | (np.int64(move) << 24))


_M0 = np.int64(0x9E3779B97F4A7C15 - (1 << 64))
_M1 = np.int64(0x3C6EF372FE94F82B)
_M2 = np.int64(0x2545F4914F6CDD1D)
#: Goals are keyed in the top 10 bits of key2.
MAX_GOALS = 1024


@njit(cache=True, inline="always")
def _slot(k0, k1, k2, mask):
    h = (k0 * _M0) ^ (k1 * _M1) ^ (k2 * _M2)
    h ^= h >> np.int64(29)
    return h & mask


@njit(cache=True)
def _representatives(legal, in_play):
    """Legal cards minus those equivalent to a higher legal card.

    Two cards are equivalent when they are of one group, of equal value and
    no other card still in play (hands and the trick in progress) lies
    between them.  The bird cards I, II and III always keep their identity:
    where they fall decides bird items.
    """
    reps = legal
    m = legal & ~np.int64(7)
    while m:
        c = _high(m)
        m &= ~_bit(c)
        below = in_play & (_bit(c) - 1)
        if below == 0:
            continue
        q = _high(below)
        if q >= 3 and ((legal >> q) & 1) and GRP[q] == GRP[c] and NOM[q] == NOM[c]:
            reps &= ~_bit(q)
    return reps


@njit(cache=True)
def _pick(hands, seat, moves, ply, p, card, leader, declarer):
    """The most promising card of ``moves`` (the card-point kernel's ordering)."""
    best_c = -1
    best_s = np.int64(-1 << 40)
    m = moves
    led = -1
    w = -1
    ws = -1
    if p > 0:
        led = card[ply - p]
        w = led
        ws = leader
        for j in range(1, p):
            cj = card[ply - p + j]
            if _beats(cj, w):
                w = cj
                ws = (leader + j) % 3
    while m:
        c = _high(m)
        m &= ~_bit(c)
        if p == 0:
            sc = _lead_score(hands, seat, c, declarer)
        else:
            sc = _follow_score(hands, seat, c, p, led, w, ws, declarer)
        if sc > best_s:
            best_s = sc
            best_c = c
    return best_c


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


@njit(cache=True)
def search(hands_in, leader0, tcards, ntc, declarer, reserve, flags0, goal, thresholds,
           t_lo, t_hi, alpha0, beta0, tt, stats):
    """Fail-soft minimax value of u (see the module docstring) in window (alpha0, beta0).

    ``hands_in``: int64[3]; ``tcards``: int64[3] with the ``ntc`` cards of the
    trick in progress; ``reserve``: the declarer's announced birds (bits 1/2/4)
    under ``bird_reserve``; ``thresholds``: int64[goals, 128]; ``t_lo``/``t_hi``:
    the least and most threshold any final flags reachable from a flag value
    need (:meth:`.payoff.Payoff.threshold_bounds`), for quick bounds.
    """
    mask = np.int64(tt.shape[0] - 1)
    hands = hands_in.copy()
    T = thresholds[goal]
    TLO = t_lo[goal]
    THI = t_hi[goal]
    card = np.zeros(MAXPLY, np.int64)
    pos = np.zeros(MAXPLY, np.int64)
    lead = np.zeros(MAXPLY, np.int64)
    flg = np.zeros(MAXPLY, np.int64)
    tno = np.zeros(MAXPLY, np.int64)
    alpha = np.zeros(MAXPLY, np.int64)
    beta = np.zeros(MAXPLY, np.int64)
    a_orig = np.zeros(MAXPLY, np.int64)
    b_orig = np.zeros(MAXPLY, np.int64)
    best = np.zeros(MAXPLY, np.int64)
    bestc = np.zeros(MAXPLY, np.int64)
    moves = np.zeros(MAXPLY, np.int64)
    first = np.zeros(MAXPLY, np.int64)
    gain = np.zeros(MAXPLY, np.int64)
    slot = np.zeros(MAXPLY, np.int64)
    keys = np.zeros((MAXPLY, 3), np.int64)

    base = ntc
    for i in range(ntc):
        card[i] = tcards[i]
    ply = base
    pos[ply] = ntc
    lead[ply] = leader0
    flg[ply] = flags0
    alpha[ply] = alpha0
    beta[ply] = beta0
    cards_of_leader = popcount_nb(hands[leader0]) + (1 if ntc > 0 else 0)
    tno[ply] = 17 - cards_of_leader

    entering = True
    v = np.int64(0)
    stats[ST_BEST] = -1
    while True:
        if entering:
            # ---- enter the node at ply
            stats[ST_NODES] += 1
            p = pos[ply]
            L = lead[ply]
            f = flg[ply]
            ttmove = _NO_MOVE
            slot[ply] = -1
            done = False
            if p == 0:
                if (hands[0] | hands[1] | hands[2]) == 0:
                    v = -T[f]
                    done = True
                else:
                    tno[ply] = 17 - popcount_nb(hands[L])
                    # quick bounds: the declarer wins at least the points of his sure
                    # winners and at most the points left minus the defenders' sure ones
                    allh = hands[0] | hands[1] | hands[2]
                    left = _nominal_sum(allh) - 2 * (popcount_nb(allh) // 3)
                    sure_d, sure_f = _sure_points(hands[declarer], hands[(declarer + 1) % 3],
                                                  hands[(declarer + 2) % 3])
                    if left - sure_f - TLO[f] <= alpha[ply]:
                        v = left - sure_f - TLO[f]
                        done = True
                    elif sure_d - THI[f] >= beta[ply]:
                        v = sure_d - THI[f]
                        done = True
                if not done and p == 0:
                    if popcount_nb(hands[L]) >= TT_MIN_CARDS:
                        k0 = hands[0] | (L << 54) | KEY_VALID
                        k1 = hands[1] | (f << 54)
                        k2 = hands[2] | (goal << 54)
                        keys[ply, 0] = k0
                        keys[ply, 1] = k1
                        keys[ply, 2] = k2
                        s = _slot(k0, k1, k2, mask)
                        slot[ply] = s
                        if tt[s, 0] == k0 and tt[s, 1] == k1 and tt[s, 2] == k2:
                            stats[ST_TT_HITS] += 1
                            d = tt[s, 3]
                            lo = (d & _FIELD) - _BOUND_OFFSET
                            hi = ((d >> 12) & _FIELD) - _BOUND_OFFSET
                            ttmove = (d >> 24) & 63
                            if lo >= beta[ply]:
                                v = lo
                                done = True
                            elif hi <= alpha[ply]:
                                v = hi
                                done = True
                            else:
                                if lo > alpha[ply]:
                                    alpha[ply] = lo
                                if hi < beta[ply]:
                                    beta[ply] = hi
            elif ply > base:
                tno[ply] = tno[ply - 1]
            if not done:
                seat = (L + p) % 3
                led = card[ply - p] if p > 0 else -1
                legal = _legal(hands[seat], led, seat == declarer, reserve, tno[ply])
                in_play = hands[0] | hands[1] | hands[2]
                for j in range(p):
                    in_play |= _bit(card[ply - p + j])
                moves[ply] = _representatives(legal, in_play)
                a_orig[ply] = alpha[ply]
                b_orig[ply] = beta[ply]
                best[ply] = -INF if seat == declarer else INF
                bestc[ply] = _NO_MOVE
                first[ply] = ttmove if (ttmove != _NO_MOVE and (legal >> ttmove) & 1) else -1
        else:
            # ---- a child of ply returned v
            p = pos[ply]
            seat = (lead[ply] + p) % 3
            hands[seat] |= _bit(card[ply])
            v += gain[ply]
            done = False
            if seat == declarer:
                if v > best[ply]:
                    best[ply] = v
                    bestc[ply] = card[ply]
                if best[ply] > alpha[ply]:
                    alpha[ply] = best[ply]
            else:
                if v < best[ply]:
                    best[ply] = v
                    bestc[ply] = card[ply]
                if best[ply] < beta[ply]:
                    beta[ply] = best[ply]
            if alpha[ply] >= beta[ply]:
                moves[ply] = 0

        if not done:
            if moves[ply] == 0:
                # ---- node finished: store and return its value
                v = best[ply]
                s = slot[ply]
                if s >= 0:
                    lo = -INF
                    hi = INF
                    if v <= a_orig[ply]:
                        hi = v
                    elif v >= b_orig[ply]:
                        lo = v
                    else:
                        lo = v
                        hi = v
                    k0 = keys[ply, 0]
                    k1 = keys[ply, 1]
                    k2 = keys[ply, 2]
                    if tt[s, 0] == k0 and tt[s, 1] == k1 and tt[s, 2] == k2:
                        d = tt[s, 3]
                        olo = (d & _FIELD) - _BOUND_OFFSET
                        ohi = ((d >> 12) & _FIELD) - _BOUND_OFFSET
                        if olo > lo:
                            lo = olo
                        if ohi < hi:
                            hi = ohi
                    tt[s, 0] = k0
                    tt[s, 1] = k1
                    tt[s, 2] = k2
                    tt[s, 3] = _pack(lo, hi, bestc[ply])
                if ply == base:
                    stats[ST_BEST] = bestc[ply]
                done = True
            else:
                # ---- play the next card of ply
                p = pos[ply]
                L = lead[ply]
                seat = (L + p) % 3
                if first[ply] >= 0:
                    c = first[ply]
                    first[ply] = -1
                else:
                    c = _pick(hands, seat, moves[ply], ply, p, card, L, declarer)
                moves[ply] &= ~_bit(c)
                card[ply] = c
                hands[seat] &= ~_bit(c)
                nxt = ply + 1
                if p < 2:
                    gain[ply] = 0
                    pos[nxt] = p + 1
                    lead[nxt] = L
                    flg[nxt] = flg[ply]
                    alpha[nxt] = alpha[ply]
                    beta[nxt] = beta[ply]
                else:
                    c0 = card[ply - 2]
                    c1 = card[ply - 1]
                    w = 0
                    wc = c0
                    if _beats(c1, wc):
                        w = 1
                        wc = c1
                    if _beats(c, wc):
                        w = 2
                    winner = (L + w) % 3
                    pts = _nominal_sum(_bit(c0) | _bit(c1) | _bit(c)) - 2
                    g = pts if winner == declarer else 0
                    gain[ply] = g
                    pos[nxt] = 0
                    lead[nxt] = winner
                    flg[nxt] = _resolve_flags(flg[ply], tno[ply], c0, c1, c, L, winner, declarer)
                    alpha[nxt] = alpha[ply] - g
                    beta[nxt] = beta[ply] - g
                ply = nxt
                entering = True
                continue
        # ---- return v from ply
        if ply == base:
            return v
        ply -= 1
        entering = False


@njit(cache=True)
def test_goal(hands, leader, tcards, ntc, declarer, reserve, flags, goal, thresholds, t_lo,
              t_hi, gained, tt, stats):
    """Does the declarer reach goal ``goal`` with ``gained`` points won since the root?"""
    v = search(hands, leader, tcards, ntc, declarer, reserve, flags, goal, thresholds,
               t_lo, t_hi, -gained - 1, -gained, tt, stats)
    return v >= -gained


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of 2**bits rows."""
    return np.zeros((1 << bits, 4), dtype=np.int64)


__all__ = ["INF", "MAX_GOALS", "new_table", "search", "test_goal"]
