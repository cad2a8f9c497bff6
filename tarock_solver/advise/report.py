"""From the engine's series to the advice: the table, the recommendation, the metadata.

Every number is a control-variate estimate over the worlds (:mod:`.cv`): the
evaluator's mean over all worlds plus the exact − evaluator correction over the
contract's exact prefix.  An SE is given only when the exact prefix has
:data:`~.cv.MIN_EXACT` worlds; with fewer the row says it rests on the
evaluator (and the recommendation is tentative).

The recommendation ranks options by their estimate on **common worlds** and
gives the margin over the runner-up as a paired difference.  Plain play of each
contract is always a candidate; an announcement only when its paired gain over
plain play passes a one-sided test corrected for the number of announcement
options it is chosen among (:data:`ANNOUNCE_ALPHA`), so the best of many noisy
options does not win by luck.  The numbers reported for the chosen option
come from worlds that did not choose it (two-fold cross-fitting: the even worlds
choose and the odd ones report, and the other way round), so the best of many
noisy options is not reported with the optimism that picked it.

A close call (the top two within :data:`NOISE_SE` SEs of their paired difference) goes
to the side of the difference's empirical-Bayes posterior (:func:`pair_split`): the
exact correction keeps the weight its evidence earns against the prior of the
evaluator's bias on a pair (:data:`~.cv.PAIR_BIAS_PRIOR`), so the name does not flip
with the few exact worlds' noise.  ``settled`` says when that went against the sign of
the unbiased difference (which is still the margin shown); the runner-up's ``split``
holds the difference's parts and its posterior.

Silent birds: a contract whose plain play has :data:`~.cv.MIN_BIRD_WORLDS`
game-point worlds gets ``net_birds`` (its nets with the birds of plain play,
:meth:`~.engine.ContractSeries.birds`).  When the recommended contract and its
runner-up both have them, the recommendation is made again on nets with birds
(every contract that has them; the others without) and says so.

The table follows the advice schema of NOTATION.md 5.3 (``deal_id, rules,
rule_options, seat, contract, option, samples, win_prob, win_prob_se,
mean_net, mean_net_se, mean_points``), one row per contract × option plus a
``pass`` row, with further columns after those.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist

import numpy as np
import pandas as pd

from .cv import (
    MIN_BIRD_WORLDS,
    MIN_EXACT,
    MIN_WORLDS,
    TENTATIVE_SHRINK,
    Estimate,
    bias_weight,
    combine,
)
from .engine import ContractSeries

__all__ = ["ANNOUNCE_ALPHA", "MIN_ANNOUNCE_GAIN", "Advice", "EXTRA_COLUMNS", "NOISE_SE", "OptionRow", "SCHEMA_COLUMNS",
           "announce_gate", "announce_gate_se", "announce_tests",
           "build_table", "eligible", "option_rows", "pair_split", "recommend"]

SCHEMA_COLUMNS = ("deal_id", "rules", "rule_options", "seat", "contract", "option", "samples",
                  "win_prob", "win_prob_se", "mean_net", "mean_net_se", "mean_points")
EXTRA_COLUMNS = ("kind", "mean_points_se", "exact_worlds", "source", "gain", "gain_se",
                 "announce_rate", "conditional", "talon_behaviour", "mean_net_birds",
                 "mean_net_birds_se", "bird_worlds")
#: Two options closer than this many standard errors of their difference are a close call.
NOISE_SE = 2.0
#: An announcement is recommended only when its paired gain over plain play of the same
#: contract passes a one-sided test at level ``ANNOUNCE_ALPHA / K``, K the number of
#: announcement options the recommendation chooses among (Bonferroni): plain play is the
#: default, and among a dozen noisy options (a Kramerpoi's net swings by 80 points a
#: world) one gains a standard error by luck most of the time; so the chance that *any*
#: option without a gain enters is at most ``ANNOUNCE_ALPHA``, as it was for one option
#: at one SE.
ANNOUNCE_ALPHA = 0.16
#: ... and at least this many game points: a gain that rounds to nothing (an
#: announcement made on 1 % of the talons for +0.01 ± 0.01) is not worth making.
MIN_ANNOUNCE_GAIN = 0.5


@dataclass
class OptionRow:
    """One contract × policy: its estimates over the worlds."""

    contract: str
    policy: int
    option: str
    kind: str  # plain | single | best
    net: Estimate
    made: Estimate
    points: Estimate
    gain: Estimate | None  # vs plain play of the same contract (paired); None for plain
    announce_rate: float
    conditional: bool
    talon_behaviour: str
    #: The net with the silent birds of plain play (None: too few game-point worlds).
    net_birds: Estimate | None = None
    bird_worlds: int = 0

    @property
    def source(self) -> str:
        if self.net.exact >= MIN_EXACT:
            return "exact-corrected"
        return "evaluator only" if self.net.exact == 0 else "few exact worlds"


@dataclass
class Advice:
    """The whole answer: tables, recommendation and everything needed to reproduce it."""

    table: pd.DataFrame
    recommendation: dict
    meta: dict
    rows: list[OptionRow] = field(default_factory=list)
    #: Rounded card points of plain play per world by the evaluator, by contract (plots).
    points: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def announcements(self) -> pd.DataFrame:
        """The announcement rows (single items and best combinations)."""
        return self.table[self.table["kind"].isin(["single", "best"])].reset_index(drop=True)


def talon_behaviour(ser: ContractSeries) -> str:
    """The groups taken, most frequent first, e.g. ``takes 4-6 62%, 1-3 38%``."""
    groups = [ex.group_label for ex in ser.exchanges if ex is not None]
    if not groups:
        return ""
    counts = Counter(groups).most_common()
    return "takes " + ", ".join(f"{g} {100 * n / len(groups):.0f}%" for g, n in counts[:3])


def _announce_rate(ser: ContractSeries, p: int) -> tuple[float, bool]:
    """Share of worlds in which the policy announced after-talon items; is it conditional."""
    pol = ser.plan.policies[p]
    conditional = bool(pol.after_allowed) and not pol.unconditional
    if not ser.choices:
        return math.nan, conditional
    if not pol.after_allowed:
        return (1.0 if pol.before else math.nan), conditional
    said = [any(level == "after" for _, level in ser.plan.annsets[ch[p]]) for ch in ser.choices]
    return float(np.mean(said)), conditional


def _gain(ser: ContractSeries, policy: int, min_prefix: int,
          worlds: np.ndarray | None = None) -> Estimate:
    """A policy's net minus plain play's, paired on the same worlds (optionally masked)."""
    return combine(ser.gain_terms(policy, worlds), min_prefix=min_prefix)


def option_rows(series: dict[str, ContractSeries]) -> list[OptionRow]:
    rows = []
    for ser in series.values():
        if not ser.worlds:
            continue
        behaviour = talon_behaviour(ser)
        bird_worlds = len(ser.birds())
        for p, pol in enumerate(ser.plan.policies):
            kind = {"combo": "best"}.get(pol.kind, pol.kind)
            gain = _gain(ser, p, MIN_EXACT) if p else None
            rate, cond = _announce_rate(ser, p)
            birds = ser.estimate(p, "net_birds") if bird_worlds >= MIN_BIRD_WORLDS else None
            rows.append(OptionRow(ser.contract, p, pol.name, kind, ser.estimate(p, "net"),
                                  ser.estimate(p, "made"), ser.estimate(p, "points"), gain,
                                  rate, cond, behaviour, birds, bird_worlds))
    return rows


def build_table(rows: Sequence[OptionRow], key: dict) -> pd.DataFrame:
    """The advice-schema table: a row per option, plus ``pass``."""
    out = []
    for r in rows:
        out.append({**key, "contract": r.contract, "option": r.option, "samples": r.net.worlds,
                    "win_prob": r.made.mean, "win_prob_se": r.made.se, "mean_net": r.net.mean,
                    "mean_net_se": r.net.se, "mean_points": r.points.mean, "kind": r.kind,
                    "mean_points_se": r.points.se, "exact_worlds": r.net.exact,
                    "source": r.source,
                    "gain": r.gain.mean if r.gain else math.nan,
                    "gain_se": r.gain.se if r.gain else math.nan,
                    "announce_rate": r.announce_rate, "conditional": r.conditional,
                    "talon_behaviour": r.talon_behaviour,
                    "mean_net_birds": r.net_birds.mean if r.net_birds else math.nan,
                    "mean_net_birds_se": r.net_birds.se if r.net_birds else math.nan,
                    "bird_worlds": r.bird_worlds})
    out.append({**key, "contract": "pass", "option": "plain", "samples": 0,
                "win_prob": math.nan, "win_prob_se": math.nan, "mean_net": 0.0,
                "mean_net_se": 0.0, "mean_points": math.nan, "kind": "pass",
                "mean_points_se": math.nan, "exact_worlds": 0, "source": "by definition",
                "gain": math.nan, "gain_se": math.nan, "announce_rate": math.nan,
                "conditional": False, "talon_behaviour": "", "mean_net_birds": 0.0,
                "mean_net_birds_se": 0.0, "bird_worlds": 0})
    df = pd.DataFrame(out, columns=[*SCHEMA_COLUMNS, *EXTRA_COLUMNS])
    return df.astype({"samples": "int32", "exact_worlds": "int32", "bird_worlds": "int32"})


# -- the recommendation -------------------------------------------------------------------

def _net(contract: str, birds: frozenset[str]) -> str:
    """The series quantity a contract's nets are compared on."""
    return "net_birds" if contract in birds else "net"


def _paired(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
            birds: frozenset[str] = frozenset(), *, worlds: np.ndarray | None = None,
            min_prefix: int = MIN_EXACT) -> Estimate:
    """E[a] − E[b] in net game points on common worlds (None: passing, 0), optionally on
    the masked ``worlds``."""
    return combine(_pair_terms(series, a, b, birds, worlds), min_prefix=min_prefix)


def _pair_terms(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
                birds: frozenset[str], worlds: np.ndarray | None) -> list:
    """The control-variate terms of E[a] − E[b] (None: passing, 0)."""
    terms = []
    if a is not None:
        terms += series[a.contract].terms(a.policy, _net(a.contract, birds), worlds=worlds)
    if b is not None:
        terms += series[b.contract].terms(b.policy, _net(b.contract, birds), -1.0,
                                          worlds=worlds)
    return terms


def pair_split(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
               birds: frozenset[str] = frozenset(), *, worlds: np.ndarray | None = None,
               min_prefix: int = MIN_EXACT) -> dict[str, float]:
    """E[a] − E[b] (None: passing, 0) split into its two parts, and its empirical-Bayes
    posterior under cv's two-level model.

    The paired difference is the evaluator's part (its mean over every world) plus the
    exact correction's (the mean residual over the exact worlds).  The correction
    estimates the evaluator's bias on this pair; under the prior of that bias measured
    on other hands (:data:`~.cv.PAIR_BIAS_PRIOR`) its posterior mean is the correction
    times :func:`~.cv.bias_weight` (NaN without an SE).  Keys: ``evaluator``,
    ``correction``, ``correction_se``, ``exact_worlds``, ``correction_weight``,
    ``posterior``."""
    terms = _pair_terms(series, a, b, birds, worlds)
    part = combine([t for t in terms if not t.correction], min_prefix=min_prefix)
    corr = combine([t for t in terms if t.correction], min_prefix=min_prefix)
    weight = (bias_weight(corr.mean, corr.se, corr.exact)
              if corr.has_se and math.isfinite(corr.mean) else math.nan)
    return {"evaluator": part.mean, "correction": corr.mean, "correction_se": corr.se,
            "exact_worlds": corr.exact, "correction_weight": weight,
            "posterior": part.mean + weight * corr.mean}


def _close(diff: Estimate) -> bool:
    """Is a paired difference a close call: within :data:`NOISE_SE` SEs, or without an SE?"""
    return bool(not diff.has_se or abs(diff.mean) < NOISE_SE * diff.se)


def _next_best(cands: Sequence[tuple[OptionRow, float]], best: OptionRow,
               talon_mode: bool) -> OptionRow | None:
    """The runner-up to ``best`` among ``(row, estimate)`` pairs: the best other contract
    (in talon mode, any other option), or None — passing — when that is worth ≤ 0 outside
    talon mode."""
    others = [c for c in cands
              if (c[0] is not best if talon_mode else c[0].contract != best.contract)]
    nxt = max(others, key=lambda c: (c[1], -c[0].policy), default=None)
    if nxt is None or (nxt[1] <= 0 and not talon_mode):
        return None
    return nxt[0]


def _settled(series: dict[str, ContractSeries], first: OptionRow | None,
             second: OptionRow | None, diff: Estimate, birds: frozenset[str] = frozenset(),
             *, worlds: np.ndarray | None = None, min_prefix: int = MIN_EXACT) -> bool:
    """Does a close call between ``first`` (ahead by ``diff``, their unbiased paired
    difference) and ``second`` (None: passing) go to ``second``?

    Within :data:`NOISE_SE` SEs the unbiased difference cannot tell the two apart, and
    its sign is mostly the noise of the exact correction: on most hands the evaluator's
    bias on a pair is small against a run's correction SE of 1–4 game points.  The
    decision that maximises the expected net given the data is the sign of the posterior
    mean (:func:`pair_split`), which leans on the evaluator's difference over
    all worlds where the correction is noise, and so names the same side of the pair seed
    after seed.  A difference beyond noise is never overturned."""
    if not (diff.has_se and _close(diff)):
        return False
    post = pair_split(series, first, second, birds, worlds=worlds,
                      min_prefix=min_prefix)["posterior"]
    return math.isfinite(post) and post < 0


def announce_gate_se(options: int) -> float:
    """How many SEs an announcement's paired gain needs when there are ``options``
    announcement options to test (one: about one SE; three: 1.6; seven: 2.0; ten: 2.1)."""
    return NormalDist().inv_cdf(1.0 - ANNOUNCE_ALPHA / max(1, options))


def announce_tests(rows: Sequence[OptionRow]) -> int:
    """K of :data:`ANNOUNCE_ALPHA`: the distinct announcement tests among ``rows``.

    The recommendation is one choice among all of them, so every contract's count:
    options with an SE, an option whose gain equals another's of the same contract
    counted once (a best set that is one single item on every world, or two items
    announced on the same talons), one never announced (gain 0 ± 0, plain play itself)
    not at all."""
    tests: set[tuple[str, float, float]] = set()
    for r in rows:
        g = r.gain
        if r.kind == "plain" or g is None or not g.has_se or (g.mean == 0.0 and g.se == 0.0):
            continue
        tests.add((r.contract, g.mean, g.se))
    return len(tests)


def announce_gate(rows: Sequence[OptionRow]) -> float:
    """The SEs an announcement's gain needs among ``rows`` (:func:`announce_gate_se` of
    :func:`announce_tests`)."""
    return announce_gate_se(announce_tests(rows))


def _gain_pays(gain: Estimate | None, gate_se: float) -> bool:
    """Does an announcement's paired gain over plain play earn it a place in the choice?"""
    return (gain is not None and gain.has_se and gain.mean >= MIN_ANNOUNCE_GAIN
            and gain.mean >= gate_se * gain.se)


def eligible(rows: Sequence[OptionRow], gate_se: float | None = None) -> list[OptionRow]:
    """The options the recommendation chooses from: plain play of every contract, and
    the announcements whose gain pays (:data:`ANNOUNCE_ALPHA`; ``gate_se``: the gate
    already worked out for these rows)."""
    gate = announce_gate(rows) if gate_se is None else gate_se
    return [r for r in rows if r.kind == "plain" or _gain_pays(r.gain, gate)]


def _half_choice(series: dict[str, ContractSeries], rows: Sequence[OptionRow],
                 mask: np.ndarray, gate: float, allow_pass: bool = True,
                 birds: frozenset[str] = frozenset()) -> OptionRow | None:
    """The option the recommendation's rule picks on the masked worlds alone (None:
    passing): the same eligibility (the whole run's announcement ``gate``), the same
    preference for options with an SE and the same settling of a close call between two
    of them (:func:`_settled`), with half the exact worlds."""
    half = MIN_EXACT // 2
    cands = []
    for r in rows:
        ser = series[r.contract]
        e = combine(ser.terms(r.policy, _net(r.contract, birds), worlds=mask),
                    min_prefix=half)
        if not math.isfinite(e.mean):
            continue
        if r.kind != "plain" and not _gain_pays(_gain(ser, r.policy, half, mask), gate):
            continue
        cands.append((r, e))
    firm = [(r, e) for r, e in cands if e.has_se]
    best, value = None, (0.0 if allow_pass else -math.inf)
    for r, e in firm or cands:
        if e.mean > value + 1e-12:
            best, value = r, e.mean
    if not firm:
        return best
    # the runner-up as the recommendation takes it, and a close call settled the same way
    if best is None:
        runner = max(firm, key=lambda c: (c[1].mean, -c[0].policy))[0]
    else:
        runner = _next_best([(r, e.mean) for r, e in firm], best, not allow_pass)
        if runner is None and not allow_pass:
            return best
    diff = _paired(series, best, runner, birds, worlds=mask, min_prefix=half)
    if _settled(series, best, runner, diff, birds, worlds=mask, min_prefix=half):
        return runner
    return best


def _held_out(series: dict[str, ContractSeries], rows: Sequence[OptionRow], worlds: int, *,
              gate: float, allow_pass: bool = True,
              birds: frozenset[str] = frozenset()) -> dict:
    """Two-fold cross-fitting: each half chooses, the other half reports."""
    idx = np.arange(worlds)
    halves = [idx % 2 == 0, idx % 2 == 1]
    picks = [_half_choice(series, rows, h, gate, allow_pass, birds) for h in halves]
    parts: dict[str, list[Estimate]] = {"net": [], "points": [], "made": []}
    for pick, other in zip(picks, reversed(halves), strict=True):
        for what in parts:
            if pick is None:
                zero = 0.0 if what == "net" else math.nan
                parts[what].append(Estimate(zero, 0.0 if what == "net" else math.nan,
                                            int(other.sum()), int(other.sum())))
            else:
                key = _net(pick.contract, birds) if what == "net" else what
                parts[what].append(combine(series[pick.contract].terms(pick.policy, key,
                                                                       worlds=other),
                                           min_prefix=MIN_EXACT // 2))
    out = {"choices": [None if p is None else {"contract": p.contract, "option": p.option}
                       for p in picks]}
    for what, (a, b) in parts.items():
        out[what] = (a.mean + b.mean) / 2
        out[what + "_se"] = math.sqrt(a.se ** 2 + b.se ** 2) / 2
    return out


#: Lower is bid only over a senior's Three (``takeover_mode=lower_bid``): it is never
#: an alternative to opening with Three, so it is recommended only for that auction.
CONDITIONAL_CONTRACT = "lower"
#: The contract a Lower is bid over (unavailable once it has been bid).
REPLACED_CONTRACT = "three"


def recommend(series: dict[str, ContractSeries], rows: Sequence[OptionRow], *,
              talon_mode: bool = False) -> dict:
    """The option with the highest expected net, if it beats passing; see the module.

    In talon mode the contract is bid and the talon is out: passing and
    before-talon announcements are past decisions, so neither is recommended.

    Lower and Three are never open to a bidder at the same time: Lower is legal only
    over a Three of a senior player, and then Three is gone.  So the recommendation
    is made among the opening bids (Lower left out), and when the seat may bid Lower
    ``if_senior_three`` holds the best answer to a senior's Three (Three left out).
    """
    if talon_mode:
        return _with_birds(series, rows, talon_mode=True)
    opening = [r for r in rows if r.contract != CONDITIONAL_CONTRACT]
    rec = _with_birds(series, opening)
    if len(opening) < len(rows):
        over = [r for r in rows if r.contract != REPLACED_CONTRACT]
        cond = _with_birds(series, over)
        rec["if_senior_three"] = {k: cond[k] for k in (
            "contract", "option", "mean_net", "mean_net_se", "mean_points", "mean_points_se",
            "p_make", "close_call", "tentative", "runner_up", "birds_counted", "settled")
            if k in cond}
    return rec


def _with_birds(series: dict[str, ContractSeries], rows: Sequence[OptionRow], *,
                talon_mode: bool = False) -> dict:
    """:func:`_recommend_pool` without birds; then, if the recommended contract and its
    runner-up both have their birds measured, again with every measured contract's
    birds (``birds_counted``)."""
    rec = _recommend_pool(series, rows, talon_mode=talon_mode)
    measured = frozenset(r.contract for r in rows if r.net_birds is not None)
    runner = (rec.get("runner_up") or {}).get("contract", "pass")
    pair = {rec["contract"], runner} - {"pass"}
    if not pair or not pair <= measured:
        rec["birds_counted"] = False
        return rec
    rec = _recommend_pool(series, rows, talon_mode=talon_mode, birds=measured)
    rec["birds_counted"] = True
    rec["birds_in"] = sorted(measured)
    return rec


def _recommend_pool(series: dict[str, ContractSeries], rows: Sequence[OptionRow], *,
                    talon_mode: bool = False, birds: frozenset[str] = frozenset()) -> dict:
    """:func:`recommend` among ``rows`` (and passing, unless in talon mode); the nets of
    the contracts in ``birds`` with their silent birds.  ``announce_gate`` records the
    SEs an announcement's gain needed here and the number of tests behind it."""
    worlds = max((s.worlds for s in series.values()), default=0)
    rows = [replace(r, net=r.net_birds) if r.contract in birds and r.net_birds is not None
            else r for r in rows]
    if talon_mode:
        rows = [r for r in rows if not series[r.contract].plan.policies[r.policy].before]
    tests = announce_tests(rows)
    gate = announce_gate_se(tests)
    allowed = eligible(rows, gate)
    firm = [r for r in allowed if r.net.has_se]
    pool = firm or [r for r in allowed if math.isfinite(r.net.mean)]
    tentative_why = []
    if worlds < MIN_WORLDS:
        tentative_why.append(f"{worlds} worlds (fewer than {MIN_WORLDS})")
    if not firm:
        some = any(r.net.exact for r in allowed)
        tentative_why.append(f"no option has {MIN_EXACT} exact worlds yet; the numbers are "
                             + (f"the evaluator's, their exact corrections shrunk (n of them "
                                f"count n/(n+{TENTATIVE_SHRINK:g}))" if some else
                                "the evaluator's alone"))
    best = max(pool, key=lambda r: (r.net.mean, -r.policy), default=None)
    # An option left out of the firm pool for want of exact worlds may still look better.
    # Its estimate (the correction shrunk, see cv) is then the better bet on what is
    # known: it is recommended, tentatively, with the firm best as its runner-up.
    passed_over = None  # the firm best, when a tentative option beat it
    if firm and best is not None:
        better = max((r for r in allowed if not r.net.has_se and math.isfinite(r.net.mean)
                      and r.net.mean > max(best.net.mean, 0.0 if not talon_mode else -math.inf)
                      and (talon_mode or r.contract != best.contract)),
                     key=lambda r: (r.net.mean, -r.policy), default=None)
        if better is not None:
            tentative_why.append(
                f"{better.contract} {better.option} has the higher estimate but only "
                f"{better.net.exact} exact worlds (fewer than {MIN_EXACT}); "
                f"{best.contract} {best.option} is the best with an SE")
            best, passed_over = better, best
    choice = best if best is not None and (best.net.mean > 0 or talon_mode) else None
    if choice is None:
        runner = best  # passing is recommended: the best bid is the runner-up
    else:
        # The runner-up is the next best estimate, with an SE or not: a contract right
        # behind the best but short of exact worlds is the real alternative (and, with
        # no SE for their difference, makes the call close), not the next firm one.
        runner = _next_best([(r, r.net.mean) for r in allowed if math.isfinite(r.net.mean)],
                            choice, talon_mode)  # None: passing is the runner-up
        if passed_over is not None:  # the runner-up (passing if it is worth ≤ 0)
            runner = passed_over if talon_mode or passed_over.net.mean > 0 else None
    settled = False
    # a close call between two firm options (passing is one) goes where the posterior says
    if firm and passed_over is None and (runner is not None
                                         or (choice is not None and not talon_mode)):
        if _settled(series, choice, runner, _paired(series, choice, runner, birds), birds):
            choice, runner = runner, choice
            settled = True
    rec: dict = {"worlds": worlds}
    if choice is None:
        rec.update(contract="pass", option="plain", mean_net=0.0, mean_net_se=0.0,
                   mean_points=math.nan, mean_points_se=math.nan, p_make=math.nan)
        if runner is not None:
            diff = _paired(series, runner, None, birds)
            rec["runner_up"] = {"contract": runner.contract, "option": runner.option,
                                "mean_net": runner.net.mean,
                                "mean_points": runner.points.mean,
                                "mean_points_se": runner.points.se,
                                "difference": -diff.mean, "difference_se": diff.se,
                                "split": pair_split(series, None, runner, birds)}
            rec["close_call"] = _close(diff)
        else:
            rec["runner_up"] = None
            rec["close_call"] = False
    else:
        diff = _paired(series, choice, runner, birds)
        held = _held_out(series, rows, worlds, gate=gate, allow_pass=not talon_mode,
                         birds=birds)
        rec.update(contract=choice.contract, option=choice.option,
                   mean_net=held["net"], mean_net_se=held["net_se"],
                   mean_points=held["points"], mean_points_se=held["points_se"],
                   p_make=held["made"],
                   in_sample={"mean_net": choice.net.mean, "mean_net_se": choice.net.se,
                              "mean_points": choice.points.mean,
                              "mean_points_se": choice.points.se, "p_make": choice.made.mean,
                              "exact_worlds": choice.net.exact},
                   held_out_choices=held["choices"],
                   held_out_agrees=all(c is not None and (c["contract"], c["option"])
                                       == (choice.contract, choice.option)
                                       for c in held["choices"]),
                   runner_up={"contract": runner.contract if runner else "pass",
                              "option": runner.option if runner else "plain",
                              "mean_net": runner.net.mean if runner else 0.0,
                              "mean_points": runner.points.mean if runner else math.nan,
                              "mean_points_se": runner.points.se if runner else math.nan,
                              "difference": diff.mean, "difference_se": diff.se,
                              "split": pair_split(series, choice, runner, birds)},
                   close_call=_close(diff))
    # a close call that went against the sign of its unbiased difference
    rec["settled"] = settled
    rec["tentative"] = bool(tentative_why)
    rec["tentative_reasons"] = tentative_why
    rec["announce_gate"] = {"se": gate, "tests": tests}
    return rec
