"""Benchmark documents: reading, writing, printing, and comparing two runs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..columns import align
from ..errors import FileFormatError
from .run import BENCH_SCHEMA

__all__ = ["Comparison", "compare_reports", "format_report", "load_report", "save_report"]

_TIME_KEYS = ("median_ms", "p90_ms", "p99_ms", "max_ms")


def save_report(doc: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a benchmark document as indented JSON (parent folders are created)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_report(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a benchmark document written by ``tarock bench --json``."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise FileFormatError(f"{name}: cannot read the file ({exc.strerror}).",
                              path=name) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{name}: not UTF-8 text (byte {exc.start + 1}); not a "
                              "benchmark result.", path=name) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"{name}:{exc.lineno}: not valid JSON ({exc.msg}).", path=name,
                              line=exc.lineno) from None
    if not isinstance(doc, dict) or "exact" not in doc or "bench_schema" not in doc:
        raise FileFormatError(f"{name}: not a benchmark result (written by tarock bench --json).",
                              path=name)
    if doc["bench_schema"] != BENCH_SCHEMA:
        raise FileFormatError(f"{name}: benchmark layout version {doc['bench_schema']}; this "
                              f"program reads version {BENCH_SCHEMA}.", path=name)
    return doc


# ----------------------------------------------------------------------------- printing


def _num(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:.{digits}f}"
    return f"{value:,}"


def _rate(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value / 1e6:.2f} M"


def _machine_line(m: dict[str, Any], start_load: list[float] | None) -> str:
    mem = f", {m['memory_gib']} GiB" if m.get("memory_gib") else ""
    layer = f", {m['threading_layer']}" if m.get("threading_layer") else ""
    load = m.get("load_average")
    busy = ""
    if start_load and load:
        busy = f"; load average {start_load[0]:.2f} at the start, {load[0]:.2f} at the end"
    return (f"Machine: {m['cpu']}, {m['logical_cores']} logical cores{mem}; numba {m['numba']} "
            f"({m['numba_threads']} threads{layer}), Python {m['python']}, {m['os']}{busy}")


def format_report(doc: dict[str, Any]) -> list[str]:
    """The benchmark document as readable text lines."""
    cfg = doc["config"]
    m = doc["machine"]
    commit = f" (git {m['git_commit']})" if m.get("git_commit") else ""
    lines = [f"tarock bench   tarock-solver {m['tarock_solver']}{commit}   {doc['created']}",
             _machine_line(m, doc.get("load_average_start")),
             f"Deals: {cfg['deals']} from {cfg['deals_file']}"
             + ("  [quick run]" if cfg.get("quick") else ""),
             f"Positions: {cfg['position_rule']}.",
             f"Node budget: {cfg['node_limit']:,} nodes per solve (per row in the DD table); "
             "times are over the solves that finished, the others are counted as over budget."
             + (f" Each single-thread time is the fastest of {cfg['repeat']} runs."
                if cfg.get("repeat", 1) > 1 else ""),
             ""]
    cold = doc.get("cold_start")
    if cold and "error" not in cold:
        last = cold["runs"][-1]
        lines.append(f"Cold start (fresh process, {cold['position']['tricks']} tricks): import "
                     f"{last['import_ms']:.0f} ms, first solve {last['first_call_ms']:.0f} ms, "
                     f"same solve warm {last['warm_call_ms']:.1f} ms -> kernel load "
                     f"{cold['kernel_load_ms']:.0f} ms")
        if len(cold["runs"]) > 1:
            first = cold["runs"][0]
            lines.append(f"  (first process of the run: first solve {first['first_call_ms']:.0f} "
                         "ms; more if the kernels had to be compiled)")
    elif cold:
        lines.append(f"Cold start: failed ({cold['error']})")
    cli = doc.get("cli_start")
    if cli and "error" not in cli:
        last = cli["runs"][-1]
        lines.append(f"CLI start ({cli['command']}): {last['process_ms']:.0f} ms wall, the same "
                     f"row solved warm {cli['warm_solve_ms']:.0f} ms -> start-up "
                     f"{cli['startup_ms']:.0f} ms")
    elif cli:
        lines.append(f"CLI start: failed ({cli['error']})")
    if cold or cli:
        lines.append("")

    lines.append("Exact solve, one thread, empty table per position (cost by tricks left):")
    rows = []
    for t, s in sorted(doc["exact"].items(), key=lambda kv: int(kv[0])):
        rows.append([t, str(s["solved"]), str(s["over_budget"]),
                     *(_num(s[k]) for k in _TIME_KEYS), _rate(s["nodes_per_s"])])
    header = ["Tricks", "Solved", "Over budget", "Median ms", "p90 ms", "p99 ms", "Max ms",
              "Nodes/s"]
    lines += align(rows, header, numeric=True)
    nw = doc["null_window"]
    lines.append("")
    lines.append(f"Null-window test 'at least {nw['target']}?', {nw['tricks']} tricks, one thread "
                 f"({nw['reached']} of {nw['solved']} reached):")
    lines += align([[str(nw["tricks"]), str(nw["solved"]), str(nw["over_budget"]),
                     *(_num(nw[k]) for k in _TIME_KEYS), _rate(nw["nodes_per_s"])]], header,
                   numeric=True)

    th = doc.get("threads")
    lines.append("")
    if th:
        some = next(iter(th["exact"].values()))
        lines.append(f"All threads ({some['threads']}): solve_many over the positions solved "
                     "above (one table per worker); DD tables on as many processes, one deal "
                     "each:")
        trows = []
        for label, s in [(f"exact {t}", s) for t, s in
                         sorted(th["exact"].items(), key=lambda kv: int(kv[0]))] + \
                        [(f"null {doc['null_window']['tricks']}", th["null_window"])]:
            if not s.get("positions"):
                trows.append([label, "0", "-", "-", "-", "-", "-"])
                continue
            trows.append([label, str(s["positions"]), _num(s["wall_ms"]),
                          _num(s["single_thread_ms"]), _num(s["speedup"], 2),
                          _rate(s["nodes_per_s"]), str(len(s["mismatches"]))])
        tt = th.get("dd_table")
        if tt:
            trows.append([f"DD table ({tt['processes']} proc.)", str(tt["deals"]),
                          _num(tt["wall_ms"]), _num(tt["single_thread_ms"]),
                          _num(tt["speedup"], 2), "-", str(len(tt["mismatches"]))])
        lines += align(trows, ["Kind", "Positions", "Wall ms", "1-thread ms", "Speed-up",
                                "Nodes/s", "Mismatches"], numeric=True)
    else:
        lines.append("All threads: not run (--threads 1).")

    dd = doc.get("dd_table")
    lines.append("")
    if dd:
        pd_ = dd["per_deal"]
        pr = dd["per_row"]
        lines.append(f"Double-dummy table, one thread: {dd['deals']} deal(s), {dd['rows']} rows, "
                     f"{dd['complete_rows']} complete, {dd['over_budget_rows']} over budget "
                     f"({dd['node_limit_per_row']:,} nodes per row)")
        lines.append(f"  per deal: median {_num(pd_['median_ms'])} ms, max {_num(pd_['max_ms'])} "
                     f"ms (complete tables only); per solved row: median {_num(pr['median_ms'])} "
                     f"ms, max {_num(pr['max_ms'])} ms; {_rate(pr['nodes_per_s'])} nodes/s; "
                     f"{dd['exact_solves']} exact solves and {dd['tests']} null-window tests "
                     f"for {dd['options']} exchanges")
    else:
        lines.append("Double-dummy table: not run.")
    lines.append("")
    lines.append(f"Total wall time {doc['wall_s']:.1f} s.")
    return lines


# ----------------------------------------------------------------------------- comparing


@dataclass(frozen=True)
class Comparison:
    """Old vs new: printable lines, and the positions whose values differ."""

    lines: list[str]
    mismatches: list[str]
    comparable: bool


def _metric_rows(old: dict[str, Any], new: dict[str, Any], label: str,
                 keys: tuple[str, ...]) -> list[list[str]]:
    rows = []
    for k in keys:
        a, b = old.get(k), new.get(k)
        ratio = "-" if not a or b is None else f"{b / a:.2f}"
        fmt = _rate if k.startswith("nodes_per_s") else _num
        rows.append([f"{label} {k}", fmt(a), fmt(b), ratio])
    return rows


def _values(doc: dict[str, Any]) -> dict[tuple[Any, ...], Any]:
    out: dict[tuple[Any, ...], Any] = {}
    for r in doc.get("positions", []):
        if not r["over_budget"]:
            out[(r["kind"], r["tricks"], r["deal"], r["declarer"])] = r["value"]
    for r in doc.get("dd_rows", []):
        if r["complete"]:
            out[("table", r["deal"], r["declarer"], r["contract"])] = r["thirds"]
    return out


def compare_reports(old: dict[str, Any], new: dict[str, Any]) -> Comparison:
    """Side-by-side metrics (ratio new/old: below 1 is faster for times, above 1 for
    nodes/s) and a check that every position solved in both runs has the same value."""
    keys = _TIME_KEYS + ("nodes_per_s", "solved", "over_budget")
    rows: list[list[str]] = []
    for t in sorted(set(old["exact"]) | set(new["exact"]), key=int):
        if t in old["exact"] and t in new["exact"]:
            rows += _metric_rows(old["exact"][t], new["exact"][t], f"exact {t}", keys)
    rows += _metric_rows(old["null_window"], new["null_window"], "null", keys)
    if old.get("dd_table") and new.get("dd_table"):
        rows += _metric_rows(old["dd_table"]["per_row"], new["dd_table"]["per_row"],
                             "table row", ("median_ms", "max_ms", "nodes_per_s"))
    if old.get("threads") and new.get("threads"):
        a, b = old["threads"]["null_window"], new["threads"]["null_window"]
        rows += _metric_rows(a, b, "threads null", ("wall_ms", "speedup", "nodes_per_s"))
        if old["threads"].get("dd_table") and new["threads"].get("dd_table"):
            rows += _metric_rows(old["threads"]["dd_table"], new["threads"]["dd_table"],
                                 "threads table", ("wall_ms", "speedup"))
    if old.get("cold_start", {}).get("kernel_load_ms") is not None and \
            new.get("cold_start", {}).get("kernel_load_ms") is not None:
        rows += _metric_rows(old["cold_start"], new["cold_start"], "cold",
                             ("kernel_load_ms",))
    lines = [f"Old: {old['created']}  {old['machine']['cpu']}  "
             f"(git {old['machine'].get('git_commit') or '?'})",
             f"New: {new['created']}  {new['machine']['cpu']}  "
             f"(git {new['machine'].get('git_commit') or '?'})"]
    same = ("deals", "node_limit", "tricks", "seed", "null_target", "rules")
    differ = [k for k in same if old["config"].get(k) != new["config"].get(k)]
    comparable = not differ
    if differ:
        lines.append("Note: the runs differ in " + ", ".join(
            f"{k} ({old['config'].get(k)} vs {new['config'].get(k)})" for k in differ)
            + "; the ratios compare unlike runs.")
    if old["machine"]["cpu"] != new["machine"]["cpu"]:
        lines.append("Note: the runs were made on different CPUs.")
    lines += align(rows, ["Metric", "Old", "New", "New/old"], numeric=True)
    a, b = _values(old), _values(new)
    mismatches = [" ".join(str(x) for x in key) + f": {a[key]} vs {b[key]}"
                  for key in sorted(set(a) & set(b), key=str) if a[key] != b[key]]
    lines.append("")
    common = len(set(a) & set(b))
    if mismatches:
        lines.append(f"VALUE MISMATCH in {len(mismatches)} of {common} results solved by both:")
        lines += ["  " + m for m in mismatches]
    else:
        lines.append(f"Values: all {common} results solved by both runs agree.")
    return Comparison(lines=lines, mismatches=mismatches, comparable=comparable)
