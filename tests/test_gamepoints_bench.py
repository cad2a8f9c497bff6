"""`tarock bench --gamepoints`: the game-point / card-point cost ratio on the bench deals.

Short positions (5 tricks) keep it fast; the numbers of the bar come
from full deals (``tarock bench --gamepoints``, see
tarock_solver.bench.gamepoints.run_gamepoint_bench).
"""

from __future__ import annotations

import json
import math

from clitools import run

from tarock_solver.bench.gamepoints import (
    GamePointBenchConfig,
    _base_thirds,
    json_ready,
    pick_bird,
    run_gamepoint_bench,
)
from tarock_solver.bench.positions import bench_positions, load_bench_deals
from tarock_solver.cards import BIRD_CARD
from tarock_solver.rules import load_rules
from tarock_solver.solver import solve_game_points

CONFIG = GamePointBenchConfig(deals=6, tricks=(5,), node_limit=10**7, tt_bits=14)


def test_rows_are_the_game_point_solves_of_the_bench_positions():
    doc = run_gamepoint_bench(CONFIG)
    rules = load_rules()
    positions = bench_positions(load_bench_deals(count=6), (5,))[5]
    with_bird = [p for p in positions if pick_bird(rules, p) is not None]
    assert len(doc["rows"]) == len(with_bird)
    s = doc["summary"]["5"]
    assert s["positions"] + s["no_bird"] == 6 and s["positions"] == len(with_bird)
    for row, pos in zip(doc["rows"], with_bird, strict=True):
        bird = pick_bird(rules, pos)
        assert row["bird"] == bird and pos.hands[pos.declarer] >> BIRD_CARD[bird] & 1
        want = solve_game_points(pos.hands, pos.leader, pos.declarer, rules=rules,
                                 contract="solo", announcements={bird: "after"},
                                 taken_thirds=_base_thirds(pos), valat_open=False)
        assert row["net_declarer"] == want.value == want.detail.net_declarer
        assert math.isclose(row["ratio"], row["gp_ms"] / row["card_ms"])
    ratios = sorted(r["ratio"] for r in doc["rows"])
    if ratios:
        assert s["max_ratio"] == ratios[-1]


def test_pick_bird_takes_the_first_bird_held():
    rules = load_rules()
    pos = bench_positions(load_bench_deals(count=3), (16,))[16][1]
    hand = pos.hands[pos.declarer]
    held = [b for b in ("pagat", "uhu", "kakadu") if hand >> BIRD_CARD[b] & 1]
    assert pick_bird(rules, pos) == (held[0] if held else None)


def test_json_ready_spells_out_over_budget():
    assert json_ready({"a": [math.inf, 1.5], "b": {"c": math.inf}}) == \
        {"a": ["over budget", 1.5], "b": {"c": "over budget"}}


def test_cli_reports_the_ratio(capsys, tmp_path):
    out_file = tmp_path / "gp.json"
    code, out, err = run(capsys, "bench", "--gamepoints", "--deals", "3", "--tricks", "4",
                         "--node-limit", "1000000", "--json", str(out_file))
    assert code == 0, err
    assert "Game-point vs card-point solve" in out and "median ratio" in out
    doc = json.loads(out_file.read_text(), parse_constant=lambda c: (_ for _ in ()).throw(
        ValueError(c)))  # strict JSON: no Infinity/NaN
    assert doc["summary"]["4"]["positions"] + doc["summary"]["4"]["no_bird"] == 3
    assert "machine" in doc
