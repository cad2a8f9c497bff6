"""User-facing errors.  The CLI turns every :class:`TarockError` into one clear
message and exit status 2 (no traceback unless ``--debug``).

An error about one piece of input (a deal string, a record) names all its problems at
once: :func:`make_error` builds it from :class:`Problem` items and, when the bad tokens'
positions are known, appends the input with carets under them.  Such an error carries
``messages`` (the problems, one string each), ``source`` (the text read, or ``None``)
and ``spans`` (``(start, end)`` offsets of the bad tokens in ``source``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class TarockError(Exception):
    """Base class for errors caused by user input; ``str(err)`` is the message to show."""


class NotationError(TarockError, ValueError):
    """A card, hand or deal string that cannot be read."""


class DealError(TarockError, ValueError):
    """A deal that is readable but invalid (card counts, duplicates, missing cards)."""


class RulesError(TarockError, ValueError):
    """An unknown rule profile, option key or option value, or an impossible scenario."""


class FileFormatError(TarockError, ValueError):
    """A bad record in a deal or results file; carries file name and line number."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 record_id: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.record_id = record_id


def one_line(text: str) -> str:
    """``text`` as it may stand inside a one-line message: every character that is not
    printable (line breaks of any kind, tabs, control characters) is escaped as Python
    writes it, so a quoted piece of bad input can never break the message's line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


@dataclass(frozen=True)
class Problem:
    """One problem of an input: its message and, if known, the span of the bad token."""

    message: str
    span: tuple[int, int] | None = None


def _caret_block(source: str, spans: list[tuple[int, int]]) -> str:
    # Newlines and tabs would break the column alignment of the carets.
    shown = re.sub(r"[\t\r\n]", " ", source)
    marks = [" "] * (len(shown) + 1)
    for start, end in spans:
        for k in range(start, max(end, start + 1)):
            if k < len(marks):
                marks[k] = "^"
    return f"  {shown}\n  {''.join(marks).rstrip()}"


def make_error(cls: type[TarockError], problems: list[Problem],
               source: str | None = None) -> TarockError:
    """An error of class ``cls`` naming every problem, with a caret line under ``source``."""
    messages = [p.message for p in problems]
    spans = [p.span for p in problems if p.span is not None]
    text = "\n".join(messages)
    if source is not None and spans:
        text += "\n" + _caret_block(source, spans)
    err = cls(text)
    err.messages = messages  # type: ignore[attr-defined]
    err.source = source  # type: ignore[attr-defined]
    err.spans = spans  # type: ignore[attr-defined]
    return err


def json_error_text(exc: ValueError, column_offset: int = 0) -> str:
    """``not valid JSON (expecting ',' delimiter at column 48)`` for a JSONDecodeError.

    Some of Python's messages end in "at" ("Unterminated string starting at"), which
    would read "… starting at at column 12"; the position is added once.
    """
    msg = str(getattr(exc, "msg", exc))
    reason = msg[:1].lower() + msg[1:]
    reason = reason.removesuffix(" at").rstrip(":")
    column = getattr(exc, "colno", None)
    if column is None:
        return f"not valid JSON ({reason})"
    return f"not valid JSON ({reason} at column {column + column_offset})"
