"""What a search returns: the value or the bounds it proved, and the work it took.

A search within its budget returns ``lower == upper`` (the exact value).  One that
ran out returns the bounds proved by the tests it finished — never a midpoint — and
:attr:`SearchResult.value` refuses to invent one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import TarockError

__all__ = ["OverBudget", "SearchResult", "SearchStats"]


class OverBudget(TarockError):
    """An exact value was asked of a search that ran out of its budget."""


@dataclass(frozen=True)
class SearchResult:
    """``lower <= value <= upper`` of one search, with its work.

    Card-point searches bound the declarer's future card points (the current trick
    included); game-point searches his net game points.  ``tests`` counts the
    null-window searches; ``detail`` carries what a search knows beyond the value
    (the game-point breakdown of an optimal line), or None.
    """

    lower: int
    upper: int
    nodes: int = 0
    seconds: float = 0.0
    tests: int = 0
    detail: Any = field(default=None, compare=False)

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def value(self) -> int:
        """The exact value; :class:`OverBudget` if the budget ran out first."""
        if self.lower != self.upper:
            raise OverBudget(f"the search ran out of its budget after {self.nodes:,} nodes with "
                             f"the value between {self.lower} and {self.upper}")
        return self.lower

    def at_least(self, target: int) -> bool | None:
        """Is the value ≥ ``target``?  None when the bounds do not tell."""
        if self.lower >= target:
            return True
        if self.upper < target:
            return False
        return None

    def __str__(self) -> str:
        return str(self.lower) if self.exact else f"{self.lower}..{self.upper}"


@dataclass
class SearchStats:
    """Work done by a search object since it was created (or :meth:`reset`)."""

    nodes: int = 0
    tt_hits: int = 0
    tt_cutoffs: int = 0
    bound_cutoffs: int = 0
    searches: int = 0
    aborted: int = 0
    seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]
