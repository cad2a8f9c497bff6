"""Exact double-dummy labels for the evaluator: a seeded, resumable generator.

``python -m tarock_solver.training.labels --seed S --count N --kind KIND --out FILE.npz``
solves positions ``start … start+N-1`` of :func:`.positions.sample_position` exactly (no
node budget) into a byte-reproducible ``.npz`` (fields: :data:`FIELDS`, :data:`GP_FIELDS`)
and a wall-seconds sidecar ``FILE.timing.npz`` (``index``, ``seconds``), in chunks that
are checkpoints, so a killed run continues where it stopped (:func:`generate`).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import time
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._cache_location import user_cache_dir
from ..checkpoint import MANIFEST, Checkpoint, CheckpointError, atomic_write
from ..errors import RulesError
from . import positions as P

__all__ = ["FIELDS", "GP_FIELDS", "OBJECTIVES", "SAMPLER_VERSION", "assemble", "checkpoint_dir",
           "fields_of", "generate", "load_labels", "main", "timing_path", "write_npz"]

#: Bumped whenever the sampler's output for a (seed, kind, index) changes.
SAMPLER_VERSION = 1
#: Per-row fields of a label file and their dtypes: ``hands`` (N, 3) masks of F, M, R;
#: ``value`` the declarer's exact card points from the remaining tricks (the solver's
#: value); ``nodes`` search nodes; ``cards`` cards per hand; ``contract``
#: (:data:`.positions.CONTRACT_CODES`, -1 none); ``kind`` (:data:`.positions.KINDS`);
#: ``index`` the position's index in its stream.  The file also holds ``meta``, a JSON
#: string with the settings and the generator command.
FIELDS: dict[str, Any] = {"hands": np.uint64, "leader": np.uint8, "declarer": np.uint8,
                          "value": np.uint8, "nodes": np.int64, "cards": np.uint8,
                          "contract": np.int8, "kind": np.uint8, "index": np.int64}
#: The fields of a game-point label file (``--objective gamepoints``): ``net`` in place
#: of ``value``, the declarer's exact double-dummy net game points of plain play in the
#: position's contract under :data:`GP_RULES` (silent birds, Valat and hand bonuses
#: scored as the sheet does, hands as dealt from the position's deal);
#: ``line_points`` his rounded card points on one optimal line; ``birds`` the scorer's
#: bird notes on that line (e.g. ``pagat@decl:won``).  The card-point label of the
#: same (seed, kind, index) is in the card-point file of that stream.
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
    from ..estimate.model import WEIGHTS_PATH

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
    ident = json.dumps({"generator": "tarock_solver.training.labels", **settings},
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
    :func:`~tarock_solver.solver.solve_many` call with a fresh table (the positions
    are unrelated deals, so a shared table would buy little), so its node count
    depends on the position alone and its wall time can be measured."""
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
        dealt = P.dealt_hands(seed, kind, pos.index)
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


#: The command named when another run holds a checkpoint folder's lock.
COMMAND = "python -m tarock_solver.training.labels"


def checkpoint_dir(out: str | os.PathLike[str], work_dir: str | os.PathLike[str] | None = None,
                   environ: Mapping[str, str] | None = None) -> Path:
    """The checkpoint folder of a run writing ``out``.

    ``work_dir/OUT.parts`` when a work folder is given; else
    ``<user cache>/tarock-solver/labels/OUT-<hash of OUT's absolute path>.parts``, so the
    same command resumes from any working directory, two outputs of the same name never
    share a folder, and nothing is written into the repository until the output itself.
    """
    out = Path(out).absolute()
    if work_dir is not None:
        return Path(work_dir) / f"{out.name}.parts"
    tag = hashlib.sha256(str(out).encode("utf-8")).hexdigest()[:12]
    cache = user_cache_dir(os.environ if environ is None else environ)
    return cache / "tarock-solver" / "labels" / f"{out.name}-{tag}.parts"


def timing_path(out: str | os.PathLike[str]) -> Path:
    """The timing sidecar of a label file: ``FILE.timing.npz`` beside ``FILE.npz``."""
    out = Path(out)
    return out.with_name(out.name.removesuffix(".npz") + ".timing.npz")


def _load_chunk(ckpt: Checkpoint, index: int, rows: int | None) -> dict[str, np.ndarray] | None:
    """A finished chunk (of ``rows`` rows unless None), or None if it is missing, damaged
    or stale (then it is solved again)."""
    if not ckpt.chunk_path(index).exists():
        return None
    try:
        arrays = ckpt.load(index).get("arrays")
    except CheckpointError:
        return None
    if not isinstance(arrays, dict) or "index" not in arrays \
            or (rows is not None and len(arrays["index"]) != rows):
        return None
    return arrays


def _chunk_rows(count: int, chunk_size: int) -> list[int]:
    return [min(chunk_size, count - i) for i in range(0, count, chunk_size)]


def _meta(settings: dict[str, Any], chunk_size: int, count: int, command: str | None) -> str:
    return json.dumps({**settings, "count": count, "chunk_size": chunk_size,
                       "command": command}, sort_keys=True)


def _earlier_output(out: Path, settings: dict[str, Any], chunk_size: int,
                    objective: str) -> dict[str, np.ndarray] | None:
    """The rows (and seconds) of an existing label file written by the same run (the
    same settings and chunk size), or None when there is none.  They count as finished
    chunks, so a label file kept without its checkpoints is extended rather than
    recomputed.  A label file of another run is refused (CheckpointError naming what
    differs): the run would silently recompute every row and then replace it."""
    if not out.exists():
        return None
    fields = fields_of(objective)
    try:
        with np.load(out, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {name: z[name] for name in fields}
    except (OSError, ValueError, KeyError):
        return None
    same = {**json.loads(json.dumps(settings)), "chunk_size": chunk_size}
    differ = [f"{k} {meta.get(k)!r} (this run: {v!r})" for k, v in same.items()
              if meta.get(k) != v]
    if differ:
        raise CheckpointError(
            f"{out} holds labels of another run: " + "; ".join(differ) + ". Give its options "
            "to extend it, --restart to replace it, or another --out.")
    seconds = np.full(len(arrays["index"]), np.nan)
    try:
        with np.load(timing_path(out), allow_pickle=False) as t:
            if np.array_equal(t["index"], arrays["index"]):
                seconds = t["seconds"]
    except (OSError, ValueError, KeyError):
        pass
    return {**arrays, "seconds": seconds}


def _rows_of(earlier: dict[str, np.ndarray] | None, first: int, rows: int
             ) -> dict[str, np.ndarray] | None:
    """Positions ``first … first+rows-1`` of an earlier output, if it holds all of them."""
    if earlier is None:
        return None
    at = np.searchsorted(earlier["index"], first)
    if at + rows > len(earlier["index"]) or \
            not np.array_equal(earlier["index"][at:at + rows], np.arange(first, first + rows)):
        return None
    return {name: arr[at:at + rows] for name, arr in earlier.items()}


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
    write_npz(timing_path(out), {"index": merged["index"], "seconds": seconds})
    return len(merged["index"])


def generate(seed: int, kind: str, count: int, out: str | Path, *, start: int = 0,
             chunk_size: int = 25, tt_bits: int | str = 20, restart: bool = False,
             max_chunks: int | None = None, keep_parts: bool = False,
             work_dir: str | Path | None = None, command: str | None = None,
             log: Any = None, objective: str = "cardpoints") -> bool:
    """Label positions ``start … start+count-1`` of ``(seed, kind)`` into ``out``.

    Work is done in chunks of ``chunk_size`` positions; each finished chunk is a
    checkpoint (:class:`tarock_solver.checkpoint.Checkpoint`: manifest, lock, atomic
    rename) outside the output's folder (:func:`checkpoint_dir`), so a killed run loses
    at most the chunk in progress; when every chunk is done they are compacted into
    ``out`` and its timing sidecar.  No position is dropped or stored as a midpoint,
    however long it takes.  Each position is solved with a fresh table, so its
    value and node count depend only on the position and the table size: the output
    of a resumed run is byte-identical to that of an uninterrupted one.

    Resumes from the run's checkpoints and from the rows of an existing ``out`` of the
    same run: ``count`` is not part of the checkpoint key, so a larger count extends a
    file (a committed label file included) instead of recomputing it.  ``max_chunks``
    stops after solving that many new chunks (for tests and time-boxed runs).  Returns
    True when every chunk is done and ``out`` was written (the checkpoint folder is then
    removed unless ``keep_parts``).
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
    earlier = None if restart else _earlier_output(out, settings, chunk_size, objective)
    ckpt = Checkpoint.open(checkpoint_dir(out, work_dir),
                           _manifest(out, settings, chunk_size, count),
                           restart=restart, command=COMMAND)
    solved = 0
    warmed = False
    t_start = time.perf_counter()
    try:
        chunks: list[dict[str, np.ndarray]] = []
        for i, n in enumerate(rows):
            arrays = _load_chunk(ckpt, i, n)
            if arrays is None:
                arrays = _rows_of(earlier, start + i * chunk_size, n)
            if arrays is None:
                if max_chunks is not None and solved >= max_chunks:
                    return False
                if not warmed:  # compile / load the kernels outside the timed solves
                    _solve_chunk(seed, "short", 0, 1, 10)
                    warmed = True
                arrays = solve_chunk(seed, kind, start + i * chunk_size, n, tt_bits)
                ckpt.save(i, {"arrays": arrays})
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


def assemble(out: str | Path, dest: str | Path, *, work_dir: str | Path | None = None) -> int:
    """Write the finished prefix of the run writing ``out`` (chunks 0, 1, … up to the
    first missing one, from its checkpoints or from ``out`` itself) to ``dest`` (+ its
    timing sidecar), without solving anything and without taking the lock (a running
    generator is not disturbed).  Returns the number of rows written."""
    out, dest = Path(out), Path(dest)
    directory = checkpoint_dir(out, work_dir)
    manifest_path = directory / MANIFEST
    if not manifest_path.exists():
        raise CheckpointError(f"no checkpoints of {out} in {directory}; give the --work-dir "
                              f"the run used.")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    ckpt = Checkpoint(directory, manifest, None, command=COMMAND)
    settings = manifest["settings"]
    chunk_size = int(manifest["chunk_size"])
    objective = settings.get("objective", "cardpoints")
    earlier = _earlier_output(out, settings, chunk_size, objective)
    chunks = []
    while True:
        i = len(chunks)
        arrays = _load_chunk(ckpt, i, None)
        if arrays is None:
            arrays = _rows_of(earlier, int(settings["start"]) + i * chunk_size, chunk_size)
        if arrays is None:
            break
        chunks.append(arrays)
        if len(arrays["index"]) < chunk_size:  # the last chunk of a run
            break
    n = sum(len(c["index"]) for c in chunks)
    return _write_outputs(dest, chunks, _meta(settings, chunk_size, n,
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
        prog=COMMAND,
        description="Exact double-dummy labels for the evaluator (seeded, resumable).")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--kind", choices=list(P.KINDS), required=True)
    ap.add_argument("--objective", choices=list(OBJECTIVES), default="cardpoints",
                    help="cardpoints (the evaluator's labels, default) or gamepoints (the "
                         "net of plain play, birds included; kinds post_exchange, biddable)")
    ap.add_argument("--out", required=True,
                    help="output .npz (and its .timing.npz sidecar), written when every "
                         "chunk is done; the rows of an existing OUT of the same run are reused")
    ap.add_argument("--start", type=int, default=0, help="first position index (default 0)")
    ap.add_argument("--chunk-size", type=int, default=25)
    ap.add_argument("--tt-bits", default="20",
                    help="transposition table bits per solve, or 'auto' (by position size)")
    ap.add_argument("--work-dir", metavar="DIR",
                    help="keep the checkpoints in DIR/OUT.parts (default: a folder of the "
                         "user cache, ~/.cache/tarock-solver/labels/)")
    ap.add_argument("--restart", action="store_true",
                    help="discard existing checkpoints and the rows of an existing OUT")
    ap.add_argument("--keep-parts", action="store_true",
                    help="keep the checkpoints after the output is written")
    ap.add_argument("--assemble-to", metavar="PATH",
                    help="only write the finished chunks of OUT's run to PATH")
    args = ap.parse_args(argv)
    try:
        if args.assemble_to:
            n = assemble(args.out, args.assemble_to, work_dir=args.work_dir)
            print(f"{n} labelled positions written to {args.assemble_to}")
            return 0
        command = f"{COMMAND} " + " ".join(sys.argv[1:] if argv is None else argv)
        tt_bits: int | str = args.tt_bits if args.tt_bits == "auto" else int(args.tt_bits)
        print(f"checkpoints: {checkpoint_dir(args.out, args.work_dir)}", file=sys.stderr)
        done = generate(args.seed, args.kind, args.count, args.out, start=args.start,
                        chunk_size=args.chunk_size, tt_bits=tt_bits, restart=args.restart,
                        keep_parts=args.keep_parts, work_dir=args.work_dir, command=command,
                        log=sys.stderr, objective=args.objective)
    except (CheckpointError, RulesError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    print(f"{'done' if done else 'stopped'}: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
