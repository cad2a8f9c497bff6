"""French Tarot bidding advice: :func:`~.adviser.advise_french` and its answer.

* :mod:`.adviser` — the rows, the recommendation, the answer;
* :mod:`.worlds` — the worlds of a hand and a taker's inner worlds;
* :mod:`.discard` — the taker's discard on his hand and the chien;
* :mod:`.policy` — the others' bids when the player passes;
* :mod:`.value` — P(make) and the expected score of an estimated margin;
* :mod:`.rows` — the advice as flat table rows, one per hand advised.
"""

from .adviser import PASS, FrenchAdvice, FrenchAdviceRequest, FrenchOption, advise_french

__all__ = ["PASS", "FrenchAdvice", "FrenchAdviceRequest", "FrenchOption", "advise_french"]
