"""Every line of a French trick (the evaluator's look-ahead) against the exact solver:
the minimax over the lines, each worth what its trick gives the taker plus the exact
value of the next trick's start, is the exact value of the position."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarock_solver.french.cards import cards_of, join, split
from tarock_solver.french.deal import random_deal
from tarock_solver.french.play import PlayState
from tarock_solver.french.solver import (
    FrenchPosition,
    FrenchSearch,
    card_code,
    trick_lines,
    trick_minimax,
)


def _position(seed: int, tricks: int, in_trick: int) -> FrenchPosition:
    rng = random.Random(seed)
    deal = random_deal(seed)
    # both sides hold a trick already: no Excuse card is owed, which the lines settle at once
    pos = FrenchPosition(deal.hands, rng.randrange(4), rng.randrange(4), (),
                         PlayState(0, 0, True, True, 0))
    while not (pos.tricks_left == tricks and len(pos.trick) == in_trick):
        pos = pos.play(rng.choice(cards_of(pos.legal())))
    return pos


def _arrays(pos: FrenchPosition) -> tuple[np.ndarray, ...]:
    hlo = np.array([[split(h)[0] for h in pos.hands]], np.int64)
    hhi = np.array([[split(h)[1] for h in pos.hands]], np.int64)
    tc = np.zeros((1, 4), np.int64)
    for i, c in enumerate(pos.trick):
        tc[0, i] = card_code(c)
    return (hlo, hhi, np.array([pos.leader]), np.array([pos.taker]), tc,
            np.array([len(pos.trick)]))


@pytest.mark.parametrize("in_trick", [0, 1, 3])
def test_minimax_over_lines_is_the_exact_value(in_trick: int) -> None:
    search = FrenchSearch()
    checked = 0
    for seed in range(25):
        pos = _position(1000 * in_trick + seed, 4, in_trick)
        hlo, hhi, leader, taker, tc, n = _arrays(pos)
        offsets, clo, chi, cleader, gain, _ = trick_lines(hlo, hhi, leader, taker, tc, n)
        assert offsets[0] == 0 and offsets[1] == len(cleader) > 0
        totals = []
        for j in range(len(cleader)):
            hands = tuple(join(int(clo[j, s]), int(chi[j, s])) for s in range(4))
            child = FrenchPosition(hands, int(cleader[j]), pos.taker, (),  # type: ignore[arg-type]
                                   PlayState(0, 0, True, True, 0))
            search.clear()
            totals.append(gain[j] + search.points(child).lower)
        search.clear()
        want = search.points(pos).lower - pos.state.taker_points
        got = trick_minimax(hlo, hhi, leader, taker, offsets, np.array(totals, float), tc, n)
        assert got[0] == want, (seed, got[0], want)
        checked += 1
    assert checked == 25

