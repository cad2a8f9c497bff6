"""Scheduling: which unit of work runs when, where, and when to stop.

Units (:mod:`.world`) run round robin — every task group of world *j* before
any of world *j+1*, so an anytime stop leaves every contract with worlds; the
birds of world *j* (judged on the exchange its card-point unit chose) come
after the card-point units of world *j+1*.  With a time limit a bird unit also
waits for its share (:data:`BIRD_SHARE`), and a kind of unit that would most
likely not finish in the time left is not started.  Results are merged by
world index; the report uses the longest completed prefix, so the time limit
only changes how many worlds are used, never what world *j* is.

The units run in this process or in spawned worker processes (:mod:`.workers`)
through one loop.  With a time limit the work always goes to workers, even for
one job: a solve cannot be interrupted, but a worker can be terminated, so the
answer comes within the limit whatever the solver does.  Spawned, not forked:
a child forked after numba's threading layer has started dies.
"""

from __future__ import annotations

import heapq
import multiprocessing
import time
from collections.abc import Callable

from . import workers
from .evaluate import Evaluator
from .plan import Problem
from .race import RaceResult
from .types import WorldResult
from .world import BirdUnit, CardUnit, FixedChoices, RaceUnit, Unit, WorldSolver

#: With a time limit, bird units (game-point solves) may use at most this fraction of the
#: card-point units' worker time while card-point work is left.
BIRD_SHARE = 0.5
#: Seconds a worker gets past the deadline to return a partial world before it is killed.
GRACE_SECONDS = 0.5
_POLL_SECONDS = 0.02


class _Done:
    """A unit already evaluated in this process (the in-process stand-in for a pool handle)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def ready(self) -> bool:
        return True

    def get(self) -> object:
        return self.value


class WorldRunner:
    """Runs worlds 0..n-1 (and the given-talon races) in this process or in workers.

    Work runs in this process when there is one job and no time limit, or when
    an ``evaluator`` is injected (tests); otherwise in ``jobs`` spawned workers.
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
            self.pool = ctx.Pool(processes=self.jobs, initializer=workers.start,
                                 initargs=(problem,))

    def close(self) -> None:
        """Stop the workers (terminate: a worker may be inside a long solve)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    @property
    def capacity(self) -> int:
        """Units in flight at once: one in process, two per worker (none idles between)."""
        return 1 if self.local is not None else 2 * self.jobs

    def _submit(self, unit: Unit, fixed: FixedChoices = ()):
        """Start one unit; the handle's ``ready()`` / ``get()`` give its result."""
        if self.local is not None:
            return _Done(self.local.run(unit, self.deadline, fixed))
        assert self.pool is not None
        return self.pool.apply_async(workers.run, (unit, self.deadline, fixed))

    def _expired(self, grace: float = 0.0) -> bool:
        return self.deadline is not None and time.time() > self.deadline + grace

    def races(self, samples: int) -> dict[str, RaceResult]:
        """Given-talon mode: the decision of every contract (in parallel in workers)."""
        handles = {p.contract: self._submit(RaceUnit(p.contract, samples))
                   for p in self.problem.plans}
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

    def run(self, n: int, fixed: FixedChoices = (),
            on_result: Callable[[WorldResult], None] = lambda r: None) -> list[WorldResult]:
        """Results of worlds 0..n-1, merged by index (a contract may be missing at the end).

        The unit of work is one task group (or one contract's birds) in one
        world, so a slow contract does not hold back the others when the time
        runs out.  ``fixed`` is the given-talon decision of each contract.
        """
        groups = self.task_groups()
        order = {c: i for i, c in enumerate(p.contract for p in self.problem.plans)}
        with_birds = {c for c, sets in self.problem.birds if len(sets) > 1}
        given = {c for c, _, _ in fixed}
        heap: list[tuple[tuple[int, int, int], Unit]] = [
            ((j, 0, g), CardUnit(j, g, groups[g])) for j in range(n) for g in range(len(groups))]
        heapq.heapify(heap)
        done: dict[int, WorldResult] = {}
        seconds: dict[object, list[float]] = {}
        stopped: set[object] = set()
        pending: dict[Unit, object] = {}

        def key_of(unit: Unit) -> object:
            return unit.group if isinstance(unit, CardUnit) else "birds:" + unit.contract

        def complete(r: WorldResult, unit: Unit) -> bool:
            if isinstance(unit, BirdUnit):
                return unit.contract in r.birds
            wanted = [c for c in unit.contracts if not fixed or c in given]
            return len(r.contracts) >= len(wanted)

        def merge(r: WorldResult, unit: Unit) -> None:
            seconds.setdefault(key_of(unit), []).append(r.seconds)
            w = done.setdefault(r.index, WorldResult(r.index))
            w.contracts.update(r.contracts)
            w.birds.update(r.birds)
            w.solves += r.solves
            w.seconds += r.seconds
            for c, cw in r.contracts.items():
                if c in with_birds and cw.plain_exchange is not None:
                    heapq.heappush(heap, ((r.index + 1, 1, order[c]),
                                          BirdUnit(r.index, c, cw.plain_exchange)))
            on_result(r)
            if not complete(r, unit):
                stopped.add(key_of(unit))  # the deadline cut it: start no more of its kind

        def card_work_left() -> bool:
            return (any(isinstance(u, CardUnit) for _, u in heap)
                    or any(isinstance(u, CardUnit) for u in pending))

        def birds_may_start() -> bool:
            if self.deadline is None or not card_work_left():
                return True
            bird_s = sum(sum(v) for k, v in seconds.items() if str(k).startswith("birds:"))
            card_s = sum(sum(v) for k, v in seconds.items() if not str(k).startswith("birds:"))
            return bird_s <= BIRD_SHARE * card_s

        while heap or pending:
            busy = len(pending)
            held: list = []
            while heap and busy < self.capacity:
                item = heapq.heappop(heap)
                unit = item[1]
                key = key_of(unit)
                if key in stopped or not self._may_start(seconds.get(key, []), busy):
                    stopped.add(key)  # no time for this kind of unit any more
                    continue
                if isinstance(unit, BirdUnit) and not birds_may_start():
                    held.append(item)  # not now: card-point units go first
                    continue
                pending[unit] = self._submit(unit, fixed if isinstance(unit, CardUnit) else ())
                busy += 1
            for item in held:
                heapq.heappush(heap, item)
            if not pending:
                if heap:
                    continue  # only held birds are left: they may start now
                break
            ready = [u for u, h in pending.items() if h.ready()]  # type: ignore[attr-defined]
            for u in ready:
                merge(pending.pop(u).get(), u)  # type: ignore[attr-defined]
            if self._expired(GRACE_SECONDS):
                break  # workers still busy are terminated by close()
            if not ready:
                time.sleep(_POLL_SECONDS)
            if self._expired():
                heap = []  # start nothing more; running units stop at the deadline
        return [done[j] for j in sorted(done)]

    def _may_start(self, seconds: list[float], running: int) -> bool:
        """Is there time for one more unit of a kind, judging by its finished units?

        A unit that will most likely not finish in time is not started: it
        would only be cut off.
        """
        if self.deadline is None:
            return True
        left = self.deadline - time.time()
        if left <= 0:
            return False
        if not seconds:
            return True
        per_unit = sum(seconds) / len(seconds)
        # The units already running occupy the workers first.
        return per_unit * (1 + running // self.jobs) <= left
