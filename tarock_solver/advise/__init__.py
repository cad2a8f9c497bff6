"""Bidding advice: which contract to bid and what to announce, for one hand.

Entry point: :func:`advise` with an :class:`AdviceRequest`; the answer is an
:class:`~.report.Advice` (pandas tables in the NOTATION.md 5.3 advice schema,
the recommendation and the run's metadata).  Modules, one job each:

* :mod:`.adviser` — :func:`advise`: plan, evaluate the worlds, report;
* :mod:`.plan` — what to solve: the request, the race settings, and per
  contract the announcement sets, policies and bird sets;
* :mod:`.world` — one sampled world: the units of work and their evaluation;
* :mod:`.schedule` — round robin over worlds, worker processes, the time limit;
  :mod:`.workers` — a worker process's state;
* :mod:`.sampling` — uniform, reproducible worlds consistent with what is known;
* :mod:`.candidates` — the short list of talon exchanges to race;
* :mod:`.announcements` — announcement sets and announcing policies;
* :mod:`.evaluate` — one position → card points or game points → net game points;
* :mod:`.race` — the nested talon decision by successive halving;
* :mod:`.rulesview` — what the adviser asks of a rule profile;
* :mod:`.report` — estimates, standard errors, tables, recommendation;
* :mod:`.inputs`, :mod:`.plot` — reading the question, plotting the answer.
"""

from .adviser import AdviceRequest, RaceConfig, advise
from .inputs import DEMO_HAND, AdviceInput, read_advice_input
from .report import Advice

__all__ = ["DEMO_HAND", "Advice", "AdviceInput", "AdviceRequest", "RaceConfig", "advise",
           "read_advice_input"]
