"""The learned evaluator of French Tarot: a position's card points and margin in microseconds.

Three boosted oblivious-tree ensembles (:mod:`tarock_solver.estimate.trees`, the
Illustrated evaluator's model and kernel) over the features of :mod:`.features`:

* ``points`` — the half points the taker will take from the remaining tricks (clipped to
  what is left in the hands);
* ``margin`` — his final margin in half points, ``points − target(oudlers)`` at the end;
* ``pab`` — what the petit au bout adds to it when both sides also play for the bonus
  (the margin with ``±PAB_HALF_POINTS`` for the side that takes it, less the margin):
  the petit au bout's net worth, in a contract's score per multiplier, times two.

All are what the exact solver (:mod:`tarock_solver.french.solver`) would answer, learned
from its solves of positions up to eight tricks from the end and, above, from one trick
of look-ahead over the previous round's model (``docs/EVALUATOR.md``, the model card).
The weights are package data, ``french_weights.npz`` beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ...estimate.trees import ObliviousEnsemble
from ..cards import TARGET_HALF_POINTS, TOTAL_HALF_POINTS, split
from ..play import PlayState
from ..solver import PAB_HALF_POINTS, FrenchPosition, card_code, trick_lines, trick_minimax
from .features import N_FEATURES, features, remaining_half_points

__all__ = ["WEIGHTS_PATH", "FrenchEvaluator", "HeadValues", "PositionArrays",
           "load_french_evaluator", "opening_arrays", "petit_in_hands", "position_arrays"]

WEIGHTS_PATH = Path(__file__).with_name("french_weights.npz")
#: Rows per block of features (bounds the memory; any value gives the same result).
BLOCK = 4096
_HEADS = ("points", "margin", "pab")


class HeadValues(NamedTuple):
    """The heads' answers for positions (NaN where a head was not asked)."""

    points: np.ndarray
    margin: np.ndarray
    pab: np.ndarray


@dataclass(frozen=True)
class PositionArrays:
    """Positions as arrays (the evaluator's and the look-ahead's view): the hands' kernel
    words ``hlo``/``hhi`` (N, 4), leader and taker seats, the taker's half points and
    oudlers so far, and the cards already in the trick (kernel codes, ``n`` of them)."""

    hlo: np.ndarray
    hhi: np.ndarray
    leader: np.ndarray
    taker: np.ndarray
    points: np.ndarray
    oudlers: np.ndarray
    tc: np.ndarray
    n: np.ndarray

    def __len__(self) -> int:
        return len(self.leader)

    def take(self, rows: np.ndarray) -> PositionArrays:
        return PositionArrays(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))


def position_arrays(positions: Sequence[FrenchPosition]) -> PositionArrays:
    """The arrays of positions (at a trick start or within a trick)."""
    n = len(positions)
    hlo = np.zeros((n, 4), np.int64)
    hhi = np.zeros((n, 4), np.int64)
    tc = np.zeros((n, 4), np.int64)
    for i, p in enumerate(positions):
        for s, h in enumerate(p.hands):
            hlo[i, s], hhi[i, s] = split(h)
        for j, c in enumerate(p.trick):
            tc[i, j] = card_code(c)
    return PositionArrays(
        hlo, hhi, np.array([p.leader for p in positions], np.int64),
        np.array([p.taker for p in positions], np.int64),
        np.array([p.state.taker_points for p in positions], np.int64),
        np.array([p.state.taker_oudlers for p in positions], np.int64), tc,
        np.array([len(p.trick) for p in positions], np.int64))


def opening_arrays(openings: Sequence[tuple[Sequence[int], PlayState]],
                   takers: Sequence[int]) -> PositionArrays:
    """The arrays of first-trick starts (seat 0 to lead), each given as the hands and the
    taker's score so far (:func:`~tarock_solver.french.chien.opening`), with its taker."""
    n = len(openings)
    hlo = np.zeros((n, 4), np.int64)
    hhi = np.zeros((n, 4), np.int64)
    for i, (hands, _) in enumerate(openings):
        for s, h in enumerate(hands):
            hlo[i, s], hhi[i, s] = split(h)
    return PositionArrays(hlo, hhi, np.zeros(n, np.int64), np.array(takers, np.int64),
                          np.array([st.taker_points for _, st in openings], np.int64),
                          np.array([st.taker_oudlers for _, st in openings], np.int64),
                          np.zeros((n, 4), np.int64), np.zeros(n, np.int64))


def petit_in_hands(hlo: np.ndarray) -> np.ndarray:
    """Per row of trump words (N, 4), whether a hand still holds the Petit (bit 0)."""
    return (hlo & 1).any(axis=1)


def margin_range(points: np.ndarray, oudlers: np.ndarray, remaining: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The least and greatest final margins still possible (the margin head's clip)."""
    lo = points - TARGET_HALF_POINTS[0]
    hi = np.minimum(points + remaining, TOTAL_HALF_POINTS) - TARGET_HALF_POINTS[3]
    return lo, hi


class FrenchEvaluator:
    """Positions at a trick start → estimated remaining half points, final margin and
    the petit au bout's net worth."""

    def __init__(self, points: ObliviousEnsemble, margin: ObliviousEnsemble,
                 pab: ObliviousEnsemble, meta: str = "") -> None:
        for name, m in zip(_HEADS, (points, margin, pab), strict=True):
            if m.n_trees and int(m.features.max()) >= N_FEATURES:
                raise ValueError(f"the {name} ensemble asks for feature "
                                 f"{int(m.features.max())}; there are {N_FEATURES}")
        self.points = points
        self.margin = margin
        self.pab = pab
        self.meta = meta

    def arrays(self) -> dict[str, np.ndarray]:
        out = {"meta": np.array(self.meta)}
        for name, m in zip(_HEADS, (self.points, self.margin, self.pab), strict=True):
            out.update({f"{name}_{k}": v for k, v in m.arrays().items()})
        return out

    @classmethod
    def load(cls, path: str | Path) -> FrenchEvaluator:
        with np.load(path, allow_pickle=False) as z:
            heads = []
            for name in _HEADS:
                pre = f"{name}_"
                heads.append(ObliviousEnsemble(z[pre + "features"], z[pre + "thresholds"],
                                               z[pre + "leaves"], float(z[pre + "base"])))
            return cls(*heads, meta=str(z["meta"]))

    def predict_start(self, a: PositionArrays, *, points: bool = True, pab: bool = True
                      ) -> HeadValues:
        """The heads at positions at a trick start; the margin always, the points and the
        petit au bout when asked."""
        n = len(a)
        pts = np.full(n, np.nan)
        mar = np.empty(n)
        bonus = np.full(n, np.nan)
        buf = np.empty((min(n, BLOCK), N_FEATURES))
        for lo in range(0, n, BLOCK):
            hi = min(n, lo + BLOCK)
            s = slice(lo, hi)
            x = features(a.hlo[s], a.hhi[s], a.leader[s], a.taker[s], a.points[s],
                         a.oudlers[s], out=buf[:hi - lo])
            rem = remaining_half_points(a.hlo[s], a.hhi[s]).astype(np.float64)
            if points:
                pts[s] = np.clip(self.points.predict(x), 0.0, rem)
            mlo, mhi = margin_range(a.points[s], a.oudlers[s], rem)
            mar[s] = np.clip(self.margin.predict(x), mlo, mhi)
            if pab:
                # no petit au bout once the Petit has gone (a won one is settled then)
                live = petit_in_hands(a.hlo[s])
                bonus[s] = np.where(live, np.clip(self.pab.predict(x), -2 * PAB_HALF_POINTS,
                                                  2 * PAB_HALF_POINTS), 0.0)
        return HeadValues(pts, mar, bonus)

    def predict_lookahead(self, a: PositionArrays) -> HeadValues:
        """The same, by every line to the end of the trick in progress (one trick of
        look-ahead at a trick start) with the ensembles at the next trick's start:
        the taker maximises, the defenders minimise, each objective on its own (the
        petit au bout's as the margin with it, less the margin)."""
        offsets, clo, chi, cleader, gain, oud = trick_lines(a.hlo, a.hhi, a.leader, a.taker,
                                                            a.tc, a.n)
        counts = np.diff(offsets)
        parent = np.repeat(np.arange(len(a)), counts)
        child = PositionArrays(clo, chi, cleader, a.taker[parent], a.points[parent] + gain,
                               a.oudlers[parent] + oud, np.zeros((len(cleader), 4), np.int64),
                               np.zeros(len(cleader), np.int64))
        cp, cm, cb = self.predict_start(child)
        # the points head counts from the trick's start: what the trick gave plus the rest
        pts = trick_minimax(a.hlo, a.hhi, a.leader, a.taker, offsets, gain + cp, a.tc, a.n)
        mar = trick_minimax(a.hlo, a.hhi, a.leader, a.taker, offsets, cm, a.tc, a.n)
        with_pab = trick_minimax(a.hlo, a.hhi, a.leader, a.taker, offsets, cm + cb, a.tc, a.n)
        return HeadValues(pts, mar, with_pab - mar)


@lru_cache(maxsize=4)
def load_french_evaluator(path: str | None = None) -> FrenchEvaluator:
    """The shipped evaluator (or the one at ``path``), loaded once."""
    return FrenchEvaluator.load(path or WEIGHTS_PATH)
