"""The taker's discard, chosen on what he sees: his hand and the chien.

Every merged legal discard (:func:`~tarock_solver.french.chien.merged_discards`) is
valued by the learned evaluator over inner worlds (the defence's hands drawn among the
deals that leave the taker his 24 cards): first all of them on a few inner worlds, then
the most promising on more, the same inner worlds for every candidate.  The value is the
contract's expected score (:mod:`.value`) at multiplier 1: the Petite and the Garde
differ only by the multiplier, so one choice serves both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import half_points, oudlers_in, split
from ..chien import merged_discards
from ..estimate.model import FrenchEvaluator, PositionArrays
from .value import contract_value
from .worlds import STREAM_INNER, inner_defences, words

__all__ = ["DiscardChoice", "DiscardSettings", "choose_discard", "discard_positions"]


@dataclass(frozen=True)
class DiscardSettings:
    screen_worlds: int = 4  # inner worlds on which every candidate is valued
    final_worlds: int = 24  # inner worlds for the finalists
    finalists: int = 8


@dataclass(frozen=True)
class DiscardChoice:
    discard: int
    candidates: int  # merged legal discards valued
    value: float  # the finalist's mean expected value per defender, multiplier 1
    finalists: tuple[tuple[int, float], ...] = ()  # (discard, value), best first


def discard_positions(full: int, discards: list[int], taker: int, leader: int,
                      defences: list[tuple[int, int, int, int]]) -> PositionArrays:
    """Rows candidate-major: each discard on each defence deal, the discard the taker's."""
    n = len(discards) * len(defences)
    hlo = np.zeros((n, 4), np.int64)
    hhi = np.zeros((n, 4), np.int64)
    flo, fhi = split(full)
    points = np.zeros(n, np.int64)
    oud = np.zeros(n, np.int64)
    dw = [words(d) for d in defences]
    i = 0
    for disc in discards:
        dlo, dhi = split(disc)
        hp, ho = half_points(disc), oudlers_in(disc)
        for lo, hi in dw:
            hlo[i] = lo
            hhi[i] = hi
            hlo[i, taker] = flo & ~dlo
            hhi[i, taker] = fhi & ~dhi
            points[i] = hp
            oud[i] = ho
            i += 1
    return PositionArrays(hlo, hhi, np.full(n, leader, np.int64), np.full(n, taker, np.int64),
                          points, oud, np.zeros((n, 4), np.int64), np.zeros(n, np.int64))


def _values(model: FrenchEvaluator, full: int, discards: list[int], taker: int, leader: int,
            defences: list[tuple[int, int, int, int]], sd: float) -> np.ndarray:
    a = discard_positions(full, discards, taker, leader, defences)
    v = model.predict_start(a, points=False)
    # at multiplier 1 the petit au bout's factor is 1 under either rule
    value = contract_value(v.margin, v.pab, sd, 1, 1)
    return value.reshape(len(discards), len(defences)).mean(axis=1)


def choose_discard(model: FrenchEvaluator, full: int, taker: int, leader: int, seed: int,
                   index: tuple[int, ...], sd: float,
                   settings: DiscardSettings = DiscardSettings()) -> DiscardChoice:
    """The best merged discard from the taker's 24 cards ``full`` (inner worlds drawn by
    ``seed`` and ``index``, the outer world's number)."""
    cands = merged_discards(full)
    if len(cands) == 1:
        return DiscardChoice(cands[0], 1, float("nan"))
    screen = inner_defences(full, taker, seed, STREAM_INNER, index, settings.screen_worlds)
    first = _values(model, full, cands, taker, leader, screen, sd)
    order = np.argsort(-first, kind="stable")[:settings.finalists]
    finalists = [cands[i] for i in order]
    more = inner_defences(full, taker, seed, STREAM_INNER + 100, index, settings.final_worlds)
    second = _values(model, full, finalists, taker, leader, more, sd)
    ranked = np.argsort(-second, kind="stable")
    best = int(ranked[0])
    return DiscardChoice(finalists[best], len(cands), float(second[best]),
                         tuple((finalists[i], float(second[i])) for i in ranked))
