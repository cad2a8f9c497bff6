"""The adviser's progress reports (``AdviceRequest.on_progress``): how far the run is
and the leading option's standard errors, without changing the answer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from advise_fakes import FAST, request

from tarock_solver.advise import AdviceProgress, advise
from tarock_solver.advise import progress as progress_module


def _json(adv) -> tuple:
    meta = adv.meta.to_json()
    for key in ("seconds", "evaluator_load_seconds", "seconds_evaluator", "seconds_exact",
                "exact_solver_seconds", "game_point_seconds", "kernels_ready_after",
                "kernels_compiled_this_run"):
        meta.pop(key, None)
    return (adv.table.to_csv(), adv.recommendation.to_json(), meta)


def test_progress_reports_growing_worlds_and_leave_the_answer_alone(monkeypatch) -> None:
    # the leader at every report: every call reads the series, none may change them
    monkeypatch.setattr(progress_module, "LEADER_EVERY", 0.0)
    req = request(samples=40, settings=replace(FAST, exact_from=8))
    seen: list[AdviceProgress] = []
    with_reports = advise(replace(req, on_progress=seen.append))
    without = advise(req)
    assert _json(with_reports) == _json(without)
    evaluated = [p.worlds for p in seen if p.phase == "evaluator"]
    assert evaluated == list(range(1, 41))
    assert all(p.worlds_total == 40 and p.time_limit is None for p in seen)
    solves = [p.exact_solves for p in seen]
    assert solves == sorted(solves) and solves[-1] > 0
    # the leader has SEs once it has enough exact worlds, and not before
    assert seen[0].leader is not None and seen[0].leader_net_se is None
    last = seen[-1]
    assert last.leader in with_reports.table["contract"].tolist()
    assert last.leader_net_se is not None and last.leader_net_se > 0
    assert last.leader_points_se is not None and last.leader_points_se > 0


def test_a_failing_progress_callback_is_the_callers_error() -> None:
    def boom(_p: AdviceProgress) -> None:
        raise RuntimeError("reader failed")

    with pytest.raises(RuntimeError, match="reader failed"):
        advise(request(samples=4, on_progress=boom))
