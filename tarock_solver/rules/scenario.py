"""The ``option`` column of result files (NOTATION.md 5.3): one scenario as a string.

::

    option       = "plain" | item *( ";" item )
    item         = level | announcement | contra | setting
    level        = "level=" ( "taken" | "held" | "retaken" )
    announcement = name "@" ( "after" | "before" ) [ "/" seat ]
    contra       = "x:" object "=" stages
    setting      = "opt:" key "=" value

Items are written in a fixed order: level, announcements (alphabetical),
contras (alphabetical by object), settings (alphabetical by key).  The reader
accepts any order and any case; the writer produces the canonical form, so
``format_option(parse_option(s)) == s`` for every canonical ``s``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import RulesError
from .names import ANNOUNCE_LEVELS, ANNOUNCEMENT_NAMES, GAME_LEVELS, SEAT_NAMES
from .options import canonical_option

CONTRA_OBJECTS: tuple[str, ...] = ("game", *ANNOUNCEMENT_NAMES)
_STAGES = re.compile(r"[ab]{1,3}")


@dataclass(frozen=True)
class Announcement:
    """An announced item; ``seat`` is set only for a defender's own announcement."""

    name: str
    level: str
    seat: int | None = None

    def text(self) -> str:
        tail = "" if self.seat is None else f"/{SEAT_NAMES[self.seat]}"
        return f"{self.name}@{self.level}{tail}"


@dataclass(frozen=True)
class Option:
    """A parsed ``option`` string.  All parts are kept sorted (canonical order)."""

    level: str | None = None
    announcements: tuple[Announcement, ...] = ()
    contras: tuple[tuple[str, str], ...] = ()  # (object, stages)
    settings: tuple[tuple[str, str], ...] = ()  # (key, canonical value)

    def __post_init__(self) -> None:
        object.__setattr__(self, "announcements", tuple(sorted(
            self.announcements, key=lambda a: (a.name, a.level, -1 if a.seat is None else a.seat))))
        object.__setattr__(self, "contras", tuple(sorted(self.contras)))
        object.__setattr__(self, "settings", tuple(sorted(self.settings)))

    @property
    def is_plain(self) -> bool:
        return not (self.level or self.announcements or self.contras or self.settings)

    def declarer_announcements(self) -> dict[str, str]:
        return {a.name: a.level for a in self.announcements if a.seat is None}

    def defender_announcements(self) -> dict[int, dict[str, str]]:
        out: dict[int, dict[str, str]] = {}
        for a in self.announcements:
            if a.seat is not None:
                out.setdefault(a.seat, {})[a.name] = a.level
        return out

    def settings_dict(self) -> dict[str, str]:
        return dict(self.settings)

    def __str__(self) -> str:
        return format_option(self)


def _bad(item: str, text: str, expected: str) -> RulesError:
    return RulesError(f'bad option item "{item}" in "{text}": {expected}')


def parse_option(text: str) -> Option:
    """Read an ``option`` string; RulesError naming the bad item and what was expected."""
    raw = text.strip()
    if raw.lower() in ("plain", ""):
        return Option()
    level: str | None = None
    anns: list[Announcement] = []
    contras: dict[str, str] = {}
    settings: dict[str, str] = {}
    seen_ann: set[tuple[str, int | None]] = set()
    for part in raw.split(";"):
        item = part.strip()
        low = item.lower()
        if not item:
            raise _bad(item, text, "empty item (two ';' in a row?).")
        if low == "plain":
            raise _bad(item, text, '"plain" cannot be combined with other items.')
        if low.startswith("level="):
            value = low[len("level="):]
            if value not in GAME_LEVELS:
                raise _bad(item, text, f"the level is one of {', '.join(GAME_LEVELS)}.")
            if level is not None:
                raise _bad(item, text, "only one level may be given.")
            level = value
        elif low.startswith("x:"):
            obj, eq, stages = low[2:].partition("=")
            if obj not in CONTRA_OBJECTS:
                raise _bad(item, text, f"the contra object is one of {', '.join(CONTRA_OBJECTS)}.")
            if not eq or not _STAGES.fullmatch(stages):
                raise _bad(item, text, "contra stages are 1 to 3 letters a (after the talon) "
                                       "or b (before it), e.g. x:game=ba.")
            if obj in contras:
                raise _bad(item, text, f"{obj} is contra'd twice.")
            contras[obj] = stages
        elif low.startswith("opt:"):
            key, eq, value = item[4:].partition("=")
            if not eq:
                raise _bad(item, text, "a setting is opt:KEY=VALUE.")
            ckey, cvalue = canonical_option(key, value)
            if ckey in settings:
                raise _bad(item, text, f"option {ckey} is set twice.")
            settings[ckey] = cvalue
        else:
            m = re.fullmatch(r"([a-z_]+)@([a-z]+)(?:/([a-z]))?", low)
            if not m:
                raise _bad(item, text, "expected level=..., NAME@after|before[/SEAT], "
                                       "x:OBJECT=STAGES or opt:KEY=VALUE.")
            name, lvl, seat_txt = m.groups()
            if name not in ANNOUNCEMENT_NAMES:
                raise _bad(item, text, f"the announcement is one of {', '.join(ANNOUNCEMENT_NAMES)}.")
            if lvl not in ANNOUNCE_LEVELS:
                raise _bad(item, text, "the level of an announcement is after or before.")
            seat = None
            if seat_txt is not None:
                if seat_txt.upper() not in SEAT_NAMES:
                    raise _bad(item, text, "the seat is F, M or R.")
                seat = SEAT_NAMES.index(seat_txt.upper())
            if (name, seat) in seen_ann:
                raise _bad(item, text, f"{name} is announced twice.")
            seen_ann.add((name, seat))
            anns.append(Announcement(name, lvl, seat))
    return Option(level, tuple(anns), tuple(contras.items()), tuple(settings.items()))


def format_option(option: Option) -> str:
    """The canonical ``option`` string (``plain`` when nothing is set)."""
    if option.is_plain:
        return "plain"
    parts: list[str] = []
    if option.level:
        parts.append(f"level={option.level}")
    parts.extend(a.text() for a in option.announcements)
    parts.extend(f"x:{obj}={stages}" for obj, stages in option.contras)
    parts.extend(f"opt:{key}={value}" for key, value in option.settings)
    return ";".join(parts)
