"""What a run tells the request's ``on_progress`` while it works.

:class:`ProgressReporter` turns the engine's progress calls into
:class:`~.settings.AdviceProgress` reports: the counts every time, the leading
option and its standard errors (:func:`leader`) at most every
:data:`LEADER_EVERY` seconds.  It only reads the series.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from .exact import ExactSolver
from .series import ContractSeries
from .settings import AdviceLimit, AdviceProgress

__all__ = ["LEADER_EVERY", "ProgressReporter", "leader"]

#: Seconds between two workings-out of the leading option (each 0.5–15 ms on 300 worlds).
LEADER_EVERY = 0.5


def leader(series: Mapping[str, ContractSeries]) -> tuple[str, float | None, float | None] | None:
    """The contract of the option with the best E[net] so far, with the SEs of its
    E[net] and E[card points] (None while it has too few exact worlds for one); None
    before any world.

    Reads the series through :meth:`~.series.ContractSeries.estimate`, whose memos
    only cache per-world values that never change (worlds and prefixes only grow), so
    asking early changes no number of the answer.
    """
    best = None
    for c, ser in series.items():
        if not ser.worlds:
            continue
        for p in range(len(ser.plan.policies)):
            net = ser.estimate(p, "net")
            if best is None or net.mean > best[1].mean:
                best = (c, net, ser, p)
    if best is None:
        return None
    c, net, ser, p = best
    points = ser.estimate(p, "points")
    return (c, net.se if net.has_se else None, points.se if points.has_se else None)


class ProgressReporter:
    """Calls ``on_progress`` with an :class:`~.settings.AdviceProgress` at each of the
    engine's progress calls (:meth:`report`)."""

    def __init__(self, on_progress: Callable[[AdviceProgress], None], exact: ExactSolver,
                 limit: AdviceLimit, start: float) -> None:
        self.on_progress = on_progress
        self.exact = exact
        self.limit = limit
        self.start = start
        self._leader: tuple[str, float | None, float | None] | None = None
        self._leader_at = -LEADER_EVERY
        #: What the answer waits for, as the run last checked (None: not checked yet,
        #: or firm).
        self.waiting_for: str | None = None

    def report(self, phase: str, series: Mapping[str, ContractSeries]) -> None:
        """One report: the counts now, the leader as last worked out."""
        now = time.time()
        if now - self._leader_at >= LEADER_EVERY:
            self._leader = leader(series)
            self._leader_at = time.time()
        lead = self._leader or (None, None, None)
        self.on_progress(AdviceProgress(
            phase=phase,
            worlds=max((s.worlds for s in series.values()), default=0),
            worlds_total=None if self.limit.timed else self.limit.worlds,
            exact_solves=self.exact.solves,
            seconds=now - self.start,
            time_limit=self.limit.seconds if self.limit.timed else None,
            leader=lead[0], leader_net_se=lead[1], leader_points_se=lead[2],
            waiting_for=self.waiting_for))
