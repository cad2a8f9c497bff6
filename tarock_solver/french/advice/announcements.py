"""The taker's announcements: the poignée (whether to show it, which trumps) and the chelem.

Both are judged against plain play of the same contract on the same worlds, paired:

* a poignée's bonus (not multiplied) goes to the side that wins the contract, so showing
  it gains ``bonus × (2 P(make) − 1)`` per defender on a world where the hand (after the
  discard) holds it; the trumps shown do not change double-dummy play, so which ones is
  a matter of what the defence learns: the lowest, the Petit and the 21 kept back where
  the count allows, the Excuse only in place of a missing trump (the rule);
* a chelem is decided by the exact solver, the taker leading the first trick as an
  announced chelem does: on each examined world it is proved made, proved impossible, or
  left open by the node budget, and its gain is given as bounds when any is open.  A
  hand of master trumps alone is a chelem without search.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...advise.cv import Estimate, PrefixTerm, combine
from ...solver import Budget
from ..cards import EXCUSE, PETIT, TRUMP_21, TRUMP_MASK, cards_of, mask_of
from ..rules import POIGNEE_TRUMPS, FrenchRules, Poignee
from ..solver import FrenchPosition, FrenchSearch
from .value import made_probability

__all__ = ["ChelemCheck", "PoigneeGain", "chelem_check", "poignee_cards", "poignee_gains",
           "poignee_level"]


def poignee_level(hand: int, players: int = 4) -> Poignee | None:
    """The highest poignée an 18-card hand can show (the Excuse standing in for one
    missing trump), or None."""
    trumps = (hand & TRUMP_MASK).bit_count() + (hand >> EXCUSE & 1)
    best = None
    for level, need in zip(Poignee, POIGNEE_TRUMPS[players], strict=True):
        if trumps >= need:
            best = level
    return best


def poignee_cards(hand: int, level: Poignee, players: int = 4) -> int:
    """The cards to show for ``level``: the lowest trumps, the Petit and the 21 last, the
    Excuse only when the trumps run short."""
    need = POIGNEE_TRUMPS[players][level.index]
    trumps = cards_of(hand & TRUMP_MASK)
    order = [c for c in trumps if c not in (PETIT, TRUMP_21)] + \
        [c for c in (PETIT, TRUMP_21) if c in trumps]
    shown = order[:need]
    if len(shown) < need and hand >> EXCUSE & 1:
        shown.append(EXCUSE)
    return mask_of(shown)


@dataclass(frozen=True)
class PoigneeGain:
    contract: str
    level: Poignee
    share: float  # of the worlds on which the hand holds it
    gain: Estimate  # the player's marque, paired with plain play


def poignee_gains(rules: FrenchRules, contract: str, hands: list[int], margins: np.ndarray,
                  sd: float) -> list[PoigneeGain]:
    """Per level the hand can hold on some world: the gain of showing it where held."""
    p = made_probability(margins, sd)
    held = [poignee_level(h, rules.players) for h in hands]
    out = []
    for level in Poignee:
        at = np.array([h is not None and h.index >= level.index for h in held])
        if not at.any():
            continue
        gain = np.where(at, 3.0 * rules.poignee_value(level) * (2.0 * p - 1.0), 0.0)
        out.append(PoigneeGain(contract, level, float(at.mean()),
                               combine([PrefixTerm(gain)])))
    return out


def _sure_chelem(pos: FrenchPosition) -> bool:
    """The taker leads and holds only trumps above every trump of the defence (and maybe
    the Excuse, led to the last trick): every trick is his.  Proving it by search means
    trying every card the defence may throw, which the node budget does not allow."""
    if pos.trick or pos.leader != pos.taker:
        return False
    hand = pos.hands[pos.taker]
    if hand & ~(TRUMP_MASK | 1 << EXCUSE):
        return False
    defence = 0
    for seat, h in enumerate(pos.hands):
        if seat != pos.taker:
            defence |= h & TRUMP_MASK
    mine = hand & TRUMP_MASK
    return bool(mine) and (not defence or (mine & -mine).bit_length() > defence.bit_length())


@dataclass(frozen=True)
class ChelemCheck:
    examined: int
    made: int  # proved made
    impossible: int  # proved impossible
    gain_low: float  # the player's marque per world, open worlds counted as failed
    gain_high: float  # ... counted as made
    gain: Estimate | None  # paired gain when no world is open


def chelem_check(rules: FrenchRules, positions: list[FrenchPosition], *,
                 nodes: int = 1_000_000, excuse_last: str = "changes_side") -> ChelemCheck:
    """Announce a chelem or not, on the given worlds' start positions (the taker leading)."""
    announced, unannounced, failed, _ = rules.chelem_values
    table = np.zeros((183, 4, 3, 3), np.int64)
    table[:, :, :, 1] = 1
    search = FrenchSearch(excuse_last=excuse_last)
    state = []
    for pos in positions:
        if _sure_chelem(pos):
            state.append(1)
            continue
        search.clear()
        r = search.outcome_value(pos, table, guess=1, max_tests=1, budget=Budget(nodes=nodes))
        state.append(1 if r.lower >= 1 else 0 if r.upper <= 0 else -1)
    s = np.array(state)
    win = 3.0 * (announced - unannounced)
    lose = -3.0 * failed
    low = np.where(s == 1, win, lose)
    high = np.where(s == 0, lose, win)
    gain = combine([PrefixTerm(low)]) if not (s < 0).any() else None
    return ChelemCheck(len(s), int((s == 1).sum()), int((s == 0).sum()), float(low.mean()),
                       float(high.mean()), gain)
