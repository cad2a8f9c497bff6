"""The table's rows: each contract × option's estimates from its series.

:func:`option_rows` makes an :class:`~.results.OptionRow` per contract and
announcement policy (net, P(make), card points, the paired gain over plain play,
how often it announced, the talon groups taken); a run that makes game-point
solves counts the silent birds in every net (``net`` is then ``net_birds``).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .cv import MIN_EXACT, Estimate, combine
from .results import PASS_KIND, OptionRow
from .series import ContractSeries

__all__ = ["gain", "option_rows", "pass_row", "talon_behaviour"]


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


def gain(ser: ContractSeries, policy: int, min_prefix: int,
          worlds: np.ndarray | None = None) -> Estimate:
    """A policy's net minus plain play's, paired on the same worlds (optionally masked)."""
    return combine(ser.gain_terms(policy, worlds), min_prefix=min_prefix)


def pass_row(passing) -> OptionRow:
    """Passing's row: my mean net when I pass (a :class:`~.passing.PassSeries`), with
    what it is made of (``outcomes``); no card points or P(make) of mine."""
    net = passing.estimate(MIN_EXACT)
    none = Estimate(math.nan, math.nan, passing.worlds, 0)
    return OptionRow("pass", 0, "plain", PASS_KIND, net, none, none, None, math.nan, False,
                     "", None, 0, net, "pass", outcomes=passing.breakdown())


def option_rows(series: dict[str, ContractSeries]) -> list[OptionRow]:
    """A row per contract × policy, in the series' order (contracts never evaluated left
    out), and passing's when the run values it."""
    rows = []
    for ser in series.values():
        if not ser.worlds:
            continue
        behaviour = talon_behaviour(ser)
        bird_worlds = len(ser.birds())
        for p, pol in enumerate(ser.plan.policies):
            if pol.kind == "base":
                continue  # the reference of a "no ..." plan, not an option of its own
            kind = {"combo": "best"}.get(pol.kind, pol.kind)
            gain_ = gain(ser, p, MIN_EXACT) if p else None
            rate, cond = _announce_rate(ser, p)
            # a run that makes game-point solves counts the birds in every net
            birds = ser.estimate(p, "net_birds") if ser.count_birds else None
            cards = ser.estimate(p, "net")
            if pol.bird is None:
                made, worlds = ser.estimate(p, "made"), bird_worlds
            else:
                # P(won) of the bird (the bird model's: no SE), always announced
                made = Estimate(ser.bird_won(p), math.nan, ser.worlds, 0)
                rate, cond, worlds = 1.0, False, len(ser.option_exact(p))
            contras, share = None, math.nan
            if p == 0 and ser.contra is not None and ser.contra_levels:
                # plain play's net (birds counted as the row's are) with the contras
                key = "net_birds" if birds is not None else "net"
                contras = combine(ser.terms(0, key) + ser.contra_terms(), min_prefix=MIN_EXACT)
                share = float(np.mean(np.asarray(ser.contra_levels) > 0))
            rows.append(OptionRow(ser.contract, p, pol.name, kind,
                                  birds if birds is not None else cards,
                                  made, ser.estimate(p, "points"), gain_,
                                  rate, cond, behaviour, birds, worlds, cards, ser.key,
                                  net_contras=contras, contra_share=share))
    passing = getattr(series, "passing", None)
    if passing is not None and passing.worlds:
        rows.append(pass_row(passing))
    return rows
