"""`tarock advise`: which contract to bid and what to announce, for one hand."""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading

import click

from tarock_solver.advise import AdviceRequest, RaceConfig, advise
from tarock_solver.advise.inputs import read_advice_input
from tarock_solver.advise.plot import plot_points
from tarock_solver.advise.report import (
    announcements_text,
    contract_text,
    recommendation_text,
    work_text,
)
from tarock_solver.deal import capture_warnings
from tarock_solver.diagram import can_show_symbols, hand_line
from tarock_solver.notation import SEATS, format_cards

from ..main import Settings
from ._output import PLOT_SUFFIXES, check_output
from ._params import Seconds
from ._text import plain, stdout_encoding


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
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Worlds (sampled deals) per contract.")
@click.option("--time-limit", type=Seconds(), default=60.0,
              show_default=True, metavar="SECONDS",
              help="Answer within this time with the worlds done so far.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Random seed: the same seed gives the same worlds and numbers.")
@click.option("--jobs", type=click.IntRange(0, 256), default=0, show_default=True,
              help="Worker processes, 0 = one per available core (the numbers do not depend "
                   "on it; more workers answer with more worlds within --time-limit).")
@click.option("--json", "as_json", is_flag=True, help="Print everything as JSON.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False),
              help="Write the advice table (NOTATION.md 5.3 advice schema) to FILE.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Plot the card-point distribution per contract to FILE.png (matplotlib).")
@click.option("--no-birds", is_flag=True,
              help="Do not judge bird announcements (they need exact game-point solves, "
                   "the slowest part).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], seat: str | None, contract: str | None,
            talon: str | None, samples: int, time_limit: float, seed: int, jobs: int,
            as_json: bool, csv_path: str | None, plot_path: str | None,
            no_birds: bool, no_progress: bool) -> None:
    """Bidding advice for one hand: P(make), expected card points and net game points
    per contract and announcement, with standard errors, and a recommendation.

    HAND is 16 cards in any notation (compact "21,20,16,15,7,5,2,1.K.KQ.K97.Q9" or free
    form), or a partial deal such as "F:<hand> - -/?".  Without HAND a demo hand is used.
    """
    rules = settings.loaded_rules
    jobs = jobs or (os.cpu_count() or 1)
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
                        others=inp.others, samples=samples, time_limit=time_limit, seed=seed,
                        jobs=jobs, race=RaceConfig(), progress=not no_progress,
                        birds=not no_birds)
    # SIGTERM would end this process without running the adviser's clean-up,
    # leaving spawned workers to finish their solves; exit through Python instead.
    main = threading.current_thread() is threading.main_thread()
    if main:
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        adv = advise(req)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)

    if csv_path:
        adv.table.to_csv(csv_path, index=False, na_rep="",
                         float_format="%.6g")
    if plot_path:
        plot_points(adv.points, plot_path, title=f"Declarer card points, seat "
                    f"{SEATS[inp.seat]}")
    if as_json:
        out = {
            "hand": format_cards(inp.hand), "seat": SEATS[inp.seat], "demo": inp.demo,
            "rules": rules.name, "rule_options": rules.describe_overrides(),
            "talon": format_cards(inp.talon) if inp.talon else None,
            "meta": adv.meta, "recommendation": adv.recommendation,
            "table": _records(adv.table), "announcements": _records(adv.announcements),
            "exchanges": _records(adv.exchanges),
        }
        click.echo(json.dumps(_clean(out), default=_json_default, ensure_ascii=False, indent=2))
        return
    ascii_only = settings.ascii or not can_show_symbols(stdout_encoding())
    names = {c: rules.contract_name(c) for c in rules.contracts}
    click.echo(_header(inp, rules.name, adv.meta, ascii_only))
    click.echo()
    click.echo(plain(_text_table(contract_text(adv.table, names)), ascii_only))
    if adv.exchanges is not None and not adv.exchanges.empty:
        click.echo()
        click.echo("Exchanges raced on inner samples (the chosen one is evaluated on fresh worlds "
                   "above):")
        click.echo(plain(_text_table(adv.exchanges.round(2)), ascii_only))
    click.echo()
    click.echo("Announcements (gain in net game points over plain play of the same contract):")
    click.echo(plain(_text_table(announcements_text(adv.announcements, names)), ascii_only))
    for line in _bird_lines(adv.meta, names, no_birds):
        click.echo(plain(line, ascii_only))
    click.echo()
    click.echo("Solver work per world (race: choosing the exchange on inner worlds; eval: the "
               "values above; bounded: node budget spent, value = midpoint of its bounds):")
    click.echo(plain(_text_table(work_text(adv.meta["work"], names)), ascii_only))
    click.echo()
    click.echo(plain(recommendation_text(adv.recommendation, names), ascii_only))


def _bird_lines(meta: dict, names: dict[str, str], skipped: bool) -> list[str]:
    """Say plainly how far the birds were judged (never skip them silently)."""
    options = {c: o for c, o in meta.get("bird_options", {}).items() if o}
    if skipped:
        birds = sorted({b for levels in meta["birds"].values() for b in levels})
        return [f"  {', '.join(b.capitalize() for b in birds)}: not judged (--no-birds)."] \
            if birds else []
    if not options:
        return []
    worlds = meta.get("bird_worlds", {})
    over = meta.get("bird_worlds_over_budget", {})

    def judged(c: str) -> str:
        text = f"{names.get(c, c)} {worlds.get(c, 0)}"
        if over.get(c):
            text += (f" ({over[c]} left out: a game-point solve ran over its node budget, "
                     "so the rows rest on the easier worlds)")
        return text

    done = ", ".join(judged(c) for c in options)
    lines = [f"  Birds (rows marked bird): exact game-point solves on the exchange plain play "
             f"chose; worlds judged: {done}. Gain = announcing when held vs not announcing, "
             "in game points (silent birds counted on both sides)."]
    missing = [names.get(c, c) for c in options if not worlds.get(c)]
    if missing:
        lines.append(f"  Birds not judged in time for {', '.join(missing)} (game-point solves "
                     "are slow; raise --time-limit or --samples).")
    return lines


def _header(inp, rules_name: str, meta: dict, ascii_only: bool) -> str:
    worlds = meta["worlds"]
    counts = sorted(set(worlds.values()))
    done = (f"{counts[0]} worlds" if len(counts) == 1
            else ", ".join(f"{c} {n}" for c, n in worlds.items()) + " worlds")
    head = (f"Advice for {SEATS[inp.seat]}{' (demo hand)' if inp.demo else ''}: "
            f"{hand_line(inp.hand, ascii=ascii_only)}\n"
            f"rules: {rules_name}   seed {meta['seed']}   {done} in {meta['seconds']:.1f} s")
    if meta["worlds_complete"] < meta["samples_requested"]:
        head += f" (time limit reached; {meta['samples_requested']} requested)"
    if inp.talon:
        head += f"\ntalon: {format_cards(inp.talon)}"
    return head


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'tarock-solver[plot]'.") \
            from None
