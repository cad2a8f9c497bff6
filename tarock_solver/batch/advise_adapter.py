"""The ``advise`` batch mode: bidding advice (NOTATION 5.3 advice output) by sampling.

For a record with one known hand, that hand is advised; for a complete deal, each
declarer seat's hand, as if the rest were unknown.  Importing this module imports the
advise engine (an ImportError leaves the mode out of the run's choices).
"""

from __future__ import annotations

import pandas as pd

from ..advise import AdviceLimit, AdviceRequest, advise
from ..advise.results import build_table
from ..deal import PartialDeal
from ..deal_files import DealRecord
from ..rules import SEAT_NAMES
from .records import contracts_for, record_rules
from .settings import BatchSettings

__all__ = ["analyse", "empty"]


def empty(settings: BatchSettings) -> pd.DataFrame:
    """The advice table's schema with no rows."""
    return build_table([], {"deal_id": "", "rules": settings.rules, "rule_options": "",
                            "seat": "F"}).iloc[:0]


def analyse(record: DealRecord, settings: BatchSettings) -> pd.DataFrame:
    """The advice rows of one record (one block per advised seat, in seat order)."""
    rules = record_rules(record, settings)
    contracts = None if settings.contracts is None else \
        contracts_for(rules.contracts, settings, rules.name)
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
                            contracts=contracts, talon=talon,
                            limit=AdviceLimit(None, settings.samples), seed=settings.seed,
                            jobs=1, progress=False,
                            deal_id=record.id)
        frames.append(advise(req).table)
    if not frames:
        return empty(settings)
    return pd.concat(frames, ignore_index=True)
