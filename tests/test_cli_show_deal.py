"""`tarock show` and `tarock deal` through the real entry point (exit status and messages)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clitools import run
from tarock_cli.commands.show import points_table
from tarock_cli.main import cli, main

from tarock_solver.cards import FULL_MASK
from tarock_solver.deal import Deal, random_deals
from tarock_solver.deal_files import read_deals
from tarock_solver.notation import EXAMPLE_DEALS, format_deal, parse_deal

EX1 = EXAMPLE_DEALS["example-1"]
DIAGRAM_1 = """\
Deal example-1   rules: dummett   F leads, R deals
F   Tarock: XXI XX XVI XV VII V II I | ♥ K | ♦ K Q | ♠ K 9 7 | ♣ Q 9
M   Tarock: XIII III | ♥ J 1 2 | ♦ C J 1 2 4 | ♠ Q C J 10 | ♣ C J
R*  Tarock: Sküs XVIII XVII XIV XI IX VIII VI IV | ♥ Q 3 4 | ♦ 3 | ♠ 8 | ♣ 8 7
Talon  t1 XII  t2 XIX  t3 X  t4 ♣K  t5 ♣10  t6 ♥C
"""
DIAGRAM_2 = """\
Deal example-2   rules: dummett   F leads, R deals
F   Tarock: XXI XIX XI X VIII VI V II I | ♥ Q 1 4 | ♦ 2 | ♠ C | ♣ Q 9
M   Tarock: Sküs XIV XIII XII VII III | ♥ J 3 | ♦ Q 4 | ♠ J 10 9 7 | ♣ C 10
R*  Tarock: XVII XVI XV IX | ♥ C 2 | ♦ K C J | ♠ K Q 8 | ♣ K J 8 7
Talon  t1 ♦3  t2 ♥K  t3 IV  t4 XX  t5 ♦1  t6 XVIII
"""
DIAGRAM_3 = """\
Deal example-3   rules: dummett   F leads, R deals
F   Tarock: Sküs XXI XVI X VIII VII II | ♥ — | ♦ Q 1 2 3 | ♠ 7 | ♣ K J 8 7
M   Tarock: XX XIII XII XI IX I | ♥ Q C 2 4 | ♦ K | ♠ C J 10 9 | ♣ Q
R*  Tarock: XIX XVIII XVII XV XIV VI V IV III | ♥ K 1 3 | ♦ C | ♠ K 8 | ♣ 10
Talon  t1 ♦4  t2 ♦J  t3 ♠Q  t4 ♣9  t5 ♣C  t6 ♥J
"""




# ---------------------------------------------------------------------------
# show
# ---------------------------------------------------------------------------

def test_show_demo_is_example_1(capsys):
    code, out, err = run(capsys, "show")
    assert code == 0 and err == ""
    assert out.startswith(DIAGRAM_1 + "\n")
    lines = out.splitlines()
    table = lines[lines.index("") + 1:]
    assert table[0].split() == ["Card", "points", "thirds", "exact", "rounded"]
    assert table[1].split() == ["F", "94", "31⅓", "31"]
    assert table[2].split() == ["M", "55", "18⅓", "18"]
    assert table[3].split() == ["R", "37", "12⅓", "12"]
    assert table[4].split() == ["Talon", "24", "8", "8"]
    assert table[5].split() == ["Total", "210", "70"]
    assert table[6] == "Check: 94 + 55 + 37 + 24 = 210 thirds = 70 points, as in every deal."


@pytest.mark.parametrize("name,diagram", [("example-2", DIAGRAM_2), ("example-3", DIAGRAM_3)])
def test_show_worked_examples(capsys, name, diagram):
    code, out, _ = run(capsys, "show", name)
    assert code == 0 and out.startswith(diagram)
    code, out, _ = run(capsys, "show", "--name", name, EXAMPLE_DEALS[name])
    assert code == 0 and out.startswith(diagram)


def test_show_deal_as_separate_words_and_other_forms(capsys):
    _, expected, _ = run(capsys, "show", EX1)
    expected = expected.replace("Deal example-1", "Deal")
    for args in (EX1.split(" "), [EX1.replace(" ", "_")],
                 ["M:13,3.JA2.CJA24.QCJT.CJ 22,18,17,14,11,9,8,6,4.Q34.3.8.87 "
                  "21,20,16,15,7,5,2,1.K.KQ.K97.Q9/T12,T19,T10,CK,C10,HC"]):
        code, out, _ = run(capsys, "show", *args)
        assert code == 0 and out == expected


def test_show_ascii(capsys):
    code, out, _ = run(capsys, "--ascii", "show", "example-3")
    assert code == 0
    assert out.startswith(
        "Deal example-3   rules: dummett   F leads, R deals\n"
        "F   Tarock: Skus XXI XVI X VIII VII II | H - | D Q 1 2 3 | S 7 | C K J 8 7\n")
    assert "Talon  t1 D4  t2 DJ  t3 SQ  t4 C9  t5 CC  t6 HJ\n" in out
    assert "21 1/3" in out
    assert all(ord(ch) < 128 for ch in out)


def test_show_partial_deal(capsys):
    code, out, _ = run(capsys, "show", "F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9 - -/?")
    assert code == 0
    assert "M   (unknown)\n" in out and "Talon  t1 ?  t2 ?  t3 ?  t4 ?  t5 ?  t6 ?\n" in out
    assert "Check: 94 + 116 = 210 thirds" in out


def test_show_deal_file(capsys, tmp_path):
    data = Path(__file__).resolve().parents[1] / "data"
    code, out, _ = run(capsys, "show", str(data / "examples.jsonl"))
    assert code == 0
    assert out.count("Check: ") == 3 and DIAGRAM_2 in out and DIAGRAM_3 in out
    code, out, _ = run(capsys, "show", str(data / "examples.csv"), "--id", "example-2")
    assert code == 0 and out.startswith(DIAGRAM_2) and out.count("Check: ") == 1
    code, _, err = run(capsys, "show", str(data / "examples.csv"), "--id", "nope")
    assert code == 2 and 'no deal with id "nope"' in err


def test_show_warns_about_tarockless_hand(capsys):
    odd = ("F:16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1.... 22,21,20,19,18,17...KQCJT987.87 "
           ".KQCJA234.KQCJA234../CK,CQ,CC,CJ,C10,C9")
    code, out, err = run(capsys, "show", odd)
    assert code == 0 and "R*  Tarock: — |" in out
    assert err == ("Warning: hand R holds no tarock; at the table this deal would be redealt. "
                   "Analysing it anyway.\n")


# -- errors: exit status 2 and the NOTATION 7 message ---------------------------------

@pytest.mark.parametrize("deal,first_line", [
    (EX1.replace("K97.Q9 ", "K7.Q9 "),
     "Error: hand F has 15 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54)."),
    (EX1.replace("Q9 ", "Q98 ", 1),
     "Error: hand F has 17 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54)."),
    (EX1.replace("C10,HC", "C10,CK"),
     "Error: card CK (♣K) appears twice: at talon position 4 and at talon position 6."),
    (EX1.replace("C10,HC", "Q♠x,HC"), 'Error: unknown card "Q♠x" at talon position 5.'),
    (EX1.split("/")[0] + "/",
     "Error: the talon must list 6 cards in table order (t1 … t6); found 0."),
    (EX1.replace("/", " "),
     'Error: missing "/" between the hands and the talon; write "?" if the talon is unknown.'),
    ("N:" + EX1[2:], 'Error: unknown seat "N:"; seats are F (forehand), M (middlehand), '
                     "R (rearhand = dealer)."),
])
def test_show_bad_deal(capsys, deal, first_line):
    code, out, err = run(capsys, "show", deal)
    assert code == 2 and out == ""
    assert err.splitlines()[0] == first_line
    assert "Traceback" not in err


def test_show_caret_under_bad_token(capsys):
    deal = EX1.replace("C10,HC", "Q♠x,HC")
    _, _, err = run(capsys, "show", deal)
    lines = err.splitlines()
    assert lines[1] == "  " + deal
    assert lines[2] == " " * (2 + deal.index("Q♠x")) + "^^^"


def test_show_malformed_json_line(capsys, tmp_path):
    path = tmp_path / "examples.jsonl"
    lines = (Path(__file__).resolve().parents[1] / "data" / "examples.jsonl").read_text(
        encoding="utf-8").splitlines()
    lines[1] = lines[1][:40]  # cut in the middle of the string
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "show", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"Error: {path}:2: not valid JSON (unterminated string")


def test_show_debug_shows_traceback(capsys):
    with pytest.raises(Exception, match="unknown card"):
        main(["--debug", "show", EX1.replace("C10,HC", "Q♠x,HC")])


def test_show_unknown_rules(capsys):
    code, _, err = run(capsys, "--rules", "nonsense", "show")
    assert code == 2 and "nonsense" in err


def test_points_table_check_catches_overlapping_piles():
    # A deal built without validation can count a card twice; the check must say so.
    table = points_table(Deal(hands=(FULL_MASK, 0, 0), talon=(0,)))
    assert table[-1] == "Check FAILED: 210 + 0 + 0 + 13 = 223 thirds, but a pack holds 210."


def test_show_with_click_runner():
    result = CliRunner().invoke(cli, ["show", "example-2"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(DIAGRAM_2)


# ---------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------

def test_deal_text_is_reproducible(capsys):
    code, out, _ = run(capsys, "deal", "--seed", "11", "--count", "3")
    assert code == 0
    assert out.splitlines()[0] == "Seed 11: 3 deals (again with: tarock deal --seed 11 --count 3)"
    expected = random_deals(11, 3)
    for i, deal in enumerate(expected):
        assert f"Deal deal-11-{i}   rules: dummett   F leads, R deals\n" in out
        assert "\n" + format_deal(deal) + "\n" in out
    _, again, _ = run(capsys, "deal", "--seed", "11", "--count", "3")
    assert again == out


def test_deal_without_seed_prints_the_seed(capsys):
    code, out, _ = run(capsys, "deal")
    assert code == 0
    seed = int(out.split()[1].rstrip(":"))
    assert f"\n{format_deal(random_deals(seed, 1)[0])}\n" in out


def test_deal_jsonl_and_csv(capsys, tmp_path):
    code, out, _ = run(capsys, "deal", "--seed", "5", "--count", "4", "--format", "jsonl")
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["id"] for o in objs] == [f"deal-5-{i}" for i in range(4)]
    assert all(o["seed"] == 5 for o in objs)
    assert [parse_deal(o["deal"]) for o in objs] == random_deals(5, 4)

    path = tmp_path / "deals.csv"
    code, out, err = run(capsys, "deal", "--seed", "5", "--count", "4", "-o", str(path))
    assert code == 0 and out == "" and f"Wrote 4 deals (seed 5) to {path}." in err
    records = read_deals(path)
    assert [r.deal for r in records] == random_deals(5, 4)
    assert [(r.id, r.seed) for r in records] == [(f"deal-5-{i}", 5) for i in range(4)]
    assert path.read_text(encoding="utf-8").startswith("id,deal,seed\n")


def test_deal_text_to_file_and_format_mismatch(capsys, tmp_path):
    path = tmp_path / "deals.txt"
    code, _, _ = run(capsys, "deal", "--seed", "1", "-o", str(path))
    assert code == 0 and "Deal deal-1-0" in path.read_text(encoding="utf-8")
    code, _, err = run(capsys, "deal", "--format", "csv", "-o", str(tmp_path / "d.jsonl"))
    assert code == 2 and "--format csv does not match" in err
    code, _, err = run(capsys, "deal", "--count", "0")
    assert code == 2 and "--count" in err


def test_console_script_runs():
    # The installed entry point, end to end (a bad deal exits with status 2).
    ok = subprocess.run([sys.executable, "-m", "tarock_cli", "show", "example-1"], capture_output=True,
                        text=True, encoding="utf-8", cwd=Path(__file__).resolve().parents[1])
    assert ok.returncode == 0 and ok.stdout.startswith(DIAGRAM_1)
    bad = subprocess.run([sys.executable, "-m", "tarock_cli", "show", EX1.replace("T12", "T23")],
                         capture_output=True, text=True, encoding="utf-8")
    assert bad.returncode == 2
    assert bad.stderr.startswith('Error: unknown card "T23" at talon position 1: tarocks are '
                                 "numbered 1 to 22 (22 = Sküs).")
