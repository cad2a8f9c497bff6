"""The ``french-table`` mode: a French Tarot deal's double-dummy table as result rows.

Built on :func:`tarock_solver.french.analysis.solve_table`: one row per taker seat and
contract with the discard played, the taker's card points, margin and score per
defender, exact or (over the node budget) with the bounds proved (:func:`rows_frame`).
Each deal starts from an empty table, so a row's ``nodes`` do not depend on ``--jobs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..french.analysis import FrenchRow, solve_table
from ..french.cards import CARD_IDS, cards_of
from ..french.deal import FrenchDeal
from ..french.deal_files import FrenchDealRecord, read_deals
from ..french.rules import load_rules
from ..solver import Budget
from .settings import BatchSettings

__all__ = ["analyse", "empty", "read", "resolve", "rows_frame", "COLUMNS"]

#: The result columns, in order, with their dtypes.
COLUMNS: dict[str, str] = {
    "deal_id": "string", "game": "string", "taker": "string", "contract": "string",
    "discard": "string", "status": "string", "half_points": "Int64", "points": "Float64",
    "margin": "Float64", "score": "Int64", "made": "boolean", "half_points_lower": "Int64",
    "half_points_upper": "Int64", "score_lower": "Int64", "score_upper": "Int64",
    "discards_examined": "Int64", "discards_legal": "Int64", "nodes": "Int64",
}


def empty(settings: BatchSettings) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in COLUMNS.items()})


def read(path: str | Path) -> tuple[list[FrenchDealRecord], list[Any]]:
    """A French Tarot deal file (JSON Lines or CSV), bad records collected."""
    return read_deals(path, strict=False)


def resolve(record: FrenchDealRecord, settings: BatchSettings,
            rows: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """The given rows ``(taker, contract)`` of a record solved again (a resumed run with
    a larger node budget)."""
    frames = [analyse(record, settings, takers=[int(taker) - 1], contracts=[contract])
              for taker, contract in rows]
    return pd.concat(frames, ignore_index=True) if frames else empty(settings)


def analyse(record: FrenchDealRecord, settings: BatchSettings, *,
            takers: list[int] | None = None,
            contracts: list[str] | None = None) -> pd.DataFrame:
    """The rows of one record: every taker seat and contract (or the record's own taker,
    contract and discard when it names them)."""
    deal = record.deal
    if not isinstance(deal, FrenchDeal):
        raise ValueError("the table needs a complete deal (every hand and the chien)")
    deal.validate()
    rules = load_rules(record.rules or settings.rules, {**settings.opts_dict,
                                                      **(record.options or {})})
    if takers is None:
        takers = ([deal.taker] if deal.taker is not None
                  else [int(d) - 1 for d in settings.declarers] if settings.declarers
                  else None)
    if contracts is None:
        contracts = ([deal.contract] if deal.contract is not None
                     else list(settings.contracts) if settings.contracts else None)
    budget = Budget(nodes=settings.node_limit) if settings.node_limit else Budget()
    rows = solve_table(deal, rules, takers=takers, contracts=contracts, budget=budget,
                       discard=deal.discard)
    return rows_frame(rows, record.id)


def rows_frame(rows: Sequence[FrenchRow], deal_id: str) -> pd.DataFrame:
    """Solved rows as result rows of :data:`COLUMNS` (exact values, or the bounds)."""
    out = []
    for row in rows:
        exact = row.points.exact and row.margin.exact and row.score.exact
        out.append({
            "deal_id": deal_id, "game": "french", "taker": str(row.taker + 1),
            "contract": row.contract.value,
            "discard": " ".join(CARD_IDS[c] for c in cards_of(row.discard)),
            "status": "exact" if exact else "over_budget",
            "half_points": row.points.lower if row.points.exact else None,
            "points": row.points.lower / 2 if row.points.exact else None,
            "margin": row.margin.lower / 2 if row.margin.exact else None,
            "score": row.score.lower if row.score.exact else None,
            "made": row.made,
            "half_points_lower": row.points.lower, "half_points_upper": row.points.upper,
            "score_lower": row.score.lower, "score_upper": row.score.upper,
            "discards_examined": row.discards_examined,
            "discards_legal": row.discards_legal, "nodes": row.nodes,
        })
    frame = pd.DataFrame(out, columns=list(COLUMNS))
    return frame.astype(COLUMNS)
