"""Throughput of the batch runner: deals per second of a real run, for ``tarock bench``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..deal import Deal
from ..deal_files import DealRecord, write_deals
from .job import run_batch
from .plan import DEFAULT_CHUNK_SIZE, plan_batch
from .settings import BatchSettings

__all__ = ["measure_batch_throughput"]


def _records(deals: Iterable[DealRecord | Deal]) -> list[DealRecord]:
    out = []
    for i, item in enumerate(deals):
        out.append(item if isinstance(item, DealRecord) else DealRecord(id=f"deal-{i}", deal=item))
    return out


def measure_batch_throughput(deals: Sequence[DealRecord | Deal], jobs: int = 1, *,
                             mode: str = "table", rules: str = "dummett",
                             contracts: Sequence[str] | None = None,
                             declarers: Sequence[str] | None = None,
                             chunk_size: int | None = None, scheduler: str | None = None,
                             dask_local: int | None = None,
                             node_limit: int | None = None,
                             progress: bool = False) -> dict[str, Any]:
    """Run a complete batch over ``deals`` with ``jobs`` workers and time it.

    The run is real — input file, checkpoints, merge — in a temporary folder, so the
    number includes everything a user pays for, worker start-up included.  The chunk
    size defaults to one that gives every worker at least two chunks.  Returns a dict
    with ``deals``, ``jobs``, ``executor``, ``chunk_size``, ``seconds``,
    ``deals_per_second``, ``rows`` and ``failed``.  ``progress`` shows the run's bar on
    stderr.
    """
    records = _records(deals)
    if not records:
        raise ValueError("measure_batch_throughput needs at least one deal")
    workers = dask_local or jobs
    size = chunk_size or max(1, min(DEFAULT_CHUNK_SIZE, -(-len(records) // (2 * workers))))
    settings = BatchSettings.create(mode=mode, rules=rules, contracts=contracts,
                                    declarers=declarers, node_limit=node_limit)
    with tempfile.TemporaryDirectory(prefix="tarock-bench-") as tmp:
        source = Path(tmp) / "deals.jsonl"
        write_deals(source, records)
        plan = plan_batch(source, size)
        summary = run_batch(plan, Path(tmp) / "results.csv", settings, jobs=jobs,
                            scheduler=scheduler, dask_local=dask_local, progress=progress)
    return {"deals": len(records), "jobs": workers, "executor": summary.executor,
            "chunk_size": size, "seconds": summary.seconds,
            "deals_per_second": summary.deals_per_second, "rows": summary.rows,
            "failed": summary.failed, "cpu_count": os.cpu_count(), "node_limit": node_limit}
