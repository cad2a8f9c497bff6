"""French Tarot scoring: published worked examples, every rule item, the marque at 3/4/5.

Each item of the formula ``(25 + difference + petit au bout) × coefficient + poignées +
chelem`` has a test of its own, so that changing it in the code fails one.  The sources
of the worked examples are named in each test; docs/FRENCH_TAROT.md lists them.
"""

from __future__ import annotations

import itertools

import pytest

from tarock_solver.errors import RulesError
from tarock_solver.french.rules import Contract, load_rules
from tarock_solver.french.scoring import (
    Chelem,
    Side,
    format_half_points,
    marque,
    score,
)

FFT = load_rules("fft", None)
FFT3 = load_rules("fft", {"players": 3})
FFT5 = load_rules("fft", {"players": 5})


def half(points: float) -> int:
    return round(points * 2)


# ----------------------------------------------------------------- published examples


def test_fft_three_players_half_point_goes_to_the_winner() -> None:
    """FFT, rules for three players (reproduced with the federation's permission by the
    Comité de Normandie de Tarot, normandie-tarot.org, "Le Tarot à 3 joueurs"): a taker
    who needs 41 and makes 40.5 fails by 1; with 41.5 he makes it by 1."""
    failed = score(FFT3, "petite", half(40.5), 2)
    assert (failed.made, failed.difference, failed.value) == (False, 1, -26)
    made = score(FFT3, "petite", half(41.5), 2)
    assert (made.made, made.difference, made.value) == (True, 1, 26)
    assert marque(made, 3).taker == 52 and marque(failed, 3).taker == -52


def test_regles2jeux_petit_au_bout_example_1() -> None:
    """regles2jeux.fr, "Les primes au tarot", example 1: a Garde worth 76 (made by 13:
    here 54 points with 2 oudlers).  Petit au bout to the taker: 76 + 20 = 96, the taker
    +288 and each defender -96; to the defence: 76 - 20 = 56, the taker +168, each -56."""
    taker = score(FFT, "garde", half(54), 2, petit_au_bout="taker")
    assert taker.contract_value == 76 and taker.value == 96
    assert (marque(taker, 4).taker, marque(taker, 4).defender) == (288, -96)
    defence = score(FFT, "garde", half(54), 2, petit_au_bout="defence")
    assert defence.value == 56
    assert (marque(defence, 4).taker, marque(defence, 4).defender) == (168, -56)


def test_wikipedia_fr_petit_au_bout_examples() -> None:
    """Wikipédia (fr), article "Tarot", section "Le petit au bout": in a Garde sans a
    defender takes the Petit au bout, the taker gives 10 × 4 = 40 to each defender (taken
    off his gains if he makes the contract); in a Prise, 10 to each defender."""
    for contract, each in (("garde_sans", 40), ("petite", 10)):
        with_pab = score(FFT, contract, half(60), 1, petit_au_bout="defence")
        without = score(FFT, contract, half(60), 1)
        assert with_pab.petit_au_bout == -each
        assert without.value - with_pab.value == each


def test_gameduell_formula_example() -> None:
    """GameDuell's Tarot help ("Make your contract") states the formula (25 + extra
    points + petit au bout) × multiplier + poignée + slam and sets the example of a Garde
    of 49 points with 2 oudlers, a poignée of 10 trumps and the petit au bout by the
    taker.  The copy consulted cuts off before its result; the stated formula gives
    (25 + 8 + 10) × 2 + 20 = 106 per defender, 318 for the taker."""
    res = score(FFT, "garde", half(49), 2, petit_au_bout="taker",
                poignees=[("taker", "simple")])
    assert res.value == 106 and marque(res, 4).taker == 318


# ------------------------------------------------------------------- the rule items


@pytest.mark.parametrize(("oudlers", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_targets_and_just_made(oudlers, target) -> None:
    just = score(FFT, "petite", half(target), oudlers)
    assert just.target_points == target
    assert (just.made, just.difference, just.value) == (True, 0, 25)
    below = score(FFT, "petite", half(target) - 2, oudlers)
    assert (below.made, below.difference, below.value) == (False, 1, -26)


@pytest.mark.parametrize(("contract", "m"), [("petite", 1), ("garde", 2), ("garde_sans", 4),
                                              ("garde_contre", 6)])
def test_coefficients_multiply_base_and_difference(contract, m) -> None:
    res = score(FFT, contract, half(46), 2)  # made by 5
    assert res.multiplier == m and res.contract_value == (25 + 5) * m == res.value
    res = score(FFT, contract, half(30), 2)  # failed by 11
    assert res.value == -(25 + 11) * m


def test_half_point_difference_rounds_for_the_winner_at_four_too() -> None:
    # The rule is the same at every table: 55.5 for 56 fails by 1, 56.5 makes by 1.
    assert score(FFT, "garde", half(55.5), 0).value == -(25 + 1) * 2
    assert score(FFT, "garde", half(56.5), 0).value == (25 + 1) * 2


def test_petit_au_bout_multiplied_or_flat() -> None:
    for contract in Contract:
        res = score(FFT, contract, half(60), 1, petit_au_bout="taker")
        assert res.petit_au_bout == 10 * contract.multiplier
    flat = load_rules("fft", {"petit_au_bout": "flat"})
    assert score(flat, "garde_contre", half(60), 1, petit_au_bout="taker").petit_au_bout == 10


def test_petit_au_bout_counts_whatever_the_result() -> None:
    # The taker fails but brings the Petit home: the bonus reduces his loss.
    res = score(FFT, "garde", half(35), 1, petit_au_bout=Side.TAKER)
    assert res.value == -(25 + 16) * 2 + 20


@pytest.mark.parametrize(("level", "value"), [("simple", 20), ("double", 30), ("triple", 40)])
def test_poignee_goes_to_the_winner_and_is_not_multiplied(level, value) -> None:
    for shower in ("taker", "defence"):
        made = score(FFT, "garde_contre", half(60), 1, poignees=[(shower, level)])
        assert made.poignees == value
        failed = score(FFT, "garde_contre", half(40), 1, poignees=[(shower, level)])
        assert failed.poignees == -value
    two = score(FFT, "petite", half(60), 1, poignees=[("taker", "simple"),
                                                       ("defence", "double")])
    assert two.poignees == 50
    other = load_rules("fft", {"poignee_values": "20,40,60"})
    assert score(other, "petite", half(60), 1, poignees=[("taker", level)]).poignees == {
        "simple": 20, "double": 40, "triple": 60}[level]


@pytest.mark.parametrize(("chelem", "amount"), [
    (Chelem.ANNOUNCED_MADE, 400), (Chelem.UNANNOUNCED_MADE, 200),
    (Chelem.ANNOUNCED_FAILED, -200), (Chelem.DEFENCE_MADE, -200), (Chelem.NONE, 0)])
def test_chelem_is_added_after_the_coefficient(chelem, amount) -> None:
    res = score(FFT, "garde_sans", half(60), 3, chelem=chelem)
    assert res.chelem == amount
    assert res.value == (25 + 24) * 4 + amount


def test_chelem_names() -> None:
    assert Chelem.parse("announced-made") is Chelem.ANNOUNCED_MADE
    assert Chelem.parse("announced_failed") is Chelem.ANNOUNCED_FAILED
    assert Chelem.parse("made") is Chelem.UNANNOUNCED_MADE
    assert Chelem.parse("defence") is Chelem.DEFENCE_MADE
    with pytest.raises(RulesError, match='"grand".*announced-made'):
        Chelem.parse("grand")


def test_lines_itemise_the_value() -> None:
    res = score(FFT, "garde", half(49), 2, petit_au_bout="taker",
                poignees=[("taker", "simple")], chelem="made")
    assert [line.item for line in res.lines] == ["Contract", "Petit au bout",
                                                  "Poignée simple", "Chelem"]
    assert sum(line.amount for line in res.lines) == res.value == 66 + 20 + 20 + 200
    assert "(25 + 8) × 2" in res.lines[0].why


def test_format_half_points() -> None:
    assert [format_half_points(h) for h in (0, 1, 97, 98, 182)] == [
        "0", "0.5", "48.5", "49", "91"]
    # a margin below the target: −28.5 points, not −29.5 (floor division of −57)
    assert [format_half_points(h) for h in (-1, -2, -57, -112)] == [
        "-0.5", "-1", "-28.5", "-56"]


# ---------------------------------------------------------------------------- marque


@pytest.mark.parametrize("value", [-416, -26, 0, 25, 96, 618])
def test_marque_sums_to_zero(value) -> None:
    for players, alone in ((3, False), (4, False), (5, False), (5, True)):
        res = marque(value, players, taker_alone=alone)
        assert res.total() == 0
        assert sum(res.by_seat(0, None if res.partner is None else 1)) == 0


def test_marque_shares() -> None:
    assert marque(30, 3).taker == 60 and marque(30, 3).defenders == 2
    assert marque(30, 4).taker == 90 and marque(30, 4).defenders == 3
    five = marque(30, 5)
    assert (five.taker, five.partner, five.defender, five.defenders) == (60, 30, -30, 3)
    alone = marque(30, 5, taker_alone=True)
    assert (alone.taker, alone.partner, alone.defenders) == (120, None, 4)
    assert five.by_seat(2, 4) == (-30, -30, 60, -30, 30)


def test_every_outcome_is_zero_sum() -> None:
    for contract, pts, oudlers, pab in itertools.product(
            Contract, (0, 73, 82, 112, 151, 182), range(4), (None, "taker", "defence")):
        try:
            res = score(FFT5, contract, pts, oudlers, petit_au_bout=pab)
        except RulesError:
            continue  # impossible points for the oudlers
        for alone in (False, True):
            assert marque(res, 5, taker_alone=alone).total() == 0


# ------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(("args", "words"), [
    (("garde", 183, 2), ["91", "expected 0 to 91"]),
    (("garde", -1, 2), ["expected 0 to 91"]),
    (("garde", 100, 4), ["oudlers 4", "0, 1, 2 or 3"]),
    (("garde", 10, 3), ["impossible", "13.5"]),
    (("garde", 180, 0), ["impossible", "77.5"]),
    (("garde double", 100, 2), ['"garde double"']),
])
def test_bad_input_names_the_value(args, words) -> None:
    with pytest.raises(RulesError) as err:
        score(FFT, *args)
    for word in words:
        assert word in str(err.value)


def test_bad_sides_and_levels() -> None:
    with pytest.raises(RulesError, match='"nobody".*taker or defence'):
        score(FFT, "garde", 100, 2, petit_au_bout="nobody")
    with pytest.raises(RulesError, match='"quadruple".*simple, double or triple'):
        score(FFT, "garde", 100, 2, poignees=[("taker", "quadruple")])
    with pytest.raises(RulesError, match="players must be 3, 4 or 5"):
        marque(10, 6)
