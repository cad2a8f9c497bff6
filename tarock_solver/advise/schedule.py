"""The adviser's run: which worlds to evaluate and which exact solves to ask for.

:class:`Engine` evaluates world after world (the talon decision on the
declarer's information set, :mod:`.infoset`), stops contracts the evaluator puts
clearly behind, and picks the next exact solve (card points for the contenders,
game points for their silent birds while :func:`birds_fit` says they can still
pay); :func:`run_engine` drives it and the solver threads within the run's
:class:`~.settings.AdviceLimit`.  The method: ``docs/ADVICE.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import BIRD_NAMES
from ..estimate.gamepoints import game_point_parts
from ..talon import Exchange
from .contras import ContraPolicy
from .cv import MIN_BIRD_WORLDS, MIN_EXACT, MIN_WORLDS
from .evaluate import PlayTask, Scorer
from .exact import ExactSolver, GameRequest
from .infoset import (
    allowed_sets,
    choose_announcements,
    choose_exchange,
    evaluate_positions,
    inner_hands,
)
from .passing import PASS_KEY, SENIOR_THREE_KEY, PassSeries
from .problem import Problem
from .rulesview import RulesView
from .sampling import STREAM_FRESH, STREAM_INNER, STREAM_WORLD, World, rng_for, world_at
from .series import ContractSeries, SeriesSet
from .settings import AdviceLimit, AdviceSettings

__all__ = ["GAME_COST_PRIOR", "Engine", "EngineResult", "birds_fit", "run_engine"]

#: Seed stream of the inner worlds behind a given talon's single decision.
STREAM_DECISION = 3
#: Seed stream of the cells' offsets (one per world, shared by its contracts).
STREAM_CELL = 4
#: Exact solves kept queued (enough for up to 6 solver threads).
QUEUED_SOLVES = 8
#: Seconds between two checks of a timed run's firmness (each works out the table and the
#: recommendation: tens of milliseconds on a thousand worlds).
FIRM_EVERY = 0.5
#: Phase 1 (the evaluator's share) is counted on at most this many seconds of the limit:
#: a long cap is for the exact solves a close call needs, not for a longer phase 1.
PHASE1_HORIZON = 10.0
#: Seconds a first run's compile of the kernels may take (one to two minutes, about two on
#: a loaded 2-core machine): a run whose limit is nearer than this when its worlds are done
#: does not wait for it.
FIRST_COMPILE_SECONDS = 180.0
#: Card-point solves a game-point solve of plain play is taken to cost before a run has
#: timed its own (whole deals: median 3.7, ``tarock bench --gamepoints``).
GAME_COST_PRIOR = 4.0


@dataclass
class EngineResult:
    """What a run produced: every contract's series, the worlds evaluated, the phases'
    seconds, and how the run ended."""

    series: dict[str, ContractSeries]
    worlds: int
    seconds_evaluator: float
    seconds_exact: float
    exact: ExactSolver
    interrupted: bool = False
    deadline_hit: bool = False
    talon_decision: dict | None = None
    #: The contracts that were getting exact worlds when the run ended.
    contenders: list[str] = field(default_factory=list)
    #: Contracts stopped as clearly dominated: their number of evaluator worlds.
    stopped: dict[str, int] = field(default_factory=dict)
    #: The run stopped early because its answer was firm (see ``firm`` of run_engine).
    stopped_firm: bool = False


class Engine:
    """Runs both phases for one :class:`~.problem.Problem`."""

    def __init__(self, problem: Problem, settings: AdviceSettings, *,
                 game_points: bool = False, passing: PassSeries | None = None,
                 senior_three: PassSeries | None = None) -> None:
        self.p = problem
        self.s = settings
        #: Game-point solves for the birds (the solver can do them and they are asked for).
        self.game_points = game_points and settings.birds
        #: Asked before each game-point request: may more of them start?  (The run's
        #: deadline check, :func:`birds_fit`; always yes without a deadline.)
        self.birds_allowed: Callable[[], bool] = lambda: True
        self.view = RulesView(problem.rules)
        score_fn = self.view.score_fn()
        self.series = SeriesSet(
            (pl.key, ContractSeries(pl, Scorer(pl.contract, problem.seat, pl.annsets, score_fn),
                                    cell_width=settings.cell_width))
            for pl in problem.plans)
        #: What passing is worth (None: 0, the others never bid); never in talon mode.
        self.passing = passing if problem.given_talon is None else None
        self.series.passing = self.passing
        #: Passing over a senior's Three (the ``if_senior_three`` answer's passing).
        self.senior_three = senior_three if self.passing is not None else None
        self.series.senior_three = self.senior_three
        #: Can the solver threads make Trischaken solves (passing's all-pass worlds)?
        self.trischaken_exact = False
        for ser in self.series.values():
            if ser.plan.forbid:
                ser.base = self.series[ser.contract]
        for ser in self.series.values():
            ser.count_birds = self.game_points
            if settings.contras and not ser.plan.forbid:
                ser.contra = ContraPolicy(problem.rules, ser.contract, problem.seat,
                                          self.view.score_fn)
        self.fixed: dict[str, tuple[Exchange, list[int], dict]] = {}
        self._best_cache: dict[str, tuple[int, float]] = {}
        self.stopped: dict[str, int] = {}

    # -- phase 1
    def _world(self, j: int) -> World:
        p = self.p
        return world_at(p.knowledge, p.seed, STREAM_FRESH if p.given_talon else STREAM_WORLD, j,
                        reject_tarockless=self.view.redeal_no_tarock)

    def decide_given_talon(self) -> None:
        """Talon mode: one decision per contract on the fixed information set."""
        p = self.p
        assert p.given_talon is not None
        inner = inner_hands(p.knowledge.with_talon(p.given_talon), p.seed, STREAM_DECISION,
                            (0,), self.s.talon_inner,
                            reject_tarockless=self.view.redeal_no_tarock)
        shared: dict[int, object] = {}
        for c, ser in self.series.items():
            take = (ser.plan.take, ser.plan.forbid)
            if take not in shared:
                shared[take] = choose_exchange(p.hand, p.seat, p.given_talon, ser.contract,
                                               self.view.discard_mode, inner,
                                               screen=min(64, self.s.talon_inner),
                                               keep=4 * self.s.keep, forbid=ser.plan.forbid)
            ch = shared[take]
            annsets = choose_announcements(ser.plan.policies, ser.scorer, p.hand, p.seat,
                                           ch.exchange, inner, ch.inner_points)
            self.fixed[c] = (ch.exchange, annsets, {"options": ch.options, "inner": ch.inner,
                                                    "margin": ch.margin,
                                                    "mean_points": ch.mean_points})

    def evaluate_world(self, j: int) -> None:
        """Phase 1 for world ``j``: every contract's choice and evaluator value."""
        p = self.p
        world = self._world(j)
        width = self.s.cell_width
        offset = int(rng_for(p.seed, STREAM_CELL, j).integers(width)) if width > 1 else 0
        inner = None
        shared: dict[tuple[int, int], object] = {}
        rows = []
        if self.s.stop_margin is not None and j and j % self.s.stop_every == 0:
            self._stop_dominated(j)
        active = self.evaluated()
        for ser in active:
            c, plan = ser.contract, ser.plan
            if plan.take == 0:
                # Solo: every policy's set is fixed
                sets = allowed_sets(plan.policies, plan.annsets)
                ex, choices, valued = None, [a[0] for a in sets], 1
            elif ser.key in self.fixed:
                ex, choices, _info = self.fixed[ser.key]
                valued = 0
            else:
                if inner is None:
                    inner = inner_hands(p.knowledge.with_talon(world.talon), p.seed,
                                        STREAM_INNER, (j,), self.s.inner,
                                        reject_tarockless=self.view.redeal_no_tarock)
                free = shared.get((plan.take, 0))
                if plan.forbid and free is not None \
                        and not free.exchange.hand_after & plan.forbid:
                    # the free choice keeps the announcement: it is the plan's too
                    shared[(plan.take, plan.forbid)] = free
                if (plan.take, plan.forbid) not in shared:
                    shared[(plan.take, plan.forbid)] = choose_exchange(
                        p.hand, p.seat, world.talon, c, self.view.discard_mode, inner,
                        screen=self.s.screen, keep=self.s.keep, forbid=plan.forbid)
                ch = shared[(plan.take, plan.forbid)]
                ex = ch.exchange
                choices = choose_announcements(plan.policies, ser.scorer, p.hand, p.seat, ex,
                                               inner, ch.inner_points)
                valued = ch.options
            hands = list(world.hands)
            hands[p.seat] = ex.hand_after if ex is not None else p.hand
            pile = ex.declarer_pile_thirds if ex is not None else 0
            task = PlayTask((hands[0], hands[1], hands[2]), p.seat, pile, p.hand, c)
            ser.tasks.append(task)
            ser.offsets.append(offset)
            ser.exchanges.append(ex)
            ser.choices.append(list(choices))
            ser.options_valued.append(valued)
            rows.append(task.hands)
        est = evaluate_positions(np.array(rows, dtype=np.uint64), p.seat)
        # the birds' evaluator only where a net counts them (no use without game points)
        birds = self._bird_values(active, est) if self.game_points else None
        for k, (ser, e) in enumerate(zip(active, est, strict=True)):
            ser.estimates.append(float(e))
            if birds is not None:
                ser.bird_estimates.append(float(birds[k]))
            ser.smooth()
        self._bird_options(active, est)
        for ser in active:
            if ser.contra is not None:
                ser.contra_levels.append(ser.contra.level(ser.tasks[-1], ser.exchanges[-1],
                                                          world.talon, p.seed, j))
        s = self.s
        for pas in self._passing().values():
            pas.add_world(j, world, seed=p.seed, inner=s.inner, screen=s.screen, keep=s.keep,
                          discard_mode=self.view.discard_mode,
                          reject_tarockless=self.view.redeal_no_tarock)

    def _passing(self) -> dict[str, PassSeries]:
        """The passing series the run values, by the key their solves are served under."""
        found = {PASS_KEY: self.passing, SENIOR_THREE_KEY: self.senior_three}
        return {k: v for k, v in found.items() if v is not None}

    def pass_value(self) -> float:
        """The evaluator's mean net of passing over the worlds so far (0: not valued)."""
        if self.passing is None or not self.passing.worlds:
            return 0.0
        return float(np.mean(self.passing.values))

    def _bird_values(self, active: list[ContractSeries], est: np.ndarray) -> np.ndarray:
        """The game-point evaluator's value of each contract's silent birds in plain play
        on the world just evaluated (its last task), from the card points' estimates."""
        tasks = [ser.tasks[-1] for ser in active]
        return game_point_parts(
            np.array([t.hands for t in tasks], dtype=np.uint64), 0, self.p.seat,
            [t.contract for t in tasks], discard_thirds=[t.pile_thirds for t in tasks],
            rules=self.p.rules, declarer_hands=[t.hands[t.declarer] for t in tasks],
            dealt=[t.dealt_hands for t in tasks], valat_open=True, estimates=est,
            card_net=False).birds

    def _bird_options(self, active: list[ContractSeries], est: np.ndarray) -> None:
        """The game-point evaluator's gain of each bird option over plain play on the world
        just evaluated, its model variance and the bird's P(won), per contract that has
        bird options (one batch: plain play and every option of each).

        The game is scored at the rounded estimate: an announced bird is written apart
        from the game, so the difference of the two nets is the same at every total
        below Valat (the card points' error would average a constant)."""
        rows: list[tuple[int, int, dict | None]] = []  # (series index, policy, announced)
        for k, ser in enumerate(active):
            opts = ser.plan.bird_options
            if opts:
                rows.append((k, 0, None))
                rows += [(k, q, dict([ser.plan.policies[q].bird])) for q in opts]
        if not rows:
            return
        tasks = [active[k].tasks[-1] for k, _q, _a in rows]
        parts = game_point_parts(
            np.array([t.hands for t in tasks], dtype=np.uint64), 0, self.p.seat,
            [t.contract for t in tasks], announcements=[a for _k, _q, a in rows],
            discard_thirds=[t.pile_thirds for t in tasks], rules=self.p.rules,
            declarer_hands=[t.hands[t.declarer] for t in tasks],
            dealt=[t.dealt_hands for t in tasks], valat_open=True,
            estimates=np.array([est[k] for k, _q, _a in rows]), game_at_estimate=True)
        plain: dict[int, int] = {}
        for i, (k, q, _a) in enumerate(rows):
            ser = active[k]
            if q == 0:
                plain[k] = i
                n = len(ser.plan.policies)
                ser.bird_gains.append(np.zeros(n))
                ser.bird_floors.append(np.zeros(n))
                ser.bird_p.append(np.full(n, np.nan))
                continue
            b = BIRD_NAMES.index(ser.plan.policies[q].bird[0])
            i0 = plain[k]
            pw = float(parts.p_won[i, b]) if np.isfinite(parts.p_won[i, b]) else 0.0
            ser.bird_gains[-1][q] = float(parts.net[i] - parts.net[i0])
            # the gain if the bird wins minus if it does not, under the bird model
            swing = (float(parts.birds[i] - parts.birds[i0]) / pw) if pw > 0 else 0.0
            ser.bird_floors[-1][q] = pw * (1.0 - pw) * swing * swing
            ser.bird_p[-1][q] = pw

    def evaluated(self) -> list[ContractSeries]:
        """The contracts that still get evaluator worlds (not stopped as dominated)."""
        return [s for c, s in self.series.items() if c not in self.stopped]

    def _stop_dominated(self, j: int) -> None:
        """Before world ``j``: stop the contracts clearly dominated on the evaluator's
        worlds so far (see :class:`AdviceSettings`).  The evaluator's values alone decide,
        at fixed world counts, so which worlds a contract has is a pure function of the
        seed (never of timing or of the number of threads)."""
        live = self.evaluated()
        best = {s.key: self.evaluator_best(s) for s in live}
        top = max(best.values(), default=-math.inf)
        if self.p.given_talon is None:
            top = max(top, self.pass_value())  # passing
        # never a contract that has exact worlds (a contender, or one that was: at its
        # cap of exact worlds it is no longer among the contenders)
        keep = {s.key for s in self.contenders()} | {s.key for s in live if s.planned}
        for c, v in best.items():
            if c not in keep and v < top - self.s.stop_margin:
                self.stopped[c] = j

    def drop_partial_world(self) -> int:
        """After an interrupt: forget a world whose contracts, their contras or passing
        were half evaluated; returns the number of complete worlds (of the contracts not
        stopped)."""
        live = self.evaluated()
        # the lists a world appends to last: the contras after the estimates, passing after
        # every contract
        n = min([len(s.contra_levels if s.contra is not None else s.estimates) for s in live]
                + [pas.worlds for pas in self._passing().values()])
        for ser in live:
            for name in ("tasks", "offsets", "exchanges", "choices", "options_valued",
                         "estimates", "bird_estimates", "_smoothed", "bird_gains",
                         "bird_floors", "bird_p", "contra_levels"):
                del getattr(ser, name)[n:]
            ser._values.clear()
        for pas in self._passing().values():
            pas.truncate(n)
        return n

    # -- phase 2
    def contenders(self, *, games: bool = False) -> list[ContractSeries]:
        """The contracts that get the next exact worlds: the best ``settings.contenders``
        options by the evaluator's mean net of their best announcement option (ties:
        rules order), among the contracts whose card-point prefix (``games``: game-point
        prefix) is neither cut nor at its cap, and passing.

        Passing takes its place in the ranking at the evaluator's mean net of it (0 when
        the others never bid): where the decision is between one contract and passing (a
        weak hand's Three), the two share the exact worlds instead of giving some to a
        third option the evaluator ranks below passing (:meth:`pass_contends`; passing
        worth 0 exactly needs none).  In talon mode the contract is bid, and passing is
        no option.

        The ranking uses the evaluator's values only, never the exact corrections, so a
        contract's number of exact worlds does not depend on how its own corrections
        came out (which would bias its estimate, as in a bandit that stops the arms
        that started unlucky).
        """
        ranked = self._ranked(games)
        chosen = set(self._groups(ranked)[:self.s.contenders])
        return [s for s in ranked if s.plan.take in chosen]

    def _ranked(self, games: bool = False) -> list[ContractSeries]:
        """The contracts that still want exact worlds (card points, or ``games``: game
        points), best by the evaluator first."""
        if games:
            live = [s for s in self.series.values()
                    if not s.games_cut and s.games_planned < self._cap(s)]
        else:
            live = [s for s in self.series.values() if not s.cut and s.planned < self._cap(s)]
        # a plan that keeps a "no ..." competes only while one of its options could be the
        # contract's best (else its solves would be taken from the contract's own)
        live = [s for s in live if s.base is None
                or self.evaluator_best(s) >= self.evaluator_best(s.base)]
        return sorted(live, key=lambda s: -self.evaluator_best(s))

    def _groups(self, ranked: list[ContractSeries]) -> list[int | None]:
        """The decisions in the evaluator's order: contracts that take the same talon
        share their positions (Three and Lower) and count as one, so the second place
        goes to another decision; passing (None) ranks above every contract the
        evaluator values below it."""
        may_pass = self.p.given_talon is None
        value = self.pass_value()
        groups: list[int | None] = []
        for s in ranked:
            if may_pass and None not in groups and self.evaluator_best(s) < value:
                groups.append(None)
            if s.plan.take not in groups:
                groups.append(s.plan.take)
        if may_pass and None not in groups:
            groups.append(None)
        return groups

    def pass_contends(self) -> bool:
        """Does passing get the next exact worlds: it is valued (the others bid), among
        the ``settings.contenders`` best decisions, and its prefix neither cut nor at
        its cap?"""
        pas = self.passing
        if pas is None or pas.cut or pas.planned >= self._cap_of(pas.worlds):
            return False
        return None in self._groups(self._ranked())[:self.s.contenders]

    def evaluator_best(self, ser: ContractSeries) -> float:
        """The evaluator's mean net of the contract's best option (cached per world count;
        a "no ..." plan's own plain play is no option)."""
        hit = self._best_cache.get(ser.key)
        if hit is None or hit[0] != ser.worlds:
            value = max((float(np.mean(ser.values(p, "net", exact=False)))
                         for p, pol in enumerate(ser.plan.policies) if pol.kind != "base"),
                        default=-math.inf)
            hit = (ser.worlds, value)
            self._best_cache[ser.key] = hit
        return hit[1]

    def _cap(self, s: ContractSeries) -> int:
        return self._cap_of(s.worlds)

    def _cap_of(self, worlds: int) -> int:
        return min(worlds, self.s.max_exact) if self.s.max_exact is not None else worlds

    def _games_due(self, ser: ContractSeries) -> bool:
        """Is the contract's next game-point world due (see :class:`AdviceSettings`)?"""
        s = self.s
        if ser.games_cut or ser.planned < s.birds_from or ser.games_planned >= ser.planned:
            return False
        if ser.cut or ser.planned >= self._cap(ser):
            return True  # the card points are done: the birds catch up with them
        return ser.games_planned <= (ser.planned - s.birds_from) // max(1, s.bird_every)

    def _option_due(self, ser: ContractSeries) -> int | None:
        """The bird option of ``ser`` whose next game-point world is due, if any: once
        plain play's game-point prefix has the worlds of an SE (or can get no more), the
        options catch up with it, the one the evaluator's mean gain ranks best first.

        None is skipped for looking hopeless: the evaluator's gain of an announced bird
        is the silent bird model's, and an announcing declarer keeps his bird back, so it
        runs low by about half its size (the demo hand's Three, 16 worlds: −14 against
        an exact −6 for the Pagat after the talon, −51 against −10 for the Uhu before;
        ``benchmarks/EXPERIMENTS.md``, Adviser, "Bird announcements judged" (2026-12-06))."""
        if ser.games_planned < min(MIN_BIRD_WORLDS, self._cap(ser)) and not ser.games_cut:
            return None
        due = [q for q in ser.plan.bird_options
               if not ser.option_cut.get(q) and ser.option_planned.get(q, 0) < ser.games_planned]
        if not due:
            return None
        return max(due, key=lambda q: (float(ser.bird_values(q, "gain").mean()), -q))

    def next_request(self) -> tuple[Any, list[str], int] | None:
        """The next exact solve, the contracts it serves and its world: a game-point world
        of a contender when one is due, else the next card-point world of the contender
        with the fewest worlds requested (ties: the evaluator's order; Three and Lower
        share their positions).  None when no contender wants more."""
        if self.game_points and self.birds_allowed():
            # the bird options of the evaluator's best contract with game-point worlds
            # (it may be at its cap of them: the options catch up)
            solved = sorted((x for x in self.series.values() if x.games_planned),
                            key=lambda x: -self.evaluator_best(x))
            for ser in solved[:1]:
                q = self._option_due(ser)
                if q is not None:
                    j = ser.option_planned.get(q, 0)
                    ser.option_planned[q] = j + 1
                    return (GameRequest.of(ser.tasks[j], (ser.plan.policies[q].bird,)),
                            [(ser.key, q)], j)
            live = self.contenders(games=True)
            for ser in live:
                if self._games_due(ser):
                    j = ser.games_planned
                    request = GameRequest.of(ser.tasks[j])
                    # a plan that kept its "no ..." with the same exchange: the same solve
                    served = [x for x in live if x.games_planned == j and self._games_due(x)
                              and GameRequest.of(x.tasks[j]) == request]
                    for x in served:
                        x.games_planned += 1
                    return request, [(x.key, 0) for x in served], j
        live = self.contenders()
        # passing: with the contenders when it is one; else (and passing over a senior's
        # Three), once no contender wants more, up to the worlds of an SE
        for key, pas in self._passing().items():
            if (key == PASS_KEY and self.pass_contends()
                    and (not live or pas.planned <= min(s.planned for s in live))) \
                    or (not live and pas.planned < min(MIN_EXACT, self._cap_of(pas.worlds))):
                nxt = pas.next_request(self.trischaken_exact)
                if nxt is not None:
                    request, j = nxt
                    return request, [(key, None)], j
        if not live:
            return None
        ser = min(live, key=lambda s: s.planned)  # min is stable: ties keep the ranking
        j = ser.planned
        key = (ser.tasks[j].hands, self.p.seat)
        served = [s for s in live if s.planned == j and (s.tasks[j].hands, self.p.seat) == key]
        for s in served:
            s.planned += 1
        # the evaluator's value is MTD(f)'s first guess (it saves tests)
        thresholds = sorted({t for s in served for t in s.thresholds(j)})
        request = (key[0], key[1], int(round(ser.estimates[j])), ser.cell_width,
                   ser.offsets[j], tuple(thresholds))
        return request, [(s.key, None) for s in served], j

    def apply(self, contract: str, world: int, value: Any, *, game: int | None = None) -> None:
        """Record an exact value of a contract: card points (``game`` None) or the net
        game points of its policy ``game`` (0: plain play; a bird option)
        (:meth:`ContractSeries.record`)."""
        passing = self._passing()
        if contract in passing:
            passing[contract].record(world, value)
            return
        self.series[contract].record(world, value, game=game is not None, policy=game or 0)


def birds_fit(eng: Engine, exact: ExactSolver, deadline: float) -> bool:
    """Can the contenders' game-point prefixes still reach :data:`~.cv.MIN_BIRD_WORLDS`
    worlds by the deadline, at this run's pace and with every solver thread on them?

    A net with silent birds needs that many (fewer give no honest SE), so game-point
    solves that cannot get there would end unused, and their time is the card points'
    (a 10-s run has ~20 thread-seconds; a game-point solve costs several card-point
    ones).  The pace is the run's own game-point solves, or before the first of them
    :data:`GAME_COST_PRIOR` card-point solves each.  The deadline only decides how far
    a prefix gets, as it does for the card points: world *j* stays world *j*."""
    per_card = exact.card_seconds / exact.solves if exact.solves else 0.0
    per_game = exact.game_seconds / exact.game_solves if exact.game_solves \
        else GAME_COST_PRIOR * per_card
    need = sum(max(0, MIN_BIRD_WORLDS - s.games_planned) for s in eng.contenders(games=True))
    return need * per_game <= (deadline - time.time()) * exact.jobs


def run_engine(problem: Problem, settings: AdviceSettings, exact: ExactSolver,
               limit: AdviceLimit, *,
               progress: Callable[[str, int, int, Mapping[str, ContractSeries]], None]
               | None = None,
               firm: Callable[[Mapping[str, ContractSeries]], str | None] | None = None,
               passing: PassSeries | None = None,
               senior_three: PassSeries | None = None) -> EngineResult:
    """Both phases within the ``limit`` (its deadline counted from now; the solves'
    seconds end there, :mod:`.exact`); Ctrl-C ends the current phase with what is done.

    ``progress(phase, done, total, series)`` is called after each world evaluated and
    each round of the exact phase, between the engine's steps (on this thread), with
    the contracts' series as they stand: it may read them, never change them.
    ``firm(series)``, in a timed run whose limit asks for it, is asked every
    :data:`FIRM_EVERY` seconds of phase 2 what the answer still waits for; when it
    answers None the run ends there (the solves in progress give up).  ``passing``:
    what passing is worth, valued on the same worlds (None: 0); ``senior_three``: what
    passing over a senior's Three is worth (None: as ``passing``)."""
    start = time.time()
    deadline = limit.deadline(start)
    samples = limit.worlds
    eng = Engine(problem, settings, game_points=exact.game_points, passing=passing,
                 senior_three=senior_three)
    eng.trischaken_exact = exact.trischaken
    if deadline is not None:
        eng.birds_allowed = lambda: birds_fit(eng, exact, deadline)
    report = progress or (lambda phase, done, total, series: None)
    interrupted = False
    exact.start()
    if problem.given_talon is not None:
        eng.decide_given_talon()
    phase1_end = None
    if deadline is not None:
        phase1_end = start + settings.evaluator_share * min(deadline - start, PHASE1_HORIZON)
    check_firm = firm if deadline is not None and limit.stop_when_firm else None
    next_check = 0.0
    stopped_firm = False
    n = 0
    # (handle, [(contract, policy of a game-point solve or None)], world)
    outstanding: list[tuple[Any, list[tuple[str, int | None]], int]] = []
    # Solves kept queued so the threads never wait for a decision; a constant, so which
    # worlds are solved does not depend on the number of threads.
    target = QUEUED_SOLVES

    def top_up() -> None:
        while len(outstanding) < target:
            nxt = eng.next_request()
            if nxt is None:
                return
            request, served, world = nxt
            outstanding.append((exact.submit([request], deadline), served, world))

    def harvest(block: bool) -> None:
        """Apply the finished solves (all of them, waiting, when ``block``)."""
        keep = []
        for item in outstanding:
            handle, served, world = item
            if block or exact.ready(handle):
                (value,) = exact.collect(handle, deadline)
                for c, game in served:
                    eng.apply(c, world, value, game=game)
            else:
                keep.append(item)
        outstanding[:] = keep

    def evaluate_next() -> None:
        nonlocal n
        eng.evaluate_world(n)
        n += 1
        report("evaluator", n, samples, eng.series)

    try:
        while n < samples and (phase1_end is None or time.time() < phase1_end
                               or (n < MIN_WORLDS and time.time() < deadline)):
            evaluate_next()
            if n >= settings.exact_from:  # exact solves start early, on few worlds
                top_up()
    except KeyboardInterrupt:
        interrupted = True
        n = eng.drop_partial_world()
    t1 = time.time()
    deadline_hit = False
    if n >= 2 and not interrupted:
        try:
            top_up()
            while outstanding:
                if deadline is not None and time.time() >= deadline:
                    deadline_hit = True
                    harvest(block=True)  # the solves stop at the deadline by themselves
                    break
                if check_firm is not None and time.time() >= next_check:
                    firm_now = check_firm(eng.series) is None
                    next_check = time.time() + FIRM_EVERY
                    if firm_now:
                        stopped_firm = True
                        while outstanding:  # the running solves give up within ms
                            exact.abort()
                            harvest(block=False)
                            if outstanding:
                                exact.wait_any([h for h, _, _ in outstanding], 0.05)
                        break
                harvest(block=False)
                report("exact", sum(len(s.exact_worlds()) for s in eng.series.values()), 0,
                       eng.series)
                top_up()
                if not outstanding:
                    break
                if n < samples:
                    evaluate_next()  # the main thread works while the solver threads do
                elif exact.compiling and deadline is not None \
                        and deadline - time.time() < FIRST_COMPILE_SECONDS:
                    # a first run after install whose limit comes before the compile can
                    # end: every world is evaluated and no solve will start, so the answer
                    # is the evaluator's, now (the queued solves are dropped by close); a
                    # run with time for the compile waits for it and its solves
                    break
                else:
                    exact.wait_any([h for h, _, _ in outstanding], 0.05)
        except KeyboardInterrupt:
            interrupted = True
            n = eng.drop_partial_world()
    result = EngineResult(eng.series, n, t1 - start, time.time() - t1, exact, interrupted,
                          deadline_hit)
    result.contenders = [s.key for s in eng.contenders()] if n >= 2 else []
    result.stopped = dict(eng.stopped)
    result.stopped_firm = stopped_firm
    if eng.fixed:
        result.talon_decision = {c: {"group": ex.group_label, "discard": ex.discard_ids,
                                     **info} for c, (ex, _a, info) in eng.fixed.items()}
    return result
