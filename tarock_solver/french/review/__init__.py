"""Review of a played French Tarot deal: what every card cost (``tarock --game french review``).

* :mod:`.record` — :func:`check_play` plays a record (a
  :class:`~tarock_solver.french.deal_files.FrenchDealRecord` with its play) through the
  rules of play: :class:`FrenchPlayLine`, the position before every card;
* :mod:`.engine` — :func:`review_line`: every card's value before and after, its best
  alternatives and its loss, exact from the solver near the end of the deal, estimated
  (or unjudged) before;
* :mod:`.report` — per-seat totals, the JSON document, text lines and the batch rows.
"""

from .engine import (
    EXACT_TRICKS,
    CardValue,
    CardVerdict,
    FrenchReview,
    ValueSource,
    learned_values,
    review,
    review_line,
)
from .record import FrenchPlayLine, FrenchTrick, check_play

__all__ = ["EXACT_TRICKS", "CardValue", "CardVerdict", "FrenchPlayLine", "FrenchReview",
           "FrenchTrick", "ValueSource", "check_play", "learned_values", "review",
           "review_line"]
