"""Double-dummy solver: numba kernels (:mod:`.kernel`), the public API
(:mod:`.api`) and a brute-force oracle (:mod:`.reference`)."""

from .api import (
    NodeLimitExceeded,
    Position,
    Solver,
    SolveStats,
    default_solver,
    solve_cards,
    solve_many,
    solve_position,
)

__all__ = [
    "NodeLimitExceeded",
    "Position",
    "Solver",
    "SolveStats",
    "default_solver",
    "solve_cards",
    "solve_many",
    "solve_position",
]
