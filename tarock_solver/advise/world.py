"""One sampled world: the units of work the scheduler hands out, and their evaluation.

A unit is one group of card-point contracts in world *j* (:class:`CardUnit`),
one contract's birds in world *j* (:class:`BirdUnit`), or, with a given talon,
one contract's exchange decision (:class:`RaceUnit`).  :class:`WorldSolver`
evaluates units of one :class:`~.plan.Problem` and holds the solvers.

* **Solo**: the talon goes unseen to the defenders; the world is solved as is.
* **Talon contracts**: the world's talon is the outer talon sample.  The
  declarer picks the group, the discard and the after-talon announcements by
  the average over *inner* worlds (other hands redrawn given that talon),
  racing a short list of exchanges (:mod:`.race`).  Every policy's choice is
  then evaluated on the world itself, which took no part in choosing.
* **Given talon**: the decision is made once (a race unit on many inner
  worlds) and every policy's choice is evaluated on fresh worlds.
* **Birds**: exact game-point solves on the exchange plain play chose in the
  world, with and without each bird announcement.

Every unit starts from an empty transposition table, so whether a node budget
bites, and so every number, does not depend on what the process solved before.
A world is a pure function of (seed, index), whichever process draws it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..talon import Exchange
from .announcements import after_part
from .candidates import shortlist
from .evaluate import (
    CardPointEvaluator,
    Evaluator,
    GamePointEvaluator,
    PhaseStats,
    PlayTask,
    Scorer,
    bird_eligible,
    bird_success,
)
from .plan import Problem
from .race import RaceResult, run_race, task_for
from .rulesview import RulesView
from .sampling import STREAM_FRESH, STREAM_INNER, STREAM_WORLD, World, world_at
from .types import BirdWorld, ContractPlan, ContractWorld, PolicyOutcome, WorldResult

#: Given-talon mode: per contract, the candidates raced and each policy's
#: (candidate index, announcement-set index); shipped with every card-point unit.
FixedChoices = tuple[tuple[str, tuple[Exchange, ...], tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True)
class CardUnit:
    """The card-point contracts ``contracts`` (task group ``group``) in world ``index``."""

    index: int
    group: int
    contracts: tuple[str, ...]


@dataclass(frozen=True)
class BirdUnit:
    """The birds of ``contract`` in world ``index``, on plain play's ``exchange``."""

    index: int
    contract: str
    exchange: tuple[int, int]  # (declarer's hand after the exchange, his discard in thirds)


@dataclass(frozen=True)
class RaceUnit:
    """Given-talon mode: the exchange decision of ``contract`` for ``samples`` worlds."""

    contract: str
    samples: int


Unit = CardUnit | BirdUnit | RaceUnit


class WorldSolver:
    """Evaluates units of one :class:`~.plan.Problem` (one per process; holds the solvers)."""

    def __init__(self, problem: Problem, evaluator: Evaluator | None = None) -> None:
        self.problem = problem
        self.view = RulesView(problem.rules)
        self.evaluator = evaluator or CardPointEvaluator(
            problem.solve_batch, race_nodes=problem.race.race_nodes,
            eval_nodes=problem.race.eval_nodes)
        self.scorers = {p.contract: Scorer(p.contract, problem.seat, p.annsets,
                                           self.view.score_fn())
                        for p in problem.plans}
        #: Given-talon mode: the decision made once, per contract.
        self.fixed_choices: dict[str, tuple[list[Exchange], list[tuple[int, int]]]] = {}
        self.bird_sets = dict(problem.birds)
        self.game_points = GamePointEvaluator(problem.rules, problem.game_point_fn,
                                              max_nodes=problem.race.bird_nodes)

    def run(self, unit: Unit, deadline: float | None = None,
            fixed: FixedChoices = ()) -> WorldResult | RaceResult | None:
        """Evaluate one unit (what the scheduler and the worker processes call)."""
        if isinstance(unit, CardUnit):
            if fixed:
                self.fixed_choices = {c: (list(cands), list(ch)) for c, cands, ch in fixed}
            return self.world(unit.index, deadline, unit.contracts)
        if isinstance(unit, BirdUnit):
            return self.bird_world(unit.index, unit.contract, unit.exchange, deadline)
        return self.given_talon_race(unit.contract, deadline, unit.samples)

    # -- helpers
    def _world(self, j: int) -> World:
        p = self.problem
        return world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                        reject_tarockless=self.view.redeal_no_tarock)

    def _outcome(self, plan: ContractPlan, ex: Exchange | None, annset_index: int,
                 out) -> PolicyOutcome:
        annset = plan.annsets[annset_index]
        return PolicyOutcome(
            net=float(out.net[annset_index]),
            thirds=int(out.thirds[annset_index]),
            made=bool(out.made[annset_index]),
            valat=bool(out.valat[annset_index]),
            announced=tuple(sorted(after_part(annset))),
            group=ex.group_label if ex is not None else "",
            discard=ex.discard_ids if ex is not None else "",
            bounded=bool(getattr(out, "bounded", False)),
        )

    def evaluate_choices(self, plan: ContractPlan, candidates: Sequence[Exchange | None],
                         choices: Sequence[tuple[int, int]], world: World) -> list[PolicyOutcome]:
        """Play every policy's chosen exchange in ``world`` and score its chosen set."""
        p = self.problem
        distinct = sorted({e for e, _ in choices})
        tasks = [task_for(candidates[e], p.hand, world, p.seat, plan.contract) for e in distinct]
        outs = dict(zip(distinct, self.evaluator.outcomes(tasks, self.scorers[plan.contract],
                                                          "eval"), strict=True))
        return [self._outcome(plan, candidates[e], s, outs[e]) for e, s in choices]

    def solo_choices(self, plan: ContractPlan) -> list[tuple[int, int]]:
        """Solo: every policy is unconditional, so its set is fixed (index into annsets)."""
        choices = []
        for pol in plan.policies:
            idx = next(i for i, s in enumerate(plan.annsets) if pol.allows(s))
            choices.append((0, idx))
        return choices

    def race(self, plan: ContractPlan, talon: tuple[int, ...], inner_index: Callable[[int], tuple],
             schedule: Sequence[int], per_group: int,
             should_stop: Callable[[], bool], partial_ok: bool = False,
             budget: int | None = None) -> RaceResult | None:
        """Race the shortlisted exchanges of ``plan`` for one talon on inner worlds.

        ``inner_index(k)`` names inner world k's seed index; ``budget`` caps
        the race's nodes (None: no cap; the given-talon decision has none).
        """
        p = self.problem
        candidates = shortlist(p.hand, talon, plan.contract, self.view.discard_mode, per_group)
        inner_knowledge = p.knowledge.with_talon(talon)

        def inner_world(k: int) -> World:
            return world_at(inner_knowledge, p.seed, STREAM_INNER, *inner_index(k),
                            reject_tarockless=self.view.redeal_no_tarock)

        def make_task(ex: Exchange, w: World) -> PlayTask:
            return task_for(ex, p.hand, w, p.seat, plan.contract)

        stats = getattr(self.evaluator, "stats", {}).get("race")
        nodes0 = stats.nodes if stats is not None else 0

        def over_budget() -> bool:
            return budget is not None and stats is not None and stats.nodes - nodes0 >= budget

        return run_race(candidates, inner_world, make_task, self.evaluator,
                        self.scorers[plan.contract], plan.policies, plan.racing, schedule,
                        should_stop, partial_ok, over_budget)

    # -- the units of work
    def given_talon_race(self, contract: str, deadline: float | None,
                         samples: int) -> RaceResult | None:
        """Given-talon mode: decide group, discard and announcements once, on many inner worlds.

        Inner worlds use their own seed stream, separate from the evaluation
        worlds.  At the deadline the decision is made on the rounds done.
        """
        p = self.problem
        assert p.given_talon is not None
        plan = next(pl for pl in p.plans if pl.contract == contract)
        schedule = tuple(n for n in p.race.talon_schedule if n <= max(samples, 2)) or (2,)
        self.evaluator.begin_unit()
        return self.race(plan, p.given_talon, lambda k: (k,), schedule, p.race.talon_per_group,
                         lambda: deadline is not None and time.time() > deadline,
                         partial_ok=True)

    def world(self, j: int, deadline: float | None = None,
              contracts: Sequence[str] | None = None) -> WorldResult:
        """Evaluate the ``contracts`` (default all) in world ``j``.

        Stops early, with the contracts done so far, at ``deadline``.
        """
        p = self.problem
        start = time.time()
        self.evaluator.begin_unit()
        solves0 = getattr(self.evaluator, "solves", 0)

        def should_stop() -> bool:
            return deadline is not None and time.time() > deadline

        world = self._world(j)
        result = WorldResult(j)
        for plan in p.plans:
            if contracts is not None and plan.contract not in contracts:
                continue
            if should_stop():
                break
            work0 = self._work_snapshot()
            if not self._contract_world(plan, j, world, result, should_stop):
                break
            if plan.contract in result.contracts:
                result.contracts[plan.contract].work = self._work_since(work0)
        result.solves = getattr(self.evaluator, "solves", 0) - solves0
        result.seconds = time.time() - start
        return result

    def bird_world(self, j: int, contract: str, exchange: tuple[int, int],
                   deadline: float | None = None) -> WorldResult:
        """The birds of ``contract`` in world ``j``, on the plain policy's exchange.

        ``exchange`` is ``(hand after, discard thirds)`` of the exchange plain
        play chose in this world (its card-point unit ran first).  Every
        bird announcement set is one exact game-point solve; the first set is
        the game-point value without announcements (silent birds count), the
        baseline of every gain.  When the declarer holds no bird to announce,
        nothing is solved (every gain is 0; the nets stay NaN).  Returns the
        world without birds if the deadline passes first.
        """
        p = self.problem
        start = time.time()
        result = WorldResult(j, kind="birds")
        sets = self.bird_sets.get(contract, ())
        if len(sets) < 2:
            return result
        hand_after, pile = exchange
        hands = list(self._world(j).hands)
        hands[p.seat] = hand_after
        task = PlayTask((hands[0], hands[1], hands[2]), p.seat, pile, p.hand, contract)
        n = len(sets)
        if not any(bird_eligible(s, p.hand, hand_after) for s in sets[1:]):
            # No bird to announce in this world: announcing equals not announcing, and
            # the baseline solve (the slowest part) would only serve E[net].
            result.birds[contract] = BirdWorld(np.full(n, np.nan), np.zeros(n, dtype=bool))
            return result
        scorer = Scorer(contract, p.seat, sets, self.view.score_fn())
        gp = self.game_points
        gp.should_stop = (lambda: deadline is not None and time.time() > deadline)
        solves0 = gp.solves
        out = gp.outcomes([task], scorer)[0]
        if gp.stopped:
            return result
        if out.over_budget:
            result.birds[contract] = BirdWorld(np.full(n, np.nan), np.zeros(n, dtype=bool),
                                               time.time() - start, gp.solves - solves0,
                                               over_budget=True)
            result.seconds = time.time() - start
            return result
        success = np.array([all(bird_success(out.notes[i] if out.notes else "", b)
                                for b, _ in s) if s else False
                            for i, s in enumerate(sets)], dtype=bool)
        result.birds[contract] = BirdWorld(out.net, success, time.time() - start,
                                           gp.solves - solves0)
        result.solves = gp.solves - solves0
        result.seconds = time.time() - start
        return result

    def _work_snapshot(self) -> dict[str, PhaseStats]:
        stats = getattr(self.evaluator, "stats", None) or {}
        out = {}
        for phase, st in stats.items():
            copy = PhaseStats()
            copy.add(st)
            out[phase] = copy
        return out

    def _work_since(self, before: dict[str, PhaseStats]) -> dict[str, PhaseStats]:
        stats = getattr(self.evaluator, "stats", None) or {}
        return {phase: st.minus(before.get(phase, PhaseStats())) for phase, st in stats.items()}

    def _contract_world(self, plan: ContractPlan, j: int, world: World, result: WorldResult,
                        should_stop: Callable[[], bool]) -> bool:
        """Evaluate one contract in world ``j`` into ``result``; False if the time ran out."""
        p = self.problem
        if plan.take == 0:
            outcomes = self.evaluate_choices(plan, [None], self.solo_choices(plan), world)
            result.contracts[plan.contract] = ContractWorld(outcomes,
                                                            plain_exchange=(p.hand, 0))
            return True
        if p.given_talon is not None:
            if plan.contract not in self.fixed_choices:
                return True  # its decision did not finish in the time limit
            candidates, choices = self.fixed_choices[plan.contract]
            outcomes = self.evaluate_choices(plan, candidates, choices, world)
            ex = candidates[choices[0][0]]
            result.contracts[plan.contract] = ContractWorld(
                outcomes, len(candidates),
                plain_exchange=(ex.hand_after, ex.declarer_pile_thirds))
            return True
        race = self.race(plan, world.talon, lambda k, j=j: (j, k), p.race.schedule,
                         p.race.keep(plan.contract), should_stop, budget=p.race.race_budget)
        if race is None:
            return False
        outcomes = self.evaluate_choices(plan, race.candidates, race.choices, world)
        ex = race.candidates[race.choices[0][0]]  # policy 0 is plain play
        result.contracts[plan.contract] = ContractWorld(
            outcomes, len(race.candidates), race.inner_worlds, race_cut=race.cut,
            plain_exchange=(ex.hand_after, ex.declarer_pile_thirds))
        return True
