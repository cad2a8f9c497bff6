"""Deal files: JSON Lines (``.jsonl``) and CSV (``.csv``), NOTATION 5.1 and 5.2.

:func:`read_deals` reads either format (strictly, or collecting one
:class:`FileFormatError` per bad record for batches); :func:`write_deals` and
:func:`dump_deals` write the canonical form.  Each record is a :class:`DealRecord`.
"""

from __future__ import annotations

import csv
import json
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from os import PathLike
from typing import IO, Any, Literal, overload

from .cards import (
    CARD_IDS,
    SEAT_HELP,
    SEAT_NAMES,
    TALON_SIZE,
    canonical_order,
    describe_card,
    indices_of,
)
from .deal import Deal, DealWarning, PartialDeal, no_tarock_warnings
from .errors import FileFormatError, TarockError, one_line
from .notation import (
    format_deal,
    parse_card,
    parse_deal,
    parse_hand,
    parse_talon,
)
from .record_files import (
    BadRecord,
    RecordReader,
    deal_file_format,
    json_line,
    problems_of,
    write_record_file,
)

__all__ = ["DealRecord", "deal_file_format", "dump_deals", "read_deals", "write_deals"]

FORMAT_VERSION = 1
_JSON_FIELDS = ("id", "deal", "hands", "talon", "hand", "seat", "rules", "options", "players",
                "seed", "comment", "source", "v")
_CSV_EXTRA_COLUMNS = ("rules", "seed", "comment")


@dataclass
class DealRecord:
    """One deal of a file with its optional settings.

    ``layout`` ("deal", "hands" or "hand") only chooses how the JSON Lines writer
    spells the deal; ``line`` is the line the record was read from.  Neither takes part
    in ``==``.  ``options`` keeps the JSON values as given (strings from CSV and the
    command line).  ``source`` is free text on where the deal came from, like
    ``comment``.
    """

    id: str
    deal: Deal | PartialDeal
    rules: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    comment: str | None = None
    source: str | None = None
    layout: str = field(default="deal", compare=False)
    line: int | None = field(default=None, compare=False)


def _build_deal(hands: list[int | None], talon: tuple[int, ...] | None) -> Deal | PartialDeal:
    deal: Deal | PartialDeal
    if None in hands or talon is None:
        deal = PartialDeal(hands=tuple(hands), talon=talon)  # type: ignore[arg-type]
    else:
        deal = Deal(hands=tuple(hands), talon=talon)  # type: ignore[arg-type]
    deal.validate()
    return deal


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


class _Reader(RecordReader[DealRecord]):
    """Reading one Illustrated Tarock deal file; the file mechanics are :class:`RecordReader`'s."""

    def accept(self, record: DealRecord, explicit_id: bool = False) -> None:
        prefix = self.location(record.line or 0, record.id if explicit_id else None)
        for message in no_tarock_warnings(record.deal):
            # 5 frames up: accept, json_record/csv_record, read_jsonl/read_csv, read,
            # read_deals, and so the warning points at read_deals.
            warnings.warn(DealWarning(f"{prefix}: {message}"), stacklevel=5)
        super().accept(record)

    # -- JSON Lines -----------------------------------------------------------

    def json_record(self, obj: dict[str, Any], line: int) -> None:
        problems: list[str] = []
        explicit_id = "id" in obj
        record_id = self.json_id(obj, line, problems)
        for name in obj:
            if name not in _JSON_FIELDS:
                self.note_unknown(name, line)
        if "v" in obj and (type(obj["v"]) is not int or obj["v"] != FORMAT_VERSION):
            problems.append(f'format version "v": {json.dumps(obj["v"])} is not supported; this '
                            f"program reads version {FORMAT_VERSION}.")
        deal, layout = self.json_deal(obj, problems)
        rules = _optional_str(obj, "rules", problems)
        comment = _optional_str(obj, "comment", problems)
        source = _optional_str(obj, "source", problems)
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            problems.append('"options" must be an object of option keys, e.g. '
                            '{"partner_capture": "fail"}.')
            options = {}
        players = _players(obj.get("players"), problems)
        seed = obj.get("seed")
        if seed is not None and type(seed) is not int:
            problems.append(f'"seed" must be a whole number; found {json.dumps(seed)}.')
        self.check_id(record_id, problems)
        if problems or deal is None:
            self.fail(line, record_id if explicit_id else None, problems)
            return
        self.accept(DealRecord(id=record_id, deal=deal, rules=rules, options=dict(options),
                               players=players, seed=seed, comment=comment, source=source,
                               layout=layout, line=line), explicit_id)

    @staticmethod
    def json_id(obj: dict[str, Any], line: int, problems: list[str]) -> str:
        if "id" not in obj:
            return f"L{line}"
        value = obj["id"]
        if type(value) is int:
            return str(value)
        if not isinstance(value, str) or not value.strip():
            problems.append(f'"id" must be a non-empty string; found {json.dumps(value)}.')
            return f"L{line}"
        return value

    def json_deal(self, obj: dict[str, Any], problems: list[str]
                  ) -> tuple[Deal | PartialDeal | None, str]:
        has_deal = "deal" in obj
        has_hands = "hands" in obj or "talon" in obj
        if "hand" in obj or "seat" in obj:
            return _deal_from_json_hand(obj, has_deal or has_hands, problems), "hand"
        if not has_deal and not has_hands:
            problems.append('the record needs "deal" (deal notation), "hands" and "talon", '
                            'or "hand" (one hand of 16 cards, with "seat").')
            return None, "deal"
        from_deal = from_hands = None
        start = len(problems)
        if has_deal:
            text = obj["deal"]
            if not isinstance(text, str):
                problems.append(f'"deal" must be a string in deal notation; found '
                                f"{json.dumps(text)}.")
            else:
                try:
                    from_deal = parse_deal(text, warn=False)
                except TarockError as err:
                    problems += problems_of(err)
        if has_hands:
            try:
                from_hands = _deal_from_json_hands(obj)
            except BadRecord as bad:
                problems += bad.messages
            except TarockError as err:
                problems += problems_of(err)
        if len(problems) > start:
            return None, "deal"
        if has_deal and has_hands:
            if from_deal != from_hands:
                problems.append('"deal" and "hands" describe different deals; give only one.')
                return None, "deal"
            return from_deal, "deal"
        return (from_deal, "deal") if has_deal else (from_hands, "hands")

    # -- CSV ----------------------------------------------------------------

    def csv_header(self, row: list[str], line: int) -> list[str]:
        keys = [cell.strip().lower() for cell in row]
        by_seat = all(k in keys for k in ("f", "m", "r", "talon"))
        if "deal" not in keys and not by_seat:
            raise FileFormatError(
                f'{self.path}: the header needs "deal", or "F","M","R","talon"; found '
                f'"{one_line(",".join(row))}".', path=self.path, line=line)
        seen: set[str] = set()
        for key, cell in zip(keys, row, strict=True):
            if key in seen:
                raise FileFormatError(f'{self.path}: the header names column "{cell.strip()}" '
                                      f"twice.", path=self.path, line=line)
            seen.add(key)
            if key not in ("id", "deal", "f", "m", "r", "talon", *_CSV_EXTRA_COLUMNS):
                self.note_unknown(cell.strip(), 0)
        return keys

    def csv_record(self, values: dict[str, str], row: list[str], header: list[str],
                   line: int) -> None:
        explicit_id = bool(values.get("id", "").strip())
        record_id = values["id"].strip() if explicit_id else f"L{line}"
        if len(row) != len(header):
            self.fail(line, record_id if explicit_id else None, [
                f"expected {len(header)} fields ({','.join(header)}); found {len(row)}. "
                f"Quote fields that contain commas."])
            return
        problems: list[str] = []
        from_deal = from_seats = None
        start = len(problems)
        if "deal" in values:
            if not values["deal"].strip():
                problems.append('the "deal" field is empty.')
            else:
                try:
                    from_deal = parse_deal(values["deal"], warn=False)
                except TarockError as err:
                    problems += problems_of(err)
        if all(k in values for k in ("f", "m", "r", "talon")):
            from_seats = _deal_from_csv_seats(values, problems)
        deal = from_deal if from_deal is not None else from_seats
        if len(problems) == start and from_deal is not None and from_seats is not None \
                and from_deal != from_seats:
            problems.append('"deal" and "F","M","R","talon" describe different deals; give only '
                            "one.")
        seed = None
        seed_text = values.get("seed", "").strip()
        if seed_text:
            if re.fullmatch(r"[+-]?[0-9]+", seed_text):
                seed = int(seed_text)
            else:
                problems.append(f'seed "{seed_text}" is not a whole number.')
        self.check_id(record_id, problems)
        if problems or deal is None:
            self.fail(line, record_id if explicit_id else None, problems)
            return
        self.accept(DealRecord(id=record_id, deal=deal,
                               rules=values.get("rules", "").strip() or None,
                               seed=seed, comment=values.get("comment") or None, line=line),
                    explicit_id)


def _optional_str(obj: dict[str, Any], name: str, problems: list[str]) -> str | None:
    value = obj.get(name)
    if value is not None and not isinstance(value, str):
        problems.append(f'"{name}" must be a string; found {json.dumps(value)}.')
        return None
    return value


def _players(value: Any, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append('"players" must be an object F/M/R → name, e.g. {"F": "Anna"}.')
        return {}
    players: dict[str, str] = {}
    for seat, name in value.items():
        if str(seat).upper() not in SEAT_NAMES:
            problems.append(f'"players" has an unknown seat "{seat}"; {SEAT_HELP}.')
        elif not isinstance(name, str):
            problems.append(f'"players" {seat}: the name must be a string.')
        else:
            players[str(seat).upper()] = name
    return {s: players[s] for s in SEAT_NAMES if s in players}


def _json_tokens(value: list[Any], what: str) -> list[str]:
    tokens = []
    for token in value:
        if isinstance(token, bool) or not isinstance(token, str | int):
            raise BadRecord([f"{what}: card tokens must be strings; found {json.dumps(token)}."])
        tokens.append(str(token))
    return tokens


def _deal_from_json_hands(obj: dict[str, Any]) -> Deal | PartialDeal:
    """The deal of a record in ``hands``/``talon`` form; BadRecord lists every problem."""
    problems: list[str] = []
    hands_obj = obj.get("hands")
    hands: list[int | None] = [None, None, None]
    if not isinstance(hands_obj, dict):
        if "hands" in obj:
            problems.append('"hands" must be an object {"F": [...], "M": [...], "R": [...]}.')
        hands_obj = {}
    given = {}
    for key, value in hands_obj.items():
        if str(key).upper() in SEAT_NAMES:
            given[str(key).upper()] = value
        else:
            problems.append(f'"hands" has an unknown seat "{key}"; {SEAT_HELP}.')
    missing = [s for s in SEAT_NAMES if s not in given]
    if missing and isinstance(obj.get("hands"), dict):
        problems.append(f'"hands" needs F, M and R; missing {", ".join(missing)} (write null '
                        f"for an unknown hand).")
    for seat, value in given.items():
        where = f"hand {seat}"
        try:
            hands[SEAT_NAMES.index(seat)] = _json_hand(value, where)
        except BadRecord as bad:
            problems += bad.messages
        except TarockError as err:
            problems += problems_of(err)
    talon: tuple[int, ...] | None = None
    if "talon" not in obj:
        problems.append('"hands" needs "talon" too (write null if the talon is unknown).')
    else:
        try:
            talon = _json_talon(obj["talon"])
        except BadRecord as bad:
            problems += bad.messages
        except TarockError as err:
            problems += problems_of(err)
    if "hands" not in obj:
        problems.append('"talon" needs "hands" too (or give the whole deal in "deal").')
    if problems:
        raise BadRecord(problems)
    return _build_deal(hands, talon)


def _deal_from_json_hand(obj: dict[str, Any], whole_deal_too: bool, problems: list[str]
                         ) -> PartialDeal | None:
    """The advice record ``{"hand": …, "seat": "M"}``: one known hand, the rest unknown."""
    start = len(problems)
    if whole_deal_too:
        problems.append('give either "hand" (one hand, with "seat") or the deal ("deal", or '
                        '"hands" and "talon"), not both.')
    if "hand" not in obj:
        problems.append('"seat" needs "hand": the 16 cards held at that seat.')
    seat_value = obj.get("seat", "F")
    seat = None
    if not isinstance(seat_value, str) or seat_value.strip().upper() not in SEAT_NAMES:
        problems.append(f'"seat" {json.dumps(seat_value)} is not a seat; {SEAT_HELP}.')
    else:
        seat = SEAT_NAMES.index(seat_value.strip().upper())
    mask = None
    if "hand" in obj:
        where = "hand" if seat is None else f"hand {SEAT_NAMES[seat]}"
        try:
            mask = _json_hand(obj["hand"], where)
            if mask is None:
                problems.append('"hand" must list the 16 cards of the hand; found null.')
        except BadRecord as bad:
            problems += bad.messages
        except TarockError as err:
            problems += problems_of(err)
    if len(problems) > start or seat is None or mask is None:
        return None
    hands: list[int | None] = [None, None, None]
    hands[seat] = mask
    try:
        deal = _build_deal(hands, None)
    except TarockError as err:
        problems += problems_of(err)
        return None
    assert isinstance(deal, PartialDeal)
    return deal


def _json_hand(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        return parse_hand(value, size=None, where=where)
    if not isinstance(value, list):
        raise BadRecord([f"{where} must be an array of card tokens or null; found "
                          f"{json.dumps(value)}."])
    problems: list[str] = []
    mask = 0
    for token in _json_tokens(value, where):
        try:
            card = parse_card(token, where=where)
        except TarockError as err:
            problems += problems_of(err)
            continue
        if mask >> card & 1:
            problems.append(f"card {describe_card(card)} appears twice in {where}.")
        mask |= 1 << card
    if problems:
        raise BadRecord(problems)
    return mask


def _json_talon(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return parse_talon(value)
    if not isinstance(value, list):
        raise BadRecord([f'"talon" must be an array of 6 card tokens or null; found '
                          f"{json.dumps(value)}."])
    problems: list[str] = []
    cards = []
    for position, token in enumerate(_json_tokens(value, "talon"), start=1):
        try:
            cards.append(parse_card(token, where=f"talon position {position}"))
        except TarockError as err:
            problems += problems_of(err)
    if len(value) != TALON_SIZE:
        problems.append(f"the talon must list 6 cards in table order (t1 … t6); "
                        f"found {len(value)}.")
    if problems:
        raise BadRecord(problems)
    return tuple(cards)


def _deal_from_csv_seats(values: dict[str, str], problems: list[str]) -> Deal | PartialDeal | None:
    hands: list[int | None] = [None, None, None]
    talon: tuple[int, ...] | None = None
    start = len(problems)
    for seat in SEAT_NAMES:
        text = values[seat.lower()].strip()
        if text == "-":
            continue
        try:
            hands[SEAT_NAMES.index(seat)] = parse_hand(text, size=None, where=f"hand {seat}")
        except TarockError as err:
            problems += problems_of(err)
    try:
        talon = parse_talon(values["talon"])
    except TarockError as err:
        problems += problems_of(err)
    if len(problems) > start:
        return None
    try:
        return _build_deal(hands, talon)
    except TarockError as err:
        problems += problems_of(err)
        return None


@overload
def read_deals(path: str | PathLike[str], *, strict: Literal[True] = ...) -> list[DealRecord]: ...


@overload
def read_deals(path: str | PathLike[str], *, strict: Literal[False]
               ) -> tuple[list[DealRecord], list[FileFormatError]]: ...


def read_deals(path: str | PathLike[str], *, strict: bool = True
               ) -> list[DealRecord] | tuple[list[DealRecord], list[FileFormatError]]:
    """Read a ``.jsonl`` or ``.csv`` deal file (NOTATION 5.1, 5.2); the format comes
    from the file extension.

    ``strict=True``: the records, or :class:`FileFormatError` for the first bad record.
    ``strict=False`` (batches): ``(records, errors)`` with one error per bad record, in
    file order, and reading goes on.  Each error's message starts with ``file:line``
    and, if the record has one, ``(id "…")``, then names every problem of the record
    (the bad token, seat, talon position); the error also carries ``path``, ``line``,
    ``record_id`` and ``messages`` attributes.  Problems with the file as a whole
    (cannot be opened, unknown extension, CSV header, not UTF-8 in a CSV file) raise
    :class:`FileFormatError` in both modes.

    Warnings go through the :mod:`warnings` module as
    :class:`~tarock_solver.deal.DealWarning` (collect them with
    :func:`tarock_solver.deal.capture_warnings`): one per record with a tarock-less
    hand, and one per file naming all unknown fields or columns.
    """
    reader = _Reader(path, strict)
    reader.read()
    if strict:
        return reader.records
    return reader.records, reader.errors


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def _sorted_ids(mask: int) -> list[str]:
    return [CARD_IDS[c] for c in canonical_order(indices_of(mask))]


def _json_object(record: DealRecord) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": record.id}
    if record.rules is not None:
        obj["rules"] = record.rules
    if record.options:
        obj["options"] = record.options
    if record.layout == "hands":
        obj["hands"] = {seat: None if mask is None else _sorted_ids(mask)
                        for seat, mask in zip(SEAT_NAMES, record.deal.hands, strict=True)}
        obj["talon"] = None if record.deal.talon is None else [CARD_IDS[c]
                                                              for c in record.deal.talon]
    elif record.layout == "hand" and isinstance(record.deal, PartialDeal) \
            and record.deal.talon is None and len(record.deal.known_seats()) == 1:
        seat = record.deal.own_seat()
        hand = record.deal.hands[seat]
        assert hand is not None
        obj["hand"] = " ".join(_sorted_ids(hand))
        obj["seat"] = SEAT_NAMES[seat]
    elif record.layout in ("deal", "hand"):
        obj["deal"] = format_deal(record.deal)
    else:
        raise ValueError(f'record {record.id!r}: layout must be "deal", "hands" or "hand", '
                         f"not {record.layout!r}")
    if record.players:
        obj["players"] = {s: record.players[s] for s in SEAT_NAMES if s in record.players}
    if record.seed is not None:
        obj["seed"] = record.seed
    if record.comment is not None:
        obj["comment"] = record.comment
    if record.source is not None:
        obj["source"] = record.source
    return obj


def dump_deals(records: Iterable[DealRecord], stream: IO[str], fmt: Literal["jsonl", "csv"],
               *, name: str = "output") -> None:
    """Write records to an open text stream in canonical form (``name`` is used in errors)."""
    records = list(records)
    if fmt == "jsonl":
        for record in records:
            stream.write(json_line(_json_object(record)))
        return
    if fmt != "csv":
        raise ValueError(f"unknown deal file format {fmt!r}; use 'jsonl' or 'csv'")
    for record in records:
        if record.options or record.players:
            raise FileFormatError(f'{name}: a CSV deal file cannot hold "options" or "players" '
                                  f'(record "{record.id}"); write a .jsonl file instead.',
                                  path=name, record_id=record.id)
        if record.source is not None:
            raise FileFormatError(f'{name}: a CSV deal file cannot hold "source" (record '
                                  f'"{record.id}"); write a .jsonl file instead.',
                                  path=name, record_id=record.id)
    columns = ["id", "deal"] + [c for c in _CSV_EXTRA_COLUMNS
                                if any(getattr(r, c) is not None for r in records)]
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        row = {"id": record.id, "deal": format_deal(record.deal), "rules": record.rules or "",
               "seed": "" if record.seed is None else str(record.seed),
               "comment": record.comment or ""}
        writer.writerow([row[c] for c in columns])


def write_deals(path: str | PathLike[str], records: Iterable[DealRecord]) -> None:
    """Write a ``.jsonl`` or ``.csv`` deal file in canonical form (UTF-8, ``\\n`` line ends).

    JSON Lines with ``deal`` strings (or ``hands``/``talon`` arrays for records whose
    ``layout`` is ``"hands"``); CSV in the one-string layout with optional ``rules``,
    ``seed`` and ``comment`` columns.
    """
    write_record_file(path, lambda stream, fmt: dump_deals(records, stream, fmt,
                                                           name=str(path)))

