"""A position of a 16-trick deal, validated once: what every search of the solver takes.

A position is three hands (card masks in the NOTATION index layout; seats 0, 1, 2 =
F, M, R), the seat who led the current trick, the cards already played to it (0, 1
or 2; the hands no longer hold them), the declarer's seat and the birds he announced
(kept back under ``bird_reserve``, docs/RULES.md 3).  Positions are ends of a
16-trick deal: the current trick is number 17 − (cards of its leader, his card to
this trick included), which is what makes birds and reserves judgeable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import BIRD_BITS, BIRD_NAMES, CARD_IDS, FULL_MASK, N_CARDS, SEAT_NAMES, bit
from ..errors import DealError, RulesError
from ..play import N_TRICKS, legal_moves, reserved_mask, trick_points, trick_winner

__all__ = ["Position", "bird_bits"]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _seat(value: Any, what: str) -> int:
    if isinstance(value, str) and value.strip().upper() in SEAT_NAMES:
        return SEAT_NAMES.index(value.strip().upper())
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise RulesError(f'{what} "{value}" is not a seat; expected 0, 1 or 2 (F, M, R)') from None
    if seat not in (0, 1, 2) or seat != value:
        raise RulesError(f"{what} {value} is not a seat; expected 0, 1 or 2 (F, M, R)")
    return seat


def _bird_names(birds: Iterable[str] | str | None) -> tuple[str, ...]:
    if birds is None:
        return ()
    if isinstance(birds, str):
        birds = [birds]
    names = set()
    for name in birds:
        key = str(name).strip().lower()
        if key not in BIRD_BITS:
            raise RulesError(f'unknown bird "{name}"; expected pagat, uhu or kakadu')
        names.add(key)
    return tuple(b for b in BIRD_NAMES if b in names)


def bird_bits(birds: Iterable[str] | str | None) -> int:
    """The solver's bird mask of announced birds ('pagat', 'uhu', 'kakadu')."""
    out = 0
    for name in _bird_names(birds):
        out |= BIRD_BITS[name]
    return out


@dataclass(frozen=True, init=False)
class Position:
    """A validated position (see the module docstring); immutable and hashable.

    Raises :class:`~tarock_solver.errors.DealError` for impossible card sets
    (overlaps, unknown cards, hand sizes no 16-trick deal reaches) and
    :class:`~tarock_solver.errors.RulesError` for bad seats, unknown birds and
    trick cards no legal play could produce.
    """

    hands: tuple[int, int, int]
    leader: int
    declarer: int
    trick: tuple[int, ...]
    birds: tuple[str, ...]

    def __init__(self, hands: Sequence[int], leader: int, declarer: int, *,
                 trick: Sequence[int] = (), birds: Iterable[str] | str | None = ()) -> None:
        masks = _check_hands(hands)
        lead = _seat(leader, "leader")
        decl = _seat(declarer, "declarer")
        names = _bird_names(birds)
        cards = _check_trick(masks, lead, decl, names, trick)
        object.__setattr__(self, "hands", masks)
        object.__setattr__(self, "leader", lead)
        object.__setattr__(self, "declarer", decl)
        object.__setattr__(self, "trick", cards)
        object.__setattr__(self, "birds", names)

    @classmethod
    def of(cls, value: Position | Sequence[Any] | dict[str, Any]) -> Position:
        """A Position from a Position, a tuple ``(hands, leader, declarer[, trick[, birds]])``
        or a dict of the constructor's arguments."""
        if isinstance(value, Position):
            return value
        if isinstance(value, dict):
            return cls(**value)
        return cls(*value[:3], **dict(zip(("trick", "birds"), value[3:], strict=False)))

    # ------------------------------------------------------------------ derived facts

    @property
    def mover(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % 3

    @property
    def trick_number(self) -> int:
        """The current trick, 1..16."""
        return N_TRICKS + 1 - (self.hands[self.leader].bit_count() + (1 if self.trick else 0))

    @property
    def bird_mask(self) -> int:
        """The announced birds as the solver's bird mask."""
        return bird_bits(self.birds)

    @property
    def cards_left(self) -> int:
        """Cards in play: the hands and the current trick."""
        return sum(h.bit_count() for h in self.hands) + len(self.trick)

    def legal(self) -> int:
        """Mask of the cards the player to move may play."""
        seat = self.mover
        reserved = reserved_mask(self.birds, self.trick_number) if seat == self.declarer else 0
        return legal_moves(self.hands[seat], self.trick[0] if self.trick else None, reserved)

    def play(self, card: int) -> tuple[Position | None, int]:
        """The position after the player to move plays ``card``, and the card points the
        declarer banks by it (a completed trick he wins); ``None`` after the last card."""
        if not self.legal() >> card & 1:
            raise RulesError(f"card {CARD_IDS[card]} is not a legal play for "
                             f"{SEAT_NAMES[self.mover]} in this position")
        hands = list(self.hands)
        hands[self.mover] &= ~bit(card)
        cards = self.trick + (card,)
        if len(cards) < 3:
            return Position(hands, self.leader, self.declarer, trick=cards, birds=self.birds), 0
        winner = trick_winner(cards, self.leader)
        gained = trick_points(cards) if winner == self.declarer else 0
        if not any(hands):
            return None, gained
        return Position(hands, winner, self.declarer, birds=self.birds), gained

    def kernel_args(self) -> tuple[np.ndarray, int, np.ndarray, int, int, int]:
        """(hands, leader, trick cards, trick length, declarer, birds) as the kernels take them."""
        tcards = np.zeros(3, dtype=np.int64)
        tcards[:len(self.trick)] = self.trick
        return (np.array(self.hands, dtype=np.int64), self.leader, tcards, len(self.trick),
                self.declarer, self.bird_mask)


# ----------------------------------------------------------------- validation

def _check_hands(hands: Sequence[int]) -> tuple[int, int, int]:
    if isinstance(hands, (str, bytes)) or len(hands) != 3:
        n = len(hands) if not isinstance(hands, (str, bytes)) else "a string, not"
        raise DealError(f"a position needs 3 hands (F, M, R); found {n}")
    masks = []
    for s, h in enumerate(hands):
        try:
            m = int(h)
        except (TypeError, ValueError):
            raise DealError(f"hand {SEAT_NAMES[s]} is not a card mask: {h!r}") from None
        if m != h or m < 0 or m & ~FULL_MASK:
            raise DealError(f"hand {SEAT_NAMES[s]} has bits outside the 54 cards (0..53)")
        masks.append(m)
    for a in range(3):
        for b in range(a + 1, 3):
            both = masks[a] & masks[b]
            if both:
                c = both.bit_length() - 1
                raise DealError(f"card {CARD_IDS[c]} appears twice: in hand {SEAT_NAMES[a]} "
                                f"and in hand {SEAT_NAMES[b]}")
    return masks[0], masks[1], masks[2]


def _check_trick(masks: tuple[int, int, int], leader: int, declarer: int,
                 birds: tuple[str, ...], trick: Sequence[int]) -> tuple[int, ...]:
    cards = []
    for c in trick:
        try:
            cards.append(int(c))
        except (TypeError, ValueError):
            raise DealError(f"trick card {c!r} is not a card index; expected 0..53") from None
    if len(cards) > 2:
        raise DealError(f"the current trick may hold 0, 1 or 2 played cards; found {len(cards)} "
                        "(a complete trick belongs to the trick history)")
    for i, c in enumerate(cards):
        if not 0 <= c < N_CARDS:
            raise DealError(f"trick card {c} is not a card index; expected 0..53")
        if cards.index(c) != i:
            raise DealError(f"card {CARD_IDS[c]} is played twice to the current trick")
        for s in range(3):
            if masks[s] & bit(c):
                raise DealError(f"card {CARD_IDS[c]} is in the current trick and in hand "
                                f"{SEAT_NAMES[s]}")
    n = masks[leader].bit_count() + (1 if cards else 0)
    if n > N_TRICKS:
        raise DealError(f"hand {SEAT_NAMES[leader]} has {_cards(n)}; a hand holds at most 16")
    for off in range(3):
        s = (leader + off) % 3
        want = n - 1 if off < len(cards) else n
        have = masks[s].bit_count()
        if have != want:
            raise DealError(
                f"hand {SEAT_NAMES[s]} has {_cards(have)}; with {SEAT_NAMES[leader]} leading "
                f"and {_cards(len(cards))} played to the current trick it needs {want}")
    trick_no = N_TRICKS + 1 - n
    for off, c in enumerate(cards):
        s = (leader + off) % 3
        reserved = reserved_mask(birds, trick_no) if s == declarer else 0
        led = cards[0] if off > 0 else None
        if not legal_moves(masks[s] | bit(c), led, reserved) & bit(c):
            raise RulesError(f"card {CARD_IDS[c]} played by {SEAT_NAMES[s]} to the current "
                             f"trick is not a legal play from that hand")
    return tuple(cards)
