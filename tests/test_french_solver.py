"""The French Tarot solver against its brute-force reference, and its front door.

The oracle comparison here is a sample for every test run; benchmarks/
french_oracle_check.py runs 10,000 positions (results in benchmarks/results/)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from tarock_solver.errors import RulesError
from tarock_solver.french.cards import INDEX_OF, mask_of
from tarock_solver.french.oracle import oracle_outcome_value, oracle_points
from tarock_solver.french.play import EXCUSE_LAST, PlayState
from tarock_solver.french.rules import load_rules
from tarock_solver.french.scoring import score
from tarock_solver.french.solver import FrenchPosition, FrenchSearch
from tarock_solver.french.solver.outcome import PAB_SIDES, chelem_of, outcome_table
from tarock_solver.solver import Budget

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from french_oracle_check import check, random_position  # noqa: E402


def hand(*names: str) -> int:
    return mask_of(INDEX_OF[n] for n in names)


@pytest.mark.parametrize("seed", [11, 12])
def test_both_objectives_match_the_oracle(seed: int) -> None:
    doc = check(700, seed)
    assert doc["mismatches"] == 0, doc["examples"]
    assert all(doc["by_tricks"][k] > 50 for k in (1, 2, 3, 4))


def test_the_score_search_tells_the_petit_from_the_21() -> None:
    # defender seat 3 holds the Petit and the 21 at the last two tricks: leading the
    # Petit first keeps the petit au bout from him; a table rewarding only the defence's
    # petit au bout makes the two cards differ (the card-point search may merge them)
    hands = (hand("EX", "SC", "H9"), hand("T13", "HJ", "DQ"), hand("S1", "H4"),
             hand("T1", "T21"))
    pos = FrenchPosition(hands, 2, 1, (INDEX_OF["T4"], INDEX_OF["T18"]),
                         PlayState(29, 0, True, True, 0))
    table = np.zeros((183, 4, 3, 3), np.int64)
    table[:, :, 2, :] = -10
    for rule in EXCUSE_LAST:
        want = oracle_outcome_value(list(hands), 2, 1, table, pos.trick, pos.state,
                                    excuse_last=rule)
        assert FrenchSearch(tt_bits=12, excuse_last=rule).outcome_value(pos, table).value == want


def test_card_values_give_the_position_value() -> None:
    rng = random.Random(5)
    search = FrenchSearch(tt_bits=14)
    for _ in range(40):
        pos = random_position(rng)
        values = search.card_values(pos)
        best = (max if pos.mover == pos.taker else min)(v.value for v in values.values())
        assert best == search.points(pos).value


def test_a_node_budget_gives_bounds_around_the_value() -> None:
    rng = random.Random(8)
    for _ in range(30):
        pos = random_position(rng)
        exact = FrenchSearch(tt_bits=12).points(pos).value
        r = FrenchSearch(tt_bits=12).points(pos, budget=Budget(nodes=5))
        assert r.lower <= exact <= r.upper


def test_one_node_budget_covers_all_the_tests_of_a_call() -> None:
    from tarock_solver.bench.french import french_positions

    pos = french_positions(2, 10)
    r = FrenchSearch(tt_bits=16).points(pos, budget=Budget(nodes=20_000))
    assert not r.exact and r.tests >= 1
    assert r.nodes <= 20_000 + 20  # a few last-trick leaves past the check


def test_one_search_object_serves_many_deals() -> None:
    """The table is cleared when a card changes owner: reusing one search object over
    unrelated positions gives the values of fresh ones."""
    rng = random.Random(9)
    shared = FrenchSearch(tt_bits=12)
    for _ in range(60):
        pos = random_position(rng)
        assert shared.points(pos).value == FrenchSearch(tt_bits=12).points(pos).value


def test_the_outcome_table_is_the_scoring_rules() -> None:
    rules = load_rules("fft")
    table = outcome_table(rules, "garde_sans", poignees=[("taker", "simple")],
                          chelem_announced=True)
    for points, oudlers, pab, ch in [(120, 1, 1, 0), (60, 2, 2, 0), (182, 3, 0, 1),
                                     (70, 0, 0, 0)]:
        want = score(rules, "garde_sans", points, oudlers, petit_au_bout=PAB_SIDES[pab],
                     poignees=[("taker", "simple")], chelem=chelem_of(ch, True)).value
        assert table[points, oudlers, pab, ch] == want


def test_bad_positions_are_refused() -> None:
    with pytest.raises(RulesError, match="in two hands"):
        FrenchPosition((hand("H1"), hand("H1"), hand("H2"), hand("H3")), 0, 0)
    with pytest.raises(RulesError, match="seat 2 holds 1 card where 2"):
        FrenchPosition((hand("H1", "H4"), hand("H5"), hand("H2"), hand("H3")), 0, 0)
    with pytest.raises(RulesError, match="outcome table"):
        pos = FrenchPosition((hand("H1"), hand("H5"), hand("H2"), hand("H3")), 0, 0)
        FrenchSearch(tt_bits=10).outcome_value(pos, np.zeros((3, 3)))
    with pytest.raises(RulesError, match="excuse_last"):
        FrenchSearch(tt_bits=10, excuse_last="lost")


def test_oracle_sanity_the_taker_takes_what_he_must() -> None:
    # one trick: the taker's King falls to a defender's trump
    hands = (hand("HK"), hand("T2"), hand("H3"), hand("H4"))
    assert oracle_points(list(hands), 0, 0) == 0
    assert oracle_points(list(hands), 0, 1) == 9 + 1 + 1 + 1
