"""Gradient boosting of oblivious trees on squared error, in plain numpy (the trainer).

Each feature is cut into at most ``MAX_BINS`` bins (thresholds halfway between
its distinct training values, or at quantiles when it has more).  A tree is grown
level by level: the one (feature, threshold) split that most reduces the weighted
squared error summed over all nodes of the level is taken for the whole level
(the gain of a node is ``G_L²/(W_L+λ) + G_R²/(W_R+λ)`` from the residual sums
``G`` and weight sums ``W``, read off cumulative histograms), then the leaves are
the shrunken Newton steps ``lr · G/(W+λ)``.  Rows and candidate features are
subsampled per tree from one seeded generator, so a run is a pure function of
its data and settings.  The trees are scored on a validation set as they grow and
the best prefix is kept (early stopping).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..estimate.trees import ObliviousEnsemble

__all__ = ["BoostSettings", "fit_oblivious"]

MAX_BINS = 64


@dataclass(frozen=True)
class BoostSettings:
    depth: int = 6
    trees: int = 1500
    # At 1,500 trees and ~20,000 training rows a rate of 0.05 was still improving at the last tree;
    # 0.1 reaches the fit of 3,000 trees at 0.05 with the same inference cost
    # (benchmarks/EXPERIMENTS.md, 2026-12-03, "the learning rate, and round 4 of its labels").
    learning_rate: float = 0.1
    l2: float = 1.0
    subsample: float = 0.8
    colsample: float = 0.5
    min_trees: int = 100
    every: int = 50  # validation scoring interval (the prefix lengths considered)


@dataclass
class BoostHistory:
    trees: list[int] = field(default_factory=list)
    validation: list[float] = field(default_factory=list)
    best_trees: int = 0


def _bin_edges(x: np.ndarray) -> list[np.ndarray]:
    edges = []
    for f in range(x.shape[1]):
        u = np.unique(x[:, f])
        t = (u[:-1] + u[1:]) / 2
        if len(t) > MAX_BINS - 1:
            t = np.unique(np.quantile(x[:, f], np.linspace(0, 1, MAX_BINS + 1)[1:-1]))
        edges.append(t)
    return edges


def _leaf_index(x: np.ndarray, feats: list[int], thrs: list[float]) -> np.ndarray:
    idx = np.zeros(len(x), dtype=np.int64)
    for f, th in zip(feats, thrs, strict=True):
        idx = 2 * idx + (x[:, f] > th)
    return idx


def fit_oblivious(x: np.ndarray, y: np.ndarray, w: np.ndarray, settings: BoostSettings, *,
                  seed: int, score: Callable[[np.ndarray], float],
                  x_val: np.ndarray, log: Callable[[str], None] | None = None
                  ) -> tuple[ObliviousEnsemble, BoostHistory]:
    """Boost ``settings.trees`` trees on (x, y, weights w); keep the prefix that ``score``s
    best on ``x_val`` (``score`` maps validation predictions to a loss, lower is better)."""
    s = settings
    rng = np.random.default_rng(seed)
    n, n_feat = x.shape
    edges = _bin_edges(x)
    n_edges = np.array([len(e) for e in edges])
    binned = np.stack([np.searchsorted(edges[f], x[:, f], side="left")
                       for f in range(n_feat)], axis=1).astype(np.int64)
    flat = binned + np.arange(n_feat, dtype=np.int64) * MAX_BINS
    valid_cut = np.arange(MAX_BINS)[None, :] < n_edges[:, None]
    base = float((w * y).sum() / w.sum())
    pred = np.full(n, base)
    pred_val = np.full(len(x_val), base)
    feats = np.zeros((s.trees, s.depth), dtype=np.int64)
    thrs = np.zeros((s.trees, s.depth))
    leaves = np.zeros((s.trees, 1 << s.depth))
    history = BoostHistory()
    best = (np.inf, 0)
    for t in range(s.trees):
        rows = np.flatnonzero(rng.random(n) < s.subsample)
        allowed = rng.random(n_feat) < s.colsample
        if not allowed.any():
            allowed[rng.integers(n_feat)] = True
        g = (y - pred)[rows]
        wr = w[rows]
        wg = wr * g
        fr = flat[rows]
        node = np.zeros(len(rows), dtype=np.int64)
        for level in range(s.depth):
            nodes = 1 << level
            idx = (node[:, None] * (n_feat * MAX_BINS) + fr).ravel()
            size = nodes * n_feat * MAX_BINS
            gsum = np.bincount(idx, np.repeat(wg, n_feat), size).reshape(nodes, n_feat, MAX_BINS)
            wsum = np.bincount(idx, np.repeat(wr, n_feat), size).reshape(nodes, n_feat, MAX_BINS)
            gl = np.cumsum(gsum, axis=2)
            wl = np.cumsum(wsum, axis=2)
            gt, wt = gl[:, :, -1:], wl[:, :, -1:]
            gain = (gl ** 2 / (wl + s.l2) + (gt - gl) ** 2 / (wt - wl + s.l2)).sum(axis=0)
            gain = np.where(valid_cut & allowed[:, None], gain, -np.inf)
            f, k = np.unravel_index(int(np.argmax(gain)), gain.shape)
            if not np.isfinite(gain[f, k]):  # no feature can be cut: a constant level
                f, k = int(np.argmax(n_edges)), 0
            feats[t, level] = f
            thrs[t, level] = edges[f][k] if len(edges[f]) else np.inf
            node = 2 * node + (binned[rows, f] > k)
        gs = np.bincount(node, wg, 1 << s.depth)
        ws = np.bincount(node, wr, 1 << s.depth)
        leaves[t] = s.learning_rate * gs / (ws + s.l2)
        pred += leaves[t][_leaf_index(x, list(feats[t]), list(thrs[t]))]
        pred_val += leaves[t][_leaf_index(x_val, list(feats[t]), list(thrs[t]))]
        done = t + 1
        if done % s.every == 0 or done == s.trees:
            v = float(score(pred_val))
            history.trees.append(done)
            history.validation.append(v)
            if done >= s.min_trees and v < best[0] - 1e-9:
                best = (v, done)
            if log is not None:
                log(f"  {done} trees: validation {v:.4f} (best {best[0]:.4f} at {best[1]})")
    history.best_trees = best[1] or s.trees
    model = ObliviousEnsemble(feats, thrs, leaves, base).truncated(history.best_trees)
    return model, history
