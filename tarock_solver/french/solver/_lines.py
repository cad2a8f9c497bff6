"""Every line of play to the end of the trick in progress, and the minimax over them.

One kernel source, :func:`_walk`, specialised by its ``mode``: count the lines of a
position, write the positions they lead to (the next trick's start: hands, leader, and
the half points and oudlers the trick gives the taker), or fold a value per line back
into the position's minimax value (the taker's seat maximises, the others minimise).
Cards equivalent for the play (the solver's rule: the next live card above is the
mover's own legal card of the same value) are one line.

The trick's settlement is that of any trick but the last: the Excuse stays with its
side, which hands the winner a half-point card at once (the solver's deferred exchange,
owed while a side has no trick yet, is not followed here).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ctz_nb
from ._kernels import EX_CODE, PTS, _legal, _next_above, _trick_facts

__all__ = ["count_lines", "fold_lines", "write_lines"]

COUNT, WRITE, FOLD = 0, 1, 2


@njit(cache=True, inline="always")
def _remove(lo, hi, seat, c):
    if c >= 64:
        lo[seat] &= ~(np.int64(1) << (c - 64))
    else:
        hi[seat] &= ~(np.int64(1) << c)


@njit(cache=True, inline="always")
def _restore(lo, hi, seat, c):
    if c >= 64:
        lo[seat] |= np.int64(1) << (c - 64)
    else:
        hi[seat] |= np.int64(1) << c


@njit(cache=True)
def _gen(lo, hi, seat, tc, n, out):
    """The mover's legal cards, one per class of equivalent cards; returns their count."""
    led, _, top = _trick_facts(tc, n)
    llo, lhi = _legal(lo[seat], hi[seat], led, top)
    live_lo = lo[0] | lo[1] | lo[2] | lo[3]
    live_hi = hi[0] | hi[1] | hi[2] | hi[3]
    k = 0
    w = lhi
    while w:
        b = ctz_nb(w)
        w &= w - 1
        nxt = _next_above(live_hi, b, 16 * (b >> 4) + 14)
        if nxt >= 0 and (lhi >> nxt) & 1 and PTS[nxt] == PTS[b]:
            continue
        out[k] = b
        k += 1
    w = llo
    while w:
        b = ctz_nb(w)
        w &= w - 1
        # the Petit is never merged: its fate decides the oudlers (and the petit au bout)
        if 0 < b < 21:
            nxt = _next_above(live_lo, b, 21)
            if nxt >= 0 and (llo >> nxt) & 1 and PTS[64 + nxt] == PTS[64 + b]:
                continue
        out[k] = 64 + b
        k += 1
    return k


@njit(cache=True, inline="always")
def _settle(tc, leader, taker):
    """(winner seat, the taker's half points, the taker's oudlers) of a full trick."""
    _, win, _ = _trick_facts(tc, 4)
    winner = (leader + win) % 4
    taker_wins = winner == taker
    gain = 0
    oud = 0
    for i in range(4):
        c = tc[i]
        seat_taker = (leader + i) % 4 == taker
        if c == EX_CODE and seat_taker != taker_wins:
            # the Excuse stays with its side, a half-point card goes to the winner
            if seat_taker:
                gain += PTS[c] - 1
                oud += 1
            else:
                gain += 1
            continue
        if taker_wins:
            gain += PTS[c]
            if c == 64 or c == 84 or c == EX_CODE:
                oud += 1
    return winner, gain, oud


@njit(cache=True)
def _walk(hlo, hhi, leader, taker, tc0, n0, mode, totals, base, out_lo, out_hi, out_leader,
          out_gain, out_oud):
    """Visit every line from the position; returns (lines, the folded value)."""
    lo = hlo.copy()
    hi = hhi.copy()
    tc = np.zeros(4, np.int64)
    for i in range(n0):
        tc[i] = tc0[i]
    moves = np.zeros((4, 24), np.int64)
    nm = np.zeros(4, np.int64)
    at = np.zeros(4, np.int64)
    best = np.zeros(4)
    count = 0
    ply = n0
    nm[ply] = _gen(lo, hi, (leader + ply) % 4, tc, ply, moves[ply])
    best[ply] = -np.inf if (leader + ply) % 4 == taker else np.inf
    while True:
        if at[ply] == nm[ply]:
            if ply == n0:
                break
            v = best[ply]
            ply -= 1
            seat = (leader + ply) % 4
            _restore(lo, hi, seat, tc[ply])
            if seat == taker:
                best[ply] = max(best[ply], v)
            else:
                best[ply] = min(best[ply], v)
            at[ply] += 1
            continue
        seat = (leader + ply) % 4
        c = moves[ply, at[ply]]
        _remove(lo, hi, seat, c)
        tc[ply] = c
        if ply == 3:
            if mode == WRITE:
                winner, gain, oud = _settle(tc, leader, taker)
                j = base + count
                for s in range(4):
                    out_lo[j, s] = lo[s]
                    out_hi[j, s] = hi[s]
                out_leader[j] = winner
                out_gain[j] = gain
                out_oud[j] = oud
            elif mode == FOLD:
                v = totals[base + count]
                if seat == taker:
                    best[3] = max(best[3], v)
                else:
                    best[3] = min(best[3], v)
            count += 1
            _restore(lo, hi, seat, c)
            at[3] += 1
            continue
        ply += 1
        nm[ply] = _gen(lo, hi, (leader + ply) % 4, tc, ply, moves[ply])
        at[ply] = 0
        best[ply] = -np.inf if (leader + ply) % 4 == taker else np.inf
    return count, best[n0]


@njit(cache=True)
def count_lines(hlo, hhi, leader, taker, tc, n):
    """Lines per position (arrays over positions; ``tc``/``n`` the trick in progress)."""
    out = np.zeros(len(leader) + 1, np.int64)
    none_i = np.zeros((1, 4), np.int64)
    none_v = np.zeros(1, np.int64)
    none_f = np.zeros(1)
    for p in range(len(leader)):
        k, _ = _walk(hlo[p], hhi[p], leader[p], taker[p], tc[p], n[p], COUNT, none_f, 0,
                     none_i, none_i, none_v, none_v, none_v)
        out[p + 1] = out[p] + k
    return out


@njit(cache=True)
def write_lines(hlo, hhi, leader, taker, tc, n, offsets, out_lo, out_hi, out_leader,
                out_gain, out_oud):
    """The next trick's start of every line, position ``p``'s at ``offsets[p]``…"""
    none_f = np.zeros(1)
    for p in range(len(leader)):
        _walk(hlo[p], hhi[p], leader[p], taker[p], tc[p], n[p], WRITE, none_f, offsets[p],
              out_lo, out_hi, out_leader, out_gain, out_oud)


@njit(cache=True)
def fold_lines(hlo, hhi, leader, taker, tc, n, offsets, totals, out):
    """Each position's minimax over its lines' ``totals`` (the taker maximises)."""
    none_i = np.zeros((1, 4), np.int64)
    none_v = np.zeros(1, np.int64)
    for p in range(len(leader)):
        _, v = _walk(hlo[p], hhi[p], leader[p], taker[p], tc[p], n[p], FOLD, totals,
                     offsets[p], none_i, none_i, none_v, none_v, none_v)
        out[p] = v

