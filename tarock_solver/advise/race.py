"""Choosing the talon group, discard and after-talon announcements from inner samples.

The declarer sees the talon but not the other hands, so his choice must be
the best *on average over the hands he cannot see*: the candidates are
compared on common inner worlds drawn given the talon, never world by world
(a choice made per world would use cards he cannot see).  Successive halving spends the solves where the decision is
close: every candidate is solved on a few inner worlds, the worse half is
dropped, the survivors get more worlds, and so on (Karnin et al. 2013).

Several policies (plain play, each announcement) may prefer different
exchanges, so a candidate survives a round if it is in the better half for
*any* racing objective.  The final choice for each policy is made on the
survivors with all their inner worlds; the chosen exchange is then evaluated
on a world that took no part in the choice, so the estimate is not biased
upward by the selection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..talon import Exchange
from .announcements import AnnSet, Policy, eligible_after
from .evaluate import Evaluator, Outcome, PlayTask, Scorer
from .sampling import World

#: A chosen (exchange index among the candidates, announcement-set index) per policy.
Choice = tuple[int, int]


@dataclass
class RaceResult:
    """What the race decided and what it cost."""

    candidates: list[Exchange]
    survivors: list[int]  # indices into candidates, still in the race at the end
    inner_worlds: int  # inner worlds the survivors were solved on
    means: np.ndarray  # [len(survivors), n_annsets] mean net over the inner worlds
    choices: list[Choice]  # per policy
    #: Per candidate: (inner worlds solved, mean plain net, its standard error).  The
    #: winner's inner mean is biased upward by the selection; report it as such.
    plain: list[tuple[int, float, float]]
    cut: bool = False  # the race's node budget ended it before its last round


def task_for(ex: Exchange | None, hand: int, world: World, seat: int, contract: str) -> PlayTask:
    """The play position of one exchange (None: Solo) in one world."""
    hands = list(world.hands)
    if ex is None:
        hands[seat] = hand
        return PlayTask(tuple(hands), seat, 0, hand, contract)  # type: ignore[arg-type]
    hands[seat] = ex.hand_after
    return PlayTask(tuple(hands), seat, ex.declarer_pile_thirds, hand, contract)  # type: ignore[arg-type]


def policy_masks(policies: Sequence[Policy], annsets: Sequence[AnnSet]) -> np.ndarray:
    """[n_policies, n_annsets]: which sets each policy may end up announcing."""
    return np.array([[p.allows(s) for s in annsets] for p in policies], dtype=bool)


def eligibility(candidates: Sequence[Exchange], annsets: Sequence[AnnSet]) -> np.ndarray:
    """[n_candidates, n_annsets]: may the set be announced after this exchange?"""
    return np.array([[eligible_after(s, ex.hand_after) for s in annsets] for ex in candidates],
                    dtype=bool)


def best_choice(means: np.ndarray, allowed: np.ndarray) -> Choice | None:
    """argmax of ``means`` over the allowed cells; ties go to the first (deterministic)."""
    if not allowed.any():
        return None
    masked = np.where(allowed, means, -np.inf)
    flat = int(np.argmax(masked))
    return divmod(flat, means.shape[1])  # type: ignore[return-value]


def run_race(
    candidates: list[Exchange],
    inner_world: Callable[[int], World],
    make_task: Callable[[Exchange, World], PlayTask],
    evaluator: Evaluator,
    scorer: Scorer,
    policies: Sequence[Policy],
    racing: Sequence[int],
    schedule: Sequence[int],
    should_stop: Callable[[], bool] = lambda: False,
    partial_ok: bool = False,
    over_budget: Callable[[], bool] = lambda: False,
) -> RaceResult | None:
    """Successive halving over ``candidates`` on common inner worlds.

    ``schedule`` lists the cumulative number of inner worlds of each round;
    ``racing`` the indices of the policies whose objectives keep a candidate
    alive.  If ``should_stop`` fires, returns None (the caller abandons the
    world), or with ``partial_ok`` decides on the rounds completed so far.
    If ``over_budget`` fires before a round (the race's node budget is
    spent: a pathological world), the decision is made on the rounds done and
    the result says so (``cut``); it depends only on node counts, so it is
    the same in every run.
    """
    annsets = scorer.annsets
    pmask = policy_masks(policies, annsets)
    elig = eligibility(candidates, annsets)
    alive = list(range(len(candidates)))
    nets: dict[int, list[np.ndarray]] = {e: [] for e in alive}
    worlds: list[World] = []
    means = np.zeros((0, len(annsets)))
    n = 0
    cut = False
    for r, n in enumerate(schedule):
        if r > 0 and over_budget():
            cut = True
            break
        while len(worlds) < n:
            worlds.append(inner_world(len(worlds)))
        tasks: list[PlayTask] = []
        owners: list[int] = []
        # World by world, so that each solve can start from a sibling's value
        # in the same inner world (the evaluator's MTD(f) first guess).
        for k in range(n):
            for e in alive:
                if len(nets[e]) <= k:
                    tasks.append(make_task(candidates[e], worlds[k]))
                    owners.append(e)
        if should_stop():
            if not partial_ok or r == 0:
                return None
            break
        outs: list[Outcome] = evaluator.outcomes(tasks, scorer, "race") if tasks else []
        for e, out in zip(owners, outs, strict=True):
            nets[e].append(out.net)
        means = np.array([np.mean(nets[e], axis=0) for e in alive])
        last = r == len(schedule) - 1
        if last or len(alive) == 1:
            break
        keep_n = (len(alive) + 1) // 2
        keep: set[int] = set()
        possible = elig[alive] & ~np.isnan(means)
        for p in racing:
            allowed = pmask[p][None, :] & possible
            score = np.where(allowed, means, -np.inf).max(axis=1)
            order = np.argsort(-score, kind="stable")
            keep.update(alive[i] for i in order[:keep_n])
        alive = [e for e in alive if e in keep]
        means = np.array([np.mean(nets[e], axis=0) for e in alive])
    choices: list[Choice] = []
    # A set whose score is NaN is impossible after that exchange (scoring refused it).
    elig_alive = elig[alive] & ~np.isnan(means)
    for p in range(len(policies)):
        c = best_choice(means, pmask[p][None, :] & elig_alive)
        if c is None:  # nothing eligible (cannot happen for plain); fall back to plain play
            c = best_choice(means, pmask[0][None, :] & elig_alive)
        assert c is not None
        choices.append((alive[c[0]], c[1]))
    plain = []
    for e in range(len(candidates)):
        vals = np.array([v[0] for v in nets[e]])
        se = float(np.std(vals, ddof=1) / np.sqrt(len(vals))) if len(vals) > 1 else float("nan")
        plain.append((len(vals), float(vals.mean()) if len(vals) else float("nan"), se))
    n_used = min(len(nets[e]) for e in alive)
    return RaceResult(candidates, alive, n_used, means, choices, plain, cut)
