"""Evaluator speed: positions per second, batched and one at a time, on one core.

``OPENBLAS_NUM_THREADS=1 python benchmarks/evaluator/throughput.py [--weights W.npz]``

Reports CPU seconds (``time.process_time``) as well as wall seconds: on a shared
machine the wall rate depends on the other processes, the CPU rate much less.
Without shipped weights a random network of the default shape is timed (the
cost does not depend on the weight values).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from tarock_solver.estimate import features as F
from tarock_solver.estimate import model as M
from tarock_solver.estimate.positions import sample_positions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights")
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--single", type=int, default=2_000)
    ap.add_argument("--hidden", default="64,32")
    args = ap.parse_args()
    if args.weights or M.WEIGHTS_PATH.exists():
        ev = M.load_evaluator(args.weights)
    else:
        rng = np.random.default_rng(0)
        sizes = [F.N_FEATURES, *[int(h) for h in args.hidden.split(",")], 1]
        ev = M.Evaluator([(rng.normal(0, 0.1, (a, b)), np.zeros(b))
                          for a, b in zip(sizes[:-1], sizes[1:], strict=True)])
    ps = (sample_positions(9, "post_exchange", 200) + sample_positions(9, "random", 200)
          + sample_positions(9, "short", 600))
    h0 = np.array([p.hands for p in ps], dtype=np.uint64)
    reps = -(-args.rows // len(ps))
    h = np.tile(h0, (reps, 1))[:args.rows]
    le = np.tile([p.leader for p in ps], reps)[:args.rows]
    de = np.tile([p.declarer for p in ps], reps)[:args.rows]
    M.load_evaluator.cache_clear()
    orig = M.load_evaluator
    M.load_evaluator = lambda path=None: ev  # type: ignore[assignment]
    try:
        M.estimate_many(h[:1000], le[:1000], de[:1000])  # warm up
        out = {}
        for name, fn in [("features", lambda: F.features(h, le, de)),
                         ("estimate_many", lambda: M.estimate_many(h, le, de))]:
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            c1, w1 = time.process_time(), time.perf_counter()
            out[name] = {"rows": len(h), "cpu_rows_per_s": round(len(h) / (c1 - c0)),
                         "wall_rows_per_s": round(len(h) / (w1 - w0))}
        n1 = args.single
        c0, w0 = time.process_time(), time.perf_counter()
        for i in range(n1):
            M.estimate_position((int(h[i, 0]), int(h[i, 1]), int(h[i, 2])), int(le[i]),
                                int(de[i]))
        c1, w1 = time.process_time(), time.perf_counter()
        out["estimate_position"] = {"rows": n1, "cpu_rows_per_s": round(n1 / (c1 - c0)),
                                    "wall_rows_per_s": round(n1 / (w1 - w0))}
    finally:
        M.load_evaluator = orig
    out["architecture"] = [w.shape for w, _ in ev.layers]
    print(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
