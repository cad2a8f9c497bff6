"""From per-world results to the advice: estimates, tables and the recommendation.

Every estimate is a mean over worlds that are independent draws, so its
standard error is the sample standard deviation over √n.  Comparisons use the
*paired* differences on the common worlds (common random numbers), whose
errors are much smaller than those of the two means.

The main table follows the advice schema of NOTATION.md 5.3 (``deal_id,
rules, rule_options, seat, contract, option, samples, win_prob, win_prob_se,
mean_net, mean_net_se, mean_points``), one row per contract × option plus a
``pass`` row, with a few extra columns after those.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..cards import round_points
from .announcements import TARGET_POINTS
from .evaluate import item_success
from .types import ContractPlan, PolicyOutcome, WorldResult

SCHEMA_COLUMNS = ("deal_id", "rules", "rule_options", "seat", "contract", "option", "samples",
                  "win_prob", "win_prob_se", "mean_net", "mean_net_se", "mean_points")
EXTRA_COLUMNS = ("kind", "mean_points_se", "gain", "gain_se", "p_success", "announce_rate",
                 "conditional", "talon_behaviour")
#: Fewer worlds than this for any contract make the recommendation tentative.
MIN_WORLDS = 10
#: Two estimates closer than this many standard errors of their difference are "within noise".
NOISE_SE = 2.0


def mean_se(values: np.ndarray) -> tuple[float, float]:
    """Mean and its standard error (NaN when fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    m = float(np.mean(values))
    if n < 2:
        return m, math.nan
    return m, float(np.std(values, ddof=1) / math.sqrt(n))


@dataclass
class OptionStats:
    """One contract × policy over the worlds it was evaluated in."""

    contract: str
    option: str
    kind: str  # plain | single | best
    policy_index: int
    nets: np.ndarray
    points: np.ndarray
    made: np.ndarray
    thirds: np.ndarray
    item: str | None = None  # the announced item of a 'single' row
    conditional: bool = False  # announced per talon sample (after-talon, talon contracts)
    success: np.ndarray | None = None  # per world, for worlds where the item was announced
    announced: np.ndarray | None = None  # per world, was the item announced
    groups: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.nets)


@dataclass
class Comparison:
    """A paired comparison of two options on their common worlds."""

    diff: float
    se: float
    samples: int

    @property
    def within_noise(self) -> bool:
        return not math.isfinite(self.se) or abs(self.diff) < NOISE_SE * self.se


@dataclass
class Advice:
    """The whole answer: tables, recommendation and everything needed to reproduce it."""

    table: pd.DataFrame
    announcements: pd.DataFrame
    recommendation: dict
    meta: dict
    points: dict[str, np.ndarray]  # rounded card points per world, plain play, by contract
    exchanges: pd.DataFrame | None = None  # given-talon mode: the exchanges raced
    #: Per-world values of every reported option (for custom analyses and tests).
    options: list[OptionStats] = field(default_factory=list)


def prefix_results(results: Sequence[WorldResult], contract: str) -> list[WorldResult]:
    """The longest prefix 0, 1, 2, … of worlds in which ``contract`` was completed."""
    out = []
    for expected, r in enumerate(results):
        if r.index != expected or contract not in r.contracts:
            break
        out.append(r)
    return out


def _stats(plan: ContractPlan, results: Sequence[WorldResult], p: int, option: str,
           kind: str) -> OptionStats:
    outs: list[PolicyOutcome] = [r.contracts[plan.contract].outcomes[p] for r in results]
    pol = plan.policies[p]
    st = OptionStats(
        contract=plan.contract, option=option, kind=kind, policy_index=p,
        nets=np.array([o.net for o in outs], dtype=float),
        points=np.array([round_points(o.thirds) for o in outs], dtype=float),
        made=np.array([o.made for o in outs], dtype=bool),
        thirds=np.array([o.thirds for o in outs], dtype=np.int64),
        groups=[o.group for o in outs], discards=[o.discard for o in outs])
    if kind == "single":
        item = next(iter(pol.before or pol.after_allowed))
        st.item = item
        st.conditional = bool(pol.after_allowed) and not pol.unconditional
        announced = np.array([item in pol.before or item in o.announced for o in outs], bool)
        st.announced = announced
        st.success = np.array([item_success(item, round_points(o.thirds), o.made, o.valat)
                               for o in outs], dtype=bool)
    return st


def _used_option(pol_before: frozenset[str], outs: list[PolicyOutcome]) -> str:
    """The option string of a combination policy: its before items and the after items used."""
    parts = [f"{n}@before" for n in pol_before]
    used = sorted({a for o in outs for a in o.announced})
    parts += [f"{n}@after" for n in used]
    return ";".join(sorted(parts)) if parts else "plain"


def option_stats(plans: Sequence[ContractPlan],
                 results: Sequence[WorldResult]) -> list[OptionStats]:
    """Statistics of every reported option: plain, each single item, the best combination."""
    out: list[OptionStats] = []
    for plan in plans:
        res = prefix_results(results, plan.contract)
        if not res:
            continue
        names = set()
        best: OptionStats | None = None
        for p, pol in enumerate(plan.policies):
            if pol.kind == "combo":
                outs = [r.contracts[plan.contract].outcomes[p] for r in res]
                st = _stats(plan, res, p, _used_option(pol.before, outs), "best")
                if best is None or st.nets.mean() > best.nets.mean() + 1e-12:
                    best = st
                continue
            st = _stats(plan, res, p, pol.name, pol.kind)
            names.add(st.option)
            out.append(st)
        # The best combination is worth a row only if it beats plain play and every
        # single announcement of the contract (else one of those rows already says it).
        own = [s.nets.mean() for s in out if s.contract == plan.contract]
        if best is not None and best.option not in names and best.nets.mean() > max(own):
            out.append(best)
    return out


def work_summary(plans: Sequence[ContractPlan], results: Sequence[WorldResult]) -> dict:
    """Where the solves went, per contract, over the worlds used in the estimates.

    Per phase (``race``: ranking exchanges on inner worlds; ``eval``: the
    reported values) the positions solved, how many exactly, how many only
    bounded (node budget spent; their values are midpoints), the null-window
    tests, nodes and seconds, in total and per world; plus the races that
    their node budget ended early and the evaluation values that are bounds.
    """
    from .evaluate import PhaseStats

    out: dict = {}
    for plan in plans:
        res = prefix_results(results, plan.contract)
        totals: dict[str, PhaseStats] = {}
        cut = bounded_eval = 0
        for r in res:
            cw = r.contracts[plan.contract]
            for phase, st in cw.work.items():
                totals.setdefault(phase, PhaseStats()).add(st)
            cut += int(cw.race_cut)
            bounded_eval += int(cw.outcomes[0].bounded) if cw.outcomes else 0
        n = len(res)
        entry: dict = {"worlds": n, "races_cut": cut, "bounded_evaluations": bounded_eval}
        for phase, st in totals.items():
            if not st.positions:
                continue
            d = st.as_dict()
            if n:
                d["per_world"] = {k: d[k] / n for k in ("positions", "tests", "nodes", "seconds")}
            entry[phase] = d
        out[plan.contract] = entry
    return out


def bird_prefix(results: Sequence[WorldResult], contract: str) -> list[WorldResult]:
    """The longest prefix 0, 1, 2, … of worlds whose birds of ``contract`` were judged."""
    out = []
    for expected, r in enumerate(results):
        if r.index != expected or contract not in r.birds:
            break
        out.append(r)
    return out


def birds_over_budget(results: Sequence[WorldResult], contract: str) -> int:
    """Worlds of the bird prefix left out because a game-point solve ran over its budget."""
    return sum(1 for r in bird_prefix(results, contract) if r.birds[contract].over_budget)


def bird_rows(birds: Sequence[tuple[str, tuple]], results: Sequence[WorldResult],
              key: dict) -> list[dict]:
    """Table rows (kind ``bird``) of every bird announcement, from the game-point solves.

    Per world the policy is "announce when the declarer holds the bird"
    (after the talon: when he holds it after the exchange).  ``gain`` is the
    paired difference with the game-point value without announcements (silent
    birds counted) on the same worlds (0 where it cannot be announced);
    ``p_success`` is over the worlds where it was announced;
    ``announce_rate`` how often it could be.  ``mean_net`` is a game-point
    net, not comparable with the card-point rows' nets, which count no bird
    items (NaN when some world had no bird to announce and was not solved).
    """
    rows = []
    for contract, sets in birds:
        # Worlds over the game-point node budget are left out (counted in the meta data).
        res = [r for r in bird_prefix(results, contract) if not r.birds[contract].over_budget]
        n = len(res)
        for i, annset in enumerate(sets):
            if i == 0:
                continue
            option = ";".join(f"{b}@{lv}" for b, lv in annset)
            base = np.array([r.birds[contract].nets[0] for r in res], dtype=float)
            with_ = np.array([r.birds[contract].nets[i] for r in res], dtype=float)
            announced = ~np.isnan(with_)
            policy = np.where(announced, with_, base)
            success = np.array([r.birds[contract].success[i] for r in res], dtype=bool)
            # Worlds without a bird to announce were not solved (gain 0, net unknown): the
            # game-point E[net] exists only when every world's baseline was solved.
            mean, se = mean_se(policy) if not np.isnan(base).any() else (math.nan, math.nan)
            gain, gain_se = mean_se(np.where(announced, with_ - base, 0.0))
            rows.append({**key, "contract": contract, "option": option, "samples": n,
                         "win_prob": math.nan, "win_prob_se": math.nan, "mean_net": mean,
                         "mean_net_se": se, "mean_points": math.nan, "kind": "bird",
                         "mean_points_se": math.nan, "gain": gain, "gain_se": gain_se,
                         "p_success": float(success[announced].mean()) if announced.any()
                         else math.nan,
                         "announce_rate": float(announced.mean()) if n else math.nan,
                         "conditional": any(lv == "after" for _, lv in annset),
                         "talon_behaviour": ""})
    return rows


def compare(a: OptionStats, b: OptionStats) -> Comparison:
    """Paired difference a − b on their common worlds (the same world indices)."""
    n = min(a.n, b.n)
    if n == 0:
        return Comparison(math.nan, math.nan, 0)
    d = a.nets[:n] - b.nets[:n]
    m, se = mean_se(d)
    return Comparison(m, se, n)


def talon_behaviour(st: OptionStats) -> str:
    """The group taken most often, e.g. ``takes 4-6 62%`` (empty in Solo)."""
    groups = [g for g in st.groups if g]
    if not groups:
        return ""
    group, count = Counter(groups).most_common(1)[0]
    return f"takes {group} {100 * count / len(groups):.0f}%"


def build_table(stats: Sequence[OptionStats], key: dict,
                extra_rows: Sequence[dict] = ()) -> pd.DataFrame:
    """The advice-schema table: a row per option, the bird rows, plus ``pass``."""
    plain = {s.contract: s for s in stats if s.kind == "plain"}
    rows = []
    for s in stats:
        mean, se = mean_se(s.nets)
        win = float(s.made.mean()) if s.n else math.nan
        win_se = math.sqrt(win * (1 - win) / s.n) if s.n > 1 else math.nan
        pts, pts_se = mean_se(s.points)
        gain = gain_se = math.nan
        if s.kind != "plain" and s.contract in plain:
            c = compare(s, plain[s.contract])
            gain, gain_se = c.diff, c.se
        p_success = announce_rate = math.nan
        if s.item is not None and s.announced is not None and s.success is not None:
            announce_rate = float(s.announced.mean()) if s.n else math.nan
            if s.announced.any():
                p_success = float(s.success[s.announced].mean())
        rows.append({**key, "contract": s.contract, "option": s.option, "samples": s.n,
                     "win_prob": win, "win_prob_se": win_se, "mean_net": mean,
                     "mean_net_se": se, "mean_points": pts, "kind": s.kind,
                     "mean_points_se": pts_se, "gain": gain, "gain_se": gain_se,
                     "p_success": p_success, "announce_rate": announce_rate,
                     "conditional": s.conditional, "talon_behaviour": talon_behaviour(s)})
    rows.extend(extra_rows)
    rows.append({**key, "contract": "pass", "option": "plain", "samples": 0,
                 "win_prob": math.nan, "win_prob_se": math.nan, "mean_net": 0.0,
                 "mean_net_se": 0.0, "mean_points": math.nan, "kind": "pass",
                 "mean_points_se": math.nan, "gain": math.nan, "gain_se": math.nan,
                 "p_success": math.nan, "announce_rate": math.nan, "conditional": False,
                 "talon_behaviour": ""})
    df = pd.DataFrame(rows, columns=[*SCHEMA_COLUMNS, *EXTRA_COLUMNS])
    return df.astype({"samples": "int32"})


def announcements_table(table: pd.DataFrame) -> pd.DataFrame:
    """The announcement rows (single items and best combinations) with their gains."""
    ann = table[table["kind"].isin(["single", "best", "bird"])]
    cols = ["contract", "option", "kind", "samples", "p_success", "announce_rate", "conditional",
            "gain", "gain_se", "mean_net", "mean_net_se"]
    return ann[cols].reset_index(drop=True)


def recommend(stats: Sequence[OptionStats], worlds: dict[str, int] | None = None) -> dict:
    """The option with the highest expected net if it beats passing, with margin and noise.

    ``worlds`` gives the worlds done per contract for *every* contract asked
    about (in display order), including those that got none.  A
    recommendation resting on fewer than ``MIN_WORLDS`` worlds of some
    contract, or leaving a contract unevaluated, is marked ``tentative`` and
    names them all (``thin_contracts``: 1..MIN_WORLDS-1 worlds,
    ``no_worlds``: none): a player must not read a one-world estimate, or a
    contract nobody looked at, as advice.
    """
    if worlds is None:
        worlds = {}
        for s in stats:
            if s.kind == "plain":
                worlds[s.contract] = s.n
    thin = [c for c, n in worlds.items() if 0 < n < MIN_WORLDS]
    missing = [c for c, n in worlds.items() if n == 0]
    usable = [s for s in stats if s.n >= 1]
    if not usable:
        rec = {"contract": "pass", "option": "plain", "mean_net": 0.0, "mean_net_se": math.nan,
               "samples": 0, "reason": "no world was evaluated in the time limit",
               "vs_pass_within_noise": True, "runner_up": None}
    else:
        rec = _recommend(usable, stats)
    rec["tentative"] = bool(thin or missing)
    rec["thin_contracts"] = thin
    rec["no_worlds"] = missing
    rec["worlds"] = dict(worlds)
    return rec


def _recommend(usable: Sequence[OptionStats], stats: Sequence[OptionStats]) -> dict:
    ranked = sorted(usable, key=lambda s: -float(s.nets.mean()))
    best = ranked[0]
    mean, se = mean_se(best.nets)
    rec: dict = {"contract": best.contract, "option": best.option, "mean_net": mean,
                 "mean_net_se": se, "samples": best.n}
    others = [s for s in ranked[1:] if s.contract != best.contract or s.option != best.option]
    # Runner-up: the best option of another contract (the bidding decision), else another option.
    other_contract = [s for s in others if s.contract != best.contract]
    runner = other_contract[0] if other_contract else (others[0] if others else None)
    if mean <= 0:
        rec.update({"contract": "pass", "option": "plain", "best_bid": best.contract,
                    "best_bid_option": best.option, "best_bid_mean_net": mean,
                    "best_bid_mean_net_se": se, "mean_net": 0.0, "mean_net_se": 0.0,
                    "vs_pass_within_noise": bool(math.isfinite(se) and -mean < NOISE_SE * se),
                    "runner_up": None})
        return rec
    rec["vs_pass_within_noise"] = bool(not math.isfinite(se) or mean < NOISE_SE * se)
    if runner is not None:
        c = compare(best, runner)
        rec["runner_up"] = {"contract": runner.contract, "option": runner.option,
                            "mean_net": float(runner.nets.mean()), "difference": c.diff,
                            "difference_se": c.se, "within_noise": c.within_noise}
    else:
        rec["runner_up"] = None
    return rec


def points_by_contract(stats: Sequence[OptionStats]) -> dict[str, np.ndarray]:
    """Rounded card points per world of plain play, by contract (for the plot)."""
    return {s.contract: s.points for s in stats if s.kind == "plain"}


def exchanges_table(races: dict) -> pd.DataFrame:
    """Given-talon mode: every exchange raced, with its inner-sample estimate.

    The inner estimates chose the exchange, so the winner's is biased upward;
    the unbiased estimate of the chosen exchange is the main table's.
    """
    rows = []
    for contract, race in races.items():
        chosen = {e for e, _ in race.choices[:1]}
        for e, ex in enumerate(race.candidates):
            n, mean, se = race.plain[e]
            rows.append({"contract": contract, "talon_pick": ex.group_label,
                         "discard": ex.discard_ids, "inner_worlds": n, "inner_mean_net": mean,
                         "inner_mean_net_se": se, "survived": e in race.survivors,
                         "chosen": e in chosen})
    return pd.DataFrame(rows)


def _fmt(x: float, digits: int = 1, sign: bool = False) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _pm(mean: float, se: float, digits: int = 1, sign: bool = True) -> str:
    return f"{_fmt(mean, digits, sign)} ± {_fmt(se, digits)}"


def contract_text(table: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """The terminal contract table (plain play per contract, and pass)."""
    rows = []
    for _, r in table[table["kind"].isin(["plain", "pass"])].iterrows():
        if r["contract"] == "pass":
            rows.append({"contract": "pass", "P(make)": "", "E[points]": "",
                         "E[net game points]": _pm(0.0, 0.0), "talon": "", "worlds": ""})
            continue
        rows.append({
            "contract": names.get(r["contract"], r["contract"]),
            "P(make)": (f"{100 * r['win_prob']:.0f}% ± {100 * r['win_prob_se']:.0f}"
                        if math.isfinite(r["win_prob_se"]) else _fmt(100 * r["win_prob"], 0) + "%"),
            "E[points]": _pm(r["mean_points"], r["mean_points_se"], 1, False),
            "E[net game points]": _pm(r["mean_net"], r["mean_net_se"]),
            "talon": r["talon_behaviour"] or "—",
            "worlds": str(r["samples"]),
        })
    return pd.DataFrame(rows)


def announcements_text(ann: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """The terminal announcements table."""
    rows = []
    for _, r in ann.iterrows():
        rate = r["announce_rate"]
        rows.append({
            "contract": names.get(r["contract"], r["contract"]),
            "announce": ({"best": "best: ", "bird": "bird: "}.get(r["kind"], "")
                         + r["option"]),
            "P(success)": _fmt(100 * r["p_success"], 0) + "%" if math.isfinite(r["p_success"])
            else "–",
            "announced": (_fmt(100 * rate, 0) + "% of worlds (when held)"
                          if r["kind"] == "bird"
                          else _fmt(100 * rate, 0) + "% of talons" if r["conditional"]
                          else "always" if r["kind"] == "single" else "when best"),
            "gain vs plain": _pm(r["gain"], r["gain_se"]),
            "E[net]": _pm(r["mean_net"], r["mean_net_se"]),
        })
    return pd.DataFrame(rows)


def work_text(work: dict, names: dict[str, str]) -> pd.DataFrame:
    """The terminal table of where the solves went (per world, by contract).

    ``race`` positions rank the exchanges on inner worlds, ``eval`` positions
    give the reported values; "bounded" counts values whose node budget ran
    out (their points are the midpoint of the proved bounds).
    """
    rows = []
    for contract, w in work.items():
        n = w["worlds"]
        race, ev = w.get("race", {}), w.get("eval", {})

        def per(d: dict, key: str, n: int = n) -> str:
            return _fmt(d[key] / n, 1) if n and d else "–"

        nodes = (race.get("nodes", 0) + ev.get("nodes", 0)) / n if n else math.nan
        secs = (race.get("seconds", 0.0) + ev.get("seconds", 0.0)) / n if n else math.nan
        rows.append({
            "contract": names.get(contract, contract), "worlds": str(n),
            "solve s/world": _fmt(secs, 1),
            "race positions": per(race, "positions"),
            "race bounded": str(race.get("bounded", 0)) if race else "–",
            "eval positions": per(ev, "positions"),
            "eval bounded": str(w.get("bounded_evaluations", 0)),
            "M nodes/world": _fmt(nodes / 1e6, 1),
            "races cut": str(w.get("races_cut", 0)) if race else "–",
        })
    return pd.DataFrame(rows)


def recommendation_text(rec: dict, names: dict[str, str]) -> str:
    """One line a player can act on."""
    def label(contract: str, option: str) -> str:
        name = names.get(contract, contract)
        return name if option == "plain" else f"{name} with {option.replace(';', ' + ')}"

    if rec.get("tentative"):
        worlds = rec.get("worlds", {})
        parts = []
        thin = rec.get("thin_contracts", [])
        if thin:
            parts.append(f"fewer than {MIN_WORLDS} worlds for " + ", ".join(
                f"{names.get(c, c)} ({worlds[c]})" if c in worlds else names.get(c, c)
                for c in thin))
        missing = rec.get("no_worlds", [])
        if missing:
            parts.append("no worlds in time for " + ", ".join(names.get(c, c) for c in missing))
        firm = recommendation_text({**rec, "tentative": False}, names)
        return (f"Recommendation (tentative: {'; '.join(parts)}; raise --time-limit or "
                f"--samples):" + firm[len("Recommendation:"):])
    if rec["contract"] == "pass":
        if rec.get("best_bid") is None:
            return f"Recommendation: pass ({rec.get('reason', 'nothing beats passing')})."
        noise = " — within noise of passing" if rec.get("vs_pass_within_noise") else ""
        return (f"Recommendation: pass. The best bid, {label(rec['best_bid'], rec['best_bid_option'])},"
                f" expects {_pm(rec['best_bid_mean_net'], rec['best_bid_mean_net_se'])} game points"
                f" (passing scores 0){noise}.")
    line = (f"Recommendation: bid {label(rec['contract'], rec['option'])}: "
            f"E[net] {_pm(rec['mean_net'], rec['mean_net_se'])} game points vs 0 for passing")
    if not math.isfinite(rec["mean_net_se"]):
        line += f" ({rec['samples']} world: no error bar yet)"
    elif rec.get("vs_pass_within_noise"):
        line += " (within noise of passing)"
    ru = rec.get("runner_up")
    if ru:
        line += (f"; next best {label(ru['contract'], ru['option'])} "
                 f"{_fmt(ru['mean_net'], 1, True)}, difference {_pm(ru['difference'], ru['difference_se'])}")
        if ru["within_noise"] and math.isfinite(ru["difference_se"]):
            line += " — within noise"
    return line + "."


__all__ = [
    "Advice",
    "Comparison",
    "EXTRA_COLUMNS",
    "OptionStats",
    "SCHEMA_COLUMNS",
    "TARGET_POINTS",
    "announcements_table",
    "bird_prefix",
    "bird_rows",
    "announcements_text",
    "build_table",
    "compare",
    "contract_text",
    "mean_se",
    "option_stats",
    "prefix_results",
    "recommend",
    "recommendation_text",
    "talon_behaviour",
    "work_summary",
    "work_text",
]
