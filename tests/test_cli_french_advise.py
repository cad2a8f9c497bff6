"""`tarock --game french advise`: the table, the JSON, and clear errors."""

from __future__ import annotations

import json

from clitools import run


def advise(capsys, *args: str) -> tuple[int, str, str]:
    return run(capsys, "--game", "french", "advise", *args)


def test_the_demo_hand_gets_a_recommendation(capsys) -> None:
    code, out, err = advise(capsys, "--worlds", "16")
    assert code == 0, err
    assert "(demo hand)" in out
    assert "Recommendation:" in out
    for name in ("Petite", "Garde", "Garde sans", "Garde contre", "pass"):
        assert name in out


def test_json_holds_every_option(capsys) -> None:
    code, out, err = advise(capsys, "--worlds", "16", "--seat", "3", "--json",
                            "T21 T20 T18 T15 T13 T10 T9 T2 EX SK SQ S3 HK H5 D9 D2 C4 C1")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["game"] == "french" and doc["seat"] == 3
    assert [o["option"] for o in doc["options"]] == ["petite", "garde", "garde_sans",
                                                     "garde_contre", "pass"]
    assert doc["recommendation"]["option"] in {o["option"] for o in doc["options"]}
    assert [g["contract"] for g in doc["petit_au_bout"]] == ["petite", "garde", "garde_sans",
                                                             "garde_contre"]


def test_bad_input_exits_2_naming_it(capsys) -> None:
    code, out, err = advise(capsys, "T21 T20 XX")
    assert code == 2 and "XX" in err and "Traceback" not in err
    code, out, err = advise(capsys, "--seat", "5")
    assert code == 2 and "--seat" in err
    code, out, err = advise(capsys, "--players", "5")
    assert code == 2 and "four players" in err
