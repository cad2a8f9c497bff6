"""Play records: notation round trips, lenient input, and the refusal of every
malformed record with the trick and the card named (no search runs here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_solver.cards import CARD_IDS, INDEX_OF
from tarock_solver.deal_files import read_deals
from tarock_solver.errors import TarockError
from tarock_solver.review import check_record, format_record, parse_record
from tarock_solver.review.files import read_play_records, write_play_records
from tarock_solver.review.playout import play_out
from tarock_solver.review.record import PlayRecordError
from tarock_solver.review.text import format_play, parse_announcements, parse_talon_pick
from tarock_solver.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tarock_solver" / "data"
RULES = load_rules("dummett")


@pytest.fixture(scope="module")
def example():
    return parse_record((DATA / "review_example.txt").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def played():
    """Bench deals played out by the simple policy, every seat and a Solo among them."""
    deals = read_deals(DATA / "bench_deals.jsonl")[:6]
    contracts = ("three", "two", "one", "solo", "lower", "three")
    import dataclasses

    out = [play_out(d.deal, i % 3, contracts[i], RULES, record_id=d.id)
           for i, d in enumerate(deals)]
    out[0] = dataclasses.replace(out[0], players={"F": "Anna", "R": "Cleo Wu"})
    return out


def test_canonical_round_trip(played):
    for rec in played:
        text = format_record(rec)
        back = parse_record(text)
        assert back == rec
        assert format_record(back) == text
        check_record(back, RULES)


def test_lenient_spellings_read_to_the_same_record(example):
    canon = format_record(example)
    line = check_record(example, RULES)
    # all on one line, fields separated by ";", no trick numbers or seats, symbols and names
    cards = []
    for trick in line.tricks:
        for c in trick.cards:
            cid = CARD_IDS[c]
            if cid == "T22":
                cards.append("Sküs")
            elif cid == "T1":
                cards.append("Pagat")
            elif cid.startswith("T"):
                cards.append(cid[1:])          # bare numbers are tarocks
            else:
                suit = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}[cid[0]]
                cards.append(suit + cid[1:])
    one_line = (f"Deal = {canon.splitlines()[1].split(': ', 1)[1]}; decl: f; Contract: Dreier; "
                f"pick: t1-t3; discard: ♥Q, ♥2, ♦2; play: " + " ".join(cards))
    rec = parse_record(one_line)
    assert rec.play == example.play and rec.discard == example.discard
    assert rec.talon_pick == "1-3" and rec.contract == "three" and rec.declarer == 0
    # one trick a line with "|" too
    piped = canon.replace("play:\n", "play: ").replace("\n", " | ", 15)
    assert parse_record(canon.split("play:")[0] + "play: " + format_play(example)).play \
        == example.play
    assert piped  # the canonical multi-line form itself is checked in the round trip


def test_json_and_csv_files_round_trip(tmp_path, played):
    for name in ("r.jsonl", "r.csv"):
        path = tmp_path / name
        write_play_records(path, played)
        back = read_play_records(path)
        assert back == played
        path2 = tmp_path / ("again" + path.suffix)
        write_play_records(path2, back)
        assert path2.read_bytes() == path.read_bytes()


def test_json_record_lenient_fields(tmp_path, example):
    obj = {"id": "x", "deal": format_record(example).splitlines()[1][6:], "declarer": "F",
           "contract": "three", "talon_pick": "1-3", "discard": ["HQ", "H2", "D2"],
           "play": [[CARD_IDS[c] for c in example.play[i:i + 3]]
                    for i in range(0, 48, 3)], "players": {"F": "Anna"}}
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    rec, = read_play_records(path)
    assert rec.play == example.play and rec.players == {"F": "Anna"}


def test_announcements_and_talon_spellings():
    assert parse_announcements("Pagat, valat@before uhu:after") == (
        ("pagat", "after"), ("uhu", "after"), ("valat", "before"))
    assert parse_announcements({"kakadu": "before"}) == (("kakadu", "before"),)
    assert parse_talon_pick("t4-t6", "three") == "4-6"
    assert parse_talon_pick("456", "three") == "4-6"
    assert parse_talon_pick("3-4", "two") == "3-4"
    assert parse_talon_pick("5", "one") == "5"
    assert parse_talon_pick("-", "solo") == ""


# ------------------------------------------------------------------ malformed records


def _swap_card(text: str, old: str, new: str, trick: int) -> str:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{trick}. "):
            parts = line.split(" ")
            parts = [new if p == old else p for p in parts]
            lines[i] = " ".join(parts)
    return "\n".join(lines) + "\n"


def _malformed(example) -> list[tuple[str, str, list[str]]]:
    """(name, record text, words the message must contain)."""
    text = format_record(example)
    line = check_record(example, RULES)
    t = {tr.number: tr for tr in line.tricks}
    ids = {n: [CARD_IDS[c] for c in t[n].cards] for n in t}
    # trick 3: F leads HK, M plays HC (forced), R plays H4; R also holds H3 and HJ
    cases = [
        ("revoke", _swap_card(text, "H4", "T4", 3), ["trick 3", "T4", "revokes"]),
        ("card of another hand", _swap_card(text, "HC", "HJ", 3), ["trick 3", "HJ", "R holds"]),
        ("card played twice", _swap_card(text, "C10", "CK", 8), ["trick 8", "CK", "trick 1"]),
        ("wrong leader", text.replace("2. F:", "2. M:"), ["trick 2", "M leading", "F won"]),
        ("first trick not F", text.replace("1. F:", "1. R:"), ["trick 1", "F leads"]),
        ("discarded card played", _swap_card(text, "HK", "HQ", 3), ["trick 3", "HQ", "discard"]),
        ("untaken talon card", _swap_card(text, "SJ", "C7", 4), ["trick 4", "C7", "talon"]),
        ("unknown card", _swap_card(text, "SJ", "S2", 4), ["trick 4", "S2", "black"]),
        ("ambiguous R", _swap_card(text, "SJ", "SR", 4), ["trick 4", "SR", "ambiguous"]),
        ("must trump", _swap_card(text, "T9", "C9", 6), ["trick 6", "C9", "tarock"]),
        ("short trick", text.replace("4. F: S9 SJ SC", "4. F: S9 SJ"), ["trick 4", "3 cards"]),
        ("trick number", text.replace("5. R:", "7. R:"), ["trick 5", "numbered 7"]),
        ("unknown seat", text.replace("5. R:", "5. N:"), ["trick 5", "N:"]),
        ("too many cards", text.rstrip("\n") + " S8\n", ["trick 17", "S8"]),
        ("discard not held", text.replace("discard: HQ H2 D2", "discard: HQ H2 SK"),
         ["discard", "SK"]),
        ("discard a King", text.replace("discard: HQ H2 D2", "discard: HQ H2 HK"),
         ["discard", "HK"]),
        ("discard size", text.replace("discard: HQ H2 D2", "discard: HQ H2"),
         ["discard", "2 cards"]),
        ("discard tarock", text.replace("discard: HQ H2 D2", "discard: HQ H2 T5"),
         ["discard", "T5", "tarock"]),
        ("bad talon group", text.replace("talon: 1-3", "talon: 2-4"), ["talon", "2-4"]),
        ("no talon field", text.replace("talon: 1-3\n", ""), ["talon"]),
        ("unknown contract", text.replace("contract: three", "contract: four"),
         ["contract", "four"]),
        ("unknown declarer", text.replace("declarer: F", "declarer: X"), ["declarer", "X"]),
        ("bad deal", text.replace("/S9,HQ", "/S9,HQQ"), ["deal", "HQQ"]),
        ("missing deal", "\n".join(x for x in text.splitlines() if not x.startswith("deal")),
         ["deal"]),
        ("unknown announcement", text.replace("play:", "announce: trull\nplay:"),
         ["announce", "trull"]),
        ("not a field", text.replace("contract: three", "contract: three\nhello world"),
         ["hello world"]),
        ("solo with discard", text.replace("contract: three", "contract: solo"),
         ["Solo"]),
    ]
    assert ids[3][:2] == ["HK", "HC"]
    return cases


def test_at_least_twenty_malformed_records_are_refused_naming_trick_and_card(example):
    cases = _malformed(example)
    assert len(cases) >= 20
    for name, text, words in cases:
        with pytest.raises(TarockError) as info:
            check_record(parse_record(text), RULES)
        message = str(info.value)
        for w in words:
            assert w in message, (name, w, message)


def test_announced_bird_is_kept_back():
    # A Solo of a deal where F holds Pagat and plays it early after announcing it.
    deals = read_deals(DATA / "bench_deals.jsonl")
    for d in deals:
        if d.deal.hands[0] >> INDEX_OF["T1"] & 1:
            deal = d.deal
            break
    rec = play_out(deal, 0, "solo", RULES)
    text = format_record(rec).replace("play:", "announce: pagat\nplay:")
    # lead Pagat in trick 1: illegal under bird_reserve
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith("1. "))
    first = lines[i].split(" ")
    if first[2] != "T1":
        # swap T1 into the lead; the rest of the play no longer matters, trick 1 fails first
        lines[i] = " ".join(first[:2] + ["T1"] + first[3:])
    with pytest.raises(PlayRecordError) as info:
        check_record(parse_record("\n".join(lines)), RULES)
    if RULES.bird_reserve:
        assert "trick 1" in str(info.value) and "T1" in str(info.value)
