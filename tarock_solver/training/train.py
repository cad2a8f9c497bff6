"""Train the evaluator's tree ensemble from label files: plain numpy, seeded, reproducible.

``python -m tarock_solver.training.train --data FILE.npz [FILE.npz …] --out W.npz``
(:func:`main`): boosted oblivious trees (:mod:`.boosting`) on the rows of
:func:`split_masks`, the held-out metrics (:func:`metrics`) in a JSON report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from ..estimate.features import N_FEATURES, features, remaining_points
from ..estimate.model import Evaluator
from .boosting import BoostSettings, fit_oblivious
from .labels import load_labels, write_npz

__all__ = ["metrics", "split_masks"]


def split_masks(index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(train, validation, test) boolean masks of the rows.

    By the position's index in its stream, so the split stays fixed as the data grow:
    ``index % 10 == 9`` is the held-out test set, never used for training or model
    choice; ``index % 10 == 8`` the validation set (early stopping and any model
    choice); the rest trains.
    """
    r = np.asarray(index) % 10
    return (r < 8), (r == 8), (r == 9)


def metrics(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """MAE, correlation, bias (mean of pred − exact), residual SD, RMSE, count."""
    pred = np.asarray(pred, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if len(y) == 0:
        return {"n": 0}
    e = pred - y
    r = float(np.corrcoef(pred, y)[0, 1]) if len(y) > 2 and y.std() > 0 and pred.std() > 0 \
        else float("nan")
    return {"n": int(len(y)), "mae": float(np.abs(e).mean()), "r": r,
            "bias": float(e.mean()), "resid_sd": float(e.std()),
            "rmse": float(np.sqrt((e ** 2).mean())), "y_sd": float(y.std())}


def _report(model: Evaluator, hands: np.ndarray, lead: np.ndarray, decl: np.ndarray,
            y: np.ndarray, cards: np.ndarray, kind: np.ndarray, tarocks: np.ndarray
            ) -> dict[str, Any]:
    pred = model.predict(hands, lead, decl)
    out: dict[str, Any] = {"overall": metrics(pred, y), "full16": metrics(pred[cards == 16],
                                                                          y[cards == 16])}
    out["by_cards"] = {int(c): metrics(pred[cards == c], y[cards == c])
                       for c in np.unique(cards)}
    out["by_kind"] = {int(k): metrics(pred[kind == k], y[kind == k]) for k in np.unique(kind)}
    full = cards == 16
    bands = [(0, 5), (6, 8), (9, 11), (12, 22)]
    out["full16_by_declarer_tarocks"] = {
        f"{a}-{b}": metrics(pred[full & (tarocks >= a) & (tarocks <= b)],
                            y[full & (tarocks >= a) & (tarocks <= b)]) for a, b in bands}
    return out


def ridge_baseline(x: np.ndarray, rem: np.ndarray, y: np.ndarray, xt: np.ndarray,
                   remt: np.ndarray, lam: float = 1.0) -> np.ndarray:
    """Linear (ridge) model on the same features, in points: the floor the trees must beat."""
    a = np.hstack([x, rem[:, None] / 64.0, np.ones((len(x), 1))])
    at = np.hstack([xt, remt[:, None] / 64.0, np.ones((len(xt), 1))])
    coef = np.linalg.solve(a.T @ a + lam * np.eye(a.shape[1]), a.T @ y)
    return np.clip(at @ coef, 0.0, remt)


def main(argv: Sequence[str] | None = None) -> int:
    """Train, report, and write the weights.

    The model (oblivious trees boosted on squared error in card points) is scored on
    the validation rows every few trees and the best prefix ships; full 16-card rows
    are weighted ``--full-weight`` in the loss and in that score (where advice asks).
    Every reported metric is computed by the shipped inference code on the shipped
    model.  The run is a pure function of the data files and the settings (numpy
    only, one seeded generator), so the documented command reproduces the shipped
    weights.  ``--fractions 0.25,0.5,1`` also trains on those shares of the training
    rows (a learning curve) and reports the held-out metrics of each; only the last
    fraction's model is written.
    """
    d = BoostSettings()
    ap = argparse.ArgumentParser(prog="python -m tarock_solver.training.train",
                                 description="Train the evaluator's tree ensemble (numpy, seeded).")
    ap.add_argument("--data", nargs="+", required=True, help="label .npz files")
    ap.add_argument("--out", help="weights .npz to write (default: none)")
    ap.add_argument("--report", help="JSON report of the held-out metrics")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depth", type=int, default=d.depth)
    ap.add_argument("--trees", type=int, default=d.trees, help="trees boosted (the best "
                    "validation prefix ships)")
    ap.add_argument("--learning-rate", type=float, default=d.learning_rate)
    ap.add_argument("--l2", type=float, default=d.l2)
    ap.add_argument("--subsample", type=float, default=d.subsample)
    ap.add_argument("--colsample", type=float, default=d.colsample)
    ap.add_argument("--full-weight", type=float, default=1.0)
    ap.add_argument("--fractions", default="1")
    args = ap.parse_args(argv)
    settings = BoostSettings(depth=args.depth, trees=args.trees,
                             learning_rate=args.learning_rate, l2=args.l2,
                             subsample=args.subsample, colsample=args.colsample)

    data = load_labels(*args.data)
    hands, lead, decl = data["hands"], data["leader"].astype(np.int64), \
        data["declarer"].astype(np.int64)
    y = data["value"].astype(np.float64)
    cards = data["cards"].astype(np.int64)
    x = features(hands, lead, decl)
    assert x.shape[1] == N_FEATURES
    rem = remaining_points(hands).astype(np.float64)
    tr, va, te = split_masks(data["index"])
    tarocks = x[:, 0:22].sum(axis=1).astype(np.int64)
    w_all = np.where(cards == 16, args.full_weight, 1.0)
    report: dict[str, Any] = {
        "data": [str(p) for p in args.data], "rows": int(len(y)),
        "rows_by_kind": {int(k): int((data["kind"] == k).sum()) for k in np.unique(data["kind"])},
        "split": {"train": int(tr.sum()), "validation": int(va.sum()), "test": int(te.sum())},
        "test_full16_rows": int((te & (cards == 16)).sum()),
        "settings": {k: v for k, v in vars(args).items() if k not in ("data", "out", "report")},
        "architecture": f"{N_FEATURES} features -> oblivious trees of depth {settings.depth}",
        "runs": [],
    }
    ridge = ridge_baseline(x[tr], rem[tr], y[tr], x[te], rem[te])
    report["ridge_test_full16"] = metrics(ridge[cards[te] == 16], y[te][cards[te] == 16])
    report["ridge_test_overall"] = metrics(ridge, y[te])
    rem_va, y_va, w_va = rem[va], y[va], w_all[va]

    def val_score(pred: np.ndarray) -> float:
        p = np.clip(pred, 0.0, rem_va)
        return float((w_va * np.abs(p - y_va)).sum() / w_va.sum())

    train_idx = np.flatnonzero(tr)
    perm = np.random.default_rng(args.seed + 1).permutation(len(train_idx))
    model = None
    for frac in [float(f) for f in args.fractions.split(",")]:
        take = np.sort(train_idx[perm[:max(1, int(round(frac * len(train_idx))))]])
        t0 = time.perf_counter()
        print(f"training on {len(take)} rows ({frac:.0%})", file=sys.stderr, flush=True)
        ensemble, history = fit_oblivious(
            x[take], y[take], w_all[take], settings, seed=args.seed, score=val_score,
            x_val=x[va], log=lambda m: print(m, file=sys.stderr, flush=True))
        model = Evaluator(ensemble)
        rep = _report(model, hands[te], lead[te], decl[te], y[te], cards[te], data["kind"][te],
                      tarocks[te])
        report["runs"].append({"fraction": frac, "train_rows": int(len(take)),
                               "train_full16_rows": int((cards[take] == 16).sum()),
                               "seconds": round(time.perf_counter() - t0, 1),
                               "trees": history.best_trees,
                               "validation_curve": dict(zip(history.trees, history.validation,
                                                            strict=True)),
                               "test": rep})
        f16 = rep["full16"]
        print(f"  held-out full-16: MAE {f16.get('mae', float('nan')):.3f} r "
              f"{f16.get('r', float('nan')):.3f} bias {f16.get('bias', float('nan')):+.3f}",
              file=sys.stderr, flush=True)
    report["settings"]["boost"] = asdict(settings)
    if args.out and model is not None:
        model.meta = json.dumps({"architecture": report["architecture"],
                                 "command": "python -m tarock_solver.training.train " +
                                 " ".join(sys.argv[1:] if argv is None else argv),
                                 "data_files": [Path(p).name for p in args.data],
                                 "rows": report["rows"], "split": report["split"],
                                 "trees": model.model.n_trees,
                                 "heldout_full16": report["runs"][-1]["test"]["full16"],
                                 "heldout_overall": report["runs"][-1]["test"]["overall"]},
                                sort_keys=True)
        write_npz(Path(args.out), model.arrays())
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"ridge_full16": report["ridge_test_full16"],
                      "runs": [{"fraction": r["fraction"], "train_rows": r["train_rows"],
                                "trees": r["trees"], "full16": r["test"]["full16"],
                                "overall": r["test"]["overall"]} for r in report["runs"]]},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
