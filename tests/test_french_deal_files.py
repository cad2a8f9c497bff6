"""French Tarot deal files: JSON Lines and CSV, round trips and errors (FRENCH_NOTATION.md 5)."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest

from tarock_solver.deal import DealWarning
from tarock_solver.errors import FileFormatError
from tarock_solver.french.cards import INDEX_OF, mask_of
from tarock_solver.french.deal import FrenchDeal, FrenchPartialDeal, random_deal
from tarock_solver.french.deal_files import (
    FrenchDealRecord,
    dump_deals,
    read_deals,
    write_deals,
)
from tarock_solver.french.notation import EXAMPLE_DEALS, format_deal, parse_deal

EX1 = EXAMPLE_DEALS["example-1"]
DEAL = parse_deal(EX1)
assert isinstance(DEAL, FrenchDeal)
#: Taker 4 takes the chien in a garde and discards the chien's suit cards and two hearts.
DISCARD = mask_of(INDEX_OF[c] for c in ("SC", "C8", "C5", "C2", "H9", "H5"))
TAKEN = FrenchDeal(hands=DEAL.hands, chien=DEAL.chien, taker=3, contract="garde",
                   discard=DISCARD)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def records() -> list[FrenchDealRecord]:
    out = [FrenchDealRecord(id="example-1", deal=DEAL, rules="fft", comment="the worked example"),
           FrenchDealRecord(id="taken", deal=TAKEN, seed=12)]
    for players in (3, 4, 5):
        for seed in range(3):
            out.append(FrenchDealRecord(id=f"deal-{players}-{seed}",
                                        deal=random_deal(seed, players), seed=seed))
    return out


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_round_trip(tmp_path, suffix):
    path = tmp_path / f"deals{suffix}"
    write_deals(path, records())
    back = read_deals(path)
    assert back == records()
    text = path.read_text(encoding="utf-8")
    write_deals(path, back)
    assert path.read_text(encoding="utf-8") == text  # canonical: writing again changes nothing


def test_jsonl_round_trip_of_every_layout_and_field(tmp_path):
    recs = records()
    recs[0].layout = "hands"
    recs[0].names = {"1": "Anne", "3": "Bastien"}
    recs[0].options = {"poignee": "announced"}
    recs[0].source = "club night"
    recs.append(FrenchDealRecord(id="partial", deal=parse_deal("2:- " + EX1.split(" ")[1]
                                                                + " - -/?")))
    path = tmp_path / "deals.jsonl"
    write_deals(path, recs)
    assert read_deals(path) == recs
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert list(first) == ["id", "rules", "options", "players", "hands", "chien", "names",
                           "comment", "source"]
    assert first["hands"]["4"][:3] == ["T17", "T10", "EX"]


def test_canonical_jsonl_and_csv_text():
    buffer = io.StringIO()
    dump_deals([FrenchDealRecord(id="taken", deal=TAKEN, seed=12)], buffer, "jsonl")
    assert buffer.getvalue() == (
        '{"id":"taken","players":4,"deal":"' + EX1 + '","taker":"4","contract":"garde",'
        '"discard":["SC","H9","H5","C8","C5","C2"],"seed":12}\n')

    buffer = io.StringIO()
    dump_deals([FrenchDealRecord(id="a", deal=DEAL), FrenchDealRecord(id="b", deal=TAKEN)],
               buffer, "csv")
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "id,deal,players,taker,contract,discard"
    assert lines[1] == f'a,"{EX1}",4,,,'
    assert lines[2].startswith(f'b,"{EX1}",4,4,garde,')


def test_csv_cannot_hold_names(tmp_path):
    record = FrenchDealRecord(id="n", deal=DEAL, names={"1": "Anne"})
    with pytest.raises(FileFormatError, match='cannot hold "names"'):
        write_deals(tmp_path / "d.csv", [record])
    assert not (tmp_path / "d.csv").exists()


def test_lenient_jsonl(tmp_path):
    text = "\n".join([
        "# a comment line, then a blank one",
        "",
        json.dumps({"id": 7, "deal": EX1.replace(" ", "_"), "contract": "Garde Sans",
                    "taker": 2}),
        json.dumps({"hands": {"1": EX1[2:].split(" ")[0], "2": EX1.split(" ")[1],
                              "3": EX1.split(" ")[2], "4": EX1.split(" ")[3].split("/")[0]},
                    "chien": "9 2 ♠C ♣8 ♣5 ♣2", "players": 4}),
        json.dumps({"deal": EX1, "taker": "4", "contract": "G",
                    "discard": "S-Cavalier 8♣ 5♣ C2 H5 Cœur-9"}),
    ]) + "\n"
    back = read_deals(write(tmp_path, "lenient.jsonl", text))
    assert [r.id for r in back] == ["7", "L4", "L5"]
    assert back[0].deal.contract == "garde_sans" and back[0].deal.taker == 1
    assert back[1].deal == DEAL and back[1].layout == "hands"
    assert back[2].deal == TAKEN


def test_lenient_csv_by_seat(tmp_path):
    parts = EX1[2:].split("/")[0].split(" ")
    text = ("ID,1,2,3,4,Chien,Taker,Contract\n"
            + ",".join(f'"{p}"' for p in ["x", *parts, "T9 T2 SC C8 C5 C2", "3", "petite"])
            + "\n")
    (back,) = read_deals(write(tmp_path, "seats.csv", text))
    assert back.id == "x" and back.deal.taker == 2 and back.deal.contract == "petite"
    assert back.deal.hands == DEAL.hands and back.deal.chien == DEAL.chien


def bad_line(tmp_path: Path, name: str, text: str) -> str:
    with pytest.raises(FileFormatError) as info:
        read_deals(write(tmp_path, name, text))
    return str(info.value)


@pytest.mark.parametrize("record,message", [
    ({"id": "a", "deal": EX1.replace("C5,C2", "C5,SK")},
     'bad.jsonl:2 (id "a"): "deal": card SK (♠K) appears twice: in hand 1 and in the chien.'),
    ({"id": "a", "deal": EX1.replace("T9,T2", "T9,T22")},
     'bad.jsonl:2 (id "a"): "deal": unknown card "T22" in the chien'),
    ({"id": "a", "deal": EX1, "contract": "gardee"},
     'bad.jsonl:2 (id "a"): "contract": unknown contract "gardee"; expected petite, garde, '
     "garde_sans or garde_contre (or P, G, GS, GC)."),
    ({"id": "a", "deal": EX1, "taker": "5"},
     'bad.jsonl:2 (id "a"): "taker": "5" is not a seat; at 4 players the seats are 1, 2, 3, 4.'),
    ({"id": "a", "deal": EX1, "players": 5},
     'bad.jsonl:2 (id "a"): "players" is 5 but the deal has 4 hands.'),
    ({"id": "a", "deal": EX1, "players": "four"},
     'bad.jsonl:2 (id "a"): "players": "four" is not a number of players; expected 3, 4 or 5.'),
    ({"id": "a", "deal": EX1, "taker": "4", "discard": ["SK", "zz"]},
     'bad.jsonl:2 (id "a"): "discard": unknown card "zz" in the discard'),
    ({"id": "a", "hands": {"1": ["SK"]}, "chien": None},
     'bad.jsonl:2 (id "a"): "hands" has 1 seats; a French Tarot deal has 3, 4 or 5.'),
    ({"id": "a"}, 'bad.jsonl:2 (id "a"): the record needs "deal" (deal notation) or "hands" and '
                  '"chien".'),
])
def test_bad_jsonl_record_names_file_line_and_field(tmp_path, record, message):
    text = json.dumps({"deal": EX1}) + "\n" + json.dumps(record) + "\n"
    first = bad_line(tmp_path, "bad.jsonl", text).splitlines()[0]
    assert first.startswith(str(tmp_path / message.split(" ")[0]) + " ") and message in first


def test_bad_json_and_duplicate_ids(tmp_path):
    text = json.dumps({"id": "a", "deal": EX1}) + "\n" + '{"id": "b", "deal": "1:21\n'
    assert "bad.jsonl:2: not valid JSON (unterminated string" in bad_line(tmp_path, "bad.jsonl",
                                                                          text)
    text = json.dumps({"id": "a", "deal": EX1}) + "\n" + json.dumps({"id": "a", "deal": EX1})
    assert 'id "a" is used twice in the file (first on line 1)' in bad_line(
        tmp_path, "dup.jsonl", text)


def test_non_strict_reading_collects_one_error_per_record(tmp_path):
    text = "\n".join([json.dumps({"id": "a", "deal": EX1}),
                      json.dumps({"id": "b", "deal": EX1.replace("/", "")}),
                      "[1, 2]",
                      json.dumps({"id": "c", "deal": format_deal(random_deal(1, 5))})]) + "\n"
    recs, errors = read_deals(write(tmp_path, "mixed.jsonl", text), strict=False)
    assert [r.id for r in recs] == ["a", "c"]
    assert [(e.line, e.record_id) for e in errors] == [(2, "b"), (3, None)]
    assert "record skipped" in str(errors[1])


def test_bad_csv(tmp_path):
    text = f'id,deal\nok,"{EX1}"\nshort,"{EX1.replace(".KT921.", ".KT92.")}"\n'
    message = bad_line(tmp_path, "bad.csv", text)
    assert message.startswith(f'{tmp_path / "bad.csv"}:3 (id "short"): "deal": the deal has 77 '
                              f"cards; a French Tarot deal has 78 (4 hands of 18 and a chien of "
                              f"6); missing: S1 (♠1).")
    text = f"id,deal\nx,{EX1}\n"  # unquoted commas
    assert "bad.csv:2" in bad_line(tmp_path, "bad.csv", text)
    assert "expected 2 fields" in bad_line(tmp_path, "bad.csv", text)
    with pytest.raises(FileFormatError, match='the header needs "deal", or the seats'):
        read_deals(write(tmp_path, "h.csv", "id,hands\n"))


def test_unknown_fields_warn_once_per_file(tmp_path):
    text = json.dumps({"deal": EX1, "dealer": "4"}) + "\n" + json.dumps({"deal": EX1,
                                                                         "dealer": "1"}) + "\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_deals(write(tmp_path, "w.jsonl", text))
    messages = [str(w.message) for w in caught if w.category is DealWarning]
    assert len(messages) == 1 and 'unknown fields ignored: "dealer" (line 1)' in messages[0]


def test_partial_records_cannot_have_a_taker(tmp_path):
    text = json.dumps({"deal": "1:- - - " + EX1.split(" ")[3], "taker": "4"}) + "\n"
    assert '"taker" needs a complete deal' in bad_line(tmp_path, "p.jsonl", text)
    (record,) = read_deals(write(tmp_path, "q.jsonl", json.dumps(
        {"deal": "1:- - - " + EX1.split(" ")[3]}) + "\n"))
    assert isinstance(record.deal, FrenchPartialDeal)
