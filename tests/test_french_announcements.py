"""The taker's announcements: which poignée a hand holds and shows, its paired gain, and
the chelem judged by the exact solver; the others' bids when the player passes."""

from __future__ import annotations

import numpy as np
import pytest

from tarock_solver.french.advice.announcements import (
    chelem_check,
    poignee_cards,
    poignee_gains,
    poignee_level,
)
from tarock_solver.french.advice.policy import auctions
from tarock_solver.french.advice.value import made_probability
from tarock_solver.french.advice.worlds import FrenchWorld
from tarock_solver.french.cards import EXCUSE, PETIT, TRUMP_21, TRUMP_MASK, cards_of, mask_of
from tarock_solver.french.chien import check_discard, quick_discard
from tarock_solver.french.deal import random_deal
from tarock_solver.french.estimate.model import load_french_evaluator
from tarock_solver.french.notation import parse_hand
from tarock_solver.french.play import PlayState
from tarock_solver.french.rules import Poignee, load_rules
from tarock_solver.french.solver import FrenchPosition

RULES = load_rules("fft")


def test_poignee_levels_count_the_excuse_for_one_missing_trump() -> None:
    nine = parse_hand("T21 T20 T18 T15 T13 T10 T9 T2 T1 SK SQ S3 HK H5 D9 D2 C4 C1", players=4)
    assert poignee_level(nine) is None
    with_excuse = nine & ~(1 << cards_of(nine)[-1]) | 1 << EXCUSE
    assert poignee_level(with_excuse) is Poignee.SIMPLE
    thirteen = mask_of(range(8, 21)) | parse_hand("SK SQ S3 HK H5", players=None)
    assert poignee_level(thirteen) is Poignee.DOUBLE
    assert poignee_level(mask_of(range(3, 21))) is Poignee.TRIPLE


def test_the_trumps_shown_are_the_lowest_the_oudlers_last() -> None:
    hand = mask_of([PETIT, 3, 4, 5, 6, 7, 8, 9, 10, 11, TRUMP_21, EXCUSE]) | \
        parse_hand("SK SQ S3 HK H5 D9", players=None)
    shown = poignee_cards(hand, Poignee.SIMPLE)
    assert shown == mask_of([3, 4, 5, 6, 7, 8, 9, 10, 11, PETIT])
    short = mask_of([3, 4, 5, 6, 7, 8, 9, 10, 11, EXCUSE]) | \
        parse_hand("SK SQ S3 HK H5 D9 D8 D7", players=None)
    assert poignee_cards(short, Poignee.SIMPLE) == mask_of([3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                             EXCUSE])
    assert shown & ~TRUMP_MASK == 0


def test_a_poignee_gains_its_bonus_when_made_and_loses_it_when_failed() -> None:
    hands = [mask_of(range(3, 21))] * 4 + [parse_hand(
        "T21 T20 T18 T15 T13 T10 T9 T2 T1 SK SQ S3 HK H5 D9 D2 C4 C1", players=4)]
    margins = np.array([200.0, -200.0, 200.0, -200.0, 200.0])
    gains = {g.level: g for g in poignee_gains(RULES, "garde", hands, margins, 8.0)}
    assert set(gains) == set(Poignee)
    p = made_probability(margins, 8.0)
    want = np.where(np.arange(5) < 4, 3 * RULES.poignee_value(Poignee.TRIPLE) * (2 * p - 1), 0)
    assert gains[Poignee.TRIPLE].gain.mean == pytest.approx(want.mean())
    assert gains[Poignee.TRIPLE].share == pytest.approx(0.8)


def test_the_chelem_is_proved_or_refuted_exactly() -> None:
    deal = random_deal(3)
    rest = [c for c in range(78) if c not in range(3, 21)]
    # the taker holds the 18 highest trumps and leads: every trick is his
    hands = (mask_of(range(3, 21)), mask_of(rest[:18]), mask_of(rest[18:36]),
             mask_of(rest[36:54]))
    sure = FrenchPosition(hands, 0, 0, (), PlayState())  # type: ignore[arg-type]
    weak = FrenchPosition(deal.hands, 0, 0, (), PlayState())
    check = chelem_check(RULES, [sure, weak])
    assert (check.examined, check.made, check.impossible) == (2, 1, 1)
    announced, unannounced, failed, _ = RULES.chelem_values
    assert check.gain.mean == pytest.approx(3 * ((announced - unannounced) - failed) / 2)


def test_the_quick_discard_is_legal() -> None:
    for seed in range(10):
        deal = random_deal(seed)
        full = deal.hands[seed % 4] | deal.chien
        check_discard(full, quick_discard(full))


def test_the_others_pass_weak_hands_and_take_strong_ones() -> None:
    model = load_french_evaluator()
    rest = [c for c in range(78) if c not in range(3, 21)]
    strong = FrenchWorld((mask_of(rest[:18]), mask_of(range(3, 21)), mask_of(rest[18:36]),
                          mask_of(rest[36:54])), mask_of(rest[54:60]))
    takers, contracts, values = auctions(model, [strong], [0], 0, RULES, 1, 16.0)
    assert takers[0] == 1 and contracts[0] is not None and values[0] > 0
