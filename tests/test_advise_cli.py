"""`tarock advise` on the command line: output, JSON, CSV and errors."""

from __future__ import annotations

import csv
import json

import pytest
from tarock_cli.main import main

from tarock_solver.advise.inputs import DEMO_HAND, read_advice_input
from tarock_solver.advise.report import SCHEMA_COLUMNS
from tarock_solver.errors import DealError, NotationError
from tarock_solver.notation import parse_hand

STRONG = "22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K"


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("hand", ["21,20,16,15,7,5,2,1.K.KQ.K97.Q", "21,20,16,15,7,5,2,1.K.KQ.K97.Q9X",
                                  "Sküs Mond Gstiess"])
def test_a_bad_hand_exits_2_with_a_message(capsys, hand: str) -> None:
    code, out, err = run(capsys, "advise", hand, "--no-progress")
    assert code == 2
    assert err.startswith("Error:") and "Traceback" not in err
    assert out == ""


def test_advice_needs_a_known_hand(capsys) -> None:
    code, _, err = run(capsys, "advise", "F:- - -/?")
    assert code == 2 and "advice needs your own hand" in err


def test_talon_needs_a_contract(capsys) -> None:
    code, _, err = run(capsys, "advise", STRONG, "--talon", "D4,DJ,SQ,C9,CC,HJ")
    assert code == 2 and "--talon needs --contract" in err


def test_solo_never_exposes_the_talon(capsys) -> None:
    code, _, err = run(capsys, "advise", STRONG, "--talon", "D4,DJ,SQ,C9,CC,HJ",
                       "--contract", "solo")
    assert code == 2 and "Solo never exposes the talon" in err


def test_inputs_partial_deal_and_seat() -> None:
    inp = read_advice_input(f"M:{DEMO_HAND} - -/?")
    assert inp.seat == 1 and inp.hand == parse_hand(DEMO_HAND) and inp.talon is None
    inp = read_advice_input(None)
    assert inp.demo and inp.seat == 0
    with pytest.raises(DealError):
        read_advice_input(f"F:{DEMO_HAND} - -/?", seat="M")
    with pytest.raises(NotationError):
        read_advice_input(DEMO_HAND, talon="?")


def test_json_and_csv_of_a_strong_solo(capsys, tmp_path) -> None:
    path = tmp_path / "advice.csv"
    # a time limit far beyond the work: the first run in a fresh checkout compiles the
    # kernels (about two minutes on a loaded 2-core machine), which must not cut the worlds
    code, out, err = run(capsys, "advise", STRONG, "--contract", "solo", "--samples", "2",
                         "--seed", "3", "--time-limit", "3600", "--json", "--csv", str(path),
                         "--no-progress")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["seed"] == 3 and data["meta"]["worlds"] == {"solo": 2}
    assert data["recommendation"]["contract"] == "solo"
    rows = {(r["contract"], r["option"]): r for r in data["table"]}
    assert rows[("solo", "plain")]["samples"] == 2
    assert rows[("pass", "plain")]["mean_net"] == 0
    # The hand holds the Pagat: its announcement is judged by game-point solves on both worlds.
    assert data["meta"]["bird_worlds"] == {"solo": 2}
    bird = rows[("solo", "pagat@after")]
    assert bird["kind"] == "bird" and bird["samples"] == 2
    assert 0 <= bird["p_success"] <= 1 and bird["announce_rate"] == 1
    assert data["meta"]["bird_solves"]["game_point_solves"] == 4
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames[:len(SCHEMA_COLUMNS)]) == SCHEMA_COLUMNS
        csv_rows = list(reader)
    assert {r["contract"] for r in csv_rows} == {"solo", "pass"}
    assert {r["kind"] for r in csv_rows} >= {"plain", "bird", "pass"}


def test_text_output_has_the_three_parts(capsys) -> None:
    code, out, err = run(capsys, "--ascii", "advise", STRONG, "--contract", "solo",
                         "--samples", "2", "--no-progress", "--no-birds")
    assert code == 0, err
    assert "E[net game points]" in out
    assert "Announcements" in out
    # two worlds are too few to advise on: the line says so and still names the leader
    assert "Recommendation (tentative: fewer than 10 worlds for Solo" in out
    assert "bid Solo" in out
    assert "Pagat, Uhu: not judged (--no-birds)" in out
    assert "Solver work per world" in out
