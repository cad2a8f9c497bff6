"""Series to 100, end bonus modes and settlement (RULES.md 9; vectors TV15 and S4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarock_solver.errors import RulesError
from tarock_solver.rules import load_rules
from tarock_solver.series import (
    Payment,
    Series,
    current_target,
    end_bonus,
    final_totals,
    is_over,
    payments,
    settle,
)

A, B, C = 0, 1, 2


def test_tv15_settlement() -> None:
    # Everyone pays everyone the difference: A pays B 30 and C 70, B pays C 40.
    assert settle((50, 80, 120)) == (-100, -10, 110)
    assert sorted(payments((50, 80, 120)), key=lambda p: (p.payer, p.payee)) == [
        Payment(A, B, 30), Payment(A, C, 70), Payment(B, C, 40)]


def test_s4_end_bonus_modes() -> None:
    totals = (104, 101, 40)
    assert is_over(totals)
    assert final_totals(totals, 100, "all_over") == (114, 111, 40)
    assert final_totals(totals, 100, "highest_only") == (114, 101, 40)


def test_continue_mode_plays_on_to_200() -> None:
    totals = (104, 101, 40)
    assert current_target(totals, 100, "continue") == 200
    assert not is_over(totals, 100, "continue")
    with pytest.raises(RulesError, match="not over"):
        end_bonus(totals, 100, "continue")
    # A alone reaches 200: bonus 20 to him only.
    assert end_bonus((205, 150, 60), 100, "continue") == (20, 0, 0)
    # Two reach 200: on to 300 (bonus 30).
    assert current_target((230, 210, 60), 100, "continue") == 300
    assert end_bonus((310, 250, 60), 100, "continue") == (30, 0, 0)
    # One player at 100 ends it as in the other modes.
    assert end_bonus((100, 99, 0), 100, "continue") == (10, 0, 0)


def test_not_over_below_target_and_ties_for_highest() -> None:
    assert not is_over((99, 98, 0))
    with pytest.raises(RulesError, match="not over"):
        final_totals((99, 98, 0))
    assert end_bonus((105, 105, 0), 100, "highest_only") == (10, 10, 0)
    with pytest.raises(RulesError, match="series_bonus"):
        is_over((100, 0, 0), 100, "everyone")


def test_series_object_follows_the_rules() -> None:
    series = Series(load_rules())
    series.add((50, 0, 30))
    assert not series.over and series.deals == 1
    series.add((54, 101, 0))
    assert series.over and series.totals == [104, 101, 30]
    assert series.final_totals() == (114, 111, 30)
    assert series.settlement() == (3 * 114 - 255, 3 * 111 - 255, 3 * 30 - 255)
    with pytest.raises(RulesError, match="over"):
        series.add((1, 0, 0))
    short = Series(load_rules("dummett", {"series_target": "50", "series_bonus": "highest_only"}))
    short.add((60, 55, 0))
    assert short.over and short.final_totals() == (70, 55, 0)
    with pytest.raises(RulesError, match="non-negative"):
        Series(load_rules()).add((-1, 0, 0))


@given(st.lists(st.integers(0, 500), min_size=2, max_size=6))
def test_settlement_is_zero_sum_and_matches_payments(totals) -> None:
    balance = settle(totals)
    assert sum(balance) == 0
    from_payments = [0] * len(totals)
    for p in payments(totals):
        assert p.amount > 0
        from_payments[p.payer] -= p.amount
        from_payments[p.payee] += p.amount
    assert tuple(from_payments) == balance
