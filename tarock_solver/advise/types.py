"""Plain records shared by the adviser's orchestration and its report."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass
class ContractWorld:
    """One contract in one world: an outcome per policy, plus what it cost."""

    outcomes: list[PolicyOutcome]
    candidates: int = 0
    inner_worlds: int = 0


@dataclass
class WorldResult:
    index: int
    contracts: dict[str, ContractWorld] = field(default_factory=dict)
    solves: int = 0
    seconds: float = 0.0
