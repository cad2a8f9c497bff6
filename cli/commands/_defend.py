"""`tarock advise HAND --defend CONTRACT --declarer SEAT`: contra advice for a defender.

:func:`defend_options` adds the options to ``advise``; :func:`run_defend` checks the
question (a bad token: one ``Error:`` line naming it, exit 2, before any sampling), runs
:func:`~tarock_solver.advise.defend` and prints the text, ``--json`` or ``--csv``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import click

from tarock_solver.advise import AdviceLimit, DefendAdvice, DefendRequest, defend, parse_announced
from tarock_solver.advise.defend import make_defend_problem
from tarock_solver.advise.inputs import read_advice_input
from tarock_solver.cards import CARD_IDS
from tarock_solver.deal import capture_warnings
from tarock_solver.diagram import can_show_symbols, hand_line
from tarock_solver.errors import RulesError
from tarock_solver.notation import SEATS, format_cards, seat_index

from ..main import Settings
from ._output import check_output
from ._text import plain, stdout_encoding

__all__ = ["DEFEND_KEYS", "defend_options", "run_defend"]

#: The keyword arguments the options add to the ``advise`` command.
DEFEND_KEYS = ("defend", "declarer", "taken", "announced")


def defend_options(f: Callable) -> Callable:
    """The ``--defend`` options of ``advise`` (one decorator, so that advise.py only
    names it)."""
    for opt in reversed((
        click.option("--defend", "defend", metavar="CONTRACT",
                     help="Defender advice: whether to say contra against CONTRACT "
                          "(HAND and --seat are yours, a defender's)."),
        click.option("--declarer", metavar="SEAT",
                     help="With --defend: the declarer's seat (F, M or R)."),
        click.option("--taken", metavar="GROUP",
                     help="With --defend and --talon: the talon group the declarer took "
                          "(e.g. 1-3, 3-4, 5)."),
        click.option("--announced", multiple=True, metavar="ITEM@LEVEL",
                     help="With --defend: an announcement of the declarer, e.g. "
                          "pagat@after or absolut@before (repeatable)."),
    )):
        f = opt(f)
    return f


def wants_defend(options: dict[str, Any]) -> bool:
    """Did the command line give any of the defender's options?"""
    return any(options.get(k) for k in DEFEND_KEYS)


def run_defend(settings: Settings, words: tuple[str, ...], options: dict[str, Any], *,
               seat: str | None, talon: str | None, contract: str | None, samples: int,
               time_limit: float, seed: int, jobs: int, as_json: bool, csv_path: str | None,
               plot_path: str | None) -> None:
    """The ``--defend`` branch of ``advise``."""
    if not options.get("defend"):
        given = next(k for k in DEFEND_KEYS if options.get(k))
        raise click.UsageError(f"--{given} belongs to defender advice: give --defend "
                               "CONTRACT too.")
    if contract:
        raise click.UsageError(f"--contract {contract}: with --defend the contract is "
                               "--defend's; leave --contract out.")
    if plot_path:
        raise click.UsageError("--plot is not available with --defend.")
    if not options.get("declarer"):
        raise click.UsageError("--defend needs --declarer SEAT (F, M or R).")
    if csv_path:
        check_output(csv_path, "--csv", suffixes=(".csv",))
    rules = settings.loaded_rules
    if not " ".join(words).strip():
        raise click.UsageError("--defend needs your hand (16 cards).")
    with capture_warnings() as messages:
        inp = read_advice_input(" ".join(words), seat, talon)
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    try:
        declarer = seat_index(options["declarer"])
    except RulesError as exc:
        raise RulesError(f"--declarer: {exc}") from None
    req = DefendRequest(hand=inp.hand, seat=inp.seat, declarer=declarer,
                        contract=options["defend"], talon=inp.talon, taken=options.get("taken"),
                        announced=parse_announced(options.get("announced") or ()),
                        rules=rules, rules_name=rules.name, overrides=dict(settings.opts),
                        others=inp.others, limit=AdviceLimit(time_limit, samples), seed=seed,
                        jobs=jobs)
    make_defend_problem(req)  # every bad token fails here, before the sampling
    adv = defend(req)
    if csv_path:
        adv.table.to_csv(csv_path, index=False, na_rep="", float_format="%.6g")
    if as_json:
        out = {"hand": format_cards(inp.hand),
               "talon": " ".join(CARD_IDS[c] for c in inp.talon) if inp.talon else None,
               **adv.to_json()}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    ascii_only = settings.ascii or not can_show_symbols(stdout_encoding())
    for line in defend_lines(adv, inp.hand, ascii_only):
        click.echo(plain(line, ascii_only))


def _pm(mean: float, se: float, fmt: str = "{:.1f}") -> str:
    if not math.isfinite(mean):
        return "—"
    return fmt.format(mean) + (f" ± {fmt.format(se)}" if math.isfinite(se) else " (no SE yet)")


def defend_lines(adv: DefendAdvice, hand: int, ascii_only: bool = False) -> list[str]:
    """The terminal view: the question, the declarer's prospects, one line per contra."""
    when = "after the talon" if adv.stage == "a" else "before the talon (in the auction)"
    lines = [f"Contra advice for {SEATS[adv.seat]} against {SEATS[adv.declarer]}'s "
             f"{adv.contract}: {hand_line(hand, ascii=ascii_only)}",
             f"rules: {adv.rules}   seed {adv.seed}   {adv.worlds} worlds, "
             f"{adv.exact_worlds} exact, {adv.seconds:.1f} s   contra {when}"]
    if adv.announced:
        lines.append("announced: " + ", ".join(f"{n}@{lv}" for n, lv in adv.announced))
    if adv.talon:
        lines.append(f"talon: {' '.join(CARD_IDS[c] for c in adv.talon)}"
                     + (f"   taken: {adv.taken}" if adv.taken else ""))
    lines += ["",
              f"Declarer makes: {_pm(100 * adv.p_make.mean, 100 * adv.p_make.se, '{:.0f}')} %   "
              f"card points {_pm(adv.points.mean, adv.points.se)}   "
              f"net {_pm(adv.declarer_net.mean, adv.declarer_net.se)} (no contra, no birds)",
              ""]
    for r in adv.contras:
        what = r.item + (f" (covers {', '.join(r.covers)})" if r.covers else "")
        extra = ""
        if r.level == 1 and r.recontra_share is not None:
            extra = f"; he re-contras on {100 * r.recontra_share:.0f} % of the worlds"
        elif r.level == 3:
            extra = f"; after his re-contra ({r.worlds} worlds)"
        lines.append(f"  {r.name} {what} (×{r.factor}): gain {_pm(r.gain, r.gain_se)} "
                     f"game points{extra}  ->  {r.advice}")
    for item, why in adv.not_valued:
        lines.append(f"  {item}: not valued ({why})")
    return lines
