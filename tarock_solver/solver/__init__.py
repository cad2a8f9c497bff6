"""Double-dummy solver: numba kernels (:mod:`.kernel`), the public API
(:mod:`.api`) and a brute-force oracle (:mod:`.reference`)."""

from .api import (
    Position,
    Solver,
    SolveStats,
    default_solver,
    solve_cards,
    solve_many,
    solve_position,
)

__all__ = [
    "Position",
    "Solver",
    "SolveStats",
    "default_solver",
    "solve_cards",
    "solve_many",
    "solve_position",
]
