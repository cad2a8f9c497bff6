"""The ``table`` mode: a record's double-dummy table as NOTATION 5.3 result rows.

Built on :func:`tarock_solver.analysis.dd_table`.  Two things are added for batches:

* **Deterministic node counts.**  The solver's transposition table carries work from
  one search to the next, so the ``nodes`` of a deal would depend on which deals the
  same worker solved before it — and so on ``--jobs``.  Each deal therefore starts
  from an empty table.  One :class:`~tarock_solver.solver.CardPointSearch` per worker
  thread is kept and cleared, rather than allocated per deal.
* **Whole deals only.**  With a node budget a row may stop early; such a deal is
  reported as failed (naming the rows) instead of appearing with rows missing.
"""

from __future__ import annotations

import threading

import pandas as pd

from ..analysis import dd_table, empty_results
from ..deal_files import DealRecord
from ..errors import TarockError
from ..rules import SEAT_NAMES
from ..solver import Budget, CardPointSearch
from .modes import _complete_deal, _contracts_for, record_rules
from .settings import BatchSettings

__all__ = ["IncompleteTableError", "analyse", "empty"]

_local = threading.local()


class IncompleteTableError(TarockError):
    """The node budget ran out before every row of a deal's table was exact."""


def _solver() -> CardPointSearch:
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = CardPointSearch()
    solver.clear()
    return solver


def empty(settings: BatchSettings) -> pd.DataFrame:
    """The results schema with no rows."""
    return empty_results()


def analyse(record: DealRecord, settings: BatchSettings) -> pd.DataFrame:
    """The results rows of one record (seat order, then the profile's contract order)."""
    deal = _complete_deal(record)
    rules = record_rules(record, settings)
    contracts = _contracts_for(rules.contracts, settings, rules.name)
    declarers = settings.declarers or SEAT_NAMES
    table = dd_table(deal, rules, declarers=declarers, contracts=contracts, solver=_solver(),
                     budget=Budget.of(settings.node_limit))
    if not table.complete:
        missing = ", ".join(f"{r.declarer_name} {r.contract}" for r in table.rows
                            if not r.complete)
        raise IncompleteTableError(f"the node budget of {settings.node_limit:,} per row ran "
                                   f"out before these rows were exact: {missing}; raise "
                                   f"--node-limit or leave it out.")
    return table.results_frame(deal_id=record.id, seed=record.seed)
