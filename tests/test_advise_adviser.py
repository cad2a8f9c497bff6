"""The adviser's orchestration, with a cheap stand-in solver (tests/advise_fakes.py).

These tests check the method, not the solver: nested talon choice against
clairvoyance, common random numbers, reproducibility for any --jobs, the
anytime prefix, scoring consistency and the recommendation logic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from advise_fakes import all_trick_points, fake_trick_points, zero_trick_points

from tarock_solver.advise import AdviceRequest, RaceConfig, advise
from tarock_solver.advise.candidates import shortlist
from tarock_solver.advise.race import task_for
from tarock_solver.advise.report import compare
from tarock_solver.advise.rulesview import RulesView
from tarock_solver.advise.sampling import STREAM_WORLD, knowledge_from_hand, world_at
from tarock_solver.advise.world import WorldSolver
from tarock_solver.cards import round_points
from tarock_solver.notation import parse_hand, parse_talon
from tarock_solver.rules import load_rules
from tarock_solver.scoring import ScoreInput, score

DEMO = parse_hand("21,20,16,15,7,5,2,1.K.KQ.K97.Q9")
FAST = RaceConfig(schedule=(2, 4), talon_schedule=(2, 4, 8))


def request(**kw) -> AdviceRequest:
    base = dict(hand=DEMO, seat=0, samples=12, time_limit=None, seed=5,
                solve_batch=fake_trick_points, race=FAST, birds=False)
    base.update(kw)
    return AdviceRequest(**base)


def row(adv, contract: str, option: str = "plain"):
    t = adv.table
    r = t[(t["contract"] == contract) & (t["option"] == option)]
    assert len(r) == 1, (contract, option)
    return r.iloc[0]


def test_solo_mean_points_equal_the_mean_over_the_same_worlds() -> None:
    adv = advise(request(contracts=("solo",)))
    k = knowledge_from_hand(DEMO, 0)
    worlds = [world_at(k, 5, STREAM_WORLD, j) for j in range(12)]
    direct = fake_trick_points([(w.hands, 0) for w in worlds])
    assert row(adv, "solo")["mean_points"] == pytest.approx(np.mean(direct))
    assert row(adv, "solo")["samples"] == 12


def test_nets_are_the_scoring_calculators() -> None:
    """Solo: each world's net is score() of its card points; the table averages them."""
    adv = advise(request(contracts=("solo",)))
    rules = load_rules("dummett")
    k = knowledge_from_hand(DEMO, 0)
    nets, made = [], []
    for j in range(12):
        w = world_at(k, 5, STREAM_WORLD, j)
        pts = fake_trick_points([(w.hands, 0)])[0]
        res = score(rules, ScoreInput(contract="solo", declarer=0, declarer_thirds=3 * pts,
                                      declarer_hand=DEMO, dealt=w.hands))
        nets.append(res.net_declarer)
        made.append(res.made)
    r = row(adv, "solo")
    assert r["mean_net"] == pytest.approx(np.mean(nets))
    assert r["win_prob"] == pytest.approx(np.mean(made))
    assert r["mean_net_se"] == pytest.approx(np.std(nets, ddof=1) / math.sqrt(12))


def test_nested_talon_choice_is_not_clairvoyant() -> None:
    """The nested estimate of a Three stays below the per-world best exchange (clairvoyance)."""
    n = 16
    adv = advise(request(contracts=("three",), samples=n))
    nested = row(adv, "three")["mean_net"]
    view = RulesView(load_rules("dummett"))
    solver = WorldSolver(adv_problem := _problem_for(view, n))
    k = knowledge_from_hand(DEMO, 0)
    plan = adv_problem.plans[0]
    scorer = solver.scorers["three"]
    best = []
    for j in range(n):
        w = world_at(k, 5, STREAM_WORLD, j)
        cands = shortlist(DEMO, w.talon, "three", view.discard_mode, FAST.keep("three"))
        outs = solver.evaluator.outcomes([task_for(c, DEMO, w, 0, "three") for c in cands],
                                         scorer)
        best.append(max(o.net[0] for o in outs))
        assert plan.annsets[0] == ()
    clairvoyant = float(np.mean(best))
    print(f"nested {nested:.2f} <= clairvoyant {clairvoyant:.2f}")
    assert nested < clairvoyant


def _problem_for(view: RulesView, n: int):
    from tarock_solver.advise.plan import Problem, make_plans

    plans = make_plans(view, ("three",), DEMO)
    return Problem(knowledge_from_hand(DEMO, 0), 0, DEMO, view.rules, plans, 5, FAST, None,
                   fake_trick_points)


def test_same_seed_same_numbers_for_one_and_two_jobs() -> None:
    a = advise(request(jobs=1, samples=6))
    b = advise(request(jobs=2, samples=6))
    cols = ["contract", "option", "samples", "win_prob", "mean_net", "mean_net_se", "mean_points"]
    assert a.table[cols].fillna(-999).equals(b.table[cols].fillna(-999))
    assert a.recommendation == b.recommendation
    c = advise(request(jobs=1, samples=6, seed=6))
    assert not a.table["mean_net"].equals(c.table["mean_net"])


def test_time_limit_gives_a_prefix_of_the_same_worlds() -> None:
    full = advise(request(contracts=("solo", "three"), samples=8))
    short = advise(request(contracts=("solo", "three"), samples=3))
    assert row(short, "three")["samples"] == 3
    stats_full = {(s.contract, s.option): s for s in option_stats_of(full)}
    stats_short = {(s.contract, s.option): s for s in option_stats_of(short)}
    for key, s in stats_short.items():
        assert list(s.nets) == list(stats_full[key].nets[:3])


def option_stats_of(adv):
    return adv.options


def test_a_declarer_who_never_wins_should_pass() -> None:
    adv = advise(request(solve_batch=zero_trick_points, samples=4))
    assert adv.recommendation["contract"] == "pass"
    assert (adv.table[adv.table["kind"] == "plain"]["win_prob"] == 0).all()


def test_a_declarer_who_takes_every_trick_bids_and_announces() -> None:
    adv = advise(request(solve_batch=all_trick_points, samples=4))
    rec = adv.recommendation
    assert rec["contract"] != "pass"
    # Solo (×8) with Kramerpoi is the richest sure thing in the dummett profile.
    assert rec["contract"] == "solo" and rec["option"] == "kramerpoi@after"
    assert row(adv, "solo", "kramerpoi@after")["p_success"] == 1.0
    assert (adv.table[adv.table["kind"] == "plain"]["win_prob"] == 1).all()


def test_announcement_gain_is_the_paired_difference() -> None:
    adv = advise(request(contracts=("three",), samples=10))
    s = {(x.contract, x.option): x for x in option_stats_of(adv)}
    plain, abs_before = s[("three", "plain")], s[("three", "absolut@before")]
    c = compare(abs_before, plain)
    r = row(adv, "three", "absolut@before")
    assert r["gain"] == pytest.approx(abs_before.nets.mean() - plain.nets.mean())
    assert r["gain_se"] == pytest.approx(c.se)
    # Common random numbers: the paired error is smaller than the errors of the means.
    assert c.se < r["mean_net_se"] + row(adv, "three")["mean_net_se"]


def test_absolut_success_matches_the_points() -> None:
    adv = advise(request(contracts=("three",), samples=10))
    s = {(x.contract, x.option): x for x in option_stats_of(adv)}
    st = s[("three", "absolut@before")]
    assert list(st.success) == [p >= 40 for p in st.points]
    assert list(st.made) == list(st.success)


def test_given_talon_decides_once_and_evaluates_on_fresh_worlds() -> None:
    talon = parse_talon("D4,DJ,SQ,C8,CC,HJ")
    adv = advise(request(contracts=("three",), talon=talon, samples=6))
    ex = adv.exchanges
    assert ex is not None and ex["chosen"].sum() == 1
    chosen = ex[ex["chosen"]].iloc[0]
    assert chosen["talon_pick"] in ("1-3", "4-6")
    r = row(adv, "three")
    assert r["samples"] == 6
    assert r["talon_behaviour"] == f"takes {chosen['talon_pick']} 100%"
    assert "solo" not in set(adv.table["contract"])


def test_points_and_thirds_are_consistent_for_talon_contracts() -> None:
    adv = advise(request(contracts=("two",), samples=5))
    st = {(x.contract, x.option): x for x in option_stats_of(adv)}[("two", "plain")]
    assert all(0 <= p <= 70 for p in st.points)
    # Two: the declarer's pile is 3k + 2 cards, so his exact total is always whole + 2/3.
    assert all(t % 3 == 2 for t in st.thirds)
    assert [round_points(int(t)) for t in st.thirds] == list(st.points)


def test_no_kings_and_no_trull_are_judged_per_exchange() -> None:
    """A hand without Kings or Trull cards: the "no ..." items are offered and scored; an
    after-talon one is never announced after taking a King."""
    hand = parse_hand("20,19,18,17,16,15,14,13,12.QC.QC.QC.Q")
    adv = advise(request(hand=hand, contracts=("three",), samples=8))
    options = set(adv.table["option"])
    assert {"no_kings@after", "no_kings@before", "no_trull@after", "no_trull@before"} <= options
    st = {(x.contract, x.option): x for x in option_stats_of(adv)}
    r = row(adv, "three", "no_kings@after")
    assert 0 <= r["announce_rate"] <= 1
    # Before the talon it is always announced; it succeeds exactly when the game is made
    # and the taken group holds no King (dummett: a broken one loses the game).
    before = st[("three", "no_kings@before")]
    assert list(before.success) == list(before.made)


# --------------------------------------------------------------------------- birds


def bird_request(**kw) -> AdviceRequest:
    from advise_fakes import fake_game_points

    return request(birds=True, game_point_fn=fake_game_points, **kw)


def test_bird_rows_are_paired_game_point_differences() -> None:
    """Solo Pagat: gain and P(success) equal the stand-in game-point solver's, world by world."""
    from advise_fakes import fake_game_points

    adv = advise(bird_request(contracts=("solo",), samples=8))
    rules = load_rules("dummett")
    k = knowledge_from_hand(DEMO, 0)
    gains, wins = [], []
    for j in range(8):
        w = world_at(k, 5, STREAM_WORLD, j)
        args = dict(rules=rules, contract="solo", declarer_hand=DEMO, dealt=w.hands)
        base = fake_game_points(w.hands, 0, 0, **args).detail
        ann = fake_game_points(w.hands, 0, 0, announcements={"pagat": "after"}, **args).detail
        gains.append(ann.net_declarer - base.net_declarer)
        wins.append("pagat@decl:won" in ann.birds)
    r = row(adv, "solo", "pagat@after")
    assert r["kind"] == "bird" and r["samples"] == 8
    assert r["gain"] == pytest.approx(np.mean(gains))
    assert r["gain_se"] == pytest.approx(np.std(gains, ddof=1) / math.sqrt(8))
    assert r["p_success"] == pytest.approx(np.mean(wins))
    assert r["announce_rate"] == 1.0
    assert adv.meta["bird_worlds"] == {"solo": 8}
    # The hand holds no Kakadu, so Solo offers no Kakadu row; bird rows never win the bid.
    assert "kakadu@after" not in set(adv.table[adv.table["contract"] == "solo"]["option"])
    assert adv.recommendation["option"] in set(adv.table[adv.table["kind"] != "bird"]["option"])


def test_bird_levels_follow_the_hand_and_the_talon() -> None:
    """Three: Pagat and Uhu (held) before and after the talon; the Kakadu only after, when
    it comes with the taken talon cards, so it is announced in some worlds only."""
    adv = advise(bird_request(contracts=("three",), samples=8))
    options = set(adv.table[adv.table["kind"] == "bird"]["option"])
    assert {"pagat@before", "pagat@after", "uhu@before", "uhu@after"} <= options
    assert "kakadu@before" not in options
    assert row(adv, "three", "pagat@before")["announce_rate"] == 1.0
    kakadu = row(adv, "three", "kakadu@after")
    assert 0 <= kakadu["announce_rate"] < 1


def test_birds_of_world_j_run_after_the_card_point_units_of_world_j_plus_1() -> None:
    """Round robin: every contract's world j+1 comes before the birds of world j."""
    from advise_fakes import fake_game_points

    from tarock_solver.advise.evaluate import CardPointEvaluator
    from tarock_solver.advise.plan import Problem, bird_plans, make_plans
    from tarock_solver.advise.schedule import WorldRunner

    view = RulesView(load_rules("dummett"))
    plans = make_plans(view, ("solo", "three", "two"), DEMO)
    k = knowledge_from_hand(DEMO, 0)
    problem = Problem(k, 0, DEMO, view.rules, plans, 5, FAST, None, fake_trick_points,
                      bird_plans(view, plans, k, 0), fake_game_points)
    runner = WorldRunner(problem, 1, None, CardPointEvaluator(fake_trick_points))
    seen: list[tuple[str, int, tuple[str, ...]]] = []
    runner.run(3, (), lambda r: seen.append((r.kind, r.index, tuple(r.contracts or r.birds))))
    first_birds = {}
    last_world = {}
    for pos, (kind, j, _) in enumerate(seen):
        if kind == "birds":
            first_birds.setdefault(j, pos)
        else:
            last_world[j] = pos
    assert set(first_birds) == {0, 1, 2}
    for j in (0, 1):
        assert last_world[j + 1] < first_birds[j]
    assert first_birds[0] < first_birds[1] < first_birds[2]


def test_same_seed_same_birds_for_one_and_two_jobs() -> None:
    a = advise(bird_request(jobs=1, samples=4, contracts=("solo", "three")))
    b = advise(bird_request(jobs=2, samples=4, contracts=("solo", "three")))
    cols = ["contract", "option", "kind", "samples", "mean_net", "gain", "p_success"]
    assert a.table[cols].fillna(-999).equals(b.table[cols].fillna(-999))


def test_a_time_limit_too_short_for_anything_lists_every_contract() -> None:
    from tarock_solver.advise.evaluate import CardPointEvaluator

    adv = advise(request(time_limit=1e-9, samples=5), CardPointEvaluator(fake_trick_points))
    rec = adv.recommendation
    assert rec["contract"] == "pass" and rec["tentative"]
    assert rec["no_worlds"] == ["solo", "three", "lower", "two", "one"]
    assert adv.meta["worlds"] == {c: 0 for c in rec["no_worlds"]}


def test_birds_over_the_node_budget_are_left_out_and_counted() -> None:
    from dataclasses import replace

    from tarock_solver.cards import TAROCK_MASK

    full = advise(bird_request(contracts=("solo",), samples=10,
                               race=replace(FAST, bird_nodes=None)))
    capped = advise(bird_request(contracts=("solo",), samples=10,
                                 race=replace(FAST, bird_nodes=5500)))
    k = knowledge_from_hand(DEMO, 0)
    over = [(world_at(k, 5, STREAM_WORLD, j).hands[1] & TAROCK_MASK).bit_count() > 5
            for j in range(10)]
    assert 0 < sum(over) < 10  # the budget bites in some worlds only
    assert capped.meta["bird_worlds"] == {"solo": 10}
    assert capped.meta["bird_worlds_over_budget"] == {"solo": sum(over)}
    assert full.meta["bird_worlds_over_budget"] == {"solo": 0}
    assert row(capped, "solo", "pagat@after")["samples"] == 10 - sum(over)
    assert row(full, "solo", "pagat@after")["samples"] == 10


def test_a_rules_object_answers_like_the_named_profile_and_reaches_the_workers() -> None:
    """The rules travel as one loaded object (pickled to spawned workers), overrides kept."""
    import pickle

    overrides = {"win_thirds": "106"}
    rules = load_rules("dummett", overrides)
    assert pickle.loads(pickle.dumps(rules)) == rules
    named = advise(request(contracts=("solo", "one"), samples=4, overrides=overrides))
    loaded = advise(request(contracts=("solo", "one"), samples=4, rules=rules, jobs=2,
                            time_limit=600.0))
    cols = ["contract", "option", "samples", "win_prob", "mean_net", "mean_points",
            "rule_options"]
    assert named.table[cols].fillna(-999).equals(loaded.table[cols].fillna(-999))
    assert loaded.table["rule_options"].iloc[0] == rules.describe_overrides() != ""
