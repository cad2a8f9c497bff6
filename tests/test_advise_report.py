"""Estimates, comparisons, the recommendation and the plot (tarock_solver.advise.report)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tarock_solver.advise.report import (
    OptionStats,
    build_table,
    compare,
    mean_se,
    recommend,
    recommendation_text,
)


def stats(contract: str, nets, option: str = "plain") -> OptionStats:
    nets = np.asarray(nets, dtype=float)
    return OptionStats(contract, option, "plain" if option == "plain" else "single", 0, nets,
                       points=np.full(len(nets), 40.0), made=nets > 0,
                       thirds=np.full(len(nets), 120))


def test_mean_and_standard_error() -> None:
    m, se = mean_se(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m == 2.5 and se == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    assert math.isnan(mean_se(np.array([5.0]))[1])


def test_paired_difference_uses_common_worlds() -> None:
    a = stats("three", [10, 20, 30, 40])
    b = stats("two", [9, 19, 29, 39, 100])
    c = compare(a, b)
    assert c.samples == 4 and c.diff == 1 and c.se == 0


def test_recommendation_prefers_the_best_and_flags_noise() -> None:
    good = stats("three", [6, 4, 5, 7, 3])
    close = stats("two", [5, 5, 6, 6, 3])
    rec = recommend([good, close])
    assert rec["contract"] == "three"
    assert rec["runner_up"]["contract"] == "two"
    assert rec["runner_up"]["within_noise"]
    assert "within noise" in recommendation_text(rec, {})
    far = stats("two", [-20, -21, -22, -19, -20])
    rec = recommend([good, far])
    assert not rec["runner_up"]["within_noise"]


def test_a_losing_best_bid_means_pass() -> None:
    rec = recommend([stats("three", [-6, -4, -5] * 4), stats("solo", [-50, -40, -60] * 4)])
    assert rec["contract"] == "pass" and rec["best_bid"] == "three"
    assert recommendation_text(rec, {}).startswith("Recommendation: pass.")


def test_table_has_the_advice_schema_and_a_pass_row() -> None:
    key = {"deal_id": "d", "rules": "dummett", "rule_options": "", "seat": "F"}
    t = build_table([stats("three", [1, 2, 3])], key)
    assert list(t.columns[:12]) == ["deal_id", "rules", "rule_options", "seat", "contract",
                                    "option", "samples", "win_prob", "win_prob_se", "mean_net",
                                    "mean_net_se", "mean_points"]
    assert list(t["contract"]) == ["three", "pass"]
    assert t.iloc[0]["samples"] == 3 and t.iloc[0]["mean_net"] == 2


def test_plot_writes_a_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from tarock_solver.advise.plot import plot_points

    path = tmp_path / "points.png"
    plot_points({"solo": np.array([30, 38, 41]), "three": np.array([36, 44])}, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_recommendation_is_tentative_below_the_minimum_worlds() -> None:
    from tarock_solver.advise.report import MIN_WORLDS

    few = recommend([stats("solo", [10.0] * (MIN_WORLDS - 1))])
    assert few["tentative"] and few["thin_contracts"] == ["solo"]
    assert recommendation_text(few, {}).startswith("Recommendation (tentative: fewer than")
    enough = recommend([stats("solo", [10.0, 12.0] * MIN_WORLDS)])
    assert not enough["tentative"]
    assert recommendation_text(enough, {}).startswith("Recommendation: bid solo")


def test_tentative_line_names_every_contract_including_those_without_worlds() -> None:
    worlds = {"solo": 4, "three": 1, "lower": 1, "two": 0, "one": 0}
    rec = recommend([stats("solo", [10.0, 14.0, 12.0, 9.0]), stats("three", [3.0]),
                     stats("lower", [2.0])], worlds)
    assert rec["tentative"]
    assert rec["thin_contracts"] == ["solo", "three", "lower"]
    assert rec["no_worlds"] == ["two", "one"]
    names = {"solo": "Solo", "three": "Three", "lower": "Lower", "two": "Two", "one": "One"}
    text = recommendation_text(rec, names)
    assert "fewer than 10 worlds for Solo (4), Three (1), Lower (1)" in text
    assert "no worlds in time for Two, One" in text
    assert "bid Solo" in text


def test_no_world_at_all_still_lists_every_contract() -> None:
    rec = recommend([], {"solo": 0, "three": 0})
    assert rec["contract"] == "pass" and rec["no_worlds"] == ["solo", "three"]
    assert "no worlds in time for solo, three" in recommendation_text(rec, {})
