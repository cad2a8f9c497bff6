"""`tarock solve` through the real entry point: table, --json, --cards, errors."""

from __future__ import annotations

import json

import pytest
from clitools import run

from tarock_solver.analysis import solve_contract
from tarock_solver.cards import round_points
from tarock_solver.notation import parse_deal
from tarock_solver.rules import load_rules

# Forehand is weak, so his rows solve quickly (see tests/test_ddtable.py).
CHEAP = ("F:22.A234.A234.T987.987 21,18,15,14,13,11,8,6,2,1.QC.K.C.KC "
         "20,19,16,12,10,9,7,5,4.J.QJ.J.QJT/SQ,SK,T17,T3,DC,HK")
JSON_KEYS = {"declarer", "contract", "talon_group", "discard", "declarer_thirds",
             "declarer_points", "made", "nodes", "seconds"}




def test_json_rows_have_the_documented_keys(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "one",
                         "--contract", "solo", "--json", CHEAP)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rules"] == "dummett" and doc["leader"] == "F" and doc["complete"] is True
    assert [(r["declarer"], r["contract"]) for r in doc["rows"]] == [("F", "one"), ("F", "solo")]
    deal = parse_deal(CHEAP)
    rules = load_rules()
    for row in doc["rows"]:
        assert JSON_KEYS <= set(row)
        expected = solve_contract(deal, "F", row["contract"], rules)
        assert row["declarer_thirds"] == expected.declarer_thirds
        assert row["declarer_points"] == round_points(row["declarer_thirds"])
        assert row["made"] == (row["declarer_thirds"] >= 107)
        assert row["talon_group"] == expected.talon_group
        assert row["discard"] == expected.discard_ids
        assert isinstance(row["nodes"], int) and row["seconds"] >= 0
        assert sum(row["nets"]) == 0
    solo = doc["rows"][1]
    assert solo["talon_group"] == "" and solo["discard"] == ""


def test_readable_table_and_lead_values(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "f", "--contract", "Solo", "--cards",
                         CHEAP)
    assert code == 0, err
    assert "Double-dummy table" in out and "rules: dummett" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("F ") and "solo" in ln)
    row = solve_contract(parse_deal(CHEAP), "F", "solo", load_rules())
    assert f" {round_points(row.declarer_thirds)} " in line
    assert "Opening lead of F" in out
    assert "Sküs" in out  # F holds the Sküs, so it is one of his leads


def test_json_lead_values_are_all_leads_of_f(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "two", "--cards",
                         "--json", CHEAP)
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    leads = row["lead_thirds"]
    assert len(leads) == 16
    assert max(leads.values()) == row["declarer_thirds"]


def test_lower_row_reuses_three(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "three",
                         "--contract", "lower", "--json", CHEAP)
    assert code == 0, err
    three, lower = json.loads(out)["rows"]
    assert lower["same_play_as"] == "three"
    assert lower["declarer_thirds"] == three["declarer_thirds"]


def test_node_limit_marks_open_rows(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "M", "--contract", "three",
                         "--node-limit", "2000", CHEAP)
    assert code == 0, err
    assert "node limit of 2,000 reached" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("M ") and "three" in ln)
    assert "*" in line  # the open row is marked


@pytest.mark.parametrize("args,needle", [
    (["F:1,2 3/4"], 'a deal needs 3 hands before the "/"'),
    ([CHEAP.replace("SQ,", "SK,")], "appears twice"),
    (["F:22.A234.A234.T987.987 - -/?"], "needs a complete deal"),
    (["--contract", "grand", CHEAP], 'unknown contract "grand"'),
    (["--declarer", "X", CHEAP], "X"),
    (["--node-limit", "0", CHEAP], "node-limit"),
])
def test_bad_input_exits_2_with_a_message(capsys, args, needle):
    code, out, err = run(capsys, "solve", *args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_missing_deal_is_a_usage_error(capsys):
    code, out, err = run(capsys, "solve")
    assert code == 2
    assert "give a deal" in err


def test_estimate_only_gives_every_row_without_a_search(capsys):
    code, out, err = run(capsys, "solve", "--estimate-only", "--json", CHEAP)
    assert code == 0, err
    doc = json.loads(out)
    rules = load_rules("dummett")
    assert doc["estimate_only"] is True and len(doc["rows"]) == 3 * len(rules.contracts)
    for row in doc["rows"]:
        assert 0 <= row["estimated_trick_points"] <= 70
        assert row["estimated_points"] >= row["estimated_trick_points"]
        assert "nodes" not in row
    code, out, _ = run(capsys, "solve", "--estimate-only", CHEAP)
    assert code == 0 and "Estimated table" in out and "Points ≈" in out


def test_estimate_only_picks_the_best_estimated_exchange():
    import numpy as np

    from tarock_solver.analysis.ddtable import play_options
    from tarock_solver.analysis.estimated import estimate_row_points, estimated_table

    deal = parse_deal(CHEAP)
    rules = load_rules("dummett")
    rows = estimated_table(deal, rules, declarers=["M"], contracts=["two"])
    assert len(rows) == 1
    totals = [o.base_thirds + 3 * estimate_row_points(deal, 1, o.hand)
              for o in play_options(deal, 1, "two", rules)]
    assert rows[0].thirds == max(totals)
    assert np.isclose(rows[0].points, rows[0].thirds / 3)


def test_estimate_beside_the_exact_rows(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "solo", "--estimate",
                         "--json", CHEAP)
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    assert isinstance(row["estimated_points"], float)
    assert abs(row["estimated_points"] - row["declarer_thirds"] / 3) < 25
    code, out, _ = run(capsys, "solve", "--declarer", "F", "--contract", "solo", "--estimate",
                       CHEAP)
    assert code == 0 and "Learned evaluator" in out


@pytest.mark.parametrize("extra", [["--cards"], ["--node-limit", "5"], ["--estimate"],
                                   ["--objective", "game-points"]])
def test_estimate_only_refuses_search_options(capsys, extra):
    code, _, err = run(capsys, "solve", "--estimate-only", *extra, CHEAP)
    assert code == 2 and "--estimate-only" in err
