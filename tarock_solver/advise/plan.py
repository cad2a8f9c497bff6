"""What the adviser solves: the question, how hard to work it, and the plan built from it.

:class:`AdviceRequest` is the question as a caller asks it; :class:`RaceConfig`
says how hard the talon decision is worked and what node budgets the solves get.
:func:`make_problem` turns a request into a :class:`Problem`: per contract the
announcement sets and policies (:class:`~.types.ContractPlan`), the bird sets
the game-point solver judges, and what is known of the deal.  A Problem is
plain picklable data, so worker processes receive it whole and every world is
evaluated from the same plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..cards import BIRD_CARD
from ..errors import RulesError
from ..rules import Rules, load_rules
from ..talon import TALON_TAKE
from .announcements import AnnSet, build_policies, enumerate_annsets
from .rulesview import RulesView
from .sampling import Knowledge
from .types import ContractPlan


@dataclass(frozen=True)
class RaceConfig:
    """How hard the talon decision is worked.

    ``per_group``: discards per talon group that enter the race, by contract.
    ``schedule``: cumulative inner worlds per successive-halving round (per
    outer talon sample).  ``talon_schedule`` / ``talon_per_group``: the same
    when the talon is given and the decision is made once.  ``race_nodes`` /
    ``eval_nodes``: node budget of one position in the race / in the
    evaluation (None: none); over it, a value is the midpoint of its proved
    bounds, and the output counts such values.  ``race_budget``: nodes of one
    race (one contract in one world); once spent, the decision is made on
    the rounds done.  At the measured 3–4 M nodes/s the defaults cap one race
    position near 3 s, one race near 30 s and one evaluation near 12 s, so
    no single world can eat the time limit.  ``bird_nodes``: node budget of one
    game-point solve (bird announcements; ~10 s at the measured rate); a world
    with a solve over it is left out of the bird rows and counted.

    The defaults were measured on the demo hand (world 0, nodes per
    contract): 3/3/2/1 discards per group, rounds (2, 4, 8) and a 3 M budget
    spent 171 M nodes with half of the race values only bounded (±8 points);
    2/2/1/1, (2, 4) and 10 M spent 154 M with 5 of 40 bounded.
    """

    per_group: tuple[tuple[str, int], ...] = (("three", 2), ("lower", 2), ("two", 1), ("one", 1))
    schedule: tuple[int, ...] = (2, 4)
    talon_per_group: int = 6
    talon_schedule: tuple[int, ...] = (4, 8, 16, 32, 64)
    race_nodes: int | None = 10_000_000
    eval_nodes: int | None = 40_000_000
    race_budget: int | None = 100_000_000
    bird_nodes: int | None = 20_000_000

    def keep(self, contract: str) -> int:
        return dict(self.per_group).get(contract, 2)


@dataclass
class AdviceRequest:
    """One advice question.

    ``hand`` is the adviser's own 16 cards at ``seat`` (0 F, 1 M, 2 R).
    ``rules`` is the rule profile; without it the profile ``rules_name`` with
    ``overrides`` is loaded.  ``others`` may fix other hands (``None`` =
    unknown); ``talon`` (t1..t6) switches to the after-talon question for
    ``contracts``.  ``samples`` is the number of worlds (outer samples);
    ``time_limit`` stops earlier with the worlds done.  ``birds``: judge the
    bird announcements with the exact game-point solver (``game_point_fn``
    replaces it, tests).  ``solve_batch`` replaces the card-point solver (tests).
    """

    hand: int
    seat: int = 0
    rules_name: str = "dummett"
    overrides: dict[str, str] = field(default_factory=dict)
    contracts: tuple[str, ...] | None = None
    talon: tuple[int, ...] | None = None
    others: tuple[int | None, int | None, int | None] = (None, None, None)
    samples: int = 100
    time_limit: float | None = 60.0
    seed: int = 1
    jobs: int = 1
    race: RaceConfig = field(default_factory=RaceConfig)
    solve_batch: Callable | None = None
    progress: bool = False
    deal_id: str = "hand"
    birds: bool = True
    game_point_fn: Callable | None = None
    rules: Rules | None = None

    def rule_profile(self) -> Rules:
        """The rules of the question: ``rules``, else the named profile with its overrides."""
        return self.rules if self.rules is not None else load_rules(self.rules_name,
                                                                    dict(self.overrides))


@dataclass(frozen=True)
class Problem:
    """A picklable description of the whole advice task (sent to worker processes)."""

    knowledge: Knowledge
    seat: int
    hand: int
    rules: Rules
    plans: tuple[ContractPlan, ...]
    seed: int
    race: RaceConfig
    given_talon: tuple[int, ...] | None
    solve_batch: Callable | None = None  # None: the project's solver; tests inject one
    #: Per contract, the bird announcement sets judged by the game-point solver
    #: (index 0 is ``()``, the game-point value without announcements).
    birds: tuple[tuple[str, tuple[AnnSet, ...]], ...] = ()
    game_point_fn: Callable | None = None  # None: the solver's solve_game_points; tests inject


def make_plans(view: RulesView, contracts: Sequence[str], dealt: int) -> tuple[ContractPlan, ...]:
    """Announcement sets and policies of every contract; Solo first (it is cheapest)."""
    plans = []
    for c in contracts:
        take = TALON_TAKE[c]
        annsets = tuple(enumerate_annsets(view.item_levels(c), dealt))
        policies = tuple(build_policies(list(annsets), take > 0))
        racing = tuple(i for i, p in enumerate(policies)
                       if p.kind in ("plain", "single") or (p.kind == "combo" and not p.before))
        plans.append(ContractPlan(c, take, annsets, policies, racing))
    plans.sort(key=lambda p: (p.take != 0, -p.take))
    return tuple(plans)


def bird_plans(view: RulesView, plans: Sequence[ContractPlan], knowledge: Knowledge,
               seat: int) -> tuple[tuple[str, tuple[AnnSet, ...]], ...]:
    """The bird announcement sets to judge per contract: ``()`` then one set per bird and level.

    Only the holder may announce a bird, so a set is kept only if the
    declarer can hold the card: before the talon in his dealt hand; after it
    also when the card may come with the talon (talon contracts, the card not
    known to be elsewhere).  Whether he holds it is then decided per world.
    """
    hand = knowledge.hands[seat]
    elsewhere = 0
    for s, h in enumerate(knowledge.hands):
        if s != seat:
            elsewhere |= h
    talon = knowledge.talon
    out = []
    for plan in plans:
        sets: list[AnnSet] = [()]
        for bird, levels in view.bird_levels(plan.contract).items():
            card = BIRD_CARD[bird]
            held = bool(hand >> card & 1)
            if knowledge.talon_known:
                may_take = plan.take > 0 and card in talon
            else:
                may_take = plan.take > 0 and not elsewhere >> card & 1
            for level in levels:
                if held or (level == "after" and may_take):
                    sets.append(((bird, level),))
        out.append((plan.contract, tuple(sets)))
    return tuple(out)


def knowledge_of(req: AdviceRequest) -> Knowledge:
    """What the adviser knows of the deal: his hand, any fixed hands, the talon if given."""
    hands = [h if h is not None else 0 for h in req.others]
    hands[req.seat] = req.hand
    talon = tuple(req.talon) if req.talon is not None else (-1,) * 6
    return Knowledge((hands[0], hands[1], hands[2]), talon)


def contracts_asked(rules: Rules, req: AdviceRequest) -> tuple[str, ...]:
    """The contracts to advise on (a given talon leaves out Solo, which never exposes it)."""
    chosen = (tuple(rules.check_contract(c) for c in req.contracts) if req.contracts
              else rules.contracts)
    if req.talon is not None:
        if "solo" in chosen and req.contracts:
            raise RulesError("a Solo never exposes the talon; --talon needs a contract that "
                             "takes talon cards (" + ", ".join(
                                 c for c in rules.contracts if c != "solo") + ").")
        chosen = tuple(c for c in chosen if c != "solo")
    return chosen


def make_problem(req: AdviceRequest, rules: Rules) -> Problem:
    """The plan of a request: contracts, announcement sets, policies and bird sets."""
    view = RulesView(rules)
    knowledge = knowledge_of(req)
    plans = make_plans(view, contracts_asked(rules, req), req.hand)
    birds = bird_plans(view, plans, knowledge, req.seat) if req.birds else ()
    return Problem(knowledge, req.seat, req.hand, rules, plans, int(req.seed), req.race,
                   tuple(req.talon) if req.talon is not None else None, req.solve_batch,
                   birds, req.game_point_fn)
