"""The learned double-dummy evaluator: inference in plain numpy, exact by construction.

:func:`estimate_many` maps positions at a trick start (hands ``(N, 3)`` uint64
masks, leaders, declarers — the meaning of :func:`tarock_solver.solve_position`)
to the declarer's estimated card points from the remaining tricks;
:func:`estimate_position` does one position.  The model is a small MLP over the
suit-symmetric features of :mod:`.features` that predicts the *share* of the
points still in play, so the estimate is ``share × remaining points``, clipped to
``[0, remaining]``.

Why the arithmetic is fixed point.  ``estimate_position`` must equal
``estimate_many`` bit for bit, but a BLAS matrix product may sum a row in a
different order (and with or without FMA) depending on the batch size.  So the
weights are stored as multiples of 2**-14 (``|w| < 16``), the features are
multiples of 2**-6, and each hidden activation is rounded to a multiple of
2**-10 (and clipped to ``< 2**12``): every product and partial sum is then an
integer multiple of 2**-24 below 2**29, exactly representable in float64, so each
layer's result is exact whatever the summation order — and identical for any
batch size or machine.

Weights are package data (``evaluator_weights.npz`` beside this module), written
by :mod:`.train`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import DealError, RulesError
from .features import N_FEATURES, features, remaining_points

__all__ = ["WEIGHTS_PATH", "Evaluator", "check_positions", "estimate_many",
           "estimate_position", "load_evaluator"]

WEIGHTS_PATH = Path(__file__).with_name("evaluator_weights.npz")
#: Fixed-point steps (see the module docstring).
W_STEP = 2.0 ** -14
W_MAX = 16.0
A_STEP = 2.0 ** -10
A_MAX = 2.0 ** 12
#: Rows per block in estimate_many (keeps the temporaries in cache; any value gives
#: the same result).
BLOCK = 2048

_SEATS = ("F", "M", "R")
_POPCOUNT8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_FULL = np.uint64((1 << 54) - 1)


def quantize_weights(w: np.ndarray) -> np.ndarray:
    """Round to the weight grid; raises if a weight is out of the exact range."""
    q = np.round(np.asarray(w, dtype=np.float64) / W_STEP) * W_STEP
    if np.abs(q).max(initial=0.0) >= W_MAX:
        raise ValueError(f"a weight of magnitude {np.abs(q).max()} is outside the exact range")
    return q


class Evaluator:
    """An MLP ``features -> share`` with fixed-point weights (lists of (W, b)).

    ``skip`` (optional, shape (N_FEATURES, 1)) is a linear path from the features
    straight to the output ("wide and deep"): with little data the model can stay
    close to a linear one and the hidden layers learn the rest.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: str = "",
                 skip: np.ndarray | None = None) -> None:
        if not layers or layers[0][0].shape[0] != N_FEATURES:
            raise ValueError(f"the first layer must take {N_FEATURES} features")
        self.layers = [(quantize_weights(w), quantize_weights(b)) for w, b in layers]
        self.skip = None if skip is None else quantize_weights(skip).reshape(N_FEATURES, 1)
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path) -> Evaluator:
        with np.load(path, allow_pickle=False) as z:
            n = int(z["n_layers"])
            layers = [(z[f"W{i}"], z[f"b{i}"]) for i in range(n)]
            meta = str(z["meta"]) if "meta" in z.files else ""
            skip = z["skip"] if "skip" in z.files else None
        return cls(layers, meta, skip)

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {"n_layers": np.array(len(self.layers))}
        for i, (w, b) in enumerate(self.layers):
            out[f"W{i}"], out[f"b{i}"] = w, b
        if self.skip is not None:
            out["skip"] = self.skip
        out["meta"] = np.array(self.meta)
        return out

    def share(self, x: np.ndarray) -> np.ndarray:
        """The network's output (share of the remaining points) for a feature matrix."""
        a = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            z = a @ w + b
            if i == last:
                if self.skip is not None:
                    z = z + x @ self.skip  # both exact on the grid: the sum is exact
                return z[:, 0]
            a = np.clip(np.round(z * (1.0 / A_STEP)) * A_STEP, 0.0, A_MAX - A_STEP)
        raise AssertionError("unreachable")

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
            share = self.share(x)
            out[lo:hi] = np.clip(share * rem, 0.0, rem)
        return out


@lru_cache(maxsize=4)
def load_evaluator(path: str | None = None) -> Evaluator:
    """The shipped evaluator (or the one at ``path``), loaded once."""
    p = Path(path) if path is not None else WEIGHTS_PATH
    if not p.exists():
        raise FileNotFoundError(f"evaluator weights not found at {p}; train them with "
                                f"python -m tarock_solver.estimate.train")
    return Evaluator.load(p)


def _popcounts(h: np.ndarray) -> np.ndarray:
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
    counts = _popcounts(h)
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
