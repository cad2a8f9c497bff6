"""The solver benchmark behind `tarock bench` (see benchmarks/README.md).

* :mod:`.positions` -- the fixed positions built from the shipped seeded deals;
* :mod:`.run` -- timing the sections and assembling the JSON document;
* :mod:`.machine` -- machine description and fresh-process (cold start) timings;
* :mod:`.stats` -- median / p90 / p99 / max summaries;
* :mod:`.report` -- printing, saving, loading and comparing documents.
"""

from __future__ import annotations

from .positions import (
    DEFAULT_TRICKS,
    BenchPosition,
    bench_positions,
    find_bench_deals,
    load_bench_deals,
)
from .report import Comparison, compare_reports, format_report, load_report, save_report
from .run import BENCH_SCHEMA, QUICK, BenchConfig, estimate_seconds, planned_steps, run_bench

__all__ = [
    "BENCH_SCHEMA",
    "DEFAULT_TRICKS",
    "QUICK",
    "BenchConfig",
    "BenchPosition",
    "Comparison",
    "bench_positions",
    "compare_reports",
    "find_bench_deals",
    "format_report",
    "load_bench_deals",
    "load_report",
    "estimate_seconds",
    "planned_steps",
    "run_bench",
    "save_report",
]
