"""The :class:`Rules` object and :func:`load_rules`: a profile plus ``--opt`` overrides.

``Rules`` is frozen and hashable, so engines may cache on it.  Every option key
of RULES.md 12 is an attribute with its typed value (see :mod:`.options`);
the methods answer the questions the scorer, the auction and the solver ask
("what is G of a held Three?", "what is an announced Uhu worth before the
talon?") from those values and from the profile's non-option tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields

from ..errors import RulesError
from .names import (
    ANNOUNCE_LEVELS,
    BIRD_KEYS,
    CONTRACT_KEYS,
    DECLARATION_KEYS,
    HAND_KEYS,
    ITEM_LEVELS,
    TALON_CARDS,
    TARGET_KEYS,
)
from .options import OPTION_KEYS, OPTION_SPECS, ValatRule, option_spec
from .profiles import (
    CONTRACT_ALIASES,
    DEFAULT_PROFILE,
    PROFILES,
    RAISED_LEVELS,
    VARIANT_OVERLAYS,
    Mark,
    ProfileInfo,
    Target,
)


@dataclass(frozen=True)
class Rules:
    """A rule profile with its option values (RULES.md 6 and 12)."""

    name: str
    info: ProfileInfo
    #: Overrides that differ from the profile, canonical ``(key, value)``, sorted by key.
    overrides: tuple[tuple[str, str], ...]

    # --- option keys, in the order of RULES.md 12 -----------------------------
    game_values: tuple[int | None, ...]
    multipliers: tuple[int | None, ...]
    raised_game_values: tuple[int, int] | None
    overshoot_base: str
    point_target_mode: str
    lower_bonus_with_target: str | None
    graded_targets_cumulative: bool
    loew_target_suppresses_overshoot: bool | None
    takeover_mode: str
    hold_rule: str
    solo_holdable: bool
    jump_bids: str
    bid_direction: str
    all_pass: str
    birds: tuple[tuple[int | None, int | None, int | None] | None, ...]
    bird_reserve: bool
    partner_capture: str
    defender_announcements: str
    contra_step_before: int | None
    contra_step_after: int
    contra_max_level: int
    contra_scope: str
    contra_binds_partner: bool
    hand_bonuses: tuple[int | None, int | None, int | None]
    hand_bonus_multiplied: bool
    hand_bonus_time: str
    no_trull_no_kings: tuple[tuple[int, int], tuple[int, int]] | None
    pre_no_cards_break: str | None
    valat: ValatRule
    discard_tarock: str
    win_thirds: int
    redeal_no_tarock: bool
    trischaken_must_beat: bool | None
    trischaken_pagat_last: bool | None
    trischaken_talon: str | None
    trischaken_value: int | None
    trischaken_trickless_bonus: int | None
    keep_talon_after_trischaken: bool | None
    series_target: int
    series_bonus: str
    beck_variant: str | None
    mondfang: str

    # --- contracts ------------------------------------------------------------

    @property
    def contracts(self) -> tuple[str, ...]:
        """Contract keys of this profile, lowest bid first."""
        return tuple(key for key, _ in self.info.contracts)

    @property
    def incomplete(self) -> bool:
        return self.info.incomplete

    def contract_name(self, contract: str) -> str:
        return dict(self.info.contracts)[self.check_contract(contract)]

    def check_contract(self, contract: str) -> str:
        """``contract`` if the profile has it; else RulesError listing the contracts."""
        if contract not in self.contracts:
            raise RulesError(
                f'contract "{contract}" does not exist in the {self.name} profile; '
                f'choose one of: {", ".join(self.contracts)}.'
            )
        return contract

    def contract_key(self, text: str) -> str:
        """Contract key of ``text``: a key, a display name or a German name (lenient)."""
        raw = text.strip().lower()
        squeezed = re.sub(r"[\s_\-()]+", "", raw)
        if raw in CONTRACT_KEYS:
            return self.check_contract(raw)
        for key, display in self.info.contracts:
            if squeezed == re.sub(r"[\s_\-()]+", "", display.lower()):
                return key
        if squeezed in CONTRACT_ALIASES:
            return self.check_contract(CONTRACT_ALIASES[squeezed])
        raise RulesError(
            f'unknown contract "{text}"; the {self.name} profile has: '
            f'{", ".join(self.contracts)}.'
        )

    def talon_cards(self, contract: str) -> int:
        """Talon cards the declarer takes: 3, 3, 2, 1 or 0."""
        return TALON_CARDS[self.check_contract(contract)]

    def multiplier(self, contract: str) -> int:
        """The contract multiplier m."""
        value = self.multipliers[CONTRACT_KEYS.index(self.check_contract(contract))]
        assert value is not None  # load_rules checks the slots match the contracts
        return value

    def levels(self, contract: str) -> tuple[str, ...]:
        """Raised game levels (``taken``/``held``/``retaken``) this contract can carry."""
        self.check_contract(contract)
        carriers, table = RAISED_LEVELS[self.takeover_mode]
        return tuple(table) if contract in carriers else ()

    def game_value(self, contract: str, level: str | None = None) -> int:
        """G of ``contract``, at a raised ``level`` if given."""
        self.check_contract(contract)
        if level is None:
            value = self.game_values[CONTRACT_KEYS.index(contract)]
            assert value is not None
            return value
        allowed = self.levels(contract)
        if level not in allowed:
            where = ", ".join(allowed) if allowed else "none"
            raise RulesError(
                f'level "{level}" is not possible for {contract} in the {self.name} profile '
                f"(takeover_mode={self.takeover_mode}); possible levels: {where}."
            )
        if self.raised_game_values is None:
            raise RulesError(
                f'level "{level}" needs raised game values; set --opt raised_game_values=4,5.'
            )
        return self.raised_game_values[RAISED_LEVELS[self.takeover_mode][1][level]]

    # --- items ------------------------------------------------------------------

    def bird_value(self, bird: str, level: str) -> int | None:
        """Value of ``bird`` at ``level`` (silent/after/before); None if it does not exist."""
        triple = self.birds[BIRD_KEYS.index(bird)]
        return None if triple is None else triple[ITEM_LEVELS.index(level)]

    def birds_available(self) -> tuple[str, ...]:
        """The birds that exist in this profile (at any level)."""
        return tuple(b for b, t in zip(BIRD_KEYS, self.birds, strict=True) if t is not None)

    @property
    def has_valat(self) -> bool:
        return self.valat.mode != "none"

    def target(self, name: str) -> Target | None:
        for t in self.info.targets:
            if t.name == name:
                return t
        return None

    def target_value(self, name: str, level: str) -> int | None:
        t = self.target(name)
        return None if t is None else t.value(level)

    def declaration_value(self, name: str, level: str) -> int | None:
        """Value of No Trull / No Kings announced at ``level``; None if not available."""
        if self.no_trull_no_kings is None or level not in ANNOUNCE_LEVELS:
            return None
        return self.no_trull_no_kings[DECLARATION_KEYS.index(name)][ANNOUNCE_LEVELS.index(level)]

    def hand_bonus(self, name: str) -> int | None:
        """Silent value of a hand bonus (trull, koepfe, kings); None if it does not exist."""
        return self.hand_bonuses[HAND_KEYS.index(name)]

    def hand_premium_value(self, name: str, level: str) -> int | None:
        """Value of a hand premium at ``level``; announced values follow the profile's factors."""
        base = self.hand_bonus(name)
        if base is None or level == "silent":
            return base
        factor = self.info.hand_premium_announce[ANNOUNCE_LEVELS.index(level)]
        return None if factor is None else base * factor

    def announcement_value(self, name: str, level: str) -> int | None:
        """Raw value (before m and contra) of an item announced at ``level``; None if the
        profile does not allow that announcement."""
        if level not in ANNOUNCE_LEVELS:
            return None
        if name in BIRD_KEYS:
            return self.bird_value(name, level)
        if name in TARGET_KEYS:
            return self.target_value(name, level)
        if name in DECLARATION_KEYS:
            return self.declaration_value(name, level)
        if name == "valat":
            return self.valat.value(level)
        if name in HAND_KEYS:
            return self.hand_premium_value(name, level)
        return None

    def announcement_levels(self, name: str) -> tuple[str, ...]:
        """Levels at which the declarer may announce ``name``."""
        return tuple(lv for lv in ANNOUNCE_LEVELS if self.announcement_value(name, lv) is not None)

    def defender_items(self) -> tuple[str, ...]:
        """What a defender may announce for himself (after the talon)."""
        allowed = {
            "none": (),
            "hand_premiums": HAND_KEYS,
            "birds_individual": ("pagat", "uhu"),
        }[self.defender_announcements]
        return tuple(n for n in allowed if self.announcement_value(n, "after") is not None)

    def contra_factor(self, stages: str) -> int:
        """Product of the contra steps: ``a`` = after the talon, ``b`` = before it."""
        factor = 1
        for stage in stages:
            if stage == "a":
                factor *= self.contra_step_after
            elif stage == "b":
                if self.contra_step_before is None:
                    raise RulesError(
                        f"contra before the talon is forbidden in the {self.name} profile "
                        "(contra_step_before=forbidden)."
                    )
                factor *= self.contra_step_before
            else:
                raise RulesError(
                    f'bad contra stage "{stage}"; use a (after the talon) or b (before it).'
                )
        return factor

    # --- options and marks -------------------------------------------------------

    def option(self, key: str) -> object:
        """Typed value of an option key."""
        return getattr(self, option_spec(key).key)

    def option_text(self, key: str) -> str:
        """Canonical text of an option key's value (``-`` if it does not apply)."""
        spec = option_spec(key)
        return spec.format(getattr(self, spec.key))

    def option_items(self) -> tuple[tuple[str, str], ...]:
        """Every option key with its canonical value, in RULES.md 12 order."""
        return tuple((k, self.option_text(k)) for k in OPTION_KEYS)

    def describe_overrides(self) -> str:
        """The ``rule_options`` string of NOTATION 5.3: sorted ``key=value`` joined by ``;``."""
        return ";".join(f"{k}={v}" for k, v in self.overrides)

    def marks_for(self, item: str) -> tuple[Mark, ...]:
        """Marks on an item or option key (filled / inferred / uncertain values)."""
        return tuple(m for m in self.info.marks if m.item == item)


_FIELD_NAMES = tuple(f.name for f in fields(Rules))
assert _FIELD_NAMES[3:] == OPTION_KEYS, "Rules fields must follow the option table"


def profile_names() -> tuple[str, ...]:
    return tuple(PROFILES)


def load_rules(name: str = DEFAULT_PROFILE,
               overrides: Mapping[str, object] | None = None) -> Rules:
    """The rules of profile ``name`` with option ``overrides`` (``--opt KEY=VALUE``).

    An unknown profile, key or value raises RulesError naming it and listing the
    valid choices.  ``beck_variant=en`` lays its data over ``beck`` first; other
    overrides then apply on top, so ``--opt beck_variant=en --opt contra_step_before=2``
    keeps the 2.
    """
    key = str(name).strip().lower()
    profile = PROFILES.get(key)
    if profile is None:
        raise RulesError(
            f'unknown rule profile "{name}"; choose one of: {", ".join(PROFILES)}.'
        )
    wanted: dict[str, object] = {}
    for raw_key, raw_value in (overrides or {}).items():
        spec = option_spec(str(raw_key))
        wanted[spec.key] = spec.parse(raw_value)

    if "beck_variant" in wanted and profile.options["beck_variant"] is None:
        raise RulesError(
            f"option beck_variant applies only to the beck profile, not to {key}."
        )
    variant = wanted.get("beck_variant", profile.options["beck_variant"])
    overlay = VARIANT_OVERLAYS.get((key, str(variant)))
    if overlay is not None:
        profile = overlay.apply(profile)

    base = {
        k: (None if text is None else OPTION_SPECS[k].parse(text))
        for k, text in profile.options.items()
    }
    values = {**base, **wanted}
    # The overlay leaves beck_variant itself at the profile default, so one
    # comparison with the (overlaid) base covers every key.
    differing = tuple(sorted(
        (k, OPTION_SPECS[k].format(v)) for k, v in wanted.items() if v != base[k]
    ))
    _check_contract_slots(profile.info, values)
    return Rules(name=key, info=profile.info, overrides=differing, **values)


def _check_contract_slots(info: ProfileInfo, values: dict[str, object]) -> None:
    """game_values and multipliers must give a number exactly for the profile's contracts."""
    contracts = {k for k, _ in info.contracts}
    for key in ("game_values", "multipliers"):
        slots = values[key]
        assert isinstance(slots, tuple)
        for contract, value in zip(CONTRACT_KEYS, slots, strict=True):
            if (value is None) == (contract in contracts):
                need = "a number" if contract in contracts else "'-'"
                raise RulesError(
                    f"option {key}: the {info.name} profile "
                    f"{'has' if contract in contracts else 'has no'} contract {contract}; "
                    f"give {need} in its place (order: {', '.join(CONTRACT_KEYS)})."
                )
