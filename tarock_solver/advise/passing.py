"""What passing is worth: the others' bids by a policy, and my net in the game that follows.

On each world the two other hands bid by the adviser's own policy
(:func:`policy_auction`: the bidding model's evaluator-level value of each contract
for their hand, :mod:`tarock_solver.estimate.bidding`), in auction order under the
profile's rules, while I pass.  Then either one of them declares — he exchanges by the
adviser's talon decision on his own information set and plays plain, and my net is a
defender's in his game — or all pass, and my net is my Trischaken result (profiles
with ``all_pass=trischaken``) or 0 (a redeal).  :class:`PassSeries` holds these nets
over the worlds: the evaluator's on every world, exact solves on a prefix of them as
control variates, the same statistics as a contract's (:mod:`.cv`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..auction import HOLD, PASS, Auction
from ..cards import thirds_of
from ..errors import RulesError
from ..estimate.bidding import BID_CONTRACTS, contract_values
from ..estimate.gamepoints import smoothing_weights
from ..rules import ANNOUNCEMENT_NAMES, Rules
from ..scoring import score_trischaken
from ..talon import TALON_TAKE
from .announcements import Policy, enumerate_annsets
from .contras import ContraPolicy
from .cv import MIN_EXACT, Estimate, PrefixTerm, combine, cv_terms, shrink_weight
from .evaluate import PlayTask, Scorer
from .exact import TrischakenRequest
from .infoset import choose_announcements, choose_exchange, evaluate_positions, inner_hands
from .rulesview import RulesView
from .sampling import Knowledge, World
from .series import SMOOTHING_SD, SMOOTHING_WINDOW

__all__ = ["OPPONENTS", "PASS_KEY", "SENIOR_THREE_KEY", "STREAM_PASS", "PassOutcome", "PassSeries",
           "check_opponents", "policy_auction", "policy_call"]

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


@dataclass(frozen=True)
class PassOutcome:
    """How a world's auction ends when I pass: ``declarer`` and ``contract``, or
    ``declarer`` None and ``contract`` ``"trischaken"`` or ``"redeal"``."""

    declarer: int | None
    contract: str


def policy_call(calls: list[str], values: dict[str, float], standing: str | None,
                opened: bool) -> str:
    """The policy's call among the legal ``calls``: a player is willing to play every
    contract his model values above 0; his first bid is the one it values most, and
    later he goes as low as keeps him in (a hold, else the cheapest higher bid)."""
    def worth(call: str) -> float:
        c = standing if call == HOLD else call
        v = values.get(c, math.nan) if c is not None else math.nan
        return v if math.isfinite(v) else -math.inf

    willing = [c for c in calls if c != PASS and worth(c) > 0]
    if not willing:
        return PASS
    if not opened:
        return max(willing, key=lambda c: (worth(c), -calls.index(c)))
    if HOLD in willing:
        return HOLD
    return min(willing, key=lambda c: BID_CONTRACTS.index(c) if c in BID_CONTRACTS else 99)


def policy_auction(rules: Rules, hands: tuple[int, int, int], me: int,
                   values: np.ndarray | None = None) -> PassOutcome:
    """The auction of a world when ``me`` passes and the two others bid by
    :func:`policy_call` on the bidding model's values of their hands (``values``: a
    (3, len(BID_CONTRACTS)) array to use instead; my row is not read)."""
    if values is None:
        values = contract_values(np.array(hands, dtype=np.uint64), np.arange(3))
    auction = Auction(rules)
    opened = [False, False, False]
    while not auction.is_over:
        seat = auction.to_move
        assert seat is not None
        calls = auction.legal_calls()
        if seat == me:
            call = PASS if PASS in calls else calls[0]
        else:
            vals = {c: float(values[seat][i]) for i, c in enumerate(BID_CONTRACTS)}
            standing = auction.bid.contract if auction.bid is not None else None
            call = policy_call(calls, vals, standing, opened[seat])
        opened[seat] = opened[seat] or call != PASS
        auction.call(call, seat)
    res = auction.result
    assert res is not None
    if res.outcome == "game":
        assert res.declarer is not None and res.contract is not None
        return PassOutcome(res.declarer, res.contract)
    return PassOutcome(None, res.outcome)


@dataclass
class PassSeries:
    """My net when I pass, world by world (worlds 0, 1, … as the contracts').

    ``estimates``: the evaluator's card points of the declarer (a game) or my
    Trischaken points (all pass), NaN for a redeal; ``values``: my net game points
    from them, averaged over the evaluator's error; ``exact``: my exact net of the
    first worlds, in order (a solve's result arrives for world ``planned``-th)."""

    me: int
    rules: Rules
    score_fn: Any
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
                e = self._trischaken_estimates(world.hands)
                self.guesses[j] = tuple(int(round(float(x))) for x in e)
                self.estimates.append(float(e[self.me]))
                self.values.append(self.trischaken.expected(e, _in_play(world)))
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

    def _trischaken_estimates(self, hands: tuple[int, int, int]) -> np.ndarray:
        from ..estimate.trischaken import estimate_trischaken_many

        return estimate_trischaken_many(np.array([hands] * 3, dtype=np.uint64), np.arange(3))

    def _scorer(self, contract: str, declarer: int, annsets: tuple, seat: int | None,
                level: int = 0) -> Scorer:
        """The scorer of ``declarer``'s ``contract`` with these announcement sets and the
        game contra'd to ``level``: his net (``seat`` None) or ``seat``'s (one scorer
        each, their caches kept)."""
        key = (contract, declarer, annsets, seat, level)
        if key not in self._scorers:
            base = self.score_fn if level == 0 else self.view.score_fn(
                {"game": "a" * level})
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
        for name in ("outcomes", "tasks", "hands", "estimates", "sets", "levels", "values"):
            del getattr(self, name)[n:]

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
        if worlds is None:
            return cv_terms(g, x, weight)
        mask = np.asarray(worlds, dtype=bool)[:len(g)]
        idx = np.flatnonzero(mask)
        ex = idx[idx < len(x)]
        return [PrefixTerm(g[idx], weight, worlds=idx),
                PrefixTerm(x[ex] - g[ex], weight, correction=True, worlds=ex)]

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


def _in_play_hands(hands: tuple[int, int, int]) -> int:
    """Card points in play in a Trischaken: those of the three hands (the talon unused;
    sixteen whole tricks, so whole points)."""
    return thirds_of(hands[0] | hands[1] | hands[2]) // 3


def _in_play(world: World) -> int:
    return _in_play_hands(world.hands)


def check_opponents(value: str) -> str:
    if value not in OPPONENTS:
        raise RulesError(f"--opponents must be one of {', '.join(OPPONENTS)}, not {value!r}")
    return value


def make_passing(rules: Rules, me: int, score_fn: Any, *, senior_three: bool = False,
                 contras: bool = True) -> PassSeries:
    """The series of passing for seat ``me`` under ``rules`` (``score_fn``: the
    scoring calculator's, :meth:`~.rulesview.RulesView.score_fn`); ``senior_three``:
    passing over a senior's Three (``me`` must have a senior)."""
    if senior_three and me == 0:
        raise ValueError("forehand has no senior")
    tri = TrischakenNets(rules, me) if rules.all_pass == TRISCHAKEN else None
    return PassSeries(me, rules, score_fn, tri, senior_three=senior_three, contras=contras)


#: Draws of the three seats' evaluator errors behind a Trischaken world's expected net:
#: fixed, so the expectation is a function of the estimates alone (a control variate).
_TRISCHAKEN_DRAWS = 128


class TrischakenNets:
    """My Trischaken net from the three seats' paranoid values.

    The paranoid value of a seat is the fewest card points he can be held to when the
    other two play together against him; the three are three separate worst cases
    (they add up to more than the points in play).  Each is taken as its seat's
    result, so the seat with the highest value is the loser, a value of 0 took no
    trick, and ties are ties: symmetric in the seats, so the nets add up to 0 as the
    game's do.  (One seat's value against an even split of the rest would make most
    seats the loser: a seat is held to half the points in play on average.)"""

    def __init__(self, rules: Rules, me: int) -> None:
        self.rules, self.me = rules, me
        self._cache: dict[tuple[int, ...], float] = {}
        rng = np.random.default_rng(0x7215)
        self._z = rng.standard_normal((_TRISCHAKEN_DRAWS, 3))
        self._sd: float | None = None

    def net(self, values: tuple[int, ...]) -> float:
        """My net when the seats' results are ``values`` (card points F, M, R)."""
        order = sorted(set(values))
        # only the order, the ties and who is at 0 matter: a small pattern, scored once
        key = tuple(order.index(v) + (1 if order[0] > 0 else 0) for v in values)
        hit = self._cache.get(key)
        if hit is None:
            takers = [s for s in range(3) if key[s] > 0]
            tricks = [16 // len(takers) + (1 if takers.index(s) < 16 % len(takers) else 0)
                      if s in takers else 0 for s in range(3)]
            hit = float(score_trischaken(self.rules, key, tricks).nets[self.me])
            self._cache[key] = hit
        return hit

    def expected(self, estimates: np.ndarray, in_play: int) -> float:
        """E[my net] when each seat's value is its estimate plus the evaluator's error
        (normal, its held-out SD, rounded and clipped to 0 … in play)."""
        if self._sd is None:
            from ..estimate.trischaken import load_trischaken_evaluator

            self._sd = float(load_trischaken_evaluator().error_sd)
        v = np.clip(np.floor(np.asarray(estimates)[None, :] + self._sd * self._z + 0.5),
                    0, in_play).astype(np.int64)
        return float(np.mean([self.net((int(a), int(b), int(c))) for a, b, c in v]))
