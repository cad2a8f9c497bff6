"""A series of deals to 100, its end bonus and the settlement (RULES.md 9).

Every player adds what he writes to his total.  The series ends after the
first deal in which a total reaches ``series_target``.  The end bonus
(``series_bonus``) is then added, and each pair of players settles the
difference of their totals, so player i's balance is ``n·S_i − ΣS``.

``continue``: if two or more players reach the target, play goes on to twice
the target (bonus 20), then three times (bonus 30), and so on; the series
ends when exactly one player stands at or above the current target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import RulesError
from .rules import Rules

#: The end bonus at the first target (RULES.md 9: +10); ×k at the k-th target.
END_BONUS = 10
SERIES_BONUS_MODES = ("all_over", "highest_only", "continue")


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (player indices)."""

    payer: int
    payee: int
    amount: int


def settle(totals: Sequence[int]) -> tuple[int, ...]:
    """Each player's balance when everyone pays everyone the difference: n·S_i − ΣS."""
    total = sum(totals)
    return tuple(len(totals) * s - total for s in totals)


def payments(totals: Sequence[int]) -> list[Payment]:
    """The pairwise payments of a settlement, lower total paying the higher one."""
    out = []
    for i in range(len(totals)):
        for j in range(i + 1, len(totals)):
            diff = totals[j] - totals[i]
            if diff > 0:
                out.append(Payment(i, j, diff))
            elif diff < 0:
                out.append(Payment(j, i, -diff))
    return out


def current_target(totals: Sequence[int], target: int = 100, mode: str = "all_over") -> int:
    """The total that ends the series now: ``target``, raised under ``continue``
    while two or more players stand at or above it."""
    _check(mode, target)
    level = target
    if mode == "continue":
        while sum(1 for s in totals if s >= level) >= 2:
            level += target
    return level


def is_over(totals: Sequence[int], target: int = 100, mode: str = "all_over") -> bool:
    """Does the series end with these totals (checked after each deal)?"""
    level = current_target(totals, target, mode)
    reached = sum(1 for s in totals if s >= level)
    return reached == 1 if mode == "continue" else reached >= 1


def end_bonus(totals: Sequence[int], target: int = 100, mode: str = "all_over",
              bonus: int = END_BONUS) -> tuple[int, ...]:
    """The end bonus of each player for a series that ends with ``totals``.

    ``all_over``: every player at or above the target; ``highest_only``: the
    highest total (all of them if tied); ``continue``: the one player at or
    above the final target, ``bonus`` × (final target / target).
    """
    if not is_over(totals, target, mode):
        raise RulesError(
            f"the series is not over: totals {list(totals)}, target {current_target(totals, target, mode)}."
        )
    level = current_target(totals, target, mode)
    if mode == "all_over":
        return tuple(bonus if s >= target else 0 for s in totals)
    if mode == "highest_only":
        top = max(totals)
        return tuple(bonus if s == top else 0 for s in totals)
    return tuple(bonus * (level // target) if s >= level else 0 for s in totals)


def final_totals(totals: Sequence[int], target: int = 100, mode: str = "all_over",
                 bonus: int = END_BONUS) -> tuple[int, ...]:
    """Totals with the end bonus added."""
    extra = end_bonus(totals, target, mode, bonus)
    return tuple(s + b for s, b in zip(totals, extra, strict=True))


def _check(mode: str, target: int) -> None:
    if mode not in SERIES_BONUS_MODES:
        raise RulesError(
            f'unknown series_bonus "{mode}"; expected one of: {", ".join(SERIES_BONUS_MODES)}.'
        )
    if target <= 0:
        raise RulesError(f"series_target must be positive; got {target}.")


@dataclass
class Series:
    """A running series under ``rules`` (``series_target``, ``series_bonus``)."""

    rules: Rules
    totals: list[int] = field(default_factory=lambda: [0, 0, 0])
    deals: int = 0

    @property
    def target(self) -> int:
        return current_target(self.totals, self.rules.series_target, self.rules.series_bonus)

    @property
    def over(self) -> bool:
        return is_over(self.totals, self.rules.series_target, self.rules.series_bonus)

    def add(self, written: Sequence[int]) -> None:
        """Add one deal's written amounts (F, M, R of that deal, in player order)."""
        if self.over:
            raise RulesError("the series is over; start a new one.")
        if len(written) != len(self.totals) or any(w < 0 for w in written):
            raise RulesError(f"written amounts {list(written)}: one non-negative amount per player.")
        self.totals = [s + w for s, w in zip(self.totals, written, strict=True)]
        self.deals += 1

    def final_totals(self) -> tuple[int, ...]:
        return final_totals(self.totals, self.rules.series_target, self.rules.series_bonus)

    def settlement(self) -> tuple[int, ...]:
        return settle(self.final_totals())
