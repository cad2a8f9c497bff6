"""The fixed vocabulary of the rules: contract, bird, item, level and seat names.

These names appear in option strings, result files and on the command line
(NOTATION.md 5.3), so they are spelled once, here; the seat and bird names are those of
the pack itself (:mod:`tarock_solver.cards`).
"""

from __future__ import annotations

from ..cards import BIRD_NAMES, BIRD_TRICK, SEAT_HELP, SEAT_NAMES
from ..errors import RulesError

__all__ = [
    "ANNOUNCEMENT_NAMES", "ANNOUNCE_LEVELS", "BIRD_KEYS", "BIRD_TRICK", "CONTRACT_KEYS",
    "DECLARATION_KEYS", "GAME_LEVELS", "HAND_KEYS", "ITEM_LEVELS", "ITEM_TITLES", "SEAT_NAMES",
    "TALON_CARDS", "TARGET_KEYS", "TARGET_POINTS", "item_name", "seat_index",
]

#: Every contract key, lowest bid first (RULES.md 6); a profile uses a subset.
CONTRACT_KEYS: tuple[str, ...] = ("three", "lower", "two", "one", "solo")

#: Talon cards the declarer takes (RULES.md 4); the same in every profile.
TALON_CARDS: dict[str, int] = {"three": 3, "lower": 3, "two": 2, "one": 1, "solo": 0}

#: Birds in card order (I, II, III); ``BIRD_TRICK`` is the trick each must win.
BIRD_KEYS = BIRD_NAMES

#: Point targets, with the rounded points each needs (RULES.md 5.3).
TARGET_KEYS: tuple[str, ...] = ("absolut", "kramerpoi")
TARGET_POINTS: dict[str, int] = {"absolut": 40, "kramerpoi": 50}

#: "Ohne" declarations.
DECLARATION_KEYS: tuple[str, ...] = ("no_trull", "no_kings")

#: Hand bonuses (RULES.md 5.5), in the order of the ``hand_bonuses`` option.
HAND_KEYS: tuple[str, ...] = ("trull", "koepfe", "kings")

#: Every announceable item, in the order of the NOTATION 5.3 grammar.
ANNOUNCEMENT_NAMES: tuple[str, ...] = (
    "pagat", "uhu", "kakadu", "absolut", "kramerpoi", "no_trull", "no_kings",
    "valat", "trull", "koepfe", "kings",
)

#: Item levels: silent, announced after the talon, announced before the talon.
ITEM_LEVELS: tuple[str, ...] = ("silent", "after", "before")
ANNOUNCE_LEVELS: tuple[str, ...] = ("after", "before")

#: Raised game levels of take-over auctions (RULES.md 6.2, 6.4).
GAME_LEVELS: tuple[str, ...] = ("taken", "held", "retaken")

#: Display names of the items, Unicode and ASCII.
ITEM_TITLES: dict[str, str] = {
    "game": "Game", "overshoot": "Over/under points",
    "pagat": "Pagat", "uhu": "Uhu", "kakadu": "Kakadu",
    "absolut": "Absolut (40)", "kramerpoi": "Kramerpoi (50)",
    "no_trull": "No Trull", "no_kings": "No Kings", "valat": "Valat",
    "trull": "Trull", "koepfe": "Köpfe", "kings": "Four Kings",
}

#: Lenient spellings accepted on input, mapped to the canonical item name.
_ITEM_ALIASES: dict[str, str] = {
    "40": "absolut", "mit40": "absolut", "absolute": "absolut",
    "50": "kramerpoi", "mit50": "kramerpoi", "panzer": "kramerpoi",
    "kopfe": "koepfe", "köpfe": "koepfe", "kopf": "koepfe",
    "notrull": "no_trull", "ohnetrull": "no_trull",
    "nokings": "no_kings", "ohnekonige": "no_kings", "ohnekoenige": "no_kings",
    "fourkings": "kings", "konige": "kings", "koenige": "kings", "konigstrull": "kings",
    "ultimo": "pagat", "spatz": "pagat", "kike": "kakadu",
}


def item_name(text: str) -> str:
    """Canonical announcement name of ``text`` (case and ``-``/``_``/spaces ignored)."""
    raw = text.strip().lower()
    if raw in ANNOUNCEMENT_NAMES:
        return raw
    squeezed = raw.replace("-", "").replace("_", "").replace(" ", "").replace("ö", "o")
    for name in ANNOUNCEMENT_NAMES:
        if squeezed == name.replace("_", ""):
            return name
    if squeezed in _ITEM_ALIASES:
        return _ITEM_ALIASES[squeezed]
    raise RulesError(
        f'unknown announcement "{text}"; expected one of: {", ".join(ANNOUNCEMENT_NAMES)}.'
    )


#: Seats by their long English and German names (the dealer sits rearhand).
_SEAT_ALIASES = {"FOREHAND": 0, "VORHAND": 0, "MIDDLEHAND": 1, "MITTELHAND": 1,
                 "REARHAND": 2, "HINTERHAND": 2, "DEALER": 2}


def seat_index(text: str | int) -> int:
    """Seat number 0/1/2 of ``F``/``M``/``R`` (any case; also ``forehand`` …
    ``rearhand``, ``Vorhand`` … ``Hinterhand``, ``dealer``; or of 0/1/2 themselves)."""
    if isinstance(text, int) and not isinstance(text, bool) and text in (0, 1, 2):
        return text
    key = str(text).strip().upper()
    if key in SEAT_NAMES:
        return SEAT_NAMES.index(key)
    if key in _SEAT_ALIASES:
        return _SEAT_ALIASES[key]
    raise RulesError(f'unknown seat "{text}"; {SEAT_HELP}.')
