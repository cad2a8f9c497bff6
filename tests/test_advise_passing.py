"""What passing is worth: the others' bids by the policy, defending, the all-pass game."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from advise_fakes import FAST, all_trick_points, fake_trick_points

from tarock_solver.advise import AdviceLimit, AdviceRequest, advise
from tarock_solver.advise.bidding_policy import PassOutcome, policy_auction, policy_call
from tarock_solver.advise.exact import TrischakenRequest
from tarock_solver.advise.passing import make_passing
from tarock_solver.advise.sampling import World
from tarock_solver.advise.trischaken_nets import TrischakenNets
from tarock_solver.cards import thirds_of
from tarock_solver.estimate.bidding import BID_CONTRACTS
from tarock_solver.notation import parse_hand
from tarock_solver.rules import load_rules

WEAK = parse_hand("3,4,6.A432.A43.T87.T98")  # seat F: nothing to bid with
MONSTER = parse_hand("22,21,20,19,18,17,16,15,14,13,12.K.K.K.KQ")


def _values(**per_contract: float) -> np.ndarray:
    row = [per_contract.get(c, -50.0) for c in BID_CONTRACTS]
    return np.array([row, row, row], dtype=np.float64)


def fake_trischaken(request: TrischakenRequest) -> tuple[int, ...]:
    """Each seat's 'paranoid points': the points of its own hand (a stand-in)."""
    return tuple(thirds_of(request.hands[s]) // 3 for s in request.seats)


def test_policy_call_opens_with_the_best_and_then_goes_as_low_as_needed():
    vals = {"three": 5.0, "two": 12.0, "one": -3.0}
    assert policy_call(["pass", "three", "two", "one", "solo"], vals, None, False) == "two"
    # later: a hold, where the standing bid is one he would play
    assert policy_call(["pass", "two", "one", "hold"], vals, "two", True) == "hold"
    assert policy_call(["pass", "one", "solo"], vals, "two", True) == "pass"
    assert policy_call(["pass", "three", "two"], {"three": -1.0, "two": -2.0}, None,
                       False) == "pass"


def test_policy_auction_outcomes():
    rules = load_rules("dummett")
    hands = (WEAK, MONSTER, 0)
    # every value below 0: all pass, and the profile plays Trischaken
    assert policy_auction(rules, hands, 0, _values()) == PassOutcome(None, "trischaken")
    # M and R both want Three; M is senior and holds it: M declares
    out = policy_auction(rules, hands, 0, _values(three=4.0))
    assert out == PassOutcome(1, "three")
    # R goes higher than M will: R's Two
    vals = _values(three=4.0)
    vals[2, BID_CONTRACTS.index("two")] = 9.0
    assert policy_auction(rules, hands, 0, vals) == PassOutcome(2, "two")
    # all pass under a profile that redeals
    redeal = load_rules("dummett", {"all_pass": "redeal"})
    assert policy_auction(redeal, hands, 0, _values()) == PassOutcome(None, "redeal")
    # my own row is never read: I pass
    mine = _values()
    mine[0, :] = 100.0
    assert policy_auction(rules, hands, 0, mine).declarer is None


def test_trischaken_nets_are_zero_sum_and_follow_the_score():
    rules = load_rules("dummett")
    nets = [TrischakenNets(rules, s) for s in range(3)]
    rng = np.random.default_rng(4)
    for _ in range(200):
        v = tuple(int(x) for x in rng.integers(0, 40, 3))
        assert sum(n.net(v) for n in nets) == 0
    assert nets[0].net((30, 20, 10)) == -10  # the most points: the loser
    assert nets[2].net((30, 20, 10)) == 5
    assert nets[0].net((0, 30, 30)) == 20  # trickless, two tied losers
    assert nets[0].net((20, 20, 20)) == 0
    # the expectation over the evaluator's error: between the extremes, and symmetric
    e = np.array([25.0, 25.0, 25.0])
    assert abs(sum(n.expected(e, 62) for n in nets)) < 1e-9
    # (a trickless other makes the loser pay 15)
    assert -15 <= nets[0].expected(np.array([40.0, 10.0, 10.0]), 62) < -5


def test_pass_series_records_a_defenders_exact_net():
    rules = load_rules("dummett")
    pas = make_passing(rules, 0)
    # fix the others' bids: M declares Three on every world
    import tarock_solver.advise.passing as passing

    deck = np.random.default_rng(2).permutation(54)
    hands = tuple(sum(1 << int(c) for c in deck[16 * i:16 * i + 16]) for i in range(3))
    talon = tuple(int(c) for c in deck[48:])
    orig = passing.policy_auction
    try:
        passing.policy_auction = lambda r, h, me, values=None: PassOutcome(1, "three")
        pas.add_world(0, World(hands, talon), seed=1, inner=16, screen=4, keep=4,
                      discard_mode=rules.discard_tarock, reject_tarockless=True)
    finally:
        passing.policy_auction = orig
    request, j = pas.next_request()
    assert j == 0 and request[1] == 1
    task = pas.tasks[0]
    pas.record(0, task.in_play_points)  # the declarer takes every trick
    assert pas.exact[0] < -20  # a defender pays for a Three won with everything
    pas2 = make_passing(rules, 0)
    pas2.outcomes, pas2.tasks, pas2.hands = pas.outcomes, pas.tasks, pas.hands
    pas2.estimates, pas2.values, pas2.sets = pas.estimates, pas.values, pas.sets
    pas2.levels = pas.levels
    pas2.record(0, 0)  # ... or none
    assert pas2.exact[0] > 0


def _advise(hand, others, solve, *, samples=40, jobs=1, opponents="policy", seed=3,
            settings=FAST, contracts=None):
    return advise(AdviceRequest(hand=hand, seat=0, others=others, seed=seed, jobs=jobs,
                                limit=AdviceLimit(seconds=None, worlds=samples),
                                settings=settings, solve_batch=solve, contracts=contracts,
                                solve_trischaken=fake_trischaken, opponents=opponents))


def test_a_big_game_of_the_declarer_makes_passing_negative():
    adv = _advise(WEAK, (None, MONSTER, None), all_trick_points)
    row = next(r for r in adv.rows if r.kind == "pass")
    assert all(o["declarer"] == 1 for o in row.outcomes), row.outcomes
    assert row.net.exact >= 8 and row.net.has_se
    assert row.net.mean < -20
    assert math.isclose(sum(o["share"] for o in row.outcomes), 1.0)
    # --opponents pass: worth 0, by definition
    zero = _advise(WEAK, (None, MONSTER, None), all_trick_points, opponents="pass")
    assert not any(r.kind == "pass" for r in zero.rows)
    assert zero.table.set_index("contract").loc["pass", "mean_net"] == 0.0


def test_pass_outcome_shares_add_up_and_the_table_has_the_row():
    adv = _advise(WEAK, (None, None, None), fake_trick_points, samples=60)
    row = next(r for r in adv.rows if r.kind == "pass")
    assert math.isclose(sum(o["share"] for o in row.outcomes), 1.0)
    assert {o["contract"] for o in row.outcomes} <= {"trischaken", *BID_CONTRACTS}
    t = adv.table.set_index("contract").loc["pass"]
    assert math.isfinite(t["mean_net"]) and t["mean_net"] == pytest.approx(row.net.mean)
    # with every world's outcome exact, the estimate is the plain mean of the exact nets
    pas_worlds = row.net.exact
    assert pas_worlds >= 8


def test_passing_is_the_same_for_any_number_of_jobs():
    # the real card-point solver on threads (results arrive in any order), few solves
    few = replace(FAST, max_exact=8, birds=False)
    a = _advise(WEAK, (None, None, None), None, samples=24, jobs=1, settings=few,
                contracts=("three",))
    b = _advise(WEAK, (None, None, None), None, samples=24, jobs=2, settings=few,
                contracts=("three",))
    ra = next(r for r in a.rows if r.kind == "pass")
    rb = next(r for r in b.rows if r.kind == "pass")
    assert ra.net.exact == 8  # passing got its exact worlds, on two threads too
    assert ra.outcomes == rb.outcomes
    assert (ra.net.mean, ra.net.se, ra.net.exact) == (rb.net.mean, rb.net.se, rb.net.exact)
    assert a.recommendation.contract == b.recommendation.contract


def test_passing_over_a_seniors_three_defends_it():
    rules = load_rules("dummett")
    with pytest.raises(ValueError):
        make_passing(rules, 0, senior_three=True)
    deck = np.random.default_rng(5).permutation(54)
    hands = tuple(sum(1 << int(c) for c in deck[16 * i:16 * i + 16]) for i in range(3))
    world = World(hands, tuple(int(c) for c in deck[48:]))
    assert make_passing(rules, 1, senior_three=True).outcome(world) \
        == PassOutcome(0, "three")
    assert make_passing(rules, 2, senior_three=True).outcome(world) \
        .declarer in (0, 1)
    # middlehand's answer to a senior's Three weighs Lower against defending that Three
    adv = advise(AdviceRequest(hand=WEAK, seat=1, seed=2, jobs=1,
                               limit=AdviceLimit(seconds=None, worlds=30), settings=FAST,
                               solve_batch=fake_trick_points,
                               solve_trischaken=fake_trischaken))
    cond = adv.recommendation.if_senior_three
    assert cond is not None
    main = next(r for r in adv.rows if r.kind == "pass")
    if cond.contract == "pass":
        assert math.isfinite(cond.mean_net) and cond.mean_net != main.net.mean


def test_contras_with_every_world_exact_give_the_plain_exact_mean():
    """Plain play's net with the defenders' contras: with every world solved, the
    estimate is the plain mean of the exact nets at the level the policy reached."""
    from advise_fakes import request

    from tarock_solver.advise.problem import make_problem
    from tarock_solver.advise.schedule import Engine

    req = request(contracts=("three",), samples=16, opponents="pass",
                  settings=replace(FAST, max_exact=None, birds=False))
    adv = advise(req)
    eng = Engine(make_problem(req, req.rule_profile()), req.settings)
    for j in range(16):
        eng.evaluate_world(j)
    ser = eng.series["three"]
    pts = fake_trick_points([(t.hands, 0) for t in ser.tasks])
    nets = [ser.contra.scorer(lv).outcome(t, t.pile_thirds + 3 * p,
                                          3 * p == t.in_play_thirds).net[0]
            for t, p, lv in zip(ser.tasks, pts, ser.contra_levels, strict=True)]
    r = next(r for r in adv.rows if r.contract == "three" and r.kind == "plain")
    assert r.net_contras.mean == pytest.approx(float(np.mean(nets)))
    assert r.net_contras.has_se
    assert r.contra_share == pytest.approx(float(np.mean(np.array(ser.contra_levels) > 0)))
    # a contra doubles the game: the level changes the net wherever it was said
    assert any(lv > 0 for lv in ser.contra_levels)


def test_passing_with_every_world_exact_is_the_plain_exact_mean():
    """Every world of passing solved (fake solvers): its estimate is the plain mean of
    the exact nets, each scored from its world's own outcome."""
    from tarock_solver.advise.exact import ExactSolver
    from tarock_solver.advise.problem import make_problem
    from tarock_solver.advise.schedule import run_engine

    req = AdviceRequest(hand=WEAK, seat=0, seed=4, contracts=("three",),
                        limit=AdviceLimit(seconds=None, worlds=12),
                        settings=replace(FAST, max_exact=None, birds=False))
    rules = req.rule_profile()
    exact = ExactSolver(1, fake_trick_points, rules=rules, solve_trischaken=fake_trischaken)
    passing = make_passing(rules, 0)
    res = run_engine(make_problem(req, rules), req.settings, exact, req.limit, passing=passing)
    pas = res.series.passing
    assert len(pas.exact) == pas.worlds == 12
    expected = []
    for j in range(12):
        task = pas.tasks[j]
        if task is not None:
            (pts,) = fake_trick_points([(task.hands, task.declarer)])
            o = pas.scorer_of(j).outcome(task, task.pile_thirds + 3 * pts,
                                         3 * pts == task.in_play_thirds)
            expected.append(o.net[pas.sets[j]])
        else:
            expected.append(pas.trischaken.net(fake_trischaken(TrischakenRequest(pas.hands[j]))))
    est = pas.estimate(8)
    assert est.mean == pytest.approx(float(np.mean(expected)))
    assert est.has_se


def test_an_interrupt_inside_passing_drops_the_half_world():
    """Ctrl-C while passing's part of a world runs (its auction done, its value not):
    the run keeps the worlds complete everywhere, and its rows can still be made."""
    from tarock_solver.advise.problem import make_problem
    from tarock_solver.advise.rows import option_rows
    from tarock_solver.advise.schedule import Engine

    req = AdviceRequest(hand=WEAK, seat=0, seed=4, contracts=("three",), settings=FAST,
                        limit=AdviceLimit(seconds=None, worlds=6))
    rules = req.rule_profile()
    eng = Engine(make_problem(req, rules), req.settings, passing=make_passing(rules, 0))
    for j in range(5):
        eng.evaluate_world(j)
    pas = eng.passing

    def interrupted(j, world, **kw):
        pas.outcomes.append(pas.outcome(world))  # the auction, then Ctrl-C
        pas.hands.append(world.hands)
        raise KeyboardInterrupt

    pas.add_world = interrupted
    with pytest.raises(KeyboardInterrupt):
        eng.evaluate_world(5)
    assert eng.drop_partial_world() == 5
    ser = eng.series["three"]
    assert len(ser.estimates) == len(ser.contra_levels) == pas.worlds == len(pas.outcomes) == 5
    row = next(r for r in option_rows(eng.series) if r.kind == "pass")
    assert math.isclose(sum(o["share"] for o in row.outcomes), 1.0)
