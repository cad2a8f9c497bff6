"""French Tarot rules: profiles and options, contract names, poignées, legal chien discards.

Sources of the rules tested here: docs/FRENCH_TAROT.md, section "Sources".
"""

from __future__ import annotations

import pytest

from tarock_solver.errors import RulesError
from tarock_solver.french.cards import INDEX_OF, mask_of
from tarock_solver.french.chien import (
    DiscardError,
    check_discard,
    discard_pool,
    legal_discards,
    trumps_to_show,
)
from tarock_solver.french.rules import (
    Contract,
    Poignee,
    load_rules,
    poignee_of,
    profile_names,
)


def cards(text: str) -> int:
    return mask_of(INDEX_OF[c] for c in text.split())


# ------------------------------------------------------------------ profiles and options


def test_fft_profile_defaults() -> None:
    rules = load_rules("fft", None)
    assert profile_names() == ("fft",)
    assert (rules.players, rules.hand_size, rules.chien_size) == (4, 18, 6)
    assert rules.excuse_last_trick == "changes_side"
    assert rules.petit_au_bout == "multiplied"
    assert rules.poignee_values == (20, 30, 40)
    assert rules.chelem_values == (400, 200, 200, 200)
    assert rules.overrides == () and rules.describe_overrides() == ""


@pytest.mark.parametrize(("players", "hand", "chien", "trumps"), [
    (3, 24, 6, (13, 15, 18)), (4, 18, 6, (10, 13, 15)), (5, 15, 3, (8, 10, 13))])
def test_players_set_the_deal_and_the_poignees(players, hand, chien, trumps) -> None:
    rules = load_rules("FFT", {"players": players})
    assert (rules.hand_size, rules.chien_size) == (hand, chien)
    assert tuple(rules.poignee_trumps(lv) for lv in Poignee) == trumps


def test_overrides_are_recorded_and_shown() -> None:
    rules = load_rules("fft", {"excuse_last_trick": "kept", "poignee_values": "20,40,60",
                               "players": "4"})
    assert rules.excuse_last_trick == "kept" and rules.poignee_value("double") == 40
    # players=4 is the profile's own value: not an override.
    assert rules.describe_overrides() == "excuse_last_trick=kept,poignee_values=20,40,60"
    assert "  excuse_last_trick  kept             overridden" in rules.describe()


@pytest.mark.parametrize(("name", "options", "names"), [
    ("ffft", None, ['"ffft"', "fft"]),
    ("fft", {"bogus": "1"}, ['"bogus"', "players"]),
    ("fft", {"players": "6"}, ['"6"', "players", "3 | 4 | 5"]),
    ("fft", {"excuse_last_trick": "lost"}, ['"lost"', "changes_side | kept"]),
    ("fft", {"petit_au_bout": "double"}, ['"double"', "multiplied | flat"]),
    ("fft", {"poignee_values": "20,30"}, ['"20,30"', "3 whole numbers"]),
    ("fft", {"chelem_values": "400,200,-200,200"}, ["chelem_values", "A,U,F,D"]),
])
def test_bad_profile_key_or_value_names_it(name, options, names) -> None:
    with pytest.raises(RulesError) as err:
        load_rules(name, options)
    for text in names:
        assert text in str(err.value)


def test_describe_names_the_rules() -> None:
    text = load_rules("fft", {"players": 5}).describe()
    assert "15 cards each, a chien of 3" in text
    assert "simple 8 trumps 20, double 10 30, triple 13 40" in text
    assert "taker alone 4 ×" in text
    assert "changes side" in text


# ------------------------------------------------------------------------- contracts


@pytest.mark.parametrize(("text", "contract"), [
    ("petite", Contract.PETITE), ("Prise", Contract.PETITE), ("small", Contract.PETITE),
    ("garde", Contract.GARDE), ("GUARD", Contract.GARDE),
    ("garde-sans", Contract.GARDE_SANS), ("gs", Contract.GARDE_SANS),
    ("garde sans", Contract.GARDE_SANS), ("garde_sans", Contract.GARDE_SANS),
    ("Garde sans le chien", Contract.GARDE_SANS), ("guard without", Contract.GARDE_SANS),
    ("garde contre", Contract.GARDE_CONTRE), ("gc", Contract.GARDE_CONTRE),
    ("guard against the dog", Contract.GARDE_CONTRE), ("garde_contre", Contract.GARDE_CONTRE),
])
def test_contract_names(text, contract) -> None:
    assert Contract.parse(text) is contract


def test_contract_properties() -> None:
    assert [c.multiplier for c in Contract] == [1, 2, 4, 6]
    assert [c.value for c in Contract] == ["petite", "garde", "garde_sans", "garde_contre"]
    assert [c.exchanges for c in Contract] == [True, True, False, False]
    assert [c.chien_to for c in Contract] == ["taker", "taker", "taker", "defence"]


def test_unknown_contract_names_it() -> None:
    with pytest.raises(RulesError, match='"garde double".*petite, garde, garde_sans'):
        Contract.parse("garde double")


# -------------------------------------------------------------------------- poignées

TEN_TRUMPS = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10"


def test_poignee_levels_by_players() -> None:
    hand = cards(TEN_TRUMPS + " T11 T12 T13 S1 S2")
    assert poignee_of(cards(TEN_TRUMPS), hand, 4) is Poignee.SIMPLE
    assert poignee_of(cards(TEN_TRUMPS + " T11 T12 T13"), hand, 4) is Poignee.DOUBLE
    assert poignee_of(cards(TEN_TRUMPS), hand, 5) is Poignee.DOUBLE
    with pytest.raises(RulesError, match="13, 15 or 18 trumps"):
        poignee_of(cards(TEN_TRUMPS), hand, 3)


def test_excuse_only_in_place_of_a_missing_trump() -> None:
    nine = "T1 T2 T3 T4 T5 T6 T7 T8 T9"
    # Nine trumps and the Excuse: the Excuse stands in for the tenth.
    assert poignee_of(cards(nine + " EX"), cards(nine + " EX S1"), 4) is Poignee.SIMPLE
    # With a tenth trump hidden, the Excuse may not be shown.
    with pytest.raises(RulesError, match="Excuse may be shown only in place"):
        poignee_of(cards(nine + " EX"), cards(nine + " T10 EX"), 4)


def test_poignee_shows_trumps_from_the_hand() -> None:
    with pytest.raises(RulesError, match="only trumps"):
        poignee_of(cards("T1 T2 T3 T4 T5 T6 T7 T8 T9 SK"), cards(TEN_TRUMPS + " SK"), 4)
    with pytest.raises(RulesError, match="not in the hand"):
        poignee_of(cards(TEN_TRUMPS), cards("T1 T2"), 4)


# ----------------------------------------------------------------------- chien discards

#: A four-player hand with the chien: 24 cards, of them 6 free suit cards.
HAND = cards("T1 T21 EX T2 T3 T4 T5 T6 T7 T8 "
             "SK HK DK CK SQ S1 S2 S3 S4 S5 H1 CQ CC CJ")


def test_discard_pool_and_trumps_to_show() -> None:
    free, trumps = discard_pool(HAND)
    assert free == cards("SQ S1 S2 S3 S4 S5 H1 CQ CC CJ")
    assert trumps == cards("T2 T3 T4 T5 T6 T7 T8")
    assert trumps_to_show(HAND, 4) == 0
    short = cards("T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 "
                  "SK HK DK CK S1 S2 S3 S4")
    assert trumps_to_show(short, 4) == 2


def test_legal_discard_passes() -> None:
    check_discard(HAND, cards("S1 S2 S3 S4 S5 H1"), 4)
    check_discard(HAND, cards("SQ CQ CC CJ S1 H1"), 4)


@pytest.mark.parametrize(("discard", "words"), [
    ("SK S1 S2 S3 S4 S5", ["SK", "a King may not be discarded"]),
    ("T1 S1 S2 S3 S4 S5", ["T1", "an oudler"]),
    ("EX S1 S2 S3 S4 S5", ["EX", "an oudler"]),
    ("T21 S1 S2 S3 S4 S5", ["T21", "an oudler"]),
    ("T2 S1 S2 S3 S4 S5", ["T2", "only when no other card can be", "H1"]),
    ("S1 S2 S3 S4 S5", ["holds 5 cards", "it holds 6"]),
    ("D1 S1 S2 S3 S4 S5", ["D1", "not in the hand"]),
])
def test_illegal_discard_names_the_card_and_the_rule(discard, words) -> None:
    with pytest.raises(DiscardError) as err:
        check_discard(HAND, cards(discard), 4)
    assert isinstance(err.value, RulesError)
    for word in words:
        assert word in str(err.value)


def test_trumps_when_unavoidable() -> None:
    short = cards("T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 "
                  "SK HK DK CK S1 S2 S3 S4")
    check_discard(short, cards("S1 S2 S3 S4 T2 T3"), 4)
    with pytest.raises(DiscardError, match="T2 T3 T4.*S4 could"):
        check_discard(short, cards("S1 S2 S3 T2 T3 T4"), 4)
    found = list(legal_discards(short, 4))
    assert len(found) == 78  # C(13, 2): the four suit cards and two of 13 plain trumps
    for discard in found:
        check_discard(short, discard, 4)


def test_legal_discards_five_players_and_count() -> None:
    hand = cards("T1 T2 T3 SK S1 S2 S3 S4 H1 H2 D1 D2 C1 C2 CQ CK HK DK")
    found = list(legal_discards(hand, 5))
    free, _ = discard_pool(hand)
    assert len(found) == 165  # C(11, 3)
    assert all(d & ~free == 0 for d in found)
    check_discard(hand, cards("S1 S2 S3"), 5)
    with pytest.raises(DiscardError, match="it holds 3"):
        check_discard(hand, cards("S1 S2 S3 S4 H1 H2"), 5)


def test_the_discard_count_is_the_number_listed() -> None:
    from tarock_solver.french.chien import legal_discard_count, legal_discards
    from tarock_solver.french.deal import random_deal

    for seed in range(6):
        deal = random_deal(seed)
        for seat in range(4):
            full = deal.hands[seat] | deal.chien
            assert legal_discard_count(full) == sum(1 for _ in legal_discards(full))
    # a hand with too few free cards: trumps make up the rest
    trumps = sum(1 << t for t in range(1, 20))
    few = trumps | (1 << 22) | (1 << 23)
    assert legal_discard_count(few) == sum(1 for _ in legal_discards(few)) > 0
