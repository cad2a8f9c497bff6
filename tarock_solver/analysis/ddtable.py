"""The double-dummy table of a known deal: best exchange and exact card points per
declarer seat and contract (``tarock solve``).

For a declarer and a contract every legal talon exchange is a *play option*: the
declarer plays the hand he keeps, his discard already counts for him and the untaken
talon for the defenders (RULES.md 4); in Solo the one option is the dealt hand and
all six talon cards go to the defenders.  F leads trick 1 in every contract.  The
declarer's total is

    declarer thirds = discard thirds + 3 × (card points he takes in the 16 tricks)

and the best option is the one with the largest total (on ties the first in search
order).  Lower is played exactly like Three, so it is solved once and reported twice.

Search (:func:`best_play`).  All options of a deal share one transposition table.
They are visited in a heuristic order (likely strong ones first).  The first is
solved exactly; every later one first gets one null-window test "can it beat the
best so far?" at the smallest trick-point target that would, and is solved exactly
only if it can — alpha is raised by the best discard found so far.  An option is
skipped outright when even every remaining point would not beat the best, and options
that leave the declarer the same hand share their value.  ``raise_alpha=False`` solves
every option exactly (the naive method, kept as the reference in tests).

A budget per row (declarer × contract; nodes and/or seconds) keeps a table from running
for hours: a row that runs out is marked incomplete and reports the best option proven
so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import __version__
from ..cards import KINGS_MASK, TAROCK_MASK, mask_nominal, popcount, round_points
from ..deal import Deal, PartialDeal
from ..errors import DealError
from ..notation import SEATS, format_cards, seat_index
from ..rules import Rules
from ..scoring import ScoreInput, ScoreResult, score
from ..solver import Budget, CardPointSearch, Position
from ..talon import Exchange, exchanges

__all__ = [
    "LEADER",
    "STATUS_EXACT",
    "STATUS_OVER_BUDGET",
    "BestPlay",
    "DDRow",
    "DDTable",
    "OptionOutcome",
    "PlayOption",
    "best_play",
    "dd_table",
    "lead_values",
    "order_options",
    "play_options",
    "solve_contract",
]

#: F (forehand) leads to the first trick in every contract (RULES.md 2 and 3).
LEADER = 0

#: Contracts whose play is identical (same talon groups, same discards, same lead).
_SAME_PLAY = {"lower": "three", "three": "lower"}

# Row statuses in the results schema (NOTATION 5.3 ``status``).
STATUS_EXACT = "exact"              # the row's value is exact
STATUS_OVER_BUDGET = "over_budget"  # the node budget ran out: only bounds are known

# Outcome statuses of one option.
EXACT = "exact"            # its exact value is known
NOT_BETTER = "not_better"  # a null-window test proved it cannot beat the best so far
BOUND = "bound"            # even every remaining point could not beat the best so far
ABORTED = "aborted"        # its search ran out of nodes
UNSEARCHED = "unsearched"  # never reached: the row's budget was already spent

_SUIT_GROUP_MASKS = tuple(((1 << 8) - 1) << start for start in (22, 30, 38, 46))


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class PlayOption:
    """One way for the declarer to start the play.

    ``hand`` is the hand he plays; ``base_thirds`` what is already in his pile (the
    discard); ``exchange`` the talon exchange behind it, if any.
    """

    hand: int
    base_thirds: int
    exchange: Exchange | None = None


@dataclass(frozen=True)
class OptionOutcome:
    """What the search learned about one option (status: see the module constants)."""

    option: PlayOption
    status: str
    trick_points: int | None = None

    @property
    def thirds(self) -> int | None:
        """The declarer's total in thirds, when the option was solved exactly."""
        if self.trick_points is None:
            return None
        return self.option.base_thirds + 3 * self.trick_points


@dataclass(frozen=True)
class BestPlay:
    """The result of :func:`best_play`.

    ``best`` is the best option proven (exact when ``complete``; when the node budget
    ran out, the best of the options solved so far, a lower bound on the true best).
    ``outcomes`` lists every option in search order.  ``lower_thirds`` and
    ``upper_thirds`` bound the best total (declarer thirds) by what the searches
    proved; they are equal, and equal to ``best.thirds``, when ``complete``.
    """

    best: OptionOutcome | None
    outcomes: tuple[OptionOutcome, ...]
    complete: bool
    nodes: int
    seconds: float
    exact_solves: int
    tests: int
    lower_thirds: int | None = None
    upper_thirds: int | None = None

    @property
    def skipped(self) -> int:
        """Options settled without an exact solve (by a test or by the bound)."""
        return sum(o.status in (NOT_BETTER, BOUND) for o in self.outcomes)


def play_points_total(hands: Sequence[int]) -> int:
    """Card points of all the tricks still to be played from fresh-trick hands."""
    cards = hands[0] | hands[1] | hands[2]
    return mask_nominal(cards) - 2 * (popcount(cards) // 3)


def best_play(solver: CardPointSearch, options: Sequence[PlayOption], hands: Sequence[int],
              declarer: int, *, leader: int = LEADER, budget: Budget | None = None,
              raise_alpha: bool = True) -> BestPlay:
    """The option with the largest declarer total, searched in the given order.

    ``hands`` holds the defenders' hands (the declarer's entry is replaced by each
    option's hand); play starts with a fresh trick led by ``leader``.  With
    ``raise_alpha`` later options are tested against the best so far before any exact
    solve (module docstring); without it every option is solved exactly.  Either way
    the best is the first option, in order, with the largest total.  ``budget``
    caps the nodes of the whole call.
    """
    base_hands = [int(h) for h in hands]
    if not options:
        raise ValueError("best_play needs at least one option")
    start_nodes, start_seconds = solver.stats.nodes, solver.stats.seconds
    budget = Budget.of(budget)
    # Known bounds on the trick points of each declarer hand: options that keep the
    # same hand (different discards or talon groups) have the same play value.
    known: dict[int, tuple[int, int]] = {}
    outcomes: list[OptionOutcome] = []
    best: OptionOutcome | None = None
    exact_solves = tests = 0
    complete = True

    def left() -> Budget | None:
        """What is left of the row's budget (None: it is spent)."""
        nodes = seconds = None
        if budget.nodes is not None:
            nodes = budget.nodes - (solver.stats.nodes - start_nodes)
            if nodes <= 0:
                return None
        if budget.seconds is not None:
            seconds = budget.seconds - (solver.stats.seconds - start_seconds)
            if seconds <= 0:
                return None
        return Budget(nodes, seconds)

    for index, option in enumerate(options):
        rest = left()
        if rest is None:
            complete = False
            outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index:])
            break
        full = list(base_hands)
        full[declarer] = int(option.hand)
        lo, hi = known.get(option.hand, (0, play_points_total(full)))
        if best is not None and raise_alpha:
            best_thirds = best.thirds
            assert best_thirds is not None
            if option.base_thirds + 3 * hi <= best_thirds:
                outcomes.append(OptionOutcome(option, BOUND))
                continue
            # Smallest trick points t with base + 3t > best; never below 0.
            need = max(0, (best_thirds - option.base_thirds) // 3 + 1)
            if need > lo:
                test = solver.reaches(Position(full, leader, declarer), need, rest)
                ok = test.at_least(need)
                tests += 1
                if ok is None:
                    # What the unfinished test proved still narrows this hand's value.
                    known[option.hand] = (max(lo, test.lower), min(hi, test.upper))
                    complete = False
                    outcomes.append(OptionOutcome(option, ABORTED))
                    outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index + 1:])
                    break
                if not ok:
                    known[option.hand] = (lo, min(hi, need - 1))
                    outcomes.append(OptionOutcome(option, NOT_BETTER))
                    continue
                lo = need
                known[option.hand] = (lo, hi)
        if lo == hi:
            value: int | None = lo
        else:
            rest = left()
            found = solver.value(Position(full, leader, declarer), rest) if rest else None
            value = found.value if found is not None and found.exact else None
            exact_solves += 1
            if value is None:
                if found is not None:
                    known[option.hand] = (max(lo, found.lower), min(hi, found.upper))
                complete = False
                outcomes.append(OptionOutcome(option, ABORTED))
                outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index + 1:])
                break
        known[option.hand] = (value, value)
        outcome = OptionOutcome(option, EXACT, value)
        outcomes.append(outcome)
        if best is None or outcome.thirds > best.thirds:  # type: ignore[operator]
            best = outcome
    lower, upper = _proved_bounds(options, base_hands, declarer, known)
    if complete:
        assert best is not None and lower == upper == best.thirds, (lower, upper, best)
    return BestPlay(best=best, outcomes=tuple(outcomes), complete=complete,
                    nodes=solver.stats.nodes - start_nodes,
                    seconds=solver.stats.seconds - start_seconds,
                    exact_solves=exact_solves, tests=tests,
                    lower_thirds=lower, upper_thirds=upper)


def _proved_bounds(options: Sequence[PlayOption], base_hands: Sequence[int], declarer: int,
                   known: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Bounds on the best total over ``options`` from the trick-point bounds in ``known``.

    The declarer can choose any option, so the best total is at least the largest
    proved minimum and at most the largest proved maximum; an option never searched
    counts from 0 up to every point left in the play.
    """
    lower = upper = None
    for option in options:
        bounds = known.get(option.hand)
        if bounds is None:
            full = list(base_hands)
            full[declarer] = int(option.hand)
            bounds = (0, play_points_total(full))
        lo = option.base_thirds + 3 * bounds[0]
        hi = option.base_thirds + 3 * bounds[1]
        lower = lo if lower is None else max(lower, lo)
        upper = hi if upper is None else max(upper, hi)
    assert lower is not None and upper is not None
    return lower, upper


def _strength(hand: int) -> int:
    """A rough static guess of a hand's trick-taking power (used for ordering only).

    Counts the points of the cards that usually win their trick (tarocks, Kings), the
    number of tarocks, and suit voids (which let the tarocks trump in).
    """
    voids = sum(1 for m in _SUIT_GROUP_MASKS if not hand & m)
    return (3 * mask_nominal(hand & (TAROCK_MASK | KINGS_MASK))
            + 3 * popcount(hand & TAROCK_MASK) + 6 * voids)


def order_options(options: Iterable[PlayOption]) -> list[PlayOption]:
    """Options in search order: the likely strongest first (stable for equal guesses).

    A strong first option gives a high bar early, so most later options fail their
    null-window test cheaply.  The order changes speed only, never the best total.
    """
    return sorted(options, key=lambda o: -(o.base_thirds + _strength(o.hand)))


def play_options(deal: Deal, declarer: int, contract: str, rules: Rules) -> list[PlayOption]:
    """The declarer's options for ``contract``: one per legal exchange, equivalent
    discards skipped (:func:`tarock_solver.talon.exchanges`); Solo has exactly one."""
    records = exchanges(deal.hands[declarer], deal.talon, contract, rules.discard_tarock)
    return [PlayOption(e.hand_after, e.declarer_pile_thirds, e) for e in records]


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

