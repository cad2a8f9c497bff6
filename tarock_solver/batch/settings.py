"""What a batch run computes: the settings every worker needs, and their fingerprint.

:class:`BatchSettings` travels to every worker (a spawned process or a Dask worker on
another machine), so it holds only plain, picklable values.  Its
:meth:`~BatchSettings.fingerprint` lists exactly the settings that can change the
output; the checkpoint manifest stores it, so a resumed run never mixes chunks that
were computed under different settings.  How the work is spread (jobs, executor) is
deliberately not part of it: results never depend on that.  Nor is the node budget:
exact rows do not depend on it, and rows over budget are solved again by a later run
with a larger one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import SEAT_HELP, SEAT_NAMES
from ..errors import RulesError

__all__ = ["FRENCH_ADVICE_WORLDS", "BatchSettings"]

#: Worlds of French Tarot advice when none are given: the adviser's own default
#: (``FrenchAdviceRequest.worlds``).
FRENCH_ADVICE_WORLDS = 256


def _seats(values: Iterable[str] | None) -> tuple[str, ...] | None:
    if values is None:
        return None
    seats: list[str] = []
    for value in values:
        seat = str(value).strip().upper()
        if seat not in SEAT_NAMES:
            raise RulesError(f'unknown seat "{value}"; {SEAT_HELP}.')
        if seat not in seats:
            seats.append(seat)
    # Seat order, not typing order: "--declarer R,F" and "--declarer F,R" are one run.
    return tuple(s for s in SEAT_NAMES if s in seats)


@dataclass(frozen=True)
class BatchSettings:
    """Settings of one batch run.

    ``rules`` and ``opts`` are the run's profile and ``--opt`` overrides (a record's own
    ``rules``/``options`` take precedence for that record).  ``contracts`` and
    ``declarers`` restrict the table (``None`` = all).  ``timing=False`` writes no wall
    times (``solve_ms`` is null), which makes outputs byte-identical between runs.
    ``node_limit`` caps the search nodes of each table row (``None``: no cap).
    ``samples`` and ``seed`` are the advice modes' worlds (per contract in the ``advise``
    mode) and random seed.
    ``worker_threads`` caps numba's threads inside worker processes so that ``--jobs N``
    does not oversubscribe the cores; the main process keeps its own setting.
    """

    mode: str = "table"
    rules: str = "dummett"
    opts: tuple[tuple[str, str], ...] = ()
    contracts: tuple[str, ...] | None = None
    declarers: tuple[str, ...] | None = None
    timing: bool = True
    samples: int = 100
    seed: int = 1
    node_limit: int | None = None
    worker_threads: int | None = field(default=None, compare=False)

    @classmethod
    def create(cls, *, mode: str = "table", rules: str = "dummett",
               opts: Mapping[str, Any] | None = None, contracts: Iterable[str] | None = None,
               declarers: Iterable[str] | None = None, timing: bool = True,
               samples: int | None = None, seed: int = 1, node_limit: int | None = None,
               worker_threads: int | None = None) -> BatchSettings:
        """Normalised settings: seats upper-case in seat order, options sorted (French
        Tarot seats 1..4 in order); ``samples`` by default that of the mode
        (:data:`FRENCH_ADVICE_WORLDS` for French Tarot advice, else 100)."""
        if samples is None:
            samples = FRENCH_ADVICE_WORLDS if mode == "french-advise" else 100
        if str(mode).startswith("french"):
            seats = None if not declarers else _french_seats(declarers)
        else:
            seats = _seats(declarers)
        return cls(mode=str(mode), rules=str(rules),
                   opts=tuple(sorted((str(k), str(v)) for k, v in (opts or {}).items())),
                   contracts=None if contracts is None else tuple(dict.fromkeys(
                       str(c).strip().lower() for c in contracts)),
                   declarers=seats, timing=bool(timing), samples=int(samples),
                   seed=int(seed), node_limit=None if node_limit is None else int(node_limit),
                   worker_threads=worker_threads)

    @property
    def opts_dict(self) -> dict[str, str]:
        return dict(self.opts)

    def fingerprint(self) -> dict[str, Any]:
        """The settings that determine the output, as JSON-ready values."""
        out: dict[str, Any] = {
            "mode": self.mode, "rules": self.rules, "opts": [list(kv) for kv in self.opts],
            "contracts": None if self.contracts is None else list(self.contracts),
            "declarers": None if self.declarers is None else list(self.declarers),
            "timing": self.timing}
        if self.mode in ("advise", "french-advise"):
            # sampling settings mean nothing to the exact table
            out.update(samples=self.samples, seed=self.seed)
        if self.mode == "french-advise":
            # every number is the evaluator's: a run must not resume chunks advised by
            # other weights
            from ..french.estimate.model import WEIGHTS_PATH

            out["evaluator"] = hashlib.sha256(WEIGHTS_PATH.read_bytes()).hexdigest()[:16]
        if self.mode == "french-review":
            # the early cards' estimates are the evaluator's: a run must not resume chunks
            # estimated by another one (or left unjudged for want of one)
            from ..french.review import learned_values

            values, name = learned_values()
            out["evaluator"] = name if values is not None else None
        # node_limit is left out on purpose: an exact row's value is the same under any
        # budget, and a run with a larger one resumes the checkpoints and re-solves only
        # the rows that were over budget (Checkpoint.note_node_limit).
        return out


def _french_seats(values: Iterable[str]) -> tuple[str, ...]:
    """French Tarot taker seats "1".."4", in order; RulesError naming a bad one."""
    from ..errors import RulesError

    seats = set()
    for v in values:
        text = str(v).strip()
        if text not in ("1", "2", "3", "4"):
            raise RulesError(f'unknown seat "{text}"; French Tarot seats are 1 to 4 (1 leads '
                             "the first trick).")
        seats.add(text)
    return tuple(sorted(seats))
