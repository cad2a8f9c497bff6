"""Allocation of transposition tables.

A table of 2**21 rows is 128 MiB probed at random, so with 4 KiB pages
nearly every probe also misses the TLB.  On Linux the table is mapped
anonymously and advised to use transparent huge pages (2 MiB), which removes
most of those misses; elsewhere it is a plain ``numpy.zeros`` array.
"""

from __future__ import annotations

import mmap

import numpy as np

__all__ = ["new_table"]

#: Below this size huge pages buy nothing (the table fits the TLB's reach).
_HUGE_MIN_BYTES = 8 << 20


def new_table(bits: int, columns: int) -> np.ndarray:
    """A zeroed int64 table of shape ``(2**bits, columns)``, on huge pages where possible."""
    shape = (1 << bits, columns)
    size = shape[0] * shape[1] * 8
    advise = getattr(mmap, "MADV_HUGEPAGE", None)
    if size < _HUGE_MIN_BYTES or advise is None:
        return np.zeros(shape, dtype=np.int64)
    try:
        buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buf.madvise(advise)
    except (OSError, ValueError, AttributeError):
        return np.zeros(shape, dtype=np.int64)
    # the array keeps the mapping alive through its ``base``; fresh anonymous
    # memory is zero-filled by the kernel
    return np.frombuffer(buf, dtype=np.int64).reshape(shape)
