"""`tarock solve --objective game-points`: announcements, contras, best set, errors.

The deal is lopsided so that whole-deal game-point solves take well under a
second: F holds the Pagat and fourteen high tarocks, M the low tarocks II..VII, R the VIII.
Expected values come from the library (:func:`tarock_solver.solver.deal_game_points`),
itself proved against the score-sheet oracle in tests/test_payoff.py.
"""

from __future__ import annotations

import json

import pytest
from clitools import run

from tarock_solver.analysis import solve_contract
from tarock_solver.notation import parse_deal
from tarock_solver.rules import load_rules
from tarock_solver.solver import announcement_options, best_announcements, deal_game_points

STRONG = ("F:22,21,20,19,18,17,16,15,14,13,12,11,10,9,1.K... 7,6,5,4,3,2.QCJA234.34..8 "
          "8..KQCJA2.KQCJT987.7/C9,C10,CJ,CC,CQ,CK")
GAME_KEYS = {"objective", "announcements", "net_declarer", "written_F", "written_M",
             "written_R", "birds", "valat", "points", "line"}


def _json(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "solve", "--json", "--objective", "game-points", *args, STRONG)
    assert code == 0, err
    return json.loads(out)


def test_json_game_points_match_the_library(capsys):
    doc = _json(capsys, "--declarer", "F", "--contract", "solo", "--announce", "pagat",
                "--contra", "game=1")
    assert doc["objective"] == "game-points" and doc["contras"] == {"game": "a"}
    (row,) = doc["rows"]
    assert GAME_KEYS <= set(row)
    rules = load_rules()
    deal = parse_deal(STRONG)
    card_row = solve_contract(deal, "F", "solo", rules)
    result = deal_game_points(deal, 0, "solo", rules=rules, hand_after=card_row.hand_after,
                              announcements={"pagat": "after"}, contras={"game": "a"})
    want = result.detail
    assert row["announcements"] == {"pagat": "after"}
    assert row["net_declarer"] == result.value == want.net_declarer
    assert [row["written_F"], row["written_M"], row["written_R"]] == list(want.written)
    assert row["written"] == list(want.written)
    assert row["birds"] == want.birds and row["valat"] == want.valat
    assert sum(row["nets"]) == 0 and row["nets"][0] == row["net_declarer"]
    assert len(row["line"]) == 48
    # the card-point columns stay those of the plain game
    assert row["declarer_thirds"] == card_row.declarer_thirds


def test_table_shows_the_game_point_section(capsys):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "solo",
                         "--objective", "game-points", "--announce", "Pagat", STRONG)
    assert code == 0, err
    assert "Game points" in out and "announced: pagat" in out
    rules = load_rules()
    deal = parse_deal(STRONG)
    card_row = solve_contract(deal, "F", "solo", rules)
    want = deal_game_points(deal, 0, "solo", rules=rules, hand_after=card_row.hand_after,
                            announcements={"pagat": "after"}).value
    line = next(ln for ln in out.splitlines()[out.splitlines().index(
        next(x for x in out.splitlines() if x.startswith("Game points"))):]
        if ln.strip().startswith("F "))
    assert f"{want:+d}" in line and "pagat" in line


def test_best_announcements_is_the_best_set_tried(capsys):
    # loew: Solo allows Pagat and Kramerpoi after the talon (Absolut only before it)
    code, out, err = run(capsys, "--rules", "loew", "solve", "--json", "--declarer", "F",
                         "--contract", "solo", "--objective", "game-points",
                         "--announcements", "best", STRONG)
    assert code == 0, err
    (row,) = json.loads(out)["rows"]
    tried = {tuple(sorted(s["announcements"].items())): s["net_declarer"]
             for s in row["announcement_sets"]}
    assert () in tried and len(tried) >= 3
    assert row["net_declarer"] == max(tried.values())
    assert tried[tuple(sorted(row["announcements"].items()))] == row["net_declarer"]
    rules = load_rules("loew")
    deal = parse_deal(STRONG)
    hand = deal.hands[0]
    assert {k for k, _ in announcement_options(rules, "solo", hand)} == {"pagat", "kramerpoi"}
    # every single item was tried, and the choice is what the library finds
    for item, level in announcement_options(rules, "solo", hand):
        assert ((item, level),) in tried
    choice = best_announcements(deal, 0, "solo", rules=rules, hand_after=hand)
    assert choice.result.value == row["net_declarer"]


def test_row_whose_declarer_cannot_announce_gets_a_note(capsys):
    doc = _json(capsys, "--declarer", "M", "--contract", "solo", "--announce", "pagat")
    (row,) = doc["rows"]
    assert row["net_declarer"] is None and "only the holder" in row["game_error"]


@pytest.mark.parametrize(("args", "needle"), [
    (("--announce", "pagatt"), '--announce "pagatt"'),
    (("--announce", "pagat:during"), 'level "during"'),
    (("--announce", "valat"), "valat cannot be announced"),
    (("--contra", "game"), '--contra "game": expected OBJECT=LEVEL'),
    (("--contra", "game=5"), "level 5 must be 1.."),
    (("--contra", "game=xy"), '"xy" must be a number of steps'),
    (("--contra", "bogus=1"), '"bogus" is not game'),
    (("--announce", "pagat", "--announce", "pagat:before"), "announced twice"),
])
def test_bad_option_values_name_the_token(capsys, args, needle):
    code, out, err = run(capsys, "solve", "--declarer", "F", "--contract", "three",
                         "--objective", "game-points", *args, STRONG)
    assert code == 2
    assert err.startswith("Error:") and needle in err, err


def test_game_point_options_need_the_objective(capsys):
    code, _, err = run(capsys, "solve", "--declarer", "F", "--announce", "pagat", STRONG)
    assert code == 2 and "--objective game-points" in err
    code, _, err = run(capsys, "solve", "--declarer", "F", "--objective", "game-points",
                       "--announce", "pagat", "--announcements", "best", STRONG)
    assert code == 2 and "either" in err
