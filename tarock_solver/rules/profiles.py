"""The four rule profiles of RULES.md section 6 as data tables.

A profile has two parts:

* ``options``: the default of every option key of RULES.md 12, in the text
  form of :mod:`.options` (``None`` where the table shows "—", the key does not
  apply to that profile);
* ``info``: what is not an option key: the contracts and their names, the
  point targets (Absolut, Kramerpoi) with their values per level, the factors
  for announced hand premiums, the source and the marks on filled or
  uncertain values.

``BECK_EN_OVERLAY`` is the data ``beck_variant=en`` lays over ``beck``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

#: Mark flags shown by ``tarock rules``: value filled in by the software, inferred
#: from a worked example, or uncertain in the source.
MARK_FLAGS: dict[str, str] = {"filled": "*", "inferred": "~", "uncertain": "?"}


@dataclass(frozen=True)
class Target:
    """A point target: the rounded points it needs and its value after / before the talon."""

    name: str
    points: int
    after: int | None
    before: int | None

    def value(self, level: str) -> int | None:
        return self.after if level == "after" else self.before if level == "before" else None


@dataclass(frozen=True)
class Mark:
    """A value that the software filled in, inferred, or took from an uncertain source."""

    item: str  # an announcement name or an option key
    flag: str  # a key of MARK_FLAGS
    note: str


@dataclass(frozen=True)
class ProfileInfo:
    """The non-option part of a profile."""

    name: str
    title: str
    source: str
    incomplete: bool
    contracts: tuple[tuple[str, str], ...]  # (key, display name), lowest bid first
    targets: tuple[Target, ...]
    #: Factor on the silent hand-premium value when announced (after, before);
    #: ``None`` = hand premiums cannot be announced at that level.
    hand_premium_announce: tuple[int | None, int | None]
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class Profile:
    info: ProfileInfo
    options: dict[str, str | None]


# ----------------------------------------------------------------- option defaults
# One column of RULES.md 12 per profile.  Keys must appear in the order of the table.

_DUMMETT_OPTIONS: dict[str, str | None] = {
    "game_values": "3,4,3,3,3",
    "multipliers": "1,1,2,3,8",
    "raised_game_values": None,
    "overshoot_base": "target",
    "point_target_mode": "replace",
    "lower_bonus_with_target": "replace",
    "graded_targets_cumulative": "false",
    "loew_target_suppresses_overshoot": None,
    "takeover_mode": "lower_bid",
    "hold_rule": "seniority",
    "solo_holdable": "true",
    "jump_bids": "any",
    "bid_direction": "ccw",
    "all_pass": "trischaken",
    "birds": "5/10/20,10/20/40,15/30/60",
    "bird_reserve": "true",
    "partner_capture": "void",
    "defender_announcements": "none",
    "contra_step_before": "4",
    "contra_step_after": "2",
    "contra_max_level": "3",
    "contra_scope": "with_declarations",
    "contra_binds_partner": "true",
    "hand_bonuses": "3,1,3",
    "hand_bonus_multiplied": "false",
    "hand_bonus_time": "after_exchange",
    "no_trull_no_kings": "10/20,10/20",
    "pre_no_cards_break": "lose_game",
    "valat": "none",
    "discard_tarock": "forced_open",
    "win_thirds": "107",
    "redeal_no_tarock": "true",
    "trischaken_must_beat": "true",
    "trischaken_pagat_last": "true",
    "trischaken_talon": "unused",
    "trischaken_value": "5",
    "trischaken_trickless_bonus": "5",
    "keep_talon_after_trischaken": "true",
    "series_target": "100",
    "series_bonus": "all_over",
    "beck_variant": None,
    "mondfang": "off",
}

_BECK_OPTIONS: dict[str, str | None] = {
    **_DUMMETT_OPTIONS,
    "game_values": "3,-,3,3,3",
    "multipliers": "1,-,2,3,4",
    "raised_game_values": "4,5",
    "overshoot_base": "fixed35",
    "point_target_mode": "additive",
    "lower_bonus_with_target": None,
    "takeover_mode": "beck_once",
    "hold_rule": "takeover_only",
    "solo_holdable": "false",
    "all_pass": "redeal",
    "birds": "5/10/20,5/10/20,-",
    "bird_reserve": "false",
    "defender_announcements": "hand_premiums",
    "contra_step_before": "2",
    "contra_scope": "separate",
    "hand_bonuses": "4,2,5",
    "hand_bonus_multiplied": "true",
    "no_trull_no_kings": "4/8,5/10",
    "pre_no_cards_break": "lose_bonus",
    "valat": "fixed:12/24/48",
    "keep_talon_after_trischaken": "false",
    "beck_variant": "de",
}

_MS2016_OPTIONS: dict[str, str | None] = {
    **_DUMMETT_OPTIONS,
    "game_values": "3,-,5,7,10",
    "multipliers": "1,-,2,3,4",
    "overshoot_base": "fixed35",
    "point_target_mode": "additive",
    "lower_bonus_with_target": None,
    "graded_targets_cumulative": "true",
    "takeover_mode": "none",
    "hold_rule": "none",
    "solo_holdable": "false",
    "all_pass": "redeal",
    "birds": "5/10/20,-,-",
    "bird_reserve": "false",
    "contra_max_level": "2",
    "hand_bonuses": "3,-,3",
    "hand_bonus_multiplied": "true",
    "pre_no_cards_break": "lose_bonus",
    "valat": "fixed:20/40/80",
    "trischaken_must_beat": None,
    "trischaken_pagat_last": None,
    "trischaken_talon": None,
    "trischaken_value": None,
    "trischaken_trickless_bonus": None,
    "keep_talon_after_trischaken": None,
}

_LOEW_OPTIONS: dict[str, str | None] = {
    **_DUMMETT_OPTIONS,
    "game_values": "3,-,3,3,8",
    "multipliers": "1,-,2,3,4",
    "raised_game_values": "4,5",
    "overshoot_base": "fixed35",
    "point_target_mode": "additive",
    "lower_bonus_with_target": None,
    "loew_target_suppresses_overshoot": "false",
    "takeover_mode": "loew_any",
    "hold_rule": "takeover_only",
    "solo_holdable": "false",
    "all_pass": "redeal",
    "birds": "5/10/-,10/20/-,-",
    "bird_reserve": "false",
    "defender_announcements": "birds_individual",
    "contra_step_before": "2",
    "contra_scope": "separate",
    "hand_bonuses": "3,1,3",
    "hand_bonus_multiplied": "true",
    "no_trull_no_kings": None,
    "pre_no_cards_break": None,
    "trischaken_must_beat": None,
    "trischaken_pagat_last": None,
    "trischaken_talon": None,
    "trischaken_value": None,
    "trischaken_trickless_bonus": None,
    "keep_talon_after_trischaken": None,
}

# ----------------------------------------------------------------- profile info

_PROFILES: tuple[Profile, ...] = (
    Profile(
        ProfileInfo(
            name="dummett",
            title="Dummett",
            source="M. Dummett, Twelve Tarot Games (1980); Y. Akagiri's summary (2001)",
            incomplete=False,
            contracts=(("three", "Three (Dreier)"), ("lower", "Lower (Unterer)"),
                       ("two", "Two"), ("one", "One"), ("solo", "Solo")),
            targets=(Target("absolut", 40, 5, 10), Target("kramerpoi", 50, 20, 40)),
            hand_premium_announce=(None, None),
            marks=(),
        ),
        _DUMMETT_OPTIONS,
    ),
    Profile(
        ProfileInfo(
            name="beck",
            title="Beck",
            source="F. Beck, Tarock komplett (1972), via German Wikipedia "
                   "(beck_variant=en: English Wikipedia)",
            incomplete=False,
            contracts=(("three", "Dreiblatt"), ("two", "Zweiblatt"), ("one", "Einblatt"),
                       ("solo", "Solo")),
            targets=(Target("absolut", 40, 5, 10), Target("kramerpoi", 50, 10, 20)),
            hand_premium_announce=(1, 2),
            marks=(Mark("uhu", "uncertain", "the German Uhu row (5/10/20) is doubtful"),),
        ),
        _BECK_OPTIONS,
    ),
    Profile(
        ProfileInfo(
            name="ms2016",
            title="Mayr & Sedlaczek",
            source="W. Mayr & R. Sedlaczek, Die Strategie des Tarockspiels (5th ed., 2016), "
                   "pp. 368-370, via English Wikipedia",
            incomplete=False,
            contracts=(("three", "Dreiblatt"), ("two", "Zweiblatt"), ("one", "Einblatt"),
                       ("solo", "Solo")),
            targets=(Target("absolut", 40, 5, 10), Target("kramerpoi", 50, 20, 40)),
            hand_premium_announce=(None, None),
            marks=(),
        ),
        _MS2016_OPTIONS,
    ),
    Profile(
        ProfileInfo(
            name="loew",
            title="Löw",
            source="H. Löw, 20 Kartenspiele (1954), pp. 32-36, via English Wikipedia",
            incomplete=True,
            contracts=(("three", "3 Blatt"), ("two", "2 Blatt"), ("one", "1 Blatt"),
                       ("solo", "Solo")),
            targets=(Target("absolut", 40, None, 5), Target("kramerpoi", 50, 15, None)),
            hand_premium_announce=(None, None),
            marks=(
                Mark("kramerpoi", "inferred", "value 15 inferred from the worked example"),
                Mark("pagat", "inferred", "after-talon value 10 inferred from the worked example"),
                Mark("pagat", "filled", "silent value 5 filled in"),
                Mark("uhu", "filled", "known to exist; values 10 / 20 filled in"),
                Mark("kakadu", "filled", "none (filled in)"),
                Mark("no_trull", "filled", "none (filled in)"),
                Mark("no_kings", "filled", "none (filled in)"),
                Mark("valat", "filled", "none (filled in)"),
                Mark("trull", "filled", "value 3, multiplied, filled in"),
                Mark("koepfe", "filled", "value 1, multiplied, filled in"),
                Mark("defender_announcements", "filled",
                     "a failed defender's bird is written by the declarer (filled in)"),
                Mark("contra_max_level", "filled", "recontra and subcontra (×2 each) filled in"),
                Mark("all_pass", "filled", "redeal filled in"),
            ),
        ),
        _LOEW_OPTIONS,
    ),
)

#: The profiles by name, default first.
PROFILES: dict[str, Profile] = {p.info.name: p for p in _PROFILES}
DEFAULT_PROFILE = "dummett"


@dataclass(frozen=True)
class Overlay:
    """Data a variant lays over a profile: option texts and replaced info fields."""

    options: dict[str, str]
    targets: tuple[Target, ...]
    hand_premium_announce: tuple[int | None, int | None]
    marks: tuple[Mark, ...]

    def apply(self, profile: Profile) -> Profile:
        info = replace(profile.info, targets=self.targets,
                       hand_premium_announce=self.hand_premium_announce, marks=self.marks)
        return Profile(info, {**profile.options, **self.options})


#: ``beck_variant=en`` (RULES.md 12, last paragraph, and the last column of 6.2).
BECK_EN_OVERLAY = Overlay(
    options={
        "birds": "5/10/20,10/20/40,15/30/60",
        "no_trull_no_kings": "8/16,10/20",
        "contra_step_before": "4",
        "defender_announcements": "birds_individual",
    },
    targets=(Target("absolut", 40, 5, 10), Target("kramerpoi", 50, 20, 40)),
    hand_premium_announce=(None, None),  # hand premiums silent only
    marks=(Mark("no_kings", "uncertain",
                "the English table prints 15 before the talon; 20 keeps the doubling pattern"),),
)

#: Variant overlays by (profile, variant value).
VARIANT_OVERLAYS: dict[tuple[str, str], Overlay] = {("beck", "en"): BECK_EN_OVERLAY}

#: Raised game levels by ``takeover_mode`` (RULES.md 6.2, 6.4): the contracts that
#: can carry a level, and which entry of ``raised_game_values`` each level uses.
#: Beck: an Unterer against a Dreiblatt plays at 4, a held one at 5.  Löw: any
#: contract but Solo can be taken over (4); "mein Spiel" holds at 4; a retake plays at 5.
RAISED_LEVELS: dict[str, tuple[tuple[str, ...], dict[str, int]]] = {
    "lower_bid": ((), {}),
    "none": ((), {}),
    "beck_once": (("three",), {"taken": 0, "held": 1}),
    "loew_any": (("three", "lower", "two", "one"), {"taken": 0, "held": 0, "retaken": 1}),
}

#: Other names of the contracts accepted on input (German and table names).
CONTRACT_ALIASES: dict[str, str] = {
    "dreier": "three", "dreiblatt": "three", "3blatt": "three", "3": "three",
    "unterer": "lower", "lowerthree": "lower",
    "zweier": "two", "zweiblatt": "two", "2blatt": "two", "2": "two",
    "einer": "one", "einblatt": "one", "1blatt": "one", "1": "one",
    "solodreier": "solo",
}
