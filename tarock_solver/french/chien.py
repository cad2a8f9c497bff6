"""Legal chien discards (l'écart) in a Petite or a Garde, and where the chien goes.

The taker adds the chien to his hand and discards as many cards as it held.  He may
discard neither a King nor an oudler; a trump only when he has no other card left to
discard, and then the trumps discarded are shown to the defence.  Sets of cards are
Python ints, bit = card index, as in :mod:`.cards`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

from ..errors import RulesError
from .cards import (
    CARD_IDS,
    CHIEN_SIZE,
    HALF_POINTS,
    JACK,
    KING_MASK,
    OUDLER_MASK,
    SUIT_SIZE,
    SUIT_START,
    TRUMP_MASK,
    cards_of,
    half_points,
    mask_of,
    oudlers_in,
    rank_of,
    suit_of,
)
from .play import PlayState
from .rules import Contract

__all__ = ["DiscardError", "check_discard", "discard_pool", "legal_discards",
           "merged_discards", "opening", "opening_key", "quick_discard", "trumps_to_show"]


_SUIT_BITS = (1 << SUIT_SIZE) - 1


class DiscardError(RulesError):
    """A chien discard the rules forbid; the message names the card and the rule."""


def _size(players: int) -> int:
    if players not in CHIEN_SIZE:
        raise RulesError(f"players must be 3, 4 or 5, not {players}.")
    return CHIEN_SIZE[players]


def _ids(mask: int) -> str:
    return " ".join(CARD_IDS[c] for c in cards_of(mask))


def discard_pool(hand: int) -> tuple[int, int]:
    """``(free, trumps)``: the cards of ``hand`` that may always be discarded (suit cards
    other than Kings), and the trumps that may be discarded only when ``free`` is too
    small (every trump but the Petit and the 21)."""
    free = hand & ~TRUMP_MASK & ~KING_MASK & ~OUDLER_MASK
    trumps = hand & TRUMP_MASK & ~OUDLER_MASK
    return free, trumps


def trumps_to_show(hand: int, players: int) -> int:
    """How many trumps a discard from ``hand`` must hold (and show): 0 unless the hand has
    fewer free cards than the chien."""
    free, _ = discard_pool(hand)
    return max(0, _size(players) - len(cards_of(free)))


def check_discard(hand_with_chien: int, discard: int, players: int = 4) -> None:
    """Nothing if ``discard`` is a legal écart from ``hand_with_chien``; DiscardError naming
    the bad card and the rule otherwise (all bad cards at once)."""
    size = _size(players)
    problems = []
    count = len(cards_of(discard))
    if count != size:
        problems.append(f"the discard holds {count} cards; at {players} players it holds "
                        f"{size}.")
    if discard & ~hand_with_chien:
        problems.append(f"{_ids(discard & ~hand_with_chien)}: not in the hand (with the "
                        "chien).")
    if discard & KING_MASK:
        problems.append(f"{_ids(discard & KING_MASK)}: a King may not be discarded.")
    if discard & OUDLER_MASK:
        problems.append(f"{_ids(discard & OUDLER_MASK)}: an oudler (the Petit, the 21, "
                        "the Excuse) may not be discarded.")
    free, _ = discard_pool(hand_with_chien)
    trumps = discard & TRUMP_MASK & ~OUDLER_MASK
    kept_free = free & ~discard
    if trumps and kept_free:
        problems.append(f"{_ids(trumps)}: a trump may be discarded only when no other "
                        f"card can be ({_ids(kept_free)} could).")
    if problems:
        raise DiscardError("illegal discard: " + " ".join(problems))


def legal_discard_count(hand_with_chien: int, players: int = 4) -> int:
    """How many discards :func:`legal_discards` gives, without listing them."""
    size = _size(players)
    free, trumps = discard_pool(hand_with_chien)
    n_free, n_trumps = len(cards_of(free)), len(cards_of(trumps))
    return comb(n_free, size) if n_free >= size else comb(n_trumps, size - n_free)


def legal_discards(hand_with_chien: int, players: int = 4) -> Iterator[int]:
    """Every legal discard from ``hand_with_chien``, lazily (there can be many: 38,760
    from 20 free cards at four players)."""
    size = _size(players)
    free, trumps = discard_pool(hand_with_chien)
    free_cards = cards_of(free)
    if len(free_cards) >= size:
        for combo in combinations(free_cards, size):
            yield mask_of(combo)
        return
    need = size - len(free_cards)
    trump_cards = cards_of(trumps)
    if len(trump_cards) < need:
        # Only Kings and oudlers would be left: no legal discard exists (it cannot
        # happen with a real deal, which leaves at least 17 other cards).
        return
    for combo in combinations(trump_cards, need):
        yield free | mask_of(combo)


def merged_discards(hand_with_chien: int, players: int = 4) -> list[int]:
    """The legal discards with equivalent ones merged, in a fixed order.

    Within a suit the spot cards (1 to 10) are merged by count: of ``k`` spot cards put
    away, the lowest ``k`` go (a higher spot card kept is never the weaker card to hold);
    the face cards (Jack, Cavalier, Queen) stay apart.  When trumps must be discarded
    the lowest go the same way.  A few hundred merged discards stand for many
    thousands of legal ones.
    """
    size = _size(players)
    free, trumps = discard_pool(hand_with_chien)
    free_cards = cards_of(free)
    if len(free_cards) < size:
        low = cards_of(trumps)[:size - len(free_cards)]
        return [free | mask_of(low)] if len(low) == size - len(free_cards) else []
    # per suit, every (count, set) it can give: k lowest spot cards plus a subset of faces
    options: list[list[tuple[int, int]]] = []
    for s in range(4):
        in_suit = [c for c in free_cards if suit_of(c) == s]
        spots = [c for c in in_suit if rank_of(c) < JACK]
        faces = [c for c in in_suit if rank_of(c) >= JACK]
        opts = []
        for k in range(len(spots) + 1):
            for r in range(len(faces) + 1):
                for combo in combinations(faces, r):
                    opts.append((k + r, mask_of(spots[:k]) | mask_of(combo)))
        options.append(opts)
    out: list[int] = []

    def walk(s: int, left: int, acc: int) -> None:
        if s == 4:
            if left == 0:
                out.append(acc)
            return
        for count, mask in options[s]:
            if count <= left:
                walk(s + 1, left - count, acc | mask)

    walk(0, size, 0)
    return out


def quick_discard(full: int, players: int = 4) -> int:
    """A quick legal discard: from the shortest suits first, the cheapest card within
    (the rule of thumb of voiding suits and putting no points at risk), trumps only when
    the rules force them, the lowest."""
    size = _size(players)
    free, trumps = discard_pool(full)
    cards = cards_of(free)
    if len(cards) < size:
        return free | mask_of(cards_of(trumps)[:size - len(cards)])
    length = [(full >> SUIT_START[s] & _SUIT_BITS).bit_count() for s in range(4)]
    cards.sort(key=lambda c: (length[suit_of(c)], HALF_POINTS[c], c))
    return mask_of(cards[:size])


def opening_key(contract: Contract) -> tuple[bool, str]:
    """What :func:`opening` depends on in a contract: whether the taker exchanges and
    where the chien goes (the Petite and the Garde share theirs)."""
    return contract.exchanges, contract.chien_to


def opening(hands: Sequence[int], chien: int, taker: int, contract: Contract,
            discard: int | None = None) -> tuple[tuple[int, ...], PlayState]:
    """The hands and the taker's score so far as the play of ``contract`` starts: in a
    Petite or a Garde he takes the chien and puts ``discard`` aside (a
    :func:`quick_discard` when None), which counts for him; in a Garde sans the chien
    counts for him, in a Garde contre for the defence."""
    out = list(hands)
    aside = chien
    if contract.exchanges:
        full = out[taker] | chien
        aside = quick_discard(full) if discard is None else discard
        out[taker] = full & ~aside
    mine = contract.chien_to == "taker"
    return tuple(out), PlayState(half_points(aside) if mine else 0,
                                 oudlers_in(aside) if mine else 0)
