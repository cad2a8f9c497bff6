"""No tracked file speaks of the development process by its periods of work.

Measurements are cited by a dated entry of ``benchmarks/EXPERIMENTS.md`` (topic, date, title)
or by ``docs/``, results files are named ``YYYY-MM-DD-<subject>``, and no text says "session 17
measured ...".  The rule: the word *session* (any case, singular or plural, followed by
anything but a letter, so ``session17``, ``session-start`` and ``session's`` count) is flagged
where it is not part of a longer identifier.  An identifier such as ``start_new_session`` (a
``subprocess`` argument) is not flagged, because a letter, digit or underscore precedes the
word.  The repository has no other use of the word; a real one (an HTTP or Dask session, say)
would have to be written as an identifier of that kind.

Scanned: every path ``git ls-files`` lists, and the text of every such file that is not binary
(no NUL byte in its first 8 KB) and not larger than :data:`MAX_BYTES` -- except this file, which
has to name the word to define the rule.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The process sense of "session": not inside an identifier, not the start of a longer word.
PROCESS_WORD = re.compile(r"(?<![A-Za-z0-9_])sessions?(?![A-Za-z_])", re.IGNORECASE)

#: Larger files are data (label arrays, captured runs), not prose.
MAX_BYTES = 2_000_000

#: Suffixes of binary files that are never read.
BINARY_SUFFIXES = {".npz", ".npy", ".png", ".pkl", ".gz", ".zip", ".whl"}


def process_word_hits(path: str, text: str) -> list[str]:
    """Each line of ``text`` (the file ``path``) that uses the word, as ``path:line: text``."""
    hits = []
    for number, line in enumerate(text.splitlines(), start=1):
        if PROCESS_WORD.search(line):
            hits.append(f"{path}:{number}: {line.strip()[:120]}")
    return hits


def tracked_files() -> list[str]:
    """The repository's tracked paths (``git ls-files``), relative to its root."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in out.decode("utf-8").split("\0") if p]


def readable_text(path: Path) -> str | None:
    """The file's text, or None for a binary, an oversized or a missing file."""
    if path.suffix in BINARY_SUFFIXES or not path.is_file():
        return None
    if path.stat().st_size > MAX_BYTES:
        return None
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def repository_hits() -> list[str]:
    """Every tracked path and every line of tracked text that uses the word."""
    hits = []
    this_file = Path(__file__).resolve().relative_to(ROOT).as_posix()
    for name in tracked_files():
        if name == this_file:
            continue
        if PROCESS_WORD.search(name):
            hits.append(f"{name}: the path itself")
        text = readable_text(ROOT / name)
        if text is not None:
            hits.extend(process_word_hits(name, text))
    return hits


def test_the_scanner_flags_the_process_sense_and_spares_identifiers() -> None:
    flagged = ["measured in session 17", "Session 3 dropped the table",
               "the session-start kernel", "results/2026-12-02-session9-review.json",
               "sessions 15-17 concluded", "this session's tree"]
    spared = ["subprocess.Popen(cmd, start_new_session=True)", "a dated EXPERIMENTS entry",
              "obsessions", "SessionState"]
    for line in flagged:
        assert process_word_hits("made-up.md", line) == [f"made-up.md:1: {line}"], line
    for line in spared:
        assert process_word_hits("made-up.md", line) == [], line


def test_no_tracked_file_speaks_of_sessions() -> None:
    hits = repository_hits()
    assert not hits, (f"{len(hits)} lines speak of sessions; cite a dated entry of "
                      "benchmarks/EXPERIMENTS.md or docs/ instead:\n" + "\n".join(hits))
