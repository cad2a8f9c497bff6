"""The adviser's typed results: their JSON keys, reading them by key, and the package's
module graph (no import cycle among the adviser's modules)."""

from __future__ import annotations

import ast
import json
import math
from dataclasses import replace
from pathlib import Path

from advise_fakes import fake_trick_points, zero_trick_points

from tarock_solver.advise import AdviceLimit, AdviceRequest, AdviceSettings, advise
from tarock_solver.advise.results import Recommendation, RunMeta
from tarock_solver.notation import parse_hand

DEMO = parse_hand("21,20,16,15,7,5,2,1.K.KQ.K97.Q9")
FAST = AdviceSettings(inner=16, screen=4, keep=4, talon_inner=32, cell_width=1)
ADVISE = Path(__file__).resolve().parents[1] / "tarock_solver" / "advise"


def request(**kw) -> AdviceRequest:
    base = dict(hand=DEMO, seat=0, samples=24, time_limit=None, seed=5,
                solve_batch=fake_trick_points, settings=FAST)
    base.update(kw)
    return AdviceRequest(**base)


def test_a_bid_and_a_pass_have_their_json_keys_in_order() -> None:
    bid = advise(request()).recommendation
    assert isinstance(bid, Recommendation) and bid.contract != "pass"
    assert list(bid.to_json()) == [
        "worlds", "contract", "option", "mean_net", "mean_net_se", "mean_points",
        "mean_points_se", "p_make", "in_sample", "held_out_choices", "held_out_agrees",
        "runner_up", "close_call", "settled", "tentative", "tentative_reasons",
        "announce_gate", "birds_counted"]
    assert list(bid.to_json()["runner_up"]) == [
        "contract", "option", "mean_net", "mean_points", "mean_points_se", "difference",
        "difference_se", "split"]
    passed = advise(request(solve_batch=zero_trick_points)).recommendation
    assert passed.contract == "pass"
    keys = set(passed.to_json())
    assert not keys & {"in_sample", "held_out_choices", "held_out_agrees", "birds_in",
                       "if_senior_three"}
    # what is left out of the JSON is not there when read by key either
    assert "in_sample" not in passed and passed.get("in_sample", "absent") == "absent"
    json.dumps(bid.to_json())  # plain data: nothing the encoder needs help with


def test_a_record_read_by_key_is_its_attributes() -> None:
    rec = advise(request()).recommendation
    assert rec["contract"] == rec.contract
    assert rec["runner_up"]["split"]["posterior"] == rec.runner_up.split.posterior
    assert list(rec) == list(rec.to_json())


def test_the_answer_to_a_senior_three_shows_its_keys_only() -> None:
    rec = advise(request(seat=1, contracts=("three", "lower", "solo"))).recommendation
    senior = rec.to_json()["if_senior_three"]
    assert list(senior) == ["contract", "option", "mean_net", "mean_net_se", "mean_points",
                            "mean_points_se", "p_make", "close_call", "tentative",
                            "runner_up", "birds_counted", "settled"]
    assert senior["contract"] == rec.if_senior_three.contract


def test_the_meta_holds_the_limit_of_the_run() -> None:
    req = request(samples=12, settings=replace(FAST, max_exact=4))
    assert req.limit == AdviceLimit(None, 12) and req.limit.deadline() is None
    meta = advise(req).meta
    assert isinstance(meta, RunMeta)
    assert meta.samples_requested == 12 and meta.time_limit is None and meta.worlds == 12
    assert list(meta.to_json())[-1] == "firm_time_limit"
    timed = AdviceLimit(2.5, 10)
    assert timed.timed and timed.deadline(100.0) == 102.5
    assert not AdviceLimit(0.0, 10).timed and AdviceLimit(0.0, 10).deadline(1.0) is None
    assert math.isfinite(meta.seconds)


def _imports(path: Path) -> set[str]:
    """The sibling modules of the adviser's package a module imports (``from .x``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (module → modules it imports), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_adviser_modules_import_one_another_without_a_cycle() -> None:
    graph = {p.stem: _imports(p) for p in ADVISE.glob("*.py") if p.stem != "__init__"}
    assert {"settings", "problem", "series", "schedule", "decision", "results"} <= set(graph)
    assert graph["schedule"] >= {"series", "settings"}  # the scan sees the imports
    assert _cycle(graph) is None, _cycle(graph)
    # positive control: the cycle the package had (engine ↔ plan) is found
    assert _cycle({**graph, "engine": {"plan"}, "plan": {"engine"}}) is not None
