"""French Tarot scoring: one deal's outcome -> the contract's value and the marque.

:func:`score` turns the taker's card points (in half points), his oudlers, the petit au
bout, the poignées and the chelem into a :class:`FrenchScore`: the value each defender
pays (or receives), itemised.  :func:`marque` spreads it over the seats at 3, 4 and 5
players so that the marque sums to zero.  The formula, per defender, is the FFT's:
``(25 + difference + petit au bout) × coefficient + poignées + chelem``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..errors import RulesError
from .cards import TARGET_HALF_POINTS, TOTAL_HALF_POINTS
from .rules import Contract, FrenchRules, Poignee

__all__ = ["BASE", "PETIT_AU_BOUT", "Chelem", "FrenchScore", "Marque", "ScoreLine", "Side",
           "difference_points", "format_half_points", "marque", "score"]

#: Every contract's fixed worth, before the points difference.
BASE = 25
#: The petit au bout's bonus, before the coefficient.
PETIT_AU_BOUT = 10
#: Half points of one oudler: a side with ``n`` oudlers holds at least ``9 n`` half points.
_OUDLER_HALF_POINTS = 9


class Side(Enum):
    """The taker's side (with his partner at five) or the defence."""

    TAKER = "taker"
    DEFENCE = "defence"

    @classmethod
    def parse(cls, text: str | Side) -> Side:
        if isinstance(text, Side):
            return text
        key = str(text).strip().lower()
        if key in ("taker", "attack", "attacker", "preneur", "attaque", "t"):
            return cls.TAKER
        if key in ("defence", "defense", "défense", "defenders", "d"):
            return cls.DEFENCE
        raise RulesError(f'unknown side "{text}": expected taker or defence.')


class Chelem(Enum):
    """What became of a chelem (all the tricks)."""

    NONE = "none"
    ANNOUNCED_MADE = "announced-made"
    UNANNOUNCED_MADE = "made"
    ANNOUNCED_FAILED = "announced-failed"
    DEFENCE_MADE = "defence"

    @classmethod
    def parse(cls, text: str | Chelem | None) -> Chelem:
        if text is None:
            return cls.NONE
        if isinstance(text, Chelem):
            return text
        key = str(text).strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {"unannounced-made": "made", "unannounced": "made", "failed": "announced-failed",
                   "defence-made": "defence", "defense": "defence", "defense-made": "defence"}
        key = aliases.get(key, key)
        for c in cls:
            if c.value == key:
                return c
        raise RulesError(f'unknown chelem "{text}": expected none, announced-made, made, '
                         "announced-failed or defence.")


def format_half_points(half: int) -> str:
    """``97`` -> ``48.5``, ``98`` -> ``49``, ``-57`` -> ``-28.5``: points as players write
    them."""
    sign = "-" if half < 0 else ""
    return sign + str(abs(half) // 2) + (".5" if half % 2 else "")


@dataclass(frozen=True)
class ScoreLine:
    """One item of the score: its amount per defender, positive for the taker's side."""

    item: str
    amount: int
    why: str


@dataclass(frozen=True)
class FrenchScore:
    """The value of one deal per defender, itemised; ``value`` > 0 when the taker's side
    gains.  Points are in half points; ``difference`` is whole (the half point rounded
    for the side that wins, as the FFT rules)."""

    contract: Contract
    players: int
    taker_half_points: int
    oudlers: int
    target_half_points: int
    made: bool
    difference: int
    multiplier: int
    contract_value: int
    petit_au_bout: int
    poignees: int
    chelem: int
    value: int
    lines: tuple[ScoreLine, ...]

    @property
    def taker_points(self) -> str:
        return format_half_points(self.taker_half_points)

    @property
    def target_points(self) -> int:
        return self.target_half_points // 2


def difference_points(margin: Any) -> Any:
    """Whole points of difference of a margin in half points (an int, or a numpy array of
    whole numbers): a half point of difference counts as a whole one for the side that
    wins it: 41.5 for 41 is made by 1, 40.5 failed by 1 (FFT, three and five players)."""
    return (abs(margin) + 1) // 2


def _difference(taker_half: int, target_half: int) -> tuple[bool, int]:
    """(made, whole points of difference).  Made at the target or above."""
    diff = taker_half - target_half
    return diff >= 0, difference_points(diff)


def score(rules: FrenchRules, contract: Contract | str, taker_half_points: int,
          oudlers: int, *, petit_au_bout: Side | str | None = None,
          poignees: Iterable[tuple[Side | str, Poignee | str]] = (),
          chelem: Chelem | str | None = None) -> FrenchScore:
    """Score one deal.  ``taker_half_points`` counts the taker's side's cards (with the
    chien or the discard as the contract gives them), ``oudlers`` the oudlers among them;
    ``petit_au_bout`` is the side that took the last trick with the Petit in it;
    ``poignees`` one (side that showed it, level) per poignée shown.

    RulesError for impossible input, naming the value and what was expected.
    """
    con = Contract.parse(contract)
    if isinstance(taker_half_points, bool) or not isinstance(taker_half_points, int):
        raise RulesError(f"taker's points must be whole half points, not {taker_half_points!r}.")
    if not 0 <= taker_half_points <= TOTAL_HALF_POINTS:
        raise RulesError(f"taker's points {format_half_points(taker_half_points)}: expected "
                         "0 to 91.")
    if isinstance(oudlers, bool) or not isinstance(oudlers, int) or not 0 <= oudlers <= 3:
        raise RulesError(f"oudlers {oudlers!r}: expected 0, 1, 2 or 3.")
    low = _OUDLER_HALF_POINTS * oudlers
    high = TOTAL_HALF_POINTS - _OUDLER_HALF_POINTS * (3 - oudlers)
    if not low <= taker_half_points <= high:
        raise RulesError(
            f"taker's points {format_half_points(taker_half_points)} with {oudlers} oudlers: "
            f"impossible, each oudler is 4.5 points on its side (expected "
            f"{format_half_points(low)} to {format_half_points(high)}).")
    m = con.multiplier
    target = TARGET_HALF_POINTS[oudlers]
    made, diff = _difference(taker_half_points, target)
    sign = 1 if made else -1
    lines = []
    contract_value = sign * (BASE + diff) * m
    pts = format_half_points(taker_half_points)
    lines.append(ScoreLine(
        "Contract", contract_value,
        f"{'made' if made else 'failed'}: {pts} for {target // 2} ({oudlers} oudlers); "
        f"({BASE} + {diff}) × {m}"))

    pab = 0
    if petit_au_bout is not None:
        side = Side.parse(petit_au_bout)
        each = PETIT_AU_BOUT * rules.petit_au_bout_factor(m)
        # The bonus goes to the side that took the last trick, whoever won the contract.
        pab = each if side is Side.TAKER else -each
        how = f"{PETIT_AU_BOUT} × {m}" if rules.petit_au_bout == "multiplied" else "flat"
        lines.append(ScoreLine("Petit au bout", pab, f"{side.value} ({how})"))

    poignee_total = 0
    for raw_side, raw_level in poignees:
        shower, level = Side.parse(raw_side), Poignee.parse(raw_level)
        # The bonus goes to the side that wins the contract, whoever showed it.
        amount = sign * rules.poignee_value(level)
        poignee_total += amount
        lines.append(ScoreLine(
            f"Poignée {level.value}", amount,
            f"shown by the {shower.value}; to the {'taker' if made else 'defence'} "
            "(not multiplied)"))

    chelem_value = _chelem(rules, Chelem.parse(chelem), lines)
    value = contract_value + pab + poignee_total + chelem_value
    return FrenchScore(con, rules.players, taker_half_points, oudlers, target, made, diff, m,
                       contract_value, pab, poignee_total, chelem_value, value, tuple(lines))


def _chelem(rules: FrenchRules, chelem: Chelem, lines: list[ScoreLine]) -> int:
    announced, unannounced, failed, defence = rules.chelem_values
    amount, why = {
        Chelem.NONE: (0, ""),
        Chelem.ANNOUNCED_MADE: (announced, "announced and made"),
        Chelem.UNANNOUNCED_MADE: (unannounced, "made, not announced"),
        Chelem.ANNOUNCED_FAILED: (-failed, "announced, failed"),
        Chelem.DEFENCE_MADE: (-defence, "the defence took every trick"),
    }[chelem]
    if chelem is not Chelem.NONE:
        lines.append(ScoreLine("Chelem", amount, why + " (not multiplied)"))
    return amount


@dataclass(frozen=True)
class Marque:
    """Each seat's score: the taker, his partner (five players, else None), each defender."""

    players: int
    taker: int
    partner: int | None
    defender: int
    defenders: int

    def total(self) -> int:
        return self.taker + (self.partner or 0) + self.defender * self.defenders

    def by_seat(self, taker: int, partner: int | None = None) -> tuple[int, ...]:
        """The scores in seat order, seats 0..players-1."""
        if not 0 <= taker < self.players:
            raise RulesError(f"taker seat {taker}: expected 0 to {self.players - 1}.")
        if (partner is None) != (self.partner is None) or partner == taker:
            raise RulesError("a partner seat is needed exactly when the taker has a partner.")
        out = [self.defender] * self.players
        out[taker] = self.taker
        if partner is not None:
            out[partner] = self.partner or 0
        return tuple(out)


def marque(value: int | FrenchScore, players: int, *, taker_alone: bool = False) -> Marque:
    """Spread a deal's ``value`` per defender over the table, summing to zero.

    Three players: the taker 2 ×; four: 3 ×; five: the taker 2 × and the called partner
    1 ×, or the taker alone (he called his own King, or it was in the chien) 4 ×.
    """
    v = value.value if isinstance(value, FrenchScore) else int(value)
    if players == 3:
        return Marque(3, 2 * v, None, -v, 2)
    if players == 4:
        return Marque(4, 3 * v, None, -v, 3)
    if players == 5:
        if taker_alone:
            return Marque(5, 4 * v, None, -v, 4)
        return Marque(5, 2 * v, v, -v, 3)
    raise RulesError(f"players must be 3, 4 or 5, not {players}.")
