"""The French Tarot solver's benchmark: seeded full deals and 8-, 10- and 12-trick endgames.

Positions are reproducible from their seed: deal :func:`~tarock_solver.french.deal.
random_deal`, the taker is the seat with the strongest trumps (trumps, oudlers counted
thrice), he plays a Garde with the first discard of
:func:`~tarock_solver.french.analysis.discard_order`, and an endgame of ``k`` tricks is
reached by playing the first tricks with legal cards drawn by ``numpy``'s generator of
the same seed.  Each position is solved for the taker's card points from an empty
table, under a time cap: one thread (median, p90 of the solves that finished), then all
threads on the same positions (throughput).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import numpy as np

from ..french.analysis import discard_order, start_position
from ..french.cards import OUDLER_MASK, TRUMP_MASK, cards_of
from ..french.deal import random_deal
from ..french.rules import Contract
from ..french.solver import FrenchPosition, FrenchSearch
from ..solver import Budget
from .machine import machine_info
from .stats import timing_summary

__all__ = ["FrenchBenchConfig", "french_positions", "run_french_bench", "SIZES"]

#: Tricks left in the positions of each set (18: the whole deal).
SIZES = (18, 12, 10, 8)


@dataclass(frozen=True)
class FrenchBenchConfig:
    deals: int = 20
    endgames: int = 10
    seconds: float = 30.0
    threads: int = 2
    first_seed: int = 1
    tt_bits: int = 22


def _taker(hands: tuple[int, ...]) -> int:
    return max(range(4), key=lambda s: (bin(hands[s] & TRUMP_MASK).count("1")
                                        + 3 * bin(hands[s] & OUDLER_MASK).count("1"), -s))


def french_positions(seed: int, tricks: int) -> FrenchPosition:
    """The benchmark position of ``seed`` with ``tricks`` tricks left."""
    deal = random_deal(seed)
    taker = _taker(deal.hands)
    discard = discard_order(deal.hands[taker] | deal.chien)[0]
    pos = start_position(deal, taker, Contract.GARDE, discard)
    rng = np.random.default_rng(seed)
    for _ in range((18 - tricks) * 4):
        legal = cards_of(pos.legal())
        pos = pos.play(int(legal[rng.integers(len(legal))]))
    return pos


def _solve(pos: FrenchPosition, seconds: float, search: FrenchSearch) -> dict[str, Any]:
    search.clear()  # an empty table for every position: the same work in any order
    start = perf_counter()
    r = search.points(pos, budget=Budget(seconds=seconds))
    ms = (perf_counter() - start) * 1e3
    return {"ms": ms, "nodes": r.nodes, "over_budget": not r.exact, "lower": r.lower,
            "upper": r.upper, "tests": r.tests}


def censored_times(solves: list[dict[str, Any]]) -> dict[str, Any]:
    """Median and p90 over every position, those over the cap counted as longer than any
    (nearest rank; None when the quantile falls among them): unlike
    :func:`~.stats.timing_summary`, which times only the solves that finished, these
    are the quantiles of all the positions."""
    ms = sorted(float("inf") if r["over_budget"] else r["ms"] for r in solves)

    def rank(q: float) -> float | None:
        if not ms:
            return None
        v = ms[min(len(ms) - 1, max(0, int(np.ceil(q * len(ms))) - 1))]
        return None if v == float("inf") else v

    return {"median_ms": rank(0.5), "p90_ms": rank(0.9),
            "over_cap": sum(1 for r in solves if r["over_budget"])}


def run_french_bench(config: FrenchBenchConfig, progress: Any = None) -> dict[str, Any]:
    """The benchmark document (``tarock --game french bench --json``)."""
    sets = []
    warm = FrenchSearch(tt_bits=12)
    warm.points(french_positions(config.first_seed, 1))  # compile before timing
    # all threads: one table per thread, cleared for each position (as on one thread),
    # rather than a table allocated per position
    local = threading.local()

    def solve_here(p: FrenchPosition) -> dict[str, Any]:
        if not hasattr(local, "search"):
            local.search = FrenchSearch(tt_bits=min(config.tt_bits, 21))
        return _solve(p, config.seconds, local.search)

    search = FrenchSearch(tt_bits=config.tt_bits)
    for tricks in SIZES:
        count = config.deals if tricks == 18 else config.endgames
        seeds = list(range(config.first_seed, config.first_seed + count))
        positions = [french_positions(s, tricks) for s in seeds]
        single = []
        for seed, pos in zip(seeds, positions, strict=True):
            rec = _solve(pos, config.seconds, search)
            rec["seed"] = seed
            single.append(rec)
            if progress is not None:
                progress(tricks, seed, rec)
        start = perf_counter()
        with ThreadPoolExecutor(config.threads) as pool:
            threaded = list(pool.map(solve_here, positions))
        wall = perf_counter() - start
        agree = sum(1 for a, b in zip(single, threaded, strict=True)
                    if not a["over_budget"] and not b["over_budget"]
                    and a["lower"] == b["lower"])
        both = sum(1 for a, b in zip(single, threaded, strict=True)
                   if not a["over_budget"] and not b["over_budget"])
        sets.append({
            "tricks": tricks, "positions": count, "seconds_cap": config.seconds,
            "one_thread": timing_summary(single),
            "one_thread_all_positions": censored_times(single),
            "all_threads": {**timing_summary(threaded), "threads": config.threads,
                            "wall_s": wall,
                            "positions_per_s": count / wall if wall > 0 else None},
            "same_values": f"{agree}/{both}",
            "solves": single,
        })
    return {"schema": "tarock-bench-french/1", "game": "french", "config": config.__dict__,
            "machine": machine_info(), "sets": sets}


def format_french_bench(doc: dict[str, Any]) -> list[str]:
    """The benchmark as text lines."""
    cap = doc["config"]["seconds"]
    lines = [f"French Tarot solver, taker's card points, cap {cap:g} s a position", "",
             f"{'tricks':>6} {'positions':>9} {'solved':>6} {'median ms':>10} {'p90 ms':>10} "
             f"{'Mnodes/s':>8}   {'threads':>7} {'solved':>6} {'pos/s':>7}"]
    for s in doc["sets"]:
        one, all_ = s["one_thread"], s["all_threads"]
        cens = s.get("one_thread_all_positions") or censored_times(s["solves"])

        def ms(v: Any) -> str:
            return f"> {cap * 1e3:,.0f}" if v is None else f"{v:,.0f}"

        nps = one.get("nodes_per_s")
        lines.append(
            f"{s['tricks']:>6} {s['positions']:>9} {one['solved']:>6} "
            f"{ms(cens['median_ms']):>10} {ms(cens['p90_ms']):>10} "
            f"{(nps or 0) / 1e6:>8.1f}   {all_['threads']:>7} {all_['solved']:>6} "
            f"{all_['positions_per_s'] or 0:>7.2f}")
    lines.append("")
    lines.append("Median and p90 over every position, those over the cap counted as longer "
                 "(\"> cap\"); one thread, then all threads on the same positions.")
    return lines
