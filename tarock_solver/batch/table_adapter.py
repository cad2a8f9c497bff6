"""The ``table`` mode: a record's double-dummy table as NOTATION 5.3 result rows.

Built on :func:`tarock_solver.analysis.dd_table`.  Two things are added for batches:

* **Deterministic node counts.**  The solver's transposition table carries work from
  one search to the next, so the ``nodes`` of a deal would depend on which deals the
  same worker solved before it — and so on ``--jobs``.  Each deal therefore starts
  from an empty table.  One :class:`~tarock_solver.solver.CardPointSearch` per worker
  thread is kept and cleared, rather than allocated per deal.
* **Every finished row is kept.**  With a node budget a row may stop early; it is
  written with ``status`` ``over_budget`` and its proved bounds, the deal's other rows
  as usual.  :func:`resolve` solves such rows again (a resumed run with a larger
  budget), and only them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pandas as pd

from ..analysis import dd_table, empty_results
from ..deal_files import DealRecord
from ..rules import SEAT_NAMES
from ..solver import Budget, CardPointSearch
from .records import complete_deal, contracts_for, record_rules
from .settings import BatchSettings

__all__ = ["analyse", "empty", "resolve"]

_local = threading.local()


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
    deal = complete_deal(record)
    rules = record_rules(record, settings)
    contracts = contracts_for(rules.contracts, settings, rules.name)
    declarers = settings.declarers or SEAT_NAMES
    table = dd_table(deal, rules, declarers=declarers, contracts=contracts, solver=_solver(),
                     budget=Budget.of(settings.node_limit))
    return table.results_frame(deal_id=record.id, seed=record.seed)


def resolve(record: DealRecord, settings: BatchSettings,
            rows: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """The rows ``(declarer, contract)`` of one record, solved again under ``settings``.

    Rows come back in seat order, then contract order, as :func:`analyse` gives them.
    The transposition table starts empty, as for a whole deal.
    """
    deal = complete_deal(record)
    rules = record_rules(record, settings)
    solver = _solver()
    frames = []
    for seat in SEAT_NAMES:
        contracts = [c for d, c in rows if d == seat]
        if not contracts:
            continue
        table = dd_table(deal, rules, declarers=[seat], contracts=contracts, solver=solver,
                         budget=Budget.of(settings.node_limit))
        frames.append(table.results_frame(deal_id=record.id, seed=record.seed))
    if not frames:
        return empty_results()
    return pd.concat(frames, ignore_index=True)
