"""Play-record notation (NOTATION.md section 8.1): lenient in, canonical out.

:func:`parse_record` reads a record's ``key: value`` fields in every spelling NOTATION
allows and reports every problem of the text at once in one :class:`PlayRecordError`
(naming the field, the trick and the token); the rules of play are checked afterwards
(:func:`~.record.check_record`).  :func:`format_record` writes the one canonical form,
:func:`format_play` the one-line play string of the JSON and CSV files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..cards import CARD_IDS, SEAT_HELP, SEAT_NAMES, canonical_order, indices_of
from ..deal import Deal
from ..errors import Problem, RulesError, TarockError, make_error
from ..notation import example_or_text, format_deal, parse_card, parse_deal
from ..play import trick_winner
from ..record_text import read_play, split_fields, split_tokens
from ..rules import CONTRACT_KEYS
from ..rules.names import ANNOUNCE_LEVELS, item_name, seat_index
from ..rules.profiles import CONTRACT_ALIASES
from ..talon import TALON_TAKE, talon_groups
from .record import PlayRecord, PlayRecordError

__all__ = ["ANNOUNCEABLE_ITEMS", "format_announcements", "format_discard", "format_play",
           "format_players", "format_record", "parse_announcements", "parse_contract",
           "parse_discard", "parse_play", "parse_players", "parse_record", "parse_seat",
           "parse_talon_pick"]

#: Items a declarer's announcement in a record may name (those the game-point search
#: plays: RULES.md 5; the other items are hand declarations the search does not model).
ANNOUNCEABLE_ITEMS = ("pagat", "uhu", "kakadu", "absolut", "kramerpoi", "valat")

#: Field names and their accepted spellings (case and ``-``/``_``/spaces ignored).
_KEYS: dict[str, tuple[str, ...]] = {
    "id": ("id", "name"),
    "deal": ("deal",),
    "declarer": ("declarer", "decl", "seat"),
    "contract": ("contract", "game", "bid"),
    "talon": ("talon", "talonpick", "pick", "group", "talongroup"),
    "discard": ("discard", "discards", "laid", "skat"),
    "announce": ("announce", "announcements", "announced", "ann"),
    "play": ("play", "cards", "tricks"),
    "rules": ("rules", "profile"),
    "players": ("players", "names"),
}
_KEY_OF = {alias: key for key, aliases in _KEYS.items() for alias in aliases}
_EMPTY = ("", "-", "none", "—")

def _error(problems: list[str]) -> PlayRecordError:
    return make_error(PlayRecordError, [Problem(p) for p in problems])  # type: ignore[return-value]


# ---------------------------------------------------------------------------
# single fields
# ---------------------------------------------------------------------------


def parse_seat(text: str, what: str = "declarer") -> int:
    """0, 1, 2 for ``F``, ``M``, ``R`` (any case; also ``forehand`` … ``rearhand``)."""
    try:
        return seat_index(str(text))
    except RulesError:
        raise _error([f'{what}: unknown seat "{text}"; {SEAT_HELP}.']) from None


def parse_contract(text: str) -> str:
    """The contract key of ``text`` (three, lower, two, one, solo; lenient spellings)."""
    key = re.sub(r"[\s_\-()]+", "", str(text).strip().lower())
    if key in CONTRACT_KEYS:
        return key
    if key in CONTRACT_ALIASES:
        return CONTRACT_ALIASES[key]
    raise _error([f'contract: unknown contract "{text}"; expected one of '
                  f'{", ".join(CONTRACT_KEYS)}.'])


def parse_talon_pick(text: str, contract: str) -> str:
    """The group label (``1-3``, ``4-6``, ``1-2`` …, ``1`` … ``6``; ``""`` in Solo).

    Lenient: ``t4-t6``, ``4–6``, ``456``, ``second half`` for 4-6 of a Three.
    """
    raw = str(text).strip().lower()
    if raw in _EMPTY:
        return ""
    groups = [label for label, _ in talon_groups(contract)]
    digits = re.sub(r"[^1-6]", "", raw.replace("–", "-"))
    for label in groups:
        if digits and digits in (label.replace("-", ""), _span(label)):
            return label
    if raw in ("first", "first half", "left") and "1-3" in groups:
        return "1-3"
    if raw in ("second", "second half", "right") and "4-6" in groups:
        return "4-6"
    choices = ", ".join(g for g in groups if g) or "none (Solo takes no talon cards)"
    raise _error([f'talon: "{text}" is not a talon group of {contract}; write one of '
                  f"{choices}."])


def _span(label: str) -> str:
    """``"4-6"`` → ``"456"``: a group written out card by card."""
    if "-" not in label:
        return label
    a, b = label.split("-")
    return "".join(str(i) for i in range(int(a), int(b) + 1))


def parse_discard(value: str | Iterable[str]) -> int:
    """The discard as a card mask; all bad tokens are named together."""
    tokens = split_tokens(value) if isinstance(value, str) else [str(v) for v in value]
    if len(tokens) == 1 and tokens[0].lower() in _EMPTY:
        return 0
    mask = 0
    problems = []
    for token in tokens:
        try:
            card = parse_card(token)
        except TarockError as exc:
            problems.append(f"discard: {exc}")
            continue
        if mask >> card & 1:
            problems.append(f"discard: {CARD_IDS[card]} is listed twice.")
        mask |= 1 << card
    if problems:
        raise _error(problems)
    return mask


def parse_announcements(value: str | Iterable[Any] | Mapping[str, Any] | None
                        ) -> tuple[tuple[str, str], ...]:
    """Sorted ``(item, level)`` pairs of ``pagat``, ``valat@before``, ``uhu:after`` …

    A mapping ``{item: level}`` and a list of such strings are accepted too.
    """
    if value is None:
        return ()
    if isinstance(value, Mapping):
        items = [f"{k}@{v}" for k, v in value.items()]
    elif isinstance(value, str):
        items = split_tokens(value)
    else:
        items = [str(v) for v in value]
    out: dict[str, str] = {}
    problems = []
    for token in items:
        if token.lower() in _EMPTY:
            continue
        parts = re.match(r"^([^@:/]+)(?:[@:/](.*))?$", token)
        name, level = (parts.group(1), parts.group(2) or "") if parts else (token, "")
        try:
            item = item_name(name)
        except TarockError:
            item = ""
        if item not in ANNOUNCEABLE_ITEMS:
            problems.append(f'announce: "{token}" is not an announcement the review plays; '
                            f'expected {", ".join(ANNOUNCEABLE_ITEMS)}, optionally with '
                            "@before or @after.")
            continue
        lv = (level or "after").strip().lower()
        if lv not in ANNOUNCE_LEVELS:
            problems.append(f'announce: "{token}": the level must be after or before.')
            continue
        if item in out:
            problems.append(f"announce: {item} is announced twice.")
        out[item] = lv
    if problems:
        raise _error(problems)
    return tuple(sorted(out.items()))


def parse_players(value: str | Mapping[str, Any]) -> dict[str, str]:
    """``F=Anna, M=Bert, R=Cleo`` (or a mapping) → ``{"F": "Anna", …}``; names are free
    text without ``,`` or ``;``."""
    if isinstance(value, Mapping):
        pairs = [(str(k), str(v)) for k, v in value.items()]
    else:
        pairs = []
        for part in re.split(r"[,;]", str(value)):
            if not part.strip():
                continue
            seat, sep, name = part.partition("=")
            if not sep:
                raise _error([f'players: "{part.strip()}" is not SEAT=NAME, e.g. '
                              '"F=Anna, M=Bert, R=Cleo".'])
            pairs.append((seat, name))
    out: dict[str, str] = {}
    for seat, name in pairs:
        key = seat.strip().upper()
        if key not in SEAT_NAMES:
            raise _error([f'players: unknown seat "{seat.strip()}"; {SEAT_HELP}.'])
        if name.strip():
            out[key] = name.strip()
    return {k: out[k] for k in SEAT_NAMES if k in out}


def format_players(players: Mapping[str, str]) -> str:
    """``F=Anna, M=Bert, R=Cleo`` in seat order."""
    return ", ".join(f"{k}={players[k]}" for k in SEAT_NAMES if k in players)


_SEAT_MARK_RE = re.compile(r"^([A-Za-z]+):$")


def _seat_of_mark(mark: str) -> int | None:
    seat = mark.upper()
    return SEAT_NAMES.index(seat) if seat in SEAT_NAMES else None


def parse_play(value: str | Iterable[Any]) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """(cards in play order, the leader the record names per trick or None).

    ``value`` is the play text (NOTATION.md 8.1) or a list of tricks (each a string or
    a list of card tokens).  Cards take every spelling of NOTATION 1.2; tricks are
    separated by ``|``, by new lines, or not at all (the cards are then taken three by
    three); a trick may start with its number (``3.``) and with the seat that leads it
    (``R:``), which is checked against the play.  Every bad token is reported with its
    trick (:func:`~tarock_solver.record_text.read_play`).
    """
    cards, leaders, problems = read_play(value, per_trick=3, seat_of=_seat_of_mark,
                                         seat_mark=_SEAT_MARK_RE, seat_help=SEAT_HELP,
                                         card_of=parse_card)
    # A card played twice is a rule of play: check_record names both tricks.
    if problems:
        raise _error(problems)
    return cards, leaders


# ---------------------------------------------------------------------------
# writers
# ---------------------------------------------------------------------------


def format_discard(mask: int) -> str:
    """Canonical ids in canonical order, space separated (NOTATION 5.3); ``-`` if none."""
    return " ".join(CARD_IDS[c] for c in canonical_order(indices_of(mask))) or "-"


def format_announcements(pairs: Iterable[tuple[str, str]]) -> str:
    """``pagat valat@before``: sorted items, ``@before`` where so; ``-`` if none."""
    return " ".join(k if v == "after" else f"{k}@{v}" for k, v in sorted(pairs)) or "-"


def _leaders(record: PlayRecord) -> list[int]:
    """The leader of every trick of the record, by the rules (F leads the first)."""
    out, leader = [], 0
    for t in range(record.n_tricks):
        out.append(leader)
        cards = record.play[3 * t:3 * t + 3]
        if len(cards) == 3:
            leader = trick_winner(cards, leader)
    return out


def _trick_texts(record: PlayRecord) -> list[str]:
    leaders = _leaders(record)
    return [f"{SEAT_NAMES[leaders[t]]}: "
            + " ".join(CARD_IDS[c] for c in record.play[3 * t:3 * t + 3])
            for t in range(record.n_tricks)]


def format_play(record: PlayRecord) -> str:
    """The one-line play string: ``F: T21 T13 T22 | R: HK H3 HA | …`` (``-`` if empty).

    Each trick starts with the seat that leads it (from the play itself)."""
    return " | ".join(_trick_texts(record)) or "-"


def format_record(record: PlayRecord) -> str:
    """The canonical multi-line text of a record (one field a line, one trick a line)."""
    lines = []
    if record.id:
        lines.append(f"id: {record.id}")
    lines.append(f"deal: {format_deal(record.deal)}")
    lines.append(f"declarer: {SEAT_NAMES[record.declarer]}")
    lines.append(f"contract: {record.contract}")
    if record.contract != "solo":
        lines.append(f"talon: {record.talon_pick or '-'}")
        lines.append(f"discard: {format_discard(record.discard)}")
    if record.announcements:
        lines.append(f"announce: {format_announcements(record.announcements)}")
    if record.rules:
        lines.append(f"rules: {record.rules}")
    if record.players:
        lines.append(f"players: {format_players(record.players)}")
    lines.append("play:")
    lines += [f"{t + 1}. {text}" for t, text in enumerate(_trick_texts(record))]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# whole records
# ---------------------------------------------------------------------------


def _split_fields(text: str) -> tuple[dict[str, str], list[str]]:
    """Fields of a record text: ``{key: value}`` and the problems found."""
    return split_fields(text, _KEY_OF, _KEYS)


def record_from_fields(fields: Mapping[str, Any], *, problems: list[str] | None = None,
                       line: int | None = None, record_id: str | None = None,
                       players: Mapping[str, str] | None = None,
                       options: Mapping[str, Any] | None = None) -> PlayRecord:
    """A :class:`PlayRecord` from parsed field values (text or JSON values).

    Collects every problem of the fields and raises them together.
    """
    problems = list(problems or [])
    for need in ("deal", "declarer", "contract"):
        if not fields.get(need) and fields.get(need) != 0:
            problems.append(f'the record needs a "{need}" field.')
    deal = None
    declarer = contract = None
    pick, discard, anns = "", 0, ()
    play: tuple[int, ...] = ()
    leaders: tuple[int | None, ...] = ()

    def attempt(fn, *args, prefix: str = ""):  # type: ignore[no-untyped-def]
        try:
            return fn(*args)
        except TarockError as exc:
            msgs = getattr(exc, "messages", None) or [str(exc)]
            problems.extend(prefix + m for m in msgs)
            return None

    if fields.get("deal"):
        value = fields["deal"]
        text = example_or_text(value) if isinstance(value, str) else str(value)
        deal = attempt(lambda t: parse_deal(t, warn=False), text, prefix="deal: ")
        if deal is not None and not isinstance(deal, Deal):
            problems.append("deal: a played deal needs all three hands and the talon "
                            "(no '-' or '?').")
            deal = None
    if fields.get("declarer") not in (None, ""):
        declarer = attempt(parse_seat, str(fields["declarer"]))
    if fields.get("contract"):
        contract = attempt(parse_contract, str(fields["contract"]))
    if contract is not None:
        if fields.get("talon") not in (None, ""):
            pick = attempt(parse_talon_pick, str(fields["talon"]), contract) or ""
        elif contract != "solo":
            problems.append(f'the record needs a "talon" field: the talon group the declarer '
                            f"took ({contract} takes {TALON_TAKE[contract]}).")
    if fields.get("discard") not in (None, ""):
        discard = attempt(parse_discard, fields["discard"]) or 0
    elif contract not in (None, "solo"):
        problems.append('the record needs a "discard" field: the cards the declarer laid '
                        "away.")
    if fields.get("announce") not in (None, ""):
        anns = attempt(parse_announcements, fields["announce"]) or ()
    if fields.get("play") not in (None, ""):
        found = attempt(parse_play, fields["play"])
        if found is not None:
            play, leaders = found
    names = dict(players or {})
    if fields.get("players") not in (None, ""):
        names = attempt(parse_players, fields["players"]) or {}
    rid = record_id if record_id is not None else str(fields.get("id") or "")
    if problems:
        where = f'record "{rid}": ' if rid else ""
        raise _error([where + p if where else p for p in problems])
    assert deal is not None and declarer is not None and contract is not None
    return PlayRecord(deal=deal, declarer=declarer, contract=contract, talon_pick=pick,
                      discard=discard, announcements=anns, play=play, id=rid,
                      rules=str(fields["rules"]) if fields.get("rules") else None,
                      options=dict(options or {}), players=names, line=line,
                      leaders=leaders)


def parse_record(text: str) -> PlayRecord:
    """Read a record in the text notation (NOTATION.md 8.1); lenient.

    A record is a list of ``key: value`` fields, one per line or separated by ``;``;
    the ``play`` value may go on over the following lines (:func:`parse_play`).

    Raises :class:`PlayRecordError` naming every problem of the text.  The rules of
    play are not checked here (:func:`~.record.check_record`).
    """
    if not text.strip():
        raise _error(['the record is empty; give at least "deal: …; declarer: F; contract: '
                      'three; talon: 4-6; discard: …; play: …".'])
    fields, problems = _split_fields(text)
    return record_from_fields(fields, problems=problems)
