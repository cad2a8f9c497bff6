"""The double-dummy table of a French Tarot deal: per taker seat and contract, the best
discard and the exact card points, margin and score (or the bounds a budget allowed).

A row plays the deal as the contract gives it: in a Petite or a Garde the taker takes the
chien and discards (the best discard of those examined, or the one given), the discard
counting for him; in a Garde sans the chien counts for him unseen, in a Garde contre for
the defence.  Seat 0 leads the first trick, the taker when he announces a chelem.  A
record of cards played (``play``) continues the deal from where it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from ..errors import RulesError
from ..solver import Budget, SearchResult
from .cards import (
    CARD_IDS,
    PETIT,
    TARGET_HALF_POINTS,
    TOTAL_HALF_POINTS,
    cards_of,
    half_points,
    oudlers_in,
    suit_mask,
)
from .chien import check_discard, legal_discard_count, legal_discards
from .deal import FrenchDeal
from .play import PlayState
from .rules import Contract, FrenchRules, Poignee
from .scoring import Side
from .solver import FrenchPosition, FrenchSearch, margin_table, outcome_table

__all__ = ["FrenchRow", "solve_row", "solve_table", "start_position", "margin_table",
           "discard_order", "DEFAULT_DISCARDS"]

#: Discards examined exactly per row when none is given (the most promising first).
DEFAULT_DISCARDS = 8


@dataclass(frozen=True)
class FrenchRow:
    """One taker and contract: the discard played and the three exact values (bounds
    when the budget ran out): card points and margin in half points, score per defender."""

    taker: int
    contract: Contract
    discard: int
    discards_examined: int
    discards_legal: int
    points: SearchResult
    margin: SearchResult
    score: SearchResult
    nodes: int = 0
    seconds: float = 0.0
    given_discard: bool = field(default=False)

    @property
    def made(self) -> bool | None:
        """Made at the target or above; None when the bounds do not tell."""
        return self.margin.at_least(0)

    @property
    def complete(self) -> bool:
        """Every value exact and, when the row chose its discard, every legal one seen."""
        exact = self.points.exact and self.margin.exact and self.score.exact
        return exact and (self.given_discard or self.discard == 0
                          or self.discards_examined == self.discards_legal)

    def to_dict(self) -> dict[str, Any]:
        def value(r: SearchResult) -> Any:
            return r.lower if r.exact else None

        return {
            "taker": self.taker + 1, "contract": self.contract.value,
            "discard": " ".join(CARD_IDS[c] for c in cards_of(self.discard)),
            "discards_examined": self.discards_examined, "discards_legal": self.discards_legal,
            "half_points": value(self.points), "half_points_bounds": [self.points.lower,
                                                                      self.points.upper],
            "margin_half_points": value(self.margin),
            "margin_bounds": [self.margin.lower, self.margin.upper],
            "score": value(self.score), "score_bounds": [self.score.lower, self.score.upper],
            "made": self.made, "complete": self.complete, "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def discard_order(hand_with_chien: int, players: int = 4) -> list[int]:
    """Every legal discard, the most promising first: most suits voided, then the most
    points put safely away, then the lowest cards (a stable order, so runs repeat)."""
    def key(discard: int) -> tuple[int, int, tuple[int, ...]]:
        kept = hand_with_chien & ~discard
        voids = sum(1 for s in range(4) if not kept & suit_mask(s))
        return (-voids, -half_points(discard), tuple(cards_of(discard)))

    return sorted(legal_discards(hand_with_chien, players), key=key)


def start_position(deal: FrenchDeal, taker: int, contract: Contract, discard: int, *,
                   chelem_announced: bool = False) -> FrenchPosition:
    """The first trick of the deal as the contract plays it."""
    if deal.players != 4:
        raise RulesError(f"the solver plays four hands; this deal has {deal.players}")
    hands = list(deal.hands)
    if contract.exchanges:
        hands[taker] = (hands[taker] | deal.chien) & ~discard
        aside = discard
    else:
        aside = deal.chien
    mine = contract.chien_to == "taker"
    state = PlayState(half_points(aside) if mine else 0, oudlers_in(aside) if mine else 0)
    leader = taker if chelem_announced else 0
    return FrenchPosition(tuple(hands), leader, taker, (), state)  # type: ignore[arg-type]


def continue_play(pos: FrenchPosition, play: Sequence[int], *, excuse_last: str) -> FrenchPosition:
    """The position after the cards of ``play`` (RulesError naming a revoke and where)."""
    for i, card in enumerate(play):
        try:
            pos = pos.play(card, excuse_last=excuse_last)
        except RulesError as exc:
            trick, place = divmod(i, 4)
            raise RulesError(f"card {i + 1} of the play (trick {trick + 1}, card {place + 1}, "
                             f"seat {pos.mover + 1}): {exc}") from None
    return pos


def _budget_left(deadline: float | None, nodes: int | None, used: int) -> Budget:
    """What is left of the row's budget after ``used`` nodes."""
    left = None if nodes is None else max(nodes - used, 1)
    seconds = None if deadline is None else max(deadline - perf_counter(), 0.001)
    return Budget(nodes=left, seconds=seconds)


def solve_row(deal: FrenchDeal, taker: int, contract: Contract | str, rules: FrenchRules, *,
              search: FrenchSearch | None = None, budget: Budget | None = None,
              discard: int | None = None, max_discards: int = DEFAULT_DISCARDS,
              poignees: Iterable[tuple[Side | str, Poignee | str]] = (),
              chelem_announced: bool = False, play: Sequence[int] = ()) -> FrenchRow:
    """One row: the best discard of the ``max_discards`` most promising (or ``discard``),
    then the card points, margin and score of its play, within ``budget`` in all."""
    contract = Contract.parse(contract)
    search = search or FrenchSearch(excuse_last=rules.excuse_last_trick)
    budget = budget or Budget()
    start = perf_counter()
    deadline = None if budget.seconds is None else start + budget.seconds
    score_table = outcome_table(rules, contract, poignees=poignees,
                                chelem_announced=chelem_announced)
    nodes = 0
    given = discard is not None
    legal = 0
    examined = 0
    if not contract.exchanges:
        if discard:
            raise RulesError(f"a {contract.title} has no discard: the taker does not take "
                             "the chien")
        chosen = 0
    elif given:
        check_discard(deal.hands[taker] | deal.chien, discard, deal.players)
        chosen = discard
        legal = 1
        examined = 1
    else:
        full = deal.hands[taker] | deal.chien
        legal = legal_discard_count(full, deal.players)
        candidates = discard_order(full, deal.players)[:max(1, max_discards)]
        chosen, best = 0, None
        for cand in candidates:
            pos = continue_play(start_position(deal, taker, contract, cand,
                                               chelem_announced=chelem_announced), play,
                                excuse_last=search.excuse_last)
            if best is None:
                r = search.outcome_value(pos, score_table,
                                         budget=_budget_left(deadline, budget.nodes, nodes))
                nodes += r.nodes
                best, chosen = r, cand
                examined = 1
                if not r.exact:
                    break
                continue
            # a better discard must beat the best so far: one null-window test first
            r = search.outcome_value(pos, score_table, guess=best.lower + 1, max_tests=1,
                                     budget=_budget_left(deadline, budget.nodes, nodes))
            nodes += r.nodes
            if r.tests == 0:
                break  # the budget ran out
            if r.upper > best.lower:
                r = search.outcome_value(pos, score_table, guess=r.lower,
                                         budget=_budget_left(deadline, budget.nodes, nodes))
                nodes += r.nodes
                if not r.exact:
                    break
                best, chosen = r, cand
            examined += 1
    pos = continue_play(start_position(deal, taker, contract, chosen,
                                       chelem_announced=chelem_announced), play,
                        excuse_last=search.excuse_last)
    # card points first (the fastest search); its value guesses the margin and the score
    points = search.points(pos, budget=_budget_left(deadline, budget.nodes, nodes))
    nodes += points.nodes
    held = pos.state.taker_oudlers + oudlers_in(pos.hands[taker] & ~(1 << PETIT))
    guess_points = (points.lower + points.upper) // 2
    margin_guess = guess_points - TARGET_HALF_POINTS[min(held, 3)]
    margin = search.outcome_value(pos, margin_table(), guess=margin_guess,
                                  budget=_budget_left(deadline, budget.nodes, nodes))
    nodes += margin.nodes
    score_guess = int(score_table[min(max(guess_points, 0), TOTAL_HALF_POINTS),
                                  min(held, 3), 0, 0])
    score = search.outcome_value(pos, score_table, guess=score_guess,
                                 budget=_budget_left(deadline, budget.nodes, nodes))
    nodes += score.nodes
    results = [points, margin, score]
    return FrenchRow(taker, contract, chosen, examined, legal, *results, nodes=nodes,
                     seconds=perf_counter() - start, given_discard=given)


def solve_table(deal: FrenchDeal, rules: FrenchRules, *, takers: Sequence[int] | None = None,
                contracts: Sequence[Contract | str] | None = None,
                budget: Budget | None = None, **kwargs: Any) -> list[FrenchRow]:
    """Rows for each taker seat and contract (all by default), ``budget`` per row."""
    search = FrenchSearch(excuse_last=rules.excuse_last_trick)
    seats = range(deal.players) if takers is None else takers
    chosen = list(Contract) if contracts is None else [Contract.parse(c) for c in contracts]
    # a discard given (a file's record) is the Petite's and the Garde's; the other
    # contracts leave the chien aside
    discard = kwargs.pop("discard", None)
    return [solve_row(deal, seat, contract, rules, search=search, budget=budget,
                      discard=discard if contract.exchanges else None, **kwargs)
            for seat in seats for contract in chosen]

