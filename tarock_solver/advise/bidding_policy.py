"""The others' bids by the adviser's policy: how a world's auction ends when I pass.

Each of the other two values every contract for his own hand by the bidding model
(:mod:`tarock_solver.estimate.bidding`: the adviser's evaluator-level answer, learned)
and bids by :func:`policy_call`; :func:`policy_auction` plays the auction out under the
profile's rules (:class:`~tarock_solver.auction.Auction`) with me passing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..auction import HOLD, PASS, Auction
from ..estimate.bidding import BID_CONTRACTS, contract_values
from ..rules import Rules

__all__ = ["PassOutcome", "policy_auction", "policy_call"]


@dataclass(frozen=True)
class PassOutcome:
    """How a world's auction ends when I pass: ``declarer`` and ``contract``, or
    ``declarer`` None and ``contract`` ``"trischaken"`` or ``"redeal"``."""

    declarer: int | None
    contract: str


def policy_call(calls: list[str], values: dict[str, float], standing: str | None,
                opened: bool) -> str:
    """The policy's call among the legal ``calls``: a player is willing to play every
    contract his model values above 0; his first bid is the one it values most, and
    later he goes as low as keeps him in (a hold, else the cheapest higher bid)."""
    def worth(call: str) -> float:
        c = standing if call == HOLD else call
        v = values.get(c, math.nan) if c is not None else math.nan
        return v if math.isfinite(v) else -math.inf

    willing = [c for c in calls if c != PASS and worth(c) > 0]
    if not willing:
        return PASS
    if not opened:
        return max(willing, key=lambda c: (worth(c), -calls.index(c)))
    if HOLD in willing:
        return HOLD
    return min(willing, key=lambda c: BID_CONTRACTS.index(c) if c in BID_CONTRACTS else 99)


def policy_auction(rules: Rules, hands: tuple[int, int, int], me: int,
                   values: np.ndarray | None = None) -> PassOutcome:
    """The auction of a world when ``me`` passes and the two others bid by
    :func:`policy_call` on the bidding model's values of their hands (``values``: a
    (3, len(BID_CONTRACTS)) array to use instead; my row is not read)."""
    if values is None:
        values = contract_values(np.array(hands, dtype=np.uint64), np.arange(3))
    auction = Auction(rules)
    opened = [False, False, False]
    while not auction.is_over:
        seat = auction.to_move
        assert seat is not None
        calls = auction.legal_calls()
        if seat == me:
            call = PASS if PASS in calls else calls[0]
        else:
            vals = {c: float(values[seat][i]) for i, c in enumerate(BID_CONTRACTS)}
            standing = auction.bid.contract if auction.bid is not None else None
            call = policy_call(calls, vals, standing, opened[seat])
        opened[seat] = opened[seat] or call != PASS
        auction.call(call, seat)
    res = auction.result
    assert res is not None
    if res.outcome == "game":
        assert res.declarer is not None and res.contract is not None
        return PassOutcome(res.declarer, res.contract)
    return PassOutcome(None, res.outcome)
