"""The kernel's tarock-trick bound and rank-only table against brute force.

- :func:`bounds._beatable` is a maximum matching (checked against an
  exhaustive matcher), and :func:`bounds._beatable_bits` (the search's) equals it;
- :func:`bounds._trick_bounds` never cuts off a true value: on random trick
  starts of 1-5 tricks, declarer's bound <= value <= points left - defenders'
  bound, with the value from the brute-force reference; it is never below
  :func:`bounds._sure_points` and above it on a hand-built case;
- :func:`bounds._first_trick` (the seat-order bound) never exceeds the true
  value, with and without announced birds, and is stronger than the other
  declarer bounds on a good share of the positions; the same check catches an
  unsound variant (the bound with the bird reserve ignored); the same for
  :func:`bounds._suit_tops` (the declarer's sure suit winners), whose control
  drops the condition that he surely wins a trick;
- positions that share a rank-only key but hold other point cards are solved
  from one table: after the first is solved, null-window tests on the second
  at every threshold (each on a copy of that table, so its shifted rank-only
  bounds are probed) agree with the reference.

All CI-sized (a few seconds).  benchmarks/EXPERIMENTS.md (Solver, 2026-11-30: compact
rank-only entries) has the larger equality runs against the previous kernel.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from tarock_solver.cards import NOMINAL
from tarock_solver.oracle.cardpoints import random_position, reference_value
from tarock_solver.solver import CardPointSearch, Position
from tarock_solver.solver._kernels import bounds, keys
from tarock_solver.solver._kernels import cardpoint as kernel

TAROCK_CARDS = range(22)


def _max_matching(lo: list[int], hi: list[int]) -> int:
    """Most pairs (x in lo, y in hi, y > x), each card used once, by trying all."""
    best = 0
    for k in range(min(len(lo), len(hi)), 0, -1):
        for xs in itertools.combinations(lo, k):
            for ys in itertools.permutations(hi, k):
                if all(y > x for x, y in zip(xs, ys, strict=True)):
                    return k
    return best


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def test_beatable_is_a_maximum_matching() -> None:
    rng = np.random.default_rng(11)
    for _ in range(400):
        cards = [int(c) for c in rng.permutation(22)[: int(rng.integers(0, 11))]]
        cut = int(rng.integers(0, len(cards) + 1))
        lo, hi = sorted(cards[:cut]), sorted(cards[cut:])
        got = bounds._beatable(np.int64(_mask(lo)), np.int64(_mask(hi)))
        assert got == _max_matching(lo, hi), (lo, hi)
        # the search's branch-free version counts the same
        assert bounds._beatable_bits(np.int64(_mask(lo)), np.int64(_mask(hi))) == got, (lo, hi)


def test_trick_bounds_beat_the_unbeatable_tarocks_on_a_built_case() -> None:
    # declarer II, III, IV; defender A XX and two pips; defender B three pips:
    # XX can take one of his tarock tricks, so he wins at least two tricks
    decl = _mask([1, 2, 3])
    a = _mask([19, 22, 23])
    b = _mask([30, 31, 38])
    old_d, old_f = bounds._sure_points(np.int64(decl), np.int64(a), np.int64(b))
    new_d, new_f = bounds._trick_bounds(np.int64(decl), np.int64(a), np.int64(b))
    assert old_d == 0 and new_d == 2
    assert new_f == old_f
    hands = [0, 0, 0]
    hands[0], hands[1], hands[2] = decl, a, b
    assert reference_value(hands, 0, 0) >= new_d


def test_trick_bounds_never_cut_the_true_value() -> None:
    rng = np.random.default_rng(2026)
    stronger = 0
    for i in range(900):
        tricks = 1 + i % 5
        # tarock-heavy deals make the count bite; bird reserves must not matter
        p = random_position(rng, tricks, trick_cards=0, birds=i % 4 == 0)
        h = p["hands"]
        d = p["declarer"]
        hd, ha, hb = (np.int64(h[d]), np.int64(h[(d + 1) % 3]), np.int64(h[(d + 2) % 3]))
        lb_decl, lb_def = bounds._trick_bounds(hd, ha, hb)
        old_decl, old_def = bounds._sure_points(hd, ha, hb)
        assert lb_decl >= old_decl and lb_def == old_def
        stronger += lb_decl > old_decl
        rest = kernel.remaining_points(np.array(h, np.int64), 0, np.zeros(3, np.int64))
        value = reference_value(**p)
        assert lb_decl <= value <= rest - lb_def, (p, lb_decl, lb_def, value)
    assert stronger > 20  # the new count really was tested where it differs


@functools.cache
def _first_trick_cases() -> list:
    """(position, declarer's hands, birds bits, reference value) for random trick starts."""
    rng = np.random.default_rng(404)
    out = []
    for i in range(3000):
        p = random_position(rng, 1 + i % 5, trick_cards=0, birds=i % 3 == 0)
        birds = int(Position(p["hands"], p["leader"], p["declarer"],
                             birds=p["birds"]).kernel_args()[5])
        d = p["declarer"]
        h = p["hands"]
        out.append((p, (np.int64(h[d]), np.int64(h[(d + 1) % 3]), np.int64(h[(d + 2) % 3])),
                    birds, reference_value(**p)))
    return out


def test_first_trick_bound_never_cuts_the_true_value() -> None:
    stronger = 0
    for p, (hd, ha, hb), birds, value in _first_trick_cases():
        leads = p["leader"] == p["declarer"]
        z, _ = bounds._first_trick(hd, ha, hb, leads, birds)
        assert z <= value, (p, z, value)
        old = bounds._trick_bounds(hd, ha, hb)[0]
        if leads:
            old = max(old, bounds._cash_points(hd, ha, hb, birds))
        stronger += z > old
    assert stronger > 30  # the bound really was tested where it adds something


def test_the_first_trick_check_catches_an_ignored_bird_reserve() -> None:
    # the same harness must fail on a wrong bound: pretending the announced
    # birds may be played at any time overstates the declarer's tricks
    wrong = sum(
        bounds._first_trick(hd, ha, hb, p["leader"] == p["declarer"], 0)[0] > value
        for p, (hd, ha, hb), birds, value in _first_trick_cases() if birds)
    assert wrong > 0


def test_suit_tops_bound_never_cuts_the_true_value() -> None:
    # called where a defender leads (on lead, the cashing bound covers it)
    stronger = 0
    overstated = 0
    for p, (hd, ha, hb), birds, value in _first_trick_cases():
        if p["leader"] == p["declarer"]:
            continue
        z, k = bounds._first_trick(hd, ha, hb, False, birds)
        t = bounds._suit_tops(hd, ha, hb, False, k)
        assert t <= value, (p, t, value)
        stronger += t > max(z, bounds._trick_bounds(hd, ha, hb)[0])
        # negative control: without "he surely wins a trick" (claiming the
        # lead he does not have) the same check must catch overstatements
        overstated += bounds._suit_tops(hd, ha, hb, True, k) > value
    assert stronger > 20
    assert overstated > 0


def _same_rank_twin(rng, hands: tuple[int, int, int]) -> tuple[int, int, int] | None:
    """The position with one card in play replaced by a card out of play of
    another value that has the same rank among the cards in play (so the
    rank-only key is the same and the exact key is not)."""
    allc = hands[0] | hands[1] | hands[2]
    options = []
    for x in range(54):
        if not (allc >> x) & 1:
            continue
        group = 0 if x < 22 else 1 + (x - 22) // 8
        lo, hi = (0, 22) if group == 0 else (22 + 8 * (group - 1), 30 + 8 * (group - 1))
        for y in range(lo, hi):
            if (allc >> y) & 1 or NOMINAL[y] == NOMINAL[x]:
                continue
            between = range(min(x, y) + 1, max(x, y))
            if any((allc >> c) & 1 for c in between):
                continue
            options.append((x, y))
    if not options:
        return None
    x, y = options[int(rng.integers(len(options)))]
    return tuple((hd & ~(1 << x)) | (1 << y) if (hd >> x) & 1 else hd for hd in hands)


def test_rank_only_entries_of_a_twin_position_give_sound_bounds() -> None:
    rng = np.random.default_rng(77)
    checked = 0
    while checked < 60:
        tricks = 2 + checked % 3
        p = random_position(rng, tricks, trick_cards=0, birds=False)
        twin_hands = _same_rank_twin(rng, p["hands"])
        if twin_hands is None:
            continue
        twin = dict(p, hands=twin_hands)
        ka = keys._rank_key(*(np.int64(x) for x in p["hands"]))
        kb = keys._rank_key(*(np.int64(x) for x in twin_hands))
        assert ka == kb
        first = CardPointSearch(tt_bits=10)
        assert first.value(Position(**p)).value == reference_value(**p)
        want = reference_value(**twin)
        rest = kernel.remaining_points(np.array(twin_hands, np.int64), 0, np.zeros(3, np.int64))
        twin_pos = Position(**twin)
        for t in range(0, rest + 2):
            probe = CardPointSearch(tt_bits=10)
            probe.tt[:] = first.tt
            got = probe.reaches(twin_pos, t).at_least(t)
            assert got is (want >= t), (p, twin, t, want)
        checked += 1
