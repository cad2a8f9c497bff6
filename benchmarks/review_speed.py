"""Speed of `tarock review` on full 16-trick records (the bar: ≤ 10 s median, one core).

The same as ``tarock bench --review`` (tarock_solver/bench/review.py): the shipped bench
deals played out by the deterministic ``simple`` policy, each record reviewed on one
thread with a fresh table, the play and the exchange verdict timed apart.

    NUMBA_NUM_THREADS=1 nice -n 10 python benchmarks/review_speed.py --deals 20 \
        --json benchmarks/results/2026-12-02-review-bench-loaded.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tarock_solver.bench import save_report
from tarock_solver.bench.review import format_review_report, run_review_bench


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="first N bench deals")
    ap.add_argument("--json", type=Path, help="write the records and the summary here")
    args = ap.parse_args()
    doc = run_review_bench(deals=args.deals, status=lambda m: print(m, file=sys.stderr,
                                                                    flush=True))
    print("\n".join(format_review_report(doc)))
    if args.json:
        save_report(doc, args.json)
    else:
        print(json.dumps(doc["summary"], indent=1))


if __name__ == "__main__":
    main()
