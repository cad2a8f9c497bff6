"""The learned evaluator's view of a known deal: estimated card points per table row.

The double-dummy table (:mod:`.ddtable`) solves every exchange exactly, from
milliseconds to minutes a row; the evaluator (:mod:`tarock_solver.estimate`) gives an
estimate of the same numbers at once.  :func:`estimate_row_points` puts the estimate
beside an exact row; :func:`estimated_table` picks each row's exchange by the estimate
alone (every legal exchange estimated, equivalent discards merged), for a first view.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..cards import SEAT_NAMES
from ..deal import Deal
from ..estimate import estimate_many, estimate_position
from ..notation import seat_index
from ..play import LEADER
from ..rules import Rules
from ..talon import Exchange
from .options import play_options

__all__ = ["EstimatedRow", "estimate_row_points", "estimated_table"]


@dataclass(frozen=True)
class EstimatedRow:
    """One declarer × contract by the estimate: the exchange with the largest estimated
    total and the estimated card points (``trick_points`` from the tricks, ``thirds`` the
    total with the discard, in thirds)."""

    declarer: int
    contract: str
    exchange: Exchange | None
    hand_after: int
    trick_points: float
    thirds: float

    @property
    def declarer_name(self) -> str:
        return SEAT_NAMES[self.declarer]

    @property
    def points(self) -> float:
        """The declarer's estimated card points, discard included."""
        return self.thirds / 3


def estimate_row_points(deal: Deal, declarer: int, hand_after: int) -> float:
    """The evaluator's card points for the declarer from the 16 tricks after his exchange."""
    hands = list(deal.hands)
    hands[declarer] = hand_after
    return estimate_position(hands, LEADER, declarer)


def estimated_table(deal: Deal, rules: Rules, *, declarers: Iterable[int | str] | None = None,
                    contracts: Iterable[str] | None = None) -> list[EstimatedRow]:
    """Every declarer × contract row, the exchange chosen by the estimate (no search)."""
    seats = sorted({seat_index(s) for s in declarers}) if declarers is not None else [0, 1, 2]
    wanted = None if contracts is None else {rules.contract_key(c) for c in contracts}
    rows = []
    for seat in seats:
        for contract in rules.contracts:
            if wanted is not None and contract not in wanted:
                continue
            options = play_options(deal, seat, contract, rules)
            hands = np.array([[o.hand if s == seat else deal.hands[s] for s in range(3)]
                              for o in options], dtype=np.uint64)
            n = len(options)
            est = estimate_many(hands, np.full(n, LEADER), np.full(n, seat))
            totals = np.array([o.base_thirds for o in options]) + 3 * est
            best = int(np.argmax(totals))  # the first of equal totals, as the exact table
            o = options[best]
            rows.append(EstimatedRow(seat, contract, o.exchange, o.hand, float(est[best]),
                                     float(totals[best])))
    return rows
