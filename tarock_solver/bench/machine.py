"""What the benchmark ran on, and how long a fresh process takes to get going.

Cold-start numbers have to come from new processes: the first solve of a process
includes loading (or compiling) the numba kernels from the cache.  These are measured
with ``subprocess`` before any parallel kernel runs in the benchmark process (forking
after numba's OpenMP layer has started is unsafe, docs/SOLVER_NOTES.md).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .. import __version__
from .positions import BenchPosition

__all__ = ["cli_start", "cold_start", "load_average", "machine_info"]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _git_commit() -> str | None:
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def machine_info() -> dict[str, Any]:
    """CPU model, cores, memory, OS and library versions (printed with every result)."""
    import numba
    import numpy

    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = None  # no parallel kernel has run yet in this process
    return {
        "cpu": _cpu_model(),
        "logical_cores": os.cpu_count(),
        "numba_threads": int(numba.config.NUMBA_NUM_THREADS),
        "threading_layer": layer,
        "memory_gib": _memory_gib(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "tarock_solver": __version__,
        "git_commit": _git_commit(),
        # other work on the machine skews every timing; keep the evidence with the numbers
        "load_average": load_average(),
    }


_COLD_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
from tarock_solver.solver import CardPointSearch, Position
t1 = time.perf_counter()
hands, leader, declarer = json.loads(sys.argv[1])
solver = CardPointSearch()
position = Position(hands, leader, declarer)
t2 = time.perf_counter()
value = solver.value(position).value
t3 = time.perf_counter()
solver.clear()
t4 = time.perf_counter()
again = solver.value(position).value
t5 = time.perf_counter()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "first_call_ms": (t3 - t2) * 1e3,
                  "warm_call_ms": (t5 - t4) * 1e3, "value": value, "again": again}))
"""


def _run_python(args: list[str], timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=timeout, check=False)
    return proc, (time.perf_counter() - t0) * 1e3


def cold_start(position: BenchPosition, runs: int = 2, timeout: float = 600.0) -> dict[str, Any]:
    """Time a fresh process: import, first solve (kernel load or compile) and the same
    solve again warm, ``runs`` times; the last run is the cached-kernel start."""
    arg = json.dumps([list(position.hands), position.leader, position.declarer])
    results = []
    for _ in range(runs):
        proc, wall = _run_python(["-c", _COLD_SCRIPT, arg], timeout)
        if proc.returncode != 0:
            return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1],
                    "runs": results}
        rec = json.loads(proc.stdout.strip().splitlines()[-1])
        rec["process_ms"] = wall
        results.append(rec)
    last = results[-1]
    return {
        "position": {"deal": position.deal_id, "tricks": position.tricks,
                     "declarer": "FMR"[position.declarer]},
        "runs": results,
        "kernel_load_ms": last["first_call_ms"] - last["warm_call_ms"],
        "process_overhead_ms": last["process_ms"] - last["warm_call_ms"],
    }


def cli_start(deal_text: str, declarer: str, contract: str, node_limit: int, runs: int = 2,
              timeout: float = 600.0) -> dict[str, Any]:
    """Wall time of ``tarock solve --json`` for one row in fresh processes.

    ``reported_solve_ms`` is the row time the command reports, which includes loading
    the kernels in a fresh process; the caller subtracts a warm in-process solve of
    the same row to get what starting the command adds.
    """
    args = ["-m", "cli", "solve", "--json", "--declarer", declarer, "--contract", contract,
            "--node-limit", str(node_limit), deal_text]
    results = []
    for _ in range(runs):
        proc, wall = _run_python(args, timeout)
        if proc.returncode != 0:
            return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1],
                    "runs": results}
        doc = json.loads(proc.stdout)
        results.append({"process_ms": wall,
                        "reported_solve_ms": sum(r["seconds"] for r in doc["rows"]) * 1e3})
    return {"command": f"tarock solve --declarer {declarer} --contract {contract} "
                       f"--node-limit {node_limit} DEAL",
            "declarer": declarer, "contract": contract, "node_limit": node_limit,
            "runs": results}
