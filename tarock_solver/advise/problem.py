"""What the adviser solves: the contracts, their announcement options, what is known.

:func:`make_problem` turns an :class:`~.settings.AdviceRequest` into a
:class:`Problem`: the contracts the seat may bid (and those left out, with
why), per contract a :class:`ContractPlan` (announcement sets and policies),
and what is known of the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..auction import may_ever_call
from ..cards import TALON_SIZE
from ..errors import RulesError
from ..rules import Rules
from ..talon import TALON_TAKE
from .announcements import (
    NO_CARDS_MASK,
    AnnSet,
    Policy,
    before_no_cards,
    bird_policies,
    build_policies,
    enumerate_annsets,
)
from .rulesview import RulesView
from .sampling import Knowledge
from .settings import AdviceRequest

__all__ = ["ContractPlan", "Problem", "contracts_asked", "knowledge_of", "lower_unavailable",
           "make_plans", "make_problem"]


@dataclass(frozen=True)
class ContractPlan:
    """Everything fixed about one contract before sampling.

    A contract's policies that announce No Kings or No Trull before the talon have a
    plan of their own (``forbid``: those cards), whose exchange never takes them where
    a talon group without them exists; its first policy is plain play with that
    exchange (``kind`` ``'base'``: the reference of its birds, never a row)."""

    contract: str
    take: int
    annsets: tuple[AnnSet, ...]
    policies: tuple[Policy, ...]  # plain play first, the bird options last
    forbid: int = 0
    #: The items of ``forbid`` (the key's suffix), e.g. ``no_kings``.
    forbid_items: str = ""

    @property
    def key(self) -> str:
        """The plan's name among the run's series: the contract, or e.g. ``three/no_kings``
        for the plan whose exchange keeps a before-talon No Kings."""
        return f"{self.contract}/{self.forbid_items}" if self.forbid else self.contract

    @property
    def bird_options(self) -> tuple[int, ...]:
        """The indices of the bird options among :attr:`policies`."""
        return tuple(i for i, p in enumerate(self.policies) if p.bird is not None)


@dataclass(frozen=True)
class Problem:
    """A picklable description of the whole advice task (sent to worker processes)."""

    knowledge: Knowledge
    seat: int
    hand: int
    rules: Rules
    plans: tuple[ContractPlan, ...]
    seed: int
    given_talon: tuple[int, ...] | None
    #: Contracts left out for this seat, with the reason (e.g. Lower for forehand).
    left_out: tuple[tuple[str, str], ...] = ()


def make_plans(view: RulesView, contracts: Sequence[str], dealt: int) -> tuple[ContractPlan, ...]:
    """Announcement sets and policies of every contract, in the order given; after each
    talon contract, the plans of its policies that keep a before-talon "no ..." (one per
    set of forbidden cards, see :class:`ContractPlan`)."""
    plans = []
    for c in contracts:
        take = TALON_TAKE[c]
        annsets = tuple(enumerate_annsets(view.item_levels(c), dealt))
        policies = (build_policies(list(annsets), take > 0)
                    + bird_policies(view.bird_levels(c), dealt, take > 0))
        groups: dict[int, list[Policy]] = {}
        if take:
            for pol in policies:
                if before_no_cards(pol):
                    groups.setdefault(before_no_cards(pol), []).append(pol)
        kept = [pol for pol in policies if not (take and before_no_cards(pol))]
        plans.append(ContractPlan(c, take, annsets, tuple(kept)))
        for mask, pols in sorted(groups.items()):
            items = "+".join(sorted(n for n in pols[0].before if n in NO_CARDS_MASK
                                    and NO_CARDS_MASK[n] & mask))
            base = Policy("plain", frozenset(), frozenset(), "base")
            plans.append(ContractPlan(c, take, annsets, (base, *pols), mask, items))
    return tuple(plans)


def knowledge_of(req: AdviceRequest) -> Knowledge:
    """What the adviser knows of the deal: his hand, any fixed hands, the talon if given."""
    hands = [h if h is not None else 0 for h in req.others]
    hands[req.seat] = req.hand
    talon = tuple(req.talon) if req.talon is not None else (-1,) * TALON_SIZE
    return Knowledge((hands[0], hands[1], hands[2]), talon)


@lru_cache(maxsize=64)  # an exhaustive auction search (~0.06 s) per rule set and seat
def lower_unavailable(rules: Rules, seat: int) -> str | None:
    """Why ``seat`` can never bid Lower under these rules (None: it can, in some auction).

    The auction decides (:func:`~tarock_solver.auction.may_ever_call`): with
    ``takeover_mode=lower_bid`` Lower is bid only over a Three of a senior player
    (RULES.md 6), and nobody is senior to forehand.
    """
    if "lower" not in rules.contracts or may_ever_call(rules, seat, "lower"):
        return None
    who = ("forehand", "middlehand", "rearhand")[seat]
    return (f"{who} can never bid Lower under these rules: it is bid only over a "
            f"Three of a senior player (takeover_mode={rules.takeover_mode})")


def contracts_asked(rules: Rules, req: AdviceRequest) -> tuple[tuple[str, ...],
                                                              tuple[tuple[str, str], ...]]:
    """The contracts to advise on, in the rules' order, and those left out with why.

    A given talon leaves out Solo (which never exposes it); Lower is left out
    where the seat can never bid it.
    """
    chosen = (tuple(rules.check_contract(c) for c in req.contracts) if req.contracts
              else rules.contracts)
    left: list[tuple[str, str]] = []
    if req.talon is not None:
        if "solo" in chosen and req.contracts:
            raise RulesError("a Solo never exposes the talon; --talon needs a contract that "
                             "takes talon cards (" + ", ".join(
                                 c for c in rules.contracts if c != "solo") + ").")
        chosen = tuple(c for c in chosen if c != "solo")
    why = lower_unavailable(rules, req.seat)
    if "lower" in chosen and why:
        if req.contracts and tuple(req.contracts) == ("lower",):
            raise RulesError(f"no Lower advice for this seat: {why}.")
        chosen = tuple(c for c in chosen if c != "lower")
        left.append(("lower", why))
    return chosen, tuple(left)


def make_problem(req: AdviceRequest, rules: Rules) -> Problem:
    """The plan of a request: contracts, announcement sets and policies."""
    view = RulesView(rules)
    knowledge = knowledge_of(req)
    contracts, left = contracts_asked(rules, req)
    plans = make_plans(view, contracts, req.hand)
    return Problem(knowledge, req.seat, req.hand, rules, plans, int(req.seed),
                   tuple(req.talon) if req.talon is not None else None, left)
