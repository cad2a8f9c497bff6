"""Every option key of RULES.md section 12: its value type, allowed values and text form.

The table :data:`OPTION_SPECS` is the single source of truth for what a key accepts:
each spec turns the text a user types after ``--opt KEY=`` into a typed value, and
formats a value back into the one canonical text that result files carry in
``rule_options`` (NOTATION.md 5.3).  Per-profile defaults live in :mod:`.profiles`,
written in this same text form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from .names import CONTRACT_KEYS

_ABSENT = ("-", "—", "–", "none")


@dataclass(frozen=True)
class ValatRule:
    """How Valat is scored: ``mode`` none/fixed/multiplier and (silent, after, before)."""

    mode: str
    values: tuple[int | None, int | None, int | None] = (None, None, None)

    def value(self, level: str) -> int | None:
        if self.mode == "none":
            return None
        return self.values[("silent", "after", "before").index(level)]


@dataclass(frozen=True)
class OptionSpec:
    """One option key: how to read and write its values."""

    key: str
    allowed: str  # human description of the allowed values, used in messages
    doc: str
    parse_text: Callable[[str], Any]
    format_value: Callable[[Any], str]

    def parse(self, text: Any) -> Any:
        """The typed value of ``text``; RulesError naming the key and the allowed values."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        raw = str(text).strip()
        try:
            return self.parse_text(raw)
        except _BadValue as exc:
            detail = f" ({exc})" if str(exc) else ""
            raise RulesError(
                f'bad value "{raw}" for option {self.key}{detail}; expected {self.allowed}.'
            ) from None

    def format(self, value: Any) -> str:
        """Canonical text of a typed value (``-`` for a key that does not apply)."""
        return "-" if value is None else self.format_value(value)


class _BadValue(ValueError):
    """Internal: a value text that does not fit; OptionSpec.parse adds the context."""


# ----------------------------------------------------------------- value readers


def _bool(text: str) -> bool:
    low = text.lower()
    if low in ("true", "yes", "on", "1"):
        return True
    if low in ("false", "no", "off", "0"):
        return False
    raise _BadValue("")


def _fmt_bool(value: bool) -> str:
    return "true" if value else "false"


def _int(text: str, lo: int | None = None, hi: int | None = None) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise _BadValue("not a whole number")
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _BadValue("out of range")
    return value


def _opt_int(text: str) -> int | None:
    """A non-negative whole number, or ``-`` for 'does not exist'."""
    return None if text.strip().lower() in _ABSENT else _int(text.strip(), 0)


def _fmt_opt_int(value: int | None) -> str:
    return "-" if value is None else str(value)


def _split(text: str, sep: str, count: int) -> list[str]:
    parts = [p.strip() for p in text.split(sep)]
    if len(parts) != count:
        raise _BadValue(f"{count} values separated by '{sep}' needed, found {len(parts)}")
    return parts


def _choice_spec(key: str, values: tuple[str, ...], doc: str) -> OptionSpec:
    def parse(text: str) -> str:
        low = text.lower()
        if low not in values:
            raise _BadValue("")
        return low

    return OptionSpec(key, " | ".join(values), doc, parse, str)


def _bool_spec(key: str, doc: str) -> OptionSpec:
    return OptionSpec(key, "true | false", doc, _bool, _fmt_bool)


def _int_spec(key: str, lo: int, hi: int | None, doc: str) -> OptionSpec:
    allowed = f"a whole number from {lo}" + (f" to {hi}" if hi is not None else "")
    return OptionSpec(key, allowed, doc, lambda t: _int(t, lo, hi), str)


def _ints_spec(key: str, labels: tuple[str, ...], example: str, doc: str,
               need_all: bool = False) -> OptionSpec:
    """Comma-separated whole numbers, one per label; ``-`` marks an absent entry."""

    def parse(text: str) -> tuple[int | None, ...]:
        values = tuple(_opt_int(p) for p in _split(text, ",", len(labels)))
        if need_all and None in values:
            raise _BadValue("every entry needs a number")
        if all(v is None for v in values):
            raise _BadValue("at least one entry needs a number")
        return values

    def fmt(value: tuple[int | None, ...]) -> str:
        return ",".join(_fmt_opt_int(v) for v in value)

    allowed = f"{len(labels)} whole numbers ({', '.join(labels)}), e.g. {example}"
    if not need_all:
        allowed += ", '-' for an entry the profile lacks"
    return OptionSpec(key, allowed, doc, parse, fmt)


def _triple(text: str) -> tuple[int | None, int | None, int | None]:
    a, b, c = (_opt_int(p) for p in _split(text, "/", 3))
    return (a, b, c)


def _fmt_triple(values: tuple[int | None, ...]) -> str:
    return "/".join(_fmt_opt_int(v) for v in values)


def _parse_birds(text: str) -> tuple[tuple[int | None, int | None, int | None] | None, ...]:
    out: list[tuple[int | None, int | None, int | None] | None] = []
    for part in _split(text, ",", 3):
        if part.lower() in _ABSENT:
            out.append(None)
            continue
        triple = _triple(part)
        out.append(None if all(v is None for v in triple) else triple)
    return tuple(out)


def _fmt_birds(value: tuple[tuple[int | None, ...] | None, ...]) -> str:
    return ",".join("-" if t is None else _fmt_triple(t) for t in value)


def _parse_declarations(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    pairs = []
    for part in _split(text, ",", 2):
        after, before = (_int(p, 0) for p in _split(part, "/", 2))
        pairs.append((after, before))
    return (pairs[0], pairs[1])


def _fmt_declarations(value: tuple[tuple[int, int], ...]) -> str:
    return ",".join(f"{a}/{b}" for a, b in value)


def _parse_valat(text: str) -> ValatRule:
    low = text.lower()
    if low == "none":
        return ValatRule("none")
    mode, _, values = low.partition(":")
    if mode not in ("fixed", "multiplier") or not values:
        raise _BadValue("")
    triple = _triple(values)
    if all(v is None for v in triple):
        raise _BadValue("at least one level needs a value")
    return ValatRule(mode, triple)


def _fmt_valat(value: ValatRule) -> str:
    return "none" if value.mode == "none" else f"{value.mode}:{_fmt_triple(value.values)}"


def _parse_contra_before(text: str) -> int | None:
    low = text.lower()
    if low == "forbidden":
        return None
    if low in ("4", "2"):
        return int(low)
    raise _BadValue("")


def _parse_win_thirds(text: str) -> int:
    if text in ("107", "106"):
        return int(text)
    raise _BadValue("")


def _parse_raised(text: str) -> tuple[int, int]:
    taken, second = (_int(p, 1) for p in _split(text, ",", 2))
    return (taken, second)


def _parse_mondfang(text: str) -> str:
    if text.lower() != "off":
        raise _BadValue("Mondfang is not implemented")
    return "off"


# ----------------------------------------------------------------- the table
# Typed values, as the Rules attributes carry them (a profile value of "—", the key
# does not apply, is None):
# * bool keys -> bool; choice keys -> str; integer keys -> int;
# * game_values / multipliers -> 5-tuple over (three, lower, two, one, solo), None for
#   a contract the profile lacks; text ``3,-,3,3,3``;
# * raised_game_values -> (taken, held/retaken); text ``4,5``;
# * birds -> 3-tuple over (pagat, uhu, kakadu) of (silent, after, before) triples or
#   None for a bird the profile lacks; text ``5/10/20,5/10/20,-``;
# * hand_bonuses -> 3-tuple over (trull, koepfe, kings); text ``3,1,3``;
# * no_trull_no_kings -> ((after, before), (after, before)); text ``10/20,10/20``;
# * valat -> ValatRule; text ``none``, ``fixed:12/24/48`` or ``multiplier:12/24/48``
#   (silent/after/before);
# * contra_step_before -> 4, 2 or None for ``forbidden``.

OPTION_SPECS: dict[str, OptionSpec] = {s.key: s for s in (
    _ints_spec("game_values", CONTRACT_KEYS, "3,4,3,3,3",
               f"G of each contract ({', '.join(CONTRACT_KEYS)})."),
    _ints_spec("multipliers", CONTRACT_KEYS, "1,1,2,3,8",
               "Contract multiplier m of each contract."),
    OptionSpec("raised_game_values", "2 whole numbers (taken, held/retaken), e.g. 4,5",
               "G of a taken-over game, and of a held (Beck) or retaken (Löw) one.",
               _parse_raised, lambda v: f"{v[0]},{v[1]}"),
    _choice_spec("overshoot_base", ("target", "fixed35"),
                 "Over/under points: P − T / (T − 1) − P, or P − 35 / 35 − P."),
    _choice_spec("point_target_mode", ("replace", "additive"),
                 "A point target replaces G, or is scored as an item of its own."),
    _choice_spec("lower_bonus_with_target", ("replace", "keep_plus1"),
                 "A target in a Lower replaces its 4, or is worth 1 more."),
    _bool_spec("graded_targets_cumulative",
               "Announcing 50 also announces 40 (and Valat both); each scored separately."),
    _bool_spec("loew_target_suppresses_overshoot",
               "An announced target drops the over/under points (Löw's printed example)."),
    _choice_spec("takeover_mode", ("lower_bid", "beck_once", "loew_any", "none"),
                  "How a bid can be taken over in the auction."),
    _choice_spec("hold_rule", ("seniority", "takeover_only", "none"),
                 "When a player may hold (equal) the current bid."),
    _bool_spec("solo_holdable", "A Solo can be held by a senior player."),
    _choice_spec("jump_bids", ("any", "one_step"), "Whether a bid may skip contracts."),
    _choice_spec("bid_direction", ("ccw", "cw"), "Direction of dealing, bidding and play."),
    _choice_spec("all_pass", ("trischaken", "redeal", "graz_keep_talon"),
                 "What happens when every player passes."),
    OptionSpec("birds",
               "3 entries (pagat, uhu, kakadu) of silent/after/before values, '-' for a "
               "missing bird or level, e.g. 5/10/20,10/20/40,15/30/60",
               "Bird values: silent / announced after / announced before the talon.",
               _parse_birds, _fmt_birds),
    _bool_spec("bird_reserve", "An announcing declarer must keep his bird for its trick."),
    _choice_spec("partner_capture", ("void", "fail"),
                 "A defender's bird captured by his partner: no item, or a failure."),
    _choice_spec("defender_announcements", ("none", "hand_premiums", "birds_individual"),
                 "What a defender may announce for himself."),
    OptionSpec("contra_step_before", "4 | 2 | forbidden",
               "Factor of a contra step said in the auction or before the talon.",
               _parse_contra_before, str),
    _int_spec("contra_step_after", 1, None, "Factor of a contra step said after the talon."),
    _int_spec("contra_max_level", 1, 3, "1 contra, 2 recontra, 3 subcontra."),
    _choice_spec("contra_scope", ("with_declarations", "separate"),
                 "What a game contra covers."),
    _bool_spec("contra_binds_partner", "A contra by one defender covers both defenders."),
    _ints_spec("hand_bonuses", ("trull", "koepfe", "kings"), "3,1,3",
               "Hand bonus values: Trull, Köpfe, four Kings."),
    _bool_spec("hand_bonus_multiplied", "Hand bonuses are multiplied by m."),
    _choice_spec("hand_bonus_time", ("after_exchange", "as_dealt"),
                 "When the declarer's holding is judged for hand bonuses."),
    OptionSpec("no_trull_no_kings",
               "2 entries after/before (no_trull, no_kings), e.g. 10/20,10/20",
               "Values of No Trull and No Kings, after / before the talon.",
               _parse_declarations, _fmt_declarations),
    _choice_spec("pre_no_cards_break", ("lose_game", "lose_bonus"),
                 "A before-talon No Trull / No Kings broken by the talon."),
    OptionSpec("valat", "none | fixed:S/A/B | multiplier:S/A/B (silent/after/before)",
               "How Valat (declarer takes all 16 tricks) is scored.",
               _parse_valat, _fmt_valat),
    _choice_spec("discard_tarock", ("forced_open", "never", "free_open"),
                 "When tarocks may be discarded."),
    OptionSpec("win_thirds", "107 | 106", "Thirds the declarer needs to win a plain game.",
               _parse_win_thirds, str),
    _bool_spec("redeal_no_tarock", "A hand without tarock voids the deal."),
    _bool_spec("trischaken_must_beat", "Trischaken: a player must head the trick if he can."),
    _bool_spec("trischaken_pagat_last", "Trischaken: I only as the player's last tarock."),
    _choice_spec("trischaken_talon", ("unused", "first_six_tricks", "last_trick"),
                 "Trischaken: what happens to the talon."),
    _int_spec("trischaken_value", 0, None, "Trischaken: what each non-loser writes."),
    _int_spec("trischaken_trickless_bonus", 0, None,
              "Trischaken: what a player without a trick writes in addition."),
    _bool_spec("keep_talon_after_trischaken",
               "After a Trischaken its dealer may keep talon cards for his next hand."),
    _int_spec("series_target", 1, None, "Total that ends a series."),
    _choice_spec("series_bonus", ("all_over", "highest_only", "continue"),
                 "Who gets the end-of-series bonus."),
    _choice_spec("beck_variant", ("de", "en"),
                 "Beck's German table, or the English one with Dummett's corrections."),
    OptionSpec("mondfang", "off", "Mondfang (capturing the XXI) is not part of this game.",
               _parse_mondfang, str),
)}

#: Option keys in the order of RULES.md section 12.
OPTION_KEYS: tuple[str, ...] = tuple(OPTION_SPECS)


def option_spec(key: str) -> OptionSpec:
    """The spec of ``key``; RulesError listing the valid keys if it is unknown."""
    spec = OPTION_SPECS.get(key.strip().lower())
    if spec is None:
        raise RulesError(
            f'unknown option key "{key}"; valid keys: {", ".join(OPTION_KEYS)}.'
        )
    return spec


def canonical_option(key: str, text: Any) -> tuple[str, str]:
    """``(key, value)`` in canonical text form, checking both."""
    spec = option_spec(key)
    return spec.key, spec.format(spec.parse(text))
