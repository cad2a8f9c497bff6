"""The recommendation: which option to bid, against which runner-up, how sure.

:func:`recommend` ranks the options by their estimates on common worlds:
plain play of every contract, an announcement only when its paired gain passes
the announcement gate (:func:`announce_gate`); a close call goes to the side of
the pair's posterior (:func:`pair_split`); the chosen option's numbers come from
the worlds that did not choose it (two-fold cross-fitting).  The rule and its
reasons: ``docs/ADVICE.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from statistics import NormalDist

import numpy as np

from .announcements import Policy
from .cv import (
    MIN_BIRD_WORLDS,
    MIN_EXACT,
    MIN_WORLDS,
    TENTATIVE_SHRINK,
    Estimate,
    bias_weight,
    combine,
)
from .results import (
    PASS_KIND,
    AnnounceGate,
    Choice,
    InSample,
    OptionRow,
    PairSplit,
    Recommendation,
    RunnerUp,
)
from .rows import gain
from .series import ContractSeries, SeriesSet

__all__ = ["ANNOUNCE_ALPHA", "CONDITIONAL_CONTRACT", "FIRM_NET_SE", "FIRM_POINTS_SE",
           "MIN_ANNOUNCE_GAIN", "NOISE_SE", "REPLACED_CONTRACT", "announce_gate",
           "announce_gate_se", "announce_tests", "eligible", "p_better", "pair_split",
           "recommend", "waiting_for"]

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
#: A close call is as firm as it gets once both options' standard errors are this small:
#: E[net] in game points and E[card points].
FIRM_NET_SE = 2.0
FIRM_POINTS_SE = 1.0


def waiting_for(rec: Recommendation, rows: Sequence[OptionRow]) -> str | None:
    """What a timed run still waits for before its answer is firm (None: firm).

    Firm: the recommendation is not tentative, and either it leads its runner-up by at
    least :data:`NOISE_SE` paired standard errors, or it is a named close call whose two
    options (passing needs none) have SE(E[net]) ≤ :data:`FIRM_NET_SE` and SE(E[card
    points]) ≤ :data:`FIRM_POINTS_SE`, their nets counting the birds where the
    recommendation does."""
    if rec.tentative:
        return rec.tentative_reasons[0] if rec.tentative_reasons else "exact worlds"
    if not rec.close_call:
        return None
    birds = set(rec.birds_in or ()) if rec.birds_counted else set()
    pairs = [(rec.contract, rec.option)]
    if rec.runner_up is not None:
        pairs.append((rec.runner_up.contract, rec.runner_up.option))
    for contract, option in pairs:
        row = next((r for r in rows if r.contract == contract and r.option == option), None)
        if row is None:
            continue  # passing worth 0 exactly (the others never bid) needs no SE
        if row.kind == PASS_KIND:
            if not row.net.has_se or row.net.se > FIRM_NET_SE:
                se = f"{row.net.se:.1f}" if row.net.has_se else "none yet"
                return (f"a close call: SE(E[net]) of passing ≤ {FIRM_NET_SE:g} "
                        f"(now {se})")
            continue
        net = row.net_birds if contract in birds and row.net_birds is not None else row.net
        if not net.has_se or net.se > FIRM_NET_SE:
            se = f"{net.se:.1f}" if net.has_se else "none yet"
            return (f"a close call: SE(E[net]) of {contract} ≤ {FIRM_NET_SE:g} "
                    f"(now {se})")
        if not row.points.has_se or row.points.se > FIRM_POINTS_SE:
            se = f"{row.points.se:.2f}" if row.points.has_se else "none yet"
            return (f"a close call: SE(E[card points]) of {contract} ≤ "
                    f"{FIRM_POINTS_SE:g} (now {se})")
    return None


def _net(contract: str, birds: frozenset[str]) -> str:
    """The series quantity a contract's nets are compared on."""
    return "net_birds" if contract in birds else "net"


def _paired(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
            birds: frozenset[str] = frozenset(), *, worlds: np.ndarray | None = None,
            min_prefix: int = MIN_EXACT) -> Estimate:
    """E[a] − E[b] in net game points on common worlds (None: passing), optionally on
    the masked ``worlds``."""
    return combine(_pair_terms(series, a, b, birds, worlds), min_prefix=min_prefix)


def _pair_terms(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
                birds: frozenset[str], worlds: np.ndarray | None) -> list:
    """The control-variate terms of E[a] − E[b] (None: passing)."""
    terms = []
    if a is not None:
        terms += series[a.key].terms(a.policy, _net(a.contract, birds), worlds=worlds)
    else:
        terms += _pass_terms(series, 1.0, worlds)
    if b is not None:
        terms += series[b.key].terms(b.policy, _net(b.contract, birds), -1.0,
                                          worlds=worlds)
    else:
        terms += _pass_terms(series, -1.0, worlds)
    return terms


def _pass_terms(series: dict[str, ContractSeries], weight: float,
                worlds: np.ndarray | None = None) -> list:
    """The control-variate terms of passing's net (none when passing is worth 0: the
    others never bid)."""
    passing = getattr(series, "passing", None)
    return [] if passing is None else passing.terms(weight, worlds)


def pass_estimate(series: dict[str, ContractSeries], worlds: np.ndarray | None = None,
                  min_prefix: int = MIN_EXACT) -> Estimate:
    """E[net] of passing (0 ± 0 when the others never bid), optionally on ``worlds``."""
    terms = _pass_terms(series, 1.0, worlds)
    if not terms:
        return Estimate(0.0, 0.0, 0, 0)
    return combine(terms, min_prefix=min_prefix)


def pair_split(series: dict[str, ContractSeries], a: OptionRow | None, b: OptionRow | None,
               birds: frozenset[str] = frozenset(), *, worlds: np.ndarray | None = None,
               min_prefix: int = MIN_EXACT) -> PairSplit:
    """E[a] − E[b] (None: passing) split into its two parts, and its empirical-Bayes
    posterior under cv's two-level model.

    The paired difference is the evaluator's part (its mean over every world) plus the
    exact correction's (the mean residual over the exact worlds).  The correction
    estimates the evaluator's bias on this pair; under the prior of that bias measured
    on other hands (:data:`~.cv.PAIR_BIAS_PRIOR`) its posterior mean is the correction
    times :func:`~.cv.bias_weight` (NaN without an SE)."""
    terms = _pair_terms(series, a, b, birds, worlds)
    part = combine([t for t in terms if not t.correction], min_prefix=min_prefix)
    corr = combine([t for t in terms if t.correction], min_prefix=min_prefix)
    weight = (bias_weight(corr.mean, corr.se, corr.exact)
              if corr.has_se and math.isfinite(corr.mean) else math.nan)
    return PairSplit(evaluator=part.mean, correction=corr.mean, correction_se=corr.se,
                     exact_worlds=corr.exact, correction_weight=weight,
                     posterior=part.mean + weight * corr.mean, evaluator_se=part.se)


def _close(diff: Estimate) -> bool:
    """Is a paired difference a close call: within :data:`NOISE_SE` SEs, or without an SE?"""
    return bool(not diff.has_se or abs(diff.mean) < NOISE_SE * diff.se)


def _next_best(cands: Sequence[tuple[OptionRow, float]], best: OptionRow,
               talon_mode: bool, pass_value: float = 0.0) -> OptionRow | None:
    """The runner-up to ``best`` among ``(row, estimate)`` pairs: the best other contract
    (in talon mode, any other option), or None — passing — when that is worth no more
    than passing (``pass_value``) outside talon mode."""
    others = [c for c in cands
              if (c[0] is not best if talon_mode else c[0].contract != best.contract)]
    nxt = max(others, key=lambda c: (c[1], -c[0].policy), default=None)
    if nxt is None or (nxt[1] <= pass_value and not talon_mode):
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
    after seed.  A difference beyond noise is never overturned, nor is an exact
    correction that stands :data:`NOISE_SE` SEs from zero on its own in favour of
    ``first`` (the exact worlds then say the evaluator's lean is its bias)."""
    if not (diff.has_se and _close(diff)):
        return False
    split = pair_split(series, first, second, birds, worlds=worlds, min_prefix=min_prefix)
    if math.isfinite(split.correction_se) and split.correction >= NOISE_SE * split.correction_se:
        return False
    return math.isfinite(split.posterior) and split.posterior < 0


def p_better(split: PairSplit) -> float:
    """The probability that the first option of a pair is the better one, under cv's
    two-level model: the posterior of the difference is normal with the posterior mean
    and the variance of the evaluator's part plus ``weight × SE²`` of the correction
    (the posterior variance of the bias under a normal prior that keeps that weight).
    NaN without the SEs."""
    var = split.evaluator_se ** 2 + split.correction_weight * split.correction_se ** 2
    if not (math.isfinite(var) and math.isfinite(split.posterior)):
        return math.nan
    if var <= 0:
        return 1.0 if split.posterior > 0 else 0.0 if split.posterior < 0 else 0.5
    return NormalDist().cdf(split.posterior / math.sqrt(var))


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
        ser = series[r.key]
        e = combine(ser.terms(r.policy, _net(r.contract, birds), worlds=mask),
                    min_prefix=half)
        if not math.isfinite(e.mean):
            continue
        if r.kind != "plain" and not _gain_pays(gain(ser, r.policy, half, mask), gate):
            continue
        cands.append((r, e))
    firm = [(r, e) for r, e in cands if e.has_se]
    pass_value = pass_estimate(series, mask, half).mean if allow_pass else -math.inf
    best, value = None, pass_value
    for r, e in firm or cands:
        if e.mean > value + 1e-12:
            best, value = r, e.mean
    if not firm:
        return best
    # the runner-up as the recommendation takes it, and a close call settled the same way
    if best is None:
        runner = max(firm, key=lambda c: (c[1].mean, -c[0].policy))[0]
    else:
        runner = _next_best([(r, e.mean) for r, e in firm], best, not allow_pass, pass_value)
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
                parts[what].append(pass_estimate(series, other, MIN_EXACT // 2)
                                   if what == "net" else
                                   Estimate(math.nan, math.nan, int(other.sum()),
                                            int(other.sum())))
            else:
                key = _net(pick.contract, birds) if what == "net" else what
                parts[what].append(combine(series[pick.key].terms(pick.policy, key,
                                                                       worlds=other),
                                           min_prefix=MIN_EXACT // 2))
    out: dict = {"choices": tuple(None if p is None else Choice(p.contract, p.option)
                                  for p in picks)}
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
              talon_mode: bool = False) -> Recommendation:
    """The option with the highest expected net, if it beats passing; see the module.

    In talon mode the contract is bid and the talon is out: passing and
    before-talon announcements are past decisions, so neither is recommended.

    Lower and Three are never open to a bidder at the same time: Lower is legal only
    over a Three of a senior player, and then Three is gone.  So the recommendation
    is made among the opening bids (Lower left out), and when the seat may bid Lower
    ``if_senior_three`` holds the best answer to a senior's Three (Three left out;
    passing then defends that Three, when the run values passing).
    """
    rows = [r for r in rows if r.kind != PASS_KIND]  # passing is the None option
    if talon_mode:
        return _with_birds(series, rows, talon_mode=True)
    opening = [r for r in rows if r.contract != CONDITIONAL_CONTRACT]
    rec = _with_birds(series, opening)
    if len(opening) < len(rows):
        over = [r for r in rows if r.contract != REPLACED_CONTRACT]
        answer = series
        senior = getattr(series, "senior_three", None)
        if senior is not None:  # passing then means defending the senior's Three
            answer = SeriesSet(series)
            answer.passing = senior
        rec = replace(rec, if_senior_three=_with_birds(answer, over))
    return rec


def _before(policy: Policy) -> bool:
    """Does the policy announce anything before the talon (a bird option's level too)?"""
    return bool(policy.before) or (policy.bird is not None and policy.bird[1] == "before")


def _with_birds(series: dict[str, ContractSeries], rows: Sequence[OptionRow], *,
                talon_mode: bool = False) -> Recommendation:
    """:func:`_recommend_pool` on the nets the rows carry: with the silent birds for every
    contract whose series counts them (``birds_counted``), else without."""
    counted = frozenset(r.contract for r in rows if series[r.key].count_birds)
    rec = _recommend_pool(series, rows, talon_mode=talon_mode, birds=counted)
    if not counted:
        return rec
    return replace(rec, birds_counted=True, birds_in=tuple(sorted(counted)))


def _recommend_pool(series: dict[str, ContractSeries], rows: Sequence[OptionRow], *,
                    talon_mode: bool = False, birds: frozenset[str] = frozenset()
                    ) -> Recommendation:
    """:func:`recommend` among ``rows`` (and passing, unless in talon mode); ``birds``:
    the contracts whose rows' nets count the silent birds (:func:`~.rows.option_rows`),
    so that their paired differences count them too.  ``announce_gate`` records the
    SEs an announcement's gain needed here and the number of tests behind it."""
    worlds = max((s.worlds for s in series.values()), default=0)
    if talon_mode:  # before-talon items are past decisions
        rows = [r for r in rows if not _before(series[r.key].plan.policies[r.policy])]
    tests = announce_tests(rows)
    gate = announce_gate_se(tests)
    allowed = eligible(rows, gate)
    firm = [r for r in allowed if r.net.has_se]
    pool = firm or [r for r in allowed if math.isfinite(r.net.mean)]
    tentative_why = []
    if worlds < MIN_WORLDS:
        tentative_why.append(f"{worlds} worlds (fewer than {MIN_WORLDS})")
    if not firm and any(r.points.has_se for r in allowed) and birds:
        most = max((r.bird_worlds for r in allowed if r.contract in birds), default=0)
        tentative_why.append(
            f"the nets count the silent birds, which need {MIN_BIRD_WORLDS} exact game-point "
            f"worlds an option for an SE (at most {most} so far); the birds' part is the "
            f"game-point evaluator's, its exact correction shrunk")
    elif not firm:
        some = any(r.net.exact for r in allowed)
        tentative_why.append(f"no option has {MIN_EXACT} exact worlds yet; the numbers are "
                             + (f"the evaluator's, their exact corrections shrunk (n of them "
                                f"count n/(n+{TENTATIVE_SHRINK:g}))" if some else
                                "the evaluator's alone"))
    passing = pass_estimate(series) if not talon_mode else Estimate(-math.inf, 0.0, 0, 0)
    best = max(pool, key=lambda r: (r.net.mean, -r.policy), default=None)
    # An option left out of the firm pool for want of exact worlds may still look better.
    # Its estimate (the correction shrunk, see cv) is then the better bet on what is
    # known: it is recommended, tentatively, with the firm best as its runner-up.
    passed_over = None  # the firm best, when a tentative option beat it
    if firm and best is not None:
        better = max((r for r in allowed if not r.net.has_se and math.isfinite(r.net.mean)
                      and r.net.mean > max(best.net.mean, passing.mean)
                      and (talon_mode or r.contract != best.contract)),
                     key=lambda r: (r.net.mean, -r.policy), default=None)
        if better is not None:
            tentative_why.append(
                f"{better.contract} {better.option} has the higher estimate but only "
                f"{better.net.exact} exact worlds (fewer than {MIN_EXACT}); "
                f"{best.contract} {best.option} is the best with an SE")
            best, passed_over = better, best
    choice = best if best is not None and (best.net.mean > passing.mean or talon_mode) \
        else None
    if choice is None:
        runner = best  # passing is recommended: the best bid is the runner-up
    else:
        # The runner-up is the next best estimate, with an SE or not: a contract right
        # behind the best but short of exact worlds is the real alternative (and, with
        # no SE for their difference, makes the call close), not the next firm one.
        runner = _next_best([(r, r.net.mean) for r in allowed if math.isfinite(r.net.mean)],
                            choice, talon_mode, passing.mean)  # None: passing is the runner-up
        if passed_over is not None:  # the runner-up (passing if it is worth no more)
            runner = passed_over if talon_mode or passed_over.net.mean > passing.mean \
                else None
    settled = False
    # a close call between two firm options (passing is one) goes where the posterior says
    if firm and passed_over is None and (runner is not None
                                         or (choice is not None and not talon_mode)):
        if _settled(series, choice, runner, _paired(series, choice, runner, birds), birds):
            choice, runner = runner, choice
            settled = True
    gate_record = AnnounceGate(se=gate, tests=tests)
    if choice is None:
        close = False
        runner_up = None
        better, weight = math.nan, math.nan
        if runner is not None:
            diff = _paired(series, runner, None, birds)
            split = pair_split(series, None, runner, birds)
            runner_up = RunnerUp(contract=runner.contract, option=runner.option,
                                 mean_net=runner.net.mean, mean_points=runner.points.mean,
                                 mean_points_se=runner.points.se, difference=-diff.mean,
                                 difference_se=diff.se, split=split)
            close = _close(diff)
            better, weight = p_better(split), split.correction_weight
        return Recommendation(
            worlds=worlds, contract="pass", option="plain", mean_net=passing.mean,
            mean_net_se=passing.se,
            mean_points=math.nan, mean_points_se=math.nan, p_make=math.nan,
            runner_up=runner_up, close_call=close, settled=settled,
            tentative=bool(tentative_why), tentative_reasons=tuple(tentative_why),
            announce_gate=gate_record, p_better=better, correction_weight=weight)
    diff = _paired(series, choice, runner, birds)
    split = pair_split(series, choice, runner, birds)
    held = _held_out(series, rows, worlds, gate=gate, allow_pass=not talon_mode,
                     birds=birds)
    return Recommendation(
        worlds=worlds, contract=choice.contract, option=choice.option,
        mean_net=held["net"], mean_net_se=held["net_se"],
        mean_points=held["points"], mean_points_se=held["points_se"],
        p_make=held["made"],
        in_sample=InSample(mean_net=choice.net.mean, mean_net_se=choice.net.se,
                           mean_points=choice.points.mean, mean_points_se=choice.points.se,
                           p_make=choice.made.mean, exact_worlds=choice.net.exact),
        held_out_choices=held["choices"],
        held_out_agrees=all(c is not None and (c.contract, c.option)
                            == (choice.contract, choice.option) for c in held["choices"]),
        runner_up=RunnerUp(contract=runner.contract if runner else "pass",
                           option=runner.option if runner else "plain",
                           mean_net=runner.net.mean if runner else passing.mean,
                           mean_points=runner.points.mean if runner else math.nan,
                           mean_points_se=runner.points.se if runner else math.nan,
                           difference=diff.mean, difference_se=diff.se, split=split),
        close_call=_close(diff),
        # a close call that went against the sign of its unbiased difference
        settled=settled,
        tentative=bool(tentative_why), tentative_reasons=tuple(tentative_why),
        announce_gate=gate_record, p_better=p_better(split),
        correction_weight=split.correction_weight)
