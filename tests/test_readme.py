"""The README's shape: two set-up commands, short paragraphs, links that resolve.

A newcomer reads the README first; these tests keep it to what was promised: the
Set-up section holds exactly the two commands that install and run the adviser
and the test suite, no paragraph runs longer than eight lines, and every relative
link points to a file of the repository (the method lives in docs/ADVICE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

SETUP_COMMANDS = [
    "pip install . && tarock advise",
    'pip install -e ".[test]" && python -m pytest',
]
MAX_PARAGRAPH_LINES = 8

_LIST_ITEM = re.compile(r"^\s*([*+-]|\d+[.)])\s")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    """The body of the level-2 section ``## title`` (up to the next level-2 heading)."""
    found = re.search(rf"^## {re.escape(title)}[ \t]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"no section '## {title}'"
    return found.group(1)


def code_blocks(text: str) -> list[str]:
    """The contents of the fenced code blocks of ``text``, stripped."""
    return [block.strip() for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)]


def long_paragraphs(text: str, limit: int = MAX_PARAGRAPH_LINES) -> list[tuple[int, int]]:
    """(first line number, length) of each paragraph longer than ``limit`` lines.

    A paragraph is a run of non-blank lines outside code fences that is not a table
    or a list; a heading line ends the run before it and is not part of one.
    """
    found: list[tuple[int, int]] = []
    start, length, prose, in_code = 0, 0, False, False
    for number, line in enumerate(text.splitlines() + [""], start=1):
        fence = line.startswith("```")
        in_code ^= fence
        if fence or in_code or not line.strip() or line.lstrip().startswith("#"):
            if prose and length > limit:
                found.append((start, length))
            start, length, prose = 0, 0, False
            continue
        if length == 0:
            start = number
            prose = not (line.lstrip().startswith("|") or _LIST_ITEM.match(line))
        length += 1
    return found


def relative_links(text: str) -> list[str]:
    """Link targets of ``text`` that are paths in the repository (no URL, no bare anchor)."""
    targets = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


def test_setup_section_holds_exactly_the_two_commands():
    assert code_blocks(section(_readme(), "Set-up")) == SETUP_COMMANDS


def test_setup_check_notices_a_third_command():
    changed = _readme().replace("## Set-up\n", "## Set-up\n\n```\npip install tarock-solver\n```\n", 1)
    assert code_blocks(section(changed, "Set-up")) != SETUP_COMMANDS


def test_no_readme_paragraph_is_longer_than_eight_lines():
    assert long_paragraphs(_readme()) == []


def test_paragraph_check_flags_a_nine_line_paragraph():
    nine = "\n".join(f"line {i} of a made-up paragraph" for i in range(9))
    eight = "\n".join(f"line {i}" for i in range(8))
    text = f"# Title\n\n{eight}\n\n{nine}\n\n```\n" + "code\n" * 12 + "```\n"
    assert long_paragraphs(text) == [(12, 9)]
    table = "\n".join("| a | b |" for _ in range(12))
    items = "\n".join(f"* item {i}\n  continued" for i in range(6))
    assert long_paragraphs(f"{table}\n\n{items}\n\n{eight}\n") == []


def test_every_relative_readme_link_points_to_a_file():
    links = relative_links(_readme())
    assert links, "the README links its documents"
    missing = [target for target in links if not (ROOT / target).exists()]
    assert missing == []


def test_link_check_notices_a_missing_file():
    assert relative_links("see [x](docs/NOPE.md) and [y](https://example.org)") == ["docs/NOPE.md"]
    assert not (ROOT / "docs/NOPE.md").exists()


def test_readme_links_the_advice_document():
    assert "docs/ADVICE.md" in relative_links(_readme())
    assert (ROOT / "docs" / "ADVICE.md").is_file()
