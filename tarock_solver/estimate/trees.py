"""Oblivious decision-tree ensembles: the evaluator's model and its inference.

An *oblivious* tree of depth D asks the same question on every node of a level
("is feature f_l above t_l?"), so a row's leaf is the D answers read as a binary
number and the tree is three small arrays: ``features[t]`` and ``thresholds[t]``
(D each) and ``leaves[t]`` (2**D values).  The ensemble's value is ``base`` plus
the chosen leaf of every tree, added in tree order.

Why this shape: inference is branch-free (D compares and one load per tree, the
compares of a level running over a block of rows at once), so a numba loop
evaluates ~1,000 trees of depth 6 in a few microseconds a row, and
because every row's sum is taken in the same order by the same scalar loop, a
row's value does not depend on the batch it came in (``estimate_position`` equals
``estimate_many`` bit for bit).  :func:`predict_reference` is the plain numpy
definition the kernel is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

__all__ = ["ObliviousEnsemble", "predict_reference"]

#: Rows per block of the kernel: the block's features stay in cache while every
#: tree visits them (any value gives the same result).
BLOCK = 256
#: Below this many rows a block is evaluated row by row (a vector of 32 rows would
#: mostly compute padding).
SCALAR_ROWS = 8


@numba.njit(cache=True, nogil=True)
def _predict(x: np.ndarray, used: np.ndarray, cut_start: np.ndarray, cuts: np.ndarray,
             feat: np.ndarray, rank: np.ndarray, leaves: np.ndarray, base: float,
             out: np.ndarray) -> None:
    # Per block of rows: each used feature becomes a small bin number (how many of
    # the ensemble's cuts on that feature lie below the value), stored feature-major,
    # so a level's question "x_f > cut" is the byte compare "bin_f > rank" over
    # contiguous memory for all rows of the block (the loops vectorise).
    n = x.shape[0]
    n_trees, depth = feat.shape
    bins = np.zeros((x.shape[1], BLOCK), dtype=np.uint8)
    col = np.empty(BLOCK)
    idx = np.empty(BLOCK, dtype=np.uint8)
    for lo in range(0, n, BLOCK):
        m = min(n, lo + BLOCK) - lo
        for r in range(m):
            out[lo + r] = base
        for u in range(used.shape[0]):
            f = used[u]
            for r in range(m):
                col[r] = x[lo + r, f]
            b = bins[f]
            b[:m] = 0
            for c in range(cut_start[f], cut_start[f + 1]):
                cut = cuts[c]
                for r in range(m):
                    b[r] += col[r] > cut
        acc = out[lo:lo + m]
        if m < SCALAR_ROWS:  # a few rows: one at a time (the same sums, in the same order)
            for r in range(m):
                total = acc[r]
                for t in range(n_trees):
                    i = 0
                    for level in range(depth):
                        i = 2 * i + (1 if bins[feat[t, level], r] > rank[t, level] else 0)
                    total += leaves[t, i]
                acc[r] = total
            continue
        width = min(BLOCK, (m + 31) // 32 * 32)  # whole vectors (rows past m are ignored)
        for t in range(n_trees):
            idx[:width] = 0
            for level in range(depth):
                b = bins[feat[t, level]]
                k = rank[t, level]
                for r in range(width):  # uint8 shift-or: the form LLVM vectorises
                    idx[r] = (idx[r] << np.uint8(1)) | np.uint8(b[r] > k)
            leaf = leaves[t]
            for r in range(m):
                acc[r] += leaf[idx[r]]


def predict_reference(model: ObliviousEnsemble, x: np.ndarray) -> np.ndarray:
    """The ensemble's values by plain numpy, tree by tree (the kernel's specification)."""
    out = np.full(len(x), model.base, dtype=np.float64)
    for t in range(model.n_trees):
        idx = np.zeros(len(x), dtype=np.int64)
        for f, th in zip(model.features[t], model.thresholds[t], strict=True):
            idx = 2 * idx + (x[:, f] > th)
        out += model.leaves[t, idx]
    return out


@dataclass
class ObliviousEnsemble:
    """``base`` + one leaf per oblivious tree; see the module docstring."""

    features: np.ndarray  # (T, D) int: the feature each level asks about
    thresholds: np.ndarray  # (T, D) float64: "above this" goes to the 1-branch
    leaves: np.ndarray  # (T, 2**D) float64
    base: float
    meta: str = ""

    def __post_init__(self) -> None:
        self.features = np.ascontiguousarray(self.features, dtype=np.int64)
        self.thresholds = np.ascontiguousarray(self.thresholds, dtype=np.float64)
        self.leaves = np.ascontiguousarray(self.leaves, dtype=np.float64)
        self.base = float(self.base)
        t, d = self.features.shape
        if self.thresholds.shape != (t, d) or self.leaves.shape != (t, 1 << d):
            raise ValueError(f"inconsistent ensemble arrays: features {self.features.shape}, "
                             f"thresholds {self.thresholds.shape}, leaves {self.leaves.shape}")
        if d > 8:
            raise ValueError(f"trees deeper than 8 levels are not supported (depth {d})")
        self._tables: tuple[np.ndarray, ...] | None = None

    def _cut_tables(self, n_feat: int) -> tuple[np.ndarray, ...]:
        """The kernel's view: per feature its sorted distinct cuts, per level the
        rank of its cut (``x > cut_k`` ⟺ ``bin(x) > k``, bin = cuts below x)."""
        if self._tables is None or self._tables[1].shape[0] != n_feat + 1:
            per = [np.unique(self.thresholds[self.features == f]) for f in range(n_feat)]
            if max((len(c) for c in per), default=0) > 255:
                raise ValueError("more than 255 distinct cuts on one feature")
            start = np.zeros(n_feat + 1, dtype=np.int64)
            start[1:] = np.cumsum([len(c) for c in per])
            cuts = np.concatenate(per) if per else np.zeros(0)
            rank = np.zeros(self.features.shape, dtype=np.uint8)
            for t in range(self.n_trees):
                for lv in range(self.depth):
                    f = self.features[t, lv]
                    rank[t, lv] = np.searchsorted(per[f], self.thresholds[t, lv])
            used = np.unique(self.features).astype(np.int64)
            self._tables = (used, start, cuts.astype(np.float64), rank)
        return self._tables

    @property
    def n_trees(self) -> int:
        return int(self.features.shape[0])

    @property
    def depth(self) -> int:
        return int(self.features.shape[1])

    def truncated(self, n_trees: int) -> ObliviousEnsemble:
        """The first ``n_trees`` trees (a boosting run's prefix)."""
        return ObliviousEnsemble(self.features[:n_trees], self.thresholds[:n_trees],
                                 self.leaves[:n_trees], self.base, self.meta)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The ensemble's value of each row of the feature matrix ``x``."""
        x = np.ascontiguousarray(x, dtype=np.float64)
        if x.ndim != 2 or (self.n_trees and x.shape[1] <= int(self.features.max())):
            raise ValueError(f"feature matrix of shape {x.shape} does not fit the ensemble")
        out = np.empty(len(x), dtype=np.float64)
        used, start, cuts, rank = self._cut_tables(x.shape[1])
        _predict(x, used, start, cuts, self.features, rank, self.leaves, self.base, out)
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        return {"kind": np.array("oblivious-trees"), "features": self.features.astype(np.int16),
                "thresholds": self.thresholds, "leaves": self.leaves,
                "base": np.array(self.base), "meta": np.array(self.meta)}

    @classmethod
    def load(cls, path: str | Path) -> ObliviousEnsemble:
        with np.load(path, allow_pickle=False) as z:
            if "kind" not in z.files or str(z["kind"]) != "oblivious-trees":
                raise ValueError(f"{path} does not hold an oblivious-tree ensemble")
            return cls(z["features"], z["thresholds"], z["leaves"], float(z["base"]),
                       str(z["meta"]) if "meta" in z.files else "")
