"""The unit of work of a batch run: analyse one chunk of records.

:func:`run_chunk` is what every executor runs — in the main process, in a spawned
worker process or on a Dask worker — so all of them produce the same rows.  It needs
nothing from the main process but its arguments: the records themselves (a Dask
worker may not see the input file) and the settings.

A record that cannot be analysed (a partial deal in table mode, an unknown rule
profile in its ``rules`` field, …) becomes a :class:`RecordError` and the chunk goes on.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

import pandas as pd

from ..deal_files import DealRecord
from ..errors import TarockError
from .modes import get_mode
from .settings import BatchSettings

__all__ = ["ChunkResult", "ChunkTask", "RecordError", "run_chunk"]


@dataclass(frozen=True)
class RecordError:
    """One record that was skipped: its input line, id (if known) and the reason."""

    line: int | None
    id: str | None
    reason: str


@dataclass(frozen=True)
class ChunkTask:
    """Chunk ``index`` of the plan: the records it analyses, in input order."""

    index: int
    records: tuple[DealRecord, ...]


@dataclass
class ChunkResult:
    """The rows of one chunk (input order) and the records that failed in it."""

    index: int
    frame: pd.DataFrame
    errors: list[RecordError] = field(default_factory=list)
    deals: int = 0
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return len(self.errors)

    @property
    def ok(self) -> int:
        return self.deals - self.failed


def _limit_threads(threads: int | None) -> None:
    """Cap numba's threads for this thread of this worker (numba's setting is per thread)."""
    if threads is None:
        return
    import numba

    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


def _without_timing(frame: pd.DataFrame) -> pd.DataFrame:
    """``solve_ms`` set to null, keeping the column's (nullable) dtype."""
    if "solve_ms" not in frame.columns:
        return frame
    dtype = frame["solve_ms"].dtype
    if not isinstance(dtype, pd.api.extensions.ExtensionDtype):
        dtype = "Float64"
    frame = frame.copy()
    frame["solve_ms"] = pd.array([pd.NA] * len(frame), dtype=dtype)
    return frame


def run_chunk(task: ChunkTask, settings: BatchSettings) -> ChunkResult:
    """Analyse every record of ``task`` with the mode named in ``settings``.

    Rows keep the input order of the records.  User-level problems of a record
    (:class:`TarockError`) are reported as its reason; any other exception is a bug in
    the program, but one bad deal must not cost a day's run, so it is reported too,
    marked as an internal error with the exception's last frame for the bug report.
    """
    _limit_threads(settings.worker_threads)
    mode = get_mode(settings.mode)
    start = time.perf_counter()
    frames: list[pd.DataFrame] = []
    errors: list[RecordError] = []
    for record in task.records:
        try:
            frame = mode.analyse(record, settings)
        except TarockError as err:
            errors.append(RecordError(record.line, record.id, str(err)))
            continue
        except Exception as exc:  # noqa: BLE001 — reported per record, see docstring
            where = traceback.extract_tb(exc.__traceback__)[-1]
            errors.append(RecordError(
                record.line, record.id,
                f"internal error (please report it): {type(exc).__name__}: {exc} "
                f"[{where.filename.rsplit('/', 1)[-1]}:{where.lineno}]"))
            continue
        if not settings.timing:
            frame = _without_timing(frame)
        frames.append(frame)
    frame = mode.concat(frames, settings)
    return ChunkResult(index=task.index, frame=frame, errors=errors, deals=len(task.records),
                       seconds=time.perf_counter() - start)
