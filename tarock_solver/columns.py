"""Plain-text tables: rows of cells aligned in columns under a header line."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["align"]


def align(rows: Sequence[Sequence[object]], header: Sequence[object], *, indent: str = "  ",
          numeric: bool = False) -> list[str]:
    """The header and the rows as lines, each column as wide as its widest cell and two
    spaces apart; cells left-aligned, or with ``numeric`` every column after the first
    right-aligned (numbers line up on their last digit).  Trailing spaces are cut."""
    table = [[str(c) for c in r] for r in [header, *rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    out = []
    for r in table:
        cells = [c.rjust(w) if numeric and i else c.ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append((indent + "  ".join(cells)).rstrip())
    return out
