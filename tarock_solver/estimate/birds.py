"""Will a bird win its trick?  The bird model of the game-point evaluator.

:func:`bird_win_probabilities` gives, for each bird card (I, II, III) still in a hand
of a position at a trick start, the probability that double-dummy play for game
points brings it home: played to its own trick (16, 15, 14) and winning it for its
holder.  The model is a logistic regression on a dozen counts of the holder's and
the other side's tarocks (:func:`bird_features`), fitted by
:mod:`tarock_solver.training.birds` on the bird outcomes of exact game-point labels;
its weights are package data (``bird_weights.npz`` beside this module).

A bird that is not brought home is taken as not played to its trick (nothing is
written for a silent bird; an announced one fails): the labels show no bird lost in
its own trick under double-dummy play, which plays a bird out early rather than
into a capture whenever it can.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from .model import popcounts as _popcount

__all__ = ["BIRD_FEATURES", "BIRD_WEIGHTS_PATH", "BirdModel", "bird_features",
           "bird_win_probabilities", "load_bird_weights"]

BIRD_WEIGHTS_PATH = Path(__file__).with_name("bird_weights.npz")

#: The columns of :func:`bird_features`, in order.
BIRD_FEATURES: tuple[str, ...] = (
    "bias", "holder_is_declarer", "holder_tarocks", "opponent_tarocks_max",
    "opponent_tarocks_sum", "partner_tarocks", "declarer_margin", "side_high_tarocks",
    "opponent_high_tarocks", "holder_voids", "is_uhu", "is_kakadu", "holder_leads",
    "holder_tarocks_share",
)

_TAROCKS = np.uint64((1 << 22) - 1)
#: XV … Sküs: the tarocks that decide the late tarock tricks.
_HIGH = np.uint64(((1 << 22) - 1) & ~((1 << 14) - 1))
_SUITS = tuple(np.uint64(0xFF << (22 + 8 * g)) for g in range(4))


def bird_features(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features of each bird of each position: ``(x, live, holder)``.

    ``hands`` (N, 3) uint64 masks at a trick start, ``leaders`` and ``declarers`` (N,)
    seats.  Returns
    ``x`` (N, 3, len(BIRD_FEATURES)) float64, ``live`` (N, 3) bool (the bird is in a
    hand) and ``holder`` (N, 3) int64 (its seat; -1 when not live).  The holder's
    "opponents" are the declarer's two defenders when he holds the bird, else the
    declarer; his "partner" is the other defender (none for the declarer)."""
    h = np.asarray(hands, dtype=np.uint64)
    n = len(h)
    decl = np.asarray(declarers, dtype=np.int64)
    lead = np.asarray(leaders, dtype=np.int64)
    tar = _popcount(h & _TAROCKS)  # (N, 3)
    high = _popcount(h & _HIGH)
    voids = np.zeros((n, 3), dtype=np.int64)
    for s in _SUITS:
        voids += (h & s) == 0
    cards = np.maximum(_popcount(h[:, :1])[:, 0], 1)
    rows = np.arange(n)
    x = np.zeros((n, 3, len(BIRD_FEATURES)))
    live = np.zeros((n, 3), dtype=bool)
    holder = np.full((n, 3), -1, dtype=np.int64)
    for b in range(3):
        has = (h >> np.uint64(b)) & np.uint64(1)
        found = has.any(axis=1)
        s = np.where(found, np.argmax(has, axis=1), 0)
        live[:, b] = found
        holder[:, b] = np.where(found, s, -1)
        is_decl = s == decl
        d1, d2 = (decl + 1) % 3, (decl + 2) % 3
        partner = np.where(is_decl, -1, 3 - s - decl)
        opp_max = np.where(is_decl, np.maximum(tar[rows, d1], tar[rows, d2]), tar[rows, decl])
        opp_sum = np.where(is_decl, tar[rows, d1] + tar[rows, d2], tar[rows, decl])
        part_t = np.where(is_decl, 0, tar[rows, np.maximum(partner, 0)])
        side_high = high[rows, s] + np.where(is_decl, 0, high[rows, np.maximum(partner, 0)])
        opp_high = np.where(is_decl, high[rows, d1] + high[rows, d2], high[rows, decl])
        col = (np.ones(n), is_decl, tar[rows, s], opp_max, opp_sum, part_t,
               is_decl * (tar[rows, s] - opp_max), side_high, opp_high, voids[rows, s],
               np.full(n, b == 1), np.full(n, b == 2), s == lead,
               tar[rows, s] / cards)
        for k, v in enumerate(col):
            x[:, b, k] = v
    return x, live, holder


class BirdModel:
    """The fitted logistic regression: weights over :data:`BIRD_FEATURES`."""

    def __init__(self, weights: np.ndarray, meta: str = "") -> None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(BIRD_FEATURES),):
            raise ValueError(f"the bird model needs {len(BIRD_FEATURES)} weights; found "
                             f"shape {w.shape}")
        self.weights = w
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path) -> BirdModel:
        with np.load(path) as z:
            return cls(z["weights"], str(z["meta"]) if "meta" in z.files else "")

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        z = np.clip(x @ self.weights, -30.0, 30.0)
        return 1.0 / (1.0 + np.exp(-z))


@lru_cache(maxsize=4)
def load_bird_weights(path: str | None = None) -> BirdModel:
    """The shipped bird model (or the one at ``path``), loaded once."""
    p = Path(path) if path is not None else BIRD_WEIGHTS_PATH
    if not p.exists():
        raise FileNotFoundError(f"bird model not found at {p}; fit it with "
                                f"python -m tarock_solver.training.birds")
    return BirdModel.load(p)


def bird_win_probabilities(hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray,
                           model: BirdModel | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(p, holder)``: per position and bird (N, 3), the probability that the bird wins
    its own trick for its holder, and the holder's seat (-1: not in a hand, p = 0).
    ``model``: another fitted model (held-out measurements); default the shipped one."""
    x, live, holder = bird_features(hands, leaders, declarers)
    p = (model or load_bird_weights()).probabilities(x)
    return np.where(live, p, 0.0), holder
