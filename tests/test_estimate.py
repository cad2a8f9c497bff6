"""The evaluator's inference: features, trees and model.

Fast checks only.  Its labels and trainer are tested in ``test_estimate_training.py``.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import numpy as np
import pytest

from tarock_solver import notation as _notation  # noqa: F401  (import order: see positions)
from tarock_solver.errors import DealError, RulesError
from tarock_solver.estimate import features as F
from tarock_solver.estimate import model as M
from tarock_solver.estimate import trees as T
from tarock_solver.training import labels as L
from tarock_solver.training import positions as P


def _positions_array(ps):
    h = np.array([p.hands for p in ps], dtype=np.uint64)
    return h, np.array([p.leader for p in ps]), np.array([p.declarer for p in ps])


def _permute_suits(h: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    out = h & np.uint64((1 << 22) - 1)
    for s in range(4):
        block = (h >> np.uint64(22 + 8 * s)) & np.uint64(255)
        out = out | (block << np.uint64(22 + 8 * perm[s]))
    return out


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


# ----------------------------------------------------------------- layering

#: Packages above the evaluator's inference layer (docs: the layers of the project).
ABOVE = ("advise", "analysis", "batch", "bench", "review", "training", "checkpoint", "stats")


def _imports_above(path: Path) -> list[str]:
    """The modules of ``tarock_solver`` above inference that the file imports."""
    package = path.parent.name
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name.removeprefix("tarock_solver.") for a in node.names
                     if a.name.startswith("tarock_solver.")]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                names = [f"{package}.{mod}" if mod else package]
            elif node.level == 2 or mod.startswith("tarock_solver."):
                names = [mod.removeprefix("tarock_solver.")] if mod else \
                    [a.name for a in node.names]
        found += [n for n in names if n.split(".")[0] in ABOVE]
    return found


def test_inference_imports_nothing_above_it():
    """estimate/ holds inference only: no module imports the adviser, batch runs or the
    trainer, not even inside a function.  Positive control: the sampler (training),
    which imports the adviser, is flagged."""
    root = Path(M.__file__).parent
    offenders = {p.name: _imports_above(p) for p in sorted(root.glob("*.py"))}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert "advise.candidates" in _imports_above(Path(P.__file__))
    assert _imports_above(Path(L.__file__))  # checkpoint and the positions of training
