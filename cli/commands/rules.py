"""`tarock rules [NAME]`: print a rule profile's tables and option values."""

from __future__ import annotations

import json

import click

from tarock_solver.rules import (
    BIRD_KEYS,
    DECLARATION_KEYS,
    HAND_KEYS,
    ITEM_TITLES,
    MARK_FLAGS,
    TARGET_KEYS,
    Rules,
    profile_names,
)

from ..main import Settings
from ._text import plain, table


def _val(value: int | None) -> str:
    return "-" if value is None else str(value)


def _flags(rules: Rules, item: str) -> str:
    return "".join(dict.fromkeys(MARK_FLAGS[m.flag] for m in rules.marks_for(item)))


def _contract_rows(rules: Rules) -> list[list[str]]:
    rows = []
    for key, name in rules.info.contracts:
        levels = ", ".join(f"{lv} G {rules.game_value(key, lv)}" for lv in rules.levels(key)
                           if rules.raised_game_values is not None)
        rows.append([key, name, str(rules.talon_cards(key)), str(rules.game_value(key)),
                     f"×{rules.multiplier(key)}", levels])
    return rows


def _item_rows(rules: Rules) -> list[list[str]]:
    replace = rules.point_target_mode == "replace"
    defender_items = rules.defender_items()
    rows = [["Game", "G", "-", "-", "-", "declarer, else each defender"]]
    for name in TARGET_KEYS:
        t = rules.target(name)
        if t is None or (t.after is None and t.before is None):
            continue
        how = (f"as game; replaces G (T = {t.points})" if replace
               else f"declarer, else each defender (P ≥ {t.points}); own contra")
        rows.append([ITEM_TITLES[name] + _flags(rules, name), "-", _val(t.after), _val(t.before),
                     "declarer", how])
    for name in DECLARATION_KEYS:
        after, before = (rules.declaration_value(name, lv) for lv in ("after", "before"))
        if after is None and before is None:
            continue
        rows.append([ITEM_TITLES[name] + _flags(rules, name), "-", _val(after), _val(before),
                     "declarer", "as game (succeeds with the game)"
                     + ("; own contra" if rules.contra_scope == "separate" else "")])
    for name in BIRD_KEYS:
        if name not in rules.birds_available():
            continue
        who = "declarer" + (", defender (own)" if name in defender_items else "")
        how = "by side" + ("; a defender's own: he alone" if name in defender_items else "")
        rows.append([ITEM_TITLES[name] + _flags(rules, name),
                     *(_val(rules.bird_value(name, lv)) for lv in ("silent", "after", "before")),
                     who, how])
    if rules.has_valat:
        how = ("declarer, else each defender" if rules.valat.mode == "fixed"
               else "multiplies the declarer's score")
        rows.append([ITEM_TITLES["valat"] + _flags(rules, "valat"),
                     *(_val(v) for v in rules.valat.values), "declarer", how])
    for name in HAND_KEYS:
        if rules.hand_bonus(name) is None:
            continue
        after, before = (rules.hand_premium_value(name, lv) for lv in ("after", "before"))
        who = ("-" if after is None and before is None
               else "declarer" + (", defender (after)" if name in defender_items else ""))
        mult = "× m" if rules.hand_bonus_multiplied else "not multiplied"
        rows.append([ITEM_TITLES[name] + " (hand)" + _flags(rules, name),
                     _val(rules.hand_bonus(name)), _val(after), _val(before), who,
                     f"holder ({mult})"])
    return rows


def _summary(rules: Rules) -> list[str]:
    if rules.overshoot_base == "target":
        over = "P − T on success, (T − 1) − P on failure (T = 36, 40 or 50)"
    else:
        over = "P − 35 on success, 35 − P on failure"
    if rules.loew_target_suppresses_overshoot:
        over += "; none when a target is announced"
    before = ("forbidden" if rules.contra_step_before is None
              else f"×{rules.contra_step_before}")
    steps = {1: "contra", 2: "recontra", 3: "subcontra"}[rules.contra_max_level]
    win = {107: "35⅔ (P ≥ 36)", 106: "35⅓"}[rules.win_thirds]
    lines = [
        f"Win: at least {win}; over/under points: {over}.",
        f"Contra: ×{rules.contra_step_after} per step after the talon, {before} before; "
        f"up to {steps}; contra_scope={rules.contra_scope}.",
        f"Targets: {rules.point_target_mode}"
        + (", graded (cumulative)" if rules.graded_targets_cumulative else "") + ".",
    ]
    if not rules.has_valat:
        lines.append("Valat: not scored.")
    return lines


def render(rules: Rules, ascii_only: bool = False) -> str:
    """The text `tarock rules` prints."""
    info = rules.info
    status = "INCOMPLETE: filled values are marked" if rules.incomplete else "complete"
    out = [f"Rule profile {rules.name} ({info.title}): {status}",
           f"Source: {info.source}",
           f"Overrides: {rules.describe_overrides() or 'none'}", "",
           "Contracts"]
    out += table(_contract_rows(rules), ["Key", "Name", "Talon", "G", "m", "Raised levels"])
    out += ["", "Announcements and bonuses (raw values, before m and contra)"]
    out += table(_item_rows(rules),
                 ["Item", "Silent", "After", "Before", "Announced by", "Written by"])
    out += [""] + _summary(rules) + ["", "Options"]
    overridden = dict(rules.overrides)
    rows = []
    for key, value in rules.option_items():
        note = "overridden" if key in overridden else ""
        rows.append([key + _flags(rules, key), value, note])
    out += table(rows, ["Key", "Value", ""])
    if info.marks:
        legend = ", ".join(f"{sym} {flag}" for flag, sym in MARK_FLAGS.items())
        out += ["", f"Marks ({legend}):"]
        out += [f"  {MARK_FLAGS[m.flag]} {m.item}: {m.note}" for m in info.marks]
    return plain("\n".join(out), ascii_only)


def as_json(rules: Rules) -> dict[str, object]:
    return {
        "name": rules.name,
        "incomplete": rules.incomplete,
        "rule_options": rules.describe_overrides(),
        "contracts": [
            {"key": k, "name": n, "talon": rules.talon_cards(k), "game_value": rules.game_value(k),
             "multiplier": rules.multiplier(k),
             "levels": {lv: rules.game_value(k, lv) for lv in rules.levels(k)
                        if rules.raised_game_values is not None}}
            for k, n in rules.info.contracts
        ],
        "options": dict(rules.option_items()),
        "marks": [{"item": m.item, "flag": m.flag, "note": m.note} for m in rules.info.marks],
    }


@click.command("rules")
@click.argument("name", required=False, metavar="[NAME]")
@click.option("--json", "as_json_", is_flag=True, help="Print the profile as JSON.")
@click.option("--list", "list_", is_flag=True, help="List the profile names.")
@click.pass_obj
def command(settings: Settings, name: str | None, as_json_: bool, list_: bool) -> None:
    """Show a rule profile: contracts, items and option values.

    NAME defaults to the global --rules; global --opt overrides are applied.
    """
    if settings.game == "french":
        _french_rules(settings, name, as_json_, list_)
        return
    if list_:
        click.echo("\n".join(profile_names()))
        return
    rules = settings.loaded_rules if name is None else settings.rules_named(name)
    if as_json_:
        click.echo(json.dumps(as_json(rules), ensure_ascii=False, indent=2))
    else:
        click.echo(render(rules, settings.ascii))


def _french_rules(settings: Settings, name: str | None, as_json_: bool, list_: bool) -> None:
    """`tarock --game french rules`: French Tarot's profiles (tarock_solver.french.rules)."""
    from tarock_solver.french.rules import profile_names as french_profiles

    from ._french import render_rules, rules_json

    if list_:
        click.echo("\n".join(french_profiles()))
        return
    rules = settings.loaded_rules if name is None else settings.rules_named(name)
    if as_json_:
        click.echo(json.dumps(rules_json(rules), ensure_ascii=False, indent=2))
    else:
        click.echo(render_rules(rules, settings.ascii))
