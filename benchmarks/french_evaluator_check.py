"""The French Tarot evaluator against the exact solver, beyond the levels it was fitted on.

``python benchmarks/french_evaluator_check.py --levels 9 10 11 --count 150 --deals 30
--out results/FILE.json`` solves fresh positions (stream ``--seed``, not the training
stream) exactly: ``--count`` per level of 9–12 tricks left within ``--nodes`` nodes each,
and ``--deals`` whole deals (18 tricks, the taker's final margin, then his card points,
within ``--seconds`` each, the evaluator's value as the first guess).  It reports, per
level, the evaluator's error at the trick start and with one trick of look-ahead, against
the spread of the exact values (the petit au bout's head also on the positions where the
Petit is still in a hand); positions over budget are counted, and for whole deals
whether the estimate lies within the bounds proved.  ``--interval-deals N`` tests whole
deals against the adviser's error model: two null-window tests a deal (``--seconds``
each, ``--jobs`` at once) prove the exact margin above or below the evaluator's estimate
less and plus ``--interval`` points.  The exact values are kept in
``--cache`` (a folder), so another model is checked on the same positions in seconds.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

from tarock_solver.french.estimate.model import (
    FrenchEvaluator,
    load_french_evaluator,
    petit_in_hands,
    position_arrays,
)
from tarock_solver.french.solver import FrenchSearch, margin_table
from tarock_solver.french.training.positions import SAMPLER_VERSION, sample_position
from tarock_solver.solver import Budget
from tarock_solver.training.train import metrics


def _check(model: FrenchEvaluator, positions: list, exact_points: list, exact_margin: list,
           exact_pab: list) -> dict:
    a = position_arrays(positions)
    p0, m0, b0 = model.predict_start(a)
    p1, m1, b1 = model.predict_lookahead(a)
    yp = np.array(exact_points, float)
    ym = np.array(exact_margin, float)
    yb = np.array(exact_pab, float)
    done_p = np.isfinite(yp)
    done_m = np.isfinite(ym)
    done_b = np.isfinite(yb) & petit_in_hands(a.hlo)
    return {"points_start": metrics(p0[done_p] / 2, yp[done_p] / 2),
            "points_lookahead": metrics(p1[done_p] / 2, yp[done_p] / 2),
            "margin_start": metrics(m0[done_m] / 2, ym[done_m] / 2),
            "margin_lookahead": metrics(m1[done_m] / 2, ym[done_m] / 2),
            "pab_live_start": metrics(b0[done_b] / 2, yb[done_b] / 2),
            "pab_live_lookahead": metrics(b1[done_b] / 2, yb[done_b] / 2)}


def _solve_pab(search: FrenchSearch, positions: list, margins: list, nodes: int) -> list:
    """The petit au bout's exact labels where the margin is known (NaN elsewhere)."""
    table = margin_table(petit_au_bout=True)
    out = []
    for pos, m in zip(positions, margins, strict=True):
        if not np.isfinite(m):
            out.append(np.nan)
            continue
        search.clear()
        b = search.outcome_value(pos, table, budget=Budget(nodes=nodes), guess=int(m))
        out.append(b.lower - m if b.exact else np.nan)
    return out


def _interval_test(args: tuple[int, int, int, int, float]) -> list[int]:
    """Deal ``i`` of stream ``seed``: is the exact margin ≥ ``lo``, and ≥ ``hi + 1``?
    Each 1 proved, 0 disproved, -1 open."""
    seed, i, lo, hi, seconds = args
    pos = sample_position(seed, i, 18)
    search = FrenchSearch(tt_bits=22)
    table = margin_table()
    out = []
    for g in (lo, hi + 1):
        search.clear()
        r = search.outcome_value(pos, table, guess=g, max_tests=1,
                                 budget=Budget(seconds=seconds))
        out.append(1 if r.lower >= g else 0 if r.upper < g else -1)
    return out


def _interval(model: FrenchEvaluator, args: argparse.Namespace) -> dict:
    """Whole deals against estimate ± ``args.interval`` points (a stream of its own)."""
    seed = args.seed + 3000
    half = int(round(2 * args.interval))
    est = [float(model.predict_lookahead(position_arrays([sample_position(seed, i, 18)]))
                 .margin[0]) for i in range(args.interval_deals)]
    cache = (args.cache / f"interval-{seed}-{half}-{args.seconds:g}-v{SAMPLER_VERSION}.json"
             if args.cache else None)
    known = json.loads(cache.read_text()) if cache and cache.exists() else {}
    todo = [(seed, i, int(np.floor(est[i])) - half, int(np.ceil(est[i])) + half, args.seconds)
            for i in range(args.interval_deals) if str(i) not in known]
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for (_, i, *_), res in zip(todo, pool.imap(_interval_test, todo), strict=True):
            known[str(i)] = res
            if cache is not None:
                cache.write_text(json.dumps(known))
            print(f"deal {i}: estimate {est[i] / 2:.1f}, tests {res}", file=sys.stderr,
                  flush=True)
    rows = [{"index": i, "margin_est": est[i] / 2, "at_least_low": known[str(i)][0],
             "above_high": known[str(i)][1]} for i in range(args.interval_deals)]
    below = sum(r["at_least_low"] == 0 for r in rows)
    above = sum(r["above_high"] == 1 for r in rows)
    inside = sum(r["at_least_low"] == 1 and r["above_high"] == 0 for r in rows)
    return {"points": args.interval, "deals": len(rows), "proved_inside": inside,
            "proved_below": below, "proved_above": above,
            "open": len(rows) - inside - below - above, "rows": rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--weights", default=None)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--levels", type=int, nargs="*", default=[9, 10, 11])
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--nodes", type=int, default=200_000_000)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--made-deals", type=int, default=0,
                    help="Whole deals on which only 'made or not' is solved (one test).")
    ap.add_argument("--interval-deals", type=int, default=0,
                    help="Whole deals tested against the estimate ± --interval points.")
    ap.add_argument("--interval", type=float, default=16.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--exact-only", action="store_true",
                    help="Only solve and cache the exact values (no model needed).")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    model = None if args.exact_only else (
        FrenchEvaluator.load(args.weights) if args.weights else load_french_evaluator())
    search = FrenchSearch(tt_bits=22)
    table = margin_table()
    doc: dict = {"config": {k: str(v) if isinstance(v, Path) else v
                            for k, v in vars(args).items()}, "levels": {}}
    t0 = time.perf_counter()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    for t in args.levels:
        positions = [sample_position(args.seed, i, t) for i in range(args.count)]
        cached = (args.cache / f"level-{t:02d}-{args.seed}-{args.count}-v{SAMPLER_VERSION}.npz"
                  if args.cache else None)
        if cached is not None and cached.exists():
            z = np.load(cached)
            yp, ym = list(z["points"]), list(z["margin"])
            yb = list(z["pab"]) if "pab" in z else None
        else:
            yp, ym = [], []
            for pos in positions:
                search.clear()
                p = search.points(pos, budget=Budget(nodes=args.nodes))
                search.clear()
                m = search.outcome_value(pos, table, budget=Budget(nodes=args.nodes),
                                         guess=p.lower - 82)
                yp.append(p.lower - pos.state.taker_points if p.exact else np.nan)
                ym.append(m.lower if m.exact else np.nan)
            yb = None
        if yb is None:
            yb = _solve_pab(search, positions, ym, args.nodes)
            if cached is not None:
                np.savez(cached, points=np.array(yp, float), margin=np.array(ym, float),
                         pab=np.array(yb, float))
        if model is None:
            print(f"[{time.perf_counter() - t0:.0f}s] level {t}: solved", file=sys.stderr,
                  flush=True)
            continue
        res = _check(model, positions, yp, ym, yb)
        res["over_budget"] = int(np.isnan(yp).sum() + np.isnan(ym).sum() + np.isnan(yb).sum())
        doc["levels"][str(t)] = res
        print(f"[{time.perf_counter() - t0:.0f}s] level {t}: " + json.dumps(
            {k: (round(v["mae"], 2), round(v["r"], 3), round(v["y_sd"], 2))
             for k, v in res.items() if isinstance(v, dict)}), file=sys.stderr, flush=True)
    rows = []
    deals_cache = (args.cache / f"deals-{args.seed + 1000}-{args.seconds:g}-v{SAMPLER_VERSION}"
                   ".json" if args.cache else None)
    known = json.loads(deals_cache.read_text()) if deals_cache and deals_cache.exists() else {}
    for i in range(args.deals):
        pos = sample_position(args.seed + 1000, i, 18)
        a = position_arrays([pos])
        p_est, m_est = ((float(x[0]) for x in model.predict_lookahead(a)[:2]) if model
                        else (float("nan"), float("nan")))
        if str(i) in known:
            mb, pb, secs = known[str(i)]
        else:
            # the evaluator's values only guess where the search starts: any guess gives
            # the same exact value
            search.clear()
            m = search.outcome_value(pos, table, budget=Budget(seconds=args.seconds),
                                     guess=None if model is None else int(round(m_est)))
            search.clear()
            p = search.points(pos, budget=Budget(seconds=args.seconds),
                              guess=None if model is None
                              else int(round(p_est)) + pos.state.taker_points)
            mb, pb, secs = [m.lower, m.upper], [p.lower, p.upper], [m.seconds, p.seconds]
            known[str(i)] = [mb, pb, secs]
            if deals_cache is not None:
                deals_cache.write_text(json.dumps(known))
        rows.append({"index": i, "margin_est": m_est, "margin": mb,
                     "points_est": p_est + pos.state.taker_points, "points": pb,
                     "seconds": secs})
        print(f"[{time.perf_counter() - t0:.0f}s] deal {i}: margin est {m_est:.0f} exact "
              f"{mb[0]}..{mb[1]}; points est {p_est + pos.state.taker_points:.0f} exact "
              f"{pb[0]}..{pb[1]}", file=sys.stderr, flush=True)
    made_rows = []
    made_cache = (args.cache / f"made-{args.seed + 2000}-{args.seconds:g}-v{SAMPLER_VERSION}"
                  ".json" if args.cache else None)
    made_known = (json.loads(made_cache.read_text())
                  if made_cache and made_cache.exists() else {})
    for i in range(args.made_deals):
        pos = sample_position(args.seed + 2000, i, 18)
        if str(i) not in made_known:
            search.clear()
            r = search.outcome_value(pos, table, guess=0, max_tests=1,
                                     budget=Budget(seconds=args.seconds))
            made_known[str(i)] = 1 if r.lower >= 0 else 0 if r.upper < 0 else -1
            if made_cache is not None:
                made_cache.write_text(json.dumps(made_known))
        m_est = (float(model.predict_lookahead(position_arrays([pos]))[1][0]) if model
                 else float("nan"))
        made_rows.append({"index": i, "made": made_known[str(i)], "margin_est": m_est})
        print(f"[{time.perf_counter() - t0:.0f}s] made-deal {i}: {made_known[str(i)]}, "
              f"margin est {m_est:.0f}", file=sys.stderr, flush=True)
    if model is None:
        return 0
    doc["made_deals"] = made_rows
    known_made = [r for r in made_rows if r["made"] >= 0]
    if known_made:
        y = np.array([r["made"] for r in known_made], float)
        est = np.array([r["margin_est"] for r in known_made])
        doc["made_summary"] = {
            "deals": len(made_rows), "resolved": len(known_made),
            "made_share": float(y.mean()),
            "sign_agrees": float(np.mean((est >= -0.5) == (y == 1))),
            "mean_estimate_made": float(est[y == 1].mean()) / 2 if (y == 1).any() else None,
            "mean_estimate_failed": float(est[y == 0].mean()) / 2 if (y == 0).any() else None}
    doc["whole_deals"] = rows
    if args.interval_deals:
        doc["interval"] = _interval(model, args)
    for key in ("margin", "points"):
        done = [r for r in rows if r[key][0] == r[key][1]]
        est = np.array([r[f"{key}_est"] for r in done]) / 2
        y = np.array([r[key][0] for r in done], float) / 2
        inside = sum(r[key][0] <= round(r[f"{key}_est"]) <= r[key][1] for r in rows
                     if r[key][0] != r[key][1])
        doc[f"whole_{key}"] = {"exact": len(done), "metrics": metrics(est, y),
                               "bounded": len(rows) - len(done),
                               "estimate_within_bounds": inside}
    doc["seconds"] = time.perf_counter() - t0
    args.out.write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
