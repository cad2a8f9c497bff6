"""The adviser's typed results: their JSON keys, reading them by key, the run's limit.
(The import graph of the adviser, like every package's, is tested in test_layers.)"""

from __future__ import annotations

import json
import math
from dataclasses import replace

from advise_fakes import FAST, request, zero_trick_points

from tarock_solver.advise import AdviceLimit, advise
from tarock_solver.advise.results import Recommendation, RunMeta


def test_a_bid_and_a_pass_have_their_json_keys_in_order() -> None:
    bid = advise(request()).recommendation
    assert isinstance(bid, Recommendation) and bid.contract != "pass"
    assert list(bid.to_json()) == [
        "worlds", "contract", "option", "mean_net", "mean_net_se", "mean_points",
        "mean_points_se", "p_make", "in_sample", "held_out_choices", "held_out_agrees",
        "runner_up", "close_call", "settled", "tentative", "tentative_reasons",
        "announce_gate", "birds_counted", "p_better", "correction_weight"]
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
                            "runner_up", "birds_counted", "settled", "p_better",
                            "correction_weight"]
    assert senior["contract"] == rec.if_senior_three.contract


def test_the_meta_holds_the_limit_of_the_run() -> None:
    req = request(samples=12, settings=replace(FAST, max_exact=4))
    assert req.limit == AdviceLimit(None, 12) and req.limit.deadline() is None
    meta = advise(req).meta
    assert isinstance(meta, RunMeta)
    assert meta.samples_requested == 12 and meta.time_limit is None and meta.worlds == 12
    assert list(meta.to_json())[-6:] == ["firm_time_limit", "stopped_firm", "waiting_for",
                                         "opponents", "pass_exact_worlds", "trischaken_solves"]
    assert meta.stopped_firm is False and meta.waiting_for is None  # untimed: never checked
    timed = AdviceLimit(2.5, 10)
    assert timed.timed and timed.deadline(100.0) == 102.5
    assert not AdviceLimit(0.0, 10).timed and AdviceLimit(0.0, 10).deadline(1.0) is None
    assert math.isfinite(meta.seconds)
