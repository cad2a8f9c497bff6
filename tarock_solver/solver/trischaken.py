"""The Trischaken search: the fewest card points one seat can be held to.

Trischaken (RULES.md 8) has no declarer: each player tries to take as few card
points as possible, so a deal is a three-player game that is not zero-sum and has no
single double-dummy value.  What is computed here is the **paranoid value** of a seat
S: the card points S takes from the position on (the current trick included) when S
minimises them and the two others play together to give S the most.  It is what S
can guarantee himself, whatever the others do — a worst case for S, not a prediction
of a line that all three would follow.  The three seats' values are three separate
worst cases (each against a different coalition); they usually add up to more than
the points in play.

A :class:`TrischakenSearch` owns one transposition table, valid across calls (its
entries are keyed on the seat, the mover and the rule options too); values come from
MTD(f) over null-window tests of :mod:`._kernels.trischaken`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..cards import CARD_IDS, SEAT_NAMES, bit
from ..errors import RulesError
from ..play import trischaken_moves
from ..rules import Rules
from ._kernels import trischaken as kernel
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
from .cardpoints import check_tt_bits
from .position import Position
from .result import SearchResult, SearchStats

__all__ = ["TRISCHAKEN_TT_BITS", "TrischakenSearch", "solve_trischaken", "trischaken_kernels_cached",
           "trischaken_position", "trischaken_rule_bits", "trischaken_values"]

#: Default table size: 2**20 lines of two entries (64 MiB); small positions need far less.
TRISCHAKEN_TT_BITS = 20


def trischaken_rule_bits(rules: Rules) -> int:
    """The kernel's rule bits of a profile that plays Trischaken; RulesError otherwise.

    The profile must play Trischaken when all pass (``all_pass=trischaken``) with
    the talon unused (``trischaken_talon=unused``: the other talon rules give its
    cards to trick winners, which this search does not model).
    """
    if rules.all_pass != "trischaken" or rules.trischaken_must_beat is None \
            or rules.trischaken_pagat_last is None:
        raise RulesError(
            f"the {rules.name} profile has no Trischaken (all_pass={rules.all_pass}); "
            "use the dummett profile, or set --opt all_pass=trischaken (and, where the "
            "profile lacks them, --opt trischaken_must_beat=true --opt "
            "trischaken_pagat_last=true --opt trischaken_talon=unused).")
    if rules.trischaken_talon != "unused":
        raise RulesError(f"the Trischaken search plays with the talon unused; the {rules.name} "
                         f"profile has trischaken_talon={rules.trischaken_talon}.")
    return ((kernel.MUST_BEAT if rules.trischaken_must_beat else 0)
            | (kernel.PAGAT_LAST if rules.trischaken_pagat_last else 0))


def _moves_of(bits: int):
    must_beat = bool(bits & kernel.MUST_BEAT)
    pagat_last = bool(bits & kernel.PAGAT_LAST)
    return lambda hand, cards: trischaken_moves(hand, cards, must_beat=must_beat,
                                                pagat_last=pagat_last)


def trischaken_position(hands: Sequence[int], leader: int, seat: int, *, rules: Rules,
                        trick: Sequence[int] = ()) -> Position:
    """A validated Trischaken position: ``Position`` with ``declarer`` = the seat valued.

    Raises as :class:`Position` does, and RulesError if a card of the current trick is
    not a legal Trischaken play under ``rules``.
    """
    pos = Position(hands, leader, seat, trick=trick)
    _check_trick(pos, trischaken_rule_bits(rules))
    return pos


def _check_trick(pos: Position, bits: int) -> None:
    if pos.birds:
        raise RulesError("Trischaken has no announcements: a position with birds cannot be "
                         "searched")
    moves = _moves_of(bits)
    for i, c in enumerate(pos.trick):
        s = (pos.leader + i) % 3
        if not moves(pos.hands[s] | bit(c), pos.trick[:i]) & bit(c):
            raise RulesError(f"card {CARD_IDS[c]} played by {SEAT_NAMES[s]} to the current "
                             "trick is not a legal Trischaken play from that hand")


class TrischakenSearch:
    """Paranoid values of Trischaken positions under one set of rules.

    The value of a :class:`~.position.Position` is the card points its seat
    ``position.declarer`` (the seat valued; Trischaken has no declarer) takes from
    the position on, the current trick included, when he plays to take the fewest and
    the two others play together to give him the most.  Card points are whole: every
    pile is made of whole tricks, so its thirds (:func:`~tarock_solver.cards.thirds_of`)
    are three times the value.  ``rules`` must play Trischaken
    (:func:`trischaken_rule_bits`); its ``trischaken_must_beat`` and
    ``trischaken_pagat_last`` options are followed.  One transposition table of
    ``2**tt_bits`` lines, shared by every call; not safe for concurrent use.
    """

    def __init__(self, rules: Rules, tt_bits: int | None = None) -> None:
        self.rules = rules
        self.rule_bits = trischaken_rule_bits(rules)
        self.tt_bits = check_tt_bits(tt_bits, TRISCHAKEN_TT_BITS)
        self.tt = new_table(self.tt_bits, kernel.TT_COLUMNS)
        self.stats = SearchStats()
        self._counters = new_stats()

    def clear(self) -> None:
        """Empty the transposition table (never needed for correctness)."""
        self.tt.fill(0)

    def interrupt(self) -> None:
        """Make a search in progress on another thread give up at its next clock check,
        as :meth:`~.cardpoints.CardPointSearch.interrupt` does."""
        if self._counters[ST_DEADLINE] > 0:
            self._counters[ST_DEADLINE] = 1

    def legal(self, position: Position) -> int:
        """Mask of the Trischaken-legal cards of the player to move (the kernel's rules)."""
        hands, leader, tcards, ntrick, _, _ = position.kernel_args()
        return int(kernel.legal_cards(hands, leader, tcards, ntrick, self.rule_bits))

    def remaining_points(self, position: Position) -> int:
        """Card points still in play: the upper limit of every value."""
        hands, _, tcards, ntrick, _, _ = position.kernel_args()
        return int(kernel.remaining_points(hands, ntrick, tcards))

    def value(self, position: Position, budget: Budget | int | None = None, *,
              guess: int | None = None) -> SearchResult:
        """The seat's paranoid card points, or the bounds proved within ``budget``.

        MTD(f) starts at ``guess`` (else the middle of the range).  A search that runs
        out of its budget returns the bounds its finished tests proved.
        """
        _check_trick(position, self.rule_bits)
        budget = Budget.of(budget)
        c = self._counters
        arm(c, budget.nodes, budget.seconds)
        t0 = time.perf_counter()
        hands, leader, tcards, ntrick, seat, _ = position.kernel_args()
        bounds = np.zeros(2, dtype=np.int64)
        tests = int(kernel.mtd_value(hands, leader, tcards, ntrick, seat, self.rule_bits,
                                     -1 if guess is None else int(guess), self.tt, c, bounds))
        dt = time.perf_counter() - t0
        st = self.stats
        st.nodes += int(c[ST_NODES])
        st.tt_hits += int(c[ST_TT_HITS])
        st.tt_cutoffs += int(c[ST_TT_CUTS])
        st.bound_cutoffs += int(c[ST_QB_CUTS])
        st.searches += 1
        st.aborted += int(c[ST_ABORTED])
        st.seconds += dt
        return SearchResult(int(bounds[0]), int(bounds[1]), int(c[ST_NODES]), dt, tests)


def trischaken_kernels_cached() -> bool:
    """Does numba's cache hold the compiled Trischaken driver for the current source?"""
    try:
        return bool(kernel.mtd_value._cache._cache_file._load_index())
    except Exception:  # a numba without this (private) layout: assume a compile is due
        return False


def solve_trischaken(hands: Sequence[int], leader: int, seat: int, *, rules: Rules,
                     trick: Sequence[int] = (), budget: Budget | int | None = None,
                     search: TrischakenSearch | None = None) -> SearchResult:
    """The paranoid value of ``seat``: the fewest card points he can be held to from here
    on (the current trick included) when the two others play to give him the most.

    ``result.value`` is the exact value; with a ``budget`` the result may hold bounds
    only.  ``search`` (else a new one with a small table) supplies the table.
    """
    s = search if search is not None else TrischakenSearch(rules, tt_bits=16)
    pos = trischaken_position(hands, leader, seat, rules=rules, trick=trick)
    return s.value(pos, budget)


def trischaken_values(hands: Sequence[int], *, rules: Rules, leader: int = 0,
                      budget: Budget | int | None = None,
                      search: TrischakenSearch | None = None) -> tuple[SearchResult, ...]:
    """The paranoid value of each seat F, M, R of a deal (three separate worst cases).

    ``budget`` applies to each seat's search.  F leads to the first trick by default.
    """
    s = search if search is not None else TrischakenSearch(rules)
    return tuple(s.value(trischaken_position(hands, leader, seat, rules=rules), budget)
                 for seat in range(3))
