"""The printed deal diagram of NOTATION 4, with its ASCII fallback.

One line per seat (tarocks first as Roman numerals and "Sküs", then each suit as its
symbol and ranks from high to low), the dealer R marked with ``*``, and a talon line in
table order.  ``ascii=True`` replaces the suit symbols by ``H D S C``, "Sküs" by
"Skus" and the void dash by ``-``; :func:`can_show_symbols` tells whether an output
encoding needs that fallback.
"""

from __future__ import annotations

import codecs

from .cards import (
    CLUBS,
    DIAMONDS,
    GROUP_ASCII,
    GROUP_MASKS,
    GROUP_SYMBOLS,
    HEARTS,
    SPADES,
    TAROCK,
    canonical_order,
    card_label,
    indices_of,
)
from .deal import Deal, PartialDeal

__all__ = ["can_show_symbols", "hand_line", "render_deal", "talon_line"]

_SEAT_LABELS = ("F   ", "M   ", "R*  ")
#: Every non-ASCII character the diagram can print.
_SYMBOLS = "♥♦♠♣—ü"


def can_show_symbols(encoding: str | None) -> bool:
    """True when text in ``encoding`` can hold the suit symbols, the dash and "ü".

    ``None`` (an unknown encoding) counts as UTF-8, Python's default for text streams.
    """
    try:
        codecs.lookup(encoding or "utf-8")
        _SYMBOLS.encode(encoding or "utf-8")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def _rank_text(card: int, ascii: bool) -> str:
    # The label is the symbol (or letter) followed by the rank; the diagram wants the rank.
    return card_label(card, ascii=ascii)[1:]


def hand_line(mask: int, *, ascii: bool = False) -> str:
    """``Tarock: XXI XX … | ♥ K | ♦ K Q | ♠ K 9 7 | ♣ Q 9`` for one hand."""
    dash = "-" if ascii else "—"
    tarocks = [card_label(c, ascii=ascii)
               for c in canonical_order(indices_of(mask & GROUP_MASKS[TAROCK]))]
    parts = ["Tarock: " + (" ".join(tarocks) or dash)]
    for group in (HEARTS, DIAMONDS, SPADES, CLUBS):
        symbol = GROUP_ASCII[group] if ascii else GROUP_SYMBOLS[group]
        ranks = [_rank_text(c, ascii) for c in canonical_order(indices_of(mask & GROUP_MASKS[group]))]
        parts.append(f"{symbol} " + (" ".join(ranks) or dash))
    return " | ".join(parts)


def talon_line(talon: tuple[int, ...] | None, *, ascii: bool = False) -> str:
    """``Talon  t1 XII  t2 XIX  …`` in table order; ``t1 ? … t6 ?`` when unknown."""
    if talon is None:
        cells = [f"t{k} ?" for k in range(1, 7)]
    else:
        cells = [f"t{k} {card_label(c, ascii=ascii)}" for k, c in enumerate(talon, start=1)]
    return "Talon  " + "  ".join(cells)


def render_deal(deal: Deal | PartialDeal, *, name: str | None = None, rules: str = "dummett",
                ascii: bool = False) -> str:
    """The NOTATION 4 diagram: header, F, M, R (dealer starred) and the talon; no final newline."""
    title = f"Deal {name}" if name else "Deal"
    lines = [f"{title}   rules: {rules}   F leads, R deals"]
    for seat, label in enumerate(_SEAT_LABELS):
        mask = deal.hands[seat]
        lines.append(label + ("(unknown)" if mask is None else hand_line(mask, ascii=ascii)))
    lines.append(talon_line(deal.talon, ascii=ascii))
    return "\n".join(lines)
