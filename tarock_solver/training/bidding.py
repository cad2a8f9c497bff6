"""Labels and fit of the bidding model: what the adviser's evaluator says a hand is worth.

A label is one random hand at a random seat, valued by the adviser itself with the
evaluator only (no exact solve, no game-point solve: the speed the bidding policy
needs, and the level of decision the policy imitates): per contract, the best
option's mean net over ``--worlds`` worlds, plain play's mean card points and
P(make).  :func:`fit` trains the model of :mod:`tarock_solver.estimate.bidding` on
them (held-out rows by hand) and reports its error against the labels' spread.

Run ``python -m tarock_solver.training.bidding labels --seed S --count N --out F``
(resumable: a file of the same seed and settings is extended; the shipped model's labels
are ``data/bidding/bidding_s1.npz``), then ``... fit F… --out PATH``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..advise import AdviceLimit, AdviceRequest, AdviceSettings, advise
from ..cards import TAROCK_MASK
from ..estimate.bidding import BID_CONTRACTS, BIDDING_WEIGHTS_PATH, hand_features
from ..estimate.trees import ObliviousEnsemble
from .boosting import BoostSettings, fit_oblivious
from .labels import write_npz

__all__ = ["fit", "label_hand", "labels", "main", "random_hand"]

#: Worlds per label: the evaluator's mean net of a contract then has an SE of a few
#: game points, noise the fit averages out over neighbouring hands.
WORLDS = 48


def random_hand(seed: int, index: int) -> tuple[int, int]:
    """The ``index``-th label's hand (a 16-card mask holding a tarock, as the game
    redeals a tarockless hand) and seat, a pure function of ``(seed, index)``."""
    rng = np.random.default_rng([seed, index, 0xB1D])
    while True:
        cards = rng.permutation(54)[:16]
        hand = 0
        for c in cards:
            hand |= 1 << int(c)
        if hand & TAROCK_MASK:
            return hand, int(rng.integers(3))


def label_hand(hand: int, seat: int, *, seed: int, worlds: int = WORLDS,
               rules_name: str = "dummett") -> dict[str, np.ndarray]:
    """One label: per contract of :data:`BID_CONTRACTS`, the best option's mean net,
    plain play's mean card points and P(make) (NaN where the adviser did not value it)."""
    req = AdviceRequest(hand=hand, seat=seat, rules_name=rules_name, seed=seed, jobs=1,
                        limit=AdviceLimit(seconds=None, worlds=worlds, stop_when_firm=False),
                        settings=AdviceSettings(max_exact=0, birds=False, stop_margin=None))
    adv = advise(req)
    n = len(BID_CONTRACTS)
    net, points, made = np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan)
    for row in adv.rows:
        if row.contract not in BID_CONTRACTS or row.kind == "bird" or row.series not in ("", row.contract):
            continue
        i = BID_CONTRACTS.index(row.contract)
        if np.isnan(net[i]) or row.net.mean > net[i]:
            net[i] = row.net.mean
        if row.kind == "plain":
            points[i], made[i] = row.points.mean, row.made.mean
    return {"net": net, "points": points, "made": made}


def labels(seed: int, count: int, out: str | Path, *, worlds: int = WORLDS,
           rules_name: str = "dummett", chunk: int = 25) -> int:
    """Write ``count`` labels to ``out`` (.npz), extending an earlier file of the same
    settings; a chunk of ``chunk`` rows at a time, so a stopped run keeps its rows."""
    out = Path(out)
    meta = {"seed": seed, "worlds": worlds, "rules": rules_name, "contracts": list(BID_CONTRACTS)}
    rows: dict[str, list] = {"hand": [], "seat": [], "net": [], "points": [], "made": [],
                             "seconds": []}
    if out.exists():
        with np.load(out, allow_pickle=False) as f:
            old = json.loads(str(f["meta"]))
            if old != meta:
                raise SystemExit(f"{out} holds labels of other settings ({old}); "
                                 "choose another --out")
            for k in rows:
                rows[k] = list(f[k])
    done = len(rows["hand"])
    for i in range(done, count):
        hand, seat = random_hand(seed, i)
        t0 = time.time()
        lab = label_hand(hand, seat, seed=seed * 100_003 + i, worlds=worlds,
                         rules_name=rules_name)
        rows["hand"].append(np.uint64(hand))
        rows["seat"].append(seat)
        for k in ("net", "points", "made"):
            rows[k].append(lab[k])
        rows["seconds"].append(time.time() - t0)
        if (i + 1) % chunk == 0 or i + 1 == count:
            write_npz(out, {"meta": np.array(json.dumps(meta)),
                            **{k: np.array(v) for k, v in rows.items()}})
            print(f"{i + 1}/{count} labels", flush=True)
    return count - done


def fit(paths: Sequence[str | Path], out: str | Path | None = None, *,
        trees: int = 300, depth: int = 5, rate: float = 0.05) -> dict[str, object]:
    """Fit one ensemble per contract on the labels (a fifth of the hands held out) and
    write them to ``out``; the held-out error against the labels' spread."""
    hands, seats, nets = [], [], []
    for p in paths:
        with np.load(p, allow_pickle=False) as f:
            hands.append(f["hand"].astype(np.uint64))
            seats.append(f["seat"].astype(np.int64))
            nets.append(f["net"].astype(np.float64))
    h, s, y = np.concatenate(hands), np.concatenate(seats), np.concatenate(nets)
    x = hand_features(h, s)
    part = np.arange(len(h)) % 10  # 0-1 held out, 2 validation (the prefix), rest fit
    report: dict[str, object] = {"rows": int(len(h)), "held_out": int((part < 2).sum())}
    arrays: dict[str, np.ndarray] = {}
    settings = BoostSettings(trees=trees, depth=depth, learning_rate=rate)

    def boost(rows: np.ndarray, val: np.ndarray, c: int) -> ObliviousEnsemble:
        yv = y[val, c]
        model, _ = fit_oblivious(x[rows], y[rows, c], np.ones(int(rows.sum())), settings,
                                 seed=c, score=lambda p: float(np.mean((p - yv) ** 2)),
                                 x_val=x[val])
        return model

    for c, name in enumerate(BID_CONTRACTS):
        ok = ~np.isnan(y[:, c])
        if ok.sum() < 50:
            continue
        test = ok & (part < 2)
        model = boost(ok & (part > 2), ok & (part == 2), c)
        pred = model.predict(x[test])
        err = pred - y[test, c]
        report[name] = {"mae": float(np.mean(np.abs(err))),
                        "rmse": float(np.sqrt(np.mean(err ** 2))),
                        "label_sd": float(np.std(y[test, c])),
                        "r": float(np.corrcoef(pred, y[test, c])[0, 1]),
                        "sign_agreement": float(np.mean((pred > 0) == (y[test, c] > 0))),
                        "trees": model.n_trees}
        # the shipped model also learns from the held-out rows
        final = boost(ok & (part != 2), ok & (part == 2), c)
        for k, v in final.arrays().items():
            arrays[f"{name}/{k}"] = v
    if out is not None:
        write_npz(Path(out), {"meta": np.array(json.dumps(report)), **arrays})
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tarock_solver.training.bidding")
    sub = ap.add_subparsers(dest="cmd", required=True)
    la = sub.add_parser("labels", help="value random hands by the adviser's evaluator")
    la.add_argument("--seed", type=int, required=True)
    la.add_argument("--count", type=int, required=True)
    la.add_argument("--out", required=True)
    la.add_argument("--worlds", type=int, default=WORLDS)
    la.add_argument("--rules", default="dummett")
    fi = sub.add_parser("fit", help="fit the bidding model")
    fi.add_argument("labels", nargs="+")
    fi.add_argument("--out", default=str(BIDDING_WEIGHTS_PATH))
    args = ap.parse_args(argv)
    if args.cmd == "labels":
        labels(args.seed, args.count, args.out, worlds=args.worlds, rules_name=args.rules)
    else:
        print(json.dumps(fit(args.labels, args.out), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
