"""tarock-solver: double-dummy analysis and bidding advice for Illustrated Tarock."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ._cache_location import installed_cache_dir

__version__ = "0.1.0"

# Before any module imports numba (it reads its settings once): an installed copy keeps
# its compiled kernels in a user cache folder, not in site-packages (see _cache_location).
_cache = installed_cache_dir(os.path.dirname(__file__), os.environ)
if _cache is not None:
    os.environ["NUMBA_CACHE_DIR"] = _cache
del _cache

if TYPE_CHECKING:
    from .estimate import (
        estimate_game_points,
        estimate_game_points_many,
        estimate_many,
        estimate_position,
    )
    from .solver import solve_position, solve_trischaken

__all__ = ["__version__", "estimate_game_points", "estimate_game_points_many",
           "estimate_many", "estimate_position", "solve_position", "solve_trischaken"]


def __getattr__(name: str) -> Any:
    # The solver pulls in numba (~0.5 s); load it on first use so the CLI starts fast.
    if name in ("solve_position", "solve_trischaken"):
        from . import solver

        return getattr(solver, name)
    if name in ("estimate_many", "estimate_position", "estimate_game_points",
                "estimate_game_points_many"):
        from . import estimate

        return getattr(estimate, name)
    raise AttributeError(f"module 'tarock_solver' has no attribute {name!r}")
