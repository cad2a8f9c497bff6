"""The solver package's structure: no block of code written twice inside it.

A pruning idea or a rule of play must live in one place, so that it reaches both
objectives: a window of 12 consecutive code lines (blank lines, comments, imports and
lone brackets left out, white space folded) may stand only once in
tarock_solver/solver/.
"""

from __future__ import annotations

import re
from pathlib import Path

SOLVER = Path(__file__).resolve().parents[1] / "tarock_solver" / "solver"
WINDOW = 12
_SKIP = re.compile(r"^(#.*|from\s.+import.*|import\s.+|[)\]}:,]+)$")


def _code_lines(path: Path) -> list[tuple[int, str]]:
    out = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = " ".join(raw.split())
        if line and not _SKIP.match(line):
            out.append((number, line))
    return out


def repeated_blocks(root: Path = SOLVER, window: int = WINDOW) -> list[str]:
    """Places where a block of ``window`` code lines stands a second time."""
    seen: dict[tuple[str, ...], tuple[Path, int]] = {}
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = _code_lines(path)
        last_end: dict[tuple[str, ...], int] = {}
        for i in range(len(lines) - window + 1):
            block = tuple(text for _, text in lines[i:i + window])
            start = lines[i][0]
            if block in seen:
                where, line = seen[block]
                # a block overlapping its own earlier copy in one file is one run, not two
                if not (where == path and last_end.get(block, -1) >= i):
                    found.append(f"{path.relative_to(root)}:{start} repeats "
                                 f"{where.relative_to(root)}:{line}")
            else:
                seen[block] = (path, start)
            last_end[block] = i + window - 1
    return found


def test_no_block_stands_twice_in_the_solver() -> None:
    found = repeated_blocks()
    assert not found, "\n".join(found[:20])


def test_the_check_finds_a_copied_block(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = f({i})" for i in range(WINDOW))
    (tmp_path / "a.py").write_text(f"def a():\n{body}\n")
    (tmp_path / "b.py").write_text(f"def b():\n{body}\n")
    assert repeated_blocks(tmp_path)
    (tmp_path / "b.py").write_text("def b():\n    return 1\n")
    assert not repeated_blocks(tmp_path)
