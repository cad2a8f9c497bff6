"""Train the French Tarot evaluator: exact levels, then one look-ahead round per level.

``python -m tarock_solver.french.training.train --dir D`` (:func:`main`) writes each
level's labels to ``D/level-TT.npz`` (kept: a rerun reuses them), fits both heads after
each look-ahead round, and writes the final weights and a JSON report of the held-out
metrics per level (rows with ``index % 10 == 9``; ``== 8`` validates).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ...training.boosting import BoostSettings, fit_oblivious
from ...training.labels import write_npz
from ...training.train import metrics, split_masks
from ..estimate.features import features
from ..estimate.model import FrenchEvaluator
from .labels import EXACT_LEVELS, arrays_of, exact_level, load_level, lookahead_level, save_level

__all__ = ["fit_evaluator", "main"]

#: A round's model labels one level, so it is fitted on the levels just below (the
#: look-ahead asks it about the next trick's start only), quickly.
ROUND_SETTINGS = BoostSettings(trees=300, learning_rate=0.15, subsample=0.5, colsample=0.3,
                               every=25)
ROUND_LEVELS = 3
FINAL_SETTINGS = BoostSettings(trees=600, learning_rate=0.1, subsample=0.5, colsample=0.3,
                               every=50)


def _xy(levels: Sequence[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    x = np.concatenate([features(lv["hlo"], lv["hhi"], lv["leader"], lv["taker"], lv["points"],
                                 lv["oudlers"]) for lv in levels])
    yp = np.concatenate([lv["y_points"] for lv in levels])
    ym = np.concatenate([lv["y_margin"] for lv in levels])
    idx = np.concatenate([lv["index"] for lv in levels])
    return x, yp, ym, idx


def _tricks(level: dict) -> int:
    lo, hi = level["hlo"][0, level["leader"][0]], level["hhi"][0, level["leader"][0]]
    return bin(int(lo)).count("1") + bin(int(hi)).count("1")


def _join(parts: Sequence[dict]) -> dict:
    """One level from the labels of several streams (each row keeps its own index)."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit_evaluator(levels: Sequence[dict], settings: BoostSettings, *, seed: int = 0,
                  log: Any = None) -> FrenchEvaluator:
    """Both heads on the training rows of ``levels``, early-stopped on the validation rows."""
    x, yp, ym, idx = _xy(levels)
    train, val, _ = split_masks(idx)
    heads = []
    for y in (yp, ym):
        model, _ = fit_oblivious(x[train], y[train], np.ones(int(train.sum())), settings,
                                 seed=seed, x_val=x[val],
                                 score=lambda p, y=y: float(np.mean((p - y[val]) ** 2)), log=log)
        heads.append(model)
    return FrenchEvaluator(*heads)


def report(model: FrenchEvaluator, levels: Sequence[dict]) -> dict[str, Any]:
    """Held-out metrics of both heads, per level and overall."""
    out: dict[str, Any] = {}
    for lv in levels:
        _, _, test = split_masks(lv["index"])
        a = arrays_of(lv).take(np.flatnonzero(test))
        p, m = model.predict_start(a)
        out[f"t{_tricks(lv)}"] = {"points": metrics(p, lv["y_points"][test]),
                                  "margin": metrics(m, lv["y_margin"][test])}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exact-count", type=int, default=2000)
    ap.add_argument("--look-count", type=int, default=3000)
    ap.add_argument("--exact-levels", type=int, default=EXACT_LEVELS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--extra", type=Path, nargs="*", default=[],
                    help="Folders of more exact levels (another seed's), joined to these.")
    ap.add_argument("--trees", type=int, default=FINAL_SETTINGS.trees)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - start:7.1f}s] {msg}", file=sys.stderr, flush=True)

    levels = []
    dropped = {}
    for t in range(1, args.exact_levels + 1):
        path = args.dir / f"level-{t:02d}.npz"
        if not path.exists():
            lv, dropped[t] = exact_level(args.seed, t, args.exact_count, jobs=args.jobs)
            save_level(path, lv)
            log(f"level {t}: exact, {len(lv['index'])} rows, {dropped[t]} over budget")
        levels.append(_join([load_level(path)] + [load_level(d / path.name) for d in args.extra
                                                   if (d / path.name).exists()]))
    for t in range(args.exact_levels + 1, 19):
        path = args.dir / f"level-{t:02d}.npz"
        if not path.exists():
            model = fit_evaluator(levels[-ROUND_LEVELS:], ROUND_SETTINGS, seed=args.seed)
            log(f"round model on levels {t - ROUND_LEVELS}–{t - 1}")
            save_level(path, lookahead_level(args.seed, t, args.look_count, model))
            log(f"level {t}: look-ahead labels")
        levels.append(load_level(path))
    final = fit_evaluator(levels, replace(FINAL_SETTINGS, trees=args.trees), seed=args.seed)
    final.meta = json.dumps({"seed": args.seed, "exact_levels": args.exact_levels,
                             "exact_rows": [len(lv["index"]) for lv in levels],
                             "extra": [str(d) for d in args.extra],
                             "exact_count": args.exact_count, "look_count": args.look_count,
                             "trees": [final.points.n_trees, final.margin.n_trees]})
    write_npz(args.out, final.arrays())
    rep = {"dropped": dropped, "held_out": report(final, levels),
           "seconds": time.perf_counter() - start}
    args.out.with_suffix(".report.json").write_text(json.dumps(rep, indent=1))
    log(f"done: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
