"""Reading and writing cards, hands and deals (NOTATION.md sections 1-3 and 7).

Lenient input, strict output: the readers accept every spelling of NOTATION 1.2/1.3, the
writers produce one canonical form, and a canonical string read and written again is the
same byte for byte.  Errors (:class:`~tarock_solver.errors.NotationError`: unreadable;
:class:`~tarock_solver.errors.DealError`: wrong card counts or duplicates) carry
``messages`` (one per problem), ``source`` (the text read, or None) and ``spans`` (the bad
tokens' offsets), and ``str(err)`` puts carets under them (:func:`~.errors.make_error`).
Card ids, labels and seats come from :mod:`tarock_solver.cards`; :data:`EXAMPLE_DEALS`
holds NOTATION 6's worked examples.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Iterable

from .card_tokens import card_of_token, cards_of_tokens
from .cards import (
    BLACK_GROUPS,
    BLACK_RANKS,
    CARD_IDS,
    CLUBS,
    DIAMONDS,
    GROUP_ASCII,
    GROUP_NAMES,
    GROUP_START,
    HAND_SIZE,
    HEARTS,
    N_TAROCKS,
    RED_GROUPS,
    RED_RANKS,
    SEAT_HELP,
    SEAT_NAMES,
    SPADES,
    TALON_SIZE,
    TAROCK,
    canonical_order,
    card_id,
    card_label,
    check_index,
    describe_card,
    indices_of,
    roman,
    seat_index,
)
from .deal import Deal, DealWarning, PartialDeal, no_tarock_warnings
from .errors import DealError, NotationError, Problem, make_error

__all__ = [
    "EXAMPLE_DEALS",
    "HAND_SIZE",
    "SEATS",
    "SEAT_HELP",
    "TALON_SIZE",
    "accepted_spellings",
    "card_id",
    "card_label",
    "describe_card",
    "example_or_text",
    "format_cards",
    "format_deal",
    "format_deal_url",
    "format_hand",
    "normalize_token",
    "parse_card",
    "parse_cards",
    "parse_deal",
    "parse_hand",
    "parse_talon",
    "roman",
    "seat_index",
]

SEATS = SEAT_NAMES

#: The worked examples of NOTATION 6, in canonical deal notation.
EXAMPLE_DEALS: dict[str, str] = {
    "example-1": "F:21,20,16,15,7,5,2,1.K.KQ.K97.Q9 13,3.JA2.CJA24.QCJT.CJ "
                 "22,18,17,14,11,9,8,6,4.Q34.3.8.87/T12,T19,T10,CK,C10,HC",
    "example-2": "F:21,19,11,10,8,6,5,2,1.QA4.2.C.Q9 22,14,13,12,7,3.J3.Q4.JT97.CT "
                 "17,16,15,9.C2.KCJ.KQ8.KJ87/D3,HK,T4,T20,DA,T18",
    "example-3": "F:22,21,16,10,8,7,2..QA23.7.KJ87 20,13,12,11,9,1.QC24.K.CJT9.Q "
                 "19,18,17,15,14,6,5,4,3.KA3.C.K8.T/D4,DJ,SQ,C9,CC,HJ",
}

_EXAMPLE_NAME = re.compile(r"example-?\S*", re.IGNORECASE)


def example_or_text(text: str) -> str:
    """The deal of a worked example named ``text`` (any case), else ``text`` itself.

    A name that looks like an example but is none (``example-9``) raises
    :class:`NotationError` saying so, instead of being read as deal notation and
    failing with "missing '/'".
    """
    name = text.strip()
    if not _EXAMPLE_NAME.fullmatch(name):
        return text
    for key, deal in EXAMPLE_DEALS.items():
        if key == name.lower():
            return deal
    names = list(EXAMPLE_DEALS)
    raise NotationError(f'no such example "{name}"; the worked examples are {names[0]} … '
                        f"{names[-1]} (NOTATION.md section 6).")


# ---------------------------------------------------------------------------
# Problems of one input, with the positions of the bad tokens
# ---------------------------------------------------------------------------


def _shift(problems: list[Problem], offset: int) -> list[Problem]:
    return [p if p.span is None else Problem(p.message, (p.span[0] + offset, p.span[1] + offset))
            for p in problems]


def _where_in(where: str) -> str:
    """" in hand F" / " at talon position 3" / "" -- the place phrase of a message."""
    if not where:
        return ""
    return f" at {where}" if where.startswith("talon position") else f" in {where}"


# ---------------------------------------------------------------------------
# Canonical card lists (ids and labels of single cards are in tarock_solver.cards)
# ---------------------------------------------------------------------------

_ROMAN_ONES_ADDITIVE = ("", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "VIIII")


def _roman_additive(number: int) -> str:
    return "X" * (number // 10) + _ROMAN_ONES_ADDITIVE[number % 10]


def _as_indices(mask_or_indices: int | Iterable[int]) -> list[int]:
    if isinstance(mask_or_indices, Iterable):
        return [check_index(i) for i in mask_or_indices]
    return indices_of(int(mask_or_indices))


def format_cards(mask_or_indices: int | Iterable[int]) -> str:
    """Canonical ids in canonical order, separated by single spaces.

    An ``int`` (including a numpy integer) is read as a mask; anything iterable as card
    indices.
    """
    return " ".join(CARD_IDS[i] for i in canonical_order(_as_indices(mask_or_indices)))


# ---------------------------------------------------------------------------
# Card tokens (NOTATION 1.2, 1.3)
# ---------------------------------------------------------------------------

_VARIATION_SELECTORS = dict.fromkeys(range(0xFE00, 0xFE10))
_FOLD = str.maketrans({"ü": "u", "ö": "o", "ä": "a", "ß": "ss", "š": "s"})


def normalize_token(token: str) -> str:
    """The matching key of a token: NFC, no variation selectors, lower case, umlauts folded."""
    text = unicodedata.normalize("NFC", token).translate(_VARIATION_SELECTORS)
    return text.lower().translate(_FOLD).strip()


_TAROCK_NAMES = {
    "pagat": 1, "spatz": 1, "uhu": 2, "kakadu": 3, "kike": 3, "marabu": 4, "mond": 21,
    "skus": 22, "skues": 22, "gstiess": 22, "skis": 22, "excuse": 22, "fool": 22,
}

_SUIT_ALIASES: dict[int, tuple[str, ...]] = {
    HEARTS: ("h", "♥", "♡", "herz", "heart", "hearts"),
    DIAMONDS: ("d", "♦", "♢", "karo", "diamond", "diamonds"),
    SPADES: ("s", "♠", "♤", "pik", "spade", "spades"),
    CLUBS: ("c", "♣", "♧", "treff", "kreuz", "club", "clubs"),
}
_SUIT_SYMBOLS = frozenset("♥♡♦♢♠♤♣♧")
_SUIT_OF_ALIAS = {alias: group for group, aliases in _SUIT_ALIASES.items() for alias in aliases}
# Longest first, so "hearts" is tried before "heart" and "h".
_SUIT_ALIASES_BY_LENGTH = sorted(_SUIT_OF_ALIAS, key=len, reverse=True)

# Rank keys are the compact-notation characters (NOTATION 2.1).
_RANK_ALIASES: dict[str, tuple[str, ...]] = {
    "K": ("k", "king", "konig", "koenig"),
    "Q": ("q", "d", "queen", "dame"),
    "C": ("c", "cavall", "cavalier", "reiter", "knight"),
    "J": ("j", "b", "v", "jack", "bube", "bub", "valet", "knave"),
    "A": ("a", "1", "ace", "ass"),
    "2": ("2",), "3": ("3",), "4": ("4",),
    "T": ("10", "t", "z", "ten"),
    "9": ("9",), "8": ("8",), "7": ("7",),
}
_RANK_OF_ALIAS = {alias: rank for rank, aliases in _RANK_ALIASES.items() for alias in aliases}
_RED_PIPS = frozenset("A234")
_BLACK_PIPS = frozenset("T987")
_SEPARATORS = ("", "-", "_")

_SUIT_NAME = {HEARTS: "heart", DIAMONDS: "diamond", SPADES: "spade", CLUBS: "club"}


def _suit_card(group: int, rank: str) -> int | None:
    """Index of a suit card from a rank key, or None when the pip is of the other colour."""
    ranks = RED_RANKS if group in RED_GROUPS else BLACK_RANKS
    if rank not in ranks:
        return None
    return GROUP_START[group] + ranks.index(rank)


def _build_spellings() -> dict[str, int]:
    table: dict[str, int] = {}

    def add(spelling: str, index: int) -> None:
        # The notation promises that no spelling names two cards; keep that true by construction.
        previous = table.setdefault(spelling, index)
        if previous != index:
            raise AssertionError(f"spelling {spelling!r} would name {CARD_IDS[previous]} "
                                 f"and {CARD_IDS[index]}")

    for number in range(1, N_TAROCKS + 1):
        index = number - 1
        forms = {str(number), f"t{number}"}
        if number < 10:
            forms.add(f"t0{number}")
        forms |= {roman(number).lower(), _roman_additive(number).lower()}
        for form in forms:
            add(form, index)
    for name, number in _TAROCK_NAMES.items():
        add(name, number - 1)
    for suit_alias, group in _SUIT_OF_ALIAS.items():
        for rank_alias, rank in _RANK_OF_ALIAS.items():
            index = _suit_card(group, rank)
            if index is None:
                continue
            for sep in _SEPARATORS:
                add(suit_alias + sep + rank_alias, index)
                if suit_alias in _SUIT_SYMBOLS:
                    add(rank_alias + sep + suit_alias, index)
    return table


_SPELLINGS = _build_spellings()
_NUMBER_RE = re.compile(r"t?([0-9]+)")
_ROMAN_RE = re.compile(r"[ivx]+")


def accepted_spellings() -> dict[str, int]:
    """Every accepted spelling in its matching key form (see :func:`normalize_token`).

    Besides these, a number 1-22 with more leading zeros (``07``, ``T007``) is accepted.
    """
    return dict(_SPELLINGS)


def _lookup(key: str) -> int | None:
    found = _SPELLINGS.get(key)
    if found is not None:
        return found
    number = _NUMBER_RE.fullmatch(key)
    if number and 1 <= int(number.group(1)) <= N_TAROCKS:
        return int(number.group(1)) - 1
    return None


def _roman_value(key: str) -> int | None:
    for number in range(1, 40):
        if key in (roman(number).lower(), _roman_additive(number).lower()):
            return number
    return None


def _split_suit_first(key: str) -> list[tuple[int, str]]:
    """(suit, rank-alias) readings of a suit-first token, e.g. "h7" -> [(HEARTS, "7")]."""
    readings = []
    for alias in _SUIT_ALIASES_BY_LENGTH:
        if key.startswith(alias) and len(key) > len(alias):
            rest = key[len(alias):]
            if rest[0] in "-_":
                rest = rest[1:]
            readings.append((_SUIT_OF_ALIAS[alias], rest))
    return readings


def _split_rank_first(key: str) -> list[tuple[int, str, bool]]:
    """(suit, rank-alias, suit-is-symbol) readings of a rank-first token such as "kh"."""
    readings = []
    for alias in _SUIT_ALIASES_BY_LENGTH:
        if key.endswith(alias) and len(key) > len(alias):
            rest = key[: -len(alias)]
            if rest[-1] in "-_":
                rest = rest[:-1]
            readings.append((_SUIT_OF_ALIAS[alias], rest, alias in _SUIT_SYMBOLS))
    return readings


def _colour_message(token: str, where: str, group: int, rank: str) -> str:
    """The message for a pip of the other colour, with the two cards the user probably meant."""
    place = _where_in(where)
    if group in RED_GROUPS:
        others = [_suit_card(g, rank) for g in BLACK_GROUPS]
        return (f'unknown card "{token}"{place}: {GROUP_NAMES[group]} is a red suit; its pips are '
                f"1 2 3 4 (1 may be written A). Did you mean "
                f"{CARD_IDS[others[0]]} or {CARD_IDS[others[1]]}?")
    others = [_suit_card(g, rank) for g in RED_GROUPS]
    return (f'unknown card "{token}"{place}: {GROUP_NAMES[group]} is a black suit; its pips are '
            f"10 9 8 7. Did you mean {CARD_IDS[others[0]]} or {CARD_IDS[others[1]]}?")


def _ambiguous_r_message(token: str, where: str, group: int) -> str:
    letter = GROUP_ASCII[group]
    return (f'"{token}"{_where_in(where)} is ambiguous: R means Reiter (Cavall) in German but Roi '
            f"(King) on French packs. Write {letter}C for the Cavall or {letter}K for the King.")


def _diagnose(token: str, key: str, where: str) -> str:
    """Why ``token`` is not a card, in the wording of NOTATION 7."""
    place = _where_in(where)
    unknown = f'unknown card "{token}"{place}'
    if not key:
        return f"empty card token{place}; expected a card such as T21, HK or S10."
    if key in ("?", "-"):
        return f'{unknown}; "?" stands only for a whole unknown talon, "-" for a whole unknown hand.'
    if _NUMBER_RE.fullmatch(key):
        return f"{unknown}: tarocks are numbered 1 to 22 (22 = Sküs)."
    if _ROMAN_RE.fullmatch(key):
        value = _roman_value(key)
        if value is not None:
            return f"{unknown}: tarocks are numbered 1 to 22 (22 = Sküs)."
        return f"{unknown}: not a Roman numeral; tarocks are I to XXII (XXII = Sküs)."
    for group, rank_alias in _split_suit_first(key):
        if rank_alias == "r":
            return _ambiguous_r_message(token, where, group)
        rank = _RANK_OF_ALIAS.get(rank_alias)
        if rank is not None and _suit_card(group, rank) is None:
            return _colour_message(token, where, group, rank)
    for group, rank_alias, _symbol in _split_rank_first(key):
        if rank_alias == "r":
            return _ambiguous_r_message(token, where, group)
        rank = _RANK_OF_ALIAS.get(rank_alias)
        if rank is None:
            continue
        index = _suit_card(group, rank)
        if index is None:
            return _colour_message(token, where, group, rank)
        # A letter or word suit after the rank: the user wrote the rank first.
        return f"{unknown}. Did you mean {CARD_IDS[index]}?"
    return f"{unknown}."


def _card_or_problem(token: str, where: str) -> int | str:
    key = normalize_token(token)
    found = _lookup(key)
    if found is not None:
        return found
    return _diagnose(token.strip(), key, where)


def parse_card(token: str | int, *, where: str = "") -> int:
    """Card index of one token in any accepted spelling (NOTATION 1.2, 1.3).

    ``where`` (e.g. ``"hand F"`` or ``"talon position 3"``) is named in the error.
    Raises :class:`NotationError` with the NOTATION 7 message.
    """
    return card_of_token(_card_or_problem, token, where)


def parse_cards(tokens: Iterable[str | int], *, where: str = "") -> list[int]:
    """Card indices of several tokens, in order; all bad tokens are reported together.

    Duplicates are kept (the caller decides whether they are an error).
    """
    return cards_of_tokens(_card_or_problem, tokens, where)


# ---------------------------------------------------------------------------
# Hands (NOTATION 2)
# ---------------------------------------------------------------------------

_FIELD_LABELS = ("tarock", "♥", "♦", "♠", "♣")
_FREE_TOKEN_RE = re.compile(r"[^\s,;]+")


def _field_prefix(where: str, field: int, text: str) -> str:
    head = f"{where}, " if where else ""
    return f'{head}{_FIELD_LABELS[field]} field "{text}"'


def _parse_tarock_field(text: str, where: str, offset: int) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    for match in re.finditer(r"[^,]+", text):
        item = match.group().strip()
        if not item:
            continue  # "21,,20" and stray spaces: lenient
        span = (offset + match.start(), offset + match.end())
        prefix = _field_prefix(where, TAROCK, text)
        if not re.fullmatch(r"[0-9]+", item):
            problems.append(Problem(f'{prefix}: "{item}" is not a tarock number; tarocks are '
                                     f"numbered 1 to 22 (22 = Sküs).", span))
            continue
        number = int(item)
        if not 1 <= number <= N_TAROCKS:
            problems.append(Problem(f"{prefix}: {item} is out of range; tarocks are numbered "
                                     f"1 to 22 (22 = Sküs).", span))
            continue
        if mask >> (number - 1) & 1:
            problems.append(Problem(f"{prefix}: {number} appears twice.", span))
        mask |= 1 << (number - 1)
    return mask, problems


def _parse_suit_field(group: int, text: str, where: str, offset: int
                      ) -> tuple[int, list[Problem]]:
    red = group in RED_GROUPS
    mask = 0
    problems: list[Problem] = []
    prefix = _field_prefix(where, group, text)
    suit = _SUIT_NAME[group]
    pos = 0
    while pos < len(text):
        char = text[pos].upper()
        width = 1
        if char.isspace():
            pos += 1
            continue
        span = (offset + pos, offset + pos + 1)
        if char == "1" and text[pos + 1: pos + 2] == "0":
            rank, width = "T", 2  # a black field has no "1", so "10" is the ten
            span = (span[0], span[0] + 2)
        elif char == "1":
            rank = "A"
        else:
            rank = char
        shown = text[pos: pos + width]
        pos += width
        if rank == "R":
            problems.append(Problem(
                f"{prefix}: R is ambiguous (Reiter = Cavall in German, Roi = King on French "
                f"packs); write C for the Cavall or K for the King.", span))
            continue
        index = _suit_card(group, rank)
        if index is None:
            if red and rank in _BLACK_PIPS:
                why = f"{shown} is not a {suit}; red pips are A 2 3 4."
            elif not red and rank in _RED_PIPS:
                why = f"{shown} is not a {suit}; black pips are T 9 8 7 (T or 10 for the ten)."
            else:
                ranks = "K Q C J A 2 3 4" if red else "K Q C J T 9 8 7"
                why = f'"{shown}" is not a {suit} rank; {suit} ranks are {ranks}.'
            problems.append(Problem(f"{prefix}: {why}", span))
            continue
        if mask >> index & 1:
            problems.append(Problem(f"{prefix}: {shown} appears twice.", span))
        mask |= 1 << index
    return mask, problems


def _parse_compact(text: str, where: str) -> tuple[int, list[Problem]]:
    fields = text.split(".")
    mask = 0
    problems: list[Problem] = []
    offset = 0
    for group, field in enumerate(fields):
        if group == TAROCK:
            part, found = _parse_tarock_field(field, where, offset)
        else:
            part, found = _parse_suit_field(group, field, where, offset)
        mask |= part
        problems += found
        offset += len(field) + 1
    return mask, problems


def _parse_free(text: str, where: str) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    for match in _FREE_TOKEN_RE.finditer(text):
        span = (match.start(), match.end())
        result = _card_or_problem(match.group(), where)
        if isinstance(result, str):
            problems.append(Problem(result, span))
        elif mask >> result & 1:
            problems.append(Problem(
                f"card {describe_card(result)} appears twice{_where_in(where)}.", span))
        else:
            mask |= 1 << result
    return mask, problems


def _hand_problems(text: str, where: str) -> tuple[int, list[Problem]]:
    """Mask of a hand string and everything wrong with it (spans relative to ``text``)."""
    dots = text.count(".")
    if dots == 4:
        return _parse_compact(text, where)
    if dots:
        # Tokens never contain a dot, so any dot means a mistyped compact form.
        head = f"{where}: " if where else ""
        return 0, [Problem(f"{head}the compact form needs 5 fields separated by dots "
                            f"(tarocks.♥.♦.♠.♣); found {dots + 1}.", (0, len(text)))]
    return _parse_free(text, where)


def _count_message(where: str, count: int, size: int) -> str:
    subject = where if where else "the hand"
    if size == HAND_SIZE:
        return (f"{subject} has {count} cards; every hand needs 16 "
                f"(16 + 16 + 16 + 6 talon = 54).")
    return f"{subject} has {count} cards; expected {size}."


def parse_hand(text: str, *, size: int | None = HAND_SIZE, where: str = "") -> int:
    """Mask of one hand: compact form when the string has exactly four dots, else free form.

    ``size`` is the number of cards required (``None``: any number, for mid-play
    positions and partial input).  ``where`` (e.g. ``"hand F"``) is named in errors.
    Raises :class:`NotationError` for unreadable text (all problems at once, caret under
    the bad tokens) and :class:`DealError` for a wrong card count.
    """
    mask, problems = _hand_problems(text, where)
    if problems:
        raise make_error(NotationError, problems, text)
    count = mask.bit_count()
    if size is not None and count != size:
        raise make_error(DealError, [Problem(_count_message(where, count, size))])
    return mask


def format_hand(mask: int) -> str:
    """Canonical compact form, e.g. ``21,20,16,15,7,5,2,1.K.KQ.K97.Q9``."""
    mask = int(mask)
    tarocks = ",".join(str(i + 1) for i in reversed(range(N_TAROCKS)) if mask >> i & 1)
    fields = [tarocks]
    for group in (HEARTS, DIAMONDS, SPADES, CLUBS):
        ranks = RED_RANKS if group in RED_GROUPS else BLACK_RANKS
        start = GROUP_START[group]
        fields.append("".join(ranks[r] for r in reversed(range(8)) if mask >> (start + r) & 1))
    return ".".join(fields)


# ---------------------------------------------------------------------------
# Deals (NOTATION 3)
# ---------------------------------------------------------------------------

_HAND_TOKEN_RE = re.compile(r"[^\s_]+")
_TALON_TOKEN_RE = re.compile(r"[^\s,;]+")


def _talon_problems(text: str) -> tuple[tuple[int, ...] | None, list[Problem]]:
    if text.strip() == "?":
        return None, []
    cards: list[int] = []
    problems: list[Problem] = []
    matches = list(_TALON_TOKEN_RE.finditer(text))
    for position, match in enumerate(matches, start=1):
        result = _card_or_problem(match.group(), f"talon position {position}")
        if isinstance(result, str):
            problems.append(Problem(result, (match.start(), match.end())))
        else:
            cards.append(result)
    if len(matches) != TALON_SIZE:
        problems.append(Problem(_talon_size_message(len(matches))))
    return tuple(cards), problems


def _talon_size_message(found: int) -> str:
    return f"the talon must list 6 cards in table order (t1 … t6); found {found}."


def parse_talon(text: str) -> tuple[int, ...] | None:
    """The talon in table order from six tokens separated by commas or spaces; ``None`` for "?"."""
    talon, problems = _talon_problems(text)
    if problems:
        raise make_error(NotationError, problems, text)
    return talon


_MARKER_RE = re.compile(r"\s*([^\s_/:.,;]*):")


def _seat_marker(text: str) -> tuple[int, int, list[Problem]]:
    """(first seat, offset after the marker, problems) of a deal string."""
    match = _MARKER_RE.match(text)
    if match is None:
        return 0, 0, []
    marker = match.group(1)
    if marker.upper() in SEATS:
        return SEATS.index(marker.upper()), match.end(), []
    return 0, match.end(), [Problem(f'unknown seat "{marker}:"; {SEAT_HELP}.',
                                     (match.start(1), match.end()))]


def parse_deal(text: str, *, validate: bool = True, midplay: bool = False,
               warn: bool = True) -> Deal | PartialDeal:
    """Read a deal: ``[F:|M:|R:]<hand> <hand> <hand>/<t1>,…,<t6>`` (NOTATION 3).

    Hands are separated by spaces or ``_``; ``-`` marks an unknown hand and ``?`` an
    unknown talon, which gives a :class:`PartialDeal`; otherwise a :class:`Deal`.
    Hands are returned in seat order F, M, R whatever the marker.

    ``validate`` checks NOTATION 3.3 (:class:`DealError` otherwise); ``midplay`` relaxes
    it to three hands of equal size up to 16 (a position in the middle of play).
    ``warn`` issues a :class:`~tarock_solver.deal.DealWarning` per tarock-less hand.
    All notation problems are reported together in one :class:`NotationError`.
    """
    if not text.strip():
        raise make_error(NotationError, [Problem(
            'the deal is empty; write three hands and the talon, for example '
            '"F:<hand> <hand> <hand>/<t1>,<t2>,<t3>,<t4>,<t5>,<t6>".')])
    first, body_start, problems = _seat_marker(text)
    slashes = [m.start() for m in re.finditer("/", text)]
    if not slashes:
        problems.append(Problem('missing "/" between the hands and the talon; write "?" if the '
                                 "talon is unknown."))
        raise make_error(NotationError, problems, text)
    if len(slashes) > 1:
        problems.append(Problem(f'the deal has {len(slashes)} "/"; only one "/" may separate the '
                                 f"hands from the talon.", (slashes[1], slashes[1] + 1)))
        raise make_error(NotationError, problems, text)
    slash = slashes[0]

    hand_matches = list(_HAND_TOKEN_RE.finditer(text, body_start, slash))
    hands: list[int | None] = [None, None, None]
    unreadable: set[int] = set()
    if len(hand_matches) != 3:
        problems.append(Problem(f'a deal needs 3 hands before the "/"; found {len(hand_matches)}.'))
    else:
        for k, match in enumerate(hand_matches):
            seat = (first + k) % 3
            token = match.group()
            if token == "-":
                continue
            where = f"hand {SEATS[seat]}"
            if token == "?":
                problems.append(Problem(f'{where}: write "-" for an unknown hand ("?" is for the '
                                         f"talon).", match.span()))
                unreadable.add(seat)
                continue
            mask, found = _hand_problems(token, where)
            if found:
                unreadable.add(seat)
                problems += _shift(found, match.start())
            hands[seat] = mask
    talon, found = _talon_problems(text[slash + 1:])
    problems += _shift(found, slash + 1)

    if problems:
        # Report card counts of the hands that were read cleanly in the same message.
        if validate and not midplay:
            for seat, mask in enumerate(hands):
                if mask is not None and seat not in unreadable and mask.bit_count() != HAND_SIZE:
                    problems.append(Problem(_count_message(f"hand {SEATS[seat]}",
                                                            mask.bit_count(), HAND_SIZE)))
        raise make_error(NotationError, problems, text)

    deal: Deal | PartialDeal
    if None in hands or talon is None:
        deal = PartialDeal(hands=tuple(hands), talon=talon)
    else:
        deal = Deal(hands=(hands[0], hands[1], hands[2]), talon=talon)  # type: ignore[arg-type]
    if validate:
        if isinstance(deal, Deal):
            deal.validate(midplay=midplay)
        else:
            deal.validate()
    if warn:
        for message in no_tarock_warnings(deal):
            warnings.warn(DealWarning(message), stacklevel=2)
    return deal


def format_deal(deal: Deal | PartialDeal, *, separator: str = " ") -> str:
    """Canonical deal notation: ``F:`` marker, compact hands, talon ids in table order.

    Unknown hands are written ``-`` and an unknown talon ``?``.
    """
    hands = ["-" if mask is None else format_hand(mask) for mask in deal.hands]
    talon = "?" if deal.talon is None else ",".join(CARD_IDS[c] for c in deal.talon)
    return "F:" + separator.join(hands) + "/" + talon


def format_deal_url(deal: Deal | PartialDeal) -> str:
    """Deal notation with ``_`` between the hands: one URL component or shell word."""
    return format_deal(deal, separator="_")
