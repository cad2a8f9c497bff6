"""Text output shared by the commands: ASCII spellings (``--ascii``) and aligned tables."""

from __future__ import annotations

import sys

from tarock_solver.columns import align

_ASCII = str.maketrans({
    "×": "x", "−": "-", "—": "-", "–": "-", "≥": ">=", "≤": "<=", "⅓": " 1/3", "⅔": " 2/3",
    "ö": "oe", "ü": "ue", "ä": "ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "≡": "=",
    "±": "+/-", "≈": "~", "…": "...", "→": "->",
})


def plain(text: str, ascii_only: bool) -> str:
    """``text`` as is, or with the non-ASCII symbols spelled out (``--ascii``)."""
    return text.translate(_ASCII) if ascii_only else text


def table(rows: list[list[str]], header: list[str], indent: str = "  ") -> list[str]:
    """Rows left-aligned in columns under a header."""
    return align(rows, header, indent=indent)


def stdout_encoding() -> str | None:
    """The encoding of the stream the command prints to (None if it has none).

    Read from ``sys.stdout`` itself, which is what click prints to (and what its test
    runner replaces), without asking click to wrap it in a new stream first.
    """
    return getattr(sys.stdout, "encoding", None)
