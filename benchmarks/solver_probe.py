"""Quick speed probe of the double-dummy solver.

Random positions of 8/10/12/14/16 tricks (hands of that many cards each,
dealt from a shuffled pack with a numpy Generator; F leads; the declarer
is each seat in turn).  Each position is solved three ways with an empty
transposition table: exact value (MTD(f)), one null-window test at 36
points (the game threshold of a full deal), and one null-window test at
the exact value (the hardest single test).  A node cap keeps a hard
position from hanging the probe; capped solves are counted and timed at
the cap.

    python benchmarks/solver_probe.py                 # 20 positions per size
    python benchmarks/solver_probe.py --tricks 16 --deals 20 --max-nodes 3e8
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tarock_solver.solver.api import NodeLimitExceeded, Solver


def random_hands(rng: np.random.Generator, tricks: int) -> tuple[int, int, int]:
    cards = rng.permutation(54)
    hands = [0, 0, 0]
    for seat in range(3):
        for c in cards[seat * tricks:(seat + 1) * tricks]:
            hands[seat] |= 1 << int(c)
    return hands[0], hands[1], hands[2]


def timed(fn, *args, **kwargs) -> tuple[float, int, bool, object]:
    """(seconds, nodes, capped, result) of one solver call."""
    solver: Solver = fn.__self__
    t0 = time.perf_counter()
    try:
        result = fn(*args, **kwargs)
        capped = False
    except NodeLimitExceeded:
        result = None
        capped = True
    return time.perf_counter() - t0, solver.last_nodes, capped, result


def summary(times: list[float]) -> str:
    ms = np.array(times) * 1e3
    return f"{np.median(ms):9.1f} {np.quantile(ms, 0.9):9.1f} {ms.max():9.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tricks", default="8,10,12,14,16", help="comma-separated trick counts")
    ap.add_argument("--deals", type=int, default=20, help="positions per trick count")
    ap.add_argument("--tt-bits", type=int, default=20, help="transposition table: 2**bits rows")
    ap.add_argument("--max-nodes", type=float, default=3e8, help="node cap of one solve")
    ap.add_argument("--threshold", type=int, default=36, help="null-window target")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    solver = Solver(args.tt_bits, max_nodes=int(args.max_nodes))
    solver.value((1, 2, 4), 0, 0)  # load or compile the kernels outside the timings
    solver.reaches((1, 2, 4), 0, 0, 1)
    rng = np.random.default_rng(args.seed)
    groups = f"{'':>10} | {'exact (ms)':^33} | {'null@' + str(args.threshold) + ' (ms)':^29} " \
             f"| {'null@value (ms)':^29} |"
    header = (f"{'tricks':>6} {'n':>3} | {'median':>9} {'p90':>9} {'max':>9} {'cap':>3} "
              f"| {'median':>9} {'p90':>9} {'max':>9} | {'median':>9} {'p90':>9} {'max':>9} "
              f"| {'Mnodes/s':>8}")
    print(groups)
    print(header)
    print("-" * len(header))
    for tricks in (int(t) for t in args.tricks.split(",")):
        exact_t, null_t, nullv_t = [], [], []
        capped = 0
        nodes = 0
        seconds = 0.0
        for i in range(args.deals):
            hands = random_hands(rng, tricks)
            declarer = i % 3
            solver.clear()
            dt, n, cap, value = timed(solver.value, hands, 0, declarer)
            exact_t.append(dt)
            capped += cap
            nodes += n
            seconds += dt
            solver.clear()
            dt, n, cap, _ = timed(solver.reaches, hands, 0, declarer, args.threshold)
            null_t.append(dt)
            capped += cap
            nodes += n
            seconds += dt
            if value is not None:
                solver.clear()
                dt, n, cap, _ = timed(solver.reaches, hands, 0, declarer, int(value))
                nullv_t.append(dt)
                capped += cap
                nodes += n
                seconds += dt
        rate = nodes / seconds / 1e6 if seconds else 0.0
        nullv = summary(nullv_t) if nullv_t else f"{'-':>9} {'-':>9} {'-':>9}"
        print(f"{tricks:>6} {args.deals:>3} | {summary(exact_t)} {capped:>3} "
              f"| {summary(null_t)} | {nullv} | {rate:8.2f}", flush=True)


if __name__ == "__main__":
    main()
