"""Game-point values of the rows of a double-dummy table (``tarock solve --objective
game-points``, batch analyses).

Each row of a :class:`~.ddtable.DDTable` fixes a declarer, a contract and his card-point
optimal exchange; this module plays that exchange for the score sheet: the declarer's
double-dummy net with the announcements and contras given, or with the best
announcement set (:func:`~tarock_solver.solver.best_announcements`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..deal import Deal
from ..errors import RulesError
from ..rules import Rules
from ..solver import Budget, GamePointResult, SearchResult, best_announcements, deal_game_points

__all__ = ["GameRow", "game_point_rows"]


@dataclass
class GameRow:
    """The game-point result of one table row: ``result`` (the breakdown of one optimal
    line) or ``error`` (why the row has none); ``bounds`` are the proved net when a
    budget ran out; ``tried`` the announcement sets solved with their results."""

    announcements: dict[str, str]
    result: GamePointResult | None = None
    error: str | None = None
    bounds: SearchResult | None = None
    tried: tuple[tuple[tuple[tuple[str, str], ...], SearchResult], ...] = field(default=())


def _settle(game: GameRow, found: SearchResult) -> None:
    if found.exact and found.detail is not None:
        game.result = found.detail
    else:
        game.bounds = found
        game.error = (f"the budget ran out after {found.nodes:,} nodes: the net is between "
                      f"{found.lower:+d} and {found.upper:+d}")


def game_point_rows(deal: Deal, rules: Rules, rows: Iterable[Any], *,
                    announcements: Mapping[str, str] | None = None,
                    contras: Mapping[str, str] | None = None, best: bool = False,
                    budget: Budget | None = None,
                    progress: Callable[[], None] | None = None) -> list[GameRow]:
    """One :class:`GameRow` per table row (``budget`` per game-point solve)."""
    out = []
    announce = dict(announcements or {})
    for row in rows:
        game = GameRow(dict(announce))
        if not row.complete:
            game.error = "the card-point search ran out of its budget: no exchange to play"
        else:
            try:
                if best:
                    choice = best_announcements(
                        deal, row.declarer, row.contract, rules=rules,
                        hand_after=row.hand_after, discard=row.discard, contras=contras,
                        budget=budget)
                    game.announcements = choice.announcements
                    game.tried = choice.tried
                    _settle(game, choice.result)
                else:
                    _settle(game, deal_game_points(
                        deal, row.declarer, row.contract, rules=rules,
                        hand_after=row.hand_after, discard=row.discard,
                        announcements=announce, contras=contras, budget=budget))
            except RulesError as exc:
                game.error = str(exc)
        out.append(game)
        if progress is not None:
            progress()
    return out
