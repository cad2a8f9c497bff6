"""Fail early, lose nothing: output paths, time limits and the small lies of the CLI.

Every case runs through the command line (in-process, as the console script does).
Where a command would start long work, the work function is replaced by one that
fails the test, so "refused before any work" is checked, not assumed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import batch_deals
import pytest
from clitools import run

from tarock_solver.analysis import empty_results, write_results
from tarock_solver.deal_files import write_deals

ROOT = Path(__file__).resolve().parent.parent
HAND = "21,20,16,15,7,5,2,1.K.KQ.K97.Q9"


def _no_work(*args, **kwargs):
    raise AssertionError("the command started its work before checking its input")


@pytest.fixture
def no_advice(monkeypatch):
    monkeypatch.setattr("tarock_cli.commands.advise.advise", _no_work)


@pytest.fixture
def no_batch(monkeypatch):
    monkeypatch.setattr("tarock_cli.commands.batch.run_batch", _no_work)


@pytest.fixture
def no_bench(monkeypatch):
    monkeypatch.setattr("tarock_solver.bench.run_bench", _no_work)
    monkeypatch.setattr("tarock_solver.bench.advise.run_advise_bench", _no_work)


@pytest.fixture
def deals(tmp_path) -> Path:
    path = tmp_path / "deals.jsonl"
    write_deals(path, batch_deals.lopsided_records(2, seed=5, prefix="d"))
    return path


@pytest.fixture
def results(tmp_path) -> Path:
    path = tmp_path / "results.csv"
    write_results(empty_results(), path)
    return path


def _bad_outputs(tmp_path: Path, name: str) -> list[tuple[str, str]]:
    """Unwritable paths for a file called ``name`` and the reason each must name."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    cases = [(str(tmp_path / "no-such-dir" / name), "does not exist"),
             (str(a_file / name), "is not a directory"),
             (str(tmp_path), "is a directory")]
    if Path("/proc/self").is_dir():  # Linux: a directory nobody can create files in
        cases.append((f"/proc/{name}", "cannot write files in /proc"))
    return cases


def _assert_refused(code: int, err: str, path: str, reason: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    error_lines = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1, err
    assert path in error_lines[0] and reason in error_lines[0], err


# ----------------------------------------------------------------------------- output paths


@pytest.mark.parametrize("option, name", [("--csv", "advice.csv"), ("--plot", "points.png")])
def test_advise_refuses_an_unwritable_output_before_sampling(capsys, tmp_path, no_advice,
                                                             option, name):
    pytest.importorskip("matplotlib")
    for path, reason in _bad_outputs(tmp_path, name):
        code, _, err = run(capsys, "advise", HAND, option, path, "--no-progress")
        _assert_refused(code, err, path, reason)


def test_batch_refuses_an_unwritable_output_before_any_work(capsys, tmp_path, deals, no_batch):
    for path, reason in _bad_outputs(tmp_path, "out.csv"):
        code, _, err = run(capsys, "batch", str(deals), "-o", path, "--no-progress")
        _assert_refused(code, err, path, reason)


def test_batch_no_longer_creates_missing_directories(capsys, tmp_path, deals):
    out = tmp_path / "new" / "dir" / "out.csv"
    code, _, err = run(capsys, "batch", str(deals), "-o", str(out), "--no-progress")
    _assert_refused(code, err, str(out), "does not exist")
    assert not (tmp_path / "new").exists()
    # The same rule as `deal -o`.
    code, _, err = run(capsys, "deal", "--seed", "1", "-o", str(out))
    _assert_refused(code, err, str(out), "does not exist")


def test_stats_refuses_an_unwritable_csv_or_plot(capsys, tmp_path, results):
    for option, name in (("--csv", "s.csv"), ("--plot", "s.png")):
        for path, reason in _bad_outputs(tmp_path, name):
            code, _, err = run(capsys, "stats", str(results), option, path)
            _assert_refused(code, err, path, reason)


def test_deal_and_bench_refuse_unwritable_outputs(capsys, tmp_path, no_bench):
    for path, reason in _bad_outputs(tmp_path, "x.jsonl"):
        code, _, err = run(capsys, "deal", "--seed", "1", "-o", path)
        _assert_refused(code, err, path, reason)
    for path, reason in _bad_outputs(tmp_path, "bench.json"):
        code, _, err = run(capsys, "bench", "--quick", "--json", path)
        _assert_refused(code, err, path, reason)


def test_output_checks_leave_nothing_behind(capsys, tmp_path):
    out = tmp_path / "deals.csv"
    code, _, _ = run(capsys, "deal", "--seed", "3", "--count", "2", "-o", str(out))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.csv"]


@pytest.mark.parametrize("args, reason", [
    (["--plot", "points.xlsx"], "file type .xlsx is not written here"),
    (["--plot", "points"], "a name without a file type"),
    (["--csv", "advice.txt"], "file type .txt"),
])
def test_advise_refuses_output_types_it_cannot_write(capsys, tmp_path, no_advice, args, reason):
    pytest.importorskip("matplotlib")
    option, name = args
    code, _, err = run(capsys, "advise", HAND, option, str(tmp_path / name), "--no-progress")
    _assert_refused(code, err, name, reason)


# ----------------------------------------------------------------------------- deal -o


def test_deal_refuses_a_file_type_it_does_not_write(capsys, tmp_path):
    out = tmp_path / "deals.xlsx"
    code, _, err = run(capsys, "deal", "--seed", "1", "-o", str(out))
    _assert_refused(code, err, str(out), "file type .xlsx")
    assert not out.exists()


def test_deal_writes_text_to_txt_and_a_bare_name_with_format(capsys, tmp_path):
    code, _, _ = run(capsys, "deal", "--seed", "1", "-o", str(tmp_path / "deals.txt"))
    assert code == 0 and (tmp_path / "deals.txt").read_text().startswith("Seed 1:")
    code, _, _ = run(capsys, "deal", "--seed", "1", "--format", "jsonl",
                     "-o", str(tmp_path / "deals"))
    assert code == 0 and json.loads((tmp_path / "deals").read_text())["id"] == "deal-1-0"
    code, _, err = run(capsys, "deal", "--seed", "1", "-o", str(tmp_path / "bare"))
    _assert_refused(code, err, "bare", "a name without a file type")


# ----------------------------------------------------------------------------- time limits


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "-1", "0", "soon"])
def test_advise_time_limit_must_be_a_finite_positive_number(capsys, no_advice, value):
    code, _, err = run(capsys, "advise", HAND, "--time-limit", value, "--no-progress")
    assert code == 2 and "--time-limit" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_bench_time_limit_must_be_finite(capsys, no_bench, value):
    code, _, err = run(capsys, "bench", "--advise", "--time-limit", value)
    assert code == 2 and "--time-limit" in err


def test_seconds_type_reads_numbers_and_zero_only_where_it_means_something():
    import click
    from tarock_cli.commands._params import Seconds

    assert Seconds().convert("2.5", None, None) == 2.5
    assert Seconds(zero_means="skip it").convert("0", None, None) == 0.0
    with pytest.raises(click.BadParameter, match="more than 0"):
        Seconds().convert("0", None, None)
    with pytest.raises(click.BadParameter, match="finite"):
        Seconds().convert("nan", None, None)


# ----------------------------------------------------------------------------- small lies


@pytest.mark.parametrize("hand", ["", "   "])
def test_advise_refuses_an_empty_hand_instead_of_the_demo(capsys, no_advice, hand):
    code, out, err = run(capsys, "advise", hand, "--no-progress")
    assert code == 2 and "empty hand: expected 16 cards" in err and out == ""


def test_show_and_solve_name_a_missing_example(capsys):
    for command in ("show", "solve"):
        code, _, err = run(capsys, command, "example-9")
        assert code == 2 and 'no such example "example-9"' in err, err
        assert 'missing "/"' not in err
    code, out, _ = run(capsys, "show", "Example-2")
    assert code == 0 and "example-2" in out


def test_show_refuses_an_empty_deal_and_an_empty_file(capsys, tmp_path):
    code, _, err = run(capsys, "show", "")
    assert code == 2 and "empty deal" in err
    empty = tmp_path / "none.jsonl"
    empty.write_text("# only a comment\n")
    code, _, err = run(capsys, "show", str(empty))
    assert code == 2 and "holds no deal" in err


def test_a_truncated_jsonl_line_is_reported_plainly(capsys, tmp_path):
    good = batch_deals.lopsided_records(1, seed=5, prefix="t")
    path = tmp_path / "deals.jsonl"
    write_deals(path, good)
    path.write_text(path.read_text() + '{"id": "cut", "deal": "F:22,21\n')
    code, _, err = run(capsys, "batch", str(path), "-o", str(tmp_path / "out.csv"),
                       "--contract", "solo", "--declarer", "M", "--no-progress")
    assert code == 0, err
    assert "not valid JSON (unterminated string starting at column 23)" in err
    assert "at at" not in err
    # "1 deals" as a count, not inside a rate such as "18.31 deals/s"
    assert "Done: 1 deal ok," in err and not re.search(r"(?<![\d.])1 deals(?!/s)", err)


def test_score_reports_bad_json_without_a_doubled_at(capsys, tmp_path):
    path = tmp_path / "outcome.json"
    path.write_text('{"contract": "two", "points": "4')
    code, _, err = run(capsys, "score", "--json-in", str(path))
    assert code == 2 and "unterminated string starting at column" in err and "at at" not in err
    path.write_bytes(b'{"contract": "\xff"}')
    code, _, err = run(capsys, "score", "--json-in", str(path))
    assert code == 2 and "not UTF-8" in err and "Traceback" not in err


def test_ascii_output_is_ascii(capsys, tmp_path, results):
    commands = [["show", "example-1"], ["deal", "--seed", "4"], ["rules", "beck"],
                ["score", "--contract", "two", "--points", "45", "--announce", "absolut"],
                ["solve", "example-1", "--estimate-only"], ["stats", str(results)]]
    for command in commands:
        code, out, _ = run(capsys, "--ascii", *command)
        assert code == 0, command
        assert out.isascii(), (command, sorted({c for c in out if not c.isascii()}))


def test_the_shared_ascii_spelling_covers_the_advice_symbols():
    from tarock_cli.commands._text import plain

    # `tarock advise` prints its tables through this helper.
    assert plain("41% ± 5 … ≈ 3 → solo", True) == "41% +/- 5 ... ~ 3 -> solo"
    assert plain("± stays", False) == "± stays"


# ----------------------------------------------------------------------------- shipped files


def test_the_shipped_advice_hands_are_accepted_by_batch_advise(capsys, tmp_path, monkeypatch):
    from tarock_solver.batch import available_modes

    if "advise" not in available_modes():
        pytest.skip("the advise engine is not installed")
    seen = []

    def fake_advice(record, settings):
        from tarock_solver.batch.advise_adapter import empty

        seen.append((record.id, record.deal.own_seat()))
        return empty(settings)

    monkeypatch.setattr("tarock_solver.batch.advise_adapter.analyse", fake_advice)
    shipped = ROOT / "tarock_solver" / "data" / "advise_hands.jsonl"
    code, _, err = run(capsys, "batch", str(shipped), "--mode", "advise", "--strict",
                       "-o", str(tmp_path / "advice.csv"), "--no-progress")
    assert code == 0, err
    assert "Warning" not in err and "0 failed" in err
    lines = [json.loads(line) for line in shipped.read_text().splitlines()]
    assert seen == [(obj["id"], "FMR".index(obj["seat"])) for obj in lines]


def test_hand_records_round_trip_and_are_checked(tmp_path):
    from tarock_solver.deal_files import read_deals

    shipped = read_deals(ROOT / "tarock_solver" / "data" / "advise_hands.jsonl")
    copy = tmp_path / "hands.jsonl"
    write_deals(copy, shipped)
    assert read_deals(copy) == shipped
    bad = tmp_path / "bad.jsonl"
    lines = [{"hand": "T21 T20", "seat": "M"}, {"hand": HAND, "seat": "N"}, {"seat": "F"},
             {"hand": HAND, "deal": "F:- - -/?"}]
    bad.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    records, errors = read_deals(bad, strict=False)
    assert records == []
    reasons = [" ".join(e.messages) for e in errors]
    assert "hand M has 2 cards" in reasons[0]
    assert '"seat" "N" is not a seat' in reasons[1]
    assert '"seat" needs "hand"' in reasons[2]
    assert "not both" in reasons[3]


# ----------------------------------------------------------------------------- batch


def test_batch_keeps_rows_over_budget_and_a_rerun_solves_only_them(capsys, tmp_path):
    path = tmp_path / "deals.jsonl"
    write_deals(path, batch_deals.lopsided_records(4, seed=5, prefix="nl"))
    out = tmp_path / "out.csv"
    args = ["batch", str(path), "-o", str(out), "--declarer", "F,M", "--contract",
            "three,lower,solo", "--chunk-size", "2", "--no-progress", "--no-timing"]
    code, _, err = run(capsys, *args, "--node-limit", "300")
    assert code == 0, err
    assert "Done: 4 deals ok, 0 failed, 24 rows" in err
    assert "Warning: 8 rows went over the node budget of 300" in err
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 24 and sum(",over_budget," in r for r in rows) == 8

    code, _, err = run(capsys, *args, "--node-limit", "100000")
    assert code == 0, err
    assert "4 with rows over budget solved again" in err and "over the node budget" not in err
    reference = tmp_path / "reference.csv"
    code, _, _ = run(capsys, *[a if a != str(out) else str(reference) for a in args])
    assert code == 0 and out.read_bytes() == reference.read_bytes()


def test_batch_interrupted_says_that_a_rerun_resumes(capsys, tmp_path, deals, monkeypatch):
    from tarock_solver.batch import run_batch as real_run_batch
    from tarock_solver.batch.runner import SerialExecutor

    class Interrupted(SerialExecutor):
        def run(self, tasks, settings):
            for i, result in enumerate(super().run(tasks, settings)):
                if i == 1:
                    raise KeyboardInterrupt
                yield result

    def interrupted_run(*args, **kwargs):
        return real_run_batch(*args, executor=Interrupted(), **kwargs)

    out = tmp_path / "out.csv"
    args = ["batch", str(deals), "-o", str(out), "--chunk-size", "1", "--contract", "solo",
            "--declarer", "M", "--no-progress"]
    monkeypatch.setattr("tarock_cli.commands.batch.run_batch", interrupted_run)
    code, _, err = run(capsys, *args)
    assert code == 130
    assert "1 finished chunk is saved in" in err
    assert "run the same command again to resume" in err
    assert "Aborted." not in err
    monkeypatch.undo()
    code, _, err = run(capsys, *args)
    assert code == 0 and "1 from checkpoints" in err


def test_only_this_process_may_write_the_probe(tmp_path):
    """The write test leaves the directory as it found it, also when it fails."""
    from tarock_cli.commands._output import OutputPathError, check_output

    target = tmp_path / "out.csv"
    assert check_output(target, "-o", suffixes=(".csv",)) == target
    assert list(tmp_path.iterdir()) == []
    target.write_text("keep me")
    check_output(target, "-o")
    assert target.read_text() == "keep me"
    if os.geteuid() != 0:  # root may write anywhere; the mode bits mean nothing to it
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(OutputPathError, match="cannot write files in"):
            check_output(locked / "x.csv", "-o")


# ----------------------------------------------------------------------------- bench


def test_bench_says_what_it_will_do_and_is_never_silent(capsys):
    code, _, err = run(capsys, "bench", "--quick", "--no-cold", "--deals", "1", "--threads",
                       "1", "--tricks", "8", "--table-deals", "0")
    assert code == 0, err
    first = err.splitlines()[0]
    assert first.startswith("bench: 1 deal at 8 tricks left, node budget 200,000")
    assert "estimated" in first
    # stderr is not a terminal here: instead of a bar, a line per section and per tenth.
    assert "bench: exact solves, 8 tricks left" in err
    assert "bench: 2/2 steps" in err


def test_planned_steps_count_every_step_of_a_run():
    from tarock_solver.bench import BenchConfig, planned_steps, run_bench

    config = BenchConfig(deals=2, tricks=(6, 8), node_limit=100_000, threads=2,
                         table_deals=0, cold=False)
    steps = []
    run_bench(config, step=lambda: steps.append(1))
    assert len(steps) == planned_steps(config, 2, 5, threads=2)


def test_the_default_bench_estimate_is_what_the_readme_says():
    import re

    from tarock_solver.bench import QUICK, BenchConfig, estimate_seconds

    minutes = estimate_seconds(BenchConfig(), 200, 5, threads=2) / 60
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`tarock bench` with no option .*? about (\d+) minutes", readme, re.S)
    assert said, "the README must say what the default bench run costs"
    assert abs(minutes - int(said.group(1))) <= 0.25 * minutes
    assert estimate_seconds(QUICK, 3, 5, threads=2) < 60


def test_commands_print_without_click_deprecation_warnings(capsys):
    """Printing asks sys.stdout for its encoding instead of wrapping it with click's
    get_text_stream (whose use gave 30 deprecation warnings)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for command in (["show", "example-1"], ["deal", "--seed", "2"], ["rules"]):
            run(capsys, *command)
    from_click = [w for w in caught if "click" in (w.filename or "")
                  or "get_text_stream" in str(w.message)]
    assert from_click == []
