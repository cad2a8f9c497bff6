"""French Tarot card tokens, hands and deal notation (docs/FRENCH_NOTATION.md 1-3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_solver.errors import DealError, NotationError
from tarock_solver.french.cards import CARD_IDS, INDEX_OF, N_CARDS
from tarock_solver.french.deal import FrenchDeal, FrenchPartialDeal, random_deal
from tarock_solver.french.notation import (
    EXAMPLE_DEALS,
    accepted_spellings,
    describe_card,
    example_or_text,
    format_cards,
    format_chien,
    format_deal,
    format_deal_url,
    format_hand,
    normalize_token,
    parse_card,
    parse_cards,
    parse_chien,
    parse_contract,
    parse_deal,
    parse_hand,
)

EX1 = EXAMPLE_DEALS["example-1"]


def ids(mask: int) -> str:
    return format_cards(mask)


# ---------------------------------------------------------------------------
# Card tokens: every spelling the document lists
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("card,spellings", [
    ("T1", ["1", "01", "T1", "t01", "I", "i", "Petit", "petit", "le Petit", "LE PETIT",
            "le-Petit"]),
    ("T4", ["4", "T4", "IV", "IIII"]),
    ("T7", ["7", "T7", "t07", "T007", "007", "VII"]),
    ("T9", ["IX", "VIIII"]),
    ("T14", ["XIV", "XIIII", "14"]),
    ("T19", ["XIX", "XVIIII"]),
    ("T21", ["21", "T21", "XXI", "Monde", "le Monde", "monde"]),
    ("EX", ["E", "e", "EX", "Ex", "Excuse", "excuse", "l'Excuse", "l’Excuse", "L'EXCUSE",
            "Fool", "*", "★"]),
    ("SK", ["SK", "sk", "Sk", "SR", "S-K", "S_K", "♠K", "K♠", "♤K", "K♤", "PiqueRoi",
            "Pique-Roi", "pique roi", "Piques-King", "Spade-King", "SpadesK", "Roi de pique",
            "Roi-de-Pique", "King of spades", "r♠", "♠️K"]),
    ("HQ", ["HQ", "HD", "H-Dame", "Cœur-Dame", "Coeur Dame", "coeurd", "♥Q", "Q♥", "D♥",
            "♡Dame", "Heart-Queen", "HeartsQ", "Dame de cœur", "Queen of hearts"]),
    ("DC", ["DC", "dc", "D-Cavalier", "Carreau-Cavalier", "Carreaux C", "DiamondKnight",
            "Diamonds-Horse", "♦C", "C♦", "♢Cav", "Cavalière de carreau",
            "Cavaliere-de-Carreau", "DCav"]),
    ("CC", ["CC", "cc", "C-C", "♣C", "C♣", "C♧", "Trèfle-Cavalier", "Trefle-Cav",
            "Trèfles C",
            "Club-Knight", "Clubs-Horse", "Cavalier de trèfle", "Knight of clubs"]),
    ("CJ", ["CJ", "CV", "C-Valet", "Trèfle-Valet", "Club-Jack", "Clubs-Knave", "♣J", "J♣",
            "V♣", "Valet de trèfle", "Jack of clubs"]),
    ("CQ", ["CQ", "CD", "C-Dame", "♣D", "Queen of clubs"]),
    ("DQ", ["DD", "DQ", "D-D", "♦D"]),
    ("S10", ["S10", "s10", "ST", "S-10", "S_T", "♠10", "10♠", "T♠", "Ten♠", "Pique-10",
             "Spades-Ten", "10 de pique", "Ten of spades", "Pique 10"]),
    ("H1", ["H1", "HA", "HAs", "HAce", "H-1", "♥1", "1♥", "A♥", "As♥", "Ace♥", "Coeur-As",
            "As de cœur", "Ace of hearts"]),
    ("C9", ["C9", "c9", "♣9", "9♣", "Trefle-9", "9 de trèfle", "Clubs9"]),
    ("D2", ["D2", "♦2", "2♦", "Carreau-2", "Diamond2"]),
])
def test_every_documented_spelling(card, spellings):
    for spelling in spellings:
        assert CARD_IDS[parse_card(spelling)] == card, spelling


def test_canonical_ids_read_back_for_every_card():
    for index, cid in enumerate(CARD_IDS):
        assert parse_card(cid) == index
        assert parse_card(cid.lower()) == index
    assert len(set(CARD_IDS)) == N_CARDS


def test_no_spelling_names_two_cards_and_the_table_is_large():
    # The table is built with a collision check; these are the traps of the document.
    table = accepted_spellings()
    assert len(table) > 1500
    assert table["cc"] == INDEX_OF["CC"] and table["cd"] == INDEX_OF["CQ"]
    assert table["dc"] == INDEX_OF["DC"] and table["dd"] == INDEX_OF["DQ"]
    assert table["v"] == INDEX_OF["T5"] and table["cv"] == INDEX_OF["CJ"]
    assert table["x"] == INDEX_OF["T10"] and table["st"] == INDEX_OF["S10"]
    assert table["t10"] == INDEX_OF["T10"]  # T + number is a trump, never a ten
    assert table["e"] == INDEX_OF["EX"]


def test_normalize_token_folds_case_accents_and_joiners():
    assert normalize_token("Cœur-Dame") == "coeurdame"
    assert normalize_token("Cavalière") == "cavaliere"
    assert normalize_token("Trèfle_Roi") == "trefleroi"
    assert normalize_token("l’Excuse") == "lexcuse"
    assert normalize_token("♥️K") == "♥k"


@pytest.mark.parametrize("token,expected", [
    ("22", 'unknown card "22" in hand 2: trumps are numbered 1 to 21 and the Excuse is E; a pip '
           "needs its suit (S10, H7)."),
    ("0", 'unknown card "0" in hand 2: trumps are numbered 1 to 21'),
    ("XXII", 'unknown card "XXII" in hand 2: trumps are I to XXI (or 1 to 21) and the Excuse '
             "is E."),
    ("S11", 'unknown card "S11" in hand 2: the ranks of spades are K Q C J 10 9 8 7 6 5 4 3 2 1'),
    ("Cx", 'unknown card "Cx" in hand 2: the ranks of clubs are'),
    ("KS", 'unknown card "KS" in hand 2. Did you mean SK? The suit comes first; a rank may come '
           "first only before a suit symbol (♠K)."),
    ("10H", 'unknown card "10H" in hand 2. Did you mean H10?'),
    ("S", 'unknown card "S" in hand 2: a suit needs a rank ("SK", "S10").'),
    ("?", 'unknown card "?" in hand 2; "?" stands only for a whole unknown chien'),
    ("Joker", 'unknown card "Joker" in hand 2; expected a trump (1 to 21, T7, XIV, Petit, '
              "Monde), the Excuse (E, EX, Excuse) or a suit card"),
])
def test_bad_tokens_are_quoted_with_what_was_expected(token, expected):
    with pytest.raises(NotationError) as info:
        parse_card(token, where="hand 2")
    assert str(info.value).startswith(expected)


def test_parse_cards_reports_all_bad_tokens():
    with pytest.raises(NotationError) as info:
        parse_cards(["SK", "zz", "T22", "EX"])
    assert len(info.value.messages) == 2
    assert parse_cards(["SK", "sk", 21]) == [INDEX_OF["SK"]] * 2 + [INDEX_OF["T21"]]


def test_describe_card():
    assert describe_card(INDEX_OF["SK"]) == "SK (♠K)"
    assert describe_card(INDEX_OF["T21"]) == "T21"
    assert describe_card(INDEX_OF["EX"]) == "EX (the Excuse)"


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------

HAND = "21,19,12,7,1,E.KQT7.C1.QT98.J5"  # 5 trumps and the Excuse, 4 + 2 + 4 + 2 suit cards


def test_compact_hand_canonical_round_trip():
    mask = parse_hand(HAND)
    assert ids(mask) == "T21 T19 T12 T7 T1 EX SK SQ S10 S7 HC H1 DQ D10 D9 D8 CJ C5"
    assert format_hand(mask) == HAND
    assert format_hand(0) == "...." and parse_hand("....", players=None) == 0


def test_compact_hand_spells_every_rank():
    every = "21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,E.KQCJT987654321..."
    mask = parse_hand(every, players=None)
    assert mask.bit_count() == 36 and format_hand(mask) == every
    assert ids(mask).endswith("SK SQ SC SJ S10 S9 S8 S7 S6 S5 S4 S3 S2 S1")


def test_compact_hand_lenient_input():
    canonical = parse_hand(HAND)
    assert canonical == parse_hand("1,7,12,19,21,e.7TQK.1C.Q98T.5J")
    assert canonical == parse_hand("21, 19, 12, 7, 1, EX.RD107.CA.D1098.V5")
    assert canonical == parse_hand("21,19,12,07,T1,*.kq10 7.ca.qt98.j5")
    assert format_hand(parse_hand("21,19,12,7,1,Excuse.K,Q,10,7.C1.QT98.J5")) == HAND


def test_ten_and_ace_are_told_apart_in_a_suit_field():
    # "1" followed by "0" is the ten; "101" is the ten and the 1; "T1" the ten and the 1.
    for field in ("101", "T1", "1T", "1 10", "A10"):
        assert format_hand(parse_hand(f".{field}...", players=None)) == ".T1..."


def test_free_form_hand():
    mask = parse_hand(HAND)
    free = ("Monde XIX 12 T7 le Petit l'Excuse Roi-de-Pique SD ♠10 7♠ ♥C Cœur-As "
            "Dame de carreau 10♦ D9, D8; ♣V 5♣")
    assert parse_hand(free) == mask
    assert parse_hand(ids(mask)) == mask


@pytest.mark.parametrize("text,first", [
    ("21,19,12,7,1,E.KQT7.C1.QT98.J4X", '♣ field "J4X": "X" is not a club rank; ranks are '
                                          "K Q C J T 9 8 7 6 5 4 3 2 1 (T or 10 for the ten)."),
    ("21,19,12,7,1,E.KQT7.C1.QT98.J44", '♣ field "J44": 4 appears twice.'),
    ("22,19,12,7,1,E.KQT7.C1.QT987.J5", 'trump field "22,19,12,7,1,E": 22 is out of range'),
    ("21,K,12,7,1,E.KQT7.C1.QT987.J5", 'trump field "21,K,12,7,1,E": "K" is not a trump'),
    ("21,19.KQT7.C1.QT987", "the compact form needs 5 fields separated by dots "
                            "(trumps.♠.♥.♦.♣); found 4."),
    ("SK SK", "card SK (♠K) appears twice."),
])
def test_bad_hands(text, first):
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert first in str(info.value).splitlines()[0]


def test_hand_size_by_players():
    mask = parse_hand(HAND)
    with pytest.raises(DealError, match=r"hand 3 has 18 cards; at 3 players every hand needs 24 "
                                        r"\(3 hands of 24 and a chien of 6\)"):
        parse_hand(format_hand(mask), players=3, where="hand 3")
    with pytest.raises(DealError, match="at 5 players every hand needs 15"):
        parse_hand(format_hand(mask), players=5)
    assert parse_hand(format_hand(mask), players=None) == mask


def test_caret_under_the_bad_token():
    text = "SK HK zz DK"
    with pytest.raises(NotationError) as info:
        parse_hand(text, players=None)
    lines = str(info.value).splitlines()
    assert lines[-2] == "  " + text and lines[-1] == "        ^^"


# ---------------------------------------------------------------------------
# Chien and deals
# ---------------------------------------------------------------------------

def test_chien_forms():
    mask = parse_chien("T9,T2,SC,C8,C5,C2")
    assert format_chien(mask) == "T9,T2,SC,C8,C5,C2"
    assert parse_chien("C2 c5 ♣8 ♠C 2 IX") == mask
    assert parse_chien("9,2.C...852") == mask
    assert parse_chien("?") is None and format_chien(None) == "?"
    with pytest.raises(DealError, match="the chien has 5 cards; at 4 players it needs 6"):
        parse_chien("T9,T2,SC,C8,C5")
    assert parse_chien("T9,T2,SC", players=5) == parse_chien("SC 2 9", players=None)


def test_example_is_canonical_and_valid():
    deal = parse_deal(EX1)
    assert isinstance(deal, FrenchDeal) and deal.players == 4
    assert format_deal(deal) == EX1
    assert sum(deal.half_points()) == 182
    assert example_or_text("Example-1") == EX1 and example_or_text("21") == "21"
    with pytest.raises(NotationError, match='no such example "example-7"'):
        example_or_text("example-7")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals_round_trip(players):
    for seed in range(60):
        deal = random_deal(seed, players)
        text = format_deal(deal)
        assert parse_deal(text) == deal
        assert format_deal(parse_deal(text)) == text
        assert parse_deal(format_deal_url(deal)) == deal
        assert "_" not in text and " " not in format_deal_url(deal)


def test_seat_marker_rotates_the_hands():
    hands = EX1[2:].split("/")[0].split(" ")
    chien = EX1.split("/")[1]
    rotated = "3:" + " ".join(hands[2:] + hands[:2]) + "/" + chien
    assert parse_deal(rotated) == parse_deal(EX1)
    assert parse_deal(EX1[2:]) == parse_deal(EX1)  # no marker: seat 1 first
    assert parse_deal("1:" + "_".join(hands) + "/" + chien) == parse_deal(EX1)


def test_partial_deal():
    hands = EX1[2:].split("/")[0].split(" ")
    deal = parse_deal(f"2:{hands[1]} - - -/?")
    assert isinstance(deal, FrenchPartialDeal)
    assert deal.hands[1] == parse_hand(hands[1]) and deal.hands[0] is None
    assert deal.chien is None and deal.unknown_mask().bit_count() == 60
    assert format_deal(deal) == f"1:- {hands[1]} - -/?"
    assert parse_deal(format_deal(deal)) == deal
    with pytest.raises(DealError, match="unknown parts"):
        deal.to_deal()
    assert parse_deal(EX1.split("/")[0] + "/?").hands == parse_deal(EX1).hands


def replace_card(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_a_77_card_deal_names_the_missing_card():
    short = replace_card(EX1, ".KT921.", ".KT92.")  # hand 1 loses ♠1
    with pytest.raises(DealError) as info:
        parse_deal(short)
    assert info.value.messages == [
        "the deal has 77 cards; a French Tarot deal has 78 (4 hands of 18 and a chien of 6); "
        "missing: S1 (♠1).",
        "hand 1 has 17 cards; at 4 players every hand needs 18 (4 hands of 18 and a chien of 6).",
    ]


def test_a_duplicate_names_the_card_and_where():
    dup = replace_card(EX1, "C5,C2", "C5,SK")  # ♠K is in hand 1 too; ♣2 is gone
    with pytest.raises(DealError) as info:
        parse_deal(dup)
    assert info.value.messages == ["card SK (♠K) appears twice: in hand 1 and in the chien.",
                                   "missing from the deal: C2 (♣2)."]


def test_wrong_hand_size_names_the_seat():
    moved = replace_card(EX1, " 16,13,8,5,4,3.J84.", " 16,13,8,5,4,3.J8.")
    moved = replace_card(moved, "17,10,E.Q3.", "17,10,E.Q43.")  # ♠4 moves from 3 to 4
    with pytest.raises(DealError) as info:
        parse_deal(moved)
    assert info.value.messages == [
        "hand 3 has 17 cards; at 4 players every hand needs 18 (4 hands of 18 and a chien of 6).",
        "hand 4 has 19 cards; at 4 players every hand needs 18 (4 hands of 18 and a chien of 6).",
    ]


@pytest.mark.parametrize("text,first", [
    ("", "the deal is empty"),
    (EX1.replace("/", " "), 'missing "/" between the hands and the chien'),
    (EX1 + "/", 'the deal has 2 "/"'),
    (EX1.replace(" ", " - - ", 1), 'a French Tarot deal needs 3, 4 or 5 hands before the "/"; '
                                   "found 6."),
    ("6:" + EX1[2:], 'unknown seat "6:"; at 4 players the seats are 1, 2, 3, 4.'),
    (EX1.replace("T9,T2", "T9,T22"), 'unknown card "T22" in the chien'),
    (EX1.replace("21,20,12,7,6.765.841.75.JT941", "?"), 'hand 2: write "-" for an unknown hand'),
    (EX1.replace(".765.841.75.JT941", ""), 'hand 2: "21,20,12,7,6" is not a hand in compact '
                                           "form"),
    (EX1.replace("KQCJT95", "KQCJT9X"), 'hand 4, ♥ field "KQCJT9X": "X" is not a heart rank'),
])
def test_bad_deals(text, first):
    with pytest.raises(NotationError) as info:
        parse_deal(text)
    assert str(info.value).splitlines()[0].startswith(first), str(info.value)


def test_three_hand_deal_is_read_as_three_players():
    deal = random_deal(5, 3)
    text = format_deal(deal)
    assert text.count(" ") == 2 and parse_deal(text).players == 3
    # Four hands of a three-player deal: the sizes are wrong for four players.
    with pytest.raises(DealError, match="at 4 players every hand needs 18"):
        parse_deal(text.replace("/", " -/"))


def test_contracts():
    for text, name in [("petite", "petite"), ("Prise", "petite"), ("P", "petite"),
                       ("GARDE", "garde"), ("g", "garde"), ("Garde sans", "garde_sans"),
                       ("garde-sans", "garde_sans"), ("GS", "garde_sans"),
                       ("garde_contre", "garde_contre"), ("Garde Contre", "garde_contre"),
                       ("gc", "garde_contre")]:
        assert parse_contract(text) == name, text
    with pytest.raises(NotationError, match='unknown contract "gardee"; expected petite, garde, '
                                            "garde_sans or garde_contre"):
        parse_contract("gardee")


# ---------------------------------------------------------------------------
# The document's examples are what the code reads and writes
# ---------------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "FRENCH_NOTATION.md"


def test_the_document_examples_read_as_documented():
    if not DOC.exists():
        pytest.skip("docs/FRENCH_NOTATION.md is not in this checkout")
    spec = DOC.read_text(encoding="utf-8")
    assert EX1 in spec and HAND in spec
    free, ids_line = spec.split("can be typed as\n\n```\n")[1].split("\n```")[0].splitlines()
    assert parse_hand(free) == parse_hand(ids_line) == parse_hand(HAND)
    assert format_cards(parse_hand(HAND)) == ids_line
    for line in spec.splitlines():
        if line.startswith('{"id":"club-4"'):
            record = json.loads(line)
            assert record["deal"] == EX1 and record["discard"] == [
                "SC", "H9", "H5", "C8", "C5", "C2"]
    for token in ("Roi de cœur", "Dame de carreau", "King of hearts", "Pique-Roi", "K♠", "10♥",
                  "C♣", "CD", "DD", "SR", "SV", "ST"):
        parse_card(token)
