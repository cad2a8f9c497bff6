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
* **Birds** (Pagat, Uhu, Kakadu): exact double-dummy *game-point* solves
  (:class:`~.evaluate.GamePointEvaluator`, the search plays for the birds) on
  the exchange plain play chose in the world, with and without each
  announcement; gain and P(success) are paired over the same worlds.
* With a given talon (``talon`` in the request) the decision is made once on
  many inner worlds, and every policy's choice is evaluated on fresh worlds.

Where the budget goes: almost all of it is in the race's solves.  They
start from MTD(f) guesses of related solves, begin with the null-window make
test, and have node budgets (a value over budget is the midpoint of its
proved bounds, counted and reported); one race has a node budget too, and
the evaluation solves have their own, so one pathological world cannot eat
the time limit.  Units of work (one group of contracts in one world, or one
contract's birds in one world) run round robin — every contract's world j
before any world j+1, the birds of world j after the card-point units of
world j+1 — so an anytime stop leaves every contract with worlds.  Each unit
starts from an empty transposition table, so whether a budget bites does not
depend on what the process solved before.

Anytime: worlds are processed in order and the advice uses the longest
completed prefix, so ``time_limit`` only changes how many worlds are used,
never what world *j* is.  Each world is a pure function of (seed, j), so the
numbers are identical for any number of worker processes.
"""

from __future__ import annotations

import heapq
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import RulesError
from ..talon import TALON_TAKE, Exchange
from .announcements import (
    AnnSet,
    after_part,
    build_policies,
    enumerate_annsets,
)
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
from .types import BirdWorld, ContractPlan, ContractWorld, PolicyOutcome, WorldResult


@dataclass(frozen=True)
class RaceConfig:
    """How hard the talon decision is worked.

    ``per_group``: discards per talon group that enter the race, by contract.
    ``schedule``: cumulative inner worlds per successive-halving round (per
    outer talon sample).  ``talon_schedule`` / ``talon_per_group``: the same
    when the talon is given and the decision is made once.  ``race_nodes`` /
    ``eval_nodes``: node budget of one position in the race / in the
    evaluation (None: none); over it, a value is the midpoint of its proved
    bounds, and the output counts such values.  ``race_budget``: nodes of one
    race (one contract in one world); once spent, the decision is made on
    the rounds done.  At the measured 3–4 M nodes/s the defaults cap one race
    position near 3 s, one race near 30 s and one evaluation near 12 s, so
    no single world can eat the time limit.  ``bird_nodes``: node budget of one
    game-point solve (bird announcements; ~10 s at the measured rate); a world
    with a solve over it is left out of the bird rows and counted.

    The defaults were measured on the demo hand (world 0, nodes per
    contract): 3/3/2/1 discards per group, rounds (2, 4, 8) and a 3 M budget
    spent 171 M nodes with half of the race values only bounded (±8 points);
    2/2/1/1, (2, 4) and 10 M spent 154 M with 5 of 40 bounded.
    """

    per_group: tuple[tuple[str, int], ...] = (("three", 2), ("lower", 2), ("two", 1), ("one", 1))
    schedule: tuple[int, ...] = (2, 4)
    talon_per_group: int = 6
    talon_schedule: tuple[int, ...] = (4, 8, 16, 32, 64)
    race_nodes: int | None = 10_000_000
    eval_nodes: int | None = 40_000_000
    race_budget: int | None = 100_000_000
    bird_nodes: int | None = 20_000_000

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
    #: Per contract, the bird announcement sets judged by the game-point solver
    #: (index 0 is ``()``, the game-point value without announcements).
    birds: tuple[tuple[str, tuple[AnnSet, ...]], ...] = ()
    game_point_fn: Callable | None = None  # None: gamepoints.solve_game_points; tests inject


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
        self.evaluator = evaluator or CardPointEvaluator(
            problem.solve_batch, race_nodes=problem.race.race_nodes,
            eval_nodes=problem.race.eval_nodes)
        self.scorers = {p.contract: Scorer(p.contract, problem.seat, p.annsets,
                                           self.view.score_fn())
                        for p in problem.plans}
        #: Given-talon mode: the decision made once, per contract (set by the runner).
        self.fixed_choices: dict[str, tuple[list[Exchange], list[tuple[int, int]]]] = {}
        self.bird_sets = dict(problem.birds)
        self.game_points = GamePointEvaluator(problem.rules_name, problem.rules_overrides,
                                              problem.game_point_fn,
                                              max_nodes=problem.race.bird_nodes)

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

    # -- the unit of work
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

        world = world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                         reject_tarockless=self.view.redeal_no_tarock)
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
        world = world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                         reject_tarockless=self.view.redeal_no_tarock)
        hands = list(world.hands)
        hands[p.seat] = hand_after
        task = PlayTask((hands[0], hands[1], hands[2]), p.seat, pile, p.hand, contract)
        if not any(bird_eligible(s, p.hand, hand_after) for s in sets[1:]):
            # No bird to announce in this world: announcing equals not announcing, and
            # the baseline solve (the slowest part) would only serve E[net].
            n = len(sets)
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
            n = len(sets)
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


# --------------------------------------------------------------------------- workers

_WORKER: WorldSolver | None = None
#: With a time limit, bird units (game-point solves) may use at most this fraction of the
#: card-point units' worker time while card-point work is left.
BIRD_SHARE = 0.5
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


def _worker_birds(j: int, contract: str, exchange: tuple[int, int],
                  deadline: float | None) -> WorldResult:
    assert _WORKER is not None
    return _WORKER.bird_world(j, contract, exchange, deadline)


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

        The unit of work is one task group (or one contract's birds) in one
        world, so a slow contract does not hold back the others when the time
        runs out.  Units run in priority order: world by world, every group
        of world j before any of world j+1 (round robin: an anytime stop
        leaves every contract with worlds); the birds of world j — judged on
        the exchange its card-point unit chose — come after the card-point
        units of world j+1.  With a time limit a bird unit also waits for its
        share: birds may use at most :data:`BIRD_SHARE` of the card-point
        units' time while card-point work is left (game-point solves have
        node budgets too), so the slower game-point solves never starve the
        card-point estimates.
        """
        groups = self.task_groups()
        order = {c: i for i, c in enumerate(p.contract for p in self.problem.plans)}
        with_birds = {c for c, sets in self.problem.birds if len(sets) > 1}
        heap: list[tuple[tuple[int, int, int], tuple]] = [
            ((j, 0, g), ("world", j, g)) for j in range(n) for g in range(len(groups))]
        heapq.heapify(heap)
        done: dict[int, WorldResult] = {}
        seconds: dict[object, list[float]] = {}
        stopped: set[object] = set()
        given = {c for c, _, _ in fixed}

        def key_of(task: tuple) -> object:
            return task[2] if task[0] == "world" else "birds:" + task[2]

        def merge(r: WorldResult, task: tuple) -> None:
            seconds.setdefault(key_of(task), []).append(r.seconds)
            w = done.setdefault(r.index, WorldResult(r.index))
            w.contracts.update(r.contracts)
            w.birds.update(r.birds)
            w.solves += r.solves
            w.seconds += r.seconds
            for c, cw in r.contracts.items():
                if c in with_birds and cw.plain_exchange is not None:
                    heapq.heappush(heap, ((r.index + 1, 1, order[c]),
                                          ("birds", r.index, c, cw.plain_exchange)))
            on_result(r)

        def card_work_left() -> bool:
            return (any(t[1][0] == "world" for t in heap)
                    or any(k[0] == "world" for k in pending))

        def birds_may_start(busy: int) -> bool:
            if self.deadline is None or not card_work_left():
                return True
            bird_s = sum(sum(v) for k, v in seconds.items() if str(k).startswith("birds:"))
            card_s = sum(sum(v) for k, v in seconds.items() if not str(k).startswith("birds:"))
            return bird_s <= BIRD_SHARE * card_s

        pending: dict[tuple, object] = {}

        def complete(r: WorldResult, task: tuple) -> bool:
            if task[0] == "birds":
                return task[2] in r.birds
            wanted = [c for c in groups[task[2]] if not fixed or c in given]
            return len(r.contracts) >= len(wanted)

        if self.local is not None:
            if fixed:
                self.local.fixed_choices = {c: (list(cands), list(ch)) for c, cands, ch in fixed}
            waiting: list = []
            while heap:
                item = heapq.heappop(heap)
                task = item[1]
                key = key_of(task)
                if key in stopped or not self._may_start(seconds.get(key, []), 0):
                    stopped.add(key)
                    continue
                if task[0] == "birds" and not birds_may_start(0):
                    waiting.append(item)  # after the next card-point unit
                    continue
                for w in waiting:
                    heapq.heappush(heap, w)
                waiting = []
                if task[0] == "world":
                    r = self.local.world(task[1], self.deadline, groups[task[2]])
                else:
                    r = self.local.bird_world(task[1], task[2], task[3], self.deadline)
                merge(r, task)
                if not complete(r, task):
                    stopped.add(key)
            return [done[j] for j in sorted(done)]
        assert self.pool is not None
        while heap or pending:
            busy = len(pending)
            held: list = []
            while heap and busy < 2 * self.jobs:
                item = heapq.heappop(heap)
                task = item[1]
                key = key_of(task)
                if key in stopped or not self._may_start(seconds.get(key, []), busy):
                    stopped.add(key)  # no time for this kind of unit any more
                    continue
                if task[0] == "birds" and not birds_may_start(busy):
                    held.append(item)  # not now: card-point units go first
                    continue
                if task[0] == "world":
                    pending[task] = self.pool.apply_async(
                        _worker_world, (task[1], self.deadline, fixed, groups[task[2]]))
                else:
                    pending[task] = self.pool.apply_async(
                        _worker_birds, (task[1], task[2], task[3], self.deadline))
                busy += 1
            for item in held:
                heapq.heappush(heap, item)
            if not pending:
                if heap:
                    continue  # only held birds are left: they may start now
                break
            ready = [k for k, h in pending.items() if h.ready()]  # type: ignore[attr-defined]
            for k in ready:
                merge(pending.pop(k).get(), k)  # type: ignore[attr-defined]
            if self._expired(GRACE_SECONDS):
                break  # workers still busy are terminated by close()
            if not ready:
                time.sleep(_POLL_SECONDS)
            if self._expired():
                heap = []  # start nothing more; running tasks stop at the deadline
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
    the worlds done.  ``birds``: judge the bird announcements with the exact
    game-point solver (``game_point_fn`` replaces it, tests).
    ``solve_batch`` replaces the card-point solver (tests).
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
    birds: bool = True
    game_point_fn: Callable | None = None


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


def bird_plans(view: RulesView, plans: Sequence[ContractPlan], knowledge: Knowledge,
               seat: int) -> tuple[tuple[str, tuple[AnnSet, ...]], ...]:
    """The bird announcement sets to judge per contract: ``()`` then one set per bird and level.

    Only the holder may announce a bird, so a set is kept only if the
    declarer can hold the card: before the talon in his dealt hand; after it
    also when the card may come with the talon (talon contracts, the card not
    known to be elsewhere).  Whether he holds it is then decided per world.
    """
    from .evaluate import BIRD_CARDS

    hand = knowledge.hands[seat]
    elsewhere = 0
    for s, h in enumerate(knowledge.hands):
        if s != seat:
            elsewhere |= h
    talon = knowledge.talon
    out = []
    for plan in plans:
        sets: list[AnnSet] = [()]
        for bird, levels in view.bird_levels(plan.contract).items():
            card = BIRD_CARDS[bird]
            held = bool(hand >> card & 1)
            if knowledge.talon_known:
                may_take = plan.take > 0 and card in talon
            else:
                may_take = plan.take > 0 and not elsewhere >> card & 1
            for level in levels:
                if held or (level == "after" and may_take):
                    sets.append(((bird, level),))
        out.append((plan.contract, tuple(sets)))
    return tuple(out)


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
    birds = bird_plans(view, plans, knowledge, req.seat) if req.birds else ()
    problem = Problem(knowledge, req.seat, req.hand, view.rules.name,
                      tuple(sorted(req.overrides.items())), plans, int(req.seed), req.race,
                      tuple(req.talon) if req.talon is not None else None, req.solve_batch,
                      birds, req.game_point_fn)
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
            if r.kind != "world":
                return
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
    birds_judged = {c: len(report.bird_prefix(results, c)) for c, sets in problem.birds
                    if len(sets) > 1}
    table = report.build_table(stats, key, report.bird_rows(
        [(c, sets) for c, sets in problem.birds if len(sets) > 1], results, key))
    # Every contract asked about, in display order, with the worlds it got (maybe 0).
    worlds = {p.contract: len(report.prefix_results(results, p.contract)) for p in plans}
    complete = min(worlds.values()) if worlds else 0
    solves = sum(r.solves for r in results)
    meta = {
        "seed": int(req.seed),
        "samples_requested": int(req.samples),
        "worlds": worlds,
        "worlds_complete": complete,
        "jobs": int(req.jobs),
        "time_limit": req.time_limit,
        "seconds": elapsed,
        "worlds_per_second": (complete / elapsed) if elapsed > 0 else None,
        "solves": solves,
        "work": report.work_summary(plans, results),
        "objective": "card points (exact double-dummy), scored with the rules' calculator",
        "race": {"per_group": dict(req.race.per_group), "inner_schedule": list(req.race.schedule),
                 "talon_per_group": req.race.talon_per_group,
                 "talon_schedule": list(req.race.talon_schedule),
                 "race_nodes": req.race.race_nodes, "eval_nodes": req.race.eval_nodes,
                 "race_budget": req.race.race_budget, "bird_nodes": req.race.bird_nodes},
        "talon": list(req.talon) if req.talon is not None else None,
        "birds": {c: view.bird_levels(c) for c in contracts},
        "bird_options": {c: [";".join(f"{b}@{lv}" for b, lv in s) for s in sets[1:]]
                         for c, sets in problem.birds},
        "bird_worlds": birds_judged,
        "bird_worlds_over_budget": {c: report.birds_over_budget(results, c)
                                    for c in birds_judged},
        "bird_solves": {
            "evaluated": req.birds,
            "game_point_solves": sum(b.solves for r in results for b in r.birds.values()),
            "seconds": sum(b.seconds for r in results for b in r.birds.values())},
        "notes": [
            "Contract rows and card-point announcements: exact double-dummy card points scored "
            "with the rules' calculator; these nets count no bird items, silent or announced.",
            "Bird announcements: exact double-dummy game-point solves (the search plays for "
            "the birds) on the exchange plain play chose, as many worlds as the time allowed "
            "(bird_worlds); gain = announcing when the bird is held vs the game-point value "
            "without announcements (silent birds counted), paired on the same worlds.",
            "Contras are not modelled (the declarer does not choose them).",
            "Passing is valued at 0.",
        ],
    }
    exchanges = report.exchanges_table(races) if races else None
    return report.Advice(table=table, announcements=report.announcements_table(table),
                         recommendation=report.recommend(stats, worlds), meta=meta,
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
