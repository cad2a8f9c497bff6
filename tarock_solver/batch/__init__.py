"""Batch analysis of deal files: resumable, parallel, and on Dask (``tarock batch``).

Typical use from Python::

    from tarock_solver.batch import BatchSettings, plan_batch, run_batch

    plan = plan_batch("deals.jsonl", chunk_size=16)
    summary = run_batch(plan, "deals.results.parquet",
                        BatchSettings.create(contracts=["solo"]), jobs=4)

See ``docs/batch.md`` for the command line, the checkpoint layout and Dask clusters.
"""

from __future__ import annotations

from pathlib import Path

from ..checkpoint import Checkpoint, CheckpointError, parts_dir
from .errors import BatchError
from .job import BatchSummary, run_batch
from .merge import errors_path_for, has_pyarrow, output_format
from .modes import FRENCH_MODES, Mode, available_modes, check_settings, get_mode, register_mode
from .plan import DEFAULT_CHUNK_SIZE, BatchPlan, plan_batch
from .runner import DaskExecutor, PoolExecutor, SerialExecutor, make_executor
from .settings import FRENCH_ADVICE_WORLDS, BatchSettings
from .throughput import measure_batch_throughput
from .worker import ChunkResult, ChunkTask, RecordError, run_chunk

__all__ = [
    "DEFAULT_CHUNK_SIZE", "BatchError", "BatchPlan", "BatchSettings", "BatchSummary",
    "Checkpoint", "CheckpointError", "ChunkResult", "ChunkTask", "DaskExecutor", "Mode", "PoolExecutor",
    "FRENCH_ADVICE_WORLDS", "FRENCH_MODES", "RecordError", "SerialExecutor", "available_modes",
    "check_settings", "default_output", "errors_path_for",
    "get_mode", "make_executor", "measure_batch_throughput", "output_format", "parts_dir",
    "plan_batch", "register_mode", "run_batch", "run_chunk",
]


def default_output(input_path: str | Path) -> Path:
    """``IN`` with ``.results.parquet`` (``.results.csv`` when pyarrow is missing)."""
    path = Path(input_path)
    suffix = ".results.parquet" if has_pyarrow() else ".results.csv"
    return path.with_name(path.stem + suffix)
