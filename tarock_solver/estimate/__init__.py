"""The learned double-dummy evaluator: the card points of a position in microseconds.

* :mod:`.positions` — the seeded sampler of positions to label (post-exchange,
  random, short);
* :mod:`.labels` — exact labels from the solver, resumable and byte-reproducible;
* :mod:`.features` — suit-symmetric features (exactly invariant under suit
  permutations);
* :mod:`.model` — numpy-only inference, :func:`estimate_many` and
  :func:`estimate_position` (bit-for-bit equal per row by fixed-point arithmetic);
* :mod:`.train` — the seeded numpy training command.

Only :mod:`.model` and :mod:`.features` are needed at inference time; they import
nothing beyond numpy and the project's errors and card tables.
"""

from __future__ import annotations

from .model import check_positions, estimate_many, estimate_position, load_evaluator

__all__ = ["check_positions", "estimate_many", "estimate_position", "load_evaluator"]
