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

import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..errors import RulesError
from ..talon import TALON_TAKE, Exchange
from .announcements import (
    after_part,
    build_policies,
    enumerate_annsets,
)
from .candidates import shortlist
from .evaluate import CardPointEvaluator, Evaluator, PlayTask, Scorer
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
from .types import ContractPlan, ContractWorld, PolicyOutcome, WorldResult


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
        #: Given-talon mode: the decision made once, per contract (set by the runner).
        self.fixed_choices: dict[str, tuple[list[Exchange], list[tuple[int, int]]]] = {}

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
             should_stop: Callable[[], bool], partial_ok: bool = False) -> RaceResult | None:
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
                        should_stop, partial_ok)

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
        return self.race(plan, p.given_talon, lambda k: (k,), schedule, p.race.talon_per_group,
                         lambda: deadline is not None and time.time() > deadline,
                         partial_ok=True)

    # -- the unit of work
    def world(self, j: int, deadline: float | None = None,
              contracts: Sequence[str] | None = None) -> WorldResult:
        """Evaluate the ``contracts`` (default all) in world ``j``.

        Stops early, with the contracts done so far, at ``deadline``.
        """
        p = self.problem
        start = time.time()
        solves0 = getattr(self.evaluator, "solves", 0)

        def should_stop() -> bool:
            return deadline is not None and time.time() > deadline

        world = world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                         reject_tarockless=self.view.redeal_no_tarock)
        result = WorldResult(j)
        for plan in p.plans:
            if contracts is not None and plan.contract not in contracts:
                continue
            if should_stop():
                break
            if plan.take == 0:
                outcomes = self.evaluate_choices(plan, [None], self.solo_choices(plan), world)
                result.contracts[plan.contract] = ContractWorld(outcomes)
                continue
            if p.given_talon is not None:
                if plan.contract not in self.fixed_choices:
                    continue  # its decision did not finish in the time limit
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
#: Seconds a worker gets past the deadline to return a partial world before it is killed.
GRACE_SECONDS = 0.5
_POLL_SECONDS = 0.02


def _worker_init(problem: Problem) -> None:
    global _WORKER
    _WORKER = WorldSolver(problem)


def _worker_world(j: int, deadline: float | None, fixed: tuple,
                  contracts: tuple[str, ...]) -> WorldResult:
    assert _WORKER is not None
    if fixed:
        _WORKER.fixed_choices = {c: (list(cands), list(ch)) for c, cands, ch in fixed}
    return _WORKER.world(j, deadline, contracts)


def _worker_race(contract: str, deadline: float | None, samples: int) -> RaceResult | None:
    assert _WORKER is not None
    return _WORKER.given_talon_race(contract, deadline, samples)


class WorldRunner:
    """Runs worlds 0..n-1 (and the given-talon races) in this process or in workers.

    With a time limit the work always runs in spawned worker processes, even
    for one job: a solve cannot be interrupted, but a worker can be terminated,
    so the answer comes within the limit whatever the solver does.  Spawned,
    not forked: forking after numba's threading layer ran kills the child
    (SOLVER_NOTES.md 2).  Results are gathered by index; the caller uses the
    longest completed prefix.  An injected ``evaluator`` (tests) forces
    in-process work.
    """

    def __init__(self, problem: Problem, jobs: int, deadline: float | None,
                 evaluator: Evaluator | None = None) -> None:
        self.problem = problem
        self.jobs = max(1, int(jobs))
        self.deadline = deadline
        self.local: WorldSolver | None = None
        self.pool = None
        if evaluator is not None or (self.jobs == 1 and deadline is None):
            self.local = WorldSolver(problem, evaluator)
        else:
            ctx = multiprocessing.get_context("spawn")
            self.pool = ctx.Pool(processes=self.jobs, initializer=_worker_init,
                                 initargs=(problem,))

    def close(self) -> None:
        """Stop the workers (terminate: a worker may be inside a long solve)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def _expired(self, grace: float = 0.0) -> bool:
        return self.deadline is not None and time.time() > self.deadline + grace

    def races(self, samples: int) -> dict[str, RaceResult]:
        """Given-talon mode: the decision of every contract (in parallel in workers)."""
        plans = self.problem.plans
        if self.local is not None:
            out = {}
            for plan in plans:
                race = self.local.given_talon_race(plan.contract, self.deadline, samples)
                if race is not None:
                    out[plan.contract] = race
            return out
        assert self.pool is not None
        handles = {p.contract: self.pool.apply_async(_worker_race,
                                                     (p.contract, self.deadline, samples))
                   for p in plans}
        while not all(h.ready() for h in handles.values()) and not self._expired(GRACE_SECONDS):
            time.sleep(_POLL_SECONDS)
        return {c: h.get() for c, h in handles.items() if h.ready() and h.get() is not None}

    def task_groups(self) -> list[tuple[str, ...]]:
        """Units of work within a world: contracts that take the same number of talon
        cards go together (Three and Lower share every solve); Solo first, it is cheapest."""
        groups: dict[int, list[str]] = {}
        for plan in self.problem.plans:
            groups.setdefault(plan.take, []).append(plan.contract)
        return [tuple(groups[t]) for t in sorted(groups, key=lambda t: (t != 0, -t))]

    def run(self, n: int, fixed: tuple = (),
            on_result: Callable[[WorldResult], None] = lambda r: None) -> list[WorldResult]:
        """Results of worlds 0..n-1, merged by index (a contract may be missing at the end).

        The unit of work is one task group in one world, so a slow contract does
        not hold back the others when the time runs out.
        """
        groups = self.task_groups()
        tasks = [(j, g) for j in range(n) for g in range(len(groups))]
        done: dict[int, WorldResult] = {}
        seconds: dict[int, list[float]] = {g: [] for g in range(len(groups))}
        given = {c for c, _, _ in fixed}

        def merge(r: WorldResult, g: int) -> None:
            seconds[g].append(r.seconds)
            w = done.setdefault(r.index, WorldResult(r.index))
            w.contracts.update(r.contracts)
            w.solves += r.solves
            w.seconds += r.seconds
            on_result(r)

        if self.local is not None:
            if fixed:
                self.local.fixed_choices = {c: (list(cands), list(ch)) for c, cands, ch in fixed}
            stopped: set[int] = set()
            for j, g in tasks:
                if g in stopped or not self._may_start(seconds[g], 0):
                    stopped.add(g)
                    continue
                r = self.local.world(j, self.deadline, groups[g])
                merge(r, g)
                wanted = [c for c in groups[g] if not fixed or c in given]
                if len(r.contracts) < len(wanted):
                    stopped.add(g)
            return [done[j] for j in sorted(done)]
        assert self.pool is not None
        pending: dict[tuple[int, int], object] = {}
        queue = list(tasks)
        while queue or pending:
            busy = len(pending)
            while queue and busy < 2 * self.jobs:
                j, g = queue[0]
                if not self._may_start(seconds[g], busy):
                    queue = [t for t in queue if t[1] != g]  # no time for this group any more
                    continue
                queue.pop(0)
                pending[(j, g)] = self.pool.apply_async(
                    _worker_world, (j, self.deadline, fixed, groups[g]))
                busy += 1
            if not pending:
                break
            ready = [k for k, h in pending.items() if h.ready()]  # type: ignore[attr-defined]
            for k in ready:
                merge(pending.pop(k).get(), k[1])  # type: ignore[attr-defined]
            if self._expired(GRACE_SECONDS):
                break  # workers still busy are terminated by close()
            if not ready:
                time.sleep(_POLL_SECONDS)
            if self._expired():
                queue = []  # start nothing more; running tasks stop at the deadline
        return [done[j] for j in sorted(done)]

    def _may_start(self, seconds: list[float], running: int) -> bool:
        """Is there time for one more task of a group, judging by its finished tasks?

        A task that will most likely not finish in time is not started: it
        would only be cut off.
        """
        if self.deadline is None:
            return True
        left = self.deadline - time.time()
        if left <= 0:
            return False
        if not seconds:
            return True
        per_task = sum(seconds) / len(seconds)
        # The tasks already running occupy the workers first.
        return per_task * (1 + running // self.jobs) <= left


@dataclass
class AdviceRequest:
    """One advice question.

    ``hand`` is the adviser's own 16 cards at ``seat`` (0 F, 1 M, 2 R).
    ``others`` may fix other hands (``None`` = unknown); ``talon`` (t1..t6)
    switches to the after-talon question for ``contracts``.  ``samples`` is
    the number of worlds (outer samples); ``time_limit`` stops earlier with
    the worlds done.  ``solve_batch`` replaces the solver (tests).
    """

    hand: int
    seat: int = 0
    rules_name: str = "dummett"
    overrides: dict[str, str] = field(default_factory=dict)
    contracts: tuple[str, ...] | None = None
    talon: tuple[int, ...] | None = None
    others: tuple[int | None, int | None, int | None] = (None, None, None)
    samples: int = 100
    time_limit: float | None = 60.0
    seed: int = 1
    jobs: int = 1
    race: RaceConfig = field(default_factory=RaceConfig)
    solve_batch: Callable | None = None
    progress: bool = False
    deal_id: str = "hand"


def knowledge_of(req: AdviceRequest) -> Knowledge:
    hands = [h if h is not None else 0 for h in req.others]
    hands[req.seat] = req.hand
    talon = tuple(req.talon) if req.talon is not None else (-1,) * 6
    return Knowledge((hands[0], hands[1], hands[2]), talon)


def _contracts(view: RulesView, req: AdviceRequest) -> tuple[str, ...]:
    if req.contracts:
        chosen = tuple(view.rules.check_contract(c) for c in req.contracts)
    else:
        chosen = view.rules.contracts
    if req.talon is not None:
        if "solo" in chosen and req.contracts:
            raise RulesError("a Solo never exposes the talon; --talon needs a contract that "
                             "takes talon cards (" + ", ".join(
                                 c for c in view.rules.contracts if c != "solo") + ").")
        chosen = tuple(c for c in chosen if c != "solo")
    return chosen


def advise(req: AdviceRequest, evaluator: Evaluator | None = None):
    """Answer an advice request: the :class:`~.report.Advice` with tables and recommendation."""
    from tqdm import tqdm

    from . import report

    start = time.time()
    deadline = start + req.time_limit if req.time_limit else None
    view = RulesView.load(req.rules_name, req.overrides)
    knowledge = knowledge_of(req)
    contracts = _contracts(view, req)
    plans = make_plans(view, contracts, req.hand)
    problem = Problem(knowledge, req.seat, req.hand, view.rules.name,
                      tuple(sorted(req.overrides.items())), plans, int(req.seed), req.race,
                      tuple(req.talon) if req.talon is not None else None, req.solve_batch)
    runner = WorldRunner(problem, req.jobs, deadline, evaluator)
    bar = tqdm(total=req.samples, unit="world", desc="advise", file=sys.stderr,
               disable=not req.progress, dynamic_ncols=True)
    races: dict[str, RaceResult] = {}
    try:
        fixed: tuple = ()
        if problem.given_talon is not None:
            bar.set_description("choosing the exchange")
            races = runner.races(req.samples)
            fixed = tuple((c, tuple(r.candidates), tuple(r.choices)) for c, r in races.items())
            problem = replace(problem, plans=tuple(p for p in plans if p.contract in races))
            runner.problem = problem
            bar.set_description("advise")
        n_groups = len(runner.task_groups())
        parts: dict[int, int] = {}

        def progress(r: WorldResult) -> None:
            # A world counts on the bar when all of its contracts are done.
            parts[r.index] = parts.get(r.index, 0) + 1
            if parts[r.index] == n_groups:
                bar.update(1)

        results = runner.run(req.samples, fixed, progress)
    finally:
        bar.close()
        runner.close()
    elapsed = time.time() - start

    stats = report.option_stats(problem.plans, results)
    key = {"deal_id": req.deal_id, "rules": view.rules.name,
           "rule_options": view.rules.describe_overrides(), "seat": "FMR"[req.seat]}
    table = report.build_table(stats, key)
    complete = len(report.prefix_results(results, problem.plans[-1].contract)) if problem.plans else 0
    solves = sum(r.solves for r in results)
    meta = {
        "seed": int(req.seed),
        "samples_requested": int(req.samples),
        "worlds": {p.contract: len(report.prefix_results(results, p.contract))
                   for p in problem.plans},
        "worlds_complete": complete,
        "jobs": int(req.jobs),
        "time_limit": req.time_limit,
        "seconds": elapsed,
        "worlds_per_second": (complete / elapsed) if elapsed > 0 else None,
        "solves": solves,
        "objective": "card points (exact double-dummy), scored with the rules' calculator",
        "race": {"per_group": dict(req.race.per_group), "inner_schedule": list(req.race.schedule),
                 "talon_per_group": req.race.talon_per_group,
                 "talon_schedule": list(req.race.talon_schedule)},
        "talon": list(req.talon) if req.talon is not None else None,
        "birds": {c: view.bird_levels(c) for c in contracts},
        "notes": [
            "Birds (Pagat, Uhu, Kakadu) are not evaluated yet: a card-point solve does not "
            "optimise them (the exact game-point solver is issue 5). Nets include no bird "
            "items, silent or announced.",
            "Contras are not modelled (the declarer does not choose them).",
            "Passing is valued at 0.",
        ],
    }
    exchanges = report.exchanges_table(races) if races else None
    return report.Advice(table=table, announcements=report.announcements_table(table),
                         recommendation=report.recommend(stats), meta=meta,
                         points=report.points_by_contract(stats), exchanges=exchanges,
                         options=stats)


__all__ = [
    "AdviceRequest",
    "advise",
    "ContractPlan",
    "PolicyOutcome",
    "Problem",
    "RaceConfig",
    "WorldResult",
    "WorldRunner",
    "WorldSolver",
    "make_plans",
]
