"""The Trischaken search against the plain minimax, the rule vectors and its budgets.

The CI sample is 6,000 random positions of 1-4 cards a hand, under all four settings
of must-beat and Pagat-last; the larger check (20,000 more and 1,000 of 5 cards a hand,
several minutes)::

    pytest -m slow tests/test_trischaken.py

Positions come from :func:`random_trischaken_position` with fixed seeds: random hands
(whole pack, tarock-heavy, or tarocks plus two suits; the Pagat often in a hand),
random leader and seat, 0-2 cards already played to the current trick by the rules
in force.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.cards import INDEX_OF, mask_of
from tarock_solver.deal import random_deals
from tarock_solver.errors import RulesError
from tarock_solver.oracle import random_trischaken_position, reference_trischaken
from tarock_solver.play import trick_winner, trischaken_moves
from tarock_solver.rules import load_rules
from tarock_solver.solver import (
    Budget,
    TrischakenSearch,
    solve_trischaken,
    trischaken_position,
)

SETTINGS = [(mb, pl) for mb in (True, False) for pl in (True, False)]


def _rules(must_beat: bool, pagat_last: bool):
    return load_rules("dummett", {"trischaken_must_beat": str(must_beat).lower(),
                                  "trischaken_pagat_last": str(pagat_last).lower()})


RULES = {s: _rules(*s) for s in SETTINGS}


def m(*ids: str) -> int:
    return mask_of(INDEX_OF[i] for i in ids)


def c(card_id: str) -> int:
    return INDEX_OF[card_id]


def _sample(seed: int, count: int, sizes: tuple[int, ...]) -> list[tuple[tuple[bool, bool], dict]]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        setting = SETTINGS[i % 4]
        tricks = sizes[int(rng.integers(len(sizes)))]
        out.append((setting, random_trischaken_position(rng, tricks, must_beat=setting[0],
                                                        pagat_last=setting[1])))
    return out


def _mismatches(sample, tt_bits: int = 12) -> list:
    # One small table for every rule setting: later positions probe entries of earlier
    # ones (other seats, movers and rules) and lines are evicted all the time.
    tt = TrischakenSearch(RULES[(True, True)], tt_bits=tt_bits).tt
    searches = {}
    for s in SETTINGS:
        searches[s] = TrischakenSearch(RULES[s], tt_bits=8)
        searches[s].tt = tt
    bad = []
    for setting, p in sample:
        want = reference_trischaken(p["hands"], p["leader"], p["seat"], trick=p["trick"],
                                    must_beat=setting[0], pagat_last=setting[1])
        pos = trischaken_position(p["hands"], p["leader"], p["seat"], rules=RULES[setting],
                                  trick=p["trick"])
        got = searches[setting].value(pos).value
        if got != want:
            bad.append((setting, p, want, got))
    return bad


def test_oracle_ci_sample() -> None:
    sample = _sample(20250117, 6000, (1, 2, 3, 3, 4, 4, 4))
    assert sum(1 for _, p in sample if p["trick"]) > 3000
    assert sum(1 for _, p in sample if any(h & 1 for h in p["hands"])) > 1000
    assert {p["seat"] for _, p in sample} == {0, 1, 2}
    bad = _mismatches(sample)
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


@pytest.mark.slow
def test_oracle_large_sample() -> None:
    # the reference takes ~0.2 s a 5-card position (it has no table): a thousand of them
    sample = _sample(20250118, 20000, (2, 3, 4, 4)) + _sample(20250119, 1000, (5,))
    bad = _mismatches(sample, tt_bits=10)
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


def test_oracle_detects_a_wrong_rule() -> None:
    """The comparison can fail: the search with must-beat off disagrees with the
    reference with must-beat on somewhere in a modest sample."""
    rng = np.random.default_rng(7)
    wrong = TrischakenSearch(RULES[(False, True)], tt_bits=10)
    differ = 0
    for _ in range(300):
        p = random_trischaken_position(rng, 3, trick_cards=0)
        want = reference_trischaken(p["hands"], p["leader"], p["seat"])
        pos = trischaken_position(p["hands"], p["leader"], p["seat"], rules=RULES[(False, True)])
        differ += wrong.value(pos).value != want
    assert differ > 0


# ----------------------------------------------------------------- rule vectors (RULES.md 10.4)

def _legal(hands, leader, trick, setting=(True, True)) -> int:
    pos = trischaken_position(hands, leader, 0, rules=RULES[setting], trick=trick)
    return TrischakenSearch(RULES[setting], tt_bits=8).legal(pos)


def test_t1_must_beat_in_suit() -> None:
    # F leads ♥2, M plays ♥J; R holds ♥Q ♥4: ♥Q (must beat)
    hands = (m("S7"), m("C7"), m("HQ", "H4"))
    assert _legal(hands, 0, (c("H2"), c("HJ"))) == m("HQ")
    # without the rule either heart
    assert _legal(hands, 0, (c("H2"), c("HJ")), (False, True)) == m("HQ", "H4")


def test_t2_must_beat_with_a_tarock() -> None:
    # ♠7 led, XV played; void in ♠; holds XX, II: XX
    hands = (m("S8"), m("C7"), m("T20", "T2"))
    assert _legal(hands, 0, (c("S7"), c("T15"))) == m("T20")


def test_t3_pagat_not_the_last_tarock() -> None:
    # ♠7 led, XV played; void in ♠; holds II, I: II (neither beats; the Pagat is not
    # his last tarock)
    hands = (m("S8"), m("C7"), m("T2", "T1"))
    assert _legal(hands, 0, (c("S7"), c("T15"))) == m("T2")
    assert _legal(hands, 0, (c("S7"), c("T15")), (True, False)) == m("T2", "T1")


def test_t4_pagat_as_the_last_tarock() -> None:
    # a tarock led; holds only I as a tarock: I
    hands = (m("T1", "HK"), m("C7", "C8"), m("S8"))
    assert _legal(hands, 2, (c("T5"),)) == m("T1")


def test_kernel_moves_match_the_python_rules() -> None:
    rng = np.random.default_rng(11)
    for i in range(400):
        setting = SETTINGS[i % 4]
        p = random_trischaken_position(rng, int(rng.integers(1, 7)), must_beat=setting[0],
                                       pagat_last=setting[1])
        mover = (p["leader"] + len(p["trick"])) % 3
        want = trischaken_moves(p["hands"][mover], p["trick"], must_beat=setting[0],
                                pagat_last=setting[1])
        assert _legal(p["hands"], p["leader"], p["trick"], setting) == want


# ----------------------------------------------------------------- budgets and entry points

def test_budget_bounds_contain_the_value() -> None:
    rules = RULES[(True, True)]
    deal = random_deals(3, 1)[0]
    # a position of 7 tricks after random play keeps the exact search short
    rng = np.random.default_rng(5)
    hands, leader = list(deal.hands), 0
    for _ in range(9):
        cards: list[int] = []
        for off in range(3):
            s = (leader + off) % 3
            legal = [x for x in range(54) if trischaken_moves(hands[s], cards) >> x & 1]
            card = legal[int(rng.integers(len(legal)))]
            hands[s] &= ~(1 << card)
            cards.append(card)
        leader = trick_winner(cards, leader)
    for seat in range(3):
        pos = trischaken_position(hands, leader, seat, rules=rules)
        exact = TrischakenSearch(rules, tt_bits=14).value(pos)
        assert exact.exact
        for nodes in (1, 50, 500):
            r = TrischakenSearch(rules, tt_bits=14).value(pos, Budget(nodes=nodes))
            assert r.lower <= exact.value <= r.upper
            # the node that finds the budget spent is counted too
            assert r.nodes <= nodes + 1
        assert not TrischakenSearch(rules, tt_bits=14).value(pos, Budget(nodes=1)).exact


def test_seconds_budget_stops_a_whole_deal_with_sound_bounds() -> None:
    rules = RULES[(True, True)]
    deal = random_deals(3, 1)[0]
    pos = trischaken_position(deal.hands, 0, 0, rules=rules)
    search = TrischakenSearch(rules, tt_bits=16)
    search.value(trischaken_position((m("T21"), m("T20"), m("T19")), 0, 0, rules=rules))
    r = search.value(pos, Budget(seconds=0.02))  # timed after a compile, if one is due
    assert r.seconds < 1.0
    exact = TrischakenSearch(rules, tt_bits=18).value(pos).value
    assert r.lower <= exact <= r.upper


def test_solve_trischaken_matches_the_reference() -> None:
    rules = RULES[(True, True)]
    hands = (m("T21", "HK", "S7"), m("T20", "HQ", "C7"), m("T1", "H4", "SK"))
    for seat in range(3):
        want = reference_trischaken(hands, 0, seat)
        assert solve_trischaken(hands, 0, seat, rules=rules).value == want


def test_profiles_without_trischaken_are_refused() -> None:
    hands = (m("T21"), m("T20"), m("T19"))
    with pytest.raises(RulesError, match="no Trischaken"):
        solve_trischaken(hands, 0, 0, rules=load_rules("beck"))
    with pytest.raises(RulesError, match="no Trischaken"):
        TrischakenSearch(load_rules("ms2016", {"all_pass": "trischaken"}))
    with pytest.raises(RulesError, match="talon"):
        TrischakenSearch(load_rules("dummett", {"trischaken_talon": "last_trick"}))


def test_illegal_trick_card_is_refused() -> None:
    # M could beat ♥J with ♥Q: playing ♥4 is legal in a contract game, not here
    hands = (m("S7", "S8"), m("HQ", "C7"), m("C8", "C9", "CK"))
    with pytest.raises(RulesError, match="Trischaken"):
        trischaken_position(hands, 0, 0, rules=RULES[(True, True)], trick=(c("HJ"), c("H4")))
