"""Brute-force oracles: readable, exponential minimax searches the solver is tested against.

:mod:`.cardpoints` plays every line with the rules of :mod:`tarock_solver.play` and
memoises on the complete state; :mod:`.gamepoints` scores every leaf with the score
sheet itself; :mod:`.trischaken` is a plain minimax of one Trischaken seat's paranoid value.  Both are meant for positions of up to about six tricks.
"""

from .cardpoints import (
    ReferenceSolver,
    random_position,
    reference_card_values,
    reference_value,
    trick_number,
)
from .gamepoints import PayoffReference, random_game_case, reference_game_value
from .trischaken import random_trischaken_position, reference_trischaken

__all__ = [
    "PayoffReference", "ReferenceSolver", "random_game_case", "random_position", "reference_card_values",
    "reference_game_value", "reference_value", "trick_number", "random_trischaken_position",
    "reference_trischaken",
]
