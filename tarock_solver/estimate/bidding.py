"""The bidding model: a hand's value per contract as the adviser's evaluator judges it.

:func:`contract_values` maps 16-card hands and their seats to the mean net game
points of each contract of :data:`BID_CONTRACTS` (its best announcement option,
silent birds not counted) that the adviser's evaluator-level answer gives the hand
— thousands of hands a second, which is what lets the adviser make the other two
players bid on every one of its worlds.  One oblivious tree ensemble per contract
over :func:`hand_features`, trained on the adviser's own answers
(``python -m tarock_solver.training.bidding``); the model card is in
``docs/EVALUATOR.md``.  The labels are the ``dummett`` profile's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..cards import GROUP_START
from .trees import ObliviousEnsemble

__all__ = ["BIDDING_RULES", "BIDDING_WEIGHTS_PATH", "BID_CONTRACTS", "BiddingModel",
           "contract_values", "hand_features", "load_bidding_model"]

BIDDING_WEIGHTS_PATH = Path(__file__).with_name("bidding_weights.npz")
#: The contracts valued, lowest bid first (Lower is Three's play at another value).
BID_CONTRACTS: tuple[str, ...] = ("three", "lower", "two", "one", "solo")
#: The profile whose scores the shipped labels are in.
BIDDING_RULES = "dummett"

_BITS = np.uint64(1) << np.arange(54, dtype=np.uint64)
N_HAND_FEATURES = 37


def hand_features(hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The features of 16-card hands (uint64 masks) at seats 0 F, 1 M, 2 R: an (N, 37)
    float matrix.

    Tarocks: count, rank sum, the Trull cards, the birds, counts above XV and XVIII;
    suits sorted longest first (a hand's value does not depend on which suit is
    which): length and King, Queen, Cavall, Jack of each; voids, singletons, Kings,
    the hand's card points in thirds; the seat (F leads the first trick).
    """
    h = np.asarray(hands, dtype=np.uint64).reshape(-1)
    s = np.asarray(seats, dtype=np.int64).reshape(-1)
    cards = ((h[:, None] & _BITS[None, :]) != 0)  # (N, 54)
    n = len(h)
    x = np.zeros((n, N_HAND_FEATURES))
    t = cards[:, :22]
    ranks = np.arange(1, 23, dtype=np.float64)
    x[:, 0] = t.sum(1)
    x[:, 1] = (t * ranks).sum(1)
    x[:, 2] = t[:, 21]  # Sküs
    x[:, 3] = t[:, 20]  # XXI
    x[:, 4] = t[:, 0]  # Pagat
    x[:, 5] = t[:, 1]  # Uhu
    x[:, 6] = t[:, 2]  # Kakadu
    x[:, 7] = t[:, 14:].sum(1)
    x[:, 8] = t[:, 17:].sum(1)
    suits = np.stack([cards[:, GROUP_START[g]:GROUP_START[g] + 8] for g in range(1, 5)], 1)
    length = suits.sum(2)  # (N, 4)
    order = np.argsort(-length, axis=1, kind="stable")
    srt = np.take_along_axis(suits, order[:, :, None], 1)
    x[:, 9:13] = np.take_along_axis(length, order, 1)
    for k, rank in enumerate((7, 6, 5, 4)):  # K, Q, C, J
        x[:, 13 + 4 * k:17 + 4 * k] = srt[:, :, rank]
    x[:, 29] = (length == 0).sum(1)
    x[:, 30] = (length == 1).sum(1)
    x[:, 31] = suits[:, :, 7].sum(1)
    nominal = np.zeros(54)
    nominal[[0, 20, 21]] = 5
    nominal[1:20] = 1
    for g in range(1, 5):
        nominal[GROUP_START[g]:GROUP_START[g] + 8] = (1, 1, 1, 1, 2, 3, 4, 5)
    # thirds: every card is worth its nominal value minus 2/3
    x[:, 32] = (cards * (3 * nominal - 2)).sum(1)
    x[:, 33] = s == 0
    x[:, 34] = s == 1
    x[:, 35] = s == 2
    x[:, 36] = x[:, 0] + x[:, 29] + x[:, 30] / 2  # a trumping hand's length
    return x


class BiddingModel:
    """One ensemble per contract; a contract without one is not valued (NaN)."""

    def __init__(self, models: dict[str, ObliviousEnsemble], meta: str = "") -> None:
        self.models = models
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path) -> BiddingModel:
        models = {}
        with np.load(path, allow_pickle=False) as z:
            meta = str(z["meta"]) if "meta" in z.files else ""
            for c in BID_CONTRACTS:
                if f"{c}/kind" in z.files:
                    models[c] = ObliviousEnsemble(z[f"{c}/features"], z[f"{c}/thresholds"],
                                                  z[f"{c}/leaves"], float(z[f"{c}/base"]))
        return cls(models, meta)

    def predict(self, hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """(N, len(BID_CONTRACTS)) mean nets; NaN for a contract without a model."""
        x = hand_features(hands, seats)
        out = np.full((len(x), len(BID_CONTRACTS)), np.nan)
        for i, c in enumerate(BID_CONTRACTS):
            m = self.models.get(c)
            if m is not None:
                out[:, i] = m.predict(x)
        return out


@lru_cache(maxsize=2)
def load_bidding_model(path: str | None = None) -> BiddingModel:
    """The shipped bidding model (or the one at ``path``), loaded once."""
    p = Path(path) if path is not None else BIDDING_WEIGHTS_PATH
    if not p.exists():
        raise FileNotFoundError(f"bidding model not found at {p}; train it with "
                                "python -m tarock_solver.training.bidding")
    return BiddingModel.load(p)


def contract_values(hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The shipped model's mean net of each contract of :data:`BID_CONTRACTS` for each
    hand at its seat, as an (N, 5) array (NaN: not valued)."""
    return load_bidding_model().predict(hands, seats)
