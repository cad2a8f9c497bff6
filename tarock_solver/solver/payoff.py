"""The payoff model of the game-point solver: a final outcome -> the declarer's net.

:class:`Payoff` maps every final outcome of a position (its card points and the
``flags`` below) to the declarer's net through :func:`tarock_solver.scoring.score`, and
gives the game-point kernel its per-goal thresholds; :func:`make_payoff` builds one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import product

import numpy as np

from ..cards import BIRD_CARD, thirds_of
from ..errors import RulesError
from ..rules import BIRD_KEYS, BIRD_TRICK, Rules, item_name
from ..scoring import BirdOutcome, ScoreInput, ScoreResult, score

__all__ = [
    "BIRD_LOST", "BIRD_NOT_IN_TRICK", "BIRD_PARTNER", "BIRD_WON", "FLAG_LOST_TRICK",
    "IMPOSSIBLE", "N_BOUND_COLUMNS", "N_FLAGS", "Payoff", "bird_code", "bird_code_of", "make_payoff",
]

# The final outcome's ``flags`` (7 bits), shared with :mod:`.payoff_kernel`:
# * bits ``2b, 2b+1`` (b = 0 Pagat, 1 Uhu, 2 Kakadu): BIRD_NOT_IN_TRICK (not played to
#   its trick, or not tracked), BIRD_WON (won its trick for the holder), BIRD_LOST
#   (captured by the other side), BIRD_PARTNER (a defender's bird captured by his partner);
# * bit 6, FLAG_LOST_TRICK: the declarer has lost a trick (no Valat).
BIRD_NOT_IN_TRICK, BIRD_WON, BIRD_LOST, BIRD_PARTNER = 0, 1, 2, 3
FLAG_LOST_TRICK = 64
#: Number of distinct flag values (the thresholds table has this many columns).
N_FLAGS = 128
#: Threshold of a goal an outcome can never reach; far above any card points.
IMPOSSIBLE = 1000
#: Columns of :meth:`Payoff.threshold_bounds`: flags (7 bits) and the open birds (3 bits).
N_BOUND_COLUMNS = 1024


def bird_code(holder: int, winner: int, declarer: int) -> int:
    """Code of a bird card played to its own trick by ``holder`` and won by ``winner``."""
    if winner == holder:
        return BIRD_WON
    if holder == declarer or winner == declarer:
        return BIRD_LOST
    return BIRD_PARTNER


def bird_code_of(flags: int, bird_index: int) -> int:
    """The 2-bit code of bird ``bird_index`` (0 Pagat, 1 Uhu, 2 Kakadu) in ``flags``."""
    return (flags >> (2 * bird_index)) & 3


@dataclass(frozen=True)
class Payoff:
    """The declarer's net for every final outcome of one position.

    The score sheet (RULES.md 5-7) depends on the play only through the final
    outcome: the declarer's card points, for each bird card whether it was played to
    its own trick and who won that trick, and whether the declarer won every trick
    (Valat).  Everything else (contract, level, announcements, contras, hands for
    hand bonuses, the discard) is a constant of the deal, fixed here once; every
    outcome is scored by :func:`tarock_solver.scoring.score`, so the solver and the
    score sheet never disagree.  Card points are counted as *future points* F: the
    whole points of the tricks still to be played (the trick in progress included)
    that the declarer wins; his final pile is ``base_thirds + 3·F`` thirds.

    ``template`` holds the constants of the deal (its ``declarer_thirds``,
    ``birds`` and ``valat`` are filled per outcome).  ``live`` maps each bird
    whose card is still in a hand to its holder; ``fixed_birds`` are the
    outcomes settled before the position (played earlier, discarded).
    ``remaining`` is the card points still to be played, ``base_thirds`` the
    declarer's pile outside them.  ``valat_open`` says whether the declarer
    has won every trick so far.
    """

    rules: Rules
    template: ScoreInput
    base_thirds: int
    remaining: int
    live: Mapping[str, int]
    fixed_birds: Mapping[str, BirdOutcome] = field(default_factory=dict)
    valat_open: bool = False

    # --- outcomes ---------------------------------------------------------------

    def flag_states(self) -> list[int]:
        """Every final flag value the position can end in (live birds, Valat bit)."""
        choices: list[tuple[int, ...]] = []
        for b, bird in enumerate(BIRD_KEYS):
            holder = self.live.get(bird)
            if holder is None:
                choices.append((0,))
            elif holder == self.template.declarer:
                choices.append(tuple(c << (2 * b) for c in (0, 1, 2)))
            else:
                choices.append(tuple(c << (2 * b) for c in (0, 1, 2, 3)))
        lost = (FLAG_LOST_TRICK,) if not self.valat_open else (0, FLAG_LOST_TRICK)
        states = []
        for a, b, c, v in product(*choices, lost):
            flags = a | b | c | v
            if self._consistent(flags):
                states.append(flags)
        return states

    def _consistent(self, flags: int) -> bool:
        """Valat excludes every bird trick won by a defender."""
        if flags & FLAG_LOST_TRICK:
            return True
        decl = self.template.declarer
        for b, bird in enumerate(BIRD_KEYS):
            code = bird_code_of(flags, b)
            holder = self.live.get(bird)
            if holder is None or code == BIRD_NOT_IN_TRICK:
                continue
            if self._winner(bird, code) != decl:
                return False
        fixed_won_by_defender = any(
            o.winner is not None and o.winner != decl for o in self.fixed_birds.values())
        return not fixed_won_by_defender

    def _winner(self, bird: str, code: int) -> int:
        """A seat that wins a live bird's trick with outcome ``code`` (any one scores alike)."""
        holder, decl = self.live[bird], self.template.declarer
        if code == BIRD_WON:
            return holder
        if code == BIRD_LOST:
            return (decl + 1) % 3 if holder == decl else decl
        return 3 - holder - decl  # the defending holder's partner

    def outcome_flags(self, future_points: int, won: tuple[int, ...] = ()) -> int:
        """The flags of the outcome in which the declarer takes ``future_points`` (every
        point in play, with Valat still open: Valat) and the birds ``won`` (indices 0
        Pagat, 1 Uhu, 2 Kakadu) win their own tricks for their holders, the others not
        played to theirs."""
        flags = 0 if self.valat_open and future_points == self.remaining else FLAG_LOST_TRICK
        for b in won:
            flags |= BIRD_WON << (2 * b)
        return flags

    def score_input(self, future_points: int, flags: int) -> ScoreInput:
        """The scorer's input for one outcome."""
        birds: dict[str, BirdOutcome] = dict(self.fixed_birds)
        for b, bird in enumerate(BIRD_KEYS):
            holder = self.live.get(bird)
            if holder is None:
                continue
            code = bird_code_of(flags, b)
            if code == BIRD_NOT_IN_TRICK:
                announced = (bird in self.template.announcements
                             or any(bird in a for a in self.template.defender_announcements.values()))
                if announced:
                    # Played to another trick: the announced item fails; where
                    # and to whom does not change the score.
                    birds[bird] = BirdOutcome(holder, None, None)
                continue
            birds[bird] = BirdOutcome(holder, BIRD_TRICK[bird], self._winner(bird, code))
        return replace(self.template,
                       declarer_thirds=self.base_thirds + 3 * future_points,
                       birds=birds, valat=not flags & FLAG_LOST_TRICK)

    def score(self, future_points: int, flags: int) -> ScoreResult:
        """The full score sheet of one outcome."""
        return score(self.rules, self.score_input(future_points, flags))

    # --- tables -----------------------------------------------------------------

    def net_table(self) -> dict[int, list[int | None]]:
        """flags -> the declarer's net for F = 0..remaining (consistent flags only).

        ``None`` marks outcomes that cannot happen: Valat (no lost-trick bit)
        means the declarer wins every trick left, so only F = ``remaining``
        is possible there.  Leaving those out halves the scorer calls and
        keeps impossible nets out of the breakpoints.
        """
        cache = getattr(self, "_net_cache", None)
        if cache is not None:
            return cache
        table: dict[int, list[int | None]] = {}
        for flags in self.flag_states():
            inp = self.score_input(0, flags)
            valat = not flags & FLAG_LOST_TRICK
            row: list[int | None] = [None] * (self.remaining + 1)
            for f in range(self.remaining if valat else 0, self.remaining + 1):
                # one outcome's inputs differ only in the pile: copy instead of
                # dataclasses.replace, which re-runs __init__ (a third of the time)
                each = copy.copy(inp)
                object.__setattr__(each, "declarer_thirds", self.base_thirds + 3 * f)
                row[f] = score(self.rules, each).net_declarer
            known = [v for v in row if v is not None]
            if any(b < a for a, b in zip(known, known[1:], strict=False)):
                raise RulesError(  # the threshold search relies on this; no profile breaks it
                    "internal: the net is not monotone in the declarer's card points "
                    f"(flags {flags}): {row}"
                )
            table[flags] = row
        object.__setattr__(self, "_net_cache", table)
        return table

    def goals(self) -> list[int]:
        """The sorted distinct nets the position can end with (the breakpoints)."""
        return sorted({v for row in self.net_table().values() for v in row if v is not None})

    def thresholds(self) -> np.ndarray:
        """``T[k, flags]``: the fewest future points giving net ≥ ``goals()[k]``.

        For fixed flags the net never decreases as the declarer takes more points
        (game, over/under points and targets are all monotone in P), so the goal
        "net ≥ X" is, per outcome, "F ≥ threshold": these thresholds are all the
        kernel needs.

        :data:`IMPOSSIBLE` where the outcome never reaches the goal (and for
        flag values that cannot occur).  Impossible points (``None`` in
        :meth:`net_table`) are skipped: a Valat outcome's threshold is
        ``remaining`` or :data:`IMPOSSIBLE`.
        """
        cache = getattr(self, "_thresholds_cache", None)
        if cache is not None:
            return cache
        goals = np.array(self.goals(), dtype=np.int64)
        out = np.full((len(goals), N_FLAGS), IMPOSSIBLE, dtype=np.int64)
        for flags, row in self.net_table().items():
            start = next(f for f, v in enumerate(row) if v is not None)
            # rows are non-decreasing: the first F with net >= goal by binary search
            known = np.array(row[start:], dtype=np.int64)
            first = np.searchsorted(known, goals, side="left")
            out[:, flags] = np.where(first < len(known), first + start, IMPOSSIBLE)
        out.flags.writeable = False
        object.__setattr__(self, "_thresholds_cache", out)
        return out

    def threshold_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per goal and trick-start state: the least and the most threshold any final flags need.

        Column ``flags | open << 7`` (``open``: bits 1/2/4 for Pagat/Uhu/Kakadu)
        describes a trick start with ``flags`` reached so far where the
        birds in ``open`` are still in a hand with their trick ahead; every
        other bird's code is final, and so is a set lost-trick bit.  Only
        final flags the position can end in count (the others would spoil
        the bounds).  The kernel turns these into quick bounds.
        """
        reachable = np.array(sorted(self.net_table()), dtype=np.int64)
        t = self.thresholds()[:, reachable]
        cols = np.arange(N_BOUND_COLUMNS, dtype=np.int64)
        now, open_birds = cols & (N_FLAGS - 1), cols >> 7
        # ok[col, r]: can the trick-start state ``col`` end in reachable outcome r?
        ok = ~((now[:, None] & FLAG_LOST_TRICK) != 0) | ((reachable[None, :] & FLAG_LOST_TRICK) != 0)
        for b in range(3):
            code_now = (now >> (2 * b)) & 3
            settled = (code_now != 0) | ((open_birds >> b) & 1 == 0)
            same = ((reachable >> (2 * b)) & 3)[None, :] == code_now[:, None]
            ok &= ~settled[:, None] | same
        lo = np.full((t.shape[0], N_BOUND_COLUMNS), IMPOSSIBLE, dtype=np.int64)
        hi = np.full_like(lo, IMPOSSIBLE)
        # many columns share one set of reachable outcomes: reduce each set once
        sets, which = np.unique(ok, axis=0, return_inverse=True)
        for i, sup in enumerate(sets):
            if sup.any():
                cols_i = np.flatnonzero(which.ravel() == i)
                lo[:, cols_i] = t[:, sup].min(axis=1)[:, None]
                hi[:, cols_i] = t[:, sup].max(axis=1)[:, None]
        return lo, hi

    def relevant_birds(self) -> int:
        """Bits 1/2/4 of the live birds whose outcome can change the declarer's net.

        The others are ordinary cards to the kernel (equivalences and
        relative-rank keys may merge them with their neighbours).
        """
        table = self.net_table()
        bits = 0
        for b in range(3):
            field = 3 << (2 * b)
            for flags, row in table.items():
                others = [table[g] for g in table if g & ~field == flags & ~field]
                if any(o != row for o in others):
                    bits |= 1 << b
                    break
        return bits

    def valat_matters(self) -> bool:
        """Does winning every trick change the net for some outcome?"""
        table = self.net_table()
        last = self.remaining  # a Valat outcome takes every point left
        return any(flags | FLAG_LOST_TRICK in table
                   and table[flags | FLAG_LOST_TRICK][last] != row[last]
                   for flags, row in table.items() if not flags & FLAG_LOST_TRICK)


def _extends(final: int, now: int, open_birds: int = 7) -> bool:
    """Can flags ``now`` end as ``final`` when only the birds in ``open_birds`` are open?"""
    if now & FLAG_LOST_TRICK and not final & FLAG_LOST_TRICK:
        return False
    for b in range(3):
        code = bird_code_of(now, b)
        if code or not open_birds >> b & 1:
            if bird_code_of(final, b) != code:
                return False
    return True


def make_payoff(rules: Rules, contract: str, declarer: int, hands: tuple[int, int, int], *,
                leader: int = 0, trick: tuple[int, ...] = (), base_thirds: int,
                announcements: Mapping[str, str] | None = None,
                defender_announcements: Mapping[int, Mapping[str, str]] | None = None,
                contras: Mapping[str, str] | None = None, level: str | None = None,
                fixed_birds: Mapping[str, BirdOutcome] | None = None,
                valat_open: bool = False, declarer_hand: int | None = None,
                dealt: tuple[int | None, int | None, int | None] = (None, None, None)) -> Payoff:
    """Build and validate the payoff of a position (hands, ``leader`` and trick in progress).

    ``base_thirds`` is the declarer's pile outside the cards still in play
    (his discard plus the tricks he took).  Announced birds that are not in
    play need their outcome in ``fixed_birds`` (or count as not played).
    """
    in_play = hands[0] | hands[1] | hands[2]
    for c in trick:
        in_play |= 1 << c
    remaining_thirds = thirds_of(in_play)
    if remaining_thirds % 3:
        raise RulesError("the cards still in play must form whole tricks.")
    live: dict[str, int] = {}
    for bird in BIRD_KEYS:
        card = BIRD_CARD[bird]
        for seat in range(3):
            if hands[seat] >> card & 1:
                live[bird] = seat
        if card in trick:
            live[bird] = (leader + trick.index(card)) % 3
    fixed = {item_name(k): v for k, v in (fixed_birds or {}).items()}
    for bird in live:
        if bird in fixed:
            raise RulesError(f"{bird} is still in a hand; it has no settled outcome yet.")
    anns = {item_name(k): v for k, v in (announcements or {}).items()}
    template = ScoreInput(
        contract=rules.contract_key(contract), declarer=declarer, level=level,
        announcements=anns,
        defender_announcements={s: dict(a) for s, a in (defender_announcements or {}).items()},
        contras=dict(contras or {}), declarer_hand=declarer_hand, dealt=dealt)
    for bird in BIRD_KEYS:
        if bird in anns and bird not in live and bird not in fixed:
            fixed[bird] = BirdOutcome(declarer, None, None)
    payoff = Payoff(rules=rules, template=template, base_thirds=base_thirds,
                    remaining=remaining_thirds // 3, live=live, fixed_birds=fixed,
                    valat_open=valat_open)
    payoff.score(0, FLAG_LOST_TRICK)  # validates announcements, contras and the pile residue
    return payoff

