"""Is the default answer right?  Its regret against a run ten times as long.

``python benchmarks/close_call_regret.py [--hands 30] [--seed 1] [--time-limit 30]
[--factor 10] [--jobs 2] [--out F.json]``

On ``--hands`` hands outside the bench set (``make_advise_hands(N, REGRET_DEALS,
birds=0)``, a deal stream of its own), each hand is advised twice: the default answer
(``--time-limit``, stopping when firm) and a reference run ``--factor`` times as long
(whole time used, another seed, so that its worlds are not the default run's).  The
reference's table is taken as the truth: the regret of a choice is the reference's best
E[net] (passing: 0) minus the reference's E[net] of the chosen contract and option (the
maximum of noisy values overstates the truth a little, so ``regret_vs_reference_choice``
also measures against the reference's own recommendation).

Reported per hand: both choices, the default run's close call and whether it was settled
against the sign of its unbiased difference (the close-call rule), and the regret with
the rule and without it (the unsettled choice is the runner-up of a settled call).
Summary: mean and worst regret with and without the rule, and how often each choice is
the reference's own.  Stability across seeds can be had from a shared prior; regret
cannot, which is why the rule is validated this way.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

#: The deal stream of the hands (not the bench's, not the prior's).
REGRET_DEALS = 20261207


def _value(table: dict[tuple[str, str], float], contract: str, option: str) -> float:
    if contract == "pass":
        return 0.0
    return table.get((contract, option), math.nan)


def run_hand(rec: dict, seed: int, time_limit: float, factor: float, jobs: int) -> dict:
    from tarock_solver.advise import AdviceLimit, AdviceRequest, advise
    from tarock_solver.notation import parse_hand, seat_index

    hand, seat = parse_hand(rec["hand"]), seat_index(rec["seat"])
    t0 = time.perf_counter()
    short = advise(AdviceRequest(hand=hand, seat=seat, seed=seed, jobs=jobs,
                                 limit=AdviceLimit(time_limit, 1_000_000)))
    t1 = time.perf_counter()
    long = advise(AdviceRequest(hand=hand, seat=seat, seed=seed + 1000, jobs=jobs,
                                limit=AdviceLimit(time_limit * factor, 1_000_000,
                                                  stop_when_firm=False)))
    t2 = time.perf_counter()
    table = {(r.contract, r.option): float(r.net.mean) for r in long.rows
             if math.isfinite(r.net.mean)}
    best_long = long.recommendation
    truth = max([0.0, *table.values()])
    rec_s = short.recommendation
    with_rule = (rec_s.contract, rec_s.option)
    without = with_rule
    if rec_s.settled and rec_s.runner_up is not None:
        without = (rec_s.runner_up.contract, rec_s.runner_up.option)
    return {
        "id": rec["id"], "seat": rec["seat"], "seconds": [t1 - t0, t2 - t1],
        "default": {"contract": with_rule[0], "option": with_rule[1],
                    "close_call": bool(rec_s.close_call), "settled": bool(rec_s.settled),
                    "tentative": bool(rec_s.tentative), "p_better": rec_s.p_better},
        "without_rule": {"contract": without[0], "option": without[1]},
        "reference": {"contract": best_long.contract, "option": best_long.option,
                      "best_net": truth},
        "regret": truth - _value(table, *with_rule),
        # against the reference's own recommendation (no winner's curse of the max)
        "regret_vs_reference_choice": _value(table, best_long.contract, best_long.option)
        - _value(table, *with_rule),
        "regret_without_rule": truth - _value(table, *without),
    }


def main() -> int:
    from tarock_solver.bench.advise import make_advise_hands

    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--factor", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out")
    args = ap.parse_args()
    hands = make_advise_hands(args.hands, seed=REGRET_DEALS, birds=0)[1:]
    rows = []
    for h in hands:
        r = run_hand(h, args.seed, args.time_limit, args.factor, args.jobs)
        rows.append(r)
        print(f"{r['id']:>10} default {r['default']['contract']}/{r['default']['option']}"
              f"{' settled' if r['default']['settled'] else ''} reference "
              f"{r['reference']['contract']}/{r['reference']['option']} regret "
              f"{r['regret']:.1f} (without the rule {r['regret_without_rule']:.1f})", flush=True)
    ok = [r for r in rows if math.isfinite(r["regret"]) and math.isfinite(r["regret_without_rule"])]
    summary = {
        "hands": len(rows), "measured": len(ok),
        "mean_regret": sum(r["regret"] for r in ok) / len(ok) if ok else None,
        "worst_regret": max((r["regret"] for r in ok), default=None),
        "mean_regret_without_rule": sum(r["regret_without_rule"] for r in ok) / len(ok)
        if ok else None,
        "worst_regret_without_rule": max((r["regret_without_rule"] for r in ok), default=None),
        "mean_regret_vs_reference_choice": sum(r["regret_vs_reference_choice"] for r in ok)
        / len(ok) if ok else None,
        "settled_runs": sum(r["default"]["settled"] for r in rows),
        "same_as_reference": sum((r["default"]["contract"], r["default"]["option"])
                                 == (r["reference"]["contract"], r["reference"]["option"])
                                 for r in rows),
    }
    doc = {"config": vars(args), "summary": summary, "hands": rows}
    print(json.dumps(summary, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
