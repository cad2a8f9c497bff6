"""Rule profiles and option keys (RULES.md sections 6 and 12).

``load_rules(name, overrides)`` returns a frozen :class:`Rules`; everything
else here is vocabulary and data the engines and the CLI share.
"""

from __future__ import annotations

from ..errors import RulesError
from .model import Rules, load_rules, profile_names
from .names import (
    ANNOUNCE_LEVELS,
    ANNOUNCEMENT_NAMES,
    BIRD_KEYS,
    BIRD_TRICK,
    CONTRACT_KEYS,
    DECLARATION_KEYS,
    GAME_LEVELS,
    HAND_KEYS,
    ITEM_LEVELS,
    ITEM_TITLES,
    SEAT_NAMES,
    TALON_CARDS,
    TARGET_KEYS,
    TARGET_POINTS,
    item_name,
    seat_index,
)
from .options import OPTION_KEYS, OPTION_SPECS, OptionSpec, ValatRule, canonical_option
from .profiles import DEFAULT_PROFILE, MARK_FLAGS, PROFILES, Mark, ProfileInfo, Target

__all__ = [
    "ANNOUNCEMENT_NAMES", "ANNOUNCE_LEVELS", "BIRD_KEYS", "BIRD_TRICK", "CONTRACT_KEYS",
    "DECLARATION_KEYS", "DEFAULT_PROFILE", "GAME_LEVELS", "HAND_KEYS", "ITEM_LEVELS",
    "ITEM_TITLES", "MARK_FLAGS", "OPTION_KEYS", "OPTION_SPECS", "PROFILES", "SEAT_NAMES",
    "TALON_CARDS", "TARGET_KEYS", "TARGET_POINTS", "Mark", "OptionSpec", "ProfileInfo",
    "Rules", "RulesError", "Target", "ValatRule", "canonical_option", "item_name",
    "load_rules", "profile_names", "seat_index",
]
