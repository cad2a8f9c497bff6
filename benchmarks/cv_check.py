"""Does the adviser's control-variate estimate agree with the plain exact mean?

``python benchmarks/cv_check.py [--worlds 64] [--seed 1] [--subsets 400] [--birds]
[--gains] [--cell-width W] [--out F.json] HAND_ID:CONTRACT …`` (one thread:
``NUMBA_NUM_THREADS=1``).

For each hand of ``advise_hands.jsonl`` and contract, the adviser's engine
(:class:`~tarock_solver.advise.schedule.Engine`: the world stream, the exchange
chosen on the information set, the evaluator's value ``g_j``) evaluates worlds
0 … N−1, and **every** world is solved exactly (``x_j``, the process-wide
card-point search).  The plain exact mean over the N worlds is the reference.
The control-variate estimate with ``n`` exact worlds is mean(g) over all N plus
mean(x − g) over ``n`` of them, with the SE the adviser prints (:func:`~tarock_solver.advise.cv.combine`).
As in the adviser, ``x_j`` there is a world's value from its cell (``--cell-width``, the
adviser's by default; :meth:`~tarock_solver.advise.series.ContractSeries.values`): the middle
of the cell of the world's offset that holds the exact value, through the net's affine piece —
what the adviser's cell solve of that world gives.  The reference stays the plain mean of the
exact values.

Reported per (hand, contract) and n ∈ {8, 16}: the estimate on the engine's
prefix (worlds 0 … n−1) against the reference, in card points, in net game
points of plain play and in P(make), and over ``--subsets`` random subsets of n worlds the
share of estimates within 1 and 2 SEs of the reference (the SE covers the
sampling of worlds too, so on a fixed set it is conservative: ≥ 68 % / 95 %
expected) and the share more than 1 and 2 SEs above it (the one-sided error a
gate on the estimate lets through), and the evaluator-only mean's error for scale.

The nets and P(make) (``made``) are the adviser's estimates, whose control variate
is the evaluator's value smoothed over its error
(:meth:`~tarock_solver.advise.series.ContractSeries.smoothed`); beside them
(``rounded_…``) the ones with the value of the rounded estimate.

``--gains`` does the same for every announcement option's paired gain over plain
play (the same solves score every option), each distinct option once: the adviser's
estimate, whose residual variance is floored by the model's
(:meth:`~tarock_solver.advise.series.ContractSeries.gain_terms`), and beside it the
unfloored one (``unfloored_n8`` …).

``--birds`` also solves every world's plain play for game points (the adviser's
:func:`~tarock_solver.advise.exact.solve_game_one`): the reference is the plain
mean of those nets, and the estimate is the adviser's three-term one (evaluator
on all N, exact card points on n, game-point − card-point nets on m ≤ n worlds)
for (n, m) ∈ {(16, 8), (16, 16), (32, 16)}, without and (``cv_…``) with the
game-point evaluator's value of the birds on all N worlds as their control variate.

``--bird-options`` (with ``--birds``) also solves every world of each bird announcement
option of the contract (the bird the hand holds, announced at a level): the reference is
the plain mean of its exact gain over plain play (both game-point nets), the estimate the
adviser's (the game-point evaluator's gain on all N worlds, exact − evaluator on n, the
residuals' variance floored by the bird model's), for n ∈ {8, 16}.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tarock_solver.advise.cv import Estimate, PrefixTerm, combine, cv_terms
from tarock_solver.advise.problem import make_problem
from tarock_solver.advise.schedule import Engine
from tarock_solver.advise.settings import AdviceRequest, AdviceSettings
from tarock_solver.bench.advise import load_advise_hands
from tarock_solver.solver import Position, default_search

NS = (8, 16)
#: (card-point worlds, game-point worlds) of the birds' check.
BIRD_NS = ((16, 8), (16, 16), (32, 16))


def check(hand_id: str, contract: str, args: argparse.Namespace) -> dict:
    hands = {h.id: h for h in load_advise_hands()}
    h = hands[hand_id]
    req = AdviceRequest(h.hand, h.seat, seed=args.seed, contracts=(contract,))
    problem = make_problem(req, req.rule_profile())
    # game_points: the series then keep the birds' evaluator values (the engine makes no
    # solve here; every world is solved below)
    eng = Engine(problem, AdviceSettings(cell_width=args.cell_width), game_points=args.birds)
    t0 = time.perf_counter()
    for j in range(args.worlds):
        eng.evaluate_world(j)
    ser = eng.series[contract]
    search = default_search()
    exact = []
    for j, task in enumerate(ser.tasks):
        exact.append(int(search.value(Position(task.hands, 0, h.seat),
                                      guess=int(round(ser.estimates[j]))).value))
    ser.exact = exact
    seconds = time.perf_counter() - t0
    rng = np.random.default_rng(args.seed)
    out = {"hand": hand_id, "seat": "FMR"[h.seat], "contract": contract,
           "worlds": args.worlds, "seconds": seconds}
    for what in ("points", "net", "made"):
        rounded = ser.values(0, what, exact=False)
        g = rounded if what == "points" else ser.smoothed(0, what)
        x, plain = _cell_and_exact(ser, 0, what)
        ref = float(plain.mean())
        res = {"exact_mean": ref, "evaluator_mean": float(g.mean()),
               "residual_sd": float((x - g).std(ddof=1)),
               "cell_noise_sd": float((x - plain).std(ddof=1))}
        res.update(_cv_agreement(g, x, ref, rng, args.subsets, flag=what == "made"))
        if what != "points":
            res["rounded_residual_sd"] = float((x - rounded).std(ddof=1))
            res.update({"rounded_" + k: v for k, v in
                        _cv_agreement(rounded, x, ref, rng, args.subsets,
                                      flag=what == "made").items()})
        out[what] = res
    if args.birds:
        out["net_birds"] = _birds(eng, ser, rng, args)
        if args.bird_options:
            out["bird_options"] = _bird_options(eng, ser, rng, args)
    if args.gains:
        out["gains"] = _gains(ser, rng, args)
    return out


def _cell_and_exact(ser, policy: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    """A policy's exact-world values as the adviser has them (from the worlds' cells)
    and the plain exact ones (cell width 1)."""
    width = ser.cell_width
    ser.cell_width = 1
    ser._values.clear()
    plain = ser.values(policy, what, exact=True)
    ser.cell_width = width
    ser._values.clear()
    return ser.values(policy, what, exact=True), plain


def _gains(ser, rng: np.random.Generator, args: argparse.Namespace) -> dict:
    """Every distinct announcement option's gain over plain play, as for the nets: the
    adviser's estimate (the smoothed control variate, ``n8``, ``n16``) and, for
    comparison, the one with the net of the rounded estimate (``rounded_n8`` …)."""
    s0 = ser.smoothed(0, "net")
    g0 = ser.values(0, "net", exact=False)
    x0, e0 = _cell_and_exact(ser, 0, "net")
    out, seen = {}, set()
    for p, pol in enumerate(ser.plan.policies):
        if p == 0:
            continue
        g = ser.values(p, "net", exact=False) - g0
        xp, ep = _cell_and_exact(ser, p, "net")
        x, e = xp - x0, ep - e0
        key = (tuple(g), tuple(e))
        if key in seen or not (g.any() or e.any()):
            continue  # a copy of an option already checked, or never announced
        seen.add(key)
        smooth = ser.smoothed(p, "net") - s0
        res = {"exact_mean": float(e.mean()), "evaluator_mean": float(smooth.mean()),
               "sd": float(e.std(ddof=1)), "residual_sd": float((x - smooth).std(ddof=1)),
               "rounded_residual_sd": float((x - g).std(ddof=1))}
        floor = ser.smoothed(p, "gain_variance")
        res.update(_cv_agreement(smooth, x, res["exact_mean"], rng, args.subsets, floor=floor))
        res.update({"unfloored_" + k: v for k, v in
                    _cv_agreement(smooth, x, res["exact_mean"], rng, args.subsets).items()})
        res.update({"rounded_" + k: v for k, v in
                    _cv_agreement(g, x, res["exact_mean"], rng, args.subsets).items()})
        out[pol.name] = res
    return out


def _cv_agreement(g: np.ndarray, x: np.ndarray, ref: float, rng: np.random.Generator,
                  subsets: int, *, flag: bool = False, floor: np.ndarray | None = None) -> dict:
    """For n in :data:`NS`: the two-term control-variate estimate (evaluator ``g`` on every
    world, exact ``x`` on n of them) against the reference (:func:`_agreement`); ``flag``:
    a made flag, whose residual variance the adviser floors by the Bernoulli model's;
    ``floor``: per world, a model variance the residuals' is floored by (a gain's)."""
    def estimate(order: np.ndarray, n: int):
        terms = cv_terms(g[order], x[order][:n], flag=flag)
        if floor is not None:
            terms[1] = PrefixTerm(terms[1].values, correction=True, floor=floor[order][:n])
        return combine(terms, min_prefix=2)

    return {f"n{n}": _agreement(lambda order, n=n: estimate(order, n), len(g), ref, rng,
                                subsets) for n in NS}


def _agreement(estimate: Callable[[np.ndarray], Estimate], worlds: int, ref: float,
               rng: np.random.Generator, subsets: int) -> dict:
    """The estimate on the worlds in index order against the reference, and the share of
    ``subsets`` random orders whose estimate lies within 1 and 2 SEs of it."""
    e = estimate(np.arange(worlds))
    zs = []
    for _ in range(subsets):
        es = estimate(rng.permutation(worlds))
        # an SE of 0 (every world alike): no error, or an infinitely sure wrong one
        zs.append((es.mean - ref) / es.se if es.se > 0 else
                  0.0 if abs(es.mean - ref) < 1e-9 else np.copysign(np.inf, es.mean - ref))
    z = np.array(zs)
    w = np.abs(z)
    return {"estimate": e.mean, "se": e.se, "error": e.mean - ref,
            "z": (e.mean - ref) / e.se if e.se > 0 else 0.0,
            "within_1se": float((w <= 1).mean()), "within_2se": float((w <= 2).mean()),
            "above_1se": float((z > 1).mean()), "above_2se": float((z > 2).mean())}


def _birds(eng: Engine, ser, rng: np.random.Generator, args: argparse.Namespace) -> dict:
    from tarock_solver.advise.exact import GameRequest, solve_game_one

    t0 = time.perf_counter()
    games = []
    for task in ser.tasks:
        value, _nodes, _s = solve_game_one(eng.view.rules, GameRequest.of(task), None)
        games.append(float(value))
    gp = np.array(games)
    ser.games = list(games)  # the bird options' gains are over these
    g = ser.values(0, "net", exact=False)
    x, _plain = _cell_and_exact(ser, 0, "net")
    ref = float(gp.mean())
    bh = np.asarray(ser.bird_estimates, dtype=np.float64)
    res = {"exact_mean": ref, "card_point_net_mean": float(x.mean()),
           "bird_sd": float((gp - x).std(ddof=1)),
           "bird_residual_sd": float((gp - x - bh).std(ddof=1)),
           "bird_evaluator_mean": float(bh.mean()), "seconds": time.perf_counter() - t0}

    def estimate(order: np.ndarray, n: int, m: int, cv: bool) -> Estimate:
        gs, xs, bs = g[order], x[order], (gp - x)[order]
        terms = [PrefixTerm(gs), PrefixTerm(xs[:n] - gs[:n])]
        if cv:  # the adviser's: the bird model on every world, its residual on m
            terms += [PrefixTerm(bh[order]), PrefixTerm(bs[:m] - bh[order][:m])]
        else:
            terms += [PrefixTerm(bs[:m])]
        return combine(terms, min_prefix=2)

    for n, m in BIRD_NS:
        if n <= len(g):
            for cv in (False, True):
                res[f"{'cv_' if cv else ''}n{n}m{m}"] = _agreement(
                    lambda order, n=n, m=m, cv=cv: estimate(order, n, m, cv), len(g), ref,
                    rng, args.subsets)
    return res


def _bird_options(eng: Engine, ser, rng: np.random.Generator, args: argparse.Namespace
                  ) -> dict:
    """Each bird option's gain over plain play: the adviser's estimate against the plain
    mean of the exact gains (every world solved with the bird announced)."""
    from tarock_solver.advise.exact import GameRequest, solve_game_one

    out = {}
    gp = np.asarray(ser.games, dtype=np.float64)
    for q in ser.plan.bird_options:
        pol = ser.plan.policies[q]
        t0 = time.perf_counter()
        x = np.array([float(solve_game_one(eng.view.rules, GameRequest.of(t, (pol.bird,)),
                                           None)[0]) for t in ser.tasks]) - gp
        g = np.array([v[q] for v in ser.bird_gains])
        floor = np.array([v[q] for v in ser.bird_floors])
        ref = float(x.mean())
        res = {"exact_mean": ref, "sd": float(x.std(ddof=1)), "evaluator_mean": float(g.mean()),
               "residual_sd": float((x - g).std(ddof=1)),
               "bird_won_model": ser.bird_won(q), "seconds": time.perf_counter() - t0}
        res.update(_cv_agreement(g, x, ref, rng, args.subsets, floor=floor))
        out[pol.name] = res
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+", help="HAND_ID:CONTRACT, e.g. demo:two")
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--subsets", type=int, default=400)
    ap.add_argument("--birds", action="store_true",
                    help="also check the nets with silent birds (game-point solves)")
    ap.add_argument("--bird-options", action="store_true",
                    help="with --birds: also check every bird announcement's gain")
    ap.add_argument("--gains", action="store_true",
                    help="also check every announcement option's gain over plain play")
    ap.add_argument("--cell-width", type=int, default=AdviceSettings().cell_width,
                    help="the exact worlds' cell width (1: exact values)")
    ap.add_argument("--out")
    args = ap.parse_args()
    results = []
    for case in args.cases:
        hand_id, contract = case.split(":")
        r = check(hand_id, contract, args)
        results.append(r)
        for what in ("points", "net", "made"):
            m = r[what]
            print(f"{hand_id:>9} {contract:5} {what:6} exact mean {m['exact_mean']:7.2f}  "
                  f"evaluator {m['evaluator_mean']:7.2f}  resid SD {m['residual_sd']:5.2f}  "
                  + "  ".join(f"{k}{n}: {m[f'{k}{n}']['estimate']:7.2f} ± "
                              f"{m[f'{k}{n}']['se']:.2f} (z {m[f'{k}{n}']['z']:+.2f}; subsets "
                              f"within 1/2 SE {m[f'{k}{n}']['within_1se']:.0%}/"
                              f"{m[f'{k}{n}']['within_2se']:.0%})"
                              for n in NS for k in ("n", "rounded_n") if f"{k}{n}" in m),
                  flush=True)
        if "net_birds" in r:
            m = r["net_birds"]
            print(f"{hand_id:>9} {contract:5} birds  exact mean {m['exact_mean']:7.2f}  "
                  f"card-point nets {m['card_point_net_mean']:7.2f}  bird SD {m['bird_sd']:5.1f} "
                  f"(residual {m['bird_residual_sd']:5.1f})  "
                  + "  ".join(f"{k}: {v['estimate']:7.2f} ± {v['se']:.2f} (z {v['z']:+.2f}; "
                              f"subsets within 1/2 SE {v['within_1se']:.0%}/{v['within_2se']:.0%})"
                              for k, v in m.items() if k.startswith(("n", "cv_"))), flush=True)
        for name, m in r.get("bird_options", {}).items():
            print(f"{hand_id:>9} {contract:5} {name}: exact gain {m['exact_mean']:8.2f} (SD "
                  f"{m['sd']:.1f}; evaluator {m['evaluator_mean']:8.2f}, resid SD "
                  f"{m['residual_sd']:.1f})  " + "  ".join(
                      f"n{n}: {m[f'n{n}']['estimate']:8.2f} ± {m[f'n{n}']['se']:.2f} (z "
                      f"{m[f'n{n}']['z']:+.2f}; subsets within 1/2 SE "
                      f"{m[f'n{n}']['within_1se']:.0%}/{m[f'n{n}']['within_2se']:.0%})"
                      for n in NS), flush=True)
        for name, m in r.get("gains", {}).items():
            print(f"{hand_id:>9} {contract:5} gain {name}: exact mean {m['exact_mean']:8.2f} "
                  f"(SD {m['sd']:.1f}, resid SD {m['residual_sd']:.1f}, rounded "
                  f"{m['rounded_residual_sd']:.1f})  "
                  + "  ".join(f"{k}{n}: within 1/2 SE {m[f'{k}{n}']['within_1se']:.0%}/"
                              f"{m[f'{k}{n}']['within_2se']:.0%}, above 2 SE "
                              f"{m[f'{k}{n}']['above_2se']:.0%}"
                              for n in NS for k in ("n", "rounded_n")), flush=True)
        if args.out:
            tmp = Path(args.out + ".tmp")
            tmp.write_text(json.dumps({"config": vars(args) | {
                "numba_threads": os.environ.get("NUMBA_NUM_THREADS")}, "results": results},
                indent=1), encoding="utf-8")
            os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
