"""Calibration plot of the evaluator on the held-out rows: predicted vs exact.

``python benchmarks/evaluator/calibration.py --data A.npz … --out calibration.png``
(needs matplotlib, the project's ``plot`` extra).  Uses the shipped weights, or
``--weights``.  Held-out = ``index % 10 == 9`` (:func:`tarock_solver.training.train.split_masks`).
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from tarock_solver.estimate.model import load_evaluator  # noqa: E402
from tarock_solver.training.labels import load_labels  # noqa: E402
from tarock_solver.training.train import split_masks  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--weights")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    d = load_labels(*args.data)
    _, _, te = split_masks(d["index"])
    ev = load_evaluator(args.weights)
    pred = ev.predict(d["hands"][te], d["leader"][te].astype(np.int64),
                      d["declarer"][te].astype(np.int64))
    y = d["value"][te].astype(float)
    full = d["cards"][te] == 16
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
    for ax, sel, title in [(axes[0], full, "16 cards per hand"),
                           (axes[1], ~full, "4-15 cards per hand")]:
        ax.scatter(y[sel], pred[sel], s=8, alpha=0.5)
        hi = max(1.0, float(max(y[sel].max(initial=0), pred[sel].max(initial=0))))
        ax.plot([0, hi], [0, hi], "k--", lw=1)
        if sel.sum() > 2:
            mae = np.abs(pred[sel] - y[sel]).mean()
            r = np.corrcoef(pred[sel], y[sel])[0, 1]
            title += f"  (n={int(sel.sum())}, MAE {mae:.2f}, r {r:.3f})"
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("exact double-dummy card points")
        ax.set_ylabel("estimate")
    fig.suptitle("Evaluator calibration on the held-out rows")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
