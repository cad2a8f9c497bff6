"""Bidding advice: which contract to bid and what to announce, by sampling and solving.

Method (issue 6, SOLVER_NOTES.md 5):

* World *j* is a uniform completion of what the adviser knows (sampling.py).
  Every contract is evaluated on the same worlds (common random numbers), so
  the differences the advice rests on have small errors.
* **Solo**: the talon goes unseen to the defenders; each world is solved as is.
* **Talon contracts**: world *j*'s talon is the outer talon sample.  The
  declarer picks the group, the discard and the after-talon announcements by
  the average over *inner* worlds (other hands redrawn given that talon), with
  successive halving over a short list of exchanges (race.py).  The choice is
  then evaluated on world *j* itself, which took no part in choosing.
* **Announcements**: every announcement set is scored from the same solves;
  policies (announce X before the talon, announce X after it when the inner
  average says so, best combination) are evaluated like the exchange.
* With a given talon (``talon`` in the request) the decision is made once on
  many inner worlds, and every policy's choice is evaluated on fresh worlds.

Anytime: worlds are processed in order and the advice uses the longest
completed prefix, so ``time_limit`` only changes how many worlds are used,
never what world *j* is.  Each world is a pure function of (seed, j), so the
numbers are identical for any number of worker processes.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from ..cards import round_points
from ..talon import TALON_TAKE, Exchange
from .announcements import (
    AnnSet,
    Policy,
    after_part,
    build_policies,
    enumerate_annsets,
)
from .candidates import shortlist
from .evaluate import CardPointEvaluator, Evaluator, PlayTask, Scorer, item_success
from .race import RaceResult, run_race, task_for
from .rulesview import RulesView
from .sampling import (
    STREAM_FRESH,
    STREAM_INNER,
    STREAM_WORLD,
    Knowledge,
    World,
    world_at,
)


@dataclass(frozen=True)
class RaceConfig:
    """How hard the talon decision is worked.

    ``per_group``: discards per talon group that enter the race, by contract.
    ``schedule``: cumulative inner worlds per successive-halving round (per
    outer talon sample).  ``talon_schedule`` / ``talon_per_group``: the same
    when the talon is given and the decision is made once.
    """

    per_group: tuple[tuple[str, int], ...] = (("three", 3), ("lower", 3), ("two", 2), ("one", 1))
    schedule: tuple[int, ...] = (2, 4, 8)
    talon_per_group: int = 6
    talon_schedule: tuple[int, ...] = (4, 8, 16, 32, 64)

    def keep(self, contract: str) -> int:
        return dict(self.per_group).get(contract, 2)


@dataclass(frozen=True)
class ContractPlan:
    """Everything fixed about one contract before sampling."""

    contract: str
    take: int
    annsets: tuple[AnnSet, ...]
    policies: tuple[Policy, ...]
    racing: tuple[int, ...]  # policy indices whose objectives keep candidates alive


@dataclass(frozen=True)
class Problem:
    """A picklable description of the whole advice task (sent to worker processes)."""

    knowledge: Knowledge
    seat: int
    hand: int
    rules_name: str
    rules_overrides: tuple[tuple[str, str], ...]
    plans: tuple[ContractPlan, ...]
    seed: int
    race: RaceConfig
    given_talon: tuple[int, ...] | None
    solve_batch: Callable | None = None  # None: the project's solver; tests inject one
    #: Given-talon mode: (contract, candidates, chosen (candidate, set) per policy).
    fixed: tuple[tuple[str, tuple[Exchange, ...], tuple[tuple[int, int], ...]], ...] = ()


@dataclass
class PolicyOutcome:
    """The evaluation of one policy's choice in one world."""

    net: float
    thirds: int
    made: bool
    valat: bool
    announced: tuple[str, ...]  # after-talon items announced (conditional policies)
    group: str
    discard: str


@dataclass
class ContractWorld:
    """One contract in one world: an outcome per policy, plus what it cost."""

    outcomes: list[PolicyOutcome]
    candidates: int = 0
    inner_worlds: int = 0


@dataclass
class WorldResult:
    index: int
    contracts: dict[str, ContractWorld] = field(default_factory=dict)
    solves: int = 0
    seconds: float = 0.0


# --------------------------------------------------------------------------- planning


def make_plans(view: RulesView, contracts: Sequence[str], dealt: int) -> tuple[ContractPlan, ...]:
    """Announcement sets and policies of every contract; Solo first (it is cheapest)."""
    plans = []
    for c in contracts:
        take = TALON_TAKE[c]
        annsets = tuple(enumerate_annsets(view.item_levels(c), dealt))
        policies = tuple(build_policies(list(annsets), take > 0))
        racing = tuple(i for i, p in enumerate(policies)
                       if p.kind in ("plain", "single") or (p.kind == "combo" and not p.before))
        plans.append(ContractPlan(c, take, annsets, policies, racing))
    plans.sort(key=lambda p: (p.take != 0, -p.take))
    return tuple(plans)


# --------------------------------------------------------------------------- one world


class WorldSolver:
    """Evaluates worlds of one :class:`Problem` (one per process; holds the solver)."""

    def __init__(self, problem: Problem, evaluator: Evaluator | None = None) -> None:
        self.problem = problem
        self.view = RulesView.load(problem.rules_name, dict(problem.rules_overrides))
        self.evaluator = evaluator or CardPointEvaluator(problem.solve_batch)
        self.scorers = {p.contract: Scorer(p.contract, problem.seat, p.annsets,
                                           self.view.score_fn())
                        for p in problem.plans}
        #: Given-talon mode: the decision made once, per contract (from the Problem).
        self.fixed_choices = {c: (list(cands), list(ch)) for c, cands, ch in problem.fixed}

    # -- helpers
    def _outcome(self, plan: ContractPlan, ex: Exchange | None, world: World,
                 annset_index: int, out) -> PolicyOutcome:
        annset = plan.annsets[annset_index]
        return PolicyOutcome(
            net=float(out.net[annset_index]),
            thirds=int(out.thirds[annset_index]),
            made=bool(out.made[annset_index]),
            valat=bool(out.valat[annset_index]),
            announced=tuple(sorted(after_part(annset))),
            group=ex.group_label if ex is not None else "",
            discard=ex.discard_ids if ex is not None else "",
        )

    def evaluate_choices(self, plan: ContractPlan, candidates: Sequence[Exchange | None],
                         choices: Sequence[tuple[int, int]], world: World) -> list[PolicyOutcome]:
        """Play every policy's chosen exchange in ``world`` and score its chosen set."""
        p = self.problem
        distinct = sorted({e for e, _ in choices})
        tasks = [task_for(candidates[e], p.hand, world, p.seat, plan.contract) for e in distinct]
        outs = dict(zip(distinct, self.evaluator.outcomes(tasks, self.scorers[plan.contract]),
                        strict=True))
        return [self._outcome(plan, candidates[e], world, s, outs[e]) for e, s in choices]

    def solo_choices(self, plan: ContractPlan) -> list[tuple[int, int]]:
        """Solo: every policy is unconditional, so its set is fixed (index into annsets)."""
        choices = []
        for pol in plan.policies:
            idx = next(i for i, s in enumerate(plan.annsets) if pol.allows(s))
            choices.append((0, idx))
        return choices

    def race(self, plan: ContractPlan, talon: tuple[int, ...], inner_index: Callable[[int], tuple],
             schedule: Sequence[int], per_group: int,
             should_stop: Callable[[], bool]) -> RaceResult | None:
        p = self.problem
        candidates = shortlist(p.hand, talon, plan.contract, self.view.discard_mode, per_group)
        inner_knowledge = p.knowledge.with_talon(talon)

        def inner_world(k: int) -> World:
            return world_at(inner_knowledge, p.seed, STREAM_INNER, *inner_index(k),
                            reject_tarockless=self.view.redeal_no_tarock)

        def make_task(ex: Exchange, w: World) -> PlayTask:
            return task_for(ex, p.hand, w, p.seat, plan.contract)

        return run_race(candidates, inner_world, make_task, self.evaluator,
                        self.scorers[plan.contract], plan.policies, plan.racing, schedule,
                        should_stop)

    # -- the unit of work
    def world(self, j: int, deadline: float | None = None) -> WorldResult:
        """Evaluate every contract in world ``j`` (stops early, partially, at ``deadline``)."""
        p = self.problem
        start = time.time()
        solves0 = getattr(self.evaluator, "solves", 0)

        def should_stop() -> bool:
            return deadline is not None and time.time() > deadline

        world = world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                         reject_tarockless=self.view.redeal_no_tarock)
        result = WorldResult(j)
        for plan in p.plans:
            if should_stop():
                break
            if plan.take == 0:
                outcomes = self.evaluate_choices(plan, [None], self.solo_choices(plan), world)
                result.contracts[plan.contract] = ContractWorld(outcomes)
                continue
            if p.given_talon is not None:
                candidates, choices = self.fixed_choices[plan.contract]
                outcomes = self.evaluate_choices(plan, candidates, choices, world)
                result.contracts[plan.contract] = ContractWorld(outcomes, len(candidates))
                continue
            race = self.race(plan, world.talon, lambda k, j=j: (j, k), p.race.schedule,
                             p.race.keep(plan.contract), should_stop)
            if race is None:
                break
            outcomes = self.evaluate_choices(plan, race.candidates, race.choices, world)
            result.contracts[plan.contract] = ContractWorld(outcomes, len(race.candidates),
                                                            race.inner_worlds)
        if isinstance(self.evaluator, CardPointEvaluator):
            self.evaluator.clear()
        result.solves = getattr(self.evaluator, "solves", 0) - solves0
        result.seconds = time.time() - start
        return result


# --------------------------------------------------------------------------- workers

_WORKER: WorldSolver | None = None


def _worker_init(problem: Problem) -> None:
    global _WORKER
    _WORKER = WorldSolver(problem)


def _worker_world(j: int, deadline: float | None) -> WorldResult:
    assert _WORKER is not None
    return _WORKER.world(j, deadline)


class WorldRunner:
    """Runs worlds 0..n-1 in order, in this process or in spawned workers.

    Spawned (not forked) processes: forking after numba's threading layer ran
    kills the child (SOLVER_NOTES.md 2).  Results are gathered by index; the
    caller uses the longest completed prefix.
    """

    def __init__(self, problem: Problem, jobs: int, evaluator: Evaluator | None = None) -> None:
        self.problem = problem
        self.jobs = max(1, int(jobs))
        self.local = WorldSolver(problem, evaluator)
        self.pool: ProcessPoolExecutor | None = None
        if self.jobs > 1:
            ctx = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=ctx,
                                            initializer=_worker_init, initargs=(problem,))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def run(self, n: int, deadline: float | None,
            on_result: Callable[[WorldResult], None] = lambda r: None) -> list[WorldResult]:
        """Results of worlds 0..n-1 that completed, by index (possibly with gaps at the end)."""
        done: dict[int, WorldResult] = {}
        if self.pool is None:
            for j in range(n):
                if deadline is not None and time.time() > deadline:
                    break
                r = self.local.world(j, deadline)
                done[j] = r
                on_result(r)
                if len(r.contracts) < len(self.problem.plans):
                    break
            return [done[j] for j in sorted(done)]
        pending: dict[Future, int] = {}
        next_j = 0
        in_flight = 2 * self.jobs
        while next_j < n or pending:
            while next_j < n and len(pending) < in_flight and (
                    deadline is None or time.time() < deadline):
                pending[self.pool.submit(_worker_world, next_j, deadline)] = next_j
                next_j += 1
            if not pending:
                break
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for f in finished:
                pending.pop(f)
                r = f.result()
                done[r.index] = r
                on_result(r)
            if deadline is not None and time.time() > deadline:
                next_j = n  # submit nothing more; let running worlds stop at the deadline
        return [done[j] for j in sorted(done)]


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def binomial_se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / n) if n > 0 else math.nan


def points_of(thirds: np.ndarray) -> np.ndarray:
    """Rounded card points P of an array of thirds."""
    return np.array([round_points(int(t)) for t in thirds], dtype=np.int64)


__all__ = [
    "ContractPlan",
    "PolicyOutcome",
    "Problem",
    "RaceConfig",
    "WorldResult",
    "WorldRunner",
    "WorldSolver",
    "binomial_se",
    "default_jobs",
    "item_success",
    "make_plans",
    "points_of",
]
