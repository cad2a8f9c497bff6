"""Seeded positions for the evaluator's labels, drawn where the adviser will ask.

:func:`sample_position` draws position ``index`` of the stream of ``(seed, kind)`` as a
:class:`SampledPosition`, a pure function of its arguments (for ``advised`` also of the
evaluator's weights), so a label run can be chunked, resumed or extended without
changing any position.  The kinds (:data:`KINDS`) are described there; the label
generator (:mod:`.labels`) solves the positions exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..advise.candidates import shortlist
from ..cards import FULL_MASK, TAROCK_MASK, bit
from ..deal import random_deal
from ..errors import RulesError
from ..play import random_play_out
from ..talon import TALON_TAKE, legal_discards, talon_groups

__all__ = [
    "ADVISED_INNER",
    "ADVISED_STREAM",
    "CONTRACT_WEIGHTS",
    "KINDS",
    "SHORTLIST_SHARE",
    "SHORT_CARDS",
    "SampledPosition",
    "dealt_hands",
    "sample_position",
    "sample_positions",
    "stream_rng",
]

#: Kind names and their codes (the first element of the spawn key; stored in data files).
KINDS: dict[str, int] = {"post_exchange": 0, "random": 1, "short": 2, "biddable": 3,
                         "advised": 4}
#: Inner worlds of an ``advised`` position's exchange (the adviser's default).
ADVISED_INNER = 64
#: Seed stream of those inner worlds (beside the position's own generator).
ADVISED_STREAM = 11

#: Contracts of the ``dummett`` profile and how often the sampler picks each.  Three and
#: Lower play alike (a half of the talon); Lower is rarer at the table.
CONTRACT_WEIGHTS: dict[str, float] = {"three": 0.30, "lower": 0.10, "two": 0.25, "one": 0.20,
                                      "solo": 0.15}
#: Code of each contract in data files (its position in CONTRACT_WEIGHTS); -1 = no exchange.
CONTRACT_CODES: dict[str, int] = {name: i for i, name in enumerate(CONTRACT_WEIGHTS)}
#: Share of exchanges that use the static rule's best discard (else a random legal one).
SHORTLIST_SHARE = 0.75
#: Cards per hand left in ``short`` positions (inclusive range).
SHORT_CARDS = (4, 15)
#: The rules' discard mode of every profile (RULES.md 4).
DISCARD_MODE = "forced_open"

_CONTRACTS = tuple(CONTRACT_WEIGHTS)
_WEIGHTS = np.array([CONTRACT_WEIGHTS[c] for c in _CONTRACTS])
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


@dataclass(frozen=True)
class SampledPosition:
    """One labelled-to-be position at a trick start.

    ``hands`` are the masks of F, M, R (equal sizes); ``contract`` the contract code
    (``CONTRACT_CODES``; -1 when the hands are as dealt or came from a random deal
    with no exchange); ``discard`` the declarer's discard mask (0 if none), kept for
    checks only — it is out of play and not part of the label.
    """

    kind: str
    index: int
    hands: tuple[int, int, int]
    leader: int
    declarer: int
    contract: int
    discard: int

    @property
    def cards_per_hand(self) -> int:
        return self.hands[0].bit_count()


def stream_rng(seed: int, kind: str, index: int) -> np.random.Generator:
    """The generator position ``index`` of ``(seed, kind)`` is drawn from; its first
    draw is the position's deal (:func:`~tarock_solver.deal.random_deal`)."""
    return np.random.default_rng(np.random.SeedSequence(int(seed),
                                                        spawn_key=(KINDS[kind], int(index))))


def dealt_hands(seed: int, kind: str, index: int) -> tuple[int, int, int]:
    """The three hands of position ``index``'s deal as dealt (the stream's first draw,
    before any exchange or play): the holdings the hand bonuses are scored on."""
    return random_deal(stream_rng(seed, kind, index)).hands


def _exchange(rng: np.random.Generator, hands: tuple[int, ...], talon: tuple[int, ...],
              declarer: int) -> tuple[tuple[int, int, int], int, int]:
    """Pick a contract, a group and a discard; return (hands after, contract code, discard)."""
    contract = _CONTRACTS[int(rng.choice(len(_CONTRACTS), p=_WEIGHTS))]
    k = TALON_TAKE[contract]
    hand = hands[declarer]
    if k == 0:
        return (hands[0], hands[1], hands[2]), CONTRACT_CODES[contract], 0
    groups = talon_groups(contract)
    label, positions = groups[int(rng.integers(len(groups)))]
    taken = sum(bit(talon[p]) for p in positions)
    after_take = hand | taken
    if rng.random() < SHORTLIST_SHARE:
        best = [ex for ex in shortlist(hand, talon, contract, DISCARD_MODE, per_group=1)
                if ex.group_label == label]
        discard = best[0].discard
    else:
        options = legal_discards(after_take, k, DISCARD_MODE)
        discard = options[int(rng.integers(len(options)))]
    out = list(hands)
    out[declarer] = after_take & ~discard
    return (out[0], out[1], out[2]), CONTRACT_CODES[contract], discard


def _advised_exchange(rng: np.random.Generator, seed: int, index: int,
                      hands: tuple[int, ...], talon: tuple[int, ...], declarer: int
                      ) -> tuple[tuple[int, int, int], int, int]:
    """The adviser's exchange of a contract drawn among those that take talon cards."""
    from ..advise.infoset import choose_exchange, inner_hands
    from ..advise.sampling import knowledge_from_hand

    takes = [c for c in _CONTRACTS if TALON_TAKE[c]]
    w = np.array([CONTRACT_WEIGHTS[c] for c in takes])
    contract = takes[int(rng.choice(len(takes), p=w / w.sum()))]
    hand = hands[declarer]
    inner = inner_hands(knowledge_from_hand(hand, declarer, talon), seed, ADVISED_STREAM,
                        (index,), ADVISED_INNER)
    ex = choose_exchange(hand, declarer, talon, contract, DISCARD_MODE, inner).exchange
    out = list(hands)
    out[declarer] = ex.hand_after
    return (out[0], out[1], out[2]), CONTRACT_CODES[contract], ex.discard


def sample_position(seed: int, kind: str, index: int) -> SampledPosition:
    """Position ``index`` of the reproducible stream of ``(seed, kind)``.

    Drawn from its own generator (:func:`stream_rng`, like
    :func:`tarock_solver.deal.random_deals`).  The kinds:

    ``post_exchange``
        A random deal, a random declarer seat and a random contract of the
        ``dummett`` profile (Three / Lower take a talon half, Two a pair, One a single
        card, Solo nothing).  The declarer takes a random allowed talon group and
        discards legally: most often (``SHORTLIST_SHARE``) the static rule's best
        discard of that group (:func:`tarock_solver.advise.candidates.shortlist`),
        otherwise a uniformly random legal discard.  Forehand leads to trick 1.  The
        discard and the untaken talon are out of play and not part of the label: the
        label is the card points the declarer takes from the 16 tricks.
    ``random``
        A random deal as dealt (the talon out of play), a random declarer, forehand
        leading.
    ``biddable``
        Like ``post_exchange``, but the declarer is the seat dealt the most tarocks
        (ties broken at random): the hands that bid at the table, where a random seat
        under-samples strong hands (mean 8.5 tarocks against 6.5).
    ``advised``
        The adviser's own positions: a ``biddable`` deal and declarer, a contract that
        takes talon cards (Three, Lower, Two, One, in ``CONTRACT_WEIGHTS``'
        proportions), and the exchange :func:`tarock_solver.advise.infoset.choose_exchange`
        makes on the declarer's information set with the shipped evaluator over
        ``ADVISED_INNER`` inner worlds: the evaluator is less accurate on those
        exchanges than on the static rule's (docs/EVALUATOR.md, Data), so labels here
        teach it where the adviser asks.  A retrained model gives another stream (the
        label runs' checkpoint key holds the weights' hash).
    ``short``
        A ``post_exchange`` or ``random`` start position (half each) played on with a
        uniformly random legal policy until 4–15 cards per hand are left (uniform); the
        position is at a trick start and the last trick's winner leads.
    """
    if kind not in KINDS:
        raise RulesError(f'unknown position kind "{kind}"; expected one of: {", ".join(KINDS)}')
    if isinstance(seed, bool) or int(seed) != seed or seed < 0:
        raise RulesError(f"seed must be a non-negative integer, not {seed!r}")
    if int(index) < 0:
        raise RulesError(f"position index must not be negative, not {index!r}")
    rng = stream_rng(seed, kind, index)
    deal = random_deal(rng)
    declarer = int(rng.integers(3))
    if kind in ("biddable", "advised"):
        counts = [(h & TAROCK_MASK).bit_count() for h in deal.hands]
        top = [s for s in range(3) if counts[s] == max(counts)]
        declarer = top[int(rng.integers(len(top)))]
    hands: tuple[int, int, int] = deal.hands
    contract, discard = -1, 0
    if kind == "advised":
        hands, contract, discard = _advised_exchange(rng, seed, index, deal.hands,
                                                     tuple(deal.talon), declarer)
    elif kind in ("post_exchange", "biddable") or (kind == "short" and rng.random() < 0.5):
        hands, contract, discard = _exchange(rng, deal.hands, deal.talon, declarer)
    leader = 0
    if kind == "short":
        left = int(rng.integers(SHORT_CARDS[0], SHORT_CARDS[1] + 1))
        hands, leader = random_play_out(hands, 0, 16 - left, rng)
    assert not (hands[0] & hands[1]) and not (hands[2] & (hands[0] | hands[1]))
    assert not (hands[0] | hands[1] | hands[2]) & ~FULL_MASK
    return SampledPosition(kind=kind, index=int(index), hands=hands, leader=leader,
                           declarer=declarer, contract=contract, discard=discard)


def sample_positions(seed: int, kind: str, count: int, *, start: int = 0
                     ) -> list[SampledPosition]:
    """Positions ``start`` … ``start + count - 1`` of the stream of ``(seed, kind)``."""
    return [sample_position(seed, kind, i) for i in range(start, start + count)]
