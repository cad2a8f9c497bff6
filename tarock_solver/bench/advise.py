"""`tarock bench --advise`: does the bidding adviser answer, the same way for any seed?

On the demo hand plus the shipped advice hands (``advise_hands.jsonl``), each
hand is advised with ``--time-limit`` for each of the seeds 1…``seeds``; per
hand and seed the recommended contract and option, whether it was a close call
or tentative, the SE of the recommended contract's E[card points], the
evaluator's worlds, the exact worlds and the wall time.  Per hand: whether all
seeds recommend the same contract (or every run flags the same pair as a close
call), and whether the runs' answers admit one contract (:func:`consistent`).
The summary gives the share of stable hands, the share of runs with SE ≤ 1
card point and the largest wall time (the bars the bench checks); the share of hands
whose runs agree; and :func:`se_calibration`, whether the SEs match how far
the estimates move from seed to seed.

The hands file is made by :func:`make_advise_hands` (seeded, documented in
``data/advise_hands.md``); a test checks that the shipped file is what the
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
    "CALIBRATION_MIN_RUNS",
    "BIRD_HANDS",
    "BIRD_HANDS_SEED",
    "HANDS_SEED",
    "PLAIN_HANDS",
    "MIN_TAROCKS",
    "consistent",
    "find_advise_hands",
    "format_advise_report",
    "load_advise_hands",
    "make_advise_hands",
    "run_advise_bench",
    "se_calibration",
]

ADVISE_HANDS_FILE = "advise_hands.jsonl"
#: Seed of the deal stream the shipped hands are taken from.
HANDS_SEED = 20261130
#: Seed of the deal stream of the shipped hands that hold a bird (after the others).
BIRD_HANDS_SEED = 20261206
#: Shipped hands of each kind: plain (any holding) and with a bird (I, II or III).
PLAIN_HANDS = 20
BIRD_HANDS = 20
_BIRDS_MASK = 0b111  # T1, T2, T3
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


def make_advise_hands(count: int = PLAIN_HANDS, seed: int = HANDS_SEED, *,
                      birds: int = BIRD_HANDS, bird_seed: int = BIRD_HANDS_SEED
                      ) -> list[dict[str, Any]]:
    """The benchmark hands: the demo hand, ``count`` hands of seeded random deals, then
    ``birds`` hands that hold a bird.

    Deals 0, 1, 2, … of ``random_deals(seed, …)``; of deal i only the hand of
    seat i % 3 is looked at (so the seats take turns), and it is kept when it
    holds at least :data:`MIN_TAROCKS` tarocks.  The bird hands are drawn the same
    way from ``random_deals(bird_seed, …)``, kept when they also hold the Pagat, the
    Uhu or the Kakadu (the hands whose nets the silent birds and bird announcements
    move).
    """
    from ..advise.inputs import DEMO_HAND, DEMO_SEAT

    out: list[dict[str, Any]] = [{
        "id": "demo", "hand": format_cards(parse_hand(DEMO_HAND)), "seat": DEMO_SEAT,
        "source": "the built-in demo hand (tarock advise without HAND)"}]
    out += _seeded_hands(count, seed, "advise", need_bird=False)
    out += _seeded_hands(birds, bird_seed, "bird", need_bird=True)
    return out


def _seeded_hands(count: int, seed: int, prefix: str, *, need_bird: bool
                  ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count:
        deal = random_deals(seed, 1, start=i)[0]
        seat = i % 3
        hand = deal.hands[seat]
        tarocks = (hand & TAROCK_MASK).bit_count()
        if tarocks >= MIN_TAROCKS and (hand & _BIRDS_MASK or not need_bird):
            held = [name for b, name in enumerate(("Pagat", "Uhu", "Kakadu")) if hand >> b & 1]
            birds = f", {'/'.join(held)}" if need_bird else ""
            out.append({"id": f"{prefix}-{len(out)}", "hand": format_cards(hand),
                        "seat": SEATS[seat],
                        "source": f"random_deals({seed}) deal {i}, seat {SEATS[seat]}: "
                                  f"{tarocks} tarocks, {(hand & KINGS_MASK).bit_count()} "
                                  f"Kings{birds}"})
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


def _run_one(hand: AdviseHand, *, time_limit: float, jobs: int, seed: int, rules: Rules,
             opponents: str = "policy") -> dict[str, Any]:
    from ..advise import AdviceLimit, AdviceRequest, advise

    t0 = time.perf_counter()
    adv = advise(AdviceRequest(hand=hand.hand, seat=hand.seat, rules=rules,
                               rules_name=rules.name, overrides=dict(rules.overrides),
                               limit=AdviceLimit(time_limit, 1_000_000), seed=seed, jobs=jobs,
                               deal_id=hand.id, opponents=opponents))
    seconds = time.perf_counter() - t0
    rec, meta = adv.recommendation, adv.meta
    contract = rec.contract
    ru = rec.runner_up
    runner = ru.contract if ru is not None else None
    # A pass rests on the best bid being worse than passing: its card points' SE is the
    # one that matters (the runner-up's).
    se_of = runner if contract == "pass" else contract
    plain = {r.contract: r for r in adv.rows if r.kind == "plain"}
    pts_se = plain[se_of].points.se if se_of in plain else math.nan
    senior = rec.if_senior_three
    # every contract's plain play, for the seed-to-seed check of the SEs
    by_contract = {c: {"points": _estimate(r.points), "net": _estimate(r.net)}
                   for c, r in plain.items()}
    passing = adv.passing
    if passing is not None:  # what passing is worth (the others bid)
        by_contract["pass"] = {"net": _estimate(passing.net),
                               "outcomes": [{k: o[k] for k in ("declarer", "contract", "share",
                                                               "mean_net")}
                                            for o in passing.outcomes or []]}
    return {"seed": seed, "seconds": seconds, "contract": contract, "option": rec.option,
            "runner_up": runner, "close_call": bool(rec.close_call),
            "settled": bool(rec.settled),
            "tentative": bool(rec.tentative), "points_se": pts_se,
            "points_se_of": se_of,
            "if_senior_three": senior.contract if senior is not None else None,
            "mean_net": rec.mean_net, "mean_net_se": rec.mean_net_se,
            "worlds": meta.worlds, "exact_worlds": meta.exact_worlds,
            "exact_solves": meta.exact_solves, "exact_unfinished": meta.exact_unfinished,
            "bird_worlds": meta.bird_worlds, "birds_counted": bool(rec.birds_counted),
            "stopped_firm": bool(meta.stopped_firm), "waiting_for": meta.waiting_for,
            "firm": meta.waiting_for is None, "plain": by_contract}


def _estimate(e: Any) -> list[float | None]:
    """``[mean, se]`` of an estimate (None for a missing SE or an undefined mean)."""
    mean = float(e.mean) if math.isfinite(e.mean) else None
    return [mean, float(e.se) if e.has_se and math.isfinite(e.se) else None]


#: Fewest runs with an SE behind one hand × contract group of :func:`se_calibration`.
CALIBRATION_MIN_RUNS = 3


def se_calibration(hands: list[dict[str, Any]], what: str) -> dict[str, Any] | None:
    """Do the SEs describe how much an estimate moves from seed to seed?

    Each seed's run draws its own worlds, so over the seeds of one hand the estimates of
    one contract (plain play; ``what`` is ``points`` or ``net``) scatter with the
    estimator's variance, which each run's SE² claims to be.  Per hand × contract with
    :data:`CALIBRATION_MIN_RUNS` runs that have an SE (contracts with the same numbers on
    every run, Three and Lower, counted once): the sample variance of the means over
    their mean SE², pooled with weights ``runs - 1`` (so that no group counts more for
    having larger SEs); 1 for honest SEs, above 1 for SEs too small.  The interval is the
    chi-square one of that many degrees of freedom (Wilson-Hilferty), approximate: the
    estimates are not exactly normal and the SEs are themselves estimated.
    ``within_2se``: the share of runs whose estimate lies within two SEs of the mean of
    the group's other runs (the SE of that mean included)."""
    seen: set[tuple] = set()
    num = 0.0
    df = groups = runs = inside = 0
    for h in hands:
        contracts = {c for r in h["runs"] for c in r.get("plain", {})}
        for c in sorted(contracts):
            pairs = [r["plain"][c][what] for r in h["runs"]
             if what in r.get("plain", {}).get(c, {})]
            pairs = [(m, se) for m, se in pairs if m is not None and se is not None]
            key = (h.get("id"), tuple(pairs))
            if len(pairs) < CALIBRATION_MIN_RUNS or key in seen:
                continue
            seen.add(key)
            means = [m for m, _ in pairs]
            k = len(pairs) - 1
            mean_var = statistics.fmean(se * se for _, se in pairs)
            if mean_var <= 0:
                continue
            num += k * statistics.variance(means) / mean_var
            df += k
            groups += 1
            for i, (m, se) in enumerate(pairs):
                others = pairs[:i] + pairs[i + 1:]
                centre = statistics.fmean(x for x, _ in others)
                spread = se * se + statistics.fmean(y * y for _, y in others) / len(others)
                inside += abs(m - centre) <= 2 * math.sqrt(spread)
                runs += 1
    if not groups:
        return None
    ratio = num / df

    def chi2(p: float) -> float:
        z = statistics.NormalDist().inv_cdf(p)
        return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3

    return {"ratio": ratio, "low": ratio * df / chi2(0.975), "high": ratio * df / chi2(0.025),
            "groups": groups, "df": df, "within_2se": inside / runs, "runs": runs}


def _stable(runs: list[dict[str, Any]], *, option: bool = False) -> bool:
    """Same contract for every seed (``option``: and the same announcements), or every run
    a close call between the same pair."""
    if len({(r["contract"], r.get("option") if option else None) for r in runs}) == 1:
        return True
    pairs = {frozenset((r["contract"], r["runner_up"])) for r in runs}
    return all(r["close_call"] for r in runs) and len(pairs) == 1


def consistent(runs: list[dict[str, Any]]) -> bool:
    """Do the runs' answers admit one contract?  A firm run (neither close call nor
    tentative) claims its contract; a close call, that the best is one of its pair; a
    tentative run claims nothing.  The runs agree when some contract is in every claim.

    Weaker than :func:`_stable`, which the stability bar counts: a hand whose true margin is
    1–2.5 SE is flagged on some seeds and named firmly on others (unstable), but a run
    that names the other side as a close call does not contradict the firm ones."""
    claims = [{r["contract"]} if not r["close_call"] else {r["contract"], r["runner_up"]}
              for r in runs if not r["tentative"]]
    return not claims or bool(set.intersection(*claims))


def run_advise_bench(*, hands: int = PLAIN_HANDS + BIRD_HANDS, seeds: int = 5,
                     first_seed: int = 1, time_limit: float = 30.0,
                     jobs: int = 2, rules: str = "dummett",
                     overrides: dict[str, str] | None = None, path: str | None = None,
                     opponents: str = "policy",
                     status: Callable[[str], None] = lambda msg: None) -> dict[str, Any]:
    """Run the adviser benchmark; the JSON-ready document.

    ``hands``: shipped hands after the demo hand; each is advised with
    ``time_limit`` seconds for ``seeds`` seeds from ``first_seed`` on (a bench can be run
    in parts) on ``jobs`` solver threads; ``opponents`` as ``tarock advise`` takes it.
    """
    from ..rules import load_rules
    from .machine import machine_info

    profile = load_rules(rules, overrides or {})
    records = load_advise_hands(path, hands)
    out = []
    for k, h in enumerate(records):
        runs = []
        for seed in range(first_seed, first_seed + seeds):
            status(f"advise {k + 1}/{len(records)} {h.id} seed {seed}")
            runs.append(_run_one(h, time_limit=time_limit, jobs=jobs, seed=seed, rules=profile,
                                 opponents=opponents))
        out.append({"id": h.id, "hand": h.text, "seat": SEATS[h.seat], "runs": runs,
                    "stable": _stable(runs), "stable_option": _stable(runs, option=True),
                    "consistent": consistent(runs)})
        r = runs[-1]
        status(f"  {h.id}: " + " ".join(x["contract"] for x in runs)
               + (" (stable)" if out[-1]["stable"] else "") + f"; last SE {r['points_se']:.2f}")
    every = [r for h in out for r in h["runs"]]
    ses = [r["points_se"] for r in every]
    return {
        "kind": "advise",
        "machine": machine_info(),
        "config": {"hands": len(records), "seeds": seeds, "first_seed": first_seed,
                   "jobs": jobs, "rules": rules,
                   "time_limit": time_limit, "opponents": opponents},
        "summary": {
            "stable_share": sum(h["stable"] for h in out) / len(out) if out else None,
            "stable_option_share": (sum(h.get("stable_option", h["stable"]) for h in out)
                                    / len(out)) if out else None,
            "firm_share": (sum(1 for r in every if r.get("firm")) / len(every))
            if every else None,
            "consistent_share": sum(h["consistent"] for h in out) / len(out) if out else None,
            "se_at_most_1_share": (sum(1 for x in ses if math.isfinite(x) and x <= 1.0)
                                   / len(ses)) if ses else None,
            "median_points_se": statistics.median([x for x in ses if math.isfinite(x)])
            if any(math.isfinite(x) for x in ses) else None,
            "max_seconds": max(r["seconds"] for r in every) if every else None,
            "median_seconds": statistics.median(r["seconds"] for r in every) if every else None,
            "median_worlds": statistics.median(r["worlds"] for r in every) if every else None,
            "median_exact_solves": statistics.median(r["exact_solves"] for r in every)
            if every else None,
            "se_calibration": {what: se_calibration(out, what) for what in ("points", "net")},
        },
        "hands": out,
    }


def _f(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


def format_advise_report(doc: dict[str, Any]) -> list[str]:
    """The text report of :func:`run_advise_bench`."""
    cfg, s = doc["config"], doc["summary"]
    m = doc["machine"]
    lines = [f"Machine: {m.get('cpu')}, {m.get('logical_cores')} cores",
             f"Adviser: {cfg['hands']} hands (demo + shipped), seeds "
             f"{cfg.get('first_seed', 1)}-{cfg.get('first_seed', 1) + cfg['seeds'] - 1}, "
             f"--time-limit {cfg['time_limit']:g}, {cfg['jobs']} solver thread(s), rules "
             f"{cfg['rules']}", "",
             f"{'hand':>10} {'seat':>4}  {'contract per seed':<40} {'SE(points)':>16} "
             f"{'worlds':>12} {'exact':>10} {'max s':>6}"]
    for h in doc["hands"]:
        runs = h["runs"]
        seq = " ".join(r["contract"] + (f"+{r['option']}" if r.get("option") not in
                                        (None, "plain") else "")
                       + ("*" if r["close_call"] else "")
                       + ("!" if r.get("settled") else "")
                       + ("?" if r["tentative"] else "")
                       + ("~" if not r.get("firm", True) else "") for r in runs)
        ses = "/".join(_f(r["points_se"], 1) for r in runs)
        worlds = "/".join(str(r["worlds"]) for r in runs)
        exact = "/".join(str(r["exact_solves"]) for r in runs)
        lines.append(f"{h['id']:>10} {h['seat']:>4}  {seq:<40} {ses:>16} {worlds:>12} "
                     f"{exact:>10} {max(r['seconds'] for r in runs):>6.1f}"
                     + ("" if h["stable"] else "  unstable")
                     + ("" if h.get("consistent", True) else " (contradicting)")
                     + (" | over a senior's Three: " + " ".join(
                         str(r.get("if_senior_three")) for r in runs)
                        if any(r.get("if_senior_three") for r in runs) else ""))
    lines += ["(* close call, ! settled against the sign of its unbiased difference, "
              "? tentative, ~ not firm at the cap; SE(points): SE of the recommended "
              "contract's "
              "E[card points], for a pass the best bid's; exact: exact solves of the run)", "",
              f"Stable hands: {_pct(s['stable_share'])}; runs with SE <= 1 card "
              f"point: {_pct(s['se_at_most_1_share'])} (median SE "
              f"{_f(s['median_points_se'], 2)}); wall median {_f(s['median_seconds'])} s, max "
              f"{_f(s['max_seconds'])} s; median {_f(s['median_worlds'], 0)} worlds and "
              f"{_f(s['median_exact_solves'], 0)} exact solves a run.",
              f"Hands whose runs agree on a contract (a close call claiming either of its "
              f"pair, a tentative run nothing): {_pct(s.get('consistent_share'))}.",
              f"Same contract and announcements on every seed: "
              f"{_pct(s.get('stable_option_share'))}; runs firm (a lead of 2 SE, or a close "
              f"call with SE(net) <= 2 and SE(points) <= 1 for both options): "
              f"{_pct(s.get('firm_share'))}.",
              "Bars: >= 90% hands stable (contract and announcements), every run firm, "
              "wall median <= 8 s and max <= the cap (--time-limit)."]
    cal = s.get("se_calibration") or {}
    parts = [f"{label} {c['ratio']:.2f} (95% {c['low']:.2f}-{c['high']:.2f}; {c['groups']} "
             f"groups, df {c['df']}), {100 * c['within_2se']:.0f}% of runs within 2 SE of "
             f"the other seeds" for what, label in (("points", "card points"), ("net", "nets"))
             if (c := cal.get(what))]
    if parts:
        lines.append("SE check, seed-to-seed variance of plain play's estimates over their mean "
                     "SE^2 (1 = honest SEs): " + "; ".join(parts) + ".")
    return lines
