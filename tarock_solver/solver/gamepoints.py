"""The double-dummy game-point value of a position: what is written on the score sheet.

:func:`solve_game_points` and :class:`GamePointSearch` (the declarer's zero-sum net
with one optimal line's breakdown, :class:`GamePointResult`); :func:`deal_game_points`
and :func:`best_announcements` for whole deals.  The kernel: :mod:`._kernels.gamepoint`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import BIRD_BITS, BIRD_CARD, BIRD_NAMES, CARD_IDS, bit, indices_of, thirds_of
from ..errors import RulesError
from ..play import N_TRICKS, legal_moves, reserved_mask, trick_thirds, trick_winner
from ..rules import Rules, item_name
from ..scoring import BirdOutcome, ScoreResult
from ._kernels import gamepoint as pk
from ._kernels.stats import ST_ABORTED, ST_BEST, ST_DEADLINE, ST_NODES, arm, new_stats
from .budget import Budget
from .cardpoints import check_tt_bits
from .payoff import FLAG_LOST_TRICK, Payoff, _extends, bird_code, make_payoff
from .position import Position
from .result import SearchResult

__all__ = [
    "ANNOUNCEABLE", "DEFAULT_TT_BITS", "AnnouncementChoice", "GamePointResult",
    "GamePointSearch", "announcement_options", "best_announcements", "deal_game_points",
    "game_kernels_cached", "reserved_birds", "solve_game_points",
]

#: Transposition-table size: 2**20 rows of 72 bytes (exact-key and rank-only entries).
DEFAULT_TT_BITS = 20


@dataclass(frozen=True)
class GamePointResult:
    """The game-point value of a position and the breakdown of one optimal line.

    ``net_declarer`` is the double-dummy value.  The other fields describe the
    final outcome the principal variation ``line`` (cards in play order)
    reaches: the declarer's pile in thirds and rounded points, the scored
    sheet (``written``/``nets`` per seat F, M, R, the itemised ``score``),
    the bird notes of the scorer (e.g. ``pagat@decl:won``) and Valat.
    """

    net_declarer: int
    declarer: int
    points: int
    thirds: int
    written: tuple[int, int, int]
    nets: tuple[int, int, int]
    birds: str
    valat: bool
    line: tuple[int, ...]
    score: ScoreResult
    tests: int
    nodes: int

    @property
    def line_text(self) -> str:
        """The principal variation as card ids, tricks separated by ``|``."""
        parts = [CARD_IDS[c] for c in self.line]
        return " | ".join(" ".join(parts[i:i + 3]) for i in range(0, len(parts), 3))


def _prefix(ok: np.ndarray) -> int:
    """Length of the leading run of True in a boolean array."""
    bad = np.flatnonzero(~ok)
    return int(bad[0]) if len(bad) else len(ok)


def solve_game_points(hands: Sequence[int], leader: int, declarer: int, *, rules: Rules,
                      contract: str, announcements: Mapping[str, str] | None = None,
                      contras: Mapping[str, str] | None = None, discard_thirds: int = 0,
                      taken_thirds: int = 0, trick: Sequence[int] = (),
                      level: str | None = None,
                      defender_announcements: Mapping[int, Mapping[str, str]] | None = None,
                      fixed_birds: Mapping[str, BirdOutcome] | None = None,
                      valat_open: bool | None = None, declarer_hand: int | None = None,
                      dealt: tuple[int | None, int | None, int | None] = (None, None, None),
                      tt_bits: int | None = None,
                      budget: Budget | None = None) -> SearchResult:
    """The declarer's double-dummy net game points of a position, with its breakdown.

    Builds the position's :class:`~.payoff.Payoff`, finds the net by a binary search
    over the payoff's breakpoints (null-window tests of the game-point kernel sharing
    one table; a test's fail-soft margin settles neighbouring breakpoints without a
    search), and follows the optimal line to report card points, birds, Valat and
    each player's written amount.  The position is the end of a 16-trick deal (the
    trick number is 17 minus the leader's cards, the trick in progress counted), so
    birds and Valat are judged in the right tricks.  Building the payoff tables (one
    scorer call per outcome and card-point total, ~2,000-4,000 on a whole deal)
    costs 0.1-0.5 s; ``tarock bench --gamepoints`` measures the whole solve.

    ``discard_thirds`` is the declarer's discard (0 in a Solo) and
    ``taken_thirds`` the tricks he has already won, both in thirds.
    ``fixed_birds`` gives the outcome of bird cards played before the
    position.  ``valat_open`` says whether the declarer has won every trick
    so far; by default only a position at the first trick's start can still
    end in Valat.  Hand bonuses follow from ``declarer_hand``/``dealt``
    (constants, as the scorer computes them).  The declarer's announced birds
    are reserved (docs/RULES.md 3) when the profile has ``bird_reserve``.
    Returns the net (``.value``) with the :class:`GamePointResult` of one optimal
    line as ``.detail``; within a ``budget`` that runs out, the bounds proved on the
    net and no detail.
    """
    # the card-set checks before the payoff is built (its errors would be less clear)
    checked = Position(hands, leader, declarer, trick=trick)
    hs, tr = checked.hands, checked.trick
    if valat_open is None:
        valat_open = not tr and hs[leader].bit_count() == N_TRICKS
    payoff = make_payoff(rules, contract, declarer, hs, leader=leader, trick=tr,
                         base_thirds=discard_thirds + taken_thirds,
                         announcements=announcements,
                         defender_announcements=defender_announcements, contras=contras,
                         level=level, fixed_birds=fixed_birds, valat_open=valat_open,
                         declarer_hand=declarer_hand, dealt=dealt)
    search = GamePointSearch(payoff, rules=rules, tt_bits=tt_bits)
    return search.solve(search.position(hs, leader, tr), budget)


def game_kernels_cached() -> bool:
    """Does numba's cache hold the compiled game-point driver for the current source?
    (Compiled apart from the card-point driver: ~45 s on the first game-point solve.)"""
    try:
        return bool(pk.test_goal_value._cache._cache_file._load_index())
    except Exception:  # a numba without this (private) layout: assume a compile is due
        return False


def reserved_birds(rules: Rules, payoff: Payoff) -> tuple[str, ...]:
    """The declarer's announced birds that ``bird_reserve`` keeps back."""
    if not rules.bird_reserve:
        return ()
    announced = {item_name(a) for a in payoff.template.announcements}
    return tuple(b for b in BIRD_NAMES if b in announced)


class _Aborted(Exception):
    """The kernel stopped: the budget of the call ran out."""


class GamePointSearch:
    """The game-point search of one payoff: value, bounds under a budget, the threshold
    test and per-card values, on one transposition table.

    ``reserved`` are the declarer's birds kept back under ``bird_reserve`` (by
    default from ``rules`` and the payoff's announcements).  Positions are
    :class:`~.position.Position` objects whose declarer is the payoff's
    (:meth:`position` builds them); values are the declarer's net game points.
    """

    def __init__(self, payoff: Payoff, *, rules: Rules | None = None,
                 reserved: Sequence[str] | None = None, tt_bits: int | None = None) -> None:
        if reserved is None:
            reserved = reserved_birds(rules, payoff) if rules is not None else ()
        self.payoff = payoff
        self.declarer = payoff.template.declarer
        self.reserved = tuple(reserved)
        self.reserve_bits = sum(BIRD_BITS[b] for b in self.reserved)
        self.goals = payoff.goals()
        if len(self.goals) > pk.MAX_GOALS:
            raise RulesError(f"the payoff has {len(self.goals)} breakpoints; at most "
                             f"{pk.MAX_GOALS} are supported.")
        self.thresholds = payoff.thresholds()
        self.t_lo, self.t_hi = payoff.threshold_bounds()
        # announced (reserved) birds always keep their identity in the kernel
        self.relevant = payoff.relevant_birds() | self.reserve_bits
        self.tt = pk.new_table(check_tt_bits(tt_bits, DEFAULT_TT_BITS))
        self.stats = new_stats()
        self.tests = 0
        self._t0 = 0.0
        self._stop_at = 0.0

    def interrupt(self) -> None:
        """Make a solve in progress on another thread give up soon (see
        :meth:`~.cardpoints.CardPointSearch.interrupt`): its test at the next clock check,
        the solve before its next test."""
        if self.stats[ST_DEADLINE] > 0:
            self.stats[ST_DEADLINE] = 1
        if self._stop_at:
            self._stop_at = 1e-9

    def position(self, hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> Position:
        """A validated position of this payoff's declarer and reserved birds."""
        return Position(hands, leader, self.declarer, trick=trick, birds=self.reserved)

    def _check(self, position: Position) -> None:
        if position.declarer != self.declarer:
            raise RulesError(f"the position's declarer is seat {position.declarer}; this "
                             f"payoff's is seat {self.declarer}")

    def _begin(self, budget: Budget | None) -> None:
        budget = Budget.of(budget)
        arm(self.stats, budget.nodes, budget.seconds)
        self.tests = 0
        self._t0 = time.perf_counter()
        # the kernel reads its clock every 4,096 nodes of one test; the principal
        # variation runs many smaller tests, so the deadline is also checked between tests
        self._stop_at = self._t0 + budget.seconds if budget.seconds is not None else 0.0

    def _result(self, lower: int, upper: int, detail: GamePointResult | None = None,
                ) -> SearchResult:
        return SearchResult(lower, upper, int(self.stats[ST_NODES]),
                            time.perf_counter() - self._t0, self.tests, detail)

    def _args(self, hands: tuple[int, int, int], trick: tuple[int, ...]):
        tc = np.zeros(3, dtype=np.int64)
        tc[:len(trick)] = trick
        return np.array(hands, dtype=np.int64), tc, len(trick)

    def test(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
             flags: int, gained: int, goal: int) -> int:
        """Null-window test of net ≥ ``goals[goal]``: its fail-soft value.

        Reached iff the value is ≥ ``-gained`` (``gained``: points won since
        the root); the value is then a lower bound on the kernel's u,
        otherwise an upper bound.
        """
        if self._stop_at and time.perf_counter() > self._stop_at:
            self.stats[ST_ABORTED] = 1
            raise _Aborted
        self.tests += 1
        h, tc, ntc = self._args(hands, trick)
        v = int(pk.test_goal_value(h, leader, tc, ntc, self.declarer, self.reserve_bits,
                                   self.relevant, flags, goal, self.thresholds, self.t_lo,
                                   self.t_hi, gained, self.tt, self.stats))
        if self.stats[ST_ABORTED]:
            raise _Aborted
        return v

    def _reaches(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
                 flags: int, gained: int, goal: int) -> bool:
        """Null-window test: net ≥ ``goals[goal]`` with ``gained`` points won since the root."""
        return self.test(hands, leader, trick, flags, gained, goal) >= -gained

    def _value_index(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
                     flags: int, gained: int, lo: int = 0, hi: int | None = None,
                     first: int | None = None) -> tuple[int, int]:
        """(lo, hi): indexes in ``goals`` bracketing the value, by binary search over the
        breakpoints; lo == hi unless the budget ran out.

        ``lo``/``hi`` are goal indexes the value is known to lie between, and ``first``
        the goal to test first (``lo < first <= hi``), where the value most likely is.

        A test's fail-soft margin settles more goals at once: for every final
        outcome f the thresholds grow with the goal, so u_j ≥ u_k − max_f
        (T_j[f] − T_k[f]) for j > k and u_j ≤ u_k + max_f (T_k[f] − T_j[f]) for
        j < k (f over the outcomes the position can still end in).  A success
        by a margin m reaches every higher goal whose thresholds rise by at
        most m; a failure by m misses every lower goal whose thresholds fall
        by less than m.
        """
        finals = [g for g in self.payoff.net_table() if _extends(g, flags)]
        t = self.thresholds[:, finals]
        hi = len(self.goals) - 1 if hi is None else hi
        try:
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if first is not None:
                    mid, first = (first if lo < first <= hi else mid), None
                v = self.test(hands, leader, trick, flags, gained, mid)
                if v >= -gained:
                    margin = v + gained
                    rise = (t[mid + 1:hi + 1] - t[mid]).max(axis=1)
                    lo = mid + _prefix(rise <= margin)
                else:
                    margin = -gained - v
                    fall = (t[mid] - t[lo:mid]).max(axis=1)
                    hi = max(lo, mid - 1 - _prefix((fall < margin)[::-1]))
        except _Aborted:
            pass
        return lo, hi

    def _root_flags(self) -> int:
        # Where winning every trick changes nothing, the lost-trick bit is set
        # from the start: fewer distinct flags, more transpositions.
        p = self.payoff
        return 0 if p.valat_open and p.valat_matters() else FLAG_LOST_TRICK

    def solve(self, position: Position, budget: Budget | None = None) -> SearchResult:
        """The net game points with the :class:`GamePointResult` of one optimal line as
        ``detail``; over ``budget``, the bounds proved (and no detail)."""
        self._check(position)
        self._begin(budget)
        hands, leader, trick = position.hands, position.leader, position.trick
        flags = self._root_flags()
        lo, hi = self._value_index(hands, leader, trick, flags, 0)
        if lo != hi:
            return self._result(self.goals[lo], self.goals[hi])
        try:
            detail = self._principal_variation(hands, leader, trick, flags, lo)
        except _Aborted:
            detail = None
        return self._result(self.goals[lo], self.goals[lo], detail)

    def value(self, position: Position, budget: Budget | None = None, *,
              guess: float | None = None) -> SearchResult:
        """The net game points alone (no optimal line followed: a fraction of
        :meth:`solve`'s tests); ``guess``, an estimate of the net, is where the search
        over the breakpoints starts (the value is the same without it).  Over ``budget``,
        the bounds proved."""
        self._check(position)
        self._begin(budget)
        first = None
        if guess is not None and len(self.goals) > 1:
            # test "net ≥ the first goal above the guess": a success or a failure right
            # there brackets the value between two neighbouring goals
            k = int(np.searchsorted(np.asarray(self.goals, dtype=np.float64), guess))
            first = min(max(k, 1), len(self.goals) - 1)
        lo, hi = self._value_index(position.hands, position.leader, position.trick,
                                   self._root_flags(), 0, first=first)
        return self._result(self.goals[lo], self.goals[hi])

    def reaches(self, position: Position, net: int, budget: Budget | None = None,
                ) -> SearchResult:
        """The threshold test: does the declarer's net reach ``net``?  The answer is
        ``result.at_least(net)`` (None if the budget ran out)."""
        self._check(position)
        self._begin(budget)
        lowest, highest = self.goals[0], self.goals[-1]
        k = next((i for i, g in enumerate(self.goals) if g >= net), None)
        if k is None or k == 0:
            return self._result(lowest, highest)
        try:
            ok = self._reaches(position.hands, position.leader, position.trick,
                               self._root_flags(), 0, k)
        except _Aborted:
            return self._result(lowest, highest)
        return self._result(self.goals[k], highest) if ok else \
            self._result(lowest, self.goals[k - 1])

    def card_values(self, position: Position, budget: Budget | None = None,
                    ) -> dict[int, SearchResult]:
        """The net game points after each legal card of the player to move (card -> result);
        ``budget`` covers all cards together."""
        self._check(position)
        self._begin(budget)
        hands, leader, trick = position.hands, position.leader, position.trick
        flags = self._root_flags()
        out: dict[int, SearchResult] = {}
        for card in indices_of(self.legal(hands, leader, trick)):
            nh, nl, nt, nf, ng = self._after(hands, leader, trick, flags, 0, card)
            before, tests = int(self.stats[ST_NODES]), self.tests
            if not any(nh) and not nt:
                net = self.payoff.score(ng, nf).net_declarer
                out[card] = SearchResult(net, net)
                continue
            lo, hi = self._value_index(nh, nl, nt, nf, ng)
            out[card] = SearchResult(self.goals[lo], self.goals[hi],
                                     int(self.stats[ST_NODES]) - before, 0.0, self.tests - tests)
        return out

    def line_card_values(self, position: Position, line: Sequence[int],
                         budget: Budget | None = None, *, narrow: bool = True,
                         ) -> list[dict[int, SearchResult]]:
        """:meth:`card_values` at every step of a line of play from ``position``.

        Entry ``i`` holds the net after each legal card where ``line[i]`` is played
        (``line`` must be legal from ``position``, which is a position of this
        payoff's root: birds won or lost and tricks lost along the line are followed,
        as the payoff needs).  One table serves the whole line; ``budget`` applies to
        each step.  With ``narrow`` each step's search is bounded by the value the step
        before found for the card played (the value of this step's position);
        ``narrow=False`` searches every card over all breakpoints (the reference the
        tests compare with).
        """
        self._check(position)
        hands, leader, trick = position.hands, position.leader, position.trick
        flags, gained = self._root_flags(), 0
        out: list[dict[int, SearchResult]] = []
        index = {g: i for i, g in enumerate(self.goals)}
        known: int | None = None  # goal index of this position's value, once known
        for played in line:
            self._begin(budget)
            legal = self.legal(hands, leader, trick)
            if not legal >> played & 1:
                raise RulesError(f"card {CARD_IDS[played]} is not a legal play at step "
                                 f"{len(out) + 1} of the line")
            # The position's value (the played card's value one step back) bounds every
            # card: the declarer's are at most it, a defender's at least it; and the
            # value itself, where most cards are, is tested first.
            top = len(self.goals) - 1
            if known is None or not narrow:
                bounds: tuple[int, int, int | None] = (0, top, None)
            elif (leader + len(trick)) % 3 == self.declarer:
                bounds = (0, known, known)
            else:
                bounds = (known, top, known + 1)
            step: dict[int, SearchResult] = {}
            for card in indices_of(legal):
                nh, nl, nt, nf, ng = self._after(hands, leader, trick, flags, gained, card)
                if not any(nh) and not nt:
                    net = self.payoff.score(ng, nf).net_declarer
                    step[card] = SearchResult(net, net)
                    continue
                before, tests = int(self.stats[ST_NODES]), self.tests
                lo, hi = self._value_index(nh, nl, nt, nf, ng, *bounds)
                step[card] = SearchResult(self.goals[lo], self.goals[hi],
                                          int(self.stats[ST_NODES]) - before, 0.0,
                                          self.tests - tests)
            out.append(step)
            r = step[played]
            known = index.get(r.lower) if r.exact else None
            hands, leader, trick, flags, gained = self._after(hands, leader, trick, flags,
                                                              gained, played)
        return out

    def legal(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...]) -> int:
        seat = (leader + len(trick)) % 3
        reserved = 0
        if seat == self.declarer and self.reserved:
            cards = hands[leader].bit_count() + (1 if trick else 0)
            reserved = reserved_mask(self.reserved, N_TRICKS + 1 - cards)
        return legal_moves(hands[seat], trick[0] if trick else None, reserved)

    def _principal_variation(self, hands: tuple[int, int, int], leader: int,
                             trick: tuple[int, ...], flags: int, k: int) -> GamePointResult:
        """Follow one optimal line (every move keeps the value at ``goals[k]``)."""
        p = self.payoff
        gained, line = 0, []
        cur = trick
        hs = list(hands)
        won_all = p.valat_open  # tracked apart from the flags, which may ignore Valat
        while any(hs) or cur:
            seat = (leader + len(cur)) % 3
            chosen = self._hinted_move((hs[0], hs[1], hs[2]), leader, cur, flags, gained, k,
                                       seat == self.declarer)
            for card in ([] if chosen is not None
                         else indices_of(self.legal((hs[0], hs[1], hs[2]), leader, cur))):
                nh, nl, nt, nf, ng = self._after(hs, leader, cur, flags, gained, card)
                ok = self._reaches(nh, nl, nt, nf, ng, k)
                if seat != self.declarer and ok and k + 1 < len(self.goals):
                    ok = not self._reaches(nh, nl, nt, nf, ng, k + 1)
                if ok:
                    chosen = card
                    break
            if chosen is None:  # cannot happen: the value is exact
                raise RuntimeError("internal: no move keeps the game-point value")
            nh, nl, nt, nf, ng = self._after(hs, leader, cur, flags, gained, chosen)
            line.append(chosen)
            if not nt and nl != self.declarer:
                won_all = False
            hs, leader, cur, flags, gained = list(nh), nl, nt, nf, ng
        if won_all:
            # the line is a Valat even where the profile pays nothing for it (same net)
            flags &= ~FLAG_LOST_TRICK
        result = p.score(gained, flags)
        if result.net_declarer != self.goals[k]:
            raise RuntimeError("internal: the principal variation misses the value")
        return GamePointResult(
            net_declarer=self.goals[k], declarer=self.declarer, points=result.points,
            thirds=p.base_thirds + 3 * gained, written=result.written, nets=result.nets,
            birds=result.birds, valat=result.valat, line=tuple(line), score=result,
            tests=self.tests, nodes=int(self.stats[ST_NODES]))

    def _hinted_move(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
                     flags: int, gained: int, k: int, declarer_moves: bool) -> int | None:
        """A move keeping the value, read off one test's root (None: search each card).

        The declarer's proving move of the test at the value, or the
        defenders' refutation of the test one breakpoint above it.
        """
        legal = self.legal(hands, leader, trick)
        if not declarer_moves and k + 1 == len(self.goals):
            return indices_of(legal)[0]  # nothing is above the value: every card keeps it
        goal = k if declarer_moves else k + 1
        if self._reaches(hands, leader, trick, flags, gained, goal) != declarer_moves:
            raise RuntimeError("internal: the game-point value changed along the line")
        card = int(self.stats[ST_BEST])
        return card if card >= 0 and legal >> card & 1 else None

    def _after(self, hs: Sequence[int], leader: int, trick: tuple[int, ...], flags: int,
               gained: int, card: int):
        """(hands, leader, trick, flags, gained) after ``card`` is played."""
        seat = (leader + len(trick)) % 3
        nh = [hs[0], hs[1], hs[2]]
        nh[seat] &= ~bit(card)
        cards = trick + (card,)
        if len(cards) < 3:
            return (nh[0], nh[1], nh[2]), leader, cards, flags, gained
        winner = trick_winner(cards, leader)
        number = N_TRICKS - nh[leader].bit_count()
        if number >= 14:
            b = N_TRICKS - number
            if b in cards:
                holder = (leader + cards.index(b)) % 3
                flags |= bird_code(holder, winner, self.declarer) << (2 * b)
        if winner != self.declarer:
            flags |= FLAG_LOST_TRICK
        else:
            gained += trick_thirds(cards) // 3
        return (nh[0], nh[1], nh[2]), winner, (), flags, gained



# ----------------------------------------------------------------- whole deals

#: Items the declarer may announce for the game-point search of a deal (RULES.md 4).
ANNOUNCEABLE = (*BIRD_NAMES, "absolut", "kramerpoi", "valat")


def deal_game_points(deal: Any, declarer: int, contract: str, *, rules: Rules, hand_after: int,
                     discard: int = 0, announcements: Mapping[str, str] | None = None,
                     contras: Mapping[str, str] | None = None, level: str | None = None,
                     tt_bits: int | None = None,
                     budget: Budget | None = None) -> SearchResult:
    """The game-point value of a whole deal after one exchange (as :func:`solve_game_points`).

    ``deal`` is a complete :class:`~tarock_solver.deal.Deal`; the declarer plays
    ``hand_after`` (his hand after the exchange; his dealt hand in a Solo) with
    ``discard`` (a card mask) in his pile; F leads to trick 1, so Valat is
    still open.  Hand bonuses are judged as the scorer says (declarer after
    the exchange, defenders as dealt).
    """
    hands = list(deal.hands)
    hands[declarer] = hand_after
    return solve_game_points(
        (hands[0], hands[1], hands[2]), 0, declarer, rules=rules, contract=contract,
        announcements=announcements, contras=contras, level=level,
        discard_thirds=thirds_of(discard), valat_open=True, declarer_hand=hand_after,
        dealt=tuple(deal.hands), tt_bits=tt_bits, budget=budget)


def announcement_options(rules: Rules, contract: str, hand_after: int) -> list[tuple[str, str]]:
    """Every (item, level) the declarer may announce in ``contract`` holding ``hand_after``.

    Birds only when he holds them; no before-talon level in a Solo (it has no talon).
    """
    out = []
    for item in ANNOUNCEABLE:
        if item in BIRD_CARD and not hand_after >> BIRD_CARD[item] & 1:
            continue
        for lv in rules.announcement_levels(item):
            if lv == "before" and rules.contract_key(contract) == "solo":
                continue
            out.append((item, lv))
    return out


@dataclass(frozen=True)
class AnnouncementChoice:
    """The result of :func:`best_announcements`: the best set found and every set solved."""

    announcements: dict[str, str]
    result: SearchResult
    tried: tuple[tuple[tuple[tuple[str, str], ...], SearchResult], ...]


def best_announcements(deal: Any, declarer: int, contract: str, *, rules: Rules,
                       hand_after: int, discard: int = 0,
                       contras: Mapping[str, str] | None = None, level: str | None = None,
                       tt_bits: int | None = None,
                       budget: Budget | None = None) -> AnnouncementChoice:
    """The announcement set with the largest game-point value, by greedy forward selection.

    Every set tried is solved exactly.  The sets searched: no announcement;
    each single announceable item (:func:`announcement_options`, each level);
    then, from the best set so far, adding one more item (at any level) as
    long as that raises the value.  All 2^k sets with their levels would be
    3^k full game-point solves (k up to 6); the greedy path needs at most
    about k·(k+1) and finds every set whose items pay on their own, which is
    how announcements combine unless one item only pays because another is
    announced (a set it can miss).  Sets the scorer refuses (e.g. two rungs of
    one target ladder where the profile forbids it) are skipped.
    """
    options = announcement_options(rules, contract, hand_after)
    tried: dict[tuple[tuple[str, str], ...], SearchResult] = {}

    def value(anns: tuple[tuple[str, str], ...]) -> SearchResult | None:
        if anns not in tried:
            try:
                tried[anns] = deal_game_points(
                    deal, declarer, contract, rules=rules, hand_after=hand_after,
                    discard=discard, announcements=dict(anns), contras=contras, level=level,
                    tt_bits=tt_bits, budget=budget)
            except RulesError:
                return None
        return tried[anns]

    best: tuple[tuple[str, str], ...] = ()
    base = value(best)
    assert base is not None  # the plain game is always scorable
    if not base.exact:
        return AnnouncementChoice(announcements={}, result=base, tried=((best, base),))
    best_net = base.value
    while True:
        improved = None
        for item, lv in options:
            if any(item == a for a, _ in best):
                continue
            cand = tuple(sorted(best + ((item, lv),)))
            res = value(cand)
            if res is not None and res.exact and res.value > best_net:
                best_net, improved = res.value, cand
        if improved is None:
            break
        best = improved
    return AnnouncementChoice(
        announcements=dict(best), result=tried[best],
        tried=tuple(tried.items()))
