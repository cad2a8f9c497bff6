"""Markdown tables for the evaluator's data card: label cost and held-out accuracy.

``python benchmarks/evaluator/tables.py --labels A.npz B.npz … [--report train_report.json]``

Label cost comes from each file's ``.timing.npz`` sidecar (wall seconds per position,
taken at nice 19 on a shared 2-core machine, so they overstate CPU cost) and from the
node counts in the file itself.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from tarock_solver.training.positions import KINDS

KIND_NAMES = {code: name for name, code in KINDS.items()}


def label_table(paths: list[str]) -> str:
    rows = ["| file | kind | positions | value mean (SD) | median s | p90 s | max s | "
            "median nodes | max nodes |", "|---|---|---|---|---|---|---|---|---|"]
    for p in paths:
        with np.load(p) as z:
            kind, value, nodes = z["kind"], z["value"].astype(float), z["nodes"]
        t = Path(p).with_name(Path(p).name.removesuffix(".npz") + ".timing.npz")
        sec = np.load(t)["seconds"] if t.exists() else np.full(len(value), np.nan)
        k = KIND_NAMES.get(int(kind[0]), "?") if len(kind) else "-"
        rows.append(f"| {Path(p).name} | {k} | {len(value)} | {value.mean():.1f} "
                    f"({value.std():.1f}) | {np.median(sec):.2f} | "
                    f"{np.percentile(sec, 90):.2f} | {sec.max():.2f} | "
                    f"{int(np.median(nodes)):,} | {int(nodes.max()):,} |")
    return "\n".join(rows)


def _fmt(m: dict) -> str:
    if not m.get("n"):
        return "| 0 | | | | |"
    return (f"| {m['n']} | {m['mae']:.2f} | {m['r']:.3f} | {m['bias']:+.2f} | "
            f"{m['resid_sd']:.2f} |")


def report_tables(path: str) -> str:
    rep = json.loads(Path(path).read_text(encoding="utf-8"))
    out = [f"Architecture: {rep['architecture']}; rows {rep['rows']} "
           f"(split {rep['split']}).", "",
           "| model | train rows (16-card) | held-out n | MAE | r | bias | resid SD |",
           "|---|---|---|---|---|---|---|"]
    out.append(f"| ridge, all train rows | - {_fmt(rep['ridge_test_full16'])}")
    for run in rep["runs"]:
        out.append(f"| trees, {run['fraction']:.0%} | {run['train_rows']} "
                   f"({run['train_full16_rows']}) {_fmt(run['test']['full16'])}")
    last = rep["runs"][-1]["test"]
    out += ["", "Last model, held-out, by cards per hand:", "",
            "| cards | n | MAE | r | bias | resid SD |", "|---|---|---|---|---|---|"]
    for c, m in sorted(last["by_cards"].items(), key=lambda kv: int(kv[0])):
        out.append(f"| {c} {_fmt(m)}")
    out += ["", "Last model, held-out 16-card, by the declarer's tarocks:", "",
            "| tarocks | n | MAE | r | bias | resid SD |", "|---|---|---|---|---|---|"]
    for band, m in last["full16_by_declarer_tarocks"].items():
        out.append(f"| {band} {_fmt(m)}")
    out += ["", "| overall held-out (all sizes) " + _fmt(last["overall"])[1:]]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", nargs="*", default=[])
    ap.add_argument("--report")
    args = ap.parse_args()
    if args.labels:
        print(label_table(args.labels))
        print()
    if args.report:
        print(report_tables(args.report))


if __name__ == "__main__":
    main()
