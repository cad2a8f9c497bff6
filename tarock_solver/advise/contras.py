"""The defenders' contras on the declarer's game, by a policy, world by world.

After the talon, each defender says contra on the game when, on what he sees (his
hand, the talon, the group the declarer took and the tarocks he discarded, and that
the declarer bid the contract: inner worlds whose declarer hand the bidding policy
would bid it with), the evaluator's mean over a few inner worlds says contra gains
him game points, counting
the declarer's re-contra where the declarer would make; the declarer re-contras when,
on his own hand and discard, his mean over inner worlds says he gains by it; nobody
subcontras (a defender who reads the re-contra as a declarer who makes expects it to
cost him).  :class:`ContraPolicy` gives a world's level (0 none, 1 contra, 2
re-contra) and what it changes in the declarer's net: the game item
times the contra factor, a function of the declarer's total card points alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..cards import FULL_MASK, GROUP_MASKS, GROUP_OF, KINGS_MASK, NOMINAL, indices_of, thirds_of
from ..estimate.bidding import BID_CONTRACTS, contract_values
from ..talon import Exchange
from .evaluate import PlayTask, Scorer
from .infoset import evaluate_positions
from .sampling import rng_for

__all__ = ["STREAM_CONTRA", "ContraPolicy", "contra_stages"]

#: Seed stream of the contra policy's inner worlds.
STREAM_CONTRA = 6
#: Inner worlds behind each party's contra decision.
CONTRA_INNER = 12
#: Draws per inner world a defender makes to find declarer's hands that bid the contract.
BID_DRAWS = 8
_BITS = np.uint64(1) << np.arange(54, dtype=np.uint64)


def _indices(mask: int) -> np.ndarray:
    return np.array(indices_of(mask), dtype=np.int64)


def _masks(cards: np.ndarray) -> np.ndarray:
    """Rows of card indices → uint64 masks."""
    return np.bitwise_or.reduce(_BITS[cards], axis=1) if cards.shape[1] else \
        np.zeros(len(cards), dtype=np.uint64)


class ContraPolicy:
    """The game contras of one contract for the declarer at ``seat`` (plain play).

    ``score_fn`` is :meth:`~.rulesview.RulesView.score_fn`; the contra steps are
    after the talon (``a``), up to re-contra (or the profile's ``contra_max_level``)."""

    def __init__(self, rules: Any, contract: str, seat: int, score_fn: Any,
                 inner: int = CONTRA_INNER) -> None:
        self.contract, self.seat, self.inner = contract, seat, inner
        self.max_level = min(2, int(rules.contra_max_level))
        self._scorers = [Scorer(contract, seat, [()], score_fn(contras=contra_stages(k)))
                         for k in range(self.max_level + 1)]
        self._delta: dict[tuple[int, bool, int], float] = {}
        self._ref: PlayTask | None = None

    def scorer(self, level: int) -> Scorer:
        """Plain play's scorer at contra level ``level`` (0: none)."""
        return self._scorers[level]

    def delta(self, thirds: int, valat: bool, level: int) -> float:
        """The declarer's net at contra ``level`` minus without, for his total card
        points in thirds: the same for every deal (the game item is multiplied; the
        hand bonuses and the silent items are not)."""
        if level == 0:
            return 0.0
        key = (int(thirds), bool(valat), level)
        hit = self._delta.get(key)
        if hit is None:
            assert self._ref is not None
            a = self._scorers[level].outcome(self._ref, thirds, valat).net[0]
            b = self._scorers[0].outcome(self._ref, thirds, valat).net[0]
            hit = float(a - b)
            self._delta[key] = hit
        return hit

    def level(self, task: PlayTask, exchange: Exchange | None, talon: Sequence[int],
              seed: int, world: int) -> int:
        """The contra level the policy reaches on a world (the declarer's ``task`` after
        the ``exchange``, the ``talon`` as dealt)."""
        self._ref = self._ref or task
        if self.max_level < 1:
            return 0
        d = self.seat
        talon_mask = 0  # a Solo's talon stays hidden
        for c in (talon if exchange is not None else ()):
            talon_mask |= 1 << int(c)
        taken = exchange.taken if exchange is not None else 0
        shown = exchange.shown_tarocks if exchange is not None else 0
        take = taken.bit_count()
        rng = rng_for(seed, STREAM_CONTRA, world, d)
        # the declarer's totals (thirds) in each defender's inner worlds: drawn from the
        # unseen cards, kept where the declarer's dealt hand is one he would bid this
        # contract with (the bidding policy's), as the defender knows he did
        defender_totals = []
        for k in (1, 2):
            me = (d + k) % 3
            seen = task.hands[me] | talon_mask | shown
            rows = _shuffled(rng, _indices(FULL_MASK & ~seen), BID_DRAWS * self.inner)
            dealt = _masks(rows[:, 16:]) | np.uint64(shown)
            value = contract_values(dealt, np.full(len(rows), d))[
                :, BID_CONTRACTS.index(self.contract)]
            bid = np.flatnonzero(value > 0)[:self.inner]
            if len(bid) < self.inner // 2:
                # few draws would have bid (a Solo's hands are rare): the likeliest bidders
                bid = np.sort(np.argsort(-value, kind="stable")[:self.inner // 2])
            rows, dealt = rows[bid], dealt[bid]
            # his discard: the tarocks he showed and, for the rest, his shortest suits'
            # lowest cards (a declarer discards to void suits; a random discard would
            # make him look weaker than he is)
            discard = np.array([shown | _short_suit_discard(int(h) & ~shown, taken,
                                                            take - shown.bit_count())
                                for h in dealt], dtype=np.uint64)
            hands = np.zeros((len(rows), 3), dtype=np.uint64)
            hands[:, d] = (dealt & ~discard) | np.uint64(taken)
            hands[:, me] = np.uint64(task.hands[me])
            hands[:, 3 - d - me] = _masks(rows[:, :16])
            pile = np.array([thirds_of(int(m)) for m in discard])
            defender_totals.append((hands, pile))
        # the declarer's own inner worlds: the defenders' hands unknown to him
        others = _indices(FULL_MASK & ~(task.hands[d] | _discard(exchange) | talon_mask))
        rows = _shuffled(rng, others, self.inner)
        hands = np.zeros((self.inner, 3), dtype=np.uint64)
        hands[:, d] = np.uint64(task.hands[d])
        hands[:, (d + 1) % 3] = _masks(rows[:, :16])
        hands[:, (d + 2) % 3] = _masks(rows[:, 16:32])
        all_hands = np.concatenate([defender_totals[0][0], defender_totals[1][0], hands])
        est = evaluate_positions(all_hands, d)
        n1, n2 = len(defender_totals[0][0]), len(defender_totals[1][0])
        totals = [np.rint(est[:n1] * 3) + defender_totals[0][1],
                  np.rint(est[n1:n1 + n2] * 3) + defender_totals[1][1],
                  np.rint(est[n1 + n2:] * 3) + task.pile_thirds]

        def mean_delta(t: np.ndarray, level: int | np.ndarray) -> float:
            lv = np.broadcast_to(np.asarray(level), t.shape)
            return float(np.mean([self.delta(int(3 * round(x / 3)), False, int(v))
                                  for x, v in zip(t, lv, strict=True)]))

        ref = self._ref  # made or not: a function of the total alone, scored once each
        made = [np.array([self._scorers[0].outcome(ref, int(3 * round(x / 3)), False)
                          .made[0] for x in t]) for t in totals[:2]]
        # a defender's contra: what it takes from the declarer, counting the re-contra
        # where the declarer makes (then the defender pays twice as much)
        contra = any(mean_delta(totals[k], np.where(made[k], self.max_level, 1)) < 0
                     for k in range(2))
        if not contra:
            return 0
        if self.max_level < 2 or mean_delta(totals[2], 2) <= mean_delta(totals[2], 1):
            return 1
        # no subcontra: a defender who reads the re-contra as the declarer does (he
        # re-contras where he makes) expects it to cost him
        return 2


def _short_suit_discard(hand: int, taken: int, count: int) -> int:
    """``count`` cards of ``hand`` to discard: suit cards but Kings, from the suits
    shortest after taking ``taken`` first, lowest first."""
    if count <= 0:
        return 0
    after = hand | taken
    cands = [c for c in range(22, 54) if hand >> c & 1 and not KINGS_MASK >> c & 1]
    cands.sort(key=lambda c: ((after & GROUP_MASKS[GROUP_OF[c]]).bit_count(), NOMINAL[c], c))
    out = 0
    for c in cands[:count]:
        out |= 1 << c
    return out


def _shuffled(rng: np.random.Generator, cards: np.ndarray, rows: int) -> np.ndarray:
    """``rows`` uniform permutations of ``cards`` (one sort of random keys per row)."""
    return cards[np.argsort(rng.random((rows, len(cards))), axis=1)]


def contra_stages(level: int) -> dict[str, str] | None:
    """The scorer's contras of the game said to ``level`` after the talon (None: none)."""
    return {"game": "a" * level} if level else None


def _discard(exchange: Exchange | None) -> int:
    return exchange.discard if exchange is not None else 0



