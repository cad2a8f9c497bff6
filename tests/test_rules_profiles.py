"""Rule profiles and option keys (RULES.md 6, 12) and the option grammar (NOTATION 5.3).

The expected values are typed in from the RULES.md 12 table, column by column.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarock_solver.errors import RulesError, TarockError
from tarock_solver.rules import (
    ANNOUNCEMENT_NAMES,
    OPTION_KEYS,
    OPTION_SPECS,
    PROFILES,
    Rules,
    ValatRule,
    load_rules,
)
from tarock_solver.rules.scenario import Announcement, Option
from tarock_solver.scoring import format_option, parse_option

NA = None  # "—" in the RULES.md 12 table

# Every key of RULES.md 12, typed values, in the column order dummett / beck / ms2016 / loew.
TABLE_12: dict[str, tuple[object, object, object, object]] = {
    "game_values": ((3, 4, 3, 3, 3), (3, NA, 3, 3, 3), (3, NA, 5, 7, 10), (3, NA, 3, 3, 8)),
    "multipliers": ((1, 1, 2, 3, 8), (1, NA, 2, 3, 4), (1, NA, 2, 3, 4), (1, NA, 2, 3, 4)),
    "raised_game_values": (NA, (4, 5), NA, (4, 5)),
    "overshoot_base": ("target", "fixed35", "fixed35", "fixed35"),
    "point_target_mode": ("replace", "additive", "additive", "additive"),
    "lower_bonus_with_target": ("replace", NA, NA, NA),
    "graded_targets_cumulative": (False, False, True, False),
    "loew_target_suppresses_overshoot": (NA, NA, NA, False),
    "takeover_mode": ("lower_bid", "beck_once", "none", "loew_any"),
    "hold_rule": ("seniority", "takeover_only", "none", "takeover_only"),
    "solo_holdable": (True, False, False, False),
    "jump_bids": ("any", "any", "any", "any"),
    "bid_direction": ("ccw", "ccw", "ccw", "ccw"),
    "all_pass": ("trischaken", "redeal", "redeal", "redeal"),
    "birds": (((5, 10, 20), (10, 20, 40), (15, 30, 60)),
              ((5, 10, 20), (5, 10, 20), NA),
              ((5, 10, 20), NA, NA),
              ((5, 10, NA), (10, 20, NA), NA)),
    "bird_reserve": (True, False, False, False),
    "partner_capture": ("void", "void", "void", "void"),
    "defender_announcements": ("none", "hand_premiums", "none", "birds_individual"),
    "contra_step_before": (4, 2, 4, 2),
    "contra_step_after": (2, 2, 2, 2),
    "contra_max_level": (3, 3, 2, 3),
    "contra_scope": ("with_declarations", "separate", "with_declarations", "separate"),
    "contra_binds_partner": (True, True, True, True),
    "hand_bonuses": ((3, 1, 3), (4, 2, 5), (3, NA, 3), (3, 1, 3)),
    "hand_bonus_multiplied": (False, True, True, True),
    "hand_bonus_time": ("after_exchange",) * 4,
    "no_trull_no_kings": (((10, 20), (10, 20)), ((4, 8), (5, 10)), ((10, 20), (10, 20)), NA),
    "pre_no_cards_break": ("lose_game", "lose_bonus", "lose_bonus", NA),
    "valat": (ValatRule("none"), ValatRule("fixed", (12, 24, 48)),
              ValatRule("fixed", (20, 40, 80)), ValatRule("none")),
    "discard_tarock": ("forced_open",) * 4,
    "win_thirds": (107, 107, 107, 107),
    "redeal_no_tarock": (True, True, True, True),
    "trischaken_must_beat": (True, True, NA, NA),
    "trischaken_pagat_last": (True, True, NA, NA),
    "trischaken_talon": ("unused", "unused", NA, NA),
    "trischaken_value": (5, 5, NA, NA),
    "trischaken_trickless_bonus": (5, 5, NA, NA),
    "keep_talon_after_trischaken": (True, False, NA, NA),
    "series_target": (100, 100, 100, 100),
    "series_bonus": ("all_over",) * 4,
    "beck_variant": (NA, "de", NA, NA),
    "mondfang": ("off",) * 4,
}
NAMES = ("dummett", "beck", "ms2016", "loew")

# A valid value different from every profile's default, for each key (text form).
ALTERNATIVES: dict[str, str] = {
    "game_values": "FIT", "multipliers": "FIT", "raised_game_values": "6,7",
    "overshoot_base": "OTHER", "point_target_mode": "OTHER", "lower_bonus_with_target": "keep_plus1",
    "graded_targets_cumulative": "OTHER", "loew_target_suppresses_overshoot": "true",
    "takeover_mode": "OTHER", "hold_rule": "OTHER", "solo_holdable": "OTHER",
    "jump_bids": "one_step", "bid_direction": "cw", "all_pass": "graz_keep_talon",
    "birds": "1/2/3,4/5/6,7/8/9", "bird_reserve": "OTHER", "partner_capture": "fail",
    "defender_announcements": "OTHER", "contra_step_before": "forbidden",
    "contra_step_after": "3", "contra_max_level": "1", "contra_scope": "OTHER",
    "contra_binds_partner": "false", "hand_bonuses": "7,8,9", "hand_bonus_multiplied": "OTHER",
    "hand_bonus_time": "as_dealt", "no_trull_no_kings": "1/2,3/4", "pre_no_cards_break": "OTHER",
    "valat": "multiplier:6/12/-", "discard_tarock": "free_open", "win_thirds": "106",
    "redeal_no_tarock": "false", "trischaken_must_beat": "false",
    "trischaken_pagat_last": "false", "trischaken_talon": "last_trick",
    "trischaken_value": "7", "trischaken_trickless_bonus": "9",
    "keep_talon_after_trischaken": "OTHER", "series_target": "200",
    "series_bonus": "continue", "beck_variant": "en", "mondfang": "off",
}
OTHER_CHOICE = {
    "overshoot_base": {"target": "fixed35", "fixed35": "target"},
    "point_target_mode": {"replace": "additive", "additive": "replace"},
    "takeover_mode": {"lower_bid": "none", "beck_once": "loew_any", "none": "beck_once",
                      "loew_any": "lower_bid"},
    "hold_rule": {"seniority": "none", "takeover_only": "seniority", "none": "takeover_only"},
    "defender_announcements": {"none": "birds_individual", "hand_premiums": "none",
                               "birds_individual": "hand_premiums"},
    "contra_scope": {"with_declarations": "separate", "separate": "with_declarations"},
    "pre_no_cards_break": {"lose_game": "lose_bonus", "lose_bonus": "lose_game", None: "lose_game"},
}


@pytest.mark.parametrize("col, name", list(enumerate(NAMES)))
def test_profile_defaults_match_rules_table_12(col: int, name: str) -> None:
    rules = load_rules(name)
    assert rules.name == name
    for key, column in TABLE_12.items():
        assert getattr(rules, key) == column[col], key
        assert rules.option(key) == column[col]


def test_table_covers_every_option_key_in_order() -> None:
    assert tuple(TABLE_12) == OPTION_KEYS
    for profile in PROFILES.values():
        assert tuple(profile.options) == OPTION_KEYS


def test_default_profile_is_dummett() -> None:
    assert load_rules() == load_rules("dummett")
    assert load_rules(" Beck ").name == "beck"


def test_contracts_talon_g_and_m() -> None:
    d = load_rules("dummett")
    assert d.contracts == ("three", "lower", "two", "one", "solo")
    assert [d.talon_cards(c) for c in d.contracts] == [3, 3, 2, 1, 0]
    assert [d.game_value(c) for c in d.contracts] == [3, 4, 3, 3, 3]
    assert [d.multiplier(c) for c in d.contracts] == [1, 1, 2, 3, 8]
    ms = load_rules("ms2016")
    assert ms.contracts == ("three", "two", "one", "solo")
    assert [ms.game_value(c) for c in ms.contracts] == [3, 5, 7, 10]
    assert [load_rules("loew").game_value(c) for c in ms.contracts] == [3, 3, 3, 8]
    with pytest.raises(RulesError, match='"lower" does not exist in the beck profile; choose one '
                                         "of: three, two, one, solo"):
        load_rules("beck").game_value("lower")


def test_raised_levels() -> None:
    beck = load_rules("beck")
    assert beck.levels("three") == ("taken", "held")
    assert (beck.game_value("three", "taken"), beck.game_value("three", "held")) == (4, 5)
    assert beck.levels("two") == ()
    with pytest.raises(RulesError, match="retaken"):
        beck.game_value("three", "retaken")
    loew = load_rules("loew")
    # Löw: taken over 4, "mein Spiel" (hold) plays at 4, retaken 5; any contract but Solo.
    assert [loew.game_value("two", lv) for lv in ("taken", "held", "retaken")] == [4, 4, 5]
    assert loew.levels("solo") == ()
    with pytest.raises(RulesError, match="level"):
        load_rules("dummett").game_value("three", "held")
    with pytest.raises(RulesError, match="raised_game_values"):
        load_rules("dummett", {"takeover_mode": "beck_once"}).game_value("three", "taken")


def test_contract_names_are_accepted() -> None:
    beck = load_rules("beck")
    assert beck.contract_key("Dreiblatt") == "three"
    assert beck.contract_key("zweiblatt") == "two"
    assert load_rules("loew").contract_key("1 Blatt") == "one"
    assert load_rules("dummett").contract_key("Unterer") == "lower"
    with pytest.raises(RulesError, match="not exist in the beck profile; choose one of: three, two"):
        beck.contract_key("Unterer")


def test_bird_values() -> None:
    d = load_rules()
    assert d.bird_value("kakadu", "before") == 60
    assert d.birds_available() == ("pagat", "uhu", "kakadu")
    beck = load_rules("beck")
    assert beck.bird_value("kakadu", "silent") is None
    assert beck.birds_available() == ("pagat", "uhu")
    assert load_rules("ms2016").birds_available() == ("pagat",)
    loew = load_rules("loew")
    assert loew.bird_value("pagat", "before") is None
    assert loew.bird_value("uhu", "after") == 20


def test_targets_declarations_hand_premiums_valat() -> None:
    d = load_rules()
    assert (d.target_value("kramerpoi", "after"), d.target_value("kramerpoi", "before")) == (20, 40)
    assert d.declaration_value("no_kings", "before") == 20
    assert not d.has_valat
    beck = load_rules("beck")
    assert beck.target_value("kramerpoi", "after") == 10
    assert beck.declaration_value("no_trull", "after") == 4
    # Beck's hand premiums: after = silent, before = 2 × silent.
    assert [beck.hand_premium_value("kings", lv) for lv in ("silent", "after", "before")] == [5, 5, 10]
    assert beck.has_valat and beck.valat.value("before") == 48
    assert beck.defender_items() == ("trull", "koepfe", "kings")
    loew = load_rules("loew")
    assert loew.target_value("absolut", "after") is None and loew.target_value("absolut", "before") == 5
    assert loew.target_value("kramerpoi", "after") == 15 and loew.target_value("kramerpoi", "before") is None
    assert loew.declaration_value("no_trull", "after") is None
    assert loew.defender_items() == ("pagat", "uhu")
    ms = load_rules("ms2016")
    assert ms.hand_premium_value("trull", "after") is None
    assert ms.hand_bonus("koepfe") is None
    assert ms.announcement_levels("valat") == ("after", "before")


def test_beck_variant_en_overlay() -> None:
    en = load_rules("beck", {"beck_variant": "en"})
    assert en.birds == ((5, 10, 20), (10, 20, 40), (15, 30, 60))
    assert (en.target_value("kramerpoi", "after"), en.target_value("kramerpoi", "before")) == (20, 40)
    assert en.no_trull_no_kings == ((8, 16), (10, 20))
    assert en.contra_step_before == 4
    assert en.defender_announcements == "birds_individual"
    assert en.hand_premium_value("trull", "after") is None  # silent only
    assert en.hand_bonus("trull") == 4
    assert [m.item for m in en.marks_for("no_kings")] == ["no_kings"]
    assert en.describe_overrides() == "beck_variant=en"
    # Later overrides apply on top of the overlay.
    mixed = load_rules("beck", {"beck_variant": "en", "contra_step_before": "2"})
    assert mixed.contra_step_before == 2
    assert mixed.describe_overrides() == "beck_variant=en;contra_step_before=2"
    with pytest.raises(RulesError, match="beck_variant applies only to the beck profile"):
        load_rules("dummett", {"beck_variant": "en"})


def test_loew_is_incomplete_and_marks_filled_values() -> None:
    loew = load_rules("loew")
    assert loew.incomplete
    assert not any(load_rules(n).incomplete for n in ("dummett", "beck", "ms2016"))
    flags = {(m.item, m.flag) for m in loew.info.marks}
    assert {("pagat", "filled"), ("pagat", "inferred"), ("kramerpoi", "inferred"),
            ("uhu", "filled"), ("trull", "filled"), ("koepfe", "filled")} <= flags
    assert ("kings", "filled") not in flags  # four Kings 3 is known from the example
    assert [m.flag for m in load_rules("beck").marks_for("uhu")] == ["uncertain"]


def test_unknown_profile_key_value_name_the_choices() -> None:
    with pytest.raises(RulesError, match='unknown rule profile "tapp"; choose one of: '
                                         "dummett, beck, ms2016, loew"):
        load_rules("tapp")
    with pytest.raises(RulesError, match='unknown option key "bird_reserv"; valid keys: '
                                         "game_values, multipliers"):
        load_rules("dummett", {"bird_reserv": "true"})
    with pytest.raises(RulesError, match='bad value "sometimes" for option partner_capture; '
                                         "expected void | fail"):
        load_rules("dummett", {"partner_capture": "sometimes"})
    with pytest.raises(RulesError, match="win_thirds.*107 | 106"):
        load_rules("dummett", {"win_thirds": "105"})
    with pytest.raises(RulesError, match="contra_max_level"):
        load_rules("dummett", {"contra_max_level": "4"})
    with pytest.raises(RulesError, match="has contract lower; give a number"):
        load_rules("dummett", {"game_values": "3,-,3,3,3"})
    with pytest.raises(RulesError, match="has no contract lower"):
        load_rules("beck", {"multipliers": "1,1,2,3,4"})
    with pytest.raises(RulesError, match="Mondfang"):
        load_rules("dummett", {"mondfang": "on"})
    assert issubclass(RulesError, TarockError)


def _alternative(key: str, name: str) -> str | None:
    alt = ALTERNATIVES[key]
    default = PROFILES[name].options[key]
    if alt == "FIT":
        return {"game_values": {"dummett": "4,5,4,4,4"}, "multipliers": {"dummett": "1,1,3,4,9"}
                }[key].get(name, "4,-,4,4,4" if key == "game_values" else "2,-,3,4,5")
    if alt == "OTHER":
        if default in ("true", "false"):
            return "false" if default == "true" else "true"
        if default is None and key not in OTHER_CHOICE:
            return "true"
        return OTHER_CHOICE[key][default]
    if key == "beck_variant" and name != "beck":
        return None
    return alt


# beck_variant exists only in beck; its refusal elsewhere is tested in test_beck_variant_en_overlay.
_OVERRIDE_CASES = [(n, k) for n in NAMES for k in OPTION_KEYS if _alternative(k, n) is not None]


@pytest.mark.parametrize("name, key", _OVERRIDE_CASES)
def test_every_option_key_overrides(name: str, key: str) -> None:
    text = _alternative(key, name)
    assert text is not None
    rules = load_rules(name, {key: text})
    spec = OPTION_SPECS[key]
    assert getattr(rules, key) == spec.parse(text)
    if PROFILES[name].options[key] != spec.format(spec.parse(text)):
        assert rules.describe_overrides() == f"{key}={spec.format(spec.parse(text))}"
    # Setting a key to its own default is not an override.
    if PROFILES[name].options[key] is not None:
        same = load_rules(name, {key: PROFILES[name].options[key]})
        assert same.describe_overrides() == "" and same == load_rules(name)


def test_describe_overrides_sorted_and_canonical() -> None:
    rules = load_rules("dummett", {"win_thirds": "106", "bird_reserve": "NO",
                                   "Partner_Capture": " fail "})
    assert rules.describe_overrides() == "bird_reserve=false;partner_capture=fail;win_thirds=106"
    assert rules.bird_reserve is False and rules.win_thirds == 106
    assert load_rules("dummett").describe_overrides() == ""


def test_option_values_round_trip_for_every_profile() -> None:
    for name in NAMES:
        rules = load_rules(name)
        for key, text in rules.option_items():
            if text != "-":
                assert OPTION_SPECS[key].format(OPTION_SPECS[key].parse(text)) == text


def test_rules_is_frozen_and_hashable() -> None:
    rules = load_rules()
    with pytest.raises(AttributeError):
        rules.bird_reserve = False  # type: ignore[misc]
    assert hash(rules) == hash(load_rules())
    assert isinstance(rules, Rules)


def test_contra_factor() -> None:
    d = load_rules()
    assert [d.contra_factor(s) for s in ("", "a", "aa", "aaa", "b", "bb", "bbb", "ba")] == \
        [1, 2, 4, 8, 4, 16, 64, 8]
    graz = load_rules("beck", {"contra_step_before": "forbidden"})
    with pytest.raises(RulesError, match="forbidden"):
        graz.contra_factor("b")


# ----------------------------------------------------------------- option grammar (NOTATION 5.3)


@pytest.mark.parametrize("text", [
    "plain", "pagat@after", "absolut@before;x:game=a", "level=retaken;uhu@after/M",
    "opt:partner_capture=fail",
    "level=held;absolut@after;koepfe@after/R;pagat@before;x:absolut=a;x:game=ba;"
    "opt:valat=fixed:12/24/48;opt:win_thirds=106",
])
def test_option_examples_round_trip(text: str) -> None:
    assert format_option(parse_option(text)) == text


def test_option_reader_is_lenient_writer_canonical() -> None:
    opt = parse_option("X:Game=A; Pagat@After ;LEVEL=HELD;opt:bird_reserve=no")
    assert format_option(opt) == "level=held;pagat@after;x:game=a;opt:bird_reserve=false"
    assert opt.declarer_announcements() == {"pagat": "after"}
    assert parse_option("uhu@after/m").defender_announcements() == {1: {"uhu": "after"}}
    assert parse_option("").is_plain


@pytest.mark.parametrize("text, fragment", [
    ("pagat", "expected level="),
    ("pagat@during", "after or before"),
    ("adler@after", "announcement is one of"),
    ("level=lower", "taken, held, retaken"),
    ("x:game=c", "stages"),
    ("x:game=aaaa", "stages"),
    ("x:talon=a", "contra object"),
    ("uhu@after/Q", "seat is F, M or R"),
    ("pagat@after;pagat@after", "announced twice"),
    ("plain;pagat@after", "cannot be combined"),
    ("opt:colour=red", 'unknown option key "colour"'),
    ("pagat@after;;uhu@after", "empty item"),
])
def test_option_errors(text: str, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        parse_option(text)


_announcement = st.builds(
    Announcement, st.sampled_from(ANNOUNCEMENT_NAMES), st.sampled_from(("after", "before")),
    st.one_of(st.none(), st.integers(0, 2)))
_setting = st.sampled_from([
    ("partner_capture", "fail"), ("win_thirds", "106"), ("bird_reserve", "false"),
    ("valat", "multiplier:6/12/-"), ("game_values", "3,4,3,3,9"), ("birds", "5/10/-,-,-"),
])


@given(
    level=st.one_of(st.none(), st.sampled_from(("taken", "held", "retaken"))),
    anns=st.lists(_announcement, max_size=4, unique_by=lambda a: (a.name, a.seat)),
    contras=st.dictionaries(st.sampled_from(("game", *ANNOUNCEMENT_NAMES)),
                            st.from_regex(r"b{0,2}a{0,2}", fullmatch=True).filter(
                                lambda s: 1 <= len(s) <= 3), max_size=3),
    settings=st.lists(_setting, max_size=3, unique_by=lambda s: s[0]),
)
def test_option_grammar_round_trips(level, anns, contras, settings) -> None:
    opt = Option(level, tuple(anns), tuple(contras.items()), tuple(settings))
    text = format_option(opt)
    assert parse_option(text) == opt
    assert format_option(parse_option(text)) == text
    assert (text == "plain") == opt.is_plain
