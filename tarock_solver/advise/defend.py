"""Defender advice: whether to say contra against the declarer's game and announcements.

:func:`defend` answers a :class:`DefendRequest` with a
:class:`~.defend_results.DefendAdvice`: per contra object (the game, each announcement
contra'd on its own) and level, the defender's expected gain with its SE.  Worlds are
deals of the cards the defender does not see, consistent with the contract, the talon
and group when known and the declarer's announcements; in each, the declarer's exchange
and his re-contra are his own choices on his information set (:mod:`.infoset`).
:func:`contra_decision` is the cheap evaluator-only policy of one defender's view.
The method: ``docs/ADVICE.md``, "Defending: contra".
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..cards import BIRD_BITS, TALON_SIZE
from ..errors import DealError, RulesError
from ..estimate.gamepoints import smoothing_weights
from ..rules import Rules, load_rules
from ..rules.names import item_name
from ..scoring import ScoreInput, score, thirds_from_points
from ..talon import TALON_TAKE, Exchange, talon_groups
from .announcements import BIRD_ITEMS, CARD_POINT_ITEMS, NO_CARDS_MASK
from .cv import MIN_EXACT, MIN_WORLDS, Estimate, PrefixTerm, combine
from .defend_results import ContraRow, DefendAdvice, WorldDetail, advice_word
from .evaluate import PlayTask, Scorer
from .exact import ExactSolver
from .infoset import choose_exchange, evaluate_positions, inner_hands
from .sampling import Knowledge, World, world_at
from .series import SMOOTHING_SD, SMOOTHING_WINDOW
from .settings import AdviceLimit

__all__ = ["DefendProblem", "DefendRequest", "DefendSettings", "contra_decision", "defend",
           "make_defend_problem", "parse_announced"]

#: Seed streams of the defender's worlds, kept apart from the bidding adviser's (0–4).
STREAM_DEFEND = 10  # the worlds (one rejection sequence per world index)
STREAM_DEFEND_INNER = 11  # the declarer's inner worlds behind his exchange and re-contra
STREAM_DEFEND_SOLO = 12  # a Solo declarer's inner worlds (he never sees the talon)
#: Draws of one world before the announcements are called impossible.
MAX_TRIES = 2000
#: Marks a contra entry among a scenario's items (the scorer's "announcement sets").
CONTRA = "contra:"
LEVEL_NAMES = {1: "contra", 2: "recontra", 3: "subcontra"}


@dataclass(frozen=True)
class DefendSettings:
    """How hard a run works: ``inner`` inner worlds behind each of the declarer's choices
    (exchange: all options on ``screen`` of them, the ``keep`` best on all; re-contra:
    all of them; a re-contra in the auction, before he has seen the talon:
    ``auction_inner`` worlds, each with its own exchange chosen on ``auction_screen`` of
    its own); ``exact``: the first worlds solved exactly (None: every world);
    ``evaluator_share``: the part of a time limit for evaluating worlds (the solves of
    the first worlds run meanwhile on the solver threads)."""

    inner: int = 32
    screen: int = 8
    keep: int = 8
    auction_inner: int = 16
    auction_screen: int = 4
    exact: int | None = 32
    evaluator_share: float = 0.5


@dataclass
class DefendRequest:
    """One defender's question: ``hand`` (his 16 cards) at ``seat`` against ``declarer``
    playing ``contract``; ``talon`` (t1..t6) and ``taken`` (its group label, NOTATION 5.3)
    when exposed; ``announced``: the declarer's ``(item, level)`` announcements.
    ``others`` may fix other hands (tests; the declarer's as dealt).  ``solve_batch``
    replaces the exact card-point solver (``[(hands, declarer), …] → points``)."""

    hand: int
    seat: int
    declarer: int
    contract: str
    talon: tuple[int, ...] | None = None
    taken: str | None = None
    announced: tuple[tuple[str, str], ...] = ()
    rules_name: str = "dummett"
    overrides: dict[str, str] = field(default_factory=dict)
    rules: Rules | None = None
    others: tuple[int | None, int | None, int | None] = (None, None, None)
    limit: AdviceLimit = AdviceLimit()
    seed: int = 1
    jobs: int = 1
    settings: DefendSettings = field(default_factory=DefendSettings)
    solve_batch: Callable | None = None

    def rule_profile(self) -> Rules:
        return self.rules if self.rules is not None else load_rules(self.rules_name,
                                                                    dict(self.overrides))


@dataclass(frozen=True)
class DefendProblem:
    """A validated question: what the worlds must satisfy and the scenarios to score.

    ``stage`` is the contra step's letter (``a`` after the talon, ``b`` in the auction);
    ``scenarios[0]`` is the announced card-point items without contra, and
    ``index[(object, level)]`` the scenario with that object contra'd to that level."""

    rules: Rules
    contract: str
    seat: int
    declarer: int
    hand: int
    knowledge: Knowledge
    talon: tuple[int, ...] | None
    taken: str | None
    announced: tuple[tuple[str, str], ...]
    stage: str
    objects: tuple[str, ...]
    covered: tuple[str, ...]
    not_valued: tuple[tuple[str, str], ...]
    max_level: int
    scenarios: tuple[tuple[tuple[str, str], ...], ...]
    index: dict
    dealt_without: int  # cards the dealt hand must not hold (before-talon "no ...")
    dealt_with: int  # cards the dealt hand must hold (birds announced before the talon)
    after_without: int  # cards the hand after the exchange must not hold
    after_with: int  # cards the hand after the exchange must hold (every announced bird)

    @property
    def levels(self) -> tuple[int, ...]:
        """The defender's levels valued: contra, and subcontra where the profile has it."""
        return (1, 3) if self.max_level >= 3 else (1,)


def parse_announced(tokens: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``ITEM@LEVEL`` tokens (e.g. ``pagat@after``) as ``(item, level)`` pairs."""
    out = []
    for tok in tokens:
        name, sep, level = str(tok).partition("@")
        lv = level.strip().lower()
        if not sep or lv not in ("after", "before"):
            raise RulesError(f'--announced "{tok}": write ITEM@LEVEL, LEVEL after or before '
                             "(e.g. pagat@after).")
        try:
            out.append((item_name(name), lv))
        except RulesError as exc:
            raise RulesError(f'--announced "{tok}": {exc}') from None
    return tuple(out)


def _score_fn(rules: Rules) -> Callable:
    """The scorer's function: a scenario's items are announcements and ``contra:`` entries."""

    def fn(contract: str, declarer: int, scenario: tuple, thirds: int, valat: bool,
           dealt: int, hand_after: int, defenders: tuple[int, int]) -> tuple[float, bool]:
        hands = [0, 0, 0]
        hands[declarer] = dealt
        hands[(declarer + 1) % 3], hands[(declarer + 2) % 3] = defenders
        anns = {n: lv for n, lv in scenario if not n.startswith(CONTRA)}
        contras = {n[len(CONTRA):]: lv for n, lv in scenario if n.startswith(CONTRA)}
        res = score(rules, ScoreInput(contract=contract, declarer=declarer,
                                      declarer_thirds=thirds, announcements=anns,
                                      contras=contras, valat=valat, declarer_hand=hand_after,
                                      dealt=(hands[0], hands[1], hands[2])))
        return float(res.net_declarer), bool(res.made)

    return fn


def make_defend_problem(req: DefendRequest) -> DefendProblem:
    """Check the question (RulesError / DealError naming what is wrong) and plan it."""
    rules = req.rule_profile()
    contract = rules.contract_key(req.contract)
    seat, d = int(req.seat), int(req.declarer)
    if seat == d:
        raise RulesError(f"--declarer {'FMR'[d]} is your own seat: defender advice is for the "
                         "two players against the declarer (use advise without --defend).")
    take = TALON_TAKE[contract]
    if req.talon is not None and take == 0:
        raise RulesError(f"{contract}: a Solo never exposes the talon; --talon needs a "
                         "contract that takes talon cards.")
    if req.taken is not None and req.talon is None:
        raise RulesError(f"--taken {req.taken}: give the talon (--talon) it was taken from.")
    if req.taken is not None:
        labels = [label for label, _ in talon_groups(contract)]
        if req.taken not in labels:
            raise RulesError(f'--taken "{req.taken}" is not a talon group of {contract}; '
                             f"its groups: {', '.join(labels)}.")
    if not rules.contra_binds_partner:
        raise RulesError("contra_binds_partner=false cannot be scored (RULES.md 5.4); "
                         "defender advice needs it true.")
    stage = "a" if (req.talon is not None or take == 0) else "b"
    if stage == "b" and rules.contra_step_before is None:
        raise RulesError(f"contra before the talon is forbidden in the {rules.name} profile "
                         "(contra_step_before=forbidden); give --talon to ask after it.")
    hands = [h if h is not None else 0 for h in req.others]
    hands[seat] = req.hand
    knowledge = Knowledge((hands[0], hands[1], hands[2]),
                          tuple(req.talon) if req.talon is not None else (-1,) * TALON_SIZE)
    base, seen = [], set()
    dealt_without = dealt_with = after_without = after_with = 0
    not_valued = []
    for name, level in req.announced:
        token = f"{name}@{level}"
        if name in seen:
            raise RulesError(f"--announced {token}: {name} is announced twice.")
        seen.add(name)
        if rules.announcement_value(name, level) is None:
            levels = rules.announcement_levels(name)
            hint = (f"possible: {', '.join(levels)}" if levels
                    else "the profile has no such announcement")
            raise RulesError(f"--announced {token}: the {rules.name} profile does not allow it "
                             f"({hint}).")
        if take == 0 and level == "before":
            raise RulesError(f"--announced {token}: a Solo has only the after-talon level.")
        if stage == "b" and level == "after":
            raise RulesError(f"--announced {token}: an after-talon announcement is made once "
                             "the talon is exposed; give --talon (and --taken).")
        if name in BIRD_ITEMS:
            bit = BIRD_BITS[name]
            if req.hand & bit:
                raise RulesError(f"--announced {token}: you hold that bird, so the declarer "
                                 "cannot announce it.")
            after_with |= bit
            if level == "before" or take == 0:
                dealt_with |= bit
            not_valued.append((name, "a bird's contra turns on its trick, which card-point "
                                     "solves do not see"))
        elif name in CARD_POINT_ITEMS:
            base.append((name, level))
            mask = NO_CARDS_MASK.get(name, 0)
            if level == "before" or take == 0:
                dealt_without |= mask
            else:
                after_without |= mask
        else:
            raise RulesError(f"--announced {token}: hand premiums are never contra'd; leave "
                             "it out.")
    base_t = tuple(sorted(base))
    dummy = thirds_from_points(contract, 40)
    try:  # a combination the calculator refuses (e.g. Trull and Köpfe) fails here
        score(rules, ScoreInput(contract, d, dummy, announcements=dict(base_t)))
    except RulesError as exc:
        raise RulesError(f"--announced: {exc}") from None
    objects, covered = ["game"], []
    for name, _level in base_t:
        try:
            score(rules, ScoreInput(contract, d, dummy, announcements=dict(base_t),
                                    contras={name: stage}))
            objects.append(name)
        except RulesError:
            covered.append(name)  # the game's contra covers it (contra_scope)
    if req.talon is not None and req.taken is not None and dealt_without:
        group = dict(talon_groups(contract))[req.taken]
        taken_mask = sum(1 << req.talon[p] for p in group)
        if taken_mask & dealt_without and rules.pre_no_cards_break == "lose_game":
            raise RulesError(f"--taken {req.taken} breaks a before-talon announcement: the "
                             "game ended at the talon (pre_no_cards_break=lose_game), with "
                             "nothing left to contra.")
    max_level = int(rules.contra_max_level)
    scenarios: list[tuple] = [base_t]
    index: dict = {}
    for obj in objects:
        for level in range(1, max_level + 1):
            index[(obj, level)] = len(scenarios)
            scenarios.append(base_t + ((CONTRA + obj, stage * level),))
    return DefendProblem(rules, contract, seat, d, int(req.hand), knowledge,
                         tuple(req.talon) if req.talon is not None else None, req.taken,
                         tuple(req.announced), stage, tuple(objects), tuple(covered),
                         tuple(not_valued), max_level, tuple(scenarios), index,
                         dealt_without, dealt_with, after_without, after_with)


# ----------------------------------------------------------------- one world


@dataclass
class _World:
    """One world's play and what the estimates need of it."""

    task: PlayTask
    group: str
    estimate: float  # the evaluator's future card points of the declarer
    recontra: dict[str, bool]
    smoothed: np.ndarray  # per column (see _columns), the evaluator's smoothed value
    floor: np.ndarray  # per column, the smoothing model's variance


def _feasible(p: DefendProblem, world: World) -> bool:
    """Can the declarer of this world have made the announcements (dealt hand, and some
    talon group that lets him keep what he announced after the talon)?"""
    dealt = world.hands[p.declarer]
    if dealt & p.dealt_without or dealt & p.dealt_with != p.dealt_with:
        return False
    if TALON_TAKE[p.contract] == 0:
        return not dealt & p.after_without and dealt & p.after_with == p.after_with
    for label, positions in talon_groups(p.contract):
        if p.taken is not None and label != p.taken:
            continue
        after = dealt | sum(1 << world.talon[q] for q in positions)
        if not after & p.after_without and after & p.after_with == p.after_with:
            return True
    return False


def _allowed(p: DefendProblem) -> Callable[[Exchange], bool]:
    def ok(ex: Exchange) -> bool:
        return ((p.taken is None or ex.group_label == p.taken)
                and not ex.hand_after & p.after_without
                and ex.hand_after & p.after_with == p.after_with)
    return ok


def _solo_inner(p: DefendProblem, dealt: int, seed: int, j: int, count: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """A Solo declarer's inner worlds (he never sees the talon) and their evaluator points."""
    hands = [0, 0, 0]
    hands[p.declarer] = dealt
    know = Knowledge((hands[0], hands[1], hands[2]))
    rows = np.array([world_at(know, seed, STREAM_DEFEND_SOLO, j, k,
                              reject_tarockless=p.rules.redeal_no_tarock).hands
                     for k in range(count)], dtype=np.uint64)
    return rows, evaluate_positions(rows, p.declarer)


def _plays(p: DefendProblem, d: int, hand_after: int, pile: int, inner: np.ndarray,
           points: np.ndarray) -> list[tuple[tuple[int, int, int], int, float]]:
    """The declarer's inner worlds as ``(hands after the exchange, pile, evaluator
    points)``, his own hand fixed."""
    out = []
    for row, pts in zip(inner.tolist(), np.asarray(points).tolist(), strict=True):
        row[d] = hand_after
        out.append(((int(row[0]), int(row[1]), int(row[2])), pile, float(pts)))
    return out


def _auction_plays(p: DefendProblem, s: DefendSettings, seed: int, j: int, dealt: int
                   ) -> list[tuple[tuple[int, int, int], int, float]]:
    """Inner worlds of a declarer who has not seen the talon (a re-contra in the auction):
    talon and other hands drawn, and in each his exchange by his choice on what he would
    then see (a small inner sample of its own: ``auction_screen`` worlds)."""
    d = p.declarer
    hands = [0, 0, 0]
    hands[d] = dealt
    know = Knowledge((hands[0], hands[1], hands[2]))
    out = []
    for k in range(s.auction_inner):
        world = world_at(know, seed, STREAM_DEFEND_SOLO, j, k,
                         reject_tarockless=p.rules.redeal_no_tarock)
        inner = inner_hands(know.with_talon(world.talon), seed, STREAM_DEFEND_INNER, (j, k),
                            s.auction_screen, reject_tarockless=p.rules.redeal_no_tarock)
        try:
            ch = choose_exchange(dealt, d, world.talon, p.contract, p.rules.discard_tarock,
                                 inner, screen=s.screen, keep=s.keep, forbid=p.dealt_without,
                                 only=_allowed(p))
        except DealError:  # this talon cannot keep a bird he announced: he plays anyway
            ch = choose_exchange(dealt, d, world.talon, p.contract, p.rules.discard_tarock,
                                 inner, screen=s.screen, keep=s.keep, forbid=p.dealt_without)
        row = list(world.hands)
        row[d] = ch.exchange.hand_after
        pts = float(evaluate_positions(np.array([row], dtype=np.uint64), d)[0])
        out.append(((row[0], row[1], row[2]), ch.exchange.declarer_pile_thirds, pts))
    return out


def _mean_nets(scorer: Scorer, p: DefendProblem, dealt: int,
               plays: Sequence[tuple[tuple[int, int, int], int, float]],
               sets: Sequence[int]) -> np.ndarray:
    """The declarer's mean net of each scenario in ``sets`` over his inner worlds, scored
    from the evaluator's rounded points."""
    total = np.zeros(len(sets))
    for hands, pile, points in plays:
        task = PlayTask(hands, p.declarer, pile, dealt, p.contract)
        k = int(np.clip(round(points), 0, task.in_play_points))
        out = scorer.outcome(task, pile + 3 * k, 3 * k == task.in_play_thirds, sets)
        total += np.nan_to_num(out.net[list(sets)], nan=-math.inf)
    return total / max(1, len(plays))


def _columns(p: DefendProblem) -> list[tuple[str, int]]:
    """The per-world values estimated: each (object, level) gain, then P(make) and the
    declarer's net without contra."""
    return [(o, lv) for o in p.objects for lv in p.levels] + [("made", 0), ("net", 0)]


def _value_matrix(p: DefendProblem, scorer: Scorer, task: PlayTask, recontra: dict[str, bool],
                  lo: int, hi: int) -> np.ndarray:
    """Rows: the declarer's future points lo … hi; columns: :func:`_columns`.

    A contra's gain is the defender's net with it minus without: every contra'd item is
    the declarer's against both defenders, so each defender's net moves by minus half
    the declarer's (RULES.md 7).  Level 1 is contra followed by the declarer's re-contra
    where his policy says so; level 3 is subcontra over a re-contra."""
    sets = sorted(set(range(len(p.scenarios))))
    nets, made = scorer.net_curve(task, lo, hi, sets)
    base = nets[:, 0]
    cols = []
    for o in p.objects:
        for lv in p.levels:
            if lv == 1:
                with_ = nets[:, p.index[(o, 2 if recontra.get(o) else 1)]]
                without = base
            else:
                with_, without = nets[:, p.index[(o, 3)]], nets[:, p.index[(o, 2)]]
            cols.append(-(with_ - without) / 2.0)
    cols += [made[:, 0].astype(np.float64), base]
    # a scenario the score refuses here (none in a checked question): no gain
    return np.nan_to_num(np.column_stack(cols), nan=0.0)


def _draw(p: DefendProblem, seed: int, j: int) -> World:
    for k in range(MAX_TRIES):
        world = world_at(p.knowledge, seed, STREAM_DEFEND, j, k,
                         reject_tarockless=p.rules.redeal_no_tarock)
        if _feasible(p, world):
            return world
    raise DealError("no deal consistent with what is known lets the declarer make these "
                    "announcements.")


def _evaluate_world(p: DefendProblem, scorer: Scorer, s: DefendSettings, seed: int,
                    j: int) -> _World:
    """World ``j``: the deal, the declarer's exchange and re-contras on his information
    set, and the evaluator's smoothed values."""
    d = p.declarer
    for k in range(MAX_TRIES):
        world = _draw(p, seed, j * MAX_TRIES + k)
        dealt = world.hands[d]
        if TALON_TAKE[p.contract] == 0:
            ex, pile, hand_after, group = None, 0, dealt, ""
            inner, inner_points = _solo_inner(p, dealt, seed, j, s.inner)
            break
        hands = [0, 0, 0]
        hands[d] = dealt
        know = Knowledge((hands[0], hands[1], hands[2]), world.talon)
        inner = inner_hands(know, seed, STREAM_DEFEND_INNER, (j,), s.inner,
                            reject_tarockless=p.rules.redeal_no_tarock)
        try:
            ch = choose_exchange(dealt, d, world.talon, p.contract, p.rules.discard_tarock,
                                 inner, screen=s.screen, keep=s.keep, forbid=p.dealt_without,
                                 only=_allowed(p))
        except DealError:
            continue  # no exchange keeps the announcements (a discard rule): redraw
        ex = ch.exchange
        pile, hand_after, group = ex.declarer_pile_thirds, ex.hand_after, ex.group_label
        inner_points = ch.inner_points
        break
    else:
        raise DealError("no deal consistent with what is known lets the declarer make these "
                        "announcements.")
    hs = list(world.hands)
    hs[d] = hand_after
    task = PlayTask((hs[0], hs[1], hs[2]), d, pile, dealt, p.contract)
    recontra = {o: False for o in p.objects}
    if p.max_level >= 2:
        # his re-contra is said when he has seen what the defender has: the talon only
        # once it is exposed (his exchange's inner worlds), else his dealt hand alone
        plays = (_auction_plays(p, s, seed, j, dealt) if p.stage == "b"
                 else _plays(p, d, hand_after, pile, inner, inner_points))
        sets = [p.index[(o, lv)] for o in p.objects for lv in (1, 2)]
        means = _mean_nets(scorer, p, dealt, plays, sets)
        for n, o in enumerate(p.objects):
            recontra[o] = bool(means[2 * n + 1] > means[2 * n])
    e = float(evaluate_positions(np.array([task.hands], dtype=np.uint64), d)[0])
    top = task.in_play_points
    lo, hi, w = smoothing_weights(e, SMOOTHING_SD, top, SMOOTHING_WINDOW)
    m = _value_matrix(p, scorer, task, recontra, lo, hi)
    mean = w @ m
    floor = np.maximum(w @ (m * m) - mean * mean, 0.0)
    return _World(task, group, e, recontra, mean, floor)


# ----------------------------------------------------------------- the run


def _estimate(smoothed: np.ndarray, floor: np.ndarray, exact: dict[int, float],
              worlds: np.ndarray | None = None) -> Estimate:
    """The control-variate estimate (:mod:`.cv`) of one column: the evaluator's smoothed
    values on ``worlds`` (default: all) plus the mean correction on those solved exactly,
    its variance floored by the smoothing model's; no SE from fewer than
    :data:`~.cv.MIN_EXACT` exact worlds."""
    at = np.arange(len(smoothed)) if worlds is None else np.asarray(worlds, dtype=np.int64)
    if not len(at):
        return Estimate(math.nan, math.nan, 0, 0)
    solved = np.array([j for j in at.tolist() if j in exact], dtype=np.int64)
    resid = np.array([exact[j] - smoothed[j] for j in solved.tolist()])
    terms = [PrefixTerm(smoothed[at], worlds=at),
             PrefixTerm(resid, correction=True, floor=floor[solved], worlds=solved)]
    return combine(terms, min_prefix=MIN_EXACT)


def _exact_values(p: DefendProblem, scorer: Scorer, w: _World, points: int) -> np.ndarray:
    """The columns at the declarer's exact future points (and the card points last)."""
    row = _value_matrix(p, scorer, w.task, w.recontra, points, points)[0]
    return np.append(row, points + w.task.pile_thirds / 3.0)


def _setup(req: DefendRequest) -> tuple[DefendProblem, Scorer]:
    p = make_defend_problem(req)
    return p, Scorer(p.contract, p.declarer, p.scenarios, _score_fn(p.rules))


def defend(req: DefendRequest) -> DefendAdvice:
    """Contra advice for one defender (see the module and ``docs/ADVICE.md``).

    Worlds are evaluated in order; the first ``settings.exact`` of them are solved on the
    solver threads meanwhile, so which worlds are exact depends only on their index, and
    the same seed and worlds give the same numbers for any ``jobs`` (a time limit may
    leave solves unfinished: those worlds then count as unsolved)."""
    t0 = time.time()
    p, scorer = _setup(req)
    limit, s = req.limit, req.settings
    deadline = limit.deadline(t0)
    phase1 = None if deadline is None else t0 + s.evaluator_share * float(limit.seconds or 0)
    n_exact = limit.worlds if s.exact is None else min(int(s.exact), limit.worlds)
    solver = ExactSolver(req.jobs, req.solve_batch)
    worlds: list[_World] = []
    handles: dict[int, object] = {}
    exact_points: dict[int, int] = {}
    try:
        for j in range(limit.worlds):
            if phase1 is not None and j >= MIN_WORLDS and time.time() > phase1:
                break
            w = _evaluate_world(p, scorer, s, req.seed, j)
            worlds.append(w)
            if j < n_exact:
                handles[j] = solver.submit([(w.task.hands, p.declarer, int(round(w.estimate)))],
                                           deadline)
        for j, handle in handles.items():
            value = solver.collect(handle, deadline)[0]
            if value is not None:
                exact_points[j] = int(value)
    finally:
        solver.close()
    return _report(p, scorer, req, worlds, exact_points, time.time() - t0)


def _report(p: DefendProblem, scorer: Scorer, req: DefendRequest, worlds: list[_World],
            exact_points: dict[int, int], seconds: float) -> DefendAdvice:
    cols = _columns(p)
    sm = np.array([w.smoothed for w in worlds])
    fl = np.array([w.floor for w in worlds])
    xs = {j: _exact_values(p, scorer, worlds[j], v) for j, v in exact_points.items()}
    pts = np.array([w.estimate + w.task.pile_thirds / 3.0 for w in worlds])

    def column(c: int, at: np.ndarray | None = None) -> Estimate:
        return _estimate(sm[:, c], fl[:, c], {j: x[c] for j, x in xs.items()}, at)

    rows = []
    for c, (obj, level) in enumerate(cols[:-2]):
        share = float(np.mean([w.recontra[obj] for w in worlds]))
        if level == 1:
            est = column(c)
        else:  # subcontra: said only after a re-contra, so on those worlds
            est = column(c, np.array([j for j, w in enumerate(worlds) if w.recontra[obj]],
                                     dtype=np.int64))
        rows.append(ContraRow(obj, level, LEVEL_NAMES[level], p.stage * level,
                              p.rules.contra_factor(p.stage * level), est.mean, est.se,
                              advice_word(est.mean, est.se, LEVEL_NAMES[level]),
                              est.worlds, est.exact, share if p.max_level >= 2 else None,
                              p.covered if obj == "game" else ()))
    made = column(len(cols) - 2)
    net = column(len(cols) - 1)
    points = _estimate(pts, np.zeros(len(pts)), {j: x[-1] for j, x in xs.items()})
    detail = tuple(WorldDetail(w.task, w.group, w.estimate, exact_points.get(j),
                               dict(w.recontra)) for j, w in enumerate(worlds))
    return DefendAdvice(
        contract=p.contract, seat=p.seat, declarer=p.declarer, stage=p.stage,
        talon=p.talon, taken=p.taken, announced=p.announced, contras=tuple(rows),
        covered=p.covered, not_valued=p.not_valued, p_make=made, points=points,
        declarer_net=net, worlds=len(worlds), exact_worlds=len(exact_points),
        seed=int(req.seed), rules=p.rules.name, rule_options=p.rules.describe_overrides(),
        seconds=seconds, detail=detail)


def contra_decision(req: DefendRequest, *, worlds: int = 16) -> int:
    """The contra level the defender's policy says on the game (0 none, 1 contra) for the
    view in ``req`` (his hand and seat, the contract, what he has seen): contra when the
    evaluator's smoothed mean gain over ``worlds`` worlds (the declarer re-contra'ing by
    his own policy) is above 0.  No exact solves and no time limit: about ``worlds`` ×
    (exchange choice + ``settings.inner`` inner worlds) evaluator calls, cheap enough for
    the bidding adviser to ask it of each defender in each of its worlds."""
    p, scorer = _setup(req)
    gains = [_evaluate_world(p, scorer, req.settings, req.seed, j).smoothed[0]
             for j in range(int(worlds))]
    return 1 if float(np.mean(gains)) > 0 else 0
