"""French Tarot deal files: JSON Lines (``.jsonl``) and CSV (``.csv``), FRENCH_NOTATION.md 5,
and the text of one played deal (section 8).

:func:`read_deals` reads either format leniently (strictly, or collecting one
:class:`~tarock_solver.errors.FileFormatError` per bad record), naming the file, the
line, the record's id and the bad field; :func:`write_deals` and :func:`dump_deals`
write the canonical form, which reads back to equal records.  Each record is a
:class:`FrenchDealRecord`, with the cards played when it records a played deal; the
file conventions are those of Illustrated Tarock's deal files
(:mod:`tarock_solver.deal_files`).  :func:`parse_record` reads one record written as
``key: value`` fields, with the same checks as a file's record.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import IO, Any, Literal, overload

from ..errors import FileFormatError, NotationError, Problem, TarockError, make_error, one_line
from ..record_files import (
    BadRecord,
    RecordReader,
    deal_file_format,
    json_line,
    problems_of,
    write_record_file,
)
from ..record_text import split_fields
from .cards import CARD_IDS, SEAT_NAMES, cards_of
from .deal import PLAYERS, FrenchDeal, FrenchPartialDeal, canonical_order, describe_card
from .notation import (
    example_or_text,
    format_deal,
    format_play,
    parse_card,
    parse_chien,
    parse_contract,
    parse_deal,
    parse_hand,
    parse_play,
)

__all__ = ["FrenchDealRecord", "deal_file_format", "dump_deals", "format_record", "parse_record",
           "read_deals", "record_json", "write_deals"]

FORMAT_VERSION = 1
_JSON_FIELDS = ("id", "deal", "hands", "chien", "players", "taker", "contract", "discard",
                "play", "rules", "options", "names", "seed", "comment", "source", "v")
_CSV_EXTRA_COLUMNS = ("taker", "contract", "discard", "play", "rules", "seed", "comment")
_TAKER_FIELDS = ("taker", "contract", "discard")

AnyDeal = FrenchDeal | FrenchPartialDeal


@dataclass
class FrenchDealRecord:
    """One deal of a file with its optional settings.

    The taker, contract and discard are part of ``deal`` (a :class:`FrenchDeal`).
    ``layout`` ("deal" or "hands") only chooses how the JSON Lines writer spells the
    deal and ``line`` is the line it was read from; neither takes part in ``==``.
    ``names`` are the players' names by seat, for display.  ``play`` holds the cards
    played, in order from the first trick (a played deal; the rules of play are checked
    by whoever plays them through, e.g. the review), and ``leaders`` the seat the text
    names as leading each trick (None where it names none; checked, never trusted).
    """

    id: str
    deal: AnyDeal
    rules: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    comment: str | None = None
    source: str | None = None
    layout: str = field(default="deal", compare=False)
    line: int | None = field(default=None, compare=False)
    play: tuple[int, ...] = ()
    leaders: tuple[int | None, ...] = field(default=(), compare=False)


def _field(name: str, messages: list[str]) -> list[str]:
    """Messages about one field, each starting with the field's name."""
    return [m if m.startswith(f'"{name}"') else f'"{name}": {m}' for m in messages]


# ---------------------------------------------------------------------------
# Pieces of a record, shared by both formats
# ---------------------------------------------------------------------------


def _tokens(value: Any, what: str) -> str | list[str]:
    """A string, or a JSON array of card tokens as strings."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise BadRecord([f"{what} must be an array of card tokens or a string; found "
                          f"{json.dumps(value)}."])
    out = []
    for token in value:
        if isinstance(token, bool) or not isinstance(token, str | int):
            raise BadRecord([f"{what}: card tokens must be strings; found {json.dumps(token)}."])
        out.append(str(token))
    return out


def _cards(value: str | list[str], where: str) -> int:
    """Mask of a string (compact or free form) or of a list of tokens; no size check."""
    if isinstance(value, str):
        return parse_hand(value, players=None, where=where)
    problems: list[str] = []
    mask = 0
    for token in value:
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


def _players_value(value: Any, problems: list[str]) -> int | None:
    if value is None or value == "":
        return None
    text = str(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"[0-9]+", text) or int(text) not in PLAYERS:
        problems.append(f'"players": {json.dumps(value)} is not a number of players; expected '
                        f"3, 4 or 5.")
        return None
    return int(text)


def _with_taker(deal: AnyDeal | None, values: dict[str, Any], problems: list[str]
                ) -> AnyDeal | None:
    """The deal with the record's taker, contract and discard, all checked."""
    given = {k: v for k, v in values.items() if k in _TAKER_FIELDS and v not in (None, "")}
    if deal is None or not given:
        return deal
    if not isinstance(deal, FrenchDeal):
        problems.append(f'"{next(iter(given))}" needs a complete deal (every hand and the '
                        f"chien).")
        return None
    start = len(problems)
    taker = contract = discard = None
    if "taker" in given:
        value = given["taker"]
        names = SEAT_NAMES[deal.players]
        if isinstance(value, bool) or str(value).strip() not in names:
            problems.append(f'"taker": {json.dumps(value)} is not a seat; at {deal.players} '
                            f"players the seats are {', '.join(names)}.")
        else:
            taker = names.index(str(value).strip())
    if "contract" in given:
        value = given["contract"]
        if not isinstance(value, str):
            problems.append(f'"contract" must be a string; found {json.dumps(value)}.')
        else:
            try:
                contract = parse_contract(value)
            except TarockError as err:
                problems += _field("contract", problems_of(err))
    if "discard" in given:
        try:
            discard = _cards(_tokens(given["discard"], '"discard"'), "the discard")
        except BadRecord as bad:
            problems += _field("discard", bad.messages)
        except TarockError as err:
            problems += _field("discard", problems_of(err))
    if len(problems) > start:
        return None
    try:
        full = FrenchDeal(hands=deal.hands, chien=deal.chien, taker=taker, contract=contract,
                          discard=discard)
        full.validate()
    except TarockError as err:
        problems += problems_of(err)
        return None
    return full


def _play(value: Any, deal: AnyDeal | None, problems: list[str]
          ) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """The cards of a record's ``play`` and the leaders it names; every problem noted."""
    if value is None or value == "" or value == []:
        return (), ()
    tricks_ok = isinstance(value, list) and all(
        isinstance(v, str) or (isinstance(v, list) and all(
            isinstance(t, str | int) and not isinstance(t, bool) for t in v)) for v in value)
    if not isinstance(value, str) and not tricks_ok:
        problems.append(f'"play" must be a string of tricks ("1: D8 T2 D4 EX | 4: …") or an '
                        f"array of tricks, each a string or an array of card tokens; found "
                        f"{json.dumps(value)}.")
        return (), ()
    try:
        play = parse_play(value, players=deal.players if deal is not None else 4)
    except TarockError as err:
        problems += _field("play", problems_of(err))
        return (), ()
    if deal is None:
        return (), ()  # the deal's own problems are reported
    if not isinstance(deal, FrenchDeal) or deal.taker is None or deal.contract is None:
        problems.append('"play" needs a complete deal, its "taker" and its "contract".')
        return (), ()
    return play


def _build(hands: list[int | None], chien: int | None) -> AnyDeal:
    deal: AnyDeal
    if None in hands or chien is None:
        deal = FrenchPartialDeal(hands=tuple(hands), chien=chien)
    else:
        deal = FrenchDeal(hands=tuple(hands), chien=chien)  # type: ignore[arg-type]
    deal.validate()
    return deal


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


class _Reader(RecordReader[FrenchDealRecord]):
    """Reading one French Tarot deal file; the file mechanics are :class:`RecordReader`'s."""

    # -- JSON Lines ---------------------------------------------------------------

    def json_record(self, obj: dict[str, Any], line: int) -> None:
        problems: list[str] = []
        explicit_id = "id" in obj
        record_id = f"L{line}"
        if explicit_id:
            value = obj["id"]
            if type(value) is int or (isinstance(value, str) and value.strip()):
                record_id = str(value)
            else:
                problems.append(f'"id" must be a non-empty string; found {json.dumps(value)}.')
        for name in obj:
            if name not in _JSON_FIELDS:
                self.note_unknown(name, line)
        if "v" in obj and (type(obj["v"]) is not int or obj["v"] != FORMAT_VERSION):
            problems.append(f'format version "v": {json.dumps(obj["v"])} is not supported; this '
                            f"program reads version {FORMAT_VERSION}.")
        players = _players_value(obj.get("players"), problems)
        deal, layout = self.json_deal(obj, players, problems)
        deal = _with_taker(deal, obj, problems)
        play, leaders = _play(obj.get("play"), deal, problems)
        strings = {}
        for name in ("rules", "comment", "source"):
            value = obj.get(name)
            if value is not None and not isinstance(value, str):
                problems.append(f'"{name}" must be a string; found {json.dumps(value)}.')
            strings[name] = value if isinstance(value, str) else None
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            problems.append('"options" must be an object of option keys.')
            options = {}
        names = self.json_names(obj.get("names"), deal, problems)
        seed = obj.get("seed")
        if seed is not None and type(seed) is not int:
            problems.append(f'"seed" must be a whole number; found {json.dumps(seed)}.')
        self.check_id(record_id, problems)
        if problems or deal is None:
            self.fail(line, record_id if explicit_id else None, problems)
            return
        self.accept(FrenchDealRecord(
            id=record_id, deal=deal, rules=strings["rules"], options=dict(options), names=names,
            seed=seed, comment=strings["comment"], source=strings["source"], layout=layout,
            line=line, play=play, leaders=leaders))

    @staticmethod
    def json_names(value: Any, deal: AnyDeal | None, problems: list[str]) -> dict[str, str]:
        if value is None:
            return {}
        seats = SEAT_NAMES[deal.players] if deal is not None else SEAT_NAMES[5]
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            problems.append('"names" must be an object seat → name, e.g. {"1": "Anne"}.')
            return {}
        bad = [k for k in value if str(k) not in seats]
        if bad:
            problems.append(f'"names" has an unknown seat "{bad[0]}"; the seats are '
                            f"{', '.join(seats)}.")
            return {}
        return {s: value[s] for s in seats if s in value}

    @staticmethod
    def json_deal(obj: dict[str, Any], players: int | None, problems: list[str]
                  ) -> tuple[AnyDeal | None, str]:
        has_deal, has_hands = "deal" in obj, "hands" in obj or "chien" in obj
        if not has_deal and not has_hands:
            problems.append('the record needs "deal" (deal notation) or "hands" and "chien".')
            return None, "deal"
        start = len(problems)
        from_deal = from_hands = None
        if has_deal:
            text = obj["deal"]
            if not isinstance(text, str):
                problems.append(f'"deal" must be a string in deal notation; found '
                                f"{json.dumps(text)}.")
            else:
                try:
                    from_deal = parse_deal(text)
                except TarockError as err:
                    problems += _field("deal", problems_of(err))
        if has_hands:
            try:
                from_hands = _deal_from_json_hands(obj, players)
            except BadRecord as bad:
                problems += bad.messages
            except TarockError as err:
                problems += problems_of(err)
        if len(problems) > start:
            return None, "deal"
        deal = from_deal if has_deal else from_hands
        if has_deal and has_hands and from_deal != from_hands:
            problems.append('"deal" and "hands" describe different deals; give only one.')
            return None, "deal"
        assert deal is not None
        if players is not None and deal.players != players:
            problems.append(f'"players" is {players} but the deal has {deal.players} hands.')
            return None, "deal"
        return deal, "deal" if has_deal else "hands"

    # -- CSV -------------------------------------------------------------------

    def csv_header(self, row: list[str], line: int) -> list[str]:
        keys = [cell.strip().lower() for cell in row]
        seats = [k for k in keys if k in SEAT_NAMES[5]]
        by_seat = "chien" in keys and len(seats) in PLAYERS \
            and sorted(seats) == list(SEAT_NAMES[len(seats)])
        if "deal" not in keys and not by_seat:
            raise FileFormatError(
                f'{self.path}: the header needs "deal", or the seats "1","2",… and "chien"; '
                f'found "{one_line(",".join(row))}".', path=self.path, line=line)
        seen: set[str] = set()
        for key, cell in zip(keys, row, strict=True):
            if key in seen:
                raise FileFormatError(f'{self.path}: the header names column "{cell.strip()}" '
                                      f"twice.", path=self.path, line=line)
            seen.add(key)
            if key not in ("id", "deal", "chien", "players", *SEAT_NAMES[5],
                           *_CSV_EXTRA_COLUMNS):
                self.note_unknown(cell.strip(), 0)
        return keys

    def csv_record(self, values: dict[str, str], row: list[str], header: list[str],
                   line: int) -> None:
        explicit_id = bool(values.get("id", "").strip())
        record_id = values["id"].strip() if explicit_id else f"L{line}"
        shown_id = record_id if explicit_id else None
        if len(row) != len(header):
            self.fail(line, shown_id, [f"expected {len(header)} fields ({','.join(header)}); "
                                       f"found {len(row)}. Quote fields that contain commas."])
            return
        problems: list[str] = []
        players = _players_value(values.get("players", "").strip(), problems)
        start = len(problems)
        from_deal = from_seats = None
        if "deal" in values:
            if not values["deal"].strip():
                problems.append('"deal" is empty.')
            else:
                try:
                    from_deal = parse_deal(values["deal"])
                except TarockError as err:
                    problems += _field("deal", problems_of(err))
        if "chien" in values:
            from_seats = _deal_from_csv_seats(values, problems)
        deal = from_deal if from_deal is not None else from_seats
        if len(problems) == start and from_deal is not None and from_seats is not None \
                and from_deal != from_seats:
            problems.append('"deal" and the seat columns describe different deals; give only '
                            "one.")
        if deal is not None and players is not None and deal.players != players:
            problems.append(f'"players" is {players} but the deal has {deal.players} hands.')
        deal = _with_taker(deal, {k: values.get(k, "").strip() for k in _TAKER_FIELDS},
                           problems)
        play, leaders = _play(values.get("play", "").strip(), deal, problems)
        seed = None
        seed_text = values.get("seed", "").strip()
        if seed_text:
            if re.fullmatch(r"[+-]?[0-9]+", seed_text):
                seed = int(seed_text)
            else:
                problems.append(f'"seed": "{seed_text}" is not a whole number.')
        self.check_id(record_id, problems)
        if problems or deal is None:
            self.fail(line, shown_id, problems)
            return
        self.accept(FrenchDealRecord(id=record_id, deal=deal,
                                     rules=values.get("rules", "").strip() or None, seed=seed,
                                     comment=values.get("comment") or None, line=line,
                                     play=play, leaders=leaders))


def _deal_from_json_hands(obj: dict[str, Any], players: int | None) -> AnyDeal:
    """The deal of a record in ``hands``/``chien`` form; BadRecord lists every problem."""
    problems: list[str] = []
    hands_obj = obj.get("hands")
    if not isinstance(hands_obj, dict):
        problems.append('"hands" must be an object {"1": [...], "2": [...], …} with one entry '
                        "per seat." if "hands" in obj else
                        '"chien" needs "hands" too (or give the whole deal in "deal").')
        raise BadRecord(problems)
    count = players or len(hands_obj)
    if count not in PLAYERS:
        raise BadRecord([f'"hands" has {len(hands_obj)} seats; a French Tarot deal has 3, 4 or '
                          f"5."])
    names = SEAT_NAMES[count]
    hands: list[int | None] = [None] * count
    for key in hands_obj:
        if str(key).strip() not in names:
            problems.append(f'"hands" has an unknown seat "{key}"; at {count} players the seats '
                            f"are {', '.join(names)}.")
    missing = [s for s in names if s not in hands_obj]
    if missing:
        problems.append(f'"hands" needs every seat; missing {", ".join(missing)} (write null '
                        f"for an unknown hand).")
    for seat, value in hands_obj.items():
        if str(seat).strip() not in names or value is None:
            continue
        where = f"hand {seat}"
        try:
            hands[names.index(str(seat).strip())] = _cards(_tokens(value, where), where)
        except BadRecord as bad:
            problems += bad.messages
        except TarockError as err:
            problems += problems_of(err)
    chien: int | None = None
    if "chien" not in obj:
        problems.append('"hands" needs "chien" too (write null if the chien is unknown).')
    elif obj["chien"] is not None:
        try:
            value = _tokens(obj["chien"], '"chien"')
            chien = parse_chien(value, players=None) if isinstance(value, str) else \
                _cards(value, "the chien")
        except BadRecord as bad:
            problems += bad.messages
        except TarockError as err:
            problems += problems_of(err)
    if problems:
        raise BadRecord(problems)
    return _build(hands, chien)


def _deal_from_csv_seats(values: dict[str, str], problems: list[str]) -> AnyDeal | None:
    names = [s for s in SEAT_NAMES[5] if s in values]
    hands: list[int | None] = [None] * len(names)
    start = len(problems)
    for k, seat in enumerate(names):
        text = values[seat].strip()
        if text == "-":
            continue
        try:
            hands[k] = parse_hand(text, players=None, where=f"hand {seat}")
        except TarockError as err:
            problems += problems_of(err)
    chien = None
    try:
        chien = parse_chien(values["chien"], players=None)
    except TarockError as err:
        problems += problems_of(err)
    if len(problems) > start:
        return None
    try:
        return _build(hands, chien)
    except TarockError as err:
        problems += problems_of(err)
        return None


@overload
def read_deals(path: str | PathLike[str], *, strict: Literal[True] = ...
               ) -> list[FrenchDealRecord]: ...


@overload
def read_deals(path: str | PathLike[str], *, strict: Literal[False]
               ) -> tuple[list[FrenchDealRecord], list[FileFormatError]]: ...


def read_deals(path: str | PathLike[str], *, strict: bool = True
               ) -> list[FrenchDealRecord] | tuple[list[FrenchDealRecord], list[FileFormatError]]:
    """Read a ``.jsonl`` or ``.csv`` French Tarot deal file; the extension gives the format.

    ``strict=True``: the records, or :class:`FileFormatError` for the first bad record.
    ``strict=False``: ``(records, errors)``, one error per bad record, in file order.
    Each error's message starts with ``file:line`` and, if the record has one,
    ``(id "…")``, then names every problem of the record (the field, the bad token, the
    seat).  Problems with the file as a whole (unreadable, unknown extension, CSV
    header) raise in both modes.  Unknown fields or columns give one
    :class:`~tarock_solver.deal.DealWarning` per file.
    """
    reader = _Reader(path, strict)
    reader.read()
    if strict:
        return reader.records
    return reader.records, reader.errors


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def _ids(mask: int) -> list[str]:
    return [CARD_IDS[c] for c in canonical_order(cards_of(mask))]


def _taker_values(deal: AnyDeal) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(deal, FrenchDeal):
        if deal.taker is not None:
            out["taker"] = deal.seat_names[deal.taker]
        if deal.contract is not None:
            out["contract"] = deal.contract
        if deal.discard is not None:
            out["discard"] = _ids(deal.discard)
    return out


def record_json(record: FrenchDealRecord) -> dict[str, Any]:
    """The record as the canonical object of a JSON Lines file (section 5.1)."""
    deal = record.deal
    obj: dict[str, Any] = {"id": record.id}
    if record.rules is not None:
        obj["rules"] = record.rules
    if record.options:
        obj["options"] = record.options
    obj["players"] = deal.players
    if record.layout == "hands":
        obj["hands"] = {seat: None if mask is None else _ids(mask)
                        for seat, mask in zip(deal.seat_names, deal.hands, strict=True)}
        obj["chien"] = None if deal.chien is None else _ids(deal.chien)
    elif record.layout == "deal":
        obj["deal"] = format_deal(deal)
    else:
        raise ValueError(f'record {record.id!r}: layout must be "deal" or "hands", not '
                         f"{record.layout!r}")
    obj.update(_taker_values(deal))
    if record.play:
        obj["play"] = format_play(record.play, players=deal.players)
    if record.names:
        obj["names"] = {s: record.names[s] for s in deal.seat_names if s in record.names}
    for name in ("seed", "comment", "source"):
        if getattr(record, name) is not None:
            obj[name] = getattr(record, name)
    return obj


def dump_deals(records: Iterable[FrenchDealRecord], stream: IO[str],
               fmt: Literal["jsonl", "csv"], *, name: str = "output") -> None:
    """Write records to an open text stream in canonical form (``name`` is used in errors)."""
    records = list(records)
    if fmt == "jsonl":
        for record in records:
            stream.write(json_line(record_json(record)))
        return
    if fmt != "csv":
        raise ValueError(f"unknown deal file format {fmt!r}; use 'jsonl' or 'csv'")
    for record in records:
        for what in ("options", "names", "source"):
            if getattr(record, what):
                raise FileFormatError(f'{name}: a CSV deal file cannot hold "{what}" (record '
                                      f'"{record.id}"); write a .jsonl file instead.',
                                      path=name, record_id=record.id)
    rows = []
    for record in records:
        row = {"id": record.id, "deal": format_deal(record.deal),
               "players": str(record.deal.players), "rules": record.rules or "",
               "seed": "" if record.seed is None else str(record.seed),
               "comment": record.comment or "", "taker": "", "contract": "", "discard": "",
               "play": format_play(record.play, players=record.deal.players)
               if record.play else ""}
        for key, value in _taker_values(record.deal).items():
            row[key] = " ".join(value) if isinstance(value, list) else value
        rows.append(row)
    columns = ["id", "deal", "players"] + [c for c in _CSV_EXTRA_COLUMNS
                                           if any(row[c] for row in rows)]
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[c] for c in columns])


def write_deals(path: str | PathLike[str], records: Iterable[FrenchDealRecord]) -> None:
    """Write a ``.jsonl`` or ``.csv`` deal file in canonical form (UTF-8, ``\\n`` line ends).

    JSON Lines with ``deal`` strings (``hands``/``chien`` arrays for records whose
    ``layout`` is ``"hands"``); CSV with the columns ``id,deal,players`` and, when any
    record has them, ``taker,contract,discard,play,rules,seed,comment``.
    """
    write_record_file(path, lambda stream, fmt: dump_deals(records, stream, fmt,
                                                           name=str(path)))


# ---------------------------------------------------------------------------
# One record as text
# ---------------------------------------------------------------------------

#: Field names of a record's text and their accepted spellings (folded).
_TEXT_KEYS: dict[str, tuple[str, ...]] = {
    "id": ("id", "name"),
    "deal": ("deal", "donne"),
    "taker": ("taker", "preneur"),
    "contract": ("contract", "contrat", "bid"),
    "discard": ("discard", "ecart", "écart"),
    "play": ("play", "cards", "tricks", "jeu"),
    "rules": ("rules", "profile"),
}
_TEXT_KEY_OF = {alias: key for key, aliases in _TEXT_KEYS.items() for alias in aliases}


class _TextReader(_Reader):
    """One record's text, read through the checks of a file's JSON record; its problems
    are raised together, with the field text's own problems first."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("(record)", strict=True)
        self.before = problems

    def fail(self, line: int, record_id: str | None, messages: list[str]) -> None:
        where = f'record "{record_id}": ' if record_id else ""
        raise make_error(NotationError, [Problem(where + m)
                                         for m in [*self.before, *messages]])


def parse_record(text: str) -> FrenchDealRecord:
    """Read one played deal written as ``key: value`` fields (FRENCH_NOTATION.md 8), one a
    line or separated by ``;``: ``deal`` (deal notation or ``example-1``), ``taker``,
    ``contract``, ``discard``, ``play`` (which may go on over the following lines),
    ``id`` and ``rules``.

    Every problem of the text is reported at once in one :class:`NotationError`, naming
    the field and the token.  The rules of play are not checked here.
    """
    if not text.strip():
        raise NotationError('the record is empty; give at least "deal: …; taker: 4; contract: '
                            'garde; discard: …; play: …".')
    fields, problems = split_fields(text, _TEXT_KEY_OF, _TEXT_KEYS)
    obj: dict[str, Any] = dict(fields)
    if "deal" in obj:
        try:
            obj["deal"] = example_or_text(obj["deal"])
        except TarockError as err:
            problems += _field("deal", problems_of(err))
            del obj["deal"]
    reader = _TextReader(problems)
    reader.json_record(obj, 1)
    if problems:
        reader.fail(1, obj.get("id"), [])
    record = reader.records[0]
    return record if "id" in obj else replace(record, id="", line=None)


def format_record(record: FrenchDealRecord) -> str:
    """The canonical text of a record (one field a line, the play one trick a line,
    numbered): what :func:`parse_record` reads back to an equal record."""
    deal = record.deal
    lines = [f"id: {record.id}"] if record.id else []
    lines.append(f"deal: {format_deal(deal)}")
    for key, value in _taker_values(deal).items():
        lines.append(f"{key}: {' '.join(value) if isinstance(value, list) else value}")
    if record.rules:
        lines.append(f"rules: {record.rules}")
    if record.play:
        lines.append("play:")
        tricks = format_play(record.play, players=deal.players).split(" | ")
        lines += [f"{t + 1}. {text}" for t, text in enumerate(tricks)]
    return "\n".join(lines) + "\n"
