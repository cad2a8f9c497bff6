"""Bit helpers for card masks, usable from Python and from numba kernels.

The ``*_nb`` functions are numba intrinsics that compile to single machine
instructions (``popcnt``, ``tzcnt``, ``lzcnt``) inside ``@njit`` code.  Plain
Python callers should use :func:`popcount`, :func:`lowest_index`,
:func:`highest_index` and :func:`iter_indices`, which work on Python ints.
"""

from __future__ import annotations

from collections.abc import Iterator

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


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
