"""The prior of the evaluator's bias on a pair's net difference (``cv.PAIR_BIAS_PRIOR``).

``--collect``: advise hands outside the bench set (``random_deals(--deal-seed)``, the same
selection as the bench's: at least 7 tarocks, seats in turn) at ``--time-limit`` for each
seed, and keep the recommended pair's difference split into the evaluator's part and the
exact correction (``recommendation.runner_up.split``).  ``--fit``: fit the prior to such
files by maximum likelihood, in units of a world's SD of the pair's residual (a run's
correction ``u = C / (se·√n)`` is the bias plus a normal error of variance ``1/n``): one
normal, and a scale mixture of two normals (the shipped form); and a bootstrap over hands
of the one-normal fit.

    python benchmarks/pair_bias_prior.py --collect --deal-seed 20261204 --hands 14 \\
        --seeds 1,2,3 --out A.json
    python benchmarks/pair_bias_prior.py --fit A.json B.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np


def _finite(x: object) -> object:
    """NaN (no SE yet) as null: JSON has no NaN."""
    return None if isinstance(x, float) and not math.isfinite(x) else x


def collect(deal_seed: int, hands: int, seeds: list[int], time_limit: float, out: Path) -> None:
    from tarock_solver.advise import AdviceLimit, AdviceRequest, advise
    from tarock_solver.bench.advise import make_advise_hands
    from tarock_solver.cards import seat_index
    from tarock_solver.notation import parse_hand
    from tarock_solver.rules import load_rules

    profile = load_rules("dummett", {})
    rows = []
    for h in make_advise_hands(hands, seed=deal_seed, birds=0)[1:]:  # the demo hand is the bench's
        for seed in seeds:
            adv = advise(AdviceRequest(hand=parse_hand(h["hand"]), seat=seat_index(h["seat"]),
                                       rules=profile, rules_name=profile.name,
                                       overrides=dict(profile.overrides),
                                       limit=AdviceLimit(time_limit, 1_000_000), seed=seed, jobs=2,
                                       deal_id=h["id"]))
            rec = adv.recommendation
            ru = rec.get("runner_up") or {}
            split = ru.get("split") or {}
            rows.append({"hand": h["hand"], "seat": h["seat"], "seed": seed,
                         "contract": rec["contract"], "runner_up": ru.get("contract"),
                         "close_call": bool(rec.get("close_call")),
                         **{k: _finite(split.get(k)) for k in ("evaluator", "correction",
                                                                "correction_se",
                                                                "exact_worlds")}})
            print(h["id"], seed, rec["contract"], ru.get("contract"), split.get("correction"),
                  split.get("correction_se"), file=sys.stderr, flush=True)
    out.write_text(json.dumps({"deal_seed": deal_seed, "seeds": seeds, "time_limit": time_limit,
                               "runs": rows}, indent=1) + "\n", encoding="utf-8")


def fit(paths: list[Path]) -> dict:
    runs = [r for p in paths for r in json.loads(p.read_text(encoding="utf-8"))["runs"]]
    ok = [r for r in runs if r.get("correction_se") and r["correction_se"] > 0
          and r.get("exact_worlds", 0) >= 8 and r.get("correction") is not None
          and math.isfinite(r["correction"])]
    c = np.array([r["correction"] for r in ok])
    n = np.array([r["exact_worlds"] for r in ok], dtype=float)
    u = c / (np.array([r["correction_se"] for r in ok]) * np.sqrt(n))
    v = 1.0 / n
    hands = np.array([r["hand"] for r in ok])
    grid = np.exp(np.linspace(math.log(1e-4), 0.0, 400))

    def loglik(prior, idx=slice(None)) -> float:
        dens = sum(share * np.exp(-0.5 * u[idx] ** 2 / (t2 + v[idx]))
                   / np.sqrt(2 * np.pi * (t2 + v[idx])) for share, t2 in prior)
        return float(np.log(dens).sum())

    def normal_fit(idx=slice(None)) -> float:
        return float(grid[int(np.argmax([loglik(((1.0, t),), idx) for t in grid]))])

    t2 = normal_fit()
    best = max(((loglik(((p, a), (1 - p, b))), p, a, b)
                for p, a, b in itertools.product(np.linspace(0.05, 0.95, 19), grid[::8], grid[::8])
                if b > a), key=lambda x: x[0])
    rng = np.random.default_rng(0)
    names = np.unique(hands)
    boot = []
    for _ in range(500):
        idx = np.concatenate([np.flatnonzero(hands == h) for h in rng.choice(names, len(names))])
        boot.append(1.0 / normal_fit(idx))
    return {"runs": len(ok), "hands": int(len(names)), "median_exact_worlds": float(np.median(n)),
            "normal": {"tau2": t2, "K": 1.0 / t2, "loglik": loglik(((1.0, t2),)),
                       "K_bootstrap_5_50_95": [float(x) for x in np.percentile(boot, [5, 50, 95])]},
            "mixture": {"components": [[round(best[1], 2), float(best[2])],
                                       [round(1 - best[1], 2), float(best[3])]],
                        "loglik": best[0]},
            "largest_z": [float(x) for x in np.sort(np.abs(u) * np.sqrt(n))[-5:]]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--deal-seed", type=int, default=20261204)
    ap.add_argument("--hands", type=int, default=14)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--fit", nargs="+", type=Path)
    args = ap.parse_args()
    if args.collect:
        collect(args.deal_seed, args.hands, [int(s) for s in args.seeds.split(",")],
                args.time_limit, args.out)
    if args.fit:
        print(json.dumps(fit(args.fit), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
