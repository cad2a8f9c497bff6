"""The printed French Tarot deal (FRENCH_NOTATION.md 4): the diagram and the points table.

One line per seat, the trumps first by number and the Excuse, then each suit as its
symbol with its ranks from the King down; the dealer (the last seat) is marked with
``*``, and a line for the chien (and the taker's discard, if known).  The points table
gives each hand's card points in half points and points (x.5 allowed) and its oudlers,
and checks that the piles hold the pack's 91 points.  ``ascii=True`` writes the suits
as ``S H D C`` and a void as ``-``.
"""

from __future__ import annotations

from .cards import (
    ALL_CARDS,
    EXCUSE,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    TOTAL_HALF_POINTS,
    TRUMP_MASK,
    cards_of,
    half_points,
    oudlers_in,
    suit_mask,
)
from .deal import FrenchDeal, FrenchPartialDeal, canonical_order
from .notation import card_label

__all__ = ["format_points", "hand_line", "points_table", "render_deal"]


def format_points(half: int) -> str:
    """Points of a number of half points: ``21``, ``20.5``."""
    return f"{half // 2}.5" if half % 2 else str(half // 2)


def hand_line(mask: int, *, ascii: bool = False) -> str:
    """``Trumps: 21 20 7 Excuse | ♠ K 10 9 | ♥ — | ♦ Q 2 | ♣ C 1`` for one hand."""
    dash = "-" if ascii else "—"
    trumps = [card_label(c) for c in canonical_order(cards_of(mask & (TRUMP_MASK | 1 << EXCUSE)))]
    parts = ["Trumps: " + (" ".join(trumps) or dash)]
    for suit in range(4):
        symbol = SUIT_LETTERS[suit] if ascii else SUIT_SYMBOLS[suit]
        ranks = [card_label(c)[1:] for c in canonical_order(cards_of(mask & suit_mask(suit)))]
        parts.append(f"{symbol} " + (" ".join(ranks) or dash))
    return " | ".join(parts)


def _cards_line(title: str, mask: int | None, ascii: bool) -> str:
    if mask is None:
        return f"{title}  ?"
    labels = [card_label(c, ascii=ascii) for c in canonical_order(cards_of(mask))]
    return f"{title}  " + " ".join(labels)


def render_deal(deal: FrenchDeal | FrenchPartialDeal, *, name: str | None = None,
                rules: str = "fft", ascii: bool = False) -> str:
    """The diagram: header, one line per seat (the dealer starred), the chien and the
    discard; no final newline."""
    players = deal.players
    names = deal.seat_names
    title = f"Deal {name}" if name else "Deal"
    header = (f"{title}   French Tarot, {players} players   rules: {rules}   "
              f"{names[0]} leads, {names[-1]} deals")
    taker = contract = discard = None
    if isinstance(deal, FrenchDeal):
        taker, contract, discard = deal.taker, deal.contract, deal.discard
    if taker is not None or contract is not None:
        who = f"taker {names[taker]}" if taker is not None else "taker ?"
        header += f"   {who}" + (f", {contract.replace('_', ' ')}" if contract else "")
    lines = [header]
    for seat, mask in enumerate(deal.hands):
        label = names[seat] + ("*" if seat == players - 1 else "")
        shown = "(unknown)" if mask is None else hand_line(mask, ascii=ascii)
        lines.append(f"{label:<4}{shown}")
    lines.append(_cards_line("Chien", deal.chien, ascii))
    if discard is not None:
        lines.append(_cards_line("Discard", discard, ascii))
    return "\n".join(lines)


def points_table(deal: FrenchDeal | FrenchPartialDeal) -> list[str]:
    """Card points and oudlers of each hand and the chien, and the 91-point check.

    Unknown hands and an unknown chien are pooled in one "unknown" row, so that the
    check covers partial deals too.  The last line starts with ``Check FAILED`` when
    the piles do not hold the pack (a deal built without validation).
    """
    rows: list[tuple[str, int | None]] = []
    placed = 0
    for seat, mask in zip(deal.seat_names, deal.hands, strict=True):
        rows.append((seat, mask))
        placed |= mask or 0
    rows.append(("Chien", deal.chien))
    placed |= deal.chien or 0
    unknown = ALL_CARDS & ~placed
    if unknown:
        rows.append((f"Unknown ({unknown.bit_count()} cards)", unknown))

    lines = [f"{'Card points':<20}{'half':>6}{'points':>8}{'oudlers':>9}"]
    total = oudlers = 0
    sums = []
    for label, mask in rows:
        if mask is None:
            lines.append(f"{label:<20}{'?':>6}{'?':>8}{'?':>9}")
            continue
        half = half_points(mask)
        total += half
        oudlers += oudlers_in(mask)
        sums.append(str(half))
        lines.append(f"{label:<20}{half:>6}{format_points(half):>8}{oudlers_in(mask):>9}")
    lines.append(f"{'Total':<20}{total:>6}{format_points(total):>8}{oudlers:>9}")
    text = " + ".join(sums)
    if total == TOTAL_HALF_POINTS:
        lines.append(f"Check: {text} = {total} half points = {total // 2} points, as in every "
                     f"deal.")
    else:
        lines.append(f"Check FAILED: {text} = {total} half points, but a pack holds "
                     f"{TOTAL_HALF_POINTS}.")
    return lines
