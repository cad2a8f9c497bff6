"""The package list in pyproject.toml covers every package of the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _source_packages() -> set[str]:
    found = set()
    for folder, name in (("tarock_solver", "tarock_solver"), ("cli", "tarock_cli")):
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join((name, *rel.parts)))
    return found


def test_every_package_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    assert listed == _source_packages()
    assert config["tool"]["setuptools"]["package-dir"] == {"tarock_cli": "cli"}
    assert config["project"]["scripts"]["tarock"] == "tarock_cli.main:main"


def test_a_built_wheel_ships_the_evaluator_and_loads_it(tmp_path) -> None:
    """A non-editable install: build the wheel, unpack it apart from the source tree and
    estimate a position from there (the weights are package data).  Its compiled kernels
    go to the user's cache folder, none into the package: numba's files there would
    outlive ``pip uninstall`` and shadow a later editable install."""
    import subprocess
    import sys
    import zipfile

    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(out), str(ROOT)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = out.glob("tarock_solver-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert "tarock_solver/estimate/evaluator_weights.npz" in names
        assert "tarock_solver/estimate/trischaken_weights.npz" in names
        shipped = {f"tarock_solver/data/{f.name}" for f in (ROOT / "tarock_solver" / "data")
                   .iterdir() if f.is_file()}
        assert shipped and shipped <= names
        # the labels and the trainer's data stay in the source tree
        assert not [n for n in names if n.startswith("data/") or n.endswith(".timing.npz")]
        site = tmp_path / "site-packages"
        zf.extractall(site)
    code = ("import tarock_solver, sys; "
            "assert tarock_solver.__file__.startswith(sys.argv[1]), tarock_solver.__file__; "
            "import numpy as np; from tarock_solver.estimate.features import remaining_points; "
            "h = (1 << 53, 1 << 52, 1 << 51); "
            "print(tarock_solver.estimate_position(h, 0, 0), "
            "remaining_points(np.array([h], dtype=np.uint64))[0])")
    cache = tmp_path / "cache"
    r = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True,
                       cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin",
                                          "XDG_CACHE_HOME": str(cache)},
                       timeout=300)
    assert r.returncode == 0, r.stderr
    value, top = (float(v) for v in r.stdout.split())
    assert 0.0 <= value <= top
    assert not list(site.rglob("*.nbi")) and not list(site.rglob("*.nbc"))
    assert list((cache / "tarock-solver" / "numba").rglob("*.nbi"))


def test_numba_cache_folder_of_an_installed_copy() -> None:
    from tarock_solver._cache_location import installed_cache_dir

    site = "/v/lib/python3.11/site-packages/tarock_solver"
    assert installed_cache_dir(site, {"HOME": "/h"}, "linux") == "/h/.cache/tarock-solver/numba"
    assert installed_cache_dir(site, {"HOME": "/h", "XDG_CACHE_HOME": "/x"}, "linux") \
        == "/x/tarock-solver/numba"
    assert installed_cache_dir("/usr/lib/python3/dist-packages/tarock_solver",
                               {"HOME": "/h"}, "linux") == "/h/.cache/tarock-solver/numba"
    assert installed_cache_dir(site, {"LOCALAPPDATA": "/l"}, "win32") \
        == str(Path("/l") / "tarock-solver" / "numba")
    # a checkout keeps numba's default, and the user's own choice wins
    assert installed_cache_dir(str(ROOT / "tarock_solver"), {"HOME": "/h"}, "linux") is None
    assert installed_cache_dir(site, {"HOME": "/h", "NUMBA_CACHE_DIR": "/n"}, "linux") is None
