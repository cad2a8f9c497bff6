"""Features of a position for the evaluator: suit-symmetric by construction.

Two implementations of the same matrix (``N_FEATURES`` columns; layout and invariance in
:func:`features_reference`): :func:`features`, a numba kernel that works one row at a
time (the one callers use), and :func:`features_reference`, the vectorised numpy version
that specifies it; the two agree bit for bit.
"""

from __future__ import annotations

import numba
import numpy as np

from ..cards import NOMINAL

__all__ = ["N_FEATURES", "features", "features_reference", "relative_bits", "relative_owners",
           "remaining_points", "remaining_points_reference", "unpack_hands"]

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


def features_reference(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray, *,
                       out: np.ndarray | None = None) -> np.ndarray:
    """Feature matrix (N, N_FEATURES) float64 of validated positions.

    ``out`` (optional, float64 (N, N_FEATURES)) is filled and returned instead of a
    new array: reusing one buffer across blocks saves the page faults of a fresh
    multi-megabyte allocation per block.

    The solver treats the four suits alike (each holds values 5, 4, 3, 2, 1, 1, 1, 1
    in rank order, and the index layout puts them in rank order), so permuting the
    suits (the same permutation in all three hands) leaves the double-dummy value
    unchanged.  The features are *exactly* invariant under such a permutation: each
    suit is encoded as a block, and the four blocks are sorted by a key computed from
    the block itself (the declarer's length in the suit, then the ownership pattern).
    Seats are relative to the declarer: owner 1 = the declarer, 2 = the defender who
    plays after him, 3 = the defender before him, 0 = out of play (played, in the
    discard or the untaken talon).  Every feature is a small dyadic fraction
    (one-hots, and counts over 4, 8, 16 or 64), exact in float64.  Layout:

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


# Column offsets of the layout (see features_reference).
_C_SUITS = 66
_C_LEAD = N_ONEHOT
_C_CARDS = _C_LEAD + 3
_C_DENSE = _C_CARDS + 16
_C_PER_SUIT = _C_DENSE + 3 * 8
_C_POINTS = _C_PER_SUIT + 3 * 4 * 2


@numba.njit(cache=True, inline="always")
def _popcount(x: int) -> int:
    # SWAR popcount of a non-negative int64 below 2**63
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@numba.njit(cache=True, nogil=True)
def _features_kernel(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray,
                     out: np.ndarray) -> None:
    # Row by row, every column written; the integer statistics are those of
    # features_reference, so the float64 divisions give the identical values.
    n = hands.shape[0]
    rel = np.zeros(3, dtype=np.int64)            # masks: declarer, next, after
    sbyte = np.zeros((3, 4), dtype=np.int64)     # suit byte per seat and suit
    slen = np.zeros((3, 4), dtype=np.int64)      # its popcount
    spts = np.zeros((3, 4), dtype=np.int64)      # its nominal points
    order = np.zeros(4, dtype=np.int64)
    key = np.zeros(4, dtype=np.int64)
    stats = np.zeros((3, 3), dtype=np.int64)     # per seat: top 3, top 6, run
    for r in range(n):
        d = declarers[r]
        for t in range(3):
            rel[t] = np.int64(hands[r, (d + t) % 3])
        # tarocks: seat-major, 3 x 22
        for t in range(3):
            h = rel[t]
            for c in range(22):
                out[r, t * 22 + c] = np.float64((h >> c) & 1)
        # suit bytes, lengths and points
        for t in range(3):
            h = rel[t]
            for s in range(4):
                b = (h >> (22 + 8 * s)) & 255
                sbyte[t, s] = b
                slen[t, s] = _popcount(b)
                spts[t, s] = (((b >> 0) & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1)
                              + 2 * ((b >> 4) & 1) + 3 * ((b >> 5) & 1) + 4 * ((b >> 6) & 1)
                              + 5 * ((b >> 7) & 1))
        # the suits sorted by key, descending; stable (ties keep the suit order)
        for s in range(4):
            key[s] = (slen[0, s] << 24) | (sbyte[0, s] << 16) | (sbyte[1, s] << 8) | sbyte[2, s]
            order[s] = s
        for i in range(1, 4):
            j = i
            while j > 0 and key[order[j - 1]] < key[order[j]]:
                tmp = order[j - 1]
                order[j - 1] = order[j]
                order[j] = tmp
                j -= 1
        for t in range(3):
            for p in range(4):
                b = sbyte[t, order[p]]
                base = _C_SUITS + t * 32 + p * 8
                for j in range(8):
                    out[r, base + j] = np.float64((b >> j) & 1)
        # leader relative to the declarer
        lead = (leaders[r] - d) % 3
        for k in range(3):
            out[r, _C_LEAD + k] = 0.0
        out[r, _C_LEAD + lead] = 1.0
        # cards per hand (the declarer's count)
        cards = _popcount(rel[0] & 0x3FFFFF)
        for s in range(4):
            cards += slen[0, s]
        for k in range(16):
            out[r, _C_CARDS + k] = 0.0
        out[r, _C_CARDS + cards - 1] = 1.0
        # top remaining tarocks, strongest first: rank among those in play.  The
        # hands are disjoint, so the rank grows along the tarocks in play and a
        # seat's run (its held tarocks ranked above the best one in play that it
        # lacks) ends at the first tarock in play that it lacks.
        top3_0 = top3_1 = top3_2 = 0
        top6_0 = top6_1 = top6_2 = 0
        run_0 = run_1 = run_2 = 0
        open_0 = open_1 = open_2 = True
        cum = 0
        for c in range(21, -1, -1):
            b0 = (rel[0] >> c) & 1
            b1 = (rel[1] >> c) & 1
            b2 = (rel[2] >> c) & 1
            ip = b0 + b1 + b2
            if ip == 0:
                continue
            cum += ip
            rk = cum * ip
            in3 = 1 if rk <= 3 else 0
            in6 = 1 if rk <= 6 else 0
            top3_0 += b0 * in3
            top3_1 += b1 * in3
            top3_2 += b2 * in3
            top6_0 += b0 * in6
            top6_1 += b1 * in6
            top6_2 += b2 * in6
            open_0 = open_0 and b0 != 0
            open_1 = open_1 and b1 != 0
            open_2 = open_2 and b2 != 0
            run_0 += 1 if open_0 else 0
            run_1 += 1 if open_1 else 0
            run_2 += 1 if open_2 else 0
        stats[0, 0] = top3_0
        stats[1, 0] = top3_1
        stats[2, 0] = top3_2
        stats[0, 1] = top6_0
        stats[1, 1] = top6_1
        stats[2, 1] = top6_2
        stats[0, 2] = run_0
        stats[1, 2] = run_1
        stats[2, 2] = run_2
        nominal_sum = 0
        for t in range(3):
            h = rel[t]
            tcount = _popcount(h & 0x3FFFFF)
            trull = (h & 1) + ((h >> 20) & 1) + ((h >> 21) & 1)
            kings = 0
            voids = 0
            suit_extra = 0  # nominal points of the suit cards above one each
            for s in range(4):
                b = sbyte[t, s]
                kings += (b >> 7) & 1
                if slen[t, s] == 0:
                    voids += 1
                suit_extra += spts[t, s] - slen[t, s]
            nominal = cards + suit_extra + 4 * trull
            nominal_sum += nominal
            base = _C_DENSE + t * 8
            out[r, base + 0] = tcount / 16.0
            out[r, base + 1] = nominal / 64.0
            out[r, base + 2] = voids / 4.0
            out[r, base + 3] = kings / 4.0
            out[r, base + 4] = trull / 4.0
            out[r, base + 5] = stats[t, 2] / 16.0
            out[r, base + 6] = stats[t, 0] / 4.0
            out[r, base + 7] = stats[t, 1] / 8.0
        # per seat and sorted suit: length / 8 and nominal points / 16
        for t in range(3):
            for p in range(4):
                s = order[p]
                base = _C_PER_SUIT + t * 8 + p * 2
                out[r, base] = slen[t, s] / 8.0
                out[r, base + 1] = spts[t, s] / 16.0
        out[r, _C_POINTS] = (nominal_sum - 2 * cards) / 64.0


def features(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray, *,
             out: np.ndarray | None = None) -> np.ndarray:
    """Feature matrix (N, N_FEATURES) float64 of validated positions.

    ``out`` (optional, float64 (N, N_FEATURES)) is filled and returned instead of a
    new array: reusing one buffer across blocks saves the page faults of a fresh
    multi-megabyte allocation per block.  Bit for bit the matrix of
    :func:`features_reference`.
    """
    h = np.ascontiguousarray(hands, dtype=np.uint64)
    n = len(h)
    le = np.ascontiguousarray(leaders, dtype=np.int64)
    de = np.ascontiguousarray(declarers, dtype=np.int64)
    if out is None:
        out = np.empty((n, N_FEATURES), dtype=np.float64)
    elif out.shape != (n, N_FEATURES) or out.dtype != np.float64:
        raise ValueError(f"out must be float64 of shape {(n, N_FEATURES)}, "
                         f"not {out.dtype} {out.shape}")
    _features_kernel(h.reshape(n, 3), le.reshape(n), de.reshape(n), out)
    return out


#: Per byte k of a card mask and its value b: the nominal sum of the cards 8k … 8k+7 in b.
_BYTE_NOMINAL = np.ascontiguousarray(
    (((np.arange(256)[:, None] >> np.arange(8)) & 1)  # (256, 8): bit i of byte value b
     @ np.append(_NOMINAL, np.zeros(10, dtype=np.int64)).reshape(8, 8).T).T)


def remaining_points(hands: np.ndarray) -> np.ndarray:
    """Card points still to be won (nominal sum of the cards in play − 2 per trick).

    By byte tables on the three hands' union (the adviser asks for thousands of rows a
    world; unpacking them to card bits cost as much as the trees)."""
    h = np.ascontiguousarray(hands, dtype="<u8").reshape(-1, 3)
    union = np.ascontiguousarray(h[:, 0] | h[:, 1] | h[:, 2])
    by = union.view(np.uint8).reshape(len(h), 8)
    pts = np.zeros(len(h), dtype=np.int64)
    n_cards = np.zeros(len(h), dtype=np.int64)
    for k in range(7):  # 54 cards: the eighth byte is empty
        pts += _BYTE_NOMINAL[k][by[:, k]]
        n_cards += _POPCOUNT8[by[:, k]]
    return pts - 2 * (n_cards // 3)


def remaining_points_reference(hands: np.ndarray) -> np.ndarray:
    """:func:`remaining_points` by the card bits (the tested definition)."""
    bits = unpack_hands(hands).any(axis=1)
    n_cards = bits.sum(axis=1)
    return bits @ _NOMINAL - 2 * (n_cards // 3)
