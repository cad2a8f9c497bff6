"""`tarock advise`: which contract to bid and what to announce, for one hand.

:func:`advice_json` and :data:`CSV_FORMAT` are the command's JSON and ``--csv``
table, shared with the web app's job (:mod:`tarock_cli.web.worker`).
"""

from __future__ import annotations

import json
import math
import os

import click

from tarock_solver.advise import (
    Advice,
    AdviceInput,
    AdviceLimit,
    AdviceRequest,
    AdviceSettings,
    advise,
)
from tarock_solver.advise.inputs import read_advice_input
from tarock_solver.advise.passing import OPPONENTS
from tarock_solver.advise.plot import plot_points
from tarock_solver.advise.results import RunMeta
from tarock_solver.advise.text import advice_lines
from tarock_solver.deal import capture_warnings
from tarock_solver.diagram import can_show_symbols, hand_line
from tarock_solver.notation import SEATS, format_cards
from tarock_solver.rules import Rules

from ..main import Settings
from ._defend import defend_options, run_defend, wants_defend
from ._output import PLOT_SUFFIXES, check_output
from ._params import Seconds
from ._text import plain, stdout_encoding

#: How ``--csv`` writes the advice table (``DataFrame.to_csv`` arguments).
CSV_FORMAT = {"index": False, "na_rep": "", "float_format": "%.6g"}


def _json_default(value: object) -> object:
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def _clean(obj: object) -> object:
    """NaN → null, recursively (JSON has no NaN)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    return obj


def _records(df) -> list[dict]:
    return [] if df is None else _clean(df.to_dict(orient="records"))  # type: ignore[return-value]


def _text_table(df) -> str:
    if df is None or df.empty:
        return "  (none)"
    return df.to_string(index=False)


@click.command("advise")
@click.argument("words", nargs=-1, metavar="[HAND | DEAL]")
@click.option("--seat", type=click.Choice(list(SEATS), case_sensitive=False),
              help="Your seat (default F; taken from the deal when one hand is given).")
@click.option("--contract", "contract", metavar="NAME",
              help="Only this contract (three, lower, two, one, solo).")
@click.option("--talon", metavar="t1,..,t6",
              help="The exposed talon in table order: advise group, discard and after-talon "
                   "announcements for --contract.")
@click.option("--samples", type=click.IntRange(2, 1_000_000), default=1000, show_default=True,
              help="At most this many worlds (sampled deals).")
@click.option("--time-limit", type=Seconds(), default=30.0,
              show_default=True, metavar="SECONDS",
              help="At most this time: the run stops as soon as its answer is firm (a lead "
                   "of 2 standard errors, or a close call measured to SE 2 game points and "
                   "1 card point), and otherwise answers at the limit with the worlds done.")
@click.option("--run-to-limit", is_flag=True,
              help="Use the whole --time-limit even once the answer is firm.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Random seed: the same seed gives the same worlds and numbers.")
@click.option("--jobs", type=click.IntRange(0, 256), default=0, show_default=True,
              help="Exact-solver threads, 0 = one per available core (the numbers do not "
                   "depend on it; more threads give more exact worlds within --time-limit).")
@click.option("--opponents", type=click.Choice(OPPONENTS), default="policy",
              show_default=True,
              help="What passing is worth: 'policy' — the others bid by the adviser's own "
                   "policy and you defend their game or play the all-pass game; 'pass' — "
                   "they never bid (passing is worth 0).")
@click.option("--contras/--no-contras", default=True, show_default=True,
              help="Model the defenders' contras by their policy: each contract's net with "
                   "them beside it, and in the games you would defend after a pass.")
@click.option("--json", "as_json", is_flag=True, help="Print everything as JSON.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False),
              help="Write the advice table (NOTATION.md 5.3 advice schema) to FILE.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Plot the card-point distribution per contract to FILE.png (matplotlib).")
@click.option("--verbose", is_flag=True, help="Also print the solver statistics.")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@defend_options
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], seat: str | None, contract: str | None,
            talon: str | None, samples: int, time_limit: float, run_to_limit: bool, seed: int,
            jobs: int, opponents: str, contras: bool, as_json: bool, csv_path: str | None,
            plot_path: str | None, verbose: bool, no_progress: bool,
            **defending: object) -> None:
    """Bidding advice for one hand: P(make), expected card points and net game points
    per contract and announcement, with standard errors, and a recommendation.

    HAND is 16 cards in any notation (compact "21,20,16,15,7,5,2,1.K.KQ.K97.Q9" or free
    form), or a partial deal such as "F:<hand> - -/?".  Without HAND a demo hand is used.
    """
    rules = settings.loaded_rules
    jobs = jobs or (os.cpu_count() or 1)
    if wants_defend(defending):  # --defend: a defender's contra advice (cli/commands/_defend.py)
        return run_defend(settings, words, defending, seat=seat, talon=talon,
                          contract=contract, samples=samples, time_limit=time_limit, seed=seed,
                          jobs=jobs, as_json=as_json, csv_path=csv_path, plot_path=plot_path)
    # Outputs are checked before the sampling: finding out at the end loses the run.
    if csv_path:
        check_output(csv_path, "--csv", suffixes=(".csv",))
    if plot_path:
        check_output(plot_path, "--plot", suffixes=PLOT_SUFFIXES)
        _require_matplotlib()
    if words and not " ".join(words).strip():
        raise click.UsageError("empty hand: expected 16 cards, e.g. "
                               '"21,20,16,15,7,5,2,1.K.KQ.K97.Q9" (leave HAND out for the '
                               "demo hand).")
    with capture_warnings() as messages:
        inp = read_advice_input(" ".join(words), seat, talon)
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    contracts = (rules.contract_key(contract),) if contract else None
    if inp.talon is not None and contracts is None:
        raise click.UsageError("--talon needs --contract (the contract that exposed the "
                               "talon: " + ", ".join(c for c in rules.contracts if c != "solo")
                               + ").")
    req = AdviceRequest(hand=inp.hand, seat=inp.seat, rules=rules, rules_name=rules.name,
                        overrides=dict(settings.opts), contracts=contracts, talon=inp.talon,
                        others=inp.others, limit=AdviceLimit(time_limit, samples, stop_when_firm=not run_to_limit), seed=seed,
                        jobs=jobs, opponents=opponents, progress=not no_progress,
                        settings=AdviceSettings(contras=contras))
    adv = advise(req)

    if csv_path:
        adv.table.to_csv(csv_path, **CSV_FORMAT)
    if plot_path:
        plot_points(adv.points, plot_path, title=f"Declarer card points, seat "
                    f"{SEATS[inp.seat]} (evaluator, every world)")
    if as_json:
        click.echo(advice_json(inp, rules, adv))
        return
    ascii_only = settings.ascii or not can_show_symbols(stdout_encoding())
    names = {c: rules.contract_name(c) for c in rules.contracts}
    click.echo(_header(inp, rules.name, adv.meta, ascii_only,
                       shown=adv.recommendation.tentative_reasons))
    click.echo()
    for line in advice_lines(adv, names, verbose=verbose):
        click.echo(plain(line, ascii_only))


def advice_json(inp: AdviceInput, rules: Rules, adv: Advice) -> str:
    """The answer as ``tarock advise --json`` prints it: the question, the run's meta,
    the recommendation and the tables (NaN as null)."""
    out = {
        "hand": format_cards(inp.hand), "seat": SEATS[inp.seat], "demo": inp.demo,
        "rules": rules.name, "rule_options": rules.describe_overrides(),
        "talon": format_cards(inp.talon) if inp.talon else None,
        "meta": adv.meta.to_json(), "recommendation": adv.recommendation.to_json(),
        "table": _records(adv.table), "announcements": _records(adv.announcements),
    }
    passing = adv.passing
    for row in out["table"]:
        if row["contract"] == "pass":
            row["pass_outcomes"] = ([] if passing is None else
                                    [{**o, "declarer": None if o["declarer"] is None
                                      else SEATS[o["declarer"]]} for o in passing.outcomes])
    return json.dumps(_clean(out), default=_json_default, ensure_ascii=False, indent=2)


def _header(inp, rules_name: str, meta: RunMeta, ascii_only: bool,
            shown: tuple[str, ...] = ()) -> str:
    """The hand, the run's size and how it ended (``shown``: reasons the recommendation's
    lines give anyway)."""
    head = (f"Advice for {SEATS[inp.seat]}{' (demo hand)' if inp.demo else ''}: "
            f"{hand_line(inp.hand, ascii=ascii_only)}\n"
            f"rules: {rules_name}   seed {meta.seed}   {meta.worlds} worlds, "
            f"{meta.exact_solves} exact solves in {meta.seconds:.1f} s")
    if meta.interrupted:
        head += " (interrupted: the answer so far)"
    elif meta.stopped_firm:
        head += " (stopped: the answer is firm)"
    elif meta.kernels_compiled_this_run and not meta.exact_solves:
        head += " (first run: the exact solver is still being compiled)"
    elif meta.waiting_for:
        head += " (the time limit came first: the answer is not firm"
        head += ")" if meta.waiting_for in shown else f"; still waiting for {meta.waiting_for})"
    if inp.talon:
        head += f"\ntalon: {format_cards(inp.talon)}"
        for c, d in (meta.talon_decision or {}).items():
            head += (f"\n  {c}: take {d['group']}, discard {d['discard']} (best of "
                     f"{d['options']} exchanges on {d['inner']} inner worlds, margin "
                     f"{d['margin']:.1f} points)")
    return head


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'tarock-solver[plot]'.") \
            from None
