"""The review engine: per-card values against solve_position on the position
after each card, a constructed blunder found exactly, totals that add up, the exchange
verdict and the JSON round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_solver.cards import INDEX_OF
from tarock_solver.deal_files import read_deals
from tarock_solver.review import PlayRecord, check_record, parse_record
from tarock_solver.review.engine import review_line
from tarock_solver.review.playout import play_out, worse_card
from tarock_solver.review.report import player_summaries, review_from_json, review_to_json
from tarock_solver.rules import load_rules
from tarock_solver.solver import (
    CardPointSearch,
    GamePointSearch,
    Position,
    make_payoff,
    solve_position,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tarock_solver" / "data"
RULES = load_rules("dummett")


@pytest.fixture(scope="module")
def search():
    return CardPointSearch()


@pytest.fixture(scope="module")
def example_review(search):
    rec = parse_record((DATA / "review_example.txt").read_text(encoding="utf-8"))
    line = check_record(rec, RULES)
    return line, review_line(line, RULES, search=search)


def test_card_values_equal_solve_position_after_each_card(example_review):
    line, rv = example_review
    reference = CardPointSearch()  # a table of its own: nothing shared with the review
    pos: Position | None = Position(line.hands, 0, line.record.declarer)
    for verdict in rv.cards:
        assert pos is not None
        assert set(verdict.values) == {c for c in range(54) if pos.legal() >> c & 1}
        for card, (lo, hi) in verdict.values.items():
            after, banked = pos.play(card)
            expected = banked if after is None else banked + solve_position(
                after.hands, after.leader, after.declarer, trick=after.trick, search=reference)
            assert lo == hi == expected, (verdict.trick, verdict.place, card)
        pos, _ = pos.play(verdict.card)


def test_totals_add_up(example_review):
    line, rv = example_review
    for a, b in zip(rv.cards, rv.cards[1:], strict=False):
        assert a.after_thirds == b.before_thirds
    decl = line.record.declarer
    lost = sum(c.loss for c in rv.cards if c.seat == decl)
    given = sum(c.loss for c in rv.cards if c.seat != decl)
    assert rv.final_thirds == rv.start_thirds - 3 * lost + 3 * given
    from tarock_solver.review.engine import played_thirds

    assert rv.final_thirds == played_thirds(line)
    summaries = player_summaries(rv)
    assert sum(p.loss for p in summaries) == lost + given
    for p in summaries:
        assert list(p.worst) == sorted(p.worst, key=lambda c: (-c.loss, c.trick))[:3]


def test_exchange_verdict_against_the_table(example_review, search):
    from tarock_solver.analysis import solve_contract

    line, rv = example_review
    rec = line.record
    row = solve_contract(rec.deal, rec.declarer, rec.contract, RULES, solver=CardPointSearch())
    ex = rv.exchange
    assert ex is not None and ex.complete
    assert ex.best_thirds == row.declarer_thirds
    assert ex.chosen_thirds == rv.start_thirds
    assert ex.loss_thirds == row.declarer_thirds - rv.start_thirds


def _blunder_record(deal, declarer: int, at: int, search: CardPointSearch
                    ) -> tuple[PlayRecord, int, int]:
    """Double-dummy play with one strictly worse card at card ``at`` (0-based), then
    best play again: (record, index of the blunder, its loss)."""
    base = play_out(deal, declarer, "three", RULES)  # its exchange; play replaced below
    line = check_record(base, RULES)
    pos: Position | None = Position(line.hands, 0, declarer)
    play, loss = [], None
    while pos is not None:
        values = {c: r.value for c, r in search.card_values(pos).items()}
        maximise = pos.mover == declarer
        pick = max if maximise else min
        best = pick(values.values())
        card = min(c for c, v in values.items() if v == best)
        if len(play) >= at and loss is None:
            worse = worse_card(values, maximise)
            if worse is not None:
                card = worse
                loss = abs(best - values[worse])
                at = len(play)
        play.append(card)
        pos, _ = pos.play(card)
    assert loss is not None and loss > 0
    rec = PlayRecord(deal=deal, declarer=declarer, contract="three",
                     talon_pick=base.talon_pick, discard=base.discard, play=tuple(play),
                     id="blunder")
    return rec, at, loss


@pytest.mark.parametrize("at", [4, 19])
def test_one_known_blunder_is_the_only_loss(search, at):
    deal = read_deals(DATA / "bench_deals.jsonl")[0].deal
    rec, index, loss = _blunder_record(deal, 0, at, search)
    rv = review_line(check_record(rec, RULES), RULES, search=search, exchange=False)
    losing = [i for i, c in enumerate(rv.cards) if c.loss]
    assert losing == [index]
    assert rv.cards[index].loss == loss
    assert rv.cards[index].card == rec.play[index]
    assert rec.play[index] not in rv.cards[index].best_cards


def test_estimate_line_ends_on_the_played_total(example_review):
    from tarock_solver.review.engine import estimate_line

    line, rv = example_review
    steps = estimate_line(line)
    assert [s.trick for s in steps] == list(range(1, 18))
    assert steps[-1].points * 3 == pytest.approx(rv.final_thirds)
    assert all(abs(s.points - rv.start_thirds / 3) < 20 for s in steps)


def test_review_round_trips_through_json(example_review):
    _, rv = example_review
    doc = json.loads(json.dumps(review_to_json(rv)))
    back = review_from_json(doc)
    assert back.cards == rv.cards
    assert back.exchange == rv.exchange
    assert back.record == rv.record
    assert review_to_json(back) == doc


def test_line_card_values_carry_along_a_line():
    """GamePointSearch.line_card_values on a three-trick Solo with Pagat announced: step 0
    equals card_values, and the played card's net at each step is the best net of the
    next step."""
    hand = lambda *ids: sum(1 << INDEX_OF[c] for c in ids)  # noqa: E731
    hands = (hand("T1", "T21", "HK"), hand("T20", "HQ", "S7"), hand("T19", "HC", "C7"))
    payoff = make_payoff(RULES, "solo", 0, hands, base_thirds=3 * 40,
                         announcements={"pagat": "after"}, valat_open=False)
    gsearch = GamePointSearch(payoff, rules=RULES, tt_bits=12)
    root = gsearch.position(hands, 0)
    pos, line = root, []
    while pos is not None:  # the weakest legal card every time: a line with mistakes
        card = min(c for c in range(54) if pos.legal() >> c & 1)
        line.append(card)
        pos, _ = pos.play(card)
    steps = gsearch.line_card_values(root, line)
    assert len(steps) == 9
    assert {c: (r.lower, r.upper) for c, r in gsearch.card_values(root).items()} == \
        {c: (r.lower, r.upper) for c, r in steps[0].items()}
    pos = root
    for i, card in enumerate(line[:-1]):
        pos, _ = pos.play(card)
        nets = [r.value for r in steps[i + 1].values()]
        best = max(nets) if pos.mover == 0 else min(nets)
        assert steps[i][card].value == best


def test_narrowed_line_card_values_equal_the_full_searches():
    """The bounds line_card_values carries from step to step change no value: a Solo
    with Pagat announced, from eight tricks before the end, against narrow=False."""
    deal = next(d.deal for d in read_deals(DATA / "bench_deals.jsonl")[:40]
                if d.deal.hands[0] >> INDEX_OF["T1"] & 1)
    rec = play_out(deal, 0, "solo", RULES, announcements=(("pagat", "after"),))
    line = check_record(rec, RULES)
    pos = Position(line.hands, 0, 0, birds=line.reserved)
    won = 0
    for card in rec.play[:24]:
        pos, gained = pos.play(card)
        won += gained
    payoff = make_payoff(RULES, "solo", 0, pos.hands, leader=pos.leader, base_thirds=3 * won,
                         announcements={"pagat": "after"}, valat_open=False,
                         declarer_hand=line.hands[0], dealt=deal.hands)
    rest = rec.play[24:]
    fast = GamePointSearch(payoff, rules=RULES, tt_bits=14)
    slow = GamePointSearch(payoff, rules=RULES, tt_bits=14)
    a = fast.line_card_values(fast.position(pos.hands, pos.leader), rest)
    b = slow.line_card_values(slow.position(pos.hands, pos.leader), rest, narrow=False)
    assert [{c: (r.lower, r.upper) for c, r in s.items()} for s in a] == \
        [{c: (r.lower, r.upper) for c, r in s.items()} for s in b]
    assert sum(r.tests for s in a for r in s.values()) < \
        sum(r.tests for s in b for r in s.values())


@pytest.mark.slow
def test_game_points_follow_the_announcements(search):
    """A whole Solo with Pagat announced, reviewed in game points: the per-card nets at
    the first card equal GamePointSearch.card_values, and every step's value carries to
    the next (slow: a game-point review of a whole deal takes minutes)."""
    deals = read_deals(DATA / "bench_deals.jsonl")
    deal = next(d.deal for d in deals[:40] if d.deal.hands[0] >> INDEX_OF["T1"] & 1)
    rec = play_out(deal, 0, "solo", RULES, announcements=(("pagat", "after"),), tricks=16)
    line = check_record(rec, RULES)
    rv = review_line(line, RULES, search=search)
    assert rv.game_points
    from tarock_solver.review.engine import _game_point_search

    gsearch, root = _game_point_search(line, RULES)
    first = {c: (r.lower, r.upper) for c, r in gsearch.card_values(root).items()}
    assert rv.cards[0].gp_values == first
    for a, b in zip(rv.cards, rv.cards[1:], strict=False):
        assert a.gp_after == b.gp_before
    assert rv.final_net is not None and rv.start_net is not None


@pytest.mark.parametrize(("index", "contract", "tricks"), [(9, "solo", 16), (11, "one", 16),
                                                          (0, "two", 7)])
def test_other_contracts_and_unfinished_records(search, index, contract, tricks):
    """Solo (no discard, the talon to the defenders), One, and a record that stops after
    seven tricks: every card's value against solve_position, and the totals."""
    from tarock_solver.review.engine import played_thirds

    deal = read_deals(DATA / "bench_deals.jsonl")[index].deal
    rec = play_out(deal, index % 3, contract, RULES, tricks=tricks)
    line = check_record(rec, RULES)
    rv = review_line(line, RULES, search=search, exchange=contract != "solo")
    assert len(rv.cards) == 3 * tricks
    reference = CardPointSearch(tt_bits=18)
    pos: Position | None = Position(line.hands, 0, rec.declarer)
    for verdict in rv.cards:
        assert pos is not None
        after, banked = pos.play(verdict.card)
        value = banked if after is None else banked + solve_position(
            after.hands, after.leader, after.declarer, trick=after.trick, search=reference)
        assert verdict.after == value
        pos = after
    decl = rec.declarer
    lost = sum(c.loss for c in rv.cards if c.seat == decl)
    given = sum(c.loss for c in rv.cards if c.seat != decl)
    assert rv.final_thirds == rv.start_thirds - 3 * lost + 3 * given
    if tricks == 16:
        assert rv.final_thirds == played_thirds(line)
    else:
        assert not rv.complete
        assert rv.final_thirds == played_thirds(line) + 3 * solve_position(
            pos.hands, pos.leader, pos.declarer, search=reference)
    if contract == "solo":
        assert rv.exchange is None and line.base_thirds == 0
