"""The ``french-advise`` mode: French Tarot bidding advice for the hands of a deal file.

Each hand advised is one row of :mod:`tarock_solver.french.advice.rows`, from
:func:`tarock_solver.french.advice.advise_french` with the run's seed and worlds, as at
the table before the bidding: the other hands and the chien unknown.  The hands advised
are the seats of the run's ``declarers`` (``--seat``) when given, else the record's
taker when it names one, else every hand the record holds.

A world is drawn from the seed and its index alone, and the adviser keeps nothing from
one hand to the next, so a row is the same whichever worker advises it and whatever it
advised before: the output does not depend on ``--jobs``.  The mode's reader refuses, with
their lines, the records no seat can be advised in (not four players, no hand known), so
that they are reported before any advice is computed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import FileFormatError, RulesError
from ..french.advice import FrenchAdviceRequest, advise_french
from ..french.advice.rows import advice_frame, advice_row
from ..french.deal import FrenchDeal
from ..french.deal_files import FrenchDealRecord, read_deals
from ..french.rules import load_rules
from .settings import BatchSettings

__all__ = ["PLAYERS", "advised_seats", "analyse", "empty", "read"]

#: Players of the deals the adviser plays.
PLAYERS = 4


def empty(settings: BatchSettings) -> pd.DataFrame:
    """The advice rows' schema with no rows."""
    return advice_frame([])


def _unfit(record: FrenchDealRecord) -> str | None:
    """Why no hand of ``record`` can be advised, or None."""
    deal = record.deal
    if deal.players != PLAYERS:
        return (f"advice plays four players; this deal has {deal.players} (the three- and "
                f"five-player games are in the rules and the scoring only).")
    if all(hand is None for hand in deal.hands):
        return "no hand is known; advice needs the hand of the seat advised."
    return None


def read(path: str | Path) -> tuple[list[FrenchDealRecord], list[FileFormatError]]:
    """The records of a French Tarot deal file that a hand of can be advised, and the
    bad records (unreadable, or none of their hands can be advised), in file order."""
    records, errors = read_deals(path, strict=False)
    good = []
    for record in records:
        problem = _unfit(record)
        if problem is None:
            good.append(record)
            continue
        where = f"{path}:{record.line}" + (f' (id "{record.id}")' if record.id else "")
        err = FileFormatError(f"{where}: {problem}", path=str(path), line=record.line,
                              record_id=record.id)
        err.messages = [problem]  # type: ignore[attr-defined]  # the plan's reason
        errors.append(err)
    errors.sort(key=lambda e: e.line if e.line is not None else 0)
    return good, errors


def advised_seats(record: FrenchDealRecord, settings: BatchSettings) -> list[int]:
    """The seats (0-based) whose hands ``record`` gets advice for (see the module's
    docstring); :class:`RulesError` when a seat asked for has no hand in the record."""
    hands = record.deal.hands
    known = [s for s, hand in enumerate(hands) if hand is not None]
    if settings.declarers:
        asked = [int(s) - 1 for s in settings.declarers]
        missing = [s for s in asked if s not in known]
        if missing:
            raise RulesError(f"seat {', '.join(str(s + 1) for s in missing)}: the record "
                             f"does not hold that hand (it holds "
                             f"{', '.join(str(s + 1) for s in known)}).")
        return asked
    deal = record.deal
    if isinstance(deal, FrenchDeal) and deal.taker is not None:
        return [deal.taker]
    return known


def analyse(record: FrenchDealRecord, settings: BatchSettings) -> pd.DataFrame:
    """The advice rows of one record, one per seat advised, in seat order."""
    problem = _unfit(record)
    if problem is not None:  # a record given without the mode's reader
        raise RulesError(problem)
    record.deal.validate()
    rules = load_rules(record.rules or settings.rules, {**settings.opts_dict,
                                                      **(record.options or {})})
    rows: list[dict[str, Any]] = []
    for seat in advised_seats(record, settings):
        hand = record.deal.hands[seat]
        assert hand is not None  # advised_seats gives known hands only
        start = time.perf_counter()
        advice = advise_french(FrenchAdviceRequest(hand=hand, seat=seat, rules=rules,
                                                   seed=settings.seed,
                                                   worlds=settings.samples))
        rows.append(advice_row(advice, deal_id=record.id,
                               solve_ms=1000.0 * (time.perf_counter() - start)))
    return advice_frame(rows)
