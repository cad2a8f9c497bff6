"""Random French Tarot positions for the evaluator's labels: seeded, one per index.

:func:`sample_position` deals a taker a hand of every strength (his number of trumps,
the Excuse counted, drawn uniformly from 4 to 16, so the made contracts and the chelems
are as present as the hopeless ones), the other hands at random, picks a contract, puts
the chien where the contract puts it (a taker who takes it discards by
:func:`~tarock_solver.french.chien.quick_discard`), then plays uniformly random legal
cards until ``tricks_left`` tricks remain.  Random play reaches the positions the
evaluator's one-trick look-ahead asks about (every line of a trick, good or bad), which
is what its labels must cover.
"""

from __future__ import annotations

import numpy as np

from ..cards import EXCUSE, N_CARDS, TRUMP_MASK, cards_of, mask_of
from ..chien import opening
from ..deal import deal_around
from ..rules import Contract
from ..solver import FrenchPosition

__all__ = ["CONTRACT_SHARES", "SAMPLER_VERSION", "TRUMPS_DEALT", "sample_position"]

#: Bumped whenever the positions of a (seed, index, tricks) change.
SAMPLER_VERSION = 2
#: The taker's trumps (the Excuse counted) are drawn uniformly from this range.
TRUMPS_DEALT = (4, 16)

#: How often each contract is drawn (the taker takes the chien in two of them).
CONTRACT_SHARES = {Contract.PETITE: 0.3, Contract.GARDE: 0.3, Contract.GARDE_SANS: 0.25,
                   Contract.GARDE_CONTRE: 0.15}
_CONTRACTS = list(CONTRACT_SHARES)
_SHARES = np.array(list(CONTRACT_SHARES.values()))


def sample_position(seed: int, index: int, tricks_left: int) -> FrenchPosition:
    """Position ``index`` of the stream ``seed`` with ``tricks_left`` (1..18) tricks to play."""
    rng = np.random.default_rng([SAMPLER_VERSION, seed, index, tricks_left])
    taker = int(rng.integers(4))
    trumps = np.array(cards_of(TRUMP_MASK | 1 << EXCUSE), np.int64)
    others = np.array(cards_of(((1 << N_CARDS) - 1) & ~(TRUMP_MASK | 1 << EXCUSE)), np.int64)
    k = int(rng.integers(TRUMPS_DEALT[0], TRUMPS_DEALT[1] + 1))
    trumps = trumps[rng.permutation(len(trumps))]
    others = others[rng.permutation(len(others))]
    mine = np.concatenate([trumps[:k], others[:18 - k]])
    rest = np.concatenate([trumps[k:], others[18 - k:]])
    rest = rest[rng.permutation(len(rest))]
    dealt, chien = deal_around(taker, mask_of(int(c) for c in mine), rest, 18)
    contract = _CONTRACTS[int(rng.choice(len(_CONTRACTS), p=_SHARES))]
    hands, state = opening(dealt, chien, taker, contract)
    pos = FrenchPosition(hands, 0, taker, (), state)  # type: ignore[arg-type]
    while pos.tricks_left > tricks_left or pos.trick:
        legal = cards_of(pos.legal())
        pos = pos.play(legal[int(rng.integers(len(legal)))])
    return pos
