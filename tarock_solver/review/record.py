"""A played deal: the model of a play record and its check against the rules of play.

A :class:`PlayRecord` holds what was played at the table (NOTATION.md section 8): the
deal, the declarer's seat, the contract, the talon group taken and the discard, the
declarer's announcements and the cards in play order (up to 48; a record may stop
early, e.g. when a game was given up).  It does not validate on construction: a parser
builds it from text, then :func:`check_record` plays it card by card and refuses the
first card that breaks a rule of play, naming the trick, the seat and the card.

:class:`PlayLine` is what a checked record knows: the hands after the exchange, every
trick with its leader and winner, and the birds the declarer must keep back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import (
    BIRD_CARD,
    BIRD_NAMES,
    BIRD_TRICK,
    CARD_IDS,
    GROUP_MASKS,
    GROUP_NAMES,
    GROUP_OF,
    GROUP_SYMBOLS,
    PROTECTED_MASK,
    SEAT_NAMES,
    TAROCK,
    TAROCK_MASK,
    bit,
    canonical_order,
    describe_card,
    indices_of,
    thirds_of,
)
from ..deal import Deal
from ..errors import Problem, TarockError, make_error
from ..play import LEADER, N_TRICKS, legal_moves, reserved_mask, trick_winner
from ..rules import Rules
from ..talon import TALON_TAKE, legal_discards, talon_groups

__all__ = ["PlayLine", "PlayRecord", "PlayRecordError", "Trick", "check_record",
           "reserved_for"]


class PlayRecordError(TarockError, ValueError):
    """A play record that cannot be read or breaks a rule of play (exit status 2).

    Carries ``messages`` (one string per problem) like every notation error.
    """


@dataclass(frozen=True)
class PlayRecord:
    """One played deal (module docstring).  ``discard`` is a card mask (0 in Solo);
    ``play`` the cards in play order; ``announcements`` sorted ``(item, level)`` pairs
    of the declarer's announcements; ``leaders`` the leading seat the record names for
    each trick (None where it names none; checked, never trusted).  ``line`` and
    ``leaders`` do not take part in ``==``."""

    deal: Deal
    declarer: int
    contract: str
    talon_pick: str = ""
    discard: int = 0
    announcements: tuple[tuple[str, str], ...] = ()
    play: tuple[int, ...] = ()
    id: str = ""
    rules: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    line: int | None = field(default=None, compare=False)
    leaders: tuple[int | None, ...] = field(default=(), compare=False)

    @property
    def announced(self) -> dict[str, str]:
        """The announcements as ``{item: level}``."""
        return dict(self.announcements)

    @property
    def n_tricks(self) -> int:
        """Tricks begun in the record (the last may be unfinished)."""
        return -(-len(self.play) // 3)


@dataclass(frozen=True)
class Trick:
    """One trick of a checked record: number (1-16), leader, cards in play order and the
    winner (None while it is unfinished)."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int | None

    def seat_of(self, k: int) -> int:
        """The seat who played the ``k``-th card (0-based) of this trick."""
        return (self.leader + k) % 3


@dataclass(frozen=True)
class PlayLine:
    """A record that passed :func:`check_record`.

    ``hands`` are the hands at the first trick (the declarer's after the exchange),
    ``base_thirds`` the declarer's pile before the play (his discard; 0 in Solo),
    ``reserved`` the birds he must keep back (announced under ``bird_reserve``).
    """

    record: PlayRecord
    hands: tuple[int, int, int]
    base_thirds: int
    tricks: tuple[Trick, ...]
    reserved: tuple[str, ...]
    taken: int = 0

    @property
    def complete(self) -> bool:
        """All 16 tricks were played."""
        return len(self.tricks) == N_TRICKS and self.tricks[-1].winner is not None


def reserved_for(record: PlayRecord, rules: Rules) -> tuple[str, ...]:
    """The birds the declarer of ``record`` must keep back: those he announced, when the
    profile has ``bird_reserve`` (RULES.md 3)."""
    if not rules.bird_reserve:
        return ()
    announced = {item for item, _ in record.announcements}
    return tuple(b for b in BIRD_NAMES if b in announced)


def _cards_text(mask: int) -> str:
    return " ".join(CARD_IDS[c] for c in canonical_order(indices_of(mask))) or "nothing"


def _fail(message: str) -> PlayRecordError:
    return make_error(PlayRecordError, [Problem(message)])  # type: ignore[return-value]


def _check_exchange(record: PlayRecord, rules: Rules) -> tuple[int, int]:
    """(declarer's hand after the exchange, cards he took); errors name the field."""
    deal, seat, contract = record.deal, record.declarer, record.contract
    dealt = deal.hands[seat]
    k = TALON_TAKE[contract]
    who = SEAT_NAMES[seat]
    if k == 0:
        if record.talon_pick:
            raise _fail(f'talon "{record.talon_pick}": in a Solo the declarer takes no talon '
                        "cards; leave the talon group out.")
        if record.discard:
            raise _fail(f"discard {_cards_text(record.discard)}: in a Solo the declarer "
                        "discards nothing; leave the discard out.")
        return dealt, 0
    groups = dict(talon_groups(contract))
    if record.talon_pick not in groups:
        given = f'"{record.talon_pick}"' if record.talon_pick else "none"
        raise _fail(f"talon group {given}: {contract} takes {k} talon card"
                    f"{'s' if k > 1 else ''}; write one of {', '.join(groups)}.")
    taken = sum(bit(deal.talon[p]) for p in groups[record.talon_pick])
    after_take = dealt | taken
    n = record.discard.bit_count()
    if n != k:
        raise _fail(f"discard {_cards_text(record.discard)}: {n} card{'s' if n != 1 else ''}; "
                    f"after taking {k} talon card{'s' if k > 1 else ''} the declarer discards "
                    f"{k}.")
    stray = record.discard & ~after_take
    if stray:
        c = indices_of(stray)[0]
        raise _fail(f"discard: {describe_card(c)} is not in {who}'s hand after taking "
                    f"{record.talon_pick} ({_cards_text(after_take)}).")
    protected = record.discard & PROTECTED_MASK
    if protected:
        c = indices_of(protected)[0]
        raise _fail(f"discard: {describe_card(c)} may not be discarded (Kings, Sküs, XXI and I "
                    "never are).")
    if record.discard not in legal_discards(after_take, k, rules.discard_tarock):
        tarocks = record.discard & TAROCK_MASK
        raise _fail(f"discard: {_cards_text(tarocks)} — a tarock may be discarded only when "
                    f"the hand holds fewer than {k} suit cards other than Kings "
                    f"(discard_tarock = {rules.discard_tarock}).")
    return after_take & ~record.discard, taken


def _where(trick: int, k: int, seat: int) -> str:
    return f"trick {trick}, card {k + 1} ({SEAT_NAMES[seat]})"


def _illegal(trick: int, k: int, seat: int, card: int, hand: int, led: int | None,
             reserved: int) -> str:
    """Why ``card`` may not be played here (it is in the hand)."""
    where = _where(trick, k, seat)
    if led is not None:
        group = int(GROUP_OF[led])
        follow = hand & GROUP_MASKS[group]
        name = "tarock" if group == TAROCK else f"{GROUP_NAMES[group]} {GROUP_SYMBOLS[group]}"
        if follow and not follow & bit(card):
            return (f"{where}: {describe_card(card)} revokes: {describe_card(led)} was led and "
                    f"{SEAT_NAMES[seat]} holds {name} ({_cards_text(follow)}); follow suit.")
        if not follow and hand & TAROCK_MASK and not bit(card) & TAROCK_MASK:
            return (f"{where}: {describe_card(card)} revokes: {SEAT_NAMES[seat]} has no {name} "
                    f"and must play a tarock ({_cards_text(hand & TAROCK_MASK)}).")
    if bit(card) & reserved:
        bird = next(b for b in BIRD_NAMES if BIRD_CARD[b] == card)
        return (f"{where}: {describe_card(card)} is kept back: {bird} was announced, so it may "
                f"be played only in trick {BIRD_TRICK[bird]} (bird_reserve).")
    return f"{where}: {describe_card(card)} is not a legal play."


def _not_held(trick: int, k: int, seat: int, card: int, dealt: Sequence[int],
              played_in: dict[int, int], record: PlayRecord, hand_after: int) -> str:
    where = _where(trick, k, seat)
    who = SEAT_NAMES[seat]
    if card in played_in:
        return f"{where}: {describe_card(card)} was already played in trick {played_in[card]}."
    if seat == record.declarer and record.discard & bit(card):
        return f"{where}: {describe_card(card)} is in {who}'s discard, not in his hand."
    for s in range(3):
        if s != seat and (hand_after if s == record.declarer else dealt[s]) & bit(card):
            return f"{where}: {describe_card(card)} is not in {who}'s hand; {SEAT_NAMES[s]} holds it."
    return (f"{where}: {describe_card(card)} is not in {who}'s hand; it is in the talon "
            "(not taken by the declarer).")


def check_record(record: PlayRecord, rules: Rules) -> PlayLine:
    """Check ``record`` against the rules of play and return its :class:`PlayLine`.

    The contract must exist in ``rules``, the talon group and discard must be legal,
    and every card must be in the hand of the seat to play, follow suit (else a
    tarock), respect the birds kept back under ``bird_reserve`` and come from the seat
    that won the previous trick, where the record names the leader.  The first card
    that breaks a rule raises :class:`PlayRecordError` naming the record's id, the
    trick, the card's place in it, the seat and the card, and saying what the rule
    expected.
    """
    try:
        return _check(record, rules)
    except PlayRecordError as exc:
        if not record.id:
            raise
        raise _fail(f'record "{record.id}": {exc}') from None


def _check(record: PlayRecord, rules: Rules) -> PlayLine:
    try:
        rules.check_contract(record.contract)
    except TarockError as exc:
        raise _fail(f"contract: {exc}") from None
    if len(record.play) > 3 * N_TRICKS:
        extra = record.play[3 * N_TRICKS]
        raise _fail(f"trick {N_TRICKS + 1}, card 1: {describe_card(extra)}: a deal has "
                    f"{N_TRICKS} tricks (48 cards); the record lists {len(record.play)} cards.")
    hand_after, taken = _check_exchange(record, rules)
    dealt = record.deal.hands
    hands = list(dealt)
    hands[record.declarer] = hand_after
    start = (hands[0], hands[1], hands[2])
    reserved_names = reserved_for(record, rules)
    leader = LEADER
    tricks: list[Trick] = []
    played_in: dict[int, int] = {}
    for t in range(record.n_tricks):
        number = t + 1
        cards = record.play[3 * t:3 * t + 3]
        named = record.leaders[t] if t < len(record.leaders) else None
        if named is not None and named != leader:
            why = ("F leads to the first trick" if t == 0 else
                   f"{SEAT_NAMES[leader]} won trick {t} and leads")
            raise _fail(f"trick {number}: the record has {SEAT_NAMES[named]} leading with "
                        f"{describe_card(cards[0])}, but {why}.")
        for k, card in enumerate(cards):
            seat = (leader + k) % 3
            if not hands[seat] & bit(card):
                raise _fail(_not_held(number, k, seat, card, dealt, played_in, record,
                                      hand_after))
            reserve = reserved_mask(reserved_names, number) if seat == record.declarer else 0
            led = cards[0] if k else None
            if not legal_moves(hands[seat], led, reserve) & bit(card):
                raise _fail(_illegal(number, k, seat, card, hands[seat], led, reserve))
            hands[seat] &= ~bit(card)
            played_in[card] = number
        winner = trick_winner(cards, leader) if len(cards) == 3 else None
        tricks.append(Trick(number, leader, tuple(cards), winner))
        if winner is not None:
            leader = winner
    return PlayLine(record=record, hands=start, base_thirds=thirds_of(record.discard),
                    tricks=tuple(tricks), reserved=reserved_names, taken=taken)
