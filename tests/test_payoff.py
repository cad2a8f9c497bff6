"""The game-point solver (payoff kernel) against the pure-Python score-sheet minimax.

CI runs a sample of 500 random positions of the last 3-5 tricks; the full
run of 5,000 positions of the last 3-6 tricks is marked slow (the pure-Python
oracle takes most of its time, ~1-2 s per 6-trick position):

    pytest -m slow tests/test_payoff.py

Positions: random hands from :func:`random_position` (whole pack,
tarock-heavy, tarocks and two suits), birds often in the declarer's hand,
sometimes a trick in progress; a random profile (dummett, beck, ms2016,
loew), contract, announcements (birds after/before, Absolut, Kramerpoi,
Valat where the profile has it), contras on the game and on announced items,
the declarer's pile outside the play near the 36/40/50 thresholds, and
Valat still open or not.  Combinations the scorer refuses are redrawn.

The hand-built positions at the end show the trade-offs, each with its
value worked out from RULES.md in the test.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.cards import INDEX_OF
from tarock_solver.errors import RulesError
from tarock_solver.oracle import random_game_case, reference_game_value
from tarock_solver.rules import load_rules
from tarock_solver.solver import (
    Budget,
    GamePointResult,
    GamePointSearch,
    OverBudget,
    make_payoff,
    reserved_birds,
    solve_game_points,
)

PROFILES = ("dummett", "beck", "ms2016", "loew")
RULES = {name: load_rules(name) for name in PROFILES}
#: tricks -> positions of the CI sample (a 5-trick reference takes ~0.25 s)
CI_MIX = {3: 260, 4: 200, 5: 40}
FULL_MIX = {3: 2000, 4: 2000, 5: 900, 6: 100}


def _random_case(rng: np.random.Generator, tricks: int):
    """One random position with a random scoring scenario the scorer accepts."""
    return random_game_case(rng, tricks, RULES)


def _run(seed: int, mix: dict[int, int]) -> None:
    rng = np.random.default_rng(seed)
    bad = []
    for tricks, count in mix.items():
        for _ in range(count):
            rules, payoff, hands, leader, trick = _random_case(rng, tricks)
            reserved = reserved_birds(rules, payoff)
            want = reference_game_value(payoff, hands, leader, trick=trick,
                                        reserved_birds=reserved)
            search = GamePointSearch(payoff, reserved=reserved, tt_bits=10)
            got = search.solve(search.position(hands, leader, trick))
            line = got.detail
            # the value alone, its search started at a random guess, and from scratch
            guess = float(rng.normal(want, 20.0)) if rng.random() < 0.8 else None
            fresh = GamePointSearch(payoff, reserved=reserved, tt_bits=10)
            value = fresh.value(fresh.position(hands, leader, trick), guess=guess)
            if (got.value != want or line.net_declarer != want
                    or line.score.net_declarer != want or not value.exact
                    or value.value != want):
                bad.append((rules.name, payoff.template, hands, leader, trick, want,
                            got.value))
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


def test_kernel_matches_reference_ci_sample() -> None:
    _run(20261130, CI_MIX)


@pytest.mark.slow
def test_kernel_matches_reference_full() -> None:
    _run(5000, FULL_MIX)


# ----------------------------------------------------------------- hand-built positions


def _hand(text: str) -> int:
    mask = 0
    for card in text.split():
        mask |= 1 << INDEX_OF[card]
    return mask


def _solved(*args, **kwargs) -> GamePointResult:
    """:func:`solve_game_points` without a budget: the exact net, and the breakdown of
    the optimal line it follows (whose net is that value)."""
    res = solve_game_points(*args, **kwargs)
    assert res.exact and res.detail is not None
    assert res.value == res.detail.net_declarer == res.detail.score.net_declarer
    return res.detail


F, M, R = 0, 1, 2
DUMMETT = RULES["dummett"]
#: Tricks 14-16, M to lead, F declares a Three.  11 card points are left:
#: T1 5 + T21 5 + seven blanks 7 − 3·2.
TRADE = (_hand("T1 T21 D3"), _hand("T4 H3 S8"), _hand("T5 H4 S7"))


def test_gives_up_card_points_to_win_the_pagat() -> None:
    # M leads H3 (or S8), R follows, F must ruff.  Ruffing with the Pagat
    # wins all 11 points: 5 (trick 14) + 5 (T21 draws T4, T5) + 1 (D3), but
    # the Pagat dies in trick 14.  Ruffing with T21 (5) and leading D3 makes
    # M and R trump (R wins 1 point) and leaves the Pagat to win trick 16
    # alone (5): 10 points and the silent Pagat.  A T4 lead only helps F.
    # With 33 points outside the play (99 thirds):
    #   Pagat line: P 43, game 3 + over 7 = 10, silent Pagat 5 -> writes 15, net +30
    #   points line: P 44, game 3 + over 8 = 11 -> net +22
    res = _solved(TRADE, M, F, rules=DUMMETT, contract="three", discard_thirds=9,
                  taken_thirds=90)
    assert res.net_declarer == 30
    assert res.points == 43 and res.birds == "pagat@decl:won"
    assert res.written == (15, 0, 0)
    assert res.line[2] == INDEX_OF["T21"]  # F ruffs trick 14 with XXI, not with the Pagat


def test_gives_up_the_pagat_to_make_the_game() -> None:
    # The same cards with 25 points outside the play (75 thirds):
    #   Pagat line: P 35 < 35⅔, lost: each defender writes 3 (under 0);
    #     the Pagat 5 is the declarer's -> written (5, 3, 3), net 15 − 11 = +4
    #   points line: P 36, game 3 + over 0 -> net +6
    res = _solved(TRADE, M, F, rules=DUMMETT, contract="three", discard_thirds=9,
                  taken_thirds=66)
    assert res.net_declarer == 6
    assert res.points == 36 and res.score.made and res.birds == ""
    assert res.line[2] == INDEX_OF["T1"]  # the Pagat ruffs trick 14


def test_valat_ms2016() -> None:
    # Tricks 15-16, F leads and has won every trick so far (52 points).
    # Sküs first draws M's II (M must follow), then the Pagat wins trick 16
    # alone: all 18 points (T22 5 + T1 5 + HK 5 + DK 5 + T2 1 + D4 1 − 4), P 70.
    # ms2016 Three: G 3 + (70 − 35) = 38, silent Pagat 5, silent Valat 20
    # -> the declarer writes 63, net +126.  Leading the Pagat first loses
    # trick 15 to II (no Valat).
    hands = (_hand("T22 T1"), _hand("T2 HK"), _hand("DK D4"))
    res = _solved(hands, F, F, rules=RULES["ms2016"], contract="three",
                  discard_thirds=9, taken_thirds=147, valat_open=True)
    assert res.net_declarer == 126 and res.valat and res.points == 70
    assert res.line[0] == INDEX_OF["T22"]
    # Without Valat open (a trick was lost before, 51 points): 37 + 5 = 42 -> +84.
    res = _solved(hands, F, F, rules=RULES["ms2016"], contract="three",
                  discard_thirds=9, taken_thirds=144, valat_open=False)
    assert res.net_declarer == 84 and not res.valat


def test_partner_capture_void_vs_fail() -> None:
    # Tricks 15-16, F declares a Three and leads; M holds the Pagat and
    # Sküs, R holds the Uhu (II) and S8; 10 points are left and F takes 5
    # on every line (P 38: game 3 + over 2 = 5).  F's lead (T3 or T5) forces
    # R's Uhu into trick 15, its own trick.
    #   M plays Sküs: M wins trick 15 (his partner's Uhu), then leads the
    #     Pagat into F's tarock in trick 16: the declarer writes 5 (game)
    #     + 5 (captured silent Pagat), and with partner_capture=fail also
    #     the Uhu 10: net +20 (void) or +40 (fail).
    #   M plays the Pagat: F's tarock wins trick 15 with the Uhu (10) and
    #     Sküs wins trick 16; the Pagat is not in its trick: net +30.
    # So under void M over-takes his partner (value +20); under fail he
    # does not (value +30).
    hands = (_hand("T3 T5"), _hand("T1 T22"), _hand("T2 S8"))
    kwargs = {"contract": "three", "discard_thirds": 9, "taken_thirds": 90}
    void = _solved(hands, F, F, rules=DUMMETT, **kwargs)
    assert void.net_declarer == 20 and "uhu@def:void" in void.birds
    fail = _solved(hands, F, F, rules=load_rules("dummett", {"partner_capture": "fail"}),
                   **kwargs)
    assert fail.net_declarer == 30 and "uhu@def:lost" in fail.birds
    assert fail.points == void.points == 38


# ----------------------------------------------------------------- the payoff model


def test_bird_codes() -> None:
    from tarock_solver.solver.payoff import BIRD_LOST, BIRD_PARTNER, BIRD_WON, bird_code

    assert bird_code(holder=F, winner=F, declarer=F) == BIRD_WON
    assert bird_code(holder=F, winner=M, declarer=F) == BIRD_LOST
    assert bird_code(holder=M, winner=F, declarer=F) == BIRD_LOST
    assert bird_code(holder=M, winner=M, declarer=F) == BIRD_WON
    assert bird_code(holder=M, winner=R, declarer=F) == BIRD_PARTNER


def test_thresholds_are_the_first_points_reaching_each_goal() -> None:
    payoff = make_payoff(DUMMETT, "three", F, TRADE, leader=M, base_thirds=75,
                         announcements={"pagat": "after"}, contras={"game": "a"})
    table = payoff.net_table()
    goals = payoff.goals()
    thresholds = payoff.thresholds()
    assert goals == sorted(set(goals))
    for flags, row in table.items():
        for k, goal in enumerate(goals):
            first = next((f for f, net in enumerate(row) if net is not None and net >= goal),
                         None)
            assert thresholds[k, flags] == (1000 if first is None else first)
    # the announced Pagat: won (code 1) vs not in its trick (code 0), game lost by 1 point
    assert table[64 | 1][10] - table[64][10] == 2 * 2 * 10  # the declarer writes 10 instead of each defender


def test_bad_positions_are_refused() -> None:
    from tarock_solver.errors import DealError

    with pytest.raises(DealError, match="twice"):
        solve_game_points((_hand("T1 T2"), _hand("T2 T3"), _hand("T4 T5")), F, F, rules=DUMMETT,
                          contract="three")
    with pytest.raises(DealError, match="hand M has 1 card; .* it needs 2"):
        solve_game_points((_hand("T1 T2"), _hand("T3"), _hand("T4 T5")), F, F, rules=DUMMETT,
                          contract="three")
    with pytest.raises(RulesError, match="only the holder"):  # M holds the Pagat, not F
        solve_game_points((_hand("T3 T5"), _hand("T1 T22"), _hand("T2 S8")), F, F,
                          rules=DUMMETT, contract="three", discard_thirds=99,
                          announcements={"pagat": "after"})


def _valat_open_payoff(rules_name: str = "ms2016"):
    hands = (_hand("T22 T1 T5"), _hand("T2 HK H4"), _hand("DK D4 T3"))
    return make_payoff(RULES[rules_name], "three", F, hands, leader=F, base_thirds=3 * 40,
                       announcements={"pagat": "after"}, valat_open=True)


def test_valat_outcomes_only_take_every_point() -> None:
    # Valat means the declarer wins every trick left: no other card points are possible
    payoff = _valat_open_payoff()
    table = payoff.net_table()
    assert payoff.valat_matters()
    for flags, row in table.items():
        if flags & 64:
            assert None not in row
        else:
            assert row[:-1] == [None] * payoff.remaining and row[-1] is not None
            assert row[-1] == payoff.score(payoff.remaining, flags).net_declarer
    t = payoff.thresholds()
    valat_cols = [f for f in table if not f & 64]
    assert set(np.unique(t[:, valat_cols])) <= {payoff.remaining, 1000}


def test_threshold_bounds_match_their_definition() -> None:
    from tarock_solver.solver.payoff import N_BOUND_COLUMNS, _extends

    payoff = _valat_open_payoff()
    t = payoff.thresholds()
    lo, hi = payoff.threshold_bounds()
    finals = list(payoff.net_table())
    for col in range(0, N_BOUND_COLUMNS, 7):  # a spread of columns, every open-bird mask
        sup = [g for g in finals if _extends(g, col & 127, col >> 7)]
        for k in range(t.shape[0]):
            want_lo = min((t[k, g] for g in sup), default=1000)
            want_hi = max((t[k, g] for g in sup), default=1000)
            assert (lo[k, col], hi[k, col]) == (want_lo, want_hi), (col, k)


def test_relevant_birds_and_valat() -> None:
    # a live bird matters where the profile scores it (silent or announced)
    for name in PROFILES:
        payoff = _valat_open_payoff(name)
        rules = RULES[name]
        want = sum(1 << b for b, bird in enumerate(("pagat", "uhu", "kakadu"))
                   if rules.bird_value(bird, "silent") is not None or bird == "pagat")
        assert payoff.relevant_birds() == want, name
    no_valat = make_payoff(DUMMETT, "three", F, TRADE, leader=M, base_thirds=99)
    assert not no_valat.valat_open and not no_valat.valat_matters()


def test_node_budget_gives_proved_bounds() -> None:
    hands = (_hand("T22 T1 T5 HK"), _hand("T2 H4 H3 D4"), _hand("DK T3 S7 S8"))
    kwargs = {"rules": DUMMETT, "contract": "three", "discard_thirds": 9, "taken_thirds": 90}
    want = reference_game_value(
        make_payoff(DUMMETT, "three", F, hands, leader=F, base_thirds=99), hands, F)
    capped = solve_game_points(hands, F, F, budget=Budget(nodes=5), **kwargs)
    assert not capped.exact and capped.detail is None
    assert capped.lower <= want <= capped.upper  # bounds on the net, never a guess
    assert capped.nodes <= 6
    with pytest.raises(OverBudget, match="budget after"):
        _ = capped.value
    with pytest.raises(RulesError, match="node budget"):
        solve_game_points(hands, F, F, budget=Budget(nodes=0), **kwargs)
    full = solve_game_points(hands, F, F, budget=Budget(nodes=10**7), **kwargs)
    assert full.exact and full.value == want and full.detail.net_declarer == want
    assert full.nodes > capped.nodes


def test_valat_line_is_reported_in_every_profile() -> None:
    # F wins both tricks (Sküs draws II, then the Pagat is alone); where the
    # profile pays nothing for Valat the search ignores it, the report must not
    hands = (_hand("T22 T1"), _hand("T2 HK"), _hand("DK D4"))
    for name in PROFILES:
        res = _solved(hands, F, F, rules=RULES[name], contract="three",
                      discard_thirds=9, taken_thirds=147, valat_open=True)
        assert res.valat and res.line[0] == INDEX_OF["T22"], name
        assert res.score.valat


def test_a_solve_interrupted_from_another_thread_gives_up_at_once() -> None:
    """interrupt() ends a running search within a few thousand nodes: a whole-deal
    game-point solve with a minute's budget returns unfinished well within a second of
    the call, and a card-point one too; a later solve is not affected."""
    import threading
    import time

    from tarock_solver.deal import random_deal
    from tarock_solver.solver import CardPointSearch, Position

    deal = random_deal(np.random.default_rng(7)).hands
    hands = (deal[0], deal[1], deal[2])
    payoff = make_payoff(DUMMETT, "solo", 0, hands, base_thirds=0, valat_open=True)
    for search, run in (
            (GamePointSearch(payoff, rules=DUMMETT, tt_bits=14),
             lambda s: s.value(s.position(hands, 0), Budget(seconds=60.0))),
            (CardPointSearch(14),
             lambda s: s.value(Position(hands, 0, 0), Budget(seconds=60.0)))):
        timer = threading.Timer(0.3, search.interrupt)
        t0 = time.perf_counter()
        timer.start()
        res = run(search)
        took = time.perf_counter() - t0
        timer.join()
        assert not res.exact and took < 1.5, (type(search).__name__, took)
    small = (hands[0] & 0b111, hands[1] & 0b111 << 3, hands[2] & 0b111 << 6)
    cp = CardPointSearch(10)
    cp.interrupt()  # before a search: nothing to stop, the next search runs
    assert cp.value(Position((1 << 53, 1 << 52, 1 << 51), 0, 0), Budget(seconds=5.0)).exact
    assert small  # (hands of the deal stay untouched)
