"""Exact double-dummy labels for the evaluator: a seeded, resumable generator.

``python -m tarock_solver.estimate.labels --seed S --count N --kind KIND --out FILE.npz``
draws positions ``start … start+N-1`` of :func:`.positions.sample_position` and
solves every one exactly (no node budget: a position is never dropped or stored
as a midpoint, however long it takes).  Work is done in chunks of
``--chunk-size`` positions; each finished chunk is written atomically to
``FILE.npz.parts/chunk-NNNNNN.pkl`` through the project's batch checkpoints
(:class:`tarock_solver.checkpoint.Checkpoint`: manifest, lock, atomic
rename), so a killed run loses at most the chunk in progress and the same command
continues where it stopped.  ``--count`` is not part of the checkpoint key: a
later run with a larger count reuses every finished chunk.

Each position is solved by its own one-thread ``solve_many`` call with a fresh
transposition table (the positions are unrelated deals, so a shared table would
buy little), so its value *and* node count depend only on the position and the
table size: the output of a resumed run is byte-identical to that of an
uninterrupted one.  Wall-clock
seconds per position are not reproducible, so they go to a sidecar
``FILE.timing.npz`` instead of the data file.

The data file is an ``.npz`` (written with fixed zip timestamps, hence
byte-reproducible) with one row per position:

``hands`` uint64 (N, 3) masks of F, M, R · ``leader``, ``declarer`` uint8 ·
``value`` uint8, the declarer's exact card points from the remaining tricks
(the solver's value) · ``nodes`` int64, search nodes · ``cards`` uint8, cards per
hand · ``contract`` int8 (:data:`.positions.CONTRACT_CODES`, -1 none) · ``kind``
uint8 (:data:`.positions.KINDS`) · ``index`` int64, the position's index in its
stream · ``meta`` a JSON string with the settings and the generator command.

``--objective gamepoints`` labels the same streams (16-card positions after an
exchange: kinds ``post_exchange`` and ``biddable``) with the game-point solver
instead: the declarer's exact double-dummy **net game points of plain play** in the
position's contract under the ``dummett`` rules, silent birds, Valat and hand
bonuses scored as the sheet does (hands as dealt from the position's deal).  Its
rows have ``net`` int16 (in place of ``value``), ``line_points`` uint8 (the
declarer's rounded card points on one optimal line) and ``birds`` (the scorer's bird
notes on that line, e.g. ``pagat@decl:won``); the card-point label of the same
(seed, kind, index) is in the card-point file of that stream.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import pickle
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..checkpoint import Checkpoint, atomic_write, parts_dir
from ..errors import RulesError
from . import positions as P

__all__ = ["FIELDS", "GP_FIELDS", "OBJECTIVES", "SAMPLER_VERSION", "assemble", "fields_of",
           "generate", "load_labels", "main", "write_npz"]

#: Bumped whenever the sampler's output for a (seed, kind, index) changes.
SAMPLER_VERSION = 1
#: Per-row fields of a label file and their dtypes.
FIELDS: dict[str, Any] = {"hands": np.uint64, "leader": np.uint8, "declarer": np.uint8,
                          "value": np.uint8, "nodes": np.int64, "cards": np.uint8,
                          "contract": np.int8, "kind": np.uint8, "index": np.int64}
#: The fields of a game-point label file (``--objective gamepoints``).
GP_FIELDS: dict[str, Any] = {"hands": np.uint64, "leader": np.uint8, "declarer": np.uint8,
                             "net": np.int16, "line_points": np.uint8, "birds": "<U48",
                             "nodes": np.int64, "cards": np.uint8, "contract": np.int8,
                             "kind": np.uint8, "index": np.int64}
#: What a label file can hold; the rules the game-point labels are scored by.
OBJECTIVES = ("cardpoints", "gamepoints")
GP_RULES = "dummett"
#: The kinds with whole 16-card positions after an exchange (what a game-point label needs).
GP_KINDS = ("post_exchange", "biddable")


def fields_of(objective: str) -> dict[str, Any]:
    """The per-row fields of a label file of ``objective``."""
    return GP_FIELDS if objective == "gamepoints" else FIELDS


_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as a compressed ``.npz`` atomically, byte-reproducibly.

    :func:`numpy.savez_compressed` stamps the current time into the zip entries;
    this writer uses a fixed date and a fixed entry order instead.
    """
    def write(handle: Any) -> None:
        with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for name, arr in arrays.items():
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.asarray(arr), allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, buf.getvalue(), compresslevel=9)

    atomic_write(Path(path), write)


def sampler_fingerprint(seed: int, kind: str, start: int = 0) -> str:
    """Hash of the first three positions of a stream: a resumed run whose code samples
    other positions (a changed sampler or deal generator) gets another checkpoint key
    and refuses the old checkpoints instead of mixing two streams."""
    rows = [(p.hands, p.leader, p.declarer, p.contract, p.discard)
            for p in P.sample_positions(seed, kind, 3, start=start)]
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def weights_digest() -> str:
    """Hash of the shipped evaluator's weights file (what ``advised`` positions depend on)."""
    from .model import WEIGHTS_PATH

    return hashlib.sha256(Path(WEIGHTS_PATH).read_bytes()).hexdigest()[:16]


def _settings(seed: int, kind: str, start: int, tt_bits: int | str,
              objective: str = "cardpoints") -> dict[str, Any]:
    out = {"seed": int(seed), "kind": kind, "start": int(start),
           "tt_bits": tt_bits if tt_bits == "auto" else int(tt_bits),
           "sampler": SAMPLER_VERSION, "contract_weights": P.CONTRACT_WEIGHTS,
           "shortlist_share": P.SHORTLIST_SHARE, "short_cards": list(P.SHORT_CARDS),
           "fingerprint": sampler_fingerprint(seed, kind, start)}
    if kind == "advised":  # its exchanges are the shipped evaluator's choices
        out["evaluator"] = weights_digest()
    if objective != "cardpoints":  # card-point runs keep the keys of their checkpoints
        out.update(objective=objective, rules=GP_RULES)
    return out


def _manifest(out: Path, settings: dict[str, Any], chunk_size: int, count: int
              ) -> dict[str, Any]:
    ident = json.dumps({"generator": "tarock_solver.estimate.labels", **settings},
                       sort_keys=True).encode()
    return Checkpoint.make_manifest(
        input_path=Path(f"<generated {settings['kind']} positions>"),
        input_sha256=hashlib.sha256(ident).hexdigest(), chunk_size=chunk_size,
        chunks=-(-count // chunk_size), records=count, settings=settings)


def auto_tt_bits(cards: int) -> int:
    """Table size for ``--tt-bits auto``: allocating 2**20 rows costs ~60 ms, more than a
    whole 8-card solve, so small positions get small tables."""
    return 12 if cards <= 6 else 15 if cards <= 9 else 18 if cards <= 12 else 20


def _solve_chunk(seed: int, kind: str, first: int, rows: int, tt_bits: int | str
                 ) -> dict[str, np.ndarray]:
    """Sample and solve one chunk.  Every position is its own one-thread
    :func:`~tarock_solver.solver.solve_many` call with a fresh table, so its node
    count depends on the position alone and its wall time can be measured."""
    from ..solver import solve_many

    out = {name: np.zeros((rows, 3) if name == "hands" else rows, dtype=dt)
           for name, dt in FIELDS.items()}
    seconds = np.zeros(rows, dtype=np.float64)
    for r in range(rows):
        pos = P.sample_position(seed, kind, first + r)
        t0 = time.perf_counter()
        bits = auto_tt_bits(pos.cards_per_hand) if tt_bits == "auto" else int(tt_bits)
        values, nodes = solve_many([(pos.hands, pos.leader, pos.declarer)], threads=1,
                                   tt_bits=bits, stats=True)
        seconds[r] = time.perf_counter() - t0
        _put_position(out, r, pos)
        out["value"][r] = int(values[0])
        out["nodes"][r] = int(nodes[0])
    out["seconds"] = seconds
    return out


def _put_position(out: dict[str, np.ndarray], r: int, pos: P.SampledPosition) -> None:
    """Row ``r``'s fields that describe the position itself."""
    out["hands"][r] = pos.hands
    out["leader"][r] = pos.leader
    out["declarer"][r] = pos.declarer
    out["cards"][r] = pos.cards_per_hand
    out["contract"][r] = pos.contract
    out["kind"][r] = P.KINDS[pos.kind]
    out["index"][r] = pos.index


def _solve_chunk_gp(seed: int, kind: str, first: int, rows: int, tt_bits: int | str
                    ) -> dict[str, np.ndarray]:
    """Sample one chunk and solve every position's plain play for game points exactly
    (no budget), each with a fresh table (so values and nodes depend on the position
    alone)."""
    from ..cards import thirds_of
    from ..deal import random_deal
    from ..rules import load_rules
    from ..solver import solve_game_points

    rules = load_rules(GP_RULES)
    contracts = list(P.CONTRACT_CODES)
    out = {name: np.zeros((rows, 3) if name == "hands" else rows, dtype=dt)
           for name, dt in GP_FIELDS.items()}
    seconds = np.zeros(rows, dtype=np.float64)
    for r in range(rows):
        pos = P.sample_position(seed, kind, first + r)
        # the deal is the stream's first draw (the defenders' hand bonuses count as dealt)
        dealt = random_deal(P.stream_rng(seed, kind, pos.index)).hands
        d = pos.declarer
        bits = auto_tt_bits(pos.cards_per_hand) if tt_bits == "auto" else int(tt_bits)
        t0 = time.perf_counter()
        res = solve_game_points(pos.hands, 0, d, rules=rules, contract=contracts[pos.contract],
                                discard_thirds=thirds_of(pos.discard), valat_open=True,
                                declarer_hand=pos.hands[d], dealt=dealt, tt_bits=bits)
        seconds[r] = time.perf_counter() - t0
        detail = res.detail
        _put_position(out, r, pos)
        out["net"][r] = int(res.value)
        out["line_points"][r] = int(detail.points) if detail is not None else 0
        out["birds"][r] = detail.birds if detail is not None else ""
        out["nodes"][r] = int(res.nodes)
    out["seconds"] = seconds
    return out


def _load_chunk(ckpt: Checkpoint, index: int, rows: int) -> dict[str, np.ndarray] | None:
    """A finished chunk with ``rows`` rows, or None if it is missing, damaged or stale."""
    path = ckpt.chunk_path(index)
    if not path.exists():
        return None
    try:
        with open(path, "rb") as handle:
            payload = pickle.load(handle)
    except Exception:  # noqa: BLE001 — a damaged part is simply recomputed
        return None
    if not isinstance(payload, dict) or payload.get("key") != ckpt.key \
            or payload.get("index") != index or len(payload["arrays"]["index"]) != rows:
        return None
    return payload["arrays"]


def _chunk_rows(count: int, chunk_size: int) -> list[int]:
    return [min(chunk_size, count - i) for i in range(0, count, chunk_size)]


def _meta(settings: dict[str, Any], chunk_size: int, count: int, command: str | None) -> str:
    return json.dumps({**settings, "count": count, "chunk_size": chunk_size,
                       "command": command}, sort_keys=True)


def _write_outputs(out: Path, chunks: list[dict[str, np.ndarray]], meta: str,
                   objective: str = "cardpoints") -> int:
    fields = fields_of(objective)
    merged = {name: np.concatenate([c[name] for c in chunks]) if chunks else
              np.zeros((0, 3) if name == "hands" else 0, dtype=dt)
              for name, dt in fields.items()}
    merged = {name: merged[name].astype(fields[name], copy=False) for name in fields}
    merged["meta"] = np.array(meta)
    write_npz(out, merged)
    seconds = np.concatenate([c["seconds"] for c in chunks]) if chunks else np.zeros(0)
    write_npz(out.with_name(out.name.removesuffix(".npz") + ".timing.npz"),
              {"index": merged["index"], "seconds": seconds})
    return len(merged["index"])


def generate(seed: int, kind: str, count: int, out: str | Path, *, start: int = 0,
             chunk_size: int = 25, tt_bits: int | str = 20, restart: bool = False,
             max_chunks: int | None = None, keep_parts: bool = False,
             command: str | None = None, log: Any = None,
             objective: str = "cardpoints") -> bool:
    """Label positions ``start … start+count-1`` of ``(seed, kind)`` into ``out``.

    Resumes from ``out``'s checkpoints.  ``max_chunks`` stops after solving that
    many new chunks (for tests and time-boxed runs).  Returns True when every chunk
    is done and ``out`` was written (the parts are then removed unless
    ``keep_parts``).
    """
    if kind not in P.KINDS:
        raise RulesError(f'unknown position kind "{kind}"; expected one of: {", ".join(P.KINDS)}')
    if count < 0 or start < 0 or chunk_size < 1:
        raise RulesError("count and start must not be negative and chunk size must be >= 1")
    if objective not in OBJECTIVES:
        raise RulesError(f'unknown objective "{objective}"; expected one of: '
                         f'{", ".join(OBJECTIVES)}')
    if objective == "gamepoints" and kind not in GP_KINDS:
        raise RulesError(f'game-point labels need whole positions after an exchange: kind '
                         f'{" or ".join(GP_KINDS)}, not "{kind}"')
    solve_chunk = _solve_chunk_gp if objective == "gamepoints" else _solve_chunk
    out = Path(out)
    settings = _settings(seed, kind, start, tt_bits, objective)
    rows = _chunk_rows(count, chunk_size)
    ckpt = Checkpoint.open(parts_dir(out), _manifest(out, settings, chunk_size, count),
                           restart=restart)
    solved = 0
    warmed = False
    t_start = time.perf_counter()
    try:
        chunks: list[dict[str, np.ndarray]] = []
        for i, n in enumerate(rows):
            arrays = _load_chunk(ckpt, i, n)
            if arrays is None:
                if max_chunks is not None and solved >= max_chunks:
                    return False
                if not warmed:  # compile / load the kernels outside the timed solves
                    _solve_chunk(seed, "short", 0, 1, 10)
                    warmed = True
                arrays = solve_chunk(seed, kind, start + i * chunk_size, n, tt_bits)
                payload = {"key": ckpt.key, "index": i, "arrays": arrays}
                atomic_write(ckpt.chunk_path(i), lambda h, p=payload: pickle.dump(
                    p, h, protocol=pickle.HIGHEST_PROTOCOL))
                solved += 1
                if log is not None:
                    el = time.perf_counter() - t_start
                    print(f"chunk {i + 1}/{len(rows)}: {n} positions in "
                          f"{arrays['seconds'].sum():.1f} s (max {arrays['seconds'].max():.2f} "
                          f"s); {solved} new chunks in {el:.0f} s", file=log, flush=True)
            chunks.append(arrays)
        _write_outputs(out, chunks, _meta(settings, chunk_size, count, command), objective)
    finally:
        ckpt.close()
    if not keep_parts:
        ckpt.remove()
    return True


def assemble(out: str | Path, dest: str | Path) -> int:
    """Write the finished prefix of ``out``'s checkpoints (chunks 0, 1, … up to the
    first missing one) to ``dest`` (+ its timing sidecar), without solving anything
    and without taking the lock (a running generator is not disturbed).  Returns
    the number of rows written."""
    out, dest = Path(out), Path(dest)
    directory = parts_dir(out)
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    chunk_size = int(manifest["chunk_size"])
    chunks = []
    i = 0
    while True:
        path = directory / f"chunk-{i:06d}.pkl"
        if not path.exists():
            break
        with open(path, "rb") as handle:
            payload = pickle.load(handle)
        if payload.get("key") != manifest["key"]:
            break
        chunks.append(payload["arrays"])
        if len(payload["arrays"]["index"]) < chunk_size:
            break
        i += 1
    n = sum(len(c["index"]) for c in chunks)
    objective = manifest["settings"].get("objective", "cardpoints")
    return _write_outputs(dest, chunks, _meta(manifest["settings"], chunk_size, n,
                                              f"assembled from {directory}"), objective)


def load_labels(*paths: str | Path, objective: str = "cardpoints") -> dict[str, np.ndarray]:
    """Concatenate the rows of label files of ``objective`` (``meta`` is dropped)."""
    fields = fields_of(objective)
    parts = []
    for p in paths:
        with np.load(p, allow_pickle=False) as z:
            parts.append({name: z[name] for name in fields})
    return {name: np.concatenate([p[name] for p in parts]) for name in fields}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tarock_solver.estimate.labels",
        description="Exact double-dummy labels for the evaluator (seeded, resumable).")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--kind", choices=list(P.KINDS), required=True)
    ap.add_argument("--objective", choices=list(OBJECTIVES), default="cardpoints",
                    help="cardpoints (the evaluator's labels, default) or gamepoints (the "
                         "net of plain play, birds included; kinds post_exchange, biddable)")
    ap.add_argument("--out", required=True, help="output .npz (checkpoints in OUT.parts/)")
    ap.add_argument("--start", type=int, default=0, help="first position index (default 0)")
    ap.add_argument("--chunk-size", type=int, default=25)
    ap.add_argument("--tt-bits", default="20",
                    help="transposition table bits per solve, or 'auto' (by position size)")
    ap.add_argument("--restart", action="store_true", help="discard existing checkpoints")
    ap.add_argument("--keep-parts", action="store_true")
    ap.add_argument("--assemble-to", metavar="PATH",
                    help="only write the finished chunks of OUT's checkpoints to PATH")
    args = ap.parse_args(argv)
    if args.assemble_to:
        n = assemble(args.out, args.assemble_to)
        print(f"{n} labelled positions written to {args.assemble_to}")
        return 0
    command = ("python -m tarock_solver.estimate.labels " +
               " ".join(sys.argv[1:] if argv is None else argv))
    tt_bits: int | str = args.tt_bits if args.tt_bits == "auto" else int(args.tt_bits)
    done = generate(args.seed, args.kind, args.count, args.out, start=args.start,
                    chunk_size=args.chunk_size, tt_bits=tt_bits, restart=args.restart,
                    keep_parts=args.keep_parts, command=command, log=sys.stderr,
                    objective=args.objective)
    print(f"{'done' if done else 'stopped'}: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
