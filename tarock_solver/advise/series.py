"""One contract over the worlds: :class:`ContractSeries`.

Per world the chosen exchange and announcement sets, the evaluator's value and
(on the worlds solved) the exact one; from them the per-world values of nets,
results and card points, their smoothed control variates, the silent birds,
and the control-variate terms and estimates (:mod:`.cv`) of each policy.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import round_points
from ..estimate.gamepoints import smoothing_weights
from ..solver import cell_start
from ..talon import Exchange
from .cv import MIN_EXACT, Estimate, PrefixTerm, bernoulli_variance, combine, masked_term
from .evaluate import PlayTask, Scorer
from .problem import ContractPlan

__all__ = ["SMOOTHING_SD", "SMOOTHING_WINDOW", "ContractSeries", "SeriesSet"]

#: The evaluator's card-point error within one hand as the smoothed control variate of
#: nets, results and announcement gains takes it (SD, card points): the pooled
#: within-hand residual SD on fixed worlds (3.08 over 6 hands × 25 worlds,
#: ``benchmarks/EXPERIMENTS.md``, "A one-trick lookahead over the evaluator" (2026-12-02);
#: the model card's held-out residual SD is 2.72).  Any value keeps the estimate
#: unbiased; this one makes the variate see the targets at risk.
SMOOTHING_SD = 3.0
#: Totals either side of the rounded estimate the smoothing scores (4 SD).
SMOOTHING_WINDOW = 12


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
    #: Per world, the game-point evaluator's value of the silent birds of plain play
    #: (:func:`~tarock_solver.estimate.gamepoints.game_point_parts`): the control
    #: variate of :meth:`birds`; filled when the run counts the birds.
    bird_estimates: list[float] = field(default_factory=list)
    #: The nets count the silent birds (the run makes game-point solves): every net of
    #: the table and the recommendation is ``net_birds`` (:meth:`terms`).
    count_birds: bool = False
    #: Per world, per policy (the bird options; 0 for the others): the game-point
    #: evaluator's net with the bird announced minus its net of plain play — the control
    #: variate of a bird option's gain (:meth:`gain_terms`) — its model variance (the
    #: gain's floor) and the bird model's P(the bird wins its trick).
    bird_gains: list[np.ndarray] = field(default_factory=list)
    bird_floors: list[np.ndarray] = field(default_factory=list)
    bird_p: list[np.ndarray] = field(default_factory=list)
    #: Per bird option: exact net game points with the bird announced, worlds 0 … m-1,
    #: and the bookkeeping of :attr:`games`.
    option_games: dict[int, list[float]] = field(default_factory=dict)
    option_planned: dict[int, int] = field(default_factory=dict)
    option_pending: dict[int, dict] = field(default_factory=dict)
    option_cut: dict[int, bool] = field(default_factory=dict)
    options_valued: list[int] = field(default_factory=list)  # exchanges valued per world
    _values: dict = field(default_factory=dict, repr=False)  # memo of values()
    #: Per world, every chosen announcement set's smoothed net and P(made) (smoothed).
    _smoothed: list[np.ndarray] = field(default_factory=list, repr=False)

    #: The contract's own series when this one is a plan that keeps a before-talon
    #: "no ..." (:class:`~.problem.ContractPlan`): gains are over its plain play.
    base: ContractSeries | None = None
    #: The defenders' contras on plain play's game (a :class:`~.contras.ContraPolicy`;
    #: None: not modelled) and the level they reach on each world.
    contra: Any = None
    contra_levels: list[int] = field(default_factory=list)

    @property
    def contract(self) -> str:
        return self.plan.contract

    @property
    def key(self) -> str:
        return self.plan.key

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
        one slow world (``benchmarks/EXPERIMENTS.md``, "Under a deadline: every finished
        solve, not only the prefix" (2026-12-03))."""
        late = self._late()
        head = np.arange(len(self.exact), dtype=np.int64)
        return np.concatenate([head, np.array(late, dtype=np.int64)]) if late else head

    def _late(self) -> list[int]:
        """The finished worlds after the cut prefix, in order."""
        if not self.cut:
            return []
        return sorted(w for w, v in self.pending.items() if w >= 0 and v is not None)

    def contra_terms(self, weight: float = 1.0, worlds: np.ndarray | None = None
                     ) -> list[PrefixTerm]:
        """The control-variate terms of what the defenders' contras change in plain play's
        net (0 on a world without one): the change at the evaluator's rounded estimate on
        every world, the exact change (:meth:`values`' cell middle on its piece) minus it
        on the exact worlds."""
        n = len(self.contra_levels)

        def at_estimate(j: int) -> float:
            task, lv = self.tasks[j], self.contra_levels[j]
            pts = int(round(float(self.estimates[j])))
            return self.contra.delta(task.pile_thirds + 3 * pts, 3 * pts == task.in_play_thirds,
                                     lv)

        def exact(j: int) -> float:
            lv = self.contra_levels[j]
            if lv == 0:
                return 0.0
            return (self._exact_value(j, 0, "net", self.contra.scorer(lv))
                    - self._exact_value(j, 0, "net", self.contra.scorer(0)))

        g = self._grown(("contra", "estimate"), n, at_estimate)
        at = self.exact_worlds()
        at = at[at < n]
        x = np.array([exact(int(j)) for j in at])
        return [masked_term(g, np.arange(n), worlds, weight),
                masked_term(x - g[at], at, worlds, weight, correction=True)]

    def _exact_value(self, j: int, policy: int, what: str, scorer: Scorer | None = None
                     ) -> float:
        """An exact world's value (see :meth:`values`); ``scorer`` (plain play's, one set)
        scores it instead of the series' own."""
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
        top = task.in_play_points
        sc = scorer if scorer is not None else self.scorer
        if scorer is not None:
            s = 0  # its one set
        o = sc.outcome(task, task.pile_thirds + 3 * first, first == top)
        if what == "made":
            return float(o.made[s])
        if last == first:
            return float(o.net[s])
        o2 = sc.outcome(task, task.pile_thirds + 3 * (first + 1), first + 1 == top)
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
            top = task.in_play_points
            e = float(self.estimates[j])
            # the totals within 4 SD carry all but 1e-4 of the weight: the rest is
            # moved onto the window's ends (still a function of the estimate alone)
            lo, hi, w_in = smoothing_weights(e, SMOOTHING_SD, top, SMOOTHING_WINDOW)
            r = int(np.clip(round(e), 0, top))
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

        ``net_birds`` is the net plus the silent birds of plain play (:meth:`birds`),
        with the game-point evaluator's value of them on every world as their control
        variate (:attr:`bird_estimates`): for an announcement the birds are those of
        plain play, i.e. the announcement is taken not to change which birds are won."""
        if self._is_bird(policy) and what in ("net", "net_birds"):
            # plain play's net and the announcement's paired gain over it
            return self.terms(0, what, weight, worlds) + self._bird_gain_terms(
                policy, worlds, weight)
        if what == "net_birds":
            b = self.birds()
            at = np.arange(len(b))
            bh = np.asarray(self.bird_estimates, dtype=np.float64)
            return self.terms(policy, "net", weight, worlds) + [
                masked_term(bh, np.arange(len(bh)), worlds, weight),
                masked_term(b - bh[:len(b)], at, worlds, weight, correction=True)]
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
        return [masked_term(g, np.arange(len(g)), worlds, weight),
                masked_term(x - g[at], at, worlds, weight, correction=True, floor=floor)]

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
        if self._is_bird(policy):
            return self._bird_gain_terms(policy, worlds)
        if self.base is not None:
            # over the contract's plain play (its own exchange): paired by world
            return self.terms(policy, "net", 1.0, worlds) + self.base.terms(0, "net", -1.0,
                                                                            worlds)
        g = self.smoothed(policy, "net") - self.smoothed(0, "net")
        x = self.values(policy, "net", exact=True) - self.values(0, "net", exact=True)
        at = self.exact_worlds()
        floor = self.smoothed(policy, "gain_variance")[at]
        return [masked_term(g, np.arange(len(g)), worlds),
                masked_term(x - g[at], at, worlds, correction=True, floor=floor)]

    def _is_bird(self, policy: int) -> bool:
        return self.plan.policies[policy].bird is not None

    def option_exact(self, policy: int) -> np.ndarray:
        """Per world of both game-point prefixes: a bird option's exact net minus plain
        play's (both with every bird as the score sheet counts it)."""
        mine = self.option_games.get(policy, [])
        m = min(len(self.games), len(mine))
        return np.asarray(mine[:m], dtype=np.float64) - np.asarray(self.games[:m])

    def _bird_gain_terms(self, policy: int, worlds: np.ndarray | None = None,
                         weight: float = 1.0) -> list[PrefixTerm]:
        """The control-variate terms of a bird option's gain over plain play: the
        game-point evaluator's gain on every world, exact − evaluator on the worlds both
        have game-point solves, the residuals' variance floored by the bird model's
        (a prefix that saw no swing of the bird would otherwise claim certainty)."""
        g = self.bird_values(policy, "gain")
        x = self.option_exact(policy)
        at = np.arange(len(x))
        floor = self.bird_values(policy, "floor")[:len(x)]
        return [masked_term(g, np.arange(len(g)), worlds, weight),
                masked_term(x - g[:len(x)], at, worlds, weight, correction=True, floor=floor)]

    def bird_values(self, policy: int, what: str) -> np.ndarray:
        """Per world, a bird option's ``gain`` (:attr:`bird_gains`), ``floor``
        (:attr:`bird_floors`) or ``won`` (:attr:`bird_p`); memoised as :meth:`values`."""
        source = {"gain": self.bird_gains, "floor": self.bird_floors, "won": self.bird_p}[what]
        return self._grown((policy, what, "bird"), len(source), lambda j: source[j][policy])

    def bird_won(self, policy: int) -> float:
        """The bird model's mean P(the option's bird wins its trick) over the worlds
        (an evaluator figure: the game-point solves give nets, not the bird's trick)."""
        if not self.bird_p:
            return math.nan
        return float(self.bird_values(policy, "won").mean())

    def estimate(self, policy: int, what: str) -> Estimate:
        """The control-variate estimate; with fewer than ``MIN_EXACT`` exact worlds the
        evaluator's mean with its correction shrunk, no SE (see :mod:`~.cv`)."""
        return combine(self.terms(policy, what), min_prefix=MIN_EXACT)

    def record(self, world: int, value: Any, *, game: bool = False, policy: int = 0) -> None:
        """Record an exact value (``game``: a game-point net, of plain play or of the bird
        option ``policy``); the prefix grows over every world now known in order, and
        ends at the first world whose solve the deadline cut short (card points: the
        worlds finished after it stay usable)."""
        if game and policy:
            self.option_cut[policy] = _grow(self.option_games.setdefault(policy, []),
                                            self.option_pending.setdefault(policy, {}),
                                            world, value, float)
        elif game:
            self.games_cut = _grow(self.games, self.games_pending, world, value, float)
        else:
            self.cut = _grow(self.exact, self.pending, world, value, _cell, keep_late=True)


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


class SeriesSet(dict[str, ContractSeries]):
    """A run's contract series by key, and ``passing``: what passing is worth
    (a :class:`~.passing.PassSeries`; None: passing is worth 0, nobody scores), and
    ``senior_three``: what passing over a senior's Three is worth (None: as ``passing``)."""

    passing: Any = None
    senior_three: Any = None
