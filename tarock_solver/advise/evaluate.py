"""One world → the declarer's outcome: card points in thirds, made, net game points.

Two small interfaces keep the adviser independent of how a world is solved:

* :class:`Evaluator` solves play positions.  :class:`CardPointEvaluator` asks
  the double-dummy solver for the declarer's card points (one solve serves
  every announcement set).  A game-point evaluator (exact payoff with birds,
  issue 5) will implement the same :meth:`Evaluator.outcomes` and may solve
  once per announcement set; nothing else in the adviser changes.
* :class:`Scorer` turns a card-point result into the net game points of every
  announcement set through the scoring calculator, with a cache, because the
  same (thirds, holdings) recur across worlds and candidates.

A position is always the start of play: the three hands after the exchange
(the declarer's ``hand_after``, the defenders' dealt hands), forehand (seat 0)
leading trick 1 (RULES.md 3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ..cards import KINGS_MASK, TRULL_MASK, thirds_of
from ..errors import RulesError
from .announcements import TARGET_POINTS, AnnSet, eligible_after

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


class Evaluator(Protocol):
    """Solves play tasks.  ``objective`` names what the search optimises."""

    objective: str

    def outcomes(self, tasks: Sequence[PlayTask], scorer: Scorer) -> list[Outcome]:
        """The outcome of every task, for every announcement set ``scorer`` knows."""
        ...


TrickPointsFn = Callable[[Sequence[tuple[tuple[int, int, int], int]]], Sequence[int]]


def solver_solve_batch(positions: Sequence[tuple[tuple[int, int, int], int]]) -> list[int]:
    """The project's double-dummy solver: exact future trick points, forehand leading.

    One :class:`~tarock_solver.solver.Solver` per process keeps its
    transposition table across calls, so the candidates and inner worlds of one
    talon share work.  Sequential on purpose: parallelism comes from worker
    processes (``--jobs``), one solver each.
    """
    from ..solver import default_solver  # local import: numba loads only when needed

    solver = default_solver()
    return [solver.value(hands, 0, declarer) for hands, declarer in positions]


@dataclass
class CardPointEvaluator:
    """Exact double-dummy card points; every announcement set scored from the same solve.

    ``solve_batch`` maps ``[(hands, declarer), ...]`` to the declarer's trick
    points (forehand leads); by default the project's solver.  Tests inject a
    cheap stand-in.  ``solves`` counts the solver calls.
    """

    solve_batch: TrickPointsFn | None = None
    objective: str = "card points"
    solves: int = 0
    _cache: dict = field(default_factory=dict)

    def trick_points(self, tasks: Sequence[PlayTask]) -> list[int]:
        """Declarer's trick points of each task (cached: identical positions solve once)."""
        if self.solve_batch is None:
            self.solve_batch = solver_solve_batch
        keys = [(t.hands, t.declarer) for t in tasks]
        missing = list(dict.fromkeys(k for k in keys if k not in self._cache))
        if missing:
            values = self.solve_batch(missing)
            self.solves += len(missing)
            for k, v in zip(missing, values, strict=True):
                self._cache[k] = int(v)
        return [self._cache[k] for k in keys]

    def clear(self) -> None:
        """Forget cached solves (between worlds: positions never recur across worlds)."""
        self._cache.clear()

    def outcomes(self, tasks: Sequence[PlayTask], scorer: Scorer) -> list[Outcome]:
        out = []
        for task, points in zip(tasks, self.trick_points(tasks), strict=True):
            thirds = task.pile_thirds + 3 * points
            valat = 3 * points == task.in_play_thirds
            out.append(scorer.outcome(task, thirds, valat))
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
