"""Bidding advice (issue 6): which contract to bid and what to announce, for one hand.

Entry point: :func:`advise` with an :class:`AdviceRequest`; the answer is an
:class:`~.report.Advice` (pandas tables in the NOTATION.md 5.3 advice schema,
the recommendation and the run's metadata).  Modules, one job each:

* :mod:`.sampling` — uniform, reproducible worlds consistent with what is known;
* :mod:`.candidates` — the short list of talon exchanges to race;
* :mod:`.announcements` — announcement sets and announcing policies;
* :mod:`.evaluate` — one position → card points → net game points (the evaluator
  interface that the game-point solver will implement);
* :mod:`.race` — the nested talon decision by successive halving;
* :mod:`.adviser` — orchestration over worlds, workers and the time limit;
* :mod:`.report` — estimates, standard errors, tables, recommendation;
* :mod:`.inputs`, :mod:`.plot` — reading the question, plotting the answer.
"""

from .adviser import AdviceRequest, RaceConfig, advise
from .inputs import DEMO_HAND, AdviceInput, read_advice_input
from .report import Advice

__all__ = ["DEMO_HAND", "Advice", "AdviceInput", "AdviceRequest", "RaceConfig", "advise",
           "read_advice_input"]
