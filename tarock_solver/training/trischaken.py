"""Labels and training of the Trischaken evaluator (:mod:`tarock_solver.estimate.trischaken`).

``python -m tarock_solver.training.trischaken labels --seed S --count N --out FILE.npz``
deals uniform random deals (a tarock-less hand redealt), values one seat per deal drawn
at random by the exact paranoid search (:class:`~tarock_solver.solver.trischaken.TrischakenSearch`,
F leads, talon unused) within a node budget, and writes the rows in chunks to a checkpoint
folder in the user's cache (a killed run keeps its chunks and the same command continues),
then the joined rows to ``FILE.npz`` (byte-reproducible) and their wall seconds to
``FILE.timing.npz``.  ``... fit FILE.npz [...] --out W.npz`` trains the tree ensemble on the
rows solved within their budget and reports held-out metrics against a ridge baseline.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import TAROCK_MASK
from ..deal import random_deal
from .labels import checkpoint_dir, timing_path, write_npz

__all__ = ["BUDGET_NODES", "LABEL_FIELDS", "RULES", "deal_row", "fit", "generate", "load",
           "main", "split_masks"]

#: The profile whose Trischaken rules (must beat, Pagat last, talon unused) are solved.
RULES = "dummett"
#: Node budget of one solve: ~20M nodes a second on one core, so ~8 s; a few percent of
#: deals need more and are recorded with their bounds but dropped from training.
BUDGET_NODES = 160_000_000
#: The spawn key's first element: keeps these deals apart from other seeded streams.
STREAM = 71
#: Per-row fields: ``hands`` (N, 3) masks of F, M, R; ``seat`` the seat valued;
#: ``lower``/``upper`` the proved bounds of its paranoid card points (equal when
#: ``exact``; a row over the budget is kept with its bounds); ``nodes`` search nodes;
#: ``index`` the deal's index in the stream of the seed.  The file also holds ``meta``
#: (JSON: the settings and the command); the timing sidecar ``index`` and ``seconds``.
LABEL_FIELDS: dict[str, Any] = {"hands": np.uint64, "seat": np.uint8, "lower": np.uint8,
                                "upper": np.uint8, "exact": np.bool_, "nodes": np.int64,
                                "index": np.int64}
_CHUNK = 20


def deal_row(seed: int, index: int) -> tuple[tuple[int, int, int], int]:
    """Deal ``index`` of the stream of ``seed`` and its valued seat: a pure function."""
    rng = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(STREAM, int(index))))
    deal = random_deal(rng)  # redeals a hand without a tarock, as the game does
    return deal.hands, int(rng.integers(3))


def _solve_chunk(seed: int, first: int, rows: int, budget_nodes: int) -> dict[str, np.ndarray]:
    from ..rules import load_rules
    from ..solver import Budget, TrischakenSearch, trischaken_position

    rules = load_rules(RULES)
    search = TrischakenSearch(rules)
    out = {k: np.zeros((rows, 3) if k == "hands" else rows, dtype=dt)
           for k, dt in LABEL_FIELDS.items()}
    out["seconds"] = np.zeros(rows, dtype=np.float64)
    for r in range(rows):
        hands, seat = deal_row(seed, first + r)
        search.clear()  # a fresh table: node counts and bounds depend on the deal alone
        t0 = time.perf_counter()
        res = search.value(trischaken_position(hands, 0, seat, rules=rules),
                           Budget(nodes=budget_nodes))
        out["seconds"][r] = time.perf_counter() - t0
        out["hands"][r] = hands
        out["seat"][r] = seat
        out["lower"][r] = res.lower
        out["upper"][r] = res.upper
        out["exact"][r] = res.exact
        out["nodes"][r] = res.nodes
        out["index"][r] = first + r
    return out


def _join(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    fields = {**LABEL_FIELDS, "seconds": np.float64}
    return {k: np.concatenate([c[k] for c in chunks]) if chunks
            else np.zeros((0, 3) if k == "hands" else 0, dtype=dt)
            for k, dt in fields.items()}


def generate(seed: int, count: int, out: Path, *, budget_nodes: int = BUDGET_NODES,
             max_seconds: float | None = None, log: Any = print) -> dict[str, np.ndarray]:
    """Solve deals ``0 … count-1`` of ``seed`` in chunks of 20 into the checkpoint folder
    (:func:`.labels.checkpoint_dir`), then join every finished chunk into ``out`` and its
    timing sidecar.  Chunks already there (of the same seed and budget) are kept;
    ``max_seconds`` stops after the chunk that passes it (the file then holds the rows
    done, in order from deal 0)."""
    parts = checkpoint_dir(out)
    parts.mkdir(parents=True, exist_ok=True)
    settings = {"generator": "tarock_solver.training.trischaken", "seed": int(seed),
                "rules": RULES, "budget_nodes": int(budget_nodes), "stream": STREAM,
                "chunk": _CHUNK}
    manifest = parts / "manifest.json"
    if manifest.exists():
        old = json.loads(manifest.read_text())
        if old != settings:
            raise SystemExit(f"{parts} holds chunks of another run ({old}); remove it first")
    else:
        manifest.write_text(json.dumps(settings, sort_keys=True))
    t_start = time.perf_counter()
    for first in range(0, count, _CHUNK):
        path = parts / f"chunk-{first:06d}.npz"
        if path.exists():
            continue
        if max_seconds is not None and time.perf_counter() - t_start > max_seconds:
            log(f"stopping: {max_seconds:.0f} s passed")
            break
        chunk = _solve_chunk(seed, first, min(_CHUNK, count - first), budget_nodes)
        write_npz(path, chunk)
        log(f"rows {first}..{first + len(chunk['seat']) - 1}: "
            f"{chunk['seconds'].sum():.1f} s, {int((~chunk['exact']).sum())} over budget")
    done = sorted(parts.glob("chunk-*.npz"))
    data = _join([dict(np.load(p)) for p in done])
    n = len(data["index"])
    meta = {**settings, "start": 0, "count": n, "over_budget": int((~data["exact"]).sum()),
            "command": " ".join(["python -m tarock_solver.training.trischaken", *sys.argv[1:]])}
    rows = {k: data[k] for k in LABEL_FIELDS}
    write_npz(out, {**rows, "meta": np.array(json.dumps(meta, sort_keys=True))})
    write_npz(timing_path(out), {"index": data["index"], "seconds": data["seconds"]})
    return data


def load(paths: Sequence[Path]) -> dict[str, np.ndarray]:
    """The rows of label files, each deal once (by ``(seed, index)``; a file's seed is in
    its ``meta``), with a ``seed`` column."""
    chunks = []
    for p in paths:
        with np.load(Path(p), allow_pickle=False) as z:
            d = {k: z[k] for k in LABEL_FIELDS}
            seed = json.loads(str(z["meta"]))["seed"]
        d["seed"] = np.full(len(d["seat"]), seed, dtype=np.int64)
        chunks.append(d)
    out = {k: np.concatenate([c[k] for c in chunks]) for k in [*LABEL_FIELDS, "seed"]}
    key = out["seed"] * 10**9 + out["index"]
    _, first = np.unique(key, return_index=True)
    return {k: v[np.sort(first)] for k, v in out.items()}


def split_masks(seed: np.ndarray, index: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(train, validation, test) masks by deal: a hash of (seed, index), 80/10/10, so the
    split is fixed as data grow and every seat of one deal would fall on one side."""
    h = np.array([int(hashlib.sha256(f"{s}:{i}".encode()).hexdigest()[:8], 16) % 10
                  for s, i in zip(seed, index, strict=True)])
    return h < 8, h == 8, h == 9


def _simple_counts(hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The baseline's inputs: the seat's tarocks, nominal card points in hand, voids."""
    from ..cards import GROUP_MASKS, TAROCK, mask_nominal

    suits = [m for g, m in enumerate(GROUP_MASKS) if g != TAROCK]
    own = hands[np.arange(len(seats)), seats].astype(np.uint64)
    rows = []
    for h in own:
        h = int(h)
        rows.append([(h & TAROCK_MASK).bit_count(), mask_nominal(h),
                     sum(1 for m in suits if not h & m)])
    return np.array(rows, dtype=np.float64)


def fit(paths: Sequence[Path], out: Path | None, *, seed: int = 0, trees: int = 1500,
        depth: int = 4, learning_rate: float = 0.05, feature_set: str = "all",
        log: Any = print) -> dict[str, Any]:
    """Train on the exact rows of ``paths``; return the report (and write ``out``)."""
    from ..estimate import trischaken as T
    from .boosting import BoostSettings, fit_oblivious
    from .train import metrics, ridge_baseline

    d = load(paths)
    keep = d["exact"]
    n_all = len(keep)
    y = d["lower"][keep].astype(np.float64)
    hands, seats = d["hands"][keep], d["seat"][keep].astype(np.int64)
    tr, va, te = split_masks(d["seed"][keep], d["index"][keep])
    x = T.trischaken_features(hands, seats, which=feature_set)
    in_play = T.points_in_play(hands)
    settings = BoostSettings(depth=depth, trees=trees, learning_rate=learning_rate)
    t0 = time.perf_counter()
    model, hist = fit_oblivious(x[tr], y[tr], np.ones(int(tr.sum())), settings, seed=seed,
                                score=lambda p: float(np.abs(p - y[va]).mean()), x_val=x[va])
    fit_s = time.perf_counter() - t0
    pred = np.clip(model.predict(x[te]), 0.0, in_play[te])
    xs = _simple_counts(hands, seats)
    base = ridge_baseline(xs[tr], in_play[tr], y[tr], xs[te], in_play[te])
    pred_val = np.clip(model.predict(x[va]), 0.0, in_play[va])
    report = {"rows": n_all, "dropped_over_budget": int(n_all - keep.sum()),
              "dropped_share": float(1 - keep.mean()) if n_all else 0.0,
              "train_rows": int(tr.sum()), "validation_rows": int(va.sum()),
              "test_rows": int(te.sum()),
              "feature_set": feature_set, "n_features": int(x.shape[1]),
              "settings": asdict(settings), "best_trees": hist.best_trees,
              "fit_seconds": round(fit_s, 1), "label_sd": float(y.std()),
              "test": metrics(pred, y[te]), "ridge_counts_test": metrics(base, y[te]),
              "validation": metrics(pred_val, y[va])}
    log(json.dumps(report, indent=1))
    if out is not None:
        arrays = model.arrays()
        # the default sd of expected_trischaken_net: the RMSE on the held-out deals
        # (never used in the fit or the choice of the prefix)
        arrays["error_sd"] = np.array(report["test"]["rmse"])
        arrays["feature_set"] = np.array(feature_set)
        arrays["meta"] = np.array(json.dumps({"report": report, "command": " ".join(sys.argv)},
                                             sort_keys=True))
        write_npz(Path(out), arrays)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tarock_solver.training.trischaken",
                                 description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("labels", help="exact paranoid values of random deals")
    lab.add_argument("--seed", type=int, required=True)
    lab.add_argument("--count", type=int, required=True)
    lab.add_argument("--out", type=Path, required=True)
    lab.add_argument("--budget-nodes", type=int, default=BUDGET_NODES)
    lab.add_argument("--max-seconds", type=float, default=None)
    ft = sub.add_parser("fit", help="train the tree ensemble and report held-out metrics")
    ft.add_argument("labels", type=Path, nargs="+")
    ft.add_argument("--out", type=Path, default=None)
    ft.add_argument("--seed", type=int, default=0)
    ft.add_argument("--trees", type=int, default=1500)
    ft.add_argument("--depth", type=int, default=4)
    ft.add_argument("--learning-rate", type=float, default=0.05)
    ft.add_argument("--features", default="all")
    a = ap.parse_args(argv)
    if a.cmd == "labels":
        generate(a.seed, a.count, a.out, budget_nodes=a.budget_nodes, max_seconds=a.max_seconds,
                 log=lambda s: print(s, flush=True))
    else:
        fit(a.labels, a.out, seed=a.seed, trees=a.trees, depth=a.depth,
            learning_rate=a.learning_rate, feature_set=a.features)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
