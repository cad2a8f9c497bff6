"""The learned double-dummy evaluator: the card points of a position in microseconds.

* :mod:`.positions` — the seeded sampler of positions to label (post-exchange,
  biddable, random, short);
* :mod:`.labels` — exact labels from the solver, resumable and byte-reproducible;
* :mod:`.features` — suit-symmetric features (exactly invariant under suit
  permutations);
* :mod:`.trees` — the oblivious-tree ensemble and its numba inference;
* :mod:`.model` — :func:`estimate_many` and :func:`estimate_position` (bit-for-bit
  equal per row: each row is summed by the same loop in any batch);
* :mod:`.boosting`, :mod:`.train` — the seeded numpy trainer and its command.

Only :mod:`.model`, :mod:`.trees` and :mod:`.features` are needed at inference
time; they import nothing beyond numpy, numba and the project's errors and card
tables.
"""

from __future__ import annotations

from .model import check_positions, estimate_many, estimate_position, load_evaluator

__all__ = ["check_positions", "estimate_many", "estimate_position", "load_evaluator"]
