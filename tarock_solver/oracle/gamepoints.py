"""A readable pure-Python minimax on the score sheet: the game-point oracle.

Every line is played out with the rules of :mod:`tarock_solver.play`, and
every leaf is scored by :func:`tarock_solver.scoring.score` from what
actually happened: the declarer's pile, each bird card's trick and the
winner of that trick, and Valat.  It shares with the kernel only the
constants of the deal (the :class:`~.payoff.Payoff`'s template), not its
outcome encoding, so it checks the encoding as well as the search.
Exponential; meant for positions of up to about five tricks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import numpy as np

from ..cards import BIRD_CARD, BIRD_NAMES, bit, indices_of, thirds_of
from ..errors import RulesError
from ..play import N_TRICKS, legal_moves, reserved_mask, trick_thirds, trick_winner
from ..rules import BIRD_KEYS, Rules
from ..scoring import BirdOutcome, score
from ..solver import Payoff, make_payoff
from .cardpoints import random_position

_CARD_BIRD = {card: name for name, card in BIRD_CARD.items()}


class PayoffReference:
    """Exact minimax of the declarer's net for one payoff and one set of reserved birds."""

    def __init__(self, payoff: Payoff, reserved_birds: Iterable[str] = ()) -> None:
        self.payoff = payoff
        self.declarer = payoff.template.declarer
        self.reserved = tuple(reserved_birds)
        self.memo: dict[tuple, int] = {}
        self.scores: dict[tuple, int] = {}

    def legal(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...]) -> int:
        seat = (leader + len(trick)) % 3
        reserved = 0
        if seat == self.declarer and self.reserved:
            cards_of_leader = bin(hands[leader]).count("1") + (1 if trick else 0)
            reserved = reserved_mask(self.reserved, N_TRICKS + 1 - cards_of_leader)
        return legal_moves(hands[seat], trick[0] if trick else None, reserved)

    def leaf(self, thirds: int, birds: tuple[tuple[str, BirdOutcome], ...], valat: bool) -> int:
        """The declarer's net of a finished deal, scored from what happened."""
        key = (thirds, birds, valat)
        if key not in self.scores:
            outcomes = dict(self.payoff.fixed_birds)
            outcomes.update(birds)
            t = self.payoff.template
            for bird in BIRD_KEYS:
                # An announced bird that never reached a trick still needs an outcome.
                announced = bird in t.announcements or any(
                    bird in a for a in t.defender_announcements.values())
                if announced and bird not in outcomes:
                    outcomes[bird] = BirdOutcome(self.payoff.live[bird], None, None)
            inp = replace(t, declarer_thirds=thirds, birds=outcomes, valat=valat)
            self.scores[key] = score(self.payoff.rules, inp).net_declarer
        return self.scores[key]

    def value(self, hands: tuple[int, int, int], leader: int, trick: tuple[int, ...],
              thirds: int, birds: tuple[tuple[str, BirdOutcome], ...], valat: bool) -> int:
        """The declarer's net under best play from this state."""
        if not trick and not any(hands):
            return self.leaf(thirds, birds, valat)
        key = (hands, leader, trick, thirds, birds, valat)
        if key in self.memo:
            return self.memo[key]
        seat = (leader + len(trick)) % 3
        results = []
        for card in indices_of(self.legal(hands, leader, trick)):
            new_hands = list(hands)
            new_hands[seat] &= ~bit(card)
            nh = (new_hands[0], new_hands[1], new_hands[2])
            cards = trick + (card,)
            if len(cards) < 3:
                results.append(self.value(nh, leader, cards, thirds, birds, valat))
                continue
            winner = trick_winner(cards, leader)
            number = N_TRICKS - bin(nh[leader]).count("1")
            new_birds = list(birds)
            for pos, c in enumerate(cards):
                if c in _CARD_BIRD:
                    new_birds.append((_CARD_BIRD[c],
                                      BirdOutcome((leader + pos) % 3, number, winner)))
            results.append(self.value(
                nh, winner, (), thirds + (trick_thirds(cards) if winner == self.declarer else 0),
                tuple(sorted(new_birds)), valat and winner == self.declarer))
        result = max(results) if seat == self.declarer else min(results)
        self.memo[key] = result
        return result


def reference_game_value(payoff: Payoff, hands: Sequence[int], leader: int, *,
                         trick: Sequence[int] = (), reserved_birds: Iterable[str] = ()) -> int:
    """The declarer's net under double-dummy play, by brute force."""
    ref = PayoffReference(payoff, reserved_birds)
    return ref.value((int(hands[0]), int(hands[1]), int(hands[2])), leader,
                     tuple(int(c) for c in trick), payoff.base_thirds, (), payoff.valat_open)


def random_game_case(rng: np.random.Generator, tricks: int, rules_by_name: Mapping[str, Rules]
                     ) -> tuple[Rules, Payoff, tuple[int, int, int], int, tuple[int, ...]]:
    """A random game-point position with a random scoring scenario the scorer accepts
    (test and benchmark support): (rules, payoff, hands, leader, trick).

    The profile comes from ``rules_by_name`` (in its order), then a contract, a
    :func:`~.cardpoints.random_position` of ``tricks`` tricks (a third with cards in the
    current trick, 60 % with birds), the declarer's bird and other announcements, contras
    and the declarer's points so far, all drawn from ``rng``.
    """
    names = tuple(rules_by_name)
    while True:
        rules = rules_by_name[names[int(rng.integers(len(names)))]]
        contract = rules.contracts[int(rng.integers(len(rules.contracts)))]
        in_trick = int(rng.integers(1, 3)) if rng.random() < 0.3 else 0
        p = random_position(rng, tricks, trick_cards=in_trick, birds=rng.random() < 0.6)
        hands, leader, decl, trick = p["hands"], p["leader"], p["declarer"], p["trick"]
        anns: dict[str, str] = {}
        for bird in BIRD_NAMES:
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
