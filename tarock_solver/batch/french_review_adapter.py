"""The ``french-review`` mode: a file of played French Tarot deals → one row per card.

Each record of a French Tarot deal file that carries its play (FRENCH_NOTATION.md 5, 8)
is played through the rules of its profile and reviewed by
:func:`tarock_solver.french.review.review_line`; its rows are
:func:`tarock_solver.french.review.report.review_rows`.  The exact solver judges the
cards of the last :data:`~tarock_solver.french.review.EXACT_TRICKS` tricks, the node
limit of the run capping each position (a card it does not settle keeps its bounds:
``status`` ``over_budget``); the learned evaluator, when installed, estimates the cards
before (``status`` ``estimate``), else they are ``unjudged``.  Each record starts from
empty tables, so that its rows do not depend on the records a worker reviewed before.
"""

from __future__ import annotations

import threading
from typing import Any

import pandas as pd

from ..french.deal_files import FrenchDealRecord, read_deals
from ..french.review import check_play, learned_values, review_line
from ..french.review.report import review_frame, review_rows
from ..french.rules import load_rules
from ..french.solver import FrenchSearch
from ..solver import Budget
from .settings import BatchSettings

__all__ = ["analyse", "empty", "read"]

_local = threading.local()


def _searches(excuse_last: str) -> tuple[FrenchSearch, FrenchSearch]:
    # One pair of tables (card points, margin) per worker thread and Excuse rule, cleared
    # for each record (see the module docstring).
    pairs = getattr(_local, "pairs", None)
    if pairs is None:
        pairs = _local.pairs = {}
    if excuse_last not in pairs:
        pairs[excuse_last] = (FrenchSearch(excuse_last=excuse_last),
                              FrenchSearch(excuse_last=excuse_last))
    for search in pairs[excuse_last]:
        search.clear()
    return pairs[excuse_last]


def empty(settings: BatchSettings) -> pd.DataFrame:
    """The review rows' schema with no rows."""
    return review_frame([])


def read(path: str) -> tuple[list[FrenchDealRecord], list[Any]]:
    """The records of a French Tarot deal file and its bad records (collected)."""
    return read_deals(path, strict=False)


def analyse(record: FrenchDealRecord, settings: BatchSettings) -> pd.DataFrame:
    """The review rows of one played deal."""
    rules = load_rules(record.rules or settings.rules, {**settings.opts_dict,
                                                      **(record.options or {})})
    line = check_play(record, rules)
    values, name = learned_values()
    points, margins = _searches(line.excuse_last)
    rv = review_line(line, search=points, margin_search=margins, margin=True,
                     budget=Budget.of(settings.node_limit), values=values,
                     evaluator=name if values is not None else None,
                     evaluator_note=name if values is None else "")
    return review_frame(review_rows(rv))
