"""What passing is worth: the others' bids by a policy, and my net in the game that follows.

On each world the two other hands bid by the adviser's own policy
(:mod:`.bidding_policy`), in auction order under the profile's rules, while I pass.
Then either one of them declares — he exchanges and announces by the adviser's own
decisions on his information set, the defenders (I am one) contra by the contra policy
(:mod:`.contras`), and my net is a defender's in his game — or all pass, and my net is
my Trischaken result (:mod:`.trischaken_nets`; profiles with ``all_pass=trischaken``)
or 0 (a redeal).  :class:`PassSeries` holds these nets
over the worlds: the evaluator's on every world, exact solves on a prefix of them as
control variates, the same statistics as a contract's (:mod:`.cv`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import RulesError
from ..estimate.bidding import BID_CONTRACTS, contract_values
from ..estimate.gamepoints import smoothing_weights
from ..estimate.trischaken import estimate_trischaken_many, points_in_play
from ..rules import ANNOUNCEMENT_NAMES, Rules
from ..talon import TALON_TAKE
from .announcements import Policy, enumerate_annsets
from .bidding_policy import PassOutcome, policy_auction
from .contras import ContraPolicy, contra_stages
from .cv import MIN_EXACT, Estimate, PrefixTerm, combine, masked_term, shrink_weight
from .evaluate import PlayTask, Scorer
from .exact import TrischakenRequest
from .infoset import choose_announcements, choose_exchange, evaluate_positions, inner_hands
from .rulesview import RulesView
from .sampling import Knowledge, World
from .series import SMOOTHING_SD, SMOOTHING_WINDOW
from .trischaken_nets import TrischakenNets

__all__ = ["OPPONENTS", "PASS_KEY", "SENIOR_THREE_KEY", "STREAM_PASS", "PassSeries",
           "check_opponents", "make_passing"]

#: ``--opponents``: ``policy`` (the others bid by the adviser's policy) or ``pass``
#: (they always pass and nobody scores: passing is worth 0).
OPPONENTS = ("policy", "pass")
#: Seed stream of the inner worlds behind another declarer's talon decision.
STREAM_PASS = 5
#: The declarer's announcing policy in another's game: any after-talon set, the best.
_ANY_AFTER = Policy("best", frozenset(), frozenset(ANNOUNCEMENT_NAMES), "combo")
#: The name passing's series and row go by.
PASS_KEY = "pass"
#: The name of passing over a senior's Three (the answer to ``if_senior_three``).
SENIOR_THREE_KEY = "pass/senior_three"
#: The outcome label of an all-pass world.
TRISCHAKEN = "trischaken"


@dataclass
class PassSeries:
    """My net when I pass, world by world (worlds 0, 1, … as the contracts').

    ``estimates``: the evaluator's card points of the declarer (a game) or my
    Trischaken points (all pass), NaN for a redeal; ``values``: my net game points
    from them, averaged over the evaluator's error; ``exact``: my exact net of the
    first worlds, in order (a solve's result arrives for world ``planned``-th)."""

    me: int
    rules: Rules
    trischaken: TrischakenNets | None = None
    #: The series answers a senior player's Three: I pass and he plays it (the answer
    #: to "if a senior bids Three", where passing means defending that Three).
    senior_three: bool = False
    outcomes: list[PassOutcome] = field(default_factory=list)
    tasks: list[PlayTask | None] = field(default_factory=list)
    hands: list[tuple[int, int, int]] = field(default_factory=list)
    estimates: list[float] = field(default_factory=list)
    #: The declarer's announcement set of each world (an index of its scorer's sets).
    sets: list[int] = field(default_factory=list)
    #: The contra level on the declarer's game in each world (0: none; see :mod:`.contras`).
    levels: list[int] = field(default_factory=list)
    #: Do the defenders contra by their policy?
    contras: bool = True
    #: The Trischaken evaluator's values of the three seats (MTD(f)'s first guesses).
    guesses: dict[int, tuple[int, ...]] = field(default_factory=dict)
    values: list[float] = field(default_factory=list)
    exact: list[float] = field(default_factory=list)
    pending: dict[int, float] = field(default_factory=dict)
    planned: int = 0
    cut: bool = False
    _scorers: dict[tuple, Scorer] = field(default_factory=dict)
    _contras: dict[tuple[str, int], ContraPolicy] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.view = RulesView(self.rules)

    @property
    def worlds(self) -> int:
        return len(self.values)

    # -- phase 1
    def outcome(self, world: World) -> PassOutcome:
        """How the world's auction ends when I pass: by the policy, or the senior's Three
        when the series answers one (:attr:`senior_three`; the senior who values Three
        more by the bidding model, when two are senior to me)."""
        if not self.senior_three:
            return policy_auction(self.rules, world.hands, self.me)
        seniors = list(range(self.me))
        if len(seniors) > 1:
            v = contract_values(np.array([world.hands[s] for s in seniors], dtype=np.uint64),
                                np.array(seniors))[:, BID_CONTRACTS.index("three")]
            seniors = [seniors[int(np.argmax(v))]]
        return PassOutcome(seniors[0], "three")

    def add_world(self, j: int, world: World, *, seed: int, inner: int, screen: int,
                  keep: int, discard_mode: str, reject_tarockless: bool) -> None:
        """World ``j``: the auction, the declarer's talon decision, the evaluator's value."""
        out = self.outcome(world)
        self.outcomes.append(out)
        self.hands.append(world.hands)
        if out.declarer is None:
            self.tasks.append(None)
            self.sets.append(0)
            self.levels.append(0)
            if out.contract == TRISCHAKEN:
                deal = np.array([world.hands] * 3, dtype=np.uint64)
                e = estimate_trischaken_many(deal, np.arange(3))
                self.guesses[j] = tuple(int(round(float(x))) for x in e)
                self.estimates.append(float(e[self.me]))
                self.values.append(self.trischaken.expected(e, int(points_in_play(deal)[0])))
            else:  # a redeal: nobody scores, and that needs no solve
                self.estimates.append(math.nan)
                self.values.append(0.0)
                self.pending[j] = 0.0
                self._extend()
            return
        d, c = out.declarer, out.contract
        dealt = world.hands[d]
        ex, choice = None, None
        if TALON_TAKE[c]:
            know = Knowledge(_only(world.hands, d)).with_talon(world.talon)
            inn = inner_hands(know, seed, STREAM_PASS, (j, int(self.senior_three)), inner,
                              reject_tarockless=reject_tarockless)
            choice = choose_exchange(dealt, d, world.talon, c, discard_mode, inn,
                                     screen=screen, keep=keep)
            ex = choice.exchange
        hands = list(world.hands)
        hands[d] = ex.hand_after if ex is not None else dealt
        pile = ex.declarer_pile_thirds if ex is not None else 0
        task = PlayTask((hands[0], hands[1], hands[2]), d, pile, dealt, c)
        self.tasks.append(task)
        annsets = self._annsets(c, dealt)
        k = 0
        if choice is not None and len(annsets) > 1:
            # his after-talon announcements: the best set on his information set, as the
            # adviser chooses its own (his net, the evaluator over the same inner worlds)
            k = choose_announcements((_ANY_AFTER,), self._scorer(c, d, annsets, None),
                                     dealt, d, ex, inn, choice.inner_points)[0]
        self.sets.append(k)
        e = float(evaluate_positions(np.array([task.hands], dtype=np.uint64), d)[0])
        self.estimates.append(e)
        # the defenders' contras on his game (I am one of them) by the contra policy
        level = self._contra(c, d).level(task, ex, world.talon, seed, j) if self.contras else 0
        self.levels.append(level)
        scorer = self._scorer(c, d, annsets, self.me, level)
        top = task.in_play_points
        lo, hi, w = smoothing_weights(e, SMOOTHING_SD, top, SMOOTHING_WINDOW)
        nets, _made = scorer.net_curve(task, lo, hi, [k])
        self.values.append(float(w @ nets[:, 0]))

    def _annsets(self, contract: str, dealt: int) -> tuple:
        """The declarer's after-talon announcement sets (plain first) for his dealt hand."""
        levels = {item: ("after",) for item, lv in self.view.item_levels(contract).items()
                  if "after" in lv}
        return tuple(enumerate_annsets(levels, dealt)) if TALON_TAKE[contract] else ((),)

    def _scorer(self, contract: str, declarer: int, annsets: tuple, seat: int | None,
                level: int = 0) -> Scorer:
        """The scorer of ``declarer``'s ``contract`` with these announcement sets and the
        game contra'd to ``level``: his net (``seat`` None) or ``seat``'s (one scorer
        each, their caches kept)."""
        key = (contract, declarer, annsets, seat, level)
        if key not in self._scorers:
            base = self.view.score_fn(contra_stages(level))
            fn = base
            if seat is not None:
                def fn(*args: Any, _fn: Any = base, _seat: int = seat) -> tuple[float, bool]:
                    return _fn(*args, seat=_seat)
            self._scorers[key] = Scorer(contract, declarer, list(annsets), fn)
        return self._scorers[key]

    def _contra(self, contract: str, declarer: int) -> ContraPolicy:
        key = (contract, declarer)
        if key not in self._contras:
            self._contras[key] = ContraPolicy(self.rules, contract, declarer, self.view.score_fn)
        return self._contras[key]

    def scorer_of(self, j: int) -> Scorer:
        """My scorer of world ``j``'s game (its declarer, contract, sets and contras)."""
        task = self.tasks[j]
        assert task is not None
        return self._scorer(task.contract, task.declarer, self._annsets(task.contract,
                                                                        task.dealt), self.me,
                            self.levels[j])

    # -- phase 2
    def next_request(self, trischaken: bool = True) -> tuple[Any, int] | None:
        """The next exact solve and its world (a redeal's net is exact: no solve).
        Without Trischaken solves (``trischaken`` False: their kernels are not compiled
        yet) the prefix ends at the first all-pass world."""
        while self.planned < self.worlds and not self.cut:
            j = self.planned
            out, task = self.outcomes[j], self.tasks[j]
            if task is None and out.contract == TRISCHAKEN and not trischaken:
                self.cut = True
                return None
            self.planned += 1
            if task is not None:
                return (task.hands, task.declarer, int(round(self.estimates[j]))), j
            if out.contract == TRISCHAKEN:
                return TrischakenRequest(self.hands[j], guesses=self.guesses.get(j)), j
        return None

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` worlds (after an interrupt in the middle of a world)."""
        for name in ("outcomes", "tasks", "hands", "estimates", "sets", "levels", "values",
                     "exact"):
            del getattr(self, name)[n:]
        for table in (self.pending, self.guesses):
            for j in [j for j in table if j >= n]:
                del table[j]
        self.planned = min(self.planned, n)

    def record(self, j: int, value: Any) -> None:
        """An exact result of world ``j``: future card points of the declarer, my
        Trischaken points, or a net (a redeal); None: the deadline came first (the
        prefix ends there)."""
        if value is None:
            self.cut = True
            return
        out, task = self.outcomes[j], self.tasks[j]
        if task is not None:
            pts = int(value)
            thirds = task.pile_thirds + 3 * pts
            net = float(self.scorer_of(j).outcome(task, thirds,
                                                  3 * pts == task.in_play_thirds
                                                  ).net[self.sets[j]])
        elif out.contract == TRISCHAKEN:
            net = self.trischaken.net(tuple(int(v) for v in value))
        else:
            net = float(value)
        self.pending[j] = net
        self._extend()

    def _extend(self) -> None:
        """Move the results that continue the exact prefix onto it."""
        while len(self.exact) in self.pending and not self.cut:
            self.exact.append(self.pending.pop(len(self.exact)))

    # -- estimates
    def terms(self, weight: float = 1.0, worlds: np.ndarray | None = None) -> list[PrefixTerm]:
        """The control-variate terms of my mean net (optionally on the masked worlds)."""
        g = np.asarray(self.values, dtype=np.float64)
        x = np.asarray(self.exact, dtype=np.float64)
        return [masked_term(g, np.arange(len(g)), worlds, weight),
                masked_term(x - g[:len(x)], np.arange(len(x)), worlds, weight, correction=True)]

    def estimate(self, min_prefix: int) -> Estimate:
        return combine(self.terms(), min_prefix=min_prefix)

    def breakdown(self) -> list[dict[str, Any]]:
        """Per outcome: its share of the worlds and my mean net there (the evaluator's,
        plus the mean exact correction on its exact worlds, shrunk below
        :data:`~.cv.MIN_EXACT` of them as every estimate's is)."""
        n = self.worlds
        if not n:
            return []
        g = np.asarray(self.values)
        resid = np.full(n, np.nan)
        resid[:len(self.exact)] = np.asarray(self.exact) - g[:len(self.exact)]
        keys = Counter((o.declarer, o.contract) for o in self.outcomes)
        out = []
        for (d, c), k in sorted(keys.items(), key=lambda kv: -kv[1]):
            m = np.array([(o.declarer, o.contract) == (d, c) for o in self.outcomes])
            r = resid[m]
            r = r[np.isfinite(r)]
            # the correction as the estimates take one: shrunk while it is short
            mean = float(g[m].mean()) + (float(r.mean()) * shrink_weight(len(r), MIN_EXACT)
                                         if len(r) else 0.0)
            out.append({"declarer": d, "contract": c, "share": k / n, "mean_net": mean,
                        "exact_worlds": len(r)})
        return out


def _only(hands: tuple[int, int, int], seat: int) -> tuple[int, int, int]:
    h = [0, 0, 0]
    h[seat] = hands[seat]
    return h[0], h[1], h[2]


def check_opponents(value: str) -> str:
    if value not in OPPONENTS:
        raise RulesError(f"--opponents must be one of {', '.join(OPPONENTS)}, not {value!r}")
    return value


def make_passing(rules: Rules, me: int, *, senior_three: bool = False,
                 contras: bool = True) -> PassSeries:
    """The series of passing for seat ``me`` under ``rules``; ``senior_three``: passing
    over a senior's Three (``me`` must have a senior); ``contras``: the defenders contra
    by their policy."""
    if senior_three and me == 0:
        raise ValueError("forehand has no senior")
    tri = TrischakenNets(rules, me) if rules.all_pass == TRISCHAKEN else None
    return PassSeries(me, rules, tri, senior_three=senior_three, contras=contras)
