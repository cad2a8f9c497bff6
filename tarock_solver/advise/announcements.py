"""The announcement scenarios the adviser compares, and the policies built from them.

An *announcement set* is a tuple of ``(item, level)`` pairs, level ``'before'``
or ``'after'`` the talon; the items judged (point targets, ``no_trull``,
``no_kings``, ``valat``) are all decided by the declarer's card points, tricks
and hand, so one card-point solve per world scores every set.  A *policy* is a
rule for announcing: fixed before-talon items plus the after-talon items the
declarer may add per talon (in Solo, every announcement is unconditional).
A *bird option* (Pagat, Uhu or Kakadu at one level) is a policy of its own: plain
play of the card-point items with the bird announced, valued by the game-point
evaluator and game-point solves (the bird changes the play, so one card-point
solve cannot score it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..cards import BIRD_BITS, KINGS_MASK, TRULL_MASK

#: Items decided by card points, tricks and the hand, in the order options are written.
CARD_POINT_ITEMS: tuple[str, ...] = ("absolut", "kramerpoi", "no_kings", "no_trull", "valat")
#: Items that need the game-point solver.
BIRD_ITEMS: tuple[str, ...] = ("pagat", "uhu", "kakadu")
TARGET_ITEMS = ("absolut", "kramerpoi")
TARGET_POINTS = {"absolut": 40, "kramerpoi": 50}
#: Cards a "no ..." announcement says the declarer does not hold.
NO_CARDS_MASK = {"no_trull": TRULL_MASK, "no_kings": KINGS_MASK}
LEVELS = ("after", "before")

AnnSet = tuple[tuple[str, str], ...]


def option_string(annset: AnnSet) -> str:
    """The NOTATION 5.3 ``option`` string of a set: ``plain`` or ``absolut@before;no_kings@after``."""
    if not annset:
        return "plain"
    return ";".join(f"{name}@{level}" for name, level in sorted(annset))


def before_part(annset: AnnSet) -> frozenset[str]:
    return frozenset(name for name, level in annset if level == "before")


def after_part(annset: AnnSet) -> frozenset[str]:
    return frozenset(name for name, level in annset if level == "after")


def enumerate_annsets(levels: dict[str, tuple[str, ...]], dealt_hand: int) -> list[AnnSet]:
    """Every announcement set the declarer could make, ``()`` (plain) first.

    ``levels[item]`` lists the levels at which the profile allows the item in
    this contract.  A "no ..." item is possible only if the dealt hand is free
    of its cards (the protected cards can never be discarded, so a hand that
    holds one keeps it).  At most one point target is announced: a Kramerpoi
    replaces or includes the Absolut, so announcing both adds nothing.
    """
    choices: list[list[tuple[str, str] | None]] = []
    for item in CARD_POINT_ITEMS:
        lv = levels.get(item, ())
        if item in NO_CARDS_MASK and dealt_hand & NO_CARDS_MASK[item]:
            lv = ()
        choices.append([None, *((item, level) for level in lv)])
    out: list[AnnSet] = []
    for combo in product(*choices):
        chosen = tuple(c for c in combo if c is not None)
        if sum(1 for name, _ in chosen if name in TARGET_ITEMS) > 1:
            continue
        out.append(tuple(sorted(chosen)))
    out.sort(key=lambda s: (len(s), option_string(s)))
    return out


def eligible_after(annset: AnnSet, hand_after: int) -> bool:
    """May this set be announced with this hand after the exchange?

    An after-talon "no ..." announcement needs the hand after the exchange to be
    free of those cards.  (A before-talon one was judged on the dealt hand; if
    the taken group breaks it, the scoring applies `pre_no_cards_break`.)
    """
    for name, level in annset:
        if level == "after" and name in NO_CARDS_MASK and hand_after & NO_CARDS_MASK[name]:
            return False
    return True


@dataclass(frozen=True)
class Policy:
    """An announcing rule: fixed before-talon items plus after-talon items allowed per talon.

    ``kind`` is ``'plain'``, ``'single'`` (one item at one level; the rows of the
    announcements table) or ``'combo'`` (any before-set with every after item
    allowed; the best of them is the "best announcements" row).
    """

    name: str
    before: frozenset[str]
    after_allowed: frozenset[str]
    kind: str
    unconditional: bool = False
    #: A bird option's ``(bird, level)`` (``kind`` ``'bird'``); None for the others.
    bird: tuple[str, str] | None = None

    def allows(self, annset: AnnSet) -> bool:
        if before_part(annset) != self.before:
            return False
        after = after_part(annset)
        if self.unconditional:
            return after == self.after_allowed
        return after <= self.after_allowed


def _policy_name(before: frozenset[str], after: frozenset[str]) -> str:
    parts = [f"{n}@before" for n in before] + [f"{n}@after" for n in after]
    return ";".join(sorted(parts)) if parts else "plain"


def build_policies(annsets: list[AnnSet], talon_contract: bool) -> list[Policy]:
    """The policies to evaluate for one contract, ``plain`` first.

    Talon contracts: plain; one ``single`` policy per (item, level) present in
    ``annsets`` (after-talon items conditional on the talon); and one ``combo``
    policy per before-talon set with every compatible after-talon item allowed.
    Solo: every set is an unconditional policy (plain, singles, combos).
    """
    items_levels = sorted({pair for s in annsets for pair in s})
    policies: list[Policy] = [Policy("plain", frozenset(), frozenset(), "plain", not talon_contract)]
    for name, level in items_levels:
        if level == "before":
            pol = Policy(f"{name}@before", frozenset([name]), frozenset(), "single")
        else:
            pol = Policy(f"{name}@after", frozenset(), frozenset([name]), "single",
                         not talon_contract)
        policies.append(pol)
    if talon_contract:
        befores = sorted({before_part(s) for s in annsets}, key=lambda b: (len(b), sorted(b)))
        for b in befores:
            after = frozenset(after_part(s) for s in annsets if before_part(s) == b)
            allowed = frozenset().union(*after) if after else frozenset()
            policies.append(Policy("best:" + _policy_name(b, allowed), b, allowed, "combo"))
    else:
        for s in annsets:
            if len(s) > 1:
                after = after_part(s)
                policies.append(Policy(_policy_name(frozenset(), after), frozenset(),
                                       after, "combo", True))
    return policies


def bird_policies(levels: dict[str, tuple[str, ...]], dealt_hand: int,
                  talon_contract: bool) -> list[Policy]:
    """A bird option per bird the dealt hand holds and level the contract allows
    (``levels[bird]``), in the order Pagat, Uhu, Kakadu, after before before.

    A bird from the talon is not offered: the bidder asks about the birds he holds.
    Its card-point items are plain play's (the policy allows the plain set only)."""
    out = []
    for bird in BIRD_ITEMS:
        if not dealt_hand & BIRD_BITS[bird]:
            continue
        for level in sorted(levels.get(bird, ())):
            out.append(Policy(f"{bird}@{level}", frozenset(), frozenset(), "bird",
                              not talon_contract, (bird, level)))
    return out


def before_no_cards(policy: Policy) -> int:
    """The cards a policy's before-talon "no ..." items say the declarer will not hold
    (0: none): its exchange must not take them where a group without them exists."""
    mask = 0
    for name in policy.before:
        mask |= NO_CARDS_MASK.get(name, 0)
    return mask
