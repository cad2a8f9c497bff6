"""Bidding advice: which contract to bid and what to announce, for one hand.

Entry point: :func:`advise` with an :class:`AdviceRequest`; the answer is an
:class:`~.report.Advice` (a pandas table in the NOTATION.md 5.3 advice schema,
the recommendation and the run's metadata).  Modules, one job each:

* :mod:`.adviser` — :func:`advise`: plan, run the engine, report;
* :mod:`.plan` — the request and what to solve (contracts, announcement sets,
  policies);
* :mod:`.engine` — the evaluator phase over many worlds and the exact phase;
* :mod:`.infoset` — the talon decision on the declarer's information set;
* :mod:`.exact` — exact card-point and game-point solves on solver threads;
* :mod:`.cv` — control-variate estimates, SEs and paired differences;
* :mod:`.sampling` — uniform, reproducible worlds consistent with what is known;
* :mod:`.announcements` — announcement sets and announcing policies;
* :mod:`.evaluate` — scoring a card-point result into net game points;
* :mod:`.rulesview` — what the adviser asks of a rule profile;
* :mod:`.report` — table and recommendation; :mod:`.text` — the terminal view;
* :mod:`.inputs`, :mod:`.plot` — reading the question, plotting the answer.
"""

from .adviser import AdviceRequest, AdviceSettings, advise
from .inputs import DEMO_HAND, AdviceInput, read_advice_input
from .report import Advice

__all__ = ["DEMO_HAND", "Advice", "AdviceInput", "AdviceRequest", "AdviceSettings", "advise",
           "read_advice_input"]
