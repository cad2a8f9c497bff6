"""The declarer's play options and the search for the best of them.

For a declarer and a contract every legal talon exchange is a *play option*
(:func:`play_options`; in Solo the one option is the dealt hand); :func:`best_play`
finds the one with the largest total on one shared table.  The double-dummy table
(:mod:`.ddtable`) and the review of an exchange (:mod:`tarock_solver.review.engine`)
both search their options here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import KINGS_MASK, TAROCK_MASK, mask_nominal, popcount
from ..deal import Deal
from ..play import LEADER
from ..rules import Rules
from ..solver import Budget, CardPointSearch, Position
from ..talon import Exchange, exchanges

__all__ = [
    "ABORTED",
    "BOUND",
    "EXACT",
    "NOT_BETTER",
    "UNSEARCHED",
    "BestPlay",
    "OptionOutcome",
    "PlayOption",
    "best_play",
    "order_options",
    "play_options",
    "play_points_total",
]

# Outcome statuses of one option.
EXACT = "exact"            # its exact value is known
NOT_BETTER = "not_better"  # a null-window test proved it cannot beat the best so far
BOUND = "bound"            # even every remaining point could not beat the best so far
ABORTED = "aborted"        # its search ran out of nodes
UNSEARCHED = "unsearched"  # never reached: the row's budget was already spent

_SUIT_GROUP_MASKS = tuple(((1 << 8) - 1) << start for start in (22, 30, 38, 46))


@dataclass(frozen=True)
class PlayOption:
    """One way for the declarer to start the play.

    ``hand`` is the hand he plays; ``base_thirds`` what is already in his pile (the
    discard); ``exchange`` the talon exchange behind it, if any.  His discard counts
    for him and the untaken talon for the defenders (RULES.md 4); in Solo all six
    talon cards go to the defenders.
    """

    hand: int
    base_thirds: int
    exchange: Exchange | None = None


@dataclass(frozen=True)
class OptionOutcome:
    """What the search learned about one option (status: see the module constants)."""

    option: PlayOption
    status: str
    trick_points: int | None = None

    @property
    def thirds(self) -> int | None:
        """The declarer's total in thirds, when the option was solved exactly."""
        if self.trick_points is None:
            return None
        return self.option.base_thirds + 3 * self.trick_points


@dataclass(frozen=True)
class BestPlay:
    """The result of :func:`best_play`.

    ``best`` is the best option proven (exact when ``complete``; when the node budget
    ran out, the best of the options solved so far, a lower bound on the true best).
    ``outcomes`` lists every option in search order.  ``lower_thirds`` and
    ``upper_thirds`` bound the best total (declarer thirds) by what the searches
    proved; they are equal, and equal to ``best.thirds``, when ``complete``.
    """

    best: OptionOutcome | None
    outcomes: tuple[OptionOutcome, ...]
    complete: bool
    nodes: int
    seconds: float
    exact_solves: int
    tests: int
    lower_thirds: int | None = None
    upper_thirds: int | None = None

    @property
    def skipped(self) -> int:
        """Options settled without an exact solve (by a test or by the bound)."""
        return sum(o.status in (NOT_BETTER, BOUND) for o in self.outcomes)


def play_points_total(hands: Sequence[int]) -> int:
    """Card points of all the tricks still to be played from fresh-trick hands."""
    cards = hands[0] | hands[1] | hands[2]
    return mask_nominal(cards) - 2 * (popcount(cards) // 3)


def best_play(solver: CardPointSearch, options: Sequence[PlayOption], hands: Sequence[int],
              declarer: int, *, leader: int = LEADER, budget: Budget | None = None,
              raise_alpha: bool = True) -> BestPlay:
    """The option with the largest declarer total, searched in the given order.

    An option's total is ``declarer thirds = discard thirds + 3 × (card points he
    takes in the 16 tricks)``.  ``hands`` holds the defenders' hands (the declarer's
    entry is replaced by each option's hand); play starts with a fresh trick led by
    ``leader``.  All options share one transposition table.  The first is solved
    exactly; with ``raise_alpha`` every later one first gets one null-window test
    "can it beat the best so far?" at the smallest trick-point target that would, and
    is solved exactly only if it can (alpha is raised by the best discard found so
    far).  An option is skipped outright when even every remaining point would not
    beat the best, and options that leave the declarer the same hand share their
    value.  Without ``raise_alpha`` every option is solved exactly (the naive method,
    kept as the reference in tests).  Either way the best is the first option, in
    order, with the largest total.  ``budget`` (nodes and/or seconds) caps the whole
    call: it stops the search early with the best option proven so far and bounds on
    the best total.
    """
    base_hands = [int(h) for h in hands]
    if not options:
        raise ValueError("best_play needs at least one option")
    start_nodes, start_seconds = solver.stats.nodes, solver.stats.seconds
    budget = Budget.of(budget)
    # Known bounds on the trick points of each declarer hand: options that keep the
    # same hand (different discards or talon groups) have the same play value.
    known: dict[int, tuple[int, int]] = {}
    outcomes: list[OptionOutcome] = []
    best: OptionOutcome | None = None
    exact_solves = tests = 0
    complete = True

    def left() -> Budget | None:
        """What is left of the row's budget (None: it is spent)."""
        nodes = seconds = None
        if budget.nodes is not None:
            nodes = budget.nodes - (solver.stats.nodes - start_nodes)
            if nodes <= 0:
                return None
        if budget.seconds is not None:
            seconds = budget.seconds - (solver.stats.seconds - start_seconds)
            if seconds <= 0:
                return None
        return Budget(nodes, seconds)

    for index, option in enumerate(options):
        rest = left()
        if rest is None:
            complete = False
            outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index:])
            break
        full = list(base_hands)
        full[declarer] = int(option.hand)
        lo, hi = known.get(option.hand, (0, play_points_total(full)))
        if best is not None and raise_alpha:
            best_thirds = best.thirds
            assert best_thirds is not None
            if option.base_thirds + 3 * hi <= best_thirds:
                outcomes.append(OptionOutcome(option, BOUND))
                continue
            # Smallest trick points t with base + 3t > best; never below 0.
            need = max(0, (best_thirds - option.base_thirds) // 3 + 1)
            if need > lo:
                test = solver.reaches(Position(full, leader, declarer), need, rest)
                ok = test.at_least(need)
                tests += 1
                if ok is None:
                    # What the unfinished test proved still narrows this hand's value.
                    known[option.hand] = (max(lo, test.lower), min(hi, test.upper))
                    complete = False
                    outcomes.append(OptionOutcome(option, ABORTED))
                    outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index + 1:])
                    break
                if not ok:
                    known[option.hand] = (lo, min(hi, need - 1))
                    outcomes.append(OptionOutcome(option, NOT_BETTER))
                    continue
                lo = need
                known[option.hand] = (lo, hi)
        if lo == hi:
            value: int | None = lo
        else:
            rest = left()
            found = solver.value(Position(full, leader, declarer), rest) if rest else None
            value = found.value if found is not None and found.exact else None
            exact_solves += 1
            if value is None:
                if found is not None:
                    known[option.hand] = (max(lo, found.lower), min(hi, found.upper))
                complete = False
                outcomes.append(OptionOutcome(option, ABORTED))
                outcomes.extend(OptionOutcome(o, UNSEARCHED) for o in options[index + 1:])
                break
        known[option.hand] = (value, value)
        outcome = OptionOutcome(option, EXACT, value)
        outcomes.append(outcome)
        if best is None or outcome.thirds > best.thirds:  # type: ignore[operator]
            best = outcome
    lower, upper = _proved_bounds(options, base_hands, declarer, known)
    if complete:
        assert best is not None and lower == upper == best.thirds, (lower, upper, best)
    return BestPlay(best=best, outcomes=tuple(outcomes), complete=complete,
                    nodes=solver.stats.nodes - start_nodes,
                    seconds=solver.stats.seconds - start_seconds,
                    exact_solves=exact_solves, tests=tests,
                    lower_thirds=lower, upper_thirds=upper)


def _proved_bounds(options: Sequence[PlayOption], base_hands: Sequence[int], declarer: int,
                   known: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Bounds on the best total over ``options`` from the trick-point bounds in ``known``.

    The declarer can choose any option, so the best total is at least the largest
    proved minimum and at most the largest proved maximum; an option never searched
    counts from 0 up to every point left in the play.
    """
    lower = upper = None
    for option in options:
        bounds = known.get(option.hand)
        if bounds is None:
            full = list(base_hands)
            full[declarer] = int(option.hand)
            bounds = (0, play_points_total(full))
        lo = option.base_thirds + 3 * bounds[0]
        hi = option.base_thirds + 3 * bounds[1]
        lower = lo if lower is None else max(lower, lo)
        upper = hi if upper is None else max(upper, hi)
    assert lower is not None and upper is not None
    return lower, upper


def _strength(hand: int) -> int:
    """A rough static guess of a hand's trick-taking power (used for ordering only).

    Counts the points of the cards that usually win their trick (tarocks, Kings), the
    number of tarocks, and suit voids (which let the tarocks trump in).
    """
    voids = sum(1 for m in _SUIT_GROUP_MASKS if not hand & m)
    return (3 * mask_nominal(hand & (TAROCK_MASK | KINGS_MASK))
            + 3 * popcount(hand & TAROCK_MASK) + 6 * voids)


def order_options(options: Iterable[PlayOption]) -> list[PlayOption]:
    """Options in search order: the likely strongest first (stable for equal guesses).

    A strong first option gives a high bar early, so most later options fail their
    null-window test cheaply.  The order changes speed only, never the best total.
    """
    return sorted(options, key=lambda o: -(o.base_thirds + _strength(o.hand)))


def play_options(deal: Deal, declarer: int, contract: str, rules: Rules) -> list[PlayOption]:
    """The declarer's options for ``contract``: one per legal exchange, equivalent
    discards skipped (:func:`tarock_solver.talon.exchanges`); Solo has exactly one."""
    records = exchanges(deal.hands[declarer], deal.talon, contract, rules.discard_tarock)
    return [PlayOption(e.hand_after, e.declarer_pile_thirds, e) for e in records]
