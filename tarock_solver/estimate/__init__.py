"""The learned double-dummy evaluator: the card points of a position in microseconds.

Inference only:

* :mod:`.features` — suit-symmetric features (exactly invariant under suit
  permutations);
* :mod:`.trees` — the oblivious-tree ensemble and its numba inference;
* :mod:`.model` — :func:`estimate_many` and :func:`estimate_position` (bit-for-bit
  equal per row: each row is summed by the same loop in any batch), and the shipped
  weights ``evaluator_weights.npz``.

They import nothing beyond numpy, numba and the project's errors and card tables.
The labels and the trainer that made the weights are :mod:`tarock_solver.training`.
"""

from __future__ import annotations

from .model import check_positions, estimate_many, estimate_position, load_evaluator

__all__ = ["check_positions", "estimate_many", "estimate_position", "load_evaluator"]
