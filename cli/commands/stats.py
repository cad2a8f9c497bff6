"""`tarock stats`: summary tables of a results file from `tarock batch`."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from tarock_solver.stats import (
    default_keys,
    load_results,
    open_rows,
    plot_summary,
    summarise,
    with_tarocks,
)

from ..main import Settings
from ._output import PLOT_SUFFIXES, check_output


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def _format(table: pd.DataFrame) -> str:
    """Percentages and means to one decimal, quantiles and counts as whole numbers."""
    if table.empty:
        return "  (no rows)"
    shown = table.copy()
    for column in shown.columns:
        if column.endswith(("_pct", "_mean")):
            shown[column] = shown[column].map(lambda v: "" if pd.isna(v) else f"{v:.1f}")
        elif column.startswith("points_p"):
            shown[column] = shown[column].map(lambda v: "" if pd.isna(v) else f"{v:g}")
    return shown.to_string(index=False)


@click.command("stats")
@click.argument("results", metavar="OUT", type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path))
@click.option("--by", "by", multiple=True, metavar="COLUMN[,COLUMN]",
              help="Group by these columns instead (repeatable), e.g. --by rules,contract "
                   "or --by contract,tarocks.")
@click.option("--deals", "deals", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, metavar="IN",
              help="The deal file the results came from: adds the column tarocks (tarocks "
                   "dealt to the declarer) and the table by number of tarocks.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE", help="Also write the main table as CSV.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE.png",
              help="Plot success rate and mean net per group (needs matplotlib).")
@click.pass_obj
def command(settings: Settings, results: Path, by: tuple[str, ...], deals: Path | None,
            csv_path: Path | None, plot_path: Path | None) -> None:
    """Summary tables of a results file OUT (.parquet, .csv or .jsonl): per contract and
    declarer seat, how often the game is made, mean and quantiles of the declarer's card
    points, mean net game points; with --deals also by number of tarocks held.
    """
    if csv_path is not None:
        check_output(csv_path, "--csv", suffixes=(".csv",))
    if plot_path is not None:
        check_output(plot_path, "--plot", suffixes=PLOT_SUFFIXES)
    frame = load_results(results)
    if deals is not None:
        frame = with_tarocks(frame, deals)
    keys = _split(by) or default_keys(frame)
    table = summarise(frame, keys)
    click.echo(f"{results}: {len(frame)} rows")
    n_open = int(open_rows(frame).sum())
    if n_open:
        click.echo(f"({n_open} row{'s' if n_open != 1 else ''} over the node budget, with "
                   "bounds only, left out; `tarock batch` with a larger --node-limit solves "
                   "them.)")
    click.echo()
    click.echo(f"By {', '.join(keys)}:")
    click.echo(_format(table))
    if deals is not None and not by:
        tarock_keys = [k for k in keys if k not in ("declarer", "seat")] + ["tarocks"]
        click.echo()
        click.echo(f"By {', '.join(tarock_keys)} (tarocks dealt to the declarer):")
        click.echo(_format(summarise(frame, tarock_keys)))
    if csv_path is not None:
        table.to_csv(csv_path, index=False, lineterminator="\n")
        click.echo(f"Wrote {csv_path}.", err=True)
    if plot_path is not None:
        plot_summary(table, keys, plot_path, title=f"{results.name}: by {', '.join(keys)}")
        click.echo(f"Wrote {plot_path}.", err=True)
