"""A clock the kernels can read: the CPU's cycle counter, and its rate.

A seconds budget is enforced inside a search (one null-window test of a whole deal
can take many seconds), and nopython code has no wall clock that survives
``cache=True``.  ``llvm.readcyclecounter`` is one instruction (``rdtsc`` on x86-64,
a constant-rate counter on every CPU of the last decade) and pure LLVM IR, so the
kernels that read it stay cacheable.  :func:`cycles_per_second` calibrates the
counter against ``time.perf_counter`` once per process.
"""

from __future__ import annotations

import time

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["cycles", "cycles_per_second", "deadline_after"]


@intrinsic
def _readcyclecounter(typingctx):
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(fn, [])

    return sig, codegen


@njit(cache=True, inline="always")
def cycles():
    """The cycle counter now (0 where the CPU has none)."""
    return _readcyclecounter()


_RATE: float | None = None


def cycles_per_second() -> float:
    """Counter ticks per second, measured once per process (0.0: no usable counter)."""
    global _RATE
    if _RATE is None:
        best = 0.0
        for _ in range(3):
            t0, c0 = time.perf_counter(), cycles()
            while time.perf_counter() - t0 < 0.01:
                pass
            t1, c1 = time.perf_counter(), cycles()
            rate = (c1 - c0) / (t1 - t0) if t1 > t0 else 0.0
            best = max(best, rate)
        _RATE = best if best > 1e6 else 0.0
    return _RATE


def deadline_after(seconds: float) -> int:
    """The counter reading ``seconds`` from now, for ``stats[ST_DEADLINE]`` (never 0)."""
    rate = cycles_per_second()
    if rate <= 0.0:
        raise RuntimeError("this CPU has no usable cycle counter for a seconds budget")
    return max(1, int(cycles() + seconds * rate))
