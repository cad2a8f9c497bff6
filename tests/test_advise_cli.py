"""`tarock advise` on the command line: output, JSON, CSV and errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from tarock_cli.main import main

from tarock_solver.advise.inputs import DEMO_HAND, read_advice_input
from tarock_solver.advise.results import SCHEMA_COLUMNS
from tarock_solver.errors import DealError, NotationError
from tarock_solver.notation import parse_hand

STRONG = "22,21,20,19,18,17,16,15,14,13,12,1.K.K.K.K"


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("hand", ["21,20,16,15,7,5,2,1.K.KQ.K97.Q", "21,20,16,15,7,5,2,1.K.KQ.K97.Q9X",
                                  "Sküs Mond Gstiess"])
def test_a_bad_hand_exits_2_with_a_message(capsys, hand: str) -> None:
    code, out, err = run(capsys, "advise", hand, "--no-progress")
    assert code == 2
    assert err.startswith("Error:") and "Traceback" not in err
    assert out == ""


def test_advice_needs_a_known_hand(capsys) -> None:
    code, _, err = run(capsys, "advise", "F:- - -/?")
    assert code == 2 and "advice needs your own hand" in err


def test_talon_needs_a_contract(capsys) -> None:
    code, _, err = run(capsys, "advise", STRONG, "--talon", "D4,DJ,SQ,C9,CC,HJ")
    assert code == 2 and "--talon needs --contract" in err


def test_solo_never_exposes_the_talon(capsys) -> None:
    code, _, err = run(capsys, "advise", STRONG, "--talon", "D4,DJ,SQ,C9,CC,HJ",
                       "--contract", "solo")
    assert code == 2 and "Solo never exposes the talon" in err


def test_inputs_partial_deal_and_seat() -> None:
    inp = read_advice_input(f"M:{DEMO_HAND} - -/?")
    assert inp.seat == 1 and inp.hand == parse_hand(DEMO_HAND) and inp.talon is None
    inp = read_advice_input(None)
    assert inp.demo and inp.seat == 0
    with pytest.raises(DealError):
        read_advice_input(f"F:{DEMO_HAND} - -/?", seat="M")
    with pytest.raises(NotationError):
        read_advice_input(DEMO_HAND, talon="?")


def test_json_and_csv_of_a_strong_solo(capsys, tmp_path) -> None:
    # passing's all-pass worlds need the Trischaken kernels, which a run finds compiled or
    # leaves to the next run (as the game points'): compiled here, so that passing's exact
    # worlds, and its SE, do not depend on the order the tests run in
    from tarock_solver.advise.exact import warm_up_trischaken

    warm_up_trischaken()
    path = tmp_path / "advice.csv"
    # a time limit far beyond the work: the first run in a fresh checkout compiles the
    # kernels (about two minutes on a loaded 2-core machine), which must not cut the worlds
    code, out, err = run(capsys, "advise", STRONG, "--contract", "solo", "--samples", "10",
                         "--seed", "3", "--time-limit", "3600", "--json", "--csv", str(path),
                         "--no-progress")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["seed"] == 3 and data["meta"]["worlds"] == 10
    assert data["meta"]["exact_worlds"] == {"solo": 10}
    rec = data["recommendation"]
    assert rec["contract"] == "solo"
    for key in ("option", "mean_net", "mean_net_se", "mean_points", "mean_points_se",
                "p_make", "close_call", "tentative"):
        assert key in rec
    assert set(rec["runner_up"]) >= {"contract", "option", "difference", "difference_se"}
    rows = {(r["contract"], r["option"]): r for r in data["table"]}
    assert rows[("solo", "plain")]["samples"] == 10
    assert rows[("solo", "plain")]["mean_net_se"] is not None  # 10 exact worlds: an SE
    # passing: my net when the others bid by the policy, with what it is made of
    passing = rows[("pass", "plain")]
    assert isinstance(passing["mean_net"], float)
    assert isinstance(passing["mean_net_se"], float)  # 8 exact worlds once Solo is done
    assert abs(sum(o["share"] for o in passing["pass_outcomes"]) - 1) < 1e-9
    assert all(set(o) >= {"declarer", "contract", "share", "mean_net"}
               for o in passing["pass_outcomes"])
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames[:len(SCHEMA_COLUMNS)]) == SCHEMA_COLUMNS
        csv_rows = list(reader)
    assert {r["contract"] for r in csv_rows} == {"solo", "pass"}
    assert {r["kind"] for r in csv_rows} >= {"plain", "pass"}


def test_text_output_has_one_table_one_line_and_a_legend(capsys) -> None:
    code, out, err = run(capsys, "--ascii", "advise", STRONG, "--contract", "solo",
                         "--samples", "4", "--no-progress", "--verbose")
    assert code == 0, err
    assert "E[net game points]" in out
    # four worlds are too few to advise on: the line says so and still names the leader
    assert "Recommendation (tentative): bid Solo" in out
    assert "is one standard error" in out
    assert "Solver statistics" in out
    assert "Bird announcements (each bird the hand holds" in out


def test_forehand_is_never_advised_lower(capsys) -> None:
    code, out, err = run(capsys, "advise", STRONG, "--contract", "lower", "--samples", "4",
                         "--no-progress")
    assert code == 2
    assert "forehand can never bid Lower" in err


def test_ctrl_c_prints_the_answer_so_far(tmp_path) -> None:
    """SIGINT during the run: the worlds done so far are reported, not thrown away."""
    import os
    import signal
    import subprocess
    import sys
    import time

    # The child runs this checkout's library whatever else the environment holds (after a
    # `pip install .` whose numba cache was left in site-packages by a later editable
    # install, `tarock_solver` there is an empty namespace package that shadows the
    # editable one for any process started outside the checkout).
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PYTHONPATH=os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]))
    log = tmp_path / "stderr.txt"
    with open(log, "w") as err_file:
        # The demo hand with every contract: its evaluator phase alone lasts 24 s (a fifth
        # of the limit), so the signal lands mid-run however fast the exact solves are
        # (a Solo of STRONG finished in under a second once the kernels were cached, and
        # the signal then hit a process that was already exiting).
        # A runner that starts the suite in the background (`cmd &` without job control)
        # passes SIGINT down ignored, and Python then never raises KeyboardInterrupt: the
        # child gets the default disposition back, as a process started from a terminal has.
        proc = subprocess.Popen([sys.executable, "-m", "tarock_cli", "advise",
                                 "--time-limit", "120", "--samples", "100000"],
                                stdout=subprocess.PIPE, stderr=err_file, text=True, env=env,
                                cwd=tmp_path,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        # the progress bar names the phase once the worlds are being evaluated
        for _ in range(600):
            if "evaluator" in log.read_text():
                break
            time.sleep(0.1)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, log.read_text()
    assert "interrupted: the answer so far" in out
    assert "Recommendation" in out


def test_a_hand_without_tarock_is_warned_about_and_still_advised(capsys) -> None:
    code, out, err = run(capsys, "advise", ".KQCJ1234.KQCJ.KQCJ.", "--contract", "solo",
                         "--samples", "4", "--no-progress")
    assert code == 0, err
    assert "Warning: hand F holds no tarock; at the table this deal would be redealt." in err
    assert "Recommendation" in out
