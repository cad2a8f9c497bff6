"""How far are the adviser's nets of plain play from the game-point value (birds counted)?

``python benchmarks/bird_bias.py [--worlds 8] [--seed 1] [--budget 120] [--out F.json]
HAND_ID:CONTRACT …`` (one thread: ``NUMBA_NUM_THREADS=1``).

The adviser scores plain play from the card-point double-dummy value (the card-point
search, then the score sheet with no bird item).  The score sheet also writes the
silent birds (Pagat, Uhu, Kakadu won in their trick) and the play that maximises the
net can differ from the one that maximises card points.  For each hand of
``advise_hands.jsonl`` and contract, on the adviser's worlds 0 … N−1 (its world
stream and its exchange, chosen on the information set): the net from the card-point
value (what the adviser reports), the game-point solver's exact net of plain play
(:func:`~tarock_solver.solver.solve_game_points`, hands as dealt for the hand
bonuses), their difference (mean ± SE over the worlds), the worlds whose optimal line
scores a bird, and the seconds of both solves.  A world whose game-point solve runs
over ``--budget`` seconds is reported as unfinished (never given a value).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path

import numpy as np

from tarock_solver.advise.problem import make_problem
from tarock_solver.advise.schedule import Engine
from tarock_solver.advise.settings import AdviceRequest, AdviceSettings
from tarock_solver.bench.advise import load_advise_hands
from tarock_solver.solver import Budget, Position, default_search, solve_game_points


def measure(hand_id: str, contract: str, args: argparse.Namespace) -> dict:
    h = {x.id: x for x in load_advise_hands()}[hand_id]
    req = AdviceRequest(h.hand, h.seat, seed=args.seed, contracts=(contract,))
    rules = req.rule_profile()
    problem = make_problem(req, rules)
    eng = Engine(problem, AdviceSettings())
    for j in range(args.worlds):
        eng.evaluate_world(j)
    ser = eng.series[contract]
    search = default_search()
    worlds = []
    exact = []
    for j, task in enumerate(ser.tasks):
        t0 = time.perf_counter()
        search.clear()
        cp = int(search.value(Position(task.hands, 0, h.seat),
                              guess=int(round(ser.estimates[j]))).value)
        cp_s = time.perf_counter() - t0
        exact.append(cp)
        # the hand bonuses as the adviser's scorer sees them: defenders as dealt,
        # declarer after the exchange (the world's hands are the deal but for his)
        dealt = list(task.hands)
        dealt[h.seat] = task.dealt
        t0 = time.perf_counter()
        r = solve_game_points(task.hands, 0, h.seat, rules=rules, contract=contract,
                              discard_thirds=task.pile_thirds, valat_open=True,
                              declarer_hand=task.hands[h.seat], dealt=tuple(dealt),
                              budget=Budget(seconds=args.budget))
        gp_s = time.perf_counter() - t0
        worlds.append({"world": j, "card_points": cp, "cp_seconds": cp_s,
                       "game_points": int(r.value) if r.exact else None,
                       "bounds": None if r.exact else [int(r.lower), int(r.upper)],
                       "birds": r.detail.birds if r.exact and r.detail else None,
                       "gp_seconds": gp_s})
    ser.exact = exact
    nets = ser.values(0, "net", exact=True)
    for w, n in zip(worlds, nets, strict=True):
        w["net_from_card_points"] = float(n)
    done = [w for w in worlds if w["game_points"] is not None]
    diff = np.array([w["game_points"] - w["net_from_card_points"] for w in done])
    return {"hand": hand_id, "seat": "FMR"[h.seat], "contract": contract,
            "worlds": len(worlds), "finished": len(done),
            "mean_net_from_card_points": float(np.mean([w["net_from_card_points"]
                                                        for w in done])) if done else None,
            "mean_game_points": float(np.mean([w["game_points"] for w in done]))
            if done else None,
            "mean_difference": float(diff.mean()) if len(diff) else None,
            "difference_se": float(diff.std(ddof=1) / math.sqrt(len(diff)))
            if len(diff) > 1 else None,
            "worlds_with_a_bird": sum(1 for w in done if w["birds"]),
            "median_cp_seconds": float(np.median([w["cp_seconds"] for w in worlds])),
            "median_gp_seconds": float(np.median([w["gp_seconds"] for w in worlds])),
            "per_world": worlds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="+", help="HAND_ID:CONTRACT, e.g. demo:two")
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per game-point solve (over it: unfinished)")
    ap.add_argument("--out", help="JSON file of every number")
    args = ap.parse_args()
    results = []
    for case in args.cases:
        hand_id, _, contract = case.partition(":")
        r = measure(hand_id, contract, args)
        results.append(r)
        print(f"{hand_id:>9} {r['seat']} {contract:<6} net from card points "
              f"{r['mean_net_from_card_points']:7.1f}  game points {r['mean_game_points']:7.1f}"
              f"  difference {r['mean_difference']:+7.1f} ± {r['difference_se'] or 0:5.1f}  "
              f"birds on {r['worlds_with_a_bird']}/{r['finished']} worlds  median s cp "
              f"{r['median_cp_seconds']:.2f} gp {r['median_gp_seconds']:.2f}", flush=True)
    if args.out:
        doc = {"kind": "bird_bias", "worlds": args.worlds, "seed": args.seed,
               "threads": os.environ.get("NUMBA_NUM_THREADS"), "results": results}
        Path(args.out).write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
