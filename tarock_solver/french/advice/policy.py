"""The others' bids when the adviser's player passes: the adviser's own bidding policy.

A player values each contract on what he sees, his 18 cards: the learned evaluator's
expected score, the petit au bout in, over inner worlds (the other hands and the chien
drawn at random), a Petite or a Garde with a quick discard (his shortest suits' cheapest
cards first).  In turn from seat 1 each bids his best-valued contract above the bid so
far when it is worth more than 0 to him, else passes; if all pass the deal is dealt
again (0).  The winner then plays the contract on the world as it is, with the same
quick discard.  Every speaker of every world is valued in one batch
(:func:`seat_values`); :func:`auctions` runs the bidding after the player's pass, and
:func:`calls_agree` tells which worlds agree with the calls heard before his turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...advise.sampling import rng_for
from ..cards import (
    ALL_CARDS,
    CHIEN_SIZE,
    HALF_POINTS,
    HAND_SIZE,
    N_CARDS,
    OUDLER_MASK,
    TRUMP_GROUP,
    cards_of,
    half_points,
    oudlers_in,
    split,
    suit_of,
)
from ..chien import discard_pool, opening, opening_key, quick_discard
from ..estimate.model import FrenchEvaluator, PositionArrays, opening_arrays
from ..rules import Contract, FrenchRules
from .value import contract_value
from .worlds import STREAM_POLICY, FrenchWorld

__all__ = ["CONTRACTS", "PolicySettings", "auctions", "calls_agree", "inner_deals",
           "last_bid", "seat_values"]

CONTRACTS = (Contract.PETITE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
#: The contracts' distinct openings: the Petite and the Garde share theirs (their scores
#: differ only by the multiplier), so the positions are valued once for both.
_KEYS = tuple(dict.fromkeys(opening_key(c) for c in CONTRACTS))
_KEY_OF = tuple(_KEYS.index(opening_key(c)) for c in CONTRACTS)

#: Per card index, from the one definition of each: its two kernel words
#: (:func:`~tarock_solver.french.cards.split`), its half points, whether it is an oudler,
#: its suit (:data:`TRUMP_GROUP` for a trump or the Excuse) and whether a discard may
#: always hold it (:func:`~tarock_solver.french.chien.discard_pool`).
_WORDS = np.array([split(1 << c) for c in range(N_CARDS)], np.int64)
_LO_BIT, _HI_BIT = _WORDS[:, 0].copy(), _WORDS[:, 1].copy()
_HALF = np.array(HALF_POINTS, np.int64)
_OUDLER = np.array([OUDLER_MASK >> c & 1 for c in range(N_CARDS)], np.int64)
_SUIT = np.array([suit_of(c) if suit_of(c) >= 0 else TRUMP_GROUP for c in range(N_CARDS)],
                 np.int64)
_FREE = np.array([discard_pool(1 << c)[0] != 0 for c in range(N_CARDS)])
_HAND = HAND_SIZE[4]
_CHIEN_SIZE = CHIEN_SIZE[4]


@dataclass(frozen=True)
class PolicySettings:
    inner_worlds: int = 8


def _inner_cards(hand: int, seed: int, index: tuple[int, ...], count: int) -> np.ndarray:
    """(count, 60): the cards outside ``hand`` in the order each inner world deals them
    (the other seats 18 each in seat order, the chien last); one generator a speaker."""
    unknown = np.array(cards_of(ALL_CARDS & ~hand), np.int64)
    rng = rng_for(seed, STREAM_POLICY, *index)
    return unknown[np.argsort(rng.random((count, len(unknown))), axis=1, kind="stable")]


def inner_deals(hand: int, seat: int, seed: int, index: tuple[int, ...], count: int
                ) -> list[tuple[tuple[int, ...], int]]:
    """What a seat may imagine, as hands and chien: the inner worlds that
    :func:`seat_values` values (the reference its tests rebuild)."""
    out = []
    for row in _inner_cards(hand, seed, index, count):
        hands, k = [], 0
        for s in range(4):
            if s == seat:
                hands.append(hand)
                continue
            hands.append(sum(1 << int(c) for c in row[k:k + _HAND]))
            k += _HAND
        out.append((tuple(hands), sum(1 << int(c) for c in row[k:])))
    return out


def _words(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two kernel words of each row of card indices (..., n) → (...,) each."""
    return _LO_BIT[cards].sum(axis=-1), _HI_BIT[cards].sum(axis=-1)


def _quick_discards(full: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of 24 cards, :func:`~tarock_solver.french.chien.quick_discard`'s discard as
    the two words, its half points and its oudlers: the shortest suits' cheapest free
    cards, by array sorting; a row with fewer than six free cards (trumps forced) by the
    function itself."""
    suit = _SUIT[full]
    length = np.stack([(suit == s).sum(axis=1) for s in range(TRUMP_GROUP + 1)], axis=1)
    free = _FREE[full]
    key = np.where(free, np.take_along_axis(length, suit, axis=1) * 10_000
                   + _HALF[full] * 100 + full, 1 << 30)
    aside = np.take_along_axis(full, np.argsort(key, axis=1, kind="stable")[:, :_CHIEN_SIZE],
                               axis=1)
    lo, hi = _words(aside)
    pts, oud = _HALF[aside].sum(axis=1), _OUDLER[aside].sum(axis=1)
    for i in np.flatnonzero(free.sum(axis=1) < _CHIEN_SIZE):
        d = quick_discard(sum(1 << int(c) for c in full[i]))
        (lo[i], hi[i]), pts[i], oud[i] = split(d), half_points(d), oudlers_in(d)
    return lo, hi, pts, oud


def _opening_rows(hands: Sequence[int], seats: Sequence[int], seed: int,
                  indices: Sequence[tuple[int, ...]], count: int) -> PositionArrays:
    """The first-trick starts of every speaker's inner worlds, speaker-major, then inner
    world, then opening key (:data:`_KEYS`), the speaker the taker."""
    n_keys = len(_KEYS)
    rows = len(hands) * count * n_keys
    hlo = np.zeros((rows, 4), np.int64)
    hhi = np.zeros((rows, 4), np.int64)
    takers = np.repeat(np.asarray(seats, np.int64), count * n_keys)
    points = np.zeros(rows, np.int64)
    oud = np.zeros(rows, np.int64)
    for p, (hand, seat, index) in enumerate(zip(hands, seats, indices, strict=True)):
        cards = _inner_cards(hand, seed, index, count)
        own = np.array(cards_of(hand), np.int64)
        glo = np.zeros((count, 4), np.int64)
        ghi = np.zeros((count, 4), np.int64)
        k = 0
        for s in range(4):
            if s == seat:
                glo[:, s], ghi[:, s] = split(hand)
                continue
            glo[:, s], ghi[:, s] = _words(cards[:, k:k + _HAND])
            k += _HAND
        chien = cards[:, k:]
        c_lo, c_hi = _words(chien)
        c_pts, c_oud = _HALF[chien].sum(axis=1), _OUDLER[chien].sum(axis=1)
        full = np.concatenate([np.broadcast_to(own, (count, len(own))), chien], axis=1)
        d_lo, d_hi, d_pts, d_oud = _quick_discards(full)
        for j, (exchanges, chien_to) in enumerate(_KEYS):
            r = slice(p * count * n_keys + j, (p + 1) * count * n_keys, n_keys)
            lo, hi = glo.copy(), ghi.copy()
            if exchanges:
                lo[:, seat] = (lo[:, seat] | c_lo) & ~d_lo
                hi[:, seat] = (hi[:, seat] | c_hi) & ~d_hi
                aside_pts, aside_oud = d_pts, d_oud
            else:
                aside_pts, aside_oud = c_pts, c_oud
            hlo[r], hhi[r] = lo, hi
            if chien_to == "taker":
                points[r], oud[r] = aside_pts, aside_oud
    return PositionArrays(hlo, hhi, np.zeros(rows, np.int64), takers, points, oud,
                          np.zeros((rows, 4), np.int64), np.zeros(rows, np.int64))


def seat_values(model: FrenchEvaluator, hands: Sequence[int], seats: Sequence[int],
                seed: int, indices: Sequence[tuple[int, ...]], rules: FrenchRules,
                sd: float, settings: PolicySettings = PolicySettings()) -> np.ndarray:
    """(speakers, 4): what each speaker, seeing only his hand, expects from each of
    :data:`CONTRACTS` (a defender's share, the petit au bout in), over his inner worlds
    (drawn by ``seed`` and his ``indices``), a Petite or a Garde with the quick discard;
    all speakers valued in one batch."""
    if not len(hands):
        return np.zeros((0, len(CONTRACTS)))
    count = settings.inner_worlds
    a = _opening_rows(hands, seats, seed, indices, count)
    v = model.predict_start(a, points=False)
    shape = (len(hands), count, len(_KEYS))
    m, b = v.margin.reshape(shape), v.pab.reshape(shape)
    return np.stack([contract_value(m[:, :, k], b[:, :, k], sd, con.multiplier,
                                    rules.petit_au_bout_factor(con.multiplier)).mean(axis=1)
                     for k, con in zip(_KEY_OF, CONTRACTS, strict=True)], axis=1)


def last_bid(heard: Sequence[Contract | None] | None) -> tuple[int, int]:
    """The highest bid among the calls ``heard`` (each above the one before it), as an
    index of :data:`CONTRACTS`, and the seat that made it: (-1, -1) when none was."""
    bid, seat = -1, -1
    for s, call in enumerate(heard or ()):
        if call is not None:
            bid, seat = CONTRACTS.index(call), s
    return bid, seat


def _call(values: np.ndarray, bid: int) -> int:
    """The policy's call: the best contract above ``bid`` (an index of
    :data:`CONTRACTS`, -1 none) if it is worth more than 0, else -1 (pass)."""
    v = values.copy()
    v[:bid + 1] = -np.inf
    best = int(np.argmax(v))
    return best if v[best] > 0 else -1


def calls_agree(model: FrenchEvaluator, worlds: Sequence[FrenchWorld],
                indices: Sequence[int], heard: Sequence[Contract | None], rules: FrenchRules,
                seed: int, sd: float, settings: PolicySettings = PolicySettings()
                ) -> np.ndarray:
    """Per world, whether seats 1 … len(heard), bidding by the policy in turn, agree with
    the calls ``heard`` (None a pass): a pass where the policy passes, a bid where it bids
    that contract or a higher one (the policy, valuing double dummy, bids rarely and never
    a Petite, whose score is half the Garde's: a bid heard says the hand would take).  A
    speaker is valued only on the worlds that agree so far (his call depends on his hand
    and the bid before him, which was heard)."""
    ok = np.ones(len(worlds), bool)
    bid = -1
    for seat, call in enumerate(heard):
        live = np.flatnonzero(ok)
        if not len(live):
            break
        values = seat_values(model, [worlds[j].hands[seat] for j in live], [seat] * len(live),
                             seed, [(indices[j], seat) for j in live], rules, sd, settings)
        want = -1 if call is None else CONTRACTS.index(call)
        for row, j in enumerate(live):
            made = _call(values[row], bid)
            ok[j] = made == -1 if want == -1 else made >= want
        if call is not None:
            bid = want
    return ok


def auctions(model: FrenchEvaluator, worlds: Sequence[FrenchWorld], indices: Sequence[int],
             passer: int, rules: FrenchRules, seed: int, sd: float,
             settings: PolicySettings = PolicySettings(),
             heard: Sequence[Contract | None] | None = None
             ) -> tuple[np.ndarray, list[Contract | None], np.ndarray]:
    """Per world, when ``passer`` passes and the others bid by the policy (the seats
    before him as ``heard``, when given): the taker's seat (-1 when all pass), the
    contract (None) and its value per defender on the world, played with the quick
    discard and valued with one trick of look-ahead (0 when all pass: the deal is dealt
    again)."""
    before = 0 if heard is None else len(heard)
    seats = [s for s in range(4) if s != passer and s >= before]
    values = seat_values(model, [w.hands[s] for w in worlds for s in seats],
                         seats * len(worlds), seed,
                         [(j, s) for j in indices for s in seats], rules, sd,
                         settings).reshape(len(worlds), len(seats), len(CONTRACTS))
    first_bid, first_taker = last_bid(heard)
    takers = np.full(len(worlds), first_taker, np.int64)
    contracts: list[Contract | None] = [None] * len(worlds)
    for i in range(len(worlds)):
        bid = first_bid
        for k, seat in enumerate(seats):
            call = _call(values[i, k], bid)
            if call >= 0:
                bid, takers[i] = call, seat
        if bid >= 0:
            contracts[i] = CONTRACTS[bid]
    out = np.zeros(len(worlds))
    played = [i for i in range(len(worlds)) if contracts[i] is not None]
    if played:
        rows = [opening(worlds[i].hands, worlds[i].chien, int(takers[i]), contracts[i])
                for i in played]
        _, m, b = model.predict_lookahead(opening_arrays(rows, [int(takers[i]) for i in played]))
        for r, i in enumerate(played):
            con = contracts[i]
            out[i] = float(contract_value(m[r:r + 1], b[r:r + 1], sd, con.multiplier,
                                          rules.petit_au_bout_factor(con.multiplier))[0])
    return takers, contracts, out
