"""Analysis modes of a batch run: a mode turns one deal record into result rows.

A mode is a plain function ``analyse(record, settings) -> pandas.DataFrame`` plus the
empty frame of its schema (for chunks where every record failed); it is chosen by name,
so only the name travels to the workers.  The settings carry the rule profile by name
(plain values for the checkpoint fingerprint); each process loads the :class:`Rules` of
a profile and its options once (:func:`record_rules`) and passes the object down.
Modes:

``table``
    The double-dummy table of a complete deal (NOTATION 5.3 results schema): per
    declarer × contract the best talon group and discard and the exact outcome.
``advise``
    Bidding advice (NOTATION 5.3 advice output) for one hand by sampling: for a record
    with one known hand, that hand; for a complete deal, each declarer seat's hand as
    if the rest were unknown.
``review``
    The review of a played deal (NOTATION 8; input: a file of play records, read by the
    mode's own ``read``): one row per card with its double-dummy loss, and the exchange.

A mode whose engine cannot be imported is left out of :func:`available_modes`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..deal import Deal, PartialDeal
from ..deal_files import DealRecord
from ..errors import DealError, RulesError
from ..rules import SEAT_NAMES, Rules, load_rules
from .errors import BatchError
from .settings import BatchSettings

__all__ = ["Mode", "available_modes", "check_settings", "get_mode", "register_mode",
           "record_rules"]


@dataclass(frozen=True)
class Mode:
    """A named analysis: ``analyse`` gives a record's rows, ``empty`` the schema.

    ``resolve``, for modes whose rows can stop at a node budget, solves given rows
    ``(declarer, contract)`` of a record again (``None``: the mode has no such rows).
    """

    name: str
    summary: str
    analyse: Callable[[DealRecord, BatchSettings], pd.DataFrame]
    empty: Callable[[BatchSettings], pd.DataFrame]
    resolve: Callable[[DealRecord, BatchSettings, Sequence[tuple[str, str]]],
                      pd.DataFrame] | None = None
    #: The mode's own input reader ``read(path) -> (records, errors)`` (None: deal files,
    #: :func:`tarock_solver.deal_files.read_deals`).
    read: Callable[..., Any] | None = None

    def concat(self, frames: list[pd.DataFrame], settings: BatchSettings) -> pd.DataFrame:
        """The rows of several records in order, with the schema's dtypes kept."""
        frames = [f for f in frames if len(f)]
        if not frames:
            return self.empty(settings)
        if len(frames) == 1:
            return frames[0].reset_index(drop=True)
        return pd.concat(frames, ignore_index=True)


_MODES: dict[str, Callable[[], Mode]] = {}


def register_mode(name: str, factory: Callable[[], Mode]) -> None:
    """Register a mode; ``factory`` imports its engine and raises ImportError if absent."""
    _MODES[name] = factory


def get_mode(name: str) -> Mode:
    """The mode called ``name``; :class:`BatchError` if unknown or not available."""
    factory = _MODES.get(name)
    if factory is None:
        raise BatchError(f'unknown batch mode "{name}"; choose one of: '
                         f"{', '.join(available_modes())}.")
    try:
        return factory()
    except ImportError as exc:
        raise BatchError(f'batch mode "{name}" is not available in this installation '
                         f"({exc}).") from None


def available_modes() -> list[str]:
    """Names of the modes whose engines can be imported here."""
    names = []
    for name, factory in _MODES.items():
        try:
            factory()
        except ImportError:
            continue
        names.append(name)
    return names


#: The Rules this process has loaded, by profile and options (a run has one or a few).
_LOADED: dict[str, Rules] = {}


def _rules(profile: str, options: Mapping[str, object]) -> Rules:
    """``load_rules(profile, options)``, loaded once per process for each distinct pair."""
    key = json.dumps([profile, dict(options)], sort_keys=True, default=repr)
    rules = _LOADED.get(key)
    if rules is None:
        rules = _LOADED[key] = load_rules(profile, options)
    return rules


def record_rules(record: DealRecord, settings: BatchSettings) -> Rules:
    """The rules of one record: the record's ``rules`` replaces the run's profile, and
    its ``options`` are laid over the run's ``--opt`` values."""
    options: dict[str, object] = dict(settings.opts)
    options.update(record.options or {})
    return _rules(record.rules or settings.rules, options)


def check_settings(settings: BatchSettings) -> BatchSettings:
    """Validate the run's settings before any work and put contracts in profile order.

    Raises :class:`RulesError` for an unknown profile, option or contract and
    :class:`BatchError` for a mode that is not available.
    """
    get_mode(settings.mode)
    rules = _rules(settings.rules, settings.opts_dict)
    if settings.contracts is None:
        return settings
    keys = {rules.contract_key(c) for c in settings.contracts}
    ordered = tuple(c for c in rules.contracts if c in keys)
    return dataclasses.replace(settings, contracts=ordered)


def _complete_deal(record: DealRecord) -> Deal:
    deal = record.deal
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, PartialDeal) and deal.is_complete():
        return deal.to_deal()
    raise DealError("the table mode needs a complete deal (three hands and the talon); "
                    "for a single hand use --mode advise.")


def _contracts_for(rules_contracts: tuple[str, ...], settings: BatchSettings,
                   profile: str) -> tuple[str, ...]:
    if settings.contracts is None:
        return rules_contracts
    chosen = tuple(c for c in settings.contracts if c in rules_contracts)
    if not chosen:
        raise RulesError(f"none of the contracts {', '.join(settings.contracts)} exists in the "
                         f"{profile} profile of this record; it has "
                         f"{', '.join(rules_contracts)}.")
    return chosen


# ---------------------------------------------------------------------------
# table: the double-dummy table (tarock_solver.analysis)
# ---------------------------------------------------------------------------


def _table_mode() -> Mode:
    from . import table_adapter

    return Mode("table", "double-dummy table per declarer and contract",
                table_adapter.analyse, table_adapter.empty, table_adapter.resolve)


# ---------------------------------------------------------------------------
# advise: sampled bidding advice (tarock_solver.advise)
# ---------------------------------------------------------------------------


def _advise_mode() -> Mode:
    importlib.import_module("tarock_solver.advise.adviser")
    return Mode("advise", "bidding advice for a hand, by sampling", _advise_record,
                _advise_empty)


def _advise_empty(settings: BatchSettings) -> pd.DataFrame:
    from ..advise import report

    return report.build_table([], {"deal_id": "", "rules": settings.rules, "rule_options": "",
                                   "seat": "F"}).iloc[:0]


def _advise_record(record: DealRecord, settings: BatchSettings) -> pd.DataFrame:
    from ..advise.adviser import AdviceRequest, advise

    rules = record_rules(record, settings)
    contracts = None if settings.contracts is None else \
        _contracts_for(rules.contracts, settings, rules.name)
    deal = record.deal
    talon: tuple[int, ...] | None = None
    if isinstance(deal, PartialDeal) and not deal.is_complete():
        seat = deal.own_seat()
        seats = [seat]
        talon = deal.talon
    else:
        # A complete deal: advise each seat on its own hand, knowing nothing else, as at
        # the table before the bidding.
        seats = [SEAT_NAMES.index(s) for s in (settings.declarers or SEAT_NAMES)]
    frames = []
    for seat in seats:
        if settings.declarers is not None and SEAT_NAMES[seat] not in settings.declarers:
            continue
        hand = deal.hands[seat]
        assert hand is not None
        req = AdviceRequest(hand=hand, seat=seat, rules=rules, rules_name=rules.name,
                            overrides=dict(rules.overrides),
                            contracts=contracts, talon=talon, samples=settings.samples,
                            time_limit=None, seed=settings.seed, jobs=1, progress=False,
                            deal_id=record.id)
        frames.append(advise(req).table)
    if not frames:
        return _advise_empty(settings)
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------------------
# review: the double-dummy cost of every card of a played deal (tarock_solver.review)
# ---------------------------------------------------------------------------


def _review_mode() -> Mode:
    from . import review_adapter

    return Mode("review", "the double-dummy cost of every card of a played deal",
                review_adapter.analyse, review_adapter.empty, read=review_adapter.read)


register_mode("table", _table_mode)
register_mode("advise", _advise_mode)
register_mode("review", _review_mode)
