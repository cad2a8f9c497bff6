"""The one limit every search takes: a node count and/or a wall-clock time.

Like python-chess's ``engine.Limit``: one object, passed to every search; a search
that runs out of it stops, keeps its table sound and reports the bounds it proved
(:class:`~.result.SearchResult`).  ``Budget()`` is no limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import RulesError

__all__ = ["Budget", "UNLIMITED"]


@dataclass(frozen=True)
class Budget:
    """At most ``nodes`` search nodes and/or ``seconds`` of wall-clock time for one call
    (all the null-window tests of an exact value or of a game-point solve together).
    ``None`` is no limit on that count."""

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None:
            if isinstance(self.nodes, bool) or int(self.nodes) != self.nodes or self.nodes < 1:
                raise RulesError(f"a node budget must be a whole number of at least 1, "
                                 f"not {self.nodes!r}")
            object.__setattr__(self, "nodes", int(self.nodes))
        if self.seconds is not None:
            try:
                seconds = float(self.seconds)
            except (TypeError, ValueError):
                seconds = math.nan
            if not math.isfinite(seconds) or seconds <= 0:
                raise RulesError(f"a time budget must be a finite number of seconds above 0, "
                                 f"not {self.seconds!r}")
            object.__setattr__(self, "seconds", seconds)

    @property
    def unlimited(self) -> bool:
        return self.nodes is None and self.seconds is None

    @classmethod
    def of(cls, value: Budget | int | None) -> Budget:
        """A Budget from a Budget, a node count or None (no limit)."""
        if value is None:
            return UNLIMITED
        if isinstance(value, Budget):
            return value
        return cls(nodes=value)


UNLIMITED = Budget()
