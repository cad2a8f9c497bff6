"""The adviser's answer as typed records, and their JSON.

:class:`OptionRow` is one contract × option of the table (its estimates);
:class:`Recommendation` (with its :class:`RunnerUp`, :class:`PairSplit`, …) what
to bid; :class:`RunMeta` how the run went; :class:`Advice` holds them all with
the table in the advice schema of NOTATION.md 5.3 (:func:`build_table`).  Each
record's ``to_json()`` gives the keys of ``tarock advise --json``; a record can
also be read by those keys (``rec["contract"]``, ``rec.get("runner_up")``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from .cv import MIN_EXACT, Estimate

__all__ = ["EXTRA_COLUMNS", "PASS_KIND", "SCHEMA_COLUMNS", "Advice", "AnnounceGate", "Choice", "InSample",
           "OptionRow", "PairSplit", "Recommendation", "RunMeta", "RunnerUp", "build_table"]

#: The kind of the row of passing (valued when the others bid; see :mod:`.passing`).
PASS_KIND = "pass"
SCHEMA_COLUMNS = ("deal_id", "rules", "rule_options", "seat", "contract", "option", "samples",
                  "win_prob", "win_prob_se", "mean_net", "mean_net_se", "mean_points")
EXTRA_COLUMNS = ("kind", "mean_points_se", "exact_worlds", "source", "gain", "gain_se",
                 "announce_rate", "conditional", "talon_behaviour", "mean_net_birds",
                 "mean_net_birds_se", "bird_worlds", "mean_net_cards", "mean_net_contras",
                 "mean_net_contras_se", "contra_share")


class _Record:
    """A result record: its JSON (the fields in order, an optional field that is None
    left out), and reading it by those keys."""

    #: Fields left out of the JSON when they are None.
    _optional: ClassVar[frozenset[str]] = frozenset()

    def _keys(self) -> list[str]:
        return [f.name for f in fields(self)  # type: ignore[arg-type]
                if not (f.name in self._optional and getattr(self, f.name) is None)]

    def to_json(self) -> dict[str, Any]:
        """The record as ``--json`` writes it (NaN stays NaN: the CLI writes null)."""
        return {k: _json(getattr(self, k)) for k in self._keys()}

    def __contains__(self, key: object) -> bool:
        return key in self._keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __getitem__(self, key: str) -> Any:
        if key not in self:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default


def _json(value: Any) -> Any:
    if isinstance(value, _Record):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class PairSplit(_Record):
    """A paired difference split into the evaluator's part and the exact correction, with
    the correction's weight and the difference's posterior mean
    (:func:`~.decision.pair_split`)."""

    evaluator: float
    correction: float
    correction_se: float
    exact_worlds: int
    correction_weight: float
    posterior: float
    #: The SE of the evaluator's part (its mean over every world).
    evaluator_se: float = math.nan


@dataclass(frozen=True)
class RunnerUp(_Record):
    """The option behind the recommended one ("pass" for passing), and the paired
    difference between them (recommended minus runner-up)."""

    contract: str
    option: str
    mean_net: float
    mean_points: float
    mean_points_se: float
    difference: float
    difference_se: float
    split: PairSplit


@dataclass(frozen=True)
class InSample(_Record):
    """The recommended option's numbers on every world (as in the table)."""

    mean_net: float
    mean_net_se: float
    mean_points: float
    mean_points_se: float
    p_make: float
    exact_worlds: int


@dataclass(frozen=True)
class Choice(_Record):
    """An option a half of the worlds chose (held-out check)."""

    contract: str
    option: str


@dataclass(frozen=True)
class AnnounceGate(_Record):
    """The SEs an announcement's gain needed, and the number of tests behind it."""

    se: float
    tests: int


#: The keys of a recommendation that its answer to a senior's Three shows.
_SENIOR_KEYS = ("contract", "option", "mean_net", "mean_net_se", "mean_points",
                "mean_points_se", "p_make", "close_call", "tentative", "runner_up",
                "birds_counted", "settled", "p_better", "correction_weight")


@dataclass(frozen=True)
class Recommendation(_Record):
    """What to bid: ``contract`` ("pass" to pass) and ``option``, with the held-out
    numbers of the choice (:mod:`.decision`); ``in_sample``, ``held_out_choices`` and
    ``held_out_agrees`` only when a contract is bid, ``birds_in`` only when the birds were
    counted, ``if_senior_three`` only for a seat that may bid Lower."""

    worlds: int
    contract: str
    option: str
    mean_net: float
    mean_net_se: float
    mean_points: float
    mean_points_se: float
    p_make: float
    in_sample: InSample | None = None
    held_out_choices: tuple[Choice | None, ...] | None = None
    held_out_agrees: bool | None = None
    runner_up: RunnerUp | None = None
    close_call: bool = False
    settled: bool = False
    tentative: bool = False
    tentative_reasons: tuple[str, ...] = ()
    announce_gate: AnnounceGate = AnnounceGate(math.nan, 0)
    birds_counted: bool = False
    birds_in: tuple[str, ...] | None = None
    if_senior_three: Recommendation | None = None
    #: The probability that the recommended option is better than the runner-up (the
    #: posterior of their difference, :func:`~.decision.p_better`; NaN without SEs).
    p_better: float = math.nan
    #: The weight the exact correction of that difference kept (:func:`~.cv.bias_weight`).
    correction_weight: float = math.nan

    _optional: ClassVar[frozenset[str]] = frozenset(
        {"in_sample", "held_out_choices", "held_out_agrees", "birds_in", "if_senior_three"})

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.if_senior_three is not None:
            senior = self.if_senior_three
            out["if_senior_three"] = {k: _json(senior[k]) for k in _SENIOR_KEYS if k in senior}
        return out


@dataclass(frozen=True)
class RunMeta(_Record):
    """How the run went: its seed and limit, the worlds and exact solves per contract,
    the timings and solver counts, the talon decision, the settings and the notes."""

    seed: int
    samples_requested: int
    worlds: int
    exact_worlds: dict[str, int]
    bird_worlds: dict[str, int]
    exact_cut_by_deadline: list[str]
    contenders: list[str]
    stopped: dict[str, int]
    exchanges_valued: dict[str, float]
    jobs: int
    time_limit: float | None
    seconds: float
    evaluator_load_seconds: float
    seconds_evaluator: float
    seconds_exact: float
    exact_solves: int
    exact_unfinished: int
    exact_nodes: int
    exact_solver_seconds: float
    game_point_solves: int
    game_point_unfinished: int
    game_point_seconds: float
    kernels_compiled_this_run: bool
    kernels_ready_after: float | None
    interrupted: bool
    talon: list[int] | None
    talon_decision: dict | None
    left_out: dict[str, str]
    settings: dict[str, Any]
    notes: list[str]
    #: The ``--time-limit`` a firm answer would take (a tentative answer's hint), or None.
    firm_time_limit: float | None = None
    #: The run ended early because its answer was firm (a timed run; see
    #: :func:`~.decision.waiting_for`).
    stopped_firm: bool = False
    #: What the answer still waited for when the run ended (None: firm, or untimed).
    waiting_for: str | None = None
    #: How the others were taken to bid when I pass (``policy`` or ``pass``), passing's
    #: exact worlds, and the Trischaken deals solved for them (three seats each).
    opponents: str = "pass"
    pass_exact_worlds: int = 0
    trischaken_solves: int = 0


@dataclass(frozen=True)
class OptionRow:
    """One contract × policy: its estimates over the worlds."""

    contract: str
    policy: int
    option: str
    kind: str  # plain | single | best | bird
    net: Estimate
    made: Estimate
    points: Estimate
    gain: Estimate | None  # vs plain play of the same contract (paired); None for plain
    announce_rate: float
    conditional: bool
    talon_behaviour: str
    #: The net with the silent birds of plain play (None: the run counts no birds); then
    #: also ``net`` itself, and ``net_cards`` is the net scored from the card points alone.
    net_birds: Estimate | None = None
    bird_worlds: int = 0
    net_cards: Estimate | None = None
    #: The series the row comes from (:attr:`~.problem.ContractPlan.key`; "": the contract).
    series: str = ""
    #: Passing's row: per outcome of the others' auction, its share of the worlds and my
    #: mean net there (``declarer``, ``contract``, ``share``, ``mean_net``, ``exact_worlds``).
    outcomes: list[dict] | None = None
    #: Plain play's net when the defenders contra by their policy (None: not modelled),
    #: and the share of worlds on which they said contra.
    net_contras: Estimate | None = None
    contra_share: float = math.nan

    @property
    def key(self) -> str:
        """The name of the row's series in the run (the contract, or its "no ..." plan)."""
        return self.series or self.contract

    @property
    def source(self) -> str:
        if self.net.exact >= MIN_EXACT:
            return "exact-corrected"
        return "evaluator only" if self.net.exact == 0 else "few exact worlds"


@dataclass
class Advice:
    """The whole answer: tables, recommendation and everything needed to reproduce it."""

    table: pd.DataFrame
    recommendation: Recommendation
    meta: RunMeta
    rows: list[OptionRow] = field(default_factory=list)
    #: Rounded card points of plain play per world by the evaluator, by contract (plots).
    points: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def passing(self) -> OptionRow | None:
        """Passing's row, when the run values passing (the others bid)."""
        return next((r for r in self.rows if r.kind == PASS_KIND), None)

    @property
    def announcements(self) -> pd.DataFrame:
        """The announcement rows (single items, best combinations and bird options)."""
        return self.table[self.table["kind"].isin(["single", "best", "bird"])
                          ].reset_index(drop=True)


def build_table(rows: Sequence[OptionRow], key: dict) -> pd.DataFrame:
    """The advice-schema table: a row per option, plus ``pass`` (its own row when the run
    values passing, else worth 0 by definition)."""
    out = []
    for r in rows:
        out.append({**key, "contract": r.contract, "option": r.option, "samples": r.net.worlds,
                    "win_prob": r.made.mean, "win_prob_se": r.made.se, "mean_net": r.net.mean,
                    "mean_net_se": r.net.se, "mean_points": r.points.mean, "kind": r.kind,
                    "mean_points_se": r.points.se, "exact_worlds": r.net.exact,
                    "source": r.source,
                    "gain": r.gain.mean if r.gain else math.nan,
                    "gain_se": r.gain.se if r.gain else math.nan,
                    "announce_rate": r.announce_rate, "conditional": r.conditional,
                    "talon_behaviour": r.talon_behaviour,
                    "mean_net_birds": r.net_birds.mean if r.net_birds else math.nan,
                    "mean_net_birds_se": r.net_birds.se if r.net_birds else math.nan,
                    "bird_worlds": r.bird_worlds,
                    "mean_net_cards": (r.net_cards or r.net).mean,
                    "mean_net_contras": r.net_contras.mean if r.net_contras else math.nan,
                    "mean_net_contras_se": r.net_contras.se if r.net_contras else math.nan,
                    "contra_share": r.contra_share})
    if any(r.kind == PASS_KIND for r in rows):
        df = pd.DataFrame(out, columns=[*SCHEMA_COLUMNS, *EXTRA_COLUMNS])
        return df.astype({"samples": "int32", "exact_worlds": "int32", "bird_worlds": "int32"})
    out.append({**key, "contract": "pass", "option": "plain", "samples": 0,
                "win_prob": math.nan, "win_prob_se": math.nan, "mean_net": 0.0,
                "mean_net_se": 0.0, "mean_points": math.nan, "kind": "pass",
                "mean_points_se": math.nan, "exact_worlds": 0, "source": "by definition",
                "gain": math.nan, "gain_se": math.nan, "announce_rate": math.nan,
                "conditional": False, "talon_behaviour": "", "mean_net_birds": 0.0,
                "mean_net_birds_se": 0.0, "bird_worlds": 0, "mean_net_cards": 0.0,
                "mean_net_contras": 0.0, "mean_net_contras_se": 0.0,
                "contra_share": math.nan})
    df = pd.DataFrame(out, columns=[*SCHEMA_COLUMNS, *EXTRA_COLUMNS])
    return df.astype({"samples": "int32", "exact_worlds": "int32", "bird_worlds": "int32"})
