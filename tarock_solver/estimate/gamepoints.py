"""The learned game-point evaluator: what ``solve_game_points`` would return, estimated.

:func:`estimate_game_points` and :func:`estimate_game_points_many` estimate the
declarer's double-dummy net game points of a position at a trick start (card
points, silent and announced birds, targets, Valat and hand bonuses, as the score
sheet counts them).  The estimate is the expected net under two learned models:

* the declarer's future card points F are the card-point evaluator's estimate plus
  a normal error of :func:`card_point_sd` (rounded, clipped to 0 … all in play;
  taking every point is Valat, since every trick holds at least a third);
* each bird card in a hand wins its own trick with the probability of the bird
  model (:mod:`.birds`), and is otherwise not played to it.

Every outcome is scored by the position's :class:`~tarock_solver.solver.payoff.Payoff`
(the scorer itself), so every rule profile the scorer supports is supported.  Bird
items are written apart from the game, so the net is the game's expected net plus
each bird's probability times what its success adds.  Positions with at most
:data:`EXACT_CARDS` cards a hand are solved exactly instead (a few microseconds of
search; there the evaluator's error would be the larger cost).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import thirds_of
from ..errors import RulesError
from ..normal import rounded_normal
from ..rules import BIRD_KEYS, Rules, load_rules
from ..scoring import hand_class
from ..solver import Payoff, make_payoff, solve_game_points
from .birds import BirdModel, bird_win_probabilities
from .model import check_positions, load_evaluator, popcounts

__all__ = ["CARD_POINT_SD", "EXACT_CARDS", "SMOOTHING_WINDOW", "GamePointParts",
           "card_point_sd", "estimate_game_points", "estimate_game_points_many",
           "game_point_parts", "rounded_normal", "smoothing_weights"]

#: The card-point evaluator's error on a whole deal (SD, card points): the pooled
#: within-hand residual SD on fixed worlds (3.08 over 6 hands × 25 worlds,
#: ``benchmarks/EXPERIMENTS.md``, "A one-trick lookahead over the evaluator"
#: (2026-12-02); the model card's held-out residual SD is 2.72).
CARD_POINT_SD = 3.0
#: Totals either side of the rounded estimate that are scored (4 SD on a whole deal);
#: the rest of the normal's weight goes to the window's ends.
SMOOTHING_WINDOW = 12
#: Positions with at most this many cards a hand are solved exactly.
EXACT_CARDS = 2

_HAND_SIZE = 16


def card_point_sd(cards: int) -> float:
    """The card-point error's SD assumed for a position of ``cards`` cards a hand: the
    whole deal's, shrinking with the square root of the tricks left."""
    return CARD_POINT_SD * math.sqrt(max(cards, 1) / _HAND_SIZE)


def smoothing_weights(estimate: float, sd: float, top: int,
                      window: int = SMOOTHING_WINDOW) -> tuple[int, int, np.ndarray]:
    """``(lo, hi, w)``: the totals ``lo … hi`` within ``window`` of the rounded estimate
    and their weights under :func:`rounded_normal`, the weight beyond them moved onto
    the window's ends (a function of the estimate alone)."""
    w = rounded_normal(estimate, sd, top)
    r = int(np.clip(round(estimate), 0, top))
    lo, hi = max(0, r - window), min(top, r + window)
    w_in = w[lo:hi + 1].copy()
    w_in[0] += w[:lo].sum()
    w_in[-1] += w[hi + 1:].sum()
    return lo, hi, w_in


@dataclass(frozen=True)
class GamePointParts:
    """The estimate of each position and what it is made of (arrays of N).

    ``net`` = ``card_net`` + ``birds``: the expected net without any bird brought home,
    and what the birds add; ``p_won`` (N, 3) the bird model's probability for Pagat,
    Uhu and Kakadu (0 for a bird not in a hand); ``exact``: solved, not estimated."""

    net: np.ndarray
    card_net: np.ndarray
    birds: np.ndarray
    p_won: np.ndarray
    exact: np.ndarray


def _hand_class(mask: int | None) -> tuple[int, int] | None:
    """:func:`~tarock_solver.scoring.hand_class`, None for a hand not given."""
    return None if mask is None else hand_class(int(mask))


class _Tables:
    """Scores of one rule profile, filled as asked: per payoff (keyed by everything its
    scores depend on) the net of each total F with no bird brought home; per bird
    situation (contract, declarer, announcements, holders) what each bird's success
    adds, which does not depend on the card points (bird items are written apart from
    the game) except under Valat, scored on its own."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.payoffs: dict[tuple, tuple[Payoff, dict[int, float]]] = {}
        self.deltas: dict[tuple, np.ndarray] = {}

    def game_rows(self, key: tuple, build: Callable[[], Payoff], lo: int, hi: int
                  ) -> np.ndarray:
        """Nets of the totals lo … hi with no bird brought home."""
        payoff, rows = self._payoff(key, build)
        out = np.empty(hi - lo + 1)
        for f in range(lo, hi + 1):
            v = rows.get(f)
            if v is None:
                v = float(payoff.score(f, payoff.outcome_flags(f)).net_declarer)
                rows[f] = v
            out[f - lo] = v
        return out

    def bird_deltas(self, key: tuple, situation: tuple, build: Callable[[], Payoff]
                    ) -> np.ndarray:
        """What each bird's success adds to the net below Valat: the bird situation's, the
        same for every total and every payoff of the situation."""
        hit = self.deltas.get(situation)
        if hit is None:
            hit = _deltas(self._payoff(key, build)[0], 0)
            self.deltas[situation] = hit
        return hit

    def valat_deltas(self, key: tuple, build: Callable[[], Payoff]) -> np.ndarray:
        """What each bird's success adds when the declarer takes every point (Valat),
        scored for this payoff."""
        payoff = self._payoff(key, build)[0]
        return _deltas(payoff, payoff.remaining)

    def _payoff(self, key: tuple, build: Callable[[], Payoff]
                ) -> tuple[Payoff, dict[int, float]]:
        hit = self.payoffs.get(key)
        if hit is None:
            hit = (build(), {})
            self.payoffs[key] = hit
        return hit


def _deltas(payoff: Payoff, f: int) -> np.ndarray:
    """Per bird (Pagat, Uhu, Kakadu): the net of its success at total ``f`` minus the net
    of none (0 for a bird not in a hand, or a defender's under Valat)."""
    valat = payoff.outcome_flags(f) == 0
    base = payoff.score(f, payoff.outcome_flags(f)).net_declarer
    out = np.zeros(3)
    for b, bird in enumerate(BIRD_KEYS):
        holder = payoff.live.get(bird)
        if holder is None or (valat and holder != payoff.template.declarer):
            continue  # not in a hand; or a defender's trick, impossible under Valat
        out[b] = payoff.score(f, payoff.outcome_flags(f, (b,))).net_declarer - base
    return out


#: One cache per rules object (its scores never change), the object kept with it so
#: that its id is not reused.
_TABLES: dict[int, _Tables] = {}


def _tables_for(rules: Rules) -> _Tables:
    hit = _TABLES.get(id(rules))
    if hit is None or hit.rules is not rules:
        hit = _Tables(rules)
        _TABLES[id(rules)] = hit
    return hit


def _as_rules(rules: str | Rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    return load_rules(str(rules))


def _per_row(value: object, n: int, what: str) -> list:
    """One value for all positions (None, a name, a dict, a number) or one per position."""
    if value is None or isinstance(value, (str, Mapping, bool, int, np.integer)):
        return [value] * n
    out = list(value)  # type: ignore[call-overload]
    if len(out) != n:
        raise RulesError(f"{what} needs one entry per position ({n}); found {len(out)}")
    return out


def game_point_parts(hands: object, leaders: object, declarers: object,
                     contracts: str | Sequence[str], *,
                     announcements: Mapping[str, str] | Sequence[Mapping[str, str] | None]
                     | None = None,
                     discard_thirds: int | Sequence[int] = 0, rules: str | Rules = "dummett",
                     declarer_hands: Sequence[int | None] | None = None,
                     dealt: Sequence[tuple[int | None, int | None, int | None]] | None = None,
                     valat_open: bool | Sequence[bool] | None = None,
                     estimates: np.ndarray | None = None,
                     card_net: bool = True,
                     bird_model: BirdModel | None = None,
                     game_at_estimate: bool = False) -> GamePointParts:
    """The estimates of :func:`estimate_game_points_many` with their parts.

    ``estimates``: the card-point evaluator's values of the positions when the caller
    has them (else they are computed); ``card_net=False`` leaves the game's part out
    (NaN, and so ``net``): the adviser scores the card points itself and asks only for
    the birds.  ``game_at_estimate``: the game's part is scored at the rounded estimate
    alone, not averaged over the card points' error — one score instead of ~25, enough
    for the difference between two announcement sets whose extra items are written
    apart from the game (a bird announcement's).  ``bird_model``: another fitted bird
    model (held-out measurements)."""
    h, lead, decl = check_positions(hands, leaders, declarers)
    n = len(h)
    rules_obj = _as_rules(rules)
    contract_rows = _per_row(contracts, n, "contracts")
    ann_rows = _per_row(announcements, n, "announcements")
    pile_rows = [int(v) for v in _per_row(discard_thirds, n, "discard_thirds")]
    dh_rows = _per_row(declarer_hands, n, "declarer_hands") if declarer_hands is not None \
        else [None] * n
    dealt_rows = list(dealt) if dealt is not None else [(None, None, None)] * n
    if len(dealt_rows) != n:
        raise RulesError(f"dealt needs one entry per position ({n}); found {len(dealt_rows)}")
    valat_rows = _per_row(valat_open, n, "valat_open")
    cards = popcounts(h[:, :1])[:, 0]
    est = load_evaluator().predict(h, lead, decl) if estimates is None \
        else np.asarray(estimates, dtype=np.float64)
    p_won, _holder = bird_win_probabilities(h, lead, decl, bird_model)
    tables = _tables_for(rules_obj)
    game = np.full(n, np.nan)
    birds = np.zeros(n)
    exact = np.zeros(n, dtype=bool)
    for i in range(n):
        hs = (int(h[i, 0]), int(h[i, 1]), int(h[i, 2]))
        li, di = int(lead[i]), int(decl[i])
        anns = dict(ann_rows[i] or {})
        vo = valat_rows[i]
        if vo is None:
            vo = int(cards[i]) == _HAND_SIZE
        dealt_i = tuple(dealt_rows[i])
        if int(cards[i]) <= EXACT_CARDS and card_net:
            r = solve_game_points(hs, li, di, rules=rules_obj, contract=contract_rows[i],
                                  announcements=anns or None, discard_thirds=pile_rows[i],
                                  valat_open=bool(vo), declarer_hand=dh_rows[i],
                                  dealt=dealt_i)  # type: ignore[arg-type]
            game[i] = float(r.value)
            exact[i] = True
            continue
        remaining = thirds_of(hs[0] | hs[1] | hs[2]) // 3
        holders = tuple(next((s for s in range(3) if hs[s] >> c & 1), -1) for c in range(3))
        situation = (str(contract_rows[i]), di, tuple(sorted(anns.items())), holders)
        key = (*situation, pile_rows[i], remaining, bool(vo), _hand_class(dh_rows[i]),
               tuple(_hand_class(m) for m in dealt_i))

        def build(i: int = i, hs: tuple = hs, anns: dict = anns, vo: bool = bool(vo),
                  di: int = di, li: int = li, dealt_i: tuple = dealt_i) -> Payoff:
            return make_payoff(rules_obj, contract_rows[i], di, hs, leader=li,
                               base_thirds=pile_rows[i], announcements=anns or None,
                               valat_open=vo, declarer_hand=dh_rows[i],
                               dealt=dealt_i)  # type: ignore[arg-type]

        if game_at_estimate:
            lo = hi = int(np.clip(round(float(est[i])), 0, remaining))
            w = np.ones(1)
        else:
            lo, hi, w = smoothing_weights(float(est[i]), card_point_sd(int(cards[i])),
                                          remaining)
        delta = tables.bird_deltas(key, situation, build)
        if vo and hi == remaining and w[-1] > 0.0:
            # the weight of taking every point is Valat's, scored on its own
            delta = (1.0 - w[-1]) * delta + w[-1] * tables.valat_deltas(key, build)
        birds[i] = float(p_won[i] @ delta)
        if card_net:
            game[i] = float(w @ tables.game_rows(key, build, lo, hi))
    p_out = np.where(exact[:, None], np.nan, p_won)
    return GamePointParts(game + birds, game, birds, p_out, exact)


def estimate_game_points_many(hands: object, leaders: object, declarers: object,
                              contracts: str | Sequence[str],
                              announcements: Mapping[str, str]
                              | Sequence[Mapping[str, str] | None] | None = None,
                              discard_thirds: int | Sequence[int] = 0, *,
                              rules: str | Rules = "dummett",
                              declarer_hands: Sequence[int | None] | None = None,
                              dealt: Sequence[tuple[int | None, int | None, int | None]]
                              | None = None,
                              valat_open: bool | Sequence[bool] | None = None) -> np.ndarray:
    """Estimated double-dummy net game points of the declarer, for many positions.

    ``hands`` (N, 3) card masks at a trick start (the meaning of
    :func:`tarock_solver.solve_position`), ``leaders``/``declarers`` seats (arrays or
    one for all); ``contracts`` a contract name or one per position;
    ``announcements`` None, one dict for all or one dict (or None) per position, as
    :func:`~tarock_solver.solver.solve_game_points` takes them; ``discard_thirds``
    the declarer's discard (one or per position).  ``declarer_hands``, ``dealt`` and
    ``valat_open`` as in ``solve_game_points`` (hand bonuses; by default a position
    can end in Valat only at the first trick's start).  Row i equals
    :func:`estimate_game_points` of row i.  Raises DealError/RulesError for bad
    positions, contracts, announcements or profiles."""
    return game_point_parts(hands, leaders, declarers, contracts,
                            announcements=announcements, discard_thirds=discard_thirds,
                            rules=rules, declarer_hands=declarer_hands, dealt=dealt,
                            valat_open=valat_open).net


def estimate_game_points(hands: Sequence[int], leader: int, declarer: int, contract: str, *,
                         announcements: Mapping[str, str] | None = None,
                         discard_thirds: int = 0, rules: str | Rules = "dummett",
                         declarer_hand: int | None = None,
                         dealt: tuple[int | None, int | None, int | None] = (None, None, None),
                         valat_open: bool | None = None) -> float:
    """:func:`estimate_game_points_many` for one position (``hands`` = three masks F, M, R):
    the estimate of what ``solve_game_points`` returns for the same arguments."""
    try:
        row = [list(hands)]  # type: ignore[call-overload]
    except TypeError:
        from ..errors import DealError

        raise DealError("hands must be three card masks (F, M, R)") from None
    return float(estimate_game_points_many(
        row, [leader], [declarer], [contract], [announcements], [discard_thirds],
        rules=rules, declarer_hands=[declarer_hand], dealt=[dealt],
        valat_open=[valat_open])[0])
