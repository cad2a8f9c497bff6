"""`tarock score`: score one deal's outcome and print the itemised table and nets.

The outcome comes from options, from a JSON object (``--json-in FILE`` or ``-``
for stdin, same field names as :data:`._outcome.INPUT_FIELDS`), or both; options
given on the command line win over the file.  With ``--game french`` the command is
French Tarot's (:data:`._french.score_command`), with its own options.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from click.core import ParameterSource

from tarock_solver.cards import SEAT_NAMES
from tarock_solver.errors import FileFormatError, RulesError, json_error_text
from tarock_solver.rules import Rules
from tarock_solver.scoring import (
    ScoreResult,
    TrischakenResult,
    option_of,
    parse_option,
    score,
    score_trischaken,
)

from ..main import Settings
from ._outcome import input_from_dict, parse_bird
from ._text import plain, table


class _GameCommand(click.Command):
    """`score` for the game of ``--game``: French Tarot's command parses and runs the
    arguments when the game is french, so each game keeps its own options and help."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        settings = parent.obj if parent is not None else None
        if isinstance(settings, Settings) and settings.game == "french":
            from ._french import score_command

            return score_command.make_context(info_name, args, parent=parent, **extra)
        return super().make_context(info_name, args, parent=parent, **extra)


def _read_json(source: str) -> dict[str, Any]:
    name = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except OSError as exc:
        raise FileFormatError(f"{name}: cannot read the file ({exc.strerror}).", path=name) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{name}: not UTF-8 text (byte {exc.start + 1}); save the file "
                              "as UTF-8.", path=name) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"{name}:{exc.lineno}: {json_error_text(exc)}.",
                              path=name, line=exc.lineno) from None
    if not isinstance(data, dict):
        raise FileFormatError(f"{name}: the outcome must be one JSON object.", path=name)
    return data


def _pairs(values: tuple[str, ...], flag: str, example: str) -> dict[str, str]:
    out = {}
    for v in values:
        key, eq, value = v.partition("=")
        if not eq or not key.strip():
            raise RulesError(f'{flag} "{v}": expected KEY=VALUE, e.g. {example}.')
        out[key.strip()] = value.strip()
    return out


def _triple(text: str, flag: str) -> list[int]:
    try:
        values = [int(p) for p in text.replace(";", ",").split(",")]
    except ValueError:
        values = []
    if len(values) != 3:
        raise RulesError(f'{flag} "{text}": expected three whole numbers F,M,R, e.g. 20,25,15.')
    return values


def _choose_rules(settings: Settings, data: dict[str, Any]) -> Rules:
    """--rules given on the command line wins over the file's "rules"; --opt over "options"."""
    ctx = click.get_current_context()
    parent = ctx.parent
    explicit = (parent is not None
                and parent.get_parameter_source("rules") == ParameterSource.COMMANDLINE)
    name = settings.rules
    if not explicit and data.get("rules"):
        name = str(data["rules"])
    options: dict[str, Any] = {}
    if data.get("option"):
        options.update(parse_option(str(data["option"])).settings_dict())
    file_options = data.get("options") or {}
    if not isinstance(file_options, dict):
        raise RulesError('"options" must be an object of option keys, e.g. {"partner_capture": "fail"}.')
    options.update(file_options)
    return settings.rules_named(name, options)


def _seat_list(seats: tuple[int, ...]) -> str:
    return ", ".join(SEAT_NAMES[s] for s in seats)


def _render_game(rules: Rules, res: ScoreResult, contract: str, option: str) -> str:
    decl = SEAT_NAMES[res.declarer]
    if res.points_thirds is None:
        pts = f"P {res.points} (ended at the talon)"
    else:
        pts = f"P {res.points} ({res.points_thirds} thirds)"
    head = (f"{rules.name}: {rules.contract_name(contract)}, declarer {decl}, {pts}: "
            f"{'made' if res.made else 'lost'}")
    out = [head]
    if option != "plain":
        out.append(f"Scenario: {option}")
    if rules.describe_overrides():
        out.append(f"Rule options: {rules.describe_overrides()}")
    if rules.incomplete:
        out.append(f"Note: the {rules.name} profile is incomplete; see `tarock rules {rules.name}`.")
    rows = [[line.title, _seat_list(line.writers), str(line.amount), line.why]
            for line in res.lines]
    out.append("")
    out += table(rows, ["Item", "Written by", "Each", "Why"]) if rows else ["  (nothing written)"]
    out += [""] + _seat_table(res.written, res.nets, res.declarer)
    if res.birds:
        out.append(f"Birds: {res.birds}")
    return "\n".join(out)


def _seat_table(written: tuple[int, ...], nets: tuple[int, ...], declarer: int | None) -> list[str]:
    rows = [[SEAT_NAMES[s] + (" (declarer)" if s == declarer else ""), str(written[s]),
             f"{nets[s]:+d}"] for s in range(3)]
    return table(rows, ["Seat", "Written", "Net"])


def _render_trischaken(rules: Rules, res: TrischakenResult, points: list[int],
                       tricks: list[int]) -> str:
    out = [f"{rules.name}: Trischaken, points F {points[0]}, M {points[1]}, R {points[2]}; "
           f"tricks {tricks[0]}/{tricks[1]}/{tricks[2]}",
           f"Loser(s): {_seat_list(res.losers)}", ""]
    rows = [[line.item, _seat_list(line.writers), str(line.amount), line.why] for line in res.lines]
    out += table(rows, ["Item", "Written by", "Each", "Why"]) if rows else ["  (nothing written)"]
    return "\n".join(out + [""] + _seat_table(res.written, res.nets, None))


def _json_game(rules: Rules, res: ScoreResult, contract: str, option: str) -> dict[str, Any]:
    return {
        "rules": rules.name, "rule_options": rules.describe_overrides(),
        "incomplete": rules.incomplete, "contract": contract,
        "declarer": SEAT_NAMES[res.declarer], "option": option,
        "points": res.points, "points_thirds": res.points_thirds, "made": res.made,
        "margin_thirds": res.margin_thirds, "game_value": res.game_value,
        "multiplier": res.multiplier, "birds": res.birds, "valat": res.valat,
        "written": dict(zip(SEAT_NAMES, res.written, strict=True)),
        "nets": dict(zip(SEAT_NAMES, res.nets, strict=True)),
        "net_declarer": res.net_declarer,
        "lines": [{"item": line.item, "writers": [SEAT_NAMES[s] for s in line.writers],
                   "amount": line.amount, "why": line.why} for line in res.lines],
    }


@click.command("score", cls=_GameCommand)
@click.option("--contract", help="three, lower, two, one, solo (or the profile's names); "
                                 "trischaken with --trischaken-points.")
@click.option("--declarer", metavar="SEAT", help="F, M or R (default F).")
@click.option("--points", type=int, help="Declarer's rounded card points P.")
@click.option("--thirds", type=int, help="Declarer's exact card points in thirds.")
@click.option("--level", help="Raised game level: taken, held or retaken.")
@click.option("--announce", multiple=True, metavar="NAME[:before][/SEAT]",
              help="An announcement (after the talon unless :before); /SEAT for a "
                   "defender's own. Repeatable.")
@click.option("--contra", multiple=True, metavar="OBJECT=STAGES",
              help="Contra steps on game or an announced item: a = after, b = before the "
                   "talon, e.g. game=ba. Repeatable.")
@click.option("--bird", multiple=True, metavar="BIRD:holder=S,trick=N,winner=S",
              help="How a bird card was played, e.g. pagat:holder=F,trick=16,winner=M. "
                   "Repeatable.")
@click.option("--valat", is_flag=True, default=None, help="The declarer took all 16 tricks.")
@click.option("--hand-bonus", multiple=True, metavar="SEAT=NAME[,NAME]",
              help="Hand bonuses a seat holds (trull, koepfe, kings); for the declarer, "
                   "after the exchange. Repeatable.")
@click.option("--hand", multiple=True, metavar="SEAT=HAND", help="A dealt hand. Repeatable.")
@click.option("--declarer-hand", metavar="HAND", help="The declarer's hand after the exchange.")
@click.option("--broken", multiple=True, metavar="NAME",
              help="A before-talon no_trull / no_kings broken by the talon.")
@click.option("--option", "option_text", metavar="OPTION",
              help="A scenario in the results-file grammar, e.g. 'absolut@before;x:game=a'.")
@click.option("--trischaken-points", metavar="F,M,R", help="Trischaken: card points per seat.")
@click.option("--tricks", metavar="F,M,R", help="Trischaken: tricks per seat.")
@click.option("--json-in", "json_in", metavar="FILE|-", help="Read the outcome from JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_obj
def command(settings: Settings, contract: str | None, declarer: str | None, points: int | None,
            thirds: int | None, level: str | None, announce: tuple[str, ...],
            contra: tuple[str, ...], bird: tuple[str, ...], valat: bool | None,
            hand_bonus: tuple[str, ...], hand: tuple[str, ...], declarer_hand: str | None,
            broken: tuple[str, ...], option_text: str | None, trischaken_points: str | None,
            tricks: str | None, json_in: str | None, as_json: bool) -> None:
    """Score one deal: written amounts, zero-sum nets and the itemised table."""
    data: dict[str, Any] = _read_json(json_in) if json_in else {}
    for key, value in (("contract", contract), ("declarer", declarer), ("level", level),
                       ("declarer_hand", declarer_hand), ("option", option_text),
                       ("valat", valat)):
        if value is not None:
            data[key] = value
    if points is not None or thirds is not None:
        data.pop("points", None)
        data.pop("thirds", None)
        data.update({k: v for k, v in (("points", points), ("thirds", thirds)) if v is not None})
    if announce:
        existing = data.get("announce") or []
        if isinstance(existing, dict):
            existing = [f"{k}:{v}" for k, v in existing.items()]
        data["announce"] = [*existing, *announce]
    if contra:
        data["contra"] = {**(data.get("contra") or {}),
                          **_pairs(contra, "--contra", "game=a")}
    if bird:
        data["birds"] = {**(data.get("birds") or {}), **dict(parse_bird(b) for b in bird)}
    if hand_bonus:
        data["hand_bonus"] = {**(data.get("hand_bonus") or {}),
                              **_pairs(hand_bonus, "--hand-bonus", "M=trull")}
    if hand:
        data["hands"] = {**(data.get("hands") or {}), **_pairs(hand, "--hand", "M=21,20,...")}
    if broken:
        data["broken"] = [*(data.get("broken") or []), *broken]
    if trischaken_points or tricks:
        data["trischaken"] = {"points": _triple(trischaken_points or "", "--trischaken-points"),
                              "tricks": _triple(tricks or "", "--tricks")}

    rules = _choose_rules(settings, data)
    ascii_only = settings.ascii
    tri = data.get("trischaken")
    if tri is not None or str(data.get("contract", "")).lower() == "trischaken":
        if not isinstance(tri, dict) or "points" not in tri or "tricks" not in tri:
            raise RulesError("Trischaken needs --trischaken-points F,M,R and --tricks F,M,R.")
        tpoints, ttricks = list(tri["points"]), list(tri["tricks"])
        tres = score_trischaken(rules, tpoints, ttricks)
        if as_json:
            click.echo(json.dumps({
                "rules": rules.name, "contract": "trischaken",
                "losers": [SEAT_NAMES[s] for s in tres.losers],
                "written": dict(zip(SEAT_NAMES, tres.written, strict=True)),
                "nets": dict(zip(SEAT_NAMES, tres.nets, strict=True))}, ensure_ascii=False))
        else:
            click.echo(plain(_render_trischaken(rules, tres, tpoints, ttricks), ascii_only))
        return

    data.pop("rules", None)
    data.pop("options", None)
    data.pop("trischaken", None)
    inp = input_from_dict(rules, data)
    result = score(rules, inp)
    option = option_of(inp)
    if as_json:
        click.echo(json.dumps(_json_game(rules, result, inp.contract, option),
                              ensure_ascii=False))
    else:
        click.echo(plain(_render_game(rules, result, inp.contract, option), ascii_only))
