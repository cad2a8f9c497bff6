"""The others' bids when the adviser's player passes: the adviser's own bidding policy.

A player values each contract on what he sees, his 18 cards: the learned evaluator's
expected score over inner worlds (the other hands and the chien drawn at random), a
Petite or a Garde with a quick discard (his shortest suits' cheapest cards first).  In
turn from seat 1 each bids his best-valued contract above the bid so far when it is
worth more than 0 to him, else passes; if all pass the deal is dealt again (0).  The
winner then plays the contract on the world as it is, with the same quick discard.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...advise.sampling import rng_for
from ..cards import ALL_CARDS, HAND_SIZE, cards_of, split
from ..chien import opening
from ..deal import deal_around
from ..estimate.model import FrenchEvaluator, PositionArrays
from ..rules import Contract
from .value import expected_value
from .worlds import STREAM_POLICY, FrenchWorld

__all__ = ["CONTRACTS", "PolicySettings", "auction"]

CONTRACTS = (Contract.PETITE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)


@dataclass(frozen=True)
class PolicySettings:
    inner_worlds: int = 8


def _row(hands: tuple[int, ...], chien: int, taker: int, contract: Contract
         ) -> tuple[np.ndarray, np.ndarray, int, int]:
    played, state = opening(hands, chien, taker, contract)
    lo = np.zeros(4, np.int64)
    hi = np.zeros(4, np.int64)
    for s in range(4):
        lo[s], hi[s] = split(played[s])
    return lo, hi, state.taker_points, state.taker_oudlers


def _arrays(rows: list, taker: list[int]) -> PositionArrays:
    n = len(rows)
    return PositionArrays(np.array([r[0] for r in rows]).reshape(n, 4),
                          np.array([r[1] for r in rows]).reshape(n, 4),
                          np.zeros(n, np.int64), np.array(taker, np.int64),
                          np.array([r[2] for r in rows], np.int64),
                          np.array([r[3] for r in rows], np.int64),
                          np.zeros((n, 4), np.int64), np.zeros(n, np.int64))


def _inner(hand: int, seat: int, seed: int, index: tuple[int, ...], count: int
           ) -> list[tuple[tuple[int, ...], int]]:
    unknown = np.array(cards_of(ALL_CARDS & ~hand), np.int64)
    size = HAND_SIZE[4]
    out = []
    for k in range(count):
        perm = unknown[rng_for(seed, STREAM_POLICY, *index, k).permutation(len(unknown))]
        out.append(deal_around(seat, hand, perm, size))
    return out


def auction(model: FrenchEvaluator, world: FrenchWorld, passer: int, seed: int, index: int,
            sd: float, settings: PolicySettings = PolicySettings()
            ) -> tuple[int, Contract | None, float]:
    """(taker seat, contract, value per defender on the world) when ``passer`` passes and
    the others bid by the policy; (-1, None, 0.0) when all pass."""
    rows, takers, where = [], [], []
    for seat in range(4):
        if seat == passer:
            continue
        for hands, chien in _inner(world.hands[seat], seat, seed, (index, seat),
                                   settings.inner_worlds):
            for c, contract in enumerate(CONTRACTS):
                rows.append(_row(hands, chien, seat, contract))
                takers.append(seat)
                where.append((seat, c))
    _, margin = model.predict_start(_arrays(rows, takers), points=False)
    values: dict[int, np.ndarray] = {}
    for seat in range(4):
        if seat == passer:
            continue
        sel = np.array([w[0] == seat for w in where])
        m = margin[sel].reshape(settings.inner_worlds, len(CONTRACTS))
        values[seat] = np.array([expected_value(m[:, c], sd, con.multiplier).mean()
                                 for c, con in enumerate(CONTRACTS)])
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
    lo, hi, pts, oud = _row(world.hands, world.chien, taker, contract)
    _, m = model.predict_lookahead(_arrays([(lo, hi, pts, oud)], [taker]))
    return taker, contract, float(expected_value(m, sd, contract.multiplier)[0])
