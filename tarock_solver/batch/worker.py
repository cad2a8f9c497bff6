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
from typing import Any

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
    """Chunk ``index`` of the plan: the records it analyses, in input order.

    With ``previous`` (a checkpointed result of this chunk) only the rows of it that
    are over their node budget are solved again; every other row is kept as it is.
    """

    index: int
    records: tuple[DealRecord, ...]
    previous: ChunkResult | None = None


#: The ``status`` of a row that is not exact (NOTATION 5.3).
OVER_BUDGET = "over_budget"


@dataclass
class ChunkResult:
    """The rows of one chunk (input order) and the records that failed in it.

    ``node_limit`` is the budget the rows were solved with (None: no budget).
    """

    index: int
    frame: pd.DataFrame
    errors: list[RecordError] = field(default_factory=list)
    deals: int = 0
    seconds: float = 0.0
    node_limit: int | None = None

    @property
    def failed(self) -> int:
        return len(self.errors)

    @property
    def ok(self) -> int:
        return self.deals - self.failed

    @property
    def open_rows(self) -> int:
        """Rows over their node budget (bounds only)."""
        if "status" not in self.frame.columns:
            return 0
        return int((self.frame["status"] == OVER_BUDGET).fillna(False).sum())

    def payload(self) -> dict[str, Any]:
        """What a checkpoint stores of the chunk (plain data, see :mod:`tarock_solver.checkpoint`)."""
        return {"frame": self.frame, "errors": [(e.line, e.id, e.reason) for e in self.errors],
                "deals": self.deals, "seconds": self.seconds, "node_limit": self.node_limit}

    @classmethod
    def from_payload(cls, index: int, payload: dict[str, Any]) -> ChunkResult:
        """The chunk a checkpoint stored with :meth:`payload`."""
        return cls(index=index, frame=payload["frame"],
                   errors=[RecordError(*e) for e in payload["errors"]],
                   deals=payload["deals"], seconds=payload["seconds"],
                   node_limit=payload.get("node_limit"))

    def solvable_with(self, node_limit: int | None) -> bool:
        """Would ``node_limit`` give the rows over budget more nodes than they had?"""
        if not self.open_rows or self.node_limit is None:
            return False
        return node_limit is None or node_limit > self.node_limit


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
    if task.previous is not None:
        return _resolve_chunk(task, task.previous, settings)
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
                       seconds=time.perf_counter() - start, node_limit=settings.node_limit)


def _resolve_chunk(task: ChunkTask, previous: ChunkResult, settings: BatchSettings
                   ) -> ChunkResult:
    """``previous`` with its rows over budget solved again under ``settings``.

    Rows keep their places; a row still over budget comes back with the bounds of the
    new search.  A record whose new search fails keeps its old rows (they were right).
    """
    mode = get_mode(settings.mode)
    start = time.perf_counter()
    frame = previous.frame.reset_index(drop=True)
    if mode.resolve is None or "status" not in frame.columns:
        return previous
    columns = {c: frame[c].array.copy() for c in frame.columns}
    is_open = (frame["status"] == OVER_BUDGET).fillna(False).to_numpy()
    # the seat that plays the contract: the declarer (Illustrated), the taker (French)
    seat = "declarer" if "declarer" in frame.columns else "taker"
    positions: dict[tuple[str, str, str], int] = {}
    wanted: dict[str, list[tuple[str, str]]] = {}
    for pos in is_open.nonzero()[0]:
        key = (str(frame.at[pos, "deal_id"]), str(frame.at[pos, seat]),
               str(frame.at[pos, "contract"]))
        positions[key] = int(pos)
        wanted.setdefault(key[0], []).append(key[1:])
    for record in task.records:
        rows = wanted.get(record.id)
        if not rows:
            continue
        try:
            new = mode.resolve(record, settings, rows)
        except TarockError:
            continue
        if not settings.timing:
            new = _without_timing(new)
        for i in range(len(new)):
            key = (str(new["deal_id"].iat[i]), str(new[seat].iat[i]),
                   str(new["contract"].iat[i]))
            pos = positions.get(key)
            if pos is None:
                continue
            for c in columns:
                columns[c][pos] = new[c].iat[i]
    merged = pd.DataFrame(columns)
    return ChunkResult(index=task.index, frame=merged, errors=list(previous.errors),
                       deals=previous.deals,
                       seconds=previous.seconds + time.perf_counter() - start,
                       node_limit=settings.node_limit)
