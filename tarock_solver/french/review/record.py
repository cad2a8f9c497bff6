"""A played French Tarot deal checked against the rules of play, card by card.

:func:`check_play` takes a :class:`~tarock_solver.french.deal_files.FrenchDealRecord`
with its play (read from a file or a record's text) and plays it through: the deal must
be complete with four hands, the taker and the contract given, the discard legal where
the contract takes the chien, and every card in the hand of the seat to play and legal
there.  The first card that breaks a rule stops it with a :class:`RulesError` naming
the record's id, the trick, the card's place, the seat, the card and what the rule
expected.  A checked record is a :class:`FrenchPlayLine`: the position before every
card, every trick with its winner, and how the play ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RulesError
from ..analysis import start_position
from ..cards import CARD_IDS, EXCUSE, TRUMP_MASK, cards_of, suit_mask
from ..chien import check_discard
from ..deal import FrenchDeal, describe_card
from ..deal_files import FrenchDealRecord
from ..play import PlayState, check_card, close_trick, led_group
from ..rules import Contract, FrenchRules
from ..solver import FrenchPosition

__all__ = ["FrenchPlayLine", "FrenchTrick", "PLAYERS", "check_play"]

#: The review plays the four-player game (the solver's).
PLAYERS = 4
#: Cards in a whole deal's play.
DEAL_CARDS = 72
_TRICKS = DEAL_CARDS // PLAYERS
_GROUP_NAMES = ("spades", "hearts", "diamonds", "clubs", "trumps")


@dataclass(frozen=True)
class FrenchTrick:
    """One trick of a checked record: its number (1-18), leader and cards in play order,
    the winner (None while unfinished) and the half points the taker's side gained with
    it (the Excuse's exchange card included as the rules settle it)."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int | None
    taker_half_points: int = 0

    def seat_of(self, k: int) -> int:
        """The seat who played the ``k``-th card (0-based) of this trick."""
        return (self.leader + k) % PLAYERS


@dataclass(frozen=True)
class FrenchPlayLine:
    """A record that passed :func:`check_play`.

    ``positions[i]`` is the position before the ``i``-th card of ``record.play``;
    ``final`` is what the play settled after the last card when the record holds the
    whole deal (None when it stops earlier).  ``rules`` names the profile the play was
    checked under and ``excuse_last`` its rule for the Excuse in the last trick.
    """

    record: FrenchDealRecord
    deal: FrenchDeal
    contract: Contract
    discard: int
    positions: tuple[FrenchPosition, ...]
    tricks: tuple[FrenchTrick, ...]
    final: PlayState | None
    excuse_last: str
    rules: str = "fft"

    @property
    def taker(self) -> int:
        assert self.deal.taker is not None
        return self.deal.taker

    @property
    def play(self) -> tuple[int, ...]:
        return self.record.play

    @property
    def complete(self) -> bool:
        """All 18 tricks were played."""
        return self.final is not None


def _fail(record: FrenchDealRecord, message: str) -> RulesError:
    return RulesError(f'record "{record.id}": {message}' if record.id else message)


def _ids(mask: int) -> str:
    return " ".join(CARD_IDS[c] for c in sorted(cards_of(mask), reverse=True)) or "nothing"


def _where(trick: int, k: int, seat: int) -> str:
    return f"trick {trick}, card {k + 1} (seat {seat + 1})"


def _not_held(line_cards: tuple[int, ...], i: int, pos: FrenchPosition, discard: int,
              deal: FrenchDeal, contract: Contract) -> str:
    """Why the ``i``-th card is not in the mover's hand."""
    card = line_cards[i]
    seat = pos.mover
    where = _where(i // PLAYERS + 1, i % PLAYERS, seat)
    earlier = line_cards[:i]
    if card in earlier:
        return (f"{where}: {describe_card(card)} was already played in trick "
                f"{earlier.index(card) // PLAYERS + 1}.")
    for other in range(PLAYERS):
        if pos.hands[other] >> card & 1:
            return (f"{where}: {describe_card(card)} is not in seat {seat + 1}'s hand; seat "
                    f"{other + 1} holds it.")
    if discard >> card & 1:
        return f"{where}: {describe_card(card)} is in the taker's discard, not in play."
    aside = "counts for the taker unseen" if contract.chien_to == "taker" else \
        "counts for the defence"
    return (f"{where}: {describe_card(card)} is in the chien, which in a {contract.title} "
            f"{aside}." if deal.chien >> card & 1 else f"{where}: {describe_card(card)} is "
            "not in play.")


def _revoke(where: str, pos: FrenchPosition, card: int, exc: RulesError) -> str:
    """The rule a card breaks, with what the mover held that it asked for."""
    hand = pos.hands[pos.mover]
    group = led_group(pos.trick)
    if 0 <= group < 4 and hand & suit_mask(group):
        held = hand & suit_mask(group)
    elif hand & TRUMP_MASK:
        held = hand & TRUMP_MASK
    else:
        held = 0
    led = f"{CARD_IDS[pos.trick[0]]} led" if pos.trick else ""
    if pos.trick and pos.trick[0] == EXCUSE and len(pos.trick) > 1:
        led = f"EX then {CARD_IDS[pos.trick[1]]} led"
    asked = f" ({_GROUP_NAMES[group]} asked; {led}; seat {pos.mover + 1} holds " \
        f"{_ids(held)})" if group >= 0 and held else ""
    return f"{where}: {exc}{asked}."


def check_play(record: FrenchDealRecord, rules: FrenchRules) -> FrenchPlayLine:
    """Play ``record`` through the rules of play and return its :class:`FrenchPlayLine`
    (module docstring); :class:`RulesError` names the first thing that is wrong."""
    deal = record.deal
    if not isinstance(deal, FrenchDeal):
        raise _fail(record, "the review needs a complete deal: every hand and the chien.")
    if deal.players != PLAYERS:
        raise _fail(record, f"the review plays the four-player game; this deal has "
                    f"{deal.players} hands.")
    if deal.taker is None or deal.contract is None:
        raise _fail(record, 'the review needs the "taker" and the "contract".')
    if not record.play:
        raise _fail(record, 'no cards played: the review needs the "play" (e.g. "play: 1: '
                    'D8 T2 D4 EX | 4: …").')
    if len(record.play) > DEAL_CARDS:
        raise _fail(record, f"the play lists {len(record.play)} cards; a deal has {_TRICKS} "
                    f"tricks of {PLAYERS} ({DEAL_CARDS} cards): trick {_TRICKS + 1} begins "
                    f"with {describe_card(record.play[DEAL_CARDS])}.")
    contract = Contract.parse(deal.contract)
    taker = deal.taker
    discard = 0
    if contract.exchanges:
        if deal.discard is None:
            raise _fail(record, f'a {contract.title} needs the taker\'s "discard": the 6 cards '
                        "he laid away after taking the chien.")
        discard = deal.discard
        try:
            check_discard(deal.hands[taker] | deal.chien, discard, PLAYERS)
        except RulesError as exc:
            raise _fail(record, f"discard {_ids(discard)}: {exc}") from None
    pos = start_position(deal, taker, contract, discard)
    positions: list[FrenchPosition] = []
    tricks: list[FrenchTrick] = []
    final: PlayState | None = None
    play = record.play
    for i, card in enumerate(play):
        number, k = divmod(i, PLAYERS)
        number += 1
        if k == 0:
            named = record.leaders[number - 1] if number - 1 < len(record.leaders) else None
            if named is not None and named != pos.leader:
                why = (f"seat {pos.leader + 1} leads the first trick" if number == 1 else
                       f"seat {pos.leader + 1} won trick {number - 1} and leads")
                raise _fail(record, f"trick {number}: the record has seat {named + 1} leading "
                            f"with {describe_card(card)}, but {why}.")
        seat = pos.mover
        where = _where(number, k, seat)
        if not pos.hands[seat] >> card & 1:
            raise _fail(record, _not_held(play, i, pos, discard, deal, contract))
        try:
            check_card(pos.hands[seat], pos.trick, card)
        except RulesError as exc:
            raise _fail(record, _revoke(where, pos, card, exc)) from None
        positions.append(pos)
        if i == DEAL_CARDS - 1:
            final, winner = close_trick(pos.state, (*pos.trick, card), pos.leader, taker,
                                        PLAYERS, last=True, excuse_last=rules.excuse_last_trick)
            tricks.append(FrenchTrick(number, pos.leader, (*pos.trick, card), winner,
                                      final.taker_points - pos.state.taker_points))
            break
        nxt = pos.play(card, excuse_last=rules.excuse_last_trick)
        if k == PLAYERS - 1:
            tricks.append(FrenchTrick(number, pos.leader, (*pos.trick, card), nxt.leader,
                                      nxt.state.taker_points - pos.state.taker_points))
        pos = nxt
    if pos.trick and final is None:
        tricks.append(FrenchTrick(len(tricks) + 1, pos.leader, pos.trick, None))
    return FrenchPlayLine(record=record, deal=deal, contract=contract, discard=discard,
                          positions=tuple(positions), tricks=tuple(tricks), final=final,
                          excuse_last=rules.excuse_last_trick, rules=rules.name)

