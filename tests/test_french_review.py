"""The French Tarot review: every verdict against the exact solver on its own table, a
blunder found with its loss, totals that add up, bounds (never a midpoint) over the
budget, estimates from an injected value function kept apart from exact values, the
record's checks naming trick, seat and card, and the record formats with the play."""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import pytest
from french_playout import played_deal, played_with_blunder, with_revoke

from tarock_solver.errors import NotationError, RulesError
from tarock_solver.french.analysis import margin_table
from tarock_solver.french.cards import CARD_IDS, half_points
from tarock_solver.french.deal import FrenchDeal
from tarock_solver.french.deal_files import (
    FrenchDealRecord,
    format_record,
    parse_record,
    read_deals,
    write_deals,
)
from tarock_solver.french.notation import format_deal, format_play
from tarock_solver.french.review import check_play, learned_values, review_line
from tarock_solver.french.review.report import (
    review_frame,
    review_lines,
    review_rows,
    review_to_json,
    seat_summaries,
)
from tarock_solver.french.rules import load_rules
from tarock_solver.french.scoring import format_half_points
from tarock_solver.french.solver import FrenchPosition, FrenchSearch
from tarock_solver.solver import Budget

RULES = load_rules("fft")
#: The endgame judged exactly: the last seven tricks.
EXACT = 7


@pytest.fixture(scope="module")
def blunder():
    record, index, loss = played_with_blunder(11, EXACT - 1, record_id="b11")
    line = check_play(record, RULES)
    return line, index, loss, review_line(line, exact_tricks=EXACT, margin=True)


def _reference(pos: FrenchPosition, search: FrenchSearch) -> dict[int, int]:
    values = search.card_values(pos)
    assert all(r.exact for r in values.values())
    return {c: r.lower for c, r in values.items()}


def test_every_exact_verdict_is_the_solver_on_its_own_table(blunder):
    line, _, _, rv = blunder
    reference = FrenchSearch()  # nothing shared with the review's table
    judged = 0
    for verdict, pos in zip(rv.cards, line.positions, strict=True):
        assert verdict.seat == pos.mover and verdict.tricks_left == pos.tricks_left
        if pos.tricks_left > EXACT:
            assert verdict.source == "unjudged" and verdict.loss is None
            continue
        judged += 1
        values = _reference(pos, reference)
        assert verdict.source == "exact"
        assert {c: (v.lower, v.upper) for c, v in verdict.values.items()} == \
            {c: (v, v) for c, v in values.items()}
        taker = pos.mover == pos.taker
        best = max(values.values()) if taker else min(values.values())
        played = values[verdict.card]
        assert verdict.before == best and verdict.after == played
        assert verdict.loss == (best - played if taker else played - best) >= 0
        assert set(verdict.best_cards) == {c for c, v in values.items() if v == best}
    assert judged == 4 * EXACT


def test_the_bad_card_shows_its_loss(blunder):
    line, index, loss, rv = blunder
    verdict = rv.cards[index]
    assert loss > 0 and verdict.loss == loss
    assert verdict.card not in verdict.best_cards
    mover = seat_summaries(rv)[verdict.seat]
    assert verdict in mover.worst and mover.mistakes >= 1 and mover.loss >= loss
    text = "\n".join(review_lines(rv, all_cards=False))
    assert f"{verdict.trick}.{verdict.place + 1}" in text
    assert "−" + format_half_points(loss) in text


def test_the_margin_is_the_solver_s_margin(blunder):
    line, _, _, rv = blunder
    reference = FrenchSearch()
    table = margin_table()
    for verdict, pos in list(zip(rv.cards, line.positions, strict=True))[-12:]:
        for card, (lo, hi) in verdict.margin_values.items():
            nxt = pos if pos.tricks_left == 1 else pos.play(card)
            r = reference.outcome_value(nxt, table)
            assert lo == hi == r.lower, (verdict.trick, CARD_IDS[card])
        best = verdict.margin_before
        after = verdict.margin_values[verdict.card][0]
        assert verdict.margin_loss == (best - after if verdict.by_taker else after - best)


def test_totals_add_up(blunder):
    line, _, _, rv = blunder
    exact = [c for c in rv.cards if c.exact]
    for a, b in zip(exact, exact[1:], strict=False):
        assert a.after == b.before
    assert exact[-1].after == line.final.taker_points == rv.final == rv.played_points
    taker_lost = sum(c.loss for c in exact if c.by_taker)
    defence_lost = sum(c.loss for c in exact if not c.by_taker)
    assert rv.final == exact[0].before - taker_lost + defence_lost
    summaries = seat_summaries(rv)
    assert sum(p.loss for p in summaries) == taker_lost + defence_lost
    assert [p.cards for p in summaries] == [18] * 4
    assert sum(p.unjudged for p in summaries) == 4 * (18 - EXACT)


def test_over_the_budget_a_verdict_is_bounds_never_a_midpoint():
    record, _, _ = played_with_blunder(11, EXACT - 1)
    line = check_play(record, RULES)
    rv = review_line(line, exact_tricks=EXACT, budget=Budget(nodes=1))
    reference = FrenchSearch()
    open_cards = [c for c in rv.cards if c.source == "bounds"]
    assert open_cards
    text = "\n".join(review_lines(rv))
    for verdict in open_cards:
        pos = line.positions[rv.cards.index(verdict)]
        assert verdict.before is None and verdict.after is None and verdict.loss is None
        values = _reference(pos, reference)
        for card, v in verdict.values.items():
            assert v.lower <= values[card] <= v.upper and v.estimate is None
        taker = pos.mover == pos.taker
        best = max(values.values()) if taker else min(values.values())
        loss = best - values[verdict.card] if taker else values[verdict.card] - best
        lo, hi = verdict.loss_bounds
        assert lo <= loss <= hi
        b_lo, b_hi = verdict.after_bounds
        if b_lo != b_hi:
            assert f"{format_half_points(b_lo)}..{format_half_points(b_hi)}*" in text
    assert "went over the budget" in text
    assert all(p.open for p in seat_summaries(rv))


def _fake_values(calls: list[int]):
    """A stand-in evaluator: any function of the position will do."""
    def values(positions):
        calls.append(len(positions))
        return np.array([p.state.taker_points + half_points(p.hands[p.taker]) + 0.25 * len(p.trick)
                         for p in positions], dtype=float)
    return values


def test_a_value_function_estimates_the_early_cards_and_is_marked():
    record = played_deal(5)
    line = check_play(record, RULES)
    calls: list[int] = []
    fake = _fake_values(calls)
    rv = review_line(line, exact_tricks=4, values=fake, evaluator="fake")
    assert len(calls) == 1  # every estimate in one call
    for verdict, pos in zip(rv.cards, line.positions, strict=True):
        if pos.tricks_left <= 4:
            assert verdict.source == "exact"
            assert all(v.estimate is None for v in verdict.values.values())
            continue
        assert verdict.source == "estimate"
        expected = {c: float(fake([pos.play(c)])[0]) for c in verdict.values}
        assert {c: v.estimate for c, v in verdict.values.items()} == expected
        assert all(v.lower is None for v in verdict.values.values())
        taker = pos.mover == pos.taker
        best = max(expected.values()) if taker else min(expected.values())
        assert verdict.before == best and verdict.after == expected[verdict.card]
        assert verdict.loss == pytest.approx(abs(best - expected[verdict.card]))
    doc = review_to_json(rv)
    assert doc["evaluator"] == "fake"
    early = next(c for c in doc["cards"] if c["source"] == "estimate")
    assert all(isinstance(v, dict) and "estimate" in v for v in early["values"].values())
    text = "\n".join(review_lines(rv))
    assert "~ estimates of the learned evaluator (fake)" in text
    row = next(r for r in text.splitlines() if r.strip().startswith("1.1 "))
    assert "~" in row


def test_estimates_over_the_budget_stay_inside_the_proved_bounds():
    line = check_play(played_deal(6), RULES)
    rv = review_line(line, exact_tricks=EXACT, budget=Budget(nodes=1), values=_fake_values([]),
                     evaluator="fake")
    searched_open = [v for c in rv.cards if c.tricks_left <= EXACT
                     for v in c.values.values() if not v.exact]
    assert searched_open
    for v in searched_open:
        assert v.lower <= v.estimate <= v.upper


def test_without_a_value_function_the_early_cards_are_unjudged_and_it_says_why():
    line = check_play(played_deal(5, record_id="p5"), RULES)
    rv = review_line(line, exact_tricks=3, evaluator_note="no evaluator here")
    text = "\n".join(review_lines(rv))
    assert "no card is judged, for want of a learned evaluator (no evaluator here)" in text
    doc = json.loads(json.dumps(review_to_json(rv)))
    assert doc["evaluator"] is None and doc["exact_tricks"] == 3
    assert [c["source"] for c in doc["cards"]].count("unjudged") == 4 * 15
    assert all(c["before_half"] is None for c in doc["cards"] if c["source"] == "unjudged")
    frame = review_frame(review_rows(rv))
    assert len(frame) == 72 and set(frame["status"]) == {"exact", "unjudged"}
    assert frame["loss_half"].isna().sum() == 4 * 15


def test_learned_values_finds_the_evaluator_module_when_there_is_one(monkeypatch):
    monkeypatch.setitem(sys.modules, "tarock_solver.french.estimate", None)
    values, why = learned_values()
    assert values is None and "not installed" in why
    module = types.ModuleType("tarock_solver.french.estimate")
    module.estimate_points = _fake_values([])
    module.__version__ = "7"
    monkeypatch.setitem(sys.modules, "tarock_solver.french.estimate", module)
    values, name = learned_values()
    assert values is module.estimate_points and name.endswith(" 7")


# ---------------------------------------------------------------- the record's checks


def _with_play(record: FrenchDealRecord, play: list[int], **deal_fields) -> FrenchDealRecord:
    deal = record.deal
    fields = {"taker": deal.taker, "contract": deal.contract, "discard": deal.discard,
              **deal_fields}
    return FrenchDealRecord(id=record.id, deal=FrenchDeal(deal.hands, deal.chien, **fields),
                            play=tuple(play))


def test_a_revoke_is_named_with_trick_seat_card_and_what_was_held():
    record, i, bad = with_revoke(played_deal(5, record_id="r5"))
    seat = check_play(played_deal(5), RULES).positions[i].mover
    with pytest.raises(RulesError) as err:
        check_play(record, RULES)
    text = str(err.value)
    assert text.startswith('record "r5": ')
    assert f"trick {i // 4 + 1}, card {i % 4 + 1} (seat {seat + 1}): {CARD_IDS[bad]}" in text
    assert "revoke" in text and "holds" in text


@pytest.mark.parametrize("case", ["held by another", "played twice", "discarded", "leader",
                                  "no discard", "a King discarded", "too many", "no play"])
def test_bad_records_are_refused_naming_what_is_wrong(case):
    record = played_deal(5)
    play = list(record.play)
    line = check_play(record, RULES)
    leaders = ()
    fields = {}
    if case == "held by another":
        other = line.positions[0].hands[1] & -line.positions[0].hands[1]
        play[0] = other.bit_length() - 1
        words = ["trick 1, card 1 (seat 1)", "seat 2 holds it"]
    elif case == "played twice":
        play[4] = play[0]
        words = ["trick 2, card 1", "already played in trick 1"]
    elif case == "discarded":
        play[3] = (record.deal.discard & -record.deal.discard).bit_length() - 1
        words = ["trick 1, card 4 (seat 4)", "in the taker's discard"]
    elif case == "leader":
        leaders = (None, 2)
        words = ["trick 2: the record has seat 3 leading", "won trick 1 and leads"]
    elif case == "no discard":
        fields = {"discard": None}
        words = ['a Garde needs the taker\'s "discard"']
    elif case == "a King discarded":
        hand = record.deal.hands[3] | record.deal.chien
        king = next(c for c in (35, 49, 63, 77) if hand >> c & 1)
        low = next(c for c in range(22, 78) if record.deal.discard >> c & 1)
        fields = {"discard": record.deal.discard & ~(1 << low) | (1 << king)}
        words = ["a King may not be discarded"]
    elif case == "too many":
        play = play + [play[0]]
        words = ["73 cards", "18 tricks"]
    else:
        play = []
        words = ['no cards played: the review needs the "play"']
    bad = _with_play(record, play, **fields)
    bad = FrenchDealRecord(id=bad.id, deal=bad.deal, play=bad.play, leaders=leaders)
    with pytest.raises(RulesError) as err:
        check_play(bad, RULES)
    for w in words:
        assert w in str(err.value), (case, str(err.value))


# ---------------------------------------------------------------- the formats


def test_a_played_deal_reads_back_from_its_text_and_from_files(tmp_path):
    records = [played_deal(5, record_id="a"), played_deal(6, record_id="b", cards=41)]
    for record in records:
        text = format_record(record)
        assert parse_record(text) == record
        fields, _, tricks = text.partition("play:\n")
        one_line = "; ".join(fields.splitlines()) + "; play: " + format_play(record.play)
        assert "\n" not in one_line and parse_record(one_line) == record
    for name in ("deals.jsonl", "deals.csv"):
        write_deals(tmp_path / name, records)
        assert read_deals(tmp_path / name) == records


def test_the_play_s_bad_tokens_are_named_with_their_trick():
    lines = format_record(played_deal(5)).splitlines()
    first = lines.index("play:") + 1
    number, seat, lead, second, *rest = lines[first].split()
    lines[first] = " ".join([number, seat, lead, second + "5", *rest])
    lines[first + 2] = lines[first + 2].replace("3. ", "3. 9: ")
    with pytest.raises(NotationError) as err:
        parse_record("\n".join(lines))
    message = str(err.value)
    assert f'"play": trick 1, card 2: unknown card "{second}5"' in message
    assert 'trick 3: unknown seat "9:"; at 4 players the seats are 1, 2, 3, 4' in message


def test_a_play_needs_the_taker_and_the_contract(tmp_path):
    path = tmp_path / "bad.jsonl"
    deal = format_deal(played_deal(5).deal)
    path.write_text(json.dumps({"id": "x", "deal": deal, "play": "SK S1"}) + "\n")
    records, errors = read_deals(path, strict=False)
    assert not records
    assert '"play" needs a complete deal, its "taker" and its "contract"' in str(errors[0])
