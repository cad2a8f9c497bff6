"""`tarock solve DEAL --contract trischaken`: each seat's paranoid value, formatted.

The library (:mod:`tarock_solver.solver.trischaken`) computes, for each seat, the fewest
card points he can be held to when the two others play together to give him the most;
this module runs it for the three seats and prints the values, what they mean for the
score, and the same as JSON.  The three values are three separate worst cases, not one
line of play.
"""

from __future__ import annotations

import json
from typing import Any

import click

from tarock_solver.cards import TOTAL_THIRDS, mask_of, round_points, thirds_of
from tarock_solver.deal import Deal
from tarock_solver.errors import RulesError
from tarock_solver.notation import SEATS, format_deal
from tarock_solver.rules import Rules
from tarock_solver.scoring import score_trischaken

from ._text import plain, table

#: The contract word that selects this path of `tarock solve`.
TRISCHAKEN = "trischaken"


def is_trischaken(contracts: tuple[str, ...]) -> bool:
    """Does ``--contract`` ask for Trischaken?  (It must then be the only contract.)"""
    wanted = [c.strip().lower() == TRISCHAKEN for c in contracts]
    if any(wanted) and not all(wanted):
        raise click.UsageError("--contract trischaken cannot be combined with other contracts.")
    return bool(wanted) and all(wanted)


def points_in_play(deal: Deal) -> int:
    """Card points in play in a Trischaken: the pack's 70 minus the unused talon's."""
    return round_points(TOTAL_THIRDS - thirds_of(mask_of(deal.talon)))


def _cell(result: Any) -> str:
    return str(result.lower) if result.exact else f"{result.lower}..{result.upper}"


def _trickless(result: Any) -> bool | None:
    # every trick holds three cards worth at least 1 each, so it is worth at least 1:
    # held to 0 points is held to no trick
    if result.upper == 0:
        return True
    if result.lower > 0:
        return False
    return None


def _sure_non_loser(result: Any, in_play: int) -> bool | None:
    # held to v < in_play / 3, one of the others takes more than he does
    if 3 * result.upper < in_play:
        return True
    if 3 * result.lower >= in_play:
        return False
    return None


def _score(rules: Rules, results: tuple[Any, ...], in_play: int) -> tuple[Any, str]:
    """score_trischaken of the three values taken as one outcome, or why it does not apply."""
    if not all(r.exact for r in results):
        return None, "no score: a value is not exact (node limit)."
    points = [r.lower for r in results]
    if sum(points) > in_play:
        return None, (f"no score of the three values together: they add up to {sum(points)}, "
                      f"more than the {in_play} in play, so they cannot all happen at once.")
    # tricks: none for a value of 0, the rest shared by the others (only none-or-some counts)
    takers = [s for s in range(3) if points[s] > 0]
    tricks = [0, 0, 0]
    for i, s in enumerate(takers):
        tricks[s] = 16 // len(takers) + (1 if i < 16 % len(takers) else 0)
    try:
        return score_trischaken(rules, points, tricks), "score_trischaken of the three values."
    except RulesError as exc:
        return None, f"no score of the three values together: {exc}"


def trischaken_document(deal: Deal, rules: Rules, results: tuple[Any, ...],
                        node_limit: int | None) -> dict[str, Any]:
    """The ``--json`` object."""
    in_play = points_in_play(deal)
    score, note = _score(rules, results, in_play)
    rows = [{"seat": SEATS[s], "points": r.lower if r.exact else None,
             "points_bounds": [r.lower, r.upper], "thirds": 3 * r.lower if r.exact else None,
             "exact": r.exact, "trickless": _trickless(r),
             "sure_non_loser": _sure_non_loser(r, in_play), "nodes": r.nodes,
             "seconds": round(r.seconds, 3), "tests": r.tests}
            for s, r in enumerate(results)]
    return {"deal": format_deal(deal), "rules": rules.name,
            "rule_options": rules.describe_overrides(), "contract": TRISCHAKEN,
            "leader": SEATS[0], "value": "paranoid", "node_limit": node_limit,
            "points_in_play": in_play, "rows": rows,
            "score": None if score is None else {"written": list(score.written),
                                                 "nets": list(score.nets),
                                                 "losers": [SEATS[s] for s in score.losers]},
            "score_note": note}


def print_trischaken(deal: Deal, rules: Rules, results: tuple[Any, ...],
                     node_limit: int | None, as_json: bool, ascii_only: bool) -> None:
    """Print the three seats' paranoid values (a table, or JSON)."""
    if as_json:
        click.echo(json.dumps(trischaken_document(deal, rules, results, node_limit),
                              ensure_ascii=False, indent=1))
        return
    in_play = points_in_play(deal)

    def yes_no(flag: bool | None) -> str:
        return "?" if flag is None else ("yes" if flag else "no")

    body = [[SEATS[s], _cell(r), yes_no(_trickless(r)), yes_no(_sure_non_loser(r, in_play)),
             f"{r.nodes:,}", f"{r.seconds:.2f}"] for s, r in enumerate(results)]
    overrides = rules.describe_overrides()
    click.echo(plain(f"Trischaken (all pass), paranoid values   rules: {rules.name}"
                     + (f" ({overrides})" if overrides else "") + "   F leads", ascii_only))
    click.echo(format_deal(deal))
    click.echo()
    for line in table(body, ["Seat", "Points", "No trick", "Not loser", "Nodes", "Seconds"]):
        click.echo(plain(line, ascii_only))
    click.echo()
    must_beat = "on" if rules.trischaken_must_beat else "off"
    pagat = "on" if rules.trischaken_pagat_last else "off"
    lines = [
        f"Points: the seat's paranoid value, the fewest card points he can be held to: he "
        f"plays to take the fewest, the two others play together to give him the most "
        f"(must beat {must_beat}, Pagat last {pagat}; talon unused, {in_play} points in play).",
        "These are three separate worst cases, each against a different pair, not one line "
        "of play.",
        "No trick: the seat can avoid every trick (held to 0; every trick is worth at least "
        "1 point), so he writes the trickless bonus too.",
        f"Not loser: held to less than a third of the {in_play} points, one of the others "
        "surely takes more, so the seat is sure to write "
        f"{rules.trischaken_value}.",
    ]
    if node_limit is not None and not all(r.exact for r in results):
        lines.append(f"a..b: the node limit of {node_limit:,} was reached; the value lies "
                     "between a and b.")
    score, note = _score(rules, results, in_play)
    if score is None:
        lines.append("Score: " + note)
    else:
        nets = " / ".join(f"{SEATS[s]} {score.nets[s]:+d}" for s in range(3))
        lines.append(f"Score if the three values were one outcome ({note}): written "
                     + "/".join(str(w) for w in score.written) + f"; nets {nets}.")
    for line in lines:
        click.echo(plain(line, ascii_only))
