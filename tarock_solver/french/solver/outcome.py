"""The contract's score as a table of the play's outcome, for the score search.

``table[points, oudlers, petit au bout, chelem]`` is the score per defender
(:func:`tarock_solver.french.scoring.score`) when the taker ends with ``points`` half
points and ``oudlers`` oudlers, the petit au bout went to nobody / the taker / the
defence, and nobody / the taker / the defence took every trick.  The search reads the
scoring rules only through this table, so the solver never restates them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...errors import RulesError
from ..cards import TARGET_HALF_POINTS, TOTAL_HALF_POINTS
from ..rules import Contract, FrenchRules, Poignee
from ..scoring import PETIT_AU_BOUT, Chelem, Side, score

__all__ = ["PAB_HALF_POINTS", "PAB_SIDES", "chelem_of", "margin_table", "outcome_table"]

#: The petit au bout's index → the side that took it.
PAB_SIDES = (None, Side.TAKER, Side.DEFENCE)


def chelem_of(index: int, announced: bool) -> Chelem:
    """What the scoring calls a chelem outcome (0 none, 1 the taker's, 2 the defence's)."""
    if index == 1:
        return Chelem.ANNOUNCED_MADE if announced else Chelem.UNANNOUNCED_MADE
    if announced:
        return Chelem.ANNOUNCED_FAILED
    return Chelem.DEFENCE_MADE if index == 2 else Chelem.NONE


def outcome_table(rules: FrenchRules, contract: Contract | str, *,
                  poignees: Iterable[tuple[Side | str, Poignee | str]] = (),
                  chelem_announced: bool = False) -> np.ndarray:
    """The score per defender of every outcome; outcomes the cards cannot reach (too few
    points for the oudlers held) take the nearest reachable score of the same row."""
    poignees = tuple(poignees)
    table = np.zeros((TOTAL_HALF_POINTS + 1, 4, 3, 3), np.int64)
    for oudlers in range(4):
        for pab in range(3):
            for ch in range(3):
                reached = []
                for points in range(TOTAL_HALF_POINTS + 1):
                    try:
                        table[points, oudlers, pab, ch] = score(
                            rules, contract, points, oudlers, petit_au_bout=PAB_SIDES[pab],
                            poignees=poignees, chelem=chelem_of(ch, chelem_announced)).value
                        reached.append(points)
                    except RulesError:
                        continue
                low, high = reached[0], reached[-1]
                table[:low, oudlers, pab, ch] = table[low, oudlers, pab, ch]
                table[high + 1:, oudlers, pab, ch] = table[high, oudlers, pab, ch]
    return table


#: The petit au bout in the margin's half points: it scores 10 a multiplier, as 10
#: points (20 half points) of difference do.
PAB_HALF_POINTS = 2 * PETIT_AU_BOUT


def margin_table(*, petit_au_bout: bool = False) -> np.ndarray:
    """``points - target(oudlers)`` in half points, as an outcome table; with
    ``petit_au_bout`` plus :data:`PAB_HALF_POINTS` when the taker's side took it, minus
    when the defence's did (the score's trade-off between the two, per multiplier)."""
    table = np.zeros((TOTAL_HALF_POINTS + 1, 4, 3, 3), np.int64)
    for oudlers in range(4):
        table[:, oudlers] = (np.arange(TOTAL_HALF_POINTS + 1)
                             - TARGET_HALF_POINTS[oudlers])[:, None, None]
    if petit_au_bout:
        table[:, :, 1] += PAB_HALF_POINTS
        table[:, :, 2] -= PAB_HALF_POINTS
    return table
