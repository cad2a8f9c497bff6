"""French Tarot rules: the profiles, their options, the contracts and the poignées.

:func:`load_rules` returns a frozen :class:`FrenchRules`: the number of players and the
options where house rules differ from the French federation's (FFT) rulebook, with the
FFT's values as the ``fft`` profile.  :class:`Contract` names the four contracts and
reads their many spoken names; :class:`Poignee` the three poignée levels.
docs/FRENCH_TAROT.md cites the sources of every value here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from ..errors import RulesError
from .cards import (
    CHIEN_SIZE,
    EXCUSE,
    HAND_SIZE,
    TRUMP_MASK,
    cards_of,
)

__all__ = [
    "CONTRACT_ALIASES", "DEFAULT_PROFILE", "OPTION_DOCS", "PLAYERS", "POIGNEE_TRUMPS",
    "PROFILES", "Contract", "FrenchRules", "Poignee", "load_rules", "poignee_of",
    "profile_names",
]

PLAYERS = (3, 4, 5)
DEFAULT_PROFILE = "fft"


class Contract(Enum):
    """The four contracts, weakest first; the value is the canonical name."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        """The contract's coefficient: 1, 2, 4 or 6."""
        return _MULTIPLIERS[self]

    @property
    def title(self) -> str:
        return _TITLES[self]

    @property
    def exchanges(self) -> bool:
        """True when the taker takes the chien into his hand and discards (Petite, Garde)."""
        return self in (Contract.PETITE, Contract.GARDE)

    @property
    def chien_to(self) -> str:
        """Whose tricks the chien (or the taker's discard) counts with: taker or defence."""
        return "defence" if self is Contract.GARDE_CONTRE else "taker"

    @classmethod
    def parse(cls, text: str | Contract) -> Contract:
        """The contract a name means: canonical, French or English, any case, ``-``/``_``.

        RulesError naming the text and the names expected otherwise.
        """
        if isinstance(text, Contract):
            return text
        key = _contract_key(str(text))
        if key in CONTRACT_ALIASES:
            return CONTRACT_ALIASES[key]
        raise RulesError(
            f'unknown contract "{text}": expected petite, garde, garde_sans or garde_contre '
            "(also prise, gs, gc, small, guard, guard without, guard against).")


_MULTIPLIERS = {Contract.PETITE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4,
                Contract.GARDE_CONTRE: 6}
_TITLES = {Contract.PETITE: "Petite", Contract.GARDE: "Garde",
           Contract.GARDE_SANS: "Garde sans le chien",
           Contract.GARDE_CONTRE: "Garde contre le chien"}

#: The chien's name at the end of a spoken contract ("garde sans le chien") adds nothing.
_CHIEN_WORDS = re.compile(r"\s+(le|the)\s+(chien|dog|kitty)$")


def _contract_key(text: str) -> str:
    low = re.sub(r"[\s_\-]+", " ", text.strip().lower())
    return _CHIEN_WORDS.sub("", low)


#: Every accepted contract name, as :func:`_contract_key` normalises it.
CONTRACT_ALIASES: dict[str, Contract] = {
    "petite": Contract.PETITE, "prise": Contract.PETITE, "small": Contract.PETITE,
    "little": Contract.PETITE, "p": Contract.PETITE,
    "garde": Contract.GARDE, "guard": Contract.GARDE, "g": Contract.GARDE,
    "garde sans": Contract.GARDE_SANS, "gs": Contract.GARDE_SANS,
    "guard without": Contract.GARDE_SANS,
    "garde contre": Contract.GARDE_CONTRE, "gc": Contract.GARDE_CONTRE,
    "guard against": Contract.GARDE_CONTRE,
}


class Poignee(Enum):
    """The three poignée levels; the value is the canonical name."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def index(self) -> int:
        return list(Poignee).index(self)

    @classmethod
    def parse(cls, text: str | Poignee) -> Poignee:
        if isinstance(text, Poignee):
            return text
        key = str(text).strip().lower()
        for level in cls:
            if key == level.value:
                return level
        raise RulesError(f'unknown poignée "{text}": expected simple, double or triple.')


#: Trumps a poignée shows, (simple, double, triple), by number of players.
POIGNEE_TRUMPS: dict[int, tuple[int, int, int]] = {3: (13, 15, 18), 4: (10, 13, 15),
                                                    5: (8, 10, 13)}


# ----------------------------------------------------------------------- options


class _BadValue(ValueError):
    """Internal: a value text that does not fit; :func:`_parse_option` adds the context."""


def _choice(*values: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        low = text.strip().lower()
        if low not in values:
            raise _BadValue("")
        return low
    return parse


def _players(text: str) -> int:
    if text.strip() not in ("3", "4", "5"):
        raise _BadValue("")
    return int(text)


def _ints(count: int) -> Callable[[str], tuple[int, ...]]:
    def parse(text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.replace(";", ",").split(",")]
        if len(parts) != count or not all(re.fullmatch(r"\d+", p) for p in parts):
            raise _BadValue(f"{count} whole numbers separated by commas needed")
        return tuple(int(p) for p in parts)
    return parse


@dataclass(frozen=True)
class _Option:
    allowed: str
    doc: str
    parse: Callable[[str], Any]


#: Option key → what it accepts and what it means (the FFT value is the profile's).
_OPTIONS: dict[str, _Option] = {
    "players": _Option(
        "3 | 4 | 5",
        "players at the table (hands of 24/18/15 cards, a chien of 6/6/3)",
        _players),
    "excuse_last_trick": _Option(
        "changes_side | kept",
        "the Excuse played to the last trick outside a chelem: changes_side (it goes to "
        "the side that wins the trick) or kept (its side keeps it, as on any trick)",
        _choice("changes_side", "kept")),
    "petit_au_bout": _Option(
        "multiplied | flat",
        "the petit au bout's 10: multiplied by the contract's coefficient, or flat",
        _choice("multiplied", "flat")),
    "poignee_values": _Option(
        "three whole numbers S,D,T",
        "the simple, double and triple poignée bonuses (never multiplied)",
        _ints(3)),
    "chelem_values": _Option(
        "four whole numbers A,U,F,D",
        "chelem bonuses: announced and made, made unannounced, the penalty of an "
        "announced chelem failed, the defence's chelem (never multiplied)",
        _ints(4)),
}

OPTION_DOCS: dict[str, str] = {k: o.doc for k, o in _OPTIONS.items()}

#: The profiles by name: option key → value text.  ``fft`` is the federation's rulebook.
PROFILES: dict[str, dict[str, str]] = {
    "fft": {"players": "4", "excuse_last_trick": "changes_side",
            "petit_au_bout": "multiplied", "poignee_values": "20,30,40",
            "chelem_values": "400,200,200,200"},
}

#: What each profile follows, for ``tarock --game french rules``.
PROFILE_SOURCES = {
    "fft": "Fédération Française de Tarot, Règlement officiel (edition of July 2012); "
           "sources in docs/FRENCH_TAROT.md",
}


def _format(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _parse_option(key: str, value: Any) -> tuple[str, Any]:
    name = str(key).strip().lower().replace("-", "_")
    option = _OPTIONS.get(name)
    if option is None:
        raise RulesError(f'unknown French Tarot option "{key}"; known options: '
                         f'{", ".join(_OPTIONS)}.')
    raw = _format(value) if isinstance(value, tuple) else str(value).strip()
    try:
        return name, option.parse(raw)
    except _BadValue as exc:
        detail = f" ({exc})" if str(exc) else ""
        raise RulesError(f'bad value "{raw}" for option {name}{detail}; '
                         f"expected {option.allowed}.") from None


# ------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class FrenchRules:
    """One profile with its options applied; ``overrides`` the keys that differ from it."""

    name: str = DEFAULT_PROFILE
    players: int = 4
    excuse_last_trick: str = "changes_side"
    petit_au_bout: str = "multiplied"
    poignee_values: tuple[int, int, int] = (20, 30, 40)
    chelem_values: tuple[int, int, int, int] = (400, 200, 200, 200)
    overrides: tuple[tuple[str, str], ...] = ()

    game = "french"

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.players]

    @property
    def chien_size(self) -> int:
        return CHIEN_SIZE[self.players]

    def poignee_trumps(self, level: Poignee | str) -> int:
        """Trumps the poignée ``level`` shows at this table."""
        return POIGNEE_TRUMPS[self.players][Poignee.parse(level).index]

    def poignee_value(self, level: Poignee | str) -> int:
        return self.poignee_values[Poignee.parse(level).index]

    def petit_au_bout_factor(self, multiplier: int) -> int:
        """What the petit au bout's 10 is multiplied by in a contract of ``multiplier``."""
        return multiplier if self.petit_au_bout == "multiplied" else 1

    def option_items(self) -> list[tuple[str, str]]:
        """(key, canonical value text) of every option, in the table's order."""
        return [(k, _format(getattr(self, k))) for k in _OPTIONS]

    def describe_overrides(self) -> str:
        """``key=value,...`` of the options that differ from the profile ('' if none)."""
        return ",".join(f"{k}={v}" for k, v in self.overrides)

    def describe(self) -> str:
        """Plain text for ``tarock --game french rules``: contracts, targets, bonuses."""
        simple, double, triple = POIGNEE_TRUMPS[self.players]
        pab = ("10 × the coefficient" if self.petit_au_bout == "multiplied"
               else "10 (not multiplied)")
        a, u, f, d = self.chelem_values
        lines = [
            f"French Tarot, rule profile {self.name} ({self.players} players): "
            f"{PROFILE_SOURCES.get(self.name, '')}",
            f"Overrides: {self.describe_overrides() or 'none'}",
            "",
            f"Deal: {self.hand_size} cards each, a chien of {self.chien_size}.",
            "Contracts: petite ×1, garde ×2, garde_sans ×4, garde_contre ×6; the chien "
            "goes to the taker (petite and garde: shown and exchanged; garde_sans: unseen), "
            "to the defence in garde_contre.",
            "Target: 56, 51, 41 or 36 card points with 0, 1, 2 or 3 oudlers; made at the "
            "target or above; a half point of difference counts whole, for the side that "
            "wins.",
            f"Score per defender: (25 + difference + petit au bout) × coefficient + poignée "
            f"+ chelem; petit au bout {pab}, for the side that takes the last trick with "
            "the Petit in it.",
            f"Poignées: simple {simple} trumps {self.poignee_values[0]}, double {double} "
            f"{self.poignee_values[1]}, triple {triple} {self.poignee_values[2]}; to the "
            "side that wins the contract; the Excuse only in place of a missing trump.",
            f"Chelem: announced and made +{a}, made unannounced +{u}, announced and "
            f"failed -{f}; the defence's chelem +{d} to each defender.",
            "Excuse at the last trick (outside a chelem): "
            + ("changes side." if self.excuse_last_trick == "changes_side"
               else "kept by its side."),
            "Marque: " + _marque_text(self.players),
            "",
            "Options",
        ]
        lines += [f"  {k:<18} {v:<16} {'overridden' if k in dict(self.overrides) else ''}"
                  .rstrip() for k, v in self.option_items()]
        return "\n".join(lines)


def _marque_text(players: int) -> str:
    if players == 3:
        return "the taker 2 × the score, each of the 2 defenders the opposite."
    if players == 4:
        return "the taker 3 × the score, each of the 3 defenders the opposite."
    return ("the taker 2 ×, the called partner 1 ×, each of the 3 defenders the opposite; "
            "a taker alone 4 × against 4 defenders.")


_FIELDS = tuple(f.name for f in fields(FrenchRules))
assert _FIELDS[1:-1] == tuple(_OPTIONS), "FrenchRules fields must follow the option table"


def profile_names() -> tuple[str, ...]:
    return tuple(PROFILES)


def load_rules(name: str = DEFAULT_PROFILE,
               options: Mapping[str, Any] | None = None) -> FrenchRules:
    """The rules of profile ``name`` with ``options`` (``--opt KEY=VALUE``) over it.

    An unknown profile, key or value raises RulesError naming it and what was expected.
    """
    key = str(name).strip().lower()
    if key not in PROFILES:
        raise RulesError(f'unknown French Tarot rule profile "{name}"; choose one of: '
                         f'{", ".join(PROFILES)}.')
    base = dict(_parse_option(k, v) for k, v in PROFILES[key].items())
    wanted = dict(_parse_option(k, v) for k, v in (options or {}).items())
    differing = tuple(sorted((k, _format(v)) for k, v in wanted.items() if v != base[k]))
    return FrenchRules(name=key, overrides=differing, **{**base, **wanted})


def poignee_of(shown: int, hand: int, players: int) -> Poignee:
    """The level of the poignée ``shown`` (a set of cards) from ``hand``.

    RulesError unless ``shown`` is in the hand, holds only trumps and the Excuse, counts
    exactly a level's trumps, and shows the Excuse only when the hand has no trump left
    unshown (the Excuse stands in for a missing trump).
    """
    if players not in POIGNEE_TRUMPS:
        raise RulesError(f"players must be 3, 4 or 5, not {players}.")
    if shown & ~hand:
        raise RulesError("the poignée shows cards that are not in the hand.")
    allowed = TRUMP_MASK | (1 << EXCUSE)
    if shown & ~allowed:
        raise RulesError("a poignée shows only trumps (and the Excuse).")
    count = len(cards_of(shown))
    levels = POIGNEE_TRUMPS[players]
    if count not in levels:
        raise RulesError(f"a poignée of {count} cards: at {players} players a poignée shows "
                         f"{levels[0]}, {levels[1]} or {levels[2]} trumps.")
    if shown >> EXCUSE & 1 and hand & TRUMP_MASK & ~shown:
        raise RulesError("the Excuse may be shown only in place of a missing trump: the "
                         "hand has a trump left unshown.")
    return list(Poignee)[levels.index(count)]
