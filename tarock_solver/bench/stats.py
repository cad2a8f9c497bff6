"""Summary statistics of benchmark timings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["timing_summary"]


def timing_summary(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Median / p90 / p99 / max / mean milliseconds and nodes per second of solve records.

    ``records`` have ``ms``, ``nodes`` and ``over_budget``.  Times are taken over the
    solves that finished: an over-budget solve has no finishing time, only the budget,
    so it is counted in ``over_budget`` instead (its nodes still count for nodes/s).
    """
    finished = [r for r in records if not r["over_budget"]]
    ms = np.array([r["ms"] for r in finished], dtype=float)
    total_nodes = int(sum(r["nodes"] for r in records))
    total_s = float(sum(r["ms"] for r in records)) / 1e3
    out: dict[str, Any] = {
        "positions": len(records),
        "solved": len(finished),
        "over_budget": len(records) - len(finished),
        "total_nodes": total_nodes,
        "total_s": total_s,
        "nodes_per_s": total_nodes / total_s if total_s > 0 else None,
    }
    if len(ms):
        out.update({
            "median_ms": float(np.median(ms)),
            "p90_ms": float(np.percentile(ms, 90)),
            "p99_ms": float(np.percentile(ms, 99)),
            "max_ms": float(ms.max()),
            "mean_ms": float(ms.mean()),
            "median_nodes": float(np.median([r["nodes"] for r in finished])),
        })
    else:
        out.update({k: None for k in ("median_ms", "p90_ms", "p99_ms", "max_ms", "mean_ms",
                                      "median_nodes")})
    return out
