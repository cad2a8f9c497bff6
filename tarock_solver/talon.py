"""Talon exchange: the groups a declarer may take and the discards he may make (RULES.md 4).

The module answers three questions for the solver and the adviser:

* which talon groups a contract allows (:func:`talon_groups`, labels as in NOTATION.md 5.3);
* which discards are legal after taking a group (:func:`legal_discards`);
* which of those discards are interchangeable for double-dummy play, so that a search only
  has to try one of each kind (:func:`equivalent_cards`, :func:`discard_classes`).

:func:`exchanges` combines them into the list of :class:`Exchange` records a declarer can
choose from.  Cards are indices and hands are bit masks of :mod:`tarock_solver.cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import (
    CARD_IDS,
    FULL_MASK,
    GROUP_SIZE,
    GROUP_START,
    KAKADU,
    KINGS_MASK,
    MIDDLE_TAROCKS_MASK,
    N_CARDS,
    N_GROUPS,
    NOMINAL,
    PAGAT,
    SUIT_MASK,
    TAROCK_MASK,
    UHU,
    bit,
    canonical_order,
    indices_of,
    popcount,
    thirds_of,
)
from .errors import DealError, RulesError
from .rules.names import TALON_CARDS

#: Number of talon cards the declarer takes (and discards) in each contract.
TALON_TAKE: dict[str, int] = TALON_CARDS

#: Values of the `discard_tarock` option (RULES.md 4 and 12).
DISCARD_MODES: tuple[str, ...] = ("forced_open", "never", "free_open")

#: Cards whose identity matters beyond rank and value: the birds score by *which* card
#: wins a given trick, so I, II and III are never treated as interchangeable.
BIRD_CARDS_MASK = bit(PAGAT) | bit(UHU) | bit(KAKADU)

#: Labels and 0-based talon positions of the groups, by the number of cards taken.
#: Solo takes nothing: it has one "empty" group with an empty label (NOTATION 5.3
#: leaves `talon_pick` empty in Solo), so callers can loop over groups uniformly.
_GROUPS_BY_TAKE: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {
    3: (("1-3", (0, 1, 2)), ("4-6", (3, 4, 5))),
    2: (("1-2", (0, 1)), ("3-4", (2, 3)), ("5-6", (4, 5))),
    1: tuple((str(p + 1), (p,)) for p in range(6)),
    0: (("", ()),),
}

#: Suit cards that may be discarded without restriction (every suit card but the Kings).
_PLAIN_SUITS_MASK = SUIT_MASK & ~KINGS_MASK


def _check_contract(contract: str) -> int:
    try:
        return TALON_TAKE[contract]
    except (KeyError, TypeError):
        raise RulesError(
            f'unknown contract "{contract}"; expected one of: {", ".join(TALON_TAKE)}.'
        ) from None


def _check_mode(mode: str) -> None:
    if mode not in DISCARD_MODES:
        raise RulesError(
            f'unknown value "{mode}" for option discard_tarock; '
            f'expected one of: {", ".join(DISCARD_MODES)}.'
        )


def talon_groups(contract: str) -> list[tuple[str, tuple[int, ...]]]:
    """The talon groups the declarer of ``contract`` may take: ``(label, positions)``.

    Labels follow NOTATION.md 5.3 (``'1-3'``, ``'4-6'``, ``'1-2'``, ``'3-4'``, ``'5-6'``,
    ``'1'`` … ``'6'``); positions are 0-based indices into the talon (t1 = 0).  Solo has
    a single empty group ``('', ())``.
    """
    return list(_GROUPS_BY_TAKE[_check_contract(contract)])


def _subsets(mask: int, k: int) -> list[int]:
    """Every k-card subset of ``mask``, in lexicographic order of the card indices."""
    cards = indices_of(mask)
    return [sum(1 << c for c in combo) for combo in combinations(cards, k)]


def legal_discards(hand_after_take: int, k: int, mode: str = "forced_open") -> list[int]:
    """Every legal discard of ``k`` cards from ``hand_after_take`` (RULES.md 4), as masks.

    * Kings, Sküs, XXI and I are never discarded.
    * ``forced_open``: tarocks II–XX only when the hand holds fewer than ``k`` suit cards
      other than Kings; then all those suit cards go, plus exactly the missing number of
      tarocks.
    * ``never``: no tarock; when that leaves no legal discard the ``forced_open`` rule
      applies.  Since ``forced_open`` allows tarocks only in exactly that situation, the
      two modes give the same sets; they differ only in name.
    * ``free_open``: any ``k`` cards among the suit cards (no Kings) and tarocks II–XX.

    Discarded tarocks are shown to everyone in every mode (:attr:`Exchange.shown_tarocks`).
    """
    _check_mode(mode)
    if not 0 <= k <= 3:
        raise RulesError(f"a declarer discards 0 to 3 cards; {k} requested.")
    hand = int(hand_after_take)
    if hand & ~FULL_MASK:
        raise DealError(f"hand mask {hand:#x} has bits beyond the {N_CARDS} cards.")
    if k == 0:
        return [0]
    suits = hand & _PLAIN_SUITS_MASK
    middle = hand & MIDDLE_TAROCKS_MASK
    if mode == "free_open":
        pool = suits | middle
        if popcount(pool) < k:
            raise RulesError(_no_discard_message(hand, k))
        return _subsets(pool, k)
    n_suits = popcount(suits)
    if n_suits >= k:
        return _subsets(suits, k)
    missing = k - n_suits
    if popcount(middle) < missing:
        # Impossible with a 16 + k card hand (at most 7 cards are protected), but a
        # caller may pass a partial hand.
        raise RulesError(_no_discard_message(hand, k))
    return [suits | tarocks for tarocks in _subsets(middle, missing)]


def _no_discard_message(hand: int, k: int) -> str:
    return (
        f"no legal discard of {k} card(s): the hand has {popcount(hand)} cards and only "
        f"{popcount(hand & (_PLAIN_SUITS_MASK | MIDDLE_TAROCKS_MASK))} may be discarded "
        f"(Kings, Sküs, XXI and I are protected)."
    )


def equivalent_cards(hand: int, in_play: int, distinct: int = BIRD_CARDS_MASK) -> list[int]:
    """Partition ``hand`` into classes of cards that are interchangeable in play.

    Two cards of ``hand`` are equivalent when they are in the same group (a suit or the
    tarocks), have the same nominal value, and no card of ``in_play`` that ``hand`` does
    not hold ranks between them.  Cards outside ``in_play | hand`` are gone (discarded,
    played, or in a pile) and separate nothing.  Swapping equivalent cards maps every
    position onto an isomorphic one: the same legal moves, trick winners and points.

    ``distinct`` cards always form classes of their own; by default the birds I, II and
    III, whose identity decides bird bonuses.  Returns class masks, weakest class first
    within each group, groups in index order.
    """
    hand = int(hand)
    live = int(in_play) | hand
    classes: list[int] = []
    for group in range(N_GROUPS):
        start = GROUP_START[group]
        run = 0
        run_value = -1
        for idx in range(start, start + GROUP_SIZE[group]):
            b = 1 << idx
            if not live & b:
                continue
            if not hand & b or distinct & b:
                # An opponent's card or a distinct card breaks the run.
                if run:
                    classes.append(run)
                run, run_value = 0, -1
                if hand & b:
                    classes.append(b)
                continue
            value = int(NOMINAL[idx])
            if run and value == run_value:
                run |= b
            else:
                if run:
                    classes.append(run)
                run, run_value = b, value
        if run:
            classes.append(run)
    return classes


def _lowest_cards(mask: int, count: int) -> int:
    out = 0
    for _ in range(count):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def discard_classes(
    hand_after_take: int,
    k: int,
    mode: str,
    other_cards_in_play: int,
    *,
    distinct: int = BIRD_CARDS_MASK,
) -> list[tuple[int, int]]:
    """The legal discards grouped into equivalence classes: ``(representative, size)``.

    Two discards are equivalent when one becomes the other by swapping cards of the same
    class of :func:`equivalent_cards` (computed over ``hand_after_take`` against
    ``other_cards_in_play``).  Equivalent discards give the same pile value and leave
    isomorphic hands, so they have the same double-dummy value.

    ``other_cards_in_play`` is the set of cards that will still be played but that the
    declarer does not hold: after an exchange, every card outside his hand and the
    untaken talon.  Since the talon is face up, this is also exactly what the declarer
    knows, so the classes are valid in a partial-information search too.

    The representative discards the weakest cards of each class.  Legality is closed
    under swaps inside a class (classes never mix protected and unprotected cards, nor
    suits and tarocks), so the representative is itself legal.  Classes appear in the
    order of their first member in :func:`legal_discards`; the sizes add up to the
    number of legal discards.
    """
    hand = int(hand_after_take)
    classes = equivalent_cards(hand, int(other_cards_in_play) & ~hand, distinct)
    # A discard's class counts, as the sorted class indices of its cards (a discard
    # holds a few cards; there are many classes).
    class_of = {}
    for ci, c in enumerate(classes):
        m = c
        while m:
            low = m & -m
            class_of[low] = ci
            m ^= low
    found: dict[tuple[int, ...], list[int]] = {}
    for discard in legal_discards(hand, k, mode):
        members = []
        m = discard
        while m:
            low = m & -m
            members.append(class_of[low])
            m ^= low
        key = tuple(sorted(members))
        entry = found.get(key)
        if entry is None:
            rep = 0
            for ci in set(key):
                rep |= _lowest_cards(classes[ci], key.count(ci))
            found[key] = [rep, 1]
        else:
            entry[1] += 1
    return [(rep, size) for rep, size in found.values()]


@dataclass(frozen=True)
class Exchange:
    """One way to make the talon exchange of a contract.

    ``group`` holds the 0-based talon positions taken and ``group_label`` their
    NOTATION 5.3 label.  ``hand_after`` is the 16-card hand the declarer plays with.
    ``declarer_pile_thirds`` is the value of the discard, which counts for the declarer;
    ``defenders_talon_mask`` the untaken talon cards, which count for the defenders.
    ``equivalents`` is the number of legal discards this record stands for (1 unless
    equivalent discards were merged).
    """

    contract: str
    group_label: str
    group: tuple[int, ...]
    taken: int
    discard: int
    shown_tarocks: int
    hand_after: int
    declarer_pile_thirds: int
    defenders_talon_mask: int
    equivalents: int = 1

    @property
    def discard_ids(self) -> str:
        """The discard as canonical ids in canonical order, space separated (NOTATION 5.3)."""
        return " ".join(CARD_IDS[i] for i in canonical_order(indices_of(self.discard)))


def _check_deal_part(hand: int, talon: Sequence[int]) -> int:
    """Validate a 16-card hand and a 6-card talon; return the talon mask."""
    hand = int(hand)
    if hand & ~FULL_MASK or popcount(hand) != 16:
        raise DealError(f"the declarer's hand has {popcount(hand & FULL_MASK)} cards; it needs 16.")
    if len(talon) != 6:
        raise DealError(f"the talon must list 6 cards in table order (t1 … t6); found {len(talon)}.")
    talon_mask = 0
    for pos, card in enumerate(talon):
        card = int(card)
        if not 0 <= card < N_CARDS:
            raise DealError(f"talon position {pos + 1} holds no card (index {card}).")
        b = bit(card)
        if talon_mask & b:
            raise DealError(f"card {CARD_IDS[card]} appears twice in the talon.")
        if hand & b:
            raise DealError(
                f"card {CARD_IDS[card]} appears twice: in the declarer's hand and at talon "
                f"position {pos + 1}."
            )
        talon_mask |= b
    return talon_mask


def exchanges(
    hand: int,
    talon: Sequence[int],
    contract: str,
    mode: str = "forced_open",
    *,
    skip_equivalent: bool = True,
) -> list[Exchange]:
    """Every legal exchange of ``contract`` for a 16-card ``hand`` and the ordered ``talon``.

    One record per (group, discard) pair, groups in :func:`talon_groups` order.  With
    ``skip_equivalent`` only one discard of each :func:`discard_classes` class is listed
    (its ``equivalents`` field gives the class size).  Solo yields one record that takes
    and discards nothing; all six talon cards go to the defenders.
    """
    k = _check_contract(contract)
    _check_mode(mode)
    hand = int(hand)
    talon_mask = _check_deal_part(hand, talon)
    out: list[Exchange] = []
    for label, positions in talon_groups(contract):
        taken = sum(bit(int(talon[p])) for p in positions)
        after_take = hand | taken
        untaken = talon_mask & ~taken
        if skip_equivalent:
            others = FULL_MASK & ~after_take & ~untaken
            choices = discard_classes(after_take, k, mode, others)
        else:
            choices = [(d, 1) for d in legal_discards(after_take, k, mode)]
        for discard, size in choices:
            out.append(
                Exchange(
                    contract=contract,
                    group_label=label,
                    group=positions,
                    taken=taken,
                    discard=discard,
                    shown_tarocks=discard & TAROCK_MASK,
                    hand_after=after_take & ~discard,
                    declarer_pile_thirds=thirds_of(discard),
                    defenders_talon_mask=untaken,
                    equivalents=size,
                )
            )
    return out
