"""The play rules on card masks, for the numba kernels.

Constants by card index (nominal values, groups, group masks), masks of the
cards of each value, and the inline functions every kernel uses: which card
beats which, the legal cards of a hand, the birds the declarer keeps back.
Card masks are ``int64``: 54 bits fit, and signed arithmetic avoids numba's
uint64/int64 promotion to float.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import clz_nb, popcount_nb
from ...cards import GROUP_MASKS, GROUP_OF, NOMINAL

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
