"""How often the free exchange breaks a before-talon No Kings, and what that cost the rows.

``python benchmarks/no_cards_exchange.py [--hands 12] [--worlds 200] [--seed 1]
[--out F.json]``

Kingless hands from a deal stream of their own (the bidder's hand of deal i, seat
i % 3, kept when it holds no King and at least 6 tarocks).  On the adviser's worlds
(:class:`~tarock_solver.advise.schedule.Engine`, evaluator only) and for each talon
contract, per world: does a talon group without a King exist, does the contract's free
exchange take a King, and does the exchange of the plan that keeps the No Kings?  And
the evaluator's mean net of ``no_kings@before`` played with the free exchange (as every
option was played before the plan of its own; the announcement then breaks) against
the plan's own.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

#: The deal stream of the kingless hands.
NO_KINGS_DEALS = 20261208


def kingless_hands(count: int, seed: int) -> list[tuple[int, int]]:
    from tarock_solver.cards import KINGS_MASK, TAROCK_MASK
    from tarock_solver.deal import random_deals

    out, i = [], 0
    while len(out) < count:
        deal = random_deals(seed, 1, start=i)[0]
        seat = i % 3
        hand = deal.hands[seat]
        if not hand & KINGS_MASK and (hand & TAROCK_MASK).bit_count() >= 6:
            out.append((hand, seat))
        i += 1
    return out


def measure(hand: int, seat: int, worlds: int, seed: int) -> dict:
    from tarock_solver.advise.problem import make_problem
    from tarock_solver.advise.schedule import Engine
    from tarock_solver.advise.settings import AdviceRequest, AdviceSettings
    from tarock_solver.cards import KINGS_MASK
    from tarock_solver.notation import format_cards

    req = AdviceRequest(hand=hand, seat=seat, seed=seed, contracts=("three", "two", "one"))
    eng = Engine(make_problem(req, req.rule_profile()), AdviceSettings(stop_margin=None))
    for j in range(worlds):
        eng.evaluate_world(j)
    out: dict = {"hand": format_cards(hand), "seat": "FMR"[seat]}
    for contract in ("three", "two", "one"):
        key = f"{contract}/no_kings"
        if key not in eng.series:
            continue
        free, kept = eng.series[contract], eng.series[key]
        p = [pol.name for pol in kept.plan.policies].index("no_kings@before")
        s = kept.plan.annsets.index((("no_kings", "before"),))
        possible = broke = kept_broke = 0
        old, new = [], kept.smoothed(p, "net")
        for j in range(worlds):
            talon = eng._world(j).talon
            size = {"three": 3, "two": 2, "one": 1}[contract]
            groups = [talon[k:k + size] for k in range(0, 6, size)]
            possible += any(not sum(1 << c for c in g) & KINGS_MASK for g in groups)
            broke += bool(free.exchanges[j].hand_after & KINGS_MASK)
            kept_broke += bool(kept.exchanges[j].hand_after & KINGS_MASK)
            task = free.tasks[j]
            pts = int(round(free.estimates[j]))
            o = free.scorer.outcome(task, task.pile_thirds + 3 * pts,
                                    3 * pts == task.in_play_thirds, [s])
            old.append(float(o.net[s]))
        out[contract] = {
            "worlds": worlds, "kingless_group": possible / worlds,
            "free_exchange_takes_a_king": broke / worlds,
            "kept_plan_takes_a_king": kept_broke / worlds,
            "net_free_exchange": float(np.mean(old)), "net_kept_plan": float(np.mean(new)),
            "net_plain": float(np.mean(free.smoothed(0, "net")))}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = []
    for hand, seat in kingless_hands(args.hands, NO_KINGS_DEALS):
        r = measure(hand, seat, args.worlds, args.seed)
        rows.append(r)
        for c in ("three", "two", "one"):
            if c in r:
                m = r[c]
                print(f"{r['hand']:>50} {r['seat']} {c:5} kingless group "
                      f"{m['kingless_group']:4.0%}  free exchange takes a King "
                      f"{m['free_exchange_takes_a_king']:4.0%}  kept plan "
                      f"{m['kept_plan_takes_a_king']:4.0%}  no_kings@before net "
                      f"{m['net_free_exchange']:7.1f} → {m['net_kept_plan']:7.1f} (plain "
                      f"{m['net_plain']:7.1f})", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"config": vars(args), "hands": rows}, indent=1)
                                  + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
