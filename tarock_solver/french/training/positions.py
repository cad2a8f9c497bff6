"""Random French Tarot positions for the evaluator's labels: seeded, one per index.

:func:`sample_position` deals at random, picks a taker (mostly the seat with the most trumps and oudlers, as bidding would) and
a contract, puts the chien
where the contract puts it (a taker who takes it discards low cards at random), then
plays uniformly random legal cards until ``tricks_left`` tricks remain.  Random play
reaches the positions the evaluator's one-trick look-ahead asks about (every line of a
trick, good or bad), which is what its labels must cover.
"""

from __future__ import annotations

import numpy as np

from ..cards import N_CARDS, TRUMP_MASK, cards_of, half_points, mask_of, oudlers_in
from ..chien import discard_pool
from ..play import PlayState
from ..rules import Contract
from ..solver import FrenchPosition

__all__ = ["CONTRACT_SHARES", "sample_position"]

#: How often each contract is drawn (the taker takes the chien in two of them).
CONTRACT_SHARES = {Contract.PETITE: 0.3, Contract.GARDE: 0.3, Contract.GARDE_SANS: 0.25,
                   Contract.GARDE_CONTRE: 0.15}
_CONTRACTS = list(CONTRACT_SHARES)
_SHARES = np.array(list(CONTRACT_SHARES.values()))


def _discard(full: int, rng: np.random.Generator) -> int:
    """Six cards of the pool the rules allow, the cheapest most likely."""
    free, trumps = discard_pool(full)
    pool = cards_of(free)
    if len(pool) < 6:
        pool += cards_of(trumps)[:6 - len(pool)]
    keys = np.array([half_points(1 << c) for c in pool], float) + rng.exponential(3.0, len(pool))
    return mask_of(pool[i] for i in np.argsort(keys, kind="stable")[:6])


def sample_position(seed: int, index: int, tricks_left: int) -> FrenchPosition:
    """Position ``index`` of the stream ``seed`` with ``tricks_left`` (1..18) tricks to play."""
    rng = np.random.default_rng([seed, index, tricks_left])
    perm = rng.permutation(N_CARDS)
    hands = [mask_of(int(c) for c in perm[18 * s:18 * s + 18]) for s in range(4)]
    chien = mask_of(int(c) for c in perm[72:])
    # most takers hold a strong hand: the seat with the most trumps and oudlers, mostly
    strength = [bin(h & TRUMP_MASK).count("1") + 2 * oudlers_in(h) + rng.random()
                for h in hands]
    taker = int(np.argmax(strength)) if rng.random() < 0.75 else int(rng.integers(4))
    contract = _CONTRACTS[int(rng.choice(len(_CONTRACTS), p=_SHARES))]
    if contract.exchanges:
        full = hands[taker] | chien
        aside = _discard(full, rng)
        hands[taker] = full & ~aside
    else:
        aside = chien
    mine = contract.chien_to == "taker"
    state = PlayState(half_points(aside) if mine else 0, oudlers_in(aside) if mine else 0)
    pos = FrenchPosition(tuple(hands), 0, taker, (), state)  # type: ignore[arg-type]
    while pos.tricks_left > tricks_left or pos.trick:
        legal = cards_of(pos.legal())
        pos = pos.play(legal[int(rng.integers(len(legal)))])
    return pos
