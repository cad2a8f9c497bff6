"""Split a deal file into deterministic chunks.

Chunk *i* holds the good records ``i·K … i·K + K − 1`` of the file in file order
(K = chunk size), so the chunks — and with them every checkpoint — depend only on
the file and K, never on how many workers run them or in which order they finish.
Bad records are reported once, here, with their line numbers; they take no place in
any chunk.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..deal import DealWarning
from ..deal_files import DealRecord, read_deals
from .worker import ChunkTask, RecordError

__all__ = ["DEFAULT_CHUNK_SIZE", "BatchPlan", "file_sha256", "plan_batch"]

#: Deals per chunk: small enough that a killed run loses little, large enough that the
#: per-chunk overhead (a checkpoint file, a round trip to a worker) stays negligible.
DEFAULT_CHUNK_SIZE = 16


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes (read in blocks: inputs may be large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class BatchPlan:
    """The input of a run: its good records, its bad lines, and the chunking."""

    input: Path
    input_sha256: str
    records: tuple[DealRecord, ...]
    input_errors: tuple[RecordError, ...]
    warnings: tuple[str, ...]
    chunk_size: int

    @property
    def n_chunks(self) -> int:
        return -(-len(self.records) // self.chunk_size)

    def chunk(self, index: int) -> ChunkTask:
        """Chunk ``index`` (0-based) as a task for a worker."""
        if not 0 <= index < self.n_chunks:
            raise IndexError(f"chunk {index} out of range 0..{self.n_chunks - 1}")
        start = index * self.chunk_size
        return ChunkTask(index, self.records[start:start + self.chunk_size])

    def chunk_sizes(self) -> list[int]:
        return [min(self.chunk_size, len(self.records) - i * self.chunk_size)
                for i in range(self.n_chunks)]


def _reason(err: Exception) -> str:
    """The problems of a bad record without the ``file:line (id …):`` prefix of each."""
    messages = getattr(err, "messages", None)
    return " ".join(messages) if messages else str(err)


def plan_batch(input_path: str | os.PathLike[str], chunk_size: int = DEFAULT_CHUNK_SIZE,
               *, reader: Callable[..., Any] | None = None) -> BatchPlan:
    """Read ``input_path`` (NOTATION 5.1/5.2) and split it into chunks of ``chunk_size``.

    A file that cannot be read at all raises :class:`FileFormatError`; bad records do
    not: they are returned as ``input_errors`` (line, id, reason) in file order.  File
    warnings (unknown fields, tarock-less hands) are returned as text.  ``reader(path) ->
    (records, errors)`` replaces the deal-file reader for a mode with input of its own
    (play records for ``review``).
    """
    if int(chunk_size) < 1:
        raise ValueError(f"chunk size must be at least 1, not {chunk_size}")
    path = Path(input_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DealWarning)
        if reader is None:
            records, errors = read_deals(path, strict=False)
        else:
            records, errors = reader(path)
    # Hash after reading: read_deals has already turned an unreadable file into a clear error.
    digest = file_sha256(path)
    texts = tuple(str(w.message) for w in caught if issubclass(w.category, DealWarning))
    for w in caught:  # anything else is not ours to swallow
        if not issubclass(w.category, DealWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    bad = tuple(RecordError(e.line, e.record_id, _reason(e)) for e in errors)
    return BatchPlan(input=path, input_sha256=digest, records=tuple(records), input_errors=bad,
                     warnings=texts, chunk_size=int(chunk_size))
