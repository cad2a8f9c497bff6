"""Reading and writing French Tarot cards, hands and deals (docs/FRENCH_NOTATION.md).

Lenient input, strict output, as for Illustrated Tarock (:mod:`tarock_solver.notation`):
the readers accept every spelling the document lists, the writers produce one canonical
form, and a canonical string read and written again is the same byte for byte.
Unreadable text raises :class:`~tarock_solver.errors.NotationError`, wrong card counts
and duplicates :class:`~tarock_solver.errors.DealError`; both carry ``messages``,
``source`` and ``spans`` and put carets under the bad tokens.  Card ids are
:data:`.cards.CARD_IDS`; :data:`EXAMPLE_DEALS` holds the document's worked example.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..card_tokens import card_of_token, cards_of_tokens
from ..errors import DealError, NotationError, Problem, make_error
from ..record_text import read_play
from .cards import (
    CARD_IDS,
    CHIEN_SIZE,
    CLUBS,
    DIAMONDS,
    EXCUSE,
    HAND_SIZE,
    HEARTS,
    N_TRUMPS,
    RANK_IDS,
    SEAT_NAMES,
    SPADES,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SIZE,
    SUIT_START,
    SUIT_SYMBOLS,
    cards_of,
)
from .deal import (
    CONTRACTS,
    PLAYERS,
    FrenchDeal,
    FrenchPartialDeal,
    canonical_order,
    contract_name,
    deal_size_phrase,
    describe_card,
)
from .play import winning_position

__all__ = [
    "EXAMPLE_DEALS",
    "accepted_spellings",
    "card_label",
    "describe_card",
    "example_or_text",
    "format_cards",
    "format_chien",
    "format_deal",
    "format_hand",
    "format_play",
    "normalize_token",
    "parse_card",
    "parse_cards",
    "parse_chien",
    "parse_contract",
    "parse_deal",
    "parse_hand",
    "parse_play",
    "roman",
]

#: The worked example of docs/FRENCH_NOTATION.md, in canonical deal notation.
EXAMPLE_DEALS: dict[str, str] = {
    "example-1": "1:19,18,15,14,11,1.KT921.2.QJT832. 21,20,12,7,6.765.841.75.JT941 "
                 "16,13,8,5,4,3.J84.763.K64.Q76 17,10,E.Q3.KQCJT95.C91.KC3/T9,T2,SC,C8,C5,C2",
}


# ---------------------------------------------------------------------------
# Labels (what the diagram and the messages print)
# ---------------------------------------------------------------------------

_ROMAN = ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
_ROMAN_ADDITIVE = ((10, "x"), (5, "v"), (1, "i"))


def roman(number: int, *, additive: bool = False) -> str:
    """Roman numeral of ``number`` (1..39) in upper case: ``XIV``; ``additive``: ``XIIII``."""
    out = ""
    for value, digits in _ROMAN_ADDITIVE if additive else _ROMAN:
        while number >= value:
            out += digits
            number -= value
    return out.upper()


def card_label(card: int, *, ascii: bool = False) -> str:
    """How the diagram prints a card: ``21``, ``Excuse``, ``♠K``, ``♥10`` (ASCII ``SK``)."""
    if card < N_TRUMPS:
        return str(card + 1)
    if card == EXCUSE:
        return "Excuse"
    suit, rank = divmod(card - SUIT_START[0], SUIT_SIZE)
    return (SUIT_LETTERS[suit] if ascii else SUIT_SYMBOLS[suit]) + RANK_IDS[rank]


def format_cards(mask_or_cards: int | Iterable[int]) -> str:
    """Canonical ids in canonical order, separated by single spaces (a mask or indices)."""
    cards = cards_of(int(mask_or_cards)) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    return " ".join(CARD_IDS[c] for c in canonical_order(cards))


# ---------------------------------------------------------------------------
# Card tokens
# ---------------------------------------------------------------------------

_VARIATION_SELECTORS = dict.fromkeys(range(0xFE00, 0xFE10))
# Letters NFD does not split into a base and an accent; quotes players type for l'Excuse.
_FOLD = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "’": "'", "‘": "'", "`": "'"})
#: Removed from a token before matching: "Cœur-Roi", "le Petit", "l'Excuse", "S_10".
_JOINERS = re.compile(r"[\s\-_']+")


def normalize_token(token: str) -> str:
    """The matching key of a token: lower case, accents and variation selectors removed,
    spaces, hyphens, underscores and apostrophes dropped."""
    text = unicodedata.normalize("NFC", str(token)).translate(_VARIATION_SELECTORS)
    text = text.lower().translate(_FOLD)
    # Decompose, drop the accents (combining marks), and recompose: é → e, ç → c.
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return _JOINERS.sub("", unicodedata.normalize("NFC", text))


_TRUMP_NAMES = {"petit": 1, "lepetit": 1, "monde": 21, "lemonde": 21}
_EXCUSE_NAMES = ("e", "ex", "excuse", "lexcuse", "fool", "*", "★")

_SUIT_ALIASES: dict[int, tuple[str, ...]] = {
    SPADES: ("s", "♠", "♤", "pique", "piques", "spade", "spades"),
    HEARTS: ("h", "♥", "♡", "coeur", "coeurs", "heart", "hearts"),
    DIAMONDS: ("d", "♦", "♢", "carreau", "carreaux", "diamond", "diamonds"),
    CLUBS: ("c", "♣", "♧", "trefle", "trefles", "club", "clubs"),
}
_SUIT_SYMBOL_SET = frozenset("♠♤♥♡♦♢♣♧")
_SUIT_OF_ALIAS = {alias: suit for suit, aliases in _SUIT_ALIASES.items() for alias in aliases}
# Longest first, so that "hearts" is tried before "heart" and "h".
_SUIT_ALIASES_BY_LENGTH = sorted(_SUIT_OF_ALIAS, key=len, reverse=True)

#: Rank aliases by rank position (0 = the 1, 13 = the King).
_RANK_ALIASES: dict[int, tuple[str, ...]] = {
    13: ("k", "r", "roi", "king"),
    12: ("q", "d", "dame", "queen"),
    11: ("c", "cavalier", "cavaliere", "cav", "knight", "horse"),
    10: ("j", "v", "valet", "jack", "knave"),
    9: ("10", "t", "ten"),
    0: ("1", "a", "as", "ace"),
    **{n - 1: (str(n),) for n in range(2, 10)},
}
_RANK_OF_ALIAS = {alias: rank for rank, aliases in _RANK_ALIASES.items() for alias in aliases}
#: "Roi de cœur", "King of hearts" (written as one token, or joined in free form).
_OF_WORDS = ("de", "du", "of")

_RANK_HELP = "K Q C J 10 9 8 7 6 5 4 3 2 1"
_CARD_HELP = ("expected a trump (1 to 21, T7, XIV, Petit, Monde), the Excuse (E, EX, Excuse) "
              "or a suit card, suit first (SK, H10, DC, C1) or rank before a suit symbol (K♠)")


def _suit_card(suit: int, rank: int) -> int:
    return SUIT_START[suit] + rank


def _build_spellings() -> dict[str, int]:
    table: dict[str, int] = {}

    def add(spelling: str, card: int) -> None:
        # No spelling may name two cards; keep that true by construction.
        previous = table.setdefault(spelling, card)
        if previous != card:
            raise AssertionError(f"spelling {spelling!r} would name {CARD_IDS[previous]} "
                                 f"and {CARD_IDS[card]}")

    for number in range(1, N_TRUMPS + 1):
        forms = {str(number), f"t{number}", roman(number).lower(),
                 roman(number, additive=True).lower()}
        if number < 10:
            forms.add(f"t0{number}")
        for form in forms:
            add(form, number - 1)
    for name, number in _TRUMP_NAMES.items():
        add(name, number - 1)
    for name in _EXCUSE_NAMES:
        add(name, EXCUSE)
    for suit_alias, suit in _SUIT_OF_ALIAS.items():
        symbol = suit_alias in _SUIT_SYMBOL_SET
        for rank_alias, rank in _RANK_OF_ALIAS.items():
            card = _suit_card(suit, rank)
            add(suit_alias + rank_alias, card)
            if symbol:
                add(rank_alias + suit_alias, card)
            elif len(suit_alias) > 1:
                for word in _OF_WORDS:
                    add(rank_alias + word + suit_alias, card)
    return table


_SPELLINGS = _build_spellings()
_NUMBER_RE = re.compile(r"t?([0-9]+)")
_ROMAN_RE = re.compile(r"[ivx]+")


def accepted_spellings() -> dict[str, int]:
    """Every accepted spelling in its matching key form (see :func:`normalize_token`).

    Besides these, a trump number with more leading zeros (``007``, ``T007``) is accepted.
    """
    return dict(_SPELLINGS)


def _lookup(key: str) -> int | None:
    found = _SPELLINGS.get(key)
    if found is not None:
        return found
    number = _NUMBER_RE.fullmatch(key)
    if number and 1 <= int(number.group(1)) <= N_TRUMPS:
        return int(number.group(1)) - 1
    return None


def _where_in(where: str) -> str:
    """" in hand 2" / " in the chien" / "" -- the place phrase of a message."""
    return f" in {where}" if where else ""


def _diagnose(token: str, key: str, where: str) -> str:
    """Why ``token`` is not a card."""
    unknown = f'unknown card "{token}"{_where_in(where)}'
    if not key:
        return f"empty card token{_where_in(where)}; {_CARD_HELP}."
    if key in ("?", "-"):
        return (f'{unknown}; "?" stands only for a whole unknown chien, "-" for a whole '
                f"unknown hand.")
    if _NUMBER_RE.fullmatch(key):
        return (f"{unknown}: trumps are numbered 1 to 21 and the Excuse is E; a pip needs its "
                f"suit (S10, H7).")
    if _ROMAN_RE.fullmatch(key):
        return f"{unknown}: trumps are I to XXI (or 1 to 21) and the Excuse is E."
    if key in _SUIT_OF_ALIAS:
        return f'{unknown}: a suit needs a rank ("{token}K", "{token}10").'
    for alias in _SUIT_ALIASES_BY_LENGTH:
        if key.startswith(alias) and key[len(alias):] not in _RANK_OF_ALIAS:
            rest = key[len(alias):]
            if rest and (rest.isdigit() or len(rest) == 1):
                suit = _SUIT_OF_ALIAS[alias]
                return (f"{unknown}: the ranks of {SUIT_NAMES[suit]} are {_RANK_HELP} "
                        f"(also R, D, V, A, T).")
    for alias in _SUIT_ALIASES_BY_LENGTH:
        rank = _RANK_OF_ALIAS.get(key[:-len(alias)]) if key.endswith(alias) else None
        if rank is not None and alias not in _SUIT_SYMBOL_SET:
            card = _suit_card(_SUIT_OF_ALIAS[alias], rank)
            return (f"{unknown}. Did you mean {CARD_IDS[card]}? The suit comes first; a rank "
                    f"may come first only before a suit symbol ({card_label(card)}).")
    return f"{unknown}; {_CARD_HELP}."


def _card_or_problem(token: str, where: str) -> int | str:
    key = normalize_token(token)
    found = _lookup(key)
    if found is not None:
        return found
    return _diagnose(str(token).strip(), key, where)


def parse_card(token: str | int, *, where: str = "") -> int:
    """Card index of one token in any accepted spelling.

    ``where`` (e.g. ``"hand 2"`` or ``"the chien"``) is named in the error, a
    :class:`NotationError` that quotes the token and says what was expected.
    """
    return card_of_token(_card_or_problem, token, where)


def parse_cards(tokens: Iterable[str | int], *, where: str = "") -> list[int]:
    """Card indices of several tokens, in order; all bad tokens are reported together.

    Duplicates are kept (the caller decides whether they are an error).
    """
    return cards_of_tokens(_card_or_problem, tokens, where)


# ---------------------------------------------------------------------------
# Hands: compact form "trumps.♠.♥.♦.♣" and free form
# ---------------------------------------------------------------------------

_FIELD_LABELS = ("trump", "♠", "♥", "♦", "♣")
#: Compact suit-field characters (upper case) → rank position; "10" is handled apart.
_COMPACT_RANKS = {"K": 13, "R": 13, "Q": 12, "D": 12, "C": 11, "J": 10, "V": 10, "T": 9,
                  "A": 0, **{str(n): n - 1 for n in range(1, 10)}}
_COMPACT_RANK_CHARS = "KQCJT987654321"
_FREE_TOKEN_RE = re.compile(r"[^\s,;]+")
_ARTICLES = ("le", "la", "l'", "l’")


def _field_prefix(where: str, field: int, text: str) -> str:
    head = f"{where}, " if where else ""
    return f'{head}{_FIELD_LABELS[field]} field "{text}"'


def _parse_trump_field(text: str, where: str, offset: int) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    prefix = _field_prefix(where, 0, text)
    for match in re.finditer(r"[^,\s]+", text):
        item = match.group()
        span = (offset + match.start(), offset + match.end())
        key = normalize_token(item)
        number = _NUMBER_RE.fullmatch(key)
        if key in _EXCUSE_NAMES:
            card = EXCUSE
        elif number and 1 <= int(number.group(1)) <= N_TRUMPS:
            card = int(number.group(1)) - 1
        elif number:
            problems.append(Problem(f"{prefix}: {item} is out of range; trumps are numbered "
                                    f"1 to 21 (E for the Excuse).", span))
            continue
        else:
            problems.append(Problem(f'{prefix}: "{item}" is not a trump; write trump numbers '
                                    f"1 to 21 and E for the Excuse, separated by commas.", span))
            continue
        if mask >> card & 1:
            problems.append(Problem(f"{prefix}: {item} appears twice.", span))
        mask |= 1 << card
    return mask, problems


def _parse_suit_field(suit: int, text: str, where: str, offset: int
                      ) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    prefix = _field_prefix(where, suit + 1, text)
    pos = 0
    while pos < len(text):
        char = text[pos].upper()
        if char.isspace() or char == ",":
            pos += 1
            continue
        width = 2 if text[pos: pos + 2] == "10" else 1  # "1" then "0" is the ten
        span = (offset + pos, offset + pos + width)
        shown = text[pos: pos + width]
        pos += width
        rank = 9 if width == 2 else _COMPACT_RANKS.get(char)
        if rank is None:
            problems.append(Problem(
                f'{prefix}: "{shown}" is not a {SUIT_NAMES[suit][:-1]} rank; ranks are '
                f"{' '.join(_COMPACT_RANK_CHARS)} (T or 10 for the ten).", span))
            continue
        card = _suit_card(suit, rank)
        if mask >> card & 1:
            problems.append(Problem(f"{prefix}: {shown} appears twice.", span))
        mask |= 1 << card
    return mask, problems


def _parse_compact(text: str, where: str, offset: int = 0) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    for field, part in enumerate(text.split(".")):
        if field == 0:
            found_mask, found = _parse_trump_field(part, where, offset)
        else:
            found_mask, found = _parse_suit_field(field - 1, part, where, offset)
        mask |= found_mask
        problems += found
        offset += len(part) + 1
    return mask, problems


def _free_tokens(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Tokens of free-form text with their spans; an article joins the next token
    ("le Petit"), "de"/"du"/"of" its neighbours ("Roi de cœur", "King of hearts")."""
    raw = [(m.group(), m.span()) for m in _FREE_TOKEN_RE.finditer(text)]
    out: list[tuple[str, tuple[int, int]]] = []
    k = 0
    while k < len(raw):
        token, (start, end) = raw[k]
        k += 1
        if token.lower() in _ARTICLES and k < len(raw):
            token, end = token + " " + raw[k][0], raw[k][1][1]
            k += 1
        while k + 1 < len(raw) and raw[k][0].lower() in _OF_WORDS:
            token, end = f"{token} {raw[k][0]} {raw[k + 1][0]}", raw[k + 1][1][1]
            k += 2
        out.append((token, (start, end)))
    return out


def _parse_free(text: str, where: str, offset: int = 0) -> tuple[int, list[Problem]]:
    mask = 0
    problems: list[Problem] = []
    for token, (start, end) in _free_tokens(text):
        span = (offset + start, offset + end)
        result = _card_or_problem(token, where)
        if isinstance(result, str):
            problems.append(Problem(result, span))
        elif mask >> result & 1:
            problems.append(Problem(
                f"card {describe_card(result)} appears twice{_where_in(where)}.", span))
        else:
            mask |= 1 << result
    return mask, problems


def _cards_problems(text: str, where: str, offset: int = 0) -> tuple[int, list[Problem]]:
    """Mask of a hand (or chien) string and everything wrong with it."""
    dots = text.count(".")
    if dots == 4:
        return _parse_compact(text, where, offset)
    if dots:
        # Card tokens never contain a dot, so any dot means a mistyped compact form.
        head = f"{where}: " if where else ""
        return 0, [Problem(f"{head}the compact form needs 5 fields separated by dots "
                           f"(trumps.♠.♥.♦.♣); found {dots + 1}.",
                           (offset, offset + len(text)))]
    return _parse_free(text, where, offset)


def parse_hand(text: str, *, players: int | None = 4, where: str = "") -> int:
    """Mask of one hand: compact form when the text has exactly four dots, else free form.

    ``players`` (3, 4 or 5) fixes the number of cards required (24, 18, 15); ``None``
    accepts any number.  Raises :class:`NotationError` for unreadable text (every
    problem at once, carets under the bad tokens) and :class:`DealError` for a wrong
    card count.
    """
    mask, problems = _cards_problems(text, where)
    if problems:
        raise make_error(NotationError, problems, text)
    if players is not None and mask.bit_count() != HAND_SIZE[players]:
        subject = where or "the hand"
        raise make_error(DealError, [Problem(
            f"{subject} has {mask.bit_count()} cards; at {players} players every hand needs "
            f"{HAND_SIZE[players]} ({deal_size_phrase(players)}).")])
    return mask


def format_hand(mask: int) -> str:
    """Canonical compact form, e.g. ``21,17,16,14,10,9,5,3.KC54.J986.Q8.C``.

    Trumps from 21 down and ``E`` for the Excuse, separated by commas; then ♠ ♥ ♦ ♣,
    one character per card from the King down (``T`` is the ten); an empty field is
    a void.
    """
    mask = int(mask)
    trumps = [str(c + 1) for c in reversed(range(N_TRUMPS)) if mask >> c & 1]
    if mask >> EXCUSE & 1:
        trumps.append("E")
    fields = [",".join(trumps)]
    for suit in (SPADES, HEARTS, DIAMONDS, CLUBS):
        fields.append("".join(_COMPACT_RANK_CHARS[13 - r] for r in reversed(range(SUIT_SIZE))
                              if mask >> _suit_card(suit, r) & 1))
    return ".".join(fields)


# ---------------------------------------------------------------------------
# The chien
# ---------------------------------------------------------------------------


def _chien_problems(text: str, offset: int) -> tuple[int | None, list[Problem]]:
    if text.strip() == "?":
        return None, []
    return _cards_problems(text, "the chien", offset)


def parse_chien(text: str, *, players: int | None = 4) -> int | None:
    """Mask of the chien (card tokens separated by commas or spaces, or the compact
    form); ``None`` for ``?``.  ``players`` fixes its size (6, 6, 3), ``None`` any."""
    mask, problems = _chien_problems(text, 0)
    if problems:
        raise make_error(NotationError, problems, text)
    if mask is not None and players is not None and mask.bit_count() != CHIEN_SIZE[players]:
        raise make_error(DealError, [Problem(
            f"the chien has {mask.bit_count()} cards; at {players} players it needs "
            f"{CHIEN_SIZE[players]}.")])
    return mask


def format_chien(mask: int | None) -> str:
    """The chien as canonical ids in canonical order separated by commas; ``?`` unknown."""
    if mask is None:
        return "?"
    return ",".join(CARD_IDS[c] for c in canonical_order(cards_of(int(mask))))


# ---------------------------------------------------------------------------
# Deals: "[<seat>:]<hand> <hand> <hand> <hand>/<chien>"
# ---------------------------------------------------------------------------

_HAND_TOKEN_RE = re.compile(r"[^\s_]+")
_MARKER_RE = re.compile(r"\s*([^\s_/:.,;]*):")
_EXAMPLE_NAME = re.compile(r"example-?\S*", re.IGNORECASE)


def example_or_text(text: str) -> str:
    """The deal of a worked example named ``text`` (any case), else ``text`` itself."""
    name = text.strip()
    if not _EXAMPLE_NAME.fullmatch(name):
        return text
    for key, deal in EXAMPLE_DEALS.items():
        if key == name.lower():
            return deal
    raise NotationError(f'no such example "{name}"; the French Tarot worked example is '
                        f"{', '.join(EXAMPLE_DEALS)} (FRENCH_NOTATION.md).")


def parse_deal(text: str, *, validate: bool = True) -> FrenchDeal | FrenchPartialDeal:
    """Read a deal: ``[<seat>:]<hand> <hand> … /<chien>`` with 3, 4 or 5 hands.

    The hands are in compact form, separated by spaces or ``_``; the seat marker
    ``1:`` … ``5:`` names the seat of the first hand (default ``1``), the others follow
    in playing order.  ``-`` marks an unknown hand and ``?`` an unknown chien, which
    gives a :class:`FrenchPartialDeal`; otherwise a :class:`FrenchDeal`, hands in seat
    order.  ``validate`` checks the card counts (:class:`DealError`).  Notation
    problems are reported together in one :class:`NotationError`.
    """
    if not text.strip():
        raise make_error(NotationError, [Problem(
            'the deal is empty; write the hands and the chien, for example '
            '"1:<hand> <hand> <hand> <hand>/<chien>".')])
    problems: list[Problem] = []
    marker = _MARKER_RE.match(text)
    body = marker.end() if marker else 0
    slashes = [m.start() for m in re.finditer("/", text)]
    if not slashes:
        problems.append(Problem('missing "/" between the hands and the chien; write "?" if the '
                                "chien is unknown."))
        raise make_error(NotationError, problems, text)
    if len(slashes) > 1:
        problems.append(Problem(f'the deal has {len(slashes)} "/"; only one "/" may separate '
                                f"the hands from the chien.", (slashes[1], slashes[1] + 1)))
        raise make_error(NotationError, problems, text)
    slash = slashes[0]
    matches = list(_HAND_TOKEN_RE.finditer(text, body, slash))
    players = len(matches)
    if players not in PLAYERS:
        problems.append(Problem(f'a French Tarot deal needs 3, 4 or 5 hands before the "/"; '
                                f"found {players}."))
        raise make_error(NotationError, problems, text)
    names = SEAT_NAMES[players]
    first = 0
    if marker is not None:
        if marker.group(1) in names:
            first = names.index(marker.group(1))
        else:
            # F, M and R are Illustrated Tarock's seats: say so to whoever pasted such a deal.
            hint = (" (F, M and R are the seats of Illustrated Tarock)"
                    if marker.group(1).upper() in ("F", "M", "R") else "")
            problems.append(Problem(
                f'unknown seat "{marker.group(1)}:"; at {players} players the seats are '
                f"{', '.join(names)}{hint}.", (marker.start(1), marker.end())))
    hands: list[int | None] = [None] * players
    for k, match in enumerate(matches):
        seat = (first + k) % players
        token = match.group()
        if token == "-":
            continue
        where = f"hand {names[seat]}"
        if token == "?":
            problems.append(Problem(f'{where}: write "-" for an unknown hand ("?" is for the '
                                    f"chien).", match.span()))
            continue
        if token.count(".") != 4:
            problems.append(Problem(
                f'{where}: "{token}" is not a hand in compact form; a deal writes each hand as '
                f"trumps.♠.♥.♦.♣ (five fields, four dots).", match.span()))
            continue
        mask, found = _parse_compact(token, where, match.start())
        problems += found
        hands[seat] = mask
    chien, found = _chien_problems(text[slash + 1:], slash + 1)
    problems += found
    if problems:
        raise make_error(NotationError, problems, text)
    deal: FrenchDeal | FrenchPartialDeal
    if None in hands or chien is None:
        deal = FrenchPartialDeal(hands=tuple(hands), chien=chien)
    else:
        deal = FrenchDeal(hands=tuple(hands), chien=chien)  # type: ignore[arg-type]
    if validate:
        deal.validate()
    return deal


def format_deal(deal: FrenchDeal | FrenchPartialDeal, *, separator: str = " ") -> str:
    """Canonical deal notation: ``1:`` marker, compact hands, the chien's ids.

    Unknown hands are written ``-`` and an unknown chien ``?``.  Only the cards are
    written: a taker, contract and discard are fields of a deal file.
    """
    hands = ["-" if mask is None else format_hand(mask) for mask in deal.hands]
    return "1:" + separator.join(hands) + "/" + format_chien(deal.chien)


def format_deal_url(deal: FrenchDeal | FrenchPartialDeal) -> str:
    """Deal notation with ``_`` between the hands: one URL component or shell word."""
    return format_deal(deal, separator="_")


# ---------------------------------------------------------------------------
# Contracts
# ---------------------------------------------------------------------------

_CONTRACT_ABBREVIATIONS = {"p": "petite", "prise": "petite", "g": "garde", "gs": "garde_sans",
                           "gc": "garde_contre"}


def parse_contract(text: str) -> str:
    """The canonical contract name of ``text``: the names of :data:`CONTRACTS` in any case
    with spaces, hyphens or underscores (``Garde Sans``), ``Prise`` for the petite, and
    the abbreviations ``P G GS GC``.  :class:`NotationError` otherwise."""
    key = normalize_token(text)
    if key in _CONTRACT_ABBREVIATIONS:
        return _CONTRACT_ABBREVIATIONS[key]
    for name in CONTRACTS:
        if key == name.replace("_", ""):
            return contract_name(name)
    raise NotationError(f'unknown contract "{text}"; expected {", ".join(CONTRACTS[:-1])} or '
                        f"{CONTRACTS[-1]} (or P, G, GS, GC).")



# ---------------------------------------------------------------------------
# The play: tricks in order, each opened by the seat that leads it
# ---------------------------------------------------------------------------

_SEAT_MARK_RE = re.compile(r"^([0-9]+):$")


def parse_play(value: str | Iterable[str | Iterable[object]], *, players: int = 4
               ) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """(cards in play order, the leader the text names per trick or None).

    ``value`` is the play text (FRENCH_NOTATION.md 8) or a list of tricks, each a string
    or a list of card tokens.  Cards take every spelling of section 1.2; tricks are
    separated by ``|``, by new lines, or not at all (the cards are then taken
    ``players`` at a time); a trick may start with its number (``3.``) and with the seat
    that leads it (``2:``), which the rules of play check.  Every bad token is reported
    with its trick and place, together, in one :class:`NotationError`.
    """
    names = SEAT_NAMES[players]

    def seat_of(mark: str) -> int | None:
        return names.index(mark) if mark in names else None

    cards, leaders, problems = read_play(
        value, per_trick=players, seat_of=seat_of, seat_mark=_SEAT_MARK_RE,
        seat_help=f"at {players} players the seats are {', '.join(names)}",
        card_of=parse_card)
    if problems:
        raise make_error(NotationError, [Problem(p) for p in problems])
    return cards, leaders


def format_play(cards: Iterable[int], *, players: int = 4, first: int = 0) -> str:
    """The one-line play: ``1: D8 T2 D4 EX | 4: …``, each trick opened by the seat that
    leads it (``first`` leads the first; then each trick's winner), canonical ids."""
    cards = list(cards)
    names = SEAT_NAMES[players]
    out, leader = [], first
    for start in range(0, len(cards), players):
        trick = cards[start:start + players]
        out.append(f"{names[leader]}: " + " ".join(CARD_IDS[c] for c in trick))
        if len(trick) == players:
            leader = (leader + winning_position(trick)) % players
    return " | ".join(out)
