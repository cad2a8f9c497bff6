"""What the benchmark scripts share: their tasks run on a spawn pool with a progress line
each, and their results file (the run's settings, a summary and the rows)."""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def pooled(work: Callable[[Any], dict], todo: Iterable[Any], jobs: int,
           line: Callable[[dict], str]) -> list[dict]:
    """``work`` of every task, in order, on ``jobs`` spawned processes; ``line(row)`` is
    printed to standard error as each row comes in, after the seconds so far."""
    rows = []
    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(jobs) as pool:
        for row in pool.imap(work, todo):
            rows.append(row)
            print(f"[{time.perf_counter() - t0:.0f}s] {line(row)}", file=sys.stderr, flush=True)
    return rows


def write_results(args: argparse.Namespace, summary: dict, rows: list[dict],
                  **extra: Any) -> None:
    """``{"config", **extra, "summary", "rows"}`` to ``args.out`` (the settings without
    ``out``, paths as text); the summary printed."""
    config = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
              if k != "out"}
    doc = {"config": config, **extra, "summary": summary, "rows": rows}
    args.out.write_text(json.dumps(doc, indent=1))
    print(json.dumps(summary, indent=1))
