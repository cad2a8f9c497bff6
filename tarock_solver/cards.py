"""The 54-card tarock pack as bit positions of one ``uint64``.

The index layout is NOTATION.md 1.1's (the solver depends on it): a higher bit is a
stronger card within a group, so "the highest card of a group" is the highest set bit of
``hand & GROUP_MASK``.  Card values are *nominal* (5/4/3/2/1; :func:`thirds_of` counts a
pile in thirds).  The names every layer shares (seats, birds, card ids and labels) are
defined here once, so that :mod:`tarock_solver.deal` can name cards without importing
:mod:`tarock_solver.notation`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .errors import NotationError

N_CARDS = 54
N_TAROCKS = 22
N_GROUPS = 5

#: Group numbers, in canonical output order.
TAROCK, HEARTS, DIAMONDS, SPADES, CLUBS = range(5)
GROUP_LETTERS = ("T", "H", "D", "S", "C")
GROUP_NAMES = ("tarock", "hearts", "diamonds", "spades", "clubs")
GROUP_SYMBOLS = ("", "♥", "♦", "♠", "♣")
GROUP_ASCII = ("", "H", "D", "S", "C")
RED_GROUPS = (HEARTS, DIAMONDS)
BLACK_GROUPS = (SPADES, CLUBS)

#: First card index of each group and the number of cards in it.
GROUP_START = (0, 22, 30, 38, 46)
GROUP_SIZE = (22, 8, 8, 8, 8)

#: Suit ranks, weakest first, in the compact-notation characters.
RED_RANKS = ("4", "3", "2", "A", "J", "C", "Q", "K")
BLACK_RANKS = ("7", "8", "9", "T", "J", "C", "Q", "K")
#: Ranks as written in canonical card ids (black ten is "10" in ids, "T" in compact hands).
RED_RANK_IDS = RED_RANKS
BLACK_RANK_IDS = ("7", "8", "9", "10", "J", "C", "Q", "K")
#: Nominal values of suit cards by rank position (weakest first).
SUIT_NOMINALS = (1, 1, 1, 1, 2, 3, 4, 5)


def _build_ids() -> tuple[str, ...]:
    ids = [f"T{n}" for n in range(1, 23)]
    for group in (HEARTS, DIAMONDS, SPADES, CLUBS):
        ranks = RED_RANK_IDS if group in RED_GROUPS else BLACK_RANK_IDS
        ids.extend(GROUP_LETTERS[group] + r for r in ranks)
    return tuple(ids)


#: Canonical id of every card, by index.
CARD_IDS: tuple[str, ...] = _build_ids()
#: Index of every canonical id.
INDEX_OF: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}

#: Group (0 tarock, 1..4 suits) of every card, by index.
GROUP_OF = np.array(
    [TAROCK] * 22 + [HEARTS] * 8 + [DIAMONDS] * 8 + [SPADES] * 8 + [CLUBS] * 8, dtype=np.int8
)

#: Nominal value (5 for Sküs, XXI, I and Kings; 4 Q; 3 C; 2 J; 1 otherwise), by index.
NOMINAL = np.array(
    [5] + [1] * 19 + [5, 5] + list(SUIT_NOMINALS) * 4,
    dtype=np.int8,
)

PAGAT, UHU, KAKADU = 0, 1, 2
MOND, SKUS = 20, 21

#: The seats in playing order from forehand; seat numbers 0, 1, 2 index this tuple.
SEAT_NAMES: tuple[str, ...] = ("F", "M", "R")
SEAT_HELP = "seats are F (forehand), M (middlehand), R (rearhand = dealer)"

#: Cards in each hand of a deal, and in the talon (16 + 16 + 16 + 6 = 54).
HAND_SIZE = 16
TALON_SIZE = 6

#: The birds (I, II, III) by name, lowest first.
BIRD_NAMES: tuple[str, ...] = ("pagat", "uhu", "kakadu")
#: Bird card index by bird name, with the trick (1-based) the bird must win.
BIRD_CARD = {"pagat": PAGAT, "uhu": UHU, "kakadu": KAKADU}
#: The solver's bird bits (a set of birds as a mask): the bit of each bird's card.
BIRD_BITS = {name: 1 << card for name, card in BIRD_CARD.items()}
BIRD_TRICK = {"pagat": 16, "uhu": 15, "kakadu": 14}


def bit(index: int) -> int:
    """The mask of a single card."""
    return 1 << index


def _group_mask(group: int) -> int:
    start, size = GROUP_START[group], GROUP_SIZE[group]
    return ((1 << size) - 1) << start


GROUP_MASKS: tuple[int, ...] = tuple(_group_mask(g) for g in range(N_GROUPS))
TAROCK_MASK = GROUP_MASKS[TAROCK]
SUIT_MASK = GROUP_MASKS[HEARTS] | GROUP_MASKS[DIAMONDS] | GROUP_MASKS[SPADES] | GROUP_MASKS[CLUBS]
FULL_MASK = (1 << N_CARDS) - 1
TRULL_MASK = bit(SKUS) | bit(MOND) | bit(PAGAT)
KINGS_MASK = sum(bit(GROUP_START[g] + 7) for g in (HEARTS, DIAMONDS, SPADES, CLUBS))
#: Cards that may never be discarded (RULES.md 4): Kings and the Trull cards.
PROTECTED_MASK = TRULL_MASK | KINGS_MASK
#: Tarocks II..XX: the only tarocks that may be discarded.
MIDDLE_TAROCKS_MASK = TAROCK_MASK & ~TRULL_MASK

#: numpy copies for numba kernels (plain arrays, not Python tuples of ints).
GROUP_MASKS_U64 = np.array(GROUP_MASKS, dtype=np.uint64)


def group_of(index: int) -> int:
    return int(GROUP_OF[index])


def nominal(index: int) -> int:
    return int(NOMINAL[index])


def is_tarock(index: int) -> bool:
    return index < N_TAROCKS


def mask_of(indices) -> int:
    """OR of the bits of an iterable of card indices."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def indices_of(mask: int) -> list[int]:
    """Card indices of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    return int(mask).bit_count()


def canonical_key(index: int) -> tuple[int, int]:
    """Sort key of the canonical order: tarocks from Sküs down, then ♥ ♦ ♠ ♣ from King down."""
    return (int(GROUP_OF[index]), -index)


def canonical_order(indices) -> list[int]:
    return sorted(indices, key=canonical_key)


def mask_nominal(mask: int) -> int:
    """Sum of the nominal values of the cards in a mask."""
    return sum(int(NOMINAL[i]) for i in indices_of(mask))


def thirds_of(mask: int) -> int:
    """Exact value of a pile in thirds of a point: 3·F − 2·n (RULES.md 1.2)."""
    return 3 * mask_nominal(mask) - 2 * popcount(mask)


def round_points(thirds: int) -> int:
    """Rounded card points of a pile: ⌊(thirds + 1) / 3⌋ (⅓ rounds down, ⅔ up)."""
    return (thirds + 1) // 3


def format_thirds(thirds: int | None, ascii: bool = False) -> str:
    """Card points with their fraction: ``41⅔`` (``41 2/3`` with ``ascii``); ``?`` for None."""
    if thirds is None:
        return "?"
    whole, rest = divmod(thirds, 3)
    if ascii and rest:
        return f"{whole} {rest}/3"
    return f"{whole}{('', '⅓', '⅔')[rest]}"


def wins(thirds: int, win_thirds: int = 107) -> bool:
    """Does a declarer pile of ``thirds`` win a plain game (≥ 35⅔ by default)?"""
    return thirds >= win_thirds


TOTAL_THIRDS = 210
assert thirds_of(FULL_MASK) == TOTAL_THIRDS


def seat_index(seat: int | str) -> int:
    """0, 1, 2 for ``"F"``, ``"M"``, ``"R"`` (any case) or for the integers themselves."""
    if isinstance(seat, str):
        key = seat.strip().upper()
        if key in SEAT_NAMES:
            return SEAT_NAMES.index(key)
        raise NotationError(f'unknown seat "{seat}"; {SEAT_HELP}.')
    # numbers.Integral also admits numpy integers, which engine code passes around.
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat <= 2:
        raise NotationError(f"unknown seat {seat!r}; {SEAT_HELP}, or 0, 1, 2.")
    return int(seat)


# ---------------------------------------------------------------------------
# Card names: canonical ids and the printed forms (NOTATION 1.1, 4 and 7)
# ---------------------------------------------------------------------------

_ROMAN_ONES = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


def roman(number: int) -> str:
    """Roman numeral with subtractive forms (IV, IX, XIV, XIX), for 1 <= number <= 39."""
    if not 1 <= number <= 39:
        raise ValueError(f"roman() supports 1 to 39, not {number}")
    return "X" * (number // 10) + _ROMAN_ONES[number % 10]


def check_index(index: int) -> int:
    """``index`` as a plain int; ValueError if it is not a card index 0..53."""
    index = int(index)
    if not 0 <= index < N_CARDS:
        raise ValueError(f"card index {index} is outside 0..{N_CARDS - 1}")
    return index


def card_id(index: int) -> str:
    """Canonical id of a card: ``T1`` … ``T22``, ``HK``, ``DA``, ``S10``, ``CC`` …"""
    return CARD_IDS[check_index(index)]


def _group_and_rank(index: int) -> tuple[int, int]:
    for group in (CLUBS, SPADES, DIAMONDS, HEARTS):
        if index >= GROUP_START[group]:
            return group, index - GROUP_START[group]
    return TAROCK, index


def _rank_label(group: int, rank: int) -> str:
    # Printed forms follow the cards: the red pip A is a "1", the black ten a "10".
    if group in RED_GROUPS:
        return "1" if RED_RANK_IDS[rank] == "A" else RED_RANK_IDS[rank]
    return BLACK_RANK_IDS[rank]


def card_label(index: int, ascii: bool = False) -> str:
    """Human form of a card: ``XXI``, ``Sküs`` (``Skus``), ``♥K`` (``HK``), ``♦1`` (``D1``).

    Every label is itself an accepted input spelling, so labels can be pasted back.
    """
    index = check_index(index)
    group, rank = _group_and_rank(index)
    if group == TAROCK:
        if index == N_TAROCKS - 1:
            return "Skus" if ascii else "Sküs"
        return roman(index + 1)
    symbol = GROUP_ASCII[group] if ascii else GROUP_SYMBOLS[group]
    return symbol + _rank_label(group, rank)


def describe_card(index: int, ascii: bool = False) -> str:
    """``"HK (♥K)"``: canonical id first, then the human form, as NOTATION 7 names cards."""
    return f"{card_id(index)} ({card_label(index, ascii=ascii)})"
