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
