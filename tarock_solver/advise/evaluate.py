"""One world → the declarer's outcome: card points in thirds, made, net game points.

Two small interfaces keep the adviser independent of how a world is solved:

* :class:`Evaluator` solves play positions.  :class:`CardPointEvaluator` asks
  the double-dummy solver for the declarer's card points (one solve serves
  every announcement set); :class:`GamePointEvaluator` solves the exact game
  points, birds included, once per announcement set.
* :class:`Scorer` turns a card-point result into the net game points of every
  announcement set through the scoring calculator, with a cache, because the
  same (thirds, holdings) recur across worlds and candidates.

A position is always the start of play: the three hands after the exchange
(the declarer's ``hand_after``, the defenders' dealt hands), forehand (seat 0)
leading trick 1 (RULES.md 3).

Where the solves go (the adviser's cost is almost all here): every profile
scores over/under points, so a net needs the exact card points and a plain
"made?" test is not enough.  The evaluator makes exact values cheap instead:

* MTD(f) starts from a *guess* taken from a related solve of the same unit of
  work (the sibling exchange in the same inner world, the same exchange in
  other worlds): on the demo hand's Three race a good first guess halves the
  nodes (140 M → 90 M; a perfect guess 78 M).
* In the race (``phase="race"``) each position first gets the null-window
  "is the game made?" test at its own threshold — the bound that moves the net
  most, cheap when the position is far from it — and the rest of the search has
  a node budget; over budget, the value is the midpoint of the proved bounds
  (make/fail always known when the first test finished).  The race only ranks
  exchanges, so a bounded value costs little accuracy there.
* In the evaluation (``phase="eval"``) the budget is larger; a value still
  bounded is counted and reported (never hidden).

Every unit of work (one world, one group of contracts) starts with an empty
transposition table (:meth:`CardPointEvaluator.begin_unit`), so which solves hit
a budget — and so every number — does not depend on what else the process
solved before: same seed, same numbers for any ``--jobs``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..cards import BIRD_CARD, KINGS_MASK, TRULL_MASK, thirds_of
from ..errors import RulesError
from ..rules import Rules
from .announcements import TARGET_POINTS, AnnSet, eligible_after

if TYPE_CHECKING:  # the solver (numba) loads on the first solve, not on import
    from ..solver import CardPointSearch

#: The cards whose holders matter to the scoring when no bird is scored: hand
#: bonuses (Trull, Köpfe, four Kings) and the "no Trull / no Kings" conditions.
HOLDING_MASK = TRULL_MASK | KINGS_MASK


@dataclass(frozen=True)
class PlayTask:
    """One position to play out and score.

    ``hands`` are the three hands at the start of play (after the exchange), in
    seat order.  ``pile_thirds`` is what the declarer already owns before the
    first trick (his discard).  ``dealt`` is his hand before the exchange.
    """

    hands: tuple[int, int, int]
    declarer: int
    pile_thirds: int
    dealt: int
    contract: str

    @property
    def in_play_thirds(self) -> int:
        """Thirds of all 48 cards in play: what the declarer takes by winning every trick."""
        return thirds_of(self.hands[0] | self.hands[1] | self.hands[2])


@dataclass
class Outcome:
    """A world's result for every announcement set of one contract (arrays by set index)."""

    thirds: np.ndarray  # int, declarer's card points in thirds
    valat: np.ndarray  # bool, the declarer took all 16 tricks
    made: np.ndarray  # bool, the game item (or the target replacing it) succeeded
    net: np.ndarray  # float, declarer's zero-sum net game points; NaN: set impossible here
    bounded: bool = False  # the card points are the midpoint of bounds (node budget spent)
    notes: list[str] | None = None  # game-point solves: the scorer's bird notes per set
    over_budget: bool = False  # game-point solves: some set ran over its node budget (NaN)


class Evaluator(Protocol):
    """Solves play tasks.  ``objective`` names what the search optimises.

    ``phase`` says what the values are for: ``"race"`` (ranking exchanges on
    inner worlds: bounded values are acceptable) or ``"eval"`` (the reported
    estimates).  :meth:`begin_unit` is called before each unit of work (one
    world, one group of contracts) so that per-unit state is reset.
    """

    objective: str

    def outcomes(self, tasks: Sequence[PlayTask], scorer: Scorer,
                 phase: str = "eval") -> list[Outcome]:
        """The outcome of every task, for every announcement set ``scorer`` knows."""
        ...

    def begin_unit(self) -> None:
        """Forget per-unit state (caches, transposition table)."""
        ...


TrickPointsFn = Callable[[Sequence[tuple[tuple[int, int, int], int]]], Sequence[int]]


@dataclass
class PhaseStats:
    """Work of one phase (race or eval): positions, searches, nodes, bounded values."""

    positions: int = 0  # distinct positions solved
    exact: int = 0  # of which resolved exactly
    bounded: int = 0  # of which only bounded (node budget spent)
    width: int = 0  # sum of the bound widths of the bounded ones, in points
    tests: int = 0  # null-window searches
    nodes: int = 0
    seconds: float = 0.0

    def add(self, other: PhaseStats) -> None:
        for name in ("positions", "exact", "bounded", "width", "tests", "nodes", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def minus(self, other: PhaseStats) -> PhaseStats:
        out = PhaseStats()
        for name in ("positions", "exact", "bounded", "width", "tests", "nodes", "seconds"):
            setattr(out, name, getattr(self, name) - getattr(other, name))
        return out

    def as_dict(self) -> dict:
        return {"positions": self.positions, "exact": self.exact, "bounded": self.bounded,
                "mean_bound_width": self.width / self.bounded if self.bounded else 0.0,
                "tests": self.tests, "nodes": self.nodes, "seconds": round(self.seconds, 3)}


@dataclass
class CardPointEvaluator:
    """Exact double-dummy card points; every announcement set scored from the same solve.

    ``solve_batch`` (tests) maps ``[(hands, declarer), ...]`` to the
    declarer's exact trick points; by default the solver's
    :class:`~tarock_solver.solver.CardPointSearch` with first guesses, the
    race's make test and the node budgets ``race_nodes`` / ``eval_nodes``
    (None: no budget).
    ``stats`` holds the work per phase.
    """

    solve_batch: TrickPointsFn | None = None
    race_nodes: int | None = None
    eval_nodes: int | None = None
    objective: str = "card points"
    stats: dict[str, PhaseStats] = field(default_factory=lambda: {"race": PhaseStats(),
                                                                   "eval": PhaseStats()})
    _cache: dict = field(default_factory=dict)
    _search: CardPointSearch | None = None
    #: Per unit: total thirds seen per defenders' holding (same inner world) and per
    #: declarer's hand (same exchange), for MTD(f) first guesses.
    _by_world: dict = field(default_factory=dict)
    _by_hand: dict = field(default_factory=dict)

    @property
    def solves(self) -> int:
        """Positions solved so far (both phases)."""
        return self.stats["race"].positions + self.stats["eval"].positions

    def begin_unit(self) -> None:
        """A new unit of work: empty caches and transposition table (determinism)."""
        self._cache.clear()
        self._by_world.clear()
        self._by_hand.clear()
        if self._search is not None:
            self._search.clear()

    def _guess(self, task: PlayTask) -> int | None:
        """First MTD(f) guess, in future points: a sibling's total, else this hand's mean."""
        d = task.declarer
        world = (task.hands[(d + 1) % 3], task.hands[(d + 2) % 3])
        total = self._by_world.get(world)
        if total is None:
            seen = self._by_hand.get(task.hands[d])
            if not seen:
                return None
            total = sum(seen) / len(seen)
        return int(round((total - task.pile_thirds) / 3))

    def _remember(self, task: PlayTask, points: float) -> None:
        d = task.declarer
        total = task.pile_thirds + 3 * points
        self._by_world[(task.hands[(d + 1) % 3], task.hands[(d + 2) % 3])] = total
        self._by_hand.setdefault(task.hands[d], []).append(total)

    def bounds(self, tasks: Sequence[PlayTask], scorer: Scorer | None = None,
               phase: str = "eval") -> list[tuple[int, int]]:
        """(lower, upper) trick points of each task (cached: identical positions solve once)."""
        st = self.stats.setdefault(phase, PhaseStats())
        keys = [(t.hands, t.declarer) for t in tasks]
        if self.solve_batch is not None:
            missing = list(dict.fromkeys(k for k in keys if k not in self._cache))
            if missing:
                values = self.solve_batch(missing)
                st.positions += len(missing)
                st.exact += len(missing)
                for k, v in zip(missing, values, strict=True):
                    self._cache[k] = (int(v), int(v))
            return [self._cache[k] for k in keys]
        from ..solver import Budget, CardPointSearch, Position

        if self._search is None:
            self._search = CardPointSearch()
        nodes = self.race_nodes if phase == "race" else self.eval_nodes
        budget = Budget(nodes=max(1, int(nodes))) if nodes is not None else None
        for task, key in zip(tasks, keys, strict=True):
            if key in self._cache:
                continue
            first = scorer.make_threshold(task) if (scorer is not None and phase == "race") \
                else None
            t0 = time.perf_counter()
            r = self._search.value(Position(task.hands, 0, task.declarer), budget,
                                   guess=self._guess(task), first_test=first)
            lo, hi = r.lower, r.upper
            st.seconds += time.perf_counter() - t0
            st.positions += 1
            st.tests += r.tests
            st.nodes += r.nodes
            if lo == hi:
                st.exact += 1
            else:
                st.bounded += 1
                st.width += hi - lo
            self._cache[key] = (lo, hi)
            self._remember(task, (lo + hi) / 2)
        return [self._cache[k] for k in keys]

    def outcomes(self, tasks: Sequence[PlayTask], scorer: Scorer,
                 phase: str = "eval") -> list[Outcome]:
        out = []
        for task, (lo, hi) in zip(tasks, self.bounds(tasks, scorer, phase), strict=True):
            # A bounded value (node budget spent) counts as the midpoint of its bounds;
            # make/fail is exact whenever the make test finished (race phase).
            points = (lo + hi) // 2
            thirds = task.pile_thirds + 3 * points
            valat = 3 * points == task.in_play_thirds
            o = scorer.outcome(task, thirds, valat)
            o.bounded = lo != hi
            out.append(o)
        return out


ScoreFn = Callable[[str, int, AnnSet, int, bool, int, int, tuple[int, int]], tuple[float, bool]]


class Scorer:
    """Net game points of every announcement set of one contract, for a card-point result.

    ``score_fn(contract, declarer, annset, thirds, valat, dealt, hand_after,
    defenders)`` returns ``(net_declarer, made)``; :func:`calculator_score_fn`
    builds it from the project's scoring calculator.  Results are cached on the
    quantities the score depends on when no bird is scored: the thirds, Valat,
    and who holds the Trull cards and Kings.
    """

    def __init__(self, contract: str, declarer: int, annsets: Sequence[AnnSet],
                 score_fn: ScoreFn) -> None:
        self.contract = contract
        self.declarer = declarer
        self.annsets = list(annsets)
        self.score_fn = score_fn
        self._cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._thresholds: dict[tuple[int, int], int | None] = {}

    def make_threshold(self, task: PlayTask) -> int | None:
        """Fewest future trick points with which plain play makes the game (None: never).

        Found by bisection on the scorer itself (the game result is monotone in
        the points), so it follows every profile's threshold and the discard.
        """
        total = task.in_play_thirds // 3
        key = (task.pile_thirds, total)
        if key in self._thresholds:
            return self._thresholds[key]

        def made(p: int) -> bool:
            return bool(self.outcome(task, task.pile_thirds + 3 * p, 3 * p == task.in_play_thirds)
                        .made[0])

        # Taking every point is Valat, scored apart: bisect below it, then look at it alone.
        found: int | None
        top = total - 1
        if top < 0 or not made(top):
            found = total if made(total) else None
        else:
            lo, hi = 0, top  # made(hi) holds
            while lo < hi:
                mid = (lo + hi) // 2
                if made(mid):
                    hi = mid
                else:
                    lo = mid + 1
            found = lo
        self._thresholds[key] = found
        return found

    def outcome(self, task: PlayTask, thirds: int, valat: bool) -> Outcome:
        d = self.declarer
        defenders = (task.hands[(d + 1) % 3], task.hands[(d + 2) % 3])
        hand_after = task.hands[d]
        key = (thirds, valat, task.dealt & HOLDING_MASK, hand_after & HOLDING_MASK,
               defenders[0] & HOLDING_MASK, defenders[1] & HOLDING_MASK)
        hit = self._cache.get(key)
        if hit is None:
            nets = np.empty(len(self.annsets))
            made = np.empty(len(self.annsets), dtype=bool)
            for i, annset in enumerate(self.annsets):
                if not eligible_after(annset, hand_after):
                    # Not announceable after this exchange; the race masks these cells.
                    nets[i], made[i] = np.nan, False
                    continue
                try:
                    nets[i], made[i] = self.score_fn(self.contract, d, annset, thirds, valat,
                                                     task.dealt, hand_after, defenders)
                except RulesError:
                    # An impossible scenario for this exchange, e.g. after-talon items
                    # when a broken before-talon "no ..." ended the game at the talon.
                    nets[i], made[i] = np.nan, False
            hit = (nets, made)
            self._cache[key] = hit
        n = len(self.annsets)
        return Outcome(thirds=np.full(n, thirds), valat=np.full(n, valat), made=hit[1],
                       net=hit[0])


def item_success(item: str, points: int, made: bool, valat: bool) -> bool:
    """Did an announced item succeed, given the rounded points, game result and Valat?"""
    if item in TARGET_POINTS:
        return points >= TARGET_POINTS[item]
    if item == "valat":
        return valat
    return made  # no_trull / no_kings succeed with the game (or the target)


def bird_eligible(annset: AnnSet, dealt: int, hand_after: int) -> bool:
    """May the declarer announce the birds of ``annset``?  He must hold the bird card:
    before the talon in his dealt hand, after it in his hand after the exchange."""
    for name, level in annset:
        if name in BIRD_CARD:
            hand = dealt if level == "before" else hand_after
            if not hand >> BIRD_CARD[name] & 1:
                return False
    return True


@dataclass
class GamePointEvaluator:
    """Exact double-dummy *game points*: one game-point solve per task and announcement set.

    The swap-in for :class:`CardPointEvaluator` behind :class:`Evaluator`:
    the search optimises the net written on the score sheet, so birds (won,
    lost, silent or announced) and every other item are played for, not just
    scored.  ``solve_fn`` is :func:`tarock_solver.solver.solve_game_points`
    (tests inject a stand-in).  Sets with a bird the declarer does not hold are NaN.  The
    outcome's ``notes`` carry the scorer's bird notes (``pagat@decl:won``)
    per set, from which P(success) is read.
    """

    rules: Rules
    solve_fn: Callable | None = None
    #: Node budget of one game-point solve (None: none); a set over it stays NaN and
    #: the outcome says ``over_budget``.
    max_nodes: int | None = None
    objective: str = "game points"
    solves: int = 0
    seconds: float = 0.0
    nodes: int = 0
    #: Checked before each solve; when it fires, :attr:`stopped` is set and the
    #: remaining sets stay NaN (a game-point solve cannot be interrupted).
    should_stop: Callable[[], bool] | None = None
    stopped: bool = False

    def begin_unit(self) -> None:
        """Nothing to reset: every game-point solve builds its own table."""

    def outcomes(self, tasks: Sequence[PlayTask], scorer: Scorer,
                 phase: str = "eval") -> list[Outcome]:
        from ..solver import Budget, solve_game_points

        if self.solve_fn is None:
            self.solve_fn = solve_game_points
        budget = Budget(nodes=self.max_nodes) if self.max_nodes is not None else None
        out = []
        n = len(scorer.annsets)
        self.stopped = False
        for task in tasks:
            d = task.declarer
            dealt = [task.hands[0], task.hands[1], task.hands[2]]
            dealt[d] = task.dealt
            nets = np.full(n, np.nan)
            made = np.zeros(n, dtype=bool)
            thirds = np.zeros(n, dtype=np.int64)
            valat = np.zeros(n, dtype=bool)
            notes: list[str] = [""] * n
            over = False
            for i, annset in enumerate(scorer.annsets):
                if not (bird_eligible(annset, task.dealt, task.hands[d])
                        and eligible_after(annset, task.hands[d])):
                    continue
                if self.should_stop is not None and self.should_stop():
                    self.stopped = True
                    break
                t0 = time.perf_counter()
                try:
                    found = self.solve_fn(task.hands, 0, d, rules=self.rules,
                                          contract=task.contract, announcements=dict(annset),
                                          discard_thirds=task.pile_thirds,
                                          declarer_hand=task.hands[d],
                                          dealt=(dealt[0], dealt[1], dealt[2]), budget=budget)
                except RulesError:
                    continue  # an impossible scenario for this exchange (as in Scorer)
                finally:
                    self.seconds += time.perf_counter() - t0
                r = found.detail
                if r is None:
                    # Over the node budget (no value, or no line to read the birds from):
                    # stays NaN; the caller leaves the world out and says so.
                    over = True
                    break
                self.solves += 1
                self.nodes += found.nodes
                nets[i] = float(r.net_declarer)
                made[i] = bool(r.score.made)
                thirds[i] = int(r.thirds)
                valat[i] = bool(r.valat)
                notes[i] = str(r.birds)
            out.append(Outcome(thirds=thirds, valat=valat, made=made, net=nets, notes=notes,
                               over_budget=over))
        return out


def bird_success(notes: str, bird: str) -> bool:
    """Did the declarer's ``bird`` win its trick?  (From the scorer's bird notes.)"""
    return f"{bird}@decl:won" in notes.split(";")
