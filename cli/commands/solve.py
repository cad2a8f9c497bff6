"""`tarock solve`: the double-dummy table of a known deal.

For each declarer seat and contract: the best talon group and discard, the declarer's
exact card points (thirds and rounded), made or not, and what the plain game nets;
``--cards`` adds the value of each opening lead of F.  The work is done by
:mod:`tarock_solver.analysis.ddtable`; this module parses and formats.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cli.main import Settings
from tarock_solver.cards import round_points
from tarock_solver.deal import EXAMPLE_DEALS, Deal, capture_warnings
from tarock_solver.notation import SEATS, card_id, card_label, format_deal, parse_deal
from tarock_solver.rules import Rules, load_rules

from ._text import plain, table


def exact_points(thirds: int) -> str:
    """Card points with their fraction: ``41⅔``."""
    whole, rest = divmod(thirds, 3)
    return f"{whole}{('', '⅓', '⅔')[rest]}"


def _read_deal(words: tuple[str, ...]) -> Deal:
    text = " ".join(words).strip()
    if not text:
        raise click.UsageError('give a deal, e.g. tarock solve "F:<hand> <hand> <hand>/'
                               '<t1>,…,<t6>" (or example-1 … example-3).')
    deal = parse_deal(EXAMPLE_DEALS.get(text, text))
    if not isinstance(deal, Deal):
        from tarock_solver.errors import DealError

        raise DealError("tarock solve needs a complete deal: three hands of 16 cards and the "
                        "talon (no '-' or '?'); for a single hand use tarock advise.")
    return deal


def _points_cell(row: Any) -> str:
    if row.declarer_thirds is None:
        return "?"
    text = exact_points(row.declarer_thirds)
    return text if row.complete else f"≥{text}"


def _made_cell(row: Any) -> str:
    if row.made is None:
        return "?"
    text = "yes" if row.made else "no"
    return text + (" (Valat)" if row.valat else "")


def _table_lines(rows: list[Any], ascii_only: bool) -> list[str]:
    body = []
    for row in rows:
        if row.same_play_as:
            work = f"as {row.same_play_as}"
            nodes = secs = ""
        else:
            work = f"{row.options}"
            nodes = f"{row.nodes:,}"
            secs = f"{row.seconds:.2f}"
        net = "" if row.score is None else f"{row.score.net_declarer:+d}"
        mark = "" if row.complete else " *"
        body.append([
            row.declarer_name, row.contract, row.talon_group or "-", row.discard_ids or "-",
            _points_cell(row) + mark,
            "?" if row.declarer_points is None else str(row.declarer_points),
            _made_cell(row), net, work, nodes, secs,
        ])
    header = ["Decl", "Contract", "Talon", "Discard", "Points", "P", "Made", "Net",
              "Exchanges", "Nodes", "Seconds"]
    return [plain(line, ascii_only) for line in table(body, header)]


def _lead_lines(row: Any, values: dict[int, int] | None, ascii_only: bool) -> list[str]:
    what = f"{row.declarer_name} declares {row.contract}"
    if row.talon_group:
        what += f", takes {row.talon_group}, discards {row.discard_ids}"
    head = f"Opening lead of F ({what}); declarer's points after each lead:"
    if values is None:
        return [plain(head, ascii_only), "  (node limit reached; no values)"]
    declarer_leads = row.declarer == 0
    order = sorted(values, key=lambda c: (-values[c] if declarer_leads else values[c], c))
    best = values[order[0]]
    cells = [f"{card_label(c, ascii_only)} {exact_points(values[c])}"
             + ("*" if values[c] == best else "") for c in order]
    lines = [plain(head, ascii_only)]
    for i in range(0, len(cells), 8):
        lines.append("  " + "   ".join(plain(c, ascii_only) for c in cells[i:i + 8]))
    lines.append("  (* best lead for F: " + ("highest" if declarer_leads else "lowest")
                 + " declarer points)")
    return lines


def _json_document(deal: Deal, rules: Rules, dd: Any, leads: dict[int, Any],
                   node_limit: int | None) -> dict[str, Any]:
    rows = []
    for i, row in enumerate(dd.rows):
        obj = row.to_json()
        if i in leads:
            values = leads[i]
            obj["lead_thirds"] = (None if values is None
                                  else {card_id(c): t for c, t in sorted(values.items())})
        rows.append(obj)
    return {
        "deal": format_deal(deal),
        "rules": rules.name,
        "rule_options": rules.describe_overrides(),
        "leader": SEATS[0],
        "node_limit": node_limit,
        "complete": dd.complete,
        "rows": rows,
    }


@click.command("solve")
@click.argument("words", nargs=-1, metavar="DEAL")
@click.option("--declarer", "declarers", multiple=True, metavar="F|M|R",
              type=click.Choice(SEATS, case_sensitive=False),
              help="Only this declarer seat (repeatable; default all three).")
@click.option("--contract", "contracts", multiple=True, metavar="NAME",
              help="Only this contract (repeatable; default every contract of the profile).")
@click.option("--cards", is_flag=True,
              help="Also give the value of each opening lead of F after the best exchange.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N",
              help="Give up a row (declarer × contract) after N search nodes; such rows are "
                   "marked * and show the best exchange proven so far.")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], declarers: tuple[str, ...],
            contracts: tuple[str, ...], cards: bool, as_json: bool,
            node_limit: int | None) -> None:
    """Double-dummy table of a known deal: per declarer and contract the best talon
    group and discard and the declarer's exact card points.

    DEAL is deal notation, "F:<hand> <hand> <hand>/<t1>,…,<t6>" (quote it, or give the
    hands and the talon as separate words), or example-1 … example-3.  F leads to the
    first trick; in Solo the talon goes to the defenders.  Exact whole-deal searches
    can take from milliseconds to minutes each; --node-limit bounds them.
    """
    from tqdm import tqdm

    from tarock_solver.analysis import BudgetSolver, dd_table, lead_values

    rules = load_rules(settings.rules, settings.opts)
    with capture_warnings() as messages:
        deal = _read_deal(words)
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    chosen = [rules.contract_key(c) for c in contracts] or list(rules.contracts)
    seats = [d.upper() for d in declarers] or list(SEATS)
    n_rows = len(set(seats)) * len(set(chosen))

    solver = BudgetSolver()
    with tqdm(total=n_rows, desc="solving", unit="row", file=sys.stderr, disable=None,
              leave=False) as bar:
        dd = dd_table(deal, rules, declarers=seats, contracts=chosen, solver=solver,
                      node_limit=node_limit, progress=lambda _row: bar.update(1))
        leads: dict[int, Any] = {}
        if cards:
            for i, row in enumerate(dd.rows):
                if row.same_play_as is None:
                    leads[i] = lead_values(deal, row, solver=solver, node_limit=node_limit)
                else:
                    twin = next(j for j, r in enumerate(dd.rows)
                                if r.declarer == row.declarer and r.contract == row.same_play_as)
                    leads[i] = leads.get(twin)

    if as_json:
        click.echo(json.dumps(_json_document(deal, rules, dd, leads, node_limit),
                              ensure_ascii=False, indent=1))
        return
    ascii_only = settings.ascii
    overrides = rules.describe_overrides()
    click.echo(plain(f"Double-dummy table   rules: {rules.name}"
                     + (f" ({overrides})" if overrides else "") + "   F leads", ascii_only))
    click.echo(format_deal(deal))
    click.echo()
    for line in _table_lines(list(dd.rows), ascii_only):
        click.echo(line)
    click.echo()
    click.echo(plain(f"Points: the declarer's exact card points (discard + tricks); P rounded; "
                     f"made at {exact_points(rules.win_thirds)} (P ≥ {round_points(rules.win_thirds)})"
                     "; Net: the declarer's net for the plain game, hand bonuses included.",
                     ascii_only))
    if not dd.complete:
        click.echo(f"* node limit of {node_limit:,} reached: the best exchange proven so far "
                   "(a lower bound); '?' where the outcome is still open.")
    for i, row in enumerate(dd.rows):
        if i in leads and row.same_play_as is None:
            click.echo()
            for line in _lead_lines(row, leads[i], ascii_only):
                click.echo(line)
