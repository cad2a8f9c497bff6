"""Plain records shared by the adviser's orchestration and its report."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .announcements import AnnSet, Policy


@dataclass(frozen=True)
class ContractPlan:
    """Everything fixed about one contract before sampling."""

    contract: str
    take: int
    annsets: tuple[AnnSet, ...]
    policies: tuple[Policy, ...]
    racing: tuple[int, ...]  # policy indices whose objectives keep candidates alive


@dataclass
class PolicyOutcome:
    """The evaluation of one policy's choice in one world."""

    net: float
    thirds: int
    made: bool
    valat: bool
    announced: tuple[str, ...]  # after-talon items announced (conditional policies)
    group: str
    discard: str
    bounded: bool = False  # card points from bounds (node budget spent), not exact


@dataclass
class ContractWorld:
    """One contract in one world: an outcome per policy, plus what it cost."""

    outcomes: list[PolicyOutcome]
    candidates: int = 0
    inner_worlds: int = 0
    #: Work per phase ("race", "eval"): evaluate.PhaseStats, for the cost report.
    work: dict = field(default_factory=dict)
    race_cut: bool = False  # the race's node budget ended it early (a pathological world)
    #: The plain policy's exchange: (declarer's hand after it, his discard in thirds);
    #: the position the birds are judged on.
    plain_exchange: tuple[int, int] | None = None


@dataclass
class BirdWorld:
    """Bird announcements of one contract in one world, by the game-point solver.

    Arrays by bird announcement set (index 0: no announcement): the exact
    game-point net (NaN: not announceable, the declarer does not hold the
    bird), and whether every announced bird won its trick.
    """

    nets: np.ndarray
    success: np.ndarray
    seconds: float = 0.0
    solves: int = 0
    #: A game-point solve ran over its node budget: the world is left out of every
    #: bird row of the contract (and counted in the output).
    over_budget: bool = False


@dataclass
class WorldResult:
    """A unit's results in world ``index``: card-point contracts and/or birds."""

    index: int
    contracts: dict[str, ContractWorld] = field(default_factory=dict)
    solves: int = 0
    seconds: float = 0.0
    birds: dict[str, BirdWorld] = field(default_factory=dict)
    kind: str = "world"  # "world" (card-point contracts) or "birds"
