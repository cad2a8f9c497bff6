"""The adviser's two phases: the evaluator on many worlds, exact solves where they matter.

**Worlds.**  World *j* is a uniform completion of what the adviser knows, a pure
function of (seed, j) (:mod:`.sampling`); every contract is judged on the same
worlds, so differences between contracts are paired.

**Phase 1, the evaluator** (:mod:`.infoset`).  In world *j*, for a talon
contract the talon is the world's; the declarer chooses group, discard and
after-talon announcements on his information set (hand + talon) by the learned
evaluator over inner worlds; Three and Lower share the choice (same groups,
same card points).  Solo has nothing to choose.  The chosen position of world
*j* is then valued by the evaluator: ``g_j``.  With a given talon (talon mode)
the decision is the same in every world and is made once on many inner worlds.
A contract the evaluator puts far below the best option (``stop_margin`` game
points, checked every ``stop_every`` worlds) and that gets no exact worlds stops
there: its worlds are a prefix, its estimates keep their SEs, and the time goes
to the options still in the race.

**Phase 2, exact solves** (:mod:`.exact`), on solver threads while the main
thread goes on evaluating worlds.  Contract *c*'s exact values are
solved on its worlds in index order 0, 1, 2, … (a prefix, so a random subset of
the worlds), always a few solves queued, to the two options the evaluator ranks best (where
the decision is; passing is one of them when it ranks there, and needs no solve; the
ranking never looks at the exact corrections, so how many exact worlds a contract
gets does not depend on how its corrections came out).  A
control-variate estimate (:mod:`.cv`) is the evaluator's mean over every world
plus the mean exact − evaluator correction on the worlds solved exactly:
unbiased however wrong the evaluator is.  For nets and P(make) the evaluator's value of a world
is its net (result) averaged over the evaluator's own error
(:meth:`ContractSeries.smoothed`), any function of the estimate being a valid
control variate: where a target is at risk the variate says so, and a few exact
worlds that all made it do not give an SE of zero.  Without a deadline every
requested world is solved.  Under one, the exact worlds are those whose solves
finished (:meth:`ContractSeries.exact_worlds`; the ones cut short are counted):
the solve in progress when time runs out is more often a slow one, and solve
times correlate weakly with the residuals (slow worlds run a little below the
evaluator), so a bias of order 1/n remains, as in any time-limited sampling —
simulated on 18 hands' solve times and residuals, 0.06 card points on average
and 0.2 at most, against SEs of 0.3–1.4; keeping only the prefix before the
first cut solve was biased about as much and threw away what one thread solved
while another was held by a slow world (``benchmarks/EXPERIMENTS.md``,
session 17).  Which worlds are requested depends only on earlier results,
never on timing or on the number of workers.

**Cells.**  An exact solve stops once it has proved which cell of width
``cell_width`` (3) of a grid at the world's offset holds the future points and
on which side of every threshold where a chosen net changes piece (make
targets, Valat) they lie (:meth:`~tarock_solver.solver.CardPointSearch.cell`):
the two proofs right at the value, the dearest of a solve, are mostly skipped.
The offset is a pure function of (seed, world), uniform on the grid, so the
cell's middle is an unbiased value of the world's points and, through the net's
affine piece, of its net; results (made or not) are exact
(:meth:`ContractSeries.values`).

**Silent birds** (plain play).  Card points say nothing of the birds won
silently in the last tricks, nor of what the players give up in card points to
win or stop them.  Once a contender has ``birds_from`` exact worlds requested,
its plain play also gets game-point solves (the score sheet's net of
double-dummy play, birds included) on the same worlds in the same index order,
one for every ``bird_every`` further card-point worlds: a third term of the
same control-variate sum, the mean of (game-point net − card-point net) over
that shorter prefix, unbiased like the others (:meth:`ContractSeries.birds`).
Under a deadline they start only while the time left lets the contenders reach
the game-point worlds such a net needs (:func:`birds_fit`); otherwise the
time goes to card points (a 10-s run cannot afford them).
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import round_points
from ..solver import cell_start
from ..talon import Exchange
from .cv import (
    MIN_BIRD_WORLDS,
    MIN_EXACT,
    MIN_WORLDS,
    Estimate,
    PrefixTerm,
    bernoulli_variance,
    combine,
)
from .evaluate import PlayTask, Scorer
from .exact import ExactSolver, GameRequest
from .infoset import (
    allowed_sets,
    choose_announcements,
    choose_exchange,
    evaluate_positions,
    inner_hands,
)
from .rulesview import RulesView
from .sampling import STREAM_FRESH, STREAM_INNER, STREAM_WORLD, World, rng_for, world_at
from .types import ContractPlan

if TYPE_CHECKING:
    from .plan import Problem

__all__ = ["AdviceSettings", "ContractSeries", "EngineResult", "run_engine"]

#: Seed stream of the inner worlds behind a given talon's single decision.
STREAM_DECISION = 3
#: Seed stream of the cells' offsets (one per world, shared by its contracts).
STREAM_CELL = 4
#: Exact solves kept queued (enough for up to 6 solver threads).
QUEUED_SOLVES = 8
#: The evaluator's card-point error within one hand as the smoothed control variate of
#: nets, results and announcement gains takes it (SD, card points): the pooled
#: within-hand residual SD on fixed worlds (3.08 over 6 hands × 25 worlds,
#: benchmarks/EXPERIMENTS.md; the model card's held-out residual SD is 2.72).  Any value
#: keeps the estimate unbiased; this one makes the variate see the targets at risk.
SMOOTHING_SD = 3.0
#: Totals either side of the rounded estimate the smoothing scores (4 SD).
SMOOTHING_WINDOW = 12
#: Card-point solves a game-point solve of plain play is taken to cost before a run has
#: timed its own (whole deals: median 3.7, ``tarock bench --gamepoints``).
GAME_COST_PRIOR = 4.0


@dataclass(frozen=True)
class AdviceSettings:
    """How hard each part works.

    ``inner``: inner worlds per talon decision (``screen`` of them value every
    exchange, then the ``keep`` best get all); ``talon_inner``: the same for the
    one decision of talon mode.  ``evaluator_share``: the part of the time limit
    for phase 1 (which goes on to :data:`~.cv.MIN_WORLDS` worlds if the
    deadline allows).  Exact solves start once ``exact_from`` worlds are
    evaluated; they go to the contracts among the ``contenders`` options the
    evaluator ranks best (by its mean net over the worlds so far; passing, worth 0,
    is an option that needs no solve), the next world of the one with the fewest
    first; the others are screened out and come back if the ranking changes.
    ``max_exact``: cap per contract (None: every evaluated world), which bounds
    the work of a run without a time limit.  ``birds``: game-point solves of plain
    play for the silent birds, from ``birds_from`` card-point worlds of a contender
    on, one for every ``bird_every`` more (a game-point solve costs 3–25 card-point
    solves, so the card points keep most of the exact work).  ``cell_width``: the
    exact solves stop at a cell of that many points (odd; 1: exact values; see
    :meth:`ContractSeries.values`).  ``stop_margin``, ``stop_every``: every
    ``stop_every`` worlds, a contract that gets no exact worlds and whose best option
    the evaluator's mean net puts more than ``stop_margin`` game points below the best
    (passing, worth 0, included) stops getting evaluator worlds: its numbers rest on
    the worlds done so far (a prefix, so still unbiased, with their SEs), and the main
    thread's time goes to the contracts in the race and to the solver threads.
    """

    inner: int = 64
    screen: int = 8
    keep: int = 8
    talon_inner: int = 512
    evaluator_share: float = 0.2
    exact_from: int = 8
    contenders: int = 2
    max_exact: int | None = 48
    birds: bool = True
    birds_from: int = 16
    bird_every: int = 2
    cell_width: int = 3
    stop_margin: float | None = 30.0
    stop_every: int = 100

    def __post_init__(self) -> None:
        # an odd width puts the cell's middle on a whole point (the scorer's unit)
        if self.cell_width < 1 or self.cell_width % 2 == 0:
            raise ValueError(f"cell_width must be odd and positive, not {self.cell_width}")


@dataclass
class ContractSeries:
    """One contract over the worlds: the chosen exchange and its values in each."""

    plan: ContractPlan
    scorer: Scorer
    tasks: list[PlayTask] = field(default_factory=list)
    #: Per world, the offset of the grid its exact solve stops on (see :meth:`values`).
    offsets: list[int] = field(default_factory=list)
    cell_width: int = 1
    exchanges: list[Exchange | None] = field(default_factory=list)
    choices: list[list[int]] = field(default_factory=list)  # per world, per policy: annset
    estimates: list[float] = field(default_factory=list)  # evaluator future points
    #: Exact future points of worlds 0 … n-1, each as its cell's proved bounds (lower,
    #: upper) or an int (known exactly: tests)
    exact: list = field(default_factory=list)
    planned: int = 0  # worlds whose exact solve was requested (the prefix to come)
    #: Exact values that arrived ahead of the prefix (world → value, None: cut short);
    #: once the prefix is cut, the worlds finished after it (see :meth:`exact_worlds`).
    pending: dict[int, int | None] = field(default_factory=dict)
    #: The prefix ended at a solve the deadline cut short.
    cut: bool = False
    #: Exact net game points of plain play (birds included), worlds 0 … m-1, and the
    #: same bookkeeping as the card points'.
    games: list[float] = field(default_factory=list)
    games_planned: int = 0
    games_pending: dict[int, float | None] = field(default_factory=dict)
    games_cut: bool = False
    options_valued: list[int] = field(default_factory=list)  # exchanges valued per world
    _values: dict = field(default_factory=dict, repr=False)  # memo of values()
    #: Per world, every chosen announcement set's smoothed net and P(made) (smoothed).
    _smoothed: list[np.ndarray] = field(default_factory=list, repr=False)

    @property
    def contract(self) -> str:
        return self.plan.contract

    @property
    def worlds(self) -> int:
        return len(self.estimates)

    def values(self, policy: int, what: str, exact: bool) -> np.ndarray:
        """Per world (the exact worlds if ``exact``): ``net``, ``made`` or ``points``
        (rounded card points of the declarer, discard included) of a policy.

        An exact world's solve proves only the cell of width ``cell_width`` of the grid
        at the world's offset that holds the future points, and which affine piece of
        the nets (:meth:`.Scorer.piece_starts`): its value is the middle of the cell,
        put through the piece's affine net.  The offset is uniform and independent of
        the world's cards, so the middle has expectation the exact points, and the net
        (affine on the piece) the exact net: unbiased, at (width² − 1)/12 more variance
        a world (2/3 of a card point² at width 3, against residuals of ~9), for solves
        that skip most of the dear proofs at the value.  Results are exact (the piece
        says made or not).

        The exact values are those of :meth:`exact_worlds`, in that order.  Memoised on
        the number of values: worlds and prefixes only grow, so the first ``k`` values
        never change (the report asks for each many times)."""
        if exact:
            head = self._grown((policy, what, exact), len(self.exact),
                               lambda j: self._exact_value(j, policy, what))
            late = self._late()
            if not late:
                return head
            return np.concatenate([head, [self._exact_value(j, policy, what) for j in late]])
        source = self.estimates

        def value(j: int) -> float:
            task = self.tasks[j]
            pts = int(round(float(source[j])))
            thirds = task.pile_thirds + 3 * pts
            if what == "points":
                return round_points(thirds)
            o = self.scorer.outcome(task, thirds, 3 * pts == task.in_play_thirds)
            s = self.choices[j][policy]
            return float(o.net[s]) if what == "net" else float(o.made[s])

        return self._grown((policy, what, exact), len(source), value)

    def exact_worlds(self) -> np.ndarray:
        """The worlds solved exactly, in index order: the prefix 0 … n-1 and, once the
        deadline cut a solve short, every world whose solve had finished after it.

        Using them all rather than the prefix alone: a time limit biases any set of
        finished solves by O(1/n) (the solve in progress when it strikes is more often a
        slow one, and slow worlds' residuals run a little lower); simulated on 18 hands'
        solve times and residuals the prefix alone was biased about as much (0.05 card
        points on average against 0.06) while it threw away a fifth to two fifths of the
        slow hands' exact worlds — everything a thread solved while the other was held by
        one slow world (``benchmarks/EXPERIMENTS.md``, session 17)."""
        late = self._late()
        head = np.arange(len(self.exact), dtype=np.int64)
        return np.concatenate([head, np.array(late, dtype=np.int64)]) if late else head

    def _late(self) -> list[int]:
        """The finished worlds after the cut prefix, in order."""
        if not self.cut:
            return []
        return sorted(w for w, v in self.pending.items() if w >= 0 and v is not None)

    def _exact_value(self, j: int, policy: int, what: str) -> float:
        task = self.tasks[j]
        v = self.exact[j] if j < len(self.exact) else self.pending[j]
        lo, hi = (v, v) if isinstance(v, (int, np.integer)) else v
        width = self.cell_width
        offset = self.offsets[j] if width > 1 else 0
        mid = cell_start(int(lo), width, offset) + (width - 1) // 2
        if what == "points":
            return round_points(task.pile_thirds + 3 * mid)
        s = self.choices[j][policy]
        starts = self._piece_starts(j)  # the pieces the solve settled
        k = bisect.bisect_right(starts, int(lo)) - 1
        first = starts[k]
        last = starts[k + 1] - 1 if k + 1 < len(starts) else first
        if hi > last:
            raise AssertionError(f"world {j}: the cell [{lo}, {hi}] spans pieces of the net")
        top = task.in_play_thirds // 3
        o = self.scorer.outcome(task, task.pile_thirds + 3 * first, first == top)
        if what == "made":
            return float(o.made[s])
        if last == first:
            return float(o.net[s])
        o2 = self.scorer.outcome(task, task.pile_thirds + 3 * (first + 1), first + 1 == top)
        return float(o.net[s] + (o2.net[s] - o.net[s]) * (mid - first))

    def _piece_starts(self, j: int) -> tuple[int, ...]:
        """Where the nets of every announcement set chosen in world ``j`` change piece."""
        return self.scorer.piece_starts(self.tasks[j], sorted(set(self.choices[j])))

    def thresholds(self, j: int) -> tuple[int, ...]:
        """The totals whose side an exact solve of world ``j`` must settle."""
        return self._piece_starts(j)[1:]  # the first start, 0, is settled by itself

    def _grown(self, key: tuple, n: int, value: Callable[[int], float]) -> np.ndarray:
        """The memo ``key`` of a per-world quantity over worlds 0 … n-1, its known prefix
        kept and the rest from ``value(j)`` (worlds and prefixes only grow)."""
        hit = self._values.get(key)
        if hit is not None and len(hit) == n:
            return hit
        start = 0 if hit is None or len(hit) > n else len(hit)
        out = np.empty(n)
        if start:
            out[:start] = hit[:start]
        for j in range(start, n):
            out[j] = value(j)
        self._values[key] = out
        return out

    def smoothed(self, policy: int, what: str) -> np.ndarray:
        """Per world: the policy's ``net`` or ``made`` averaged over the evaluator's error,
        the future card points taken as the estimate plus a normal error of
        :data:`SMOOTHING_SD`, rounded and clipped to 0 … all in play; ``gain_variance``:
        the variance of its net minus plain play's under the same error.

        A function of the evaluator's estimate alone, so a valid control variate; unlike
        the value of the rounded estimate it is not constant across the worlds whose
        target is at risk (an Absolut at 40 with an estimate of 40 is missed on half of
        them), so a correction that saw no miss does not get an SE of zero.  Memoised as
        :meth:`values`."""
        self.smooth()
        row = {"net": 0, "made": 1, "gain_variance": 2}[what]
        return self._grown((policy, what, "smoothed"), len(self._smoothed),
                           lambda j: self._smoothed[j][row, self.choices[j][policy]])

    def smooth(self) -> None:
        """Work out the smoothed values (:meth:`smoothed`) of the worlds not yet done,
        every announcement set chosen there at once (the engine calls this as worlds
        come in, so that the report does not pay for all of them at the end)."""
        while len(self._smoothed) < len(self.estimates):
            j = len(self._smoothed)
            task = self.tasks[j]
            top = task.in_play_thirds // 3
            e = float(self.estimates[j])
            w = _rounded_normal(e, SMOOTHING_SD, top)
            # the totals within 4 SD carry all but 1e-4 of the weight: the rest is
            # moved onto the window's ends (still a function of the estimate alone)
            r = int(np.clip(round(e), 0, top))
            lo, hi = max(0, r - SMOOTHING_WINDOW), min(top, r + SMOOTHING_WINDOW)
            w_in = w[lo:hi + 1].copy()
            w_in[0] += w[:lo].sum()
            w_in[-1] += w[hi + 1:].sum()
            sets = sorted(set(self.choices[j]))
            nets, made = self.scorer.net_curve(task, lo, hi, sets)
            out = np.full((3, len(self.plan.annsets)), np.nan)
            # a set the score leaves undefined at some total: the rounded estimate's value
            gap = np.isnan(nets).any(axis=0)
            filled = np.where(np.isnan(nets), 0.0, nets)
            out[0, sets] = np.where(gap, nets[r - lo], w_in @ filled)
            out[1, sets] = np.where(gap, made[r - lo], w_in @ made)
            # the model's variance of each set's net minus plain play's (the gain floor)
            plain = sets.index(self.choices[j][0])
            diff = filled - filled[:, [plain]]
            mean = w_in @ diff
            var = np.maximum(w_in @ (diff * diff) - mean * mean, 0.0)
            out[2, sets] = np.where(gap | gap[plain], 0.0, var)
            self._smoothed.append(out)

    def birds(self) -> np.ndarray:
        """Per world of the game-point prefix (as far as the card-point prefix goes): the
        exact net game points of plain play minus the net scored from its exact card
        points — what the silent birds (and the play they change) are worth."""
        m = min(len(self.games), len(self.exact))
        return np.asarray(self.games[:m], dtype=np.float64) \
            - self.values(0, "net", exact=True)[:m]

    def terms(self, policy: int, what: str, weight: float = 1.0,
              worlds: np.ndarray | None = None) -> list[PrefixTerm]:
        """The control-variate terms of a policy's ``what`` (optionally on a subset of
        the worlds given as a boolean mask, e.g. one half for cross-fitting).

        ``net_birds`` is the net plus the silent birds of plain play (:meth:`birds`):
        for an announcement the birds are those of plain play, i.e. the announcement is
        taken not to change which birds are won."""
        if what == "net_birds":
            b = self.birds()
            return self.terms(policy, "net", weight, worlds) + [
                _term(b, np.arange(len(b)), worlds, weight)]
        # nets and results against the smoothed control variate, card points against
        # the rounded estimate (linear in it: smoothing would change nothing)
        g = self.smoothed(policy, what) if what in ("net", "made") else \
            self.values(policy, what, exact=False)
        x = self.values(policy, what, exact=True)
        at = self.exact_worlds()
        # a made flag's residuals: never less variance than its Bernoulli model's
        floor = bernoulli_variance(g[at]) if what == "made" else None
        # no exact world yet: the correction is empty, and the estimate is the
        # evaluator's (no SE)
        return [_term(g, np.arange(len(g)), worlds, weight),
                _term(x - g[at], at, worlds, weight, correction=True, floor=floor)]

    def gain_terms(self, policy: int, worlds: np.ndarray | None = None) -> list[PrefixTerm]:
        """The control-variate terms of a policy's net minus plain play's, world by world
        (optionally on a masked subset of the worlds).

        The same mean and, without the floor, the same SE as the four terms of the two
        nets; as one difference its residuals' variance can be floored by the model's
        (the smoothed variate's variance of the gain given the estimate, as a made
        flag's by its Bernoulli variance).  An announcement's gain is often nonzero on
        few worlds — a target at risk, a miss now and then — and a prefix that saw none
        of them has near-zero residuals: its sample variance would claim a certainty
        the worlds do not have (measured: within 2 SE of the plain exact mean on 23 % of
        8-world subsets)."""
        g = self.smoothed(policy, "net") - self.smoothed(0, "net")
        x = self.values(policy, "net", exact=True) - self.values(0, "net", exact=True)
        at = self.exact_worlds()
        floor = self.smoothed(policy, "gain_variance")[at]
        return [_term(g, np.arange(len(g)), worlds),
                _term(x - g[at], at, worlds, correction=True, floor=floor)]

    def estimate(self, policy: int, what: str) -> Estimate:
        """The control-variate estimate; with fewer than ``MIN_EXACT`` exact worlds the
        evaluator's mean with its correction shrunk, no SE (see :mod:`~.cv`)."""
        return combine(self.terms(policy, what), min_prefix=MIN_EXACT)


@dataclass
class EngineResult:
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


class Engine:
    """Runs both phases for one :class:`~.plan.Problem`."""

    def __init__(self, problem: Problem, settings: AdviceSettings, *,
                 game_points: bool = False) -> None:
        self.p = problem
        self.s = settings
        #: Game-point solves for the birds (the solver can do them and they are asked for).
        self.game_points = game_points and settings.birds
        #: Asked before each game-point request: may more of them start?  (The run's
        #: deadline check, :func:`birds_fit`; always yes without a deadline.)
        self.birds_allowed: Callable[[], bool] = lambda: True
        self.view = RulesView(problem.rules)
        score_fn = self.view.score_fn()
        self.series = {pl.contract: ContractSeries(pl, Scorer(pl.contract, problem.seat,
                                                              pl.annsets, score_fn),
                                                   cell_width=settings.cell_width)
                       for pl in problem.plans}
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
            take = ser.plan.take
            if take not in shared:
                shared[take] = choose_exchange(p.hand, p.seat, p.given_talon, c,
                                               self.view.discard_mode, inner,
                                               screen=min(64, self.s.talon_inner),
                                               keep=4 * self.s.keep)
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
        shared: dict[int, object] = {}
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
            elif c in self.fixed:
                ex, choices, _info = self.fixed[c]
                valued = 0
            else:
                if inner is None:
                    inner = inner_hands(p.knowledge.with_talon(world.talon), p.seed,
                                        STREAM_INNER, (j,), self.s.inner,
                                        reject_tarockless=self.view.redeal_no_tarock)
                if plan.take not in shared:
                    shared[plan.take] = choose_exchange(p.hand, p.seat, world.talon, c,
                                                        self.view.discard_mode, inner,
                                                        screen=self.s.screen, keep=self.s.keep)
                ch = shared[plan.take]
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
        for ser, e in zip(active, est, strict=True):
            ser.estimates.append(float(e))
            ser.smooth()

    def evaluated(self) -> list[ContractSeries]:
        """The contracts that still get evaluator worlds (not stopped as dominated)."""
        return [s for c, s in self.series.items() if c not in self.stopped]

    def _stop_dominated(self, j: int) -> None:
        """Before world ``j``: stop the contracts clearly dominated on the evaluator's
        worlds so far (see :class:`AdviceSettings`).  The evaluator's values alone decide,
        at fixed world counts, so which worlds a contract has is a pure function of the
        seed (never of timing or of the number of threads)."""
        live = self.evaluated()
        best = {s.contract: self.evaluator_best(s) for s in live}
        top = max(best.values(), default=-math.inf)
        if self.p.given_talon is None:
            top = max(top, 0.0)  # passing
        # never a contract that has exact worlds (a contender, or one that was: at its
        # cap of exact worlds it is no longer among the contenders)
        keep = {s.contract for s in self.contenders()} | {s.contract for s in live if s.planned}
        for c, v in best.items():
            if c not in keep and v < top - self.s.stop_margin:
                self.stopped[c] = j

    def drop_partial_world(self) -> int:
        """After an interrupt: forget a world whose contracts were half evaluated;
        returns the number of complete worlds (of the contracts not stopped)."""
        live = self.evaluated()
        n = min(len(s.estimates) for s in live)
        for ser in live:
            for name in ("tasks", "offsets", "exchanges", "choices", "options_valued",
                         "estimates", "_smoothed"):
                del getattr(ser, name)[n:]
            ser._values.clear()
        return n

    # -- phase 2
    def contenders(self, *, games: bool = False) -> list[ContractSeries]:
        """The contracts that get the next exact worlds: the best ``settings.contenders``
        options by the evaluator's mean net of their best announcement option (ties:
        rules order), among the contracts whose card-point prefix (``games``: game-point
        prefix) is neither cut nor at its cap, and passing.

        Passing is worth 0 exactly and needs no solve, but it takes its place in the
        ranking: where the decision is between one contract and passing (a weak hand's
        Three), that contract gets every exact world instead of sharing them with a
        third option the evaluator ranks below passing.  In talon mode the contract is
        bid, and passing is no option.

        The ranking uses the evaluator's values only, never the exact corrections, so a
        contract's number of exact worlds does not depend on how its own corrections
        came out (which would bias its estimate, as in a bandit that stops the arms
        that started unlucky).
        """
        if games:
            live = [s for s in self.series.values()
                    if not s.games_cut and s.games_planned < self._cap(s)]
        else:
            live = [s for s in self.series.values() if not s.cut and s.planned < self._cap(s)]
        ranked = sorted(live, key=lambda s: -self.evaluator_best(s))
        # Contracts that take the same talon share their positions (Three and Lower):
        # they count as one contender, so the second place goes to another decision.
        # Passing (None) ranks above every contract the evaluator values below 0.
        may_pass = self.p.given_talon is None
        groups: list[int | None] = []
        for s in ranked:
            if may_pass and None not in groups and self.evaluator_best(s) < 0.0:
                groups.append(None)
            if s.plan.take not in groups:
                groups.append(s.plan.take)
        chosen = set(groups[:self.s.contenders])
        return [s for s in ranked if s.plan.take in chosen]

    def evaluator_best(self, ser: ContractSeries) -> float:
        """The evaluator's mean net of the contract's best option (cached per world count)."""
        hit = self._best_cache.get(ser.contract)
        if hit is None or hit[0] != ser.worlds:
            value = max(float(np.mean(ser.values(p, "net", exact=False)))
                        for p in range(len(ser.plan.policies)))
            hit = (ser.worlds, value)
            self._best_cache[ser.contract] = hit
        return hit[1]

    def _cap(self, s: ContractSeries) -> int:
        cap = s.worlds
        return min(cap, self.s.max_exact) if self.s.max_exact is not None else cap

    def _games_due(self, ser: ContractSeries) -> bool:
        """Is the contract's next game-point world due (see :class:`AdviceSettings`)?"""
        s = self.s
        if ser.games_cut or ser.planned < s.birds_from or ser.games_planned >= ser.planned:
            return False
        if ser.cut or ser.planned >= self._cap(ser):
            return True  # the card points are done: the birds catch up with them
        return ser.games_planned <= (ser.planned - s.birds_from) // max(1, s.bird_every)

    def next_request(self) -> tuple[Any, list[str], int] | None:
        """The next exact solve, the contracts it serves and its world: a game-point world
        of a contender when one is due, else the next card-point world of the contender
        with the fewest worlds requested (ties: the evaluator's order; Three and Lower
        share their positions).  None when no contender wants more."""
        if self.game_points and self.birds_allowed():
            for ser in self.contenders(games=True):
                if self._games_due(ser):
                    j = ser.games_planned
                    ser.games_planned += 1
                    return GameRequest.of(ser.tasks[j]), [ser.contract], j
        live = self.contenders()
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
        return request, [s.contract for s in served], j

    def apply(self, contract: str, world: int, value: Any, *, game: bool = False) -> None:
        """Record an exact value (``game``: a game-point net); the prefix grows over every
        world now known in order, and ends at the first world whose solve the deadline
        cut short (card points: the worlds finished after it stay usable)."""
        ser = self.series[contract]
        if game:
            ser.games_cut = _grow(ser.games, ser.games_pending, world, value, float)
        else:
            ser.cut = _grow(ser.exact, ser.pending, world, value, _cell, keep_late=True)


def _term(values: np.ndarray, at: np.ndarray, mask: np.ndarray | None, weight: float = 1.0,
          *, correction: bool = False, floor: np.ndarray | None = None) -> PrefixTerm:
    """A term of ``values`` on the worlds ``at``, kept to the worlds of a boolean
    ``mask`` over the worlds when one is given (a half for cross-fitting)."""
    if mask is not None:
        keep = mask[at] if len(at) else np.zeros(0, dtype=bool)
        values, at = values[keep], at[keep]
        floor = floor[keep] if floor is not None else None
    # increasing worlds 0 … n-1 are a prefix: combine's cheap case, no index to match
    prefix = len(at) == 0 or int(at[-1]) == len(at) - 1
    return PrefixTerm(values, weight, correction=correction, floor=floor,
                      worlds=None if prefix else at)


#: Φ on a grid of 1/1000 over ±8.5: the smoothing's weights by interpolation (error < 1e-7).
_PHI_X = np.linspace(-8.5, 8.5, 17001)
_PHI = np.array([0.5 * (1.0 + math.erf(x / math.sqrt(2.0))) for x in _PHI_X])


def _rounded_normal(mean: float, sd: float, top: int) -> np.ndarray:
    """P(k), k = 0 … top, of round(mean + sd·Z) clipped to [0, top], Z standard normal."""
    cuts = np.interp((np.arange(top) + 0.5 - mean) / sd, _PHI_X, _PHI, left=0.0, right=1.0)
    return np.diff(np.append(cuts, 1.0), prepend=0.0)


def _cell(value: Any) -> Any:
    """A card-point solve's result as the series keeps it: an int (known exactly) or
    the cell's proved bounds ``(lower, upper)``."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    lo, hi = value
    return (int(lo), int(hi))


def _grow(prefix: list, pending: dict, world: int, value: Any, kind: Callable, *,
          keep_late: bool = False) -> bool:
    """Add ``value`` of ``world`` to a prefix kept in index order (``pending``: values that
    arrived ahead of it); a None ends the prefix before its world.  Returns whether the
    prefix has ended (key -1 of ``pending`` marks it).  ``keep_late``: the values of the
    worlds after the end stay in ``pending`` (as ``kind`` of them), and later ones join
    them (:meth:`ContractSeries.exact_worlds`)."""
    if -1 in pending:
        if keep_late and value is not None:
            pending[world] = kind(value)
        return True
    pending[world] = value
    while len(prefix) in pending:
        v = pending.pop(len(prefix))
        if v is None:
            late = {w: kind(u) for w, u in pending.items() if u is not None} \
                if keep_late else {}
            pending.clear()
            pending.update(late)
            pending[-1] = None
            return True
        prefix.append(kind(v))
    return False


def birds_fit(eng: Engine, exact: ExactSolver, deadline: float) -> bool:
    """Can the contenders' game-point prefixes still reach :data:`~.cv.MIN_BIRD_WORLDS`
    worlds by the deadline, at this run's pace and with every solver thread on them?

    A net with silent birds needs that many (fewer give no honest SE), so game-point
    solves that cannot get there would end unused, and their time is the card points'
    (a 10-s run has ~20 thread-seconds; a game-point solve costs several card-point
    ones).  The pace is the run's own game-point solves, or before the first of them
    :data:`GAME_COST_PRIOR` card-point solves each.  The deadline only decides how far
    a prefix gets, as it does for the card points: world *j* stays world *j*."""
    per_card = (exact.seconds - exact.game_seconds) / exact.solves if exact.solves else 0.0
    per_game = exact.game_seconds / exact.game_solves if exact.game_solves \
        else GAME_COST_PRIOR * per_card
    need = sum(max(0, MIN_BIRD_WORLDS - s.games_planned) for s in eng.contenders(games=True))
    return need * per_game <= (deadline - time.time()) * exact.jobs


def run_engine(problem: Problem, settings: AdviceSettings, exact: ExactSolver, *,
               samples: int, deadline: float | None,
               progress: Callable[[str, int, int], None] | None = None) -> EngineResult:
    """Both phases within ``deadline``; Ctrl-C ends the current phase with what is done."""
    eng = Engine(problem, settings, game_points=exact.game_points)
    if deadline is not None:
        eng.birds_allowed = lambda: birds_fit(eng, exact, deadline)
    start = time.time()
    report = progress or (lambda phase, done, total: None)
    interrupted = False
    exact.start()
    if problem.given_talon is not None:
        eng.decide_given_talon()
    phase1_end = None
    if deadline is not None:
        phase1_end = start + settings.evaluator_share * (deadline - start)
    n = 0
    outstanding: list[tuple[Any, list[str], int, bool]] = []  # (handle, contracts, world, game)
    # Solves kept queued so the threads never wait for a decision; a constant, so which
    # worlds are solved does not depend on the number of threads.
    target = QUEUED_SOLVES

    def top_up() -> None:
        while len(outstanding) < target:
            nxt = eng.next_request()
            if nxt is None:
                return
            request, served, world = nxt
            outstanding.append((exact.submit([request], deadline), served, world,
                                isinstance(request, GameRequest)))

    def harvest(block: bool) -> None:
        """Apply the finished solves (all of them, waiting, when ``block``)."""
        keep = []
        for item in outstanding:
            handle, served, world, game = item
            if block or exact.ready(handle):
                (value,) = exact.collect(handle, deadline)
                for c in served:
                    eng.apply(c, world, value, game=game)
            else:
                keep.append(item)
        outstanding[:] = keep

    def evaluate_next() -> None:
        nonlocal n
        eng.evaluate_world(n)
        n += 1
        report("evaluator", n, samples)

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
                harvest(block=False)
                report("exact", sum(len(s.exact_worlds()) for s in eng.series.values()), 0)
                top_up()
                if not outstanding:
                    break
                if n < samples:
                    evaluate_next()  # the main thread works while the solver threads do
                else:
                    exact.wait_any([h for h, _, _, _ in outstanding], 0.05)
        except KeyboardInterrupt:
            interrupted = True
            n = eng.drop_partial_world()
    result = EngineResult(eng.series, n, t1 - start, time.time() - t1, exact, interrupted,
                          deadline_hit)
    result.contenders = [s.contract for s in eng.contenders()] if n >= 2 else []
    result.stopped = dict(eng.stopped)
    if eng.fixed:
        result.talon_decision = {c: {"group": ex.group_label, "discard": ex.discard_ids,
                                     **info} for c, (ex, _a, info) in eng.fixed.items()}
    return result
