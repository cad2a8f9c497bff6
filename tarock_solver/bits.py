"""Bit operations on card masks, usable from Python and from numba kernels.

The ``*_nb`` functions are numba intrinsics that compile to single machine
instructions (``popcnt``, ``tzcnt``, ``lzcnt``) inside ``@njit`` code.  Plain
Python callers should use :func:`popcount`, :func:`lowest_index`,
:func:`highest_index` and :func:`iter_indices`, which work on Python ints.
"""

from __future__ import annotations

from collections.abc import Iterator

import llvmlite.binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic


def _host_has_bmi2() -> bool:
    """True when numba compiles for this CPU and the CPU has BMI2 (pext/pdep).

    With ``NUMBA_CPU_NAME`` set (portable caches, e.g. ``generic``) the
    instructions may not exist on the machine that loads the cache, so the
    software loops are used.  numba keys its cache on the CPU name and
    features, so a cache built with the instructions is never loaded on a
    machine without them.
    """
    if config.CPU_NAME is not None:
        return False
    try:
        return "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")
    except RuntimeError:
        return False


#: Whether :func:`pext_nb`/:func:`pdep_nb` compile to single instructions.
HAS_BMI2 = _host_has_bmi2()


@intrinsic
def popcount_nb(typingctx, x):
    """Number of set bits of a uint64 (numba only)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        val = builder.zext(args[0], ir.IntType(64)) if args[0].type.width < 64 else args[0]
        return builder.ctpop(val)

    return sig, codegen


@intrinsic
def ctz_nb(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (numba only)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def clz_nb(typingctx, x):
    """Number of leading zero bits of a non-zero uint64 (numba only)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


def _pext_soft(x, m):
    r = 0
    k = 0
    while m:
        low = m & -m
        if x & low:
            r |= 1 << k
        k += 1
        m ^= low
    return r


def _pdep_soft(x, m):
    r = 0
    k = 0
    while m:
        low = m & -m
        if (x >> k) & 1:
            r |= low
        k += 1
        m ^= low
    return r


def _bmi2_intrinsic(name: str, soft):
    def impl(typingctx, x, m):
        if not isinstance(x, types.Integer) or not isinstance(m, types.Integer):
            return None
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            a = context.cast(builder, args[0], signature.args[0], types.int64)
            b = context.cast(builder, args[1], signature.args[1], types.int64)
            if HAS_BMI2:
                fnty = ir.FunctionType(i64, [i64, i64])
                fn = cgutils.get_or_insert_function(builder.module, fnty, name)
                return builder.call(fn, [a, b])
            return context.compile_internal(builder, soft, types.int64(types.int64, types.int64),
                                            [a, b])

        return sig, codegen

    impl.__name__ = soft.__name__.replace("_soft", "_nb")
    return intrinsic(impl)


#: Bits of ``x`` at the set positions of ``m``, packed to the low end (x86 ``pext``; numba only).
pext_nb = _bmi2_intrinsic("llvm.x86.bmi.pext.64", _pext_soft)
#: The low bits of ``x`` scattered to the set positions of ``m`` (x86 ``pdep``; numba only).
pdep_nb = _bmi2_intrinsic("llvm.x86.bmi.pdep.64", _pdep_soft)


def popcount(mask: int) -> int:
    return int(mask).bit_count()


def lowest_index(mask: int) -> int:
    """Index of the lowest set bit; -1 for an empty mask."""
    mask = int(mask)
    return (mask & -mask).bit_length() - 1


def highest_index(mask: int) -> int:
    """Index of the highest set bit; -1 for an empty mask."""
    return int(mask).bit_length() - 1


def iter_indices(mask: int) -> Iterator[int]:
    """Set-bit indices of a mask, lowest first."""
    mask = int(mask)
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
