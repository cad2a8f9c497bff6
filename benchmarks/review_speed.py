"""Speed of `tarock review` on full 16-trick records (issue #18: ≤ 10 s median, one core).

The records are the shipped bench deals (tarock_solver/data/bench_deals.jsonl) played out
by the deterministic ``simple`` policy of :mod:`tarock_solver.review.playout`: deal *i*,
declarer seat *i* mod 3, contract Three, the first legal exchange.  Each record is
reviewed in this one process (one thread) with one CardPointSearch per record (a fresh
table, as `tarock review` has for one record), once with the exchange judged and the
time of the play alone and of the exchange recorded apart.  The kernels are loaded
(and compiled, if the cache is stale) before the clock starts.

    nice -n 10 python benchmarks/review_speed.py --deals 20 --json benchmarks/results/review.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from pathlib import Path

from tarock_solver.deal_files import read_deals
from tarock_solver.review import check_record
from tarock_solver.review.engine import judge_exchange, review_line
from tarock_solver.review.playout import play_out
from tarock_solver.rules import load_rules
from tarock_solver.solver import CardPointSearch, Position

ROOT = Path(__file__).resolve().parent.parent


def _quantile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(q * (len(s) - 1))))
    return s[k]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="first N bench deals")
    ap.add_argument("--json", type=Path, help="write the records and the summary here")
    args = ap.parse_args()
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    rules = load_rules("dummett")
    deals = read_deals(ROOT / "tarock_solver" / "data" / "bench_deals.jsonl")[:args.deals]
    warm = CardPointSearch(tt_bits=12)
    warm.card_values(Position(deals[0].deal.hands, 0, 0))  # load the kernels first
    rows = []
    for i, d in enumerate(deals):
        rec = play_out(d.deal, i % 3, "three", rules, record_id=d.id)
        line = check_record(rec, rules)
        search = CardPointSearch()
        t0 = time.perf_counter()
        rv = review_line(line, rules, search=search, exchange=False)
        t1 = time.perf_counter()
        ex = judge_exchange(line, rules, search, rv.cards[0].before)
        t2 = time.perf_counter()
        row = {"deal": d.id, "declarer": "FMR"[i % 3], "play_s": round(t1 - t0, 3),
               "exchange_s": round(t2 - t1, 3), "total_s": round(t2 - t0, 3),
               "nodes": search.stats.nodes, "cards": len(rv.cards),
               "mistakes": sum(1 for c in rv.cards if c.loss),
               "exchange_loss_thirds": ex.loss_thirds if ex else None}
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {}
    for key in ("play_s", "exchange_s", "total_s"):
        vals = [r[key] for r in rows]
        summary[key] = {"median": round(statistics.median(vals), 3),
                        "p90": round(_quantile(vals, 0.9), 3), "max": round(max(vals), 3)}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    doc = {"config": {"deals": args.deals, "policy": "simple", "contract": "three",
                      "threads": 1},
           "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                       "commit": commit, "load_start": os.getloadavg()},
           "summary": summary, "records": rows}
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
