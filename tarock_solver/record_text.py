"""Played-deal text of both games: ``key: value`` fields and the play trick by trick.

A played deal is written as fields, one a line or separated by ``;`` (NOTATION.md 8.1,
FRENCH_NOTATION.md 8); :func:`split_fields` reads them given a game's field names.  The
play is a list of tricks separated by ``|`` or new lines, each optionally numbered
(``3.``) and opened by the seat that leads it (``R:``, ``2:``); :func:`read_play` reads
it given a game's trick size, seats and card reader and names every bad token with its
trick.  Each game raises its own error from the problems these return.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from .errors import TarockError

__all__ = ["fold_key", "read_play", "split_fields", "split_tokens"]

_FIELD_RE = re.compile(r"^\s*([A-Za-z][A-Za-z _-]*?)\s*[:=]\s?(.*)$", re.DOTALL)
_TRICK_NUMBER_RE = re.compile(r"^(\d+)[.)]$")


def fold_key(key: str) -> str:
    """A field name as it is matched: lower case, spaces, ``-`` and ``_`` dropped."""
    return re.sub(r"[\s_-]+", "", key.strip().lower())


def split_tokens(text: str) -> list[str]:
    """The tokens of a list written with spaces, commas or semicolons between them."""
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]


def _looks_like_field(piece: str, key_of: Mapping[str, str]) -> bool:
    match = _FIELD_RE.match(piece)
    return bool(match) and fold_key(match.group(1)) in key_of


def split_fields(text: str, key_of: Mapping[str, str], keys: Iterable[str]
                 ) -> tuple[dict[str, str], list[str]]:
    """The fields of a record text, ``{key: value}``, and the problems found.

    ``key_of`` maps every accepted spelling of a field name (folded: :func:`fold_key`)
    to the field; ``keys`` are the names a problem lists as expected.  The ``play``
    value goes on over the lines that follow it.
    """
    fields: dict[str, str] = {}
    problems: list[str] = []
    current: str | None = None
    # ";" separates fields on one line; inside the play a ";" would only separate cards,
    # so a new field starts only where a known key follows.
    pieces: list[str] = []
    for line in text.splitlines():
        parts = line.split(";")
        if len(parts) > 1 and not all(_looks_like_field(p, key_of) or not p.strip()
                                      for p in parts[1:]):
            pieces.append(line)
        else:
            pieces.extend(parts)
    for piece in pieces:
        if not piece.strip() or piece.lstrip().startswith("#"):
            continue
        match = _FIELD_RE.match(piece) if _looks_like_field(piece, key_of) else None
        if match:
            key = key_of[fold_key(match.group(1))]
            if key in fields:
                problems.append(f'the field "{key}" is given twice.')
            fields[key] = match.group(2).strip()
            current = key
        elif current == "play":
            fields["play"] += "\n" + piece.strip()
        else:
            shown = piece.strip()
            problems.append(f'"{shown[:40]}": not a field; write KEY: VALUE with KEY one of '
                            f"{', '.join(keys)}.")
    return fields, problems


def _segments(text: str) -> list[str]:
    return [s for s in re.split(r"[|\n]", text) if s.strip()]


def read_play(value: str | Iterable[str | Iterable[object]], *, per_trick: int,
              seat_of: Callable[[str], int | None], seat_mark: re.Pattern[str],
              seat_help: str, card_of: Callable[[str], int]
              ) -> tuple[tuple[int, ...], tuple[int | None, ...], list[str]]:
    """(cards in play order, the leader the text names per trick or None, problems).

    ``value`` is the play text or a list of tricks (each a string or a list of card
    tokens).  Tricks are separated by ``|``, by new lines, or not at all (the cards are
    then taken ``per_trick`` at a time); a trick may start with its number (``3.``) and
    with a token ``seat_mark`` matches, whose group ``seat_of`` turns into a seat (None:
    no such seat, named with ``seat_help``).  ``card_of`` reads a card token and raises
    :class:`TarockError` naming what is wrong; every bad token is reported with its trick
    and place.  A card played twice is left to the rules of play.
    """
    if isinstance(value, str):
        segments = _segments(value)
    else:
        segments = [v if isinstance(v, str) else " ".join(map(str, v)) for v in value]
    cards: list[int] = []
    leaders: dict[int, int] = {}
    numbers: list[tuple[int, int]] = []
    problems: list[str] = []
    explicit = len(segments) > 1
    for seg in segments:
        if explicit and len(cards) % per_trick:
            short = len(cards) % per_trick
            problems.append(f"trick {len(cards) // per_trick + 1}: {short} card"
                            f"{'s' if short > 1 else ''} before the next trick starts; a "
                            f"trick has {per_trick} cards.")
            cards.extend([-1] * (per_trick - short))
        for token in split_tokens(seg):
            trick = len(cards) // per_trick + 1
            number = _TRICK_NUMBER_RE.match(token)
            if number and len(cards) % per_trick == 0:
                numbers.append((int(number.group(1)), trick))
                continue
            mark = seat_mark.match(token)
            if mark and len(cards) % per_trick == 0:
                seat = seat_of(mark.group(1))
                if seat is not None:
                    leaders[trick - 1] = seat
                else:
                    problems.append(f'trick {trick}: unknown seat "{token}"; {seat_help}.')
                continue
            try:
                cards.append(card_of(token))
            except TarockError as exc:
                problems.append(f"trick {trick}, card {len(cards) % per_trick + 1}: {exc}")
                cards.append(-1)
    for given, actual in numbers:
        if given != actual:
            problems.append(f"trick {actual}: it is numbered {given}; tricks are numbered "
                            "1, 2, 3 … in play order.")
    n_tricks = -(-len(cards) // per_trick)
    return tuple(cards), tuple(leaders.get(t) for t in range(n_tricks)), problems
