"""Executors: where the chunks of a run are analysed.

Every executor runs :func:`~.worker.run_chunk` on the same tasks and hands the results
back to the main process, which alone writes checkpoints and the output.  So the output
never depends on the executor or on the number of workers; only the order in which
chunks *finish* does, and the merge puts them back in input order.

* :class:`SerialExecutor` — in this process, one chunk after the other.
* :class:`PoolExecutor` — ``jobs`` worker processes started with ``spawn``.  Never
  ``fork``: numba's threading layer may already run threads here, and a forked child
  inherits their locks but not the threads.
* :class:`DaskExecutor` — a Dask distributed cluster (``tcp://HOST:PORT``) or a
  ``LocalCluster`` of worker processes (Dask spawns them too).

Work is submitted through a bounded window, so a file of millions of deals never has
more than a few chunks per worker in flight (memory stays flat, and an interrupted run
wastes at most the chunks in flight).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from .errors import BatchError
from .settings import BatchSettings
from .worker import ChunkResult, ChunkTask, run_chunk

__all__ = ["DaskExecutor", "Executor", "PoolExecutor", "SerialExecutor", "make_executor"]

#: Chunks in flight per worker: one running, one queued so the worker never idles.
_WINDOW_PER_WORKER = 2
_DASK_HINT = 'Dask is an optional extra: pip install "tarock-solver[dask]"'


class Executor(Protocol):
    """Runs chunk tasks and yields their results as they finish (in any order)."""

    description: str

    def run(self, tasks: Iterable[ChunkTask], settings: BatchSettings) -> Iterator[ChunkResult]:
        ...

    def close(self, *, abort: bool = False) -> None:
        """Release the workers; ``abort`` stops running chunks instead of waiting."""
        ...


class SerialExecutor:
    """All chunks in this process, in input order."""

    def __init__(self) -> None:
        self.description = "1 job (this process)"

    def run(self, tasks: Iterable[ChunkTask], settings: BatchSettings) -> Iterator[ChunkResult]:
        for task in tasks:
            yield run_chunk(task, settings)

    def close(self, *, abort: bool = False) -> None:
        pass


def _windowed(submit: Any, tasks: Iterable[ChunkTask], window: Callable[[], int],
              wait_any: Any) -> Iterator[Any]:
    """Keep at most ``window()`` submitted tasks in flight; yield finished futures.

    ``submit(task)`` returns a future; ``wait_any(futures)`` returns the finished
    ones.  Shared by the process pool and Dask, whose futures differ in type only.
    ``window`` is asked again at every refill: Dask workers may join a running job.
    """
    pending: set[Any] = set()
    iterator = iter(tasks)
    exhausted = False
    while True:
        limit = window()
        while not exhausted and len(pending) < limit:
            task = next(iterator, None)
            if task is None:
                exhausted = True
                break
            pending.add(submit(task))
        if not pending:
            return
        finished = wait_any(pending)
        for future in finished:
            pending.discard(future)
            yield future


def _watch_parent(parent: int) -> None:
    """Pool initializer: end this worker when the main process is gone.

    A main process killed with SIGKILL cannot stop its workers, and a worker would
    otherwise finish its chunk (minutes, maybe) for nobody.  Polling the parent id is
    portable enough: a re-parented process sees another parent.
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="tarock-parent-watch", daemon=True).start()


class PoolExecutor:
    """``jobs`` spawned worker processes on this machine."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise BatchError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self.description = f"{jobs} worker processes"
        self._pool = ProcessPoolExecutor(max_workers=jobs,
                                         mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_watch_parent, initargs=(os.getpid(),))

    def run(self, tasks: Iterable[ChunkTask], settings: BatchSettings) -> Iterator[ChunkResult]:
        def wait_any(pending: set[Future[ChunkResult]]) -> set[Future[ChunkResult]]:
            return wait(pending, return_when=FIRST_COMPLETED).done

        try:
            for future in _windowed(lambda t: self._pool.submit(run_chunk, t, settings), tasks,
                                    lambda: self.jobs * _WINDOW_PER_WORKER, wait_any):
                yield future.result()
        except BrokenProcessPool as exc:
            raise BatchError(f"a worker process died ({exc}); the chunks finished so far are "
                             f"saved: run the same command again to resume.") from None

    def close(self, *, abort: bool = False) -> None:
        if abort:
            # An interrupted run must stop now, not after the chunks in flight: their
            # work is lost either way (it was never checkpointed).  The pool has no
            # public way to stop its workers, so end the processes it started.
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """A Dask distributed cluster: an existing one (``address``) or a local one."""

    def __init__(self, address: str | None = None, local_workers: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BatchError(f"--scheduler and --dask-local need Dask. {_DASK_HINT}") from None
        self._cluster = None
        if (address is None) == (local_workers is None):
            raise BatchError("give either a scheduler address or a number of local workers")
        if address is not None:
            try:
                self._client = Client(address, timeout="30s")
            except (OSError, TimeoutError) as exc:
                raise BatchError(f'cannot reach the Dask scheduler at "{address}" ({exc}); '
                                 f"start it with `dask scheduler` and give its tcp://HOST:PORT."
                                 ) from None
            self.description = f"Dask cluster at {address}"
        else:
            if local_workers is None or local_workers < 1:
                raise BatchError(f"--dask-local must be at least 1, not {local_workers}")
            # One thread per worker process: the solver keeps per-process state and the
            # kernels hold the GIL, so threads inside one worker would only queue up.
            self._cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                         processes=True, dashboard_address=None)
            self._client = Client(self._cluster)
            self.description = f"Dask local cluster of {local_workers} workers"

    def _threads(self) -> int:
        info = self._client.scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    def run(self, tasks: Iterable[ChunkTask], settings: BatchSettings) -> Iterator[ChunkResult]:
        from distributed import wait as dask_wait

        def submit(task: ChunkTask) -> Any:
            # pure=False: a chunk is computed once per submission, never served from a
            # cache keyed on arguments (its timing columns are measurements).
            return self._client.submit(run_chunk, task, settings, pure=False,
                                       key=f"tarock-chunk-{task.index}-{id(task):x}")

        def wait_any(pending: set[Any]) -> set[Any]:
            return set(dask_wait(list(pending), return_when="FIRST_COMPLETED").done)

        def window() -> int:
            return max(2, self._threads() * _WINDOW_PER_WORKER)

        for future in _windowed(submit, tasks, window, wait_any):
            try:
                result = future.result()
            except Exception as exc:
                if type(exc).__name__ == "KilledWorker":
                    raise BatchError(f"Dask gave up on a chunk after its workers died ({exc}); "
                                     f"the chunks finished so far are saved: run the same "
                                     f"command again to resume.") from None
                raise
            finally:
                future.release()
            yield result

    def close(self, *, abort: bool = False) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(*, jobs: int = 1, scheduler: str | None = None,
                  dask_local: int | None = None) -> Executor:
    """The executor for ``--jobs`` / ``--scheduler`` / ``--dask-local`` (one of them)."""
    if scheduler is not None and dask_local is not None:
        raise BatchError("give --scheduler or --dask-local, not both")
    if scheduler is not None or dask_local is not None:
        return DaskExecutor(scheduler, dask_local)
    if jobs == 1:
        return SerialExecutor()
    return PoolExecutor(jobs)
