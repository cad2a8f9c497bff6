"""`tarock --game french serve`: French Tarot's Advice, Deal and Review pages.

The fields the server checks, the jobs run in-process through the job process's code
(:mod:`tarock_cli.web.worker`) against what `tarock --game french advise/solve/review`
prints, the pages' HTML, and one server started from this checkout's ``cli/`` folder:
its job stream names a bad token next to its field, and in the system's headless
Chromium (skipped without it or selenium, as in test_web.py) a deal is built by clicks
and solved, and a played deal replayed.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import urllib.request

import pytest
from clitools import run as run_cli
from tarock_cli.web import jobs, pages, worker
from webtools import headless_chromium, serving, wait_for, web

from tarock_solver.french.advice.rows import ADVICE_COLUMNS
from tarock_solver.french.review.report import REVIEW_COLUMNS

DEMO = "21,19,17,14,11,8,4,EX.K107.KQ5.J2.96"
#: README's French solve example: an endgame, exact in a second or two.
DISCARD = "SC S7 S6 S5 D7 D5"
PLAY = "D8 T2 D4 EX T12 T16 T17 T19 SK T6 S4 S3 H8 H6 HJ H2 H9 T1 H4 H7"


def _run(kind: str, params: dict[str, str]) -> list[dict]:
    """The lines the job process sends for the French page ``kind`` with ``params``."""
    job = jobs.FRENCH_JOBS[kind](params)
    sent: list[dict] = []
    worker.run(job.kind, json.loads(json.dumps(job.args)), sent.append)
    return sent


def _field_error(kind: str, params: dict[str, str]) -> jobs.FieldError:
    with pytest.raises(jobs.FieldError) as caught:
        jobs.FRENCH_JOBS[kind](params)
    return caught.value


# ---------------------------------------------------------------- fields


def test_the_server_checks_seats_numbers_and_choices() -> None:
    err = _field_error("advise", {"hand": DEMO, "seat": "5"})
    assert err.field == "seat" and err.message == '"5" is not one of 1, 2, 3, 4.'
    err = _field_error("advise", {"hand": DEMO, "seat": "F"})
    assert err.field == "seat" and '"F"' in err.message
    err = _field_error("advise", {"hand": DEMO, "worlds": "4"})
    assert err.field == "worlds" and "8 to" in err.message
    err = _field_error("advise", {"hand": ""})
    assert err.field == "hand" and "18 cards" in err.message
    err = _field_error("deal", {"deal": "example-1", "taker": "M"})
    assert err.field == "taker" and "1, 2, 3, 4" in err.message
    err = _field_error("deal", {"deal": "example-1", "contract": "three"})
    assert err.field == "contract" and "garde_contre" in err.message
    err = _field_error("review", {"record": "/etc/hostname"})
    assert err.field == "record" and "is not a play record" in err.message
    err = _field_error("review", {"record": "example", "exact": "19"})
    assert err.field == "exact" and "1 to 18" in err.message
    job = jobs.FRENCH_JOBS["advise"]({"hand": DEMO, "seat": "3", "worlds": "8"})
    assert job.kind == "french-advise" and job.args["seat"] == "3"
    assert job.args["worlds"] == 8 and job.args["chien"] is None


def test_a_bad_hand_is_the_clis_message_naming_the_token() -> None:
    (line,) = _run("advise", {"hand": "T21 T19 ZZ9 T1"})
    assert 'unknown card "ZZ9" in the hand' in line["error"]
    # the caret line under the token, as the terminal shows it
    assert line["error"].endswith("T21 T19 ZZ9 T1\n          ^^^")
    assert "field" not in line and "Traceback" not in line["error"]
    (line,) = _run("advise", {"hand": "T21 T19 T17"})
    assert "the hand has 3 cards" in line["error"] and "18" in line["error"]


def test_a_bad_chien_discard_or_deal_is_shown_at_its_own_field() -> None:
    (line,) = _run("advise", {"hand": DEMO, "chien": "T3 T9 S1 H2 DK"})
    assert line == {"error": "the chien has 5 cards; at 4 players it needs 6.",
                    "field": "chien"}
    (line,) = _run("deal", {"deal": "example-1", "taker": "2", "contract": "garde",
                            "discard": "SC S7 S6 S5 D7 QQ"})
    assert line["field"] == "discard" and 'unknown card "QQ" in the discard' in line["error"]
    (line,) = _run("deal", {"deal": "example-1", "taker": "2", "contract": "garde",
                            "discard": DISCARD, "play": "D8 T2 ZZ"})
    assert line["field"] == "play" and 'unknown card "ZZ" in the play' in line["error"]
    # the rules of the discard and of play, checked before the first search
    (line,) = _run("deal", {"deal": "example-1", "taker": "2", "contract": "garde",
                            "discard": "SC S7 S6 S5 D7 T21"})
    assert line["field"] == "discard" and "an oudler" in line["error"]
    (line,) = _run("deal", {"deal": "example-1", "discard": DISCARD})
    assert line["field"] == "discard" and "one --taker" in line["error"]
    (line,) = _run("deal", {"deal": "example-1", "taker": "2", "contract": "garde",
                            "discard": DISCARD, "play": "D8 T2 D4 SK"})
    assert line == {"error": "card 4 of the play (trick 1, card 4, seat 4): SK is not in the "
                             "player's hand", "field": "play"}
    (line,) = _run("deal", {"deal": "example-9"})
    assert line["field"] == "deal" and 'no such example "example-9"' in line["error"]
    (line,) = _run("review", {"record": "deal: nonsense"})
    assert 'missing "/"' in line["error"] and "field" not in line


# ---------------------------------------------------------------- jobs


def _without_seconds(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("seconds", None)
    return doc


def test_the_advice_job_answers_what_the_cli_prints(capsys) -> None:
    *progress, last = _run("advise", {"hand": DEMO, "seat": "2", "worlds": "8", "seed": "3"})
    assert progress == [{"progress": {"phase": "worlds", "worlds": 8}}]
    result = last["result"]
    code, out, err = run_cli(capsys, "--game", "french", "advise", DEMO, "--seat", "2",
                             "--worlds", "8", "--seed", "3", "--json")
    assert code == 0, err
    want = json.loads(out)
    assert _without_seconds(result["json"]) == _without_seconds(want)
    assert result["json"]["game"] == "french" and result["json"]["seat"] == 2
    code, out, err = run_cli(capsys, "--game", "french", "advise", DEMO, "--seat", "2",
                             "--worlds", "8", "--seed", "3")
    assert code == 0, err
    # the same lines but the timing in the second
    timing = re.compile(r"\d+\.\d s")
    assert [timing.sub("", x) for x in result["text"]] == \
        [timing.sub("", x) for x in out.splitlines()]
    assert result["text"][0] == "Advice for seat 2: 21,19,17,14,11,8,4,E.KT7.KQ5.J2.96"
    assert any(x.startswith("Recommendation: ") for x in result["text"])
    # the CSV download is the batch advise mode's row
    (row,) = csv.DictReader(io.StringIO(result["csv"]))
    assert list(row) == list(ADVICE_COLUMNS)
    assert row["recommended"] == want["recommendation"]["option"] and row["seat"] == "2"


def test_the_calls_heard_reach_the_adviser_and_their_errors_their_field() -> None:
    weak = "T15 T9 T4 T3 T12 T18 SQ S8 S5 HJ H7 H4 H1 D10 D6 D3 C9 C5"
    *_, last = _run("advise", {"hand": weak, "seat": "3", "calls": "garde, pass",
                               "worlds": "8"})
    doc = last["result"]["json"]
    assert doc["calls"] == ["garde", "pass"]
    assert [o["option"] for o in doc["options"]] == ["garde_sans", "garde_contre", "pass"]
    (line,) = _run("advise", {"hand": weak, "seat": "3", "calls": "pass, grande"})
    assert line["field"] == "calls" and '"grande"' in line["error"]
    (*_, line) = _run("advise", {"hand": weak, "seat": "3", "calls": "pass"})
    assert line["field"] == "calls" and "seat 3 hears 2 calls" in line["error"]


def test_the_deal_job_answers_what_the_cli_prints(capsys) -> None:
    params = {"deal": "example-1", "taker": "2", "contract": "garde", "discard": DISCARD,
              "play": PLAY, "time": "60"}
    *progress, last = _run("deal", params)
    assert [p["progress"] for p in progress] == [{"phase": "rows", "done": 1, "total": 1}]
    result = last["result"]
    code, out, err = run_cli(capsys, "--game", "french", "solve", "example-1", "--taker", "2",
                             "--contract", "garde", "--discard", DISCARD, "--play", PLAY,
                             "--time-limit", "60", "--cards", "--json")
    assert code == 0, err
    want, got = json.loads(out), result["json"]
    for doc in (want, got):
        for row in doc["rows"]:
            row.pop("seconds")
    assert got == want
    (row,) = got["rows"]
    assert (row["taker"], row["contract"], row["half_points"], row["made"]) == \
        (2, "garde", 46, False)
    # seat 1 plays next and wants the taker's points low: the values of its cards
    assert (result["mover"], result["taker"]) == (1, 2)
    assert got["cards"]["DQ"] == [62, 62] and got["cards"]["T11"] == [46, 46]
    assert result["titles"]["garde_sans"] == "Garde sans le chien"
    assert result["text"][0].startswith("French Tarot, rules fft")
    assert "The taker's card points after each card seat 1 may play (seat 1 wants them low):" \
        in result["text"]
    (line,) = csv.DictReader(io.StringIO(result["csv"]))
    assert (line["taker"], line["contract"], line["status"], line["half_points"]) == \
        ("2", "garde", "exact", "46")


def test_the_review_job_answers_what_the_cli_prints(capsys) -> None:
    *progress, last = _run("review", {"record": "example", "exact": "3"})
    assert progress and all(p["progress"]["phase"] == "cards" for p in progress)
    result = last["result"]
    code, out, err = run_cli(capsys, "--game", "french", "review", "example", "--exact-tricks",
                             "3", "--json")
    assert code == 0, err
    want, got = json.loads(out), result["json"]
    assert _without_seconds(got) == _without_seconds(want)
    assert len(got["cards"]) == len(result["lost"]) == 72
    # the cards marked are those `--mistakes` lists
    code, out, err = run_cli(capsys, "--game", "french", "review", "example", "--exact-tricks",
                             "3", "--mistakes")
    assert code == 0, err
    listed = [x for x in out.splitlines() if re.match(r"\s+\d+\.\d\s", x)]
    assert sum(result["lost"]) == len(listed) > 0
    # the hands at the first trick: the taker's after his discard
    hands = result["hands"]
    assert sorted(hands) == ["1", "2", "3", "4"]
    assert all(len(h) == 18 for h in hands.values())
    assert "SC" not in hands["4"] and "T9" in hands["4"]
    assert result["text"][0].startswith("Review example   French Tarot, rules fft   taker 4")
    rows = list(csv.DictReader(io.StringIO(result["csv"])))
    assert list(rows[0]) == list(REVIEW_COLUMNS) and len(rows) == 72


# ---------------------------------------------------------------- pages


def test_the_pages_say_french_tarot_and_speak_its_terms() -> None:
    advise = pages.page_html("advise", "french")
    assert "<title>Advice · French Tarot · tarock</title>" in advise
    assert '<h1 id="game" class="game">French Tarot</h1>' in advise
    assert 'data-game="french"' in advise and "/18 cards" in advise
    assert 'id="chien"' in advise and 'name="worlds"' in advise
    seat = re.search(r'<select id="seat" name="seat">(.*?)</select>', advise).group(1)
    assert re.findall(r'value="(\w+)"', seat) == ["1", "2", "3", "4"]
    cards = json.loads(re.search(r"window\.CARDS = (.*);", advise).group(1))
    rows = json.loads(re.search(r"window\.PACK_ROWS = (.*);", advise).group(1))
    assert len(cards) == sum(rows) == 78 and {"id": "EX", "label": "Exc"} in cards
    deal = pages.page_html("deal", "french")
    assert "Deal · French Tarot" in deal and 'data-target="chien"' in deal
    assert 'data-target="4"' in deal and "/6</button>" in deal
    assert re.findall(r'<option value="(\w+)"', re.search(
        r'<select id="contract".*?</select>', deal).group(0)) == \
        ["all", "petite", "garde", "garde_sans", "garde_contre"]
    review = pages.page_html("review", "french")
    assert "Review · French Tarot" in review and "taker: 4" in review
    illustrated = pages.page_html("advise")
    assert "Illustrated Tarock" in illustrated and 'id="chien"' not in illustrated
    assert "/16 cards" in illustrated


async def _get(app, path: str, query: str = "") -> tuple[int, str]:
    """``GET path?query`` on the ASGI ``app``: the status and the body."""
    sent: list[dict] = []
    asked = [False]
    never = asyncio.Event()

    async def receive() -> dict:
        if not asked[0]:
            asked[0] = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await never.wait()  # the client stays until the answer ends
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "", "headers": [(b"host", b"t")],
             "client": ("127.0.0.1", 1), "server": ("t", 80)}
    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body.decode()


def test_the_app_serves_the_game_it_was_made_for() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from tarock_cli.web.app import create_app

    app = create_app("french")
    status, body = asyncio.run(_get(app, "/deal"))
    assert status == 200 and "Deal · French Tarot" in body and 'id="taker"' in body
    # a field the server checks answers at once, without a job
    status, body = asyncio.run(_get(app, "/run/advise", f"hand={DEMO}&seat=9"))
    assert status == 200
    assert 'data: {"field": "seat", "message": "\\"9\\" is not one of 1, 2, 3, 4."}' in body
    status, body = asyncio.run(_get(create_app(), "/advise"))
    assert "Illustrated Tarock" in body and "French Tarot" not in body
    with pytest.raises(ValueError, match="bridge"):
        create_app("bridge")


def test_serve_with_game_french_starts_the_french_app(capsys, monkeypatch) -> None:
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    pytest.importorskip("starlette", reason="the web extra is not installed")
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append((app, kw)))
    code, _out, err = run_cli(capsys, "--game", "french", "serve", "--port", "8123")
    assert code == 0, err
    (app, kw), = served
    assert app.state.game == "french" and kw["port"] == 8123
    assert "Serving French Tarot on http://127.0.0.1:8123/" in err
    code, _out, err = run_cli(capsys, "serve", "--port", "8124")
    assert code == 0 and served[1][0].state.game == "illustrated"
    assert "Serving Illustrated Tarock" in err


# ---------------------------------------------------------------- a running server


def _events(url: str) -> list[tuple[str, dict]]:
    """The server-sent events of ``url`` until its stream ends (keep-alive comments out)."""
    with urllib.request.urlopen(url, timeout=120) as answer:
        text = answer.read().decode()
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if line and not line.startswith(":"))
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


@pytest.fixture(scope="module")
def french_server():
    with serving("--game", "french") as (base, _proc):
        yield base


def test_a_running_server_names_bad_input_next_to_its_field(french_server) -> None:
    with urllib.request.urlopen(french_server + "/advise", timeout=10) as answer:
        assert "<title>Advice · French Tarot · tarock</title>" in answer.read().decode()
    events = _events(f"{french_server}/run/advise?hand=T21+T19+ZZ9+T1")
    assert events[0] == ("progress", {"phase": "starting"})
    name, data = events[-1]
    assert name == "error" and data["field"] == "hand"
    assert 'unknown card "ZZ9"' in data["message"] and "Traceback" not in data["message"]
    name, data = _events(f"{french_server}/run/advise?hand={DEMO}&chien=T3+T9")[-1]
    assert (name, data) == ("error", {"field": "chien",
                                      "message": "the chien has 2 cards; at 4 players it "
                                                 "needs 6."})


# ---------------------------------------------------------------- in a browser



@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with headless_chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


def _wait(driver, condition, timeout: float = 240):
    return wait_for(driver, condition, timeout)


@web
def test_the_deal_page_builds_a_french_deal_by_clicks_and_solves_it(french_server,
                                                                      browser) -> None:
    from tarock_solver.french.cards import CARD_IDS, cards_of
    from tarock_solver.french.notation import EXAMPLE_DEALS, parse_deal

    text = EXAMPLE_DEALS["example-1"]
    deal = parse_deal(text)
    browser.get(f"{french_server}/deal")
    assert browser.find_element("id", "game").text == "French Tarot"

    def card(cid: str):
        return browser.find_element("css selector", f'button.card[data-id="{cid}"]')

    def counts() -> dict[str, str]:
        return {e.get_attribute("data-count"): e.text
                for e in browser.find_elements("css selector", "[data-count]")}

    # a pasted deal from seat 3's side colours the pack by seat
    hands, chien = text[2:].split("/")
    hands = hands.split()
    field = browser.find_element("id", "deal")
    field.send_keys(f"3:{' '.join(hands[2:] + hands[:2])}/{chien}")
    assert counts() == {"1": "18", "2": "18", "3": "18", "4": "18", "chien": "6"}
    for seat, mask in enumerate(deal.hands):
        assert {card(CARD_IDS[c]).get_attribute("data-to") for c in cards_of(mask)} == \
            {str(seat + 1)}
    browser.find_element("id", "clear").click()
    assert field.get_attribute("value") == ""
    # by clicks: a full hand passes on to the next, the chien last
    for mask in (*deal.hands, deal.chien):
        for c in cards_of(mask):
            card(CARD_IDS[c]).click()
    assert field.get_attribute("value") == text
    browser.find_element("css selector", "#taker option[value='2']").click()
    browser.find_element("css selector", "#contract option[value=garde]").click()
    browser.find_element("id", "discard").send_keys(DISCARD)
    browser.find_element("id", "play").send_keys(PLAY)
    browser.find_element("id", "go").click()
    _wait(browser, lambda d: d.find_elements("id", "ddtable"))
    row = browser.find_element("css selector", "#ddtable tbody tr")
    cells = [c.text for c in row.find_elements("css selector", "td")]
    assert cells[:2] == ["2", "Garde"] and cells[3:7] == ["23", "-28", "-106", "no"]
    # seat 1's cards, the lowest highlighted (the taker's 23 points after a trump)
    best = browser.find_elements("css selector", ".lead.best")
    assert [b.text.split() for b in best] == [["11", "23"], ["14", "23"], ["15", "23"],
                                              ["18", "23"]]


@web
def test_the_review_page_replays_a_french_deal(french_server, browser) -> None:
    browser.get(f"{french_server}/review?record=example&exact=3")
    _wait(browser, lambda d: d.find_elements("id", "step"))
    assert browser.find_element("id", "step").text == "card 0 of 72"
    seats = browser.find_elements("css selector", "#table .seat")
    assert [s.find_element("css selector", ".who").text for s in seats] == \
        ["1", "2", "3", "4 (taker)"]
    assert all(len(s.find_elements("css selector", ".chip")) == 18 for s in seats)
    for _ in range(5):
        browser.find_element("id", "next").click()
    # the fifth card opens trick 2: seat 1's ♠1, an estimated loss of about 14 points
    assert browser.find_element("css selector", ".trick").text.startswith("Trick 2: 1")
    verdict = browser.find_element("id", "verdict").text
    assert verdict.startswith("1 plays") and "loses ~14" in verdict
    assert len(browser.find_elements("css selector", "#valuecurve .lossdot")) == \
        len(browser.find_elements("css selector", ".played.lost")) > 0
