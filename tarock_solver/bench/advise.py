"""`tarock bench --advise`: how fast and how precise the bidding adviser is.

It measures, on the demo hand plus the shipped advice hands
(``advise_hands.jsonl``):

* per hand, the wall time of a complete run with ``samples`` worlds per
  contract (no time limit), the worlds per second, the standard error of the
  expected net game points of the recommended option (when the advice is to
  pass, the best bid's: passing itself has no error), and where the solves
  went (positions, nodes, values left as bounds by the node budget);
* the SE reached on the demo hand in a ``time_limit`` run (default 60 s),
  with the worlds each contract got.

The hands file is made by :func:`make_advise_hands` (seeded, documented in
``data/advise_hands.md``); a test checks that the shipped copy is what the
function makes.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import KINGS_MASK, TAROCK_MASK
from ..deal import random_deals
from ..errors import FileFormatError
from ..notation import SEATS, format_cards, parse_hand, seat_index
from ..rules import Rules
from .positions import find_shipped_file

__all__ = [
    "ADVISE_HANDS_FILE",
    "AdviseHand",
    "HANDS_SEED",
    "MIN_TAROCKS",
    "find_advise_hands",
    "format_advise_report",
    "load_advise_hands",
    "make_advise_hands",
    "run_advise_bench",
]

ADVISE_HANDS_FILE = "advise_hands.jsonl"
#: Seed of the deal stream the shipped hands are taken from.
HANDS_SEED = 20261130
#: A hand enters the set when it holds at least this many tarocks: the hands on
#: which a player thinks about bidding (fewer tarocks are plain passes and cost
#: the adviser little, which would flatter the timings).
MIN_TAROCKS = 7


@dataclass(frozen=True)
class AdviseHand:
    """One benchmark hand: its 16 cards and the seat it is advised at."""

    id: str
    hand: int
    seat: int

    @property
    def text(self) -> str:
        return format_cards(self.hand)


def make_advise_hands(count: int = 20, seed: int = HANDS_SEED) -> list[dict[str, Any]]:
    """The benchmark hands: the demo hand, then ``count`` hands of seeded random deals.

    Deals 0, 1, 2, … of ``random_deals(seed, …)``; of deal i only the hand of
    seat i % 3 is looked at (so the seats take turns), and it is kept when it
    holds at least :data:`MIN_TAROCKS` tarocks.
    """
    from ..advise.inputs import DEMO_HAND, DEMO_SEAT

    out: list[dict[str, Any]] = [{
        "id": "demo", "hand": format_cards(parse_hand(DEMO_HAND)), "seat": DEMO_SEAT,
        "source": "the built-in demo hand (tarock advise without HAND)"}]
    i = 0
    while len(out) < count + 1:
        deal = random_deals(seed, 1, start=i)[0]
        seat = i % 3
        hand = deal.hands[seat]
        tarocks = (hand & TAROCK_MASK).bit_count()
        if tarocks >= MIN_TAROCKS:
            out.append({"id": f"advise-{len(out) - 1}", "hand": format_cards(hand),
                        "seat": SEATS[seat],
                        "source": f"random_deals({seed}) deal {i}, seat {SEATS[seat]}: "
                                  f"{tarocks} tarocks, {(hand & KINGS_MASK).bit_count()} Kings"})
        i += 1
    return out


def find_advise_hands(path: str | os.PathLike[str] | None = None) -> Path:
    """The hands file: ``path`` if given, else the packaged copy, else ``data/`` of a checkout."""
    return find_shipped_file(ADVISE_HANDS_FILE, path, what="hands file")


def load_advise_hands(path: str | os.PathLike[str] | None = None,
                      count: int | None = None) -> list[AdviseHand]:
    """The demo hand and the first ``count`` shipped hands (all by default)."""
    p = find_advise_hands(path)
    hands: list[AdviseHand] = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            hands.append(AdviseHand(str(rec["id"]), parse_hand(rec["hand"]),
                                    seat_index(rec.get("seat", "F"))))
        except (ValueError, KeyError, TypeError) as exc:
            raise FileFormatError(f"{p}:{n}: not a hand record ({exc}).", path=str(p),
                                  line=n) from None
    if count is not None:
        hands = hands[:count + 1]
    return hands


def _recommended_se(adv: Any) -> tuple[str, float, bool]:
    """(option label, SE of its E[net], is it the best bid behind a pass)."""
    rec = adv.recommendation
    if rec["contract"] == "pass" and rec.get("best_bid") is not None:
        return (f"pass (best bid {rec['best_bid']} {rec['best_bid_option']})",
                float(rec.get("best_bid_mean_net_se", math.nan)), True)
    label = rec["contract"] if rec["option"] == "plain" else f"{rec['contract']} {rec['option']}"
    return label, float(rec.get("mean_net_se", math.nan)), False


def _run_one(hand: AdviseHand, *, samples: int, time_limit: float | None, jobs: int,
             seed: int, rules: Rules, birds: bool = True) -> dict[str, Any]:
    from ..advise import AdviceRequest, advise

    t0 = time.perf_counter()
    adv = advise(AdviceRequest(hand=hand.hand, seat=hand.seat, rules=rules,
                               rules_name=rules.name, overrides=dict(rules.overrides),
                               samples=samples,
                               time_limit=time_limit, seed=seed, jobs=jobs, deal_id=hand.id,
                               birds=birds))
    seconds = time.perf_counter() - t0
    meta = adv.meta
    label, se, behind_pass = _recommended_se(adv)
    work = meta["work"]
    nodes = sum(w.get(ph, {}).get("nodes", 0) for w in work.values() for ph in ("race", "eval"))
    positions = sum(w.get(ph, {}).get("positions", 0) for w in work.values()
                    for ph in ("race", "eval"))
    return {
        "id": hand.id, "hand": hand.text, "seat": SEATS[hand.seat], "seconds": seconds,
        "worlds": meta["worlds"], "worlds_complete": meta["worlds_complete"],
        "worlds_per_second": meta["worlds_complete"] / seconds if seconds > 0 else None,
        "recommended": label, "se": se, "se_is_best_bid": behind_pass,
        "tentative": bool(adv.recommendation.get("tentative")),
        "positions": positions, "nodes": nodes,
        "bounded_evaluations": sum(w.get("bounded_evaluations", 0) for w in work.values()),
        "races_cut": sum(w.get("races_cut", 0) for w in work.values()),
        "bird_worlds": meta.get("bird_worlds", {}),
        "game_point_solves": meta.get("bird_solves", {}).get("game_point_solves", 0),
        "card_point_seconds": sum(w.get(ph, {}).get("seconds", 0.0) for w in work.values()
                                  for ph in ("race", "eval")),
        "game_point_seconds": meta.get("bird_solves", {}).get("seconds", 0.0),
    }


def run_advise_bench(*, hands: int = 20, samples: int = 10, time_limit: float | None = 60.0,
                     jobs: int = 1, seed: int = 1, rules: str = "dummett",
                     overrides: dict[str, str] | None = None, path: str | None = None,
                     birds: bool = True,
                     status: Callable[[str], None] = lambda msg: None) -> dict[str, Any]:
    """Run the adviser benchmark; the JSON-ready document.

    ``hands``: shipped hands after the demo hand; ``samples``: worlds per
    contract of the complete runs; ``time_limit``: seconds of the anytime run
    on the demo hand (None or 0: skipped).  ``birds``: judge bird announcements
    (the product's default; the slowest part).
    """
    from ..rules import load_rules
    from .machine import machine_info

    profile = load_rules(rules, overrides or {})
    records = load_advise_hands(path, hands)
    runs = []
    for k, h in enumerate(records):
        status(f"advise {k + 1}/{len(records)} {h.id}")
        runs.append(_run_one(h, samples=samples, time_limit=None, jobs=jobs, seed=seed,
                             rules=profile, birds=birds))
        r = runs[-1]
        status(f"  {h.id}: {r['seconds']:.1f} s (card points {r['card_point_seconds']:.1f} s, "
               f"birds {r['game_point_seconds']:.1f} s), SE {r['se']:.1f}, {r['recommended']}")
    timed = None
    if time_limit:
        status(f"advise demo, {time_limit:g} s")
        timed = _run_one(records[0], samples=1_000_000, time_limit=time_limit, jobs=jobs,
                         seed=seed, rules=profile, birds=birds)
    secs = [r["seconds"] for r in runs]
    ses = [r["se"] for r in runs if math.isfinite(r["se"])]
    return {
        "kind": "advise",
        "machine": machine_info(),
        "config": {"hands": len(records), "samples": samples, "jobs": jobs, "seed": seed,
                   "rules": rules, "time_limit": time_limit, "birds": birds},
        "summary": {
            "median_seconds": statistics.median(secs) if secs else None,
            "max_seconds": max(secs) if secs else None,
            "median_worlds_per_second": statistics.median(
                r["worlds_per_second"] for r in runs) if runs else None,
            "median_se": statistics.median(ses) if ses else None,
            "max_se": max(ses) if ses else None,
        },
        "hands": runs,
        "time_limited": timed,
    }


def _f(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def format_advise_report(doc: dict[str, Any]) -> list[str]:
    """The text report of :func:`run_advise_bench`."""
    cfg, s = doc["config"], doc["summary"]
    m = doc["machine"]
    lines = [f"Machine: {m.get('cpu')}, {m.get('logical_cores')} cores",
             f"Adviser: {cfg['hands']} hands (demo + shipped), {cfg['samples']} worlds per "
             f"contract, {cfg['jobs']} job(s), seed {cfg['seed']}, rules {cfg['rules']}", "",
             f"{'hand':>10} {'seat':>4} {'seconds':>8} {'cp s':>7} {'gp s':>7} "
             f"{'worlds/s':>8} {'M nodes':>8} {'bounded':>7} {'SE':>7}  recommended"]
    for r in doc["hands"]:
        lines.append(f"{r['id']:>10} {r['seat']:>4} {r['seconds']:>8.1f} "
                     f"{r['card_point_seconds']:>7.1f} {r['game_point_seconds']:>7.1f} "
                     f"{_f(r['worlds_per_second'], 3):>8} {r['nodes'] / 1e6:>8.1f} "
                     f"{r['bounded_evaluations']:>7} {_f(r['se']):>7}  {r['recommended']}")
    lines.append("(cp s / gp s: solver seconds in card-point solves / bird game-point solves, "
                 "summed over the workers)")
    lines += ["",
              f"Median per-hand wall time: {_f(s['median_seconds'])} s for {cfg['samples']} "
              f"worlds per contract (max {_f(s['max_seconds'])} s); median "
              f"{_f(s['median_worlds_per_second'], 3)} worlds/s; SE of E[game points] of the "
              f"recommended option: median {_f(s['median_se'])}, max {_f(s['max_se'])}.",
              "Issue bar: <= 10 s per hand for >= 100 worlds per contract with SE <= 1."]
    t = doc.get("time_limited")
    if t:
        worlds = ", ".join(f"{c} {n}" for c, n in t["worlds"].items())
        lines.append(f"Demo hand in {cfg['time_limit']:g} s: worlds {worlds}; recommended "
                     f"{t['recommended']}, SE {_f(t['se'])}"
                     + (" (tentative)" if t["tentative"] else "") + ".")
    return lines
