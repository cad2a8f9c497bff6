"""The Trischaken evaluator: a seat's paranoid card points of a whole deal, and its score.

:func:`estimate_trischaken_many` maps full deals (three 16-card hands, F leads trick 1,
the talon unused) and a seat to the learned estimate of the seat's *paranoid value*
(:mod:`tarock_solver.solver.trischaken`: the fewest card points he can be held to when
the other two play to give him the most), clipped to ``[0, points in play]``.  The model
is a tree ensemble (:mod:`.trees`) over the features of :mod:`.features` with the
valued seat as "declarer" plus the Trischaken features of :func:`trischaken_features`;
weights in ``trischaken_weights.npz`` beside this module, written by
:mod:`tarock_solver.training.trischaken`.  :func:`trischaken_net` and
:func:`expected_trischaken_net` turn points into the seat's net game points.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np

from ..errors import DealError, RulesError
from ..normal import rounded_normal
from ..rules import Rules
from ..scoring import score_trischaken
from .features import N_FEATURES, features, remaining_points
from .model import check_positions, popcounts
from .trees import ObliviousEnsemble

__all__ = ["FEATURE_SETS", "N_TRISCHAKEN_EXTRA", "TRISCHAKEN_WEIGHTS_PATH", "TrischakenEvaluator",
           "estimate_trischaken_many", "expected_trischaken_net", "load_trischaken_evaluator",
           "points_in_play", "trischaken_features", "trischaken_net"]

TRISCHAKEN_WEIGHTS_PATH = Path(__file__).with_name("trischaken_weights.npz")
#: Rows per block of the predictor (bounds the feature matrix's memory; any value gives
#: the same result).
BLOCK = 4096
#: Trischaken features per relative seat (see :func:`trischaken_features`).
_PER_SEAT = 9
N_TRISCHAKEN_EXTRA = 3 * _PER_SEAT


def points_in_play(hands: np.ndarray) -> np.ndarray:
    """Card points in play of full deals: 70 minus the unused talon's (the solver's total)."""
    return remaining_points(np.asarray(hands, dtype=np.uint64)).astype(np.float64)


@numba.njit(cache=True, nogil=True)
def _extra_kernel(hands: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    # Row by row.  In Trischaken a card that must win when played is a liability and a
    # card below everything the others hold in its group is a safe discard, so per
    # relative seat t (0 the seat valued, 1 the next, 2 the one after) and per group
    # (tarocks; each suit where the others hold cards) the cards below the others'
    # lowest ("duckers") and above their highest ("sure winners") are counted.
    n = hands.shape[0]
    rel = np.zeros(3, dtype=np.int64)
    for r in range(n):
        d = seats[r]
        for t in range(3):
            rel[t] = np.int64(hands[r, (d + t) % 3])
        for t in range(3):
            mine = rel[t]
            others = rel[(t + 1) % 3] | rel[(t + 2) % 3]
            t_duck = 0
            t_win = 0
            low_t = 0
            ot = others & 0x3FFFFF
            lo_o = 99
            hi_o = -1
            for c in range(22):
                if (ot >> c) & 1:
                    if lo_o == 99:
                        lo_o = c
                    hi_o = c
            for c in range(22):
                if (mine >> c) & 1:
                    if c < lo_o:
                        t_duck += 1
                    if c > hi_o:
                        t_win += 1
                    if 1 <= c <= 9:  # II..X: the tarocks that rarely win a trick
                        low_t += 1
            s_duck = 0
            s_win = 0
            s_win_pts = 0
            alone = 0
            pips = 0
            short = 0  # voids and singletons: where the seat is forced to trump early
            for s in range(4):
                mb = (mine >> (22 + 8 * s)) & 255
                ob = (others >> (22 + 8 * s)) & 255
                length = 0
                for j in range(8):
                    length += (mb >> j) & 1
                if length <= 1:
                    short += 1
                for j in range(4):
                    pips += (mb >> j) & 1
                if ob == 0:
                    alone += length
                    continue
                lo = 0
                while not (ob >> lo) & 1:
                    lo += 1
                hi = 7
                while not (ob >> hi) & 1:
                    hi -= 1
                for j in range(8):
                    if (mb >> j) & 1:
                        if j < lo:
                            s_duck += 1
                        if j > hi:
                            s_win += 1
                            s_win_pts += 1 if j < 4 else j - 2
            base = t * 9
            out[r, base + 0] = t_duck / 16.0
            out[r, base + 1] = t_win / 16.0
            out[r, base + 2] = low_t / 16.0
            out[r, base + 3] = s_duck / 16.0
            out[r, base + 4] = s_win / 16.0
            out[r, base + 5] = s_win_pts / 32.0
            out[r, base + 6] = alone / 16.0
            out[r, base + 7] = pips / 16.0
            out[r, base + 8] = short / 4.0


#: The feature sets: columns of features() kept, and whether the Trischaken columns follow.
#: "compact" drops the suit one-hots (96 columns that the suit statistics summarise).
FEATURE_SETS: dict[str, tuple[np.ndarray, bool]] = {
    "base": (np.arange(N_FEATURES), False),
    "all": (np.arange(N_FEATURES), True),
    "compact": (np.r_[0:66, 162:N_FEATURES], True),
}


def trischaken_features(hands: np.ndarray, seats: np.ndarray, *, which: str = "all"
                        ) -> np.ndarray:
    """Feature matrix of validated full deals, the seat valued as the "declarer".

    ``which="base"``: the evaluator's :func:`~.features.features` (leader F, relative to
    the seat); ``"all"`` adds :data:`N_TRISCHAKEN_EXTRA` columns, per relative seat:
    tarocks below / above every tarock of the other two, low tarocks II–X, suit cards
    below / above every card of the others in their suit (and the latter's nominal
    points), suit cards in suits the others lack, pips, short suits (0–1 cards);
    ``"compact"`` is ``"all"`` without the suit one-hots (:data:`FEATURE_SETS`).
    """
    if which not in FEATURE_SETS:
        raise ValueError(f"feature set {which!r}: expected one of {sorted(FEATURE_SETS)}")
    cols, extra_on = FEATURE_SETS[which]
    h = np.ascontiguousarray(hands, dtype=np.uint64).reshape(-1, 3)
    s = np.ascontiguousarray(seats, dtype=np.int64).reshape(-1)
    n = len(h)
    base = np.empty((n, N_FEATURES), dtype=np.float64)
    features(h, np.zeros(n, dtype=np.int64), s, out=base)
    if not extra_on:
        return base
    out = np.empty((n, len(cols) + N_TRISCHAKEN_EXTRA), dtype=np.float64)
    out[:, :len(cols)] = base[:, cols]
    extra = np.empty((n, N_TRISCHAKEN_EXTRA), dtype=np.float64)
    _extra_kernel(h, s, extra)
    out[:, len(cols):] = extra
    return out


class TrischakenEvaluator:
    """Full deals and seats → estimated paranoid card points (features, trees, clip)."""

    def __init__(self, model: ObliviousEnsemble, feature_set: str, error_sd: float) -> None:
        self.model = model
        self.feature_set = feature_set
        self.error_sd = float(error_sd)

    @classmethod
    def load(cls, path: str | Path) -> TrischakenEvaluator:
        with np.load(path, allow_pickle=False) as z:
            feature_set, sd = str(z["feature_set"]), float(z["error_sd"])
        return cls(ObliviousEnsemble.load(path), feature_set, sd)

    @property
    def report(self) -> dict:
        """The training report stored with the weights (held-out metrics and settings)."""
        return json.loads(self.model.meta).get("report", {}) if self.model.meta else {}

    def predict(self, hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Estimates of validated full deals (see :func:`estimate_trischaken_many`)."""
        n = len(hands)
        out = np.empty(n, dtype=np.float64)
        for lo in range(0, n, BLOCK):
            hi = min(n, lo + BLOCK)
            x = trischaken_features(hands[lo:hi], seats[lo:hi], which=self.feature_set)
            out[lo:hi] = np.clip(self.model.predict(x), 0.0, points_in_play(hands[lo:hi]))
        return out


@lru_cache(maxsize=4)
def load_trischaken_evaluator(path: str | None = None) -> TrischakenEvaluator:
    """The shipped Trischaken evaluator (or the one at ``path``), loaded once."""
    p = Path(path) if path is not None else TRISCHAKEN_WEIGHTS_PATH
    if not p.exists():
        raise FileNotFoundError(f"Trischaken weights not found at {p}; train them with "
                                "python -m tarock_solver.training.trischaken fit")
    return TrischakenEvaluator.load(p)


def estimate_trischaken_many(hands: object, seats: object) -> np.ndarray:
    """Estimated paranoid card points of ``seats`` in Trischaken deals (F leads trick 1).

    ``hands`` is an (N, 3) array of card masks F, M, R of 16 cards each (the talon,
    the other six cards, unused); ``seats`` the seat valued per row (0/1/2, or one for
    all).  Returns float64 (N,), each row computed alone: a row's value does not depend
    on the batch it is in.
    """
    h, _, s = check_positions(hands, 0, seats)
    short = np.flatnonzero(popcounts(h[:, 0]) != 16)
    if len(short):
        r = int(short[0])
        raise DealError(f"position {r}: a Trischaken deal has 16 cards a hand; found "
                        f"{int(popcounts(h[r:r + 1, 0])[0])}")
    return load_trischaken_evaluator().predict(h, s)


def _check_scored(rules: Rules) -> None:
    if rules.trischaken_value is None or rules.trischaken_trickless_bonus is None:
        raise RulesError(f"the {rules.name} profile has no Trischaken scoring "
                         f"(trischaken_value is not set; all_pass={rules.all_pass}); use the "
                         "dummett profile, or set --opt trischaken_value=5 --opt "
                         "trischaken_trickless_bonus=5.")


def _net_table(rules: Rules, in_play: int) -> np.ndarray:
    """The seat's net for every points value 0 … in_play (see :func:`trischaken_net`)."""
    _check_scored(rules)
    if isinstance(in_play, bool) or int(in_play) != in_play or not 0 <= in_play <= 70:
        raise RulesError(f"points in play must be a whole number 0..70, not {in_play!r}")
    in_play = int(in_play)
    out = np.zeros(in_play + 1, dtype=np.float64)
    for p in range(in_play + 1):
        rest = in_play - p
        pts = [p, rest - rest // 2, rest // 2]  # the next seat takes the odd point
        # tricks: none for 0 points (every trick is worth at least 1), else some; only
        # none-or-some matters to the score
        takers = [i for i in range(3) if pts[i] > 0]
        tricks = [0, 0, 0]
        for k, i in enumerate(takers):
            tricks[i] = 16 // len(takers) + (1 if k < 16 % len(takers) else 0)
        out[p] = score_trischaken(rules, pts, tricks).nets[0]
    return out


def trischaken_net(rules: Rules, points: int, in_play: int) -> float:
    """The seat's net game points (RULES.md 7, 8) when it takes ``points`` card points
    and the other two share the rest of ``in_play`` evenly.

    The even split is a convention: the paranoid value is the seat's worst case, and
    how the others divide the rest is not known, so it is taken as even.  With an odd
    remainder one of them takes the extra point (the next seat; the two others are
    alike for the seat's net, so which one does not change the result).  ``points ==
    0`` means the seat took no trick (the trickless bonus); another with 0 points took
    none either.  RulesError for a profile without Trischaken scoring.
    """
    table = _net_table(rules, in_play)
    if isinstance(points, bool) or int(points) != points or not 0 <= points <= in_play:
        raise RulesError(f"points must be a whole number 0..{in_play}, not {points!r}")
    return float(table[int(points)])


def expected_trischaken_net(rules: Rules, mean: float, sd: float | None = None,
                            in_play: int | None = None) -> float:
    """E[:func:`trischaken_net`] when the points are round(mean + sd·Z) clipped to
    0 … in_play (Z standard normal; :func:`~tarock_solver.normal.rounded_normal`).

    ``sd`` None takes the shipped model's error SD (its RMSE on held-out deals);
    ``sd == 0`` is the net of the rounded, clipped mean, exactly.  ``in_play`` (70 minus
    the talon's points, :func:`points_in_play`) must be given: it has no default because
    no deal plays all 70.
    """
    if in_play is None:
        raise RulesError("expected_trischaken_net needs the points in play (70 minus the "
                         "talon's points)")
    table = _net_table(rules, in_play)
    if sd is None:
        sd = load_trischaken_evaluator().error_sd
    if not np.isfinite(mean) or sd < 0:
        raise RulesError(f"mean must be finite and sd ≥ 0 (mean {mean!r}, sd {sd!r})")
    top = int(in_play)
    if sd == 0:
        # k + 0.5 rounds up, as rounded_normal's cuts do
        return float(table[int(np.clip(np.floor(mean + 0.5), 0, top))])
    return float(rounded_normal(float(mean), float(sd), top) @ table)
