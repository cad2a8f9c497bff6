"""`tarock bench --advise`: the shipped hands and the benchmark document."""

from __future__ import annotations

import json
from pathlib import Path

from tarock_solver.bench.advise import (
    MIN_TAROCKS,
    format_advise_report,
    load_advise_hands,
    make_advise_hands,
    run_advise_bench,
)
from tarock_solver.cards import TAROCK_MASK
from tarock_solver.notation import parse_hand

ROOT = Path(__file__).resolve().parents[1]


def test_both_shipped_copies_are_what_the_generator_makes() -> None:
    made = make_advise_hands()
    for path in (ROOT / "data" / "advise_hands.jsonl",
                 ROOT / "tarock_solver" / "data" / "advise_hands.jsonl"):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert lines == made, path
    assert len(made) == 21 and made[0]["id"] == "demo"
    for rec in made[1:]:
        assert (parse_hand(rec["hand"]) & TAROCK_MASK).bit_count() >= MIN_TAROCKS
    assert {rec["seat"] for rec in made[1:]} == {"F", "M", "R"}


def test_load_gives_the_demo_hand_and_the_first_n() -> None:
    hands = load_advise_hands(count=3)
    assert [h.id for h in hands] == ["demo", "advise-0", "advise-1", "advise-2"]
    assert all(h.hand.bit_count() == 16 for h in hands)


def test_a_small_run_reports_stability_se_and_time(tmp_path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps({"id": "strong", "hand": "22,21,20,19,18,17,16,15,14,13,12,1"
                                ".K.K.K.K", "seat": "F"}) + "\n", encoding="utf-8")
    doc = run_advise_bench(hands=0, seeds=2, time_limit=3.0, jobs=1, path=str(path))
    (hand,) = doc["hands"]
    assert hand["id"] == "strong" and len(hand["runs"]) == 2
    assert [r["seed"] for r in hand["runs"]] == [1, 2]
    for r in hand["runs"]:
        assert r["seconds"] > 0 and r["worlds"] >= 2
    assert hand["stable"] == (len({r["contract"] for r in hand["runs"]}) == 1) or all(
        r["close_call"] for r in hand["runs"])
    assert doc["summary"]["max_seconds"] == max(r["seconds"] for r in hand["runs"])
    text = "\n".join(format_advise_report(doc))
    assert "Stable hands" in text and "strong" in text
