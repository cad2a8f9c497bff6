"""The double-dummy table of a known deal: best exchange and exact card points per
declarer seat and contract (``tarock solve``).

Each row (declarer × contract) is the best of the declarer's play options, searched
by :func:`.options.best_play`: every legal talon exchange, solved on one transposition
table, F leading trick 1 in every contract.  Lower is played exactly like Three, so it
is solved once and reported twice.

A budget per row (declarer × contract; nodes and/or seconds) keeps a table from running
for hours: a row that runs out is marked incomplete and reports the best option proven
so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .. import __version__
from ..cards import round_points
from ..deal import Deal, PartialDeal
from ..errors import DealError
from ..notation import SEATS, format_cards, seat_index
from ..play import LEADER
from ..rules import Rules
from ..scoring import ScoreInput, ScoreResult, score
from ..solver import Budget, CardPointSearch, Position
from .options import best_play, order_options, play_options, play_points_total

__all__ = [
    "STATUS_EXACT",
    "STATUS_OVER_BUDGET",
    "DDRow",
    "DDTable",
    "dd_table",
    "lead_values",
    "solve_contract",
]

#: Contracts whose play is identical (same talon groups, same discards, same lead).
_SAME_PLAY = {"lower": "three", "three": "lower"}

# Row statuses in the results schema (NOTATION 5.3 ``status``).
STATUS_EXACT = "exact"              # the row's value is exact
STATUS_OVER_BUDGET = "over_budget"  # the node budget ran out: only bounds are known


# ----------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class DDRow:
    """One line of the double-dummy table: a declarer seat and a contract.

    ``declarer_thirds`` and ``trick_points`` are exact when ``complete``; otherwise they
    belong to the best exchange proven before the node budget ran out (a lower bound;
    None if none was solved).  ``lower_thirds`` and ``upper_thirds`` bound the row's
    exact total by what the search proved (both equal ``declarer_thirds`` when
    ``complete``).  ``made`` is None when the bounds do not decide it.
    ``same_play_as`` names the contract whose search this row reuses (Lower/Three).
    """

    declarer: int
    contract: str
    talon_group: str
    discard: int
    hand_after: int
    defenders_talon: int
    declarer_thirds: int | None
    trick_points: int | None
    complete: bool
    made: bool | None
    valat: bool | None
    options: int
    legal_exchanges: int
    exact_solves: int
    tests: int
    skipped: int
    nodes: int
    seconds: float
    same_play_as: str | None = None
    score: ScoreResult | None = field(default=None, compare=False)
    lower_thirds: int | None = None
    upper_thirds: int | None = None

    @property
    def declarer_name(self) -> str:
        return SEATS[self.declarer]

    @property
    def discard_ids(self) -> str:
        """The discard as canonical ids in canonical order (empty in Solo)."""
        return format_cards(self.discard) if self.discard else ""

    @property
    def declarer_points(self) -> int | None:
        """Rounded card points P (RULES.md 1.2)."""
        return None if self.declarer_thirds is None else round_points(self.declarer_thirds)

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object (the keys of ``tarock solve --json``)."""
        sc = self.score
        return {
            "declarer": self.declarer_name,
            "contract": self.contract,
            "talon_group": self.talon_group,
            "discard": self.discard_ids,
            "declarer_thirds": self.declarer_thirds,
            "declarer_points": self.declarer_points,
            "trick_points": self.trick_points,
            "made": self.made,
            "complete": self.complete,
            "lower_thirds": self.lower_thirds,
            "upper_thirds": self.upper_thirds,
            "valat": self.valat,
            "written": None if sc is None else list(sc.written),
            "nets": None if sc is None else list(sc.nets),
            "net_declarer": None if sc is None else sc.net_declarer,
            "options": self.options,
            "legal_exchanges": self.legal_exchanges,
            "exact_solves": self.exact_solves,
            "tests": self.tests,
            "skipped": self.skipped,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "same_play_as": self.same_play_as,
        }

    def result_record(self, rules: Rules, *, deal_id: str = "", seed: int | None = None,
                      option: str = "plain") -> dict[str, Any]:
        """The row in the NOTATION 5.3 results schema.

        A row over its node budget keeps what was proved: ``status`` is
        ``over_budget``, the value columns are null (a bound is never passed off as the
        value), ``points_lower_thirds``/``points_upper_thirds`` hold the bounds, ``made``
        is set only when the bounds decide it, and ``talon_pick``/``discard`` name the
        exchange behind the lower bound (empty if none was solved).
        """
        from .results import SCHEMA_VERSION  # pandas loads only when results are wanted

        if not self.complete:
            return self._open_record(rules, deal_id=deal_id, seed=seed, option=option)
        if self.score is None or self.declarer_thirds is None:
            raise ValueError(f"row {self.declarer_name} {self.contract} is complete but has no "
                             "score")
        sc = self.score
        return {
            "schema": SCHEMA_VERSION,
            "deal_id": deal_id,
            "rules": rules.name,
            "rule_options": rules.describe_overrides(),
            "declarer": self.declarer_name,
            "contract": self.contract,
            "option": option,
            "talon_pick": self.talon_group,
            "discard": self.discard_ids,
            "points_thirds": self.declarer_thirds,
            "points": sc.points,
            "made": sc.made,
            "margin_thirds": sc.margin_thirds,
            "game_value": sc.game_value,
            "multiplier": sc.multiplier,
            "birds": sc.birds,
            "valat": sc.valat,
            "written_F": sc.written[0],
            "written_M": sc.written[1],
            "written_R": sc.written[2],
            "net_F": sc.nets[0],
            "net_M": sc.nets[1],
            "net_R": sc.nets[2],
            "net_declarer": sc.net_declarer,
            "nodes": self.nodes,
            "solve_ms": self.seconds * 1000.0,
            "solver_version": __version__,
            "seed": seed,
            "status": STATUS_EXACT,
            "points_lower_thirds": self.declarer_thirds,
            "points_upper_thirds": self.declarer_thirds,
        }

    def _open_record(self, rules: Rules, *, deal_id: str, seed: int | None,
                     option: str) -> dict[str, Any]:
        from .results import SCHEMA_VERSION

        solved = self.declarer_thirds is not None
        return {
            "schema": SCHEMA_VERSION,
            "deal_id": deal_id,
            "rules": rules.name,
            "rule_options": rules.describe_overrides(),
            "declarer": self.declarer_name,
            "contract": self.contract,
            "option": option,
            "talon_pick": self.talon_group if solved else "",
            "discard": self.discard_ids if solved else "",
            "points_thirds": None,
            "points": None,
            "made": self.made,
            "margin_thirds": None,
            "game_value": None,
            "multiplier": rules.multiplier(self.contract),
            "birds": None,
            "valat": None,
            "written_F": None,
            "written_M": None,
            "written_R": None,
            "net_F": None,
            "net_M": None,
            "net_R": None,
            "net_declarer": None,
            "nodes": self.nodes,
            "solve_ms": self.seconds * 1000.0,
            "solver_version": __version__,
            "seed": seed,
            "status": STATUS_OVER_BUDGET,
            "points_lower_thirds": self.lower_thirds,
            "points_upper_thirds": self.upper_thirds,
        }


def _score_row(rules: Rules, deal: Deal, declarer: int, contract: str, thirds: int,
               hand_after: int, valat: bool) -> ScoreResult:
    """Written amounts and nets of the plain game with this outcome.

    Hand bonuses are judged as RULES.md 5.5 says (declarer after the exchange,
    defenders as dealt); silent Valat follows from the card points.  Silent birds are
    not scored: maximising card points does not decide in which trick I, II or III is
    played, so the double-dummy line says nothing about them.
    """
    inp = ScoreInput(contract=contract, declarer=declarer, declarer_thirds=thirds,
                     valat=valat, declarer_hand=hand_after, dealt=deal.hands)
    return score(rules, inp)


def _checked_deal(deal: Deal | PartialDeal) -> Deal:
    if isinstance(deal, PartialDeal):
        if not deal.is_complete():
            raise DealError("the double-dummy table needs a complete deal: three hands of 16 "
                            "cards and the talon (no '-' or '?').")
        deal = deal.to_deal()
    deal.validate()
    return deal


def solve_contract(deal: Deal, declarer: int | str, contract: str, rules: Rules, *,
                   solver: CardPointSearch | None = None, budget: Budget | None = None,
                   raise_alpha: bool = True) -> DDRow:
    """One row of the table: ``declarer`` plays ``contract`` after his best exchange.

    ``budget`` limits the whole row; ``solver`` supplies the shared
    transposition table (a new one by default).
    """
    deal = _checked_deal(deal)
    seat = seat_index(declarer)
    contract = rules.check_contract(rules.contract_key(contract))
    solver = solver if solver is not None else CardPointSearch()
    options = order_options(play_options(deal, seat, contract, rules))
    result = best_play(solver, options, deal.hands, seat, budget=budget,
                       raise_alpha=raise_alpha)
    legal = sum(o.exchange.equivalents if o.exchange else 1 for o in options)
    best = result.best
    common = dict(declarer=seat, contract=contract, complete=result.complete,
                  options=len(options), legal_exchanges=legal,
                  exact_solves=result.exact_solves, tests=result.tests,
                  skipped=result.skipped, nodes=result.nodes, seconds=result.seconds,
                  lower_thirds=result.lower_thirds, upper_thirds=result.upper_thirds)
    # Over budget, the bounds may still settle the game: proved reachable or out of reach.
    decided: bool | None = None
    if result.lower_thirds is not None and result.lower_thirds >= rules.win_thirds:
        decided = True
    elif result.upper_thirds is not None and result.upper_thirds < rules.win_thirds:
        decided = False
    if best is None:
        return DDRow(talon_group="", discard=0, hand_after=deal.hands[seat],
                     defenders_talon=deal.talon_mask, declarer_thirds=None, trick_points=None,
                     made=decided, valat=None, **common)  # type: ignore[arg-type]
    ex = best.option.exchange
    thirds = best.thirds
    assert thirds is not None and best.trick_points is not None
    hands = list(deal.hands)
    hands[seat] = best.option.hand
    valat = best.trick_points == play_points_total(hands)
    made: bool | None = thirds >= rules.win_thirds
    sc = None
    if result.complete:
        sc = _score_row(rules, deal, seat, contract, thirds, best.option.hand, valat)
        made = sc.made
    else:
        made = decided
    return DDRow(
        talon_group=ex.group_label if ex else "",
        discard=ex.discard if ex else 0,
        hand_after=best.option.hand,
        defenders_talon=ex.defenders_talon_mask if ex else deal.talon_mask,
        declarer_thirds=thirds,
        trick_points=best.trick_points,
        made=made,
        valat=valat if result.complete else None,
        score=sc,
        **common,  # type: ignore[arg-type]
    )


def _same_play_row(row: DDRow, contract: str, rules: Rules, deal: Deal) -> DDRow:
    """``row`` (of Three or Lower) restated for its twin contract: same play, own score."""
    sc = None
    made = row.made
    if row.complete and row.declarer_thirds is not None:
        sc = _score_row(rules, deal, row.declarer, contract, row.declarer_thirds,
                        row.hand_after, bool(row.valat))
        made = sc.made
    return replace(row, contract=contract, same_play_as=row.contract, score=sc, made=made,
                   nodes=0, seconds=0.0, exact_solves=0, tests=0)


@dataclass(frozen=True)
class DDTable:
    """The double-dummy table of one deal (rows in seat order, then contract order)."""

    deal: Deal
    rules: Rules
    rows: tuple[DDRow, ...]
    budget: Budget | None = None

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.rows)

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.rows)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.rows)

    def row(self, declarer: int | str, contract: str) -> DDRow:
        seat = seat_index(declarer)
        for r in self.rows:
            if r.declarer == seat and r.contract == contract:
                return r
        raise KeyError(f"no row for declarer {SEATS[seat]} and contract {contract}")

    def result_records(self, *, deal_id: str = "", seed: int | None = None
                       ) -> list[dict[str, Any]]:
        """Results-schema records of every row (rows over budget with their bounds)."""
        return [r.result_record(self.rules, deal_id=deal_id, seed=seed) for r in self.rows]

    def results_frame(self, *, deal_id: str = "", seed: int | None = None) -> Any:
        """Every row as a typed NOTATION 5.3 results DataFrame."""
        from .results import results_frame

        return results_frame(self.result_records(deal_id=deal_id, seed=seed))


def dd_table(deal: Deal | PartialDeal, rules: Rules, *,
             declarers: Iterable[int | str] | None = None,
             contracts: Iterable[str] | None = None,
             solver: CardPointSearch | None = None, budget: Budget | None = None,
             raise_alpha: bool = True,
             progress: Callable[[DDRow], None] | None = None) -> DDTable:
    """The double-dummy table of a complete deal.

    ``declarers`` (seats or ``F``/``M``/``R``; default all three) and ``contracts``
    (default: the profile's) select the rows.  One ``solver`` (a new one by default)
    serves every row, so its table is shared.  ``budget`` limits each row.
    ``progress`` is called with every finished row.
    """
    deal = _checked_deal(deal)
    seats = sorted({seat_index(s) for s in declarers}) if declarers is not None else [0, 1, 2]
    if contracts is None:
        chosen = list(rules.contracts)
    else:
        wanted = {rules.contract_key(c) for c in contracts}
        chosen = [c for c in rules.contracts if c in wanted]
    solver = solver if solver is not None else CardPointSearch()
    rows: list[DDRow] = []
    for seat in seats:
        done: dict[str, DDRow] = {}
        for contract in chosen:
            twin = _SAME_PLAY.get(contract)
            if twin in done:
                row = _same_play_row(done[twin], contract, rules, deal)
            else:
                row = solve_contract(deal, seat, contract, rules, solver=solver,
                                     budget=budget, raise_alpha=raise_alpha)
            done[contract] = row
            rows.append(row)
            if progress is not None:
                progress(row)
    return DDTable(deal=deal, rules=rules, rows=tuple(rows), budget=budget)


def lead_values(deal: Deal, row: DDRow, *, solver: CardPointSearch | None = None,
                budget: Budget | None = None) -> dict[int, int] | None:
    """Value of every opening lead of F after the row's best exchange.

    Maps each card F may lead to the declarer's total in thirds (discard included)
    when F leads it and both sides play on perfectly.  F wants the largest value when
    he is the declarer and the smallest otherwise.  None if the row has no exchange
    or the ``budget`` ran out.
    """
    if row.declarer_thirds is None or row.trick_points is None:
        return None
    solver = solver if solver is not None else CardPointSearch()
    hands = list(deal.hands)
    hands[row.declarer] = row.hand_after
    values = solver.card_values(Position(hands, LEADER, row.declarer), budget)
    if not all(r.exact for r in values.values()):
        return None
    base = row.declarer_thirds - 3 * row.trick_points
    return {card: base + 3 * r.value for card, r in values.items()}

