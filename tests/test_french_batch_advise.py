"""`tarock --game french batch FILE --mode advise`: a row per hand advised, the adviser's own
numbers; the same bytes for any --jobs and after a crash or a SIGKILL; bad input refused
with its line before any advice; `tarock --game french stats` of the rows."""

from __future__ import annotations

import dataclasses
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from batchtools import Crash, CrashingExecutor
from clitools import main, run

from tarock_solver.analysis.results import frame_to_csv
from tarock_solver.batch import (
    BatchSettings,
    CheckpointError,
    get_mode,
    parts_dir,
    plan_batch,
    run_batch,
)
from tarock_solver.french.advice import FrenchAdviceRequest, advise_french
from tarock_solver.french.advice.rows import ADVICE_COLUMNS, advice_frame, advice_row
from tarock_solver.french.deal import FrenchPartialDeal, random_deal
from tarock_solver.french.deal_files import FrenchDealRecord, write_deals
from tarock_solver.french.rules import load_rules
from tarock_solver.stats import StatsError, plot_summary, summarise

#: The package the commands are imported from (where the monkeypatches must go).
CLI = main.__module__.rsplit(".", 1)[0]
TESTS = Path(__file__).resolve().parent
WORLDS = "16"
SEED = 3
RULES = load_rules("fft")


def _records() -> list[FrenchDealRecord]:
    taken = dataclasses.replace(random_deal(11), taker=2, contract="garde")
    own = random_deal(12).hands[1]
    return [FrenchDealRecord("taken", taken),
            FrenchDealRecord("own", FrenchPartialDeal((None, own, None, None), None)),
            FrenchDealRecord("whole", random_deal(13))]


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("advise") / "deals.jsonl"
    write_deals(path, _records())
    return path


def _args(deals: Path, out: Path, *extra: str) -> list[str]:
    return ["--game", "french", "batch", str(deals), "--mode", "advise", "-o", str(out),
            "--worlds", WORLDS, "--seed", str(SEED), "--no-progress", "--no-timing", *extra]


def _direct(seats: dict[str, list[int]]) -> str:
    """The CSV the rows of ``seats`` (record id → seats) make, by the adviser directly."""
    rows = []
    for record in _records():
        for seat in seats.get(record.id, []):
            advice = advise_french(FrenchAdviceRequest(
                hand=record.deal.hands[seat], seat=seat, rules=RULES, seed=SEED,
                worlds=int(WORLDS)))
            rows.append(advice_row(advice, deal_id=record.id))
    return frame_to_csv(advice_frame(rows))


@pytest.fixture(scope="module")
def whole(deals, tmp_path_factory) -> bytes:
    """The output of one uninterrupted run with --jobs 1 (the reference of the others)."""
    out = tmp_path_factory.mktemp("whole") / "advice.csv"
    settings = BatchSettings.create(mode="french-advise", rules="fft", samples=int(WORLDS),
                                    seed=SEED, timing=False)
    summary = run_batch(plan_batch(deals, 1, reader=get_mode("french-advise").read), out,
                        settings)
    assert (summary.ok, summary.failed, summary.rows) == (3, 0, 6)
    return out.read_bytes()


def test_rows_are_the_advisers_for_the_taker_the_known_hand_and_every_seat(whole):
    # the taker of a record that names one, the one hand of a partial deal, else all four
    assert whole.decode() == _direct({"taken": [2], "own": [1], "whole": [0, 1, 2, 3]})
    frame = pd.read_csv(io.StringIO(whole.decode()), dtype=str, keep_default_na=False)
    assert list(frame.columns) == list(ADVICE_COLUMNS)
    assert frame["seat"].tolist() == ["3", "2", "1", "2", "3", "4"]
    assert set(frame["game"]) == {"french"} and set(frame["worlds"]) == {WORLDS}
    assert set(frame["solve_ms"]) == {""}  # --no-timing
    for row in frame.itertuples():
        assert row.recommended in ("petite", "garde", "garde_sans", "garde_contre", "pass")
        assert row.runner_up != row.recommended and row.difference != ""
    # passing has a score only, and who takes after the pass
    assert "pass_p_make" not in frame and "" not in set(frame["pass_detail"])


def test_seat_option_chooses_the_hands(capsys, tmp_path, deals):
    out = tmp_path / "advice.csv"
    code, _, err = run(capsys, *_args(deals, out, "--seat", "2"))
    assert code == 0, err
    # every record holds hand 2
    assert out.read_text() == _direct({"taken": [1], "own": [1], "whole": [1]})
    code, _, err = run(capsys, *_args(deals, tmp_path / "x.csv", "--seat", "1,3"))
    assert code == 0 and "2 deals ok, 1 failed" in err
    assert 'deals.jsonl:2 (id "own"): seat 1, 3: the record does not hold that hand' in err


def test_any_jobs_give_the_same_bytes(capsys, tmp_path, deals, whole):
    out = tmp_path / "advice.csv"
    code, _, err = run(capsys, *_args(deals, out, "--jobs", "2", "--chunk-size", "1"))
    assert code == 0, err
    assert "2 worker processes" in err
    assert out.read_bytes() == whole




def test_a_crashed_run_resumes_to_the_same_bytes(tmp_path, deals, whole):
    settings = BatchSettings.create(mode="french-advise", rules="fft", samples=int(WORLDS),
                                    seed=SEED, timing=False)
    plan = plan_batch(deals, 1, reader=get_mode("french-advise").read)
    out = tmp_path / "advice.csv"
    with pytest.raises(Crash):
        run_batch(plan, out, settings, executor=CrashingExecutor(after=2))
    assert len(list(parts_dir(out).glob("chunk-*"))) == 2 and not out.exists()
    summary = run_batch(plan, out, settings)
    assert (summary.resumed, summary.analysed) == (2, 1)
    assert out.read_bytes() == whole
    # other worlds are another run: its checkpoints are not mixed with these
    with pytest.raises(Crash):
        run_batch(plan, out, settings, executor=CrashingExecutor(after=1))
    other = dataclasses.replace(settings, samples=24)
    with pytest.raises(CheckpointError, match="different run"):
        run_batch(plan, out, other)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_a_run_killed_with_sigkill_resumes_to_the_same_bytes(tmp_path):
    """The command in a process of its own, killed just after its first checkpoint and
    run again: the bytes of an uninterrupted run, with only the missing chunks computed."""
    deals = tmp_path / "deals.jsonl"
    records = [FrenchDealRecord(f"d{s}", random_deal(s)) for s in range(20, 26)]
    write_deals(deals, records)
    out = tmp_path / "killed.csv"
    args = _args(deals, out, "--seat", "1", "--chunk-size", "1")
    # this checkout's command line, as the tests bind it (conftest.py)
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); import conftest; "
            f"from tarock_cli.main import main; main({args!r})")
    cmd = [sys.executable, "-c", code]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parts = parts_dir(out)
    try:
        deadline = time.monotonic() + 120
        while not any(parts.glob("chunk-*.pkl")):
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no checkpoint within 120 s"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    at_kill = len(list(parts.glob("chunk-*.pkl")))
    assert 1 <= at_kill < len(records) and not out.exists()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f", {at_kill} from checkpoints" in again.stderr
    reference = tmp_path / "reference.csv"
    settings = BatchSettings.create(mode="french-advise", rules="fft", samples=int(WORLDS),
                                    seed=SEED, timing=False, declarers=["1"])
    run_batch(plan_batch(deals, 1, reader=get_mode("french-advise").read), reference,
              settings)
    assert out.read_bytes() == reference.read_bytes()


def _no_advice(*args, **kwargs):
    raise AssertionError("advice was computed before the input was checked")


def test_a_bad_file_exits_2_naming_the_line_before_any_advice(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("tarock_solver.batch.french_advise_adapter.advise_french", _no_advice)
    path = tmp_path / "deals.csv"
    path.write_bytes(b"id,deal\nx,1:-/?\ny,\xff\n")
    code, _, err = run(capsys, *_args(path, tmp_path / "out.csv"))
    assert code == 2 and f"{path}:3: not UTF-8 text" in err and "Traceback" not in err
    path = tmp_path / "deals.jsonl"
    path.write_text('{"id": "a", "deal": \n')
    for extra, words in [(("--worlds", "4"), "at least 8"), (("--seat", "5"), "seats are 1 to 4"),
                         (("--contract", "garde"), "every contract and passing"),
                         (("--seed", "-1"), "from 0")]:
        code, _, err = run(capsys, *_args(path, tmp_path / "out.csv"), *extra)
        assert code == 2 and words in err and "Traceback" not in err, (extra, err)
    code, _, err = run(capsys, "--game", "french", "--opt", "players=5",
                       *_args(path, tmp_path / "out.csv")[2:])
    assert code == 2 and "advice plays four players" in err


def test_records_no_hand_can_be_advised_in_are_listed_with_their_lines(capsys, monkeypatch,
                                                                       tmp_path):
    monkeypatch.setattr("tarock_solver.batch.french_advise_adapter.advise_french", _no_advice)
    path = tmp_path / "deals.jsonl"
    write_deals(path, [FrenchDealRecord("three", random_deal(5, players=3)),
                       FrenchDealRecord("nothing", FrenchPartialDeal((None,) * 4, None))])
    with path.open("a") as handle:
        handle.write('{"id": "cut", "deal": \n')
    out = tmp_path / "out.csv"
    code, _, err = run(capsys, *_args(path, out))
    assert code == 0, err  # as every batch mode: bad records are listed and skipped
    assert f'{path}:1 (id "three"): advice plays four players; this deal has 3' in err
    assert f'{path}:2 (id "nothing"): no hand is known' in err
    assert f"{path}:3: not valid JSON" in err
    assert "3 records failed (3 unreadable, 0 not analysed)" in err
    assert out.read_text() == frame_to_csv(advice_frame([]))
    code, _, err = run(capsys, *_args(path, out, "--strict"))
    assert code == 3


def test_stats_summarise_the_rows_per_recommendation(capsys, tmp_path, whole):
    path = tmp_path / "advice.csv"
    path.write_bytes(whole)
    frame = pd.read_csv(path)
    table = summarise(frame)
    assert list(table.columns[:2]) == ["recommended", "rows"]
    assert table["rows"].sum() == len(frame) == 6
    for row in table.itertuples():
        mine = frame[frame["recommended"] == row.recommended]
        scores = [r[f"{row.recommended}_score"] for _, r in mine.iterrows()]
        assert row.score_mean == pytest.approx(sum(scores) / len(scores))
        assert row.close_pct == pytest.approx(100 * mine["close_call"].mean())
        assert row.difference_mean == pytest.approx(mine["difference"].mean())
        if row.recommended == "pass":
            assert pd.isna(row.make_pct) and pd.isna(row.points_mean)
        else:
            assert row.make_pct == pytest.approx(
                100 * mine[f"{row.recommended}_p_make"].mean())
    code, out, err = run(capsys, "--game", "french", "stats", str(path), "--by", "seat")
    assert code == 0, err
    assert "By seat:" in out and "close_pct" in out and "score_mean" in out
    with pytest.raises(StatsError, match="--plot"):
        plot_summary(table, ["recommended"], tmp_path / "x.png")
    code, _, err = run(capsys, "--game", "french", "stats", str(path), "--deals",
                       str(path))
    assert code == 2 and "French Tarot file" in err
