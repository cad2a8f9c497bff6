"""`tarock --game french bench --advise`: does the French adviser answer the same way for
any seed, with small error bars, in seconds?

Each shipped French hand (``french_advise_hands.jsonl``, made by
:func:`make_french_advise_hands`) is advised with the default settings for the seeds
1…``seeds``.  Per hand and seed: the recommended option, its runner-up, whether it was
a close call, the SE of the recommended contract's E[card points] (for a pass, the best
contract's) and the wall time.  The summary gives the share of hands with the same
recommendation on every seed (or the same close call every time), the share of runs with
SE ≤ 1 card point and the median wall time: the issue's bars.
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

from ..errors import FileFormatError
from ..french.cards import EXCUSE, OUDLER_MASK, TRUMP_MASK
from ..french.deal import random_deal
from ..french.notation import format_hand, parse_hand
from .advise import _stable, consistent, se_calibration
from .positions import find_shipped_file

__all__ = ["FRENCH_HANDS_FILE", "FRENCH_HANDS_SEED", "FrenchAdviseHand",
           "format_french_advise_report", "load_french_advise_hands",
           "make_french_advise_hands", "run_french_advise_bench"]

FRENCH_HANDS_FILE = "french_advise_hands.jsonl"
FRENCH_HANDS_SEED = 20261206
FRENCH_HANDS = 20
#: A hand enters the set with at least this many trumps (the Excuse counted), or one
#: fewer and two oudlers: the hands that think about bidding (a first set, any seat with
#: seven trumps or two oudlers, passed 19 times in 20 under double-dummy values, which
#: tests little of the recommendation).
MIN_TRUMPS = 8


@dataclass(frozen=True)
class FrenchAdviseHand:
    id: str
    hand: int
    seat: int  # 0..3


def make_french_advise_hands(count: int = FRENCH_HANDS, seed: int = FRENCH_HANDS_SEED
                             ) -> list[dict[str, Any]]:
    """The bench hands: of deal ``seed + i`` (:func:`~tarock_solver.french.deal.random_deal`)
    the hand of the seat with the most trumps (the Excuse counted; the first such seat),
    kept when it holds :data:`MIN_TRUMPS` of them, or one fewer and two oudlers."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count:
        deal = random_deal(seed + i)
        counts = [(h & (TRUMP_MASK | 1 << EXCUSE)).bit_count() for h in deal.hands]
        seat = counts.index(max(counts))
        hand = deal.hands[seat]
        trumps = counts[seat]
        oudlers = (hand & OUDLER_MASK).bit_count()
        if trumps >= MIN_TRUMPS or (trumps == MIN_TRUMPS - 1 and oudlers >= 2):
            out.append({"id": f"french-{len(out)}", "hand": format_hand(hand),
                        "seat": seat + 1,
                        "source": f"random_deal({seed + i}), seat {seat + 1}: {trumps} "
                                  f"trumps with the Excuse, {oudlers} "
                                  f"oudler{'s' if oudlers != 1 else ''}"})
        i += 1
    return out


def load_french_advise_hands(path: str | os.PathLike[str] | None = None,
                             count: int | None = None) -> list[FrenchAdviseHand]:
    p = find_shipped_file(FRENCH_HANDS_FILE, path, what="hands file")
    hands = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            seat = int(rec["seat"])
            if not 1 <= seat <= 4:
                raise ValueError(f"seat {seat} is not 1 to 4")
            hands.append(FrenchAdviseHand(str(rec["id"]), parse_hand(rec["hand"], players=4),
                                          seat - 1))
        except (ValueError, KeyError, TypeError) as exc:
            raise FileFormatError(f"{p}:{n}: not a French hand record ({exc}).", path=str(p),
                                  line=n) from None
    return hands[:count] if count is not None else hands


def _run_one(hand: FrenchAdviseHand, seed: int, worlds: int | None) -> dict[str, Any]:
    from ..french.advice import PASS, FrenchAdviceRequest, advise_french
    from ..french.rules import load_rules

    kwargs = {} if worlds is None else {"worlds": worlds}
    t0 = time.perf_counter()
    adv = advise_french(FrenchAdviceRequest(hand.hand, hand.seat, load_rules("fft"), seed=seed,
                                            **kwargs))
    seconds = time.perf_counter() - t0
    rec = adv.recommended
    contracts = [o for o in adv.options if o.option != PASS]
    se_of = rec if rec != PASS else max(contracts, key=lambda o: o.score.mean).option
    se = adv.option(se_of).points.se  # type: ignore[union-attr]
    return {"seed": seed, "seconds": seconds, "contract": rec, "runner_up": adv.runner_up,
            "close_call": adv.close, "tentative": False, "points_se": se, "points_se_of": se_of,
            "score": adv.option(rec).score.mean, "worlds": adv.request.worlds,
            "plain": {o.option: {"points": [o.points.mean, o.points.se] if o.points else None,
                                 "net": [o.score.mean, o.score.se]} for o in adv.options}}


def run_french_advise_bench(*, hands: int = FRENCH_HANDS, seeds: int = 5, first_seed: int = 1,
                            worlds: int | None = None, path: str | None = None,
                            status: Callable[[str], None] = lambda msg: None
                            ) -> dict[str, Any]:
    """Run the bench; the JSON-ready document."""
    from .machine import machine_info

    records = load_french_advise_hands(path, hands)
    out = []
    for k, h in enumerate(records):
        runs = []
        for seed in range(first_seed, first_seed + seeds):
            status(f"advise {k + 1}/{len(records)} {h.id} seed {seed}")
            runs.append(_run_one(h, seed, worlds))
        out.append({"id": h.id, "hand": format_hand(h.hand), "seat": h.seat + 1, "runs": runs,
                    "stable": _stable(runs), "consistent": consistent(runs)})
    every = [r for h in out for r in h["runs"]]
    ses = [r["points_se"] for r in every]
    for h in out:  # the calibration reads [mean, se] pairs of plain play
        for r in h["runs"]:
            r["plain"] = {c: v for c, v in r["plain"].items() if v["points"] is not None}
    return {
        "kind": "french-advise", "machine": machine_info(),
        "config": {"hands": len(records), "seeds": seeds, "first_seed": first_seed,
                   "worlds": worlds},
        "summary": {
            "stable_share": sum(h["stable"] for h in out) / len(out) if out else None,
            "consistent_share": sum(h["consistent"] for h in out) / len(out) if out else None,
            "se_at_most_1_share": (sum(1 for x in ses if math.isfinite(x) and x <= 1.0)
                                   / len(ses)) if ses else None,
            "max_points_se": max(ses) if ses else None,
            "median_seconds": statistics.median(r["seconds"] for r in every) if every else None,
            "max_seconds": max(r["seconds"] for r in every) if every else None,
            "se_calibration": {w: se_calibration(out, w) for w in ("points", "net")},
        },
        "hands": out,
    }


def format_french_advise_report(doc: dict[str, Any]) -> list[str]:
    """The text report of :func:`run_french_advise_bench`."""
    cfg, s, m = doc["config"], doc["summary"], doc["machine"]
    lines = [f"Machine: {m.get('cpu')}, {m.get('logical_cores')} cores",
             f"French adviser: {cfg['hands']} hands, seeds {cfg['first_seed']}-"
             f"{cfg['first_seed'] + cfg['seeds'] - 1}, "
             f"{'default' if cfg['worlds'] is None else cfg['worlds']} worlds", "",
             f"{'hand':>10} {'seat':>4}  {'recommendation per seed':<58} {'SE(points)':>24} "
             f"{'max s':>6}"]
    for h in doc["hands"]:
        runs = h["runs"]
        seq = " ".join(r["contract"] + ("*" if r["close_call"] else "") for r in runs)
        ses = "/".join(f"{r['points_se']:.2f}" for r in runs)
        lines.append(f"{h['id']:>10} {h['seat']:>4}  {seq:<58} {ses:>24} "
                     f"{max(r['seconds'] for r in runs):>6.1f}"
                     + ("" if h["stable"] else "  unstable"))

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    lines += ["(* close call; SE(points): SE of the recommended contract's E[card points], "
              "for a pass the best contract's)", "",
              f"Stable hands: {pct(s['stable_share'])}; runs with SE <= 1 card point: "
              f"{pct(s['se_at_most_1_share'])}; wall median {s['median_seconds']:.1f} s, max "
              f"{s['max_seconds']:.1f} s.",
              "Bars: >= 90% hands stable, SE <= 1 card point, wall median <= 10 s."]
    cal = s.get("se_calibration") or {}
    for what, label in (("points", "card points"), ("net", "scores")):
        c = cal.get(what)
        if c:
            lines.append(f"SE check ({label}): seed-to-seed variance over mean SE^2 "
                         f"{c['ratio']:.2f} (95% {c['low']:.2f}-{c['high']:.2f}), "
                         f"{100 * c['within_2se']:.0f}% of runs within 2 SE of the others.")
    return lines


def write_hands_file(path: Path) -> None:
    """Write the shipped hands file (what the test checks it holds)."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                            for r in make_french_advise_hands()), encoding="utf-8")
