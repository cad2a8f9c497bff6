"""Scoring a play result: the declarer's card points → net game points per announcement set.

:class:`PlayTask` is one position at the start of play (the three hands after
the exchange, forehand leading trick 1, RULES.md 3) with what the scoring needs
besides the card points: the declarer's discard and dealt hand.
:class:`Scorer` turns card points in thirds into the net game points of every
announcement set of one contract through the scoring calculator, with a cache,
because the same (thirds, holdings) recur across worlds and exchanges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..cards import KINGS_MASK, TRULL_MASK, thirds_of
from ..errors import RulesError
from ..scoring import hand_class
from .announcements import AnnSet, eligible_after


def holding_class(hand: int) -> tuple[int, bool]:
    """What the scoring sees of a defender's hand when no bird is scored: his Trull cards
    (3 = Trull, 2 = Köpfe) and whether he holds all four Kings (RULES.md 5.5)."""
    return (hand & TRULL_MASK).bit_count(), hand & KINGS_MASK == KINGS_MASK


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
    def dealt_hands(self) -> tuple[int, int, int]:
        """The three hands as dealt: the declarer's before the exchange, the defenders'
        (who exchange nothing) as they start play."""
        h = list(self.hands)
        h[self.declarer] = self.dealt
        return h[0], h[1], h[2]

    @cached_property  # asked per world and option many times; thirds_of costs ~0.1 ms
    def in_play_thirds(self) -> int:
        """Thirds of all 48 cards in play: what the declarer takes by winning every trick."""
        return thirds_of(self.hands[0] | self.hands[1] | self.hands[2])

    @property
    def in_play_points(self) -> int:
        """The most future card points of the declarer (whole points of
        :attr:`in_play_thirds`): the top of every range of totals."""
        return self.in_play_thirds // 3


@dataclass
class Outcome:
    """A world's result for every announcement set of one contract (arrays by set index)."""

    thirds: np.ndarray  # int, declarer's card points in thirds
    valat: np.ndarray  # bool, the declarer took all 16 tricks
    made: np.ndarray  # bool, the game item (or the target replacing it) succeeded
    net: np.ndarray  # float, declarer's zero-sum net game points; NaN: set impossible here


ScoreFn = Callable[[str, int, AnnSet, int, bool, int, int, tuple[int, int]], tuple[float, bool]]


class Scorer:
    """Net game points of every announcement set of one contract, for a card-point result.

    ``score_fn(contract, declarer, annset, thirds, valat, dealt, hand_after,
    defenders)`` returns ``(net_declarer, made)``; :func:`calculator_score_fn`
    builds it from the project's scoring calculator.  Results are cached on the
    quantities the score depends on when no bird is scored: the thirds, Valat, the
    declarer's :func:`~tarock_solver.scoring.hand_class` as dealt and after the exchange, and each
    defender's :func:`holding_class`.
    """

    def __init__(self, contract: str, declarer: int, annsets: Sequence[AnnSet],
                 score_fn: ScoreFn) -> None:
        self.contract = contract
        self.declarer = declarer
        self.annsets = list(annsets)
        self.score_fn = score_fn
        self._cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._thresholds: dict[tuple[int, int], int | None] = {}
        self._pieces: dict[tuple, tuple[int, ...]] = {}

    def make_threshold(self, task: PlayTask) -> int | None:
        """Fewest future trick points with which plain play makes the game (None: never).

        Found by bisection on the scorer itself (the game result is monotone in
        the points), so it follows every profile's threshold and the discard.
        """
        total = task.in_play_points
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

    def outcome(self, task: PlayTask, thirds: int, valat: bool,
                sets: Sequence[int] | None = None) -> Outcome:
        """The outcome of every announcement set (or only of the indices ``sets``; the
        others are then NaN / not made)."""
        nets, made, done = self._scored(task, self._holdings(task), thirds, valat, sets)
        n = len(self.annsets)
        if sets is not None and not all(done):
            nets, made = nets.copy(), made.copy()
            for i in range(n):
                if not done[i]:
                    nets[i], made[i] = np.nan, False
        return Outcome(thirds=np.full(n, thirds), valat=np.full(n, valat), made=made,
                       net=nets)

    def net_curve(self, task: PlayTask, lo: int, hi: int, sets: Sequence[int]
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The nets and made flags of the announcement sets ``sets`` (columns, in that
        order) for each future card-point total ``lo`` … ``hi`` (rows; taking all in play
        is Valat).

        Scored where the curve is not straight: an interval whose ends have the same
        result (made or not) and whose midpoint lies on the line between them is
        filled by that line (and that result), others are halved.  A net that is linear
        in the points between thresholds (the over- and under-points of every profile)
        comes out exact with a handful of scores instead of one per total; where a
        profile's is not, the curve is still a function of the totals alone."""
        holdings = self._holdings(task)
        top = task.in_play_points
        nets = np.empty((hi - lo + 1, len(sets)))
        made = np.zeros((hi - lo + 1, len(sets)), dtype=bool)
        cache, pile = self._cache, task.pile_thirds
        for c, s in enumerate(sets):
            def at(k: int, s: int = s) -> tuple[float, bool]:
                hit = cache.get((pile + 3 * k, k == top, *holdings))
                if hit is None or not hit[2][s]:  # not scored yet (the rest is a lookup)
                    hit = self._scored(task, holdings, pile + 3 * k, k == top, (s,))
                return float(hit[0][s]), bool(hit[1][s])

            end = hi
            if hi == top:  # Valat is scored apart, never on a line with the rest
                nets[hi - lo, c], made[hi - lo, c] = at(hi)
                end = hi - 1
            stack = [(lo, end)] if end >= lo else []
            while stack:
                a, b = stack.pop()
                (fa, ma), (fb, mb) = at(a), at(b)
                if b - a <= 1:
                    nets[a - lo, c], made[a - lo, c] = fa, ma
                    nets[b - lo, c], made[b - lo, c] = fb, mb
                    continue
                m = (a + b) // 2
                fm = at(m)[0]
                line = fa + (fb - fa) * (m - a) / (b - a)
                if ma == mb and abs(fm - line) <= 1e-9 * max(1.0, abs(line)):
                    ks = np.arange(a, b + 1)
                    nets[a - lo:b - lo + 1, c] = fa + (fb - fa) * (ks - a) / (b - a)
                    made[a - lo:b - lo + 1, c] = ma
                else:
                    stack += [(a, m), (m, b)]
        return nets, made

    def piece_starts(self, task: PlayTask, sets: Sequence[int]) -> tuple[int, ...]:
        """The future card-point totals at which a new affine piece of the nets of the
        announcement sets ``sets`` begins (0 first; taking all in play, Valat, always
        one): between two starts every set's net is affine in the points and its result
        (made or not) constant.  A cell estimate (:meth:`.CardPointSearch.cell`) that
        knows which piece holds the value can then score it without knowing the value."""
        top = task.in_play_points
        key = ("pieces", task.pile_thirds, top, *self._holdings(task), *sorted(set(sets)))
        hit = self._pieces.get(key)
        if hit is not None:
            return hit
        nets, made = self.net_curve(task, 0, top, sorted(set(sets)))
        starts = {0, top}
        gap = np.isnan(nets)
        for k in range(1, top + 1):
            if (made[k] != made[k - 1]).any() or (gap[k] != gap[k - 1]).any():
                starts.add(k)
        for k in range(2, top + 1):
            # a kink at k - 1: the piece that ends there is affine, the next starts at k
            d1, d0 = nets[k] - nets[k - 1], nets[k - 1] - nets[k - 2]
            bend = ~(gap[k] | gap[k - 1] | gap[k - 2]) & (np.abs(d1 - d0) > 1e-9)
            if bend.any() and k not in starts and k - 1 not in starts:
                starts.add(k)
        out = tuple(sorted(starts))
        self._pieces[key] = out
        return out

    def _holdings(self, task: PlayTask) -> tuple:
        """What the score depends on besides the points (the cache key's rest)."""
        d = self.declarer
        return (hand_class(task.dealt), hand_class(task.hands[d]),
                holding_class(task.hands[(d + 1) % 3]), holding_class(task.hands[(d + 2) % 3]))

    def _scored(self, task: PlayTask, holdings: tuple, thirds: int, valat: bool,
                sets: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cache entry (nets, made, scored) of a result, with ``sets`` (None: all)
        scored."""
        d = self.declarer
        defenders = (task.hands[(d + 1) % 3], task.hands[(d + 2) % 3])
        hand_after = task.hands[d]
        key = (thirds, valat, *holdings)
        n = len(self.annsets)
        hit = self._cache.get(key)
        if hit is None:
            hit = (np.full(n, np.nan), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool))
            self._cache[key] = hit
        nets, made, done = hit
        for i in (range(n) if sets is None else sets):
            if done[i]:
                continue
            done[i] = True
            annset = self.annsets[i]
            if not eligible_after(annset, hand_after):
                continue  # not announceable after this exchange: NaN, never chosen
            try:
                nets[i], made[i] = self.score_fn(self.contract, d, annset, thirds, valat,
                                                 task.dealt, hand_after, defenders)
            except RulesError:
                # An impossible scenario for this exchange, e.g. after-talon items
                # when a broken before-talon "no ..." ended the game at the talon.
                nets[i], made[i] = np.nan, False
        return hit
