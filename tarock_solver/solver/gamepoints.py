"""The double-dummy game-point value of a position: what is written on the score sheet.

:func:`solve_game_points` builds the position's :class:`~.payoff.Payoff`,
finds the declarer's zero-sum net under double-dummy play by a binary search
over the payoff's breakpoints (null-window tests of
:mod:`.payoff_kernel` sharing one transposition table), and follows the
optimal line to report its breakdown: card points, birds, Valat and each
player's written amount.

A position is the end of a 16-trick deal: the trick number is 17 minus the
cards of the leader (the trick in progress counted), so birds and Valat are
judged in the right tricks.

Speed (measured on random positions, 2 cores): up to 8-9 tricks left in
well under a second; 10 tricks take seconds to tens of seconds, 100-1000×
the card-point solve, so whole deals are not yet practical (the kernel lacks
the card-point kernel's relative-rank keys and cash bounds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import CARD_IDS, bit, indices_of
from ..errors import DealError, RulesError
from ..play import legal_moves, reserved_mask, trick_thirds, trick_winner
from ..rules import BIRD_KEYS, Rules, item_name
from ..scoring import BirdOutcome, ScoreResult
from . import payoff_kernel as pk
from .payoff import FLAG_LOST_TRICK, Payoff, bird_code, make_payoff

__all__ = ["GamePointResult", "GamePointSearch", "reserved_birds", "solve_game_points"]

N_TRICKS = 16
_RESERVE_BITS = {"pagat": 1, "uhu": 2, "kakadu": 4}
DEFAULT_TT_BITS = 18


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


def _check_position(hands: Sequence[int], leader: int, declarer: int,
                    trick: Sequence[int]) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    if len(hands) != 3:
        raise DealError("a position has three hands (F, M, R).")
    hs = (int(hands[0]), int(hands[1]), int(hands[2]))
    for name, seat in (("leader", leader), ("declarer", declarer)):
        if seat not in (0, 1, 2):
            raise DealError(f"{name} must be a seat 0/1/2 (F/M/R); got {seat}.")
    tr = tuple(int(c) for c in trick)
    if len(tr) > 2:
        raise DealError(f"the trick in progress holds 0-2 cards; got {len(tr)}.")
    seen = 0
    for c in [c for h in hs for c in indices_of(h)] + list(tr):
        if seen & bit(c):
            raise DealError(f"card {CARD_IDS[c]} appears twice in the position.")
        seen |= bit(c)
    sizes = [h.bit_count() for h in hs]
    for k in range(len(tr)):
        sizes[(leader + k) % 3] += 1
    if len(set(sizes)) != 1 or sizes[0] > N_TRICKS:
        raise DealError(
            f"hands of {'/'.join(map(str, sizes))} cards (trick in progress included): every "
            "seat must hold the same number of cards, at most 16."
        )
    return hs, tr


def solve_game_points(hands: Sequence[int], leader: int, declarer: int, *, rules: Rules,
                      contract: str, announcements: Mapping[str, str] | None = None,
                      contras: Mapping[str, str] | None = None, discard_thirds: int = 0,
                      taken_thirds: int = 0, trick: Sequence[int] = (),
                      level: str | None = None,
                      defender_announcements: Mapping[int, Mapping[str, str]] | None = None,
                      fixed_birds: Mapping[str, BirdOutcome] | None = None,
                      valat_open: bool | None = None, declarer_hand: int | None = None,
                      dealt: tuple[int | None, int | None, int | None] = (None, None, None),
                      tt_bits: int = DEFAULT_TT_BITS) -> GamePointResult:
    """The declarer's double-dummy net game points of a position, with its breakdown.

    ``discard_thirds`` is the declarer's discard (0 in a Solo) and
    ``taken_thirds`` the tricks he has already won, both in thirds.
    ``fixed_birds`` gives the outcome of bird cards played before the
    position.  ``valat_open`` says whether the declarer has won every trick
    so far; by default only a position at the first trick's start can still
    end in Valat.  Hand bonuses follow from ``declarer_hand``/``dealt``
    (constants, as the scorer computes them).  The declarer's announced birds
    are reserved (RULES.md 3) when the profile has ``bird_reserve``.
    """
    hs, tr = _check_position(hands, leader, declarer, trick)
    if valat_open is None:
        valat_open = not tr and hs[leader].bit_count() == N_TRICKS
    payoff = make_payoff(rules, contract, declarer, hs, leader=leader, trick=tr,
                         base_thirds=discard_thirds + taken_thirds,
                         announcements=announcements,
                         defender_announcements=defender_announcements, contras=contras,
                         level=level, fixed_birds=fixed_birds, valat_open=valat_open,
                         declarer_hand=declarer_hand, dealt=dealt)
    reserved = reserved_birds(rules, payoff)
    return GamePointSearch(payoff, reserved, tt_bits).solve(hs, leader, tr)


def reserved_birds(rules: Rules, payoff: Payoff) -> tuple[str, ...]:
    """The declarer's announced birds that ``bird_reserve`` keeps back."""
    if not rules.bird_reserve:
        return ()
    return tuple(b for b in BIRD_KEYS if b in {item_name(a) for a in payoff.template.announcements})


class GamePointSearch:
    """One payoff's kernel driver: the breakpoint search and the principal variation."""

    def __init__(self, payoff: Payoff, reserved: Sequence[str], tt_bits: int) -> None:
        if not 8 <= tt_bits <= 28:
            raise RulesError(f"tt_bits {tt_bits} must be 8-28.")
        self.payoff = payoff
        self.declarer = payoff.template.declarer
        self.reserved = tuple(reserved)
        self.reserve_bits = sum(_RESERVE_BITS[b] for b in self.reserved)
        self.goals = payoff.goals()
        if len(self.goals) > pk.MAX_GOALS:
            raise RulesError(f"the payoff has {len(self.goals)} breakpoints; at most "
                             f"{pk.MAX_GOALS} are supported.")
        self.thresholds = payoff.thresholds()
        self.t_lo, self.t_hi = payoff.threshold_bounds()
        self.tt = pk.new_table(tt_bits)
        self.stats = np.zeros(pk.NSTATS, dtype=np.int64)
        self.tests = 0

    def _args(self, hands: tuple[int, int, int], trick: tuple[int, ...]):
        tc = np.zeros(3, dtype=np.int64)
        tc[:len(trick)] = trick
        return np.array(hands, dtype=np.int64), tc, len(trick)

    def reaches(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
                flags: int, gained: int, goal: int) -> bool:
        """Null-window test: net ≥ ``goals[goal]`` with ``gained`` points won since the root."""
        self.tests += 1
        h, tc, ntc = self._args(hands, trick)
        return bool(pk.test_goal(h, leader, tc, ntc, self.declarer, self.reserve_bits, flags,
                                 goal, self.thresholds, self.t_lo, self.t_hi, gained, self.tt,
                                 self.stats))

    def value_index(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
                    flags: int, gained: int) -> int:
        """Index of the value in ``goals``, by binary search over the breakpoints."""
        lo, hi = 0, len(self.goals) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.reaches(hands, leader, trick, flags, gained, mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    def legal(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...]) -> int:
        seat = (leader + len(trick)) % 3
        reserved = 0
        if seat == self.declarer and self.reserved:
            cards = hands[leader].bit_count() + (1 if trick else 0)
            reserved = reserved_mask(self.reserved, N_TRICKS + 1 - cards)
        return legal_moves(hands[seat], trick[0] if trick else None, reserved)

    def solve(self, hands: tuple[int, int, int], leader: int,
              trick: tuple[int, ...]) -> GamePointResult:
        p = self.payoff
        flags = 0 if p.valat_open else FLAG_LOST_TRICK
        k = self.value_index(hands, leader, trick, flags, 0)
        # Follow one optimal line: every move keeps the value at goals[k].
        gained, line = 0, []
        cur = trick
        hs = list(hands)
        while any(hs) or cur:
            seat = (leader + len(cur)) % 3
            chosen = self._hinted_move((hs[0], hs[1], hs[2]), leader, cur, flags, gained, k,
                                       seat == self.declarer)
            for card in ([] if chosen is not None
                         else indices_of(self.legal((hs[0], hs[1], hs[2]), leader, cur))):
                nh, nl, nt, nf, ng = self._after(hs, leader, cur, flags, gained, card)
                ok = self.reaches(nh, nl, nt, nf, ng, k)
                if seat != self.declarer and ok and k + 1 < len(self.goals):
                    ok = not self.reaches(nh, nl, nt, nf, ng, k + 1)
                if ok:
                    chosen = card
                    break
            if chosen is None:  # cannot happen: the value is exact
                raise RuntimeError("internal: no move keeps the game-point value")
            nh, nl, nt, nf, ng = self._after(hs, leader, cur, flags, gained, chosen)
            line.append(chosen)
            hs, leader, cur, flags, gained = list(nh), nl, nt, nf, ng
        result = p.score(gained, flags)
        if result.net_declarer != self.goals[k]:
            raise RuntimeError("internal: the principal variation misses the value")
        return GamePointResult(
            net_declarer=self.goals[k], declarer=self.declarer, points=result.points,
            thirds=p.base_thirds + 3 * gained, written=result.written, nets=result.nets,
            birds=result.birds, valat=result.valat, line=tuple(line), score=result,
            tests=self.tests, nodes=int(self.stats[pk.ST_NODES]))

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
        if self.reaches(hands, leader, trick, flags, gained, goal) != declarer_moves:
            raise RuntimeError("internal: the game-point value changed along the line")
        card = int(self.stats[pk.ST_BEST])
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
            b = 16 - number
            if b in cards:
                holder = (leader + cards.index(b)) % 3
                flags |= bird_code(holder, winner, self.declarer) << (2 * b)
        if winner != self.declarer:
            flags |= FLAG_LOST_TRICK
        else:
            gained += trick_thirds(cards) // 3
        return (nh[0], nh[1], nh[2]), winner, (), flags, gained

