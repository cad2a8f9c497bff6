"""`tarock serve` in a real browser: the test starts the server on a free port and
drives the system's headless Chromium through the Advice, Deal and Review pages.

Skipped, with the reason, without the web extra, selenium or chromium/chromedriver
(``.ci/run`` installs them).  With TAROCK_WEB_SCREENSHOTS=DIR the tests save the
pages' screenshots there (the README's come from ``docs/``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from clitools import run
from webtools import headless_chromium, serving, wait_for, web

HAND = ["T21", "T20", "T16", "T15", "T7", "T5", "T2", "T1", "HK", "DK", "DQ", "SK", "S9",
        "S7", "CQ", "C9"]
SHOTS = os.environ.get("TAROCK_WEB_SCREENSHOTS")
WAIT = 240  # seconds: a fresh machine compiles the kernels on the first job



def test_serve_without_the_web_extra_says_what_to_install(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn → ImportError
    code, _out, err = run(capsys, "serve", "--port", "0")
    assert code == 2
    assert 'pip install "tarock-solver[web]"' in err and "uvicorn" in err


@pytest.fixture(scope="module")
def server():
    with serving() as (base, proc):
        yield base, proc


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with headless_chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


def _wait(driver, condition, timeout: float = WAIT):
    return wait_for(driver, condition, timeout)


def _text(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


def _shot(driver, name: str) -> None:
    if SHOTS:
        driver.execute_script("window.scrollTo(0, 0)")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1200, min(height + 200, 2400))
        driver.save_screenshot(str(Path(SHOTS) / f"web-{name}.png"))
        driver.set_window_size(1200, 1000)


def _workers(server_proc) -> list[int]:
    """The server's job processes still alive."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmd = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server_proc.pid and b"web.worker" in cmd and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@web
def test_advice_page_picks_cards_and_answers_two_tabs(server, browser) -> None:
    base, _proc = server
    browser.get(f"{base}/advise?time=3&samples=300")
    for card in HAND:
        browser.find_element("css selector", f'button.card[data-id="{card}"]').click()
    assert _text(browser, "count") == "16"
    assert sorted(browser.find_element("id", "hand").get_attribute("value").split()) == \
        sorted(HAND)
    browser.find_element("css selector", "#seat option[value=M]").click()
    first = browser.current_window_handle
    # a second tab asks about the same hand from seat R meanwhile
    browser.switch_to.new_window("tab")
    browser.get(f"{base}/advise?hand={'+'.join(HAND)}&seat=R&time=3&samples=300")
    second = browser.current_window_handle
    browser.switch_to.window(first)
    browser.find_element("id", "go").click()
    _wait(browser, lambda d: "worlds" in _text(d, "status") or d.find_elements("id", "advice"))
    _wait(browser, lambda d: d.find_elements("id", "recommendation"))
    assert "seat=M" in browser.current_url and "hand=T1+T2+T5" in browser.current_url
    assert _text(browser, "recommendation").startswith("Recommendation")
    table = _text(browser, "advice")
    assert "Three" in table and "pass" in table and "P(make)" in table
    assert "Advice for M" in browser.find_element("id", "result").text
    _shot(browser, "advice")
    browser.switch_to.window(second)
    _wait(browser, lambda d: d.find_elements("id", "recommendation"))
    assert "Advice for R" in browser.find_element("id", "result").text
    browser.close()
    browser.switch_to.window(first)


@web
def test_bad_input_is_shown_next_to_its_field(server, browser) -> None:
    base, _proc = server
    browser.get(f"{base}/advise?hand=T21+T20+ZZ9+T1")
    _wait(browser, timeout=60, condition=lambda d: _text(d, "err-hand"))
    assert 'unknown card "ZZ9"' in _text(browser, "err-hand")
    assert "bad" in browser.find_element("id", "hand").get_attribute("class")
    assert _text(browser, "result") == ""
    browser.get(f"{base}/advise?hand=T21&time=soon")
    _wait(browser, timeout=60, condition=lambda d: _text(d, "err-time"))
    assert '"soon" is not a number' in _text(browser, "err-time")
    browser.get(f"{base}/deal?deal=F:T1+T2/HK")
    _wait(browser, timeout=60, condition=lambda d: _text(d, "err-deal"))
    assert "Traceback" not in browser.page_source
    browser.get(f"{base}/review?record=/etc/hostname")
    _wait(browser, timeout=60, condition=lambda d: _text(d, "err-record"))
    assert "is not a play record" in _text(browser, "err-record")
    browser.get(f"{base}/review?record=deal:+nonsense")
    _wait(browser, timeout=60, condition=lambda d: _text(d, "err-record"))
    assert 'needs a "declarer" field' in _text(browser, "err-record")


@web
def test_cancel_stops_the_job(server, browser) -> None:
    base, proc = server
    browser.get(f"{base}/advise?hand={'+'.join(HAND)}&time=120")
    _wait(browser, lambda d: _workers(proc))
    _wait(browser, lambda d: "worlds" in _text(d, "status"))
    browser.find_element("id", "cancel").click()
    assert _text(browser, "status") == "cancelled."
    _wait(browser, lambda d: not _workers(proc), timeout=10)


@web
def test_the_progress_line_shows_the_leading_options_standard_errors(server, browser) -> None:
    import re

    base, proc = server
    browser.get(f"{base}/advise?hand={'+'.join(HAND)}&time=60")
    first = _wait(browser, lambda d: re.search(r"\d+ worlds · \d+ exact solves · ",
                                               _text(d, "status")) and _text(d, "status"))
    assert re.search(r" · [\d.]+ / 60 s$", first)
    # the SE appears once the leader has its first exact worlds (seconds on a quiet machine)
    line = _wait(browser, lambda d: "±" in _text(d, "status") and _text(d, "status"),
                 timeout=120)
    assert re.search(r"exact solves · \w+ ±[\d.]+ game points, ±[\d.]+ card points · ", line)
    browser.find_element("id", "cancel").click()
    _wait(browser, lambda d: not _workers(proc), timeout=10)


@web
def test_a_closed_tab_stops_its_job(server, browser) -> None:
    base, proc = server
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(f"{base}/advise?hand={'+'.join(HAND)}&time=120")
    _wait(browser, lambda d: "worlds" in _text(d, "status"))
    assert len(_workers(proc)) == 1
    browser.close()
    browser.switch_to.window(first)
    _wait(browser, lambda d: not _workers(proc), timeout=15)


@web
def test_deal_page_shows_the_table_and_the_leads(server, browser) -> None:
    base, _proc = server
    browser.get(f"{base}/deal?deal=example-1&declarer=R&contract=three")
    _wait(browser, lambda d: d.find_elements("id", "ddtable"))
    rows = browser.find_elements("css selector", "#ddtable tbody tr")
    assert len(rows) == 1
    cells = [c.text for c in rows[0].find_elements("css selector", "td")]
    assert cells[:3] == ["R", "three", "4-6"] and cells[4:7] == ["34", "34", "no"]
    leads = browser.find_elements("css selector", ".leads .lead")
    assert len(leads) == 16 and browser.find_elements("css selector", ".lead.best")
    assert browser.find_element("id", "deal").get_attribute("value") == "example-1"


@web
def test_review_steps_through_the_play(server, browser, capsys) -> None:
    import json

    code, out, _err = run(capsys, "review", "example", "--json")
    assert code == 0
    cards = json.loads(out)["cards"]
    base, _proc = server
    browser.get(f"{base}/review?record=example")
    _wait(browser, lambda d: d.find_elements("id", "step"))
    assert _text(browser, "step") == f"card 0 of {len(cards)}"
    nxt = browser.find_element("id", "next")
    for _ in range(3):
        nxt.click()
    assert _text(browser, "step") == f"card 3 of {len(cards)}"
    assert _text(browser, "verdict").startswith(f"{cards[2]['seat']} plays")
    browser.find_element("id", "prev").click()
    assert _text(browser, "step") == f"card 2 of {len(cards)}"
    # each card that lost points is marked in the list and on the curve
    lost = sum(1 for c in cards if c["loss"] > 0)
    assert lost and len(browser.find_elements("css selector", ".played.lost")) == lost
    assert len(browser.find_elements("css selector", "#valuecurve .lossdot")) == lost
    first_loss = next(i for i, c in enumerate(cards) if c["loss"] > 0) + 1
    browser.find_element("css selector", f'.played[data-step="{first_loss}"]').click()
    assert f"loses {cards[first_loss - 1]['loss']}" in _text(browser, "verdict")
    # the played cards have left the hands
    hands = browser.find_element("id", "table").text
    assert cards[0]["card"] not in " ".join(
        e.get_attribute("data-card") for e in browser.find_elements("css selector", ".seat .chip"))
    assert "declarer" in hands
    _shot(browser, "review")


@web
def test_deal_page_builds_a_deal_by_clicks(server, browser, capsys) -> None:
    import json

    from tarock_solver.cards import CARD_IDS, indices_of
    from tarock_solver.notation import EXAMPLE_DEALS, parse_deal

    text = EXAMPLE_DEALS["example-2"]
    deal = parse_deal(text)
    hands = {seat: [CARD_IDS[i] for i in indices_of(mask)]
             for seat, mask in zip("FMR", deal.hands, strict=True)}
    talon = [CARD_IDS[i] for i in deal.talon]
    base, _proc = server
    browser.get(f"{base}/deal")

    def click(selector: str) -> None:
        browser.find_element("css selector", selector).click()

    def card(cid: str):
        return browser.find_element("css selector", f'button.card[data-id="{cid}"]')

    def counts() -> dict[str, str]:
        return {e.get_attribute("data-count"): e.text
                for e in browser.find_elements("css selector", "[data-count]")}

    # a pasted deal (from M's side, "_" between the hands) colours the pack by hand
    hands_m = text[2:].split("/")[0].split()
    field = browser.find_element("id", "deal")
    field.send_keys(f"M:{hands_m[1]}_{hands_m[2]}_{hands_m[0]}/{','.join(talon)}")
    assert counts() == {"F": "16", "M": "16", "R": "16", "talon": "6"}
    for seat, ids in [*hands.items(), ("talon", talon)]:
        assert {card(c).get_attribute("data-to") for c in ids} == {seat}
    assert [card(c).get_attribute("data-pos") for c in talon] == [f"t{k}" for k in range(1, 7)]
    colours = {card(ids[0]).value_of_css_property("background-color")
               for ids in [*hands.values(), talon]}
    assert len(colours) == 4 and not colours & {"rgba(0, 0, 0, 0)", "rgba(255, 255, 255, 1)"}
    click("#clear")
    assert counts() == {"F": "0", "M": "0", "R": "0", "talon": "0"}
    assert field.get_attribute("value") == ""
    # a click on a card of the chosen hand takes it back
    card("T22").click()
    assert counts()["F"] == "1" and field.get_attribute("value") == "F:22.... .... ..../"
    card("T22").click()
    assert counts()["F"] == "0" and field.get_attribute("value") == ""
    # the deal by clicks: a full hand passes on to the next; the talon in table order
    for seat, ids in hands.items():
        click(f'button.to[data-target="{seat}"]')
        for cid in ids:
            card(cid).click()
        nxt = "M" if seat == "F" else "R" if seat == "M" else "talon"
        assert browser.find_element("css selector", "button.to[aria-pressed=true]")\
            .get_attribute("data-target") == nxt
    for cid in talon:
        card(cid).click()
    assert counts() == {"F": "16", "M": "16", "R": "16", "talon": "6"}
    assert field.get_attribute("value") == text
    click("#declarer option[value=M]")
    click("#contract option[value=one]")
    click("#go")
    _wait(browser, lambda d: d.find_elements("id", "ddtable"))
    code, out, _err = run(capsys, "solve", text, "--declarer", "M", "--contract", "one",
                          "--json")
    assert code == 0
    want = json.loads(out)["rows"][0]
    row = browser.find_element("css selector", "#ddtable tbody tr")
    cells = [c.text for c in row.find_elements("css selector", "td")]
    discard = [e.get_attribute("data-card") for e in row.find_elements("css selector", ".chip")]
    assert cells[:3] == [want["declarer"], want["contract"], want["talon_group"]]
    assert discard == want["discard"].split()
    assert cells[5:7] == [str(want["declarer_points"]), "yes" if want["made"] else "no"]
    _shot(browser, "deal")
