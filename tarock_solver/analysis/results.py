"""Result rows in the NOTATION.md 5.3 results schema: a typed DataFrame and its files.

One row per deal × declarer × contract × option.  The same column names are used in
CSV, JSON Lines and Parquet:

* CSV: booleans are ``true``/``false``, a null is an empty field, RFC 4180 quoting.
* JSON Lines: one object per line, nulls as ``null``, UTF-8.
* Parquet (needs pyarrow): ``declarer`` and ``contract`` are dictionary-encoded.

In memory every column has a pandas nullable dtype (``Int16``, ``Int32``, ``Int64``,
``boolean``, ``string``, ``Float64``), so missing values survive a round trip through
any of the three formats.  :func:`results_frame` builds a frame from row mappings,
:func:`write_results` writes (CSV and JSON Lines can append, for runs that save as
they go) and :func:`read_results` reads any of the formats back.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import FileFormatError

__all__ = [
    "BASE_COLUMNS",
    "RESULT_COLUMNS",
    "RESULT_DTYPES",
    "SCHEMA_VERSION",
    "ResultsFormat",
    "empty_results",
    "frame_to_csv",
    "read_results",
    "results_format",
    "results_frame",
    "write_results",
]

#: Version 2 added ``status`` and the proved bounds ``points_lower_thirds`` /
#: ``points_upper_thirds`` (rows over their node budget are kept, not dropped).
SCHEMA_VERSION = 2

#: Column name -> schema type (NOTATION 5.3), in file order.
RESULT_COLUMNS: dict[str, str] = {
    "schema": "int32",
    "deal_id": "string",
    "rules": "string",
    "rule_options": "string",
    "declarer": "string",
    "contract": "string",
    "option": "string",
    "talon_pick": "string",
    "discard": "string",
    "points_thirds": "int16",
    "points": "int16",
    "made": "bool",
    "margin_thirds": "int16",
    "game_value": "int16",
    "multiplier": "int16",
    "birds": "string",
    "valat": "bool",
    "written_F": "int32",
    "written_M": "int32",
    "written_R": "int32",
    "net_F": "int32",
    "net_M": "int32",
    "net_R": "int32",
    "net_declarer": "int32",
    "nodes": "int64",
    "solve_ms": "float64",
    "solver_version": "string",
    "seed": "int64",
    "status": "string",
    "points_lower_thirds": "int16",
    "points_upper_thirds": "int16",
}
#: The columns added in schema 2; a version-1 file is read with them filled in.
_SCHEMA_2_COLUMNS = ("status", "points_lower_thirds", "points_upper_thirds")
#: The columns every results file has, of any schema version.
BASE_COLUMNS: tuple[str, ...] = tuple(c for c in RESULT_COLUMNS if c not in _SCHEMA_2_COLUMNS)

_PANDAS_DTYPE = {"int16": "Int16", "int32": "Int32", "int64": "Int64", "bool": "boolean",
                 "string": "string", "float64": "Float64"}
#: Column name -> pandas nullable dtype of the in-memory frame.
RESULT_DTYPES: dict[str, str] = {c: _PANDAS_DTYPE[t] for c, t in RESULT_COLUMNS.items()}

#: Text columns where "empty" is an ordinary value (an empty discard in Solo, no
#: options); CSV cannot tell it from null, so these read back as "".
_EMPTY_TEXT_COLUMNS = ("deal_id", "rule_options", "option", "talon_pick", "discard", "birds")
#: Dictionary-encoded in Parquet.
_DICTIONARY_COLUMNS = ("declarer", "contract")

ResultsFormat = Literal["csv", "jsonl", "parquet"]
_SUFFIXES: dict[str, ResultsFormat] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
                                       ".parquet": "parquet", ".pq": "parquet"}


def results_format(path: str | os.PathLike[str]) -> ResultsFormat:
    """The format of a results file, from its suffix (.csv, .jsonl/.ndjson, .parquet)."""
    suffix = Path(path).suffix.lower()
    fmt = _SUFFIXES.get(suffix)
    if fmt is None:
        raise FileFormatError(
            f'{path}: unknown results file type "{suffix or "(none)"}"; use .csv, .jsonl or '
            ".parquet.", path=str(path))
    return fmt


def empty_results() -> pd.DataFrame:
    """A frame with the schema's columns and dtypes and no rows."""
    return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in RESULT_DTYPES.items()})


def results_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """A typed results frame from row mappings (missing keys become null).

    Every key must be a schema column; a row with an unknown key raises ValueError,
    because a misspelt column would otherwise vanish silently.
    """
    rows = list(rows)
    if not rows:
        return empty_results()
    for i, row in enumerate(rows):
        unknown = set(row) - set(RESULT_COLUMNS)
        if unknown:
            raise ValueError(f"row {i}: unknown result column(s) {', '.join(sorted(unknown))}")
    data = {c: pd.array([row.get(c) for row in rows], dtype=t) for c, t in RESULT_DTYPES.items()}
    return pd.DataFrame(data)


def _conform(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame's schema columns, in order, with the schema dtypes.

    A schema-1 frame (no ``status`` nor bounds) gets them: its rows were all exact.
    """
    if not any(c in frame.columns for c in _SCHEMA_2_COLUMNS) and "points_thirds" in frame:
        frame = frame.copy()
        frame["status"] = "exact"
        frame["points_lower_thirds"] = frame["points_thirds"]
        frame["points_upper_thirds"] = frame["points_thirds"]
    missing = [c for c in RESULT_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"the frame lacks result column(s) {', '.join(missing)}")
    return frame[list(RESULT_COLUMNS)].astype(RESULT_DTYPES)


def plain_cell(value: Any) -> Any:
    """A cell as a plain Python (JSON) value; None for every kind of null."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def csv_cell(value: Any) -> str:
    """A cell as CSV text: empty for null, true/false for booleans."""
    value = plain_cell(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    # str() of a float is its shortest exact repr, so floats round-trip.
    return str(value)


def frame_to_csv(frame: pd.DataFrame, *, header: bool = True) -> str:
    """``frame`` as CSV text (RFC 4180 quoting, ``\n`` line ends, NOTATION 5.3 cells): how
    results, review rows and batch files are written."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    if header:
        writer.writerow(list(frame.columns))
    for row in frame.itertuples(index=False, name=None):
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue()


def _jsonl_text(frame: pd.DataFrame) -> str:
    columns = list(RESULT_COLUMNS)
    lines = [json.dumps({c: plain_cell(v) for c, v in zip(columns, row, strict=True)},
                        ensure_ascii=False)
             for row in frame.itertuples(index=False, name=None)]
    return "".join(line + "\n" for line in lines)


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise FileFormatError(
            "writing or reading Parquet needs the pyarrow package; install it with "
            '`pip install "tarock-solver[parquet]"` or use .csv or .jsonl.') from None
    return pyarrow


def write_results(frame: pd.DataFrame, path: str | os.PathLike[str],
                  fmt: ResultsFormat | None = None, *, append: bool = False) -> None:
    """Write a results frame as CSV, JSON Lines or Parquet (format from the suffix).

    ``append`` adds the rows to an existing CSV or JSON Lines file (the CSV header is
    written only when the file is new or empty); Parquet files cannot be appended to.
    """
    fmt = fmt or results_format(path)
    frame = _conform(frame)
    path = Path(path)
    if fmt == "parquet":
        if append:
            raise FileFormatError(f"{path}: Parquet files cannot be appended to; write a new "
                                  "file or use .csv or .jsonl.", path=str(path))
        pa = _pyarrow()
        table = pa.Table.from_pandas(frame, preserve_index=False)
        for name in _DICTIONARY_COLUMNS:
            i = table.schema.get_field_index(name)
            table = table.set_column(i, name, table.column(name).dictionary_encode())
        pa.parquet.write_table(table, path)
        return
    fresh = not append or not path.exists() or path.stat().st_size == 0
    text = frame_to_csv(frame, header=fresh) if fmt == "csv" else _jsonl_text(frame)
    with open(path, "w" if not append else "a", encoding="utf-8", newline="") as f:
        f.write(text)


def read_results(path: str | os.PathLike[str], fmt: ResultsFormat | None = None) -> pd.DataFrame:
    """Read a results file written by :func:`write_results` (or by hand) into a typed frame."""
    fmt = fmt or results_format(path)
    name = str(path)
    try:
        if fmt == "parquet":
            _pyarrow()
            raw = pd.read_parquet(path)
            for col in _DICTIONARY_COLUMNS:
                if col in raw.columns:
                    raw[col] = raw[col].astype("string")
        elif fmt == "jsonl":
            with open(path, encoding="utf-8") as f:
                records = []
                for line_no, line in enumerate(f, start=1):
                    if not line.strip():
                        continue
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise FileFormatError(f"{name}:{line_no}: not valid JSON ({exc.msg}).",
                                              path=name, line=line_no) from None
            return results_frame(records)
        else:
            raw = pd.read_csv(path, dtype=str, keep_default_na=False)
            raw = raw.replace({"": None})
            for col in ("made", "valat"):
                if col in raw.columns:
                    raw[col] = raw[col].map({"true": True, "false": False, None: None})
            for col in _EMPTY_TEXT_COLUMNS:
                if col in raw.columns:
                    raw[col] = raw[col].fillna("")
    except OSError as exc:
        raise FileFormatError(f"{name}: cannot read the file ({exc.strerror}).",
                              path=name) from None
    try:
        return _conform(raw)
    except (ValueError, TypeError) as exc:
        raise FileFormatError(f"{name}: not a results file ({exc}).", path=name) from None
