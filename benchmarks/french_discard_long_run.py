"""The French adviser's discard against a run many times as long, on held-out worlds.

``python benchmarks/french_discard_long_run.py --chiens 60 --out results/FILE.json``: for
chien ``i`` of ``random_deal(--seed + i)`` the seat with the most trumps takes the chien
(the deals of ``french_discard_regret.py``).  The adviser's discard is chosen as
``advise`` chooses it on each world (4 inner worlds for every merged legal discard, the
best 8 on 24 more) and as ``advise --chien`` does (8, then the best 12 on 64); the long
run values every merged discard on ``--screen`` inner worlds and the best ``--top`` on
``--long`` more.  All three choices are then valued on ``--held-out`` inner worlds that
chose none of them, by the same evaluator and value (the expected score a defender at
multiplier 1, the petit au bout in: the discard's objective), and a choice's regret is
the long run's value less its own there, paired over those worlds with its SE.

What this measures is the adviser's search: how much its few inner worlds cost against
many.  The evaluator's own error is not in it (a whole deal is beyond the exact solver:
``french_solver_scaling.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from runs import write_results

from tarock_solver.french.advice.adviser import MARGIN_SD
from tarock_solver.french.advice.discard import (
    DiscardSettings,
    choose_discard,
    discard_positions,
)
from tarock_solver.french.advice.value import contract_value
from tarock_solver.french.advice.worlds import STREAM_INNER, inner_defences
from tarock_solver.french.cards import CARD_IDS, TRUMP_MASK, cards_of
from tarock_solver.french.chien import merged_discards
from tarock_solver.french.deal import random_deal
from tarock_solver.french.estimate.model import FrenchEvaluator, load_french_evaluator

#: Streams of the long run's and the held-out inner worlds (the adviser's are
#: ``STREAM_INNER`` and ``STREAM_INNER + 100``).
STREAM_SCREEN = STREAM_INNER + 500
STREAM_LONG = STREAM_INNER + 600
STREAM_HELD_OUT = STREAM_INNER + 700
#: Rows a batch of the evaluator (bounds the memory of the screen).
BATCH_ROWS = 65536


def _per_world(model: FrenchEvaluator, full: int, discards: list[int], taker: int,
               defences: list) -> np.ndarray:
    """(discards, worlds): each discard's value a defender on each inner world."""
    out = np.zeros((len(discards), len(defences)))
    step = max(1, BATCH_ROWS // len(defences))
    for i in range(0, len(discards), step):
        part = discards[i:i + step]
        v = model.predict_start(discard_positions(full, part, taker, 0, defences),
                                points=False)
        out[i:i + len(part)] = contract_value(v.margin, v.pab, MARGIN_SD, 1, 1).reshape(
            len(part), len(defences))
    return out


def _chien_row(model: FrenchEvaluator, i: int, args: argparse.Namespace) -> dict:
    deal = random_deal(args.seed + i)
    taker = max(range(4), key=lambda s: ((deal.hands[s] & TRUMP_MASK).bit_count(), -s))
    full = deal.hands[taker] | deal.chien
    cands = merged_discards(full)
    choices = {
        "advise": choose_discard(model, full, taker, 0, args.seed, (i,), MARGIN_SD).discard,
        "advise_chien": choose_discard(
            model, full, taker, 0, args.seed, (i,), MARGIN_SD,
            DiscardSettings(screen_worlds=8, final_worlds=64, finalists=12)).discard}
    screen = _per_world(model, full, cands, taker,
                        inner_defences(full, taker, args.seed, STREAM_SCREEN, (i,), args.screen))
    top = [cands[k] for k in np.argsort(-screen.mean(axis=1), kind="stable")[:args.top]]
    long_values = _per_world(model, full, top, taker,
                             inner_defences(full, taker, args.seed, STREAM_LONG, (i,), args.long))
    choices["long_run"] = top[int(np.argmax(long_values.mean(axis=1)))]
    held = _per_world(model, full, [choices[k] for k in ("advise", "advise_chien", "long_run")],
                      taker, inner_defences(full, taker, args.seed, STREAM_HELD_OUT, (i,),
                                            args.held_out))
    row: dict = {"chien": i, "taker": taker + 1, "merged_discards": len(cands),
                 "discards": {k: " ".join(CARD_IDS[c] for c in cards_of(d))
                              for k, d in choices.items()},
                 "held_out_value": {k: float(held[j].mean()) for j, k in
                                    enumerate(("advise", "advise_chien", "long_run"))}}
    for j, k in enumerate(("advise", "advise_chien")):
        d = held[2] - held[j]
        row[f"regret_{k}"] = [float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))]
        row[f"same_{k}"] = choices[k] == choices["long_run"]
    return row


def _summary(rows: list[dict]) -> dict:
    out: dict = {"chiens": len(rows)}
    for k in ("advise", "advise_chien"):
        r = np.array([row[f"regret_{k}"][0] for row in rows])
        se = np.array([row[f"regret_{k}"][1] for row in rows])
        out[k] = {"same_as_long_run": int(sum(row[f"same_{k}"] for row in rows)),
                  "mean_regret": float(r.mean()),
                  # the chiens' regrets are independent: the SE of their mean
                  "mean_regret_se": float(np.sqrt((se ** 2).sum()) / len(r)),
                  "worst_regret": float(r.max()), "worst_chien": int(np.argmax(r)),
                  "regret_over_2se": int(sum(r > 2 * se))}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--chiens", type=int, default=60)
    ap.add_argument("--screen", type=int, default=64)
    ap.add_argument("--top", type=int, default=32)
    ap.add_argument("--long", type=int, default=1024)
    ap.add_argument("--held-out", type=int, default=2048)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    model = load_french_evaluator()
    rows = []
    t0 = time.perf_counter()
    for i in range(args.chiens):
        rows.append(_chien_row(model, i, args))
        r = rows[-1]
        print(f"[{time.perf_counter() - t0:.0f}s] chien {i}: {r['merged_discards']} discards, "
              f"regret {r['regret_advise'][0]:.2f} ± {r['regret_advise'][1]:.2f} (advise), "
              f"{r['regret_advise_chien'][0]:.2f} ± {r['regret_advise_chien'][1]:.2f} "
              "(--chien)", file=sys.stderr, flush=True)
    write_results(args, _summary(rows), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
