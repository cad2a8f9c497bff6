"""How the French Tarot exact solver's work grows with the tricks left to play.

``python benchmarks/french_solver_scaling.py --levels 6 7 8 9 10 11 --count 16 --nodes
300000000 --jobs 2 --out results/FILE.json`` samples ``--count`` positions per level (a
stream of its own, ``--seed``) and solves each twice from a cleared table: the exact
margin (MTD(f) from the evaluator's look-ahead estimate, as the adviser would guess it)
and the one null-window test "made or not" (margin ≥ 0).  Work is counted in nodes, which
do not depend on the machine's load; a search over ``--nodes`` counts as over budget.
Per level it reports the median and 90th percentile of the nodes (a censored order
statistic: "over budget" once more than that share is over), the share solved, and the
growth per trick of the medians, fitted on the levels whose median is known; the fit
extrapolated to a whole deal (18 tricks) gives the work a whole-deal solve would need at
the measured node rate.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from runs import pooled, write_results

from tarock_solver.french.estimate.model import load_french_evaluator, position_arrays
from tarock_solver.french.solver import FrenchSearch, margin_table
from tarock_solver.french.training.positions import SAMPLER_VERSION, sample_position
from tarock_solver.solver import Budget

_MODEL = None


def _solve(args: tuple[int, int, int, int]) -> dict:
    """Position ``i`` of level ``t``: nodes and seconds of the exact margin and of the
    "made or not" test (``nodes`` the budget of each)."""
    global _MODEL
    seed, t, i, nodes = args
    if _MODEL is None:
        _MODEL = load_french_evaluator()
    pos = sample_position(seed, i, t)
    guess = int(round(float(_MODEL.predict_lookahead(position_arrays([pos])).margin[0])))
    search = FrenchSearch(tt_bits=22)
    table = margin_table()
    exact = search.outcome_value(pos, table, guess=guess, budget=Budget(nodes=nodes))
    search.clear()
    made = search.outcome_value(pos, table, guess=0, max_tests=1, budget=Budget(nodes=nodes))
    return {"level": t, "index": i, "guess": guess,
            "margin": [exact.lower, exact.upper], "nodes": exact.nodes,
            "seconds": exact.seconds, "tests": exact.tests, "exact": exact.exact,
            "made": 1 if made.lower >= 0 else 0 if made.upper < 0 else -1,
            "made_nodes": made.nodes, "made_seconds": made.seconds}


def _censored_quantile(nodes: list[int], solved: list[bool], q: float) -> float | None:
    """The ``q`` quantile of the work, an unsolved search counting as more than any
    solved one; None when it falls among the unsolved."""
    order = sorted(n if s else np.inf for n, s in zip(nodes, solved, strict=True))
    v = order[min(int(np.ceil(q * len(order))) - 1, len(order) - 1)]
    return None if not np.isfinite(v) else float(v)


def summarise(rows: list[dict], budget: int) -> dict:
    levels = sorted({r["level"] for r in rows})
    out: dict = {"levels": {}}
    rate_nodes = sum(r["nodes"] for r in rows if r["exact"])
    rate_secs = sum(r["seconds"] for r in rows if r["exact"])
    out["nodes_per_second"] = rate_nodes / rate_secs if rate_secs else None
    fit_x, fit_y = [], []
    for t in levels:
        at = [r for r in rows if r["level"] == t]
        summ = {}
        for key, ok in (("exact", lambda r: r["exact"]), ("made", lambda r: r["made"] >= 0)):
            work = [r["nodes"] if key == "exact" else r["made_nodes"] for r in at]
            solved = [ok(r) for r in at]
            summ[key] = {"positions": len(at), "solved": int(sum(solved)),
                         "median_nodes": _censored_quantile(work, solved, 0.5),
                         "p90_nodes": _censored_quantile(work, solved, 0.9)}
        out["levels"][str(t)] = summ
        if summ["exact"]["median_nodes"] is not None:
            fit_x.append(t)
            fit_y.append(np.log(summ["exact"]["median_nodes"]))
    if len(fit_x) >= 3:
        slope, icept = np.polyfit(fit_x, fit_y, 1)
        whole = float(np.exp(icept + 18 * slope))
        out["growth_per_trick"] = float(np.exp(slope))
        out["fitted_levels"] = fit_x
        out["whole_deal_median_nodes"] = whole
        if out["nodes_per_second"]:
            out["whole_deal_median_core_hours"] = whole / out["nodes_per_second"] / 3600
    out["budget_nodes"] = budget
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=4000)
    ap.add_argument("--levels", type=int, nargs="+", default=[6, 7, 8, 9, 10, 11])
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--nodes", type=int, default=300_000_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    todo = [(args.seed, t, i, args.nodes) for t in args.levels for i in range(args.count)]
    rows = pooled(_solve, todo, args.jobs, lambda row: (
        f"level {row['level']} #{row['index']}: margin {row['margin']} in {row['nodes']:,} "
        f"nodes, made {row['made']} in {row['made_nodes']:,}"))
    write_results(args, summarise(rows, args.nodes), rows, sampler_version=SAMPLER_VERSION)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
