"""The brute-force reference the French Tarot solver is tested against: plain minimax
over every legal card (no pruning, no table, no merged cards), on the trick rules of
:mod:`.play`.  Slow by design; for positions of a few tricks.

The taker maximises and the three defenders, as one side, minimise:

* :func:`oracle_points` — the taker's card points (half points) at the end of the play;
* :func:`oracle_outcome_value` — any value of the play's outcome, given as a table
  ``table[points, oudlers, petit_au_bout, chelem]`` (:data:`PAB_*`, :data:`CHELEM_*`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .cards import EXCUSE, PETIT, cards_of
from .play import PlayState, close_trick, legal_cards

#: Petit au bout: nobody, the taker's side, the defence.
PAB_NONE, PAB_TAKER, PAB_DEFENCE = range(3)
#: Chelem: nobody took every trick, the taker did, the defence did.
CHELEM_NONE, CHELEM_TAKER, CHELEM_DEFENCE = range(3)


def _outcome_index(state: PlayState, pab: int) -> tuple[int, int, int, int]:
    chelem = (CHELEM_TAKER if not state.defence_has_trick else
              CHELEM_DEFENCE if not state.taker_has_trick else CHELEM_NONE)
    return state.taker_points, state.taker_oudlers, pab, chelem


def _minimax(hands: list[int], leader: int, taker: int, trick: list[int], state: PlayState,
             petit_penultimate: bool, value: Callable[[PlayState, int], int],
             excuse_last: str) -> int:
    n = len(hands)
    mover = (leader + len(trick)) % n
    left = bin(hands[mover]).count("1")
    best = None
    for card in cards_of(legal_cards(hands[mover], trick)):
        hands[mover] ^= 1 << card
        played = trick + [card]
        if len(played) < n:
            v = _minimax(hands, leader, taker, played, state, petit_penultimate, value,
                         excuse_last)
        else:
            last = left == 1
            new, winner = close_trick(state, played, leader, taker, n, last=last,
                                      excuse_last=excuse_last)
            if last:
                pab = PAB_NONE
                if PETIT in played:
                    pab = PAB_TAKER if winner == taker else PAB_DEFENCE
                elif (petit_penultimate and played[0] == EXCUSE
                      and not new.defence_has_trick):
                    # a chelem closed by the Excuse: the Petit one trick before counts
                    pab = PAB_TAKER
                v = value(new, pab)
            else:
                pen = left == 2 and PETIT in played and winner == taker
                v = _minimax(hands, winner, taker, [], new, pen, value, excuse_last)
        hands[mover] ^= 1 << card
        if best is None or (v > best if mover == taker else v < best):
            best = v
    assert best is not None
    return best


def _run(hands: Sequence[int], leader: int, taker: int, trick: Sequence[int],
         state: PlayState, value: Callable[[PlayState, int], int], excuse_last: str) -> int:
    hands = list(hands)
    n = len(hands)
    if not any(hands) and not trick:
        raise ValueError("no cards left to play")
    if trick and len(trick) == n:
        raise ValueError("the trick is complete")
    return _minimax(hands, leader, taker, list(trick), state, False, value, excuse_last)


def oracle_points(hands: Sequence[int], leader: int, taker: int, trick: Sequence[int] = (),
                  state: PlayState = PlayState(), *, excuse_last: str = "changes_side") -> int:
    """The taker's half points at the end of the play, both sides playing their best."""
    return _run(hands, leader, taker, trick, state, lambda s, _pab: s.taker_points,
                excuse_last)


def oracle_outcome_value(hands: Sequence[int], leader: int, taker: int, table: np.ndarray,
                         trick: Sequence[int] = (), state: PlayState = PlayState(), *,
                         excuse_last: str = "changes_side") -> int:
    """The best ``table[outcome]`` the taker can be sure of."""
    return _run(hands, leader, taker, trick, state,
                lambda s, pab: int(table[_outcome_index(s, pab)]), excuse_last)
