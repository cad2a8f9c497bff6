"""French Tarot advice as flat table rows: one row per hand advised (``tarock --game french
batch --mode advise``).

A row holds the recommendation (the option, its runner-up, their paired difference with
its SE, the close call, the choice of each half of the worlds valued on the other half)
and, per contract, P(make), the expected card points, margin and score with their SEs
and the petit au bout's worth (in the score);
passing has the expected score only (the player defends, or the deal is redealt), with
who takes after the pass.  Points and margins are in points, scores are the player's own
marque.  An SE is null where the worlds are too few to give one; a contract not offered
(below a bid heard before the player's turn) has null columns.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...advise.cv import Estimate
from ..cards import CARD_IDS, cards_of
from ..deal import CONTRACTS, canonical_order
from .adviser import PASS, FrenchAdvice

__all__ = ["ADVICE_COLUMNS", "SCHEMA", "advice_frame", "advice_row"]

#: Version of the rows' columns.
SCHEMA = 2
#: The measures of a contract in the rows, each followed by its ``_se``.
_MEASURES = ("p_make", "points", "margin", "score")


def _columns() -> dict[str, str]:
    columns = {"schema": "Int64", "deal_id": "string", "game": "string", "rules": "string",
               "seat": "string", "hand": "string", "seed": "Int64", "worlds": "Int64",
               "recommended": "string", "runner_up": "string", "difference": "Float64",
               "difference_se": "Float64", "close_call": "boolean",
               "held_out": "Float64", "held_out_se": "Float64",
               "held_out_choices": "string"}
    for contract in CONTRACTS:
        for measure in _MEASURES:
            columns[f"{contract}_{measure}"] = "Float64"
            columns[f"{contract}_{measure}_se"] = "Float64"
        columns[f"{contract}_petit_au_bout"] = "Float64"
        columns[f"{contract}_petit_au_bout_se"] = "Float64"
    columns.update({f"{PASS}_score": "Float64", f"{PASS}_score_se": "Float64",
                    f"{PASS}_detail": "string", "discard": "string",
                    "discard_share": "Float64", "solve_ms": "Float64"})
    return columns


#: The columns of the rows, in order, with their pandas dtypes.
ADVICE_COLUMNS: dict[str, str] = _columns()


def _put(row: dict[str, Any], name: str, e: Estimate | None) -> None:
    row[name] = None if e is None else e.mean
    row[f"{name}_se"] = e.se if e is not None and e.has_se else None


def advice_row(advice: FrenchAdvice, *, deal_id: str = "",
               solve_ms: float | None = None) -> dict[str, Any]:
    """The row of one piece of advice (the columns of :data:`ADVICE_COLUMNS`).

    ``discard`` is the discard the taker chose most often over the worlds (in the Petite
    and the Garde, on his hand and each world's chien), ``discard_share`` how often.
    """
    req = advice.request
    row: dict[str, Any] = {
        "schema": SCHEMA, "deal_id": deal_id, "game": "french", "rules": req.rules.name,
        "seat": str(req.seat + 1),
        "hand": " ".join(CARD_IDS[c] for c in canonical_order(cards_of(req.hand))),
        "seed": req.seed,
        "worlds": req.worlds, "recommended": advice.recommended,
        "runner_up": advice.runner_up}
    _put(row, "difference", advice.difference)
    row["close_call"] = advice.close
    _put(row, "held_out", advice.held_out)
    row["held_out_choices"] = " ".join(advice.held_out_choices)
    for contract in CONTRACTS:
        # a contract below a bid heard is not offered: its columns are null
        option = next((o for o in advice.options if o.option == contract), None)
        for measure in _MEASURES:
            _put(row, f"{contract}_{measure}", None if option is None
                 else getattr(option, measure))
        _put(row, f"{contract}_petit_au_bout",
             next((g.gain for g in advice.petit_au_bout if g.contract == contract), None))
    passing = advice.option(PASS)
    _put(row, f"{PASS}_score", passing.score)
    row[f"{PASS}_detail"] = passing.detail
    discard, share = advice.discards[0] if advice.discards else (None, None)
    row.update(discard=discard, discard_share=share, solve_ms=solve_ms)
    return row


def advice_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows of :func:`advice_row` as a typed frame (an empty one has the columns too)."""
    frame = pd.DataFrame(rows, columns=list(ADVICE_COLUMNS))
    return frame.astype(ADVICE_COLUMNS)
