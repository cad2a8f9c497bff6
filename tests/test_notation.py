"""Card tokens, hands and deal notation (NOTATION.md sections 1-3 and 7)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_solver.cards import CARD_IDS, FULL_MASK, INDEX_OF
from tarock_solver.deal import Deal, PartialDeal
from tarock_solver.errors import DealError, NotationError, TarockError
from tarock_solver.notation import (
    accepted_spellings,
    card_id,
    card_label,
    describe_card,
    format_cards,
    format_deal,
    format_deal_url,
    format_hand,
    normalize_token,
    parse_card,
    parse_cards,
    parse_deal,
    parse_hand,
    parse_talon,
)

NOTATION = Path(__file__).resolve().parents[1] / "docs" / "NOTATION.md"

EXAMPLE_1 = ("F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9 13,3.JA2.CJA24.QCJT.CJ "
             "22,18,17,14,11,9,8,6,4.Q34.3.8.87/T12,T19,T10,CK,C10,HC")
EXAMPLE_1_M = ("M:13,3.JA2.CJA24.QCJT.CJ 22,18,17,14,11,9,8,6,4.Q34.3.8.87 "
               "21,20,16,15,7,5,2,1.K.KQ.K97.Q9/T12,T19,T10,CK,C10,HC")
EXAMPLE_1_URL = ("F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9_13,3.JA2.CJA24.QCJT.CJ_"
                 "22,18,17,14,11,9,8,6,4.Q34.3.8.87/T12,T19,T10,CK,C10,HC")
EXAMPLE_2 = ("F:21,19,11,10,8,6,5,2,1.QA4.2.C.Q9 22,14,13,12,7,3.J3.Q4.JT97.CT "
             "17,16,15,9.C2.KCJ.KQ8.KJ87/D3,HK,T4,T20,DA,T18")
EXAMPLE_3 = ("F:22,21,16,10,8,7,2..QA23.7.KJ87 20,13,12,11,9,1.QC24.K.CJT9.Q "
             "19,18,17,15,14,6,5,4,3.KA3.C.K8.T/D4,DJ,SQ,C9,CC,HJ")
F_HAND = "21,20,16,15,7,5,2,1.K.KQ.K97.Q9"


def ids(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= 1 << INDEX_OF[name]
    return mask


# ---------------------------------------------------------------------------
# The expansion of NOTATION 1.2, written out here from the tables (not from the code)
# ---------------------------------------------------------------------------

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
         "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII"]
ROMAN_ADDITIVE = {"IIII": 4, "VIIII": 9, "XIIII": 14, "XVIIII": 19}
NAMES = {"Pagat": 1, "Spatz": 1, "Uhu": 2, "Kakadu": 3, "Kike": 3, "Marabu": 4, "Mond": 21,
         "Sküs": 22, "Skus": 22, "Skues": 22, "Gstieß": 22, "Gstiess": 22, "Skis": 22,
         "Škis": 22, "Excuse": 22, "Fool": 22}
SUITS = {"H": ["H", "♥", "♡", "Herz", "Heart", "Hearts"],
         "D": ["D", "♦", "♢", "Karo", "Diamond", "Diamonds"],
         "S": ["S", "♠", "♤", "Pik", "Spade", "Spades"],
         "C": ["C", "♣", "♧", "Treff", "Kreuz", "Club", "Clubs"]}
SYMBOLS = set("♥♡♦♢♠♤♣♧")
FACES = {"K": ["K", "King", "König", "Koenig"],
         "Q": ["Q", "D", "Queen", "Dame"],
         "C": ["C", "Cavall", "Cavalier", "Reiter", "Knight"],
         "J": ["J", "B", "V", "Jack", "Bube", "Bub", "Valet", "Knave"]}
RED_PIPS = {"A": ["A", "1", "Ace", "Ass"], "2": ["2"], "3": ["3"], "4": ["4"]}
BLACK_PIPS = {"10": ["10", "T", "Z", "Ten"], "9": ["9"], "8": ["8"], "7": ["7"]}


def spec_expansion() -> dict[str, str]:
    """Every accepted spelling (one case) -> canonical id; fails on a spelling with two cards."""
    table: dict[str, str] = {}

    def add(spelling: str, cid: str) -> None:
        assert table.setdefault(spelling, cid) == cid, f"{spelling} names two cards"

    for n in range(1, 23):
        for form in (str(n), f"T{n}", ROMAN[n - 1]):
            add(form, f"T{n}")
        if n < 10:
            add(f"T0{n}", f"T{n}")
    for form, n in ROMAN_ADDITIVE.items():
        add(form, f"T{n}")
    for name, n in NAMES.items():
        add(name, f"T{n}")
    for suit, suit_forms in SUITS.items():
        ranks = {**FACES, **(RED_PIPS if suit in "HD" else BLACK_PIPS)}
        for rank, rank_forms in ranks.items():
            for s in suit_forms:
                for r in rank_forms:
                    for sep in ("", "-", "_"):
                        add(s + sep + r, suit + rank)
                        if s in SYMBOLS:
                            add(r + sep + s, suit + rank)
    return table


EXPANSION = spec_expansion()


def test_expansion_is_large_and_unambiguous():
    # spec_expansion() itself asserts that no spelling maps to two cards.
    assert len(EXPANSION) > 1700
    assert set(EXPANSION.values()) == set(CARD_IDS)


def test_every_spelling_parses_to_its_card():
    wrong = {s: card_id(parse_card(s)) for s, cid in EXPANSION.items()
             if card_id(parse_card(s)) != cid}
    assert wrong == {}


def test_code_accepts_exactly_the_spec_spellings():
    assert set(accepted_spellings()) == {normalize_token(s) for s in EXPANSION}


def test_case_umlauts_and_variation_selectors():
    rng = random.Random(1)
    for spelling, cid in rng.sample(sorted(EXPANSION.items()), 300):
        for variant in (spelling.upper(), spelling.lower(), spelling.title()):
            assert card_id(parse_card(variant)) == cid, variant
    assert card_id(parse_card("K♥\ufe0f")) == "HK"
    assert card_id(parse_card("♠\ufe0e10")) == "S10"
    assert card_id(parse_card("GSTIEẞ")) == "T22"
    assert card_id(parse_card("ŠKIS")) == "T22"
    assert card_id(parse_card("Herz-König")) == "HK"
    assert card_id(parse_card("  sk ")) == "SK"
    # Decomposed umlaut (u + combining diaeresis) is composed first.
    assert card_id(parse_card("Sku\u0308s")) == "T22"


@pytest.mark.parametrize("token,cid", [
    ("1", "T1"), ("10", "T10"), ("21", "T21"), ("22", "T22"), ("T7", "T7"), ("T07", "T7"),
    ("t22", "T22"), ("007", "T7"), ("V", "T5"), ("HV", "HJ"), ("CC", "CC"), ("SC", "SC"),
    ("SK", "SK"), ("DD", "DQ"), ("XXII", "T22"), ("IIII", "T4"), ("Spatz", "T1"),
    ("Herz-Dame", "HQ"), ("S-10", "S10"), ("K♥", "HK"), ("10♠", "S10"), ("♥1", "HA"),
    ("HA", "HA"), ("H1", "HA"), ("CT", "C10"), ("CZ", "C10"), ("ClubsTen", "C10"),
    ("Karo_Ass", "DA"), ("Kreuz-Bube", "CJ"),
])
def test_examples_of_section_1(token, cid):
    assert card_id(parse_card(token)) == cid


def test_card_ids_and_labels():
    assert [card_id(i) for i in range(54)] == list(CARD_IDS)
    assert card_label(INDEX_OF["T22"]) == "Sküs"
    assert card_label(INDEX_OF["T22"], ascii=True) == "Skus"
    assert card_label(INDEX_OF["T21"]) == "XXI"
    assert card_label(INDEX_OF["T19"]) == "XIX"
    assert card_label(INDEX_OF["HK"]) == "♥K"
    assert card_label(INDEX_OF["HK"], ascii=True) == "HK"
    assert card_label(INDEX_OF["HA"]) == "♥1"
    assert card_label(INDEX_OF["C10"]) == "♣10"
    assert describe_card(INDEX_OF["S9"]) == "S9 (♠9)"
    for i in range(54):
        # Labels are accepted input, so they can be pasted back.
        assert parse_card(card_label(i)) == i
        assert parse_card(card_label(i, ascii=True)) == i
        assert parse_card(card_id(i)) == i
    with pytest.raises(ValueError):
        card_id(54)


def test_format_cards_canonical_order():
    order = "T22 T1 HK H4 DK SK S10 S7 CK C7"
    shuffled = [INDEX_OF[c] for c in ("C7", "T1", "S10", "HK", "T22", "CK", "S7", "DK", "H4",
                                      "SK")]
    assert format_cards(shuffled) == order
    assert format_cards(ids(*order.split())) == order
    assert format_cards(0) == ""


# ---------------------------------------------------------------------------
# Card token errors (NOTATION 7)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("token,message", [
    ("H7", 'unknown card "H7": hearts is a red suit; its pips are 1 2 3 4 (1 may be written A). '
           "Did you mean S7 or C7?"),
    ("S2", 'unknown card "S2": spades is a black suit; its pips are 10 9 8 7. '
           "Did you mean H2 or D2?"),
    ("D10", 'unknown card "D10": diamonds is a red suit; its pips are 1 2 3 4 (1 may be written '
            "A). Did you mean S10 or C10?"),
    ("7♥", 'unknown card "7♥": hearts is a red suit; its pips are 1 2 3 4 (1 may be written A). '
           "Did you mean S7 or C7?"),
    ("HR", '"HR" is ambiguous: R means Reiter (Cavall) in German but Roi (King) on French '
           "packs. Write HC for the Cavall or HK for the King."),
    ("R♠", '"R♠" is ambiguous: R means Reiter (Cavall) in German but Roi (King) on French '
           "packs. Write SC for the Cavall or SK for the King."),
    ("23", 'unknown card "23": tarocks are numbered 1 to 22 (22 = Sküs).'),
    ("T0", 'unknown card "T0": tarocks are numbered 1 to 22 (22 = Sküs).'),
    ("XXIII", 'unknown card "XXIII": tarocks are numbered 1 to 22 (22 = Sküs).'),
    ("Q♠x", 'unknown card "Q♠x".'),
    ("KH", 'unknown card "KH". Did you mean HK?'),
    ("10S", 'unknown card "10S". Did you mean S10?'),
])
def test_card_errors(token, message):
    with pytest.raises(NotationError) as info:
        parse_card(token)
    assert str(info.value) == message


def test_card_error_names_the_place():
    with pytest.raises(NotationError, match=r'^unknown card "Q♠x" in hand R\.$'):
        parse_card("Q♠x", where="hand R")
    with pytest.raises(NotationError, match=r'^unknown card "X1" at talon position 3\.$'):
        parse_card("X1", where="talon position 3")


def test_parse_cards_reports_all_bad_tokens():
    assert parse_cards(["T1", "HK", 21]) == [0, INDEX_OF["HK"], INDEX_OF["T21"]]
    with pytest.raises(NotationError) as info:
        parse_cards(["H7", "T1", "Q♠x"], where="hand M")
    assert info.value.messages == [
        'unknown card "H7" in hand M: hearts is a red suit; its pips are 1 2 3 4 '
        "(1 may be written A). Did you mean S7 or C7?",
        'unknown card "Q♠x" in hand M.']


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------

F_MASK = ids("T21", "T20", "T16", "T15", "T7", "T5", "T2", "T1", "HK", "DK", "DQ", "SK", "S9",
             "S7", "CQ", "C9")


def test_compact_and_free_forms_of_section_2():
    assert parse_hand(F_HAND) == F_MASK
    assert parse_hand("Mond XX 16 XV VII V Uhu Pagat ♥K ♦K ♦Q ♠K ♠9 ♠7 ♣Q ♣9") == F_MASK
    assert parse_hand("T21 T20 T16 T15 T7 T5 T2 T1 HK DK DQ SK S9 S7 CQ C9") == F_MASK
    assert parse_hand("T21,T20;T16, T15 T7 T5 T2 T1 HK DK DQ SK S9 S7 CQ C9") == F_MASK
    assert format_hand(F_MASK) == F_HAND


def test_compact_form_is_lenient_on_input():
    # Any order, lower case, 1 for A in red fields and 10 for T in black fields.
    assert parse_hand("1,2,5,7,15,16,20,21.k.qk.79k.9q") == F_MASK
    mask = parse_hand("3,13.1j2.4J1c2.10JQC.JC")
    assert format_hand(mask) == "13,3.JA2.CJA24.QCJT.CJ"
    # Stray spaces and empty tarock items are tolerated.
    assert parse_hand("21, 20,,16.K Q...", size=None) == ids("T21", "T20", "T16", "HK", "HQ")


def test_compact_void_fields_and_empty_hand():
    assert parse_hand("....", size=None) == 0
    assert format_hand(0) == "...."
    assert format_hand(ids("T22", "CK")) == "22....K"
    assert parse_hand(format_hand(FULL_MASK), size=None) == FULL_MASK


@given(st.sets(st.integers(0, 53), min_size=16, max_size=16))
def test_hand_round_trip(cards):
    mask = sum(1 << c for c in cards)
    text = format_hand(mask)
    assert text.count(".") == 4
    assert parse_hand(text) == mask
    assert format_hand(parse_hand(text)) == text


@given(st.sets(st.integers(0, 53), min_size=16, max_size=16), st.randoms(use_true_random=False))
def test_free_form_with_random_spellings(cards, rnd):
    spellings: dict[str, list[str]] = {}
    for spelling, cid in EXPANSION.items():
        spellings.setdefault(cid, []).append(spelling)
    tokens = [rnd.choice(spellings[CARD_IDS[c]]) for c in cards]
    rnd.shuffle(tokens)
    sep = rnd.choice([" ", ", ", ";", "  "])
    assert parse_hand(sep.join(tokens)) == sum(1 << c for c in cards)


@pytest.mark.parametrize("text,where,message", [
    ("21,20.K.KQ.K97", "hand M", "hand M: the compact form needs 5 fields separated by dots "
                                 "(tarocks.♥.♦.♠.♣); found 4."),
    ("22,18.Q34.KQ9.8.87", "hand R", 'hand R, ♦ field "KQ9": 9 is not a diamond; red pips are '
                                     "A 2 3 4."),
    ("22.Q.K.K2.8", "hand F", 'hand F, ♠ field "K2": 2 is not a spade; black pips are T 9 8 7 '
                              "(T or 10 for the ten)."),
    ("22.QR.K.K.8", "hand F", 'hand F, ♥ field "QR": R is ambiguous (Reiter = Cavall in German, '
                              "Roi = King on French packs); write C for the Cavall or K for the "
                              "King."),
    ("22.KK...", "", '♥ field "KK": K appears twice.'),
    ("23,1....", "hand F", 'hand F, tarock field "23,1": 23 is out of range; tarocks are numbered '
                           "1 to 22 (22 = Sküs)."),
    ("2x....", "", 'tarock field "2x": "2x" is not a tarock number; tarocks are numbered 1 to 22 '
                   "(22 = Sküs)."),
    ("HK T1 HK", "hand M", "card HK (♥K) appears twice in hand M."),
])
def test_hand_errors(text, where, message):
    with pytest.raises(NotationError) as info:
        parse_hand(text, size=None, where=where)
    assert info.value.messages == [message]


def test_hand_error_has_caret_under_token():
    with pytest.raises(NotationError) as info:
        parse_hand("T1 Q♠x HK", size=None, where="hand R")
    assert str(info.value) == ('unknown card "Q♠x" in hand R.\n'
                               "  T1 Q♠x HK\n"
                               "     ^^^")


def test_hand_size():
    with pytest.raises(DealError, match=re.escape(
            "hand F has 15 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54).")):
        parse_hand("21,20,16,15,7,5,2,1.K.KQ.K97.Q", where="hand F")
    with pytest.raises(DealError, match="^the hand has 17 cards"):
        parse_hand(F_HAND + "8")
    # Mid-play positions ask for a smaller size.
    assert parse_hand("21,20.K...", size=3) == ids("T21", "T20", "HK")
    with pytest.raises(DealError, match="^hand M has 3 cards; expected 2.$"):
        parse_hand("21,20.K...", size=2, where="hand M")


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [EXAMPLE_1, EXAMPLE_2, EXAMPLE_3])
def test_worked_examples_round_trip_byte_exact(text):
    deal = parse_deal(text)
    assert isinstance(deal, Deal)
    assert format_deal(deal) == text
    assert format_deal_url(deal) == text.replace(" ", "_")


def test_worked_examples_are_in_the_spec():
    if not NOTATION.exists():
        pytest.skip("docs/NOTATION.md is not in this checkout")
    spec = NOTATION.read_text(encoding="utf-8")
    for text in (EXAMPLE_1, EXAMPLE_1_M, EXAMPLE_1_URL, EXAMPLE_2, EXAMPLE_3):
        assert text in spec


def test_example_1_other_forms():
    deal = parse_deal(EXAMPLE_1)
    assert parse_deal(EXAMPLE_1_M) == deal
    assert parse_deal(EXAMPLE_1_URL) == deal
    assert parse_deal(EXAMPLE_1.removeprefix("F:")) == deal
    assert format_deal(parse_deal(EXAMPLE_1_M)) == EXAMPLE_1
    assert deal.hand("F") == F_MASK
    assert deal.talon == tuple(INDEX_OF[c] for c in ("T12", "T19", "T10", "CK", "C10", "HC"))


def _rotated(deal: Deal, first: int, sep: str) -> str:
    hands = [format_hand(deal.hands[(first + k) % 3]) for k in range(3)]
    talon = ",".join(CARD_IDS[c] for c in deal.talon)
    return "FMR"[first] + ":" + sep.join(hands) + "/" + talon


deals = st.permutations(range(54)).map(
    lambda p: Deal(hands=tuple(sum(1 << c for c in p[16 * s:16 * s + 16]) for s in range(3)),
                   talon=tuple(p[48:])))


@settings(max_examples=60)
@given(deals, st.sampled_from([0, 1, 2]), st.sampled_from([" ", "_", "   "]))
def test_deal_round_trip(deal, first, sep):
    text = format_deal(deal)
    assert text.startswith("F:")
    assert parse_deal(text, warn=False) == deal
    assert parse_deal(format_deal_url(deal), warn=False) == deal
    assert parse_deal(_rotated(deal, first, sep), warn=False) == deal
    assert format_deal(parse_deal(_rotated(deal, first, sep), warn=False)) == text


@settings(max_examples=40)
@given(deals, st.lists(st.booleans(), min_size=4, max_size=4))
def test_partial_deal_round_trip(deal, hide):
    hands = tuple(None if hide[s] else deal.hands[s] for s in range(3))
    talon = None if hide[3] else deal.talon
    partial = PartialDeal(hands=hands, talon=talon)
    text = format_deal(partial)
    parsed = parse_deal(text, warn=False)
    if any(hide):
        assert parsed == partial
    else:
        assert parsed == deal
    assert format_deal(parsed) == text


def test_advice_input_forms():
    forehand = parse_deal(f"F:{F_HAND} - -/?")
    assert isinstance(forehand, PartialDeal)
    assert forehand.hands == (F_MASK, None, None) and forehand.talon is None
    middle = parse_deal(f"F:- {F_HAND} -/?")
    assert middle.hands == (None, F_MASK, None)
    assert parse_deal(f"M:{F_HAND} - -/?").hands == (None, F_MASK, None)
    assert parse_deal(f"R:{F_HAND}_-_-/?").hands == (None, None, F_MASK)
    assert format_deal(forehand) == f"F:{F_HAND} - -/?"


def test_talon_parsing():
    assert parse_talon("T12,T19,T10,CK,C10,HC") == parse_deal(EXAMPLE_1).talon
    assert parse_talon("XII XIX X ♣K ♣10 ♥C") == parse_deal(EXAMPLE_1).talon
    assert parse_talon(" ? ") is None
    with pytest.raises(NotationError, match=re.escape(
            "the talon must list 6 cards in table order (t1 … t6); found 5.")):
        parse_talon("T12,T19,T10,CK,C10")


# ---------------------------------------------------------------------------
# Deal errors (NOTATION 7)
# ---------------------------------------------------------------------------

HANDS_1 = EXAMPLE_1[2:].split("/")[0]


def messages_of(text: str, **kwargs) -> tuple[type, list[str]]:
    with pytest.raises(TarockError) as info:
        parse_deal(text, **kwargs)
    return type(info.value), info.value.messages


def test_too_few_cards():
    kind, messages = messages_of(EXAMPLE_1.replace("K97.Q9 ", "K7.Q9 "))
    assert kind is DealError
    assert messages == ["hand F has 15 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54).",
                        "Missing from the deal: S9 (♠9)."]


def test_seventeen_cards():
    kind, messages = messages_of(EXAMPLE_1.replace("Q9 ", "Q98 ", 1))
    assert kind is DealError
    assert messages == [
        "hand F has 17 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54).",
        "card C8 (♣8) appears twice: in hand F and in hand R."]


def test_duplicate_card():
    # M holds ♥K instead of ♥J and the talon's t2 is ♥K instead of XIX.
    text = EXAMPLE_1.replace("13,3.JA2", "13,3.KA2").replace("T12,T19", "T12,HK")
    text = text.replace(".K.KQ", "..KQ").replace("21,20,16", "21,20,19,16")
    kind, messages = messages_of(text)
    assert kind is DealError
    assert messages == ["card HK (♥K) appears twice: in hand M and at talon position 2.",
                        "the deal has 53 different cards; missing: HJ (♥J)."]


def test_cards_missing_overall():
    kind, messages = messages_of(EXAMPLE_1.replace("C10,HC", "C10,CK"))
    assert kind is DealError
    assert messages == [
        "card CK (♣K) appears twice: at talon position 4 and at talon position 6.",
        "the deal has 53 different cards; missing: HC (♥C)."]


def test_unknown_token_with_caret():
    text = EXAMPLE_1.replace("C10,HC", "Q♠x,HC")
    with pytest.raises(NotationError) as info:
        parse_deal(text)
    lines = str(info.value).split("\n")
    assert lines[0] == 'unknown card "Q♠x" at talon position 5.'
    assert lines[1] == "  " + text
    assert lines[2] == " " * (2 + text.index("Q♠x")) + "^^^"


def test_free_form_hand_in_deal_with_unknown_token():
    free = "T21,T20,T16,T15,T7,T5,T2,T1,HK,DK,DQ,SK,S9,S7,CQ,Q♠x"
    text = EXAMPLE_1.replace("R:", "").replace("21,20,16,15,7,5,2,1.K.KQ.K97.Q9", free)
    with pytest.raises(NotationError) as info:
        parse_deal(text)
    assert info.value.messages == ['unknown card "Q♠x" in hand F.']
    assert info.value.spans == [(text.index("Q♠x"), text.index("Q♠x") + 3)]


@pytest.mark.parametrize("text,message", [
    (EXAMPLE_1.replace("K97.Q9 ", "K97 ", 1),
     "hand F: the compact form needs 5 fields separated by dots (tarocks.♥.♦.♠.♣); found 4."),
    (EXAMPLE_1.replace(".Q34.", ".KQ9."),
     'hand R, ♥ field "KQ9": 9 is not a heart; red pips are A 2 3 4.'),
    (EXAMPLE_1.replace("T12,T19,T10,CK,C10,HC", "T12,T19,T10,CK,C10"),
     "the talon must list 6 cards in table order (t1 … t6); found 5."),
    (EXAMPLE_1.split("/")[0] + "/",
     "the talon must list 6 cards in table order (t1 … t6); found 0."),
    ("F:" + " ".join(HANDS_1.split()[:2]) + "/T12,T19,T10,CK,C10,HC",
     'a deal needs 3 hands before the "/"; found 2.'),
    (EXAMPLE_1.replace("/", " "),
     'missing "/" between the hands and the talon; write "?" if the talon is unknown.'),
    ("N:" + EXAMPLE_1[2:],
     'unknown seat "N:"; seats are F (forehand), M (middlehand), R (rearhand = dealer).'),
    (EXAMPLE_1.replace("T12", "H7"),
     'unknown card "H7" at talon position 1: hearts is a red suit; its pips are 1 2 3 4 '
     "(1 may be written A). Did you mean S7 or C7?"),
    (EXAMPLE_1.replace("T12", "S2"),
     'unknown card "S2" at talon position 1: spades is a black suit; its pips are 10 9 8 7. '
     "Did you mean H2 or D2?"),
    (EXAMPLE_1.replace("HC", "HR"),
     '"HR" at talon position 6 is ambiguous: R means Reiter (Cavall) in German but Roi (King) '
     "on French packs. Write HC for the Cavall or HK for the King."),
    (EXAMPLE_1.replace("T12", "23"),
     'unknown card "23" at talon position 1: tarocks are numbered 1 to 22 (22 = Sküs).'),
    ("   ", 'the deal is empty; write three hands and the talon, for example '
           '"F:<hand> <hand> <hand>/<t1>,<t2>,<t3>,<t4>,<t5>,<t6>".'),
    (EXAMPLE_1 + "/T1", 'the deal has 2 "/"; only one "/" may separate the hands from the '
                        "talon."),
    (f"F:{F_HAND} ? -/?", 'hand M: write "-" for an unknown hand ("?" is for the talon).'),
])
def test_deal_notation_errors(text, message):
    kind, messages = messages_of(text)
    assert kind is NotationError
    assert messages == [message]


def test_all_problems_of_a_deal_are_reported_together():
    text = EXAMPLE_1.replace("T12", "H7").replace(".Q34.", ".KQ9.").replace("K97.Q9 ", "K9.Q9 ")
    kind, messages = messages_of(text)
    assert kind is NotationError
    assert messages == [
        'hand R, ♥ field "KQ9": 9 is not a heart; red pips are A 2 3 4.',
        'unknown card "H7" at talon position 1: hearts is a red suit; its pips are 1 2 3 4 '
        "(1 may be written A). Did you mean S7 or C7?",
        "hand F has 15 cards; every hand needs 16 (16 + 16 + 16 + 6 talon = 54)."]


def test_partial_deal_validity():
    with pytest.raises(DealError, match="^hand F has 15 cards"):
        parse_deal("F:21,20,16,15,7,5,2,1.K.KQ.K97.Q - -/?")
    with pytest.raises(DealError, match=re.escape("card T21 (XXI) appears twice: in hand F and "
                                                  "in hand M.")):
        parse_deal(f"F:{F_HAND} {F_HAND} -/?")
    # Duplicates against a given talon count too, but missing cards are fine.
    with pytest.raises(DealError, match=re.escape("appears twice: in hand F and at talon "
                                                  "position 1.")):
        parse_deal(f"F:{F_HAND} - -/T21,T19,T10,CK,C10,HC")


def test_no_validation_and_midplay():
    short = "F:21,20.K... 18,17.Q... 16,15.J.../T12,T19,T10,CK,C10,HC"
    with pytest.raises(DealError):
        parse_deal(short)
    deal = parse_deal(short, midplay=True)
    assert deal.hand("M") == ids("T18", "T17", "HQ")
    with pytest.raises(DealError, match="same number of cards"):
        parse_deal("F:21,20.K... 18,17.Q... 16.J.../T12,T19,T10,CK,C10,HC", midplay=True)
    loose = parse_deal("F:21.... 21.... -/?", validate=False)
    assert loose.hands == (ids("T21"), ids("T21"), None)


def test_tarockless_hand_warns_but_is_accepted():
    # F: I..XVI; M: XVII..Sküs, all spades, ♣7 ♣8; R: all hearts and diamonds; talon: clubs.
    text = ("F:16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1.... 22,21,20,19,18,17...KQCJT987.87 "
            ".KQCJA234.KQCJA234../CK,CQ,CC,CJ,C10,C9")
    with pytest.warns(UserWarning, match=re.escape(
            "hand R holds no tarock; at the table this deal would be redealt. "
            "Analysing it anyway.")):
        deal = parse_deal(text)
    assert deal.has_no_tarock_hand()
    assert format_deal(deal) == text
