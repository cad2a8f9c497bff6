"""Which talon exchanges are worth valuing: a cheap pre-screen of the discards.

Every group is kept (which cards come in is what the search must decide); inside
a group the discards are ranked by a static rule of good play — make suits void,
bank the points of the cards that would otherwise be lost — and
:func:`shortlist` keeps the best few of each group.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import GROUP_MASKS, KINGS_MASK
from ..talon import Exchange, exchanges

#: Static value of one void suit, in card points: a void lets the declarer trump a
#: trick of that suit instead of losing it, which typically turns a lost trick of
#: 3–6 points into a won one.  A rough figure: the solver race decides the rest.
VOID_POINTS = 4.0
#: A suit kept with only its King wins (at most) its first round; worth a little
#: more than an unguarded low card, which only ever loses.
BARE_KING_POINTS = 1.0

_SUIT_MASKS = GROUP_MASKS[1:]


def static_value(ex: Exchange) -> float:
    """Heuristic value of an exchange, in card points, for ranking discards in one group.

    Banked discard points + a bonus per void suit + a small bonus per suit kept
    with only its King.  Comparable only between discards of the same group
    (the group's own value is left to the solver).
    """
    hand = ex.hand_after
    value = ex.declarer_pile_thirds / 3.0
    for suit in _SUIT_MASKS:
        held = hand & suit
        if not held:
            value += VOID_POINTS
        elif held == held & KINGS_MASK:
            value += BARE_KING_POINTS
    # Forced tarock discards weaken the trump length; the legal-discard rules make
    # them appear only when unavoidable, so they need no extra term here.
    return value


def shortlist(hand: int, talon: Sequence[int], contract: str, mode: str,
              per_group: int) -> list[Exchange]:
    """The exchanges to race: the ``per_group`` best discards of every talon group.

    Groups keep the order of :func:`tarock_solver.talon.talon_groups`; inside a
    group the order is by static value, best first (ties: the enumeration
    order, so the list is deterministic).
    """
    by_group: dict[str, list[tuple[float, int, Exchange]]] = {}
    for n, ex in enumerate(exchanges(hand, talon, contract, mode, skip_equivalent=True)):
        by_group.setdefault(ex.group_label, []).append((-static_value(ex), n, ex))
    out: list[Exchange] = []
    for entries in by_group.values():
        entries.sort(key=lambda t: (t[0], t[1]))
        out.extend(ex for _, _, ex in entries[:max(1, per_group)])
    return out
