"""One data folder per purpose: the package's data in ``tarock_solver/data/`` only, the
examples and the evaluator's labels in ``data/``, stored compactly."""

from __future__ import annotations

import fnmatch
import json
import subprocess
import tomllib
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest

from tarock_solver.training.labels import fields_of, load_labels, timing_path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SHIPPED = ROOT / "tarock_solver" / "data"
LABELS = DATA / "evaluator"


def identical_files(ours: Iterable[Path], shipped: Iterable[Path]) -> list[tuple[Path, Path]]:
    """The pairs (a, b) whose bytes are the same."""
    by_bytes: dict[bytes, Path] = {p.read_bytes(): p for p in shipped if p.is_file()}
    return [(p, by_bytes[b]) for p in ours if p.is_file() and (b := p.read_bytes()) in by_bytes]


def test_no_top_level_copy_of_a_shipped_file(tmp_path):
    pairs = identical_files(DATA.rglob("*"), SHIPPED.rglob("*"))
    assert pairs == [], [f"{a.relative_to(ROOT)} = {b.relative_to(ROOT)}" for a, b in pairs]
    # positive control: a copy under another name is found, a different file is not
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deals.jsonl").write_bytes(b'{"id": 1}\n')
    (tmp_path / "b" / "other.jsonl").write_bytes(b'{"id": 1}\n')
    (tmp_path / "b" / "near.jsonl").write_bytes(b'{"id": 2}\n')
    found = identical_files((tmp_path / "a").iterdir(), (tmp_path / "b").iterdir())
    assert found == [(tmp_path / "a" / "deals.jsonl", tmp_path / "b" / "other.jsonl")]


def checkpoint_leftovers(paths: Iterable[str]) -> list[str]:
    """Tracked paths that are run state, not data: checkpoint folders, pickles, locks."""
    return [p for p in paths
            if any(part.endswith(".parts") for part in Path(p).parts[:-1])
            or Path(p).suffix in (".pkl", ".pickle", ".lock") or Path(p).name == ".lock"]


def test_no_checkpoints_are_tracked_under_data():
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "data"], capture_output=True,
                             text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    tracked = out.splitlines()
    assert tracked, "git lists no files under data/"
    assert checkpoint_leftovers(tracked) == []
    # positive control: what a label run's checkpoint folder holds is flagged
    assert checkpoint_leftovers(["data/evaluator/x.npz.parts/chunk-000000.pkl",
                                 "data/evaluator/x.npz.parts/.lock",
                                 "data/evaluator/x.npz.parts/manifest.json",
                                 "data/evaluator/x.npz", "data/evaluator/x.timing.npz"]) == [
        "data/evaluator/x.npz.parts/chunk-000000.pkl", "data/evaluator/x.npz.parts/.lock",
        "data/evaluator/x.npz.parts/manifest.json"]


def label_problems(path: Path) -> list[str]:
    """What is wrong with a label file: its rows through the training loader must have
    one length, be one run's positions ``start, start+1, …`` and match its timing
    sidecar."""
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
    objective = meta.get("objective", "cardpoints")
    rows = load_labels(path, objective=objective)
    n = len(rows["index"])
    problems = [f"{name} has {len(a)} rows, index {n}" for name, a in rows.items()
                if len(a) != n]
    if not np.array_equal(rows["index"], meta["start"] + np.arange(n)):
        problems.append("the rows are not the positions start, start+1, …")
    if meta.get("count") != n:
        problems.append(f"meta count {meta.get('count')} for {n} rows")
    if set(rows) != set(fields_of(objective)):
        problems.append("fields differ from the objective's")
    with np.load(timing_path(path), allow_pickle=False) as t:
        if not np.array_equal(t["index"], rows["index"]) or len(t["seconds"]) != n:
            problems.append("the timing sidecar does not match the rows")
    return problems


#: Label files of the Trischaken evaluator (their own fields: training/trischaken.py).
TRISCHAKEN_GLOB = "trischaken_*.npz"


def _label_files() -> list[Path]:
    return sorted(p for p in LABELS.glob("*.npz") if not p.name.endswith(".timing.npz")
                  and not fnmatch.fnmatch(p.name, TRISCHAKEN_GLOB))


def _trischaken_files() -> list[Path]:
    return sorted(p for p in LABELS.glob(TRISCHAKEN_GLOB) if not p.name.endswith(".timing.npz"))


def trischaken_label_problems(path: Path) -> list[str]:
    """What is wrong with a Trischaken label file: its fields, its rows (deals 0 … n-1 of
    its seed, one per index, 16 cards a hand, bounds in order) and its timing sidecar."""
    from tarock_solver.training.trischaken import LABEL_FIELDS

    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        rows = {k: z[k] for k in z.files if k != "meta"}
    problems = []
    if set(rows) != set(LABEL_FIELDS):
        problems.append(f"fields {sorted(rows)} differ from {sorted(LABEL_FIELDS)}")
        return problems
    n = len(rows["index"])
    problems += [f"{k} has {len(a)} rows, index {n}" for k, a in rows.items() if len(a) != n]
    if not np.array_equal(rows["index"], np.arange(n)) or meta.get("count") != n:
        problems.append("the rows are not the deals 0, 1, … count-1")
    if np.any(rows["lower"] > rows["upper"]) or \
            not np.array_equal(rows["exact"], rows["lower"] == rows["upper"]):
        problems.append("bounds out of order or exact flags wrong")
    with np.load(timing_path(path), allow_pickle=False) as t:
        if not np.array_equal(t["index"], rows["index"]) or len(t["seconds"]) != n:
            problems.append("the timing sidecar does not match the rows")
    return problems


def test_trischaken_label_sets_are_consistent():
    files = _trischaken_files()
    assert files
    for path in files:
        assert trischaken_label_problems(path) == [], path.name


def test_every_label_set_loads_with_consistent_arrays(tmp_path):
    files = _label_files()
    assert len(files) >= 15
    for path in files:
        assert label_problems(path) == [], path.name
    # every file in the folder is a label set or its sidecar
    names = {p.name for p in LABELS.iterdir()}
    files_all = files + _trischaken_files()
    assert names == {p.name for p in files_all} | {timing_path(p).name for p in files_all}
    # positive control: a file with one row fewer in one array is reported
    with np.load(files[0]) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["value"] = arrays["value"][:-1]
    bad = tmp_path / files[0].name
    np.savez(bad, **arrays)
    timing_path(bad).write_bytes(timing_path(files[0]).read_bytes())
    assert label_problems(bad) == [f"value has {len(arrays['value'])} rows, index "
                                   f"{len(arrays['index'])}"]


def shipped_files_missing(config: dict, root: Path) -> list[str]:
    """package-data patterns of ``config`` (pyproject) that match no file under ``root``."""
    setuptools = config["tool"]["setuptools"]
    renamed = setuptools.get("package-dir", {})  # e.g. tarock_cli installs from cli/
    missing = []
    for package, patterns in setuptools["package-data"].items():
        top, *rest = package.split(".")
        folder = root.joinpath(renamed.get(top, top), *rest)
        for pattern in patterns:
            if not [p for p in folder.glob(pattern) if p.is_file()]:
                missing.append(f"{package}: {pattern}")
    return missing


def test_everything_the_package_ships_exists():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert shipped_files_missing(config, ROOT) == []
    # the files the code reads from the package are covered by those patterns
    from tarock_cli.commands.review import EXAMPLE

    from tarock_solver.bench.advise import ADVISE_HANDS_FILE
    from tarock_solver.bench.positions import BENCH_FILE
    from tarock_solver.estimate.model import WEIGHTS_PATH

    needed = [SHIPPED / BENCH_FILE, SHIPPED / ADVISE_HANDS_FILE, SHIPPED / EXAMPLE,
              SHIPPED / "review_examples.jsonl", Path(WEIGHTS_PATH)]
    data = config["tool"]["setuptools"]["package-data"]
    for path in needed:
        assert path.is_file(), path
        rel = path.relative_to(ROOT)
        package = ".".join(rel.parts[:-1])
        while package and package not in data:  # patterns are relative to their package
            package = package.rpartition(".")[0]
        inner = rel.relative_to(Path(*package.split("."))).as_posix()
        assert any(fnmatch.fnmatch(inner, pat) for pat in data[package]), rel
    # positive control: a pattern that matches nothing is reported
    broken = {"tool": {"setuptools": {"package-data": {"tarock_solver": ["data/nothing.*"]}}}}
    assert shipped_files_missing(broken, ROOT) == ["tarock_solver: data/nothing.*"]
