"""Cheap deals for batch tests: F holds tarocks VII … XXII, M holds I and R holds II (so no
hand is tarock-less), the other 36 cards are shuffled with the seed.  Searches with M or R
declaring are tiny, yet every deal gives different rows."""

from __future__ import annotations

import numpy as np

from tarock_solver.cards import mask_of
from tarock_solver.deal import Deal
from tarock_solver.deal_files import DealRecord


def lopsided_records(count: int, seed: int, prefix: str) -> list[DealRecord]:
    rng = np.random.default_rng(seed)
    top = list(range(6, 22))
    records = []
    for i in range(count):
        rest = [int(c) for c in rng.permutation([c for c in range(54)
                                                 if c not in top and c not in (0, 1)])]
        deal = Deal(hands=(mask_of(top), mask_of([0, *rest[:15]]), mask_of([1, *rest[15:30]])),
                    talon=tuple(rest[30:]))
        records.append(DealRecord(id=f"{prefix}-{i}", deal=deal, seed=seed))
    return records
