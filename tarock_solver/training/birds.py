"""Fit the bird model of the game-point evaluator on exact game-point labels.

Each label of a game-point file (``python -m tarock_solver.training.labels
--objective gamepoints``) gives, for every bird card in a hand, whether the optimal
line brought it home (its ``birds`` notes, e.g. ``uhu@decl:won``).  :func:`bird_rows`
turns the files into one row per bird; :func:`fit_logistic` fits the regression of
:mod:`tarock_solver.estimate.birds` (Newton's method with a ridge penalty);
:func:`cross_validate` measures it on held-out deals (folds by deal, so the three
birds of a deal are never split between fit and test).

Run ``python -m tarock_solver.training.birds LABELS… --out PATH``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..cards import BIRD_NAMES
from ..estimate.birds import BIRD_FEATURES, BIRD_WEIGHTS_PATH, bird_features
from .labels import load_labels, write_npz

__all__ = ["RIDGE", "bird_rows", "cross_validate", "fit_logistic", "main"]

#: The ridge penalty on the weights (the bias included): a few hundred birds, a dozen
#: correlated counts.
RIDGE = 1.0


def bird_rows(labels: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One row per live bird of each label: ``x`` (features), ``won`` (0/1), ``deal``
    (the label's row), ``bird`` (0 Pagat, 1 Uhu, 2 Kakadu), ``holder_is_declarer``."""
    hands = labels["hands"].astype(np.uint64)
    x, live, holder = bird_features(hands, labels["leader"].astype(np.int64),
                                    labels["declarer"].astype(np.int64))
    won = np.zeros(live.shape, dtype=bool)
    for i, notes in enumerate(labels["birds"]):
        for note in str(notes).split(";") if notes else ():
            name, _, result = note.partition("@")
            if result.endswith(":won") and name in BIRD_NAMES:
                won[i, BIRD_NAMES.index(name)] = True
    r, b = np.nonzero(live)
    decl = labels["declarer"].astype(np.int64)
    return {"x": x[r, b], "won": won[r, b].astype(np.float64), "deal": r, "bird": b,
            "holder_is_declarer": holder[r, b] == decl[r]}


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE,
                 iterations: int = 50) -> np.ndarray:
    """Ridge-penalised logistic regression by Newton's method (converges in a few steps)."""
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        hess = x.T @ (x * (p * (1 - p))[:, None]) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, x.T @ (p - y) + ridge * w)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def cross_validate(rows: dict[str, np.ndarray], folds: int = 5, ridge: float = RIDGE
                   ) -> np.ndarray:
    """Held-out probabilities: each deal's birds predicted by the model fitted on the
    other folds (fold = deal mod ``folds``)."""
    fold = rows["deal"] % folds
    out = np.zeros(len(rows["won"]))
    for k in range(folds):
        test = fold == k
        w = fit_logistic(rows["x"][~test], rows["won"][~test], ridge)
        out[test] = 1.0 / (1.0 + np.exp(-np.clip(rows["x"][test] @ w, -30, 30)))
    return out


def _auc(p: np.ndarray, y: np.ndarray) -> float:
    pos = y == 1
    if not pos.any() or pos.all():
        return float("nan")
    ranks = np.empty(len(p))
    ranks[np.argsort(p, kind="stable")] = np.arange(1, len(p) + 1)
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2)
                 / (pos.sum() * (~pos).sum()))


def report(rows: dict[str, np.ndarray], held_out: np.ndarray) -> dict[str, object]:
    """Held-out log loss (against the base rate's), AUC and calibration by decile band."""
    y = rows["won"]
    eps = 1e-12
    ll = float(-np.mean(y * np.log(held_out + eps) + (1 - y) * np.log(1 - held_out + eps)))
    base = float(y.mean())
    ll0 = float(-np.mean(y * np.log(base + eps) + (1 - y) * np.log(1 - base + eps)))
    bands = []
    for lo, hi in ((0, 0.05), (0.05, 0.2), (0.2, 0.5), (0.5, 0.8), (0.8, 1.01)):
        m = (held_out >= lo) & (held_out < hi)
        if m.any():
            bands.append({"band": [lo, min(hi, 1.0)], "birds": int(m.sum()),
                          "predicted": round(float(held_out[m].mean()), 3),
                          "won": round(float(y[m].mean()), 3)})
    per_bird = {BIRD_NAMES[b]: {"birds": int((rows["bird"] == b).sum()),
                                "won": round(float(y[rows["bird"] == b].mean()), 3),
                                "auc": round(_auc(held_out[rows["bird"] == b],
                                                  y[rows["bird"] == b]), 3)}
                for b in range(3)}
    return {"birds": int(len(y)), "won": int(y.sum()), "log_loss": round(ll, 4),
            "log_loss_base_rate": round(ll0, 4), "auc": round(_auc(held_out, y), 3),
            "calibration": bands, "per_bird": per_bird}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tarock_solver.training.birds",
                                 description="Fit the game-point evaluator's bird model.")
    ap.add_argument("labels", nargs="+", help="game-point label files (.npz)")
    ap.add_argument("--out", default=str(BIRD_WEIGHTS_PATH), help="weights file to write")
    ap.add_argument("--ridge", type=float, default=RIDGE)
    args = ap.parse_args(argv)
    labels = load_labels(*args.labels, objective="gamepoints")
    rows = bird_rows(labels)
    metrics = report(rows, cross_validate(rows, ridge=args.ridge))
    w = fit_logistic(rows["x"], rows["won"], args.ridge)
    meta = json.dumps({"labels": [Path(p).name for p in args.labels],
                       "positions": int(len(labels["net"])), "ridge": args.ridge,
                       "features": list(BIRD_FEATURES), "held_out": metrics})
    write_npz(Path(args.out), {"weights": w, "meta": np.array(meta)})
    print(json.dumps(metrics, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
