"""French advice after the calls heard before the player's turn: only the contracts above
the highest bid, only worlds on which the earlier seats would call so under the adviser's
policy, the earlier seats' calls kept when the player passes, and clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clitools import run

from tarock_solver.errors import RulesError
from tarock_solver.french.advice import FrenchAdviceRequest, advise_french
from tarock_solver.french.advice.adviser import MARGIN_SD, _world_indices
from tarock_solver.french.advice.policy import PolicySettings, auctions, calls_agree
from tarock_solver.french.advice.rows import advice_row
from tarock_solver.french.advice.worlds import sample_world
from tarock_solver.french.estimate.model import load_french_evaluator
from tarock_solver.french.notation import parse_hand
from tarock_solver.french.rules import Contract, load_rules

RULES = load_rules("fft")
#: A weak hand: the others hold the trumps, and bid on some worlds.
WEAK = "T15 T9 T4 T3 T12 T18 SQ S8 S5 HJ H7 H4 H1 D10 D6 D3 C9 C5"
GARDE_PASS = (Contract.GARDE, None)


@pytest.fixture(scope="module")
def model():
    return load_french_evaluator()


def _request(calls, worlds: int = 16, seat: int = 2) -> FrenchAdviceRequest:
    return FrenchAdviceRequest(parse_hand(WEAK, players=4), seat, RULES, seed=3,
                               worlds=worlds, calls=calls)


def test_the_worlds_are_the_first_that_agree(model) -> None:
    req = _request(GARDE_PASS)
    indices, worlds, drawn = _world_indices(req, model, MARGIN_SD)
    assert len(indices) == 16 and drawn == indices[-1] + 1
    cand = [sample_world(req.hand, 2, 3, j) for j in range(drawn)]
    assert worlds == [cand[j] for j in indices]
    ok = calls_agree(model, cand, list(range(drawn)), GARDE_PASS, RULES, 3, MARGIN_SD,
                     req.policy)
    assert np.flatnonzero(ok).tolist() == indices
    assert drawn > 16  # a Garde heard rejects worlds: a filter that kept all would fail


def test_after_a_garde_only_higher_contracts_and_the_garde_kept(model) -> None:
    advice = advise_french(_request(GARDE_PASS), model=model)
    assert [o.option for o in advice.options] == ["garde_sans", "garde_contre", "pass"]
    assert advice.discards == ()  # no contract with a discard is left to bid
    # the player passes: seat 1 plays its Garde unless seat 4 bids over it
    assert "seat 1 Garde" in advice.option("pass").detail
    doc = advice.to_dict()
    assert doc["calls"] == ["garde", "pass"] and doc["worlds_drawn"] == advice.drawn > 16
    # the batch row: the contracts not offered are null
    row = advice_row(advice)
    assert row["petite_score"] is None and row["garde_p_make"] is None
    assert row["garde_sans_score"] == advice.option("garde_sans").score.mean


def test_the_calls_heard_stand_in_the_auction(model) -> None:
    hand = parse_hand(WEAK, players=4)
    worlds = [sample_world(hand, 2, 5, j) for j in range(30)]
    takers, contracts, values = auctions(model, worlds, range(30), 2, RULES, 5, MARGIN_SD,
                                         PolicySettings(), GARDE_PASS)
    for t, c in zip(takers, contracts, strict=True):
        # seat 1's Garde, or seat 4 over it
        assert (t, c) == (0, Contract.GARDE) or (t == 3 and c in (Contract.GARDE_SANS,
                                                                   Contract.GARDE_CONTRE))
    assert (values != 0).all()


def test_no_calls_and_all_passes_heard_differ_only_in_the_worlds(model) -> None:
    plain = advise_french(_request(None), model=model)
    passes = advise_french(_request((None, None)), model=model)
    assert [o.option for o in passes.options] == [o.option for o in plain.options]
    assert plain.drawn == 0 and passes.drawn >= 16


@pytest.mark.parametrize("calls, seat, message", [
    ((None,), 2, "seat 3 hears 2 calls"),
    ((Contract.GARDE, Contract.PETITE), 2, "Petite is not above the Garde"),
    ((None,), 0, "seat 1 speaks first"),
    ((), 1, r"seat 2 hears 1 call \(seat 1's\) before its own, not 0"),
])
def test_bad_calls_are_named(calls, seat, message) -> None:
    with pytest.raises(RulesError, match=message):
        advise_french(_request(calls, seat=seat))


def test_the_cli_takes_calls_and_names_a_bad_one(capsys) -> None:
    code, out, err = run(capsys, "--game", "french", "advise", WEAK, "--seat", "3",
                         "--calls", "garde, pass", "--worlds", "16", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["calls"] == ["garde", "pass"]
    assert [o["option"] for o in doc["options"]] == ["garde_sans", "garde_contre", "pass"]
    code, out, err = run(capsys, "--game", "french", "advise", WEAK, "--seat", "3",
                         "--calls", "pass, grande")
    assert code == 2 and '"grande"' in err and "Traceback" not in err
    # calls the policy would hardly make with these cards out: a clear refusal
    code, out, err = run(capsys, "--game", "french", "advise", "--seat", "3",
                         "--calls", "pass garde")
    assert code == 2 and "agree with the calls heard" in err
