"""A whole batch run: plan → checkpoints → executor → merge → summary.

:func:`run_batch` is the library entry point behind ``tarock batch``.  Its contract:

* **Nothing lost.**  Every finished chunk is checkpointed atomically before the next
  result is taken; a run killed at any moment and started again with the same
  arguments computes only the missing chunks.
* **Same output everywhere.**  The final file is assembled from the checkpoints in
  input order, so it is identical for any ``jobs``, executor or number of restarts
  (byte-identical with ``timing=False``; otherwise only ``solve_ms`` differs).
* **Bad records do not stop the run.**  They are listed in ``OUT.errors.csv`` (line,
  id, reason) and counted in the summary.
* **Rows over the node budget are kept** with their bounds (``status`` ``over_budget``)
  and ``OUT.parts/`` stays; the same command with a larger ``--node-limit`` solves
  those rows again and leaves every other row as it was.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..checkpoint import Checkpoint, parts_dir
from .errors import BatchError
from .merge import errors_path_for, output_format, write_errors, write_output
from .modes import check_settings, get_mode
from .plan import BatchPlan
from .runner import Executor, SerialExecutor, make_executor
from .settings import BatchSettings
from .worker import ChunkResult, ChunkTask, RecordError

__all__ = ["BatchSummary", "run_batch"]


@dataclass
class BatchSummary:
    """What a run did.

    ``records`` counts the readable records of the input, ``bad_lines`` the lines that
    could not be read, ``analysis_failures`` the records that could not be analysed;
    ``errors`` lists both kinds in input order.  ``resumed`` records came from
    checkpoints of an earlier run, ``analysed`` were computed now; ``resolved`` of
    those came from checkpoints too but had rows over budget solved again.
    ``open_rows`` counts the rows of the output still over their node budget, and
    ``parts_kept`` tells that ``OUT.parts/`` was kept for a run to solve them.
    """

    output: Path
    errors_path: Path | None
    executor: str
    records: int
    bad_lines: int
    analysis_failures: int
    resumed: int
    analysed: int
    rows: int
    seconds: float
    errors: list[RecordError] = field(default_factory=list)
    resolved: int = 0
    open_rows: int = 0
    parts_kept: bool = False

    @property
    def ok(self) -> int:
        """Records analysed successfully (now or in an earlier, interrupted run)."""
        return self.records - self.analysis_failures

    @property
    def failed(self) -> int:
        """Bad lines plus records that could not be analysed."""
        return self.bad_lines + self.analysis_failures

    @property
    def deals_per_second(self) -> float:
        """Throughput of this run (records resumed from checkpoints do not count)."""
        return self.analysed / self.seconds if self.seconds > 0 else 0.0


def _progress_bar(total: int, initial: int, enabled: bool):  # -> tqdm | None
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="deal", desc="deals", file=sys.stderr,
                dynamic_ncols=True, smoothing=0.1)


def _pending(plan: BatchPlan, done: set[int], resolve: list[int], ckpt: Checkpoint
             ) -> Iterator[ChunkTask]:
    """The missing chunks, then the finished ones with rows to solve again.

    A chunk to solve again is read from its checkpoint only when it is handed out, so
    memory holds only the chunks in flight.
    """
    for i in range(plan.n_chunks):
        if i not in done:
            yield plan.chunk(i)
    for i in resolve:
        task = plan.chunk(i)
        yield dataclasses.replace(task, previous=ChunkResult.from_payload(i, ckpt.load(i)))


def _to_resolve(ckpt: Checkpoint, done: set[int], settings: BatchSettings) -> list[int]:
    """Finished chunks whose rows over budget a larger budget can now solve."""
    if get_mode(settings.mode).resolve is None:
        return []
    # Only a run with a larger budget than an earlier one needs to look at the chunks.
    if not ckpt.note_node_limit(settings.node_limit):
        return []
    return [i for i in sorted(done) if ChunkResult.from_payload(i, ckpt.load(i)).solvable_with(settings.node_limit)]


def run_batch(plan: BatchPlan, output: str | os.PathLike[str], settings: BatchSettings, *,
              jobs: int = 1, scheduler: str | None = None, dask_local: int | None = None,
              executor: Executor | None = None, restart: bool = False, progress: bool = False,
              keep_parts: bool = False) -> BatchSummary:
    """Analyse every record of ``plan`` and write ``output`` (format by extension).

    The executor is ``executor`` if given, else the one chosen by ``jobs`` /
    ``scheduler`` / ``dask_local``.  ``restart`` discards checkpoints of an earlier
    run; ``keep_parts`` keeps ``OUT.parts/`` after success (it is removed otherwise).
    Raises :class:`BatchError` for problems with the run as a whole; checkpoints
    written before the error are kept, so the same call resumes.
    """
    out = Path(output)
    output_format(out)  # fail before any work if the format cannot be written
    if not out.parent.is_dir():
        # The same rule as every command's output: directories are never made silently.
        raise BatchError(f"{out}: the directory {out.parent} does not exist; create it first.")
    settings = check_settings(settings)
    started = time.perf_counter()
    manifest = Checkpoint.make_manifest(
        input_path=plan.input.resolve(), input_sha256=plan.input_sha256,
        chunk_size=plan.chunk_size, chunks=plan.n_chunks, records=len(plan.records),
        settings=settings.fingerprint())
    with Checkpoint.open(parts_dir(out), manifest, restart=restart) as ckpt:
        done = ckpt.done() & set(range(plan.n_chunks))
        sizes = plan.chunk_sizes()
        resolve = _to_resolve(ckpt, done, settings)
        resolved = sum(sizes[i] for i in resolve)
        resumed = sum(sizes[i] for i in done) - resolved
        analysed = failed_so_far = 0
        bar = _progress_bar(len(plan.records), resumed, progress)
        owned = executor is None
        aborted = True
        try:
            if len(done) < plan.n_chunks or resolve:
                if executor is None:
                    executor = make_executor(jobs=jobs, scheduler=scheduler,
                                             dask_local=dask_local)
                work_settings = settings if isinstance(executor, SerialExecutor) else \
                    dataclasses.replace(settings, worker_threads=settings.worker_threads or 1)
                for result in executor.run(_pending(plan, done, resolve, ckpt), work_settings):
                    _check_result(result, sizes)
                    ckpt.save(result.index, result.payload())
                    analysed += result.deals
                    if bar is not None:
                        bar.update(result.deals)
                        if result.failed:
                            failed_so_far += result.failed
                            bar.set_postfix_str(f"failed {failed_so_far}", refresh=False)
            aborted = False
        finally:
            if bar is not None:
                bar.close()
            if owned and executor is not None:
                executor.close(abort=aborted)
        merged = write_output(ckpt, plan.n_chunks, out, get_mode(settings.mode).empty(settings))
        errors = sorted([*plan.input_errors, *merged.errors],
                        key=lambda e: (e.line if e.line is not None else sys.maxsize,
                                       e.id or ""))
        errors_path = write_errors(errors_path_for(out), errors)
    # Rows over budget: the checkpoints stay, so that the same command with a larger
    # --node-limit solves those rows and nothing else.
    parts_kept = keep_parts or merged.open_rows > 0
    if not parts_kept:
        ckpt.remove()
    return BatchSummary(
        output=out, errors_path=errors_path,
        executor=executor.description if executor is not None else "nothing left to compute",
        records=len(plan.records), bad_lines=len(plan.input_errors),
        analysis_failures=len(merged.errors), resumed=resumed, analysed=analysed,
        rows=merged.rows, seconds=time.perf_counter() - started, errors=errors,
        resolved=resolved, open_rows=merged.open_rows, parts_kept=parts_kept)


def _check_result(result: ChunkResult, sizes: list[int]) -> None:
    # A result for a chunk that does not exist, or with the wrong number of deals, would
    # poison the checkpoints; it can only come from a worker running other code.
    if not 0 <= result.index < len(sizes) or result.deals != sizes[result.index]:
        raise BatchError(f"a worker returned chunk {result.index} with {result.deals} deals, "
                         f"which does not match the plan; are all workers running the same "
                         f"version of tarock-solver?")
