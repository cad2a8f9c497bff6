"""`tarock solve DEAL --contract trischaken`: the three seats' paranoid values, errors."""

from __future__ import annotations

import json

import pytest
from clitools import run

from tarock_solver.notation import parse_deal
from tarock_solver.rules import load_rules
from tarock_solver.scoring import score_trischaken
from tarock_solver.solver import SearchResult, TrischakenSearch, trischaken_position

# A deal whose three Trischaken searches take about two seconds together.
CHEAP = ("F:22.A234.A234.T987.987 21,18,15,14,13,11,8,6,2,1.QC.K.C.KC "
         "20,19,16,12,10,9,7,5,4.J.QJ.J.QJT/SQ,SK,T17,T3,DC,HK")


def test_json_gives_each_seat_the_library_value(capsys):
    code, out, err = run(capsys, "solve", "--contract", "Trischaken", "--json", CHEAP)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["contract"] == "trischaken" and doc["value"] == "paranoid"
    assert doc["points_in_play"] == 55  # 70 minus the talon's 15
    rules = load_rules()
    deal = parse_deal(CHEAP)
    search = TrischakenSearch(rules, tt_bits=16)
    for seat, row in enumerate(doc["rows"]):
        want = search.value(trischaken_position(deal.hands, 0, seat, rules=rules)).value
        assert row["points"] == want and row["thirds"] == 3 * want
        assert row["trickless"] == (want == 0)
        assert row["sure_non_loser"] == (3 * want < 55)
    total = sum(r["points"] for r in doc["rows"])
    assert (doc["score"] is None) == (total > 55)


def test_table_says_the_values_are_separate_worst_cases(capsys):
    code, out, err = run(capsys, "solve", "--contract", "trischaken", "--node-limit", "20000",
                         CHEAP)
    assert code == 0, err
    assert "three separate worst cases" in out
    assert "node limit of 20,000" in out


@pytest.mark.parametrize("args, needle", [
    (["--rules", "beck", "solve", "--contract", "trischaken", CHEAP], "no Trischaken"),
    (["--rules", "ms2016", "--opt", "all_pass=trischaken", "solve", "--contract", "trischaken",
      CHEAP], "no Trischaken"),
    (["--opt", "trischaken_talon=last_trick", "solve", "--contract", "trischaken", CHEAP],
     "talon unused"),
    (["solve", "--contract", "trischaken", "--declarer", "F", CHEAP], "no declarer"),
    (["solve", "--contract", "trischaken", "--contract", "three", CHEAP], "cannot be combined"),
    (["solve", "--contract", "trischake", CHEAP], "unknown contract"),
])
def test_bad_input_exits_2_with_a_message(capsys, args, needle):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert needle in err


def test_score_of_values_that_fit_together(capsys):
    """Values that add up to no more than the points in play are scored as one outcome."""
    from tarock_cli.commands._trischaken import _score

    rules = load_rules()
    results = tuple(SearchResult(v, v) for v in (0, 20, 30))
    score, _ = _score(rules, results, 55)
    want = score_trischaken(rules, [0, 20, 30], [0, 8, 8])
    assert score.written == want.written == (10, 5, 0)
    score, note = _score(rules, tuple(SearchResult(v, v) for v in (20, 20, 30)), 55)
    assert score is None and "more than the 55 in play" in note


def test_bench_times_full_deals_and_endgames(capsys, tmp_path):
    out_json = tmp_path / "t.json"
    code, out, err = run(capsys, "bench", "--trischaken", "--deals", "1", "--node-limit",
                         "300000", "--json", str(out_json))
    assert code == 0, err
    assert "endgames (8 cards): 3 solved" in out
    doc = json.loads(out_json.read_text())
    rows = doc["endgames"]["rows"]
    assert [r["seat"] for r in rows] == ["F", "M", "R"]
    assert all(r["lower"] <= r["upper"] for r in doc["full_deals"]["rows"] + rows)

