"""The outcome of one deal as `tarock score` reads it: options and a JSON object.

:func:`input_from_dict` turns a JSON-style object (the fields of :data:`INPUT_FIELDS`)
into a :class:`~tarock_solver.scoring.ScoreInput`; the command-line forms of
``--announce``, ``--bird`` and ``--hand-bonus`` are read by :func:`parse_announce`,
:func:`parse_bird` and :func:`hand_bonus_mask`.  The scenario string ``option`` is the
results-file grammar of NOTATION 5.3, read by :func:`tarock_solver.scoring.parse_option`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tarock_solver.cards import INDEX_OF, KINGS_MASK, TRULL_MASK
from tarock_solver.errors import RulesError
from tarock_solver.notation import parse_cards, parse_hand
from tarock_solver.rules import BIRD_KEYS, HAND_KEYS, SEAT_NAMES, Rules, item_name, seat_index
from tarock_solver.scoring import (
    BirdOutcome,
    Option,
    ScoreInput,
    parse_option,
    thirds_from_points,
)

#: A representative holding for each hand bonus, when only the bonuses are known.
HAND_BONUS_MASK = {"trull": TRULL_MASK, "koepfe": TRULL_MASK & ~(1 << INDEX_OF["T1"]),
                   "kings": KINGS_MASK}

#: Fields of a JSON outcome object.
INPUT_FIELDS: tuple[str, ...] = (
    "rules", "options", "contract", "declarer", "points", "thirds", "level", "announce",
    "defender_announce", "option", "contra", "birds", "valat", "hand_bonus", "hands",
    "declarer_hand", "broken", "trischaken",
)


def parse_announce(text: str) -> tuple[str, str, int | None]:
    """``NAME[:LEVEL|@LEVEL][/SEAT]`` -> (name, level, seat); level defaults to ``after``."""
    raw = text.strip()
    seat: int | None = None
    if "/" in raw:
        raw, _, seat_txt = raw.rpartition("/")
        seat = seat_index(seat_txt)
    for sep in (":", "@"):
        if sep in raw:
            name, _, level = raw.partition(sep)
            break
    else:
        name, level = raw, "after"
    level = level.strip().lower()
    if level not in ("after", "before"):
        raise RulesError(
            f'announcement "{text}": the level is after or before, e.g. pagat:before.'
        )
    return item_name(name), level, seat


def parse_bird(text: str) -> tuple[str, BirdOutcome]:
    """``pagat:holder=F,trick=16,winner=M`` (``trick=-`` for a card never played)."""
    name, sep, rest = text.strip().partition(":")
    bird = name.strip().lower()
    if not sep or bird not in BIRD_KEYS:
        raise RulesError(
            f'bird "{text}": write BIRD:holder=SEAT,trick=N,winner=SEAT with BIRD one of '
            f'{", ".join(BIRD_KEYS)}, e.g. pagat:holder=F,trick=16,winner=M.'
        )
    parts: dict[str, str] = {}
    for part in rest.split(","):
        key, eq, value = part.partition("=")
        if not eq or key.strip().lower() not in ("holder", "trick", "winner"):
            raise RulesError(f'bird "{text}": "{part}" is not holder=, trick= or winner=.')
        parts[key.strip().lower()] = value.strip()
    return bird, bird_outcome_from_dict(bird, parts)


def bird_outcome_from_dict(bird: str, data: Mapping[str, object]) -> BirdOutcome:
    """A bird outcome from ``{"holder": "F", "trick": 16, "winner": "M"}``."""
    if "holder" not in data:
        raise RulesError(f"bird {bird}: the holder (F, M or R) is missing.")
    trick_raw = data.get("trick")
    if trick_raw in (None, "-", "none", ""):
        trick = None
    else:
        try:
            trick = int(str(trick_raw))
        except ValueError:
            raise RulesError(f'bird {bird}: trick "{trick_raw}" is not a number 1-16.') from None
    winner_raw = data.get("winner")
    winner = None if winner_raw in (None, "-", "") else seat_index(str(winner_raw))
    if trick is not None and winner is None:
        raise RulesError(f"bird {bird}: the winner of trick {trick} is missing.")
    return BirdOutcome(seat_index(str(data["holder"])), trick, winner)


def hand_bonus_mask(names: Sequence[str] | str) -> int:
    """A holding with exactly the named hand bonuses (trull/koepfe/kings)."""
    items = [n for n in (names.split(",") if isinstance(names, str) else names) if str(n).strip()]
    mask = 0
    chosen = set()
    for raw in items:
        name = item_name(str(raw))
        if name not in HAND_KEYS:
            raise RulesError(f'"{raw}" is not a hand bonus; hand bonuses are trull, koepfe, kings.')
        chosen.add(name)
        mask |= HAND_BONUS_MASK[name]
    if {"trull", "koepfe"} <= chosen:
        raise RulesError("trull and koepfe exclude each other (Köpfe is exactly two Trull cards).")
    return mask


def _hand_of(value: object, where: str) -> int | None:
    if value is None or value == "-":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return parse_hand(value, size=None, where=where)
    if isinstance(value, Sequence):
        mask = 0
        for card in parse_cards([str(v) for v in value], where=where):
            mask |= 1 << card
        return mask
    raise RulesError(f"{where}: a hand is a string, a list of cards or null.")


def _field(data: Mapping[str, object], key: str, kind: type | tuple[type, ...]) -> Any:
    """``data[key]`` if it has the expected JSON type (empty if missing); else RulesError."""
    value = data.get(key)
    if value is None:
        return {} if kind is Mapping else []
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, kind):
        want = {Mapping: "an object", list: "a list"}
        kinds = kind if isinstance(kind, tuple) else (kind,)
        raise RulesError(f'"{key}" must be {" or ".join(want[k] for k in kinds)}.')
    return value


def input_from_dict(rules: Rules, data: Mapping[str, object]) -> ScoreInput:
    """A :class:`ScoreInput` from a JSON-style object (the fields of :data:`INPUT_FIELDS`).

    ``rules``/``options``/``trischaken`` are read by the caller; they are accepted
    and ignored here.
    """
    unknown = sorted(set(data) - set(INPUT_FIELDS))
    if unknown:
        raise RulesError(
            f"unknown field(s) {', '.join(unknown)} in the outcome; "
            f"valid fields: {', '.join(INPUT_FIELDS)}."
        )
    if "contract" not in data:
        raise RulesError("the outcome needs a contract (e.g. \"contract\": \"three\").")
    contract = rules.contract_key(str(data["contract"]))
    declarer = seat_index(str(data.get("declarer", "F")))

    thirds: int | None = None
    if data.get("points") is not None and data.get("thirds") is not None:
        raise RulesError("give either points or thirds, not both.")
    try:
        if data.get("thirds") is not None:
            thirds = int(str(data["thirds"]))
        elif data.get("points") is not None:
            thirds = thirds_from_points(contract, int(str(data["points"])))
    except ValueError:
        raise RulesError("points / thirds must be whole numbers.") from None

    option = parse_option(str(data["option"])) if data.get("option") else Option()
    announcements = option.declarer_announcements()
    defender = {s: dict(v) for s, v in option.defender_announcements().items()}
    raw_ann = _field(data, "announce", (Mapping, list))
    entries = (list(raw_ann.items()) if isinstance(raw_ann, Mapping)
               else [(a, None) for a in raw_ann])
    for text, level in entries:
        name, lv, seat = parse_announce(f"{text}:{level}" if level else str(text))
        if seat is None or seat == declarer:
            announcements[name] = lv
        else:
            defender.setdefault(seat, {})[name] = lv
    for seat_txt, items in _field(data, "defender_announce", Mapping).items():
        if not isinstance(items, Mapping):
            raise RulesError('"defender_announce" maps a seat to {"NAME": "after"}.')
        for name, level in items.items():
            defender.setdefault(seat_index(str(seat_txt)), {})[item_name(name)] = str(level)

    contras = dict(option.contras)
    contras.update({str(k): str(v) for k, v in _field(data, "contra", Mapping).items()})

    birds: dict[str, BirdOutcome] = {}
    for name, value in _field(data, "birds", Mapping).items():
        bird = str(name).strip().lower()
        if isinstance(value, BirdOutcome):
            birds[bird] = value
        elif isinstance(value, str):
            birds[bird] = parse_bird(f"{bird}:{value}")[1]
        elif isinstance(value, Mapping):
            birds[bird] = bird_outcome_from_dict(bird, value)
        else:
            raise RulesError(f'bird {bird}: give {{"holder": ..., "trick": ..., "winner": ...}}.')

    dealt: list[int | None] = [None, None, None]
    for seat_txt, hand in _field(data, "hands", Mapping).items():
        seat = seat_index(str(seat_txt))
        dealt[seat] = _hand_of(hand, f"hand {SEAT_NAMES[seat]}")
    declarer_hand = _hand_of(data.get("declarer_hand"), "declarer_hand")
    for seat_txt, names in _field(data, "hand_bonus", Mapping).items():
        seat = seat_index(str(seat_txt))
        mask = hand_bonus_mask(names)  # type: ignore[arg-type]
        if dealt[seat] is not None or (seat == declarer and declarer_hand is not None):
            raise RulesError(
                f"seat {SEAT_NAMES[seat]}: give either its hand or its hand bonuses, not both."
            )
        dealt[seat] = mask
        if seat == declarer:
            declarer_hand = mask
    level = data.get("level")
    return ScoreInput(
        contract=contract,
        declarer=declarer,
        declarer_thirds=thirds,
        level=str(level) if level else option.level,
        announcements=announcements,
        defender_announcements=defender,
        contras=contras,
        birds=birds,
        valat=bool(data.get("valat", False)),
        declarer_hand=declarer_hand,
        dealt=(dealt[0], dealt[1], dealt[2]),
        broken=tuple(str(b) for b in _field(data, "broken", list)),
    )
