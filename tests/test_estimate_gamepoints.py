"""The game-point evaluator: exact where play is forced, row-for-row equal in batches, its
expectation equal to a brute-force sum over outcomes, clear errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tarock_solver import estimate_game_points, estimate_game_points_many
from tarock_solver.cards import BIRD_CARD, thirds_of
from tarock_solver.errors import DealError, RulesError
from tarock_solver.estimate.birds import bird_features, bird_win_probabilities
from tarock_solver.estimate.gamepoints import (
    EXACT_CARDS,
    card_point_sd,
    game_point_parts,
    smoothing_weights,
)
from tarock_solver.estimate.model import estimate_many
from tarock_solver.rules import BIRD_KEYS, load_rules
from tarock_solver.rules.names import TALON_CARDS
from tarock_solver.solver import solve_game_points
from tarock_solver.solver.payoff import BIRD_WON, FLAG_LOST_TRICK, make_payoff
from tarock_solver.training.birds import fit_logistic

PROFILES = ("dummett", "beck", "ms2016", "loew")
CONTRACTS = {"dummett": ("three", "lower", "two", "one", "solo"),
             "beck": ("three", "two", "one", "solo"), "ms2016": ("three", "two", "one", "solo"),
             "loew": ("three", "two", "one", "solo")}


def random_position(rng: np.random.Generator, cards: int, *, birds: bool = True
                    ) -> tuple[tuple[int, int, int], int, int]:
    """Three hands of ``cards`` cards (the birds among them when ``birds``), leader,
    declarer."""
    deck = [c for c in range(54) if c not in BIRD_CARD.values()]
    rng.shuffle(deck)
    pool = list(BIRD_CARD.values())[:min(3, 3 * cards)] if birds else []
    pool += deck[:3 * cards - len(pool)]
    rng.shuffle(pool)
    hands = tuple(sum(1 << c for c in pool[s * cards:(s + 1) * cards]) for s in range(3))
    return hands, int(rng.integers(3)), int(rng.integers(3))  # type: ignore[return-value]


def _pile(rng: np.random.Generator, contract: str) -> int:
    """A discard in thirds that the contract allows (its residue mod 3)."""
    return 3 * int(rng.integers(0, 12)) + (-2 * TALON_CARDS[contract]) % 3


def _announcements(rng: np.random.Generator, hands, declarer: int, profile: str) -> dict:
    """Sometimes a bird the declarer holds, announced after the talon (where the profile
    has a value for it)."""
    rules = load_rules(profile)
    own = [b for b in BIRD_KEYS if hands[declarer] >> BIRD_CARD[b] & 1
           and rules.bird_value(b, "after") is not None]
    return {own[0]: "after"} if own and rng.random() < 0.5 else {}


def test_forced_positions_equal_the_solver():
    """At most EXACT_CARDS cards a hand: the estimate is the exact value (play is forced
    or nearly so), for every profile, contract, announced bird and discard."""
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(240):
        profile = PROFILES[int(rng.integers(len(PROFILES)))]
        contract = CONTRACTS[profile][int(rng.integers(len(CONTRACTS[profile])))]
        cards = int(rng.integers(1, EXACT_CARDS + 1))
        hands, leader, declarer = random_position(rng, cards)
        anns = _announcements(rng, hands, declarer, profile)
        pile = _pile(rng, contract)
        exact = solve_game_points(hands, leader, declarer, rules=load_rules(profile),
                                  contract=contract, announcements=anns or None,
                                  discard_thirds=pile).value
        est = estimate_game_points(hands, leader, declarer, contract, announcements=anns,
                                   discard_thirds=pile, rules=profile)
        assert est == exact, (hands, leader, declarer, contract, anns, profile)
        checked += 1
    assert checked == 240


def test_many_rows_equal_single_calls():
    rng = np.random.default_rng(11)
    rows, leaders, declarers, contracts, anns, piles = [], [], [], [], [], []
    for _ in range(60):
        hands, leader, declarer = random_position(rng, int(rng.integers(1, 17)),
                                                  birds=bool(rng.random() < 0.8))
        rows.append(hands)
        leaders.append(leader)
        declarers.append(declarer)
        contracts.append(CONTRACTS["dummett"][int(rng.integers(5))])
        anns.append(_announcements(rng, hands, declarer, "dummett") or None)
        piles.append(_pile(rng, contracts[-1]))
    many = estimate_game_points_many(np.array(rows, dtype=np.uint64), leaders, declarers,
                                     contracts, anns, piles)
    for i in range(len(rows)):
        one = estimate_game_points(rows[i], leaders[i], declarers[i], contracts[i],
                                   announcements=anns[i], discard_thirds=piles[i])
        assert one == many[i]  # bit for bit
    # and in another order
    order = rng.permutation(len(rows))
    again = estimate_game_points_many(np.array(rows, dtype=np.uint64)[order],
                                      np.array(leaders)[order], np.array(declarers)[order],
                                      [contracts[i] for i in order], [anns[i] for i in order],
                                      [piles[i] for i in order])
    assert np.array_equal(again, many[order])


def _brute_force(hands, leader, declarer, contract, anns, pile, profile) -> float:
    """The evaluator's expectation summed outcome by outcome: every total F and every
    combination of bird outcomes (independent, each won with the bird model's
    probability), each scored by the payoff; Valat when every point is taken."""
    rules = load_rules(profile)
    h = np.array([hands], dtype=np.uint64)
    est = float(estimate_many(h, [leader], [declarer])[0])
    p, _ = bird_win_probabilities(h, np.array([leader]), np.array([declarer]))
    payoff = make_payoff(rules, contract, declarer, hands, leader=leader, base_thirds=pile,
                         announcements=anns or None, valat_open=hands[0].bit_count() == 16)
    cards = hands[0].bit_count()
    lo, hi, w = smoothing_weights(est, card_point_sd(cards), payoff.remaining)
    total = 0.0
    for f, wf in zip(range(lo, hi + 1), w, strict=True):
        valat = payoff.valat_open and f == payoff.remaining
        for won in itertools.product((0, 1), repeat=3):
            prob = 1.0
            flags = 0 if valat else FLAG_LOST_TRICK
            for b in range(3):
                prob *= p[0, b] if won[b] else 1.0 - p[0, b]
                if won[b]:
                    flags |= BIRD_WON << (2 * b)
            if prob == 0.0:
                continue
            if valat and any(won[b] and payoff.live.get(BIRD_KEYS[b]) != declarer
                             for b in range(3)):
                flags &= ~sum(3 << (2 * b) for b in range(3)
                              if payoff.live.get(BIRD_KEYS[b]) != declarer)
            total += wf * prob * payoff.score(f, flags).net_declarer
    return total


@pytest.mark.parametrize("profile", PROFILES)
def test_expectation_equals_the_sum_over_outcomes(profile):
    """The additive shortcut (bird items written apart from the game) gives the same
    expectation as scoring every combination of outcomes."""
    rng = np.random.default_rng(PROFILES.index(profile))
    for _ in range(12):
        cards = int(rng.integers(EXACT_CARDS + 1, 17))
        hands, leader, declarer = random_position(rng, cards)
        contract = CONTRACTS[profile][int(rng.integers(len(CONTRACTS[profile])))]
        anns = _announcements(rng, hands, declarer, profile)
        pile = _pile(rng, contract)
        got = estimate_game_points(hands, leader, declarer, contract, announcements=anns,
                                   discard_thirds=pile, rules=profile)
        want = _brute_force(hands, leader, declarer, contract, anns, pile, profile)
        assert got == pytest.approx(want, abs=1e-6)


def test_parts_add_up_and_birds_count():
    rng = np.random.default_rng(3)
    rows = [random_position(rng, 16)[0] for _ in range(20)]
    parts = game_point_parts(np.array(rows, dtype=np.uint64), 0, 1, "solo")
    assert np.allclose(parts.net, parts.card_net + parts.birds)
    assert ((parts.p_won >= 0) & (parts.p_won <= 1)).all()
    # birds only: the same bird part, no game part
    only = game_point_parts(np.array(rows, dtype=np.uint64), 0, 1, "solo", card_net=False)
    assert np.array_equal(only.birds, parts.birds) and np.isnan(only.card_net).all()
    # a hand with no bird in play has no bird part
    no_birds = [random_position(rng, 16, birds=False)[0] for _ in range(5)]
    p = game_point_parts(np.array(no_birds, dtype=np.uint64), 0, 1, "solo")
    assert (p.birds == 0).all() and (p.p_won == 0).all()


def test_bird_features_see_the_holder():
    hands = np.array([[1 << BIRD_CARD["pagat"], 1 << BIRD_CARD["uhu"],
                       1 << BIRD_CARD["kakadu"]]], dtype=np.uint64)
    x, live, holder = bird_features(hands, np.array([0]), np.array([1]))
    assert live.all() and holder.tolist() == [[0, 1, 2]]
    assert x[0, 1, 1] == 1 and x[0, 0, 1] == 0  # the Uhu is the declarer's


def test_logistic_fit_recovers_known_weights():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=(20000, 2))])
    w = np.array([-1.0, 2.0, -0.5])
    y = (rng.random(20000) < 1 / (1 + np.exp(-x @ w))).astype(float)
    got = fit_logistic(x, y, ridge=1e-6)
    assert np.allclose(got, w, atol=0.1)


@pytest.mark.parametrize("kwargs, error, needle", [
    ({"contract": "trischaken"}, RulesError, "trischaken"),
    ({"contract": "three", "rules": "nope"}, RulesError, "nope"),
])
def test_bad_arguments_are_named(kwargs, error, needle):
    rng = np.random.default_rng(1)
    hands, leader, declarer = random_position(rng, 16)
    contract = kwargs.pop("contract")
    with pytest.raises(error, match=needle):
        estimate_game_points(hands, leader, declarer, contract, **kwargs)


def test_bad_positions_and_lengths_are_named():
    with pytest.raises(DealError):
        estimate_game_points((1, 1, 2), 0, 0, "three")
    rng = np.random.default_rng(2)
    hands = np.array([random_position(rng, 16)[0]] * 3, dtype=np.uint64)
    with pytest.raises(RulesError, match="contracts needs one entry per position"):
        estimate_game_points_many(hands, 0, 0, ["three", "two"])
    assert thirds_of(0) == 0
