"""The ``review`` batch mode: a file of played deals (NOTATION.md 8.3) → one row per card.

Each record is checked against the rules of play of its profile and reviewed by
:func:`tarock_solver.review.engine.review_line`; its rows are
:func:`tarock_solver.review.report.review_rows` (one per card, plus the exchange).  The
node limit of the run caps each position's search: a card it does not settle keeps its
bounds out of the file (``status`` ``over_budget``, ``loss`` null).
"""

from __future__ import annotations

import threading

import pandas as pd

from ..review import check_record
from ..review.engine import review_line
from ..review.files import read_play_records
from ..review.record import PlayRecord
from ..review.report import review_frame, review_rows
from ..solver import Budget, CardPointSearch
from .records import record_rules
from .settings import BatchSettings

__all__ = ["analyse", "empty", "read"]

_local = threading.local()

def _search() -> CardPointSearch:
    # One table per worker thread, reused from record to record (entries are keyed on
    # the whole position, so they stay sound across deals).
    search = getattr(_local, "search", None)
    if search is None:
        search = _local.search = CardPointSearch()
    return search


def empty(settings: BatchSettings) -> pd.DataFrame:
    """The review rows' schema with no rows."""
    return review_frame([])


def read(path):  # type: ignore[no-untyped-def]
    """The play records of a file and its bad records (``strict=False`` reading)."""
    return read_play_records(path, strict=False)


def analyse(record: PlayRecord, settings: BatchSettings) -> pd.DataFrame:
    """The review rows of one played deal."""
    rules = record_rules(record, settings)
    line = check_record(record, rules)
    rv = review_line(line, rules, search=_search(), budget=Budget.of(settings.node_limit))
    return review_frame(review_rows(rv))
