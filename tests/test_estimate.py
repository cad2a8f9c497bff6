"""The evaluator (issue 16, phase 1): sampler, label generator, features and model.

Fast checks only: the label runs solve a handful of tiny positions.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tarock_solver import notation as _notation  # noqa: F401  (import order: see positions)
from tarock_solver.deal import random_deal
from tarock_solver.errors import DealError, RulesError
from tarock_solver.estimate import features as F
from tarock_solver.estimate import labels as L
from tarock_solver.estimate import model as M
from tarock_solver.estimate import positions as P
from tarock_solver.estimate import trees as T
from tarock_solver.talon import TALON_TAKE, legal_discards, talon_groups

CONTRACTS = list(P.CONTRACT_WEIGHTS)


def _bits(m: int) -> int:
    return int(m).bit_count()


def _deal_of(seed: int, kind: str, index: int):
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(P.KINDS[kind], index)))
    return random_deal(rng)


def _positions_array(ps):
    h = np.array([p.hands for p in ps], dtype=np.uint64)
    return h, np.array([p.leader for p in ps]), np.array([p.declarer for p in ps])


def _permute_suits(h: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    out = h & np.uint64((1 << 22) - 1)
    for s in range(4):
        block = (h >> np.uint64(22 + 8 * s)) & np.uint64(255)
        out = out | (block << np.uint64(22 + 8 * perm[s]))
    return out


# ----------------------------------------------------------------- sampler

@pytest.mark.parametrize("kind", list(P.KINDS))
def test_sampler_is_deterministic_per_seed_and_index(kind):
    batch = P.sample_positions(11, kind, 6)
    assert [P.sample_position(11, kind, i) for i in range(6)] == batch
    assert P.sample_positions(11, kind, 2, start=4) == batch[4:]
    assert P.sample_positions(12, kind, 6) != batch


@pytest.mark.parametrize("kind", list(P.KINDS))
def test_sampled_positions_are_valid(kind):
    for p in P.sample_positions(5, kind, 25):
        h = p.hands
        assert _bits(h[0]) == _bits(h[1]) == _bits(h[2]) == p.cards_per_hand
        assert not (h[0] & h[1]) and not (h[0] & h[2]) and not (h[1] & h[2])
        assert p.leader in (0, 1, 2) and p.declarer in (0, 1, 2)
        if kind == "short":
            assert P.SHORT_CARDS[0] <= p.cards_per_hand <= P.SHORT_CARDS[1]
        else:
            assert p.cards_per_hand == 16 and p.leader == 0


def test_post_exchange_is_a_legal_exchange():
    for i in range(30):
        p = P.sample_position(3, "post_exchange", i)
        deal = _deal_of(3, "post_exchange", i)
        d = p.declarer
        contract = CONTRACTS[p.contract]
        k = TALON_TAKE[contract]
        for s in range(3):
            if s != d:
                assert p.hands[s] == deal.hands[s]
        if k == 0:
            assert p.hands == deal.hands and p.discard == 0
            continue
        ok = False
        for _, group in talon_groups(contract):
            taken = sum(1 << deal.talon[g] for g in group)
            after = deal.hands[d] | taken
            if p.hands[d] == after & ~p.discard and p.discard in legal_discards(after, k):
                ok = True
        assert ok, f"position {i}: not a legal {contract} exchange"


def test_advised_exchange_is_the_advisers_choice():
    """An ``advised`` position is a biddable deal after the exchange the adviser makes on
    the declarer's information set (hand and talon, the same inner worlds), for a contract
    that takes talon cards; the other hands are as dealt."""
    from tarock_solver.advise.infoset import choose_exchange, inner_hands
    from tarock_solver.advise.sampling import knowledge_from_hand
    from tarock_solver.cards import TAROCK_MASK

    for i in range(6):
        p = P.sample_position(7, "advised", i)
        deal = _deal_of(7, "advised", i)
        counts = [_bits(h & TAROCK_MASK) for h in deal.hands]
        d = p.declarer
        assert counts[d] == max(counts)
        contract = CONTRACTS[p.contract]
        assert TALON_TAKE[contract] > 0
        inner = inner_hands(knowledge_from_hand(deal.hands[d], d, tuple(deal.talon)), 7,
                            P.ADVISED_STREAM, (i,), P.ADVISED_INNER)
        ex = choose_exchange(deal.hands[d], d, tuple(deal.talon), contract, "forced_open",
                             inner).exchange
        assert p.hands[d] == ex.hand_after and p.discard == ex.discard
        assert all(p.hands[s] == deal.hands[s] for s in range(3) if s != d)


def test_advised_labels_are_keyed_by_the_evaluator_weights(monkeypatch, tmp_path):
    """The adviser's exchanges depend on the evaluator: a label run of ``advised``
    positions records the weights' hash in its checkpoint key, the other kinds do not."""
    assert L._settings(5, "advised", 0, 20)["evaluator"] == L.weights_digest()
    assert "evaluator" not in L._settings(5, "biddable", 0, 20)
    other = tmp_path / "w.npz"
    other.write_bytes(b"other weights")
    monkeypatch.setattr(M, "WEIGHTS_PATH", other)
    assert L.weights_digest() != L._settings(5, "biddable", 0, 20).get("evaluator", "")
    assert L._settings(5, "advised", 0, 20)["evaluator"] == L.weights_digest()


def test_sampler_rejects_bad_arguments():
    with pytest.raises(RulesError, match="kind"):
        P.sample_position(1, "nonsense", 0)
    with pytest.raises(RulesError, match="seed"):
        P.sample_position(-1, "random", 0)


# ----------------------------------------------------------------- label generator

@pytest.fixture
def tiny_short(monkeypatch):
    """Short positions of 1-3 cards: solved in microseconds."""
    monkeypatch.setattr(P, "SHORT_CARDS", (1, 3))


def test_labels_resume_is_byte_identical(tmp_path, tiny_short):
    whole = tmp_path / "whole.npz"
    assert L.generate(4, "short", 7, whole, chunk_size=2, command="c")
    resumed = tmp_path / "resumed.npz"
    assert not L.generate(4, "short", 7, resumed, chunk_size=2, max_chunks=2, command="c")
    parts = L.parts_dir(resumed)
    assert len(list(parts.glob("chunk-*.pkl"))) == 2
    # the finished prefix can be read while a run is stopped (or running)
    partial = tmp_path / "partial.npz"
    assert L.assemble(resumed, partial) == 4
    first = L.load_labels(partial)
    # a run killed while writing leaves a temporary file and maybe a damaged part
    (parts / ".chunk-000002.tmp-999.pkl").write_bytes(b"partial")
    (parts / "chunk-000001.pkl").write_bytes(b"damaged")
    assert not L.generate(4, "short", 7, resumed, chunk_size=2, max_chunks=1, command="c")
    assert L.generate(4, "short", 7, resumed, chunk_size=2, command="c")
    assert whole.read_bytes() == resumed.read_bytes()
    assert not parts.exists()
    data = L.load_labels(whole)
    assert len(data["value"]) == 7 and list(data["index"]) == list(range(7))
    for name in L.FIELDS:
        assert np.array_equal(first[name], data[name][:4])
    # every label is the solver's exact value
    from tarock_solver.solver import solve_many

    exact = solve_many([(tuple(int(m) for m in h), int(le), int(de)) for h, le, de in
                        zip(data["hands"], data["leader"], data["declarer"], strict=True)],
                       threads=1, tt_bits=12)
    assert list(exact) == list(data["value"])
    with np.load(whole.with_name("whole.timing.npz")) as t:
        assert len(t["seconds"]) == 7 and (t["seconds"] >= 0).all()


def test_labels_refuse_a_different_run(tmp_path, tiny_short):
    out = tmp_path / "x.npz"
    assert not L.generate(4, "short", 6, out, chunk_size=2, max_chunks=1)
    from tarock_solver.checkpoint import CheckpointError

    with pytest.raises(CheckpointError, match="different run"):
        L.generate(5, "short", 6, out, chunk_size=2)


def test_game_point_labels_are_the_net_of_plain_play(tmp_path):
    from tarock_solver.rules import load_rules
    from tarock_solver.solver import deal_game_points

    out = tmp_path / "gp.npz"
    assert L.generate(1, "post_exchange", 1, out, start=3, objective="gamepoints", command="c")
    data = L.load_labels(out, objective="gamepoints")
    pos = P.sample_position(1, "post_exchange", 3)
    deal = random_deal(P.stream_rng(1, "post_exchange", 3))
    # the stream's first draw is the position's deal: the defenders hold their dealt cards
    for seat in range(3):
        if seat != pos.declarer:
            assert deal.hands[seat] == pos.hands[seat]
    contract = list(P.CONTRACT_CODES)[pos.contract]
    want = deal_game_points(deal, pos.declarer, contract, rules=load_rules("dummett"),
                            hand_after=pos.hands[pos.declarer], discard=pos.discard)
    assert int(data["net"][0]) == want.value
    assert int(data["line_points"][0]) == want.detail.points
    assert str(data["birds"][0]) == want.detail.birds
    assert list(data["index"]) == [3] and int(data["contract"][0]) == pos.contract
    with pytest.raises(RulesError, match="after an exchange"):
        L.generate(1, "short", 1, tmp_path / "x.npz", objective="gamepoints")


# ----------------------------------------------------------------- features and model

def _random_ensemble(seed: int = 0, trees: int = 40, depth: int = 5) -> T.ObliviousEnsemble:
    """Random oblivious trees whose cuts sit between real feature values."""
    rng = np.random.default_rng(seed)
    h, le, de = _mixed_positions(40)
    x = F.features(h, le.astype(np.int64), de.astype(np.int64))
    feats = rng.integers(0, F.N_FEATURES, (trees, depth))
    thr = np.array([[rng.choice(np.unique(x[:, f])) - 1e-3 for f in row] for row in feats])
    return T.ObliviousEnsemble(feats, thr, rng.normal(0, 3, (trees, 1 << depth)), 20.0)


def _random_evaluator(seed: int = 0) -> M.Evaluator:
    return M.Evaluator(_random_ensemble(seed))


def _mixed_positions(n_short=40):
    ps = (P.sample_positions(8, "post_exchange", 10) + P.sample_positions(8, "random", 10)
          + P.sample_positions(8, "short", n_short))
    return _positions_array(ps)


def test_features_are_suit_permutation_invariant():
    h, le, de = _mixed_positions()
    x = F.features(h, le, de)
    assert x.shape == (len(h), F.N_FEATURES)
    assert not (x * 64 % 1).any()  # the fixed-point grid the model relies on
    for perm in itertools.permutations(range(4)):
        assert np.array_equal(F.features(_permute_suits(h, perm), le, de), x)


def test_feature_statistics():
    h, le, de = _mixed_positions(10)
    owner = F.relative_owners(h, de)
    x = F.features(h, le, de)
    rem = F.remaining_points(h)
    nominal = F._NOMINAL
    for i in range(len(h)):
        in_play = [c for c in range(54) if owner[i, c]]
        assert rem[i] == sum(int(nominal[c]) for c in in_play) - 2 * (len(in_play) // 3)
        seq = [int(o) for o in owner[i, 21::-1] if o]
        run = [0, 0, 0]
        k = 0
        while seq and k < len(seq) and seq[k] == seq[0]:
            k += 1
        if seq:
            run[seq[0] - 1] = k
        for s in range(3):
            base = F.N_ONEHOT + 19 + 8 * s
            assert x[i, base] * 16 == sum(1 for c in range(22) if owner[i, c] == s + 1)
            assert x[i, base + 5] * 16 == run[s]


def test_model_batch_equals_single_rows_bit_for_bit():
    h, le, de = _mixed_positions(200)
    ev = _random_evaluator()
    batch = ev.predict(h, le.astype(np.int64), de.astype(np.int64))
    for i in range(len(h)):
        one = ev.predict(h[i:i + 1], le[i:i + 1].astype(np.int64), de[i:i + 1].astype(np.int64))
        assert one[0] == batch[i]
    # blocks of any size give the same rows
    old = M.BLOCK
    try:
        M.BLOCK = 7
        assert np.array_equal(ev.predict(h, le.astype(np.int64), de.astype(np.int64)), batch)
    finally:
        M.BLOCK = old


def test_model_is_suit_permutation_invariant():
    h, le, de = _mixed_positions()
    ev = _random_evaluator(1)
    base = ev.predict(h, le.astype(np.int64), de.astype(np.int64))
    for perm in [(1, 0, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1)]:
        got = ev.predict(_permute_suits(h, perm), le.astype(np.int64), de.astype(np.int64))
        assert np.array_equal(got, base)


shipped = pytest.mark.skipif(not M.WEIGHTS_PATH.exists(), reason="no shipped weights")


@shipped
def test_shipped_estimate_many_equals_estimate_position():
    h, le, de = _mixed_positions(60)
    many = M.estimate_many(h, le, de)
    assert many.dtype == np.float64 and len(many) == len(h)
    rem = F.remaining_points(h)
    assert ((many >= 0) & (many <= rem)).all()
    for i in range(len(h)):
        assert M.estimate_position([int(m) for m in h[i]], int(le[i]), int(de[i])) == many[i]


@shipped
def test_estimate_accepts_python_ints_and_one_seat():
    h, le, de = _mixed_positions(5)
    a = M.estimate_many([[int(m) for m in row] for row in h], 0, 1)
    b = M.estimate_many(h, np.zeros(len(h), dtype=np.int64), np.ones(len(h), dtype=np.int64))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("hands, leader, declarer, error, text", [
    ([[1, 1, 4]], 0, 0, DealError, "appears twice"),
    ([[1, 2, 4 | 8]], 0, 0, DealError, "equal sizes"),
    ([[0, 0, 0]], 0, 0, DealError, "1 to 16"),
    ([[1 << 54, 2, 4]], 0, 0, DealError, "outside the 54 cards"),
    ([[-1, 2, 4]], 0, 0, DealError, "outside the 54 cards"),
    ([[1, 2]], 0, 0, DealError, "shape"),
    ([["x", 2, 4]], 0, 0, DealError, "not a card mask"),
    ([[1, 2, 4]], 3, 0, RulesError, "not a seat"),
    ([[1, 2, 4]], 0, -1, RulesError, "not a seat"),
    ([[1, 2, 4]], 0, "F", RulesError, "seats"),
    ([[1, 2, 4]], [0, 1], 0, RulesError, "one seat per position"),
])
def test_bad_input_raises_the_projects_errors(hands, leader, declarer, error, text):
    with pytest.raises(error, match=text):
        M.check_positions(hands, leader, declarer)


def test_estimate_position_rejects_bad_hands():
    with pytest.raises(DealError, match="3 hands"):
        M.estimate_position([1, 2], 0, 0)
    with pytest.raises(DealError, match="three card masks"):
        M.estimate_position(5, 0, 0)
    wide = (1 << np.arange(17, dtype=np.uint64)).sum()
    with pytest.raises(DealError, match="1 to 16"):
        M.check_positions(np.array([[wide, wide << np.uint64(17), wide << np.uint64(34)]],
                                   dtype=np.uint64), 0, 0)


def test_weights_round_trip(tmp_path):
    ev = _random_evaluator(2)
    ev.meta = "x"
    path = tmp_path / "w.npz"
    L.write_npz(path, ev.arrays())
    back = M.Evaluator.load(path)
    h, le, de = _mixed_positions(20)
    le, de = le.astype(np.int64), de.astype(np.int64)
    assert np.array_equal(back.predict(h, le, de), ev.predict(h, le, de))
    assert back.meta == "x"
    with pytest.raises(ValueError, match="inconsistent"):
        T.ObliviousEnsemble(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 4)), 0.0)


def test_tree_kernel_equals_the_numpy_definition():
    """The vectorised kernel against the plain per-tree definition, and a positive
    control: changing one leaf changes the rows that reach it."""
    ens = _random_ensemble(4, trees=60, depth=6)
    h, le, de = _mixed_positions(200)
    x = F.features(h, le.astype(np.int64), de.astype(np.int64))
    assert np.array_equal(ens.predict(x), T.predict_reference(ens, x))
    leaves = ens.leaves.copy()
    leaves[0] += 1.0
    other = T.ObliviousEnsemble(ens.features, ens.thresholds, leaves, ens.base)
    assert np.allclose(other.predict(x) - ens.predict(x), 1.0)
