"""Analysis modes of a batch run: a mode turns one deal record into result rows.

A :class:`Mode` is a plain function ``analyse(record, settings) -> pandas.DataFrame`` plus
the empty frame of its schema (for chunks where every record failed).  This registry
names the modes ``table``, ``advise``, ``review`` and French Tarot's ``french-table``,
``french-review`` and ``french-advise`` (only the name travels to the workers) and imports a mode's adapter
module when the mode is first asked for; a mode whose engine cannot be imported is left
out of :func:`available_modes`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..deal_files import DealRecord
from ..errors import RulesError
from .errors import BatchError
from .records import loaded_rules
from .settings import BatchSettings

__all__ = ["Mode", "available_modes", "check_settings", "get_mode", "register_mode"]


@dataclass(frozen=True)
class Mode:
    """A named analysis: ``analyse`` gives a record's rows, ``empty`` the schema.

    Each mode's code is an adapter module of its own (``table_adapter``,
    ``advise_adapter``, ``review_adapter``, sharing :mod:`.records`).

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


def check_settings(settings: BatchSettings) -> BatchSettings:
    """Validate the run's settings before any work and put contracts in profile order.

    Raises :class:`RulesError` for an unknown profile, option or contract and
    :class:`BatchError` for a mode that is not available.
    """
    get_mode(settings.mode)
    if settings.mode in FRENCH_MODES:
        from ..french.rules import Contract, load_rules

        rules = load_rules(settings.rules, settings.opts_dict)
        if settings.mode == "french-advise":
            _check_french_advice(settings, rules.players)
            return settings
        if settings.contracts is None:
            return settings
        wanted = {Contract.parse(c) for c in settings.contracts}
        return dataclasses.replace(settings, contracts=tuple(
            c.value for c in Contract if c in wanted))
    rules = loaded_rules(settings.rules, settings.opts_dict)
    if settings.contracts is None:
        return settings
    keys = {rules.contract_key(c) for c in settings.contracts}
    ordered = tuple(c for c in rules.contracts if c in keys)
    return dataclasses.replace(settings, contracts=ordered)


def _check_french_advice(settings: BatchSettings, players: int) -> None:
    """What French Tarot advice cannot do, refused before any advice is computed."""
    from .french_advise_adapter import PLAYERS

    if players != PLAYERS:
        raise RulesError(f"advice plays four players; the rules {settings.rules} are for "
                         f"{players}.")
    if settings.contracts is not None:
        raise RulesError("French Tarot advice weighs every contract and passing; give no "
                         "contracts (--contract) for it.")
    if settings.samples < 8:
        raise RulesError(f"{settings.samples} worlds: French Tarot advice needs at least 8 "
                         "for a standard error.")
    if settings.seed < 0:
        raise RulesError(f"seed {settings.seed}: the seed of French Tarot advice is a whole "
                         "number from 0.")


# ---------------------------------------------------------------------------
# table: the double-dummy table (tarock_solver.analysis) of a complete deal (NOTATION 5.3
# results schema): per declarer × contract the best talon group and discard and the exact
# outcome.
# ---------------------------------------------------------------------------


def _table_mode() -> Mode:
    from . import table_adapter

    return Mode("table", "double-dummy table per declarer and contract",
                table_adapter.analyse, table_adapter.empty, table_adapter.resolve)


# ---------------------------------------------------------------------------
# advise: sampled bidding advice (tarock_solver.advise; NOTATION 5.3 advice output) for one
# hand: for a record with one known hand, that hand; for a complete deal, each declarer
# seat's hand as if the rest were unknown.
# ---------------------------------------------------------------------------


def _advise_mode() -> Mode:
    from . import advise_adapter

    return Mode("advise", "bidding advice for a hand, by sampling", advise_adapter.analyse,
                advise_adapter.empty)


# ---------------------------------------------------------------------------
# review: the double-dummy cost of every card of a played deal (tarock_solver.review;
# NOTATION 8; input: a file of play records, read by the mode's own ``read``): one row per
# card with its double-dummy loss, and the exchange.
# ---------------------------------------------------------------------------


def _review_mode() -> Mode:
    from . import review_adapter

    return Mode("review", "the double-dummy cost of every card of a played deal",
                review_adapter.analyse, review_adapter.empty, read=review_adapter.read)


# ---------------------------------------------------------------------------
# french-table: the double-dummy table of a French Tarot deal (tarock_solver.french.analysis;
# input: a French Tarot deal file, read by the mode's own ``read``).
# ---------------------------------------------------------------------------


def _french_table_mode() -> Mode:
    from . import french_adapter

    return Mode("french-table", "French Tarot: double-dummy table per taker and contract",
                french_adapter.analyse, french_adapter.empty, french_adapter.resolve,
                read=french_adapter.read)


# ---------------------------------------------------------------------------
# french-review: what every card of a played French Tarot deal cost
# (tarock_solver.french.review; input: a French Tarot deal file whose records carry their
# play): one row per card, exact near the end of the deal, estimated or unjudged before.
# ---------------------------------------------------------------------------


def _french_review_mode() -> Mode:
    from . import french_review_adapter

    return Mode("french-review", "French Tarot: what every card of a played deal cost",
                french_review_adapter.analyse, french_review_adapter.empty,
                read=french_review_adapter.read)


# ---------------------------------------------------------------------------
# french-advise: which contract to take with a hand of a French Tarot deal, or to pass
# (tarock_solver.french.advice; input: a French Tarot deal file, read by the mode's own
# ``read``): one row per hand advised with the recommendation and every option's numbers.
# ---------------------------------------------------------------------------


def _french_advise_mode() -> Mode:
    from . import french_advise_adapter

    return Mode("french-advise", "French Tarot: bidding advice for a hand, by sampling",
                french_advise_adapter.analyse, french_advise_adapter.empty,
                read=french_advise_adapter.read)


#: The modes that analyse French Tarot files (``--game french``).
FRENCH_MODES = ("french-table", "french-review", "french-advise")

register_mode("table", _table_mode)
register_mode("advise", _advise_mode)
register_mode("review", _review_mode)
register_mode("french-table", _french_table_mode)
register_mode("french-review", _french_review_mode)
register_mode("french-advise", _french_advise_mode)
