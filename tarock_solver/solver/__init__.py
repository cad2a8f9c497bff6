"""The double-dummy solver's front door: everything the rest of the project uses.

One position type, one budget, one result type, two searches::

    >>> from tarock_solver.solver import Budget, CardPointSearch, Position
    >>> from tarock_solver.cards import INDEX_OF
    >>> hand = lambda *ids: sum(1 << INDEX_OF[c] for c in ids)
    >>> pos = Position((hand("T21", "HK"), hand("T20", "HQ"), hand("T19", "HC")), 0, 0)
    >>> search = CardPointSearch(tt_bits=12)
    >>> search.value(pos).value     # F wins both tricks: (5 + 1 + 1 - 2) + (5 + 4 + 3 - 2)
    15
    >>> search.reaches(pos, 16).at_least(16)
    False
    >>> from tarock_solver.deal import random_deals
    >>> deal = random_deals(seed=1, count=1)[0]
    >>> r = search.value(Position(deal.hands, 0, 2), Budget(nodes=1000))
    >>> r.exact, r.lower < r.upper   # over budget: the bounds proved, never a guess
    (False, True)

* :class:`Position` — three hands, leader, declarer, the current trick and the
  announced birds, validated once (:mod:`.position`).
* :class:`Budget` — nodes and/or seconds for one call, like python-chess's
  ``engine.Limit`` (:mod:`.budget`).
* :class:`SearchResult` — ``lower``/``upper`` (equal: exact), nodes, seconds, tests,
  ``detail``; ``.value`` raises :class:`OverBudget` rather than guess (:mod:`.result`).
* :class:`CardPointSearch` — the declarer's future card points: ``value`` (MTD(f),
  optional first guess and first test), ``cell`` (the value's cell of a grid, for
  unbiased estimates at less cost), ``reaches`` (the make test), ``card_values``
  (:mod:`.cardpoints`); :func:`solve_position` / :func:`solve_cards` on a
  process-wide search.
* :class:`GamePointSearch` — the net game points of one :class:`Payoff` (birds,
  Valat, contras, announcements): ``solve`` (value and one optimal line's
  breakdown, :class:`GamePointResult`), ``reaches`` (net ≥ X), ``card_values``;
  :func:`solve_game_points`, :func:`deal_game_points`, :func:`best_announcements`
  (:mod:`.gamepoints`, :mod:`.payoff`).
* :func:`solve_many` — many card-point positions on all cores (:mod:`.many`).

The numba kernels live in the private :mod:`._kernels`; nothing outside this package
imports them.  The brute-force references the solver is tested against are in
:mod:`tarock_solver.oracle`.  docs/API.md documents every entry point with examples.
"""

from .budget import UNLIMITED, Budget
from .cardpoints import (
    DEFAULT_TT_BITS,
    CardPointSearch,
    cell_start,
    default_search,
    kernels_cached,
    remaining_points,
    solve_cards,
    solve_position,
)
from .gamepoints import (
    ANNOUNCEABLE,
    AnnouncementChoice,
    GamePointResult,
    GamePointSearch,
    announcement_options,
    best_announcements,
    deal_game_points,
    game_kernels_cached,
    reserved_birds,
    solve_game_points,
)
from .many import solve_many
from .payoff import Payoff, make_payoff
from .position import Position, bird_bits
from .result import OverBudget, SearchResult, SearchStats

__all__ = [
    "ANNOUNCEABLE", "DEFAULT_TT_BITS", "UNLIMITED", "AnnouncementChoice", "Budget",
    "CardPointSearch", "GamePointResult", "GamePointSearch", "OverBudget", "Payoff",
    "Position", "SearchResult", "SearchStats", "announcement_options", "best_announcements",
    "bird_bits", "cell_start", "deal_game_points", "default_search", "game_kernels_cached",
    "kernels_cached", "make_payoff", "remaining_points", "reserved_birds", "solve_cards", "solve_game_points",
    "solve_many", "solve_position",
]
