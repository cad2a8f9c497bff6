"""French Tarot deals: the hands and the chien, complete or partly unknown, and random deals.

A hand and the chien are card masks (:mod:`.cards`); seat 0 leads the first trick.  A
:class:`FrenchDeal` may also record the taker, the contract (a name, one of
:data:`CONTRACTS`) and the taker's discard, as stored values: the rules of the
contracts are :mod:`.rules`' job.  The classes do not check the cards on construction
(a solver builds positions that are not full deals); :meth:`FrenchDeal.validate` does.

This is the game model: it imports none of its text formats (cards are named by their
ids, :data:`.cards.CARD_IDS`).  Reading and writing deals is :mod:`.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import DealError, Problem, make_error
from .cards import (
    ALL_CARDS,
    CARD_IDS,
    CHIEN_SIZE,
    EXCUSE,
    HAND_SIZE,
    N_CARDS,
    N_TRUMPS,
    RANK_IDS,
    SEAT_NAMES,
    SUIT_SIZE,
    SUIT_START,
    SUIT_SYMBOLS,
    cards_of,
    half_points,
    mask_of,
)

__all__ = [
    "CONTRACTS",
    "PLAYERS",
    "FrenchDeal",
    "FrenchPartialDeal",
    "canonical_order",
    "contract_name",
    "deal_around",
    "deal_size_phrase",
    "describe_card",
    "random_deal",
    "random_deals",
    "seat_number",
]

#: The contracts, weakest first, by their canonical names.
CONTRACTS: tuple[str, ...] = ("petite", "garde", "garde_sans", "garde_contre")
#: Contracts in which the taker takes the chien and discards as many cards.
_CHIEN_TAKEN = ("petite", "garde")
#: The numbers of players a deal may have.
PLAYERS: tuple[int, ...] = (3, 4, 5)


def contract_name(name: str) -> str:
    """The canonical name of a contract: ``"Garde sans"`` → ``"garde_sans"``.

    Case, spaces and hyphens do not matter; anything else that is not one of
    :data:`CONTRACTS` raises :class:`DealError` naming them.
    """
    key = "_".join(str(name).strip().lower().replace("-", " ").replace("_", " ").split())
    if key not in CONTRACTS:
        raise DealError(f'unknown contract "{name}"; expected {", ".join(CONTRACTS[:-1])} '
                        f"or {CONTRACTS[-1]}.")
    return key


def deal_size_phrase(players: int) -> str:
    """``"4 hands of 18 and a chien of 6"``: the parts of a deal, for messages."""
    return f"{players} hands of {HAND_SIZE[players]} and a chien of {CHIEN_SIZE[players]}"


def _check_players(count: int) -> int:
    if count not in PLAYERS:
        raise DealError(f"a French Tarot deal has 3, 4 or 5 hands; found {count}.")
    return count


def _check_mask(mask: int, what: str) -> int:
    mask = int(mask)
    if mask < 0 or mask & ~ALL_CARDS:
        raise DealError(f"{what} mask {mask:#x} has bits outside the {N_CARDS} cards.")
    return mask


def describe_card(card: int) -> str:
    """A card in a message: its id, with the symbol form of a suit card: ``SK (♠K)``."""
    if card < N_TRUMPS:
        return CARD_IDS[card]
    if card == EXCUSE:
        return "EX (the Excuse)"
    suit, rank = divmod(card - SUIT_START[0], SUIT_SIZE)
    return f"{CARD_IDS[card]} ({SUIT_SYMBOLS[suit]}{RANK_IDS[rank]})"


def _ids(mask: int) -> str:
    return ", ".join(describe_card(c) for c in canonical_order(cards_of(mask)))


def canonical_order(cards: list[int]) -> list[int]:
    """Cards in canonical order: trumps from 21 down, the Excuse, then ♠ ♥ ♦ ♣ each from
    the King down."""
    return sorted(cards, key=_canonical_key)


def _canonical_key(card: int) -> tuple[int, int]:
    if card < EXCUSE:
        return (0, -card)
    if card == EXCUSE:
        return (1, 0)
    return (2 + (card - SUIT_START[0]) // SUIT_SIZE, -card)


def _where_list(places: list[str]) -> str:
    if len(places) == 1:
        return places[0]
    return ", ".join(places[:-1]) + " and " + places[-1]


def _card_problems(hands: tuple[int | None, ...], chien: int | None, *,
                   complete: bool) -> list[str]:
    """Every violation of the card counts of a deal, one message each."""
    players = len(hands)
    size, chien_size = HAND_SIZE[players], CHIEN_SIZE[players]
    problems: list[str] = []
    piles: list[tuple[str, int]] = [(f"hand {SEAT_NAMES[players][s]}", m)
                                    for s, m in enumerate(hands) if m is not None]
    if chien is not None:
        piles.append(("the chien", chien))
    listed = sum(m.bit_count() for _, m in piles)
    present = 0
    for _, mask in piles:
        present |= mask
    missing = ALL_CARDS & ~present
    if complete and listed != N_CARDS:
        text = (f"the deal has {listed} cards; a French Tarot deal has {N_CARDS} "
                f"({deal_size_phrase(players)})")
        problems.append(text + (f"; missing: {_ids(missing)}." if missing else "."))
    for seat, mask in enumerate(hands):
        if mask is not None and mask.bit_count() != size:
            problems.append(f"hand {SEAT_NAMES[players][seat]} has {mask.bit_count()} cards; "
                            f"at {players} players every hand needs {size} "
                            f"({deal_size_phrase(players)}).")
    if chien is not None and chien.bit_count() != chien_size:
        problems.append(f"the chien has {chien.bit_count()} cards; at {players} players it "
                        f"needs {chien_size}.")
    places: dict[int, list[str]] = {}
    for where, mask in piles:
        for card in cards_of(mask):
            places.setdefault(card, []).append(f"in {where}")
    for card in canonical_order(list(places)):
        where = places[card]
        if len(where) > 1:
            times = "twice" if len(where) == 2 else f"{len(where)} times"
            problems.append(f"card {describe_card(card)} appears {times}: {_where_list(where)}.")
    if complete and listed == N_CARDS and missing:
        problems.append(f"missing from the deal: {_ids(missing)}.")
    return problems


@dataclass(frozen=True)
class FrenchDeal:
    """A complete deal: ``hands`` (masks, seat 0 leads first) and the ``chien`` (a mask).

    ``taker`` is a seat index, ``contract`` one of :data:`CONTRACTS` (any case, spaces
    or hyphens are accepted and stored canonical) and ``discard`` the mask of the
    taker's discard after taking the chien (petite and garde only).  The hands are
    always the hands as dealt, before the chien is taken.
    """

    hands: tuple[int, ...]
    chien: int
    taker: int | None = None
    contract: str | None = None
    discard: int | None = None

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        _check_players(len(hands))
        if any(h is None for h in hands):
            raise DealError("a complete deal needs every hand; use FrenchPartialDeal for "
                            "unknown hands.")
        # Plain ints, so that numpy integers never leak into hashing or JSON output.
        object.__setattr__(self, "hands", tuple(
            _check_mask(h, f"hand {SEAT_NAMES[len(hands)][s]}") for s, h in enumerate(hands)))
        object.__setattr__(self, "chien", _check_mask(self.chien, "the chien"))
        if self.taker is not None:
            taker = self.taker
            if isinstance(taker, bool) or int(taker) != taker or not 0 <= taker < len(hands):
                raise DealError(f"taker seat index {taker!r} is not a seat; at {len(hands)} "
                                f"players the seats are 0 to {len(hands) - 1}.")
            object.__setattr__(self, "taker", int(taker))
        if self.contract is not None:
            object.__setattr__(self, "contract", contract_name(self.contract))
        if self.discard is not None:
            object.__setattr__(self, "discard", _check_mask(self.discard, "the discard"))

    @property
    def players(self) -> int:
        """The number of players: 3, 4 or 5."""
        return len(self.hands)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[self.players]

    def hand(self, seat: int | str) -> int:
        """Mask of one seat: an index 0.. or its name ``"1"``.."n"``."""
        return self.hands[seat_number(seat, self.players)]

    def half_points(self) -> tuple[int, ...]:
        """Card points of each hand and, last, of the chien, in half points (sum 182)."""
        return tuple(half_points(m) for m in (*self.hands, self.chien))

    def validate(self) -> None:
        """Check the cards: every hand and the chien of the right size, all 78 cards once;
        and the taker's record: a discard needs a taker, the chien's size, cards of the
        taker's hand or the chien, and a contract in which the chien is taken.

        Raises :class:`DealError` naming every problem at once.
        """
        problems = _card_problems(self.hands, self.chien, complete=True)
        if self.discard is not None:
            size = CHIEN_SIZE[self.players]
            if self.taker is None:
                problems.append("a discard needs a taker.")
            else:
                foreign = self.discard & ~(self.hands[self.taker] | self.chien)
                if foreign:
                    problems.append(f"the discard holds {_ids(foreign)}, not in hand "
                                    f"{self.seat_names[self.taker]} nor in the chien.")
            if self.discard.bit_count() != size:
                problems.append(f"the discard has {self.discard.bit_count()} cards; it needs "
                                f"{size}, as many as the chien.")
            if self.contract is not None and self.contract not in _CHIEN_TAKEN:
                contract = self.contract.replace("_", " ")
                problems.append(f"a {contract} has no discard: the taker does not take the "
                                f"chien.")
        if problems:
            raise make_error(DealError, [Problem(p) for p in problems])


@dataclass(frozen=True)
class FrenchPartialDeal:
    """Some hands (``None`` = unknown) and maybe the chien (``None`` = unknown)."""

    hands: tuple[int | None, ...]
    chien: int | None

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        _check_players(len(hands))
        names = SEAT_NAMES[len(hands)]
        object.__setattr__(self, "hands", tuple(
            None if h is None else _check_mask(h, f"hand {names[s]}") for s, h in enumerate(hands)))
        if self.chien is not None:
            object.__setattr__(self, "chien", _check_mask(self.chien, "the chien"))

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[self.players]

    def is_complete(self) -> bool:
        return None not in self.hands and self.chien is not None

    def known_mask(self) -> int:
        known = self.chien or 0
        for mask in self.hands:
            known |= mask or 0
        return known

    def unknown_mask(self) -> int:
        """The cards still to be placed in the unknown hands and chien."""
        return ALL_CARDS & ~self.known_mask()

    def validate(self) -> None:
        """Every given hand and the chien (if given) of the right size, no card twice."""
        problems = _card_problems(self.hands, self.chien, complete=self.is_complete())
        if problems:
            raise make_error(DealError, [Problem(p) for p in problems])

    def to_deal(self) -> FrenchDeal:
        """The complete :class:`FrenchDeal`; :class:`DealError` if a part is unknown."""
        if not self.is_complete():
            raise DealError("the deal has unknown parts; give every hand and the chien.")
        return FrenchDeal(hands=self.hands, chien=self.chien)  # type: ignore[arg-type]


def seat_number(seat: int | str, players: int) -> int:
    """The seat index of ``seat``: an index 0..players-1 or a name ``"1"``..``"n"``."""
    names = SEAT_NAMES[players]
    if isinstance(seat, str):
        if seat.strip() in names:
            return names.index(seat.strip())
    elif not isinstance(seat, bool) and int(seat) == seat and 0 <= seat < players:
        return int(seat)
    raise DealError(f'"{seat}" is not a seat; at {players} players the seats are '
                    f"{', '.join(names)} (1 leads the first trick).")


def random_deal(seed: int, players: int = 4) -> FrenchDeal:
    """The deal of ``seed``: uniformly random and the same on every machine.

    The algorithm, kept stable so that a seed names one deal for good: ``perm =
    numpy.random.default_rng(seed).permutation(78)``; hand ``s`` is the cards
    ``perm[s * n : (s + 1) * n]`` with ``n`` the hand size (24, 18 or 15 at 3, 4 or 5
    players), the chien the cards after the last hand.  No deal is redealt (a Petit
    sec is the rules' concern).
    """
    if isinstance(seed, bool) or int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    size = HAND_SIZE[_check_players(players)]
    perm = np.random.default_rng(int(seed)).permutation(N_CARDS)
    hands = tuple(mask_of(int(c) for c in perm[s * size:(s + 1) * size]) for s in range(players))
    return FrenchDeal(hands=hands, chien=mask_of(int(c) for c in perm[players * size:]))


def random_deals(seed: int, count: int, players: int = 4) -> list[FrenchDeal]:
    """``count`` deals: those of the seeds ``seed``, ``seed + 1``, … (:func:`random_deal`).

    Each deal is its own seed's, so a longer run extends a shorter one and any deal of
    it can be dealt again alone.
    """
    if count < 0:
        raise ValueError("count must not be negative")
    return [random_deal(seed + i, players) for i in range(count)]


def deal_around(seat: int, hand: int, cards: Sequence[int], size: int, players: int = 4
                ) -> tuple[tuple[int, ...], int]:
    """``hand`` at ``seat`` and the other seats given ``size`` cards each from ``cards`` in
    order (seat order, skipping ``seat``); returns the hands and the set of the cards left
    over (the chien, when ``cards`` held it)."""
    hands = []
    k = 0
    for s in range(players):
        if s == seat:
            hands.append(hand)
            continue
        hands.append(mask_of(int(c) for c in cards[k:k + size]))
        k += size
    return tuple(hands), mask_of(int(c) for c in cards[k:])
