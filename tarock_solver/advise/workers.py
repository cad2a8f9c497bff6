"""The state of a spawned worker process: its one :class:`~.world.WorldSolver`.

A spawn pool can only call module-level functions, so the solver a worker
builds once (from the :class:`~.plan.Problem` its initializer receives) lives
in a module global here, and nowhere else.
"""

from __future__ import annotations

from .plan import Problem
from .world import FixedChoices, Unit, WorldSolver

_SOLVER: WorldSolver | None = None


def start(problem: Problem) -> None:
    """Pool initializer: build this process's solver."""
    global _SOLVER
    _SOLVER = WorldSolver(problem)


def run(unit: Unit, deadline: float | None, fixed: FixedChoices):
    """Evaluate one unit of work in this process."""
    assert _SOLVER is not None
    return _SOLVER.run(unit, deadline, fixed)
