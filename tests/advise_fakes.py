"""A cheap, deterministic stand-in for the double-dummy solver (adviser tests only).

The adviser's logic — sampling, the talon choice on the information set,
control variates, common random numbers, scoring — does not depend on how good
the solver is, only on getting a number per position.  This stand-in makes the numbers
depend on the hidden cards in a way that rewards knowing them (a suit the
declarer keeps is lost when a defender is void in it and can trump), so the
information-set test has something to detect.  Module-level functions so that
spawned worker processes can unpickle them.
"""

from __future__ import annotations

from tarock_solver.advise import AdviceLimit, AdviceRequest, AdviceSettings
from tarock_solver.cards import GROUP_MASKS, TAROCK_MASK, thirds_of
from tarock_solver.notation import parse_hand

DEMO = parse_hand("21,20,16,15,7,5,2,1.K.KQ.K97.Q9")
#: Few inner worlds: the method, not the quality of the decision, is under test.
# exact worlds solved exactly (cell width 1): the tests compare with plain exact means
FAST = AdviceSettings(inner=16, screen=4, keep=4, talon_inner=32, cell_width=1)


def fake_trick_points(positions):
    """Declarer's 'trick points' of each ``(hands, declarer)``: a strength model."""
    out = []
    for hands, d in positions:
        total = thirds_of(hands[0] | hands[1] | hands[2]) // 3
        mine = hands[d]
        defs = [hands[(d + 1) % 3], hands[(d + 2) % 3]]
        t_mine = (mine & TAROCK_MASK).bit_count()
        t_def = sum((h & TAROCK_MASK).bit_count() for h in defs)
        share = t_mine / max(1, t_mine + t_def)
        points = total * (0.25 + 0.75 * share)
        for suit in GROUP_MASKS[1:]:
            kept = mine & suit
            if kept and any(not (h & suit) and h & TAROCK_MASK for h in defs):
                # A defender can trump this suit: the declarer's cards in it are lost.
                points -= thirds_of(kept) / 3 + 2
        out.append(int(max(0, min(total, round(points)))))
    return out


def zero_trick_points(positions):
    """A declarer who never wins a trick."""
    return [0 for _ in positions]


def all_trick_points(positions):
    """A declarer who wins every trick (Valat)."""
    return [thirds_of(h[0] | h[1] | h[2]) // 3 for h, _ in positions]


def shifted_trick_points(positions):
    """:func:`fake_trick_points` plus 8 points (capped): far from any evaluator."""
    totals = [thirds_of(h[0] | h[1] | h[2]) // 3 for h, _ in positions]
    return [min(t, v + 8) for t, v in zip(totals, fake_trick_points(positions), strict=True)]


def fake_game_net(request):
    """A stand-in 'exact net game points' of a :class:`~tarock_solver.advise.exact.GameRequest`:
    a bird-like bonus for the holder of the Pagat (tarock 1), far above any card-point net
    in a Solo, so that counting the birds changes the recommendation."""
    from tarock_solver.cards import BIRD_CARD

    pagat = request.hands[request.declarer] >> BIRD_CARD["pagat"] & 1
    bonus = 1000.0 if request.contract == "solo" else -1000.0
    return (bonus if pagat else -bonus / 2) + (request.hands[request.declarer]
                                               & TAROCK_MASK).bit_count()


def request(samples: int = 24, time_limit: float | None = None, **kw) -> AdviceRequest:
    """The demo hand's request on the fake card-point solver, by default with no time
    limit (deterministic)."""
    base = dict(hand=DEMO, seat=0, limit=AdviceLimit(time_limit, samples), seed=5,
                solve_batch=fake_trick_points, settings=FAST)
    base.update(kw)
    return AdviceRequest(**base)
