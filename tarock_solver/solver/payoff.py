"""The payoff model of the game-point solver: a final outcome -> the declarer's net.

The score sheet (RULES.md 5-7) depends on the play only through a small
*final outcome*: the declarer's card points, for each bird card whether it
was played to its own trick and who won that trick, and whether the
declarer won every trick (Valat).  Everything else — contract, level,
announcements, contras, hands for hand bonuses, the discard — is a constant
of the deal.  :class:`Payoff` fixes those constants once and maps every
outcome to the declarer's zero-sum net by calling
:func:`tarock_solver.scoring.score`, so the solver and the score sheet can
never disagree.

Outcome encoding shared with :mod:`.payoff_kernel` (7 bits, ``flags``):

* bits ``2b, 2b+1`` (b = 0 Pagat, 1 Uhu, 2 Kakadu): :data:`BIRD_NOT_IN_TRICK`
  (not played to its trick, or not tracked), :data:`BIRD_WON` (won its trick
  for the holder), :data:`BIRD_LOST` (captured by the other side),
  :data:`BIRD_PARTNER` (a defender's bird captured by his partner);
* bit 6, :data:`FLAG_LOST_TRICK`: the declarer has lost a trick (no Valat).

Card points are counted as *future points* ``F``: the whole points of the
tricks still to be played (the trick in progress included) that the
declarer wins.  The declarer's final pile is ``base_thirds + 3·F`` thirds.

For a fixed outcome the net never decreases when the declarer takes more
points (game, over/under points and targets are all monotone in P), so the
goal "net ≥ X" is, per outcome, "F ≥ threshold".  :meth:`Payoff.thresholds`
gives these thresholds for every breakpoint X, which is all the kernel
needs.
"""

from __future__ import annotations

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
    "IMPOSSIBLE", "N_FLAGS", "Payoff", "bird_code", "bird_code_of", "make_payoff",
]

BIRD_NOT_IN_TRICK, BIRD_WON, BIRD_LOST, BIRD_PARTNER = 0, 1, 2, 3
FLAG_LOST_TRICK = 64
#: Number of distinct flag values (the thresholds table has this many columns).
N_FLAGS = 128
#: Threshold of a goal an outcome can never reach; far above any card points.
IMPOSSIBLE = 1000


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

    def net_table(self) -> dict[int, list[int]]:
        """flags -> the declarer's net for F = 0..remaining (consistent flags only)."""
        cache = getattr(self, "_net_cache", None)
        if cache is not None:
            return cache
        table: dict[int, list[int]] = {}
        for flags in self.flag_states():
            row = [self.score(f, flags).net_declarer for f in range(self.remaining + 1)]
            if any(b < a for a, b in zip(row, row[1:], strict=False)):
                raise RulesError(  # the threshold search relies on this; no profile breaks it
                    "internal: the net is not monotone in the declarer's card points "
                    f"(flags {flags}): {row}"
                )
            table[flags] = row
        object.__setattr__(self, "_net_cache", table)
        return table

    def goals(self) -> list[int]:
        """The sorted distinct nets the position can end with (the breakpoints)."""
        return sorted({v for row in self.net_table().values() for v in row})

    def thresholds(self) -> np.ndarray:
        """``T[k, flags]``: the fewest future points giving net ≥ ``goals()[k]``.

        :data:`IMPOSSIBLE` where the outcome never reaches the goal (and for
        flag values that cannot occur).
        """
        goals = self.goals()
        out = np.full((len(goals), N_FLAGS), IMPOSSIBLE, dtype=np.int64)
        for flags, row in self.net_table().items():
            for k, goal in enumerate(goals):
                for f, net in enumerate(row):
                    if net >= goal:
                        out[k, flags] = f
                        break
        return out

    def threshold_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per goal and flags reached so far: the least and the most any final flags need.

        Final flags keep every bird code already set and the lost-trick bit;
        unset codes may still become anything.  The kernel turns these into
        quick bounds at trick starts.
        """
        t = self.thresholds()
        lo = np.full_like(t, IMPOSSIBLE)
        hi = np.full_like(t, IMPOSSIBLE)
        reachable = list(self.net_table())
        for f in range(N_FLAGS):
            # only outcomes the position can end in: the others would spoil the bounds
            sup = [g for g in reachable if _extends(g, f)]
            if sup:
                lo[:, f] = t[:, sup].min(axis=1)
                hi[:, f] = t[:, sup].max(axis=1)
        return lo, hi


def _extends(final: int, now: int) -> bool:
    """Can flags ``now`` end as ``final``?"""
    if now & FLAG_LOST_TRICK and not final & FLAG_LOST_TRICK:
        return False
    for b in range(3):
        code = bird_code_of(now, b)
        if code and bird_code_of(final, b) != code:
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

