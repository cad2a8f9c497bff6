"""The HTML of the three pages: one frame (title, navigation, the page's form, a
progress line and a result area); the script (``static/app.js``) fills the form
from the address, runs the job and draws the answer."""

from __future__ import annotations

import html
import json

from tarock_solver.cards import CARD_IDS, card_label
from tarock_solver.notation import EXAMPLE_DEALS, SEATS
from tarock_solver.rules import DEFAULT_PROFILE, load_rules, profile_names

TITLES = {"advise": "Advice", "deal": "Deal", "review": "Review"}


def _options(values: tuple[str, ...] | list[str], default: str = "") -> str:
    return "".join(f'<option value="{html.escape(v)}"{" selected" if v == default else ""}>'
                   f"{html.escape(v)}</option>" for v in values)


def _field(name: str, label: str, control: str, hint: str = "") -> str:
    hint_html = f'<span class="hint">{hint}</span>' if hint else ""
    return (f'<div class="field"><label for="{name}">{label}</label>{control}{hint_html}'
            f'<div class="err" id="err-{name}" role="alert"></div></div>')


def _rules_field() -> str:
    return _field("rules", "Rules", f'<select id="rules" name="rules">'
                  f"{_options(profile_names(), DEFAULT_PROFILE)}</select>")


def _picker(counts: str, hint: str = "") -> str:
    """The pack to click (drawn by the script), with the counts of the picked cards."""
    hint_html = f'<span class="hint">{hint}</span>' if hint else ""
    return ('<div id="picker" class="picker" aria-label="the pack"></div>'
            f'<div class="count">{counts} '
            f'<button type="button" id="clear" class="link">clear</button>{hint_html}</div>')


def _deal_targets() -> str:
    """The "to:" buttons of the Deal page's pack: where a clicked card goes."""
    sizes = {"F": 16, "M": 16, "R": 16, "talon": 6}
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
        _picker(_deal_targets(), "a full hand passes on to the next; the talon is t1 … t6 "
                "in the order its cards are clicked")
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


def page_html(kind: str) -> str:
    """The page ``kind`` (advise, deal or review)."""
    nav = "".join(f'<a href="/{k}"{" class=on" if k == kind else ""}>{t}</a>'
                  for k, t in TITLES.items())
    cards = [{"id": cid, "label": card_label(i, False)} for i, cid in enumerate(CARD_IDS)]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{TITLES[kind]} · tarock</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body data-page="{kind}">
<header><span class="brand">tarock</span><nav>{nav}</nav></header>
<main>
<form id="form" method="get" action="/{kind}" novalidate>
{FORMS[kind]()}
<div class="actions"><button type="submit" id="go">{ACTIONS[kind]}</button>
<button type="button" id="cancel" disabled>Cancel</button>
<span id="status" class="status" aria-live="polite"></span></div>
</form>
<section id="result"></section>
</main>
<script>window.CARDS = {json.dumps(cards, ensure_ascii=False)};
window.EXAMPLES = {json.dumps(EXAMPLE_DEALS)};</script>
<script src="/static/app.js"></script>
</body></html>"""
