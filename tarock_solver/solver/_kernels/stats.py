"""The counter array every search kernel shares with its driver: one slot layout.

``stats`` is an int64 array of :data:`NSTATS` slots.  The kernels add their work to
the counters and read the budget from it: ``stats[ST_LIMIT] > 0`` caps the nodes
counted in ``stats[ST_NODES]`` since the array was last zeroed, and
``stats[ST_DEADLINE] > 0`` is a cycle-counter reading (:mod:`.clock`) after which the
search gives up.  A search that gives up sets ``stats[ST_ABORTED] = 1``, stores
nothing in its table (so the table stays sound) and returns a meaningless value.
"""

from __future__ import annotations

import numpy as np

from .clock import deadline_after

ST_NODES = 0
ST_TT_HITS = 1
#: table entries that decided a node without a search
ST_TT_CUTS = 2
#: quick bounds that decided a node
ST_QB_CUTS = 3
#: the root's best card after a game-point search (-1: none)
ST_BEST = 4
ST_LIMIT = 6
ST_ABORTED = 7
#: cut-offs at trick positions 0, 1, 2 by the first move (8..10) and by later moves (11..13)
ST_CUT_FIRST = 8
ST_DEADLINE = 14
NSTATS = 16


def new_stats() -> np.ndarray:
    """A zeroed counter array."""
    return np.zeros(NSTATS, dtype=np.int64)


def arm(stats: np.ndarray, nodes: int | None, seconds: float | None) -> None:
    """Zero the counters and set the budget of one call: at most ``nodes`` nodes and/or
    ``seconds`` from now (None: no limit on that count)."""
    stats.fill(0)
    if nodes is not None:
        stats[ST_LIMIT] = nodes
    if seconds is not None:
        stats[ST_DEADLINE] = deadline_after(seconds)
