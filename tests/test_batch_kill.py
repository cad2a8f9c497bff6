"""A `tarock batch` killed with SIGKILL at a random point resumes to the same output.

The run is a real subprocess (`python -m cli batch … --jobs 1`).  It is killed a random
time after its first checkpoint appears, started again with the same arguments, and its
final output is compared with an uninterrupted run: the same bytes for CSV (timing off),
the same rows for Parquet (timing on, so only ``solve_ms`` may differ).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import batch_deals
import pandas as pd
import pytest

from tarock_solver.analysis import read_results
from tarock_solver.batch import BatchSettings, parts_dir, plan_batch, run_batch
from tarock_solver.deal_files import DealRecord, write_deals

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

CONTRACTS = ("three", "two", "one", "solo")
DECLARERS = ("M", "R")
N_DEALS = 24
CHUNK = 2


def lopsided_records(count: int, seed: int) -> list[DealRecord]:
    return batch_deals.lopsided_records(count, seed, "kill")


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kill") / "deals.jsonl"
    write_deals(path, lopsided_records(N_DEALS, seed=17))
    return path


def command(deals: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tarock_cli", "batch", str(deals), "-o", str(out), "--jobs", "1",
            "--chunk-size", str(CHUNK), "--contract", ",".join(CONTRACTS), "--declarer",
            ",".join(DECLARERS), "--no-progress", *extra]


def kill_after_first_checkpoint(cmd: list[str], out: Path, delay: float) -> int:
    """Start ``cmd``, SIGKILL it ``delay`` s after its first chunk file appears, and
    return how many chunk files there were at the kill."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parts = parts_dir(out)
    try:
        deadline = time.monotonic() + 60
        while not any(parts.glob("chunk-*.pkl")):
            assert proc.poll() is None, f"the run ended before its first checkpoint: " \
                                        f"{proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, "no checkpoint within 60 s"
            time.sleep(0.005)
        time.sleep(delay)
        assert proc.poll() is None, "the run finished before the kill; make the file larger"
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    return len(list(parts.glob("chunk-*.pkl")))


def resume(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


@pytest.mark.parametrize("name, timing", [("out.csv", False), ("out.parquet", True)])
def test_sigkill_then_restart_equals_uninterrupted_run(deals, tmp_path, name, timing):
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    extra = () if timing else ("--no-timing",)
    killed_out = tmp_path / "killed" / name
    killed_out.parent.mkdir()
    rng = random.Random()
    delay = rng.uniform(0.0, 0.4)
    at_kill = kill_after_first_checkpoint(command(deals, killed_out, *extra), killed_out, delay)
    n_chunks = -(-N_DEALS // CHUNK)
    assert 1 <= at_kill < n_chunks, f"killed {delay:.3f} s after the first checkpoint with " \
                                    f"{at_kill} of {n_chunks} chunks done"
    assert not killed_out.exists()

    log = resume(command(deals, killed_out, *extra))
    # Only the chunks missing at the kill were computed again (a chunk may have been
    # finished between counting and the kill itself, hence >=).
    resumed = int(log.split(" from checkpoints")[0].rsplit(", ", 1)[1])
    assert resumed >= at_kill * CHUNK, log
    assert not parts_dir(killed_out).exists()

    reference = tmp_path / "reference" / name
    reference.parent.mkdir()
    settings = BatchSettings.create(contracts=CONTRACTS, declarers=DECLARERS, timing=timing)
    run_batch(plan_batch(deals, CHUNK), reference, settings)

    if timing:
        got, want = read_results(killed_out), read_results(reference)
        assert len(got) == N_DEALS * len(CONTRACTS) * len(DECLARERS)
        assert got["solve_ms"].notna().all()
        pd.testing.assert_frame_equal(got.drop(columns="solve_ms"),
                                      want.drop(columns="solve_ms"))
    else:
        assert killed_out.read_bytes() == reference.read_bytes()


def kill_at_checkpoint(cmd: list[str], out: Path, target: int, delay: float) -> int:
    """Start ``cmd``, SIGKILL it ``delay`` s after the ``target``-th chunk file exists
    (counting those of earlier runs), and return the chunk files at the kill."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parts = parts_dir(out)
    try:
        deadline = time.monotonic() + 60
        while len(list(parts.glob("chunk-*.pkl"))) < target:
            assert proc.poll() is None, f"the run ended before chunk {target}: " \
                                        f"{proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, f"chunk {target} not done within 60 s"
            time.sleep(0.002)
        time.sleep(delay)
        assert proc.poll() is None, "the run finished before the kill; make the file larger"
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    return len(list(parts.glob("chunk-*.pkl")))


def test_three_sigkills_at_random_points_give_the_bytes_of_one_run(tmp_path):
    """Killed three times, each at a random chunk and a random moment after it, then run
    to the end: the file is byte for byte the one of a run never interrupted.  Rows over
    the node budget are part of it, so their bounds survive the kills too."""
    n_deals, chunk = 40, 2
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, batch_deals.lopsided_records(n_deals, 23, "k3"))
    n_chunks = n_deals // chunk
    extra = ("--no-timing", "--node-limit", "400")
    out = tmp_path / "killed" / "out.csv"
    out.parent.mkdir()
    rng = random.Random()
    seen = 0
    for kill in range(3):
        # A target that leaves chunks for the later kills; the process's start-up (a
        # second or two) is always in the window, so some kills land before any work.
        target = rng.randint(seen, seen + (n_chunks - seen) // (4 - kill) - 1)
        seen = kill_at_checkpoint(command(deals, out, *extra), out, target,
                                  rng.uniform(0.0, 0.02))
        assert not out.exists() and seen < n_chunks
    log = resume(command(deals, out, *extra))
    assert "over the node budget" in log, log

    reference = tmp_path / "reference" / "out.csv"
    reference.parent.mkdir()
    settings = BatchSettings.create(contracts=CONTRACTS, declarers=DECLARERS, timing=False,
                                    node_limit=400)
    run_batch(plan_batch(deals, chunk), reference, settings)
    assert out.read_bytes() == reference.read_bytes()
    assert ",over_budget," in out.read_text()
