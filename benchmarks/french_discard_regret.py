"""The French adviser's discard against its finalists, on the dealt cards, exactly.

``python benchmarks/french_discard_regret.py --deals 30 --out results/FILE.json``: for
deal ``i`` of ``random_deal(--seed + i)`` the seat with the most trumps takes a Garde
and sees the chien; the adviser chooses its discard on that information (as
``tarock --game french advise --chien`` does: every merged legal discard, the finalists
over 64 inner worlds).  Then, on the cards as dealt, the exact solver answers for the
chosen discard and the next ``--finalists - 1`` finalists whether the Garde is made (one
null-window test at the target, ``--seconds`` each; whole-deal values are beyond it).
A deal's regret is 1 when the chosen discard fails where another finalist makes: a
hindsight regret (the best discard for the cards as dealt, which the taker cannot see)
among the finalists, not among every legal discard.  ``--part K/N`` takes every N-th
deal from the K-th, for running on several cores; ``--merge`` joins the parts' files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tarock_solver.french.advice.adviser import MARGIN_SD
from tarock_solver.french.advice.discard import DiscardSettings, choose_discard
from tarock_solver.french.analysis import start_position
from tarock_solver.french.cards import CARD_IDS, TRUMP_MASK, cards_of
from tarock_solver.french.deal import random_deal
from tarock_solver.french.estimate.model import load_french_evaluator
from tarock_solver.french.rules import Contract
from tarock_solver.french.solver import FrenchSearch, margin_table
from tarock_solver.solver import Budget


def _deal_row(i: int, seed: int, finalists: int, seconds: float, model, search) -> dict:
    deal = random_deal(seed + i)
    taker = max(range(4), key=lambda s: ((deal.hands[s] & TRUMP_MASK).bit_count(), -s))
    full = deal.hands[taker] | deal.chien
    choice = choose_discard(model, full, taker, 0, seed, (i,), MARGIN_SD,
                            DiscardSettings(screen_worlds=8, final_worlds=64, finalists=12))
    made = []
    for d, value in choice.finalists[:finalists]:
        pos = start_position(deal, taker, Contract.GARDE, d)
        search.clear()
        r = search.outcome_value(pos, margin_table(), guess=0, max_tests=1,
                                 budget=Budget(seconds=seconds))
        made.append({"discard": " ".join(CARD_IDS[c] for c in cards_of(d)),
                     "inner_value": value,
                     "made": 1 if r.lower >= 0 else 0 if r.upper < 0 else None,
                     "seconds": round(r.seconds, 2)})
    chosen = made[0]["made"]
    others = [m["made"] for m in made[1:]]
    regret = None
    if chosen == 1:
        regret = 0
    elif chosen == 0:
        regret = 1 if 1 in others else (0 if None not in others else None)
    return {"deal": i, "taker": taker + 1, "merged_discards": choice.candidates,
            "finalists": made, "regret": regret}


def _summary(rows: list[dict]) -> dict:
    known = [r["regret"] for r in rows if r["regret"] is not None]
    return {"deals": len(rows), "resolved": len(known),
            "chosen_made": sum(1 for r in rows if r["finalists"][0]["made"] == 1),
            "chosen_failed": sum(1 for r in rows if r["finalists"][0]["made"] == 0),
            "regret_deals": sum(known), "mean_regret": sum(known) / len(known) if known else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--finalists", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--part", default="0/1")
    ap.add_argument("--merge", type=Path, nargs="*", default=None)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    if args.merge:
        rows = sorted((r for p in args.merge for r in json.loads(p.read_text())["rows"]),
                      key=lambda r: r["deal"])
        cfg = json.loads(args.merge[0].read_text())["config"]
        args.out.write_text(json.dumps({"config": cfg, "summary": _summary(rows),
                                        "rows": rows}, indent=1))
        return 0
    k, n = (int(x) for x in args.part.split("/"))
    model = load_french_evaluator()
    search = FrenchSearch(tt_bits=21)
    rows = []
    t0 = time.perf_counter()
    for i in range(k, args.deals, n):
        rows.append(_deal_row(i, args.seed, args.finalists, args.seconds, model, search))
        print(f"[{time.perf_counter() - t0:.0f}s] deal {i}: "
              f"{[m['made'] for m in rows[-1]['finalists']]} regret {rows[-1]['regret']}",
              file=sys.stderr, flush=True)
    cfg = {key: str(v) if isinstance(v, Path) else v for key, v in vars(args).items()
           if key not in ("merge", "out", "part")}
    args.out.write_text(json.dumps({"config": cfg, "summary": _summary(rows), "rows": rows},
                                   indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
