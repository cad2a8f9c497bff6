"""Features of a position for the evaluator: suit-symmetric by construction.

The solver treats the four suits alike (each holds values 5, 4, 3, 2, 1, 1, 1, 1 in
rank order, and the index layout puts them in rank order), so permuting the suits
— the same permutation in all three hands — leaves the double-dummy value
unchanged.  The features are built to be *exactly* invariant under such a
permutation: each suit is encoded as a block, and the four blocks are sorted by a
key computed from the block itself (the declarer's length in the suit, then the
ownership pattern), so a permuted position yields the identical feature vector.

Seats are relative to the declarer: owner 1 = the declarer, 2 = the defender who
plays after him, 3 = the defender before him, 0 = out of play (played, in the
discard or the untaken talon).  The leader is one-hot relative to the declarer.

Every feature is a multiple of 2**-6 (one-hots, and counts over 16 / 64), which
the model's exact fixed-point arithmetic relies on (:mod:`.model`).

Layout (``N_FEATURES`` columns):

* 3 seats × 22 tarocks, held or not (66; all three zero = out of play)
* 3 seats × 4 sorted suit blocks × 8 ranks, held or not (96)
* leader relative to the declarer, one-hot (3)
* cards per hand, one-hot 1..16 (16)
* per relative seat (3 × 8): tarocks/16, nominal points/64, voids/4, Kings/4,
  Trull cards/4, top-remaining-tarock run/16, share of the top 3 / top 6
  remaining tarocks (count/4, count/8)
* per seat × sorted suit (3 × 4 × 2): length/8, nominal points/16
* card points still in play (nominal − 2 per trick) / 64 (1)
"""

from __future__ import annotations

import numpy as np

from ..cards import NOMINAL

__all__ = ["N_FEATURES", "features", "relative_bits", "relative_owners", "remaining_points",
           "unpack_hands"]

_NOMINAL = np.asarray(NOMINAL, dtype=np.int64)[:54]
_POW4 = (4 ** np.arange(8, dtype=np.int64))[::-1].copy()  # King most significant


_SEATS = np.arange(3)
_SUIT_SHIFTS = np.array([22, 30, 38, 46], dtype=np.uint64)
_SUIT_NOMINAL = np.array([1, 1, 1, 1, 2, 3, 4, 5], dtype=np.uint8)
_POPCOUNT8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)

N_ONEHOT = 22 * 3 + 32 * 3
N_FEATURES = N_ONEHOT + 3 + 16 + 3 * 8 + 3 * 4 * 2 + 1


def unpack_hands(hands: np.ndarray) -> np.ndarray:
    """(N, 3) uint64 masks -> (N, 3, 54) uint8 card bits (bit i = card index i)."""
    h = np.ascontiguousarray(hands, dtype="<u8")
    bits = np.unpackbits(h.view(np.uint8).reshape(len(h), 3, 8), axis=2, bitorder="little")
    return bits[:, :, :54]


def relative_bits(hands: np.ndarray, declarers: np.ndarray) -> np.ndarray:
    """(N, 3, 54) uint8 card bits of the declarer, the next seat and the one after."""
    bits = unpack_hands(hands)
    d = np.asarray(declarers, dtype=np.int64)
    rows = np.arange(len(bits))[:, None]
    return bits[rows, (d[:, None] + np.arange(3)) % 3]


def relative_owners(hands: np.ndarray, declarers: np.ndarray) -> np.ndarray:
    """(N, 54) owner code per card: 0 out, 1 declarer, 2 next seat, 3 the one after."""
    rel = relative_bits(hands, declarers)
    return rel[:, 0] + 2 * rel[:, 1] + 3 * rel[:, 2]


def features(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray, *,
             out: np.ndarray | None = None) -> np.ndarray:
    """Feature matrix (N, N_FEATURES) float64 of validated positions.

    ``out`` (optional, float64 (N, N_FEATURES)) is filled and returned instead of a
    new array: reusing one buffer across blocks saves the page faults of a fresh
    multi-megabyte allocation per block.
    """
    h = np.ascontiguousarray(hands, dtype=np.uint64)
    n = len(h)
    rows = np.arange(n)
    d = np.asarray(declarers, dtype=np.int64)
    rel = h[rows[:, None], (d[:, None] + _SEATS) % 3]  # (N, 3): declarer, next, after
    if out is None:
        out = np.zeros((n, N_FEATURES), dtype=np.float64)
    else:
        out.fill(0.0)
    # tarocks: seat-major (3 seats x 22 cards); all three zero = out of play
    tbytes = np.ascontiguousarray(rel, dtype="<u8").view(np.uint8).reshape(n, 3, 8)[:, :, :3]
    tar_bits = np.unpackbits(tbytes, axis=2, bitorder="little")[:, :, :22]  # (N, 3, 22)
    out[:, :66] = tar_bits.reshape(n, 66)
    # suits: one byte per seat and suit; sorted by (declarer length, the three bytes)
    sbytes = ((rel[:, :, None] >> _SUIT_SHIFTS) & np.uint64(255)).astype(np.uint8)  # (N,3,4)
    suit_len = _POPCOUNT8[sbytes].astype(np.int64)  # (N, 3, 4)
    sb = sbytes.astype(np.int64)
    key = (suit_len[:, 0] << 24) | (sb[:, 0] << 16) | (sb[:, 1] << 8) | sb[:, 2]
    order = np.argsort(-key, axis=1, kind="stable")
    sorted_bytes = np.take_along_axis(sbytes, order[:, None, :], axis=2)
    suit_bits = np.unpackbits(sorted_bytes[:, :, :, None], axis=3, bitorder="little")
    out[:, 66:162] = suit_bits.reshape(n, 96)
    col = N_ONEHOT
    lead_rel = (np.asarray(leaders, dtype=np.int64) - d) % 3
    out[rows, col + lead_rel] = 1.0
    col += 3
    cards = tar_bits[:, 0].sum(axis=1, dtype=np.int64) + suit_len[:, 0].sum(axis=1, dtype=np.int64)
    out[rows, col + cards - 1] = 1.0
    col += 16
    # per-seat statistics (every hand holds `cards` cards)
    tcount = tar_bits.sum(axis=2, dtype=np.int64)
    rank_cnt = (suit_bits[:, :, 0] + suit_bits[:, :, 1] + suit_bits[:, :, 2]
                + suit_bits[:, :, 3]).astype(np.int64)  # (N, 3, 8) cards of each suit rank
    trull = tar_bits[:, :, 0].astype(np.int64) + tar_bits[:, :, 20] + tar_bits[:, :, 21]
    nominal = (cards[:, None] + rank_cnt[:, :, 4] + 2 * rank_cnt[:, :, 5]
               + 3 * rank_cnt[:, :, 6] + 4 * rank_cnt[:, :, 7] + 4 * trull)
    voids = (suit_len == 0).sum(axis=2)
    # top remaining tarocks, strongest first: rank among those in play
    tar = tar_bits[:, :, ::-1]  # (N, 3, 22), Sküs first
    in_play = tar.sum(axis=1, dtype=np.int8)
    rank = np.cumsum(in_play, axis=1, dtype=np.int8) * in_play  # 1-based; 0 = out of play
    held = tar > 0
    top3 = (held & ((rank >= 1) & (rank <= 3))[:, None, :]).sum(axis=2)
    top6 = (held & ((rank >= 1) & (rank <= 6))[:, None, :]).sum(axis=2)
    # run of top tarocks held by one seat: the held tarocks ranked above the best
    # tarock in play that the seat does not hold
    lost = (in_play[:, None, :] > 0) & ~held
    best_lost = np.where(lost, rank[:, None, :], 99).min(axis=2)
    run = (held & (rank[:, None, :] < best_lost[:, :, None])).sum(axis=2)
    dense = out[:, col:col + 24].reshape(n, 3, 8)
    dense[:, :, 0] = tcount / 16.0
    dense[:, :, 1] = nominal / 64.0
    dense[:, :, 2] = voids / 4.0
    dense[:, :, 3] = rank_cnt[:, :, 7] / 4.0
    dense[:, :, 4] = trull / 4.0
    dense[:, :, 5] = run / 16.0
    dense[:, :, 6] = top3 / 4.0
    dense[:, :, 7] = top6 / 8.0
    col += 24
    # per seat and sorted suit: length / 8 and nominal points / 16
    sorted_len = np.take_along_axis(suit_len, order[:, None, :], axis=2)  # (N, 3, 4)
    suit_pts = suit_bits @ _SUIT_NOMINAL  # (N, 3, 4)
    per_suit = out[:, col:col + 24].reshape(n, 3, 4, 2)
    per_suit[:, :, :, 0] = sorted_len / 8.0
    per_suit[:, :, :, 1] = suit_pts / 16.0
    col += 24
    out[:, col] = (nominal.sum(axis=1) - 2 * cards) / 64.0
    return out


def remaining_points(hands: np.ndarray) -> np.ndarray:
    """Card points still to be won (nominal sum of the cards in play − 2 per trick)."""
    bits = unpack_hands(hands).any(axis=1)
    n_cards = bits.sum(axis=1)
    return bits @ _NOMINAL - 2 * (n_cards // 3)
