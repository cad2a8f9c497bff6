"""The game-point evaluator's model card numbers: held-out error, bird calibration, speed.

``python benchmarks/evaluator/gamepoints_report.py [--labels data/evaluator/gp_biddable_s4.npz]
[--out benchmarks/results/DATE-gamepoint-evaluator.json]``

On every game-point label (plain play of a whole deal after the exchange, its exact net
from ``solve_game_points``) the evaluator's estimate with the bird model fitted on the
other folds (5 folds by deal: held out), per contract: MAE, RMSE, bias and correlation in
game points, beside the same for the game's part alone (no bird counted).  The bird term
(exact net minus the net scored from the position's exact card points, from the
card-point labels of the same positions) against the evaluator's bird part: its
correlation and the residual SD the adviser's control variate is left with.  The bird
model's held-out log loss, AUC and calibration by band.  Speed: positions per second of
``estimate_game_points_many`` on whole deals, with the scores' cache cold and warm, and
of single calls.

The card-point evaluator was trained on card-point labels of these same positions
(``biddable_s4``), so its part of the error is in-sample; the bird model's is held out.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tarock_solver.cards import thirds_of
from tarock_solver.estimate.birds import BirdModel
from tarock_solver.estimate.gamepoints import _TABLES, estimate_game_points, game_point_parts
from tarock_solver.rules import load_rules
from tarock_solver.solver import make_payoff
from tarock_solver.training import positions as P
from tarock_solver.training.birds import bird_rows, cross_validate, fit_logistic, report
from tarock_solver.training.labels import load_labels

ROOT = Path(__file__).resolve().parents[2]
FOLDS = 5


def _positions(labels: dict, seed: int, kind: str) -> dict:
    """Each label's position with what scoring needs (contract, discard, dealt hands)."""
    names = list(P.CONTRACT_CODES)
    out = {"contract": [], "pile": [], "dealt": [], "declarer_hand": []}
    for k in range(len(labels["net"])):
        pos = P.sample_position(seed, kind, int(labels["index"][k]))
        assert tuple(int(x) for x in labels["hands"][k]) == tuple(pos.hands)
        out["contract"].append(names[pos.contract])
        out["pile"].append(thirds_of(pos.discard))
        out["dealt"].append(P.dealt_hands(seed, kind, pos.index))
        out["declarer_hand"].append(pos.hands[pos.declarer])
    return out


def _errors(est: np.ndarray, y: np.ndarray) -> dict:
    d = est - y
    return {"n": int(len(y)), "mae": round(float(np.abs(d).mean()), 2),
            "rmse": round(float(np.sqrt((d * d).mean())), 2), "bias": round(float(d.mean()), 2),
            "r": round(float(np.corrcoef(est, y)[0, 1]), 3) if len(y) > 2 else None,
            "sd_exact": round(float(y.std()), 2)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", default=str(ROOT / "data/evaluator/gp_biddable_s4.npz"))
    ap.add_argument("--cardpoints", default=str(ROOT / "data/evaluator/biddable_s4.npz"))
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--kind", default="biddable")
    ap.add_argument("--out")
    args = ap.parse_args()
    labels = load_labels(args.labels, objective="gamepoints")
    pos = _positions(labels, args.seed, args.kind)
    hands = labels["hands"].astype(np.uint64)
    decl = labels["declarer"].astype(np.int64)
    y = labels["net"].astype(np.float64)
    rows = bird_rows(labels)
    fold = np.arange(len(y)) % FOLDS
    net = np.empty(len(y))
    game = np.empty(len(y))
    birds = np.empty(len(y))
    for k in range(FOLDS):
        train = fold[rows["deal"]] != k
        model = BirdModel(fit_logistic(rows["x"][train], rows["won"][train]))
        test = np.flatnonzero(fold == k)
        parts = game_point_parts(hands[test], 0, decl[test],
                                 [pos["contract"][i] for i in test],
                                 discard_thirds=[pos["pile"][i] for i in test],
                                 declarer_hands=[pos["declarer_hand"][i] for i in test],
                                 dealt=[pos["dealt"][i] for i in test], valat_open=True,
                                 bird_model=model)
        net[test], game[test], birds[test] = parts.net, parts.card_net, parts.birds
    contracts = np.array(pos["contract"])
    by_contract = {c: {"with_birds": _errors(net[contracts == c], y[contracts == c]),
                       "game_part_only": _errors(game[contracts == c], y[contracts == c])}
                   for c in P.CONTRACT_CODES if (contracts == c).any()}
    # the bird term: the exact net minus the net of the exact card points
    cp = np.load(args.cardpoints)
    at = {int(v): k for k, v in enumerate(cp["index"])}
    rules = load_rules("dummett")
    b = np.empty(len(y))
    for i in range(len(y)):
        f = int(cp["value"][at[int(labels["index"][i])]])
        pay = make_payoff(rules, pos["contract"][i], int(decl[i]),
                          tuple(int(x) for x in hands[i]), base_thirds=pos["pile"][i],
                          valat_open=True, declarer_hand=pos["declarer_hand"][i],
                          dealt=pos["dealt"][i])
        b[i] = y[i] - pay.score(f, pay.outcome_flags(f)).net_declarer
    bird_term = {c: {"n": int((contracts == c).sum()),
                     "exact_mean": round(float(b[contracts == c].mean()), 2),
                     "evaluator_mean": round(float(birds[contracts == c].mean()), 2),
                     "sd": round(float(b[contracts == c].std()), 2),
                     "residual_sd": round(float((b - birds)[contracts == c].std()), 2)}
                 for c in P.CONTRACT_CODES if (contracts == c).any()}
    bird_term["all"] = {"n": int(len(b)), "corr": round(float(np.corrcoef(b, birds)[0, 1]), 3),
                        "sd": round(float(b.std()), 2),
                        "residual_sd": round(float((b - birds).std()), 2)}
    # speed: whole deals, cold and warm caches, and one by one
    _TABLES.clear()
    reps = np.resize(np.arange(len(y)), 2000)
    kw = dict(discard_thirds=[pos["pile"][i] for i in reps],
              declarer_hands=[pos["declarer_hand"][i] for i in reps],
              dealt=[pos["dealt"][i] for i in reps], valat_open=True)
    t0 = time.perf_counter()
    game_point_parts(hands[reps], 0, decl[reps], list(contracts[reps]), **kw)
    cold = len(reps) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    game_point_parts(hands[reps], 0, decl[reps], list(contracts[reps]), **kw)
    warm = len(reps) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(200):
        estimate_game_points(tuple(int(x) for x in hands[i]), 0, int(decl[i]),
                             pos["contract"][i], discard_thirds=pos["pile"][i],
                             declarer_hand=pos["declarer_hand"][i], dealt=pos["dealt"][i],
                             valat_open=True)
    single = 200 / (time.perf_counter() - t0)
    doc = {"labels": Path(args.labels).name, "positions": int(len(y)), "folds": FOLDS,
           "all": {"with_birds": _errors(net, y), "game_part_only": _errors(game, y)},
           "by_contract": by_contract, "bird_term": bird_term,
           "bird_model_held_out": report(rows, cross_validate(rows, FOLDS)),
           "speed": {"batched_cold_per_s": round(cold), "batched_warm_per_s": round(warm),
                     "single_per_s": round(single), "positions": len(reps)}}
    print(json.dumps(doc, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
