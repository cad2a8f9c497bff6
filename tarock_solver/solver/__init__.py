"""The double-dummy solver's front door: everything the rest of the project uses.

docs/API.md documents every entry point with examples; the shortest::

    >>> from tarock_solver.solver import CardPointSearch, Position
    >>> from tarock_solver.cards import INDEX_OF
    >>> hand = lambda *ids: sum(1 << INDEX_OF[c] for c in ids)
    >>> pos = Position((hand("T21", "HK"), hand("T20", "HQ"), hand("T19", "HC")), 0, 0)
    >>> CardPointSearch(tt_bits=12).value(pos).value   # (5 + 1 + 1 - 2) + (5 + 4 + 3 - 2)
    15

Modules, one job each:

* :mod:`.position` — :class:`Position`: hands, leader, declarer, trick, announced birds;
* :mod:`.budget` — :class:`Budget`: nodes and/or seconds for one call;
* :mod:`.result` — :class:`SearchResult`: bounds, equal when exact (never a guess);
* :mod:`.cardpoints` — :class:`CardPointSearch`: the declarer's future card points;
* :mod:`.gamepoints`, :mod:`.payoff` — :class:`GamePointSearch`: net game points;
* :mod:`.many` — :func:`solve_many`: many card-point positions on all cores;
* :mod:`.trischaken` — :class:`TrischakenSearch`: one seat's paranoid card points in
  Trischaken (the fewest he can be held to when the two others play against him);
* :mod:`._kernels` — the numba kernels, private (nothing outside this package imports
  them); the brute-force references the solver is tested against: :mod:`tarock_solver.oracle`.
"""

from ._kernels.clock import cycles
from ._kernels.stats import (
    NSTATS,
    ST_ABORTED,
    ST_DEADLINE,
    ST_LIMIT,
    ST_NODES,
    ST_TT_CUTS,
    ST_TT_HITS,
    arm,
    new_stats,
)
from ._kernels.table import new_table
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
from .trischaken import (
    TrischakenSearch,
    solve_trischaken,
    trischaken_kernels_cached,
    trischaken_position,
    trischaken_rule_bits,
    trischaken_values,
)

__all__ = [
    "ANNOUNCEABLE", "DEFAULT_TT_BITS", "UNLIMITED", "AnnouncementChoice", "Budget",
    "CardPointSearch", "GamePointResult", "GamePointSearch", "OverBudget", "Payoff",
    "Position", "SearchResult", "SearchStats", "announcement_options", "best_announcements",
    "bird_bits", "cell_start", "deal_game_points", "default_search", "game_kernels_cached",
    "kernels_cached", "make_payoff", "remaining_points", "reserved_birds", "solve_cards", "solve_game_points",
    "solve_many", "solve_position", "TrischakenSearch", "solve_trischaken",
    "trischaken_kernels_cached", "trischaken_position", "trischaken_rule_bits",
    "trischaken_values",
    # shared with the French Tarot solver's kernels (tarock_solver.french.solver): the
    # budget's counter array, the cycle clock and the table allocator
    "NSTATS", "ST_ABORTED", "ST_DEADLINE", "ST_LIMIT", "ST_NODES", "ST_TT_CUTS", "ST_TT_HITS",
    "arm", "cycles", "new_stats", "new_table",
]
