"""`tarock --game french advise`: which contract to take, or to pass, with one French hand.

Parses the hand and the seat (:func:`advice_request`), calls
:func:`tarock_solver.french.advice.advise_french`, formats the rows and the
recommendation (:func:`advice_lines`) or the JSON object (:func:`advice_json`); the web
app's Advice page of French Tarot uses the same three.
"""

from __future__ import annotations

import json
from typing import Any

import click

from tarock_solver.advise.cv import Estimate
from tarock_solver.errors import RulesError
from tarock_solver.french.advice import PASS, FrenchAdvice, FrenchAdviceRequest, advise_french
from tarock_solver.french.notation import format_chien, format_hand, parse_chien, parse_hand
from tarock_solver.french.rules import Contract, FrenchRules

from ..main import Settings
from ._text import plain, table

#: A hand to try: seven trumps with the 21 and the Excuse, two Kings.
DEMO_HAND = "21,19,17,14,11,8,4,EX.K107.KQ5.J2.96"


#: What a pass heard may be written as.
_PASS_WORDS = ("pass", "passe", "p", "-")


def parse_calls(text: str) -> tuple[Contract | None, ...]:
    """The calls heard before the player's turn, from seat 1: "pass, garde" (commas, or
    spaces when there are none); RulesError naming a call that is not one."""
    words = text.split(",") if "," in text else text.split()
    calls: list[Contract | None] = []
    for word in (w.strip() for w in words):
        if not word:
            continue
        if word.lower() in _PASS_WORDS:
            calls.append(None)
            continue
        try:
            calls.append(Contract.parse(word))
        except RulesError:
            raise RulesError(f'--calls: "{word}" is not a call: expected pass or a contract '
                             "(petite, garde, garde_sans, garde_contre), seat 1's first, "
                             'e.g. "pass, garde".') from None
    return tuple(calls)


def advice_request(rules: FrenchRules, hand: str, seat: str, chien: str | None, *, seed: int,
                   worlds: int, calls: str | None = None) -> FrenchAdviceRequest:
    """The request for ``hand`` (18 cards; empty: the demo hand) at ``seat`` (1 to 4), with
    the ``chien`` when shown and the ``calls`` heard before the player's turn (None: not
    given); RulesError, NotationError or DealError naming the bad token."""
    if seat.strip() not in ("1", "2", "3", "4"):
        raise RulesError(f'--seat "{seat}": seats are 1 to 4 (1 leads the first trick).')
    text = hand.strip()
    cards = parse_hand(text or DEMO_HAND, players=4, where="the hand")
    shown = None if chien is None else parse_chien(chien, players=4)
    return FrenchAdviceRequest(hand=cards, seat=int(seat) - 1, rules=rules, seed=seed,
                               worlds=worlds, chien=shown,
                               calls=None if calls is None else parse_calls(calls))


def advice_json(advice: FrenchAdvice) -> dict[str, Any]:
    """What ``--json`` prints: the advice's own object, marked as French Tarot's."""
    return {"game": "french", **advice.to_dict()}


def _title(option: str) -> str:
    return "pass" if option == PASS else Contract.parse(option).title


def _est(e: Estimate | None, fmt: str = "{:.1f}", signed: bool = False) -> str:
    if e is None:
        return ""
    f = fmt.replace("{:", "{:+") if signed else fmt
    return f.format(e.mean) + (f" ± {fmt.format(e.se)}" if e.has_se else " (no SE)")


def _pct(e: Estimate | None) -> str:
    if e is None:
        return ""
    if not e.has_se:
        return f"{100 * e.mean:.0f}%"
    se = 100 * e.se
    return f"{100 * e.mean:.0f}% ± " + (f"{se:.0f}" if se >= 1 else f"{se:.1f}")


def advice_lines(advice: FrenchAdvice, ascii_only: bool, demo: bool) -> list[str]:
    """The advice as the terminal shows it: the rows, the recommendation, the discard
    and the announcements."""
    req = advice.request
    out = [f"Advice for seat {req.seat + 1}{' (demo hand)' if demo else ''}: "
           f"{format_hand(req.hand)}"
           + ("" if req.chien is None else f", chien {format_chien(req.chien)}"),
           f"rules {req.rules.name}   seed {req.seed}   {req.worlds} worlds in "
           f"{advice.seconds:.1f} s (the learned evaluator's values: whole deals are beyond "
           "the exact solver)"]
    if req.calls:
        heard = ", ".join(f"seat {s + 1} " + ("pass" if c is None else c.title)
                          for s, c in enumerate(req.calls))
        out.append(f"after {heard}: the {req.worlds} worlds on which the others, bidding by "
                   f"the adviser's policy, would call so ({advice.drawn:,} drawn)")
    out.append("")
    body = []
    for o in sorted(advice.options, key=lambda o: -o.score.mean):
        body.append([_title(o.option), _pct(o.p_make), _est(o.points), _est(o.margin, signed=True),
                     _est(o.score, "{:.0f}", signed=True), o.detail])
    out += table(body, ["option", "P(make)", "E[card points]", "E[margin]", "E[score]",
                        "after a pass"])
    out.append("")
    best = advice.option(advice.recommended)
    verb = "pass" if advice.recommended == PASS else f"take a {_title(advice.recommended)}"
    rec = f"Recommendation: {verb} — E[score] {_est(best.score, '{:.0f}', True)}"
    if advice.runner_up is not None and advice.difference is not None:
        rec += (f", {_est(advice.difference, '{:.0f}', True)} over "
                f"{_title(advice.runner_up)} on common worlds"
                + (" (close call)" if advice.close else ""))
    out.append(rec + ".")
    a, b = advice.held_out_choices
    out.append(f"  Each half of the worlds chooses {_title(a)}" +
               (f" and {_title(b)}" if b != a else " too") +
               f"; on the other half the choice scores {_est(advice.held_out, '{:.0f}', True)}.")
    if not advice.discards:
        pass  # no contract with a discard is left to bid
    elif req.chien is not None:
        out.append(f"Discard in a Petite or a Garde, with this chien: {advice.discards[0][0]}.")
    else:
        out.append("Discard in a Petite or a Garde: chosen on your hand and the chien of each "
                   "world; give the chien (--chien) once it is shown to get yours.")
    out += _announcements(advice)
    out.append("")
    out.append("± is one standard error over the worlds. E[score] is your marque: as taker "
               "three times the value each defender pays; after a pass, what you pay or "
               "receive as a defender (the others bid by the adviser's policy; all pass: "
               "redeal, 0).")
    return [plain(line, ascii_only) for line in out]


def _announcements(advice: FrenchAdvice) -> list[str]:
    out = []
    gains = [g for g in advice.poignees if g.contract == advice.recommended]
    if gains:
        out.append("Poignée (gain over not showing it, paired; the bonus goes to the side "
                   "that wins the contract):")
        for g in gains:
            out.append(f"  {g.level.value:<7} held on {100 * g.share:.0f}% of the worlds: "
                       f"{_est(g.gain, '{:.1f}', True)}")
        if advice.poignee_shown:
            out.append(f"  to show: {advice.poignee_shown} (the lowest trumps; what is shown "
                       "does not change double-dummy play)")
    pab = [g for g in advice.petit_au_bout if g.contract == advice.recommended]
    if pab:
        out.append(f"Petit au bout in the {_title(advice.recommended)}: worth "
                   f"{_est(pab[0].gain, '{:.1f}', True)} to you, both sides playing for it "
                   "(in E[score]).")
    c = advice.chelem
    if c is not None:
        open_ = c.examined - c.made - c.impossible
        head = (f"Chelem in the {_title(advice.recommended)} (exact, you leading, on "
                f"{c.examined} worlds): made on {c.made}, impossible on {c.impossible}")
        if open_:
            head += (f", open on {open_} (over the node budget); gain of announcing it "
                     f"between {c.gain_low:+.0f} and {c.gain_high:+.0f}")
        else:
            head += f"; gain of announcing it {_est(c.gain, '{:.0f}', True)}"
        out.append(head + ".")
    return out


@click.command("advise")
@click.argument("words", nargs=-1, metavar="HAND")
@click.option("--seat", default="1", show_default=True, metavar="1-4",
              help="Your seat; seat 1 leads the first trick.")
@click.option("--players", default=4, show_default=True, type=int, metavar="N",
              help="Players at the table (advice plays four).")
@click.option("--chien", default=None, metavar="CARDS",
              help="The chien, once shown: the Petite and the Garde then play the discard "
                   "chosen for it, and the worlds keep it.")
@click.option("--calls", default=None, metavar="CALLS",
              help='The calls before yours, seat 1\'s first, e.g. "pass, garde": only '
                   "contracts above the highest are offered, and only worlds on which the "
                   "others, bidding by the adviser's policy, would call so are kept.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(min=0),
              help="Seed of the worlds: the same seed gives the same numbers.")
@click.option("--worlds", default=256, show_default=True, type=click.IntRange(min=8),
              metavar="N", help="Worlds (the other hands and the chien) to average over.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_obj
def command(settings: Settings, words: tuple[str, ...], seat: str, players: int,
            chien: str | None, calls: str | None, seed: int, worlds: int,
            as_json: bool) -> None:
    """Which contract to take with a French Tarot hand, or whether to pass: for Petite,
    Garde, Garde sans, Garde contre and passing, P(make), the expected card points,
    margin and score with their standard errors, and one recommendation.

    HAND is 18 cards (free form "T21 T19 EX SK ..." or compact
    "trumps.♠.♥.♦.♣"); without it, a demo hand.
    """
    if players != 4:
        raise RulesError(f"--players {players}: advice plays four players (the three- and "
                         "five-player games are in the rules and the scoring only).")
    text = " ".join(words).strip()
    rules = settings.loaded_rules
    assert isinstance(rules, FrenchRules)
    req = advice_request(rules, text, seat, chien, seed=seed, worlds=worlds, calls=calls)
    advice = advise_french(req)
    if as_json:
        click.echo(json.dumps(advice_json(advice), indent=2, ensure_ascii=False))
        return
    for line in advice_lines(advice, settings.ascii, demo=not text):
        click.echo(line)
