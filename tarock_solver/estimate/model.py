"""The learned double-dummy evaluator: numpy/numba inference, equal per row in any batch.

:func:`estimate_many` maps positions at a trick start (hands ``(N, 3)`` uint64
masks, leaders, declarers — the meaning of :func:`tarock_solver.solve_position`)
to the declarer's estimated card points from the remaining tricks;
:func:`estimate_position` does one position.  The model is a boosted ensemble of
oblivious trees (:mod:`.trees`) over the suit-symmetric features of
:mod:`.features`; its value is clipped to ``[0, remaining points]``.  Each row is
computed by the same scalar loop whatever the batch, so a row of
``estimate_many`` equals ``estimate_position`` bit for bit.

The model is package data (``evaluator_weights.npz`` beside this module), written
by :mod:`tarock_solver.training.train`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import DealError, RulesError
from .features import N_FEATURES, features, remaining_points
from .trees import ObliviousEnsemble

__all__ = ["WEIGHTS_PATH", "Evaluator", "check_positions", "estimate_many",
           "estimate_position", "load_evaluator"]

WEIGHTS_PATH = Path(__file__).with_name("evaluator_weights.npz")
#: Rows per block in Evaluator.predict (bounds the feature matrix's memory; any
#: value gives the same result).
BLOCK = 4096

_SEATS = ("F", "M", "R")
_POPCOUNT8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_FULL = np.uint64((1 << 54) - 1)


class Evaluator:
    """Positions → estimated card points: features, the tree ensemble, the clip."""

    def __init__(self, model: ObliviousEnsemble) -> None:
        if model.n_trees and int(model.features.max()) >= N_FEATURES:
            raise ValueError(f"the ensemble asks for feature {int(model.features.max())}; "
                             f"there are {N_FEATURES}")
        self.model = model

    @property
    def meta(self) -> str:
        return self.model.meta

    @meta.setter
    def meta(self, value: str) -> None:
        self.model.meta = value

    @classmethod
    def load(cls, path: str | Path) -> Evaluator:
        return cls(ObliviousEnsemble.load(path))

    def arrays(self) -> dict[str, np.ndarray]:
        return self.model.arrays()

    def predict(self, hands: np.ndarray, leaders: np.ndarray, declarers: np.ndarray
                ) -> np.ndarray:
        """Estimates for validated positions (see :func:`estimate_many`)."""
        n = len(hands)
        out = np.empty(n, dtype=np.float64)
        buf = np.empty((min(n, BLOCK), N_FEATURES), dtype=np.float64)
        for lo in range(0, n, BLOCK):
            hi = min(n, lo + BLOCK)
            h = hands[lo:hi]
            rem = remaining_points(h).astype(np.float64)
            x = features(h, leaders[lo:hi], declarers[lo:hi], out=buf[:hi - lo])
            out[lo:hi] = np.clip(self.model.predict(x), 0.0, rem)
        return out


@lru_cache(maxsize=4)
def load_evaluator(path: str | None = None) -> Evaluator:
    """The shipped evaluator (or the one at ``path``), loaded once."""
    p = Path(path) if path is not None else WEIGHTS_PATH
    if not p.exists():
        raise FileNotFoundError(f"evaluator weights not found at {p}; train them with "
                                f"python -m tarock_solver.training.train")
    return Evaluator.load(p)


def popcounts(h: np.ndarray) -> np.ndarray:
    """Cards in each mask of a uint64 array (same shape)."""
    b = np.ascontiguousarray(h, dtype="<u8").view(np.uint8).reshape(*h.shape, 8)
    return _POPCOUNT8[b].sum(axis=-1)


def _as_masks(hands: object) -> np.ndarray:
    if isinstance(hands, np.ndarray) and hands.dtype == np.uint64:
        arr = hands
    else:
        try:
            obj = np.asarray(hands, dtype=object)
        except (TypeError, ValueError):
            raise DealError("hands must be an (N, 3) array of card masks") from None
        if obj.ndim != 2 or obj.shape[1:] != (3,):
            raise DealError(f"hands must be an (N, 3) array of card masks (F, M, R); "
                            f"found shape {obj.shape}")
        arr = np.zeros(obj.shape, dtype=np.uint64)
        for (r, s), v in np.ndenumerate(obj):
            try:
                m = int(v)
            except (TypeError, ValueError):
                raise DealError(f"position {r}: hand {_SEATS[s]} is not a card mask: "
                                f"{v!r}") from None
            if m < 0 or m >> 54:
                raise DealError(f"position {r}: hand {_SEATS[s]} has bits outside the 54 "
                                f"cards (0..53)")
            arr[r, s] = m
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise DealError(f"hands must be an (N, 3) array of card masks (F, M, R); "
                        f"found shape {arr.shape}")
    return arr


def _as_seats(values: object, n: int, what: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,):
        raise RulesError(f"{what} needs one seat per position ({n}); found shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        try:
            as_int = arr.astype(np.int64)
        except (TypeError, ValueError):
            raise RulesError(f'{what} must be seats 0, 1 or 2 (F, M, R)') from None
        if not np.array_equal(as_int, arr):
            raise RulesError(f'{what} must be seats 0, 1 or 2 (F, M, R)')
        arr = as_int
    bad = np.flatnonzero((arr < 0) | (arr > 2))
    if len(bad):
        i = int(bad[0])
        raise RulesError(f"position {i}: {what[:-1] if what.endswith('s') else what} "
                         f"{arr[i]} is not a seat; expected 0, 1 or 2 (F, M, R)")
    return arr.astype(np.int64)


def check_positions(hands: object, leaders: object, declarers: object
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate positions for the evaluator; return (hands uint64, leaders, declarers).

    Raises :class:`DealError` for bad card sets (not masks, bits beyond the 54 cards,
    a card in two hands, unequal hand sizes, empty or over-full hands) and
    :class:`RulesError` for bad seats, naming the first faulty position.
    """
    h = _as_masks(hands)
    n = len(h)
    beyond = np.flatnonzero((h & ~_FULL).any(axis=1))
    if len(beyond):
        r = int(beyond[0])
        s = int(np.flatnonzero(h[r] & ~_FULL)[0])
        raise DealError(f"position {r}: hand {_SEATS[s]} has bits outside the 54 cards (0..53)")
    for a, b in ((0, 1), (0, 2), (1, 2)):
        both = h[:, a] & h[:, b]
        bad = np.flatnonzero(both)
        if len(bad):
            r = int(bad[0])
            c = int(both[r]).bit_length() - 1
            from ..cards import CARD_IDS

            raise DealError(f"position {r}: card {CARD_IDS[c]} appears twice: in hand "
                            f"{_SEATS[a]} and in hand {_SEATS[b]}")
    counts = popcounts(h)
    uneven = np.flatnonzero((counts != counts[:, :1]).any(axis=1))
    if len(uneven):
        r = int(uneven[0])
        sizes = ", ".join(f"{_SEATS[s]} {int(counts[r, s])}" for s in range(3))
        raise DealError(f"position {r}: the hands need equal sizes at a trick start; found "
                        f"{sizes}")
    size_bad = np.flatnonzero((counts[:, 0] < 1) | (counts[:, 0] > 16))
    if len(size_bad):
        r = int(size_bad[0])
        raise DealError(f"position {r}: each hand holds {int(counts[r, 0])} cards; a position "
                        f"needs 1 to 16")
    return h, _as_seats(leaders, n, "leaders"), _as_seats(declarers, n, "declarers")


def estimate_many(hands: object, leaders: object, declarers: object) -> np.ndarray:
    """Estimated double-dummy card points of the declarer from the remaining tricks.

    ``hands`` is an (N, 3) array of card masks (F, M, R) at a trick start with equal
    sizes of 1–16 cards; ``leaders`` and ``declarers`` are seats 0/1/2 (arrays of N,
    or one seat for all).  Returns a float64 array of N; row i is bit-for-bit equal
    to ``estimate_position(hands[i], leaders[i], declarers[i])``.
    """
    h, lead, decl = check_positions(hands, leaders, declarers)
    return load_evaluator().predict(h, lead, decl)


def _plain_ok(row: list[object], leader: object, declarer: object) -> bool:
    """Fast check of one position given as Python ints (False: let the full check speak)."""
    if not all(type(v) is int for v in (*row, leader, declarer)):
        return False
    a, b, c = row  # type: ignore[misc]
    if min(a, b, c) < 0 or (a | b | c) >> 54 or (a & b) or (a & c) or (b & c):
        return False
    n = a.bit_count()
    return 1 <= n <= 16 and b.bit_count() == n == c.bit_count() and leader in (0, 1, 2) \
        and declarer in (0, 1, 2)


def estimate_position(hands: object, leader: int, declarer: int) -> float:
    """:func:`estimate_many` for one position (``hands`` = three masks F, M, R)."""
    try:
        row = list(hands)  # type: ignore[call-overload]
    except TypeError:
        raise DealError("hands must be three card masks (F, M, R)") from None
    if len(row) != 3:
        raise DealError(f"a position needs 3 hands (F, M, R); found {len(row)}")
    if _plain_ok(row, leader, declarer):
        h = np.array([row], dtype=np.uint64)
        lead = np.array([leader], dtype=np.int64)
        decl = np.array([declarer], dtype=np.int64)
    else:
        h, lead, decl = check_positions([row], [leader], [declarer])
    return float(load_evaluator().predict(h, lead, decl)[0])
