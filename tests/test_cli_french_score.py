"""`tarock --game french score` and `tarock --game french rules`: options, JSON, errors.

Bad input exits 2 with one message naming the bad token and what was expected.  The
Illustrated Tarock side of both commands is tests/test_cli_score.py's.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

# The repository's own cli/ package, loaded as ``cli``: the installed ``tarock_cli`` may
# come from another checkout of the project, and these tests are about this one.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
main = importlib.import_module("cli.main").main
assert Path(importlib.import_module("cli").__file__).parent == ROOT / "cli"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "--game", "french", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_garde_with_bonuses_json(capsys) -> None:
    # (25 + 8 + 10) × 2 + 20 = 106 per defender; the taker 3 × at four players.
    res = score_json(capsys, "score", "--contract", "garde", "--points", "49",
                     "--oudlers", "2", "--petit-au-bout", "taker", "--poignee", "taker:simple")
    assert res["value"] == 106 and res["made"] and res["difference"] == 8
    assert res["marque"] == {"taker": 318, "partner": None, "defender": -106,
                             "defenders": 3}
    assert [line["item"] for line in res["lines"]] == ["Contract", "Petit au bout",
                                                        "Poignée simple"]


def test_half_points_and_three_players(capsys) -> None:
    # FFT at three players: 40.5 for 41 fails by 1.
    res = score_json(capsys, "score", "--contract", "prise", "--points", "40,5",
                     "--oudlers", "2", "--players", "3")
    assert res["points"] == "40.5" and res["half_points"] == 81
    assert (res["made"], res["difference"], res["value"]) == (False, 1, -26)
    assert res["marque"]["taker"] == -52 and res["rule_options"] == "players=3"


def test_five_players_partner_or_alone(capsys) -> None:
    res = score_json(capsys, "--opt", "players=5", "score", "--contract", "gs", "--points",
                     "56", "--oudlers", "0", "--chelem", "made")
    assert res["value"] == 25 * 4 + 200
    assert (res["marque"]["taker"], res["marque"]["partner"]) == (600, 300)
    res = score_json(capsys, "score", "--players", "5", "--contract", "gc", "--points", "56",
                     "--oudlers", "0", "--called-self")
    assert res["marque"] == {"taker": 600, "partner": None, "defender": -150,
                             "defenders": 4}


def test_text_output(capsys) -> None:
    code, out, _ = run(capsys, "--game", "french", "score", "--contract", "Garde sans",
                       "--points", "30", "--oudlers", "1", "--petit-au-bout", "defence")
    assert code == 0
    assert "Garde sans le chien, taker 30 points with 1 oudlers for 51: failed by 21" in out
    assert "(25 + 21) × 4" in out and "defence (10 × 4)" in out
    assert "Value per defender: -224" in out
    code, out, _ = run(capsys, "--game", "french", "--ascii", "score", "--contract", "garde",
                       "--points", "60", "--oudlers", "1", "--poignee", "defence:double")
    assert code == 0 and "(25 + 9) x 2" in out and "Poignee double" in out
    assert out.isascii()


@pytest.mark.parametrize(("argv", "words"), [
    (["--contract", "garde double", "--points", "50", "--oudlers", "2"],
     ['"garde double"', "petite, garde, garde_sans or garde_contre"]),
    (["--contract", "garde", "--points", "91.5", "--oudlers", "2"],
     ['"91.5"', "0 to 91 in steps of 0.5"]),
    (["--contract", "garde", "--points", "48.25", "--oudlers", "2"], ['"48.25"']),
    (["--contract", "garde", "--points", "abc", "--oudlers", "2"], ['"abc"']),
    (["--contract", "garde", "--points", "50", "--oudlers", "4"], ["--oudlers", "4"]),
    (["--contract", "garde", "--points", "5", "--oudlers", "3"], ["impossible", "13.5"]),
    (["--contract", "garde", "--points", "50", "--oudlers", "2", "--poignee", "taker:big"],
     ['--poignee "taker:big"', '"big"', "simple, double or triple"]),
    (["--contract", "garde", "--points", "50", "--oudlers", "2", "--poignee", "me:simple"],
     ['"me"', "taker or defence"]),
    (["--contract", "garde", "--points", "50", "--oudlers", "2", "--petit-au-bout", "x"],
     ["--petit-au-bout", '"x"']),
    (["--contract", "garde", "--points", "50", "--oudlers", "2", "--chelem", "grand"],
     ['"grand"', "announced-made"]),
    (["--contract", "garde", "--points", "50", "--oudlers", "2", "--called-self"],
     ["--called-self", "five players"]),
])
def test_bad_input_exits_2_naming_the_token(capsys, argv, words) -> None:
    code, out, err = run(capsys, "--game", "french", "score", *argv)
    assert code == 2 and out == ""
    for word in words:
        assert word in err


@pytest.mark.parametrize(("argv", "words"), [
    (["--rules", "fftt"], ['"fftt"', "fft"]),
    (["--opt", "bogus=1"], ['"bogus"', "players"]),
    (["--opt", "players=7"], ['"7"', "3 | 4 | 5"]),
])
def test_bad_profile_or_option_exits_2(capsys, argv, words) -> None:
    for command in (["score", "--contract", "garde", "--points", "50", "--oudlers", "2"],
                    ["rules"]):
        code, _, err = run(capsys, "--game", "french", *argv, *command)
        assert code == 2
        for word in words:
            assert word in err


def test_rules_command(capsys) -> None:
    code, out, _ = run(capsys, "--game", "french", "rules")
    assert code == 0 and "French Tarot, rule profile fft (4 players)" in out
    assert "simple 10 trumps 20, double 13 30, triple 15 40" in out
    code, out, _ = run(capsys, "--game", "french", "rules", "--list")
    assert out.split() == ["fft"]
    code, out, _ = run(capsys, "--game", "french", "--opt", "players=3", "rules", "--json")
    data = json.loads(out)
    assert data["players"] == 3 and data["poignees"]["triple"] == {"trumps": 18, "value": 40}
    assert [c["multiplier"] for c in data["contracts"]] == [1, 2, 4, 6]
    code, out, _ = run(capsys, "--game", "french", "--ascii", "rules")
    assert code == 0 and out.isascii()


def test_illustrated_score_is_unchanged(capsys) -> None:
    # The Illustrated Tarock command still parses its own options under the default game.
    code, out, _ = run(capsys, "score", "--contract", "two", "--points", "40", "--json")
    assert code == 0 and json.loads(out)["written"]["F"] == 14
