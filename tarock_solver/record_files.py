"""Record files of both games: the mechanics of reading JSON Lines and CSV.

:class:`RecordReader` reads one ``.jsonl`` or ``.csv`` file record by record: the
encoding, JSON and CSV errors, unique ids, unknown fields and the strict/collected
error modes.  Each game's deal-file module subclasses it with the parts that read
one record.  :func:`deal_file_format` tells the format from the extension;
:func:`write_record_file` and :func:`json_line` are the writing side.
"""

from __future__ import annotations

import csv
import io
import json
import warnings
from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import IO, Any, Generic, Literal, Protocol, TypeVar

from .deal import DealWarning
from .errors import FileFormatError, TarockError, json_error_text

__all__ = ["BadRecord", "RecordReader", "deal_file_format", "json_line", "problems_of",
           "write_record_file"]

_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


def deal_file_format(path: str | PathLike[str], what: str = "deal file"
                     ) -> Literal["jsonl", "csv"]:
    """``"jsonl"`` or ``"csv"`` from the extension; FileFormatError for anything else
    (``what`` names the kind of file in the message, e.g. ``"play-record file"``)."""
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        raise FileFormatError(f"{path}: unknown {what} type {suffix or '(no extension)'}; "
                              f"use .jsonl (JSON Lines) or .csv.", path=str(path))
    return _EXTENSIONS[suffix]  # type: ignore[return-value]


class BadRecord(Exception):
    """Everything wrong with one record (or one field of it), as a list of messages."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


def problems_of(err: TarockError) -> list[str]:
    """The messages of an error: each problem of a notation error, or its text."""
    return list(getattr(err, "messages", None) or [str(err)])


class _Record(Protocol):
    id: str
    line: int | None


R = TypeVar("R", bound=_Record)


class RecordReader(Generic[R]):
    """State of reading one file: seen ids, unknown fields, the records and errors.

    Subclasses read one record: :meth:`json_record` (a JSON object),
    :meth:`csv_header` and :meth:`csv_record`; they report a bad record with
    :meth:`fail` and keep a good one with :meth:`accept`.
    """

    def __init__(self, path: str | PathLike[str], strict: bool) -> None:
        self.path = str(path)
        self.strict = strict
        self.records: list[R] = []
        self.errors: list[FileFormatError] = []
        self.first_line_of_id: dict[str, int] = {}
        self.unknown: dict[str, int] = {}

    # -- results ------------------------------------------------------------

    def location(self, line: int, record_id: str | None) -> str:
        where = f"{self.path}:{line}"
        return f'{where} (id "{record_id}")' if record_id is not None else where

    def fail(self, line: int, record_id: str | None, messages: list[str]) -> None:
        prefix = self.location(line, record_id)
        text = "\n".join(f"{prefix}: {m}" for m in messages)
        err = FileFormatError(text, path=self.path, line=line, record_id=record_id)
        err.messages = messages  # type: ignore[attr-defined]
        if self.strict:
            raise err
        self.errors.append(err)

    def accept(self, record: R) -> None:
        self.first_line_of_id[record.id] = record.line or 0
        self.records.append(record)

    def check_id(self, record_id: str, problems: list[str]) -> None:
        if record_id in self.first_line_of_id:
            problems.append(f'id "{record_id}" is used twice in the file (first on line '
                            f"{self.first_line_of_id[record_id]}); ids must be unique.")

    def note_unknown(self, name: str, line: int) -> None:
        self.unknown.setdefault(name, line)

    def finish(self, what: str) -> None:
        if self.unknown:
            names = ", ".join(f'"{n}" (line {ln})' if ln else f'"{n}"'
                              for n, ln in self.unknown.items())
            # 5 frames up: finish, read_jsonl/read_csv, read, the game's read_deals,
            # and so the warning points at the code that asked for the file.
            warnings.warn(DealWarning(f"{self.path}: unknown {what} ignored: {names}."),
                          stacklevel=5)

    @property
    def skipped(self) -> str:
        return "; record skipped." if not self.strict else "."

    # -- the file -----------------------------------------------------------

    def read(self) -> None:
        """Read the whole file; the extension gives the format."""
        fmt = deal_file_format(self.path)
        try:
            data = Path(self.path).read_bytes()
        except OSError as exc:
            raise FileFormatError(f"{self.path}: cannot read the file "
                                  f"({exc.strerror or exc}).", path=self.path) from None
        if fmt == "jsonl":
            self.read_jsonl(data)
        else:
            self.read_csv(data)

    # -- JSON Lines -----------------------------------------------------------

    def read_jsonl(self, data: bytes) -> None:
        for number, raw in enumerate(data.split(b"\n"), start=1):
            raw = raw.rstrip(b"\r")
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.fail(number, None, [f"not UTF-8 text (byte {exc.start + 1}){self.skipped}"])
                continue
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            try:
                obj = json.loads(stripped)
            except json.JSONDecodeError as exc:
                where = json_error_text(exc, column_offset=len(text) - len(text.lstrip()))
                self.fail(number, None, [f"{where}{self.skipped}"])
                continue
            if not isinstance(obj, dict):
                kind = "an array" if isinstance(obj, list) else type(obj).__name__
                self.fail(number, None, [f"a record must be a JSON object {{…}}; found {kind}"
                                         f"{self.skipped}"])
                continue
            self.json_record(obj, number)
        self.finish("fields")

    def json_record(self, obj: dict[str, Any], line: int) -> None:
        """Read the record of one JSON object found on ``line``."""
        raise NotImplementedError

    # -- CSV ----------------------------------------------------------------

    def read_csv(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise FileFormatError(f"{self.path}:{line}: not UTF-8 text; save the file as UTF-8.",
                                  path=self.path, line=line) from None
        reader = csv.reader(io.StringIO(text, newline=""))
        header: list[str] | None = None
        keys: list[str] = []
        last_line = 0
        try:
            for row in reader:
                line, last_line = last_line + 1, reader.line_num
                if not any(cell.strip() for cell in row):
                    continue
                if header is None:
                    header, keys = row, self.csv_header(row, line)
                    continue
                self.csv_record(dict(zip(keys, row, strict=False)), row, header, line)
        except csv.Error as exc:
            raise FileFormatError(f"{self.path}:{reader.line_num}: not valid CSV ({exc}).",
                                  path=self.path, line=reader.line_num) from None
        self.finish("columns")

    def csv_header(self, row: list[str], line: int) -> list[str]:
        """Check the header row; the lower-case keys of its columns."""
        raise NotImplementedError

    def csv_record(self, values: dict[str, str], row: list[str], header: list[str],
                   line: int) -> None:
        """Read the record of one CSV row (``values`` by column key)."""
        raise NotImplementedError


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def json_line(obj: dict[str, Any]) -> str:
    """One record as a line of a JSON Lines file, in canonical (compact, UTF-8) form."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_record_file(path: str | PathLike[str],
                      render: Callable[[IO[str], Literal["jsonl", "csv"]], None]) -> None:
    """Write a ``.jsonl`` or ``.csv`` file (UTF-8, ``\\n`` line ends) whose text
    ``render(stream, format)`` writes; the extension gives the format."""
    fmt = deal_file_format(path)
    # Render first, so that a record the format cannot hold leaves no half-written file.
    buffer = io.StringIO(newline="")
    render(buffer, fmt)
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(buffer.getvalue())
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot write the file ({exc.strerror or exc}).",
                              path=str(path)) from None
