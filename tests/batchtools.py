"""Stand-ins for batch runs that die part way, for the resumption tests."""

from __future__ import annotations

from tarock_solver.batch.runner import SerialExecutor


class Crash(Exception):
    """Stands in for a run that dies after some chunks."""


class CrashingExecutor(SerialExecutor):
    """Runs the chunks one after another and dies after the ``after``-th."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after

    def run(self, tasks, settings):
        for n, result in enumerate(super().run(tasks, settings)):
            if n == self.after:
                raise Crash
            yield result
