"""The French adviser's default answer against a run five times as long, on held-out worlds.

``python benchmarks/french_advice_regret.py --hands 30 --jobs 2 --out results/FILE.json``
takes ``--hands`` hands of a stream of their own (the bench's rule,
:func:`~tarock_solver.bench.french_advise.make_french_advise_hands`, from deal
``--deal-seed``: the seat with the most trumps, eight or seven and two oudlers) and for
each:

* the **default answer**: ``advise_french`` with the default settings (seed 1, 256
  worlds), as a player would run it;
* the **reference**: the option a run of ``--factor`` times the worlds chooses (seed 2);
* the **judge**: a third run as long (seed 3) values every option on worlds that chose
  neither, and the default's regret is the reference's mean there less the default's,
  paired over the judge's worlds, with its SE.

A close call's regret should be small (the two options are within noise); a firm answer
should be the reference's.  What this measures is the adviser's sampling, on its own
evaluator and model: the evaluator's error is not in it (a whole deal is beyond the
exact solver: ``french_solver_scaling.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from runs import pooled, write_results

from tarock_solver.bench.french_advise import make_french_advise_hands
from tarock_solver.french.advice import FrenchAdviceRequest, advise_french
from tarock_solver.french.notation import parse_hand
from tarock_solver.french.rules import load_rules


def _hand_row(args: tuple[dict, int, int]) -> dict:
    rec, worlds, factor = args
    rules = load_rules("fft")
    hand = parse_hand(rec["hand"], players=4)
    seat = int(rec["seat"]) - 1
    default = advise_french(FrenchAdviceRequest(hand, seat, rules, seed=1, worlds=worlds))
    reference = advise_french(FrenchAdviceRequest(hand, seat, rules, seed=2,
                                                  worlds=factor * worlds))
    judge = advise_french(FrenchAdviceRequest(hand, seat, rules, seed=3,
                                              worlds=factor * worlds))
    d = judge.values[reference.recommended] - judge.values[default.recommended]
    se = float(d.std(ddof=1) / np.sqrt(len(d)))
    return {"id": rec["id"], "hand": rec["hand"], "seat": rec["seat"],
            "default": default.recommended, "default_close": default.close,
            "default_seconds": round(default.seconds, 2),
            "reference": reference.recommended, "reference_close": reference.close,
            "judge_means": {k: float(v.mean()) for k, v in judge.values.items()},
            "regret": float(d.mean()), "regret_se": se}


def _summary(rows: list[dict]) -> dict:
    r = np.array([row["regret"] for row in rows])
    se = np.array([row["regret_se"] for row in rows])
    out = {"hands": len(rows),
           "same_as_reference": int(sum(row["default"] == row["reference"] for row in rows)),
           "mean_regret": float(r.mean()),
           # the hands' regrets are independent: the SE of their mean
           "mean_regret_se": float(np.sqrt((se ** 2).sum()) / len(r)),
           "worst_regret": float(r.max()),
           "worst_hand": rows[int(np.argmax(r))]["id"],
           "regret_over_2se": int(sum(r > 2 * se))}
    for name, pick in (("close_calls", True), ("firm", False)):
        sub = [row for row in rows if row["default_close"] == pick]
        out[name] = {"hands": len(sub),
                     "same_as_reference": int(sum(row["default"] == row["reference"]
                                                  for row in sub)),
                     "mean_regret": float(np.mean([row["regret"] for row in sub]))
                     if sub else None}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--deal-seed", type=int, default=20261206 + 100_000)
    ap.add_argument("--worlds", type=int, default=256)
    ap.add_argument("--factor", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    hands = make_french_advise_hands(args.hands, args.deal_seed)
    todo = [(rec, args.worlds, args.factor) for rec in hands]
    rows = pooled(_hand_row, todo, args.jobs, lambda row: (
        f"{row['id']}: default {row['default']}{'*' if row['default_close'] else ''}, "
        f"reference {row['reference']}, regret {row['regret']:.1f} ± {row['regret_se']:.1f}"))
    write_results(args, _summary(rows), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
