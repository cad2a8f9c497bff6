"""Deterministic ways to play a deal out into a :class:`~.record.PlayRecord`.

Used for the speed benchmark (the shipped bench deals played out), for the shipped
example record and by the tests.  Two policies, both deterministic (no random step):

``simple``
    A club player's rule of thumb: the leader plays his highest King, else his lowest
    suit card, else his lowest tarock; a follower wins the trick with his cheapest
    winning card when he can, else plays his lowest-valued legal card.
``best``
    Double-dummy play: every card is one of the best cards of
    :meth:`CardPointSearch.card_values` (the lowest-index one among equals).

The exchange is the first of :func:`~tarock_solver.talon.exchanges` (``simple``) or the
best exchange of the contract (``best``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.options import best_play, order_options, play_options
from ..cards import KINGS_MASK, NOMINAL, SUIT_MASK, indices_of
from ..deal import Deal
from ..play import LEADER, N_TRICKS, beats, winning_position
from ..rules import Rules
from ..solver import CardPointSearch, Position
from ..talon import exchanges
from .record import PlayRecord, reserved_for

__all__ = ["POLICIES", "play_out"]

POLICIES = ("simple", "best")


def _simple_card(pos: Position) -> int:
    legal = pos.legal()
    cards = indices_of(legal)
    if not pos.trick:
        kings = legal & KINGS_MASK
        if kings:
            return indices_of(kings)[-1]
        suits = legal & SUIT_MASK
        if suits:
            return min(indices_of(suits), key=lambda c: (int(NOMINAL[c]), c))
        return cards[0]
    best = pos.trick[winning_position(pos.trick)]
    winners = [c for c in cards if beats(c, best)]
    if winners:
        return winners[0]
    return min(cards, key=lambda c: (int(NOMINAL[c]), c))


def _best_card(search: CardPointSearch) -> Callable[[Position], int]:
    def choose(pos: Position) -> int:
        values = {c: r.value for c, r in search.card_values(pos).items()}
        pick = max if pos.mover == pos.declarer else min
        target = pick(values.values())
        return min(c for c, v in values.items() if v == target)
    return choose


def play_out(deal: Deal, declarer: int, contract: str, rules: Rules, *,
             policy: str = "simple", announcements: tuple[tuple[str, str], ...] = (),
             record_id: str = "", search: CardPointSearch | None = None,
             tricks: int = N_TRICKS) -> PlayRecord:
    """The record of ``deal`` played out by ``policy`` for ``tricks`` tricks."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {POLICIES}")
    contract = rules.check_contract(contract)
    hands = list(deal.hands)
    pick, discard = "", 0
    if contract != "solo":
        chosen = exchanges(deal.hands[declarer], deal.talon, contract, rules.discard_tarock)[0]
        if policy == "best":
            options = order_options(play_options(deal, declarer, contract, rules))
            best = best_play(search if search is not None else CardPointSearch(), options,
                             deal.hands, declarer).best
            assert best is not None and best.option.exchange is not None
            chosen = best.option.exchange
        pick, discard = chosen.group_label, chosen.discard
        hands[declarer] = chosen.hand_after
    rec = PlayRecord(deal=deal, declarer=declarer, contract=contract, talon_pick=pick,
                     discard=discard, announcements=tuple(sorted(announcements)),
                     id=record_id)
    choose = _simple_card if policy == "simple" else \
        _best_card(search if search is not None else CardPointSearch())
    pos: Position | None = Position(hands, LEADER, declarer, birds=reserved_for(rec, rules))
    play: list[int] = []
    while pos is not None and len(play) < 3 * tricks:
        card = choose(pos)
        play.append(card)
        pos, _ = pos.play(card)
    return PlayRecord(deal=deal, declarer=declarer, contract=contract, talon_pick=pick,
                      discard=discard, announcements=rec.announcements, play=tuple(play),
                      id=record_id)


# Not used by the policies themselves; kept next to them for the tests' blunder records.
def worse_card(values: dict[int, int], maximise: bool) -> int | None:
    """A card strictly worse for the mover than the best one (the worst), or None."""
    pick = max if maximise else min
    best = pick(values.values())
    worst = min(values.values()) if maximise else max(values.values())
    if worst == best:
        return None
    return min(c for c, v in values.items() if v == worst)

