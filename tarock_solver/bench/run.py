"""Run the solver benchmark and return its results as one JSON-ready dict.

Sections (each documented in ``benchmarks/README.md``):

* ``cold_start`` / ``cli_start`` -- fresh processes: import, first solve with kernel
  load, the same solve warm; and ``tarock solve`` wall time against its solve time.
* ``exact`` -- exact play-phase solves by tricks remaining (the cost curve; 16 is the
  whole play of a deal), one thread, an empty transposition table for each position.
* ``null_window`` -- "does the declarer take at least 36?" on the 16-trick positions.
* ``threads`` -- the positions solved above again through :func:`solve_many` on all
  threads, with the speed-up and a check that every value is the same.
* ``dd_table`` -- the full double-dummy table of the first few deals, one thread; with
  several threads also the same tables in parallel, one deal per worker process (the
  table's alpha-raising search is sequential, so its parallelism is across deals).

Every single-thread search has a node budget, so one monster position cannot hang the
run; searches over budget are counted, never timed.  The multi-thread batch has no
budget of its own and therefore only gets positions that finished within it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..notation import SEATS, format_deal
from ..rules import Rules, load_rules
from .machine import cli_start, cold_start, load_average, machine_info
from .positions import (
    DEFAULT_TRICKS,
    PLAYOUT_SEED,
    BenchPosition,
    bench_positions,
    find_bench_deals,
    load_bench_deals,
)
from .stats import timing_summary

__all__ = ["BENCH_SCHEMA", "STEP_SECONDS", "BenchConfig", "QUICK", "estimate_seconds",
           "planned_steps", "run_bench"]

#: Version of the benchmark JSON layout.
BENCH_SCHEMA = 1


@dataclass(frozen=True)
class BenchConfig:
    """What to run.  ``deals=None`` means every shipped deal; ``threads=None`` all
    threads numba offers (``1`` skips the multi-thread section)."""

    deals: int | None = None
    tricks: tuple[int, ...] = DEFAULT_TRICKS
    node_limit: int = 20_000_000
    threads: int | None = None
    table_deals: int = 2
    null_target: int = 36
    #: Single-thread solves are timed this many times (a fresh table each time) and the
    #: fastest run counts: the small levels take milliseconds and move with machine noise.
    repeat: int = 1
    cold: bool = True
    cold_runs: int = 2
    deals_file: str | None = None
    quick: bool = False
    seed: int = PLAYOUT_SEED
    rules: str = "dummett"
    rule_options: dict[str, str] = field(default_factory=dict)


#: ``--quick``: an end-to-end smoke run in seconds (small budget, three deals).
QUICK = BenchConfig(deals=3, tricks=(8, 12, 16), node_limit=200_000, table_deals=1,
                    cold_runs=1, quick=True)


def planned_steps(config: BenchConfig, n_deals: int, n_contracts: int = 5,
                  threads: int = 1) -> int:
    """Number of progress steps :func:`run_bench` reports (for a progress bar).

    One step per fresh process of the start-up timings, per timed solve (every tricks
    level and the null window, on one thread and again on ``threads``) and per table
    row (one thread, and again in parallel when ``threads`` is not 1).
    """
    per_pass = n_deals * len(set(config.tricks)) + n_deals  # exact levels + null window
    table_rows = min(config.table_deals, n_deals) * 3 * n_contracts
    steps = per_pass + table_rows
    if threads != 1:
        steps += per_pass + table_rows
    if config.cold:
        steps += 2 * config.cold_runs  # cold_start and cli_start processes
    return steps


#: Mean single-thread cost of one benchmark step on the reference machine (2-core Xeon
#: shared with other jobs, load average about 5; node budget 20,000,000), in seconds:
#: an exact solve by tricks left (over-budget solves included), a null-window test, a
#: DD-table row, a fresh process.  Measured with `tarock bench --deals 8 --threads 1
#: --no-cold --table-deals 1` (76 s); they give the order of a run, not its time.
STEP_SECONDS = {"exact": {8: 0.001, 10: 0.006, 12: 0.05, 14: 0.45, 16: 1.7},
                "null": 0.09, "table_row": 3.7, "process": 4.0}
#: The all-threads pass took this multiple of the single-thread pass on that machine
#: (benchmarks/results/2026-11-30-solver-bench-40-deals.json: speed-ups of 0.7-0.98, the other jobs
#: holding the cores); on an idle machine it is below 1.
THREADED_FRACTION = 1.25


def estimate_seconds(config: BenchConfig, n_deals: int, n_contracts: int = 5,
                     threads: int = 1) -> float:
    """A rough prediction of the wall time of :func:`run_bench` from :data:`STEP_SECONDS`.

    Searches over budget stop at the node budget, so the cost per step is scaled with
    it (linearly, capped at the measured budget); the real time can be several times
    off on another machine, which is why the progress bar shows the measured rate too.
    """
    scale = min(1.0, config.node_limit / 20_000_000)
    exact = STEP_SECONDS["exact"]
    per_level = [exact.get(t, exact[16]) for t in sorted(set(config.tricks))]
    one_pass = n_deals * (sum(per_level) + STEP_SECONDS["null"]) * scale
    tables = min(config.table_deals, n_deals) * 3 * n_contracts * STEP_SECONDS["table_row"]
    tables *= scale
    total = one_pass + tables
    if threads != 1:
        total += THREADED_FRACTION * (one_pass + tables)
    if config.cold:
        total += 2 * config.cold_runs * STEP_SECONDS["process"]
    return total


def _solve_record(pos: BenchPosition, kind: str, ms: float, nodes: int,
                  value: int | bool | None) -> dict[str, Any]:
    return {"kind": kind, "tricks": pos.tricks, "deal": pos.deal_id,
            "declarer": SEATS[pos.declarer], "ms": ms, "nodes": nodes,
            "value": value, "over_budget": value is None}


def _warm_up(solver: Any) -> None:
    """Load (or compile) every kernel the timings use, outside the timings."""
    from ..solver import Budget, Position, solve_many

    hands = (1 << 0 | 1 << 40, 1 << 1 | 1 << 41, 1 << 2 | 1 << 42)
    pos = Position(hands, 0, 0)
    solver.value(pos, Budget(nodes=10**6))
    solver.reaches(pos, 1, Budget(nodes=10**6))
    solver.card_values(pos)
    solve_many([(hands, 0, 0)], threads=1)
    solve_many([(hands, 0, 0)], threads=1, target=1)


def _single_thread(solver: Any, positions: list[BenchPosition], kind: str, node_limit: int,
                   target: int | None, step: Callable[[], None],
                   repeat: int = 1) -> list[dict[str, Any]]:
    from ..solver import Budget, Position

    budget = Budget(nodes=node_limit)
    records = []
    for pos in positions:
        best_ms = float("inf")
        position = Position(pos.hands, pos.leader, pos.declarer)
        for run in range(max(1, repeat)):
            solver.clear()  # every run starts from an empty table: order-independent times
            if target is None:
                result = solver.value(position, budget)
                value: int | bool | None = result.value if result.exact else None
            else:
                result = solver.reaches(position, target, budget)
                value = result.at_least(target)
            best_ms = min(best_ms, result.seconds * 1e3)
            if run == 0:
                nodes = result.nodes
                if value is None:
                    break  # over budget: not timed, so not repeated
        records.append(_solve_record(pos, kind, best_ms, nodes, value))
        step()
    return records


def _all_threads(positions: list[BenchPosition], records: list[dict[str, Any]],
                 threads: int, target: int | None) -> dict[str, Any]:
    """Re-solve the finished positions with :func:`solve_many` on ``threads`` threads."""
    from ..solver import Position, solve_many

    done = [(p, r) for p, r in zip(positions, records, strict=True) if not r["over_budget"]]
    if not done:
        return {"positions": 0, "threads": threads}
    batch = [Position(p.hands, p.leader, p.declarer) for p, _ in done]
    t0 = time.perf_counter()
    values, nodes = solve_many(batch, threads=threads, target=target, stats=True)
    wall_ms = (time.perf_counter() - t0) * 1e3
    single_ms = sum(r["ms"] for _, r in done)
    mismatches = [r["deal"] for (_, r), v in zip(done, values, strict=True)
                  if (bool(v) if target is not None else int(v)) != r["value"]]
    total_nodes = int(nodes.sum())
    return {
        "threads": threads,
        "positions": len(done),
        "wall_ms": wall_ms,
        "single_thread_ms": single_ms,
        "speedup": single_ms / wall_ms if wall_ms > 0 else None,
        "positions_per_s": len(done) / (wall_ms / 1e3) if wall_ms > 0 else None,
        "nodes_per_s": total_nodes / (wall_ms / 1e3) if wall_ms > 0 else None,
        "total_nodes": total_nodes,
        "mismatches": mismatches,
    }


def _dd_tables(records: list[Any], rules: Rules, node_limit: int,
               step: Callable[[], None]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from ..analysis import dd_table
    from ..solver import Budget, CardPointSearch

    rows_out: list[dict[str, Any]] = []
    per_deal: list[dict[str, Any]] = []
    for record in records:
        solver = CardPointSearch()
        t0 = time.perf_counter()
        table = dd_table(record.deal, rules, solver=solver, budget=Budget(nodes=node_limit),
                         progress=lambda _row: step())
        ms = (time.perf_counter() - t0) * 1e3
        per_deal.append({"ms": ms, "nodes": table.nodes, "over_budget": not table.complete})
        for row in table.rows:
            rows_out.append({
                "deal": record.id, "declarer": row.declarer_name, "contract": row.contract,
                "thirds": row.declarer_thirds if row.complete else None,
                "complete": row.complete, "talon_group": row.talon_group,
                "discard": row.discard_ids, "nodes": row.nodes, "ms": row.seconds * 1e3,
                "exact_solves": row.exact_solves, "tests": row.tests, "options": row.options,
                "same_play_as": row.same_play_as,
            })
    solved_rows = [r for r in rows_out if r["same_play_as"] is None]
    summary = {
        "deals": len(records),
        "rows": len(rows_out),
        "complete_rows": sum(r["complete"] for r in rows_out),
        "over_budget_rows": sum(not r["complete"] for r in rows_out),
        "node_limit_per_row": node_limit,
        "per_deal": timing_summary(per_deal),
        "per_row": timing_summary([{"ms": r["ms"], "nodes": r["nodes"],
                                    "over_budget": not r["complete"]} for r in solved_rows]),
        "exact_solves": sum(r["exact_solves"] for r in rows_out),
        "tests": sum(r["tests"] for r in rows_out),
        "options": sum(r["options"] for r in solved_rows),
        "_per_deal_ms": [d["ms"] for d in per_deal],
    }
    return summary, rows_out


def _table_worker_init() -> None:
    """Worker start-up: load the kernels before any table is timed."""
    from ..solver import CardPointSearch

    _warm_up(CardPointSearch())


def _table_task(deal_text: str, rules: Rules, node_limit: int) -> dict[str, Any]:
    """One deal's table in a worker process: its time and the values of its rows."""
    from ..analysis import dd_table
    from ..notation import parse_deal
    from ..solver import Budget, CardPointSearch

    t0 = time.perf_counter()
    table = dd_table(parse_deal(deal_text), rules, solver=CardPointSearch(),
                     budget=Budget(nodes=node_limit))
    return {"ms": (time.perf_counter() - t0) * 1e3, "nodes": table.nodes,
            "rows": [(r.declarer_name, r.contract, r.declarer_thirds if r.complete else None)
                     for r in table.rows]}


def _parallel_tables(records: list[Any], rows: list[dict[str, Any]], per_deal: list[float],
                     config: BenchConfig, rules: Rules, workers: int,
                     step: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """The same tables on ``workers`` spawned processes, one deal per task (``step``
    is called as each deal's table comes back)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")  # never fork after numba's threads started
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                             initializer=_table_worker_init) as pool:
        # start every worker (and load its kernels) before the clock runs
        list(pool.map(time.sleep, [0.2] * workers))
        t0 = time.perf_counter()
        futures = [pool.submit(_table_task, format_deal(r.deal), rules, config.node_limit)
                   for r in records]
        results = []
        for future in futures:
            results.append(future.result())
            step()
        wall_ms = (time.perf_counter() - t0) * 1e3
    single = {(r["deal"], r["declarer"], r["contract"]): r["thirds"] for r in rows
              if r["complete"]}
    mismatches = []
    for record, res in zip(records, results, strict=True):
        for declarer, contract, thirds in res["rows"]:
            key = (record.id, declarer, contract)
            if thirds is not None and key in single and single[key] != thirds:
                mismatches.append(" ".join(key))
    single_ms = sum(per_deal)
    return {"processes": workers, "deals": len(records), "wall_ms": wall_ms,
            "single_thread_ms": single_ms,
            "speedup": single_ms / wall_ms if wall_ms > 0 else None,
            "total_nodes": sum(r["nodes"] for r in results), "mismatches": mismatches}


def run_bench(config: BenchConfig, step: Callable[[], None] | None = None,
              status: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run the benchmark; returns the JSON document (see ``benchmarks/README.md``).

    ``step`` is called after every timed solve or table row (for a progress bar) and
    ``status`` with a short message when a section starts.
    """
    import numba

    from ..solver import Budget, CardPointSearch

    tick = step or (lambda: None)
    say = status or (lambda _msg: None)
    started = datetime.now(UTC)
    path = find_bench_deals(config.deals_file)
    records = load_bench_deals(path, config.deals)
    rules = load_rules(config.rules, config.rule_options)
    positions = bench_positions(records, config.tricks, config.seed)
    levels = sorted(positions)
    top = levels[-1]
    threads = int(numba.config.NUMBA_NUM_THREADS) if config.threads is None else config.threads

    doc: dict[str, Any] = {
        "bench_schema": BENCH_SCHEMA,
        "created": started.isoformat(timespec="seconds"),
        "load_average_start": load_average(),
        "config": {**asdict(config), "tricks": levels, "deals": len(records),
                   "deals_file": str(path), "threads": threads,
                   "position_rule": "deal i: the dealt hands, F leads, declarer seat i % 3; "
                                    "fewer tricks: the first tricks played with seeded random "
                                    "legal cards"},
    }
    if config.cold:
        say("cold start (fresh processes)")
        small = positions[levels[0]][0]
        doc["cold_start"] = cold_start(small, runs=config.cold_runs)
        for _ in range(config.cold_runs):
            tick()
        say("tarock solve start-up (fresh processes)")
        doc["cli_start"] = cli_start(format_deal(records[0].deal), "F", "solo",
                                     min(config.node_limit, 1_000_000), runs=config.cold_runs)
        for _ in range(config.cold_runs):
            tick()

    solver = CardPointSearch()
    _warm_up(solver)
    cli = doc.get("cli_start")
    if cli and "error" not in cli:
        # what the command adds: its wall time minus the same row solved warm here
        from ..analysis import solve_contract

        for _ in range(2):
            row = solve_contract(records[0].deal, cli["declarer"], cli["contract"], rules,
                                 solver=CardPointSearch(), budget=Budget(nodes=cli["node_limit"]))
        cli["warm_solve_ms"] = row.seconds * 1e3
        cli["startup_ms"] = cli["runs"][-1]["process_ms"] - cli["warm_solve_ms"]
    all_records: list[dict[str, Any]] = []
    exact: dict[str, Any] = {}
    by_level: dict[int, list[dict[str, Any]]] = {}
    for t in levels:
        say(f"exact solves, {t} tricks left")
        recs = _single_thread(solver, positions[t], "exact", config.node_limit, None, tick,
                              config.repeat)
        by_level[t] = recs
        exact[str(t)] = timing_summary(recs)
        all_records += recs
    doc["exact"] = exact

    say(f"null-window tests at {config.null_target}, {top} tricks left")
    null_recs = _single_thread(solver, positions[top], "null", config.node_limit,
                               config.null_target, tick, config.repeat)
    all_records += null_recs
    doc["null_window"] = {"target": config.null_target, "tricks": top,
                          "reached": sum(r["value"] is True for r in null_recs),
                          **timing_summary(null_recs)}

    if threads != 1:
        doc["threads"] = {"exact": {}}
        for t in levels:
            say(f"all threads ({threads}), {t} tricks left")
            doc["threads"]["exact"][str(t)] = _all_threads(positions[t], by_level[t], threads,
                                                           None)
            for _ in positions[t]:
                tick()
        say(f"all threads ({threads}), null-window tests")
        doc["threads"]["null_window"] = _all_threads(positions[top], null_recs, threads,
                                                     config.null_target)
        for _ in positions[top]:
            tick()
    else:
        doc["threads"] = None

    n_tables = min(config.table_deals, len(records))
    if n_tables:
        say(f"double-dummy tables ({n_tables} deal{'s' if n_tables > 1 else ''})")
        summary, rows = _dd_tables(records[:n_tables], rules, config.node_limit, tick)
        doc["dd_table"] = summary
        doc["dd_rows"] = rows
        if doc["threads"] is not None:
            say(f"double-dummy tables on {threads} processes")
            doc["threads"]["dd_table"] = _parallel_tables(
                records[:n_tables], rows, summary.pop("_per_deal_ms"), config, rules, threads,
                step=lambda: [tick() for _ in range(3 * len(rules.contracts))])
        else:
            summary.pop("_per_deal_ms")
    else:
        doc["dd_table"] = None
        doc["dd_rows"] = []
    doc["positions"] = all_records
    doc["machine"] = machine_info()
    doc["wall_s"] = (datetime.now(UTC) - started).total_seconds()
    return doc
