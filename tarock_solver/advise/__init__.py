"""Bidding advice: which contract to bid and what to announce, for one hand.

Entry point: :func:`advise` with an :class:`AdviceRequest`; the answer is an
:class:`~.results.Advice` (the table in the NOTATION.md 5.3 advice schema, the
:class:`~.results.Recommendation` and the run's :class:`~.results.RunMeta`).
The method: ``docs/ADVICE.md``.  Modules, one job each:

* :mod:`.adviser` — :func:`advise`: plan, run, decide, report;
* :mod:`.settings` — the request, the settings, the run's limit, its progress reports;
* :mod:`.progress` — the progress reports made while a run works;
* :mod:`.problem` — what to solve: contracts, announcement sets, policies;
* :mod:`.series` — one contract over the worlds: values, control-variate terms;
* :mod:`.schedule` — which worlds to evaluate and which exact solves to ask for;
* :mod:`.rows`, :mod:`.decision` — the table's rows; the recommendation;
* :mod:`.results` — the typed answer and its JSON; :mod:`.text` — the terminal view;
* :mod:`.infoset` — the talon decision on the declarer's information set;
* :mod:`.passing` — what passing is worth: the others' games and Trischaken, per world;
* :mod:`.bidding_policy` — the others' bids by the adviser's policy;
* :mod:`.trischaken_nets` — a seat's Trischaken net from the three paranoid values;
* :mod:`.contras` — the defenders' contras on a game, by a policy;
* :mod:`.exact` — exact card-point, game-point and Trischaken solves on solver threads;
* :mod:`.cv` — control-variate estimates, SEs and paired differences;
* :mod:`.sampling` — uniform, reproducible worlds consistent with what is known;
* :mod:`.announcements` — announcement sets and announcing policies;
* :mod:`.evaluate` — scoring a card-point result into net game points;
* :mod:`.rulesview` — what the adviser asks of a rule profile;
* :mod:`.inputs`, :mod:`.plot` — reading the question, plotting the answer;
* :mod:`.defend`, :mod:`.defend_results` — a defender's contra advice and its answer.
"""

from .adviser import advise
from .defend import DefendRequest, DefendSettings, contra_decision, defend, parse_announced
from .defend_results import ContraRow, DefendAdvice
from .inputs import DEMO_HAND, AdviceInput, read_advice_input
from .results import Advice
from .settings import AdviceLimit, AdviceProgress, AdviceRequest, AdviceSettings

__all__ = ["DEMO_HAND", "Advice", "AdviceInput", "AdviceLimit", "AdviceProgress",
           "AdviceRequest", "AdviceSettings", "ContraRow", "DefendAdvice", "DefendRequest",
           "DefendSettings", "advise", "contra_decision", "defend", "parse_announced",
           "read_advice_input"]
