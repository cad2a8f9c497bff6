"""The game-point solver (payoff kernel) against the pure-Python score-sheet minimax.

CI runs a sample of 500 random positions of the last 3-5 tricks; the full
run of 5,000 positions is marked slow:

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

from tarock_solver.cards import BIRD_CARD, INDEX_OF, thirds_of
from tarock_solver.errors import RulesError
from tarock_solver.rules import load_rules
from tarock_solver.solver.gamepoints import GamePointSearch, reserved_birds, solve_game_points
from tarock_solver.solver.payoff import make_payoff
from tarock_solver.solver.payoff_reference import reference_game_value
from tarock_solver.solver.reference import random_position

PROFILES = ("dummett", "beck", "ms2016", "loew")
RULES = {name: load_rules(name) for name in PROFILES}
#: tricks -> positions of the CI sample (a 5-trick reference takes ~0.25 s)
CI_MIX = {3: 260, 4: 200, 5: 40}
FULL_MIX = {3: 2000, 4: 2000, 5: 1000}


def _random_case(rng: np.random.Generator, tricks: int):
    """One random position with a random scoring scenario the scorer accepts."""
    while True:
        rules = RULES[PROFILES[int(rng.integers(len(PROFILES)))]]
        contract = rules.contracts[int(rng.integers(len(rules.contracts)))]
        in_trick = int(rng.integers(1, 3)) if rng.random() < 0.3 else 0
        p = random_position(rng, tricks, trick_cards=in_trick, birds=rng.random() < 0.6)
        hands, leader, decl, trick = p["hands"], p["leader"], p["declarer"], p["trick"]
        anns: dict[str, str] = {}
        for bird in ("pagat", "uhu", "kakadu"):
            levels = rules.announcement_levels(bird)
            if hands[decl] >> BIRD_CARD[bird] & 1 and levels and rng.random() < 0.5:
                anns[bird] = levels[int(rng.integers(len(levels)))]
        for item in ("absolut", "kramerpoi", "valat"):
            levels = rules.announcement_levels(item)
            if levels and rng.random() < 0.2:
                anns[item] = levels[int(rng.integers(len(levels)))]
        contras = {obj: ("a", "aa", "b", "ba", "aaa")[int(rng.integers(5))]
                   for obj in ["game", *anns] if rng.random() < 0.25}
        in_play = hands[0] | hands[1] | hands[2]
        for c in trick:
            in_play |= 1 << c
        remaining = thirds_of(in_play) // 3
        residue = (-2 * rules.talon_cards(contract)) % 3
        base = 3 * int(rng.integers(max(0, 30 - remaining), min(55, 69 - remaining) + 1)) + residue
        try:
            payoff = make_payoff(rules, contract, decl, hands, leader=leader, trick=trick,
                                 base_thirds=base, announcements=anns, contras=contras,
                                 valat_open=bool(rng.random() < 0.3))
        except RulesError:
            continue
        return rules, payoff, hands, leader, trick


def _run(seed: int, mix: dict[int, int]) -> None:
    rng = np.random.default_rng(seed)
    bad = []
    for tricks, count in mix.items():
        for _ in range(count):
            rules, payoff, hands, leader, trick = _random_case(rng, tricks)
            reserved = reserved_birds(rules, payoff)
            want = reference_game_value(payoff, hands, leader, trick=trick,
                                        reserved_birds=reserved)
            got = GamePointSearch(payoff, reserved, tt_bits=10).solve(hands, leader, trick)
            if got.net_declarer != want or got.score.net_declarer != want:
                bad.append((rules.name, payoff.template, hands, leader, trick, want,
                            got.net_declarer))
    assert not bad, f"{len(bad)} mismatches, first: {bad[0]}"


def test_kernel_matches_reference_ci_sample() -> None:
    _run(20261130, CI_MIX)


@pytest.mark.slow
def test_kernel_matches_reference_full() -> None:
    _run(5000, FULL_MIX)
