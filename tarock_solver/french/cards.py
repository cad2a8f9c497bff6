"""The 78-card French Tarot pack: card indices, values in half points, oudlers and seats.

A card is an index 0..77 and a set of cards a Python ``int`` with bit ``index`` set:
the trumps 1..21 (indices 0..20, a higher index a stronger trump), the Excuse (21),
then the four suits ♠ ♥ ♦ ♣ of 14 cards each, 1 (the ace) up to the King, weakest
first.  The solver's kernels hold a set as two 64-bit words, :func:`split`: the trumps
and the Excuse in the first, the suits in 16-bit lanes of the second.

Values are counted in half points so that every sum is whole: an oudler or a King is
9 (4.5 points), a Queen 7, a Cavalier 5, a Jack 3, any other card 1; the pack is 182
(91 points).
"""

from __future__ import annotations

from collections.abc import Iterable

N_CARDS = 78
N_TRUMPS = 21
EXCUSE = 21
PETIT = 0
TRUMP_21 = 20
OUDLERS = (PETIT, TRUMP_21, EXCUSE)

#: Suits in canonical order, their letters, names and symbols.
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_LETTERS = ("S", "H", "D", "C")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
SUIT_SIZE = 14
#: First index of each suit.
SUIT_START = tuple(22 + SUIT_SIZE * s for s in range(4))
#: Rank ids within a suit, weakest first (1 is the ace).
RANK_IDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
JACK, CAVALIER, QUEEN, KING = 10, 11, 12, 13
#: Half points of a suit card by rank position.
SUIT_HALF_POINTS = (1,) * 10 + (3, 5, 7, 9)

#: Trump group number (suits are 0..3).
TRUMP_GROUP = 4


def _ids() -> tuple[str, ...]:
    ids = [f"T{n}" for n in range(1, 22)] + ["EX"]
    for s in range(4):
        ids.extend(SUIT_LETTERS[s] + r for r in RANK_IDS)
    return tuple(ids)


#: Canonical id of every card, by index: ``T1``..``T21``, ``EX``, ``S1``..``SK`` …
CARD_IDS: tuple[str, ...] = _ids()
INDEX_OF: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}

#: Half points of every card, by index.
HALF_POINTS: tuple[int, ...] = tuple(
    [9] + [1] * 19 + [9] + [9] + list(SUIT_HALF_POINTS) * 4)
TOTAL_HALF_POINTS = 182

ALL_CARDS = (1 << N_CARDS) - 1
TRUMP_MASK = (1 << N_TRUMPS) - 1
OUDLER_MASK = sum(1 << c for c in OUDLERS)
KING_MASK = sum(1 << (SUIT_START[s] + KING) for s in range(4))


def suit_of(card: int) -> int:
    """0..3 for a suit card, :data:`TRUMP_GROUP` for a trump, -1 for the Excuse."""
    if card < N_TRUMPS:
        return TRUMP_GROUP
    if card == EXCUSE:
        return -1
    return (card - 22) // SUIT_SIZE


def rank_of(card: int) -> int:
    """Strength within its group: the trump number - 1, the suit rank 0..13; -1 the Excuse."""
    if card < N_TRUMPS:
        return card
    if card == EXCUSE:
        return -1
    return (card - 22) % SUIT_SIZE


def suit_mask(suit: int) -> int:
    """The set of a suit's 14 cards, or of the 21 trumps for :data:`TRUMP_GROUP`."""
    if suit == TRUMP_GROUP:
        return TRUMP_MASK
    return ((1 << SUIT_SIZE) - 1) << SUIT_START[suit]


def cards_of(mask: int) -> list[int]:
    """The indices in a set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def half_points(mask: int) -> int:
    """Card points of a set, in half points."""
    return sum(HALF_POINTS[c] for c in cards_of(mask))


def oudlers_in(mask: int) -> int:
    return bin(mask & OUDLER_MASK).count("1")


def split(mask: int) -> tuple[int, int]:
    """The kernels' two words of a set: trumps and Excuse (bits 0..21), suits in
    16-bit lanes (suit ``s`` rank ``r`` at bit ``16 s + r``)."""
    lo = mask & ((1 << 22) - 1)
    hi = 0
    for s in range(4):
        hi |= ((mask >> SUIT_START[s]) & ((1 << SUIT_SIZE) - 1)) << (16 * s)
    return lo, hi


def join(lo: int, hi: int) -> int:
    """The inverse of :func:`split`."""
    mask = int(lo) & ((1 << 22) - 1)
    for s in range(4):
        mask |= ((int(hi) >> (16 * s)) & ((1 << SUIT_SIZE) - 1)) << SUIT_START[s]
    return mask


#: Targets in half points by the number of oudlers in the taker's tricks (56/51/41/36).
TARGET_HALF_POINTS = (112, 102, 82, 72)

#: Cards a hand holds and the chien's size, by number of players.
HAND_SIZE = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE = {3: 6, 4: 6, 5: 3}

#: Seat names by number of players: seat 0 leads the first trick (the dealer's right).
SEAT_NAMES = {n: tuple(str(i + 1) for i in range(n)) for n in (3, 4, 5)}
