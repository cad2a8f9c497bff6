"""Auction engine: every RULES.md 10.5 vector, the profile rules of section 6, illegal calls."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from tarock_solver.auction import (
    ACCEPT,
    DROP_CALLS,
    HOLD,
    PASS,
    RETAKE,
    TAKEOVER,
    Auction,
    may_ever_call,
    run_auction,
)
from tarock_solver.errors import RulesError, TarockError
from tarock_solver.rules import load_rules

F, M, R = 0, 1, 2


def profile(name: str, **overrides) -> SimpleNamespace:
    """The auction-relevant keys of a profile, copied from the RULES.md 12 table."""
    table = {
        "dummett": dict(takeover_mode="lower_bid", hold_rule="seniority", solo_holdable=True,
                        jump_bids="any", all_pass="trischaken",
                        game_values=(3, 4, 3, 3, 3), raised_game_values=None),
        "beck": dict(takeover_mode="beck_once", hold_rule="takeover_only", solo_holdable=False,
                     jump_bids="any", all_pass="redeal",
                     game_values=(3, None, 3, 3, 3), raised_game_values=(4, 5)),
        "ms2016": dict(takeover_mode="none", hold_rule="none", solo_holdable=False,
                       jump_bids="any", all_pass="redeal",
                       game_values=(3, None, 5, 7, 10), raised_game_values=None),
        "loew": dict(takeover_mode="loew_any", hold_rule="takeover_only", solo_holdable=False,
                     jump_bids="any", all_pass="redeal",
                     game_values=(3, None, 3, 3, 8), raised_game_values=(4, 5)),
    }
    return SimpleNamespace(name=name, **{**table[name], **overrides})


def game(auction: Auction):
    r = auction.result
    assert r is not None and r.is_game
    return r.declarer, r.contract, r.level, r.game_value


# ---------------------------------------------------------------- RULES 10.5 vectors


def test_dummett_all_pass_is_trischaken():
    a = run_auction(profile("dummett"), ["F pass", "M pass", "R pass"])
    assert a.is_over and a.result.outcome == "trischaken" and a.result.declarer is None


def test_dummett_three_passed_out():
    a = run_auction(profile("dummett"), ["F Three", "M pass", "R pass"])
    assert game(a) == (F, "three", None, 3)


def test_dummett_lower_held_by_senior():
    a = run_auction(profile("dummett"), ["F Three", "M Lower", "R pass", "F hold", "M pass"])
    assert game(a) == (F, "lower", None, 4)


def test_dummett_lower_held_then_overcalled():
    a = run_auction(profile("dummett"),
                    ["F pass", "M Three", "R Lower", "M hold", "R Two", "M pass"])
    assert game(a) == (R, "two", None, 3)


def test_dummett_held_solo_by_most_senior_ends_auction():
    a = Auction(profile("dummett"))
    for c in ["F Three", "M Solo", "R pass"]:
        a.call(c)
    assert not a.is_over and a.legal_calls() == [PASS, HOLD]
    a.call("F hold")
    assert a.is_over and game(a) == (F, "solo", None, 3)


def test_dummett_lower_must_beat_two():
    a = run_auction(profile("dummett"), ["F Three", "M Two"])
    assert a.to_move == R and "lower" not in a.legal_calls()
    with pytest.raises(RulesError, match="Lower must beat the current bid"):
        a.call("Lower")
    assert a.to_move == R and len(a.history) == 2  # a refused call changes nothing


def test_dummett_rearhand_may_bid_lower_over_senior_three_forehand_silenced():
    a = run_auction(profile("dummett"), ["F pass", "M Three"])
    assert a.to_move == R and "lower" in a.legal_calls()
    with pytest.raises(RulesError, match="F has dropped out and may no longer speak"):
        a.call("F Two")
    a.call("R Lower")
    assert a.to_move == M  # F is skipped for good


def test_beck_unterer_held():
    a = run_auction(profile("beck"), ["F Dreiblatt", "M Unterer", "F hold", "M accept",
                                      "R accept"])
    assert game(a) == (F, "three", "held", 5)


def test_loew_take_over_hold_retake():
    a = run_auction(profile("loew"), ["F 3 Blatt", "M takes over", "F holds", "M retakes",
                                      "F accepts", "R accepts"])
    assert game(a) == (M, "three", "retaken", 5)


@pytest.mark.parametrize("name, value", [("loew", 8), ("beck", 3), ("ms2016", 10)])
def test_opening_solo_ends_auction(name, value):
    a = run_auction(profile(name), ["F Solo"])
    assert a.is_over and game(a) == (F, "solo", None, value)
    with pytest.raises(RulesError, match="the auction is over"):
        a.call("pass")


def test_ms2016_jump_bid():
    a = run_auction(profile("ms2016"), ["F Dreiblatt", "M Einblatt", "R accepts", "F accepts"])
    assert game(a) == (M, "one", None, 7)


# ---------------------------------------------------------------- dummett details


def test_dummett_opening_calls_and_no_lower_without_three():
    a = Auction(profile("dummett"))
    assert a.legal_calls() == [PASS, "three", "two", "one", "solo"]
    with pytest.raises(RulesError, match="Lower"):
        a.call("lower")


def test_dummett_junior_cannot_hold():
    a = run_auction(profile("dummett"), ["F Two"])
    assert HOLD not in a.legal_calls()
    with pytest.raises(RulesError, match="junior"):
        a.call("hold")


def test_dummett_last_player_bidding_after_two_passes_ends_auction():
    a = run_auction(profile("dummett"), ["F pass", "M pass", "R Three"])
    assert game(a) == (R, "three", None, 3)


def test_dummett_senior_may_hold_a_junior_solo():
    a = run_auction(profile("dummett"), ["F pass", "M Two", "R Solo"])
    assert not a.is_over and a.to_move == M and a.legal_calls() == [PASS, HOLD]
    a.call("hold")
    assert game(a) == (M, "solo", None, 3)


def test_dummett_solo_holdable_switch():
    open_ = run_auction(profile("dummett"), ["F Three", "M Solo"])
    assert open_.to_move == R and open_.legal_calls() == [PASS]
    open_.call("pass")
    assert open_.to_move == F and HOLD in open_.legal_calls()
    closed = run_auction(profile("dummett", solo_holdable=False), ["F Three", "M Solo"])
    assert closed.is_over and game(closed) == (M, "solo", None, 3)


def test_dummett_hold_needs_bid():
    a = Auction(profile("dummett"))
    with pytest.raises(RulesError, match="no bid to hold"):
        a.call("hold")


def test_dummett_one_step_bidding():
    a = run_auction(profile("dummett", jump_bids="one_step"), ["F Three"])
    assert a.legal_calls() == [PASS, "lower", "two"]
    with pytest.raises(RulesError, match="jump_bids=one_step"):
        a.call("One")
    a.call("Two")
    assert a.legal_calls() == [PASS, "one"]


def test_turn_order_skips_passed_players():
    a = run_auction(profile("dummett"), ["F Three", "M pass", "R Two"])
    assert a.to_move == F
    a.call("hold")
    assert a.to_move == R
    a.call("One")
    assert a.to_move == F
    a.call("pass")
    assert game(a) == (R, "one", None, 3)


@pytest.mark.parametrize("all_pass", ["redeal", "graz_keep_talon", "trischaken"])
def test_all_pass_option(all_pass):
    a = run_auction(profile("dummett", all_pass=all_pass), ["F pass", "M pass", "R pass"])
    assert a.result.outcome == all_pass and not a.result.is_game


# ---------------------------------------------------------------- beck details


def test_beck_unterer_reply_is_immediate_and_accept_gives_taken():
    a = run_auction(profile("beck"), ["F Dreiblatt", "M Unterer"])
    assert a.to_move == F and a.legal_calls() == [ACCEPT, HOLD, "two", "one", "solo"]
    with pytest.raises(RulesError, match="R may not speak now"):
        a.call("R accept")
    a.call("accept")
    assert a.to_move == R
    a.call("gut")
    assert game(a) == (M, "three", "taken", 4)


def test_beck_only_one_unterer_and_no_retake():
    a = run_auction(profile("beck"), ["F Dreiblatt", "M Unterer", "F hold"])
    assert a.to_move == M and a.legal_calls() == [ACCEPT, "two", "one", "solo"]
    with pytest.raises(RulesError, match="no retake"):
        a.call("retake")
    a.call("accept")
    with pytest.raises(RulesError, match="only one take-over"):
        a.call("Unterer")


def test_beck_unterer_only_against_dreiblatt():
    a = run_auction(profile("beck"), ["F Zweiblatt"])
    assert TAKEOVER not in a.legal_calls()
    with pytest.raises(RulesError, match="only possible against a Dreiblatt"):
        a.call("Unterer")


def test_beck_original_bidder_overcalls_after_unterer():
    a = run_auction(profile("beck"), ["F Dreiblatt", "M Unterer", "F Zweiblatt", "M accept",
                                      "R accept"])
    assert game(a) == (F, "two", None, 3)


def test_beck_rearhand_unterer_after_middlehand_accepts():
    a = run_auction(profile("beck"), ["F Dreiblatt", "M accept", "R Unterer", "F accept"])
    assert game(a) == (R, "three", "taken", 4)


def test_beck_no_lower_contract():
    a = Auction(profile("beck"))
    with pytest.raises(RulesError, match="has no Lower contract"):
        a.call("lower")


def test_beck_all_pass_redeal():
    a = run_auction(profile("beck"), ["F pass", "M pass", "R pass"])
    assert a.result.outcome == "redeal"


# ---------------------------------------------------------------- loew and ms2016 details


def test_loew_hold_accepted_plays_at_four():
    a = run_auction(profile("loew"), ["F 2 Blatt", "M Ablösung", "F mein Spiel"])
    assert a.to_move == M and RETAKE in a.legal_calls()
    a.call("accept")
    assert a.to_move == R and RETAKE not in a.legal_calls()
    a.call("accept")
    assert game(a) == (F, "two", "held", 4)


def test_loew_retake_reply_has_no_hold():
    a = run_auction(profile("loew"), ["F 3 Blatt", "M takes over", "F holds", "M retakes"])
    assert a.to_move == F and a.legal_calls() == [ACCEPT, "two", "one", "solo"]
    with pytest.raises(RulesError, match="must first answer"):
        a.call("hold")


def test_loew_solo_cannot_be_taken_over_or_held():
    a = run_auction(profile("loew"), ["F pass", "M Solo"])
    assert a.is_over and game(a) == (M, "solo", None, 8)


def test_loew_retake_only_on_next_turn():
    a = run_auction(profile("loew"), ["F pass", "M 3 Blatt", "R takes over", "M holds"])
    assert a.to_move == R and RETAKE in a.legal_calls()
    a.call("Two")
    assert a.to_move == M and RETAKE not in a.legal_calls()


def test_ms2016_no_hold_no_takeover():
    a = run_auction(profile("ms2016"), ["F Dreiblatt"])
    assert a.legal_calls() == [ACCEPT, "two", "one", "solo"]
    for bad, msg in (("hold", "no hold"), ("Unterer", "no take-over"), ("Dreiblatt", "must beat")):
        with pytest.raises(RulesError, match=msg):
            a.call(bad)


# ---------------------------------------------------------------- input handling


def test_unknown_call_message():
    a = Auction(profile("dummett"))
    with pytest.raises(RulesError, match='unknown call "double"'):
        a.call("double")
    with pytest.raises(TarockError, match='unknown seat "X"'):
        a.call("pass", seat="X")


def test_pass_and_accept_are_the_same_call():
    a = run_auction(profile("ms2016"), ["F pass"])  # nothing stands yet: pass
    a.call("M Dreiblatt")
    a.call("R pass")  # pass against a standing bid = accept
    assert game(a) == (M, "three", None, 3)
    assert [c for _, c in a.history] == [PASS, "three", ACCEPT]


@pytest.mark.parametrize("key, value", [("takeover_mode", "sometimes"), ("hold_rule", "x"),
                                        ("jump_bids", "two"), ("all_pass", "replay"),
                                        ("solo_holdable", "maybe")])
def test_bad_option_values(key, value):
    with pytest.raises(RulesError, match=key):
        Auction(profile("dummett", **{key: value}))


def test_missing_options_and_missing_game_values():
    with pytest.raises(RulesError, match="lacks the option"):
        Auction(SimpleNamespace(name="x", takeover_mode="none"))
    bare = SimpleNamespace(takeover_mode="lower_bid", hold_rule="seniority",
                           solo_holdable="true", jump_bids="any", all_pass="trischaken")
    a = run_auction(bare, ["F Three", "M Lower", "R pass", "F pass"])
    assert game(a) == (M, "lower", None, None)


def test_game_values_as_mapping():
    rules = profile("ms2016", game_values={"three": 3, "two": 5, "one": 7, "solo": 10})
    a = run_auction(rules, ["F Zweiblatt", "M gut", "R gut"])
    assert game(a) == (F, "two", None, 5)


# ---------------------------------------------------------------- random auctions


@pytest.mark.parametrize("name", ["dummett", "beck", "ms2016", "loew"])
def test_random_auctions_terminate_consistently(name):
    rng = random.Random(7)
    rules = profile(name)
    all_calls = [PASS, ACCEPT, HOLD, TAKEOVER, RETAKE, "three", "lower", "two", "one", "solo"]
    for _ in range(400):
        a = Auction(rules)
        steps = 0
        while not a.is_over:
            legal = a.legal_calls()
            assert legal and legal[0] in DROP_CALLS
            # Every call outside the legal list is refused and leaves the state unchanged.
            for bad in set(all_calls) - set(legal) - set(DROP_CALLS):
                with pytest.raises(RulesError):
                    a.call(bad)
            before = (a.to_move, list(a.active), a.bid)
            a.call(rng.choice(legal))
            assert before != (a.to_move, list(a.active), a.bid)
            steps += 1
            assert steps <= 20
        r = a.result
        if r.is_game:
            assert a.active[r.declarer]
            assert r.game_value is not None
            if name == "dummett":
                assert r.level is None
        else:
            assert not any(a.active) and r.outcome == rules.all_pass


# ---------------------------------------------------------------- with the real rules objects

VECTORS_10_5 = [
    ("dummett", ["F pass", "M pass", "R pass"], ("trischaken", None, None, None, None)),
    ("dummett", ["F Three", "M pass", "R pass"], ("game", F, "three", None, 3)),
    ("dummett", ["F Three", "M Lower", "R pass", "F hold", "M pass"],
     ("game", F, "lower", None, 4)),
    ("dummett", ["F pass", "M Three", "R Lower", "M hold", "R Two", "M pass"],
     ("game", R, "two", None, 3)),
    ("dummett", ["F Three", "M Solo", "R pass", "F hold"], ("game", F, "solo", None, 3)),
    ("beck", ["F Dreiblatt", "M Unterer", "F hold", "M accept", "R accept"],
     ("game", F, "three", "held", 5)),
    ("loew", ["F 3 Blatt", "M takes over", "F holds", "M retakes", "F accepts", "R accepts"],
     ("game", M, "three", "retaken", 5)),
    ("loew", ["F Solo"], ("game", F, "solo", None, 8)),
    ("beck", ["F Solo"], ("game", F, "solo", None, 3)),
    ("ms2016", ["F Solo"], ("game", F, "solo", None, 10)),
    ("ms2016", ["F Dreiblatt", "M Einblatt", "R accepts", "F accepts"],
     ("game", M, "one", None, 7)),
]


@pytest.mark.parametrize("name, calls, expected", VECTORS_10_5)
def test_vectors_with_load_rules(name, calls, expected):
    for rules in (load_rules(name), profile(name)):
        r = run_auction(rules, calls).result
        assert (r.outcome, r.declarer, r.contract, r.level, r.game_value) == expected


@pytest.mark.parametrize("name", ["dummett", "beck", "ms2016", "loew"])
def test_test_table_matches_load_rules(name):
    real, copy = load_rules(name), profile(name)
    for key in ("takeover_mode", "hold_rule", "solo_holdable", "jump_bids", "all_pass",
                "game_values", "raised_game_values"):
        assert getattr(real, key) == getattr(copy, key), key
    options = Auction(real).options
    assert options.contracts == real.contracts
    # The auction's G agrees with Rules.game_value for every level the profile knows.
    for contract in real.contracts:
        for level in (None, *real.levels(contract)):
            assert options.game_value(contract, level) == real.game_value(contract, level)


def test_overrides_through_load_rules():
    rules = load_rules("dummett", {"solo_holdable": "false", "jump_bids": "one_step"})
    a = run_auction(rules, ["F Three", "M Lower"])
    assert a.legal_calls() == [PASS, "two"]  # R: no jump to One, no Lower over a Lower
    b = run_auction(rules, ["F Three", "M Lower", "R Two", "F One", "M Solo"])
    assert game(b) == (M, "solo", None, 3)  # F is senior but cannot hold a Solo now
    beck_all_pass = load_rules("beck", {"all_pass": "trischaken"})
    assert run_auction(beck_all_pass, ["F pass", "M pass", "R pass"]).result.outcome == \
        "trischaken"


def test_who_may_ever_bid_lower():
    """Only Dummett's lower_bid auction has a Lower, and only over a senior's Three."""
    dummett = load_rules("dummett")
    assert [may_ever_call(dummett, s, "lower") for s in range(3)] == [False, True, True]
    assert all(may_ever_call(dummett, s, "three") for s in range(3))
    # a positive control the search must find: R's Lower over M's Three after F passes
    assert "lower" in run_auction(dummett, ["F pass", "M Three"]).legal_calls()
    for name in ("beck", "ms2016", "loew"):
        assert not any(may_ever_call(load_rules(name), s, "lower") for s in range(3))
