"""`tarock bench --review`: how long `tarock review` takes on a full 16-trick record.

Records: the shipped bench deals played out by the deterministic ``simple`` policy of
:mod:`tarock_solver.review.playout` (deal *i*, declarer seat *i* mod 3, a Three, the
first legal exchange).  Each record is reviewed in this process on one thread with a
fresh :class:`CardPointSearch` (as `tarock review` has for one record): the play (every
card's per-card values) and then the exchange verdict on the same table, timed apart.
The kernels are loaded (compiled, if the cache is stale) before the clock starts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["format_review_report", "run_review_bench"]


def _summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "p90": None, "max": None, "mean": None}
    a = np.array(values, dtype=float)
    return {"median": float(np.median(a)), "p90": float(np.percentile(a, 90)),
            "max": float(a.max()), "mean": float(a.mean())}


def run_review_bench(*, deals: int = 20, deals_file: str | os.PathLike[str] | None = None,
                     rules: str = "dummett", status: Callable[[str], None] | None = None
                     ) -> dict[str, Any]:
    """Review the first ``deals`` bench deals played out; the JSON-ready document."""
    from ..review import check_record
    from ..review.engine import judge_exchange, review_line
    from ..review.playout import play_out
    from ..rules import load_rules
    from ..solver import CardPointSearch, Position
    from .machine import machine_info
    from .positions import load_bench_deals

    profile = load_rules(rules)
    records = load_bench_deals(deals_file, deals)
    CardPointSearch(tt_bits=12).card_values(Position(records[0].deal.hands, 0, 0))
    load_start = os.getloadavg()
    rows = []
    for i, d in enumerate(records):
        rec = play_out(d.deal, i % 3, "three", profile, record_id=d.id)
        line = check_record(rec, profile)
        search = CardPointSearch()
        t0 = time.perf_counter()
        rv = review_line(line, profile, search=search, exchange=False)
        t1 = time.perf_counter()
        ex = judge_exchange(line, profile, search, rv.cards[0].before)
        t2 = time.perf_counter()
        row = {"deal": d.id, "declarer": "FMR"[i % 3], "play_s": t1 - t0,
               "exchange_s": t2 - t1, "total_s": t2 - t0, "nodes": search.stats.nodes,
               "cards": len(rv.cards), "mistakes": sum(1 for c in rv.cards if c.loss),
               "exchange_loss_thirds": ex.loss_thirds if ex else None}
        rows.append(row)
        if status is not None:
            status(f"{d.id}: play {row['play_s']:.2f} s, exchange {row['exchange_s']:.2f} s")
    return {"kind": "review", "machine": machine_info(),
            "config": {"deals": len(records), "policy": "simple", "contract": "three",
                       "rules": rules, "threads": 1},
            "load_start": list(load_start), "load_end": list(os.getloadavg()),
            "summary": {k: _summary([r[k] for r in rows])
                        for k in ("play_s", "exchange_s", "total_s")},
            "records": rows}


def format_review_report(doc: dict[str, Any]) -> list[str]:
    """The printed report of :func:`run_review_bench`."""
    cfg, m = doc["config"], doc["machine"]
    lines = [f"Machine: {m.get('cpu')}, {m.get('logical_cores')} cores (one thread used); "
             f"load {doc['load_start'][0]:.1f} → {doc['load_end'][0]:.1f}",
             f"Review of {cfg['deals']} full records (bench deals played out by the "
             f"{cfg['policy']} policy, a {cfg['contract'].title()})", "",
             f"{'part':>10} {'median s':>9} {'p90 s':>8} {'max s':>8} {'mean s':>8}"]
    for key, name in (("play_s", "play"), ("exchange_s", "exchange"), ("total_s", "total")):
        s = doc["summary"][key]
        if s["median"] is None:
            continue
        lines.append(f"{name:>10} {s['median']:>9.2f} {s['p90']:>8.2f} {s['max']:>8.2f} "
                     f"{s['mean']:>8.2f}")
    return lines
