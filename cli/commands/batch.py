"""`tarock batch`: analyse every deal of a file — resumable, parallel, on Dask if wanted."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import click

from tarock_solver.batch import (
    DEFAULT_CHUNK_SIZE,
    FRENCH_ADVICE_WORLDS,
    FRENCH_MODES,
    BatchPlan,
    BatchSettings,
    BatchSummary,
    RecordError,
    available_modes,
    check_settings,
    default_output,
    get_mode,
    output_format,
    parts_dir,
    plan_batch,
    run_batch,
)

from ..main import Settings
from ._output import check_output

#: Results file types (NOTATION.md 5.3); whether Parquet can be written is checked apart.
OUTPUT_SUFFIXES = (".parquet", ".pq", ".csv", ".jsonl", ".ndjson")
#: Bad records shown on stderr; the errors file always has all of them.
_SHOW_ERRORS = 20
#: Exit status when --strict is given and a record failed (NOTATION.md section 7).
EXIT_FAILED_RECORDS = 3


def _split(values: tuple[str, ...]) -> list[str] | None:
    """Repeatable options that also take comma-separated lists: --contract solo,three."""
    items = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return items or None


def _where(source: str, error: RecordError) -> str:
    where = source if error.line is None else f"{source}:{error.line}"
    return f'{where} (id "{error.id}")' if error.id else where


def _show_errors(source: str, errors: list[RecordError], total: int, errors_file: str) -> None:
    for error in errors[:_SHOW_ERRORS]:
        # One line per record, whatever the record held (a quoted CSV field may hold a
        # line break).
        reason = error.reason.replace("\r", "\\r").replace("\n", "\\n")
        click.echo(f"Warning: {_where(source, error)}: {reason}", err=True)
    if total > _SHOW_ERRORS:
        click.echo(f"Warning: ... and {total - _SHOW_ERRORS} more (all are listed in "
                   f"{errors_file}).", err=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _interrupted_line(out: Path) -> str:
    parts = parts_dir(out)
    saved = len(list(parts.glob("chunk-*.pkl"))) if parts.is_dir() else 0
    if not saved:
        return ("Interrupted before the first chunk was finished; run the same command again "
                "to start over.")
    return (f"Interrupted: {saved} finished chunk{'s are' if saved != 1 else ' is'} saved in "
            f"{parts}/; run the same command again to resume (only the missing chunks are "
            f"computed).")


def _summary_line(summary: BatchSummary) -> str:
    resumed = f", {summary.resumed} from checkpoints" if summary.resumed else ""
    if summary.resolved:
        resumed += f", {summary.resolved} with rows over budget solved again"
    rate = f", {summary.deals_per_second:.2f} deals/s" if summary.analysed else ""
    return (f"Done: {_count(summary.ok, 'deal')} ok{resumed}, {summary.failed} failed, "
            f"{_count(summary.rows, 'row')} in {summary.seconds:.1f} s{rate} "
            f"({summary.executor}) -> {summary.output}")


def _run(input_path: Path, out: Path, batch_settings: BatchSettings, chunk_size: int,
         jobs: int, scheduler: str | None, dask_local: int | None, restart: bool,
         no_progress: bool, keep_parts: bool) -> tuple[BatchPlan, BatchSummary]:
    """Plan (reporting bad lines at once, before hours of work) and run."""
    plan = plan_batch(input_path, chunk_size, reader=get_mode(batch_settings.mode).read)
    for message in plan.warnings:
        click.echo(f"Warning: {message}", err=True)
    errors_file = f"{out}.errors.csv"
    if plan.input_errors:
        _show_errors(str(input_path), list(plan.input_errors), len(plan.input_errors),
                     errors_file)
    summary = run_batch(plan, out, batch_settings, jobs=jobs, scheduler=scheduler,
                        dask_local=dask_local, restart=restart, progress=not no_progress,
                        keep_parts=keep_parts)
    return plan, summary


@click.command("batch")
@click.argument("input_path", metavar="IN", type=click.Path(exists=True, dir_okay=False,
                                                            path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Results file: .parquet, .csv or .jsonl (default IN with .results.parquet, "
                   "or .results.csv without pyarrow).")
@click.option("--mode", type=click.Choice([m for m in available_modes()
                                           if m not in FRENCH_MODES]), default="table", show_default=True,
              help="table: double-dummy table of each deal; advise: bidding advice per hand "
                   "(French Tarot: which contract to take, or to pass); review: the DD cost "
                   "of every card of each played deal (IN: play records; French Tarot: deal "
                   "files with the play).")
@click.option("--contract", "contracts", multiple=True, metavar="NAME[,NAME]",
              help="Only these contracts (repeatable; default all of the profile).")
@click.option("--declarer", "--seat", "declarers", multiple=True, metavar="SEAT[,SEAT]",
              help="Only these declarer seats F, M, R (repeatable; default all); advise: the "
                   "seats whose hands are advised.  French Tarot: seats 1 to 4; advise "
                   "defaults to a record's taker, else every hand it holds.")
@click.option("--rules", "rules_name", default=None, metavar="NAME",
              help="Rule profile for records without their own (default: the global --rules).")
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True, metavar="N",
              help="Worker processes on this machine (0 = one per core).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=DEFAULT_CHUNK_SIZE,
              show_default=True, metavar="K", help="Deals per checkpointed chunk.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
              help="Run the chunks on this Dask distributed scheduler.")
@click.option("--dask-local", type=click.IntRange(min=1), default=None, metavar="N",
              help="Run the chunks on a local Dask cluster of N worker processes.")
@click.option("--strict", is_flag=True,
              help=f"Exit with status {EXIT_FAILED_RECORDS} if any record failed (the run "
                   f"still finishes the rest).")
@click.option("--restart", is_flag=True,
              help="Discard checkpoints of an earlier run (OUT.parts/) and start again.")
@click.option("--no-timing", is_flag=True,
              help="Leave solve_ms empty: the output is then byte-identical between runs.")
@click.option("--node-limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="table mode: stop a table row after N search nodes; it is kept with its "
                   "proved bounds (status over_budget), and the same command with a larger N "
                   "solves only such rows; default no limit.")
@click.option("--samples", "--worlds", "samples", type=click.IntRange(min=1), default=None,
              help="advise mode: sampled worlds per contract (default 100; French Tarot: "
                   f"worlds per hand, default {FRENCH_ADVICE_WORLDS}, at least 8).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="advise mode: random seed (a row's worlds depend on it and the hand only).")
@click.option("--keep-parts", is_flag=True, help="Keep OUT.parts/ after a successful run.")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.pass_obj
def command(settings: Settings, input_path: Path, output: Path | None, mode: str,
            contracts: tuple[str, ...], declarers: tuple[str, ...], rules_name: str | None,
            jobs: int, chunk_size: int, scheduler: str | None, dask_local: int | None,
            strict: bool, restart: bool, no_timing: bool, node_limit: int | None,
            samples: int | None, seed: int, keep_parts: bool, no_progress: bool) -> None:
    """Analyse every deal of IN (a .jsonl or .csv deal file, NOTATION.md section 5).

    Results are checkpointed chunk by chunk in OUT.parts/: a run that is killed resumes
    where it stopped when started again with the same arguments, and the output is the
    same for any --jobs, --scheduler or --dask-local.  Bad records are skipped, listed
    on stderr and in OUT.errors.csv (line, id, reason); the exit status is then 0 with a
    warning, or 3 with --strict.
    """
    if scheduler is not None and dask_local is not None:
        raise click.UsageError("give --scheduler or --dask-local, not both.")
    if (scheduler is not None or dask_local is not None) and jobs != 1:
        raise click.UsageError("--jobs is for this machine; with Dask the cluster's workers "
                               "do the work (size it with --dask-local N or `dask worker`).")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if settings.game == "french":
        if mode not in ("table", "review", "advise"):
            raise click.UsageError(f"--mode {mode}: French Tarot files have the table, "
                                   "review and advise modes.")
        mode = f"french-{mode}"
    out = output if output is not None else default_output(input_path)
    # Before any work: the results, OUT.errors.csv and OUT.parts/ all go beside OUT.
    check_output(out, "-o" if output is not None else "the default output",
                 suffixes=OUTPUT_SUFFIXES)
    output_format(out)
    batch_settings = BatchSettings.create(
        mode=mode, rules=rules_name or settings.rules, opts=settings.opts,
        contracts=_split(contracts), declarers=_split(declarers), timing=not no_timing,
        samples=samples, seed=seed, node_limit=node_limit)
    # Bad settings (a profile, a seat, too few worlds) stop the run before the file is read.
    batch_settings = check_settings(batch_settings)

    # SIGTERM (a scheduler stopping the job, `kill`) takes the same way out as Ctrl-C:
    # workers are stopped and the finished chunks stay for the next run.  The previous
    # handler comes back afterwards (the command may run inside a longer-lived process).
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if in_main_thread else None
    try:
        plan, summary = _run(input_path, out, batch_settings, chunk_size, jobs, scheduler,
                             dask_local, restart, no_progress, keep_parts)
    except KeyboardInterrupt:
        # Caught here, not left to click's bare "Aborted.": the user must learn that the
        # work is kept and how to get it back.
        click.echo(_interrupted_line(out), err=True)
        sys.exit(130)
    finally:
        if in_main_thread:
            # None: the old handler was not set from Python; SIG_DFL is what it was.
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
    unreadable = set(plan.input_errors)
    analysis_errors = [e for e in summary.errors if e not in unreadable]
    if analysis_errors:
        _show_errors(str(input_path), analysis_errors, len(analysis_errors),
                     str(summary.errors_path))
    click.echo(_summary_line(summary), err=True)
    if summary.open_rows:
        budget = f" of {node_limit:,}" if node_limit is not None else ""
        kept = (f"{_count(summary.open_rows, 'row')} went over the node budget{budget} and "
                f"{'are' if summary.open_rows != 1 else 'is'} kept with the bounds proved "
                "(status over_budget)")
        if get_mode(batch_settings.mode).resolve is not None:
            click.echo(f"Warning: {kept}; the same command with a larger --node-limit solves "
                       f"only those (the checkpoints stay in {parts_dir(summary.output)}/).",
                       err=True)
        else:
            # a mode without rows to solve again (a review) starts over to use a new budget
            click.echo(f"Warning: {kept}; run again with --restart and a larger --node-limit "
                       "to solve them.", err=True)
    if summary.failed:
        click.echo(f"Warning: {summary.failed} record{'s' if summary.failed != 1 else ''} "
                   f"failed ({summary.bad_lines} unreadable, {summary.analysis_failures} not "
                   f"analysed); see {summary.errors_path}.", err=True)
        if strict:
            # sys.exit, not ctx.exit: the entry point runs click with standalone_mode=False,
            # where click turns ctx.exit(n) into a return value that is then dropped.
            sys.exit(EXIT_FAILED_RECORDS)
