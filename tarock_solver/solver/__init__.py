"""Double-dummy solver: the card-point search (:mod:`.kernel`) with its play rules
(:mod:`.play_kernel`), quick bounds (:mod:`.bounds`), keys (:mod:`.keys`) and move
ordering (:mod:`.ordering`); the game-point search (:mod:`.payoff_kernel`); the
public API (:mod:`.api`) and brute-force oracles (:mod:`.reference`,
:mod:`.payoff_reference`)."""

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
