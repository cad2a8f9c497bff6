"""`tarock batch`: same output for every executor, resuming, refusing to mix runs, bad input.

The deals are lopsided on purpose: F holds the 16 highest tarocks (VII … Sküs), so with
M or R as declarer every search is tiny (tens to hundreds of nodes), yet the rows differ
from deal to deal (talon group, discard, card points).  That keeps the whole file fast
while the executors still have real, varied rows to agree on.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import batch_deals
import pandas as pd
import pytest
from batchtools import Crash, CrashingExecutor
from click.testing import CliRunner
from tarock_cli.main import cli

from tarock_solver.analysis import dd_table, read_results, write_results
from tarock_solver.batch import (
    BatchError,
    BatchSettings,
    Checkpoint,
    CheckpointError,
    ChunkTask,
    SerialExecutor,
    measure_batch_throughput,
    parts_dir,
    plan_batch,
    run_batch,
)
from tarock_solver.batch.merge import frame_to_csv, frame_to_jsonl, has_pyarrow
from tarock_solver.cards import mask_of
from tarock_solver.checkpoint import atomic_write
from tarock_solver.deal_files import DealRecord, write_deals
from tarock_solver.rules import load_rules

CONTRACTS = ("three", "one", "solo")
DECLARERS = ("M", "R")


def lopsided_records(count: int, seed: int) -> list[DealRecord]:
    return batch_deals.lopsided_records(count, seed, f"lop-{seed}")


def settings(**changes) -> BatchSettings:
    base = BatchSettings.create(contracts=CONTRACTS, declarers=DECLARERS, timing=False)
    return dataclasses.replace(base, **changes)


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "deals.jsonl"
    write_deals(path, lopsided_records(10, seed=3))
    return path


@pytest.fixture(scope="module")
def serial_csv(deals, tmp_path_factory) -> bytes:
    """The reference: a serial run, chunk size 3 (so the last chunk is short)."""
    out = tmp_path_factory.mktemp("serial") / "out.csv"
    summary = run_batch(plan_batch(deals, 3), out, settings())
    assert summary.failed == 0 and summary.records == 10
    return out.read_bytes()


def direct_frame(records: list[DealRecord]) -> pd.DataFrame:
    """The rows computed without the batch machinery, straight from the library."""
    rules = load_rules("dummett")
    frames = [dd_table(r.deal, rules, declarers=DECLARERS, contracts=CONTRACTS)
              .results_frame(deal_id=r.id, seed=r.seed) for r in records]
    frame = pd.concat(frames, ignore_index=True)
    frame["solve_ms"] = pd.array([pd.NA] * len(frame), dtype="Float64")
    return frame


# ----------------------------------------------------------------------------- output


def test_serial_rows_equal_the_library_rows(deals, serial_csv):
    """Every deal × declarer × contract, in input order, with the library's values."""
    got = read_results(_write_tmp(serial_csv, deals))
    want = direct_frame(lopsided_records(10, seed=3))
    assert len(got) == 10 * len(DECLARERS) * len(CONTRACTS)
    pd.testing.assert_frame_equal(got.drop(columns="solve_ms"), want.drop(columns="solve_ms"))
    assert got["solve_ms"].isna().all()


def _write_tmp(data: bytes, near: Path) -> Path:
    path = near.with_name("reference-copy.csv")
    path.write_bytes(data)
    return path


def test_writer_bytes_match_write_results(tmp_path):
    """The streaming writer formats cells exactly like analysis.results.write_results."""
    frame = direct_frame(lopsided_records(3, seed=9))
    frame.loc[1, "seed"] = pd.NA
    frame.loc[0, "solve_ms"] = 1.25
    for suffix, text in ((".csv", frame_to_csv(frame, header=True)),
                         (".jsonl", frame_to_jsonl(frame))):
        path = tmp_path / f"lib{suffix}"
        write_results(frame, path)
        assert path.read_text(encoding="utf-8") == text


def test_pool_of_two_matches_serial(deals, serial_csv, tmp_path):
    out = tmp_path / "pool.csv"
    summary = run_batch(plan_batch(deals, 3), out, settings(), jobs=2)
    assert "2 worker processes" in summary.executor
    assert out.read_bytes() == serial_csv


def test_dask_local_cluster_matches_serial(deals, serial_csv, tmp_path):
    pytest.importorskip("distributed", reason='Dask is an optional extra: pip install '
                                              '"tarock-solver[dask]"')
    out = tmp_path / "dask.csv"
    summary = run_batch(plan_batch(deals, 3), out, settings(), dask_local=2)
    assert "Dask" in summary.executor
    assert out.read_bytes() == serial_csv


def test_parquet_and_jsonl_hold_the_same_rows(deals, serial_csv, tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    reference = read_results(_write_tmp(serial_csv, tmp_path / "x"))
    for name in ("out.parquet", "out.jsonl"):
        out = tmp_path / name
        run_batch(plan_batch(deals, 4), out, settings())
        pd.testing.assert_frame_equal(read_results(out), reference)
    schema = pq.read_schema(tmp_path / "out.parquet")
    assert str(schema.field("declarer").type).startswith("dictionary")
    assert str(schema.field("contract").type).startswith("dictionary")


def test_chunk_size_does_not_change_the_output(deals, serial_csv, tmp_path):
    out = tmp_path / "one-per-chunk.csv"
    run_batch(plan_batch(deals, 1), out, settings())
    assert out.read_bytes() == serial_csv


# ----------------------------------------------------------------------------- resuming




class RecordingExecutor(SerialExecutor):
    def __init__(self) -> None:
        super().__init__()
        self.indexes: list[int] = []

    def run(self, tasks, settings):
        def seen(tasks):
            for task in tasks:
                assert isinstance(task, ChunkTask)
                self.indexes.append(task.index)
                yield task
        yield from super().run(seen(tasks), settings)


def test_resume_computes_only_missing_chunks(deals, serial_csv, tmp_path):
    out = tmp_path / "out.csv"
    plan = plan_batch(deals, 3)  # chunks of 3, 3, 3, 1
    with pytest.raises(Crash):
        run_batch(plan, out, settings(), executor=CrashingExecutor(after=2))
    assert not out.exists()
    assert sorted(p.name for p in parts_dir(out).glob("chunk-*")) == [
        "chunk-000000.pkl", "chunk-000001.pkl"]
    recorder = RecordingExecutor()
    summary = run_batch(plan, out, settings(), executor=recorder)
    assert recorder.indexes == [2, 3]
    assert (summary.resumed, summary.analysed) == (6, 4)
    assert out.read_bytes() == serial_csv
    assert not parts_dir(out).exists()


def test_other_arguments_are_refused_and_restart_discards(deals, serial_csv, tmp_path):
    out = tmp_path / "out.csv"
    with pytest.raises(Crash):
        run_batch(plan_batch(deals, 3), out, settings(), executor=CrashingExecutor(after=1))
    with pytest.raises(CheckpointError, match=r"--contract differs \(three,one,solo then, solo now\)"):
        run_batch(plan_batch(deals, 3), out, settings(contracts=("solo",)))
    with pytest.raises(CheckpointError, match=r"--chunk-size differs \(3 then, 2 now\)"):
        run_batch(plan_batch(deals, 2), out, settings())
    edited = tmp_path / "deals.jsonl"
    edited.write_bytes(deals.read_bytes() + b"# a comment changes the file\n")
    with pytest.raises(CheckpointError, match="input file has changed"):
        run_batch(plan_batch(edited, 3), out, settings())
    assert len(list(parts_dir(out).glob("chunk-*"))) == 1  # nothing was touched
    recorder = RecordingExecutor()
    run_batch(plan_batch(edited, 3), out, settings(), executor=recorder, restart=True)
    assert recorder.indexes == [0, 1, 2, 3]
    assert out.read_bytes() == serial_csv


def test_checkpoint_directory_is_locked_while_a_run_uses_it(tmp_path):
    manifest = Checkpoint.make_manifest(input_path=tmp_path / "in.jsonl", input_sha256="0" * 64,
                                        chunk_size=4, chunks=1, records=1, settings={})
    with Checkpoint.open(tmp_path / "out.csv.parts", manifest):
        with pytest.raises(CheckpointError, match="in use by another running"):
            Checkpoint.open(tmp_path / "out.csv.parts", manifest)
    Checkpoint.open(tmp_path / "out.csv.parts", manifest).close()  # free again


def test_atomic_write_leaves_old_file_on_failure(tmp_path):
    path = tmp_path / "file.csv"
    path.write_text("old\n")

    def half(handle):
        handle.write(b"new, incomplete")
        raise Crash

    with pytest.raises(Crash):
        atomic_write(path, half)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["file.csv"]


def test_unknown_output_type_fails_before_any_work(deals, tmp_path):
    with pytest.raises(BatchError, match=r"unknown output type \.txt"):
        run_batch(plan_batch(deals, 3), tmp_path / "out.txt", settings())
    assert not (tmp_path / "out.txt.parts").exists()


def test_unknown_contract_is_a_clear_error(deals, tmp_path):
    from tarock_solver.errors import RulesError

    with pytest.raises(RulesError, match='unknown contract "quadruple"'):
        run_batch(plan_batch(deals, 3), tmp_path / "out.csv", settings(contracts=("quadruple",)))


def test_node_limit_keeps_every_finished_row_and_marks_the_rest(tmp_path):
    path = tmp_path / "deals.jsonl"
    write_deals(path, lopsided_records(4, seed=5))
    out = tmp_path / "out.csv"
    # 300 nodes: Solo by M is settled at once, Three (and Lower, its twin) by M is not.
    limited = settings(declarers=("F", "M"), contracts=("three", "lower", "solo"),
                       node_limit=300)
    summary = run_batch(plan_batch(path, 2), out, limited)
    assert summary.analysis_failures == 0 and summary.rows == 4 * 2 * 3
    assert summary.open_rows == 8 and summary.parts_kept
    got = read_results(out)
    open_rows = got[got["status"] == "over_budget"]
    assert sorted(set(zip(open_rows["declarer"], open_rows["contract"], strict=True))) == [
        ("M", "lower"), ("M", "three")]
    # Bounds only: no value, no score, never a midpoint.
    assert open_rows["points_thirds"].isna().all() and open_rows["net_declarer"].isna().all()
    assert (open_rows["points_lower_thirds"] < open_rows["points_upper_thirds"]).all()
    exact = got[got["status"] == "exact"]
    assert (exact["points_lower_thirds"] == exact["points_thirds"]).all()

    reference = tmp_path / "reference.csv"
    run_batch(plan_batch(path, 2), reference, settings(declarers=("F", "M"),
                                                       contracts=("three", "lower", "solo")))
    want = read_results(reference)
    for bounds, value in zip(open_rows[["points_lower_thirds", "points_upper_thirds"]].values,
                             want.loc[open_rows.index, "points_thirds"], strict=True):
        assert bounds[0] <= value <= bounds[1]

    # A re-run with a larger budget solves the open rows and nothing else.
    recorder = RecordingExecutor()
    again = run_batch(plan_batch(path, 2), out, dataclasses.replace(limited, node_limit=None),
                      executor=recorder)
    assert sorted(recorder.indexes) == [0, 1]  # the chunks holding open rows
    assert (again.resumed, again.resolved, again.open_rows) == (0, 4, 0)
    assert not again.parts_kept and not parts_dir(out).exists()
    pd.testing.assert_frame_equal(read_results(out).drop(columns="nodes"),
                                  want.drop(columns="nodes"))


def test_a_larger_budget_opens_only_the_chunks_with_open_rows(tmp_path):
    path = tmp_path / "deals.jsonl"
    write_deals(path, lopsided_records(4, seed=5))
    base = settings(declarers=("M",), contracts=("three",))
    full = tmp_path / "full.csv"
    run_batch(plan_batch(path, 2), full, base)
    nodes = read_results(full)["nodes"].tolist()  # one row per deal
    # A budget that settles chunk 0 (deals 0 and 1) but not all of chunk 1.
    limit = max(nodes[:2])
    assert max(nodes[2:]) > limit, nodes
    out = tmp_path / "out.csv"
    first = run_batch(plan_batch(path, 2), out, dataclasses.replace(base, node_limit=limit))
    assert first.open_rows == sum(n > limit for n in nodes[2:])
    recorder = RecordingExecutor()
    # The same budget again has nothing to solve; a smaller one neither.
    for same in (limit, limit // 2):
        again = run_batch(plan_batch(path, 2), out, dataclasses.replace(base, node_limit=same),
                          executor=recorder)
        assert recorder.indexes == [] and again.open_rows == first.open_rows
    run_batch(plan_batch(path, 2), out, dataclasses.replace(base, node_limit=max(nodes)),
              executor=recorder)
    assert recorder.indexes == [1]
    assert out.read_bytes() == full.read_bytes()


# ----------------------------------------------------------------------------- bad input


BAD_LINES = [
    '{"id":"cut","deal":"F:1,2,3"}',                      # line 3: deal notation
    "this is not json",                                    # line 4
    '{"id":"half","deal":"F:22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7.... - -/?"}',
    '{"id":"lop-7-0","deal":"F:1,2"}',                     # line 6: duplicate id + bad deal
]


def test_bad_records_are_listed_and_the_run_goes_on(tmp_path):
    good = lopsided_records(3, seed=7)
    buffer = tmp_path / "good.jsonl"
    write_deals(buffer, good)
    lines = buffer.read_text().splitlines()
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines[:2] + BAD_LINES + lines[2:]) + "\n")
    out = tmp_path / "out.csv"
    args = ["batch", str(path), "-o", str(out), "--contract", "solo", "--declarer", "M",
            "--no-progress", "--no-timing"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    errors = pd.read_csv(tmp_path / "out.csv.errors.csv", dtype=str, keep_default_na=False)
    assert list(errors.columns) == ["line", "id", "reason"]
    assert errors["line"].tolist() == ["3", "4", "5", "6"]
    assert errors["id"].tolist() == ["cut", "", "half", "lop-7-0"]
    assert "missing \"/\"" in errors["reason"][0]
    assert "not valid JSON" in errors["reason"][1]
    assert "needs a complete deal" in errors["reason"][2]
    assert "used twice" in errors["reason"][3]
    for line in (3, 4, 5, 6):
        assert f"mixed.jsonl:{line}" in result.stderr
    assert "4 records failed (3 unreadable, 1 not analysed)" in result.stderr
    assert read_results(out)["deal_id"].tolist() == [r.id for r in good]

    strict = CliRunner().invoke(cli, [*args, "--strict"])
    assert strict.exit_code == 3, strict.output


def test_file_without_good_records_gives_a_valid_empty_output(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("garbage\n")
    for name in ("out.csv", "out.jsonl") + (("out.parquet",) if has_pyarrow() else ()):
        summary = run_batch(plan_batch(path, 3), tmp_path / name, settings())
        assert (summary.records, summary.bad_lines, summary.rows) == (0, 1, 0)
        frame = read_results(tmp_path / name)
        assert frame.empty and list(frame.columns)[:3] == ["schema", "deal_id", "rules"]


def test_bad_input_file_is_an_error_with_status_2(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text("x\n")
    proc = subprocess.run([sys.executable, "-m", "tarock_cli", "batch", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "unknown deal file type .txt" in proc.stderr
    assert "Traceback" not in proc.stderr


# ----------------------------------------------------------------------------- throughput


def test_measure_batch_throughput_reports_a_real_run():
    result = measure_batch_throughput(lopsided_records(4, seed=2), 1, contracts=["solo"],
                                      declarers=["M"])
    assert result["deals"] == 4 and result["rows"] == 4 and result["failed"] == 0
    assert result["deals_per_second"] > 0 and result["seconds"] > 0
    assert result["jobs"] == 1


# ----------------------------------------------------------------------------- advise mode


def test_advise_mode_rows_equal_a_direct_advice(tmp_path):
    from tarock_solver.batch import available_modes

    if "advise" not in available_modes():
        pytest.skip("the advise engine is not installed")
    from tarock_solver.advise import AdviceLimit, AdviceRequest, advise

    path = tmp_path / "hands.jsonl"
    path.write_text('{"id":"h1","deal":"F:22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7.... '
                    '- -/?"}\n')
    out = tmp_path / "advice.csv"
    run_batch(plan_batch(path, 4), out, BatchSettings.create(
        mode="advise", contracts=["solo"], samples=2, seed=4))
    got = pd.read_csv(out, keep_default_na=False, dtype=str)
    want = advise(AdviceRequest(hand=mask_of(range(6, 22)), seat=0, contracts=("solo",),
                                limit=AdviceLimit(None, 2), seed=4, deal_id="h1")).table
    assert got["seat"].unique().tolist() == ["F"]
    assert got["deal_id"].unique().tolist() == ["h1"]
    assert got["option"].tolist() == want["option"].tolist()
    assert [float(v) for v in got["mean_net"]] == want["mean_net"].tolist()


def test_rules_are_loaded_once_per_process_and_settings_pickle():
    import pickle

    from tarock_solver.batch.records import record_rules

    run = BatchSettings.create(rules="beck", opts={"contra_step_before": "forbidden"})
    first, second = lopsided_records(2, seed=5)
    rules = record_rules(first, run)
    assert record_rules(second, run) is rules
    assert rules == load_rules("beck", {"contra_step_before": "forbidden"})
    own = dataclasses.replace(second, options={"partner_capture": "fail"})
    assert record_rules(own, run) == load_rules(
        "beck", {"contra_step_before": "forbidden", "partner_capture": "fail"})
    # Settings travel to spawned workers and Dask; the Rules they load pickle too.
    assert pickle.loads(pickle.dumps(run)) == run
    assert pickle.loads(pickle.dumps(rules)) == rules
