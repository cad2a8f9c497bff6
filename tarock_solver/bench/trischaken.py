"""What a Trischaken search costs: full deals and endgames, each seat, one thread.

Behind ``tarock bench --trischaken``: :func:`run_trischaken_bench` solves the paranoid
value of every seat F, M, R of the first benchmark deals played as a Trischaken (F
leads), and again after the deals' first tricks are played by a seeded random policy
under the Trischaken rules (8-card endgames by default); each search gets an empty
table.  :func:`format_trischaken_report` prints the median and p90 seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..cards import bit, indices_of
from ..play import trick_winner, trischaken_moves
from ..rules import Rules
from ..solver import Budget, TrischakenSearch, trischaken_position
from .positions import PLAYOUT_SEED, load_bench_deals

__all__ = ["format_trischaken_report", "run_trischaken_bench", "trischaken_playout"]


def trischaken_playout(hands: tuple[int, int, int], tricks: int, rules: Rules,
                       rng: np.random.Generator) -> tuple[tuple[int, int, int], int]:
    """The hands and the leader after ``tricks`` tricks of uniformly random Trischaken
    play from F's lead."""
    h = list(hands)
    leader = 0
    for _ in range(tricks):
        cards: list[int] = []
        for off in range(3):
            s = (leader + off) % 3
            legal = indices_of(trischaken_moves(
                h[s], cards, must_beat=bool(rules.trischaken_must_beat),
                pagat_last=bool(rules.trischaken_pagat_last)))
            card = legal[int(rng.integers(len(legal)))]
            h[s] &= ~bit(card)
            cards.append(card)
        leader = trick_winner(cards, leader)
    return (h[0], h[1], h[2]), leader


def _summary(seconds: list[float]) -> dict[str, Any]:
    xs = np.array(seconds, dtype=float)
    if not len(xs):
        return {"solved": 0}
    return {"solved": len(xs), "median_s": float(np.median(xs)),
            "p90_s": float(np.percentile(xs, 90)), "max_s": float(xs.max())}


def run_trischaken_bench(rules: Rules, *, deals: int = 20, endgame_cards: int = 8,
                         node_limit: int = 2_000_000_000, tt_bits: int = 20,
                         step: Callable[[], None] | None = None) -> dict[str, Any]:
    """Time the paranoid search of each seat on ``deals`` full deals and on their
    ``endgame_cards``-card endgames; a JSON-ready dict."""
    records = load_bench_deals(None, deals)
    sections: dict[str, Any] = {}
    for name, cards in (("full_deals", 16), ("endgames", endgame_cards)):
        rows = []
        for i, record in enumerate(records):
            rng = np.random.default_rng(np.random.SeedSequence(PLAYOUT_SEED, spawn_key=(i,)))
            hands, leader = trischaken_playout(record.deal.hands, 16 - cards, rules, rng)
            for seat in range(3):
                search = TrischakenSearch(rules, tt_bits=tt_bits)
                pos = trischaken_position(hands, leader, seat, rules=rules)
                t0 = time.perf_counter()
                r = search.value(pos, Budget(nodes=node_limit))
                rows.append({"deal": record.id, "seat": "FMR"[seat], "cards": cards,
                             "lower": r.lower, "upper": r.upper, "nodes": r.nodes,
                             "tests": r.tests, "seconds": time.perf_counter() - t0})
                if step is not None:
                    step()
        sections[name] = {"rows": rows,
                          "summary": _summary([x["seconds"] for x in rows
                                               if x["lower"] == x["upper"]])}
    return {"rules": rules.name, "rule_options": rules.describe_overrides(), "deals": deals,
            "endgame_cards": endgame_cards, "node_limit": node_limit, "threads": 1,
            **sections}


def format_trischaken_report(doc: dict[str, Any]) -> list[str]:
    """The report's lines: per section, solves, median / p90 / max seconds, nodes."""
    lines = [f"Trischaken paranoid search, one thread, rules {doc['rules']}: "
             f"{doc['deals']} deals x 3 seats, an empty table per search"]
    for name, title in (("full_deals", "full deals (16 cards)"),
                        ("endgames", f"endgames ({doc['endgame_cards']} cards)")):
        sec = doc[name]
        s = sec["summary"]
        nodes = sum(r["nodes"] for r in sec["rows"])
        open_ = len(sec["rows"]) - s["solved"]
        if s["solved"]:
            lines.append(f"  {title}: {s['solved']} solved, median {s['median_s']:.3f} s, "
                         f"p90 {s['p90_s']:.3f} s, max {s['max_s']:.3f} s; "
                         f"{nodes:,} nodes" + (f"; {open_} over the node limit" if open_ else ""))
        else:
            lines.append(f"  {title}: none solved within the node limit")
    return lines
