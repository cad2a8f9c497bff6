"""The advice as a player reads it in a terminal: one table, the announcements that
matter, one recommendation line, a legend; solver statistics on request."""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..cards import SEAT_NAMES
from ..columns import align
from .cv import MIN_EXACT
from .decision import MIN_ANNOUNCE_GAIN
from .results import Advice, Recommendation

__all__ = ["advice_lines"]


def _num(x: float | None, digits: int = 1, sign: bool = False) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _pm(mean: float, se: float, digits: int = 1, sign: bool = True) -> str:
    if not math.isfinite(se):
        return f"{_num(mean, digits, sign)} (no SE yet)"
    return f"{_num(mean, digits, sign)} ± {_num(se, digits)}"


def _pct(mean: float, se: float) -> str:
    if not math.isfinite(mean):
        return "–"
    # the control-variate estimate of a probability is unbiased, not bounded: a player
    # reads 0 … 100 % (--json keeps the estimate itself)
    mean = min(max(mean, 0.0), 1.0)
    if not math.isfinite(se):
        return f"{100 * mean:.0f}%"
    return f"{100 * mean:.0f}% ± {100 * se:.0f}"


def _label(names: dict[str, str], contract: str, option: str) -> str:
    name = names.get(contract, contract)
    if option == "plain":
        return name
    return f"{name} with {option.removeprefix('best:').replace(';', ' + ')}"


def _contract_rows(adv: Advice, names: dict[str, str]) -> list[list[str]]:
    worlds = adv.meta.worlds
    out = []
    for r in adv.rows:
        if r.kind != "plain":
            continue
        exact = f"{r.net.exact}/{adv.meta.stopped.get(r.contract, worlds)}"
        if r.net.exact < MIN_EXACT:
            exact += " (evaluator)"
        out.append([names.get(r.contract, r.contract), _pct(r.made.mean, r.made.se),
                    _pm(r.points.mean, r.points.se, 1, False), _pm(r.net.mean, r.net.se),
                    exact, r.talon_behaviour or "–"])
    passing = adv.passing
    if passing is None:
        out.append(["pass", "", "", "0 (see note)", "", ""])
    else:
        exact = f"{passing.net.exact}/{worlds}"
        if passing.net.exact < MIN_EXACT:
            exact += " (evaluator)"
        out.append(["pass", "", "", _pm(passing.net.mean, passing.net.se), exact,
                    pass_outcome_text(passing.outcomes or [], names)])
    return out


def pass_outcome_text(outcomes: list[dict], names: dict[str, str], top: int = 3) -> str:
    """What passing leads to, most frequent first, e.g. ``M Three 30% (−8), all pass 55%``."""
    parts = []
    for o in outcomes[:top]:
        if o["declarer"] is None:
            what = "all pass" if o["contract"] == "trischaken" else o["contract"]
        else:
            what = f"{SEAT_NAMES[o['declarer']]} {names.get(o['contract'], o['contract'])}"
        parts.append(f"{what} {100 * o['share']:.0f}% ({_num(o['mean_net'], 0, True)})")
    return ", ".join(parts) or "–"


def contra_line(adv: Advice, names: dict[str, str]) -> str | None:
    """Plain play's nets when the defenders contra by their policy, when the run has them."""
    rows = [r for r in adv.rows if r.kind == "plain" and r.net_contras is not None]
    if not rows:
        return None
    parts = [f"{names.get(r.contract, r.contract)} {_pm(r.net_contras.mean, r.net_contras.se)}"
             f" (contra on {100 * r.contra_share:.0f}% of worlds)" for r in rows]
    return ("With the defenders' contras (their policy: on what each sees, the declarer "
            "re-contras where he expects to make; the recommendation is made without "
            "them), plain play nets: " + ", ".join(parts) + ".")


def bird_line(adv: Advice, names: dict[str, str]) -> str | None:
    """What the silent birds add to plain play's nets, when the run counts them."""
    rows = [r for r in adv.rows if r.kind == "plain" and r.net_birds is not None
            and r.net_cards is not None and math.isfinite(r.net_birds.mean)]
    if not rows:
        return None
    parts = [f"{names.get(r.contract, r.contract)} {r.net_birds.mean - r.net_cards.mean:+.1f} "
             f"({r.bird_worlds} game-point worlds)" for r in rows]
    return ("Silent birds are counted in every net (the game-point evaluator on every "
            "world, exact game-point solves as its correction); they add to plain play: "
            + ", ".join(parts) + ".")


def _announcement_rows(adv: Advice, names: dict[str, str]
                       ) -> tuple[list[list[str]], int, bool]:
    """The rows shown, the number hidden, and whether a shown gain has no SE yet."""
    rec = adv.recommendation
    shown, hidden, untested = [], 0, False
    # shown: what the recommendation's gate lets through (an option with no SE yet, on
    # its evaluator gain), or the recommended option
    gate = rec.announce_gate.se
    for r in adv.rows:
        if r.kind in ("plain", "bird") or r.gain is None:
            continue
        chosen = r.contract == rec.contract and r.option == rec.option
        pays = math.isfinite(r.gain.mean) and r.gain.mean >= MIN_ANNOUNCE_GAIN and (
            not r.gain.has_se or r.gain.mean >= gate * r.gain.se)
        if not (chosen or pays):
            hidden += 1
            continue
        when = ("always" if not r.conditional else
                f"{100 * r.announce_rate:.0f}% of talons" if math.isfinite(r.announce_rate)
                else "–")
        out = [names.get(r.contract, r.contract), r.option.removeprefix("best:"),
               "best set per talon" if r.kind == "best" else when,
               _pm(r.gain.mean, r.gain.se), _pm(r.net.mean, r.net.se)]
        shown.append(out)
        untested |= not r.gain.has_se
    return shown, hidden, untested


def bird_option_lines(adv: Advice, names: dict[str, str]) -> list[str]:
    """The bird announcements of the recommended contract (passing: of the best bid):
    P(won), the paired gain over plain play and E[net], each row of a bird the hand
    holds at a level the contract allows."""
    rec = adv.recommendation
    contract = rec.contract if rec.contract != "pass" else (
        rec.runner_up.contract if rec.runner_up else None)
    rows = [r for r in adv.rows if r.kind == "bird" and r.contract == contract]
    if not rows:
        return []
    table = [[r.option, _pct(r.made.mean, math.nan), _pm(r.gain.mean, r.gain.se)
              if r.gain else "–", _pm(r.net.mean, r.net.se), str(r.bird_worlds)]
             for r in rows]
    g = rec.announce_gate
    out = ["", f"Bird announcements in {names.get(contract, contract)} (gain over plain play, "
           f"paired; P(won) is the bird model's; a gain needs {g.se:.1f} SE to count):",
           *align(table, ["announce", "P(won)", "gain", "E[net]", "game-point worlds"])]
    if any(r.gain is None or not r.gain.has_se for r in rows):
        out.append("  A gain with no SE yet is the evaluator's, which runs low for an announced "
                   "bird (it is kept back for its trick); its exact solves come after the "
                   "contract's own: --run-to-limit with a longer --time-limit judges them.")
    return out


def recommendation_line(adv: Advice, names: dict[str, str]) -> str:
    rec = adv.recommendation
    head = "Recommendation" + (" (tentative)" if rec.tentative else "")
    ru = rec.runner_up
    if rec.contract == "pass":
        if not ru:
            return f"{head}: pass (no contract was evaluated)."
        return (f"{head}: pass. The best bid, {_label(names, ru.contract, ru.option)}, "
                f"expects {_num(ru.mean_net, 1, True)} game points (passing: "
                f"{_num(rec.mean_net, 1, True)}; difference "
                f"{_pm(ru.difference, ru.difference_se)})"
                + (f" — close call{_settled(rec)}." if rec.close_call else "."))
    ins = rec.in_sample
    line = (f"{head}: bid {_label(names, rec.contract, rec.option)} — E[net] "
            f"{_pm(ins.mean_net if ins else math.nan, ins.mean_net_se if ins else math.nan)}"
            f" as in the table")
    if ru:
        other = "passing" if ru.contract == "pass" else _label(names, ru.contract, ru.option)
        line += f", {_pm(ru.difference, ru.difference_se)} over {other} on common worlds"
        if rec.close_call:
            line += f" (close call{_settled(rec)})"
    if rec.held_out_agrees is None or rec.held_out_agrees:
        line += ". On worlds that did not choose it: E[net] "
    else:
        picks = ", ".join("pass" if c is None else _label(names, c.contract, c.option)
                          for c in rec.held_out_choices or ())
        line += (f". Each half of the worlds chooses differently ({picks}); what that "
                 f"choice earns on the other half: E[net] ")
    line += (f"{_pm(rec.mean_net, rec.mean_net_se)}, P(make) "
             f"{_pct(rec.p_make, math.nan)}, "
             f"{_pm(rec.mean_points, rec.mean_points_se, 1, False)} card points.")
    return line


def _settled(rec: Recommendation) -> str:
    """How sure a close call is (the probability that the choice is the better one and
    the weight the exact correction kept), and why it went against the sign of its
    unbiased difference when it did."""
    sure = ""
    if math.isfinite(rec.p_better) and math.isfinite(rec.correction_weight):
        sure = (f"; P(it is the better) {100 * rec.p_better:.0f}%, the exact correction "
                f"weighted {rec.correction_weight:.2f}")
    if not rec.settled:
        return sure
    posterior = rec.runner_up.split.posterior if rec.runner_up is not None else None
    return (f"{sure}; settled for it by the evaluator's margin over all worlds with the "
            f"exact correction weighed by its noise: {_num(posterior, 1, True)}")


def senior_three_line(adv: Advice, names: dict[str, str]) -> str | None:
    """The answer to a senior player's Three, for a seat that may then bid Lower."""
    cond = adv.recommendation.if_senior_three
    if not cond:
        return None
    head = "If a senior player bids Three (Three is then gone; Lower is open)"
    ru = cond.runner_up
    if cond.contract == "pass":
        best = (f"; the best bid, {_label(names, ru.contract, ru.option)}, expects "
                f"{_num(ru.mean_net, 1, True)}" if ru else "")
        return f"{head}: pass{best}" + (f" — close call{_settled(cond)}."
                                        if cond.close_call else ".")
    other = ("passing" if ru is None or ru.contract == "pass"
             else _label(names, ru.contract, ru.option))
    return (f"{head}: bid {_label(names, cond.contract, cond.option)}, "
            f"{_pm(ru.difference if ru else math.nan, ru.difference_se if ru else math.nan)}"
            f" over {other}" + (f" (close call{_settled(cond)})." if cond.close_call else "."))


def _reasons(adv: Advice) -> list[str]:
    out = [f"  tentative: {why}" for why in adv.recommendation.tentative_reasons]
    hint = adv.meta.firm_time_limit
    if hint is not None:
        out.append(f"  for a firm answer on this hand: --time-limit {hint:.0f} or more (at the "
                   "pace of its exact solves in this run)")
    return out


def _plan_names(keys: Iterable[str], names: dict[str, str]) -> dict[str, str]:
    """Names of the plans that keep a before-talon "no ..." (keys ``three/no_kings``):
    ``Three (Dreier), No Kings kept``."""
    out = {}
    for key in keys:
        contract, _, items = key.partition("/")
        if items:
            kept = " and ".join(i.replace("no_", "No ").replace("kings", "Kings")
                                .replace("trull", "Trull") for i in items.split("+"))
            out[key] = f"{names.get(contract, contract)}, {kept} kept"
    return out


def advice_lines(adv: Advice, names: dict[str, str], *, verbose: bool = False) -> list[str]:
    """Everything the text view prints after the header, line by line."""
    meta = adv.meta
    names = {**names, **_plan_names(meta.exact_worlds, names)}
    lines = align(_contract_rows(adv, names),
                   ["contract", "P(make)", "E[card points]", "E[net game points]", "exact",
                    "talon / after a pass"])
    birds = bird_line(adv, names)
    if birds:
        lines.append(birds)
    contras = contra_line(adv, names)
    if contras:
        lines.append(contras)
    shown, hidden, untested = _announcement_rows(adv, names)
    lines.append("")
    if shown:
        g = adv.recommendation.announce_gate
        gate = f"; at least {g.se:.1f} SE, one of {g.tests} tests" if g.tests > 1 else ""
        if untested:
            gate += "; a gain with no SE yet is the evaluator's, not yet tested"
        lines.append("Announcements that pay (gain over plain play of the same contract, "
                     f"paired{gate}):")
        lines += align(shown, ["contract", "announce", "when", "gain", "E[net]"])
        if hidden:
            lines.append(f"  ({hidden} other announcement options gain nothing; --json lists "
                         "them all)")
    else:
        lines.append("Announcements: none gains over plain play (--json lists them all).")
    lines += bird_option_lines(adv, names)
    lines.append("")
    lines.append(recommendation_line(adv, names))
    lines += _reasons(adv)
    senior = senior_three_line(adv, names)
    if senior:
        lines.append(senior)
    if meta.kernels_compiled_this_run and not meta.exact_solves:
        lines.append("  First run: the exact solver is being compiled in the background (once, "
                     "one to two minutes); this answer rests on the evaluator alone. Run "
                     "again for exact corrections.")
    for c, why in meta.left_out.items():
        lines.append(f"  {names.get(c, c)}: not advised — {why}.")
    if meta.stopped:
        margin = meta.settings.get("stop_margin")
        lines.append("  Stopped early as clearly behind (the evaluator put them more than "
                     f"{_num(margin, 0)} game points below the best option): "
                     + ", ".join(f"{names.get(c, c)} after {n} worlds"
                                 for c, n in meta.stopped.items())
                     + "; their rows rest on those worlds.")
    lines.append("")
    lines.append("± is one standard error. " + meta.notes[-1])
    lines.append("Talon: exchanges are chosen on what the declarer sees (hand and talon), by the "
                 "learned evaluator over inner worlds.")
    lines.append(meta.notes[2])
    if verbose:
        lines.append("")
        lines.append("Solver statistics:")
        lines.append(f"  worlds (evaluator): {meta.worlds} in {meta.seconds_evaluator:.1f} s;"
                     f" exact solves {meta.exact_solves} ({meta.exact_unfinished} cut by the "
                     f"deadline), {meta.exact_nodes / 1e6:.0f} M nodes, "
                     f"{meta.exact_solver_seconds:.1f} solver s")
        lines.append("  exact worlds per contract: " + ", ".join(
            f"{names.get(c, c)} {n}" for c, n in meta.exact_worlds.items()))
        if meta.game_point_solves or meta.game_point_unfinished:
            lines.append(f"  game-point solves (birds): {meta.game_point_solves} "
                         f"({meta.game_point_unfinished} cut by the deadline), "
                         f"{meta.game_point_seconds:.1f} solver s; worlds per contract: "
                         + (", ".join(f"{names.get(c, c)} {n}"
                                      for c, n in meta.bird_worlds.items() if n) or "none"))
        if meta.exchanges_valued:
            lines.append("  exchanges valued per talon: " + ", ".join(
                f"{names.get(c, c)} {n:.0f}" for c, n in meta.exchanges_valued.items()))
        if meta.contenders:
            lines.append("  getting exact worlds at the end: " + ", ".join(
                names.get(c, c) for c in meta.contenders))
    return lines

