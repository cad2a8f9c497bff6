"""`tarock bench`: positions, statistics, the quick end-to-end run, JSON and --compare."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from clitools import run
from tarock_cli.main import main

from tarock_solver.bench import (
    BenchConfig,
    bench_positions,
    compare_reports,
    find_bench_deals,
    format_report,
    load_bench_deals,
    load_report,
    run_bench,
)
from tarock_solver.bench.stats import timing_summary
from tarock_solver.cards import popcount
from tarock_solver.errors import FileFormatError
from tarock_solver.solver import CardPointSearch, Position

# ----------------------------------------------------------------------------- positions


def test_shipped_deals_are_found_and_complete():
    path = find_bench_deals()
    assert path.name == "bench_deals.jsonl"
    records = load_bench_deals()
    assert len(records) >= 200
    assert len({r.id for r in records}) == len(records)
    with pytest.raises(FileFormatError, match="no such deal file"):
        find_bench_deals("/nonexistent/deals.jsonl")
    with pytest.raises(FileFormatError):
        load_bench_deals(count=0)


def test_positions_are_reproducible_nested_and_sized():
    records = load_bench_deals(count=4)
    levels = (8, 10, 12, 14, 16)
    pos = bench_positions(records, levels)
    assert pos == bench_positions(records, levels)
    # position i does not depend on how many deals are benchmarked
    assert bench_positions(records[:2], levels)[10] == pos[10][:2]
    for i, record in enumerate(records):
        full = pos[16][i]
        assert full.hands == record.deal.hands and full.leader == 0
        assert full.declarer == i % 3
        previous = full.hands
        for t in (14, 12, 10, 8):
            p = pos[t][i]
            assert p.declarer == i % 3 and p.tricks == t
            assert [popcount(h) for h in p.hands] == [t, t, t]
            # the shorter position continues the same line of play
            assert all(h & ~old == 0 for h, old in zip(p.hands, previous, strict=True))
            previous = p.hands
    other_seed = bench_positions(records, (8,), seed=1)
    assert other_seed[8] != pos[8]
    with pytest.raises(ValueError):
        bench_positions(records, (17,))


def test_timing_summary_counts_over_budget_apart():
    recs = [{"ms": ms, "nodes": 1000, "over_budget": False} for ms in (4.0, 1.0, 3.0, 2.0)]
    recs.append({"ms": 500.0, "nodes": 4000, "over_budget": True})
    s = timing_summary(recs)
    assert (s["positions"], s["solved"], s["over_budget"]) == (5, 4, 1)
    assert s["median_ms"] == 2.5 and s["max_ms"] == 4.0 and s["mean_ms"] == 2.5
    assert s["p90_ms"] == pytest.approx(3.7)
    assert s["total_nodes"] == 8000
    assert s["nodes_per_s"] == pytest.approx(8000 / 0.51)
    empty = timing_summary([{"ms": 9.0, "nodes": 5, "over_budget": True}])
    assert empty["median_ms"] is None and empty["solved"] == 0


# ----------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def quick_json(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bench") / "quick.json"
    code = main_code(["bench", "--quick", "--no-cold", "--deals", "2", "--json", str(path)])
    assert code == 0
    return path


def main_code(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def test_quick_run_writes_valid_json(quick_json):
    doc = load_report(quick_json)
    json.dumps(doc)  # plain JSON all the way down
    assert doc["config"]["quick"] is True and doc["config"]["deals"] == 2
    assert set(doc["exact"]) == {"8", "12", "16"}
    for level in doc["exact"].values():
        assert level["positions"] == 2
        assert level["solved"] + level["over_budget"] == 2
    assert doc["null_window"]["target"] == 36 and doc["null_window"]["tricks"] == 16
    assert doc["machine"]["logical_cores"] >= 1 and doc["machine"]["cpu"]
    assert doc["dd_table"]["deals"] == 1 and doc["dd_table"]["rows"] == 15
    assert doc["threads"]["null_window"]["threads"] >= 1
    for section in doc["threads"]["exact"].values():
        assert section.get("mismatches", []) == []
    parallel_tables = doc["threads"]["dd_table"]
    assert parallel_tables["deals"] == 1 and parallel_tables["mismatches"] == []
    assert parallel_tables["wall_ms"] > 0
    # every recorded value is the solver's: re-solve the finished positions here
    records = load_bench_deals(count=2)
    positions = bench_positions(records, (8, 12, 16))
    search = CardPointSearch()
    checked = 0
    for r in doc["positions"]:
        if r["over_budget"]:
            assert r["value"] is None
            continue
        p = next(p for p in positions[r["tricks"]] if p.deal_id == r["deal"])
        pos = Position(p.hands, p.leader, p.declarer)
        if r["kind"] == "exact":
            assert search.value(pos).value == r["value"]
        else:
            assert search.reaches(pos, 36).at_least(36) is r["value"]
        checked += 1
    assert checked >= 2


def test_quick_run_prints_machine_and_table(capsys, quick_json):
    code, out, err = run(capsys, "bench", "--quick", "--no-cold", "--deals", "2", "--threads",
                         "1", "--table-deals", "0", "--tricks", "8", "--compare",
                         str(quick_json))
    assert code == 0, err
    assert "Machine:" in out and "logical cores" in out
    assert "Median ms" in out and "Nodes/s" in out
    assert "All threads: not run" in out
    assert "Old:" in out and "New/old" in out
    assert "results solved by both runs agree" in out


def test_compare_detects_value_changes(capsys, quick_json, tmp_path):
    old = load_report(quick_json)
    same = compare_reports(old, copy.deepcopy(old))
    assert same.mismatches == [] and same.comparable
    assert any("exact 8 median_ms" in line and "1.00" in line for line in same.lines)

    new = copy.deepcopy(old)
    solved = next(r for r in new["positions"] if not r["over_budget"] and r["kind"] == "exact")
    solved["value"] += 1
    new["config"]["node_limit"] *= 2
    for level in new["exact"].values():
        if level["median_ms"] is not None:
            level["median_ms"] *= 2
    new_path = tmp_path / "new.json"
    new_path.write_text(json.dumps(new), encoding="utf-8")
    code, out, err = run(capsys, "bench", "--compare", str(quick_json), "--against",
                         str(new_path))
    assert code == 1
    assert "VALUE MISMATCH in 1" in out
    assert "node_limit" in out  # the runs are flagged as unlike
    assert any("exact 8 median_ms" in line and "2.00" in line for line in out.splitlines())


def test_repeat_keeps_nodes_and_values_and_the_fastest_time():
    once = run_bench(BenchConfig(deals=2, tricks=(4,), node_limit=100_000, threads=1,
                                 table_deals=0, cold=False))
    thrice = run_bench(BenchConfig(deals=2, tricks=(4,), node_limit=100_000, threads=1,
                                   table_deals=0, cold=False, repeat=3))
    assert thrice["config"]["repeat"] == 3
    a = [(r["deal"], r["kind"], r["nodes"], r["value"]) for r in once["positions"]]
    b = [(r["deal"], r["kind"], r["nodes"], r["value"]) for r in thrice["positions"]]
    assert a == b
    assert any("fastest of 3 runs" in line for line in format_report(thrice))


def test_cold_and_cli_start_in_fresh_processes():
    doc = run_bench(BenchConfig(deals=1, tricks=(3,), node_limit=100_000, threads=1,
                                table_deals=0, cold_runs=1))
    cold = doc["cold_start"]
    assert "error" not in cold, cold
    run1 = cold["runs"][0]
    assert run1["value"] == run1["again"]
    assert run1["first_call_ms"] >= run1["warm_call_ms"] > 0
    assert run1["process_ms"] > run1["import_ms"]
    cli = doc["cli_start"]
    assert "error" not in cli, cli
    assert cli["runs"][0]["process_ms"] > cli["warm_solve_ms"] >= 0
    assert cli["startup_ms"] == pytest.approx(cli["runs"][0]["process_ms"]
                                              - cli["warm_solve_ms"])


@pytest.mark.parametrize("args,needle", [
    (["--threads", "0"], "--threads"),
    (["--tricks", "8,17"], "--tricks"),
    (["--compare", "/nonexistent/old.json"], "old.json"),
    (["--deals-file", "/nonexistent.jsonl"], "nonexistent"),
])
def test_bad_options_exit_2(capsys, args, needle):
    code, out, err = run(capsys, "bench", *args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_against_needs_compare_and_a_bench_file(capsys, tmp_path, quick_json):
    code, out, err = run(capsys, "bench", "--against", str(quick_json))
    assert code == 2 and "--against needs --compare" in err
    not_bench = tmp_path / "x.json"
    not_bench.write_text('{"a": 1}', encoding="utf-8")
    code, out, err = run(capsys, "bench", "--compare", str(not_bench), "--against",
                         str(quick_json))
    assert code == 2 and "not a benchmark result" in err


def test_batch_throughput_reports_both_job_counts(capsys, tmp_path):
    out = tmp_path / "batch.json"
    code, text, err = run(capsys, "bench", "--batch", "--deals", "1", "--node-limit", "20000",
                          "--json", str(out))
    assert code == 0, err
    runs = json.loads(out.read_text())["batch"]
    assert runs[0]["jobs"] == 1
    for r in runs:
        assert r["deals"] == 1
        # a tiny node budget cannot finish a whole DD table, yet no row is lost: the rows
        # over budget are kept with their bounds, so the deal does not fail
        assert r["failed"] == 0 and r["rows"] == 15 and r["node_limit"] == 20000
    assert "deals/s" in text and "Scaling" in text or len(runs) == 1
