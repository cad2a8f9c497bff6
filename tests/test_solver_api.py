"""The solver's front door: positions, budgets, results, both searches, batches, TT reuse."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tarock_solver
from tarock_solver.cards import INDEX_OF, mask_of
from tarock_solver.errors import DealError, RulesError, TarockError
from tarock_solver.oracle.cardpoints import random_position, reference_value
from tarock_solver.solver import (
    Budget,
    CardPointSearch,
    OverBudget,
    Position,
    SearchResult,
    solve_cards,
    solve_position,
)


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
    result = CardPointSearch(tt_bits=10).value(Position(HANDS, 0, 0))
    assert result.value == value and result.exact and result.nodes >= 1 and result.tests >= 1
    test = CardPointSearch(tt_bits=10).reaches(Position(HANDS, 0, 0), value + 1)
    assert test.at_least(value + 1) is False and test.upper <= value and test.tests == 1


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
    results = CardPointSearch(tt_bits=10).card_values(Position(hands, 0, 0, trick=trick))
    assert {c: r.value for c, r in results.items()} == vals


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
    kept = solve_cards(hands, 0, 2, trick=trick, birds=["pagat"])
    assert set(free) == {idx("T1"), idx("T3")}
    assert set(kept) == {idx("T3")}
    # forced: with only the bird left to follow, the legal set is unchanged
    hands = (cards("HK"), cards("HQ"), cards("T1", "S7"))
    forced = solve_cards(hands, 0, 2, trick=trick, birds=("pagat",))
    assert set(forced) == {idx("T1")}
    full = (cards("T22", "HK"), cards("T4", "HQ"), cards("T1", "S7"))
    got = solve_position(full, 0, 2, birds=("PAGAT", "uhu"))
    assert got == reference_value(full, 0, 2, birds=("pagat", "uhu"))


def test_solver_reuse_across_declarers_and_birds() -> None:
    rng = np.random.default_rng(11)
    shared = CardPointSearch(tt_bits=14)
    for _ in range(30):
        p = random_position(rng, 5)
        for declarer in range(3):
            q = dict(p, declarer=declarer, trick=())
            hands = list(q["hands"])
            # give back the trick cards to keep sizes equal at a fresh trick
            for off, c in enumerate(p["trick"]):
                hands[(p["leader"] + off) % 3] |= 1 << c
            q["hands"] = tuple(hands)
            pos = Position(**q)
            assert shared.value(pos).value == CardPointSearch(tt_bits=10).value(pos).value
    assert shared.stats.searches == 90
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
        ({"birds": ["mond"]}, RulesError, 'unknown bird "mond"'),
        ({"trick": (5, 6, 7)}, DealError, "0, 1 or 2 played cards"),
        ({"trick": (0,)}, DealError, "in the current trick and in hand F"),
        ({"tt_bits": 3}, RulesError, "tt_bits 3 is out of range"),
        ({"leader": 1.5}, RulesError, "leader 1.5 is not a seat"),
        ({"hands": "abc"}, DealError, "3 hands"),
        ({"trick": ("x",)}, DealError, "not a card index"),
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
        ok = solve_many([(p["hands"], p["leader"], p["declarer"], p["trick"], p["birds"])
                         for p in ps], target=12)
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


def test_node_budget_gives_proved_bounds_and_keeps_table_sound() -> None:
    rng = np.random.default_rng(8)
    for _ in range(8):
        p = random_position(rng, 8, trick_cards=0, birds=False)
        pos = Position(**p)
        exact = CardPointSearch(tt_bits=14).value(pos).value
        capped = CardPointSearch(tt_bits=14)
        for nodes in (1, 50, 500, 5000):
            r = capped.value(pos, Budget(nodes=nodes))
            assert r.lower <= exact <= r.upper  # bounds, never a guess
            if not r.exact:
                with pytest.raises(OverBudget, match="between"):
                    _ = r.value
                assert r.nodes <= nodes + 1
            t = capped.reaches(pos, exact, Budget(nodes=nodes))
            assert t.at_least(exact) in (True, None)
            assert set(capped.card_values(pos, Budget(nodes=nodes))) == set(solve_cards(**p))
        # whatever was aborted, the shared table still gives exact answers
        assert capped.value(pos).value == exact
        assert capped.stats.aborted > 0


def test_card_values_under_a_budget_bound_every_card() -> None:
    rng = np.random.default_rng(3)
    for _ in range(10):
        p = random_position(rng, 5)
        pos = Position(**p)
        exact = solve_cards(**p)
        for nodes in (1, 30, 300):
            got = CardPointSearch(tt_bits=10).card_values(pos, Budget(nodes=nodes))
            assert set(got) == set(exact)
            for card, r in got.items():
                assert r.lower <= exact[card] <= r.upper


def test_guess_and_first_test_change_the_path_not_the_value() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        pos = Position(**random_position(rng, 6))
        want = CardPointSearch(tt_bits=10).value(pos).value
        for guess in (None, 0, want, want + 7, 500):
            for first in (None, 1, want, want + 1):
                r = CardPointSearch(tt_bits=10).value(pos, guess=guess, first_test=first)
                assert r.value == want


def test_seconds_budget_stops_a_long_search() -> None:
    from tarock_solver.bench import load_bench_deals

    # bench deal 1 with M declaring takes ~15 s of one core to solve exactly
    deal = load_bench_deals(None, 2)[1].deal
    search = CardPointSearch(tt_bits=16)
    r = search.value(Position(deal.hands, 0, 1), Budget(seconds=0.2))
    assert not r.exact and r.lower < r.upper
    assert r.seconds < 3.0  # the clock is read every 4,096 nodes
    both = search.value(Position(deal.hands, 0, 1), Budget(nodes=10**9, seconds=0.2))
    assert not both.exact and both.seconds < 3.0


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [({"nodes": 0}, "node budget"), ({"nodes": 2.5}, "node budget"), ({"nodes": True}, "node budget"),
     ({"seconds": 0}, "time budget"), ({"seconds": float("nan")}, "time budget"),
     ({"seconds": float("inf")}, "time budget"), ({"seconds": "soon"}, "time budget")],
)
def test_bad_budgets_are_refused(kwargs: dict, text: str) -> None:
    with pytest.raises(RulesError, match=text):
        Budget(**kwargs)


def test_budget_and_result_basics() -> None:
    assert Budget().unlimited and Budget.of(None) == Budget() and Budget.of(7) == Budget(nodes=7)
    r = SearchResult(3, 9, nodes=10)
    assert not r.exact and r.at_least(3) is True and r.at_least(10) is False
    assert r.at_least(5) is None and str(r) == "3..9"
    assert SearchResult(4, 4).value == 4


def test_position_play_and_facts() -> None:
    pos = Position(HANDS, 0, 0)
    assert pos.mover == 0 and pos.trick_number == 14 and pos.cards_left == 9
    nxt, gained = pos.play(idx("T22"))
    assert nxt is not None and nxt.trick == (idx("T22"),) and gained == 0 and nxt.mover == 1
    with pytest.raises(RulesError, match="not a legal play"):
        nxt.play(idx("HQ"))  # M must follow with his tarock
    assert Position.of((HANDS, 0, 0)) == pos == Position.of({"hands": HANDS, "leader": 0,
                                                             "declarer": 0})


_ROOT = Path(__file__).resolve().parents[1]


def test_only_the_package_is_imported_from_outside_the_solver() -> None:
    """Nothing outside tarock_solver/solver/ imports a module inside it (the package
    itself is the door); tests of the private kernels are the only exception."""
    import re

    pattern = re.compile(r"^\s*(?:from|import)\s+(?:tarock_solver\.solver\.|\.+solver\.)(\w+)",
                         re.MULTILINE)
    bad = []
    for folder in ("tarock_solver", "cli", "benchmarks"):
        for path in (_ROOT / folder).rglob("*.py"):
            if (_ROOT / "tarock_solver" / "solver") in path.parents:
                continue
            for m in pattern.finditer(path.read_text()):
                bad.append(f"{path.relative_to(_ROOT)}: {m.group(0).strip()}")
    assert not bad, "\n".join(bad)


def test_package_docstring_examples_run() -> None:
    import doctest

    import tarock_solver.solver as door

    assert doctest.testmod(door).failed == 0


def test_api_document_examples_run() -> None:
    import doctest

    result = doctest.testfile(str(_ROOT / "docs" / "API.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


def test_cell_bounds_hold_the_value_in_one_cell_and_settle_every_threshold() -> None:
    from tarock_solver.solver._kernels.mtd import cell_start
    from tarock_solver.solver.cardpoints import remaining_points

    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(250):
        pos = Position(**random_position(rng, int(rng.integers(4, 8))))
        want = CardPointSearch(tt_bits=10).value(pos).value
        top = remaining_points(pos)
        width = int(rng.choice([1, 2, 3, 5]))
        offset = int(rng.integers(0, 7))
        ts = [int(t) for t in rng.integers(1, top + 2, size=int(rng.integers(0, 3)))]
        guess = int(rng.integers(-1, top + 3))
        r, done = CardPointSearch(tt_bits=10).cell(pos, width, offset, ts, guess=guess)
        assert done
        assert r.lower <= want <= r.upper
        a = cell_start(want, width, offset % width)
        assert a <= r.lower and r.upper < a + width  # inside the value's own cell
        for t in ts:  # which side of every threshold the value lies is proved
            assert r.lower >= t or r.upper < t
        if width == 1:
            assert r.exact and r.value == want
        checked += r.upper > r.lower
    assert checked > 20  # the wider cells do stop short of the value


def test_cell_middle_is_unbiased_over_the_offsets() -> None:
    from tarock_solver.solver._kernels.mtd import cell_start

    for width in (1, 3, 5):
        for x in range(-3, 75):
            mids = [cell_start(x, width, u) + (width - 1) / 2 for u in range(width)]
            assert sum(mids) / width == x
