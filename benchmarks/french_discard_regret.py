"""The French adviser's discard against the exactly best of its finalists, deal by deal.

``python benchmarks/french_discard_regret.py --deals 30 --out results/FILE.json``: for
deal ``i`` of ``random_deal(--seed + i)`` the seat with the most trumps takes a Garde
and sees the chien; the adviser chooses its discard on that information (as
``tarock --game french advise --chien`` does: every merged legal discard, the finalists
over 64 inner worlds).  Then, on the dealt cards, the exact solver gives the margin of the
chosen discard and tests each other finalist against it (one null-window test; a
finalist that beats it is solved to its value).  The regret of a deal is the exactly
best finalist's margin less the chosen one's, in points: a hindsight regret (the best
discard for the cards as dealt, which the taker cannot see) among the finalists, not
among every legal discard, which no budget allows on whole deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from tarock_solver.french.advice.adviser import MARGIN_SD
from tarock_solver.french.advice.discard import DiscardSettings, choose_discard
from tarock_solver.french.analysis import start_position
from tarock_solver.french.cards import CARD_IDS, TRUMP_MASK, cards_of
from tarock_solver.french.deal import random_deal
from tarock_solver.french.estimate.model import load_french_evaluator, position_arrays
from tarock_solver.french.rules import Contract
from tarock_solver.french.solver import FrenchSearch, margin_table
from tarock_solver.solver import Budget


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--finalists", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    model = load_french_evaluator()
    search = FrenchSearch(tt_bits=22)
    table = margin_table()
    rows = []
    t0 = time.perf_counter()
    for i in range(args.deals):
        deal = random_deal(args.seed + i)
        taker = max(range(4), key=lambda s: ((deal.hands[s] & TRUMP_MASK).bit_count(), -s))
        full = deal.hands[taker] | deal.chien
        choice = choose_discard(model, full, taker, 0, args.seed, (i,), MARGIN_SD,
                                DiscardSettings(screen_worlds=8, final_worlds=64,
                                                finalists=12))
        cands = [d for d, _ in choice.finalists[:args.finalists]]

        def solve(discard: int, guess: int | None, at_least: int | None = None,
                  deal=deal, taker=taker):
            pos = start_position(deal, taker, Contract.GARDE, discard)
            search.clear()
            if at_least is not None:
                return search.outcome_value(pos, table, guess=at_least, max_tests=1,
                                            budget=Budget(seconds=args.seconds))
            if guess is None:
                guess = int(round(model.predict_lookahead(position_arrays([pos]))[1][0]))
            return search.outcome_value(pos, table, guess=guess,
                                        budget=Budget(seconds=args.seconds))

        chosen = solve(cands[0], None)
        rec = {"deal": i, "taker": taker + 1, "legal_merged": choice.candidates,
               "chosen": " ".join(CARD_IDS[c] for c in cards_of(cands[0])),
               "chosen_margin": [chosen.lower, chosen.upper], "others": []}
        if chosen.exact:
            for d in cands[1:]:
                test = solve(d, None, at_least=chosen.lower + 1)
                entry = {"discard": " ".join(CARD_IDS[c] for c in cards_of(d)),
                         "bounds": [test.lower, test.upper]}
                if test.lower > chosen.lower:  # it beats the chosen discard: by how much?
                    full_r = solve(d, test.lower)
                    entry["bounds"] = [full_r.lower, full_r.upper]
                rec["others"].append(entry)
            known = [o for o in rec["others"] if o["bounds"][0] == o["bounds"][1]
                     or o["bounds"][1] <= chosen.lower]
            rec["resolved"] = len(known) == len(rec["others"])
            best = max([chosen.lower] + [o["bounds"][0] for o in rec["others"]])
            rec["regret_points"] = (best - chosen.lower) / 2 if rec["resolved"] else None
            rec["regret_at_least"] = (best - chosen.lower) / 2
        rows.append(rec)
        print(f"[{time.perf_counter() - t0:.0f}s] deal {i}: chosen {rec['chosen_margin']}, "
              f"regret {rec.get('regret_points')}", file=sys.stderr, flush=True)
    done = [r["regret_points"] for r in rows if r.get("regret_points") is not None]
    doc = {"config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
           "deals": rows, "resolved": len(done),
           "mean_regret_points": float(np.mean(done)) if done else None,
           "worst_regret_points": float(np.max(done)) if done else None,
           "share_zero": float(np.mean([x == 0 for x in done])) if done else None,
           "seconds": time.perf_counter() - t0}
    args.out.write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
