"""Talon exchange: groups, legal discards (RULES.md 4, vectors K1–K4) and discard equivalence."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
import pytest

from tarock_solver.cards import (
    FULL_MASK,
    GROUP_OF,
    INDEX_OF,
    KINGS_MASK,
    MIDDLE_TAROCKS_MASK,
    NOMINAL,
    PROTECTED_MASK,
    SUIT_MASK,
    TAROCK_MASK,
    TOTAL_THIRDS,
    bit,
    indices_of,
    mask_of,
    popcount,
    thirds_of,
)
from tarock_solver.errors import DealError, RulesError
from tarock_solver.play import legal_moves, trick_thirds, trick_winner
from tarock_solver.talon import (
    BIRD_CARDS_MASK,
    DISCARD_MODES,
    TALON_TAKE,
    discard_classes,
    equivalent_cards,
    exchanges,
    legal_discards,
    talon_groups,
)


def m(*ids: str) -> int:
    return mask_of(INDEX_OF[i] for i in ids)


def tarocks(*numbers: int) -> int:
    return mask_of(n - 1 for n in numbers)


# NOTATION.md example 1: forehand's hand and the talon in table order.
EX1_F = m("T21", "T20", "T16", "T15", "T7", "T5", "T2", "T1",
          "HK", "DK", "DQ", "SK", "S9", "S7", "CQ", "C9")
EX1_TALON = tuple(INDEX_OF[c] for c in ("T12", "T19", "T10", "CK", "C10", "HC"))


def rule_text_legal(hand: int, discard: int, k: int, mode: str) -> bool:
    """RULES.md 4 written out independently of the module under test."""
    if popcount(discard) != k or discard & ~hand or discard & PROTECTED_MASK:
        return False
    if mode == "free_open" or not discard & TAROCK_MASK:
        return True
    plain_suits = hand & SUIT_MASK & ~KINGS_MASK
    return popcount(plain_suits) < k and discard & SUIT_MASK == plain_suits


# ---------------------------------------------------------------- groups


def test_take_counts():
    assert TALON_TAKE == {"three": 3, "lower": 3, "two": 2, "one": 1, "solo": 0}
    for contract, k in TALON_TAKE.items():
        groups = talon_groups(contract)
        positions = [p for _, g in groups for p in g]
        assert all(len(g) == k for _, g in groups)
        if k:  # the groups partition the talon
            assert sorted(positions) == list(range(6))


def test_group_labels():
    assert talon_groups("three") == [("1-3", (0, 1, 2)), ("4-6", (3, 4, 5))]
    assert talon_groups("lower") == talon_groups("three")
    assert talon_groups("two") == [("1-2", (0, 1)), ("3-4", (2, 3)), ("5-6", (4, 5))]
    assert talon_groups("one") == [(str(p + 1), (p,)) for p in range(6)]
    assert talon_groups("solo") == [("", ())]
    with pytest.raises(RulesError, match='unknown contract "four"'):
        talon_groups("four")


def test_k1_three_halves():
    taken = {(e.group_label, e.taken) for e in exchanges(EX1_F, EX1_TALON, "three")}
    assert taken == {("1-3", m("T12", "T19", "T10")), ("4-6", m("CK", "C10", "HC"))}


def test_k2_two_pairs():
    taken = {(e.group_label, e.taken) for e in exchanges(EX1_F, EX1_TALON, "two")}
    assert taken == {("1-2", m("T12", "T19")), ("3-4", m("T10", "CK")), ("5-6", m("C10", "HC"))}


def test_one_and_solo_exchanges():
    ones = exchanges(EX1_F, EX1_TALON, "one")
    assert {e.taken for e in ones} == {bit(c) for c in EX1_TALON}
    (solo,) = exchanges(EX1_F, EX1_TALON, "solo")
    talon_mask = mask_of(EX1_TALON)
    assert (solo.group_label, solo.taken, solo.discard) == ("", 0, 0)
    assert solo.hand_after == EX1_F and solo.defenders_talon_mask == talon_mask
    assert solo.declarer_pile_thirds == 0


# ---------------------------------------------------------------- discards


def test_k3_forced_tarock_discard():
    after = tarocks(22, 21, 1, *range(2, 13)) | KINGS_MASK | m("DJ")
    assert popcount(after & TAROCK_MASK) == 14 and popcount(after) == 19
    discards = legal_discards(after, 3)
    middle = after & MIDDLE_TAROCKS_MASK
    expected = {m("DJ") | bit(a) | bit(b) for a, b in combinations(indices_of(middle), 2)}
    assert set(discards) == expected and len(discards) == len(expected) == 55


def test_k3_via_exchange_shows_the_tarocks():
    hand = tarocks(22, 21, 1, 2, 3, 4, 5, 6, 7, 8, 9) | KINGS_MASK | m("DJ")
    talon = tuple(INDEX_OF[c] for c in ("T10", "T11", "T12", "H4", "S7", "C7"))
    first_half = [e for e in exchanges(hand, talon, "three", skip_equivalent=False)
                  if e.group_label == "1-3"]
    assert len(first_half) == 55
    for e in first_half:
        assert e.discard & m("DJ") and popcount(e.shown_tarocks) == 2
        assert e.shown_tarocks == e.discard & TAROCK_MASK
        assert e.defenders_talon_mask == m("H4", "S7", "C7")


def test_k4_suit_cards_only():
    eight = m("HQ", "H2", "DC", "DA", "SJ", "S8", "CQ", "C10")
    after = tarocks(22, 20, 18, 15, 12, 9, 6, 4, 2, 1) | m("HK") | eight
    assert popcount(after) == 19
    discards = legal_discards(after, 3)
    assert len(discards) == 56
    assert set(discards) == {sum(map(bit, c)) for c in combinations(indices_of(eight), 3)}
    assert not any(d & TAROCK_MASK for d in discards)


def test_modes():
    after = tarocks(22, 21, 1, 5, 6) | m("HK", "HQ", "S7")  # 2 plain suit cards, k = 3
    forced = set(legal_discards(after, 3, "forced_open"))
    assert forced == {m("HQ", "S7") | tarocks(5), m("HQ", "S7") | tarocks(6)}
    assert set(legal_discards(after, 3, "never")) == forced  # falls back
    free = set(legal_discards(after, 3, "free_open"))
    assert free == {sum(map(bit, c)) for c in combinations(indices_of(m("HQ", "S7") | tarocks(5, 6)), 3)}
    plenty = after | m("D4", "C9")
    assert all(not d & TAROCK_MASK for d in legal_discards(plenty, 3, "never"))
    assert any(d & TAROCK_MASK for d in legal_discards(plenty, 3, "free_open"))
    assert legal_discards(plenty, 0) == [0]


def test_discard_errors():
    with pytest.raises(RulesError, match="discard_tarock"):
        legal_discards(EX1_F, 2, "sometimes")
    with pytest.raises(RulesError, match="0 to 3"):
        legal_discards(EX1_F, 4)
    with pytest.raises(RulesError, match="no legal discard"):
        legal_discards(PROTECTED_MASK | tarocks(2), 2)
    with pytest.raises(DealError):
        legal_discards(1 << 60, 1)


def test_exchange_input_errors():
    with pytest.raises(DealError, match="has 15 cards"):
        exchanges(EX1_F & ~m("C9"), EX1_TALON, "three")
    with pytest.raises(DealError, match="found 5"):
        exchanges(EX1_F, EX1_TALON[:5], "three")
    with pytest.raises(DealError, match="twice in the talon"):
        exchanges(EX1_F, EX1_TALON[:5] + EX1_TALON[:1], "three")
    with pytest.raises(DealError, match="talon position 6"):
        exchanges(EX1_F, EX1_TALON[:5] + (INDEX_OF["C9"],), "three")
    with pytest.raises(RulesError, match="discard_tarock"):
        exchanges(EX1_F, EX1_TALON, "three", "sometimes")


def _random_deal(rng: np.random.Generator) -> tuple[int, tuple[int, ...]]:
    perm = rng.permutation(54)
    return mask_of(int(c) for c in perm[:16]), tuple(int(c) for c in perm[16:22])


def _protected_heavy_deal(rng: np.random.Generator) -> tuple[int, tuple[int, ...]]:
    """All 7 protected cards plus tarocks, and a talon of tarocks: the tightest case."""
    middle = indices_of(MIDDLE_TAROCKS_MASK)
    rng.shuffle(middle)
    hand = PROTECTED_MASK | mask_of(middle[:9])
    return hand, tuple(middle[9:15])


def test_a_legal_discard_always_exists_and_matches_the_rule_text():
    rng = np.random.default_rng(20240611)
    deals = [_random_deal(rng) for _ in range(150)] + [_protected_heavy_deal(rng) for _ in range(30)]
    for hand, talon in deals:
        for contract in ("three", "two", "one"):
            k = TALON_TAKE[contract]
            for _, positions in talon_groups(contract):
                after = hand | mask_of(talon[p] for p in positions)
                for mode in DISCARD_MODES:
                    found = legal_discards(after, k, mode)
                    assert found, (hand, talon, contract, mode)
                    assert len(set(found)) == len(found)
                    everything = {sum(map(bit, c)) for c in combinations(indices_of(after), k)}
                    assert set(found) == {d for d in everything
                                          if rule_text_legal(after, d, k, mode)}


def test_exchange_records_are_consistent():
    rng = np.random.default_rng(5)
    for _ in range(40):
        hand, talon = _random_deal(rng)
        talon_mask = mask_of(talon)
        for contract, k in TALON_TAKE.items():
            full = exchanges(hand, talon, contract, skip_equivalent=False)
            merged = exchanges(hand, talon, contract)
            assert sum(e.equivalents for e in merged) == len(full)
            assert {(e.group_label, e.discard) for e in merged} <= {(e.group_label, e.discard)
                                                                    for e in full}
            for e in full + merged:
                assert popcount(e.hand_after) == 16 and popcount(e.taken) == k
                assert e.taken & ~talon_mask == 0 and popcount(e.discard) == k
                assert e.discard & ~(hand | e.taken) == 0
                assert e.defenders_talon_mask == talon_mask & ~e.taken
                assert e.declarer_pile_thirds == thirds_of(e.discard)
                # Kept hand, discard and untaken talon partition the hand and the talon.
                assert e.hand_after | e.discard | e.defenders_talon_mask == hand | talon_mask
                assert (thirds_of(e.hand_after) + e.declarer_pile_thirds
                        + thirds_of(e.defenders_talon_mask)) == thirds_of(hand | talon_mask)
    assert thirds_of(FULL_MASK) == TOTAL_THIRDS


def test_discard_ids_are_canonical():
    e = next(e for e in exchanges(EX1_F, EX1_TALON, "three", skip_equivalent=False)
             if e.group_label == "4-6" and e.discard == m("C10", "S7", "HC"))
    assert e.discard_ids == "HC S7 C10"


# ---------------------------------------------------------------- card equivalence


def test_equivalent_cards_examples():
    hand = m("H4", "H2", "HA", "HJ", "SQ", "SC") | tarocks(2, 3, 4, 5, 7, 21, 22)
    # H3 and tarock VI are held by others; SJ.. gone; nothing else in play.
    others = m("H3") | tarocks(6)
    classes = set(equivalent_cards(hand, others))
    assert classes == {
        m("H4"), m("H2", "HA"), m("HJ"),  # H3 splits H4 from H2; HJ is worth more
        m("SC"), m("SQ"),  # adjacent but of different value
        tarocks(2), tarocks(3),  # birds stay distinct
        tarocks(4, 5), tarocks(7),  # VI (an opponent's) splits V from VII
        tarocks(21, 22),  # same value, adjacent
    }
    merged = set(equivalent_cards(hand, others, distinct=0))
    assert tarocks(2, 3, 4, 5) in merged


def test_equivalent_cards_partition_the_hand():
    rng = np.random.default_rng(11)
    for _ in range(200):
        perm = rng.permutation(54)
        hand = mask_of(int(c) for c in perm[:16])
        others = mask_of(int(c) for c in perm[16:16 + int(rng.integers(0, 38))])
        classes = equivalent_cards(hand, others)
        assert sum(popcount(c) for c in classes) == popcount(hand)
        union = 0
        for c in classes:
            assert union & c == 0
            union |= c
            assert c & BIRD_CARDS_MASK == 0 or popcount(c) == 1
        assert union == hand


# ---------------------------------------------------------------- discard equivalence, brute force


def dd_value(hands: tuple[int, int, int], leader: int, declarer: int) -> int:
    """Double-dummy value in thirds of the remaining tricks for the declarer (brute force)."""

    @cache
    def from_trick_start(hs: tuple[int, int, int], lead: int) -> int:
        if not hs[lead]:
            return 0
        return search(hs, lead, ())

    def search(hs: tuple[int, int, int], lead: int, cards: tuple[int, ...]) -> int:
        if len(cards) == 3:
            winner = trick_winner(cards, lead)
            gained = trick_thirds(cards) if winner == declarer else 0
            return gained + from_trick_start(hs, winner)
        seat = (lead + len(cards)) % 3
        legal = legal_moves(hs[seat], cards[0] if cards else None)
        values = []
        for c in indices_of(legal):
            nh = list(hs)
            nh[seat] &= ~bit(c)
            values.append(search(tuple(nh), lead, cards + (c,)))
        return max(values) if seat == declarer else min(values)

    return from_trick_start(hands, leader)


# A small universe with many same-valued neighbours, so equivalences are common.
_UNIVERSE = indices_of(tarocks(1, 2, 3, 4, 5, 6, 7, 8, 9, 21, 22) | m(
    "H4", "H3", "H2", "HA", "HJ", "HC", "HQ", "HK", "S7", "S8", "S9", "S10", "SJ", "SC", "SK"))


def _check_position(rng: np.random.Generator, tricks: int, stats: dict) -> None:
    k = int(rng.integers(1, 4))
    cards = rng.permutation(_UNIVERSE)[: 3 * tricks + k]
    declarer, leader = int(rng.integers(0, 3)), int(rng.integers(0, 3))
    hands = [0, 0, 0]
    pos = 0
    for seat in range(3):
        size = tricks + (k if seat == declarer else 0)
        hands[seat] = mask_of(int(c) for c in cards[pos:pos + size])
        pos += size
    after_take = hands[declarer]
    others = hands[(declarer + 1) % 3] | hands[(declarer + 2) % 3]
    mode = ("free_open", "forced_open")[int(rng.integers(0, 2))]
    try:
        legal = legal_discards(after_take, k, mode)
    except RulesError:
        return  # tiny hands may be all protected; the full-size claim is tested above

    def value(discard: int) -> int:
        hs = list(hands)
        hs[declarer] &= ~discard
        return thirds_of(discard) + dd_value(tuple(hs), leader, declarer)

    classes = equivalent_cards(after_take, others)
    by_key: dict[tuple[int, ...], list[int]] = {}
    for d in legal:
        by_key.setdefault(tuple(popcount(d & c) for c in classes), []).append(d)
    reps = discard_classes(after_take, k, mode, others)
    assert sorted(size for _, size in reps) == sorted(len(v) for v in by_key.values())
    assert sum(size for _, size in reps) == len(legal)
    values = {d: value(d) for d in legal}
    for rep, size in reps:
        assert rep in values  # the representative is itself legal
        members = by_key[tuple(popcount(rep & c) for c in classes)]
        assert len(members) == size
        assert {values[d] for d in members} == {values[rep]}, (hands, leader, declarer, members)
        stats["merged"] += size - 1
    rep_values = [values[r] for r, _ in reps]
    if len(set(rep_values)) > 1:
        stats["differing_classes"] += 1
    # Control: same group and value but split by an opponent's card can differ in value.
    for d1, d2 in combinations(legal, 2):
        diff1, diff2 = d1 & ~d2, d2 & ~d1
        if popcount(diff1) == 1 and values[d1] != values[d2]:
            a, b = sorted(indices_of(diff1 | diff2))
            if GROUP_OF[a] == GROUP_OF[b] and NOMINAL[a] == NOMINAL[b]:
                stats["split_by_opponent"] += 1


@pytest.mark.parametrize("tricks, positions", [(3, 600), (4, 150)])
def test_equivalent_discards_have_equal_double_dummy_values(tricks, positions):
    rng = np.random.default_rng(1000 + tricks)
    stats = {"merged": 0, "differing_classes": 0, "split_by_opponent": 0}
    for _ in range(positions):
        _check_position(rng, tricks, stats)
    # The check has teeth: discards were merged, and the values were not all equal.
    assert stats["merged"] > positions // 2
    assert stats["differing_classes"] > positions // 4
    if tricks == 3:
        assert stats["split_by_opponent"] > 0

