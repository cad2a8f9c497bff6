"""What every batch mode needs of a record: its rules, its complete deal, its contracts.

The settings carry the rule profile by name (plain values for the checkpoint
fingerprint); each process loads the :class:`Rules` of a profile and its options once
(:func:`loaded_rules`) and the modes pass the object down.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from ..deal import Deal, PartialDeal
from ..deal_files import DealRecord
from ..errors import DealError, RulesError
from ..rules import Rules, load_rules
from .settings import BatchSettings

__all__ = ["complete_deal", "contracts_for", "loaded_rules", "record_rules"]


class _HasRules(Protocol):
    """A record with its own rule profile and options (a deal or a play record)."""

    rules: str | None
    options: dict[str, Any]


#: The Rules this process has loaded, by profile and options (a run has one or a few).
_LOADED: dict[str, Rules] = {}


def loaded_rules(profile: str, options: Mapping[str, object]) -> Rules:
    """``load_rules(profile, options)``, loaded once per process for each distinct pair."""
    key = json.dumps([profile, dict(options)], sort_keys=True, default=repr)
    rules = _LOADED.get(key)
    if rules is None:
        rules = _LOADED[key] = load_rules(profile, options)
    return rules


def record_rules(record: _HasRules, settings: BatchSettings) -> Rules:
    """The rules of one record: the record's ``rules`` replaces the run's profile, and
    its ``options`` are laid over the run's ``--opt`` values."""
    options: dict[str, object] = dict(settings.opts)
    options.update(record.options or {})
    return loaded_rules(record.rules or settings.rules, options)


def complete_deal(record: DealRecord) -> Deal:
    """The record's deal; :class:`DealError` unless all three hands and the talon are known."""
    deal = record.deal
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, PartialDeal) and deal.is_complete():
        return deal.to_deal()
    raise DealError("the table mode needs a complete deal (three hands and the talon); "
                    "for a single hand use --mode advise.")


def contracts_for(rules_contracts: tuple[str, ...], settings: BatchSettings,
                  profile: str) -> tuple[str, ...]:
    """The run's ``--contract`` choice among a profile's contracts (all when none is chosen);
    :class:`RulesError` when the profile has none of them."""
    if settings.contracts is None:
        return rules_contracts
    chosen = tuple(c for c in settings.contracts if c in rules_contracts)
    if not chosen:
        raise RulesError(f"none of the contracts {', '.join(settings.contracts)} exists in the "
                         f"{profile} profile of this record; it has "
                         f"{', '.join(rules_contracts)}.")
    return chosen
