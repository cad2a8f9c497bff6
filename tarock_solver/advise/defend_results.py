"""The typed answer of the defender's contra advice and its JSON and table forms.

:class:`DefendAdvice` holds one :class:`ContraRow` per contra object and level, the
declarer's P(make), card points and net (each an :class:`~.cv.Estimate`), and the
run's size; :func:`advice_word` turns a gain and its SE into the advice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .cv import Estimate
from .evaluate import PlayTask

__all__ = ["ContraRow", "DefendAdvice", "WorldDetail", "advice_word"]

#: The table's columns (``--csv``), one row per contra object and level.
TABLE_COLUMNS = ("item", "level", "name", "stages", "factor", "gain", "gain_se", "advice",
                 "recontra_share", "worlds", "exact")


def advice_word(gain: float, se: float, name: str = "contra") -> str:
    """``name`` when the gain's lower 2-SE bound is above 0, ``no name`` when its upper
    bound is below 0, else ``close: lean …`` by its sign; without an SE (too few exact
    worlds) ``tentative: lean …``."""
    if not math.isfinite(gain):
        return "not valued"
    lean = name if gain > 0 else f"no {name}"
    if not math.isfinite(se):
        return f"tentative: lean {lean}"
    if gain - 2 * se > 0:
        return name
    if gain + 2 * se < 0:
        return f"no {name}"
    return f"close: lean {lean}"


@dataclass(frozen=True)
class ContraRow:
    """One contra object at one level: the defender's expected gain (game points of his
    net) over not saying it, paired on the same worlds.

    Level 1 is contra, followed by the declarer's re-contra where his policy says so
    (``recontra_share``: on that share of the worlds); level 3 is subcontra over a
    re-contra, on the worlds where he re-contras.  ``covers``: the announcements the
    game's contra covers (``contra_scope``)."""

    item: str
    level: int
    name: str
    stages: str
    factor: int
    gain: float
    gain_se: float
    advice: str
    worlds: int
    exact: int
    recontra_share: float | None
    covers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "level": self.level, "name": self.name,
                "stages": self.stages, "factor": self.factor, "gain": _num(self.gain),
                "gain_se": _num(self.gain_se), "advice": self.advice,
                "recontra_share": _num(self.recontra_share), "worlds": self.worlds,
                "exact": self.exact, "covers": list(self.covers)}


@dataclass(frozen=True)
class WorldDetail:
    """One world as played: the position after the exchange, the group taken, the
    evaluator's and (if solved) the exact future card points of the declarer, and
    whether he re-contras each object."""

    task: PlayTask
    group: str
    estimate: float
    exact: int | None
    recontra: dict[str, bool]


@dataclass(frozen=True)
class DefendAdvice:
    """The defender's answer (see :mod:`.defend`)."""

    contract: str
    seat: int
    declarer: int
    stage: str
    talon: tuple[int, ...] | None
    taken: str | None
    announced: tuple[tuple[str, str], ...]
    contras: tuple[ContraRow, ...]
    covered: tuple[str, ...]
    not_valued: tuple[tuple[str, str], ...]
    p_make: Estimate
    points: Estimate
    declarer_net: Estimate
    worlds: int
    exact_worlds: int
    seed: int
    rules: str
    rule_options: str
    seconds: float
    detail: tuple[WorldDetail, ...] = ()

    @property
    def table(self) -> pd.DataFrame:
        """The contra rows as a table (:data:`TABLE_COLUMNS`)."""
        return pd.DataFrame([{k: r.to_json()[k] for k in TABLE_COLUMNS} for r in self.contras],
                            columns=list(TABLE_COLUMNS))

    def to_json(self) -> dict[str, Any]:
        """Everything but the per-world detail; NaN as None."""
        return {
            "contract": self.contract, "seat": "FMR"[self.seat],
            "declarer": "FMR"[self.declarer],
            "timing": "after the talon" if self.stage == "a" else "before the talon",
            "announced": [f"{n}@{lv}" for n, lv in self.announced], "taken": self.taken,
            "contras": [r.to_json() for r in self.contras],
            "covered_by_game": list(self.covered),
            "not_valued": [{"item": n, "why": why} for n, why in self.not_valued],
            "p_make": _num(self.p_make.mean), "p_make_se": _num(self.p_make.se),
            "points": _num(self.points.mean), "points_se": _num(self.points.se),
            "declarer_net": _num(self.declarer_net.mean),
            "declarer_net_se": _num(self.declarer_net.se),
            "worlds": self.worlds, "exact_worlds": self.exact_worlds, "seed": self.seed,
            "rules": self.rules, "rule_options": self.rule_options,
            "seconds": round(self.seconds, 3),
        }


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)
