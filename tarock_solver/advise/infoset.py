"""The declarer's talon decision on his information set, by the learned evaluator.

Every legal exchange (:func:`tarock_solver.talon.exchanges`) is valued by the
evaluator's card points averaged over *inner worlds* — completions of the
defenders' hands given the declarer's hand and the talon — in two stages (all
exchanges on ``screen`` inner worlds, the ``keep`` best on all of them); the
after-talon announcements are chosen the same way (:func:`choose_announcements`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..cards import TAROCK_MASK, thirds_of
from ..errors import DealError
from ..estimate import load_evaluator
from ..estimate.bidding import contract_values
from ..talon import Exchange, exchanges
from .announcements import Policy
from .evaluate import PlayTask, Scorer, holding_class
from .sampling import Knowledge, rng_for

__all__ = ["ExchangeChoice", "allowed_sets", "choose_announcements", "choose_exchange",
           "evaluate_positions", "inner_hands", "warm_evaluator"]

_MAX_REDRAWS = 1000
_BITS = np.uint64(1) << np.arange(54, dtype=np.uint64)


def evaluate_positions(hands: np.ndarray, declarer: int) -> np.ndarray:
    """The evaluator's card points of the declarer at trick 1 (forehand leads) for rows
    of valid 16-card hands (N, 3) uint64."""
    n = len(hands)
    return load_evaluator().predict(np.ascontiguousarray(hands, dtype=np.uint64),
                                    np.zeros(n, dtype=np.int64), np.full(n, declarer,
                                                                         dtype=np.int64))


def warm_evaluator() -> None:
    """Load the evaluator, the bidding model and the Trischaken evaluator and their
    kernels (compiled on a fresh install) with one call each."""
    from ..estimate.trischaken import estimate_trischaken_many

    deal = np.array([[2 ** 16 - 1 << 22, 2 ** 16 - 1 << 38, 2 ** 16 - 1 << 6]], dtype=np.uint64)
    evaluate_positions(deal, 0)
    contract_values(deal[:, 0], np.zeros(1, dtype=np.int64))
    estimate_trischaken_many(deal, np.zeros(1, dtype=np.int64))


def inner_hands(knowledge: Knowledge, seed: int, stream: int, index: Sequence[int], count: int,
                *, reject_tarockless: bool = True) -> np.ndarray:
    """``count`` uniform completions of the hands (an (count, 3) uint64 array), a pure
    function of ``(seed, stream, *index)``.  The talon must be known.

    The unknown cards are dealt into the free hand slots by one uniform permutation
    per row; with ``reject_tarockless`` rows leaving a hand without a tarock are
    redrawn (those deals are never played), which keeps the others uniform; a fully
    known hand is taken as it is.
    """
    if not knowledge.talon_known:
        raise DealError("inner worlds need the talon known.")
    rng = rng_for(seed, stream, *index)
    unknown = np.array([c for c in range(54) if knowledge.unknown_mask >> c & 1], dtype=np.int64)
    free = [knowledge.sizes[s] - int(knowledge.hands[s]).bit_count() for s in range(3)]
    if sum(free) != len(unknown):
        raise DealError("the unknown cards do not fill the free places of the hands.")
    base = np.array([knowledge.hands[s] for s in range(3)], dtype=np.uint64)
    drawn = [s for s in range(3) if free[s]]  # a fully known hand is never redrawn
    out = np.tile(base, (count, 1))
    todo = np.arange(count)
    for _ in range(_MAX_REDRAWS):
        if not len(todo):
            return out
        perm = rng.permuted(np.tile(unknown, (len(todo), 1)), axis=1)
        bits = _BITS[perm]
        lo = 0
        for s in range(3):
            if free[s]:
                out[todo, s] = base[s] | np.bitwise_or.reduce(bits[:, lo:lo + free[s]], axis=1)
            lo += free[s]
        if not reject_tarockless:
            return out
        ok = ((out[todo][:, drawn] & np.uint64(TAROCK_MASK)) != 0).all(axis=1)
        todo = todo[~ok]
    raise DealError("no completion consistent with what is known gives every hand a tarock.")


@dataclass(frozen=True)
class ExchangeChoice:
    """The exchange chosen on the information set, and what the choice rested on."""

    exchange: Exchange
    mean_points: float  # evaluator's mean card points (pile included) over the inner worlds
    options: int  # distinct exchanges valued (equivalent discards merged)
    inner: int  # inner worlds behind the final comparison
    margin: float  # mean points over the runner-up (0 with one option)
    #: The evaluator's future card points of the chosen exchange, per inner world.
    inner_points: np.ndarray


def _values(options: Sequence[Exchange], inner: np.ndarray, seat: int) -> np.ndarray:
    """(options, inner worlds) evaluator card points including the pile."""
    k = len(inner)
    hands = np.repeat(inner[None, :, :], len(options), axis=0)  # (O, K, 3)
    hands[:, :, seat] = np.array([ex.hand_after for ex in options], dtype=np.uint64)[:, None]
    est = evaluate_positions(hands.reshape(-1, 3), seat).reshape(len(options), k)
    pile = np.array([ex.declarer_pile_thirds / 3.0 for ex in options])
    return est + pile[:, None]


def choose_exchange(hand: int, seat: int, talon: Sequence[int], contract: str, mode: str,
                    inner: np.ndarray, *, screen: int = 8, keep: int = 8,
                    forbid: int = 0, only: Callable[[Exchange], bool] | None = None
                    ) -> ExchangeChoice:
    """The exchange with the best evaluator mean over the inner worlds (see the module);
    ``forbid``: cards the exchange must not take (a before-talon No Kings or No Trull),
    unless every talon group holds one (the announcement is then broken anyway);
    ``only``: the exchanges allowed at all (a defender who saw the group taken and the
    announcements made asks which of those the declarer chose)."""
    options = exchanges(hand, list(talon), contract, mode)
    if only is not None:
        options = [ex for ex in options if only(ex)]
    if not options:
        raise DealError(f"no legal exchange for {contract} with this hand and talon.")
    if forbid:
        options = [ex for ex in options if not ex.hand_after & forbid] or options
    inner = np.ascontiguousarray(inner, dtype=np.uint64)
    if len(options) > keep and len(inner) > screen:
        first = _values(options, inner[:screen], seat).mean(axis=1)
        order = np.argsort(-first, kind="stable")[:keep]
        finalists = [options[i] for i in sorted(order)]
    else:
        finalists = list(options)
    values = _values(finalists, inner, seat)
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    rest = np.delete(means, best)
    margin = float(means[best] - rest.max()) if len(rest) else 0.0
    chosen = finalists[best]
    return ExchangeChoice(chosen, float(means[best]), len(options), len(inner), margin,
                          values[best] - chosen.declarer_pile_thirds / 3.0)


def choose_announcements(policies: Sequence[Policy], scorer: Scorer, hand: int, seat: int,
                         exchange: Exchange | None, inner: np.ndarray,
                         inner_points: np.ndarray) -> list[int]:
    """Per policy, the announcement-set index with the best mean net over the inner worlds.

    Scored from the evaluator's (rounded) points of the chosen exchange; a set that
    cannot be announced with this exchange is never chosen.  Policies without a
    choice (their set is fixed) get that set.
    """
    hand_after = exchange.hand_after if exchange is not None else hand
    pile = exchange.declarer_pile_thirds if exchange is not None else 0
    per_policy = allowed_sets(tuple(policies), tuple(scorer.annsets))
    fixed = [a[0] if len(a) == 1 else None for a in per_policy]
    if all(f is not None for f in fixed):
        return [int(f) for f in fixed]  # type: ignore[arg-type]
    wanted = sorted({i for a, f in zip(per_policy, fixed, strict=True) if f is None for i in a})
    # The score sees the points and, of each defender, his holding class: inner worlds
    # alike in those are scored once (on the first of them).
    d1, d2 = (seat + 1) % 3, (seat + 2) % 3
    points = np.rint(np.asarray(inner_points, dtype=np.float64)).astype(np.int64)
    merged: Counter = Counter()
    first: dict = {}
    for pts, h1, h2 in zip(points.tolist(), inner[:, d1].tolist(), inner[:, d2].tolist(),
                           strict=True):
        k = (pts, holding_class(h1), holding_class(h2))
        merged[k] += 1
        first.setdefault(k, (pts, h1, h2))
    nets = np.zeros(len(scorer.annsets))
    in_play = None
    for k, count in merged.items():
        pts, h1, h2 = first[k]
        hands = [0, 0, 0]
        hands[seat], hands[d1], hands[d2] = hand_after, h1, h2
        task = PlayTask((hands[0], hands[1], hands[2]), seat, pile, hand, scorer.contract)
        if in_play is None:
            row = [int(h) for h in inner[0]]
            row[seat] = hand_after
            in_play = thirds_of(row[0] | row[1] | row[2])
        out = scorer.outcome(task, pile + 3 * pts, 3 * pts == in_play, wanted)
        nets += count * out.net  # NaN for a set not announceable: never chosen below
    chosen = []
    for a, f in zip(per_policy, fixed, strict=True):
        if f is not None:
            chosen.append(f)
            continue
        allowed = [i for i in a if np.isfinite(nets[i])]
        chosen.append(max(allowed, key=lambda i: (nets[i], -i)) if allowed else 0)
    return chosen


@lru_cache(maxsize=64)
def allowed_sets(policies: tuple[Policy, ...], annsets: tuple) -> tuple[tuple[int, ...], ...]:
    """Per policy, the indices of the announcement sets it allows (tuples: cached)."""
    return tuple(tuple(i for i, s in enumerate(annsets) if pol.allows(s)) for pol in policies)
