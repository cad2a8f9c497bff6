"""`tarock solve`: the double-dummy table of a known deal.

For each declarer seat and contract: the best talon group and discard, the declarer's
exact card points (thirds and rounded), made or not, and what the plain game nets;
``--cards`` adds the value of each opening lead of F.  The work is done by
:mod:`tarock_solver.analysis.ddtable`; this module parses and formats.

``--contract trischaken`` gives instead each seat's paranoid value of the all-pass game
(:mod:`._trischaken`).

``--objective game-points`` adds, for every row, the double-dummy value of what is
written on the score sheet (:mod:`tarock_solver.solver.gamepoints`) with the
announcements (``--announce``) and contras (``--contra``) given, or with the best
announcement set (``--announcements best``).  The exchange is the row's card-point
optimal one; the game-point search covers the whole play after it.

:func:`read_deal`, :func:`solve_rows` and :func:`json_document` are shared with the
web app's job (:mod:`tarock_cli.web.worker`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from tarock_solver.cards import format_thirds, round_points
from tarock_solver.deal import Deal, capture_warnings
from tarock_solver.errors import RulesError
from tarock_solver.notation import (
    SEATS,
    card_id,
    card_label,
    example_or_text,
    format_deal,
    parse_deal,
)
from tarock_solver.rules import Rules, item_name

from ..main import Settings
from ._text import plain, table
from ._trischaken import is_trischaken, print_trischaken


def read_deal(words: tuple[str, ...]) -> Deal:
    """The complete deal of the command's words (an example's name or deal notation)."""
    text = " ".join(words).strip()
    if not text:
        raise click.UsageError('give a deal, e.g. tarock solve "F:<hand> <hand> <hand>/'
                               '<t1>,…,<t6>" (or example-1 … example-3).')
    deal = parse_deal(example_or_text(text))
    if not isinstance(deal, Deal):
        from tarock_solver.errors import DealError

        raise DealError("tarock solve needs a complete deal: three hands of 16 cards and the "
                        "talon (no '-' or '?'); for a single hand use tarock advise.")
    return deal


def _points_cell(row: Any) -> str:
    if row.declarer_thirds is None:
        return "?"
    text = format_thirds(row.declarer_thirds)
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


def _row_estimates(deal: Deal, rows: list[Any]) -> list[float | None]:
    """The evaluator's card points of each row (discard + tricks) after its exchange."""
    from tarock_solver.analysis.estimated import estimate_row_points
    from tarock_solver.cards import thirds_of

    return [None if row.declarer_thirds is None
            else thirds_of(row.discard) / 3 + estimate_row_points(deal, row.declarer,
                                                                   row.hand_after)
            for row in rows]


def _estimate_lines(rows: list[Any], estimates: list[float | None],
                    ascii_only: bool) -> list[str]:
    body = []
    for row, est in zip(rows, estimates, strict=True):
        exact = None if row.declarer_thirds is None else row.declarer_thirds / 3
        body.append([row.declarer_name, row.contract, _points_cell(row),
                     "?" if est is None else f"{est:.1f}",
                     "" if est is None or exact is None else f"{est - exact:+.1f}"])
    lines = [plain("Learned evaluator (an estimate in microseconds, after the exchange above):",
                   ascii_only)]
    lines += [plain(line, ascii_only)
              for line in table(body, ["Decl", "Contract", "Points", "Estimate", "Error"])]
    return lines


def _print_estimates(deal: Deal, rules: Rules, seats: list[str], contracts: list[str],
                     as_json: bool, ascii_only: bool) -> None:
    """``--estimate-only``: the table by the learned evaluator alone."""
    from tarock_solver.analysis.estimated import estimated_table

    rows = estimated_table(deal, rules, declarers=seats, contracts=contracts)
    if as_json:
        doc = {"deal": format_deal(deal), "rules": rules.name,
               "rule_options": rules.describe_overrides(), "leader": SEATS[0],
               "estimate_only": True,
               "rows": [{"declarer": r.declarer_name, "contract": r.contract,
                         "talon_group": r.exchange.group_label if r.exchange else "",
                         "discard": r.exchange.discard_ids if r.exchange else "",
                         "estimated_points": round(r.points, 2),
                         "estimated_trick_points": round(r.trick_points, 2)} for r in rows]}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    win = rules.win_thirds / 3
    body = [[r.declarer_name, r.contract, r.exchange.group_label if r.exchange else "-",
             (r.exchange.discard_ids if r.exchange else "") or "-", f"{r.points:.1f}",
             "likely" if r.points >= win else "unlikely"] for r in rows]
    click.echo(plain(f"Estimated table (learned evaluator, no search)   rules: {rules.name}"
                     "   F leads", ascii_only))
    click.echo(format_deal(deal))
    click.echo()
    for line in table(body, ["Decl", "Contract", "Talon", "Discard", "Points ≈", "Made"]):
        click.echo(plain(line, ascii_only))
    click.echo()
    click.echo(plain("Points ≈: the evaluator's card points (discard + tricks) after the exchange "
                     "it rates best; exact values: tarock solve without --estimate-only.",
                     ascii_only))


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
    cells = [f"{card_label(c, ascii_only)} {format_thirds(values[c])}"
             + ("*" if values[c] == best else "") for c in order]
    lines = [plain(head, ascii_only)]
    for i in range(0, len(cells), 8):
        lines.append("  " + "   ".join(plain(c, ascii_only) for c in cells[i:i + 8]))
    lines.append("  (* best lead for F: " + ("highest" if declarer_leads else "lowest")
                 + " declarer points)")
    return lines


def json_document(deal: Deal, rules: Rules, dd: Any, leads: dict[int, Any],
                  node_limit: int | None) -> dict[str, Any]:
    """The table and the leads (``--cards``) as ``--json`` prints them (before the
    game points and estimates are added)."""
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


def solve_rows(deal: Deal, rules: Rules, seats: list[str], contracts: list[str], *,
               cards: bool, solver: Any, budget: Any,
               progress: Callable[[Any], None] | None = None
               ) -> tuple[Any, dict[int, Any]]:
    """The double-dummy table of ``seats`` × ``contracts`` (``progress`` after each row)
    and, with ``cards``, the values of F's opening leads per row (row index → values;
    a row that plays as another gets its twin's)."""
    from tarock_solver.analysis import dd_table, lead_values

    dd = dd_table(deal, rules, declarers=seats, contracts=contracts, solver=solver,
                  budget=budget, progress=progress)
    leads: dict[int, Any] = {}
    if cards:
        for i, row in enumerate(dd.rows):
            if row.same_play_as is None:
                leads[i] = lead_values(deal, row, solver=solver, budget=budget)
            else:
                twin = next(j for j, r in enumerate(dd.rows)
                            if r.declarer == row.declarer and r.contract == row.same_play_as)
                leads[i] = leads.get(twin)
    return dd, leads


# ----------------------------------------------------------------- game points

OBJECTIVES = ("card-points", "game-points")


def parse_announce(token: str, rules: Rules) -> tuple[str, str]:
    """``pagat``, ``pagat:before`` → (item, level); RulesError naming the token otherwise."""
    from tarock_solver.solver import ANNOUNCEABLE

    name, _, level = token.partition(":")
    try:
        item = item_name(name)
    except RulesError:
        item = ""
    if item not in ANNOUNCEABLE:
        raise RulesError(f'--announce "{token}": "{name}" is not an item the declarer can '
                         f'announce; expected one of: {", ".join(ANNOUNCEABLE)}, optionally '
                         'with :after or :before (e.g. pagat:before).')
    lv = (level or "after").strip().lower()
    if lv not in ("after", "before"):
        raise RulesError(f'--announce "{token}": level "{level}" must be after or before.')
    if lv not in rules.announcement_levels(item):
        possible = rules.announcement_levels(item)
        hint = (f"possible: {', '.join(possible)}" if possible
                else "the profile has no such announcement")
        raise RulesError(f'--announce "{token}": {item} cannot be announced {lv} the talon '
                         f"in the {rules.name} profile ({hint}).")
    return item, lv


def parse_contra(token: str, rules: Rules) -> tuple[str, str]:
    """``game=1`` (one contra after the talon), ``pagat=2``, ``game=ba`` → (object, stages)."""
    obj, sep, stages = token.partition("=")
    if not sep or not obj.strip() or not stages.strip():
        raise RulesError(f'--contra "{token}": expected OBJECT=LEVEL, e.g. game=1 (contra), '
                         "game=2 (recontra) or stage letters a/b such as game=ba.")
    name = obj.strip().lower()
    if name != "game":
        try:
            name = item_name(name)
        except RulesError:
            raise RulesError(f'--contra "{token}": "{obj}" is not game or an announcement '
                             "name.") from None
    text = stages.strip().lower()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= rules.contra_max_level:
            raise RulesError(f'--contra "{token}": level {n} must be 1..'
                             f"{rules.contra_max_level} in the {rules.name} profile.")
        text = "a" * n
    elif not text or any(ch not in "ab" for ch in text):
        raise RulesError(f'--contra "{token}": "{stages}" must be a number of steps (1 = contra) '
                         "or letters a (after the talon) / b (before it).")
    return name, text


def _announced_text(anns: dict[str, str]) -> str:
    return ",".join(f"{k}:{v}" if v != "after" else k for k, v in sorted(anns.items())) or "-"


def _game_table_lines(rows: list[Any], games: list[Any], ascii_only: bool) -> list[str]:
    body = []
    notes = []
    for row, game in zip(rows, games, strict=True):
        res = game.result
        if res is None:
            notes.append(f"{row.declarer_name} {row.contract}: {game.error}")
            body.append([row.declarer_name, row.contract, row.talon_group or "-",
                         row.discard_ids or "-", _announced_text(game.announcements),
                         "?", "?", "?", "?", "?", "", ""])
            continue
        body.append([
            row.declarer_name, row.contract, row.talon_group or "-", row.discard_ids or "-",
            _announced_text(game.announcements), f"{res.net_declarer:+d}", str(res.points),
            res.birds or "-", "yes" if res.valat else "no",
            "/".join(str(w) for w in res.written), f"{res.nodes:,}", str(res.tests)])
    header = ["Decl", "Contract", "Talon", "Discard", "Announced", "Net", "P", "Birds",
              "Valat", "Written F/M/R", "Nodes", "Tests"]
    lines = [plain(line, ascii_only) for line in table(body, header)]
    return lines + [plain(f"  {n}", ascii_only) for n in notes]


def _game_json(game: Any) -> dict[str, Any]:
    res = game.result
    obj: dict[str, Any] = {"objective": "game-points", "announcements": game.announcements}
    if res is None:
        obj.update(net_declarer=None, written_F=None, written_M=None, written_R=None,
                   written=None, nets=None, birds=None, valat=None, game_error=game.error)
    else:
        # the score fields now describe the game-point line, not the plain card-point game
        obj.update(net_declarer=res.net_declarer, written_F=res.written[0],
                   written_M=res.written[1], written_R=res.written[2],
                   written=list(res.written), nets=list(res.nets), birds=res.birds,
                   valat=res.valat,
                   points=res.points, points_thirds=res.thirds,
                   line=[card_id(c) for c in res.line], game_nodes=res.nodes,
                   game_tests=res.tests)
    if game.tried:
        obj["announcement_sets"] = [
            {"announcements": dict(k), "net_declarer": v.value if v.exact else None,
             "net_bounds": None if v.exact else [v.lower, v.upper]} for k, v in game.tried]
    return obj


def _solve_trischaken(settings: Settings, words: tuple[str, ...], node_limit: int | None,
                      as_json: bool) -> None:
    """Each seat's paranoid value of the deal played as a Trischaken."""
    from tqdm import tqdm

    from tarock_solver.solver import Budget, TrischakenSearch, trischaken_position

    rules = settings.loaded_rules
    search = TrischakenSearch(rules)  # refuses a profile without Trischaken, before the deal
    with capture_warnings() as messages:
        deal = read_deal(words)
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    budget = Budget(nodes=node_limit)
    results = []
    for seat in tqdm(range(3), desc="solving", unit="seat", file=sys.stderr, disable=None,
                     leave=False):
        pos = trischaken_position(deal.hands, 0, seat, rules=rules)
        results.append(search.value(pos, budget))
    print_trischaken(deal, rules, tuple(results), node_limit, as_json, settings.ascii)


@click.command("solve")
@click.argument("words", nargs=-1, metavar="DEAL")
@click.option("--declarer", "declarers", multiple=True, metavar="F|M|R",
              type=click.Choice(SEATS, case_sensitive=False),
              help="Only this declarer seat (repeatable; default all three).")
@click.option("--contract", "contracts", multiple=True, metavar="NAME",
              help="Only this contract (repeatable; default every contract of the profile); "
                   "trischaken: each seat's paranoid value of the all-pass game instead.")
@click.option("--cards", is_flag=True,
              help="Also give the value of each opening lead of F after the best exchange.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N",
              help="Give up a row (declarer × contract) after N search nodes; such rows are "
                   "marked * and show the best exchange proven so far.")
@click.option("--objective", default="card-points", show_default=True,
              type=click.Choice(OBJECTIVES, case_sensitive=False),
              help="game-points: also the double-dummy value of the score sheet per row.")
@click.option("--announce", "announce", multiple=True, metavar="ITEM[:before]",
              help="With game points: the declarer announces ITEM (pagat, uhu, kakadu, "
                   "absolut, kramerpoi, valat) after the talon, or before it (repeatable).")
@click.option("--contra", "contra", multiple=True, metavar="OBJECT=N",
              help="With game points: contra on the game or an announced item; N=1 contra, "
                   "2 recontra, … (or stage letters a/b, e.g. game=ba). Repeatable.")
@click.option("--announcements", "announcements", default="given", show_default=True,
              type=click.Choice(("given", "best"), case_sensitive=False),
              help="With game points: best = per row the announcement set with the largest "
                   "game-point value (greedy search over the announceable items).")
@click.option("--estimate", "estimate", is_flag=True,
              help="Also the learned evaluator's estimate of each row's card points "
                   "(after the exact best exchange), beside the exact value.")
@click.option("--estimate-only", "estimate_only", is_flag=True,
              help="Only the learned evaluator, no search: each row's exchange chosen by "
                   "the estimate, instantly (estimates, not exact values).")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], declarers: tuple[str, ...],
            contracts: tuple[str, ...], cards: bool, as_json: bool,
            node_limit: int | None, objective: str, announce: tuple[str, ...],
            contra: tuple[str, ...], announcements: str, estimate: bool,
            estimate_only: bool) -> None:
    """Double-dummy table of a known deal: per declarer and contract the best talon
    group and discard and the declarer's exact card points.

    DEAL is deal notation, "F:<hand> <hand> <hand>/<t1>,…,<t6>" (quote it, or give the
    hands and the talon as separate words), or example-1 … example-3.  F leads to the
    first trick; in Solo the talon goes to the defenders.  Exact whole-deal searches
    can take from milliseconds to minutes each; --node-limit bounds them.

    With --objective game-points each row also gets the double-dummy value of the
    score sheet (the declarer's zero-sum net, birds, Valat, written amounts) for the
    --announce items and --contra levels given, or for the best announcement set
    (--announcements best), played after the row's card-point optimal exchange.

    With --contract trischaken (the all-pass game; profiles with all_pass=trischaken)
    each seat gets his paranoid value: the fewest card points he can be held to when
    the two others play together to give him the most (three separate worst cases).
    """
    from tqdm import tqdm

    from tarock_solver.analysis.gametable import game_point_rows
    from tarock_solver.solver import Budget, CardPointSearch

    rules = settings.loaded_rules
    game_points = objective.lower() == "game-points"
    best = announcements.lower() == "best"
    if is_trischaken(contracts):
        if declarers or cards or game_points or announce or contra or best or estimate \
                or estimate_only:
            raise click.UsageError(
                "--contract trischaken has no declarer: it does not combine with --declarer, "
                "--cards, --objective game-points, --announce, --contra, --announcements "
                "best, --estimate or --estimate-only.")
        _solve_trischaken(settings, words, node_limit, as_json)
        return
    if not game_points and (announce or contra or best):
        raise click.UsageError("--announce, --contra and --announcements best need "
                               "--objective game-points.")
    if best and announce:
        raise click.UsageError("give either --announce items or --announcements best.")
    if estimate_only and (game_points or cards or node_limit is not None or estimate):
        raise click.UsageError("--estimate-only runs no search: it does not combine with "
                               "--objective game-points, --cards, --node-limit or --estimate.")
    announced: dict[str, str] = {}
    for token in announce:
        item, level = parse_announce(token, rules)
        if item in announced:
            raise RulesError(f'--announce "{token}": {item} is announced twice.')
        announced[item] = level
    contras = dict(parse_contra(token, rules) for token in contra)
    with capture_warnings() as messages:
        deal = read_deal(words)
    for message in messages:
        click.echo(f"Warning: {message}", err=True)
    chosen = [rules.contract_key(c) for c in contracts] or list(rules.contracts)
    seats = [d.upper() for d in declarers] or list(SEATS)
    n_rows = len(set(seats)) * len(set(chosen))
    if estimate_only:
        _print_estimates(deal, rules, seats, chosen, as_json, settings.ascii)
        return

    budget = Budget(nodes=node_limit)
    solver = CardPointSearch()
    with tqdm(total=n_rows, desc="solving", unit="row", file=sys.stderr, disable=None,
              leave=False) as bar:
        dd, leads = solve_rows(deal, rules, seats, chosen, cards=cards, solver=solver,
                               budget=budget, progress=lambda _row: bar.update(1))
    games: list[Any] = []
    if game_points:
        with tqdm(total=len(dd.rows), desc="game points", unit="row", file=sys.stderr,
                  disable=None, leave=False) as bar:
            games = game_point_rows(deal, rules, dd.rows, announcements=announced,
                                    contras=contras, best=best, budget=budget,
                                    progress=lambda: bar.update(1))

    estimates = _row_estimates(deal, list(dd.rows)) if estimate else None
    if as_json:
        doc = json_document(deal, rules, dd, leads, node_limit)
        for obj, game in zip(doc["rows"], games, strict=False):
            obj.update(_game_json(game))
        for obj, est in zip(doc["rows"], estimates or [], strict=False):
            obj["estimated_points"] = None if est is None else round(est, 2)
        if game_points:
            doc["objective"] = "game-points"
            doc["contras"] = contras
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    ascii_only = settings.ascii
    overrides = rules.describe_overrides()
    click.echo(plain(f"Double-dummy table   rules: {rules.name}"
                     + (f" ({overrides})" if overrides else "") + "   F leads", ascii_only))
    click.echo(format_deal(deal))
    click.echo()
    for line in _table_lines(list(dd.rows), ascii_only):
        click.echo(line)
    if estimates is not None:
        click.echo()
        for line in _estimate_lines(list(dd.rows), estimates, ascii_only):
            click.echo(line)
    click.echo()
    click.echo(plain(f"Points: the declarer's exact card points (discard + tricks); P rounded; "
                     f"made at {format_thirds(rules.win_thirds)} (P ≥ {round_points(rules.win_thirds)})"
                     "; Net: the declarer's net for the plain game, hand bonuses included.",
                     ascii_only))
    if not dd.complete:
        click.echo(f"* node limit of {node_limit:,} reached: the best exchange proven so far "
                   "(a lower bound); '?' where the outcome is still open.")
    if game_points:
        click.echo()
        what = ("the best announcement set" if best
                else f"announced: {_announced_text(announced)}")
        if contras:
            what += "; contra: " + ", ".join(f"{k}={v}" for k, v in contras.items())
        click.echo(plain(f"Game points (double-dummy value of the score sheet; {what}; "
                         "the exchange above):", ascii_only))
        for line in _game_table_lines(list(dd.rows), games, ascii_only):
            click.echo(line)
        click.echo(plain("Net: the declarer's zero-sum net under double-dummy play of the "
                         "whole payoff; P, Birds, Valat, Written: one optimal line.",
                         ascii_only))
    for i, row in enumerate(dd.rows):
        if i in leads and row.same_play_as is None:
            click.echo()
            for line in _lead_lines(row, leads[i], ascii_only):
                click.echo(line)
