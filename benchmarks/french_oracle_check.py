"""The French Tarot solver against its brute-force reference on random small positions.

Both objectives (the taker's card points; a random outcome table, which stands for any
score) and both Excuse rules, on positions of 1 to 4 tricks with the Excuse and the
Petit often in play, tricks in progress and every Excuse settlement state.  Writes the
counts and any mismatch to a JSON file::

    python benchmarks/french_oracle_check.py --positions 10000 --seed 1 \
        --json benchmarks/results/2026-12-06-french-oracle-check.json
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from tarock_solver.french.cards import CARD_IDS, EXCUSE, N_CARDS, OUDLERS, PETIT, cards_of, mask_of
from tarock_solver.french.oracle import oracle_outcome_value, oracle_points
from tarock_solver.french.play import EXCUSE_LAST, PlayState, legal_cards
from tarock_solver.french.solver import FrenchPosition, FrenchSearch


def random_position(rng: random.Random) -> FrenchPosition:
    """A random position of 1 to 4 tricks with a consistent history."""
    k = rng.choice([1, 2, 3, 4])
    cards = rng.sample(range(N_CARDS), 4 * k)
    if rng.random() < 0.5 and EXCUSE not in cards:
        cards[0] = EXCUSE
    if rng.random() < 0.5 and PETIT not in cards:
        cards[1] = PETIT
    hands = [mask_of(cards[i * k:(i + 1) * k]) for i in range(4)]
    leader, taker = rng.randrange(4), rng.randrange(4)
    tk, df = rng.random() < 0.7, rng.random() < 0.7
    owed = rng.choice([0, 1]) if not tk else (rng.choice([0, 2]) if not df else 0)
    in_play = sum(1 for c in cards if c in OUDLERS)
    state = PlayState(rng.randrange(0, 60), rng.randrange(0, 4 - in_play), tk, df, owed)
    trick: list[int] = []
    for j in range(rng.randrange(0, 4) if k > 1 else 0):
        seat = (leader + j) % 4
        card = rng.choice(cards_of(legal_cards(hands[seat], trick)))
        hands[seat] ^= 1 << card
        trick.append(card)
    return FrenchPosition(tuple(hands), leader, taker, tuple(trick), state)  # type: ignore[arg-type]


def check(positions: int, seed: int) -> dict:
    rng = random.Random(seed)
    searches = {rule: FrenchSearch(tt_bits=14, excuse_last=rule) for rule in EXCUSE_LAST}
    counts = {"positions": 0, "points_checked": 0, "outcome_checked": 0, "mismatches": 0}
    by_tricks = {k: 0 for k in range(1, 5)}
    bad = []
    start = time.perf_counter()
    for n in range(positions):
        pos = random_position(rng)
        rule = EXCUSE_LAST[n % 2]
        search = searches[rule]
        table = np.random.default_rng([seed, n]).integers(-50, 50, size=(183, 4, 3, 3))
        args = (list(pos.hands), pos.leader, pos.taker)
        want_points = oracle_points(*args, pos.trick, pos.state, excuse_last=rule)
        want_value = oracle_outcome_value(*args, table, pos.trick, pos.state, excuse_last=rule)
        got_points = search.points(pos).value
        got_value = search.outcome_value(pos, table).value
        counts["positions"] += 1
        counts["points_checked"] += 1
        counts["outcome_checked"] += 1
        by_tricks[pos.tricks_left] += 1
        if (want_points, want_value) != (got_points, got_value):
            counts["mismatches"] += 1
            bad.append({"hands": [[CARD_IDS[c] for c in cards_of(h)] for h in pos.hands],
                        "leader": pos.leader, "taker": pos.taker,
                        "trick": [CARD_IDS[c] for c in pos.trick], "rule": rule,
                        "oracle": [want_points, want_value], "solver": [got_points, got_value]})
    return {**counts, "by_tricks": by_tricks, "seed": seed,
            "seconds": round(time.perf_counter() - start, 1), "examples": bad[:10]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    doc = check(args.positions, args.seed)
    text = json.dumps(doc, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
