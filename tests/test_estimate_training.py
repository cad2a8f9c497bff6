"""How the evaluator is made (tarock_solver.training): sampler and label generator.

Fast checks only: the label runs solve a handful of tiny positions.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tarock_solver import notation as _notation  # noqa: F401  (import order: see positions)
from tarock_solver.deal import random_deal
from tarock_solver.errors import RulesError
from tarock_solver.estimate import model as M
from tarock_solver.talon import TALON_TAKE, legal_discards, talon_groups
from tarock_solver.training import labels as L
from tarock_solver.training import positions as P

CONTRACTS = list(P.CONTRACT_WEIGHTS)


def _bits(m: int) -> int:
    return int(m).bit_count()


def _deal_of(seed: int, kind: str, index: int):
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(P.KINDS[kind], index)))
    return random_deal(rng)



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


@pytest.fixture(autouse=True)
def cache(monkeypatch, tmp_path):
    """The user cache folder of the label runs' checkpoints (not the outputs' folder): a
    temporary one, so no test writes to the real cache."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("LOCALAPPDATA", raising=False)
    return folder


def test_labels_resume_is_byte_identical(tmp_path, tiny_short, cache):
    out_dir = tmp_path / "labels"
    out_dir.mkdir()
    whole = out_dir / "whole.npz"
    assert L.generate(4, "short", 7, whole, chunk_size=2, command="c")
    resumed = out_dir / "resumed.npz"
    assert not L.generate(4, "short", 7, resumed, chunk_size=2, max_chunks=2, command="c")
    # the checkpoints of a stopped run are in the user cache, none beside the output
    parts = L.checkpoint_dir(resumed)
    assert parts.is_relative_to(cache) and not parts.is_relative_to(out_dir)
    assert len(list(parts.glob("chunk-*.pkl"))) == 2
    assert sorted(p.name for p in out_dir.iterdir()) == ["whole.npz", "whole.timing.npz"]
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
    # a finished run is compacted into its output: the checkpoint folder is gone
    assert not parts.exists() and not list(cache.rglob("chunk-*"))
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "resumed.npz", "resumed.timing.npz", "whole.npz", "whole.timing.npz"]
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


def test_labels_extend_an_existing_output(tmp_path, tiny_short, cache):
    """A label file kept without its checkpoints (as the repository keeps them): the same
    command with a larger count solves only the new chunks and writes what one
    uninterrupted run writes; --restart recomputes everything."""
    whole = tmp_path / "whole.npz"
    assert L.generate(4, "short", 7, whole, chunk_size=2, command="c")
    out = tmp_path / "out.npz"
    assert L.generate(4, "short", 4, out, chunk_size=2, command="c")
    assert not L.generate(4, "short", 7, out, chunk_size=2, max_chunks=1, command="c")
    assert L.generate(4, "short", 7, out, chunk_size=2, max_chunks=1, command="c")
    assert out.read_bytes() == whole.read_bytes()
    with np.load(L.timing_path(out)) as t, np.load(L.timing_path(whole)) as w:
        assert np.array_equal(t["index"], w["index"]) and not np.isnan(t["seconds"]).any()
    assert not L.generate(4, "short", 7, out, chunk_size=2, max_chunks=0, restart=True)
    # another run's file is neither reused nor silently replaced: the options that differ
    # are named (--restart replaces it)
    from tarock_solver.checkpoint import CheckpointError

    other = tmp_path / "other.npz"
    other.write_bytes(whole.read_bytes())
    with pytest.raises(CheckpointError, match="another run: seed 4 .this run: 5."):
        L.generate(5, "short", 7, other, chunk_size=2, max_chunks=0)
    with pytest.raises(CheckpointError, match="chunk_size 2 .this run: 3."):
        L.generate(4, "short", 7, other, chunk_size=3, max_chunks=0, work_dir=tmp_path / "w")
    assert not L.generate(4, "short", 7, other, chunk_size=3, max_chunks=0, restart=True,
                          work_dir=tmp_path / "w")
    assert other.read_bytes() == whole.read_bytes()  # nothing replaced yet


def test_labels_refuse_a_different_run(tmp_path, tiny_short, cache, capsys):
    out = tmp_path / "x.npz"
    assert not L.generate(4, "short", 6, out, chunk_size=2, max_chunks=1)
    from tarock_solver.checkpoint import CheckpointError

    with pytest.raises(CheckpointError, match="different run"):
        L.generate(5, "short", 6, out, chunk_size=2)
    assert L.main(["--seed", "5", "--count", "6", "--kind", "short", "--out", str(out),
                   "--chunk-size", "2"]) == 2
    assert "different run" in capsys.readouterr().err


def test_label_command_keeps_its_checkpoints_in_the_work_dir(tmp_path, tiny_short, cache):
    out = tmp_path / "x.npz"
    work = tmp_path / "work"
    assert L.main(["--seed", "4", "--count", "3", "--kind", "short", "--out", str(out),
                   "--chunk-size", "2", "--work-dir", str(work), "--keep-parts"]) == 0
    assert sorted(p.name for p in (work / "x.npz.parts").glob("chunk-*")) == [
        "chunk-000000.pkl", "chunk-000001.pkl"]
    assert not cache.exists()
    with np.load(out) as z:
        assert "--work-dir" in str(z["meta"]) and list(z["index"]) == [0, 1, 2]


def test_checkpoint_folder_of_a_label_run(tmp_path):
    out = tmp_path / "a" / "x.npz"
    home = L.checkpoint_dir(out, environ={"HOME": "/h"})
    assert home.parent == Path("/h/.cache/tarock-solver/labels")
    assert home.name.startswith("x.npz-") and home.name.endswith(".parts")
    xdg = L.checkpoint_dir(out, environ={"HOME": "/h", "XDG_CACHE_HOME": "/x"})
    assert xdg.parent == Path("/x/tarock-solver/labels") and xdg.name == home.name
    # two outputs of the same name in two folders never share checkpoints
    assert L.checkpoint_dir(tmp_path / "b" / "x.npz", environ={"HOME": "/h"}) != home
    assert L.checkpoint_dir(out, "/w") == Path("/w/x.npz.parts")


def test_game_point_labels_are_the_net_of_plain_play(tmp_path, cache):
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
