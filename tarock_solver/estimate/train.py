"""Train the evaluator's MLP from label files: plain numpy, seeded, reproducible.

``python -m tarock_solver.estimate.train --data FILE.npz [FILE.npz …] --out W.npz``

Split (by the position's index in its stream, so it stays fixed as the data
grow): ``index % 10 == 9`` is the **held-out test set**, never used for training
or model choice; ``index % 10 == 8`` is the validation set (early stopping and
any model choice); the rest trains.  The network (:class:`.model.Evaluator`)
predicts the share of the points still in play; the loss is the squared error in
card points, with the full 16-card rows weighted ``--full-weight`` (where advice
asks).  Adam with weight decay, mini-batches, early stopping on the validation
MAE of full 16-card rows; all randomness comes from ``--seed``.  The exported
weights are quantised to the model's fixed-point grid and every reported metric
is computed with that quantised model, i.e. what ships.

Set ``OPENBLAS_NUM_THREADS=1`` (as the documented command does) for bit-identical
weights on re-runs: float sums in training depend on the BLAS thread split.

``--fractions 0.25,0.5,1`` also trains on those shares of the training rows
(a learning curve) and reports the held-out metrics of each; only the last
fraction's model is written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .features import N_FEATURES, features, remaining_points
from .labels import load_labels, write_npz
from .model import Evaluator

__all__ = ["metrics", "split_masks", "train_mlp"]


def split_masks(index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(train, validation, test) boolean masks of the rows."""
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


class _Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def _forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """params = [W0, b0, W1, b1, …, skip]; returns (output, activations)."""
    acts = [x]
    a = x
    n_layers = (len(params) - 1) // 2
    for i in range(n_layers):
        z = a @ params[2 * i] + params[2 * i + 1]
        if i < n_layers - 1:
            a = np.maximum(z, 0.0)
            acts.append(a)
        else:
            return z[:, 0] + (x @ params[-1])[:, 0], acts
    raise AssertionError("unreachable")


def _backward(params: list[np.ndarray], acts: list[np.ndarray], dout: np.ndarray
              ) -> list[np.ndarray]:
    n_layers = (len(params) - 1) // 2
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    delta = dout[:, None]
    grads[-1] = acts[0].T @ delta
    for i in range(n_layers - 1, -1, -1):
        a = acts[i]
        grads[2 * i] = a.T @ delta
        grads[2 * i + 1] = delta.sum(axis=0)
        if i > 0:
            delta = (delta @ params[2 * i].T) * (acts[i] > 0)
    return grads


def train_mlp(x: np.ndarray, rem: np.ndarray, y: np.ndarray, w: np.ndarray,
              xv: np.ndarray, remv: np.ndarray, yv: np.ndarray, fullv: np.ndarray, *,
              hidden: Sequence[int], seed: int, epochs: int = 400, batch: int = 128,
              lr: float = 1e-3, weight_decay: float = 1e-4, patience: int = 40,
              full_weight: float = 3.0, ridge_lambda: float | None = None,
              freeze_skip: bool = False, log: Any = None) -> tuple[Evaluator, dict[str, Any]]:
    """Train; returns the quantised best-validation model and a training summary."""
    rng = np.random.default_rng(seed)
    sizes = [x.shape[1], *hidden, 1]
    params: list[np.ndarray] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        params.append(rng.normal(0.0, np.sqrt(2.0 / a), size=(a, b)))
        params.append(np.zeros(b))
    params[-1][:] = 0.3  # the declarer's typical share of the points
    params[-2][:] = 0.0  # the hidden path starts silent: the model starts as the linear one
    params[-1][:] = 0.0
    lam = ridge_lambda if ridge_lambda is not None else 1.0
    params.append(ridge_share(x, rem, y, w, lam)[:, None])  # the linear skip path
    opt = _Adam(params, lr)
    n = len(y)
    best = (np.inf, 0, [p.copy() for p in params])
    history = []

    def as_model(p: list[np.ndarray]) -> Evaluator:
        return Evaluator([(p[2 * i], p[2 * i + 1]) for i in range((len(p) - 1) // 2)],
                         skip=p[-1])

    wv = np.where(fullv, full_weight, 1.0)

    def val_mae() -> float:
        """Validation MAE, 16-card rows weighted like in training (less noisy than
        the 16-card rows alone while those are few)."""
        pred = np.clip(as_model(params).share(xv) * remv, 0.0, remv)
        return float((wv * np.abs(pred - yv)).sum() / wv.sum())

    for epoch in range(epochs):
        order = rng.permutation(n)
        step_lr = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for lo in range(0, n, batch):
            idx = order[lo:lo + batch]
            out, acts = _forward(params, x[idx])
            err = out * rem[idx] - y[idx]
            dout = 2.0 * w[idx] * err * rem[idx] / w[idx].sum()
            grads = _backward(params, acts, dout)
            for k in [*range(0, len(params) - 1, 2), len(params) - 1]:
                grads[k] = grads[k] + weight_decay * params[k]
            if freeze_skip:
                grads[-1] = np.zeros_like(grads[-1])
            opt.step(grads, step_lr)
        v = val_mae()
        history.append(v)
        if v < best[0] - 1e-6:
            best = (v, epoch, [p.copy() for p in params])
        if log is not None and (epoch % 20 == 0 or epoch == epochs - 1):
            print(f"  epoch {epoch}: validation MAE {v:.3f} (best {best[0]:.3f} at "
                  f"{best[1]})", file=log, flush=True)
        if epoch - best[1] >= patience:
            break
    model = as_model(best[2])
    pv = np.clip(model.share(xv) * remv, 0.0, remv)
    val16 = float(np.abs(pv[fullv] - yv[fullv]).mean()) if fullv.any() else float("nan")
    return model, {"best_epoch": best[1], "best_val_mae": best[0],
                   "best_val_full16_mae": val16, "epochs_run": len(history)}


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


def ridge_share(x: np.ndarray, rem: np.ndarray, y: np.ndarray, w: np.ndarray,
                lam: float) -> np.ndarray:
    """Weighted ridge fit of the *share* model: points = remaining × (x · beta)."""
    a = x * rem[:, None]
    aw = a * w[:, None]
    return np.linalg.solve(a.T @ aw + lam * np.eye(x.shape[1]), aw.T @ y)


def ridge_baseline(x: np.ndarray, rem: np.ndarray, y: np.ndarray, xt: np.ndarray,
                   remt: np.ndarray, lam: float = 1.0) -> np.ndarray:
    """Linear (ridge) model on the same features, in points: a floor for the MLP."""
    a = np.hstack([x, rem[:, None] / 64.0, np.ones((len(x), 1))])
    at = np.hstack([xt, remt[:, None] / 64.0, np.ones((len(xt), 1))])
    coef = np.linalg.solve(a.T @ a + lam * np.eye(a.shape[1]), a.T @ y)
    return np.clip(at @ coef, 0.0, remt)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tarock_solver.estimate.train",
                                 description="Train the evaluator MLP (numpy, seeded).")
    ap.add_argument("--data", nargs="+", required=True, help="label .npz files")
    ap.add_argument("--out", help="weights .npz to write (default: none)")
    ap.add_argument("--report", help="JSON report of the held-out metrics")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", default="64,32")
    ap.add_argument("--epochs", type=int, default=400)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--patience", type=int, default=40)
    ap.add_argument("--full-weight", type=float, default=3.0)
    ap.add_argument("--fractions", default="1")
    ap.add_argument("--freeze-skip", action="store_true",
                    help="keep the linear path at its ridge fit; train only the hidden path")
    args = ap.parse_args(argv)

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
    hidden = [int(h) for h in args.hidden.split(",") if h]
    w_all = np.where(cards == 16, args.full_weight, 1.0)
    report: dict[str, Any] = {
        "data": [str(p) for p in args.data], "rows": int(len(y)),
        "rows_by_kind": {int(k): int((data["kind"] == k).sum()) for k in np.unique(data["kind"])},
        "split": {"train": int(tr.sum()), "validation": int(va.sum()), "test": int(te.sum())},
        "test_full16_rows": int((te & (cards == 16)).sum()),
        "settings": {k: v for k, v in vars(args).items() if k not in ("data", "out", "report")},
        "architecture": f"{N_FEATURES} -> " + " -> ".join(map(str, hidden)) + " -> 1 (ReLU)",
        "runs": [],
    }
    ridge = ridge_baseline(x[tr], rem[tr], y[tr], x[te], rem[te])
    report["ridge_test_full16"] = metrics(ridge[cards[te] == 16], y[te][cards[te] == 16])
    report["ridge_test_overall"] = metrics(ridge, y[te])
    # the skip path's ridge penalty, chosen on the validation rows
    lam_scores = {}
    for lam in (1.0, 1e2, 1e3, 1e4, 1e5):
        beta = ridge_share(x[tr], rem[tr], y[tr], w_all[tr], lam)
        pv = np.clip(x[va] @ beta * rem[va], 0.0, rem[va])
        wv = w_all[va]
        lam_scores[lam] = float((wv * np.abs(pv - y[va])).sum() / wv.sum())
    ridge_lambda = min(lam_scores, key=lambda k: lam_scores[k])
    report["ridge_share_validation"] = {str(k): v for k, v in lam_scores.items()}
    report["ridge_lambda"] = ridge_lambda
    beta = ridge_share(x[tr], rem[tr], y[tr], w_all[tr], ridge_lambda)
    pt = np.clip(x[te] @ beta * rem[te], 0.0, rem[te])
    report["ridge_share_test_full16"] = metrics(pt[cards[te] == 16], y[te][cards[te] == 16])
    train_idx = np.flatnonzero(tr)
    perm = np.random.default_rng(args.seed + 1).permutation(len(train_idx))
    model = None
    for frac in [float(f) for f in args.fractions.split(",")]:
        take = np.sort(train_idx[perm[:max(1, int(round(frac * len(train_idx))))]])
        t0 = time.perf_counter()
        print(f"training on {len(take)} rows ({frac:.0%})", file=sys.stderr, flush=True)
        model, summary = train_mlp(
            x[take], rem[take], y[take], w_all[take], x[va], rem[va], y[va], cards[va] == 16,
            hidden=hidden, seed=args.seed, epochs=args.epochs, batch=args.batch, lr=args.lr,
            weight_decay=args.weight_decay, patience=args.patience,
            full_weight=args.full_weight, ridge_lambda=ridge_lambda,
            freeze_skip=args.freeze_skip, log=sys.stderr)
        rep = _report(model, hands[te], lead[te], decl[te], y[te], cards[te], data["kind"][te],
                      tarocks[te])
        report["runs"].append({"fraction": frac, "train_rows": int(len(take)),
                               "train_full16_rows": int((cards[take] == 16).sum()),
                               "seconds": round(time.perf_counter() - t0, 1), **summary,
                               "test": rep})
        f16 = rep["full16"]
        print(f"  held-out full-16: MAE {f16.get('mae', float('nan')):.3f} r "
              f"{f16.get('r', float('nan')):.3f} bias {f16.get('bias', float('nan')):+.3f}",
              file=sys.stderr, flush=True)
    if args.out and model is not None:
        model.meta = json.dumps({"architecture": report["architecture"],
                                 "command": "python -m tarock_solver.estimate.train " +
                                 " ".join(sys.argv[1:] if argv is None else argv),
                                 "data_files": [Path(p).name for p in args.data],
                                 "rows": report["rows"], "split": report["split"],
                                 "heldout_full16": report["runs"][-1]["test"]["full16"],
                                 "heldout_overall": report["runs"][-1]["test"]["overall"]},
                                sort_keys=True)
        write_npz(Path(args.out), model.arrays())
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"ridge_full16": report["ridge_test_full16"],
                      "runs": [{"fraction": r["fraction"], "train_rows": r["train_rows"],
                                "full16": r["test"]["full16"],
                                "overall": r["test"]["overall"]} for r in report["runs"]]},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
