"""French Tarot's side of `tarock score` and `tarock rules` (``--game french``).

:data:`score_command` reads one deal's outcome from options and prints the itemised
score and the marque; :func:`render_rules` and :func:`rules_json` show a profile.
Bad input is a RulesError naming the token and what was expected (exit 2).
"""

from __future__ import annotations

import json
import re
from typing import Any

import click

from tarock_solver.errors import RulesError
from tarock_solver.french.rules import Contract, FrenchRules, Poignee
from tarock_solver.french.scoring import (
    Chelem,
    FrenchScore,
    Marque,
    Side,
    format_half_points,
    marque,
    score,
)

from ..main import Settings
from ._text import plain, table

#: French letters spelled out for ``--ascii`` (the shared table covers the symbols).
_FRENCH_ASCII = str.maketrans({"é": "e", "è": "e", "ê": "e", "ç": "c", "É": "E", "à": "a"})


def plain_french(text: str, ascii_only: bool) -> str:
    return plain(text, ascii_only).translate(_FRENCH_ASCII) if ascii_only else text


def parse_points(text: str) -> int:
    """Card points as typed (``48.5``, ``48,5``, ``48``) -> half points; RulesError else."""
    raw = str(text).strip()
    m = re.fullmatch(r"(\d{1,2})(?:[.,](0|5))?", raw)
    half = int(m.group(1)) * 2 + (1 if m.group(2) == "5" else 0) if m else -1
    if not 0 <= half <= 182:
        raise RulesError(f'--points "{raw}": expected card points from 0 to 91 in steps of '
                         "0.5 (e.g. 48.5).")
    return half


def parse_poignee(text: str) -> tuple[Side, Poignee]:
    """``taker:simple``, ``defence:double`` (or just ``simple``: the taker's)."""
    side_text, colon, level_text = str(text).partition(":")
    if not colon:
        side_text, level_text = "taker", side_text
    try:
        return Side.parse(side_text), Poignee.parse(level_text)
    except RulesError as exc:
        raise RulesError(f'--poignee "{text}": {exc} Write SIDE:LEVEL, e.g. taker:simple.'
                         ) from None


def _rules(settings: Settings, players: int | None) -> FrenchRules:
    # --players is an option of the profile; a global --opt players=N still wins over it.
    rules = settings.rules_named(settings.rules,
                                 {} if players is None else {"players": str(players)})
    assert isinstance(rules, FrenchRules)
    return rules


def _seat_rows(res: Marque) -> list[list[str]]:
    rows = [["taker", "1", f"{res.taker:+d}"]]
    if res.partner is not None:
        rows.append(["partner", "1", f"{res.partner:+d}"])
    rows.append(["defender", str(res.defenders), f"{res.defender:+d}"])
    return rows


def render_score(rules: FrenchRules, res: FrenchScore, seats: Marque) -> str:
    head = (f"{rules.name} ({rules.players} players): {res.contract.title}, taker "
            f"{res.taker_points} points with {res.oudlers} oudlers for "
            f"{res.target_points}: {'made' if res.made else 'failed'} by {res.difference}")
    out = [head]
    if rules.describe_overrides():
        out.append(f"Rule options: {rules.describe_overrides()}")
    rows = [[line.item, f"{line.amount:+d}", line.why] for line in res.lines]
    out += [""] + table(rows, ["Item", "Per defender", "Why"])
    out += ["", f"Value per defender: {res.value:+d} for the taker's side", ""]
    out += table(_seat_rows(seats), ["Seat", "How many", "Marque each"])
    return "\n".join(out)


def score_json(rules: FrenchRules, res: FrenchScore, seats: Marque) -> dict[str, Any]:
    return {
        "game": "french", "rules": rules.name, "rule_options": rules.describe_overrides(),
        "players": rules.players, "contract": res.contract.value,
        "multiplier": res.multiplier, "points": format_half_points(res.taker_half_points),
        "half_points": res.taker_half_points, "oudlers": res.oudlers,
        "target": res.target_points, "made": res.made, "difference": res.difference,
        "contract_value": res.contract_value, "petit_au_bout": res.petit_au_bout,
        "poignees": res.poignees, "chelem": res.chelem, "value": res.value,
        "lines": [{"item": x.item, "amount": x.amount, "why": x.why} for x in res.lines],
        "marque": {"taker": seats.taker, "partner": seats.partner,
                   "defender": seats.defender, "defenders": seats.defenders},
    }


@click.command("score")
@click.option("--contract", required=True,
              help="petite, garde, garde_sans or garde_contre (also prise, gs, gc, guard…).")
@click.option("--points", required=True, metavar="POINTS",
              help="The taker's side's card points, 0 to 91 in steps of 0.5 (e.g. 48.5).")
@click.option("--oudlers", required=True, type=click.IntRange(0, 3),
              help="Oudlers in the taker's side's cards: 0 to 3.")
@click.option("--petit-au-bout", "petit_au_bout", metavar="SIDE",
              help="The side that took the last trick with the Petit: taker or defence.")
@click.option("--poignee", "poignees", multiple=True, metavar="SIDE:LEVEL",
              help="A poignée shown, e.g. taker:simple or defence:double. Repeatable.")
@click.option("--chelem", metavar="OUTCOME",
              help="announced-made, made (unannounced), announced-failed or defence.")
@click.option("--players", type=click.IntRange(3, 5),
              help="Players at the table (default: the profile's, 4).")
@click.option("--called-self", "called_self", is_flag=True,
              help="Five players: the taker plays alone (he called his own King, or the "
                   "called King was in the chien).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_obj
def score_command(settings: Settings, contract: str, points: str, oudlers: int,
                  petit_au_bout: str | None, poignees: tuple[str, ...], chelem: str | None,
                  players: int | None, called_self: bool, as_json: bool) -> None:
    """Score one French Tarot deal: the value per defender, itemised, and the marque."""
    rules = _rules(settings, players)
    if called_self and rules.players != 5:
        raise RulesError("--called-self applies to five players only.")
    res = score(rules, contract, parse_points(points), oudlers,
                petit_au_bout=None if petit_au_bout is None else _side(petit_au_bout),
                poignees=[parse_poignee(p) for p in poignees],
                chelem=Chelem.parse(chelem))
    seats = marque(res, rules.players, taker_alone=called_self)
    if as_json:
        click.echo(json.dumps(score_json(rules, res, seats), ensure_ascii=False))
    else:
        click.echo(plain_french(render_score(rules, res, seats), settings.ascii))


def _side(text: str) -> Side:
    try:
        return Side.parse(text)
    except RulesError as exc:
        raise RulesError(f"--petit-au-bout: {exc}") from None


def render_rules(rules: FrenchRules, ascii_only: bool) -> str:
    return plain_french(rules.describe(), ascii_only)


def rules_json(rules: FrenchRules) -> dict[str, object]:
    return {
        "game": "french", "name": rules.name, "players": rules.players,
        "rule_options": rules.describe_overrides(),
        "contracts": [{"key": c.value, "name": c.title, "multiplier": c.multiplier,
                       "chien_to": c.chien_to, "exchanges": c.exchanges} for c in Contract],
        "poignees": {lv.value: {"trumps": rules.poignee_trumps(lv),
                                "value": rules.poignee_value(lv)} for lv in Poignee},
        "options": dict(rules.option_items()),
    }
