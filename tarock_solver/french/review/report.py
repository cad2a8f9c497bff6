"""What a French Tarot review says, in the forms it is read in: per-seat totals, the JSON
document, text lines for the terminal and the rows of ``tarock --game french batch
--mode review``.

Values are the taker's card points at the end of the play.  The JSON document and the
rows keep them in half points (``*_half``: whole numbers for exact values, decimals for
estimates); the text shows points, halves as ``.5``.  Estimates are marked ``~``, bounds
that a budget left open ``a..b*``, cards without a value ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...columns import align
from ..cards import CARD_IDS, HALF_POINTS, TARGET_HALF_POINTS
from ..deal_files import record_json
from ..notation import card_label, format_cards, format_deal
from ..scoring import format_half_points
from .engine import BOUNDS, ESTIMATE, EXACT, UNJUDGED, CardVerdict, FrenchReview

__all__ = ["ESTIMATED_MISTAKE", "REVIEW_COLUMNS", "SCHEMA", "SeatSummary", "lost_something",
           "review_frame", "review_lines", "review_rows", "review_to_json", "seat_summaries"]

#: Version of the review document and of the batch rows.
SCHEMA = 1
#: Decisions listed per seat.
WORST = 3
#: An estimated loss counts as a mistake from this many half points (1 point): below it
#: the difference between two estimates is within the evaluator's error.
ESTIMATED_MISTAKE = 2


@dataclass(frozen=True)
class SeatSummary:
    """One seat's play.

    ``cards`` played, of which ``exact``, ``estimated``, ``open`` (over the budget:
    bounds only) and ``unjudged``; ``mistakes`` (an exact loss in the points or the
    margin), the total ``loss`` in half points and ``margin_loss`` in the margin (None
    when not searched); ``estimated_mistakes`` (estimated loss of at least
    :data:`ESTIMATED_MISTAKE`) and their ``estimated_loss``; the ``worst`` exact and
    estimated decisions, largest loss first.
    """

    seat: int
    role: str
    cards: int
    exact: int
    estimated: int
    open: int
    unjudged: int
    mistakes: int
    loss: int
    margin_loss: int | None
    estimated_mistakes: int
    estimated_loss: float
    worst: tuple[CardVerdict, ...]
    worst_estimated: tuple[CardVerdict, ...]


def seat_summaries(rv: FrenchReview) -> list[SeatSummary]:
    """Per seat 1 to 4: the totals of :class:`SeatSummary`."""
    out = []
    for seat in range(4):
        mine = [c for c in rv.cards if c.seat == seat]
        exact = [c for c in mine if c.source == EXACT]
        est = [c for c in mine if c.source == ESTIMATE]
        bad = sorted((c for c in exact if c.loss or c.margin_loss),
                     key=lambda c: (-(c.loss or 0), -(c.margin_loss or 0), c.trick))
        est_bad = sorted((c for c in est if (c.loss or 0) >= ESTIMATED_MISTAKE),
                         key=lambda c: (-(c.loss or 0), c.trick))
        margin = sum(c.margin_loss or 0 for c in exact) if rv.margin else None
        out.append(SeatSummary(
            seat=seat, role="taker" if seat == rv.line.taker else "defender", cards=len(mine),
            exact=len(exact), estimated=len(est),
            open=sum(1 for c in mine if c.source == BOUNDS),
            unjudged=sum(1 for c in mine if c.source == UNJUDGED),
            mistakes=len(bad), loss=int(sum(c.loss or 0 for c in exact)),
            margin_loss=margin, estimated_mistakes=len(est_bad),
            estimated_loss=float(sum(c.loss or 0 for c in est_bad)),
            worst=tuple(bad[:WORST]), worst_estimated=tuple(est_bad[:WORST])))
    return out


# ---------------------------------------------------------------- numbers


def _half(v: float | None) -> float | int | None:
    """A value for JSON: whole half points when exact, two decimals when estimated."""
    if v is None:
        return None
    return int(v) if float(v).is_integer() else round(float(v), 2)


def _points(v: float | None, estimated: bool = False) -> str:
    """Half points as points: ``47.5``; an estimate ``~47.3``; None ``?``."""
    if v is None:
        return "?"
    if estimated:
        return f"~{v / 2:.1f}"
    return format_half_points(int(v))


def _bounds(b: tuple[int, int] | None) -> str:
    if b is None:
        return "?"
    lo, hi = b
    return format_half_points(lo) if lo == hi else \
        f"{format_half_points(lo)}..{format_half_points(hi)}*"


def _loss(c: CardVerdict) -> str:
    if c.source == BOUNDS:
        return "0" if c.loss_bounds == (0, 0) else f"−({_bounds(c.loss_bounds)})"
    if c.loss is None:
        return "?"
    if c.source == ESTIMATE:
        return "~0" if c.loss < 0.05 else f"~−{c.loss / 2:.1f}"
    return "0" if c.loss == 0 else "−" + format_half_points(int(c.loss))


def _before(c: CardVerdict) -> str:
    if c.source == BOUNDS:
        return _bounds(c.before_bounds)
    return _points(c.before, c.source == ESTIMATE)


def _after(c: CardVerdict) -> str:
    if c.source == BOUNDS:
        return _bounds(c.after_bounds)
    return _points(c.after, c.source == ESTIMATE and not c.values[c.card].exact)


# ---------------------------------------------------------------- JSON document


def _value_json(c: CardVerdict, card: int) -> Any:
    v = c.values[card]
    if v.exact:
        return v.lower
    out: dict[str, Any] = {}
    if v.lower is not None:
        out["bounds"] = [v.lower, v.upper]
    if v.estimate is not None:
        out["estimate"] = round(v.estimate, 2)
    return out or None


def _card_json(c: CardVerdict) -> dict[str, Any]:
    return {
        "trick": c.trick, "place": c.place + 1, "seat": str(c.seat + 1),
        "card": CARD_IDS[c.card], "source": c.source, "forced": c.forced,
        "tricks_left": c.tricks_left,
        "before_half": _half(c.before), "after_half": _half(c.after),
        "loss_half": _half(c.loss),
        "before_bounds": None if c.before_bounds is None else list(c.before_bounds),
        "after_bounds": None if c.after_bounds is None else list(c.after_bounds),
        "loss_bounds": None if c.loss_bounds is None else list(c.loss_bounds),
        "best": [CARD_IDS[x] for x in c.best_cards],
        "alternatives": [[CARD_IDS[x], _half(v)] for x, v in c.alternatives],
        "values": {CARD_IDS[x]: _value_json(c, x) for x in sorted(c.values)},
        "margin_before_half": c.margin_before, "margin_after_half": c.margin_after,
        "margin_loss_half": c.margin_loss,
        "margin_best": [CARD_IDS[x] for x in c.margin_best_cards],
    }


def review_to_json(rv: FrenchReview) -> dict[str, Any]:
    """The whole review as one JSON-ready object (``tarock --game french review --json``)."""
    line = rv.line
    seats = []
    for p in seat_summaries(rv):
        seats.append({
            "seat": str(p.seat + 1), "role": p.role, "cards": p.cards, "exact": p.exact,
            "estimated": p.estimated, "open": p.open, "unjudged": p.unjudged,
            "mistakes": p.mistakes, "loss_half": p.loss, "margin_loss_half": p.margin_loss,
            "estimated_mistakes": p.estimated_mistakes,
            "estimated_loss_half": round(p.estimated_loss, 2),
            "worst": [{"trick": c.trick, "card": CARD_IDS[c.card], "loss_half": _half(c.loss),
                       "margin_loss_half": c.margin_loss,
                       "best": [CARD_IDS[x] for x in c.best_cards]} for c in p.worst],
            "worst_estimated": [{"trick": c.trick, "card": CARD_IDS[c.card],
                                 "loss_half": _half(c.loss),
                                 "best": [CARD_IDS[x] for x in c.best_cards]}
                                for c in p.worst_estimated]})
    played = None
    if line.final is not None:
        played = {"half_points": rv.played_points, "points": rv.played_points / 2,
                  "oudlers": rv.played_oudlers,
                  "target_half": TARGET_HALF_POINTS[min(rv.played_oudlers or 0, 3)],
                  "margin_half": rv.played_margin, "made": (rv.played_margin or 0) >= 0}
    return {
        "schema": SCHEMA, "game": "french", "record": record_json(line.record),
        "rules": rv.rules, "taker": str(line.taker + 1), "contract": line.contract.value,
        "complete": line.complete, "exact": rv.exact, "exact_tricks": rv.exact_tricks,
        "evaluator": rv.evaluator, "evaluator_note": rv.evaluator_note or None,
        "margin": rv.margin,
        "budget": {"nodes": rv.budget.nodes, "seconds": rv.budget.seconds},
        "start_half": _half(rv.start), "start_source": rv.start_source,
        "final_half": _half(rv.final), "final_source": rv.final_source,
        "played": played, "seats": seats,
        "tricks": [{"number": t.number, "leader": str(t.leader + 1),
                    "cards": [CARD_IDS[c] for c in t.cards],
                    "winner": None if t.winner is None else str(t.winner + 1),
                    "taker_half": t.taker_half_points} for t in line.tricks],
        "cards": [_card_json(c) for c in rv.cards],
        "seconds": round(rv.seconds, 3), "nodes": rv.nodes,
    }


# ---------------------------------------------------------------- text


def _source_lines(rv: FrenchReview) -> list[str]:
    """Where the values come from, and what is left unjudged and why."""
    budget = []
    if rv.budget.seconds is not None:
        budget.append(f"{rv.budget.seconds:g} s")
    if rv.budget.nodes is not None:
        budget.append(f"{rv.budget.nodes:,} nodes")
    limit = f", at most {' and '.join(budget)} a position" if budget else ""
    lines = [f"Values: the exact solver's where {rv.exact_tricks} tricks or fewer were left"
             f"{limit}."]
    early = [c for c in rv.cards if c.tricks_left > rv.exact_tricks]
    if early:
        span = f"tricks {early[0].trick}-{early[-1].trick}" if early[0].trick != \
            early[-1].trick else f"trick {early[0].trick}"
        if rv.evaluator:
            lines.append(f"Before that ({span}): ~ estimates of the learned evaluator "
                         f"({rv.evaluator}), not exact.")
        else:
            note = f" ({rv.evaluator_note})" if rv.evaluator_note else ""
            lines.append(f"Before that ({span}, {len(early)} cards) no card is judged, for want "
                         f"of a learned evaluator{note}.")
    over = [c for c in rv.cards if c.tricks_left <= rv.exact_tricks and not c.exact]
    if over:
        what = (f"{len(over)} card{'s' if len(over) != 1 else ''} went over the budget: ")
        if all(c.source == BOUNDS for c in over):
            lines.append(what + "only the bounds proved are shown (a..b*), no verdict.")
        else:
            lines.append(what + "their values are estimates (~) inside the bounds proved.")
    return lines


def _outcome_line(rv: FrenchReview) -> str:
    if rv.start is not None:
        head = (f"Taker's card points with best play from the first card: "
                f"{_points(rv.start, rv.start_source == ESTIMATE)}")
        if rv.start_source == ESTIMATE:
            head += " (estimate)"
    else:
        first = next((c for c in rv.cards if c.exact), None)
        if first is not None:
            head = (f"Taker's card points with best play from trick {first.trick}, card "
                    f"{first.place + 1} on (the first card judged exactly): "
                    f"{_points(first.before)}")
        else:
            head = "Taker's card points with best play: not judged"
    if rv.played_points is not None:
        oudlers = rv.played_oudlers or 0
        target = TARGET_HALF_POINTS[min(oudlers, 3)]
        margin = rv.played_margin or 0
        made = f"made by {format_half_points(margin)}" if margin >= 0 else \
            f"failed by {format_half_points(-margin)}"
        return (f"{head}; as played: {format_half_points(rv.played_points)} with {oudlers} "
                f"oudler{'s' if oudlers != 1 else ''}, target "
                f"{format_half_points(target)}: {made}.")
    final = _points(rv.final, rv.final_source == ESTIMATE)
    return f"{head}; {final} with best play from where the record stops."


def lost_something(c: CardVerdict) -> bool:
    """Whether a card lost something: in the points (exactly, or by an estimate of at least
    :data:`ESTIMATED_MISTAKE`) or in the margin; what ``--mistakes`` lists."""
    return bool((c.loss or 0) >= (ESTIMATED_MISTAKE if c.estimated else 1) or c.margin_loss)


def review_lines(rv: FrenchReview, *, ascii_only: bool = False, all_cards: bool = True
                 ) -> list[str]:
    """The review as terminal lines: header, where the values come from, one row per card,
    the legend and per-seat totals with the worst decisions.  ``all_cards=False`` lists
    only the cards that lost something (exact or estimated)."""
    line = rv.line
    rec = line.record

    def label(c: int) -> str:
        return card_label(c, ascii=ascii_only)

    head = (f"Review {rec.id or '(no id)'}   French Tarot, rules {rv.rules}   taker "
            f"{line.taker + 1}, {line.contract.title}")
    if line.discard:
        head += f", discard {format_cards(line.discard)}"
    lines = [head, format_deal(line.deal), _outcome_line(rv), *_source_lines(rv), ""]
    header = ["Trick", "Seat", "Card", "Before", "After", "Loss"]
    if rv.margin:
        header += ["Margin", "M.loss"]
    header += ["Best", "Alternatives", "Won by"]
    body = []
    for c in rv.cards:
        if not all_cards and not lost_something(c):
            continue
        if c.forced:
            best = "(forced)"
        elif c.loss is not None and (c.loss == 0 or (c.estimated and abs(c.loss) < 0.05)):
            best = "="
        else:
            best = " ".join(label(x) for x in c.best_cards[:4]) or "?"
        if c.margin_loss and set(c.margin_best_cards) != set(c.best_cards):
            best += " / M: " + " ".join(label(x) for x in c.margin_best_cards[:4])
        alts = ", ".join(f"{label(x)} {_points(v, not c.values[x].exact)}"
                         for x, v in c.alternatives)
        row = [f"{c.trick}.{c.place + 1}", f"{c.seat + 1}" + ("*" if c.by_taker else ""),
               label(c.card), _before(c), _after(c), _loss(c)]
        if rv.margin:
            m_after = "?" if c.margin_after is None else (
                ("+" if c.margin_after >= 0 else "−") + format_half_points(abs(c.margin_after)))
            m_loss = "" if c.margin_loss is None else (
                "0" if c.margin_loss == 0 else "−" + format_half_points(c.margin_loss))
            row += [m_after if c.margin_values is not None else "", m_loss]
        trick = line.tricks[c.trick - 1]
        won = ""
        if c.place == 3 and trick.winner is not None:
            pts = sum(HALF_POINTS[x] for x in trick.cards)
            won = f"{trick.winner + 1} ({format_half_points(pts)})"
        body.append([*row, best, alts, won])
    lines += align(body, header)
    lines += ["", "Before/After: the taker's card points at the end of the play with best "
              "play from before / after the card; Loss: what the card cost its player, in "
              "card points" + ("; Margin: the taker's points less his target after the card"
                               if rv.margin else "")
              + "; ~ estimate; a..b* the bounds a budget left; ? not judged; * the taker; "
              "Won by: the trick's winner (its card points).", ""]
    for p in seat_summaries(rv):
        judged = p.exact
        name = rec.names.get(str(p.seat + 1))
        what = (f"Seat {p.seat + 1}{f' {name}' if name else ''} ({p.role}): {p.mistakes} mistake"
                f"{'' if p.mistakes == 1 else 's'} in {judged} exactly judged card"
                f"{'' if judged == 1 else 's'}, total loss {format_half_points(p.loss)} "
                f"point{'' if p.loss == 2 else 's'}")
        if p.margin_loss is not None:
            what += f" (margin {format_half_points(p.margin_loss)})"
        if p.estimated:
            what += (f"; estimated: {p.estimated_mistakes} mistake"
                     f"{'' if p.estimated_mistakes == 1 else 's'} in {p.estimated} cards, "
                     f"~{p.estimated_loss / 2:.1f} points")
        if p.open:
            what += f"; {p.open} over the budget"
        if p.unjudged:
            what += f"; {p.unjudged} not judged"
        lines.append(what)
        for c in p.worst:
            margin = "" if c.margin_loss is None else \
                f" (margin {format_half_points(c.margin_loss)})"
            best = "best " + " ".join(label(x) for x in c.best_cards) if c.loss else \
                "as good as any for the points"
            if c.margin_loss and set(c.margin_best_cards) != set(c.best_cards):
                best += "; best for the margin " + " ".join(label(x)
                                                              for x in c.margin_best_cards)
            lines.append(f"    trick {c.trick}: {label(c.card)} lost "
                         f"{format_half_points(int(c.loss or 0))}{margin}; {best}")
        for c in p.worst_estimated:
            lines.append(f"    trick {c.trick}: {label(c.card)} lost ~{(c.loss or 0) / 2:.1f} "
                         "(estimate); best " + " ".join(label(x) for x in c.best_cards))
    return lines


# ---------------------------------------------------------------- batch rows

_REVIEW_DTYPES = {"schema": "Int32", "trick": "Int16", "place": "Int16",
                  "tricks_left": "Int16", "before_half": "Int16", "after_half": "Int16",
                  "loss_half": "Int16", "estimate_before_half": "Float64",
                  "estimate_after_half": "Float64", "estimate_loss_half": "Float64",
                  "loss_lower_half": "Int16", "loss_upper_half": "Int16",
                  "margin_after_half": "Int16", "margin_loss_half": "Int16",
                  "solve_ms": "Float64"}

#: Columns of ``tarock --game french batch --mode review`` (one row per card played).
REVIEW_COLUMNS = ("schema", "deal_id", "game", "rules", "taker", "contract", "trick", "place",
                  "seat", "player", "role", "card", "tricks_left", "source", "before_half",
                  "after_half", "loss_half", "estimate_before_half", "estimate_after_half",
                  "estimate_loss_half", "loss_lower_half", "loss_upper_half", "best",
                  "margin_after_half", "margin_loss_half", "status", "solve_ms")

#: A row's ``status``: what the batch counts as open (over the budget) is ``over_budget``.
_STATUS = {EXACT: "exact", ESTIMATE: "estimate", BOUNDS: "over_budget", UNJUDGED: "unjudged"}


def review_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Review rows (:func:`review_rows`) as a typed DataFrame in :data:`REVIEW_COLUMNS`
    order: what ``tarock --game french batch --mode review`` writes."""
    frame = pd.DataFrame(rows, columns=list(REVIEW_COLUMNS))
    for column in REVIEW_COLUMNS:
        frame[column] = frame[column].astype(_REVIEW_DTYPES.get(column, "string"))
    return frame


def review_rows(rv: FrenchReview) -> list[dict[str, Any]]:
    """One row per card: exact values in ``*_half``, estimates in ``estimate_*_half``,
    the loss's bounds where a budget left them open; ``status`` exact, estimate,
    over_budget or unjudged."""
    line = rv.line
    rec = line.record
    base = {"schema": SCHEMA, "deal_id": rec.id, "game": "french", "rules": rv.rules,
            "taker": str(line.taker + 1), "contract": line.contract.value}
    ms = rv.seconds * 1000.0
    rows = []
    for c in rv.cards:
        exact = c.source == EXACT
        est = c.source == ESTIMATE
        rows.append({
            **base, "trick": c.trick, "place": c.place + 1, "seat": str(c.seat + 1),
            "player": rec.names.get(str(c.seat + 1), ""),
            "role": "taker" if c.by_taker else "defender", "card": CARD_IDS[c.card],
            "tricks_left": c.tricks_left, "source": c.source,
            "before_half": c.before if exact else None,
            "after_half": c.after if exact else None, "loss_half": c.loss if exact else None,
            "estimate_before_half": c.before if est else None,
            "estimate_after_half": c.after if est else None,
            "estimate_loss_half": c.loss if est else None,
            "loss_lower_half": None if c.loss_bounds is None else c.loss_bounds[0],
            "loss_upper_half": None if c.loss_bounds is None else c.loss_bounds[1],
            "best": " ".join(CARD_IDS[x] for x in c.best_cards),
            "margin_after_half": c.margin_after, "margin_loss_half": c.margin_loss,
            "status": _STATUS[c.source], "solve_ms": ms})
    return rows
