"""Equivalent cards and transposition-table keys.

Cards that no card of the hands separates and that are worth the same are
searched once (:func:`_representatives`); positions are keyed by the hands'
relative ranks (exact keys) or by their rank structure alone (rank-only keys,
whose stored bounds are widened by :func:`_point_shift`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ctz_nb, pdep_nb, pext_nb, popcount_nb
from ...cards import GROUP_MASKS
from .play import ALL_CARDS, TAROCKS, V2, V3, V4, V5, _above, _bit

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
# Searches without birds have no exact-key table beside it: +0.6-2% nodes, but
# one cache line a probe instead of three and the whole table for rank-only
# entries: 15% less CPU; benchmarks/EXPERIMENTS.md (2026-11-30, per-node cost,
# one table, ordering).
QS_MASK = np.array(list(GROUP_MASKS), dtype=np.int64)


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
def _last_card_representatives(legal, hands, w, birds):
    """:func:`_representatives` for the last card of a trick, whose winning
    card so far is ``w``: two cards that both win the trick (or both lose it)
    and have no card of the ``hands`` between them leave positions of the same
    rank structure and the same points, whatever trick cards lie between
    them.  Birds in ``birds`` keep their identity."""
    wins = legal & (_above(w) | (TAROCKS if w >= 22 else 0))
    eq = _equal_neighbours(hands, birds)
    return _drop_equivalent(wins, hands, eq) | _drop_equivalent(legal & ~wins, hands, eq)


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
