"""How the recommendations change when passing is valued: two `tarock bench --advise` files.

Reads a bench run with ``--opponents pass`` (passing worth 0) and one with the default
``--opponents policy`` on the same hands, and reports per hand the contract each
recommends (the most frequent over its seeds), whether it changed, and by how much:
what the policy run's own estimates say the pass = 0 answer gives up (the policy
answer's E[net] minus that of the pass = 0 answer's contract, both read from the policy
run's table, averaged over its seeds).

    python benchmarks/pass_value_change.py PASS_ZERO.json POLICY.json [--out RESULT.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path


def modal(runs: list[dict]) -> str:
    return Counter(r["contract"] for r in runs).most_common(1)[0][0]


def net_of(run: dict, contract: str) -> float | None:
    """E[net] of ``contract``'s plain play (or passing) in one run's table."""
    entry = run.get("plain", {}).get(contract)
    if entry is None:
        return 0.0 if contract == "pass" else None
    return entry["net"][0]


def compare(zero: dict, policy: dict) -> dict:
    by_id = {h["id"]: h for h in zero["hands"]}
    rows = []
    for h in policy["hands"]:
        z = by_id.get(h["id"])
        if z is None:
            continue
        old, new = modal(z["runs"]), modal(h["runs"])
        gaps = [g for g in (_gap(r, new, old) for r in h["runs"]) if g is not None]
        passing = [r["plain"]["pass"]["net"][0] for r in h["runs"] if "pass" in r["plain"]]
        rows.append({"id": h["id"], "seat": h["seat"], "pass_zero": old, "policy": new,
                     "changed": old != new,
                     "gain": statistics.mean(gaps) if gaps else None,
                     "pass_net": statistics.mean(passing) if passing else None,
                     "policy_stable": len({r["contract"] for r in h["runs"]}) == 1})
    changed = [r for r in rows if r["changed"]]
    return {"hands": len(rows), "changed": len(changed),
            "mean_gain_changed": statistics.mean(r["gain"] for r in changed
                                                 if r["gain"] is not None)
            if any(r["gain"] is not None for r in changed) else None,
            "mean_pass_net": statistics.mean(r["pass_net"] for r in rows
                                             if r["pass_net"] is not None)
            if any(r["pass_net"] is not None for r in rows) else None,
            "rows": rows}


def _gap(run: dict, new: str, old: str) -> float | None:
    a, b = net_of(run, new), net_of(run, old)
    return None if a is None or b is None else a - b


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pass_zero")
    ap.add_argument("policy")
    ap.add_argument("--out")
    args = ap.parse_args()
    doc = compare(json.loads(Path(args.pass_zero).read_text()),
                  json.loads(Path(args.policy).read_text()))
    for r in doc["rows"]:
        gain = "-" if r["gain"] is None else f"{r['gain']:+.1f}"
        pas = "-" if r["pass_net"] is None else f"{r['pass_net']:+.1f}"
        print(f"{r['id']:<12} {r['seat']}  pass=0: {r['pass_zero']:<6} policy: {r['policy']:<6}"
              f" {'CHANGED' if r['changed'] else '       '} gain {gain:>7}  pass {pas:>6}")
    print(f"{doc['changed']} of {doc['hands']} recommendations changed; mean gain on those "
          f"{doc['mean_gain_changed']}; mean value of passing {doc['mean_pass_net']}")
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
