"""The adviser's solve economy with the real solver: first guesses, the make test, node
budgets with honest bounds, the race budget, and determinism despite budgets.

Positions are kept cheap (8-card endings for the bounded searches; a very strong hand,
whose full deals search fast, for whole advice runs).
"""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.advise import AdviceRequest, RaceConfig, advise
from tarock_solver.advise.evaluate import Scorer
from tarock_solver.advise.plan import Problem, make_plans
from tarock_solver.advise.rulesview import RulesView
from tarock_solver.advise.sampling import knowledge_from_hand
from tarock_solver.advise.world import WorldSolver
from tarock_solver.cards import indices_of, mask_of
from tarock_solver.deal import random_deals
from tarock_solver.notation import parse_hand
from tarock_solver.rules import load_rules
from tarock_solver.solver import Budget, CardPointSearch, Position, remaining_points

STRONG = parse_hand("22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K")
SMALL = RaceConfig(per_group=(("three", 2), ("lower", 2), ("two", 1), ("one", 1)),
                   schedule=(2, 4), talon_schedule=(2, 4))


def endings(n: int, cards: int = 8) -> list[tuple[tuple[int, int, int], int]]:
    """``n`` positions of ``cards`` cards per hand cut from seeded deals, declarer i % 3."""
    out = []
    for i, deal in enumerate(random_deals(7, n)):
        hands = tuple(mask_of(indices_of(h)[:cards]) for h in deal.hands)
        out.append((hands, i % 3))
    return out


@pytest.fixture(scope="module")
def exact_values():
    search = CardPointSearch(16)
    positions = [Position(h, 0, d) for h, d in endings(12)]
    return positions, [search.value(p).value for p in positions]


def test_the_search_without_budget_is_exact_for_any_guess_and_first_test(exact_values):
    """What the evaluator relies on: a first guess or a first test never changes the value."""
    positions, values = exact_values
    search = CardPointSearch(16)
    for pos, v in zip(positions, values, strict=True):
        for guess, first in ((None, None), (0, None), (v, None), (v + 7, 30), (3, v),
                             (50, v + 1)):
            r = search.value(pos, guess=guess, first_test=first)
            assert (r.lower, r.upper) == (v, v), (guess, first)
            assert r.tests >= 1 and r.nodes > 0
        search.clear()


def test_a_node_budget_gives_valid_bounds_and_keeps_the_make_test(exact_values):
    positions, values = exact_values
    search = CardPointSearch(16)
    bounded = 0
    for pos, v in zip(positions, values, strict=True):
        search.clear()
        threshold = max(1, v - 2 + (pos.declarer % 3) * 2)
        r = search.value(pos, Budget(nodes=60), first_test=threshold)
        assert r.lower <= v <= r.upper
        bounded += not r.exact
        if (r.lower, r.upper) != (0, remaining_points(pos)):
            # the first test finished: make/fail at the threshold is known
            assert r.at_least(threshold) is not None
    assert bounded > 0  # the budget did bite, so the bounds were really tested


def test_make_threshold_is_the_smallest_making_point_count() -> None:
    from tarock_solver.advise.candidates import shortlist
    from tarock_solver.advise.race import task_for
    from tarock_solver.advise.sampling import World

    view = RulesView(load_rules("dummett"))
    deal = random_deals(3, 1)[0]
    world = World(deal.hands, deal.talon)
    for contract in ("solo", "three", "two", "one"):
        scorer = Scorer(contract, 0, [()], view.score_fn())
        ex = None if contract == "solo" else shortlist(deal.hands[0], deal.talon, contract,
                                                       view.discard_mode, 1)[0]
        task = task_for(ex, deal.hands[0], world, 0, contract)
        pile = task.pile_thirds
        assert pile + task.in_play_thirds <= 210
        total = task.in_play_thirds // 3
        made = [bool(scorer.outcome(task, pile + 3 * p, 3 * p == task.in_play_thirds).made[0])
                for p in range(total + 1)]
        expected = made.index(True) if any(made) else None
        assert scorer.make_threshold(task) == expected
        assert all(made[expected:]) and not any(made[:expected])


def strong_request(**kw) -> AdviceRequest:
    base = dict(hand=STRONG, seat=0, samples=3, time_limit=None, seed=4, race=SMALL, birds=False)
    base.update(kw)
    return AdviceRequest(**base)


def test_evaluations_over_their_budget_are_counted_and_reported() -> None:
    race = RaceConfig(per_group=SMALL.per_group, schedule=(2,), eval_nodes=1)
    adv = advise(strong_request(contracts=("solo",), race=race))
    work = adv.meta["work"]["solo"]
    assert work["bounded_evaluations"] == 3 == adv.meta["worlds"]["solo"]
    assert work["eval"]["bounded"] == 3 and work["eval"]["exact"] == 0
    # without the budget the same worlds are exact
    exact = advise(strong_request(contracts=("solo",)))
    assert exact.meta["work"]["solo"]["bounded_evaluations"] == 0


def test_the_race_budget_ends_a_race_after_its_first_round() -> None:
    race = RaceConfig(per_group=SMALL.per_group, schedule=(2, 4), race_budget=1)
    adv = advise(strong_request(contracts=("three",), race=race))
    assert adv.meta["work"]["three"]["races_cut"] == 3
    full = advise(strong_request(contracts=("three",)))
    assert full.meta["work"]["three"]["races_cut"] == 0
    assert (adv.meta["work"]["three"]["race"]["positions"]
            < full.meta["work"]["three"]["race"]["positions"])


def test_budgeted_values_do_not_depend_on_what_the_process_solved_before() -> None:
    """Every unit starts from an empty table, so a budget bites the same way whatever
    ran before: world 0 after world 1 equals world 0 in a fresh process state."""
    race = RaceConfig(per_group=SMALL.per_group, schedule=(2, 4), race_nodes=400,
                      eval_nodes=3_000)
    view = RulesView(load_rules("dummett"))
    plans = make_plans(view, ("solo", "three"), STRONG)
    problem = Problem(knowledge_from_hand(STRONG, 0), 0, STRONG, view.rules, plans, 4, race,
                      None)

    def outcomes(result):
        return {c: [(o.net, o.thirds, o.bounded, o.group, o.discard) for o in cw.outcomes]
                for c, cw in result.contracts.items()}

    fresh = WorldSolver(problem).world(0)
    used = WorldSolver(problem)
    used.world(1)
    again = used.world(0)
    assert outcomes(fresh) == outcomes(again)
    work = fresh.contracts["three"].work["race"]
    assert work.bounded > 0  # the budgets did bite


@pytest.mark.slow
def test_same_numbers_for_one_and_two_jobs_with_the_real_solver_and_budgets() -> None:
    """Slow (worker start-up): pytest -m slow tests/test_advise_budget.py."""
    race = RaceConfig(per_group=SMALL.per_group, schedule=(2, 4), race_nodes=400,
                      eval_nodes=3_000)
    a = advise(strong_request(contracts=("solo", "three"), race=race, samples=2, jobs=1))
    b = advise(strong_request(contracts=("solo", "three"), race=race, samples=2, jobs=2))
    cols = ["contract", "option", "samples", "win_prob", "mean_net", "mean_points"]
    assert a.table[cols].fillna(-999).equals(b.table[cols].fillna(-999))
    assert a.meta["work"]["three"]["race"]["bounded"] > 0
    assert np.isfinite(a.table["mean_net"]).all()
