"""The adviser with the real double-dummy solver and the shipped evaluator.

Full 16-trick solves take ~0.3 s at the median, so the CI checks use hands that
search fast and few worlds; the heavier checks are marked slow.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import tarock_solver
from tarock_solver.advise import AdviceLimit, AdviceRequest, AdviceSettings, advise
from tarock_solver.advise.exact import compile_command
from tarock_solver.advise.sampling import STREAM_WORLD, knowledge_from_hand, world_at
from tarock_solver.cards import round_points
from tarock_solver.notation import parse_hand
from tarock_solver.solver import solve_position

#: Trull, four Kings and nine more tarocks.
STRONG = parse_hand("22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K")
#: No tarock above IX, no King, no Queen.
HOPELESS = parse_hand("9,8,7,6,5.432.A43.987.T9")
SMALL = AdviceSettings(inner=16, screen=4, keep=4, talon_inner=32, contenders=4)


@pytest.fixture(autouse=True)
def _slow_only_when_selected(request):
    """Slow checks run only when asked for with ``-m slow`` (they take minutes)."""
    if request.node.get_closest_marker("slow") and "slow" not in (
            request.config.getoption("markexpr") or ""):
        pytest.skip("slow: run with -m slow")


def solo(hand: int, samples: int, seed: int = 1, **kw):
    return advise(AdviceRequest(hand=hand, seat=0, contracts=("solo",),
                                limit=AdviceLimit(None, samples),
                                seed=seed, settings=SMALL, **kw))


@pytest.fixture(scope="module")
def strong_solo():
    return solo(STRONG, 10)


def plain_row(adv, contract: str):
    t = adv.table
    return t[(t["contract"] == contract) & (t["option"] == "plain")].iloc[0]


def test_solo_points_equal_solve_position_on_the_same_worlds(strong_solo) -> None:
    """Every world solved exactly: the estimate is the plain mean of the exact values."""
    k = knowledge_from_hand(STRONG, 0)
    direct = [round_points(3 * solve_position(world_at(k, 1, STREAM_WORLD, j).hands, 0, 0))
              for j in range(10)]
    r = plain_row(strong_solo, "solo")
    assert r["exact_worlds"] == 10
    assert r["mean_points"] == pytest.approx(np.mean(direct), abs=1e-9)
    assert strong_solo.meta["exact_unfinished"] == 0


def test_a_very_strong_hand_makes_its_solo(strong_solo) -> None:
    r = plain_row(strong_solo, "solo")
    assert r["samples"] == 10
    assert r["win_prob"] > 0.95
    assert strong_solo.recommendation["contract"] == "solo"


def test_a_hopeless_solo_loses_and_the_advice_is_to_pass() -> None:
    adv = solo(HOPELESS, 8)
    assert plain_row(adv, "solo")["win_prob"] == 0
    assert adv.recommendation["contract"] == "pass"


def test_same_numbers_for_one_and_two_solver_threads() -> None:
    a = solo(STRONG, 8, seed=3, jobs=1)
    b = solo(STRONG, 8, seed=3, jobs=2)
    cols = ["option", "mean_net", "mean_points", "win_prob", "exact_worlds"]
    assert a.table[cols].equals(b.table[cols])


def test_a_deadline_never_leaves_a_midpoint() -> None:
    """A tight time limit: whatever is solved is exact, the rest is counted as cut."""
    adv = advise(AdviceRequest(hand=HOPELESS, seat=0, contracts=("solo",),
                               limit=AdviceLimit(1.5, 400), seed=2,
                               settings=replace(SMALL, exact_from=2)))
    meta = adv.meta
    assert meta["seconds"] < 1.5 + 3.0  # the deadline plus the collect's grace
    r = plain_row(adv, "solo")
    assert r["exact_worlds"] <= meta["exact_solves"]
    assert float(r["mean_points"]).is_integer() or r["exact_worlds"] < r["samples"]


@pytest.mark.slow
def test_a_hopeless_hand_passes_in_every_contract() -> None:
    adv = advise(AdviceRequest(hand=HOPELESS, seat=0, limit=AdviceLimit(None, 24),
                               settings=replace(SMALL, max_exact=8)))
    assert adv.recommendation["contract"] == "pass"
    plain = adv.table[adv.table["kind"] == "plain"]
    assert (plain["mean_net"] < 0).all()


def test_a_compile_waits_for_the_one_in_progress_and_then_skips() -> None:
    """Two first runs compile once: the detached compile takes the lock, and a second
    one waits for it and finds the cache full (here: already cached, so neither
    compiles)."""
    import threading
    import time

    fcntl = pytest.importorskip("fcntl")
    from tarock_solver.advise.exact import (
        all_kernels_cached,
        compile_detached,
        compile_lock_path,
        warm_up_games,
    )

    solve_position((1 << 53, 1 << 52, 1 << 51), 0, 0)  # the kernels are in the cache
    warm_up_games()
    assert all_kernels_cached()
    held = threading.Event()

    def hold() -> None:
        with open(compile_lock_path(), "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            held.set()
            time.sleep(0.6)

    th = threading.Thread(target=hold)
    th.start()
    held.wait()
    t0 = time.perf_counter()
    assert compile_detached() is False
    assert time.perf_counter() - t0 >= 0.5  # it waited for the holder
    th.join()


def test_silent_birds_equal_the_game_point_solves_on_the_same_worlds() -> None:
    """Every world solved both ways: the Solo's net with birds is the plain mean of the
    game-point solver's values of plain play (the Trull holder wins his Pagat silently),
    shown from :data:`~tarock_solver.advise.cv.MIN_BIRD_WORLDS` worlds on."""
    from tarock_solver.advise.exact import warm_up_games
    from tarock_solver.solver import solve_game_points

    warm_up_games()  # the adviser makes game-point solves only with the kernels in the cache
    settings = replace(SMALL, birds_from=0, bird_every=1)
    req = AdviceRequest(hand=STRONG, seat=0, contracts=("solo",),
                        limit=AdviceLimit(None, 16), seed=1, settings=settings)
    adv = advise(req)
    rules = req.rule_profile()
    k = knowledge_from_hand(STRONG, 0)
    direct = []
    for j in range(16):
        hands = world_at(k, 1, STREAM_WORLD, j).hands
        direct.append(solve_game_points(hands, 0, 0, rules=rules, contract="solo",
                                        valat_open=True, declarer_hand=STRONG,
                                        dealt=hands).value)
    r = plain_row(adv, "solo")
    assert r["bird_worlds"] == 16 and adv.meta["game_point_unfinished"] == 0
    assert r["mean_net_birds"] == pytest.approx(np.mean(direct), abs=1e-9)
    assert r["mean_net"] == r["mean_net_birds"]  # every net counts the birds
    assert r["mean_net_cards"] != pytest.approx(r["mean_net"])  # and they count here


def test_no_game_point_solve_before_its_kernels_are_compiled(monkeypatch) -> None:
    """With the game-point kernels not in the cache the run makes no game-point solve (a
    compile in a solver thread would hold the interpreter for most of a minute): the
    birds wait for a later run, and the card points go on."""
    import tarock_solver.solver as solver_api

    monkeypatch.setattr(solver_api, "game_kernels_cached", lambda: False)
    adv = advise(AdviceRequest(hand=STRONG, seat=0, contracts=("solo",),
                               limit=AdviceLimit(None, 8), seed=1,
                               settings=replace(SMALL, birds_from=0, bird_every=1)))
    assert adv.meta["bird_worlds"] == {"solo": 0}
    assert adv.meta["game_point_solves"] == 0
    assert plain_row(adv, "solo")["exact_worlds"] == 8


def test_the_detached_compile_builds_the_running_copy_not_the_folder_it_is_run_from(
        tmp_path, monkeypatch) -> None:
    # `pip install . && tarock advise` runs in a checkout: a child that imported the
    # checkout would cache another copy's kernels, and every run would compile again
    decoy = tmp_path / "tarock_solver"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise SystemExit('the decoy was imported')\n")
    monkeypatch.chdir(tmp_path)
    argv, cwd = compile_command()
    assert argv[0] == sys.executable and "compile_detached()" in argv[-1]
    out = subprocess.run([sys.executable, "-c",
                          "import tarock_solver; print(tarock_solver.__file__)"],
                         cwd=cwd, capture_output=True, text=True, check=True)
    assert Path(out.stdout.strip()).resolve() == Path(tarock_solver.__file__).resolve()
