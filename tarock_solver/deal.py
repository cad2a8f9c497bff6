"""Deals: three hands and an ordered talon, complete or partly unknown (NOTATION 3).

Hands are card masks in seat order F, M, R (0, 1, 2); the talon is a tuple of card
indices in table order t1 … t6, because a mask cannot record the positional talon
choices.  The classes do not validate on construction (a solver may build positions
that are not full deals); call :meth:`Deal.validate` to check NOTATION 3.3.

Warnings (a hand without a tarock) use the :mod:`warnings` module with the category
:class:`DealWarning`; :func:`capture_warnings` collects their messages for display.

This is the game model: it imports none of its text formats.  Reading and writing deal
notation is :mod:`tarock_solver.notation`, which imports this module (as ``chess.pgn``
imports ``chess``); the worked examples, being deal notation, live there too.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .cards import (
    FULL_MASK,
    HAND_SIZE,
    N_CARDS,
    SEAT_NAMES,
    TALON_SIZE,
    TAROCK_MASK,
    canonical_key,
    canonical_order,
    describe_card,
    indices_of,
    mask_of,
    seat_index,
)
from .errors import DealError, Problem, make_error

__all__ = [
    "ADVICE_NEEDS_HAND",
    "Deal",
    "DealWarning",
    "PartialDeal",
    "capture_warnings",
    "no_tarock_warnings",
    "random_deal",
    "random_deals",
]

ADVICE_NEEDS_HAND = ('advice needs your own hand: give 16 cards for one seat and mark the others '
                     '"-" (talon "?").')


class DealWarning(UserWarning):
    """A deal that is accepted but unusual (a hand without a tarock)."""


@contextlib.contextmanager
def capture_warnings() -> Iterator[list[str]]:
    """Collect the messages of :class:`DealWarning` raised inside the block (all of them).

    Other warnings pass through unchanged.  The CLI prints each message as
    ``Warning: <message>``.
    """
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DealWarning)
        yield messages
    for item in caught:
        if issubclass(item.category, DealWarning):
            messages.append(str(item.message))
        else:
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)


def _check_mask(mask: int, seat: int) -> int:
    mask = int(mask)
    if mask < 0 or mask & ~FULL_MASK:
        raise DealError(f"hand {SEAT_NAMES[seat]} mask {mask:#x} has bits outside the 54 cards.")
    return mask


def _check_talon(talon: tuple[int, ...]) -> tuple[int, ...]:
    cards = tuple(int(c) for c in talon)
    for position, card in enumerate(cards, start=1):
        if not 0 <= card < N_CARDS:
            raise DealError(f"talon position {position} holds card index {card}; "
                            f"indices are 0 to {N_CARDS - 1}.")
    return cards


def _where_list(places: list[str]) -> str:
    if len(places) == 1:
        return places[0]
    return ", ".join(places[:-1]) + " and " + places[-1]


def _duplicate_messages(hands: tuple[int | None, ...], talon: tuple[int, ...] | None) -> list[str]:
    """One message per card that occurs more than once, in canonical card order."""
    places: dict[int, list[str]] = {}
    for seat, mask in enumerate(hands):
        if mask is None:
            continue
        for card in range(N_CARDS):
            if mask >> card & 1:
                places.setdefault(card, []).append(f"in hand {SEAT_NAMES[seat]}")
    for position, card in enumerate(talon or (), start=1):
        places.setdefault(card, []).append(f"at talon position {position}")
    messages = []
    for card in sorted(places, key=canonical_key):
        where = places[card]
        if len(where) > 1:
            times = "twice" if len(where) == 2 else f"{len(where)} times"
            messages.append(f"card {describe_card(card)} appears {times}: {_where_list(where)}.")
    return messages


def _cards_list(mask: int) -> str:
    return ", ".join(describe_card(c) for c in canonical_order(indices_of(mask)))


def _validate(hands: tuple[int | None, ...], talon: tuple[int, ...] | None, *,
              complete: bool, midplay: bool = False) -> None:
    """Raise one DealError listing every violation of NOTATION 3.3."""
    problems: list[str] = []
    counts_wrong = False
    sizes = [None if m is None else m.bit_count() for m in hands]
    if midplay:
        known = [s for s in sizes if s is not None]
        if len(set(known)) > 1 or any(not 1 <= s <= HAND_SIZE for s in known):
            problems.append("in a mid-play position the three hands must hold the same number of "
                            "cards (1 to 16); found " + ", ".join(
                                f"{SEAT_NAMES[i]} {s}" for i, s in enumerate(sizes)
                                if s is not None) + ".")
    else:
        for seat, size in enumerate(sizes):
            if size is not None and size != HAND_SIZE:
                counts_wrong = True
                problems.append(f"hand {SEAT_NAMES[seat]} has {size} cards; every hand needs 16 "
                                f"(16 + 16 + 16 + 6 talon = 54).")
    if talon is not None and len(talon) != TALON_SIZE:
        counts_wrong = True
        problems.append(f"the talon must list 6 cards in table order (t1 … t6); "
                        f"found {len(talon)}.")
    problems += _duplicate_messages(hands, talon)
    if complete and not midplay:
        present = mask_of(talon or ())
        for mask in hands:
            present |= mask or 0
        missing = FULL_MASK & ~present
        if missing:
            if counts_wrong:
                problems.append(f"Missing from the deal: {_cards_list(missing)}.")
            else:
                problems.append(f"the deal has {present.bit_count()} different cards; "
                                f"missing: {_cards_list(missing)}.")
    if problems:
        raise make_error(DealError, [Problem(p) for p in problems])


@dataclass(frozen=True)
class Deal:
    """A complete deal: ``hands`` are masks in seat order F, M, R; ``talon`` is t1 … t6."""

    hands: tuple[int, int, int]
    talon: tuple[int, ...]

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        if len(hands) != 3 or any(h is None for h in hands):
            raise DealError(f"a deal needs 3 known hands; found {len(hands)}.")
        # Plain ints, so that numpy integers never leak into hashing or JSON output.
        object.__setattr__(self, "hands", tuple(_check_mask(h, s) for s, h in enumerate(hands)))
        object.__setattr__(self, "talon", _check_talon(tuple(self.talon)))

    def validate(self, *, midplay: bool = False) -> None:
        """Check NOTATION 3.3: 16 + 16 + 16 + 6 cards, every card exactly once.

        With ``midplay`` the hands only need equal sizes (1 to 16) and no card may
        appear twice.  Raises :class:`DealError` naming every problem at once.
        """
        _validate(self.hands, self.talon, complete=True, midplay=midplay)

    def hand(self, seat: int | str) -> int:
        """Mask of one seat: 0/1/2 or ``"F"``/``"M"``/``"R"``."""
        return self.hands[seat_index(seat)]

    @property
    def talon_mask(self) -> int:
        return mask_of(self.talon)

    def seats_without_tarock(self) -> list[str]:
        return [SEAT_NAMES[s] for s, mask in enumerate(self.hands) if not mask & TAROCK_MASK]

    def has_no_tarock_hand(self) -> bool:
        """True when some hand holds no tarock (such a deal is redealt at the table)."""
        return bool(self.seats_without_tarock())


@dataclass(frozen=True)
class PartialDeal:
    """Advice input: some hands (``None`` = unknown) and maybe the talon (``None`` = unknown)."""

    hands: tuple[int | None, int | None, int | None]
    talon: tuple[int, ...] | None

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        if len(hands) != 3:
            raise DealError(f"a deal needs 3 hands; found {len(hands)}.")
        object.__setattr__(self, "hands", tuple(
            None if h is None else _check_mask(h, s) for s, h in enumerate(hands)))
        if self.talon is not None:
            object.__setattr__(self, "talon", _check_talon(tuple(self.talon)))

    def validate(self) -> None:
        """Every given hand has 16 cards, the talon (if given) 6, and no card appears twice."""
        _validate(self.hands, self.talon, complete=self.is_complete())

    def hand(self, seat: int | str) -> int | None:
        return self.hands[seat_index(seat)]

    @property
    def talon_mask(self) -> int | None:
        return None if self.talon is None else mask_of(self.talon)

    def known_seats(self) -> tuple[int, ...]:
        return tuple(s for s, mask in enumerate(self.hands) if mask is not None)

    def known_mask(self) -> int:
        """All cards whose place is known (given hands and talon)."""
        known = mask_of(self.talon or ())
        for mask in self.hands:
            known |= mask or 0
        return known

    def unknown_mask(self) -> int:
        """The cards still to be placed in the unknown hands and talon."""
        return FULL_MASK & ~self.known_mask()

    def is_complete(self) -> bool:
        return None not in self.hands and self.talon is not None

    def to_deal(self) -> Deal:
        """The complete :class:`Deal`; :class:`DealError` if a part is unknown."""
        if not self.is_complete():
            raise DealError("the deal has unknown parts; give all three hands and the talon.")
        return Deal(hands=self.hands, talon=self.talon)  # type: ignore[arg-type]

    def own_seat(self) -> int:
        """The seat of the single known hand (advice input); DealError otherwise."""
        seats = self.known_seats()
        if len(seats) != 1:
            raise DealError(ADVICE_NEEDS_HAND + f" Found {len(seats)} known hands.")
        return seats[0]

    def seats_without_tarock(self) -> list[str]:
        return [SEAT_NAMES[s] for s, mask in enumerate(self.hands)
                if mask is not None and not mask & TAROCK_MASK]

    def has_no_tarock_hand(self) -> bool:
        return bool(self.seats_without_tarock())


def no_tarock_warnings(deal: Deal | PartialDeal) -> list[str]:
    """NOTATION 7 warning texts for the tarock-less hands of a deal (usually none)."""
    return [f"hand {seat} holds no tarock; at the table this deal would be redealt. "
            f"Analysing it anyway." for seat in deal.seats_without_tarock()]


def random_deal(rng: np.random.Generator, *, redeal_no_tarock: bool = True) -> Deal:
    """A uniformly random deal; with ``redeal_no_tarock`` a tarock-less hand is redealt.

    Rejection keeps the distribution uniform over the accepted deals, as a redeal at
    the table does.  Hands take the first 48 cards of a permutation, the talon the
    last six in order.
    """
    while True:
        perm = rng.permutation(N_CARDS)
        deal = Deal(hands=(mask_of(perm[0:16]), mask_of(perm[16:32]), mask_of(perm[32:48])),
                    talon=tuple(int(c) for c in perm[48:]))
        if not (redeal_no_tarock and deal.has_no_tarock_hand()):
            return deal


def random_deals(seed: int, count: int, *, start: int = 0) -> list[Deal]:
    """Deals ``start`` … ``start + count - 1`` of the reproducible stream of ``seed``.

    Deal i comes from its own generator (seed sequence ``seed`` with spawn key ``i``),
    so it does not depend on ``count`` or ``start``: ``random_deals(s, 10)[7]`` equals
    ``random_deals(s, 1, start=7)[0]``.
    """
    if isinstance(seed, bool) or int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if count < 0 or start < 0:
        raise ValueError("count and start must not be negative")
    return [random_deal(np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(i,))))
            for i in range(start, start + count)]
