"""Assemble the final output from the checkpoints, in input order.

The output is streamed chunk by chunk (a run over millions of deals never holds all
rows in memory) into a temporary file that replaces ``OUT`` only when complete.  Since
the chunks and their order depend only on the input and the settings, the bytes of
``OUT`` do not depend on how many workers ran or how often the run was restarted.

Formats follow NOTATION.md 5.3: CSV with ``true``/``false`` and empty fields for
nulls; JSON Lines with one object per row (``null`` for nulls, floats written
exactly); Parquet with ``declarer`` and ``contract`` dictionary-encoded.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pandas as pd

from ..analysis.results import frame_to_csv, plain_cell
from ..checkpoint import Checkpoint, atomic_write
from .errors import BatchError
from .worker import ChunkResult, RecordError

__all__ = ["Merged", "errors_path_for", "output_format", "write_errors", "write_output",
           "frame_to_csv", "frame_to_jsonl"]

_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".jsonl": "jsonl",
            ".ndjson": "jsonl"}
#: Columns stored as Parquet dictionaries (NOTATION 5.3): few distinct values, many rows.
DICTIONARY_COLUMNS = ("declarer", "contract", "seat")
PARQUET_HINT = 'Parquet output needs pyarrow: pip install "tarock-solver[parquet]"'


def has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def output_format(path: str | os.PathLike[str]) -> str:
    """``"parquet"``, ``"csv"`` or ``"jsonl"`` from the extension; BatchError otherwise."""
    suffix = Path(path).suffix.lower()
    fmt = _FORMATS.get(suffix)
    if fmt is None:
        raise BatchError(f"{path}: unknown output type {suffix or '(no extension)'}; use "
                         f".parquet, .csv or .jsonl.")
    if fmt == "parquet" and not has_pyarrow():
        raise BatchError(f"{path}: {PARQUET_HINT}, or write .csv or .jsonl instead.")
    return fmt


def errors_path_for(output: str | os.PathLike[str]) -> Path:
    """``OUT.errors.csv`` beside the output."""
    out = Path(output)
    return out.with_name(out.name + ".errors.csv")


# ---------------------------------------------------------------------------
# Serialising one frame
# ---------------------------------------------------------------------------


# Cells are formatted by tarock_solver.analysis.results (csv_cell, plain_cell), so a batch
# file and a file written by the library read and diff the same (tests/test_batch.py).


def frame_to_jsonl(frame: pd.DataFrame) -> str:
    """``frame`` as JSON Lines: one object per row, columns in frame order."""
    names = list(frame.columns)
    return "".join(json.dumps({c: plain_cell(v) for c, v in zip(names, row, strict=True)},
                              ensure_ascii=False) + "\n"
                   for row in frame.itertuples(index=False, name=None))


# ---------------------------------------------------------------------------
# Streaming writers
# ---------------------------------------------------------------------------


class _TextWriter:
    def __init__(self, handle: IO[str], fmt: str) -> None:
        self.handle = handle
        self.fmt = fmt
        self.header_written = False

    def write(self, frame: pd.DataFrame) -> None:
        if self.fmt == "csv":
            self.handle.write(frame_to_csv(frame, header=not self.header_written))
            self.header_written = True
        elif len(frame):
            self.handle.write(frame_to_jsonl(frame))

    def finish(self) -> None:
        pass


class _ParquetWriter:
    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        self.writer: Any = None
        self.schema: Any = None

    def _table(self, frame: pd.DataFrame) -> Any:
        import pyarrow as pa

        table = pa.Table.from_pandas(frame, preserve_index=False)
        for name in DICTIONARY_COLUMNS:
            if name in table.column_names:
                i = table.column_names.index(name)
                column = table.column(i)
                if not pa.types.is_dictionary(column.type):
                    column = column.cast(pa.string()).dictionary_encode()
                    table = table.set_column(i, pa.field(name, column.type), column)
        if self.schema is not None:
            table = table.cast(self.schema)
        return table

    def write(self, frame: pd.DataFrame) -> None:
        import pyarrow.parquet as pq

        # An empty chunk only contributes its schema, and only if nothing else does.
        if len(frame) == 0 and self.writer is not None:
            return
        table = self._table(frame)
        if self.writer is None:
            self.schema = table.schema
            self.writer = pq.ParquetWriter(self.handle, self.schema)
        if len(frame):
            self.writer.write_table(table)

    def finish(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Merged:
    """What the merge found: rows written (``open_rows`` of them over their node budget)
    and the records the workers could not analyse."""

    rows: int = 0
    errors: list[RecordError] = field(default_factory=list)
    open_rows: int = 0


def _remove_stale_temporaries(out: Path) -> None:
    # atomic_write's temporary names; left behind only by a run killed while merging.
    for entry in out.parent.glob(f".{out.stem}.tmp-*{out.suffix}"):
        with contextlib.suppress(OSError):
            entry.unlink()


def write_output(ckpt: Checkpoint, n_chunks: int, output: Path, empty: pd.DataFrame) -> Merged:
    """Write ``output`` from chunks ``0 … n_chunks − 1`` of ``ckpt``, in that order.

    ``empty`` (the mode's schema without rows) is written when there are no chunks at
    all, so that even a file without a single good record gives a valid, typed output.
    """
    fmt = output_format(output)
    _remove_stale_temporaries(output)
    merged = Merged()

    def write(handle: IO[Any]) -> None:
        writer: _TextWriter | _ParquetWriter = (_ParquetWriter(handle) if fmt == "parquet"
                                                else _TextWriter(handle, fmt))
        for index in range(n_chunks):
            result = ChunkResult.from_payload(index, ckpt.load(index))
            writer.write(result.frame)
            merged.rows += len(result.frame)
            merged.errors.extend(result.errors)
            merged.open_rows += result.open_rows
        if n_chunks == 0:
            writer.write(empty)
        writer.finish()

    try:
        atomic_write(output, write, binary=fmt == "parquet")
    except OSError as exc:
        raise BatchError(f"{output}: cannot write the file ({exc.strerror or exc}).") from None
    return merged


def write_errors(path: Path, errors: list[RecordError]) -> Path | None:
    """Write the errors file (``line,id,reason``); remove a stale one if there are none."""
    if not errors:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return None

    def write(handle: IO[str]) -> None:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["line", "id", "reason"])
        for e in errors:
            writer.writerow(["" if e.line is None else e.line, e.id or "", e.reason])

    try:
        atomic_write(path, write, binary=False)
    except OSError as exc:
        raise BatchError(f"{path}: cannot write the file ({exc.strerror or exc}).") from None
    return path
