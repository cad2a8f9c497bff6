"""The card-point search: the declarer's double-dummy card points of a position.

The value of a position is the card points (nominal sum − 2 per trick) the declarer
takes from here on, the current trick included; he maximises it, the two defenders
minimise it.  Exact values come from MTD(f): null-window tests of the kernel's
fail-soft alpha-beta that share one transposition table.  A :class:`CardPointSearch`
owns that table; it stays valid across calls (entries are keyed on the complete
position, declarer and birds included), so related searches — the discards of one
talon, the worlds of one sample — share work by using one search object.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import numpy as np

from ..errors import RulesError
from ._kernels import cardpoint as kernel
from ._kernels import mtd
from ._kernels.stats import (
    ST_ABORTED,
    ST_DEADLINE,
    ST_NODES,
    ST_QB_CUTS,
    ST_TT_CUTS,
    ST_TT_HITS,
    arm,
    new_stats,
)
from ._kernels.table import new_table
from .budget import Budget
from .position import Position
from .result import SearchResult, SearchStats

__all__ = ["DEFAULT_TT_BITS", "CardPointSearch", "cell_start", "check_tt_bits",
           "default_search", "kernels_cached", "remaining_points", "solve_cards",
           "solve_position"]

#: Default table size: 2**21 rows of 64 bytes (128 MiB: 2**22 rank-only entries, or
#: 2**22 exact-key ones when birds are announced).  Measured on full deals: 2**22 rows
#: save ~15% of the time of 2**20; small positions need far less.
DEFAULT_TT_BITS = 21
MIN_TT_BITS, MAX_TT_BITS = 8, 28

def check_tt_bits(tt_bits: int | None, default: int = DEFAULT_TT_BITS) -> int:
    """The table size in bits (``default`` for None); RulesError when out of range."""
    if tt_bits is None:
        return default
    bits = int(tt_bits)
    if bits != tt_bits or not MIN_TT_BITS <= bits <= MAX_TT_BITS:
        raise RulesError(f"tt_bits {tt_bits} is out of range; expected {MIN_TT_BITS}..{MAX_TT_BITS}")
    return bits


def cell_start(y: int, width: int, offset: int) -> int:
    """The start of the cell of the grid ``offset + k·width`` that holds ``y``: the
    kernel's :func:`._kernels.mtd.cell_start`, run as plain Python (nothing to compile)."""
    return mtd.cell_start.py_func(y, width, offset)


def remaining_points(position: Position) -> int:
    """Card points still to be won: the upper limit of every value."""
    hands, _, tcards, ntrick, _, _ = position.kernel_args()
    return int(kernel.remaining_points(hands, ntrick, tcards))


class CardPointSearch:
    """Exact values, bounds under a budget, make tests and per-card values of positions.

    One transposition table of ``2**tt_bits`` rows, shared by every call.  Every
    method takes a :class:`~.position.Position` and an optional
    :class:`~.budget.Budget` for the whole call, and returns
    :class:`~.result.SearchResult` values (exact, or the bounds proved when the
    budget ran out; an aborted search stores nothing, so the table stays sound).
    Not safe for concurrent use from several threads.
    """

    def __init__(self, tt_bits: int | None = None) -> None:
        self.tt_bits = check_tt_bits(tt_bits)
        self.tt = new_table(self.tt_bits, kernel.TT_COLUMNS)
        self.stats = SearchStats()
        self._counters = new_stats()
        self._t0 = 0.0

    def clear(self) -> None:
        """Empty the transposition table (never needed for correctness)."""
        self.tt.fill(0)

    def interrupt(self) -> None:
        """Make a search in progress on another thread give up at its next clock check
        (within a few thousand nodes), as if its seconds budget had run out; a search
        without a seconds budget, or one that starts later, is not affected."""
        if self._counters[ST_DEADLINE] > 0:
            self._counters[ST_DEADLINE] = 1

    # ------------------------------------------------------------------ plumbing

    def _begin(self, budget: Budget | None) -> None:
        budget = Budget.of(budget)
        arm(self._counters, budget.nodes, budget.seconds)
        self._t0 = time.perf_counter()

    def _end(self, lower: int, upper: int, tests: int, aborted: bool) -> SearchResult:
        c = self._counters
        dt = time.perf_counter() - self._t0
        st = self.stats
        st.nodes += int(c[ST_NODES])
        st.tt_hits += int(c[ST_TT_HITS])
        st.tt_cutoffs += int(c[ST_TT_CUTS])
        st.bound_cutoffs += int(c[ST_QB_CUTS])
        st.searches += 1
        st.aborted += int(aborted)
        st.seconds += dt
        return SearchResult(lower, upper, int(c[ST_NODES]), dt, tests)

    # ------------------------------------------------------------------ searches

    def value(self, position: Position, budget: Budget | None = None, *,
              guess: int | None = None, first_test: int | None = None) -> SearchResult:
        """The declarer's future card points, or the bounds proved within ``budget``.

        MTD(f) starts at ``guess`` (a sibling's value saves tests); ``first_test``
        runs one null-window test there first (a make threshold: the answer that
        matters most is then known even if the budget runs out).
        """
        self._begin(budget)
        bounds = np.zeros(2, dtype=np.int64)
        tests = mtd.mtd_bounds(*position.kernel_args(), -1 if guess is None else int(guess),
                               -1 if first_test is None else int(first_test), 1, 0,
                               mtd.NO_THRESHOLDS, self.tt, self._counters, bounds)
        return self._end(int(bounds[0]), int(bounds[1]), int(tests),
                         bool(self._counters[ST_ABORTED]))

    def cell(self, position: Position, width: int, offset: int,
             thresholds: Sequence[int] = (), budget: Budget | None = None, *,
             guess: int | None = None) -> tuple[SearchResult, bool]:
        """Bounds on the declarer's future card points that lie in one cell
        ``[offset + k·width, offset + (k+1)·width)`` of a grid and on one side of every
        threshold ``t`` (whether the value is ``>= t`` is known), and whether they were
        proved in full (False: the budget ran out first; the bounds are then what the
        finished tests proved).

        Cheaper than :meth:`value` (most tests are away from the value, where the proofs
        are small), and enough for an unbiased estimate: with the offset drawn uniformly
        from ``0 … width-1`` independently of the position, the middle of the cell,
        ``start + (width-1)/2``, has expectation the exact value (the value's distance
        from its cell's start is then uniform).  Width 1 is :meth:`value`.
        """
        width, offset = int(width), int(offset)
        if width < 1:
            raise ValueError(f"a cell's width is at least 1, not {width}")
        self._begin(budget)
        bounds = np.zeros(2, dtype=np.int64)
        ts = np.array(sorted({int(t) for t in thresholds}), dtype=np.int64)
        tests = mtd.mtd_bounds(*position.kernel_args(), -1 if guess is None else int(guess),
                               -1, width, offset % width, ts, self.tt, self._counters, bounds)
        aborted = bool(self._counters[ST_ABORTED])
        return self._end(int(bounds[0]), int(bounds[1]), int(tests), aborted), not aborted

    def value_full_window(self, position: Position) -> SearchResult:
        """The exact value by one full-window search (a cross-check of :meth:`value`)."""
        self._begin(None)
        upper = remaining_points(position)
        v = int(kernel.search(*position.kernel_args(), -1, upper + 1, self.tt, self._counters))
        return self._end(v, v, 1, False)

    def reaches(self, position: Position, target: int, budget: Budget | None = None,
                ) -> SearchResult:
        """One null-window test: does the declarer take at least ``target`` points?

        The answer is ``result.at_least(target)`` (None if the budget ran out); the
        result's bounds are what the fail-soft test proved.
        """
        self._begin(budget)
        args = position.kernel_args()
        lower, upper = 0, int(kernel.remaining_points(args[0], args[3], args[2]))
        target = int(target)
        g = int(kernel.search(*args, target - 1, target, self.tt, self._counters))
        if self._counters[ST_ABORTED]:
            return self._end(lower, upper, 1, True)
        if g < target:
            upper = max(lower, min(upper, g))
        else:
            lower = min(upper, max(lower, g))
        return self._end(lower, upper, 1, False)

    def card_values(self, position: Position, budget: Budget | None = None,
                    ) -> dict[int, SearchResult]:
        """The value of every legal card of the player to move (card index -> result).

        The value of a card is the declarer's future points, the current trick
        included, after that card is played and best play follows.  Equivalent cards
        (same group and value, adjacent among the cards in play) are searched once;
        each card's search starts from the previous card's value.  ``budget`` covers
        all cards together; cards not reached get the trivial bounds.
        """
        self._begin(budget)
        lows = np.empty(54, dtype=np.int64)
        ups = np.empty(54, dtype=np.int64)
        tests = mtd.card_bounds(*position.kernel_args(), self.tt, self._counters, lows, ups)
        out = {int(c): SearchResult(int(lows[c]), int(ups[c]))
               for c in np.flatnonzero(lows >= 0)}
        best = max if position.mover == position.declarer else min
        self._end(best(r.lower for r in out.values()), best(r.upper for r in out.values()),
                  int(tests), bool(self._counters[ST_ABORTED]))
        return out


_default: dict[int, CardPointSearch] = {}


def kernels_cached() -> bool:
    """Does numba's cache hold the compiled card-point driver for the current source?

    (False on a fresh install: the first search compiles for a minute or two.)
    """
    try:
        return bool(mtd.mtd_bounds._cache._cache_file._load_index())
    except Exception:  # a numba without this (private) layout: assume a compile is due
        return False


def default_search(tt_bits: int | None = None) -> CardPointSearch:
    """The process-wide search for ``tt_bits`` (created on first use, then reused)."""
    bits = check_tt_bits(tt_bits)
    if bits not in _default:
        _default[bits] = CardPointSearch(bits)
    return _default[bits]


def solve_position(hands: Sequence[int], leader: int, declarer: int, *,
                   target: int | None = None, birds: Iterable[str] | None = (),
                   trick: Sequence[int] = (), tt_bits: int | None = None,
                   search: CardPointSearch | None = None) -> int | bool:
    """The declarer's exact future card points of one position, or with ``target``: does he
    take at least ``target``?  ``search`` (else a process-wide one) supplies the table."""
    s = search if search is not None else default_search(tt_bits)
    pos = Position(hands, leader, declarer, trick=trick, birds=birds)
    if target is None:
        return s.value(pos).value
    answer = s.reaches(pos, int(target)).at_least(int(target))
    assert answer is not None  # no budget: the test always decides
    return answer


def solve_cards(hands: Sequence[int], leader: int, declarer: int, *,
                birds: Iterable[str] | None = (), trick: Sequence[int] = (),
                tt_bits: int | None = None,
                search: CardPointSearch | None = None) -> dict[int, int]:
    """The exact value of each legal card of the player to move (card -> declarer's points).

    The best card for the mover is the max (declarer) or min (defender) of the values.
    """
    s = search if search is not None else default_search(tt_bits)
    pos = Position(hands, leader, declarer, trick=trick, birds=birds)
    return {c: r.value for c, r in s.card_values(pos).items()}
