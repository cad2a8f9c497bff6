"""JSON Lines and CSV deal files (NOTATION 5.1, 5.2, 6 and 7)."""

from __future__ import annotations

import io
import json
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock_solver.deal import Deal, DealWarning, PartialDeal, capture_warnings
from tarock_solver.deal_files import (
    DealRecord,
    deal_file_format,
    dump_deals,
    read_deals,
    write_deals,
)
from tarock_solver.errors import FileFormatError
from tarock_solver.notation import EXAMPLE_DEALS, format_deal, format_hand, parse_deal

DATA = Path(__file__).resolve().parents[1] / "data"

# The files of NOTATION 6, verbatim.
EXAMPLES_JSONL = (
    '{"id":"example-1","rules":"dummett","hands":{"F":["T21","T20","T16","T15","T7","T5","T2",'
    '"T1","HK","DK","DQ","SK","S9","S7","CQ","C9"],"M":["T13","T3","HJ","HA","H2","DC","DJ","DA",'
    '"D2","D4","SQ","SC","SJ","S10","CC","CJ"],"R":["T22","T18","T17","T14","T11","T9","T8","T6",'
    '"T4","HQ","H3","H4","D3","S8","C8","C7"]},"talon":["T12","T19","T10","CK","C10","HC"]}\n'
    '{"id":"example-2","deal":"F:21,19,11,10,8,6,5,2,1.QA4.2.C.Q9 22,14,13,12,7,3.J3.Q4.JT97.CT '
    '17,16,15,9.C2.KCJ.KQ8.KJ87/D3,HK,T4,T20,DA,T18"}\n'
    '{"id":"example-3","deal":"F:22,21,16,10,8,7,2..QA23.7.KJ87 20,13,12,11,9,1.QC24.K.CJT9.Q '
    '19,18,17,15,14,6,5,4,3.KA3.C.K8.T/D4,DJ,SQ,C9,CC,HJ"}\n')
EXAMPLES_CSV = (
    "id,deal\n"
    'example-1,"F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9 13,3.JA2.CJA24.QCJT.CJ '
    '22,18,17,14,11,9,8,6,4.Q34.3.8.87/T12,T19,T10,CK,C10,HC"\n'
    'example-2,"F:21,19,11,10,8,6,5,2,1.QA4.2.C.Q9 22,14,13,12,7,3.J3.Q4.JT97.CT '
    '17,16,15,9.C2.KCJ.KQ8.KJ87/D3,HK,T4,T20,DA,T18"\n'
    'example-3,"F:22,21,16,10,8,7,2..QA23.7.KJ87 20,13,12,11,9,1.QC24.K.CJT9.Q '
    '19,18,17,15,14,6,5,4,3.KA3.C.K8.T/D4,DJ,SQ,C9,CC,HJ"\n')
EXAMPLE_3_BY_SEAT = (
    "id,F,M,R,talon\n"
    'example-3,"22,21,16,10,8,7,2..QA23.7.KJ87","20,13,12,11,9,1.QC24.K.CJT9.Q",'
    '"19,18,17,15,14,6,5,4,3.KA3.C.K8.T","D4,DJ,SQ,C9,CC,HJ"\n')

EXPECTED = [DealRecord(id=name, deal=parse_deal(text)) for name, text in EXAMPLE_DEALS.items()]
EXPECTED[0].rules = "dummett"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------------------
# The worked examples
# ---------------------------------------------------------------------------

def test_data_files_are_the_spec_files():
    assert (DATA / "examples.jsonl").read_bytes() == EXAMPLES_JSONL.encode("utf-8")
    assert (DATA / "examples.csv").read_bytes() == EXAMPLES_CSV.encode("utf-8")


@pytest.mark.parametrize("name", ["examples.jsonl", "examples.csv"])
def test_read_examples(name):
    records = read_deals(DATA / name)
    assert [r.id for r in records] == ["example-1", "example-2", "example-3"]
    if name.endswith(".jsonl"):
        assert records == EXPECTED
        assert [r.layout for r in records] == ["hands", "deal", "deal"]
        assert [r.line for r in records] == [1, 2, 3]
    else:
        assert [r.deal for r in records] == [r.deal for r in EXPECTED]
        assert [r.line for r in records] == [2, 3, 4]


@pytest.mark.parametrize("name,text", [("examples.jsonl", EXAMPLES_JSONL),
                                       ("examples.csv", EXAMPLES_CSV)])
def test_examples_write_back_byte_exact(tmp_path, name, text):
    records = read_deals(write(tmp_path, name, text))
    out = tmp_path / ("out" + Path(name).suffix)
    write_deals(out, records)
    assert out.read_bytes() == text.encode("utf-8")


def test_by_seat_layout(tmp_path):
    records = read_deals(write(tmp_path, "seat.csv", EXAMPLE_3_BY_SEAT))
    assert records == [DealRecord(id="example-3", deal=parse_deal(EXAMPLE_DEALS["example-3"]))]


def test_by_seat_free_form_and_unknown_parts(tmp_path):
    free_f = "Sküs Mond XVI X VIII VII Uhu ♦Q ♦1 ♦2 ♦3 ♠7 ♣K ♣J ♣8 ♣7"
    text = ("id,F,M,R,talon,rules,seed,comment\n"
            f'a,"{free_f}",-,-,?,beck,17,"a, b"\n'
            f"b,-,-,-,D4 DJ SQ C9 CC HJ,,,\n")
    a, b = read_deals(write(tmp_path, "partial.csv", text))
    ex3 = parse_deal(EXAMPLE_DEALS["example-3"])
    assert a == DealRecord(id="a", deal=PartialDeal(hands=(ex3.hands[0], None, None), talon=None),
                           rules="beck", seed=17, comment="a, b")
    assert b.deal == PartialDeal(hands=(None, None, None), talon=ex3.talon)
    assert b.rules is None and b.seed is None and b.comment is None


def test_jsonl_spellings_defaults_and_comments(tmp_path):
    ex2 = parse_deal(EXAMPLE_DEALS["example-2"])
    hands = {seat: format_hand(m) for seat, m in zip("FMR", ex2.hands, strict=True)}
    lines = [
        "# a comment line",
        "",
        json.dumps({"hands": {"F": hands["F"], "M": None, "R": None}, "talon": None}),
        json.dumps({"id": "x", "deal": EXAMPLE_DEALS["example-2"], "v": 1, "seed": 5,
                    "options": {"partner_capture": "fail", "bird_reserve": False},
                    "players": {"F": "Anna", "r": "Ruth"}, "comment": "Grüße"}),
        json.dumps({"id": 42, "hands": {"F": ["XXI", "XIX", 11, "T10", "VIII", "6", "V", "Uhu",
                                              "Pagat", "♥Q", "H1", "h4", "D2", "SC", "CQ", "C9"],
                                        "M": None, "R": None}, "talon": "?"}),
    ]
    records = read_deals(write(tmp_path, "d.jsonl", "\n".join(lines) + "\n"))
    assert [r.id for r in records] == ["L3", "x", "42"]
    assert records[0].deal == PartialDeal(hands=(ex2.hands[0], None, None), talon=None)
    assert records[0].layout == "hands"
    assert records[1] == DealRecord(id="x", deal=ex2, seed=5,
                                    options={"partner_capture": "fail", "bird_reserve": False},
                                    players={"F": "Anna", "R": "Ruth"}, comment="Grüße")
    assert records[2].deal == records[0].deal


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------

deals = st.permutations(range(54)).map(
    lambda p: Deal(hands=tuple(sum(1 << c for c in p[16 * s:16 * s + 16]) for s in range(3)),
                   talon=tuple(p[48:])))


@st.composite
def deal_or_partial(draw):
    deal = draw(deals)
    hide = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    if not any(hide):
        return deal
    return PartialDeal(hands=tuple(None if hide[s] else deal.hands[s] for s in range(3)),
                       talon=None if hide[3] else deal.talon)


text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
plain = st.text("abcXYZ-_ 019,\"'", min_size=1, max_size=10).filter(lambda s: s.strip() == s)


@st.composite
def records(draw, csv: bool):
    ids = draw(st.lists(plain, min_size=1, max_size=4, unique=True))
    out = []
    for record_id in ids:
        out.append(DealRecord(
            id=record_id,
            deal=draw(deal_or_partial()),
            rules=draw(st.none() | st.sampled_from(["dummett", "beck"])),
            seed=draw(st.none() | st.integers(0, 2**40)),
            comment=draw(st.none() | (plain if csv else text)),
            options={} if csv else draw(st.dictionaries(st.sampled_from(["a", "b"]),
                                                        st.integers() | text, max_size=2)),
            players={} if csv else draw(st.dictionaries(st.sampled_from("FMR"), text,
                                                        max_size=3)),
            layout="deal" if csv else draw(st.sampled_from(["deal", "hands"])),
        ))
    return out


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records(csv=False))
def test_jsonl_round_trip(tmp_path, recs):
    path = tmp_path / "r.jsonl"
    write_deals(path, recs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DealWarning)
        back = read_deals(path)
    assert back == recs
    assert [r.layout for r in back] == [r.layout for r in recs]
    write_deals(tmp_path / "again.jsonl", back)
    assert (tmp_path / "again.jsonl").read_bytes() == path.read_bytes()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records(csv=True))
def test_csv_round_trip(tmp_path, recs):
    path = tmp_path / "r.csv"
    write_deals(path, recs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DealWarning)
        back = read_deals(path)
    assert back == recs
    written = path.read_text(encoding="utf-8")
    for record in recs:
        # Writers quote every field that contains a comma.
        deal = format_deal(record.deal)
        assert (f'"{deal}"' if "," in deal else f",{deal}") in written


def test_csv_cannot_hold_options(tmp_path):
    record = DealRecord(id="a", deal=parse_deal(EXAMPLE_DEALS["example-1"]),
                        options={"partner_capture": "fail"})
    with pytest.raises(FileFormatError, match='cannot hold "options" or "players"'):
        write_deals(tmp_path / "x.csv", [record])
    assert not (tmp_path / "x.csv").exists()


def test_dump_to_stream():
    buffer = io.StringIO()
    dump_deals(EXPECTED, buffer, "csv")
    assert buffer.getvalue() == EXAMPLES_CSV.replace("id,deal\n", "id,deal,rules\n").replace(
        'HC"\n', 'HC",dummett\n', 1).replace('T18"\n', 'T18",\n').replace('HJ"\n', 'HJ",\n')


# ---------------------------------------------------------------------------
# Errors and warnings
# ---------------------------------------------------------------------------

def bad_jsonl(tmp_path: Path) -> Path:
    lines = EXAMPLES_JSONL.splitlines()
    lines[1] = lines[1].replace("D3,HK", "D3,Q♠x")  # example-2: unknown token at t2
    lines.insert(2, '{"id":"broken", "deal": "F:"')  # line 3: malformed JSON
    return write(tmp_path, "examples.jsonl", "\n".join(lines) + "\n")


def test_strict_mode_raises_at_first_bad_record(tmp_path):
    path = bad_jsonl(tmp_path)
    with pytest.raises(FileFormatError) as info:
        read_deals(path)
    err = info.value
    assert (err.path, err.line, err.record_id) == (str(path), 2, "example-2")
    assert str(err) == f'{path}:2 (id "example-2"): unknown card "Q♠x" at talon position 2.'


def test_collecting_mode_goes_on(tmp_path):
    path = bad_jsonl(tmp_path)
    records, errors = read_deals(path, strict=False)
    assert [r.id for r in records] == ["example-1", "example-3"]
    assert [r.line for r in records] == [1, 4]
    assert [(e.line, e.record_id) for e in errors] == [(2, "example-2"), (3, None)]
    assert re.fullmatch(re.escape(f"{path}:3: not valid JSON (expecting ',' delimiter at column ")
                        + r"\d+\); record skipped\.", str(errors[1]))


def test_json_record_problems_are_reported_together(tmp_path):
    lines = [
        json.dumps({"id": "club-4", "deal": EXAMPLE_DEALS["example-1"],
                    "hands": {"F": None, "M": None, "R": None}, "talon": None}),
        json.dumps({"id": "h", "hands": {"F": ["T1", "T1"], "M": ["H7"], "N": []},
                    "talon": ["T2"], "seed": "x", "v": 2}),
        json.dumps([1, 2]),
        json.dumps({"id": "nodeal"}),
        json.dumps({"id": "club-4", "deal": EXAMPLE_DEALS["example-2"]}),
        json.dumps({"id": "short", "deal": EXAMPLE_DEALS["example-3"].replace("KJ87 ", "KJ8 ")}),
    ]
    path = write(tmp_path, "examples.jsonl", "\n".join(lines) + "\n")
    records, errors = read_deals(path, strict=False)
    # The first club-4 failed, so its id stays free for the record on line 5.
    assert [(r.id, r.line) for r in records] == [("club-4", 5)]
    messages = [e.messages for e in errors]
    assert messages[0] == ['"deal" and "hands" describe different deals; give only one.']
    assert str(errors[0]) == (f'{path}:1 (id "club-4"): "deal" and "hands" describe different '
                              f"deals; give only one.")
    assert messages[1] == [
        'format version "v": 2 is not supported; this program reads version 1.',
        '"hands" has an unknown seat "N"; seats are F (forehand), M (middlehand), '
        "R (rearhand = dealer).",
        '"hands" needs F, M and R; missing R (write null for an unknown hand).',
        "card T1 (I) appears twice in hand F.",
        'unknown card "H7" in hand M: hearts is a red suit; its pips are 1 2 3 4 '
        "(1 may be written A). Did you mean S7 or C7?",
        "the talon must list 6 cards in table order (t1 … t6); found 1.",
        '"seed" must be a whole number; found "x".']
    assert messages[2] == ["a record must be a JSON object {…}; found an array; record skipped."]
    assert messages[3] == ['the record needs "deal" (deal notation), "hands" and "talon", or '
                           '"hand" (one hand of 16 cards, with "seat").']
    assert messages[4:] == [[
        "hand F has 15 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54).",
        "Missing from the deal: C7 (♣7)."]]
    assert [e.line for e in errors] == [1, 2, 3, 4, 6]


def test_duplicate_ids(tmp_path):
    text = EXAMPLES_JSONL + EXAMPLES_JSONL.splitlines()[1] + "\n"
    records, errors = read_deals(write(tmp_path, "d.jsonl", text), strict=False)
    assert len(records) == 3
    assert errors[0].messages == ['id "example-2" is used twice in the file (first on line 2); '
                                  "ids must be unique."]


def test_unknown_fields_warn_once_per_file(tmp_path):
    lines = [json.dumps({"id": f"d{k}", "deal": EXAMPLE_DEALS["example-1"], "colour": k,
                         "extra": True}) for k in range(3)]
    path = write(tmp_path, "d.jsonl", "\n".join(lines))
    with capture_warnings() as messages:
        records = read_deals(path)
    assert len(records) == 3
    assert messages == [f'{path}: unknown fields ignored: "colour" (line 1), "extra" (line 1).']


def test_tarockless_hand_warns_with_location(tmp_path):
    text = ("F:16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1.... 22,21,20,19,18,17...KQCJT987.87 "
            ".KQCJA234.KQCJA234../CK,CQ,CC,CJ,C10,C9")
    path = write(tmp_path, "d.csv", f"id,deal\nodd,\"{text}\"\n")
    with capture_warnings() as messages:
        records = read_deals(path)
    assert len(records) == 1
    assert messages == [f'{path}:2 (id "odd"): hand R holds no tarock; at the table this deal '
                        f"would be redealt. Analysing it anyway."]


def test_csv_errors(tmp_path):
    with pytest.raises(FileFormatError) as info:
        read_deals(write(tmp_path, "examples.csv", "id,hand1,hand2\na,b,c\n"), strict=False)
    assert str(info.value).endswith(
        'examples.csv: the header needs "deal", or "F","M","R","talon"; found "id,hand1,hand2".')
    one = EXAMPLE_DEALS["example-1"]
    text = ("id,deal,seed,notes\n"
            f"a,{one}\n"                              # unquoted: too many fields
            f'b,"{one.replace("HC", "HR")}",1,\n'     # ambiguous R
            f'c,"{one}",x,\n'                         # bad seed
            f'd,"{one}",3,hello\n')
    path = write(tmp_path, "examples.csv", text)
    with capture_warnings() as messages:
        records, errors = read_deals(path, strict=False)
    assert [r.id for r in records] == ["d"] and records[0].seed == 3
    assert [(e.line, e.record_id) for e in errors] == [(2, "a"), (3, "b"), (4, "c")]
    assert errors[0].messages == [f"expected 4 fields (id,deal,seed,notes); found "
                                  f"{2 + one.count(',')}. Quote fields that contain commas."]
    assert errors[1].messages == [
        '"HR" at talon position 6 is ambiguous: R means Reiter (Cavall) in German but Roi '
        "(King) on French packs. Write HC for the Cavall or HK for the King."]
    assert errors[2].messages == ['seed "x" is not a whole number.']
    assert messages == [f'{path}: unknown columns ignored: "notes".']


def test_file_level_errors(tmp_path):
    with pytest.raises(FileFormatError, match=r"unknown deal file type \.txt; use \.jsonl"):
        read_deals(tmp_path / "deals.txt")
    with pytest.raises(FileFormatError, match=r"missing\.jsonl: cannot read the file"):
        read_deals(tmp_path / "missing.jsonl", strict=False)
    assert deal_file_format("A.JSONL") == "jsonl" and deal_file_format("b.csv") == "csv"
    path = tmp_path / "latin.csv"
    path.write_bytes("id,deal\nGrüße,x\n".encode("latin-1"))
    with pytest.raises(FileFormatError, match=r"latin\.csv:2: not UTF-8 text"):
        read_deals(path)
    path = tmp_path / "latin.jsonl"
    path.write_bytes(EXAMPLES_JSONL.encode() + '{"id":"Grüße"}\n'.encode("latin-1"))
    records, errors = read_deals(path, strict=False)
    assert len(records) == 3 and errors[0].line == 4 and "not UTF-8" in str(errors[0])


def test_bom_and_crlf_are_accepted(tmp_path):
    for name, text in (("a.jsonl", EXAMPLES_JSONL), ("a.csv", EXAMPLES_CSV)):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
        assert [r.deal for r in read_deals(path)] == [r.deal for r in EXPECTED]
