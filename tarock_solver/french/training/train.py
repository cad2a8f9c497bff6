"""Train the French Tarot evaluator: exact levels, then one look-ahead round per level.

``python -m tarock_solver.french.training.train --dir D`` (:func:`main`) writes each
level's labels to ``D/level-TT.npz`` (kept: a rerun reuses them, adding the petit au
bout's labels to a level that lacks them), fits the heads after each look-ahead round,
and writes the final weights and a JSON report of the held-out metrics per level (rows
with ``index % 10 == 9``; ``== 8`` validates).
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
from ..estimate.model import FrenchEvaluator, petit_in_hands
from .labels import (
    EXACT_LEVELS,
    arrays_of,
    exact_level,
    exact_pab,
    load_level,
    lookahead_level,
    save_level,
)

__all__ = ["fit_evaluator", "main"]

#: A round's model labels one level, so it is fitted on the levels just below (the
#: look-ahead asks it about the next trick's start only), quickly.
ROUND_SETTINGS = BoostSettings(trees=300, learning_rate=0.15, subsample=0.5, colsample=0.3,
                               every=25)
ROUND_LEVELS = 3
FINAL_SETTINGS = BoostSettings(trees=600, learning_rate=0.1, subsample=0.5, colsample=0.3,
                               every=50)


_LABELS = ("y_points", "y_margin", "y_pab")


def _xy(levels: Sequence[dict]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    x = np.concatenate([features(lv["hlo"], lv["hhi"], lv["leader"], lv["taker"], lv["points"],
                                 lv["oudlers"]) for lv in levels])
    ys = [np.concatenate([lv[k] for lv in levels]) for k in _LABELS]
    idx = np.concatenate([lv["index"] for lv in levels])
    return x, ys, idx


def _tricks(level: dict) -> int:
    lo, hi = level["hlo"][0, level["leader"][0]], level["hhi"][0, level["leader"][0]]
    return bin(int(lo)).count("1") + bin(int(hi)).count("1")


def _join(parts: Sequence[dict]) -> dict:
    """One level from the labels of several streams (each row keeps its own index)."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit_evaluator(levels: Sequence[dict], settings: BoostSettings, *, seed: int = 0,
                  log: Any = None) -> FrenchEvaluator:
    """The heads on the training rows of ``levels``, early-stopped on the validation rows
    (each on the rows that have its label: a petit au bout over budget has none)."""
    x, ys, idx = _xy(levels)
    train, val, _ = split_masks(idx)
    heads = []
    for y in ys:
        has = np.isfinite(y)
        tr, va = train & has, val & has
        model, _ = fit_oblivious(x[tr], y[tr], np.ones(int(tr.sum())), settings, seed=seed,
                                 x_val=x[va],
                                 score=lambda p, y=y, va=va: float(np.mean((p - y[va]) ** 2)),
                                 log=log)
        heads.append(model)
    return FrenchEvaluator(*heads)


def report(model: FrenchEvaluator, levels: Sequence[dict]) -> dict[str, Any]:
    """Held-out metrics of the heads, per level (the petit au bout's also on the rows
    where the Petit is still in a hand, the others being 0 by construction)."""
    out: dict[str, Any] = {}
    for lv in levels:
        _, _, test = split_masks(lv["index"])
        a = arrays_of(lv).take(np.flatnonzero(test))
        p, m, b = model.predict_start(a)
        y = lv["y_pab"][test]
        has = np.isfinite(y)
        live = has & petit_in_hands(a.hlo)
        out[f"t{_tricks(lv)}"] = {"points": metrics(p, lv["y_points"][test]),
                                  "margin": metrics(m, lv["y_margin"][test]),
                                  "pab": metrics(b[has], y[has]),
                                  "pab_live": metrics(b[live], y[live])}
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
        lv = load_level(path)
        if "y_pab" not in lv:
            lv["y_pab"] = exact_pab(args.seed, t, lv, jobs=args.jobs)
            save_level(path, lv)
            log(f"level {t}: petit au bout, {int(np.isnan(lv['y_pab']).sum())} over budget")
        extra = [load_level(d / path.name) for d in args.extra if (d / path.name).exists()]
        for e in extra:  # another seed's levels without the petit au bout's labels
            e.setdefault("y_pab", np.full(len(e["index"]), np.nan))
        levels.append(_join([lv] + extra))
    for t in range(args.exact_levels + 1, 19):
        path = args.dir / f"level-{t:02d}.npz"
        lv = load_level(path) if path.exists() else None
        if lv is None or "y_pab" not in lv:
            model = fit_evaluator(levels[-ROUND_LEVELS:], ROUND_SETTINGS, seed=args.seed)
            log(f"round model on levels {t - ROUND_LEVELS}–{t - 1}")
            new = lookahead_level(args.seed, t, args.look_count, model)
            if lv is not None:
                # the round model is refitted as it was: the other labels come back the same
                drift = float(np.abs(new["y_margin"] - lv["y_margin"]).max())
                log(f"level {t}: margins relabelled within {drift:.2g} half points")
            save_level(path, new)
            lv = new
            log(f"level {t}: look-ahead labels")
        levels.append(lv)
    final = fit_evaluator(levels, replace(FINAL_SETTINGS, trees=args.trees), seed=args.seed)
    final.meta = json.dumps({"seed": args.seed, "exact_levels": args.exact_levels,
                             "exact_rows": [len(lv["index"]) for lv in levels],
                             "extra": [str(d) for d in args.extra],
                             "exact_count": args.exact_count, "look_count": args.look_count,
                             "trees": [final.points.n_trees, final.margin.n_trees,
                                       final.pab.n_trees]})
    write_npz(args.out, final.arrays())
    rep = {"dropped": dropped, "held_out": report(final, levels),
           "seconds": time.perf_counter() - start}
    args.out.with_suffix(".report.json").write_text(json.dumps(rep, indent=1))
    log(f"done: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
