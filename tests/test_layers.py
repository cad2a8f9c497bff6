"""The package's layers: no module imports a layer above its own, and no import cycle.

Layers, lowest first: the game model and rules → formats → the solver → the
evaluator's inference → analyses → batch runs → benchmarks → the CLI.  A
module may import its own layer and those below.  Every import counts, at the top of a
module or inside a function, absolute or relative, and so does every cycle between
modules (a function-local import only hides a cycle until the function runs).

``LAYERS`` places every top-level module and package of ``tarock_solver``; a module it
does not name fails the test, so a new package must be given its place.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Import name → source folder (the cli/ folder installs as tarock_cli).
PACKAGES = {"tarock_solver": ROOT / "tarock_solver", "tarock_cli": ROOT / "cli"}

MODEL, FORMATS, SOLVER, EVALUATOR, ANALYSES, BATCH, BENCH, CLI = range(8)
LAYER_NAMES = ["model", "formats", "solver", "evaluator", "analyses", "batch", "bench", "cli"]

#: The layer of each top-level module or package of tarock_solver (its submodules share it).
LAYERS: dict[str, int] = {
    "tarock_solver._cache_location": MODEL,
    "tarock_solver.auction": MODEL,
    "tarock_solver.bits": MODEL,
    "tarock_solver.cards": MODEL,
    "tarock_solver.columns": MODEL,
    "tarock_solver.deal": MODEL,
    "tarock_solver.errors": MODEL,
    "tarock_solver.french": MODEL,
    "tarock_solver.games": MODEL,
    "tarock_solver.normal": MODEL,
    "tarock_solver.play": MODEL,
    "tarock_solver.rules": MODEL,
    "tarock_solver.scoring": MODEL,
    "tarock_solver.series": MODEL,
    "tarock_solver.talon": MODEL,
    "tarock_solver.card_tokens": FORMATS,
    "tarock_solver.deal_files": FORMATS,
    "tarock_solver.diagram": FORMATS,
    "tarock_solver.french.deal_files": FORMATS,
    "tarock_solver.french.diagram": FORMATS,
    "tarock_solver.french.notation": FORMATS,
    "tarock_solver.french.oracle": SOLVER,
    "tarock_solver.french.solver": SOLVER,
    "tarock_solver.notation": FORMATS,
    "tarock_solver.record_files": FORMATS,
    "tarock_solver.record_text": FORMATS,
    "tarock_solver.oracle": SOLVER,
    "tarock_solver.solver": SOLVER,
    "tarock_solver.estimate": EVALUATOR,
    "tarock_solver.french.estimate": EVALUATOR,
    "tarock_solver.french.advice": ANALYSES,
    "tarock_solver.french.training": ANALYSES,
    "tarock_solver.advise": ANALYSES,
    "tarock_solver.french.analysis": ANALYSES,
    "tarock_solver.french.review": ANALYSES,
    "tarock_solver.analysis": ANALYSES,
    "tarock_solver.checkpoint": ANALYSES,
    "tarock_solver.review": ANALYSES,
    "tarock_solver.stats": ANALYSES,
    "tarock_solver.training": ANALYSES,
    "tarock_solver.batch": BATCH,
    "tarock_solver.bench": BENCH,
    "tarock_cli": CLI,
}

#: ``tarock_solver/__init__.py`` is the public facade: it sets the numba cache folder
#: (_cache_location) and loads ``solve_position`` and the evaluator's ``estimate_*`` on
#: first use (a module ``__getattr__``), so it may import these, and nothing else.
FACADE = "tarock_solver"
FACADE_IMPORTS = {"tarock_solver._cache_location", "tarock_solver.solver",
                  "tarock_solver.estimate"}

Graph = Mapping[str, Mapping[str, int]]  # importer → {imported: line of the first import}


def module_files(packages: Mapping[str, Path] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for name, folder in packages.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([name, *parts])] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              known: Iterable[str]) -> list[str]:
    """The modules of ``known`` that one import statement in ``module`` names."""
    known = set(known)
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")
            if not is_package:
                base.pop()
            base = base[:len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        # ``from package import name``: name is a submodule or an attribute of package
        names = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target
                 for alias in node.names]
    out = []
    for name in names:
        # ``import a.b.c`` of a non-module attribute path: the longest known prefix
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            out.append(name)
    return out


def import_graph(files: Mapping[str, Path]) -> dict[str, dict[str, int]]:
    """importer → {imported module: line}, for every import statement anywhere in a module."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        edges = graph.setdefault(module, {})
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _imported(node, module, is_package, files):
                    if target != module:
                        edges.setdefault(target, node.lineno)
    return graph


def layer_of(module: str, layers: Mapping[str, int] = LAYERS) -> int | None:
    """The layer of the entry of ``layers`` that is ``module`` or a package holding it."""
    name = module
    while name:
        if name in layers:
            return layers[name]
        name = name.rpartition(".")[0]
    return None


def unplaced(graph: Graph, layers: Mapping[str, int] = LAYERS) -> list[str]:
    """Modules that no entry of ``layers`` places (the facade aside)."""
    return sorted(m for m in graph if m != FACADE and layer_of(m, layers) is None)


def upward_imports(graph: Graph, layers: Mapping[str, int] = LAYERS) -> list[str]:
    """``importer:line → imported`` for each import of a higher layer."""
    found = []
    for importer, edges in sorted(graph.items()):
        for imported, line in sorted(edges.items()):
            if importer == FACADE:
                if imported not in FACADE_IMPORTS:
                    found.append(f"{importer}:{line} → {imported} (the facade may import "
                                 f"only {', '.join(sorted(FACADE_IMPORTS))})")
                continue
            low, high = layer_of(importer, layers), layer_of(imported, layers)
            if low is not None and high is not None and high > low:
                found.append(f"{importer}:{line} ({LAYER_NAMES[low]}) → {imported} "
                             f"({LAYER_NAMES[high]})")
    return found


def import_cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def _describe(group: list[str], graph: Graph) -> str:
    members = set(group)
    edges = [f"{a}:{line} → {b}" for a in group for b, line in sorted(graph[a].items())
             if b in members]
    return "cycle: " + "; ".join(edges)


# ----------------------------------------------------------------------------- the package


GRAPH = import_graph(module_files())


def test_every_module_has_a_layer() -> None:
    missing = unplaced(GRAPH)
    assert not missing, "give these modules a layer in LAYERS: " + ", ".join(missing)


def test_no_module_imports_a_higher_layer() -> None:
    found = upward_imports(GRAPH)
    assert not found, "imports of a higher layer:\n" + "\n".join(found)


def test_no_import_cycle() -> None:
    found = [_describe(group, GRAPH) for group in import_cycles(GRAPH)]
    assert not found, "\n".join(found)


def test_the_graph_sees_every_kind_of_import() -> None:
    # One known edge of each form, so that a parser that misses a form cannot pass.
    assert "tarock_solver.errors" in GRAPH["tarock_solver.batch.errors"]  # from ..errors
    assert "tarock_solver.batch.settings" in GRAPH["tarock_solver.batch.worker"]  # from .x
    assert "tarock_solver.solver" in GRAPH[FACADE]  # inside a function
    assert "tarock_solver.estimate" in GRAPH[FACADE]  # from . import estimate
    assert "tarock_solver.batch" in GRAPH["tarock_cli.commands.batch"]  # absolute


# ----------------------------------------------------------------------------- positive controls


def _write(folder: Path, files: Mapping[str, str]) -> dict[str, Path]:
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return module_files({"pkg": folder})


def test_the_check_finds_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    files = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from ..high import b\n",  # upward, inside a function
        "low/c.py": "from . import d\n",  # c ↔ d: a cycle inside one layer
        "low/d.py": "import pkg.low.c\n",
        "high/__init__.py": "",
        "high/b.py": "from ..low import a\n",
        "free.py": "",
    })
    graph = import_graph(files)
    layers = {"pkg.low": 0, "pkg.high": 1}
    assert upward_imports(graph, layers) == ["pkg.low.a:2 (model) → pkg.high.b (formats)"]
    assert import_cycles(graph) == [["pkg.high.b", "pkg.low.a"], ["pkg.low.c", "pkg.low.d"]]
    assert unplaced(graph, layers) == ["pkg", "pkg.free"]


def test_the_check_passes_a_clean_graph(tmp_path: Path) -> None:
    files = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "low.py": "X = 1\n",
        "high.py": "from .low import X\nfrom . import low\n",
    })
    graph = import_graph(files)
    layers = {"pkg": 0, "pkg.low": 0, "pkg.high": 1}
    assert graph["pkg.high"] == {"pkg.low": 1}
    assert not upward_imports(graph, layers) and not import_cycles(graph)
