"""`tarock bench --estimate`: how fast the learned evaluator answers, batched and one by one.

Positions: the first ``count`` seeded random deals (16 cards a hand, forehand
leading, declarer seat i % 3), and the same deals played on by a seeded random
policy to 4–15 cards a hand (the mix a review or an analysis asks about).  It
reports positions per second of :func:`~tarock_solver.estimate_many` on the whole
batch (best of ``repeat`` runs), of its two parts (features, tree ensemble), and
of :func:`~tarock_solver.estimate_position` called per position, plus the first
call's load time in this process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["format_estimate_report", "run_estimate_bench"]


def _positions(count: int, seed: int) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    from ..deal import random_deals
    from ..play import random_play_out

    deals = random_deals(seed, count)
    full = np.array([d.hands for d in deals], dtype=np.uint64)
    decl = np.arange(count, dtype=np.int64) % 3
    rng = np.random.default_rng(seed)
    short_h, short_l = [], []
    for d in deals:
        left = int(rng.integers(4, 16))
        hands, leader = random_play_out(d.hands, 0, 16 - left, rng)
        short_h.append(hands)
        short_l.append(leader)
    return {"16 cards": (full, np.zeros(count, dtype=np.int64), decl),
            "4-15 cards": (np.array(short_h, dtype=np.uint64),
                           np.array(short_l, dtype=np.int64), decl)}


def _best(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run_estimate_bench(*, count: int = 100_000, single: int = 2_000, repeat: int = 3,
                       seed: int = 1) -> dict[str, Any]:
    """Measure the evaluator; the JSON-ready document."""
    from ..estimate import estimate_many, estimate_position, load_evaluator
    from ..estimate.features import features
    from .machine import machine_info

    t0 = time.perf_counter()
    ev = load_evaluator()
    h0 = np.array([[1 << 53, 1 << 52, 1 << 51]], dtype=np.uint64)
    estimate_many(h0, 0, 0)
    load = time.perf_counter() - t0
    rows = []
    for name, (h, lead, decl) in _positions(count, seed).items():
        n = len(h)
        batch = _best(lambda h=h, lead=lead, decl=decl: estimate_many(h, lead, decl), repeat)
        feats = _best(lambda h=h, lead=lead, decl=decl: features(h, lead, decl), repeat)
        x = features(h, lead, decl)
        trees = _best(lambda x=x: ev.model.predict(x), repeat)
        m = min(single, n)
        hands = [[int(v) for v in row] for row in h[:m]]
        leads = [int(v) for v in lead[:m]]
        decls = [int(v) for v in decl[:m]]

        def one_by_one(hands=hands, leads=leads, decls=decls) -> None:
            for row, le, de in zip(hands, leads, decls, strict=True):
                estimate_position(row, le, de)

        singles = _best(one_by_one, repeat)
        rows.append({"positions": name, "count": n,
                     "batched_per_second": n / batch, "features_per_second": n / feats,
                     "trees_per_second": n / trees, "single_count": m,
                     "single_per_second": m / singles})
    return {"kind": "estimate", "machine": machine_info(),
            "config": {"count": count, "single": single, "repeat": repeat, "seed": seed,
                       "trees": ev.model.n_trees, "depth": ev.model.depth},
            "load_seconds": load, "rows": rows}


def format_estimate_report(doc: dict[str, Any]) -> list[str]:
    cfg, m = doc["config"], doc["machine"]
    lines = [f"Machine: {m.get('cpu')}, {m.get('logical_cores')} cores (one thread used)",
             f"Evaluator: {cfg['trees']} oblivious trees of depth {cfg['depth']}; first call "
             f"(load) {doc['load_seconds']:.2f} s", "",
             f"{'positions':>11} {'count':>8} {'batched/s':>11} {'features/s':>11} "
             f"{'trees/s':>11} {'single/s':>10}"]
    for r in doc["rows"]:
        lines.append(f"{r['positions']:>11} {r['count']:>8} {r['batched_per_second']:>11,.0f} "
                     f"{r['features_per_second']:>11,.0f} {r['trees_per_second']:>11,.0f} "
                     f"{r['single_per_second']:>10,.0f}")
    lines.append(f"(best of {cfg['repeat']} runs; single: estimate_position per position on "
                 f"the first {cfg['single']})")
    return lines
