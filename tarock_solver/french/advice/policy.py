"""The others' bids when the adviser's player passes: the adviser's own bidding policy.

A player values each contract on what he sees, his 18 cards: the learned evaluator's
expected score, the petit au bout in, over inner worlds (the other hands and the chien
drawn at random), a Petite or a Garde with a quick discard (his shortest suits' cheapest
cards first).  In turn from seat 1 each bids his best-valued contract above the bid so
far when it is worth more than 0 to him, else passes; if all pass the deal is dealt
again (0).  The winner then plays the contract on the world as it is, with the same
quick discard.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import HAND_SIZE
from ..chien import opening, opening_key
from ..deal import deal_around
from ..estimate.model import FrenchEvaluator, opening_arrays
from ..rules import Contract, FrenchRules
from .value import contract_value
from .worlds import STREAM_POLICY, FrenchWorld, shuffled_unknown

__all__ = ["CONTRACTS", "PolicySettings", "auction"]

CONTRACTS = (Contract.PETITE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
#: The contracts' distinct openings: the Petite and the Garde share theirs (their scores
#: differ only by the multiplier), so the positions are valued once for both.
_KEYS = tuple(dict.fromkeys(opening_key(c) for c in CONTRACTS))
_KEY_OF = tuple(_KEYS.index(opening_key(c)) for c in CONTRACTS)
_FIRST_OF_KEY = tuple(CONTRACTS[_KEY_OF.index(k)] for k in range(len(_KEYS)))


@dataclass(frozen=True)
class PolicySettings:
    inner_worlds: int = 8


def _inner(hand: int, seat: int, seed: int, index: tuple[int, ...], count: int
           ) -> list[tuple[tuple[int, ...], int]]:
    """What a seat may imagine: the hands and chien around its own hand."""
    return [deal_around(seat, hand, shuffled_unknown(hand, seed, STREAM_POLICY, *index, k),
                        HAND_SIZE[4]) for k in range(count)]


def auction(model: FrenchEvaluator, world: FrenchWorld, passer: int, rules: FrenchRules,
            seed: int, index: int, sd: float, settings: PolicySettings = PolicySettings()
            ) -> tuple[int, Contract | None, float]:
    """(taker seat, contract, value per defender on the world) when ``passer`` passes and
    the others bid by the policy; (-1, None, 0.0) when all pass."""
    rows, takers = [], []
    for seat in range(4):
        if seat == passer:
            continue
        for hands, chien in _inner(world.hands[seat], seat, seed, (index, seat),
                                   settings.inner_worlds):
            for contract in _FIRST_OF_KEY:
                rows.append(opening(hands, chien, seat, contract))
                takers.append(seat)
    v = model.predict_start(opening_arrays(rows, takers), points=False)
    values: dict[int, np.ndarray] = {}
    shape = (settings.inner_worlds, len(_KEYS))
    for seat in range(4):
        if seat == passer:
            continue
        mine = np.array(takers) == seat
        m, b = v.margin[mine].reshape(shape), v.pab[mine].reshape(shape)
        values[seat] = np.array([
            contract_value(m[:, k], b[:, k], sd, con.multiplier,
                           rules.petit_au_bout_factor(con.multiplier)).mean()
            for k, con in zip(_KEY_OF, CONTRACTS, strict=True)])
    bid, taker = -1, -1
    for seat in range(4):
        if seat == passer:
            continue
        v = values[seat].copy()
        v[:bid + 1] = -np.inf
        best = int(np.argmax(v))
        if v[best] > 0:
            bid, taker = best, seat
    if taker < 0:
        return -1, None, 0.0
    contract = CONTRACTS[bid]
    played = opening(world.hands, world.chien, taker, contract)
    _, m, b = model.predict_lookahead(opening_arrays([played], [taker]))
    return taker, contract, float(contract_value(
        m, b, sd, contract.multiplier, rules.petit_au_bout_factor(contract.multiplier))[0])
