"""Features of a French Tarot position at a trick start, for the learned evaluator.

Seats are taken relative to the taker (0 the taker, then the defenders in playing
order), so the model sees one taker.  The four suits are put in a canonical order (the
taker's longest first, ties broken by the suit's whole layout), which makes the
features exactly invariant under permutations of the suits.  Columns:

* 22 × 4: the owner of each trump and of the Excuse (one column per relative seat);
* 4 × 14 × 4: the owner of each suit card, suits in canonical order;
* 4 × 12: per relative seat its trumps, trumps 16–21, the Excuse, the Petit, the 21,
  its half points, its suit lengths in canonical order, its voids and its Kings;
* 9: the leader (one-hot), tricks left, the taker's half points and oudlers so far, the
  half points still in the hands, the taker's trumps less the longest defender's.
"""

from __future__ import annotations

import numba
import numpy as np

from ..cards import HALF_POINTS, SUIT_START

__all__ = ["N_FEATURES", "features", "remaining_half_points"]

N_OWNER_TRUMPS = 22 * 4
N_OWNER_SUITS = 4 * 14 * 4
N_SEAT = 12
N_FEATURES = N_OWNER_TRUMPS + N_OWNER_SUITS + 4 * N_SEAT + 9

_LO_POINTS = np.array(HALF_POINTS[:22], np.int64)
_SUIT_POINTS = np.array(HALF_POINTS[SUIT_START[0]:SUIT_START[0] + 14], np.int64)


@numba.njit(cache=True, inline="always")
def _bit(w, b):
    return (w >> np.int64(b)) & np.int64(1)


@numba.njit(cache=True)
def _row(lo, hi, leader, taker, points, oudlers, out, lo_pts, suit_pts):
    out[:] = 0.0
    rel = np.empty(4, np.int64)  # relative seat -> absolute seat
    for r in range(4):
        rel[r] = (taker + r) % 4
    base = N_OWNER_TRUMPS + N_OWNER_SUITS
    remaining = 0
    trumps = np.zeros(4, np.int64)
    for r in range(4):
        w = lo[rel[r]]
        for b in range(22):
            if _bit(w, b):
                out[b * 4 + r] = 1.0
                remaining += lo_pts[b]
                if b < 21:
                    trumps[r] += 1
                    if b >= 15:
                        out[base + r * N_SEAT + 1] += 1.0
                out[base + r * N_SEAT + 5] += lo_pts[b]
        out[base + r * N_SEAT + 0] = trumps[r]
        out[base + r * N_SEAT + 2] = _bit(w, 21)
        out[base + r * N_SEAT + 3] = _bit(w, 0)
        out[base + r * N_SEAT + 4] = _bit(w, 20)
    # canonical suit order: the taker's length, his half points in it, then the layout
    keys = np.zeros(4, np.int64)
    for s in range(4):
        length = 0
        tpts = 0
        layout = 0
        for k in range(14):
            rank = 13 - k
            owner = 0
            for r in range(4):
                if _bit(hi[rel[r]], 16 * s + rank):
                    owner = r + 1
            layout = layout * 5 + owner
            if owner == 1:
                length += 1
                tpts += suit_pts[rank]
        keys[s] = (length << 40) | (tpts << 33) | layout
    order = np.argsort(-keys)
    for k in range(4):
        s = order[k]
        for rank in range(14):
            for r in range(4):
                if _bit(hi[rel[r]], 16 * s + rank):
                    out[N_OWNER_TRUMPS + (k * 14 + rank) * 4 + r] = 1.0
                    remaining += suit_pts[rank]
                    out[base + r * N_SEAT + 5] += suit_pts[rank]
                    out[base + r * N_SEAT + 6 + k] += 1.0
                    if rank == 13:
                        out[base + r * N_SEAT + 11] += 1.0
    for r in range(4):
        voids = 0
        for k in range(4):
            if out[base + r * N_SEAT + 6 + k] == 0.0:
                voids += 1
        out[base + r * N_SEAT + 10] = voids
    g = base + 4 * N_SEAT
    out[g + (leader - taker) % 4] = 1.0
    cards = 0
    w = lo[leader]
    while w:
        w &= w - 1
        cards += 1
    w = hi[leader]
    while w:
        w &= w - 1
        cards += 1
    out[g + 4] = cards
    out[g + 5] = points
    out[g + 6] = oudlers
    out[g + 7] = remaining
    out[g + 8] = trumps[0] - max(trumps[1], max(trumps[2], trumps[3]))


@numba.njit(cache=True)
def _features(hlo, hhi, leader, taker, points, oudlers, out, lo_pts, suit_pts):
    for i in range(len(leader)):
        _row(hlo[i], hhi[i], leader[i], taker[i], points[i], oudlers[i], out[i], lo_pts,
             suit_pts)


@numba.njit(cache=True)
def _remaining(hlo, hhi, lo_pts, suit_pts, out):
    for i in range(hlo.shape[0]):
        t = 0
        for s in range(4):
            for b in range(22):
                if _bit(hlo[i, s], b):
                    t += lo_pts[b]
            for b in range(64):
                if _bit(hhi[i, s], b):
                    t += suit_pts[b & 15]
        out[i] = t


def remaining_half_points(hlo: np.ndarray, hhi: np.ndarray) -> np.ndarray:
    """Half points still in the four hands, per position."""
    out = np.zeros(len(hlo), np.int64)
    pts = np.concatenate([_SUIT_POINTS, np.zeros(2, np.int64)])
    _remaining(np.ascontiguousarray(hlo, np.int64), np.ascontiguousarray(hhi, np.int64),
               _LO_POINTS, pts, out)
    return out


def features(hlo: np.ndarray, hhi: np.ndarray, leader: np.ndarray, taker: np.ndarray,
             points: np.ndarray, oudlers: np.ndarray, *, out: np.ndarray | None = None
             ) -> np.ndarray:
    """The (N, N_FEATURES) float64 matrix of N positions at a trick start: hands as the
    kernels' two words ``hlo``/``hhi`` (N, 4), seats, the taker's half points and
    oudlers so far."""
    n = len(leader)
    if out is None:
        out = np.empty((n, N_FEATURES))
    _features(np.ascontiguousarray(hlo, np.int64), np.ascontiguousarray(hhi, np.int64),
              np.ascontiguousarray(leader, np.int64), np.ascontiguousarray(taker, np.int64),
              np.ascontiguousarray(points, np.int64), np.ascontiguousarray(oudlers, np.int64),
              out, _LO_POINTS, np.concatenate([_SUIT_POINTS, np.zeros(2, np.int64)]))
    return out
