"""The double-dummy table (tarock_solver.analysis): budgeted searches, alpha-raising
search over exchanges, table rows, scoring, and the results-schema files."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pandas as pd
import pytest

from tarock_solver.analysis import (
    RESULT_COLUMNS,
    PlayOption,
    best_play,
    dd_table,
    lead_values,
    order_options,
    play_options,
    read_results,
    results_frame,
    solve_contract,
    write_results,
)
from tarock_solver.analysis.options import BOUND, EXACT, NOT_BETTER
from tarock_solver.cards import bit, indices_of, mask_of, round_points, thirds_of
from tarock_solver.deal import Deal
from tarock_solver.errors import DealError, FileFormatError, RulesError
from tarock_solver.notation import parse_deal
from tarock_solver.oracle.cardpoints import reference_value
from tarock_solver.rules import load_rules
from tarock_solver.scoring import ScoreInput, score
from tarock_solver.solver import (
    Budget,
    CardPointSearch,
    OverBudget,
    Position,
    remaining_points,
    solve_cards,
    solve_position,
)
from tarock_solver.talon import exchanges

# A full deal whose forehand is weak (Sküs and low pips), so every F row solves in
# well under a second even before the kernel gets fast; the talon and the discards
# still change his result (Solo 15, One 40, Two 50, Three 51 thirds).
CHEAP = ("F:22.A234.A234.T987.987 21,18,15,14,13,11,8,6,2,1.QC.K.C.KC "
         "20,19,16,12,10,9,7,5,4.J.QJ.J.QJT/SQ,SK,T17,T3,DC,HK")
RULES = load_rules("dummett")


@pytest.fixture(scope="module")
def cheap() -> Deal:
    deal = parse_deal(CHEAP)
    assert isinstance(deal, Deal)
    return deal


def random_position(rng: random.Random, tricks: int) -> tuple[tuple[int, int, int], int, int]:
    cards = rng.sample(range(54), 3 * tricks)
    hands = tuple(mask_of(cards[i * tricks:(i + 1) * tricks]) for i in range(3))
    return hands, rng.randrange(3), rng.randrange(3)  # type: ignore[return-value]


# ----------------------------------------------------------------------------- budgets


def exact_values(results):
    """Card -> value of a card_values answer (every result must be exact)."""
    assert all(r.exact for r in results.values())
    return {card: r.value for card, r in results.items()}


def test_budgeted_search_agrees_with_plain_search_and_oracle():
    rng = random.Random(11)
    budgeted = CardPointSearch(tt_bits=16)
    plain = CardPointSearch(tt_bits=16)
    for _ in range(25):
        hands, leader, declarer = random_position(rng, rng.randint(1, 4))
        pos = Position(hands, leader, declarer)
        truth = reference_value(hands, leader, declarer)
        assert budgeted.value(pos).value == truth
        assert budgeted.value(pos, Budget(nodes=10**7)).value == truth
        assert plain.value(pos).value == truth
        assert solve_position(hands, leader, declarer, search=plain) == truth
        for target in (truth - 1, truth, truth + 1):
            assert budgeted.reaches(pos, target).at_least(target) is (truth >= target)
            got = budgeted.reaches(pos, target, Budget(nodes=10**7))
            assert got.at_least(target) is (truth >= target)
        expected = exact_values(plain.card_values(pos))
        assert expected == solve_cards(hands, leader, declarer)
        assert exact_values(budgeted.card_values(pos)) == expected
        assert exact_values(budgeted.card_values(pos, Budget(nodes=10**7))) == expected


def test_budgeted_card_values_mid_trick():
    rng = random.Random(5)
    budgeted = CardPointSearch(tt_bits=16)
    for _ in range(10):
        hands, leader, declarer = random_position(rng, 3)
        # play one legal card of the leader, then ask for the follower's card values
        lead = indices_of(hands[leader])[0]
        rest = list(hands)
        rest[leader] &= ~bit(lead)
        pos = Position(rest, leader, declarer, trick=[lead])
        want = exact_values(CardPointSearch(tt_bits=16).card_values(pos))
        assert exact_values(budgeted.card_values(pos, Budget(nodes=10**6))) == want


def test_budget_runs_out_with_proved_bounds_and_stays_correct(cheap):
    search = CardPointSearch(tt_bits=18)
    pos = Position(cheap.hands, 0, 1)
    top = remaining_points(pos)
    capped = search.value(pos, Budget(nodes=500))
    assert not capped.exact and 0 <= capped.lower < capped.upper <= top
    assert capped.nodes <= 501 and search.stats.aborted == 1
    with pytest.raises(OverBudget):
        _ = capped.value
    test = search.reaches(pos, 30, Budget(nodes=2))
    assert test.at_least(30) is None and not test.exact
    cards = search.card_values(pos, Budget(nodes=500))
    assert set(cards) == set(indices_of(cheap.hands[0]))  # F may lead any card
    assert not all(r.exact for r in cards.values())
    assert search.stats.aborted == 3
    # the table is still sound after the aborted searches: the exact value of the
    # deal (checked against a fresh table) lies within every bound proved above
    exact = search.value(pos).value
    assert exact == CardPointSearch(tt_bits=18).value(pos).value
    assert capped.lower <= exact <= capped.upper
    assert test.lower <= exact <= test.upper
    full = exact_values(search.card_values(pos))
    assert min(full.values()) == exact  # F, a defender, leads
    for card, r in cards.items():
        assert r.lower <= full[card] <= r.upper
    rng = random.Random(3)
    for _ in range(5):
        small, leader, declarer = random_position(rng, 3)
        got = search.value(Position(small, leader, declarer)).value
        assert got == reference_value(small, leader, declarer)
    with pytest.raises(RulesError, match="node budget"):
        search.value(pos, Budget(nodes=0))


# ----------------------------------------------------------------------------- best_play


def mini_exchange(rng: random.Random, tricks: int, take: int):
    """A small end position with an 'exchange': the declarer keeps ``tricks`` of a pool
    of ``tricks + take`` cards and the rest counts for him, like a discard."""
    cards = rng.sample(range(54), 3 * tricks + take)
    declarer = rng.randrange(3)
    leader = rng.randrange(3)
    pool = cards[:tricks + take]
    others = [cards[tricks + take:2 * tricks + take], cards[2 * tricks + take:]]
    hands = [0, 0, 0]
    hands[(declarer + 1) % 3] = mask_of(others[0])
    hands[(declarer + 2) % 3] = mask_of(others[1])
    options = []
    for kept in combinations(pool, tricks):
        discard = mask_of(pool) & ~mask_of(kept)
        options.append(PlayOption(mask_of(kept), thirds_of(discard)))
    return hands, declarer, leader, options


def oracle_total(hands, declarer, leader, option):
    full = list(hands)
    full[declarer] = option.hand
    return option.base_thirds + 3 * reference_value(full, leader, declarer)


@pytest.mark.parametrize("seed", range(12))
def test_best_play_equals_oracle_and_naive(seed):
    rng = random.Random(seed)
    hands, declarer, leader, options = mini_exchange(rng, rng.randint(2, 4), rng.randint(1, 3))
    if seed % 2:
        options = order_options(options)
    totals = [oracle_total(hands, declarer, leader, o) for o in options]
    best_total = max(totals)
    first_best = options[totals.index(best_total)]

    fast = best_play(CardPointSearch(tt_bits=16), options, hands, declarer, leader=leader)
    naive = best_play(CardPointSearch(tt_bits=16), options, hands, declarer, leader=leader,
                      raise_alpha=False)
    for result in (fast, naive):
        assert result.complete
        assert result.best.thirds == best_total
        assert result.best.option == first_best
        assert len(result.outcomes) == len(options)
    assert all(o.status == EXACT for o in naive.outcomes)
    for outcome, total in zip(fast.outcomes, totals, strict=True):
        if outcome.status == EXACT:
            assert outcome.thirds == total
        else:
            assert outcome.status in (NOT_BETTER, BOUND)
            assert total <= best_total
    assert fast.exact_solves <= naive.exact_solves


def test_best_play_budget_marks_the_rest(cheap):
    options = [PlayOption(e.hand_after, e.declarer_pile_thirds, e)
               for e in exchanges(cheap.hands[1], cheap.talon, "three")]
    result = best_play(CardPointSearch(tt_bits=18), options, cheap.hands, 1,
                       budget=Budget(nodes=2000))
    assert not result.complete
    assert result.nodes <= 2001
    statuses = [o.status for o in result.outcomes]
    assert len(statuses) == len(options)
    assert "aborted" in statuses
    assert statuses[statuses.index("aborted") + 1:] == \
        ["unsearched"] * (len(statuses) - statuses.index("aborted") - 1)


# ----------------------------------------------------------------------------- table rows


def brute_force(deal, declarer, contract, skip_equivalent):
    search = CardPointSearch()
    best = None
    for e in exchanges(deal.hands[declarer], deal.talon, contract,
                       skip_equivalent=skip_equivalent):
        hands = list(deal.hands)
        hands[declarer] = e.hand_after
        total = e.declarer_pile_thirds + 3 * search.value(Position(hands, 0, declarer)).value
        best = total if best is None else max(best, total)
    return best


@pytest.mark.parametrize("contract,skip", [("solo", False), ("one", False), ("two", True),
                                           ("three", True)])
def test_row_equals_brute_force_over_exchanges(cheap, contract, skip):
    row = solve_contract(cheap, "F", contract, RULES)
    assert row.complete
    assert row.declarer_thirds == brute_force(cheap, 0, contract, skip)
    # the reported exchange really gives the reported total
    hands = list(cheap.hands)
    hands[0] = row.hand_after
    value = CardPointSearch().value(Position(hands, 0, 0)).value
    assert thirds_of(row.discard) + 3 * value == row.declarer_thirds
    assert row.declarer_points == round_points(row.declarer_thirds)
    assert row.made == (row.declarer_thirds >= RULES.win_thirds)
    taken = {e.group_label: e for e in exchanges(cheap.hands[0], cheap.talon, contract)}
    assert row.talon_group in taken
    if contract == "solo":
        assert row.talon_group == "" and row.discard == 0
        assert row.hand_after == cheap.hands[0]
        assert row.defenders_talon == cheap.talon_mask
    else:
        assert row.hand_after | row.discard == cheap.hands[0] | taken[row.talon_group].taken


def test_alpha_raising_row_equals_naive_row(cheap):
    for contract in ("one", "two"):
        fast = solve_contract(cheap, 0, contract, RULES)
        naive = solve_contract(cheap, 0, contract, RULES, raise_alpha=False)
        assert (fast.declarer_thirds, fast.talon_group, fast.discard) == \
            (naive.declarer_thirds, naive.talon_group, naive.discard)
        # the naive method solves every distinct kept hand once (equal hands share)
        distinct = {o.hand for o in play_options(cheap, 0, contract, RULES)}
        assert naive.exact_solves == len(distinct) and naive.tests == 0
        assert fast.exact_solves < naive.exact_solves


def test_lower_is_three_solved_once(cheap):
    table = dd_table(cheap, RULES, declarers=["F"], contracts=["lower", "three"])
    three, lower = table.rows
    assert (three.contract, lower.contract) == ("three", "lower")
    assert lower.same_play_as == "three" and lower.nodes == 0
    assert (lower.declarer_thirds, lower.talon_group, lower.discard) == \
        (three.declarer_thirds, three.talon_group, three.discard)
    assert lower.score.game_value == RULES.game_value("lower")
    assert three.score.game_value == RULES.game_value("three")
    only_lower = solve_contract(cheap, 0, "lower", RULES)
    assert only_lower.declarer_thirds == three.declarer_thirds


def test_rows_score_the_plain_game_with_hand_bonuses(cheap):
    table = dd_table(cheap, RULES, declarers=["F"], contracts=["one", "solo"])
    for row in table.rows:
        expected = score(RULES, ScoreInput(contract=row.contract, declarer=0,
                                           declarer_thirds=row.declarer_thirds,
                                           declarer_hand=row.hand_after, dealt=cheap.hands))
        assert row.score.written == expected.written
        assert sum(row.score.nets) == 0
        assert row.score.net_declarer == row.score.nets[0]
        assert row.valat is False


def test_table_selection_and_bad_input(cheap):
    table = dd_table(cheap, RULES, declarers=["F"], contracts=["solo"])
    assert [(r.declarer_name, r.contract) for r in table.rows] == [("F", "solo")]
    assert table.row("F", "solo") is table.rows[0]
    with pytest.raises(RulesError):
        dd_table(cheap, RULES, declarers=["F"], contracts=["grand"])
    with pytest.raises(RulesError):
        dd_table(cheap, load_rules("beck"), declarers=["F"], contracts=["lower"])
    partial = parse_deal("F:22.A234.A234.T987.987 - -/?")
    with pytest.raises(DealError):
        dd_table(partial, RULES)
    broken = Deal(hands=(cheap.hands[0], cheap.hands[1], cheap.hands[1]), talon=cheap.talon)
    with pytest.raises(DealError):
        dd_table(broken, RULES)


def test_node_budget_gives_incomplete_rows(cheap):
    table = dd_table(cheap, RULES, declarers=["M"], contracts=["three", "lower"],
                     budget=Budget(nodes=3000))
    assert table.budget == Budget(nodes=3000) and not table.complete
    three, lower = table.rows
    assert not three.complete and not lower.complete
    assert three.nodes <= 3001
    assert three.score is None and three.made in (None, True)
    assert three.to_json()["complete"] is False
    # The row keeps what was proved: bounds around the exact value, never a value.
    exact = solve_contract(cheap, "M", "three", RULES)
    assert three.lower_thirds <= exact.declarer_thirds <= three.upper_thirds
    assert exact.lower_thirds == exact.upper_thirds == exact.declarer_thirds
    records = table.result_records(deal_id="cheap")
    assert [r["status"] for r in records] == ["over_budget", "over_budget"]
    for record in records:
        assert record["points_thirds"] is None and record["net_declarer"] is None
        assert (record["points_lower_thirds"], record["points_upper_thirds"]) == \
            (three.lower_thirds, three.upper_thirds)
    assert exact.result_record(RULES)["status"] == "exact"


def test_lead_values_match_the_row(cheap):
    row = solve_contract(cheap, 0, "one", RULES)
    values = lead_values(cheap, row)
    assert set(values) == set(indices_of(row.hand_after))
    # F is the declarer and leads: his best lead gives exactly the row's total
    assert max(values.values()) == row.declarer_thirds
    # a budget too small for the leads gives no values rather than guesses
    assert lead_values(cheap, row, solver=CardPointSearch(tt_bits=16),
                       budget=Budget(nodes=1)) is None
    defended = solve_contract(cheap, 1, "solo", RULES, budget=Budget(nodes=2 * 10**6))
    if defended.complete:
        values = lead_values(cheap, defended)
        assert min(values.values()) == defended.declarer_thirds


# ----------------------------------------------------------------------------- results files


@pytest.fixture(scope="module")
def frame(cheap) -> pd.DataFrame:
    table = dd_table(cheap, RULES, declarers=["F"], contracts=["three", "lower", "solo"])
    return table.results_frame(deal_id="cheap", seed=7)


def test_results_frame_follows_the_schema(frame):
    assert list(frame.columns) == list(RESULT_COLUMNS)
    assert len(frame) == 3
    assert str(frame["points_thirds"].dtype) == "Int16"
    assert str(frame["made"].dtype) == "boolean"
    assert str(frame["seed"].dtype) == "Int64"
    for row in frame.itertuples():
        assert row.schema == 2 and row.deal_id == "cheap" and row.option == "plain"
        assert row.status == "exact"
        assert row.points_lower_thirds == row.points_upper_thirds == row.points_thirds
        assert row.points == round_points(row.points_thirds)
        assert row.margin_thirds == row.points_thirds - RULES.win_thirds
        assert row.net_F + row.net_M + row.net_R == 0
        assert row.net_declarer == row.net_F
    solo = frame[frame["contract"] == "solo"].iloc[0]
    assert solo["talon_pick"] == "" and solo["discard"] == ""
    assert frame["multiplier"].tolist() == [RULES.multiplier(c) for c in ("three", "lower", "solo")]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_results_round_trip(frame, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"out{suffix}"
    write_results(frame, path)
    back = read_results(path)
    pd.testing.assert_frame_equal(back, frame)


def test_results_csv_and_jsonl_text(frame, tmp_path):
    path = tmp_path / "out.csv"
    write_results(frame, path)
    write_results(frame, path, append=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(RESULT_COLUMNS)
    assert len(lines) == 1 + 2 * len(frame)
    made = lines[1].split(",")[list(RESULT_COLUMNS).index("made")]
    assert made in ("true", "false")
    with_null = results_frame([{**frame.iloc[0].to_dict(), "seed": None}])
    write_results(with_null, tmp_path / "null.csv")
    cells = (tmp_path / "null.csv").read_text().splitlines()[1].split(",")
    assert cells[list(RESULT_COLUMNS).index("seed")] == ""
    jsonl = tmp_path / "out.jsonl"
    write_results(with_null, jsonl)
    obj = json.loads(jsonl.read_text(encoding="utf-8"))
    assert obj["seed"] is None and isinstance(obj["made"], bool)


def test_results_parquet_dictionary_columns(frame, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    path = tmp_path / "out.parquet"
    write_results(frame, path)
    schema = pq.read_schema(path)
    assert pa.types.is_dictionary(schema.field("declarer").type)
    assert pa.types.is_dictionary(schema.field("contract").type)
    with pytest.raises(FileFormatError):
        write_results(frame, path, append=True)


def test_results_bad_input(tmp_path):
    with pytest.raises(ValueError):
        results_frame([{"schema": 1, "declarerr": "F"}])
    with pytest.raises(FileFormatError):
        write_results(results_frame([]), tmp_path / "out.xlsx")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema": 1}\n{oops\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match="bad.jsonl:2"):
        read_results(bad)
    with pytest.raises(FileFormatError):
        read_results(tmp_path / "missing.csv")


def test_schema_1_files_read_as_all_exact(frame, tmp_path):
    path = tmp_path / "v1.csv"
    v1 = frame.drop(columns=["status", "points_lower_thirds", "points_upper_thirds"])
    v1.assign(schema=1).to_csv(path, index=False)
    back = read_results(path)
    assert list(back.columns) == list(RESULT_COLUMNS)
    assert back["status"].tolist() == ["exact"] * len(frame)
    assert back["points_lower_thirds"].tolist() == frame["points_thirds"].tolist()
    assert back["points_upper_thirds"].tolist() == frame["points_thirds"].tolist()
