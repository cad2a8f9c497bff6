"""The adviser with the real double-dummy solver.

Full 16-trick solves are still slow (seconds each), so the CI checks use
hands that search fast and few worlds; the heavier checks are marked slow.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.advise import AdviceRequest, RaceConfig, advise
from tarock_solver.advise.sampling import STREAM_WORLD, knowledge_from_hand, world_at
from tarock_solver.notation import parse_hand
from tarock_solver.solver import solve_position

#: Trull, four Kings and nine more tarocks.
STRONG = parse_hand("22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K")
#: No tarock above IX, no King, no Queen.
HOPELESS = parse_hand("9,8,7,6,5.432.A43.987.T9")
SMALL = RaceConfig(per_group=(("three", 2), ("lower", 2), ("two", 1), ("one", 1)),
                   schedule=(2,), talon_schedule=(2, 4))


@pytest.fixture(autouse=True)
def _slow_only_when_selected(request):
    """Slow checks run only when asked for with ``-m slow`` (they take minutes)."""
    if request.node.get_closest_marker("slow") and "slow" not in (
            request.config.getoption("markexpr") or ""):
        pytest.skip("slow: run with -m slow")


def solo(hand: int, samples: int, seed: int = 1, **kw):
    kw.setdefault("birds", False)
    return advise(AdviceRequest(hand=hand, seat=0, contracts=("solo",), samples=samples,
                                time_limit=None, seed=seed, race=SMALL, **kw))


@pytest.fixture(scope="module")
def strong_solo():
    return solo(STRONG, 10)


def plain_row(adv, contract: str):
    t = adv.table
    return t[(t["contract"] == contract) & (t["option"] == "plain")].iloc[0]


def test_solo_points_equal_solve_position_on_the_same_worlds(strong_solo) -> None:
    k = knowledge_from_hand(STRONG, 0)
    direct = [solve_position(world_at(k, 1, STREAM_WORLD, j).hands, 0, 0) for j in range(10)]
    assert plain_row(strong_solo, "solo")["mean_points"] == pytest.approx(np.mean(direct))
    # exact solves (no evaluation left as bounds), so the means agree exactly
    assert strong_solo.meta["work"]["solo"]["bounded_evaluations"] == 0


def test_a_very_strong_hand_makes_its_solo(strong_solo) -> None:
    """Trull, four Kings and the other nine tarocks it can hold (16 cards: "14 tarocks"
    and four Kings do not fit in a hand) make the Solo in every one of 10 worlds."""
    r = plain_row(strong_solo, "solo")
    assert r["samples"] == 10
    assert r["win_prob"] > 0.95
    assert strong_solo.recommendation["contract"] == "solo"


def test_a_hopeless_solo_loses_and_the_advice_is_to_pass() -> None:
    adv = solo(HOPELESS, 3)
    assert plain_row(adv, "solo")["win_prob"] == 0
    assert adv.recommendation["contract"] == "pass"


@pytest.mark.slow
def test_a_hopeless_hand_passes_in_every_contract() -> None:
    adv = advise(AdviceRequest(hand=HOPELESS, seat=0, samples=4, time_limit=None, race=SMALL,
                               birds=False))
    assert adv.recommendation["contract"] == "pass"
    plain = adv.table[adv.table["kind"] == "plain"]
    assert (plain["mean_net"] < 0).all()


def test_a_fourth_king_does_not_lower_solo_points() -> None:
    """Adding a King (for a low spade) never lowers E[card points] of Solo beyond 2 SE."""
    three_kings = parse_hand("22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.7")
    with_king = parse_hand("22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K")
    a = plain_row(solo(three_kings, 12), "solo")
    b = plain_row(solo(with_king, 12), "solo")
    se = np.hypot(a["mean_points_se"], b["mean_points_se"])
    assert b["mean_points"] >= a["mean_points"] - 2 * se


def test_nested_three_is_below_the_clairvoyant_estimate_with_the_solver() -> None:
    from tarock_solver.advise.candidates import shortlist
    from tarock_solver.advise.plan import Problem, make_plans
    from tarock_solver.advise.race import task_for
    from tarock_solver.advise.rulesview import RulesView
    from tarock_solver.advise.world import WorldSolver
    from tarock_solver.rules import load_rules

    hand = STRONG
    n = 6
    adv = advise(AdviceRequest(hand=hand, seat=0, contracts=("three",), samples=n,
                               time_limit=None, seed=2, race=SMALL, birds=False))
    nested = plain_row(adv, "three")["mean_net"]
    view = RulesView(load_rules("dummett"))
    plans = make_plans(view, ("three",), hand)
    ws = WorldSolver(Problem(knowledge_from_hand(hand, 0), 0, hand, view.rules, plans, 2,
                             SMALL, None))
    k = knowledge_from_hand(hand, 0)
    best = []
    for j in range(n):
        w = world_at(k, 2, STREAM_WORLD, j)
        cands = shortlist(hand, w.talon, "three", view.discard_mode, SMALL.keep("three"))
        outs = ws.evaluator.outcomes([task_for(c, hand, w, 0, "three") for c in cands],
                                     ws.scorers["three"])
        best.append(max(o.net[0] for o in outs))
    print(f"nested {nested:.2f} <= clairvoyant {np.mean(best):.2f}")
    assert nested <= np.mean(best)
