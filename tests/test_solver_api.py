"""Public solver API: arguments, validation, stats, card values, batches, TT reuse."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tarock_solver
from tarock_solver.cards import INDEX_OF, mask_of
from tarock_solver.errors import DealError, RulesError, TarockError
from tarock_solver.oracle.cardpoints import random_position, reference_value
from tarock_solver.solver import NodeLimitExceeded, Solver, solve_cards, solve_position


def cards(*ids: str) -> int:
    return mask_of(INDEX_OF[c] for c in ids)


def idx(card_id: str) -> int:
    return INDEX_OF[card_id]


# F leads; three tricks left.
HANDS = (cards("T22", "T21", "H4"), cards("T5", "HK", "HQ"), cards("T1", "S7", "C7"))


def test_lazy_reexport_and_import_cost() -> None:
    assert tarock_solver.solve_position is solve_position
    code = "import sys, tarock_solver; assert 'numba' not in sys.modules, 'numba imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_value_target_and_stats() -> None:
    value = solve_position(HANDS, 0, 0)
    assert value == reference_value(HANDS, 0, 0)
    assert solve_position(HANDS, 0, 0, target=value) is True
    assert solve_position(HANDS, 0, 0, target=value + 1) is False
    result, nodes = solve_position(HANDS, 0, 0, stats=True)
    assert result == value and isinstance(nodes, int) and nodes >= 1
    ok, nodes = solve_position(HANDS, 0, 0, target=0, stats=True)
    assert ok is True and nodes >= 1


def test_hand_worked_example() -> None:
    # F holds Sküs and Mond: every trick he leads with a top tarock is his.
    hands = (cards("T22", "T21"), cards("T5", "HK"), cards("T1", "HQ"))
    # Trick 1: F leads T22, M must play T5, R must play T1 -> 5+1+5-2 = 9 for F.
    # Trick 2: F leads T21, M and R have no tarocks -> 5+5+4-2 = 12 for F.
    assert solve_position(hands, 0, 0) == 21
    assert solve_position(hands, 0, 1) == 0
    # M as declarer alone against F and R gets nothing either way.
    assert solve_position(hands, 0, 2) == 0


def test_trick_in_progress_and_card_values() -> None:
    # F has led T22; M and R still to play.
    hands = (cards("T21"), cards("T5", "HK"), cards("T1", "HQ"))
    trick = (idx("T22"),)
    assert solve_position(hands, 0, 0, trick=trick) == 21
    vals = solve_cards(hands, 0, 0, trick=trick)
    assert vals == {idx("T5"): 21}  # M must follow with his only tarock
    vals, nodes = solve_cards(hands, 0, 0, trick=trick, stats=True)
    assert nodes >= 1


def test_equivalent_cards_share_a_value() -> None:
    # F led S7; M cannot follow and must play a tarock from his run T10 T9 T8
    # (no other card in play lies between them): one search, one value for all.
    hands = (cards("T22", "H4"), cards("T10", "T9", "T8"), cards("T2", "HK", "C7"))
    vals = solve_cards(hands, 0, 1, trick=(idx("S7"),))
    assert set(vals) == {idx("T10"), idx("T9"), idx("T8")}
    assert len(set(vals.values())) == 1
    for c, v in vals.items():
        h = list(hands)
        h[1] &= ~(1 << c)
        assert v == reference_value(tuple(h), 0, 1, trick=(idx("S7"), c))


def test_card_values_match_best_value() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        p = random_position(rng, 4)
        vals = solve_cards(**p)
        seat = (p["leader"] + len(p["trick"])) % 3
        best = max(vals.values()) if seat == p["declarer"] else min(vals.values())
        assert best == solve_position(**p) == reference_value(**p)


def test_bird_reserve() -> None:
    # Trick 14: F led T22, M played T4; R (declarer, Pagat announced) must follow
    # with a tarock and may not play T1 yet.
    hands = (cards("T21", "HK"), cards("T5", "HQ"), cards("T1", "T3", "S7"))
    trick = (idx("T22"), idx("T4"))
    free = solve_cards(hands, 0, 2, trick=trick)
    kept = solve_cards(hands, 0, 2, trick=trick, restrictions=["pagat"])
    assert set(free) == {idx("T1"), idx("T3")}
    assert set(kept) == {idx("T3")}
    # forced: with only the bird left to follow, the legal set is unchanged
    hands = (cards("HK"), cards("HQ"), cards("T1", "S7"))
    forced = solve_cards(hands, 0, 2, trick=trick, restrictions=("pagat",))
    assert set(forced) == {idx("T1")}
    full = (cards("T22", "HK"), cards("T4", "HQ"), cards("T1", "S7"))
    got = solve_position(full, 0, 2, restrictions=("PAGAT", "uhu"))
    assert got == reference_value(full, 0, 2, restrictions=("pagat", "uhu"))


def test_solver_reuse_across_declarers_and_birds() -> None:
    rng = np.random.default_rng(11)
    shared = Solver(tt_bits=14)
    for _ in range(30):
        p = random_position(rng, 5)
        for declarer in range(3):
            q = dict(p, declarer=declarer, trick=())
            hands = list(q["hands"])
            # give back the trick cards to keep sizes equal at a fresh trick
            for off, c in enumerate(p["trick"]):
                hands[(p["leader"] + off) % 3] |= 1 << c
            q["hands"] = tuple(hands)
            assert shared.value(**q) == Solver(tt_bits=10).value(**q)
    assert shared.stats.solves == 90
    assert shared.stats.nodes > 0 and shared.stats.tt_hits > 0


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"hands": (1, 1, 4)}, DealError, "appears twice"),
        ({"hands": (1, 2)}, DealError, "3 hands"),
        ({"hands": (1 << 60, 2, 4)}, DealError, "outside the 54 cards"),
        ({"hands": (3, 4, 8)}, DealError, "hand M has 1 card;"),
        ({"leader": 3}, RulesError, "leader 3 is not a seat"),
        ({"declarer": "x"}, RulesError, 'declarer "x" is not a seat'),
        ({"restrictions": ["mond"]}, RulesError, 'unknown bird "mond"'),
        ({"trick": (5, 6, 7)}, DealError, "0, 1 or 2 played cards"),
        ({"trick": (0,)}, DealError, "in the current trick and in hand F"),
        ({"tt_bits": 3}, RulesError, "tt_bits 3 is out of range"),
    ],
)
def test_bad_input_raises_tarock_errors(kwargs: dict, error: type, text: str) -> None:
    args = {"hands": (cards("T1"), cards("T2"), cards("T3")), "leader": 0, "declarer": 0}
    args.update(kwargs)
    with pytest.raises(error, match=text) as info:
        solve_position(**args)
    assert isinstance(info.value, TarockError)


def test_illegal_trick_card_is_rejected() -> None:
    # M still holds a heart, so he could not have played a spade to a heart lead.
    hands = (cards("T5"), cards("H3"), cards("T1", "C7"))
    with pytest.raises(RulesError, match="S7 played by M"):
        solve_position(hands, 0, 0, trick=(idx("HK"), idx("S7")))
    # a hand size that does not fit the trick in progress
    with pytest.raises(DealError, match="hand M has 3 cards"):
        solve_position((cards("T5"), cards("H3", "H4", "H2"), cards("T1", "C7")), 0, 0,
                       trick=(idx("HK"),))


def test_solve_many_matches_single_solves_in_a_spawned_process() -> None:
    # numba's parallel layer is kept out of the pytest process (forking after
    # it ran is unsafe with OpenMP), so the batch runs in a fresh interpreter.
    code = textwrap.dedent(
        """
        import numpy as np
        from tarock_solver.solver import Position, solve_many, solve_position
        from tarock_solver.oracle.cardpoints import random_position
        rng = np.random.default_rng(21)
        ps = [random_position(rng, int(rng.integers(1, 7))) for _ in range(60)]
        want = [solve_position(**p) for p in ps]
        got, nodes = solve_many([Position(**p) for p in ps], threads=2, stats=True)
        assert got.tolist() == want, (got, want)
        assert (nodes > 0).all()
        ok = solve_many([tuple(Position(**p)) for p in ps], target=12)
        assert ok.dtype == bool and ok.tolist() == [w >= 12 for w in want]
        per = solve_many(ps[:3], target=[want[0], want[1] + 1, 0])
        assert per.tolist() == [True, False, True]
        assert solve_many([]).shape == (0,)
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True)
    assert out.stdout.strip().endswith("ok")


def test_node_budget_stops_search_and_keeps_table_sound() -> None:
    rng = np.random.default_rng(8)
    p = random_position(rng, 8, trick_cards=0, birds=False)
    capped = Solver(tt_bits=14, max_nodes=50)
    with pytest.raises(NodeLimitExceeded, match="max_nodes=50"):
        capped.value(**p)
    with pytest.raises(NodeLimitExceeded):
        capped.card_values(**p)
    capped.max_nodes = None
    assert capped.value(**p) == Solver(tt_bits=14).value(**p)
