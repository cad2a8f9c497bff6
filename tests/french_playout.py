"""French Tarot deals played out card by card, deterministically, for the review's tests.

The ``simple`` policy is a club player's rule of thumb: the leader plays his highest King,
else his lowest suit card, else his lowest trump; a follower wins the trick with his
cheapest winning card when he can, else plays his lowest-valued legal card.  The
discard is the first legal one of the analysis's order.
"""

from __future__ import annotations

from tarock_solver.french.analysis import discard_order, start_position
from tarock_solver.french.cards import HALF_POINTS, KING_MASK, TRUMP_MASK, cards_of
from tarock_solver.french.deal import FrenchDeal, random_deal
from tarock_solver.french.deal_files import FrenchDealRecord
from tarock_solver.french.play import winning_position
from tarock_solver.french.rules import Contract
from tarock_solver.french.solver import FrenchPosition, FrenchSearch


def simple_card(pos: FrenchPosition) -> int:
    legal = pos.legal()
    cards = cards_of(legal)
    if not pos.trick:
        if legal & KING_MASK:
            return cards_of(legal & KING_MASK)[-1]
        suits = legal & ~TRUMP_MASK & ~(1 << 21)
        if suits:
            return min(cards_of(suits), key=lambda c: (HALF_POINTS[c], c))
        return cards[0]
    winners = [c for c in cards
               if winning_position((*pos.trick, c)) == len(pos.trick)]
    if winners:
        return min(winners, key=lambda c: (HALF_POINTS[c], c))
    return min(cards, key=lambda c: (HALF_POINTS[c], c))


def played_deal(seed: int, taker: int = 3, contract: str = "garde", *,
                cards: int = 72, record_id: str = "", choose=simple_card) -> FrenchDealRecord:
    """Deal ``seed`` played out for ``cards`` cards by ``choose`` (a function of the
    position) from the start of ``contract`` by ``taker`` (the first legal discard)."""
    dealt = random_deal(seed)
    c = Contract.parse(contract)
    discard = discard_order(dealt.hands[taker] | dealt.chien)[0] if c.exchanges else None
    deal = FrenchDeal(dealt.hands, dealt.chien, taker=taker, contract=c.value, discard=discard)
    pos = start_position(deal, taker, c, discard or 0)
    play: list[int] = []
    while len(play) < cards:
        card = choose(pos)
        play.append(card)
        if len(play) == 72:
            break
        pos = pos.play(card)
    return FrenchDealRecord(id=record_id, deal=deal, play=tuple(play))


def played_with_blunder(seed: int, within: int, *, taker: int = 3, contract: str = "garde",
                        record_id: str = "") -> tuple[FrenchDealRecord, int, int]:
    """Deal ``seed`` played out by :func:`simple_card`, except that the first player who,
    with at most ``within`` tricks left, has a card strictly worse than his best plays the
    worst one (by the exact solver).  Returns the record, the index of that card in the
    play and what it cost its player in half points."""
    search = FrenchSearch()
    found: list[tuple[int, int]] = []
    count = [0]

    def choose(pos: FrenchPosition) -> int:
        count[0] += 1
        if found or pos.tricks_left > within:
            return simple_card(pos)
        values = {c: r.lower for c, r in search.card_values(pos).items()}
        maximise = pos.mover == pos.taker
        best = max(values.values()) if maximise else min(values.values())
        worst = min(values.values()) if maximise else max(values.values())
        if best == worst:
            return simple_card(pos)
        found.append((count[0] - 1, abs(best - worst)))
        return min(c for c, v in values.items() if v == worst)

    record = played_deal(seed, taker, contract, record_id=record_id, choose=choose)
    assert found, "no card of the deal could lose anything"
    return record, found[0][0], found[0][1]


def with_revoke(record: FrenchDealRecord) -> tuple[FrenchDealRecord, int, int]:
    """``record`` with its first card that had to follow a suit (or trump) swapped for a
    card of the same hand that breaks that rule, played later instead; returns the record,
    the index of the revoke and the card."""
    from tarock_solver.french.review import check_play
    from tarock_solver.french.rules import load_rules

    line = check_play(record, load_rules("fft"))
    for i, pos in enumerate(line.positions):
        hand, legal = pos.hands[pos.mover], pos.legal()
        if pos.trick and hand & ~legal:
            bad = (hand & ~legal).bit_length() - 1
            play = list(record.play)
            play[play.index(bad)], play[i] = play[i], bad
            return FrenchDealRecord(id=record.id, deal=record.deal, play=tuple(play)), i, bad
    raise AssertionError("no revoke possible in this deal")
