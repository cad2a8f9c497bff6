"""Files of play records for batches: JSON Lines and CSV (NOTATION.md 8.3).

:func:`read_play_records` works like :func:`tarock_solver.deal_files.read_deals`:
``strict=True`` raises :class:`FileFormatError` at the first bad record,
``strict=False`` returns ``(records, errors)`` with one error per bad record (its
message starts with ``file:line`` and the id, then names every problem).  The rules of
play are checked when a record is reviewed (they depend on the rule profile).
:func:`write_play_records` writes the canonical form.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from os import PathLike
from pathlib import Path
from typing import Any

from ..deal_files import deal_file_format
from ..errors import FileFormatError, TarockError, json_error_text, one_line
from .record import PlayRecord
from .report import record_csv_values, record_json
from .text import record_from_fields

__all__ = ["read_play_records", "write_play_records"]

#: JSON field → record field of :func:`~.text.record_from_fields`.
_JSON_FIELDS = {"id": "id", "deal": "deal", "declarer": "declarer", "contract": "contract",
                "talon_pick": "talon", "talon": "talon", "discard": "discard",
                "announcements": "announce", "announce": "announce", "play": "play",
                "rules": "rules", "players": "players"}
_IGNORED = ("options", "comment", "source", "seed", "v")
_CSV_COLUMNS = ("id", "deal", "declarer", "contract", "talon_pick", "discard", "announcements",
                "play", "rules", "players")


def _format_of(path: Path) -> str:
    return deal_file_format(path, what="play-record file")


def _location(path: Path, line: int, rid: str | None) -> str:
    return f"{path.name}:{line}" + (f' (id "{rid}")' if rid else "")


def _record(fields: dict[str, Any], line: int, path: Path, extra: dict[str, Any]) -> PlayRecord:
    rid = str(fields.get("id") or f"L{line}")
    try:
        return record_from_fields(fields, line=line, record_id=rid,
                                  options=extra.get("options") or {})
    except TarockError as exc:
        messages = getattr(exc, "messages", None) or [str(exc)]
        messages = [m.removeprefix(f'record "{rid}": ') for m in messages]
        err = FileFormatError(f"{_location(path, line, rid)}: " + " ".join(messages),
                              path=str(path), line=line, record_id=rid)
        err.messages = messages  # type: ignore[attr-defined]
        raise err from None


def _json_records(path: Path, data: str) -> Iterable[PlayRecord | FileFormatError]:
    for line_no, text in enumerate(data.splitlines(), start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            obj = json.loads(text)
        except ValueError as exc:
            yield FileFormatError(f"{path.name}:{line_no}: {json_error_text(exc)}; record "
                                  "skipped.", path=str(path), line=line_no)
            continue
        if not isinstance(obj, dict):
            yield FileFormatError(f"{path.name}:{line_no}: a record is a JSON object, not "
                                  f"{type(obj).__name__}.", path=str(path), line=line_no)
            continue
        fields = {_JSON_FIELDS[k]: v for k, v in obj.items() if k in _JSON_FIELDS}
        unknown = [k for k in obj if k not in _JSON_FIELDS and k not in _IGNORED]
        try:
            if unknown:
                raise FileFormatError(
                    f"{_location(path, line_no, obj.get('id'))}: unknown field"
                    f"{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                    f"expected {', '.join(_CSV_COLUMNS)}.", path=str(path), line=line_no,
                    record_id=obj.get("id"))
            yield _record(fields, line_no, path, obj)
        except FileFormatError as err:
            yield err


def _csv_records(path: Path, data: str) -> Iterable[PlayRecord | FileFormatError]:
    reader = csv.reader(io.StringIO(data))
    header = None
    for row in reader:
        line_no = reader.line_num
        if header is None:
            header = [h.strip().lower() for h in row]
            missing = [c for c in ("deal", "declarer", "contract", "play") if c not in header]
            if missing:
                raise FileFormatError(f"{path}: the header needs {', '.join(missing)}; found "
                                      f'"{one_line(",".join(row))}".', path=str(path))
            continue
        if not any(cell.strip() for cell in row):
            continue
        values = dict(zip(header, row, strict=False))
        fields = {_JSON_FIELDS[k]: v for k, v in values.items() if k in _JSON_FIELDS and v}
        try:
            yield _record(fields, line_no, path, {})
        except FileFormatError as err:
            yield err


def read_play_records(path: str | PathLike[str], *, strict: bool = True
                      ) -> Any:
    """The records of a ``.jsonl`` or ``.csv`` file; see the module docstring."""
    p = Path(path)
    kind = _format_of(p)
    try:
        data = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise FileFormatError(f"{p}: cannot read the file ({exc.strerror or exc}).",
                              path=str(p)) from None
    except UnicodeDecodeError:
        raise FileFormatError(f"{p}: not UTF-8 text.", path=str(p)) from None
    items = list(_json_records(p, data) if kind == "jsonl" else _csv_records(p, data))
    records = [r for r in items if isinstance(r, PlayRecord)]
    errors = [e for e in items if isinstance(e, FileFormatError)]
    seen: dict[str, int] = {}
    for rec in records:
        if rec.id in seen:
            errors.append(FileFormatError(
                f'{p.name}:{rec.line} (id "{rec.id}"): the id is already used on line '
                f"{seen[rec.id]}.", path=str(p), line=rec.line, record_id=rec.id))
        seen.setdefault(rec.id, rec.line or 0)
    if strict:
        if errors:
            raise errors[0]
        return records
    bad_lines = {(e.line, e.record_id) for e in errors}
    records = [r for r in records if (r.line, r.id) not in bad_lines]
    errors.sort(key=lambda e: e.line or 0)
    return records, errors


def write_play_records(path: str | PathLike[str], records: Iterable[PlayRecord]) -> None:
    """Canonical JSON Lines (``.jsonl``) or CSV (``.csv``) of ``records``."""
    p = Path(path)
    kind = _format_of(p)
    records = list(records)
    with open(p, "w", encoding="utf-8", newline="") as handle:
        if kind == "jsonl":
            for rec in records:
                handle.write(json.dumps(record_json(rec), ensure_ascii=False) + "\n")
            return
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(_CSV_COLUMNS)
        for rec in records:
            cells = record_csv_values(rec)
            writer.writerow([cells.get(c, "") for c in _CSV_COLUMNS])
