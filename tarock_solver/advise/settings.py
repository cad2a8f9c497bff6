"""What the caller asks of the adviser and how hard it may work.

:class:`AdviceRequest` is one advice question; :class:`AdviceSettings` how hard
each part of a run works; :class:`AdviceLimit` the run's limit (seconds and
worlds), from which the deadline is worked out; :class:`AdviceProgress` what a run
reports to the request's ``on_progress`` while it works.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules import Rules, load_rules

__all__ = ["AdviceLimit", "AdviceProgress", "AdviceRequest", "AdviceSettings"]


@dataclass(frozen=True)
class AdviceLimit:
    """How far a run goes: at most ``worlds`` worlds, within ``seconds`` (None or 0: no
    time limit, every requested exact solve is done).  A timed run with
    ``stop_when_firm`` ends as soon as its answer is firm
    (:func:`~.decision.waiting_for`): ``seconds`` is then a cap."""

    seconds: float | None = 30.0
    worlds: int = 400
    stop_when_firm: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.worlds, bool) or int(self.worlds) != self.worlds or self.worlds < 1:
            raise ValueError(f"a run needs at least one world, not {self.worlds!r}")
        object.__setattr__(self, "worlds", int(self.worlds))
        if self.seconds is not None and not (self.seconds >= 0 and self.seconds < float("inf")):
            raise ValueError(f"a time limit is a finite number of seconds ≥ 0, not "
                             f"{self.seconds!r}")

    @property
    def timed(self) -> bool:
        """Does the run have a time limit?"""
        return bool(self.seconds)

    def deadline(self, start: float | None = None) -> float | None:
        """The epoch time the run ends at, counted from ``start`` (default: now); None
        without a time limit."""
        if not self.seconds:
            return None
        return (time.time() if start is None else start) + self.seconds


@dataclass(frozen=True)
class AdviceSettings:
    """How hard each part works.

    ``inner``: inner worlds per talon decision (``screen`` of them value every
    exchange, then the ``keep`` best get all); ``talon_inner``: the same for the
    one decision of talon mode.  ``evaluator_share``: the part of the time limit
    for phase 1 (which goes on to :data:`~.cv.MIN_WORLDS` worlds if the
    deadline allows).  Exact solves start once ``exact_from`` worlds are
    evaluated; they go to the contracts among the ``contenders`` options the
    evaluator ranks best (by its mean net over the worlds so far; passing, worth 0,
    is an option that needs no solve), the next world of the one with the fewest
    first; the others are screened out and come back if the ranking changes.
    ``max_exact``: cap per contract (None: every evaluated world), which bounds
    the work of a run without a time limit.  ``birds``: game-point solves of plain
    play for the silent birds, from ``birds_from`` card-point worlds of a contender
    on, one for every ``bird_every`` more (a game-point solve costs 3–25 card-point
    solves, so the card points keep most of the exact work).  ``cell_width``: the
    exact solves stop at a cell of that many points (odd; 1: exact values; see
    :meth:`~.series.ContractSeries.values`).  ``stop_margin``, ``stop_every``: every
    ``stop_every`` worlds, a contract that gets no exact worlds and whose best option
    the evaluator's mean net puts more than ``stop_margin`` game points below the best
    (passing, worth 0, included) stops getting evaluator worlds: its numbers rest on
    the worlds done so far (a prefix, so still unbiased, with their SEs), and the main
    thread's time goes to the contracts in the race and to the solver threads.
    ``contras``: the defenders' contras on plain play's game by their policy
    (:mod:`.contras`), shown beside each contract's net (the recommendation is made on
    the nets without them).
    """

    inner: int = 64
    screen: int = 8
    keep: int = 8
    talon_inner: int = 512
    evaluator_share: float = 0.2
    exact_from: int = 8
    contenders: int = 2
    max_exact: int | None = 48
    birds: bool = True
    birds_from: int = 8
    bird_every: int = 1
    cell_width: int = 3
    stop_margin: float | None = 30.0
    stop_every: int = 100
    contras: bool = True

    def __post_init__(self) -> None:
        # an odd width puts the cell's middle on a whole point (the scorer's unit)
        if self.cell_width < 1 or self.cell_width % 2 == 0:
            raise ValueError(f"cell_width must be odd and positive, not {self.cell_width}")


@dataclass(frozen=True)
class AdviceProgress:
    """How far a run is: reported to :attr:`AdviceRequest.on_progress` while it works.

    ``phase``: ``"evaluator"`` (sampling worlds) or ``"exact"`` (the solver threads'
    turn); ``worlds``: worlds evaluated so far, of ``worlds_total`` (the request's cap;
    None with a time limit, which ends the run first as a rule); ``exact_solves``:
    exact solves finished; ``seconds`` since the clock started, of ``time_limit``
    (None: none).  ``leader``: the contract of the option with the best E[net] so far
    (None before any), with the standard errors of its E[net] (game points) and
    E[card points] once it has enough exact worlds for them (else None); worked out at
    most every :data:`~.progress.LEADER_EVERY` seconds, so it may lag the counts.
    ``waiting_for``: in a timed run's exact phase, what its answer still waits for
    before the run may stop (:func:`~.decision.waiting_for`; None: not checked yet).
    """

    phase: str
    worlds: int
    worlds_total: int | None
    exact_solves: int
    seconds: float
    time_limit: float | None
    leader: str | None = None
    leader_net_se: float | None = None
    leader_points_se: float | None = None
    waiting_for: str | None = None


@dataclass
class AdviceRequest:
    """One advice question.

    ``hand`` is the adviser's own 16 cards at ``seat`` (0 F, 1 M, 2 R).
    ``rules`` is the rule profile; without it the profile ``rules_name`` with
    ``overrides`` is loaded.  ``others`` may fix other hands (``None`` =
    unknown); ``talon`` (t1..t6) switches to the after-talon question for
    ``contracts``.  ``limit`` caps the run's worlds and seconds (a run out of
    time answers with the worlds done).  ``solve_batch`` replaces the
    exact card-point solver (tests: ``[(hands, declarer), …] → points``) and
    ``solve_game`` the game-point one (a :class:`~.exact.GameRequest` → net);
    with ``solve_batch`` and no ``solve_game`` there are no bird solves;
    ``solve_trischaken`` replaces the Trischaken one (a
    :class:`~.exact.TrischakenRequest` → points).  ``opponents``: ``policy`` (the
    others bid by the adviser's policy when I pass, :mod:`.passing`) or ``pass``
    (they never bid: passing is worth 0).
    ``progress`` draws a bar on stderr; ``on_progress`` is called with an
    :class:`AdviceProgress` as the run goes (it only reads: the answer is the same
    with or without it).
    """

    hand: int
    seat: int = 0
    rules_name: str = "dummett"
    overrides: dict[str, str] = field(default_factory=dict)
    contracts: tuple[str, ...] | None = None
    talon: tuple[int, ...] | None = None
    others: tuple[int | None, int | None, int | None] = (None, None, None)
    limit: AdviceLimit = AdviceLimit()
    seed: int = 1
    jobs: int = 1
    settings: AdviceSettings = field(default_factory=AdviceSettings)
    solve_batch: Callable | None = None
    solve_game: Callable | None = None
    solve_trischaken: Callable | None = None
    opponents: str = "policy"
    progress: bool = False
    on_progress: Callable[[AdviceProgress], None] | None = None
    deal_id: str = "hand"
    rules: Rules | None = None

    def rule_profile(self) -> Rules:
        """The rules of the question: ``rules``, else the named profile with its overrides."""
        return self.rules if self.rules is not None else load_rules(self.rules_name,
                                                                    dict(self.overrides))
