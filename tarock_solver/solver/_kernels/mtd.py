"""The drivers of the card-point search: MTD(f) that keeps the bounds it proved, per-card
values, and many positions in parallel.

An exact value is a sequence of null-window tests of :func:`.cardpoint.search` that share
one table; each fail-soft result moves the guess past the bound it proved.  When the
budget in ``stats`` runs out (:mod:`.stats`), the drivers stop and report the bounds
proved by the finished tests, so a caller never has to guess a value.  One numba call per
driver: a Python loop over the tests costs ~100 µs a solve (measured), as much as a whole
search of a small position.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...bits import ctz_nb
from .cardpoint import TT_COLUMNS, legal_cards, remaining_points, search
from .play import NOM, _beats, _bit
from .stats import NSTATS, ST_ABORTED, ST_NODES

#: No thresholds (the exact value, or a cell alone).
NO_THRESHOLDS = np.empty(0, np.int64)


@njit(cache=True, inline="always")
def cell_start(y, width, offset):
    """The start of the cell of the grid ``offset + k·width`` that holds ``y``."""
    return offset + width * ((y - offset) // width)


@njit(cache=True, inline="always")
def _narrow(hands, leader, tcards, ntrick, declarer, birds, b, lower, upper, tt, stats):
    """One null-window test "value >= b": the bounds it leaves (unchanged when the budget
    ran out) and its fail-soft result."""
    g = search(hands, leader, tcards, ntrick, declarer, birds, b - 1, b, tt, stats)
    if stats[ST_ABORTED]:
        return lower, upper, g
    if g < b:
        return lower, min(upper, g), g
    return max(lower, g), upper, g


@njit(cache=True, nogil=True)
def mtd_bounds(hands, leader, tcards, ntrick, declarer, birds, guess, first_test, width,
               offset, thresholds, tt, stats, bounds):
    """Bounds on the value into ``bounds[0:2]``; returns the tests run.

    MTD(f) from ``guess`` (outside 0..max: the middle of the range), after one test at
    ``first_test`` if it lies inside the range (a make threshold).  With ``width`` 1 the
    bounds meet (the exact value).  With a wider grid the tests stop once both bounds lie
    in one cell ``[offset + k·width, offset + (k+1)·width)`` and on one side of every
    value in ``thresholds`` (``value >= t`` known): every test but the last one or two is
    then at a grid point, and most of them away from the value, where the proofs are
    cheaper than the two right at it that an exact value needs.
    """
    lower = 0
    upper = remaining_points(hands, ntrick, tcards)
    tests = 0
    if lower < first_test <= upper:
        tests += 1
        lower, upper, g = _narrow(hands, leader, tcards, ntrick, declarer, birds, first_test,
                                  lower, upper, tt, stats)
    g = guess if lower <= guess <= upper else (lower + upper) // 2
    while (cell_start(lower, width, offset) != cell_start(upper, width, offset)
           and not stats[ST_ABORTED]):
        # the grid point at or below the guess, kept inside (lower, upper]
        b = cell_start(min(max(g, lower + 1), upper), width, offset)
        if b <= lower:
            b += width
        tests += 1
        lower, upper, g = _narrow(hands, leader, tcards, ntrick, declarer, birds, b, lower,
                                  upper, tt, stats)
    for i in range(thresholds.shape[0]):
        t = thresholds[i]
        if stats[ST_ABORTED]:
            break
        if lower < t <= upper:
            tests += 1
            lower, upper, g = _narrow(hands, leader, tcards, ntrick, declarer, birds, t, lower,
                                      upper, tt, stats)
    bounds[0] = lower
    bounds[1] = upper
    return tests


@njit(cache=True)
def card_bounds(hands, leader, tcards, ntrick, declarer, birds, tt, stats, lows, ups):
    """Bounds on the value of every legal card of the player to move into ``lows``/``ups``
    (int64[54]; illegal cards get -1); returns the tests run.

    One card of each equivalence class is searched (the others get its bounds), each
    from the previous card's value.  After the budget runs out the remaining cards get
    the trivial bounds.
    """
    legal, reps = legal_cards(hands, leader, tcards, ntrick, declarer, birds)
    s = (leader + ntrick) % 3
    child = np.empty(3, np.int64)
    ctc = np.zeros(3, np.int64)
    bounds = np.zeros(2, np.int64)
    for c in range(54):
        lows[c] = -1
        ups[c] = -1
    prev = -1
    guess = -1
    tests = 0
    m = legal
    while m:
        c = ctz_nb(m)
        m &= m - 1
        if not (reps >> c) & 1:
            lows[c] = lows[prev]
            ups[c] = ups[prev]
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
        g = 0
        lead = leader
        nt = ntrick + 1
        if ntrick == 2:
            w = ctc[0]
            lead = leader
            for i in range(1, 3):
                if _beats(ctc[i], w):
                    w = ctc[i]
                    lead = (leader + i) % 3
            g = NOM[ctc[0]] + NOM[ctc[1]] + NOM[ctc[2]] - 2 if lead == declarer else 0
            nt = 0
        if stats[ST_ABORTED]:
            bounds[0] = 0
            bounds[1] = remaining_points(child, nt, ctc)
        else:
            tests += mtd_bounds(child, lead, ctc, nt, declarer, birds, guess - g, -1, 1, 0,
                                NO_THRESHOLDS, tt, stats, bounds)
        lows[c] = g + bounds[0]
        ups[c] = g + bounds[1]
        # the next card's value is usually close: start its search there
        if bounds[0] == bounds[1]:
            guess = lows[c]
    return tests


@njit(cache=True, parallel=True)
def solve_batch(hands, leaders, tcards, ntricks, declarers, birds, targets, tt_bits, nchunks,
                out, nodes):
    """Solve many independent positions in parallel, one table per chunk.

    Position i goes to chunk ``i % nchunks``; each chunk runs on one thread with its own
    table, shared by all its positions.  ``targets[i] < 0`` asks for the exact value,
    otherwise ``out[i]`` is 1 if the declarer takes at least ``targets[i]`` points and 0
    if not.  ``nodes[i]`` gets the nodes searched for position i.
    """
    n = hands.shape[0]
    for k in prange(nchunks):
        tt = np.zeros((np.int64(1) << tt_bits, TT_COLUMNS), np.int64)
        st = np.zeros(NSTATS, np.int64)
        bounds = np.zeros(2, np.int64)
        for i in range(k, n, nchunks):
            before = st[ST_NODES]
            if targets[i] < 0:
                mtd_bounds(hands[i], leaders[i], tcards[i], ntricks[i], declarers[i], birds[i],
                           -1, -1, 1, 0, NO_THRESHOLDS, tt, st, bounds)
                out[i] = bounds[0]
            else:
                t = targets[i]
                v = search(hands[i], leaders[i], tcards[i], ntricks[i], declarers[i], birds[i],
                           t - 1, t, tt, st)
                out[i] = 1 if v >= t else 0
            nodes[i] = st[ST_NODES] - before
