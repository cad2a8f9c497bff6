"""Analyses built on the double-dummy solver.

* :mod:`.options` -- the declarer's play options (talon exchanges) and the search for
  the best one, shared by the table and the review of an exchange;
* :mod:`.ddtable` -- the double-dummy table of a known deal (`tarock solve`);
* :mod:`.results` -- rows in the NOTATION 5.3 results schema and their files.

The results names are loaded on first use, so that importing the table does not
import pandas (it costs half a second of every `tarock solve` start).
"""

from __future__ import annotations

from typing import Any

from .ddtable import DDRow, DDTable, dd_table, lead_values, solve_contract
from .options import BestPlay, OptionOutcome, PlayOption, best_play, order_options, play_options

_RESULTS_NAMES = ("RESULT_COLUMNS", "SCHEMA_VERSION", "empty_results", "read_results",
                  "results_frame", "write_results")

__all__ = [
    "RESULT_COLUMNS",
    "SCHEMA_VERSION",
    "BestPlay",
    "DDRow",
    "DDTable",
    "OptionOutcome",
    "PlayOption",
    "best_play",
    "dd_table",
    "empty_results",
    "lead_values",
    "order_options",
    "play_options",
    "read_results",
    "results_frame",
    "solve_contract",
    "write_results",
]


def __getattr__(name: str) -> Any:
    if name in _RESULTS_NAMES:
        from . import results

        return getattr(results, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
