"""The HTML of the three pages of each game: one frame (title, the game served,
navigation, the page's form, a progress line and a result area); the script
(``static/app.js``) fills the form from the address, runs the job and draws the answer.

:data:`FORMS` holds Illustrated Tarock's forms, :data:`FRENCH_FORMS` French Tarot's
(an 18-card hand and seats 1 to 4, a deal of four hands and the chien, a played deal);
:func:`page_html` frames the form of the game served with that game's pack."""

from __future__ import annotations

import html
import json

from tarock_solver.cards import CARD_IDS, card_label
from tarock_solver.games import game_named
from tarock_solver.notation import EXAMPLE_DEALS, SEATS
from tarock_solver.rules import DEFAULT_PROFILE, load_rules, profile_names

from .jobs import FRENCH_CONTRACTS, FRENCH_SEATS

TITLES = {"advise": "Advice", "deal": "Deal", "review": "Review"}


def _options(values: tuple[str, ...] | list[str], default: str = "") -> str:
    return "".join(f'<option value="{html.escape(v)}"{" selected" if v == default else ""}>'
                   f"{html.escape(v)}</option>" for v in values)


def _field(name: str, label: str, control: str, hint: str = "") -> str:
    hint_html = f'<span class="hint">{hint}</span>' if hint else ""
    return (f'<div class="field"><label for="{name}">{label}</label>{control}{hint_html}'
            f'<div class="err" id="err-{name}" role="alert"></div></div>')


def _rules_field(profiles: tuple[str, ...] = (), default: str = DEFAULT_PROFILE) -> str:
    return _field("rules", "Rules", f'<select id="rules" name="rules">'
                  f"{_options(profiles or profile_names(), default)}</select>")


def _picker(counts: str, hint: str = "") -> str:
    """The pack to click (drawn by the script), with the counts of the picked cards."""
    hint_html = f'<span class="hint">{hint}</span>' if hint else ""
    return ('<div id="picker" class="picker" aria-label="the pack"></div>'
            f'<div class="count">{counts} '
            f'<button type="button" id="clear" class="link">clear</button>{hint_html}</div>')


def _deal_targets(sizes: dict[str, int]) -> str:
    """The "to:" buttons of the Deal page's pack: where a clicked card goes."""
    return "to: " + "".join(
        f'<button type="button" class="to" data-target="{t}" aria-pressed="false">{t} '
        f'<span data-count="{t}">0</span>/{n}</button>' for t, n in sizes.items())


def _advise_form() -> str:
    return (
        _picker('<span id="count" data-count="hand">0</span>/16 cards')
        + _field("hand", "Hand", '<input id="hand" name="hand" autocomplete="off" '
                 'placeholder="pick 16 cards above, or paste e.g. '
                 '21,20,16,15,7,5,2,1.K.KQ.K97.Q9">')
        + '<div class="row">'
        + _field("seat", "Seat", f'<select id="seat" name="seat">{_options(SEATS, "F")}'
                 "</select>", "F leads")
        + _rules_field()
        + _field("time", "Time limit (s)", '<input id="time" name="time" value="10" size="5">')
        + _field("samples", "Worlds", '<input id="samples" name="samples" value="1000" '
                 'size="7">')
        + "</div>")


def _deal_form() -> str:
    contracts = list(load_rules(DEFAULT_PROFILE).contracts)
    return (
        _picker(_deal_targets({"F": 16, "M": 16, "R": 16, "talon": 6}),
                "a full hand passes on to the next; the talon is t1 … t6 in the order its "
                "cards are clicked")
        + _field("deal", "Deal", '<textarea id="deal" name="deal" rows="2" placeholder="'
                 'click the cards above, or paste F:&lt;hand&gt; &lt;hand&gt; &lt;hand&gt;/'
                 '&lt;t1&gt;,…,&lt;t6&gt;  or  '
                 'example-1 … example-3"></textarea>',
                 '<button type="button" class="link" data-fill="deal=example-1">example-1'
                 '</button> <button type="button" class="link" data-fill="deal=example-2">'
                 'example-2</button> <button type="button" class="link" '
                 'data-fill="deal=example-3">example-3</button>')
        + '<div class="row">'
        + _field("declarer", "Declarer", f'<select id="declarer" name="declarer">'
                 f'{_options(["all", *SEATS], "all")}</select>')
        + _field("contract", "Contract", f'<select id="contract" name="contract">'
                 f'{_options(["all", *contracts], "all")}</select>')
        + _field("nodes", "Node limit", '<input id="nodes" name="nodes" size="10" '
                 'placeholder="none">', "bounds each search")
        + _rules_field()
        + "</div>")


def _review_form() -> str:
    return (
        _field("record", "Play record", '<textarea id="record" name="record" rows="5" '
               'placeholder="deal: F:… ; declarer: F ; contract: three ; talon: 1-3 ; '
               'discard: … ; play: F: CK C8 CC | …"></textarea>',
               '<button type="button" class="link" data-fill="record=example">the shipped '
               "example</button>")
        + '<div class="row">' + _rules_field() + "</div>")


FORMS = {"advise": _advise_form, "deal": _deal_form, "review": _review_form}
ACTIONS = {"advise": "Advise", "deal": "Solve", "review": "Review"}

# ---------------------------------------------------------------- French Tarot


def _french_rules_field() -> str:
    game = game_named("french")
    return _rules_field(game.profiles, game.default_rules)


def _french_advise_form() -> str:
    from ..commands._french_advise import DEMO_HAND

    return (
        _picker('<span id="count" data-count="hand">0</span>/18 cards')
        + _field("hand", "Hand", '<input id="hand" name="hand" autocomplete="off" '
                 'placeholder="pick 18 cards above, or paste e.g. '
                 f'{html.escape(DEMO_HAND)}">',
                 f'<button type="button" class="link" data-fill="hand={html.escape(DEMO_HAND)}">'
                 "a hand to try</button>")
        + _field("chien", "Chien", '<input id="chien" name="chien" autocomplete="off" '
                 'placeholder="once shown: its 6 cards, e.g. T3 T9 S1 H2 DK C4">',
                 "optional: the Petite and the Garde then play the discard chosen for it")
        + _field("calls", "Calls heard", '<input id="calls" name="calls" autocomplete="off" '
                 'placeholder="before yours, seat 1 first, e.g. pass, garde">',
                 "optional: only higher contracts are offered, and the worlds agree with "
                 "them")
        + '<div class="row">'
        + _field("seat", "Seat", f'<select id="seat" name="seat">'
                 f'{_options(FRENCH_SEATS, "1")}</select>', "1 leads")
        + _french_rules_field()
        + _field("seed", "Seed", '<input id="seed" name="seed" value="1" size="7">')
        + _field("worlds", "Worlds", '<input id="worlds" name="worlds" value="256" size="7">',
                 "the other hands and the chien, at least 8")
        + "</div>")


def _french_deal_form() -> str:
    return (
        _picker(_deal_targets({"1": 18, "2": 18, "3": 18, "4": 18, "chien": 6}),
                "a full hand passes on to the next")
        + _field("deal", "Deal", '<textarea id="deal" name="deal" rows="2" placeholder="'
                 'click the cards above, or paste 1:&lt;hand&gt; &lt;hand&gt; &lt;hand&gt; '
                 '&lt;hand&gt;/&lt;chien&gt;  or  example-1"></textarea>',
                 '<button type="button" class="link" data-fill="deal=example-1">example-1'
                 "</button>")
        + '<div class="row">'
        + _field("taker", "Taker", f'<select id="taker" name="taker">'
                 f'{_options(["all", *FRENCH_SEATS], "all")}</select>', "seat 1 leads")
        + _field("contract", "Contract", f'<select id="contract" name="contract">'
                 f'{_options(["all", *FRENCH_CONTRACTS], "all")}</select>')
        + _field("cards", "Card values", f'<select id="cards" name="cards">'
                 f'{_options(["yes", "no"], "yes")}</select>', "of the next player's cards")
        + _field("time", "Time limit (s)", '<input id="time" name="time" value="10" size="5">',
                 "per row")
        + _field("nodes", "Node limit", '<input id="nodes" name="nodes" size="10" '
                 'placeholder="none">', "per row")
        + _french_rules_field()
        + "</div>"
        + _field("discard", "Discard", '<input id="discard" name="discard" autocomplete="off" '
                 'placeholder="optional, one taker, Petite or Garde: e.g. SC S7 S6 S5 D7 D5">',
                 "instead of the best one")
        + _field("play", "Cards played", '<input id="play" name="play" autocomplete="off" '
                 'placeholder="optional, from the first trick in order: e.g. D8 T2 D4 EX">',
                 "the rows value the rest of the play"))


def _french_review_form() -> str:
    from tarock_solver.french.review import EXACT_TRICKS

    return (
        _field("record", "Play record", '<textarea id="record" name="record" rows="5" '
               'placeholder="deal: 1:… ; taker: 4 ; contract: garde ; discard: … ; '
               'play: 1: SK S5 S4 S3 | …"></textarea>',
               '<button type="button" class="link" data-fill="record=example">the shipped '
               "example</button>")
        + '<div class="row">'
        + _field("exact", "Exact tricks", '<input id="exact" name="exact" '
                 f'value="{EXACT_TRICKS}" size="4">',
                 "judged exactly with at most this many tricks left; before, the learned "
                 "evaluator's estimates (~)")
        + _field("time", "Time limit (s)", '<input id="time" name="time" value="10" size="5">',
                 "per position")
        + _french_rules_field() + "</div>")


FRENCH_FORMS = {"advise": _french_advise_form, "deal": _french_deal_form,
                "review": _french_review_form}


def _pack(game: str) -> tuple[list[dict[str, str]], list[int], dict[str, str]]:
    """The pack the script draws (id and label of every card), its rows' lengths, and the
    worked examples by name."""
    if game == "french":
        from tarock_solver.french.cards import CARD_IDS as FRENCH_IDS
        from tarock_solver.french.notation import EXAMPLE_DEALS as FRENCH_EXAMPLES
        from tarock_solver.french.notation import card_label as french_label

        cards = [{"id": cid, "label": "Exc" if cid == "EX" else french_label(i)}
                 for i, cid in enumerate(FRENCH_IDS)]
        # trumps 1-11, 12-21 and the Excuse, then ♠ ♥ ♦ ♣
        return cards, [11, 11, 14, 14, 14, 14], FRENCH_EXAMPLES
    cards = [{"id": cid, "label": card_label(i, False)} for i, cid in enumerate(CARD_IDS)]
    return cards, [11, 11, 8, 8, 8, 8], EXAMPLE_DEALS


def page_html(kind: str, game: str = "illustrated") -> str:
    """The page ``kind`` (advise, deal or review) of ``game`` (illustrated or french)."""
    title = game_named(game).title
    forms = FRENCH_FORMS if game == "french" else FORMS
    nav = "".join(f'<a href="/{k}"{" class=on" if k == kind else ""}>{t}</a>'
                  for k, t in TITLES.items())
    cards, rows, examples = _pack(game)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{TITLES[kind]} · {title} · tarock</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body data-page="{kind}" data-game="{game}">
<header><span class="brand">tarock</span><h1 id="game" class="game">{title}</h1><nav>{nav}</nav></header>
<main>
<form id="form" method="get" action="/{kind}" novalidate>
{forms[kind]()}
<div class="actions"><button type="submit" id="go">{ACTIONS[kind]}</button>
<button type="button" id="cancel" disabled>Cancel</button>
<span id="status" class="status" aria-live="polite"></span></div>
</form>
<section id="result"></section>
</main>
<script>window.CARDS = {json.dumps(cards, ensure_ascii=False)};
window.PACK_ROWS = {json.dumps(rows)};
window.EXAMPLES = {json.dumps(examples)};</script>
<script src="/static/app.js"></script>
</body></html>"""
