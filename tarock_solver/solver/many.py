"""Many independent card-point positions solved on all cores: :func:`solve_many`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import RulesError
from ._kernels import mtd
from .cardpoints import check_tt_bits
from .position import Position

__all__ = ["solve_many"]


def solve_many(positions: Iterable[Position | Sequence[Any] | dict[str, Any]], *,
               threads: int | None = None, target: int | Sequence[int] | None = None,
               tt_bits: int | None = None,
               stats: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Solve many independent positions on all cores.

    Positions are :class:`~.position.Position` objects (or tuples / dicts of its
    arguments).  Position i is solved by worker ``i % threads`` (a numba ``prange``
    over workers), each worker with its own transposition table of ``2**tt_bits``
    rows, shared by all its positions.  Returns an int64 array of exact values, or
    with ``target`` (one int, or one per position) a bool array; with
    ``stats=True`` also an int64 array of nodes.

    Unless ``NUMBA_THREADING_LAYER`` says otherwise, the workers run on numba's
    ``workqueue`` layer: with the OpenMP layer a process that forks after a
    parallel kernel ran kills its children (docs/SOLVER_NOTES.md), and
    ``workqueue`` is fork-safe.  Not safe to call concurrently from several
    Python threads.
    """
    import numba

    if "NUMBA_THREADING_LAYER" not in os.environ:
        # only effective before numba's first parallel launch in the process
        numba.config.THREADING_LAYER = "workqueue"

    preps = [Position.of(p) for p in positions]
    n = len(preps)
    nthreads = numba.get_num_threads() if threads is None else int(threads)
    if nthreads < 1:
        raise RulesError(f"threads {threads} must be at least 1")
    nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS, max(n, 1)))
    bits = check_tt_bits(tt_bits)
    hands = np.zeros((n, 3), dtype=np.int64)
    tcards = np.zeros((n, 3), dtype=np.int64)
    leaders = np.zeros(n, dtype=np.int64)
    ntricks = np.zeros(n, dtype=np.int64)
    declarers = np.zeros(n, dtype=np.int64)
    birds = np.zeros(n, dtype=np.int64)
    for i, p in enumerate(preps):
        h, leaders[i], tc, ntricks[i], declarers[i], birds[i] = p.kernel_args()
        hands[i] = h
        tcards[i] = tc
    if target is None:
        targets = np.full(n, -1, dtype=np.int64)
    elif np.ndim(target) == 0:
        targets = np.full(n, int(target), dtype=np.int64)  # type: ignore[arg-type]
    else:
        targets = np.asarray(target, dtype=np.int64)
        if targets.shape != (n,):
            raise RulesError(f"target needs one value per position ({n}); found {targets.size}")
    if target is not None:
        targets = np.maximum(targets, 0)  # any target <= 0 is reached; < 0 means "exact" below
    out = np.zeros(n, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)
    if n:
        previous = numba.get_num_threads()
        numba.set_num_threads(nthreads)
        try:
            mtd.solve_batch(hands, leaders, tcards, ntricks, declarers, birds, targets, bits,
                               nthreads, out, nodes)
        finally:
            numba.set_num_threads(previous)
    result = out if target is None else out.astype(bool)
    return (result, nodes) if stats else result
