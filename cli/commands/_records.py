"""The RECORD argument of the review commands: ``example``, a file or the record's text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import click

R = TypeVar("R")
#: Suffixes of deal files that hold many records.
FILE_SUFFIXES = (".jsonl", ".ndjson", ".csv")


def read_record_argument(words: tuple[str, ...], *, example: Callable[[], str],
                         parse: Callable[[str], R],
                         read_file: Callable[[Path], Sequence[R]], usage: str) -> list[R]:
    """The records RECORD names: the shipped example, every record of a deal file, the
    one record of a text file, or the record written on the command line."""
    text = " ".join(words).strip()
    if not text:
        raise click.UsageError(usage)
    if text.lower() == "example":
        return [parse(example())]
    path = Path(text)
    if len(words) == 1 and "\n" not in text and ":" not in text and path.suffix:
        if not path.is_file():
            raise click.UsageError(f"{text}: no such file.")
        if path.suffix.lower() in FILE_SUFFIXES:
            records = list(read_file(path))
            if not records:
                raise click.UsageError(f"{text}: the file holds no record.")
            return records
        try:
            return [parse(path.read_text(encoding="utf-8"))]
        except UnicodeDecodeError:
            raise click.UsageError(f"{text}: not UTF-8 text.") from None
    return [parse(text)]
