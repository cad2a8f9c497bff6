"""`tarock bench --advise`: the shipped hands and the benchmark document."""

from __future__ import annotations

import json
from pathlib import Path

from tarock_solver.bench.advise import (
    MIN_TAROCKS,
    consistent,
    format_advise_report,
    load_advise_hands,
    make_advise_hands,
    run_advise_bench,
    se_calibration,
)
from tarock_solver.cards import TAROCK_MASK
from tarock_solver.notation import parse_hand

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_hands_are_what_the_generator_makes() -> None:
    made = make_advise_hands()
    path = ROOT / "tarock_solver" / "data" / "advise_hands.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines == made
    assert len(made) == 41 and made[0]["id"] == "demo"
    for rec in made[1:]:
        assert (parse_hand(rec["hand"]) & TAROCK_MASK).bit_count() >= MIN_TAROCKS
    assert {rec["seat"] for rec in made[1:]} == {"F", "M", "R"}
    birds = [rec for rec in made if rec["id"].startswith("bird-")]
    assert len(birds) == 20 and all(parse_hand(r["hand"]) & 0b111 for r in birds)
    assert [r["id"] for r in made[1:21]] == [f"advise-{i}" for i in range(20)]


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
    assert hand["consistent"] == consistent(hand["runs"])
    assert doc["summary"]["consistent_share"] == float(hand["consistent"])
    assert "runs agree on a contract" in text


def _synthetic_hands(rng, spread: float, hands: int = 60, seeds: int = 5) -> list[dict]:
    """Runs whose estimates scatter ``spread`` times the SE they report."""
    out = []
    for h in range(hands):
        truth = rng.normal(40, 5)
        runs = []
        for _ in range(seeds):
            se = rng.uniform(0.5, 1.5)
            runs.append({"plain": {"two": {"points": [truth + spread * se * rng.normal(), se]},
                                   # never three runs with an SE: left out
                                   "one": {"points": [truth, None]}}})
        # a contract with the same numbers on every run (Lower beside Three): counted once
        for r in runs:
            r["plain"]["lower"] = r["plain"]["two"]
        out.append({"id": f"h{h}", "runs": runs})
    return out


def test_the_se_check_is_one_for_honest_ses_and_flags_small_ones() -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    honest = se_calibration(_synthetic_hands(rng, 1.0), "points")
    assert honest["groups"] == 60 and honest["df"] == 240
    assert honest["low"] < 1.0 < honest["high"] and 0.75 < honest["ratio"] < 1.3
    assert 0.9 < honest["within_2se"] < 0.99 and honest["runs"] == 300
    small = se_calibration(_synthetic_hands(rng, 2.0), "points")
    assert small["low"] > 2.5  # SEs half what they should be: variance ratio about 4
    assert small["within_2se"] < 0.8
    assert se_calibration([{"id": "x", "runs": [{"plain": {}}]}], "points") is None


def _run(contract: str, runner_up: str | None = None, close: bool = False,
         tentative: bool = False) -> dict:
    return {"contract": contract, "runner_up": runner_up, "close_call": close,
            "tentative": tentative}


def test_runs_agree_when_one_contract_fits_every_claim() -> None:
    firm_two = _run("two", "one")
    # a close call naming the other side of the pair does not contradict a firm Two
    assert consistent([firm_two, firm_two, _run("one", "two", close=True)])
    # two firm answers that differ do
    assert not consistent([firm_two, _run("one", "two")])
    # a close call whose pair leaves the firm contract out does
    assert not consistent([firm_two, _run("three", "one", close=True)])
    # overlapping close calls admit their common contract; disjoint ones do not
    assert consistent([_run("two", "one", close=True), _run("one", "three", close=True)])
    assert not consistent([_run("two", "one", close=True), _run("three", "pass", close=True)])
    # a tentative run claims nothing
    assert consistent([firm_two, _run("solo", "one", tentative=True)])
    assert consistent([_run("solo", "one", tentative=True)])
