"""`tarock --game french solve | batch | stats | bench`, and a game that does not exist:
values equal to the library's, bad input exits 2 naming the problem."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clitools import run

from tarock_solver.french.analysis import continue_play, discard_order, start_position
from tarock_solver.french.cards import CARD_IDS, cards_of
from tarock_solver.french.deal import FrenchDeal
from tarock_solver.french.notation import example_or_text, format_cards, parse_deal
from tarock_solver.french.rules import Contract
from tarock_solver.french.solver import FrenchSearch

TAKER = 1  # seat 2


def _deal() -> FrenchDeal:
    deal = parse_deal(example_or_text("example-1"))
    assert isinstance(deal, FrenchDeal)
    return deal


def _record(deal: FrenchDeal, discard: int, tricks: int, seed: int = 3) -> list[int]:
    """``tricks`` tricks of legal cards drawn at random after a Garde by seat 2."""
    pos = start_position(deal, TAKER, Contract.GARDE, discard)
    rng = np.random.default_rng(seed)
    played = []
    for _ in range(tricks * 4):
        legal = cards_of(pos.legal())
        card = int(legal[rng.integers(len(legal))])
        played.append(card)
        pos = pos.play(card)
    return played


@pytest.fixture(scope="module")
def endgame() -> tuple[FrenchDeal, int, list[int]]:
    deal = _deal()
    discard = discard_order(deal.hands[TAKER] | deal.chien)[0]
    return deal, discard, _record(deal, discard, 13)


def test_solve_an_endgame_gives_the_library_values(capsys, endgame) -> None:
    deal, discard, played = endgame
    code, out, err = run(capsys, "--game", "french", "solve", "example-1", "--taker", "2",
                         "--contract", "garde", "--discard", format_cards(discard),
                         "--play", " ".join(CARD_IDS[c] for c in played), "--cards", "--json")
    assert code == 0, err
    doc = json.loads(out)
    row = doc["rows"][0]
    pos = continue_play(start_position(deal, TAKER, Contract.GARDE, discard), played,
                        excuse_last="changes_side")
    want = FrenchSearch(tt_bits=16).points(pos).value
    assert row["half_points"] == want and row["complete"]
    assert row["made"] == (row["margin_half_points"] >= 0)
    assert doc["play"] == " ".join(CARD_IDS[c] for c in played)  # in the order played
    best = (max if pos.mover == TAKER else min)(v[0] for v in doc["cards"].values())
    assert best == want


def test_solve_text_table(capsys, endgame) -> None:
    deal, discard, played = endgame
    code, out, err = run(capsys, "--game", "french", "solve", "example-1", "--taker", "2",
                         "--contract", "garde", "--discard", format_cards(discard),
                         "--play", " ".join(CARD_IDS[c] for c in played))
    assert code == 0, err
    assert "Taker" in out and "garde" in out and "*" not in out.split("\n")[2]


def test_a_whole_deal_over_budget_shows_bounds(capsys) -> None:
    code, out, err = run(capsys, "--game", "french", "solve", "example-1", "--taker", "2",
                         "--contract", "garde_contre", "--node-limit", "2000", "--json")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    assert row["half_points"] is None and not row["complete"]
    low, high = row["half_points_bounds"]
    assert 0 <= low <= high <= 182


def test_a_revoke_in_the_play_is_named(capsys, endgame) -> None:
    deal, discard, played = endgame
    # seat 1 leads the first trick; seat 2 then plays a card of another suit while he
    # can follow (or any card not allowed by the rules)
    pos = start_position(deal, TAKER, Contract.GARDE, discard).play(played[0])
    illegal = [c for c in cards_of(pos.hands[pos.mover]) if not pos.legal() >> c & 1]
    assert illegal
    bad = [played[0], illegal[0]]
    code, out, err = run(capsys, "--game", "french", "solve", "example-1", "--taker", "2",
                         "--contract", "garde", "--discard", format_cards(discard),
                         "--play", " ".join(CARD_IDS[c] for c in bad))
    assert code == 2
    assert "card 2 of the play (trick 1, card 2, seat 2)" in err and CARD_IDS[illegal[0]] in err


@pytest.mark.parametrize("args, text", [
    (["--discard", "SK D2 D3 D4 D5 D6"], "King may not be discarded"),
    (["--discard", "T21 D2 D3 D4 D5 D6"], "oudler"),
    (["--taker", "5"], "seats are 1 to 4"),
    (["--contract", "grande"], "grande"),
    (["--poignee", "taker"], "SIDE:LEVEL"),
])
def test_bad_options_exit_2(capsys, args: list[str], text: str) -> None:
    base = ["--game", "french", "solve", "example-1"]
    if "--discard" in args:
        base += ["--taker", "2", "--contract", "garde"]
    code, out, err = run(capsys, *base, *args)
    assert code == 2 and text in err, err


def test_a_77_card_deal_is_refused(capsys) -> None:
    text = example_or_text("example-1")
    # drop the chien's last card
    short = text[: text.rindex(",")]
    code, out, err = run(capsys, "--game", "french", "solve", short)
    assert code == 2 and "77 cards" in err


def test_an_unknown_game_is_refused(capsys) -> None:
    code, out, err = run(capsys, "--game", "bridge", "show")
    assert code == 2 and "bridge" in err


def test_batch_then_stats(capsys, tmp_path, endgame) -> None:
    deals = tmp_path / "fr.jsonl"
    code, out, err = run(capsys, "--game", "french", "deal", "--seed", "4", "--count", "2",
                         "--format", "jsonl")
    assert code == 0, err
    deals.write_text(out)
    results = tmp_path / "fr.csv"
    args = ["--game", "french", "batch", str(deals), "-o", str(results), "--contract",
            "garde_sans", "--declarer", "1", "--node-limit", "3000", "--no-progress"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    text = results.read_text().splitlines()
    assert len(text) == 3 and "over_budget" in text[1]
    # a resumed run with a larger budget solves the open rows again
    code, out, err = run(capsys, *args[:-2], "6000", "--no-progress")
    assert code == 0, err
    import pandas as pd

    frame = pd.read_csv(results)
    assert (frame["nodes"] > 3010).all() and (frame["nodes"] <= 6010).all()
    code, out, err = run(capsys, "--game", "french", "stats", str(results))
    assert code == 0, err
    assert "over the node budget" in out


def test_bench_smoke(capsys, tmp_path) -> None:
    path = tmp_path / "b.json"
    code, out, err = run(capsys, "--game", "french", "bench", "--deals", "1", "--endgames", "1",
                         "--time-limit", "0.5", "--threads", "2", "--json", str(path))
    assert code == 0, err
    doc = json.loads(path.read_text())
    assert [s["tricks"] for s in doc["sets"]] == [18, 12, 10, 8]
    eight = doc["sets"][-1]
    assert eight["one_thread"]["solved"] == 1 and eight["same_values"] == "1/1"


def test_a_records_discard_serves_the_petite_and_the_garde_only() -> None:
    """A file's record with a taker and a discard but no contract: the discard is played
    in the Petite and the Garde; the Garde sans and contre leave the chien aside."""
    from tarock_solver.french.analysis import solve_table
    from tarock_solver.french.rules import load_rules
    from tarock_solver.solver import Budget

    deal = _deal()
    discard = discard_order(deal.hands[TAKER] | deal.chien)[0]
    rows = solve_table(deal, load_rules("fft"), takers=[TAKER], budget=Budget(nodes=2000),
                       discard=discard)
    assert [(r.contract.value, r.discard == discard) for r in rows] == [
        ("petite", True), ("garde", True), ("garde_sans", False), ("garde_contre", False)]
