"""The learned double-dummy evaluator: the card points of a position in microseconds.

Inference only:

* :mod:`.features` — suit-symmetric features (exactly invariant under suit
  permutations);
* :mod:`.trees` — the oblivious-tree ensemble and its numba inference;
* :mod:`.model` — :func:`estimate_many` and :func:`estimate_position` (bit-for-bit
  equal per row: each row is summed by the same loop in any batch), and the shipped
  weights ``evaluator_weights.npz``;
* :mod:`.birds` — the bird model (will a bird win its trick?), ``bird_weights.npz``;
* :mod:`.gamepoints` — :func:`estimate_game_points` and
  :func:`estimate_game_points_many`: the net game points (birds included) that
  ``solve_game_points`` would return.
* :mod:`.trischaken` — :func:`estimate_trischaken_many`: a seat's paranoid card points
  in Trischaken (the all-pass game), ``trischaken_weights.npz``; and
  :func:`trischaken_net` / :func:`expected_trischaken_net`, its net game points.

They import nothing beyond numpy, numba, the project's model layer and the
solver's payoff (the scorer's view of an outcome).
The labels and the trainer that made the weights are :mod:`tarock_solver.training`.
"""

from __future__ import annotations

from .gamepoints import estimate_game_points, estimate_game_points_many
from .model import check_positions, estimate_many, estimate_position, load_evaluator
from .trischaken import (
    estimate_trischaken_many,
    expected_trischaken_net,
    load_trischaken_evaluator,
    trischaken_net,
)

__all__ = ["check_positions", "estimate_game_points", "estimate_game_points_many",
           "estimate_many", "estimate_position", "estimate_trischaken_many",
           "expected_trischaken_net", "load_evaluator", "load_trischaken_evaluator",
           "trischaken_net"]
