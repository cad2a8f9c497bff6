"""What the adviser's talon exchange costs against the exactly best exchange.

``python benchmarks/exchange_regret.py [--talons 54] [--seed 1] [--inner-exact 16]
[--candidates 8] [--out FILE.json] [--shard I/N] [--resume]`` (one thread:
``NUMBA_NUM_THREADS=1``); ``--shard I/N`` runs the talons ``t % N == I`` (one
process per shard, each its own ``--out``), ``--resume`` keeps the talons an
``--out`` file of the same configuration already has, and ``--merge A.json B.json
… --out ALL.json`` joins shard files into one summary.

**Situations.**  Talon *t* belongs to hand ``t % H`` of ``advise_hands.jsonl`` (the
demo and the shipped hands, H = 21) at its seat, in round ``r = t // H``; its talon
is that of world ``world_at(knowledge, seed, 0, r)`` of what the hand's player
knows.  The contract is Three, Two, One in turn, ``(t + r) % 3``, so each hand meets
every contract over the rounds.  Dummett rules; forehand leads trick 1.

**The evaluator's choice** is :func:`~tarock_solver.advise.infoset.choose_exchange`
exactly as the adviser calls it: 64 inner worlds of stream ``STREAM_INNER`` index
``(r,)``, screen 8, keep 8, the rules' discard mode.

**Exact values.**  Candidates are the ``--candidates`` exchanges with the best
evaluator mean over all 64 inner worlds (every legal exchange valued, equivalent
discards merged), plus the chosen one if it is not among them.  Each candidate is
solved exactly (double dummy, the process-wide card-point search, the evaluator's
value as MTD(f)'s first guess) on ``--inner-exact`` fresh inner worlds of stream 7
index ``(t,)``, common to all candidates.  Its exact value is the mean of
pile + future card points; its game points the mean net of plain play (no
announcements) by the scoring calculator.

**Regret** = best candidate's exact mean − the chosen one's, in card points and
(with the candidate best in game points, separately) in game points.  Since the
best of several noisy means is biased up, a cross-fitted regret is also given:
pick the best on the even exact worlds, measure it against the choice on the odd
ones, and vice versa (unbiased for that rule, so a lower bound in expectation).
Per talon the record also has the rank of the exact best in the evaluator's order
(1 = its top exchange), the number of legal exchanges, the solves and the wall
time.  The JSON (per-talon records and the summary) is rewritten after every talon.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from tarock_solver.advise.evaluate import PlayTask, Scorer
from tarock_solver.advise.infoset import (
    _values,
    choose_exchange,
    evaluate_positions,
    inner_hands,
)
from tarock_solver.advise.rulesview import RulesView
from tarock_solver.advise.sampling import STREAM_INNER, knowledge_from_hand, world_at
from tarock_solver.advise.settings import AdviceSettings
from tarock_solver.bench.advise import load_advise_hands
from tarock_solver.cards import CARD_IDS
from tarock_solver.rules import load_rules
from tarock_solver.solver import Position, default_search
from tarock_solver.talon import exchanges

CONTRACTS = ("three", "two", "one")
STREAM_EXACT = 7


def _cross_fit(values: np.ndarray, chosen: int) -> float:
    """Mean over the two halves of: (best candidate on one half) − chosen, on the other."""
    k = values.shape[1]
    halves = (np.arange(0, k, 2), np.arange(1, k, 2))
    out = []
    for pick, test in (halves, halves[::-1]):
        if not len(pick) or not len(test):
            continue
        best = int(np.argmax(values[:, pick].mean(axis=1)))  # ties: the evaluator's order
        out.append(float(values[best, test].mean() - values[chosen, test].mean()))
    return float(np.mean(out)) if out else 0.0


def run_talon(t: int, hands: list, args: argparse.Namespace, rules, settings: AdviceSettings,
              search) -> dict[str, Any]:
    view = RulesView(rules)
    reject = view.redeal_no_tarock
    mode = view.discard_mode
    h = hands[t % len(hands)]
    r = t // len(hands)
    contract = CONTRACTS[(t + r) % 3]
    seat, hand = h.seat, h.hand
    t0 = time.perf_counter()
    knowledge = knowledge_from_hand(hand, seat)
    world = world_at(knowledge, args.seed, 0, r, reject_tarockless=reject)
    known = knowledge.with_talon(world.talon)

    # The evaluator's choice, as the adviser makes it.
    inner = inner_hands(known, args.seed, STREAM_INNER, (r,), settings.inner,
                        reject_tarockless=reject)
    choice = choose_exchange(hand, seat, world.talon, contract, mode, inner,
                             screen=settings.screen, keep=settings.keep)
    options = exchanges(hand, list(world.talon), contract, mode)
    chosen_opt = options.index(choice.exchange)
    means64 = _values(options, inner, seat).mean(axis=1)
    order = [int(i) for i in np.argsort(-means64, kind="stable")]
    eval_rank = {i: n + 1 for n, i in enumerate(order)}
    cand = order[:args.candidates]
    if chosen_opt not in cand:
        cand.append(chosen_opt)
    t_choice = time.perf_counter() - t0

    # Exact values of the candidates on fresh inner worlds.
    exact_inner = inner_hands(known, args.seed, STREAM_EXACT, (t,), args.inner_exact,
                              reject_tarockless=reject)
    cand_ex = [options[i] for i in cand]
    est = _values(cand_ex, exact_inner, seat)  # evaluator, pile included: first guesses
    scorer = Scorer(contract, seat, ((),), view.score_fn())
    k = len(exact_inner)
    points = np.zeros((len(cand), k))
    nets = np.zeros((len(cand), k))
    cache: dict[tuple[int, int, int], int] = {}
    solve_s = 0.0
    for a, ex in enumerate(cand_ex):
        for w in range(k):
            row = [int(x) for x in exact_inner[w]]
            row[seat] = ex.hand_after
            key = (row[0], row[1], row[2])
            if key not in cache:
                s0 = time.perf_counter()
                guess = int(round(est[a, w] - ex.declarer_pile_thirds / 3.0))
                cache[key] = int(search.value(Position(key, 0, seat), guess=guess).value)
                solve_s += time.perf_counter() - s0
            pts = cache[key]
            task = PlayTask(key, seat, ex.declarer_pile_thirds, hand, contract)
            out = scorer.outcome(task, ex.declarer_pile_thirds + 3 * pts,
                                 3 * pts == task.in_play_thirds)
            points[a, w] = ex.declarer_pile_thirds / 3.0 + pts
            nets[a, w] = float(out.net[0])
    c = cand.index(chosen_opt)
    exact_mean = points.mean(axis=1)
    net_mean = nets.mean(axis=1)
    # Ties go to the evaluator's better-ranked candidate (cand is in its order).
    best = int(np.argmax(exact_mean))
    best_net = int(np.argmax(net_mean))
    diff = points[best] - points[c]
    diff_net = nets[best_net] - nets[c]
    seconds = time.perf_counter() - t0
    return {
        "talon": t, "hand_id": h.id, "seat": seat, "contract": contract, "world": r,
        "talon_cards": [CARD_IDS[x] for x in world.talon],
        "options": len(options), "options_unmerged": sum(o.equivalents for o in options),
        "chosen": {"group": choice.exchange.group_label, "discard": choice.exchange.discard_ids,
                   "eval_rank": eval_rank[chosen_opt],
                   "mean_points_choice": choice.mean_points},
        "candidates": [{"group": ex.group_label, "discard": ex.discard_ids,
                        "eval_rank": eval_rank[i], "eval_mean_64": float(means64[i]),
                        "eval_mean_exact_worlds": float(est[a].mean()),
                        "exact_points": float(exact_mean[a]), "exact_net": float(net_mean[a])}
                       for a, (i, ex) in enumerate(zip(cand, cand_ex, strict=True))],
        "regret_points": float(exact_mean[best] - exact_mean[c]),
        "regret_net": float(net_mean[best_net] - net_mean[c]),
        "regret_points_se": float(diff.std(ddof=1) / np.sqrt(k)) if k > 1 else 0.0,
        "regret_net_se": float(diff_net.std(ddof=1) / np.sqrt(k)) if k > 1 else 0.0,
        "regret_points_crossfit": _cross_fit(points, c),
        "regret_net_crossfit": _cross_fit(nets, c),
        "best_is_choice": bool(exact_mean[c] >= exact_mean[best]),
        "best_net_is_choice": bool(net_mean[c] >= net_mean[best_net]),
        "best_rank": eval_rank[cand[best]],
        "best_net_rank": eval_rank[cand[best_net]],
        "best_is_last": eval_rank[cand[best]] == args.candidates,
        "best_net_is_last": eval_rank[cand[best_net]] == args.candidates,
        "inner_exact": k, "solves": len(cache),
        "seconds_choice": t_choice, "seconds_solve": solve_s, "seconds": seconds,
    }


def summarize(recs: list[dict[str, Any]], candidates: int) -> dict[str, Any]:
    if not recs:
        return {"talons": 0}

    def col(name: str) -> list[float]:
        return [r[name] for r in recs]

    return {
        "talons": len(recs),
        "regret_points_mean": statistics.fmean(col("regret_points")),
        "regret_points_max": max(col("regret_points")),
        "regret_net_mean": statistics.fmean(col("regret_net")),
        "regret_net_max": max(col("regret_net")),
        "regret_points_crossfit_mean": statistics.fmean(col("regret_points_crossfit")),
        "regret_net_crossfit_mean": statistics.fmean(col("regret_net_crossfit")),
        "regret_points_se_mean": statistics.fmean(col("regret_points_se")),
        "share_best_is_choice": statistics.fmean(float(x) for x in col("best_is_choice")),
        "share_best_net_is_choice": statistics.fmean(float(x) for x in col("best_net_is_choice")),
        "best_rank_counts": dict(sorted(Counter(col("best_rank")).items())),
        "best_net_rank_counts": dict(sorted(Counter(col("best_net_rank")).items())),
        "best_is_last": sum(col("best_is_last")),
        "best_net_is_last": sum(col("best_net_is_last")),
        "last_rank": candidates,
        "chosen_outside_top": sum(r["chosen"]["eval_rank"] > candidates for r in recs),
        "options_median": statistics.median(col("options")),
        "solves": sum(col("solves")),
        "seconds_median": statistics.median(col("seconds")),
        "seconds_total": sum(col("seconds")),
        "by_contract": {c: {"talons": len(rc),
                            "regret_points_mean": statistics.fmean(r["regret_points"] for r in rc),
                            "regret_net_mean": statistics.fmean(r["regret_net"] for r in rc),
                            "share_best_is_choice": statistics.fmean(
                                float(r["best_is_choice"]) for r in rc)}
                        for c in CONTRACTS
                        if (rc := [r for r in recs if r["contract"] == c])},
    }


def _write(path: str, payload: dict[str, Any]) -> None:
    tmp = Path(path + ".tmp")
    tmp.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def merge(paths: list[str], out: str | None) -> None:
    """One summary over shard files of the same configuration (each talon once)."""
    files = [json.loads(Path(p).read_text(encoding="utf-8")) for p in paths]
    config = files[0]["config"]
    if any(f["config"] != config for f in files):
        raise SystemExit("the shard files have different configurations")
    recs = sorted({r["talon"]: r for f in files for r in f["talons"]}.values(),
                  key=lambda r: r["talon"])
    payload = {"config": config, "summary": summarize(recs, config["candidates"]),
               "talons": recs}
    if out:
        _write(out, payload)
    print(json.dumps(payload["summary"], indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--talons", type=int, default=54)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inner-exact", type=int, default=16)
    ap.add_argument("--candidates", type=int, default=8)
    ap.add_argument("--out", help="JSON file of per-talon records and the summary")
    ap.add_argument("--shard", default="0/1", help="I/N: run the talons t %% N == I")
    ap.add_argument("--resume", action="store_true",
                    help="keep the talons --out already holds (same configuration)")
    ap.add_argument("--merge", nargs="+", metavar="FILE",
                    help="join shard files of one configuration into --out; no solving")
    args = ap.parse_args()
    if args.merge:
        merge(args.merge, args.out)
        return
    shard, shards = (int(x) for x in args.shard.split("/"))
    rules = load_rules("dummett")
    settings = AdviceSettings()
    hands = load_advise_hands()
    search = default_search()
    # Compile the kernels and load the evaluator before any timing.
    evaluate_positions(np.array([[h.hand for h in hands[:3]]], dtype=np.uint64), 0)
    search.value(Position((1 << 53, 1 << 52, 1 << 51), 0, 0))
    config = {"seed": args.seed, "talons": args.talons, "inner_exact": args.inner_exact,
              "candidates": args.candidates, "rules": "dummett", "inner": settings.inner,
              "screen": settings.screen, "keep": settings.keep, "stream_exact": STREAM_EXACT,
              "numba_threads": os.environ.get("NUMBA_NUM_THREADS")}
    recs: list[dict[str, Any]] = []
    if args.resume and args.out and Path(args.out).exists():
        old = json.loads(Path(args.out).read_text(encoding="utf-8"))
        if old["config"] != config:
            raise SystemExit(f"{args.out} holds another configuration: {old['config']}")
        recs = old["talons"]
    done = {r["talon"] for r in recs}
    for t in range(args.talons):
        if t % shards != shard or t in done:
            continue
        rec = run_talon(t, hands, args, rules, settings, search)
        recs.append(rec)
        print(f"talon {t:3d} {rec['hand_id']:>8} {rec['contract']:5} options {rec['options']:3d}"
              f"  regret {rec['regret_points']:5.2f} cp (±{rec['regret_points_se']:.2f})"
              f" {rec['regret_net']:6.2f} gp  best rank {rec['best_rank']}"
              f"  {rec['solves']} solves {rec['seconds']:.0f}s", flush=True)
        if args.out:
            _write(args.out, {"config": config, "summary": summarize(recs, args.candidates),
                              "talons": recs})
    s = summarize(recs, args.candidates)
    print(f"\n{s['talons']} talons, {s['solves']} solves, {s['seconds_total']:.0f}s")
    print(f"regret card points: mean {s['regret_points_mean']:.3f} worst "
          f"{s['regret_points_max']:.3f} (cross-fitted mean "
          f"{s['regret_points_crossfit_mean']:.3f}; mean paired SE "
          f"{s['regret_points_se_mean']:.3f})")
    print(f"regret game points: mean {s['regret_net_mean']:.3f} worst {s['regret_net_max']:.3f}"
          f" (cross-fitted mean {s['regret_net_crossfit_mean']:.3f})")
    print(f"choice exactly best: {s['share_best_is_choice']:.1%} (card points), "
          f"{s['share_best_net_is_choice']:.1%} (game points)")
    print(f"rank of the exact best in the evaluator's order: {s['best_rank_counts']}; "
          f"last ({args.candidates}th) {s['best_is_last']} times; game points: "
          f"{s['best_net_rank_counts']}, last {s['best_net_is_last']} times")
    print(f"chosen outside the evaluator's top {args.candidates}: {s['chosen_outside_top']}")
    print(f"median talon wall time {s['seconds_median']:.1f}s")
    for c, v in s["by_contract"].items():
        print(f"  {c:5}: {v['talons']} talons, regret {v['regret_points_mean']:.3f} cp "
              f"{v['regret_net_mean']:.3f} gp, exactly best {v['share_best_is_choice']:.0%}")


if __name__ == "__main__":
    main()
