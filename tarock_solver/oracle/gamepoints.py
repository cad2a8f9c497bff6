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

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..cards import BIRD_CARD, bit, indices_of
from ..play import legal_moves, reserved_mask, trick_thirds, trick_winner
from ..rules import BIRD_KEYS
from ..scoring import BirdOutcome, score
from ..solver import Payoff

N_TRICKS = 16
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
