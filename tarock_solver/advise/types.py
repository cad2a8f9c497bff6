"""The plan of one contract, shared by the adviser's engine and its report."""

from __future__ import annotations

from dataclasses import dataclass

from .announcements import AnnSet, Policy


@dataclass(frozen=True)
class ContractPlan:
    """Everything fixed about one contract before sampling."""

    contract: str
    take: int
    annsets: tuple[AnnSet, ...]
    policies: tuple[Policy, ...]  # plain play first
