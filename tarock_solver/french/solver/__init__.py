"""The exact double-dummy solver of French Tarot: the taker against three, all hands known.

The front door, as for Illustrated Tarock (:mod:`tarock_solver.solver`, whose
:class:`~tarock_solver.solver.Budget` and :class:`~tarock_solver.solver.SearchResult`
it shares): a :class:`FrenchPosition` and a :class:`FrenchSearch` that answers

* :meth:`FrenchSearch.points` — the taker's card points at the end of the play, in half
  points (what he has already, the chien's where it is his, plus what he will take);
* :meth:`FrenchSearch.outcome_value` — any value of the play's outcome given as a table
  ``[points, oudlers, petit au bout, chelem]`` (the contract's score: :mod:`.score`);
* :meth:`FrenchSearch.card_values` — both per card the mover may play;
* :func:`outcome_table` — the contract's score as such a table (:mod:`.outcome`);
* :func:`trick_lines`, :func:`trick_minimax` — every line to the end of the trick and
  the minimax over their values (the learned evaluator's one-trick look-ahead).

The kernels (:mod:`._kernels`) are private; the brute-force reference is
:mod:`tarock_solver.french.oracle`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from time import perf_counter

import numpy as np

from ...errors import RulesError
from ...solver import ST_NODES, Budget, SearchResult, arm, new_stats, new_table
from ..cards import (
    CARD_IDS,
    EXCUSE,
    N_CARDS,
    SUIT_START,
    TOTAL_HALF_POINTS,
    cards_of,
    half_points,
    split,
)
from ..play import EXCUSE_LAST, PlayState, check_card, close_trick, legal_cards
from . import _kernels as K
from . import _lines as L
from .outcome import PAB_HALF_POINTS, PAB_SIDES, chelem_of, margin_table, outcome_table

__all__ = ["FrenchPosition", "FrenchSearch", "card_code", "DEFAULT_TT_BITS", "PAB_HALF_POINTS",
           "PAB_SIDES", "chelem_of", "margin_table", "outcome_table", "trick_lines", "trick_minimax"]

DEFAULT_TT_BITS = 20


def card_code(card: int) -> int:
    """The kernels' code of a card index."""
    if card <= EXCUSE:
        return 64 + card
    s, r = divmod(card - SUIT_START[0], 14)
    return 16 * s + r


def code_card(code: int) -> int:
    if code >= 64:
        return code - 64
    return SUIT_START[code >> 4] + (code & 15)


@dataclass(frozen=True)
class FrenchPosition:
    """Four hands (card sets), the seat that leads the trick in progress and its cards,
    the taker's seat and what the play has settled so far (:class:`PlayState`: his
    half points, the chien's included where they are his, and his oudlers)."""

    hands: tuple[int, int, int, int]
    leader: int
    taker: int
    trick: tuple[int, ...] = ()
    state: PlayState = field(default_factory=PlayState)

    def __post_init__(self) -> None:
        if len(self.hands) != 4:
            raise RulesError("the French Tarot solver plays four hands")
        seen = 0
        for h in self.hands:
            if h & seen:
                raise RulesError(f"{CARD_IDS[(h & seen).bit_length() - 1]} is in two hands")
            seen |= h
        for c in self.trick:
            if seen >> c & 1:
                raise RulesError(f"{CARD_IDS[c]} is both in a hand and in the trick")
            seen |= 1 << c
        if seen >> N_CARDS:
            raise RulesError("a card index is beyond the 78 cards")
        if not (0 <= self.leader < 4 and 0 <= self.taker < 4):
            raise RulesError("seats are 0..3")
        if len(self.trick) > 3:
            raise RulesError("a trick in progress holds at most three cards")
        sizes = [bin(h).count("1") for h in self.hands]
        n = len(self.trick)
        full = sizes[(self.leader + n) % 4]  # the mover has not played to the trick yet
        for i in range(4):
            seat = (self.leader + i) % 4
            want = full - 1 if i < n else full
            if sizes[seat] != want:
                raise RulesError(
                    f"seat {seat + 1} holds {sizes[seat]} card{'s' if sizes[seat] != 1 else ''} "
                    f"where {want} are expected: every seat holds as many cards, less the one "
                    "it has played to the trick in progress")
        if not any(self.hands):
            raise RulesError("no cards left to play")

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        return bin(self.hands[self.leader]).count("1") + (1 if self.trick else 0)

    def legal(self) -> int:
        return legal_cards(self.hands[self.mover], self.trick)

    def play(self, card: int, *, excuse_last: str = "changes_side") -> FrenchPosition:
        """The position after the mover plays ``card`` (RulesError if illegal)."""
        check_card(self.hands[self.mover], self.trick, card)
        hands = list(self.hands)
        hands[self.mover] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < 4:
            return replace(self, hands=tuple(hands), trick=trick)
        last = not any(hands)
        state, winner = close_trick(self.state, trick, self.leader, self.taker, 4, last=last,
                                    excuse_last=excuse_last)
        if last:
            raise RulesError("that card ends the play; value the outcome instead")
        return FrenchPosition(tuple(hands), winner, self.taker, (), state)  # type: ignore[arg-type]


def _state_word(pos: FrenchPosition) -> int:
    s = pos.state
    return (pos.leader | (K.S_TK if s.taker_has_trick else 0)
            | (K.S_DF if s.defence_has_trick else 0) | (s.owed << K.S_OWED_SHIFT))


class FrenchSearch:
    """Exact searches of French Tarot positions sharing one transposition table.

    The table stays valid across the positions of one deal, taker and rule; it is
    cleared when any of these (or the outcome table) changes."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS, *, excuse_last: str = "changes_side") -> None:
        if excuse_last not in EXCUSE_LAST:
            raise RulesError(f'excuse_last "{excuse_last}": expected {" or ".join(EXCUSE_LAST)}')
        self.excuse_last = excuse_last
        self._tt = new_table(tt_bits, K.TT_COLUMNS)
        self._stats = new_stats()
        self._context: tuple | None = None
        self._owner: dict[int, int] = {}
        self._out = np.zeros(2, np.int64)

    def clear(self) -> None:
        """Empty the table (a search then does the same work whatever came before)."""
        self._tt.fill(0)
        self._context = None
        self._owner = {}

    def _use(self, context: tuple, pos: FrenchPosition) -> None:
        """Clear the table unless it holds the same search of the same deal: a key names
        the cards still in the hands, so it is only sound while each card has one
        owner."""
        owners = {c: seat for seat, h in enumerate(pos.hands) for c in cards_of(h)}
        same_deal = all(self._owner.get(c, seat) == seat for c, seat in owners.items())
        if context != self._context or not same_deal:
            self._tt.fill(0)
            self._context = context
            self._owner = {}
        self._owner.update(owners)

    def _run(self, pos: FrenchPosition, score: int, table: np.ndarray, lower: int,
             upper: int, guess: int | None, budget: Budget | int | None,
             max_tests: int = 0) -> SearchResult:
        budget = Budget.of(budget)
        hlo = np.zeros(4, np.int64)
        hhi = np.zeros(4, np.int64)
        for s, h in enumerate(pos.hands):
            hlo[s], hhi[s] = split(h)
        tc = np.zeros(4, np.int64)
        for i, c in enumerate(pos.trick):
            tc[i] = card_code(c)
        arm(self._stats, budget.nodes, budget.seconds)
        start = perf_counter()
        g = (lower + upper) // 2 if guess is None else int(guess)
        tests = K.mtd(hlo, hhi, pos.leader, tc, len(pos.trick), pos.taker, _state_word(pos),
                      pos.state.taker_points, pos.state.taker_oudlers, score,
                      self.excuse_last == "kept", table, lower, upper, g, max_tests, self._tt,
                      self._stats, self._out)
        return SearchResult(int(self._out[0]), int(self._out[1]),
                            nodes=int(self._stats[ST_NODES]), seconds=perf_counter() - start,
                            tests=int(tests))

    def points(self, pos: FrenchPosition, *, budget: Budget | int | None = None,
               guess: int | None = None) -> SearchResult:
        """The taker's half points at the end of the play (bounds when over budget)."""
        self._use(("points", pos.taker), pos)
        done = pos.state.taker_points
        in_trick = sum(half_points(1 << c) for c in pos.trick)
        rest = sum(half_points(h) for h in pos.hands) + in_trick + 1
        r = self._run(pos, 0, _NO_TABLE, 0, rest, None if guess is None else guess - done,
                      budget)
        # the +1 of the range (an Excuse's card still owed) never lifts a total past 182
        return replace(r, lower=min(r.lower + done, TOTAL_HALF_POINTS),
                       upper=min(r.upper + done, TOTAL_HALF_POINTS))

    def outcome_value(self, pos: FrenchPosition, table: np.ndarray, *,
                      budget: Budget | int | None = None, guess: int | None = None,
                      max_tests: int = 0) -> SearchResult:
        """The best ``table[points, oudlers, petit au bout, chelem]`` the taker can be sure
        of (see :mod:`tarock_solver.french.oracle` for the indices).  ``max_tests=1`` with
        a ``guess`` answers only "is it at least the guess?" (bounds on one side)."""
        table = np.ascontiguousarray(table, dtype=np.int64)
        if table.shape != (183, 4, 3, 3):
            raise RulesError("an outcome table has shape (183, 4, 3, 3)")
        self._use(("outcome", pos.taker, table.tobytes()), pos)
        return self._run(pos, 1, table, int(table.min()), int(table.max()), guess, budget,
                         max_tests)

    def card_values(self, pos: FrenchPosition, table: np.ndarray | None = None, *,
                    budget: Budget | int | None = None) -> dict[int, SearchResult]:
        """The value of each legal card of the mover (points, or ``table``'s value)."""
        out = {}
        for card in cards_of(pos.legal()):
            # at the last trick every card is forced: its value is the position's
            nxt = pos if pos.tricks_left == 1 else pos.play(card, excuse_last=self.excuse_last)
            out[card] = (self.points(nxt, budget=budget) if table is None
                         else self.outcome_value(nxt, table, budget=budget))
        return out


_NO_TABLE = np.zeros((1, 1, 1, 1), np.int64)


def _trick_arrays(n_pos: int, tc: np.ndarray | None, n: np.ndarray | None
                  ) -> tuple[np.ndarray, np.ndarray]:
    if tc is None:
        return np.zeros((n_pos, 4), np.int64), np.zeros(n_pos, np.int64)
    return np.ascontiguousarray(tc, np.int64), np.ascontiguousarray(n, np.int64)


def trick_lines(hlo: np.ndarray, hhi: np.ndarray, leader: np.ndarray, taker: np.ndarray,
                tc: np.ndarray | None = None, n: np.ndarray | None = None
                ) -> tuple[np.ndarray, ...]:
    """Every line of play to the end of each position's trick (one per class of
    equivalent cards), as the positions they lead to.

    Positions are arrays: ``hlo``/``hhi`` (P, 4) the hands' two kernel words
    (:func:`~tarock_solver.french.cards.split`), ``leader`` and ``taker`` (P,) seats,
    ``tc`` (P, 4) the kernel codes (:func:`card_code`) of the ``n`` (P,) cards already in
    the trick (none by default).  Returns ``offsets`` (P + 1: position ``p``'s lines are
    ``offsets[p]:offsets[p + 1]``) and per line the next trick's ``hlo``, ``hhi``,
    ``leader``, and the half points and oudlers the trick gives the taker (the Excuse's
    exchange settled at once: see :mod:`._lines`).  Not for the last trick.
    """
    hlo = np.ascontiguousarray(hlo, np.int64)
    hhi = np.ascontiguousarray(hhi, np.int64)
    leader = np.ascontiguousarray(leader, np.int64)
    taker = np.ascontiguousarray(taker, np.int64)
    tc, n = _trick_arrays(len(leader), tc, n)
    offsets = L.count_lines(hlo, hhi, leader, taker, tc, n)
    total = int(offsets[-1])
    out_lo = np.zeros((total, 4), np.int64)
    out_hi = np.zeros((total, 4), np.int64)
    out_leader = np.zeros(total, np.int64)
    gain = np.zeros(total, np.int64)
    oud = np.zeros(total, np.int64)
    L.write_lines(hlo, hhi, leader, taker, tc, n, offsets, out_lo, out_hi, out_leader, gain, oud)
    return offsets, out_lo, out_hi, out_leader, gain, oud


def trick_minimax(hlo: np.ndarray, hhi: np.ndarray, leader: np.ndarray, taker: np.ndarray,
                  offsets: np.ndarray, totals: np.ndarray, tc: np.ndarray | None = None,
                  n: np.ndarray | None = None) -> np.ndarray:
    """Each position's value when every line of :func:`trick_lines` is worth its entry
    of ``totals`` (from the taker's side): the taker maximises, the defenders minimise."""
    hlo = np.ascontiguousarray(hlo, np.int64)
    hhi = np.ascontiguousarray(hhi, np.int64)
    leader = np.ascontiguousarray(leader, np.int64)
    taker = np.ascontiguousarray(taker, np.int64)
    tc, n = _trick_arrays(len(leader), tc, n)
    out = np.zeros(len(leader))
    L.fold_lines(hlo, hhi, leader, taker, tc, n, offsets,
                 np.ascontiguousarray(totals, np.float64), out)
    return out
