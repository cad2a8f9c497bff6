"""`tarock --game french bench`: the French Tarot solver on seeded full deals and endgames;
with ``--advise``, the French adviser on the shipped hands, seed after seed."""

from __future__ import annotations

import os

import click

from tarock_solver.bench.french import FrenchBenchConfig, format_french_bench, run_french_bench
from tarock_solver.bench.report import save_report

from ..main import Settings


@click.command("bench")
@click.option("--deals", default=20, show_default=True, type=click.IntRange(min=1),
              metavar="N", help="Seeded full deals.")
@click.option("--endgames", default=10, show_default=True, type=click.IntRange(min=1),
              metavar="N", help="Seeded endgames of each size (12, 10 and 8 tricks).")
@click.option("--time-limit", "seconds", default=30.0, show_default=True,
              type=click.FloatRange(min=0.01), metavar="S", help="Seconds per position.")
@click.option("--threads", default=0, type=click.IntRange(min=0), metavar="N",
              help="Threads of the all-threads run (0: every core).")
@click.option("--first-seed", default=1, show_default=True, type=click.IntRange(min=0),
              metavar="N", help="The first deal's seed.")
@click.option("--advise", is_flag=True,
              help="Bench the adviser instead: the shipped French hands, seeds 1-5, "
                   "default settings.")
@click.option("--hands", default=20, show_default=True, type=click.IntRange(min=1),
              metavar="N", help="With --advise: shipped hands to advise.")
@click.option("--seeds", default=5, show_default=True, type=click.IntRange(min=1),
              metavar="N", help="With --advise: seeds per hand.")
@click.option("--worlds", default=None, type=click.IntRange(min=8), metavar="N",
              help="With --advise: worlds per run (default: the adviser's).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the benchmark document as JSON.")
@click.pass_obj
def command(settings: Settings, deals: int, endgames: int, seconds: float, threads: int,
            first_seed: int, advise: bool, hands: int, seeds: int, worlds: int | None,
            json_path: str | None) -> None:
    """Median and p90 solve times of the French Tarot solver (the taker's card points) on
    seeded full deals and on 12-, 10- and 8-trick endgames, one thread, then all threads
    on the same positions.  Positions over the time limit count as not solved."""
    if advise:
        from tarock_solver.bench.french_advise import (
            format_french_advise_report,
            run_french_advise_bench,
        )

        doc = run_french_advise_bench(hands=hands, seeds=seeds, first_seed=first_seed,
                                      worlds=worlds,
                                      status=lambda msg: click.echo(msg, err=True))
        for line in format_french_advise_report(doc):
            click.echo(line)
        if json_path:
            save_report(doc, json_path)
            click.echo(f"Wrote {json_path}.", err=True)
        return
    config = FrenchBenchConfig(deals=deals, endgames=endgames, seconds=seconds,
                               threads=threads or os.cpu_count() or 1, first_seed=first_seed)

    def progress(tricks: int, seed: int, rec: dict) -> None:
        state = "over the cap" if rec["over_budget"] else f"{rec['ms']:,.0f} ms"
        click.echo(f"  {tricks} tricks, seed {seed}: {state}", err=True)

    doc = run_french_bench(config, progress)
    for line in format_french_bench(doc):
        click.echo(line)
    if json_path:
        save_report(doc, json_path)
        click.echo(f"Wrote {json_path}.", err=True)
