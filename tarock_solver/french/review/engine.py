"""The analysis of a played French Tarot deal: the value and the loss of every card.

:func:`review_line` values every card's position of a checked record
(:class:`~.record.FrenchPlayLine`): for each legal card of the player to move, the
taker's card points at the end of the play after it (:class:`CardValue`, half points),
and from them what the card played cost its player (:class:`CardVerdict`).

Two sources of values, never mixed up:

* **the exact solver** (:class:`~tarock_solver.french.solver.FrenchSearch`) where at
  most ``exact_tricks`` tricks are left, within a budget per position; a search that
  runs out gives proved bounds, and a verdict on bounds says so (no midpoint is ever
  taken for a value);
* **a value function** (``values``: positions → the taker's estimated final half
  points) everywhere else and where a search ran out: estimates, kept apart from exact
  values (:attr:`CardVerdict.source`).  :func:`learned_values` finds the learned
  evaluator (``tarock_solver.french.estimate``) when it is installed.  Without a value
  function those cards are left unjudged.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...solver import Budget
from ..analysis import margin_table
from ..cards import PETIT, TARGET_HALF_POINTS, cards_of, oudlers_in
from ..deal_files import FrenchDealRecord
from ..rules import FrenchRules
from ..solver import FrenchPosition, FrenchSearch
from .record import FrenchPlayLine, check_play

__all__ = ["EXACT_TRICKS", "EVALUATOR_MODULE", "CardValue", "CardVerdict", "FrenchReview",
           "ValueSource", "learned_values", "review", "review_line"]

#: The taker's estimated final half points of each position (any position, mid-trick too).
ValueSource = Callable[[Sequence[FrenchPosition]], np.ndarray]

#: Tricks left (the current one included) from which the exact solver values a card: at
#: 10 tricks its median is well under a second, at 12 it is seconds to minutes
#: (docs/FRENCH_TAROT.md, Speed).
EXACT_TRICKS = 10
#: How many alternatives to the played card a verdict lists.
N_ALTERNATIVES = 3
#: The module of the learned evaluator.
EVALUATOR_MODULE = "tarock_solver.french.estimate"

EXACT, ESTIMATE, BOUNDS, UNJUDGED = "exact", "estimate", "bounds", "unjudged"


def learned_values() -> tuple[ValueSource | None, str]:
    """The learned evaluator's ``estimate_points`` and its name; or None and why not."""
    try:
        from ..estimate import estimate_points  # type: ignore[import-not-found]
    except ModuleNotFoundError as exc:
        if exc.name == EVALUATOR_MODULE:
            return None, f"{EVALUATOR_MODULE} is not installed"
        return None, f"{EVALUATOR_MODULE} cannot be imported ({exc})"
    except ImportError as exc:
        return None, f"{EVALUATOR_MODULE} cannot be imported ({exc})"
    # the version, where the module gives one, names the model in a batch's fingerprint
    version = getattr(sys.modules.get(EVALUATOR_MODULE), "__version__", None)
    return estimate_points, EVALUATOR_MODULE + (f" {version}" if version else "")


@dataclass(frozen=True)
class CardValue:
    """What is known of the taker's final half points after one card: the bounds the
    solver proved (``lower == upper``: exact; both None: not searched) and the value
    function's estimate (None: none asked for, or the search was exact)."""

    lower: int | None
    upper: int | None
    estimate: float | None = None

    @property
    def exact(self) -> bool:
        return self.lower is not None and self.lower == self.upper

    @property
    def value(self) -> float | None:
        """The exact value, else the estimate, else None (bounds are not a value)."""
        if self.exact:
            return float(self.lower)  # type: ignore[arg-type]
        return self.estimate


@dataclass(frozen=True)
class CardVerdict:
    """One card of the record and what is known of it.

    ``values`` maps every legal card to its :class:`CardValue`.  ``source`` says where
    the verdict comes from: ``exact`` (every value exact), ``estimate`` (some value is
    an estimate), ``bounds`` (a search ran out and no estimate was asked for: only
    ``*_bounds`` are known) or ``unjudged`` (not searched, no value function).
    ``before`` is the position's value (the best legal card for the mover), ``after``
    the played card's, ``loss`` the difference from the mover's side (never negative),
    all in the taker's half points; None unless ``source`` is exact or estimate.
    ``margin_*`` are the same for the taker's margin over his target (exact searches
    only, when asked for).
    """

    trick: int
    place: int
    seat: int
    card: int
    taker: int
    tricks_left: int
    values: dict[int, CardValue]
    source: str
    before: float | None
    after: float | None
    loss: float | None
    before_bounds: tuple[int, int] | None = None
    after_bounds: tuple[int, int] | None = None
    loss_bounds: tuple[int, int] | None = None
    margin_values: dict[int, tuple[int, int]] | None = None
    margin_before: int | None = None
    margin_after: int | None = None
    margin_loss: int | None = None

    @property
    def by_taker(self) -> bool:
        return self.seat == self.taker

    @property
    def exact(self) -> bool:
        return self.source == EXACT

    @property
    def estimated(self) -> bool:
        return self.source == ESTIMATE

    @property
    def judged(self) -> bool:
        """A loss is known, exact or estimated."""
        return self.loss is not None

    @property
    def forced(self) -> bool:
        """Only one legal card."""
        return len(self.values) == 1

    def ranked(self) -> list[tuple[int, float]]:
        """``(card, value)`` of the cards with a value, best for the mover first (ties
        by card)."""
        sign = -1 if self.by_taker else 1
        known = [(c, v.value) for c, v in self.values.items() if v.value is not None]
        return sorted(known, key=lambda cv: (sign * cv[1], cv[0]))  # type: ignore[operator]

    @property
    def best_cards(self) -> tuple[int, ...]:
        """Every card with the best value (empty when there is no verdict)."""
        if self.before is None:
            return ()
        return tuple(c for c, v in self.ranked() if v == self.before)

    @property
    def margin_best_cards(self) -> tuple[int, ...]:
        """Every card with the best margin (empty when the margin is not known exactly)."""
        if self.margin_before is None or self.margin_values is None:
            return ()
        return tuple(sorted(c for c, (lo, _) in self.margin_values.items()
                            if lo == self.margin_before))

    @property
    def alternatives(self) -> tuple[tuple[int, float], ...]:
        """Up to three other cards, best first, with their values."""
        return tuple((c, v) for c, v in self.ranked() if c != self.card)[:N_ALTERNATIVES]


@dataclass(frozen=True)
class FrenchReview:
    """A reviewed record: a :class:`CardVerdict` per card played and the totals.

    ``start`` is the taker's final half points with best play from the first card
    reviewed (exact or estimated, as ``start_source`` says; None if unknown) and
    ``final`` the same from after the last card (as played when the record is
    complete).  ``exact_tricks`` is where the exact solver took over, ``evaluator``
    the value function used before that (None: none, ``evaluator_note`` says why).
    """

    line: FrenchPlayLine
    rules: str
    cards: tuple[CardVerdict, ...]
    start: float | None
    start_source: str
    final: float | None
    final_source: str
    exact_tricks: int
    evaluator: str | None
    evaluator_note: str = ""
    margin: bool = False
    budget: Budget = field(default_factory=Budget)
    seconds: float = 0.0
    nodes: int = 0

    @property
    def exact(self) -> bool:
        """Every verdict is exact."""
        return all(c.exact for c in self.cards)

    @property
    def played_points(self) -> int | None:
        """The taker's half points as played (a complete record), else None."""
        final = self.line.final
        return None if final is None else final.taker_points

    @property
    def played_oudlers(self) -> int | None:
        final = self.line.final
        return None if final is None else final.taker_oudlers

    @property
    def played_margin(self) -> int | None:
        """As played: the taker's half points less the target of his oudlers."""
        final = self.line.final
        if final is None:
            return None
        return final.taker_points - TARGET_HALF_POINTS[min(final.taker_oudlers, 3)]


def _remaining(budget: Budget, start: float, used: int) -> Budget:
    """What is left of a position's budget after ``used`` nodes."""
    nodes = None if budget.nodes is None else max(budget.nodes - used, 1)
    seconds = None if budget.seconds is None else max(budget.seconds
                                                      - (time.perf_counter() - start), 0.001)
    return Budget(nodes=nodes, seconds=seconds)


def _next_position(pos: FrenchPosition, card: int, excuse_last: str) -> FrenchPosition:
    # At the last trick every card is forced and ends the play: its value is the position's.
    return pos if pos.tricks_left == 1 else pos.play(card, excuse_last=excuse_last)


def _margin_guess(pos: FrenchPosition, points: CardValue) -> int | None:
    """A first guess of the margin search: the card points less the target of the
    oudlers the taker holds or has (the searches then need fewer tests)."""
    if points.lower is None or points.upper is None:
        return None
    held = pos.state.taker_oudlers + oudlers_in(pos.hands[pos.taker] & ~(1 << PETIT))
    return (points.lower + points.upper) // 2 - TARGET_HALF_POINTS[min(held, 3)]


def _verdict_values(values: dict[int, CardValue], card: int, maximise: bool
                    ) -> tuple[str, float | None, float | None, float | None]:
    """(source, before, after, loss) of one position's values."""
    if all(v.exact for v in values.values()):
        source = EXACT
    elif all(v.value is not None for v in values.values()):
        source = ESTIMATE
    elif all(v.lower is None for v in values.values()):
        return UNJUDGED, None, None, None
    else:
        return BOUNDS, None, None, None
    known = [v.value for v in values.values()]
    before = max(known) if maximise else min(known)  # type: ignore[type-var]
    after = values[card].value
    assert before is not None and after is not None
    return source, before, after, (before - after) if maximise else (after - before)


def _bounds_verdict(values: dict[int, CardValue], card: int, maximise: bool
                    ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None:
    """(before, after, loss) bounds from the proved bounds of every card (None when a card
    was not searched)."""
    if any(v.lower is None or v.upper is None for v in values.values()):
        return None
    lows = [v.lower for v in values.values()]
    highs = [v.upper for v in values.values()]
    pick = max if maximise else min
    before = (pick(lows), pick(highs))  # type: ignore[type-var]
    lo, hi = values[card].lower, values[card].upper
    assert lo is not None and hi is not None
    if maximise:
        loss = (max(before[0] - hi, 0), before[1] - lo)
    else:
        loss = (max(lo - before[1], 0), hi - before[0])
    return before, (lo, hi), loss  # type: ignore[return-value]


def review_line(line: FrenchPlayLine, *, search: FrenchSearch | None = None,
                budget: Budget | None = None, values: ValueSource | None = None,
                evaluator: str | None = None, evaluator_note: str = "",
                exact_tricks: int = EXACT_TRICKS, margin: bool = False,
                margin_search: FrenchSearch | None = None,
                progress: Callable[[int, int], None] | None = None) -> FrenchReview:
    """Review a checked record: the value of every card's position and the loss of every
    card.

    Where at most ``exact_tricks`` tricks are left, every legal card of the mover is
    searched with :meth:`FrenchSearch.points` (the played card first), on one table that
    carries over from card to card; ``budget`` caps each position's searches together.
    A value is the taker's final card points in half points (what he has, the discard
    or chien where it is his, and what he takes from here).  The loss of a card is, from
    the side of the player who played it, the best legal card's value minus the played
    card's value (the taker maximises, the defenders minimise), never negative.

    ``values`` (with its name ``evaluator``) estimates the cards no exact search
    values: where more tricks are left, and where a search ran out of budget (its
    estimate is then kept inside the proved bounds).  Without it those cards are left
    unjudged (``evaluator_note`` says why, for the report).  ``margin`` adds the exact
    margin over the target (a second search per card, on ``margin_search``'s table).
    ``progress(done, total)`` is called after each card.
    """
    t0 = time.perf_counter()
    excuse_last = line.excuse_last
    search = search if search is not None else FrenchSearch(excuse_last=excuse_last)
    if margin and margin_search is None:
        margin_search = FrenchSearch(excuse_last=excuse_last)
    budget = budget if budget is not None else Budget()
    margins = margin_table() if margin else None
    nodes = 0
    found: list[dict[int, CardValue]] = []
    found_margin: list[dict[int, tuple[int, int]] | None] = []
    guess: int | None = None
    total = len(line.play)
    for i, (pos, card) in enumerate(zip(line.positions, line.play, strict=True)):
        legal = [card] + [c for c in cards_of(pos.legal()) if c != card]
        row: dict[int, CardValue] = {}
        mrow: dict[int, tuple[int, int]] | None = None
        if pos.tricks_left <= exact_tricks:
            start, used = time.perf_counter(), 0
            for c in legal:
                nxt = _next_position(pos, c, excuse_last)
                r = search.points(nxt, budget=_remaining(budget, start, used), guess=guess)
                used += r.nodes
                row[c] = CardValue(r.lower, r.upper)
                if c == card and r.exact:
                    guess = r.lower  # the next position's value is this one
            if margins is not None:
                assert margin_search is not None
                mrow = {}
                for c in legal:
                    nxt = _next_position(pos, c, excuse_last)
                    r = margin_search.outcome_value(nxt, margins, guess=_margin_guess(nxt, row[c]),
                                                    budget=_remaining(budget, start, used))
                    used += r.nodes
                    mrow[c] = (r.lower, r.upper)
            nodes += used
        else:
            row = {c: CardValue(None, None) for c in legal}
        found.append(row)
        found_margin.append(mrow)
        if progress is not None:
            progress(i + 1, total)

    if values is not None:
        found = _estimate(line, found, values)
    verdicts = []
    for i, (pos, card) in enumerate(zip(line.positions, line.play, strict=True)):
        row = found[i]
        maximise = pos.mover == line.taker
        source, before, after, loss = _verdict_values(row, card, maximise)
        bounds = _bounds_verdict(row, card, maximise) if source == BOUNDS else None
        mrow = found_margin[i]
        m_before = m_after = m_loss = None
        if mrow is not None and all(lo == hi for lo, hi in mrow.values()):
            ms = {c: lo for c, (lo, _) in mrow.items()}
            m_before = max(ms.values()) if maximise else min(ms.values())
            m_after = ms[card]
            m_loss = (m_before - m_after) if maximise else (m_after - m_before)
        verdicts.append(CardVerdict(
            trick=i // 4 + 1, place=i % 4, seat=pos.mover, card=card, taker=line.taker,
            tricks_left=pos.tricks_left, values=row, source=source, before=before,
            after=after, loss=loss,
            before_bounds=None if bounds is None else bounds[0],
            after_bounds=None if bounds is None else bounds[1],
            loss_bounds=None if bounds is None else bounds[2], margin_values=mrow,
            margin_before=m_before, margin_after=m_after, margin_loss=m_loss))

    first, last = verdicts[0], verdicts[-1]
    if line.final is not None:
        final: float | None = float(line.final.taker_points)
        final_source = EXACT
    else:
        final, final_source = last.after, last.source
    return FrenchReview(
        line=line, rules=line.rules, cards=tuple(verdicts), start=first.before,
        start_source=first.source if first.before is not None else UNJUDGED,
        final=final, final_source=final_source if final is not None else UNJUDGED,
        exact_tricks=exact_tricks, evaluator=evaluator if values is not None else None,
        evaluator_note=evaluator_note, margin=margin, budget=budget,
        seconds=time.perf_counter() - t0, nodes=nodes)


def _estimate(line: FrenchPlayLine, found: list[dict[int, CardValue]], values: ValueSource
              ) -> list[dict[int, CardValue]]:
    """``found`` with an estimate for every value that is not exact, all positions in one
    call of ``values``; an estimate outside the proved bounds is brought inside them."""
    asked: list[tuple[int, int]] = []
    positions: list[FrenchPosition] = []
    for i, row in enumerate(found):
        pos = line.positions[i]
        for c, v in row.items():
            if not v.exact:
                asked.append((i, c))
                positions.append(_next_position(pos, c, line.excuse_last))
    if not positions:
        return found
    est = np.asarray(values(positions), dtype=np.float64).reshape(-1)
    if len(est) != len(positions) or not np.all(np.isfinite(est)):
        raise ValueError(f"the value function gave {len(est)} values for {len(positions)} "
                         "positions (or a value that is not finite)")
    out = [dict(row) for row in found]
    for (i, c), e in zip(asked, est, strict=True):
        v = out[i][c]
        x = float(e)
        if v.lower is not None and v.upper is not None:
            x = min(max(x, float(v.lower)), float(v.upper))
        out[i][c] = CardValue(v.lower, v.upper, x)
    return out


def review(record: FrenchDealRecord, rules: FrenchRules, **kwargs: Any) -> FrenchReview:
    """Check ``record`` (:func:`~.record.check_play`) and review it (:func:`review_line`)."""
    return review_line(check_play(record, rules), **kwargs)
