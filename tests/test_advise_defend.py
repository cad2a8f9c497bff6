"""Defender advice (`tarock advise HAND --defend CONTRACT --declarer SEAT`): contra gains,
their control-variate estimates, reproducibility and the command line's errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from advise_fakes import all_trick_points, fake_trick_points
from clitools import run

from tarock_solver.advise import AdviceLimit, DefendRequest, DefendSettings, defend
from tarock_solver.advise.defend import contra_decision
from tarock_solver.cards import KINGS_MASK, TAROCK_MASK
from tarock_solver.notation import parse_hand, parse_talon
from tarock_solver.rules import load_rules
from tarock_solver.scoring import ScoreInput, score

#: The declarer's hand in the forced tests: Trull, four Kings and nine more tarocks.
STRONG_TEXT = "22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K"
STRONG = parse_hand(STRONG_TEXT)
#: A defender's hand (middlehand) and his partner's (rearhand), disjoint from STRONG.
DEFENDER_TEXT = "11,10,9,8,7,6.QC.QC.QCJ.QCJ"
DEFENDER = parse_hand(DEFENDER_TEXT)
FAST = DefendSettings(inner=8, screen=4, keep=4, exact=None)


def _partner() -> int:
    """Rearhand: the cards left after STRONG, DEFENDER and a talon of six suit cards."""
    rest = ((1 << 54) - 1) & ~STRONG & ~DEFENDER
    talon = 0
    for c in range(54):  # six plain suit cards to the talon, the rest to the partner
        if rest >> c & 1 and not TAROCK_MASK >> c & 1 and talon.bit_count() < 6:
            talon |= 1 << c
    return rest & ~talon


def request(contract: str, samples: int = 8, **kw) -> DefendRequest:
    base = dict(hand=DEFENDER, seat=1, declarer=0, contract=contract,
                limit=AdviceLimit(None, samples), seed=3, settings=FAST,
                solve_batch=fake_trick_points)
    base.update(kw)
    return DefendRequest(**base)


@pytest.mark.parametrize("contract", ["solo", "three"])
def test_a_game_the_declarer_cannot_lose_never_gets_contra(contract: str) -> None:
    others = (STRONG, DEFENDER, _partner())
    adv = defend(request(contract, others=others, solve_batch=all_trick_points))
    assert adv.p_make.mean == pytest.approx(1.0)
    for row in adv.contras:
        assert row.gain < 0, row
        assert "contra" not in row.advice or row.advice.startswith(("no ", "close: lean no",
                                                                    "tentative: lean no"))
    assert adv.contras[0].advice == "no contra"


def _paired_gain(adv, rules) -> float:
    """The plain mean over the worlds of the defender's exact paired difference."""
    gains = []
    for w in adv.detail:
        t = w.task
        thirds = t.pile_thirds + 3 * w.exact
        base = dict(contract=t.contract, declarer=t.declarer, declarer_thirds=thirds,
                    valat=3 * w.exact == t.in_play_thirds, declarer_hand=t.hands[t.declarer],
                    dealt=t.dealt_hands)
        stages = adv.stage * (2 if w.recontra["game"] else 1)
        without = score(rules, ScoreInput(**base)).net_declarer
        with_ = score(rules, ScoreInput(**base, contras={"game": stages})).net_declarer
        gains.append(-(with_ - without) / 2)
    return float(np.mean(gains))


@pytest.mark.parametrize("contract", ["three", "solo"])
def test_with_every_world_exact_the_gain_is_the_exact_mean_of_paired_differences(
        contract: str) -> None:
    adv = defend(request(contract, samples=10))
    assert adv.exact_worlds == adv.worlds == 10
    assert all(w.exact is not None for w in adv.detail)
    row = adv.contras[0]
    assert (row.item, row.level) == ("game", 1)
    assert row.gain == pytest.approx(_paired_gain(adv, load_rules("dummett")), abs=1e-9)
    assert np.isfinite(row.gain_se)
    # the card points are the exact mean too
    assert adv.points.mean == pytest.approx(np.mean([w.exact + w.task.pile_thirds / 3
                                                     for w in adv.detail]))


def test_the_same_seed_gives_the_same_worlds_and_numbers() -> None:
    a = defend(request("three", samples=6))
    b = defend(request("three", samples=6))
    assert [r.to_json() for r in a.contras] == [r.to_json() for r in b.contras]
    assert [w.task for w in a.detail] == [w.task for w in b.detail]


def test_worlds_respect_the_announcements_and_the_group_taken() -> None:
    talon = parse_talon("H4,D4,C7,S7,H3,D3")
    adv = defend(request("three", samples=6, talon=talon, taken="4-6",
                         announced=(("no_kings", "after"), ("pagat", "after"))))
    assert adv.stage == "a"
    for w in adv.detail:
        hand_after = w.task.hands[0]
        assert w.group == "4-6"
        assert not hand_after & KINGS_MASK
        assert hand_after & 1  # the Pagat (tarock I) stays with the declarer
    assert "game" in [r.item for r in adv.contras]
    assert adv.covered == ("no_kings",)
    assert [n for n, _ in adv.not_valued] == ["pagat"]


def test_contra_decision_is_the_sign_of_the_evaluators_gain() -> None:
    others = (STRONG, DEFENDER, _partner())
    assert contra_decision(request("solo", others=others), worlds=4) == 0


HAND = DEFENDER_TEXT


@pytest.mark.parametrize("args, token", [
    (["--defend", "quadruple", "--declarer", "F"], "quadruple"),
    (["--defend", "three", "--declarer", "M"], "--declarer M"),
    (["--defend", "three", "--declarer", "F", "--talon", "T11,DJ,S8,C9,CT,HJ"], "T11"),
    (["--defend", "three", "--declarer", "F", "--talon", "D4,DJ,S8,C9,CT,HJ",
      "--taken", "1-2"], "1-2"),
    (["--defend", "three", "--declarer", "F", "--announced", "valat@after",
      "--talon", "D4,DJ,S8,C9,CT,HJ"], "valat@after"),
    (["--defend", "solo", "--declarer", "F", "--talon", "D4,DJ,S8,C9,CT,HJ"], "Solo"),
    (["--defend", "three", "--declarer", "F", "--announced", "pagat"], "pagat"),
    (["--defend", "three", "--declarer", "F", "--announced", "absolut@after"],
     "absolut@after"),
    (["--declarer", "F"], "--defend"),
    (["--defend", "three"], "--declarer"),
])
def test_bad_defender_input_exits_2_naming_the_token(capsys, args, token) -> None:
    code, out, err = run(capsys, "advise", HAND, "--seat", "M", "--no-progress", *args)
    assert code == 2, (out, err)
    assert token in err and "Traceback" not in err
    assert out == ""


def test_json_has_the_contras_and_jobs_do_not_change_the_numbers(capsys) -> None:
    deal = f"F:{STRONG_TEXT} {DEFENDER_TEXT} -/?"
    outs = []
    for jobs in ("1", "2"):
        code, out, err = run(capsys, "advise", deal, "--seat", "M", "--defend", "solo",
                             "--declarer", "F", "--samples", "4", "--time-limit", "600",
                             "--jobs", jobs, "--json", "--no-progress")
        assert code == 0, err
        outs.append(json.loads(out))
    for o in outs:
        o.pop("seconds")
    assert outs[0] == outs[1]
    out = outs[0]
    for key in ("contras", "p_make", "p_make_se", "points", "points_se", "worlds",
                "exact_worlds", "seed", "rules"):
        assert key in out
    assert out["worlds"] == 4 and out["exact_worlds"] == 4
    first = out["contras"][0]
    assert set(first) >= {"item", "level", "gain", "gain_se", "advice"}
    assert first["item"] == "game" and first["advice"].startswith(("no contra", "tentative"))
