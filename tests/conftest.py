"""Test setup: ``tarock_cli`` is this checkout's ``cli/`` folder.

An editable install maps ``tarock_cli`` to the ``cli/`` folder of the checkout it was
installed from.  Tests run in another checkout of the repository (a second work tree,
with ``PYTHONPATH`` pointing at it) would then test that other checkout's commands
while testing this checkout's library.  The import below binds the name to the
``cli/`` folder next to these tests before any test imports it; in the installed
checkout itself it changes nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_CLI = Path(__file__).resolve().parents[1] / "cli"


def _bind_tarock_cli() -> None:
    spec = importlib.util.find_spec("tarock_cli")
    origin = Path(spec.origin).resolve().parent if spec and spec.origin else None
    if origin == _CLI or not (_CLI / "__init__.py").is_file():
        return
    local = importlib.util.spec_from_file_location(
        "tarock_cli", _CLI / "__init__.py", submodule_search_locations=[str(_CLI)])
    assert local is not None and local.loader is not None
    module = importlib.util.module_from_spec(local)
    sys.modules["tarock_cli"] = module
    local.loader.exec_module(module)


_bind_tarock_cli()
