"""`tarock bench`: reproducible solver benchmarks on the shipped seeded deals.

The work is done by :mod:`tarock_solver.bench`; this module parses the options,
shows progress, prints the report and writes or compares JSON documents.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING

import click

from tarock_solver.advise.passing import OPPONENTS

from ..main import Settings
from ._output import check_output
from ._params import Seconds

if TYPE_CHECKING:
    from tarock_solver.bench import BenchConfig


def _threads(value: str) -> int | None:
    text = value.strip().lower()
    if text == "all":
        return None
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise click.BadParameter(f'"{value}" is not 1, all or a number of threads',
                                 param_hint="--threads")
    return n


def _tricks(value: str | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    try:
        levels = tuple(int(p) for p in value.replace(" ", "").split(",") if p)
    except ValueError:
        levels = ()
    if not levels or any(not 1 <= t <= 16 for t in levels):
        raise click.BadParameter(f'"{value}" is not a list of tricks left (1-16), e.g. 8,12,16',
                                 param_hint="--tricks")
    return levels


@click.command("bench")
@click.option("--deals", type=click.IntRange(min=1), metavar="N",
              help="Use the first N shipped deals (default: all 200; --quick: 3).")
@click.option("--threads", "threads_text", default="all", show_default=True, metavar="1|all|N",
              help="1: one-thread timings only; all (or N): also re-solve on all (N) threads.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write every number of the run to FILE (JSON).")
@click.option("--compare", "compare_path", type=click.Path(dir_okay=False, exists=True),
              metavar="OLD.json", help="Print old vs new side by side; exit 1 if any value "
                                       "differs.")
@click.option("--against", "against_path", type=click.Path(dir_okay=False, exists=True),
              metavar="NEW.json", help="With --compare: compare with this saved run instead "
                                       "of running the benchmark.")
@click.option("--quick", is_flag=True,
              help="A smoke run in seconds: 3 deals, 8/12/16 tricks, small node budget.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N",
              help="Node budget per solve and per DD-table row (default 20,000,000; "
                   "--quick: 200,000).")
@click.option("--tricks", "tricks_text", metavar="LIST",
              help="Tricks left for the cost curve (default 8,10,12,14,16).")
@click.option("--table-deals", type=click.IntRange(min=0), metavar="N",
              help="Deals whose full DD table is timed (default 2; --quick: 1; 0: none).")
@click.option("--deals-file", type=click.Path(dir_okay=False, exists=True), metavar="PATH",
              help="Another benchmark deal file (default: the shipped bench_deals.jsonl).")
@click.option("--no-cold", is_flag=True, help="Skip the fresh-process start-up timings.")
@click.option("--repeat", type=click.IntRange(min=1), metavar="N",
              help="Time every single-thread solve N times (fresh table each) and keep the "
                   "fastest (default 1).")
@click.option("--gamepoints", "gamepoints", is_flag=True,
              help="Measure the game-point solve (Solo, one bird announced by the declarer) "
                   "against the card-point solve of the same deals instead: median time "
                   "ratio per tricks level (default: 20 deals, 16 tricks, budget 1e8 nodes).")
@click.option("--batch", "batch", is_flag=True,
              help="Measure `tarock batch` throughput instead: full DD tables of the first "
                   "--deals deals (default 4) with 1 job and with every core.")
@click.option("--advise", "advise", is_flag=True,
              help="Measure `tarock advise` instead: the demo hand and the first --deals "
                   "shipped advice hands (default all 40: 20 plain, 20 holding a bird), "
                   "each advised with --time-limit for "
                   "seeds 1..--seeds; reports stability across seeds, SEs and wall times.")
@click.option("--review", "review", is_flag=True,
              help="Time `tarock review` on full records: the bench deals played out by a "
                   "simple deterministic policy (--deals N, default 20), one thread.")
@click.option("--estimate", "estimate", is_flag=True,
              help="Measure the learned evaluator instead: positions per second, batched "
                   "and one by one, on --deals seeded deals (default 100,000).")
@click.option("--trischaken", "trischaken", is_flag=True,
              help="Time the Trischaken search instead: each seat's paranoid value on the "
                   "first --deals bench deals (default 20) and on their 8-card endgames "
                   "(seeded random Trischaken play), one thread, median and p90 seconds.")
@click.option("--seeds", "advise_seeds", type=click.IntRange(min=1), default=5,
              show_default=True, metavar="N", help="With --advise: seeds per hand.")
@click.option("--first-seed", "advise_first_seed", type=click.IntRange(min=1), default=1,
              show_default=True, metavar="K",
              help="With --advise: the seeds are K, K+1, … (a bench run in parts).")
@click.option("--opponents", "advise_opponents", type=click.Choice(OPPONENTS),
              default="policy", show_default=True,
              help="With --advise: what passing is worth, as tarock advise --opponents.")
@click.option("--time-limit", "advise_time", type=Seconds(), default=30.0,
              show_default=True, metavar="SECONDS",
              help="With --advise: the time limit (cap) of each advice run; a run stops "
                   "earlier once its answer is firm, as tarock advise does.")
@click.pass_obj
def command(settings: Settings, deals: int | None, threads_text: str, json_path: str | None,
            compare_path: str | None, against_path: str | None, quick: bool,
            node_limit: int | None, tricks_text: str | None, table_deals: int | None,
            deals_file: str | None, no_cold: bool, repeat: int | None, gamepoints: bool,
            batch: bool,
            advise: bool, review: bool, estimate: bool, trischaken: bool, advise_seeds: int,
            advise_first_seed: int, advise_opponents: str, advise_time: float) -> None:
    """Time the double-dummy solver on the shipped seeded deals.

    Deal i is played as a Solo-like game with declarer seat i % 3 and F leading; the
    cost curve uses the same deals after their first tricks are played out by a seeded
    random policy.  Reports median / p90 / p99 / max ms and nodes/s for exact solves,
    the null-window test at 36 and the full DD table, cold and warm start, one thread
    and all threads, with the machine they ran on.
    """
    from tarock_solver.bench import (
        QUICK,
        BenchConfig,
        compare_reports,
        estimate_seconds,
        format_report,
        load_bench_deals,
        load_report,
        planned_steps,
        run_bench,
        save_report,
    )
    # Every option is read and the output checked before anything runs: a bad value
    # or an unwritable --json must not surface after hours of solving.
    threads = _threads(threads_text)
    tricks = _tricks(tricks_text)
    if against_path is not None and compare_path is None:
        raise click.UsageError("--against needs --compare OLD.json.")
    if json_path is not None:
        check_output(json_path, "--json", suffixes=(".json",))
    if against_path is not None:
        assert compare_path is not None
        result = compare_reports(load_report(compare_path), load_report(against_path))
        for line in result.lines:
            click.echo(line)
        if result.mismatches:
            sys.exit(1)  # cli.main drops click's Exit codes in non-standalone mode
        return

    if batch:
        _batch_throughput(settings, deals or 4, node_limit, deals_file, json_path)
        return
    if estimate:
        _estimate_bench(deals or 100_000, json_path)
        return
    if trischaken:
        _trischaken_bench(settings, deals or 20, node_limit, json_path)
        return
    if review:
        _review_bench(settings, deals or 20, deals_file, json_path)
        return
    if advise:
        _advise_bench(settings, deals, advise_seeds, advise_time, threads, json_path,
                      first_seed=advise_first_seed, opponents=advise_opponents)
        return
    if gamepoints:
        _gamepoint_ratio(settings, deals, node_limit, tricks, deals_file, json_path)
        return

    old = load_report(compare_path) if compare_path is not None else None
    base = QUICK if quick else BenchConfig()
    changes: dict[str, object] = {"threads": threads,
                                  "rules": settings.rules, "rule_options": dict(settings.opts)}
    for key, value in (("deals", deals), ("node_limit", node_limit),
                       ("tricks", tricks), ("table_deals", table_deals),
                       ("deals_file", deals_file), ("repeat", repeat)):
        if value is not None:
            changes[key] = value
    if no_cold:
        changes["cold"] = False
    config = dataclasses.replace(base, **changes)  # type: ignore[arg-type]

    n_deals = len(load_bench_deals(config.deals_file, config.deals))
    n_contracts = len(settings.rules_named(config.rules, config.rule_options).contracts)
    threads = _numba_threads(config.threads)
    click.echo(_plan_line(config, n_deals, n_contracts, threads,
                          estimate_seconds(config, n_deals, n_contracts, threads)), err=True)
    with _Progress(planned_steps(config, n_deals, n_contracts, threads), "step") as progress:
        doc = run_bench(config, step=progress.step, status=progress.status)
    for line in format_report(doc):
        click.echo(line)
    if json_path is not None:
        save_report(doc, json_path)
        click.echo(f"Wrote {json_path}.")
    if old is not None:
        click.echo()
        result = compare_reports(old, doc)
        for line in result.lines:
            click.echo(line)
        if result.mismatches:
            sys.exit(1)


def _numba_threads(threads: int | None) -> int:
    """The threads a run uses: ``--threads N``, or all that numba offers."""
    if threads is not None:
        return threads
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _plan_line(config: BenchConfig, n_deals: int, n_contracts: int, threads: int,
               seconds: float) -> str:
    """What the run will do and roughly how long it takes, before it starts."""
    levels = ", ".join(map(str, sorted(set(config.tricks))))
    parts = [f"{n_deals} deal{'s' if n_deals != 1 else ''} at {levels} tricks left",
             f"node budget {config.node_limit:,}"]
    if threads != 1:
        parts.append(f"again on {threads} threads")
    tables = min(config.table_deals, n_deals)
    if tables:
        parts.append(f"{tables} full DD table{'s' if tables != 1 else ''} "
                     f"({3 * n_contracts} rows each)")
    hint = ("" if config.quick
            else "; --quick for a smoke run in seconds, --deals N for fewer deals")
    return (f"bench: {', '.join(parts)}; estimated {_duration(seconds)} on a 2-core machine "
            f"(a rough guess){hint}.")


class _Progress:
    """A tqdm bar on a terminal; otherwise (a log file, CI) one line per section, so a
    long run is never silent."""

    def __init__(self, total: int, unit: str) -> None:
        import time

        from tqdm import tqdm

        self._time = time.monotonic
        self._start = self._time()
        self.bar = tqdm(total=total, desc="bench", unit=unit, file=sys.stderr, disable=None,
                        leave=False, dynamic_ncols=True)
        self.total = total
        self.done = 0

    def step(self) -> None:
        self.done += 1
        self.bar.update(1)
        if self.bar.disable and self.total and \
                self.done * 10 // self.total > (self.done - 1) * 10 // self.total:
            click.echo(f"bench: {self.done}/{self.total} steps, "
                       f"{_duration(self._time() - self._start)} so far", err=True)

    def status(self, message: str) -> None:
        if self.bar.disable:
            elapsed = _duration(self._time() - self._start)
            click.echo(f"bench: {message} (step {self.done}/{self.total}, {elapsed} so far)",
                       err=True)
        else:
            self.bar.set_description(message[:40])

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.close()


def _batch_throughput(settings: Settings, n_deals: int, node_limit: int | None,
                      deals_file: str | None, json_path: str | None) -> None:
    """Deals per second of a real batch run (checkpoints and merge included), 1 job vs all."""
    import os

    from tarock_solver.batch import measure_batch_throughput
    from tarock_solver.bench import load_bench_deals
    from tarock_solver.bench.machine import machine_info

    records = load_bench_deals(deals_file, n_deals)
    cores = os.cpu_count() or 1
    runs = []
    for jobs in sorted({1, cores}):
        click.echo(f"batch: {len(records)} deals, full DD tables, {jobs} job(s) ...", err=True)
        runs.append(measure_batch_throughput(records, jobs, rules=settings.rules,
                                             node_limit=node_limit, progress=True))
    info = machine_info()
    click.echo(f"Machine: {info.get('cpu')}, {info.get('logical_cores')} cores")
    click.echo(f"{'jobs':>4}  {'deals':>5}  {'seconds':>8}  {'deals/s':>8}  {'failed':>6}")
    for r in runs:
        click.echo(f"{r['jobs']:>4}  {r['deals']:>5}  {r['seconds']:>8.1f}  "
                   f"{r['deals_per_second']:>8.3f}  {r['failed']:>6}")
    if len(runs) > 1 and runs[0]["deals_per_second"]:
        click.echo(f"Scaling {runs[-1]['jobs']} jobs / 1 job: "
                   f"{runs[-1]['deals_per_second'] / runs[0]['deals_per_second']:.2f}x")
    _save({"machine": info, "batch": runs}, json_path)


def _gamepoint_ratio(settings: Settings, deals: int | None, node_limit: int | None,
                     tricks: tuple[int, ...] | None, deals_file: str | None,
                     json_path: str | None) -> None:
    """Game-point solve time over card-point solve time on the bench deals."""

    from tarock_solver.bench.gamepoints import (
        GamePointBenchConfig,
        format_gamepoint_report,
        run_gamepoint_bench,
    )
    from tarock_solver.bench.machine import machine_info

    config = GamePointBenchConfig(rules=settings.rules, rule_options=dict(settings.opts),
                                  deals_file=deals_file)
    changes: dict[str, object] = {}
    for key, value in (("deals", deals), ("node_limit", node_limit), ("tricks", tricks)):
        if value is not None:
            changes[key] = value
    config = dataclasses.replace(config, **changes)  # type: ignore[arg-type]
    n = config.deals or 0
    with _Progress(n * len(config.tricks), "deal") as progress:
        doc = run_gamepoint_bench(config, step=progress.step)
    doc["machine"] = machine_info()
    for line in format_gamepoint_report(doc):
        click.echo(line)
    if json_path is not None:
        from tarock_solver.bench.gamepoints import json_ready

        _save(json_ready(doc), json_path)


def _trischaken_bench(settings: Settings, deals: int, node_limit: int | None,
                      json_path: str | None) -> None:
    """The Trischaken search's seconds on full deals and endgames (``--trischaken``)."""
    from tarock_solver.bench.machine import machine_info
    from tarock_solver.bench.trischaken import format_trischaken_report, run_trischaken_bench
    from tarock_solver.solver import trischaken_rule_bits

    rules = settings.loaded_rules
    trischaken_rule_bits(rules)  # a profile without Trischaken fails before any work
    extra = {} if node_limit is None else {"node_limit": node_limit}
    with _Progress(deals * 6, "search") as progress:
        doc = run_trischaken_bench(rules, deals=deals, step=progress.step, **extra)
    doc["machine"] = machine_info()
    for line in format_trischaken_report(doc):
        click.echo(line)
    _save(doc, json_path)


def _save(doc: dict, json_path: str | None) -> None:
    """Write a bench document as JSON (``--json``; its path was checked before the run)."""
    if json_path is not None:
        from tarock_solver.bench import save_report

        save_report(doc, json_path)
        click.echo(f"Wrote {json_path}.")


def _review_bench(settings: Settings, deals: int, deals_file: str | None,
                  json_path: str | None) -> None:
    """`tarock review` on full records, per record and in summary."""
    from tarock_solver.bench.review import format_review_report, run_review_bench

    doc = run_review_bench(deals=deals, deals_file=deals_file, rules=settings.rules,
                           status=lambda msg: click.echo(msg, err=True))
    for line in format_review_report(doc):
        click.echo(line)
    _save(doc, json_path)


def _estimate_bench(count: int, json_path: str | None) -> None:
    """The evaluator's positions per second, batched and single."""

    from tarock_solver.bench.estimate import format_estimate_report, run_estimate_bench

    doc = run_estimate_bench(count=count)
    for line in format_estimate_report(doc):
        click.echo(line)
    _save(doc, json_path)


def _advise_bench(settings: Settings, hands: int | None, seeds: int, time_limit: float,
                  threads: int | None, json_path: str | None, *, first_seed: int = 1,
                  opponents: str = "policy") -> None:
    """The adviser's stability across seeds, SEs and wall times on the shipped hands."""
    import os

    from tarock_solver.bench.advise import (
        BIRD_HANDS,
        PLAIN_HANDS,
        format_advise_report,
        run_advise_bench,
    )

    jobs = threads if threads is not None else (os.cpu_count() or 1)
    doc = run_advise_bench(hands=PLAIN_HANDS + BIRD_HANDS if hands is None else hands,
                           seeds=seeds, first_seed=first_seed,
                           time_limit=time_limit, jobs=jobs, rules=settings.rules,
                           overrides=dict(settings.opts), opponents=opponents,
                           status=lambda msg: click.echo(msg, err=True))
    for line in format_advise_report(doc):
        click.echo(line)
    _save(doc, json_path)
