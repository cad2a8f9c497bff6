"""The French adviser's bench: its shipped hands are what their rule makes, and its
report reads a run."""

from __future__ import annotations

import json

from tarock_solver.bench.french_advise import (
    FRENCH_HANDS_FILE,
    format_french_advise_report,
    load_french_advise_hands,
    make_french_advise_hands,
    run_french_advise_bench,
)
from tarock_solver.bench.positions import find_shipped_file
from tarock_solver.french.cards import cards_of


def test_the_shipped_hands_are_the_rule_s() -> None:
    shipped = find_shipped_file(FRENCH_HANDS_FILE).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in shipped] == make_french_advise_hands()
    hands = load_french_advise_hands()
    assert len(hands) == 20
    assert all(len(cards_of(h.hand)) == 18 and 0 <= h.seat < 4 for h in hands)


def test_a_small_run_reports_its_bars() -> None:
    doc = run_french_advise_bench(hands=2, seeds=2, worlds=16)
    assert [len(h["runs"]) for h in doc["hands"]] == [2, 2]
    lines = format_french_advise_report(doc)
    assert any(line.startswith("Stable hands:") for line in lines)
    for h in doc["hands"]:
        assert h["stable"] == (len({r["contract"] for r in h["runs"]}) == 1
                               or all(r["close_call"] for r in h["runs"]))
