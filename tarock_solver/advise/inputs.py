"""Reading the adviser's input: one hand (any notation) or a partial deal, seat, talon.

``tarock advise`` accepts a hand in compact or free form (NOTATION.md 2) or a
partial deal such as ``F:<hand> - -/?`` (NOTATION.md 3.2).  A partial deal
may fix more than the own hand (other hands, the talon); the sampler then
keeps those cards where they are.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..cards import TAROCK_MASK
from ..deal import ADVICE_NEEDS_HAND, DealWarning, PartialDeal
from ..errors import DealError, NotationError
from ..notation import SEATS, parse_deal, parse_hand, parse_talon, seat_index

#: The built-in demo hand (forehand of the worked Example 1 in NOTATION.md): eight
#: tarocks with Mond and Pagat, three Kings; a typical "which Three or Solo?" hand.
DEMO_HAND = "21,20,16,15,7,5,2,1.K.KQ.K97.Q9"
DEMO_SEAT = "F"


@dataclass(frozen=True)
class AdviceInput:
    """The parsed question: own hand and seat, other known hands, the talon if exposed."""

    hand: int
    seat: int
    others: tuple[int | None, int | None, int | None]
    talon: tuple[int, ...] | None
    demo: bool = False


def read_advice_input(text: str | None, seat: str | None = None,
                      talon: str | None = None) -> AdviceInput:
    """Parse the hand/deal text, ``--seat`` and ``--talon``.

    No text: the demo hand.  A deal string (with ``/``) must give at least one
    hand; with several, ``seat`` picks the adviser's.  Errors name what is wrong
    (NotationError / DealError).
    """
    demo = not (text or "").strip()
    if demo:
        text = DEMO_HAND
        seat = seat or DEMO_SEAT
    assert text is not None
    seat_given = seat_index(seat) if seat else None
    talon_cards = parse_talon(talon) if talon else None
    if talon is not None and talon_cards is None:
        raise NotationError("--talon needs the 6 exposed talon cards in table order "
                            "(t1,…,t6); \"?\" is not a talon.")
    if "/" not in text:
        hand = parse_hand(text, where="your hand")
        s = seat_given if seat_given is not None else 0
        others: list[int | None] = [None, None, None]
        others[s] = hand
        out = AdviceInput(hand, s, (others[0], others[1], others[2]), talon_cards, demo)
    else:
        deal = parse_deal(text)
        hands = tuple(deal.hands)
        known = [s for s, h in enumerate(hands) if h is not None]
        if not known:
            raise DealError(ADVICE_NEEDS_HAND)
        if seat_given is None:
            if len(known) > 1:
                if not isinstance(deal, PartialDeal):
                    raise DealError("the deal is complete; give --seat to say whose advice "
                                    "you want (or use `tarock solve` for a known deal).")
                raise DealError("the deal gives several hands; give --seat to say which one "
                                "is yours.")
            s = known[0]
        else:
            s = seat_given
            if hands[s] is None:
                raise DealError(f"--seat {SEATS[s]}: hand {SEATS[s]} is unknown ('-') in the "
                                "deal; give its 16 cards or choose a known seat.")
        deal_talon = deal.talon
        if talon_cards is not None and deal_talon is not None and tuple(deal_talon) != talon_cards:
            raise DealError("--talon and the talon of the deal differ; give it once.")
        out = AdviceInput(int(hands[s]), s, hands, talon_cards or (  # type: ignore[arg-type]
            tuple(deal_talon) if deal_talon is not None else None), demo)
    _check_disjoint(out)
    if not out.hand & TAROCK_MASK and "/" not in text:  # a deal string warns by itself
        warnings.warn(f"hand {SEATS[out.seat]} holds no tarock; at the table this deal would "
                      f"be redealt. Analysing it anyway.", DealWarning, stacklevel=2)
    return out


def _check_disjoint(inp: AdviceInput) -> None:
    """The talon must not repeat cards of a known hand."""
    if inp.talon is None:
        return
    from ..notation import card_id

    known = 0
    for h in inp.others:
        known |= h or 0
    for pos, c in enumerate(inp.talon):
        if known >> c & 1:
            raise DealError(f"card {card_id(c)} appears twice: in a hand and at talon "
                            f"position {pos + 1}.")
