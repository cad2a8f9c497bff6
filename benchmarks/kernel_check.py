"""Equality check of the solver kernels: values and node counts of a fixed set of searches.

A structural change of the kernels (or of the drivers around them) must leave every
value and every node count as it was.  This script runs a fixed, seeded set of
searches and writes one JSON record per answer; ``--compare OLD.json`` reports every
difference.

Card points: 1,200 positions (300 each at 11, 9, 7 and 5 tricks; 0-2 cards in the
current trick; a third with announced birds), each solved exactly on a fresh 2**12
table, a fresh 2**16 table and one 2**10 table shared by all of them, plus the
null-window tests at v and v + 1 on a fresh 2**12 table: 6,000 answers with their nodes.
Every tenth position also gets its per-card values.  Game points: 120 positions of 5-8
tricks with random contracts, announcements and contras on a fresh 2**12 table.

    python benchmarks/kernel_check.py --out /tmp/base.json
    python benchmarks/kernel_check.py --out /tmp/new.json --compare /tmp/base.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from tarock_solver.oracle import random_game_case, random_position
from tarock_solver.rules import load_rules
from tarock_solver.solver import (
    CardPointSearch,
    GamePointSearch,
    Position,
)

CARD_MIX = {11: 300, 9: 300, 7: 300, 5: 300}
GAME_MIX = {5: 40, 6: 40, 7: 30, 8: 10}
PROFILES = ("dummett", "beck", "ms2016", "loew")


def card_answers(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    shared = CardPointSearch(tt_bits=10)
    out = []
    i = 0
    for tricks, count in CARD_MIX.items():
        for _ in range(count):
            p = random_position(rng, tricks)
            pos = Position(p["hands"], p["leader"], p["declarer"], trick=p["trick"],
                           birds=p["birds"])
            rec: dict = {"i": i, "tricks": tricks}
            r = CardPointSearch(tt_bits=12).value(pos)
            v = r.value
            rec["v12"], rec["n12"] = v, r.nodes
            r = CardPointSearch(tt_bits=16).value(pos)
            rec["v16"], rec["n16"] = r.value, r.nodes
            r = shared.value(pos)
            rec["vsh"], rec["nsh"] = r.value, r.nodes
            fresh = CardPointSearch(tt_bits=12)
            for t in (v, v + 1):
                r = fresh.reaches(pos, t)
                rec[f"t{t - v}"], rec[f"nt{t - v}"] = r.at_least(t), r.nodes
            if i % 10 == 0:
                vals = CardPointSearch(tt_bits=12).card_values(pos)
                rec["cards"] = {str(c): r.value for c, r in sorted(vals.items())}
            out.append(rec)
            i += 1
    return out


def game_answers(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    rules_by_name = {name: load_rules(name) for name in PROFILES}
    out = []
    i = 0
    for tricks, count in GAME_MIX.items():
        for _ in range(count):
            rules, payoff, hands, leader, trick = random_game_case(rng, tricks, rules_by_name)
            search = GamePointSearch(payoff, rules=rules, tt_bits=12)
            res = search.solve(search.position(hands, leader, trick))
            out.append({"i": i, "tricks": tricks, "net": res.value, "nodes": res.nodes,
                        "tests": res.tests, "line": list(res.detail.line)})
            i += 1
    return out


def compare(new: dict, old: dict) -> int:
    bad = 0
    for part in ("cards", "games"):
        for a, b in zip(new[part], old[part], strict=True):
            if a != b:
                bad += 1
                if bad <= 10:
                    diff = {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
                    print(f"{part} #{a['i']}: {diff}")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare")
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    t0 = time.perf_counter()
    cards = card_answers(args.seed)
    t1 = time.perf_counter()
    games = game_answers(args.seed + 1)
    t2 = time.perf_counter()
    data = {"cards": cards, "games": games}
    with open(args.out, "w") as f:
        json.dump(data, f)
    card_nodes = sum(r["n12"] + r["n16"] + r["nsh"] + r["nt0"] + r["nt1"] for r in cards)
    game_nodes = sum(r["nodes"] for r in games)
    print(f"card points: {5 * len(cards):,} answers, {card_nodes:,} nodes, {t1 - t0:.1f} s")
    print(f"game points: {len(games):,} solves, {game_nodes:,} nodes, {t2 - t1:.1f} s")
    if args.compare:
        with open(args.compare) as f:
            old = json.load(f)
        bad = compare(data, old)
        print(f"{bad} differences against {args.compare}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
