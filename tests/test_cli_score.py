"""`tarock score` and `tarock rules`: options, JSON in and out, errors (exit 2)."""

from __future__ import annotations

import json

import pytest
from tarock_cli.main import main


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        import io
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys, *argv: str, **kw) -> dict:
    code, out, err = run(capsys, *argv, "--json", **kw)
    assert code == 0, err
    return json.loads(out)


def test_d9_from_options(capsys) -> None:
    # Two, P 40; defender M's I captured by F in trick 16: (3 + 4) × 2 + 5 × 2 = 24.
    res = score_json(capsys, "score", "--contract", "two", "--points", "40",
                     "--bird", "pagat:holder=M,trick=16,winner=F")
    assert res["written"] == {"F": 24, "M": 0, "R": 0}
    assert res["nets"] == {"F": 48, "M": -24, "R": -24}
    assert res["birds"] == "pagat@def:lost" and res["points_thirds"] == 119


def test_global_rules_and_opt_are_honoured(capsys) -> None:
    # D16 with partner_capture=fail: D 24; the override shows in rule_options.
    res = score_json(capsys, "--opt", "partner_capture=fail", "score", "--contract", "two",
                     "--points", "40", "--bird", "pagat:holder=M,trick=16,winner=R")
    assert res["written"]["F"] == 24 and res["rule_options"] == "partner_capture=fail"
    # TV10 (beck): D 84, B 6.
    res = score_json(capsys, "--rules", "beck", "score", "--contract", "Einblatt", "--points",
                     "50", "--announce", "kramerpoi", "--announce", "koepfe/M",
                     "--hand-bonus", "M=koepfe")
    assert res["written"] == {"F": 84, "M": 6, "R": 0}
    assert res["nets"] == {"F": 162, "M": -72, "R": -90}
    assert res["option"] == "koepfe@after/M;kramerpoi@after"


def test_text_output_itemises(capsys) -> None:
    code, out, _ = run(capsys, "score", "--contract", "three", "--points", "33",
                       "--contra", "game=aa")
    assert code == 0
    # D7: each defender (3 + 2) × 4 = 20.
    assert "Over/under points" in out and "M, R" in out
    assert "F (declarer)  0        -40" in out
    code, out, _ = run(capsys, "--ascii", "score", "--contract", "three", "--points", "33",
                       "--contra", "game=aa")
    assert "×" not in out and "x contra 4" in out


def test_json_in_from_stdin_and_file(capsys, monkeypatch, tmp_path) -> None:
    # TV11 (beck, declarer R, held): F 9, M 7.
    outcome = {"rules": "beck", "contract": "three", "declarer": "R", "level": "held",
               "thirds": 99, "defender_announce": {"F": {"koepfe": "after"}},
               "hand_bonus": {"F": ["koepfe"]}}
    res = score_json(capsys, "score", "--json-in", "-", stdin=json.dumps(outcome),
                     monkeypatch=monkeypatch)
    assert res["written"] == {"F": 9, "M": 7, "R": 0} and res["net_declarer"] == -16
    path = tmp_path / "tv2.json"
    path.write_text(json.dumps({"rules": "loew", "contract": "solo", "points": 51,
                                "option": "kramerpoi@after", "hand_bonus": {"F": "kings"}}))
    assert score_json(capsys, "score", "--json-in", str(path))["written"]["F"] == 168
    # A command-line option wins over the file: 49 points gives TV3.
    res = score_json(capsys, "score", "--json-in", str(path), "--points", "49")
    assert res["written"] == {"F": 100, "M": 60, "R": 60}
    # Settings inside the option string apply: TV3 as printed (D 44).
    path.write_text(json.dumps({"rules": "loew", "contract": "solo", "points": 49,
                                "option": "kramerpoi@after;opt:loew_target_suppresses_overshoot=true",
                                "hand_bonus": {"F": "kings"}}))
    assert score_json(capsys, "score", "--json-in", str(path))["written"]["F"] == 44


def test_trischaken(capsys) -> None:
    res = score_json(capsys, "score", "--contract", "trischaken", "--trischaken-points",
                     "0,30,10", "--tricks", "0,9,7")
    assert res["written"] == {"F": 10, "M": 0, "R": 5} and res["nets"] == {"F": 15, "M": -15, "R": 0}


@pytest.mark.parametrize("argv, fragment", [
    (["score", "--contract", "four", "--points", "40"], 'unknown contract "four"'),
    (["score", "--contract", "two", "--thirds", "120"], "impossible in a two"),
    (["score", "--contract", "three", "--points", "40", "--announce", "adler"],
     'unknown announcement "adler"'),
    (["score", "--contract", "three", "--points", "40", "--bird", "pagat:holder=X,trick=16,winner=M"],
     'unknown seat "X"'),
    (["score", "--contract", "three", "--points", "40", "--contra", "game"], "KEY=VALUE"),
    (["--rules", "tapp", "score", "--contract", "three", "--points", "40"],
     'unknown rule profile "tapp"'),
    (["--opt", "win_thirds=105", "score", "--contract", "three", "--points", "40"],
     'bad value "105" for option win_thirds'),
    (["score", "--json-in", "/nonexistent/x.json"], "cannot read"),
    (["score", "--contract", "trischaken"], "--trischaken-points"),
    (["score", "--contract", "three", "--points", "40", "--option", "pagat@never"],
     "after or before"),
])
def test_errors_exit_2_with_message(capsys, argv, fragment) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("Error: ") and fragment in err
    assert "Traceback" not in err


def test_bad_json_exits_2(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, "score", "--json-in", "-", stdin='{"contract": ', monkeypatch=monkeypatch)
    assert code == 2 and "not valid JSON" in err
    code, _, err = run(capsys, "score", "--json-in", "-", stdin='{"contract": "three", "contra": "a"}',
                       monkeypatch=monkeypatch)
    assert code == 2 and '"contra" must be an object' in err


def test_rules_command(capsys) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "Rule profile dummett" in out and "lower  Lower (Unterer)" in out
    assert "Kakadu             15      30     60" in out
    code, out, _ = run(capsys, "rules", "loew")
    assert "INCOMPLETE" in out and "Uhu*" in out and "Kramerpoi (50)~" in out
    code, out, _ = run(capsys, "--opt", "beck_variant=en", "rules", "beck")
    assert "Overrides: beck_variant=en" in out and "No Kings?" in out
    code, out, _ = run(capsys, "--rules", "ms2016", "rules", "--json")
    data = json.loads(out)
    assert data["name"] == "ms2016" and data["options"]["valat"] == "fixed:20/40/80"
    assert [c["key"] for c in data["contracts"]] == ["three", "two", "one", "solo"]
    code, out, _ = run(capsys, "rules", "--list")
    assert out.split() == ["dummett", "beck", "ms2016", "loew"]
    code, _, err = run(capsys, "--opt", "nonsense=1", "rules")
    assert code == 2 and 'unknown option key "nonsense"' in err


def test_settings_load_each_profile_once_with_the_global_overrides():
    from tarock_cli.main import Settings

    from tarock_solver.rules import load_rules

    settings = Settings(rules="beck", opts={"contra_step_before": "forbidden"})
    rules = settings.loaded_rules
    assert rules == load_rules("beck", {"contra_step_before": "forbidden"})
    assert settings.loaded_rules is rules and settings.rules_named("beck", {}) is rules
    # --opt wins over the options an outcome file brings.
    own = settings.rules_named("beck", {"contra_step_before": "2", "partner_capture": "fail"})
    assert own == load_rules("beck", {"contra_step_before": "forbidden",
                                      "partner_capture": "fail"})
    assert Settings(rules="nosuch").debug is False  # nothing is loaded before first use
