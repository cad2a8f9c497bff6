"""`tarock --game french show` and `tarock --game french deal` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import run

from tarock_solver.french.deal import FrenchDeal, random_deal
from tarock_solver.french.deal_files import FrenchDealRecord, read_deals, write_deals
from tarock_solver.french.diagram import points_table
from tarock_solver.french.notation import EXAMPLE_DEALS, format_deal, parse_deal

EX1 = EXAMPLE_DEALS["example-1"]
DIAGRAM_1 = """\
Deal example-1   French Tarot, 4 players   rules: fft   1 leads, 4 deals
1   Trumps: 19 18 15 14 11 1 | ♠ K 10 9 2 1 | ♥ 2 | ♦ Q J 10 8 3 2 | ♣ —
2   Trumps: 21 20 12 7 6 | ♠ 7 6 5 | ♥ 8 4 1 | ♦ 7 5 | ♣ J 10 9 4 1
3   Trumps: 16 13 8 5 4 3 | ♠ J 8 4 | ♥ 7 6 3 | ♦ K 6 4 | ♣ Q 7 6
4*  Trumps: 17 10 Excuse | ♠ Q 3 | ♥ K Q C J 10 9 5 | ♦ C 9 1 | ♣ K C 3
Chien  9 2 ♠C ♣8 ♣5 ♣2

Card points           half  points  oudlers
1                       42      21        1
2                       28      14        1
3                       34      17        0
4                       68      34        1
Chien                   10       5        0
Total                  182      91        3
Check: 42 + 28 + 34 + 68 + 10 = 182 half points = 91 points, as in every deal.
"""


def french(capsys, *args: str) -> tuple[int, str, str]:
    return run(capsys, "--game", "french", *args)


# ---------------------------------------------------------------------------
# show
# ---------------------------------------------------------------------------

def test_show_demo_is_the_worked_example(capsys):
    assert french(capsys, "show") == (0, DIAGRAM_1, "")
    assert french(capsys, "show", "example-1") == (0, DIAGRAM_1, "")
    assert french(capsys, "show", "--name", "example-1", EX1) == (0, DIAGRAM_1, "")


def test_show_deal_in_other_forms(capsys):
    expected = DIAGRAM_1.replace("Deal example-1", "Deal")
    parts = EX1[2:].split("/")[0].split(" ")
    for args in (EX1.split(" "), [EX1.replace(" ", "_")],
                 ["3:" + " ".join(parts[2:] + parts[:2]) + "/2 9 ♠C C-8 Trèfle-5 2♣"]):
        assert french(capsys, "show", *args) == (0, expected, "")


def test_show_half_points_and_ascii(capsys):
    deal = random_deal(3, 5)
    code, out, _ = french(capsys, "--ascii", "show", format_deal(deal))
    assert code == 0 and all(ord(ch) < 128 for ch in out)
    assert "French Tarot, 5 players   rules: fft   1 leads, 5 deals" in out
    assert "\n5*  Trumps:" in out and "| S " in out
    halves = deal.half_points()
    for seat, half in enumerate(halves[:-1], start=1):
        points = f"{half // 2}.5" if half % 2 else str(half // 2)
        assert any(line.split()[:3] == [str(seat), str(half), points]
                   for line in out.splitlines())
    assert out.rstrip().endswith("= 182 half points = 91 points, as in every deal.")


def test_show_x5_points():
    # Every card is an odd number of half points, so a hand of 15 cards (5 players) and a
    # chien of 3 hold x.5 points, and hands of 18 or 24 cards whole points.
    table = points_table(random_deal(8, 5))
    assert all(line.split()[2].endswith(".5") for line in table[1:7])
    table = points_table(random_deal(8, 4))
    assert not any(line.split()[2].endswith(".5") for line in table[1:6])


def test_show_partial_deal_and_taker(capsys, tmp_path):
    hand = EX1.split(" ")[1]
    code, out, _ = french(capsys, "show", f"2:{hand} - - -/?")
    assert code == 0 and "1   (unknown)\n" in out and "Chien  ?\n" in out
    assert "Unknown (60 cards)" in out and "Check: 28 + 154 = 182 half points" in out

    deal = parse_deal(EX1)
    taken = FrenchDeal(hands=deal.hands, chien=deal.chien, taker=3, contract="garde",
                       discard=deal.chien)
    path = tmp_path / "taken.jsonl"
    write_deals(path, [FrenchDealRecord(id="t", deal=taken, rules="fft")])
    code, out, _ = french(capsys, "show", str(path))
    assert code == 0
    assert out.startswith("Deal t   French Tarot, 4 players   rules: fft   1 leads, 4 deals   "
                          "taker 4, garde\n")
    assert "Discard  9 2 ♠C ♣8 ♣5 ♣2\n" in out


def test_show_deal_files(capsys, tmp_path):
    recs = [FrenchDealRecord(id=f"d{p}", deal=random_deal(p, p)) for p in (3, 4, 5)]
    for suffix in (".jsonl", ".csv"):
        path = tmp_path / f"deals{suffix}"
        write_deals(path, recs)
        code, out, _ = french(capsys, "show", str(path))
        assert code == 0 and out.count("Check: ") == 3
        code, out, _ = french(capsys, "show", str(path), "--id", "d5")
        assert code == 0 and out.startswith("Deal d5   French Tarot, 5 players")
        code, _, err = french(capsys, "show", str(path), "--id", "nope")
        assert code == 2 and 'no deal with id "nope"' in err


def replace_card(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize("deal,first_line", [
    (replace_card(EX1, ".KT921.", ".KT92."),
     "Error: the deal has 77 cards; a French Tarot deal has 78 (4 hands of 18 and a chien of 6); "
     "missing: S1 (♠1)."),
    (replace_card(EX1, "C5,C2", "C5,SK"),
     "Error: card SK (♠K) appears twice: in hand 1 and in the chien."),
    (replace_card(EX1, "C5,C2", "C5,Cx"),
     'Error: unknown card "Cx" in the chien: the ranks of clubs are K Q C J 10 9 8 7 6 5 4 3 2 1 '
     "(also R, D, V, A, T)."),
    (replace_card(EX1, ".KT921.", ".KT9Z1."),
     'Error: hand 1, ♠ field "KT9Z1": "Z" is not a spade rank; ranks are K Q C J T 9 8 7 6 5 4 '
     "3 2 1 (T or 10 for the ten)."),
    (replace_card(replace_card(EX1, ".J84.", ".J8."), ".Q3.", ".Q43."),
     "Error: hand 3 has 17 cards; at 4 players every hand needs 18 (4 hands of 18 and a chien "
     "of 6)."),
    (EX1.replace("/", " "),
     'Error: missing "/" between the hands and the chien; write "?" if the chien is unknown.'),
    ("7:" + EX1[2:], 'Error: unknown seat "7:"; at 4 players the seats are 1, 2, 3, 4.'),
])
def test_show_bad_deal_exits_2_naming_the_problem(capsys, deal, first_line):
    code, out, err = french(capsys, "show", deal)
    assert code == 2 and out == ""
    assert err.splitlines()[0] == first_line
    assert "Traceback" not in err


def test_show_caret_under_the_bad_token(capsys):
    deal = replace_card(EX1, "C5,C2", "C5,Cx")
    _, _, err = french(capsys, "show", deal)
    lines = err.splitlines()
    assert lines[1] == "  " + deal
    assert lines[2] == " " * (2 + deal.index("Cx")) + "^^"


def test_show_bad_file_line_exits_2(capsys, tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps({"id": "ok", "deal": EX1}) + "\n"
                    + json.dumps({"id": "bad", "deal": EX1, "contract": "gardee"}) + "\n",
                    encoding="utf-8")
    code, out, err = french(capsys, "show", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f'Error: {path}:2 (id "bad"): "contract": unknown contract "gardee"')
    path = tmp_path / "deals.csv"
    path.write_text(f'id,deal\nshort,"{replace_card(EX1, ".KT921.", ".KT92.")}"\n',
                    encoding="utf-8")
    code, _, err = french(capsys, "show", str(path))
    assert code == 2
    assert err.startswith(f'Error: {path}:2 (id "short"): "deal": the deal has 77 cards')


def test_show_illustrated_deal_under_french_is_refused(capsys):
    code, _, err = french(capsys, "show", "F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9 - -/?")
    assert code == 2 and err.splitlines()[0] == (
        'Error: unknown seat "F:"; at 3 players the seats are 1, 2, 3 (F, M and R are the seats '
        "of Illustrated Tarock).")


# ---------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_is_reproducible(capsys, players):
    args = ["deal", "--seed", "11", "--count", "3", "--players", str(players)]
    code, out, _ = french(capsys, *args)
    assert code == 0
    again = "" if players == 4 else f" --players {players}"
    assert out.splitlines()[0] == (f"Seed 11: 3 deals, seeds 11 to 13 (again with: tarock --game "
                                   f"french deal --seed 11 --count 3{again})")
    for i in range(3):
        deal = random_deal(11 + i, players)
        assert f"Deal deal-{11 + i}   French Tarot, {players} players" in out
        assert "\n" + format_deal(deal) + "\n" in out
    assert french(capsys, *args)[1] == out
    # Each deal is its own seed's: --seed 12 alone gives the second deal.
    code, single, _ = french(capsys, "deal", "--seed", "12", "--players", str(players))
    assert "\n" + format_deal(random_deal(12, players)) + "\n" in single


def test_deal_default_players_and_fresh_seed(capsys):
    code, out, _ = french(capsys, "deal", "--seed", "7")
    assert code == 0 and out.splitlines()[0] == ("Seed 7: 1 deal (again with: tarock --game "
                                                 "french deal --seed 7)")
    assert out.endswith("\n" + format_deal(random_deal(7)) + "\n")
    code, out, _ = french(capsys, "deal")
    seed = int(out.split()[1].rstrip(":"))
    assert out.endswith("\n" + format_deal(random_deal(seed)) + "\n")


def test_deal_jsonl_and_csv(capsys, tmp_path):
    code, out, _ = french(capsys, "deal", "--seed", "5", "--count", "4", "--players", "5",
                          "--format", "jsonl")
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["id"] for o in objs] == [f"deal-{5 + i}" for i in range(4)]
    assert [o["seed"] for o in objs] == [5, 6, 7, 8] and {o["players"] for o in objs} == {5}
    assert [parse_deal(o["deal"]) for o in objs] == [random_deal(5 + i, 5) for i in range(4)]

    path = tmp_path / "deals.csv"
    code, out, err = french(capsys, "deal", "--seed", "5", "--count", "4", "-o", str(path))
    assert code == 0 and out == "" and f"Wrote 4 deals (seed 5) to {path}." in err
    recs = read_deals(path)
    assert [r.deal for r in recs] == [random_deal(5 + i) for i in range(4)]
    assert path.read_text(encoding="utf-8").startswith("id,deal,players,seed\n")


def test_deal_options_are_checked(capsys, tmp_path):
    code, _, err = french(capsys, "deal", "--players", "6")
    assert code == 2 and "--players" in err
    code, _, err = french(capsys, "deal", "--format", "csv", "-o", str(tmp_path / "d.jsonl"))
    assert code == 2 and "--format csv does not match" in err
    code, _, err = run(capsys, "deal", "--players", "4")
    assert code == 2 and "--players is for --game french" in err


def test_illustrated_commands_are_unchanged(capsys):
    # The game seam leaves the default game's output as it was.
    code, out, _ = run(capsys, "show")
    assert code == 0 and out.startswith("Deal example-1   rules: dummett   F leads, R deals\n")
    code, out, _ = run(capsys, "deal", "--seed", "11")
    assert code == 0 and out.startswith("Seed 11: 1 deal (again with: tarock deal --seed 11 "
                                        "--count 1)\n")


def test_the_document_shows_this_diagram():
    doc = Path(__file__).resolve().parents[1] / "docs" / "FRENCH_NOTATION.md"
    if not doc.exists():
        pytest.skip("docs/FRENCH_NOTATION.md is not in this checkout")
    assert DIAGRAM_1 in doc.read_text(encoding="utf-8")
