"""A solver with node budgets: searches that give up instead of running for hours.

Whole-deal searches can take from milliseconds to many minutes, and a table or a
benchmark must not hang on one monster position.  The kernel supports a node cap
(``stats[ST_LIMIT]``; an over-budget search sets ``stats[ST_ABORTED]`` and stores
nothing, so the transposition table stays valid), but the public :class:`Solver`
resets its counters on every call and offers no cap.  :class:`BudgetSolver` is the
thin wrapper that adds one: it validates positions with the public
:func:`~tarock_solver.solver.api.prepare`, runs the kernel drivers on the wrapped
solver's table and reports ``None`` when a search ran out of nodes.

Kernel entry points used (keep in step with :mod:`tarock_solver.solver.kernel`):
``solve_exact(hands, leader, tcards, ntrick, declarer, birds, tt, stats)``,
``solve_target(…, birds, target, tt, stats)``, ``NSTATS``, ``ST_NODES``,
``ST_LIMIT`` and ``ST_ABORTED``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ..cards import bit, indices_of
from ..play import legal_moves, reserved_mask, trick_points, trick_winner
from ..solver import Solver
from ..solver._kernels import cardpoint as kernel
from ..solver._kernels.play import BIRD_KAKADU, BIRD_PAGAT, BIRD_UHU
from ..solver.api import prepare

__all__ = ["BudgetSolver"]

_N_TRICKS = 16
_BIRD_FLAGS = (("pagat", BIRD_PAGAT), ("uhu", BIRD_UHU),
               ("kakadu", BIRD_KAKADU))


class BudgetSolver:
    """Exact values, null-window tests and per-card values with an optional node budget.

    All searches share the transposition table of ``solver`` (a new
    :class:`~tarock_solver.solver.Solver` by default), so related positions reuse each
    other's work exactly as with the plain solver.  ``node_limit`` (a positive int, or
    None for no limit) caps the nodes of one call; when a call needs more, it returns
    None and :attr:`last_aborted` is True.  Totals over all calls are kept in
    :attr:`nodes`, :attr:`seconds`, :attr:`searches` and :attr:`aborted`.  Not safe for
    concurrent use from several threads (one table, one set of counters).
    """

    def __init__(self, solver: Solver | None = None, *, tt_bits: int | None = None) -> None:
        self.solver = solver if solver is not None else Solver(tt_bits)
        self._counters = np.zeros(kernel.NSTATS, dtype=np.int64)
        self.nodes = 0
        self.seconds = 0.0
        self.searches = 0
        self.aborted = 0
        self.last_nodes = 0
        self.last_seconds = 0.0
        self.last_aborted = False

    # ------------------------------------------------------------------ plumbing

    def clear(self) -> None:
        """Empty the transposition table (for timing cold searches; never needed otherwise)."""
        self.solver.clear()

    def _call(self, fn: Callable[..., Any], prepared: Any, extra: tuple[Any, ...],
              node_limit: int | None) -> tuple[Any, bool]:
        counters = self._counters
        counters.fill(0)
        if node_limit is not None:
            limit = int(node_limit)
            if limit < 1:
                raise ValueError(f"node_limit must be a positive number of nodes, not {node_limit}")
            counters[kernel.ST_LIMIT] = limit
        t0 = time.perf_counter()
        result = fn(prepared.hands, prepared.leader, prepared.tcards, prepared.ntrick,
                    prepared.declarer, prepared.birds, *extra, self.solver.tt, counters)
        dt = time.perf_counter() - t0
        aborted = bool(counters[kernel.ST_ABORTED])
        self.last_nodes = int(counters[kernel.ST_NODES])
        self.last_seconds = dt
        self.last_aborted = aborted
        self.nodes += self.last_nodes
        self.seconds += dt
        self.searches += 1
        self.aborted += int(aborted)
        return result, aborted

    # ------------------------------------------------------------------ searches

    def value(self, hands: Sequence[int], leader: int, declarer: int, *,
              trick: Sequence[int] = (), restrictions: Iterable[str] | None = None,
              node_limit: int | None = None) -> int | None:
        """The declarer's exact future card points, or None if ``node_limit`` was hit."""
        p = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions)
        result, aborted = self._call(kernel.solve_exact, p, (), node_limit)
        return None if aborted else int(result)

    def reaches(self, hands: Sequence[int], leader: int, declarer: int, target: int, *,
                trick: Sequence[int] = (), restrictions: Iterable[str] | None = None,
                node_limit: int | None = None) -> bool | None:
        """Does the declarer take at least ``target`` future points?  None if over budget."""
        p = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions)
        result, aborted = self._call(kernel.solve_target, p, (int(target),), node_limit)
        return None if aborted else bool(result)

    def card_values(self, hands: Sequence[int], leader: int, declarer: int, *,
                    trick: Sequence[int] = (), restrictions: Iterable[str] | None = None,
                    node_limit: int | None = None) -> dict[int, int] | None:
        """Exact value of every legal card of the player to move (card -> declarer's
        future points, the current trick included), or None if the budget ran out.

        Without a budget this is :meth:`Solver.card_values`.  With one, each card is
        solved as its own child position against what is left of the budget (the
        kernel's per-card driver cannot stop part-way through its list of cards).
        """
        if node_limit is None:
            t0 = time.perf_counter()
            values = self.solver.card_values(hands, leader, declarer, trick=trick,
                                             restrictions=restrictions)
            self.last_seconds = time.perf_counter() - t0
            self.last_nodes = self.solver.last_nodes
            self.last_aborted = False
            self.nodes += self.last_nodes
            self.seconds += self.last_seconds
            self.searches += 1
            return values
        p = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions)
        masks = [int(h) for h in p.hands]
        played = [int(c) for c in p.tcards[:p.ntrick]]
        birds = tuple(name for name, flag in _BIRD_FLAGS if p.birds & flag)
        mover = (p.leader + len(played)) % 3
        cards_of_leader = masks[p.leader].bit_count() + (1 if played else 0)
        trick_no = _N_TRICKS + 1 - cards_of_leader
        reserved = reserved_mask(birds, trick_no) if mover == p.declarer and birds else 0
        legal = legal_moves(masks[mover], played[0] if played else None, reserved)
        left = int(node_limit)
        spent = 0
        spent_seconds = 0.0
        out: dict[int, int] = {}
        for card in indices_of(legal):
            child = list(masks)
            child[mover] &= ~bit(card)
            cards = played + [card]
            gained = 0
            next_leader = p.leader
            if len(cards) == 3:
                next_leader = trick_winner(cards, p.leader)
                gained = trick_points(cards) if next_leader == p.declarer else 0
                cards = []
            if not any(child):
                out[card] = gained
                continue
            if left <= 0:
                self.last_nodes, self.last_seconds, self.last_aborted = spent, spent_seconds, True
                return None
            v = self.value(child, next_leader, p.declarer, trick=cards, restrictions=birds,
                           node_limit=left)
            spent += self.last_nodes
            spent_seconds += self.last_seconds
            left -= self.last_nodes
            if v is None:
                self.last_nodes, self.last_seconds, self.last_aborted = spent, spent_seconds, True
                return None
            out[card] = gained + v
        self.last_nodes, self.last_seconds, self.last_aborted = spent, spent_seconds, False
        return out
