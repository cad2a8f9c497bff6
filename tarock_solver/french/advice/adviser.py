"""French Tarot bidding advice: which contract to take, or to pass, for one hand.

:func:`advise_french` draws worlds (:mod:`.worlds`), plays each contract on each of them
as the taker would (the discard chosen on his hand and the chien, :mod:`.discard`), and
passing as the others would bid (:mod:`.policy`); with the calls heard before the
player's turn, only worlds on which the earlier seats, bidding by the same policy, make
those calls, and only the contracts above the highest bid heard.  The learned evaluator
values every
world (the petit au bout's net worth in every score), and the statistics are the
Illustrated adviser's (:mod:`tarock_solver.advise.cv`): means with their SEs on common
worlds, paired differences, a close call within two SEs, and the chosen option's numbers
taken on the worlds that did not choose it.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...advise.cv import Estimate, PrefixTerm, combine
from ...advise.decision import NOISE_SE
from ...errors import RulesError
from ..cards import CARD_IDS, CHIEN_SIZE, HAND_SIZE, cards_of
from ..chien import opening, opening_key
from ..estimate.model import (
    FrenchEvaluator,
    HeadValues,
    PositionArrays,
    load_french_evaluator,
    opening_arrays,
)
from ..rules import Contract, FrenchRules
from ..solver import FrenchPosition
from .announcements import (
    ChelemCheck,
    PoigneeGain,
    chelem_check,
    poignee_cards,
    poignee_gains,
    poignee_level,
)
from .discard import DiscardSettings, choose_discard
from .policy import CONTRACTS, PolicySettings, auctions, calls_agree, last_bid
from .value import expected_value, made_probability, petit_au_bout_value
from .worlds import FrenchWorld, sample_world

__all__ = ["MARGIN_SD", "PASS", "FrenchAdvice", "FrenchAdviceRequest", "FrenchOption",
           "PetitAuBout", "advise_french"]

PASS = "pass"
#: The SD taken for the evaluator's error on a whole deal's margin, in half points (8
#: points): twice the residual SD against fresh exact solves one trick above the exact
#: levels (4.4 points, docs/EVALUATOR.md), since each look-ahead level adds its error; the
#: whole-deal error itself is beyond measure while whole deals are beyond the solver.
MARGIN_SD = 16.0
#: Players at the table (the solver and the evaluator play four).
PLAYERS = 4


@dataclass(frozen=True)
class FrenchAdviceRequest:
    hand: int
    seat: int  # 0..3; seat 0 leads the first trick
    rules: FrenchRules
    seed: int = 1
    worlds: int = 256
    discard: DiscardSettings = field(default_factory=DiscardSettings)
    policy: PolicySettings = field(default_factory=PolicySettings)
    chien: int | None = None  # the chien when known: one discard for every world
    chien_discard: DiscardSettings = field(default_factory=lambda: DiscardSettings(
        screen_worlds=8, final_worlds=64, finalists=12))
    chelem_worlds: int = 32  # worlds on which the exact solver judges a chelem
    chelem_nodes: int = 1_000_000  # its node budget per world
    # the calls of the seats before the player, from seat 1 (None a pass); None when not
    # known: the contract rows then assume the bid is the player's to make
    calls: tuple[Contract | None, ...] | None = None



@dataclass(frozen=True)
class FrenchOption:
    """One row: a contract (or passing) over the worlds. Card points and the margin are
    in points; ``score`` is the player's own marque (the taker's three shares)."""

    option: str
    p_make: Estimate | None
    points: Estimate | None
    margin: Estimate | None
    score: Estimate
    detail: str = ""


@dataclass(frozen=True)
class PetitAuBout:
    """What the petit au bout is worth to the player in a contract: the bonus won less
    the bonus lost, and the card points given up for it, both sides playing for it (the
    player's marque, included in the contract's E[score])."""

    contract: str
    gain: Estimate


@dataclass(frozen=True)
class FrenchAdvice:
    request: FrenchAdviceRequest
    options: tuple[FrenchOption, ...]
    recommended: str
    runner_up: str | None
    difference: Estimate | None  # recommended − runner-up, paired
    close: bool
    held_out: Estimate  # the halves' choices, each valued on the other half
    held_out_choices: tuple[str, str]
    discards: tuple[tuple[str, float], ...]  # the commonest discards and their shares
    poignees: tuple[PoigneeGain, ...]
    poignee_shown: str  # the trumps to show for the best level the hand holds ('' none)
    chelem: ChelemCheck | None  # for the recommended contract (None when passing)
    petit_au_bout: tuple[PetitAuBout, ...]  # per contract
    seconds: float
    drawn: int = 0  # worlds drawn to find those that agree with the calls (0: no calls)
    # per option, the player's marque on each world, in the worlds' order (the rows'
    # means; for paired comparisons on the same worlds; not in the JSON)
    values: dict[str, np.ndarray] = field(default_factory=dict)

    def option(self, name: str) -> FrenchOption:
        return next(o for o in self.options if o.option == name)

    def to_dict(self) -> dict[str, Any]:
        def est(e: Estimate | None, scale: float = 1.0) -> Any:
            if e is None:
                return None
            return {"mean": e.mean * scale, "se": e.se * scale if e.has_se else None,
                    "worlds": e.worlds}

        chien = self.request.chien
        return {
            "hand": " ".join(CARD_IDS[c] for c in cards_of(self.request.hand)),
            "chien": None if chien is None else " ".join(CARD_IDS[c] for c in cards_of(chien)),
            "seat": self.request.seat + 1, "seed": self.request.seed,
            "worlds": self.request.worlds, "rules": self.request.rules.name,
            "calls": None if self.request.calls is None else [
                PASS if c is None else c.value for c in self.request.calls],
            "worlds_drawn": self.drawn or None,
            "options": [{"option": o.option, "p_make": est(o.p_make), "points": est(o.points),
                         "margin": est(o.margin), "score": est(o.score), "detail": o.detail}
                        for o in self.options],
            "recommendation": {"option": self.recommended, "runner_up": self.runner_up,
                               "difference": est(self.difference), "close_call": self.close,
                               "held_out": est(self.held_out),
                               "held_out_choices": list(self.held_out_choices)},
            "discards": [{"discard": d, "share": s} for d, s in self.discards],
            "poignees": [{"contract": g.contract, "level": g.level.value, "share": g.share,
                          "gain": est(g.gain)} for g in self.poignees],
            "poignee_shown": self.poignee_shown,
            "petit_au_bout": [{"contract": g.contract, "gain": est(g.gain)}
                              for g in self.petit_au_bout],
            "chelem": None if self.chelem is None else {
                "contract": self.recommended, "examined": self.chelem.examined,
                "made": self.chelem.made, "impossible": self.chelem.impossible,
                "gain_bounds": [self.chelem.gain_low, self.chelem.gain_high],
                "gain": est(self.chelem.gain)},
            "seconds": round(self.seconds, 2),
        }


def _check(req: FrenchAdviceRequest) -> None:
    if req.rules.players != PLAYERS:
        raise RulesError(f"advice plays four hands; these rules are for {req.rules.players} "
                         "players")
    n = len(cards_of(req.hand))
    if n != HAND_SIZE[PLAYERS]:
        raise RulesError(f"a hand at four players holds {HAND_SIZE[PLAYERS]} cards, not {n}")
    if not 0 <= req.seat < PLAYERS:
        raise RulesError(f"seat {req.seat + 1}: expected 1 to {PLAYERS}")
    if req.chien is not None:
        if len(cards_of(req.chien)) != CHIEN_SIZE[PLAYERS]:
            raise RulesError(f"the chien holds {CHIEN_SIZE[PLAYERS]} cards at four players, "
                             f"not {len(cards_of(req.chien))}")
        both = req.chien & req.hand
        if both:
            raise RulesError("the chien and the hand share "
                             + " ".join(CARD_IDS[c] for c in cards_of(both)))
    if req.worlds < 8:
        raise RulesError(f"{req.worlds} worlds: at least 8 are needed for a standard error")
    if req.calls is not None:
        if len(req.calls) != req.seat:
            before = "seat 1's" if req.seat == 1 else f"seats 1 to {req.seat}"
            raise RulesError(
                f"seat {req.seat + 1} hears {req.seat} call{'s' if req.seat != 1 else ''} "
                f"({before}) before its own, not {len(req.calls)}"
                if req.seat else f"seat 1 speaks first: it hears no calls, not {len(req.calls)}")
        bid = -1
        for s, call in enumerate(req.calls):
            if call is None:
                continue
            k = CONTRACTS.index(call)
            if k <= bid:
                raise RulesError(f"seat {s + 1}'s {call.title} is not above the "
                                 f"{CONTRACTS[bid].title} bid before it")
            bid = k


#: Worlds drawn at most to find those that agree with the calls heard (a hundred times
#: the default worlds: a bid heard keeps about one world in 25).
CALLS_DRAWS = 25_600
#: Candidate worlds judged against the calls at once.
CALLS_CHUNK = 512


def _world_indices(req: FrenchAdviceRequest, model: FrenchEvaluator, sd: float
                   ) -> tuple[list[int], list[FrenchWorld], int]:
    """The indices of the worlds to average over, the worlds, and how many were drawn:
    the first ``req.worlds`` of the seed's stream that agree with the calls heard (the
    earlier seats bidding by the policy, :func:`~.policy.calls_agree`); all of them
    without calls."""
    if not req.calls:
        return (list(range(req.worlds)),
                [sample_world(req.hand, req.seat, req.seed, j, req.chien)
                 for j in range(req.worlds)], 0)
    cap = max(CALLS_DRAWS, req.worlds)
    found: list[int] = []
    kept: list[FrenchWorld] = []
    drawn = 0
    while len(found) < req.worlds and drawn < cap:
        chunk = list(range(drawn, min(drawn + CALLS_CHUNK, cap)))
        cand = [sample_world(req.hand, req.seat, req.seed, j, req.chien) for j in chunk]
        ok = calls_agree(model, cand, chunk, req.calls, req.rules, req.seed, sd, req.policy)
        found += [j for j, agree in zip(chunk, ok, strict=True) if agree]
        kept += [w for w, agree in zip(cand, ok, strict=True) if agree]
        drawn = chunk[-1] + 1
        # hopeless at the rate so far (judged once a few chunks are in): stop early
        if drawn >= 4 * CALLS_CHUNK and len(found) * cap < drawn * req.worlds / 2:
            break
    if len(found) < req.worlds:
        heard = ", ".join(PASS if c is None else c.title for c in req.calls)
        reach = len(found) * cap // drawn  # the agreeing worlds the draws would give
        hint = (f"fewer worlds (--worlds {reach // 2}) need fewer" if reach >= 16
                else "leave the calls out")
        raise RulesError(
            f"only {len(found)} of {drawn:,} worlds drawn agree with the calls heard "
            f"({heard}): the others, bidding by the adviser's policy (which takes on about "
            f"one hand in 25), would hardly make them with these cards out; {hint}")
    last = found[req.worlds - 1]
    return found[:req.worlds], kept[:req.worlds], last + 1


def _mean(values: np.ndarray) -> Estimate:
    return combine([PrefixTerm(np.asarray(values, np.float64))])


def _paired(a: np.ndarray, b: np.ndarray) -> Estimate:
    return combine([PrefixTerm(np.asarray(a, np.float64)),
                    PrefixTerm(np.asarray(b, np.float64), weight=-1.0)])


def _start_rows(worlds: list[FrenchWorld], taker: int, contract: Contract,
                discards: list[int] | None) -> PositionArrays:
    openings = [opening(w.hands, w.chien, taker, contract,
                        None if discards is None else discards[j]) for j, w in enumerate(worlds)]
    return opening_arrays(openings, [taker] * len(worlds))


def advise_french(req: FrenchAdviceRequest, *, model: FrenchEvaluator | None = None,
                  progress: Callable[[str, float], None] | None = None) -> FrenchAdvice:
    """Advice for one hand (see the module's docstring)."""
    _check(req)
    start = time.perf_counter()
    model = model or load_french_evaluator()
    sd = MARGIN_SD
    report = progress or (lambda what, share: None)
    indices, worlds, drawn = _world_indices(req, model, sd)
    seat = req.seat
    # after a bid heard only the contracts above it are the player's to bid
    allowed = CONTRACTS[last_bid(req.calls)[0] + 1:]
    # the taker's discard on his hand and the chien, one choice for the Petite and the Garde
    if not any(c.exchanges for c in allowed):  # no contract with a discard left to bid
        chosen = []
    elif req.chien is not None:  # the same information on every world: one choice
        one = choose_discard(model, req.hand | req.chien, seat, 0, req.seed, (0,), sd,
                             req.chien_discard).discard
        chosen = [one] * len(worlds)
    else:
        chosen = []
        for j, w in enumerate(worlds):
            chosen.append(choose_discard(model, req.hand | w.chien, seat, 0, req.seed,
                                         (indices[j],), sd, req.discard).discard)
            if j % 32 == 31:
                report("discards", 0.7 * (j + 1) / len(worlds))
    per: dict[str, np.ndarray] = {}
    rows = []
    poignees: list[PoigneeGain] = []
    pabs = []
    # the positions depend on where the chien goes: the Petite's serve the Garde
    looked: dict[tuple[bool, str], tuple[PositionArrays, HeadValues]] = {}
    for contract in allowed:
        key = opening_key(contract)
        if key not in looked:
            a = _start_rows(worlds, seat, contract, chosen if contract.exchanges else None)
            # the world's values with one trick of look-ahead: a fifth closer to the
            # exact values than the ensembles alone (docs/EVALUATOR.md)
            looked[key] = a, model.predict_lookahead(a)
        a, (pts, margin, pab) = looked[key]
        played = [((req.hand | w.chien) & ~chosen[j]) if contract.exchanges else req.hand
                  for j, w in enumerate(worlds)]
        poignees += poignee_gains(req.rules, contract.value, played, margin, sd)
        bonus = 3.0 * petit_au_bout_value(pab, req.rules.petit_au_bout_factor(
            contract.multiplier))
        pabs.append(PetitAuBout(contract.value, _mean(bonus)))
        score = 3.0 * expected_value(margin, sd, contract.multiplier) + bonus
        per[contract.value] = score
        rows.append(FrenchOption(contract.value, _mean(made_probability(margin, sd)),
                                 _mean((a.points + pts) / 2.0), _mean(margin / 2.0),
                                 _mean(score)))
    report("passing", 0.7)
    takers: Counter[str] = Counter()
    seats, contracts, values = auctions(model, worlds, indices, seat, req.rules, req.seed, sd,
                                        req.policy, req.calls)
    pass_score = -values  # a defender pays the taker's value
    for taker, contract in zip(seats, contracts, strict=True):
        takers["all pass" if contract is None else f"seat {taker + 1} {contract.title}"] += 1
    per[PASS] = pass_score
    detail = ", ".join(f"{k} {100 * v / len(worlds):.0f}%" for k, v in takers.most_common(3))
    rows.append(FrenchOption(PASS, None, None, None, _mean(pass_score), detail))
    report("decision", 1.0)
    best, runner, diff, close = _decide(per, np.arange(len(worlds)))
    halves = (np.arange(len(worlds)) % 2 == 0, np.arange(len(worlds)) % 2 == 1)
    choices = []
    other_values = []
    for h in range(2):
        pick = _decide(per, np.flatnonzero(halves[h]))[0]
        choices.append(pick)
        other_values.append(per[pick][halves[1 - h]])
    held = combine([PrefixTerm(np.concatenate(other_values))])
    chelem = None
    if best != PASS:
        contract = Contract.parse(best)
        n = min(req.chelem_worlds, len(worlds))
        positions = [_chelem_start(worlds[j], seat, contract,
                                   chosen[j] if contract.exchanges else None) for j in range(n)]
        chelem = chelem_check(req.rules, positions, nodes=req.chelem_nodes,
                              excuse_last=req.rules.excuse_last_trick)
    own = poignee_level(req.hand)
    shown = "" if own is None else " ".join(CARD_IDS[c]
                                            for c in cards_of(poignee_cards(req.hand, own)))
    counts = Counter(chosen)
    discards = tuple((" ".join(CARD_IDS[c] for c in cards_of(d)), n / len(worlds))
                     for d, n in counts.most_common(3))
    return FrenchAdvice(req, tuple(rows), best, runner, diff, close, held, tuple(choices),
                        discards, tuple(poignees), shown, chelem, tuple(pabs),
                        time.perf_counter() - start, drawn, per)


def _chelem_start(world: FrenchWorld, taker: int, contract: Contract, discard: int | None
                  ) -> FrenchPosition:
    """The first trick of an announced chelem: the taker leads."""
    hands, state = opening(world.hands, world.chien, taker, contract, discard)
    return FrenchPosition(hands, taker, taker, (), state)  # type: ignore[arg-type]


def _decide(per: dict[str, np.ndarray], rows: np.ndarray
            ) -> tuple[str, str | None, Estimate | None, bool]:
    """The option of the highest mean score on the worlds ``rows``, its runner-up, their
    paired difference and whether it is a close call (within NOISE_SE SEs)."""
    means = {k: float(np.mean(v[rows])) for k, v in per.items()}
    ranked = sorted(means, key=lambda k: -means[k])
    best = ranked[0]
    if len(ranked) < 2:
        return best, None, None, False
    runner = ranked[1]
    diff = _paired(per[best][rows], per[runner][rows])
    close = (not diff.has_se) or abs(diff.mean) < NOISE_SE * diff.se
    return best, runner, diff, bool(close and math.isfinite(diff.mean))
