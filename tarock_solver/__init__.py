"""tarock-solver: double-dummy analysis and bidding advice for Illustrated Tarock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .estimate import estimate_many, estimate_position
    from .solver import solve_position

__all__ = ["__version__", "estimate_many", "estimate_position", "solve_position"]


def __getattr__(name: str) -> Any:
    # The solver pulls in numba (~0.5 s); load it on first use so the CLI starts fast.
    if name == "solve_position":
        from .solver import solve_position

        return solve_position
    if name in ("estimate_many", "estimate_position"):
        from . import estimate

        return getattr(estimate, name)
    raise AttributeError(f"module 'tarock_solver' has no attribute {name!r}")
