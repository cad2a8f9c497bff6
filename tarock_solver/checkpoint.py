"""Checkpoints of a resumable run: one file per finished chunk in ``OUT.parts/``, written atomically.

Shared by the analyses that run in chunks (``tarock batch``, the evaluator's label runs).
Layout of ``OUT.parts/`` (:class:`Checkpoint`):

* ``manifest.json`` — the run's key (hashed from the input file's bytes, the settings
  that change the output, the chunk size and the program version) and ``node_limits``;
* ``chunk-000042.pkl`` — the payload of chunk 42, a plain dict of the analysis's own;
* ``.lock`` — held (``flock``) while a run writes here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from . import __version__
from .errors import TarockError

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "CheckpointError", "atomic_write",
           "checkpoint_key", "parts_dir"]

CHECKPOINT_FORMAT = 1
MANIFEST = "manifest.json"
_LOCK = ".lock"
_CHUNK_RE = re.compile(r"^chunk-(\d{6,})\.pkl$")
_TMP_MARK = ".tmp-"

#: How a manifest field is named to the user when two runs differ in it.
_FIELD_NAMES = {"mode": "--mode", "rules": "--rules", "opts": "--opt",
                "contracts": "--contract", "declarers": "--declarer", "timing": "--no-timing",
                "samples": "--samples", "seed": "--seed", "node_limit": "--node-limit"}


class CheckpointError(TarockError):
    """Checkpoints that cannot be used: of another run, locked, damaged.  The CLI shows
    the message and exits with status 2; checkpoints already written are kept."""


def parts_dir(output: str | os.PathLike[str]) -> Path:
    """The checkpoint directory of an output file: ``OUT.parts`` beside it."""
    out = Path(output)
    return out.with_name(out.name + ".parts")


def checkpoint_key(manifest: dict[str, Any]) -> str:
    """Hash of everything in a manifest that decides the contents of a chunk."""
    fields = {k: manifest[k] for k in ("format", "version", "input_sha256", "chunk_size",
                                       "settings")}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not possible (nor needed) on every platform.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(path: Path, write: Any, *, binary: bool = True) -> None:
    """Write ``path`` through ``write(handle)`` to a temporary file, then rename it.

    The temporary file sits in the same directory (a rename across file systems is not
    atomic) and keeps the final suffix, so format-by-extension writers see the same
    name ending.  On any error the temporary file is removed and ``path`` is untouched.
    """
    tmp = path.with_name(f".{path.stem}{_TMP_MARK}{os.getpid()}{path.suffix}")
    mode = "wb" if binary else "w"
    kwargs: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": ""}
    try:
        with open(tmp, mode, **kwargs) as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _describe_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out: list[str] = []
    if old.get("input_sha256") != new.get("input_sha256"):
        out.append("the input file has changed since the checkpoints were written")
    if old.get("chunk_size") != new.get("chunk_size"):
        out.append(f"--chunk-size differs ({old.get('chunk_size')} then, "
                   f"{new.get('chunk_size')} now)")
    if old.get("version") != new.get("version"):
        out.append(f"the program version differs ({old.get('version')} then, "
                   f"{new.get('version')} now)")
    if old.get("format") != new.get("format"):
        out.append("the checkpoint format differs")
    old_s, new_s = old.get("settings") or {}, new.get("settings") or {}
    for key in sorted(set(old_s) | set(new_s)):
        if old_s.get(key) != new_s.get(key):
            name = _FIELD_NAMES.get(key, key)
            out.append(f"{name} differs ({_show(old_s.get(key))} then, "
                       f"{_show(new_s.get(key))} now)")
    return out or ["the checkpoint key differs"]


def _show(value: Any) -> str:
    if value is None:
        return "all"
    if isinstance(value, list):
        return ",".join("=".join(map(str, v)) if isinstance(v, list) else str(v)
                        for v in value) or "none"
    return str(value)


class Checkpoint:
    """The checkpoint directory of one run, opened for reading and writing.

    Use :meth:`open`; it creates the directory or checks that an existing one belongs
    to this run, and holds the lock until :meth:`close`.
    """

    def __init__(self, directory: Path, manifest: dict[str, Any], lock: IO[bytes] | None,
                 command: str = "tarock batch") -> None:
        self.directory = directory
        #: The command that writes here, named when another run holds the lock.
        self.command = command
        self.manifest = manifest
        self.key: str = manifest["key"]
        self._lock = lock

    # -- opening ------------------------------------------------------------

    @staticmethod
    def make_manifest(*, input_path: Path, input_sha256: str, chunk_size: int, chunks: int,
                      records: int, settings: dict[str, Any]) -> dict[str, Any]:
        manifest: dict[str, Any] = {
            "format": CHECKPOINT_FORMAT, "program": "tarock-solver", "version": __version__,
            "input": str(input_path), "input_sha256": input_sha256, "chunk_size": chunk_size,
            "chunks": chunks, "records": records, "settings": settings,
        }
        manifest["key"] = checkpoint_key(manifest)
        manifest["created"] = datetime.now(UTC).isoformat(timespec="seconds")
        return manifest

    @classmethod
    def open(cls, directory: Path, manifest: dict[str, Any], *, restart: bool = False,
             command: str = "tarock batch") -> Checkpoint:
        """Open ``directory`` for the run described by ``manifest``.

        Existing checkpoints of the same run are kept (the run resumes); checkpoints of
        a different run raise :class:`CheckpointError` unless ``restart`` discards them.
        """
        if directory.exists() and not directory.is_dir():
            raise CheckpointError(f"{directory} exists and is not a directory; remove it or choose "
                             f"another output name.")
        directory.mkdir(parents=True, exist_ok=True)
        lock = cls._acquire_lock(directory, command)
        try:
            if restart:
                cls._clear(directory)
            existing = cls._read_manifest(directory)
            if existing is None:
                if any(cls._chunk_files(directory)):
                    raise CheckpointError(f"{directory} holds chunk files but no {MANIFEST}; it "
                                     f"cannot be resumed safely. Add --restart to discard it.")
                atomic_write(directory / MANIFEST, lambda h: h.write(
                    json.dumps(manifest, indent=2, sort_keys=True) + "\n"), binary=False)
            elif existing.get("key") != manifest["key"]:
                reasons = "; ".join(_describe_differences(existing, manifest))
                raise CheckpointError(
                    f"{directory} holds checkpoints of a different run ({reasons}). Run the "
                    f"same command as before to resume it, or add --restart to discard the "
                    f"checkpoints and start again.")
            else:
                manifest = existing
            cls._remove_temporaries(directory)
        except BaseException:
            lock.close()
            raise
        return cls(directory, manifest, lock, command)

    @staticmethod
    def _acquire_lock(directory: Path, command: str) -> IO[bytes]:
        # flock: the kernel drops the lock when the process dies, so a killed run never
        # leaves a stale lock behind.
        handle = open(directory / _LOCK, "ab")  # noqa: SIM115 — held until close()
        try:
            import fcntl
        except ImportError:  # not POSIX: no advisory locks; running twice is the user's risk
            return handle
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise CheckpointError(f"{directory} is in use by another running `{command}`; wait "
                             f"for it to finish or stop it first.") from None
        return handle

    @staticmethod
    def _read_manifest(directory: Path) -> dict[str, Any] | None:
        path = directory / MANIFEST
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CheckpointError(f"{path} cannot be read ({exc}); add --restart to discard the "
                             f"checkpoints.") from None
        if not isinstance(data, dict) or "key" not in data:
            raise CheckpointError(f"{path} is not a checkpoint manifest; add --restart to discard the "
                             f"checkpoints.")
        return data

    @staticmethod
    def _chunk_files(directory: Path) -> list[tuple[int, Path]]:
        found = []
        for entry in directory.iterdir():
            match = _CHUNK_RE.match(entry.name)
            if match:
                found.append((int(match.group(1)), entry))
        return sorted(found)

    @classmethod
    def _clear(cls, directory: Path) -> None:
        for entry in directory.iterdir():
            if entry.name == _LOCK:
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    @staticmethod
    def _remove_temporaries(directory: Path) -> None:
        # Left by a run killed in the middle of a write; never complete, never needed.
        for entry in directory.iterdir():
            if _TMP_MARK in entry.name:
                with contextlib.suppress(OSError):
                    entry.unlink()

    # -- node budgets -------------------------------------------------------

    def note_node_limit(self, node_limit: int | None) -> bool:
        """Record that this run uses ``node_limit``; True if an earlier run used a
        smaller one (so checkpointed rows over budget may now be solvable).

        The node budget is not part of the run's key; the manifest's ``node_limits``
        lists the budgets runs have used here."""
        used = list(self.manifest.get("node_limits", []))
        # JSON has no infinity: None (no budget) is the largest budget of all.
        smaller = any(u is not None and (node_limit is None or u < node_limit) for u in used)
        if node_limit not in used:
            self.manifest = {**self.manifest, "node_limits": [*used, node_limit]}
            manifest = self.manifest
            atomic_write(self.directory / MANIFEST, lambda h: h.write(
                json.dumps(manifest, indent=2, sort_keys=True) + "\n"), binary=False)
        return smaller

    # -- chunks -------------------------------------------------------------

    def chunk_path(self, index: int) -> Path:
        return self.directory / f"chunk-{index:06d}.pkl"

    def done(self) -> set[int]:
        """Indexes of the chunks that are finished."""
        return {index for index, _ in self._chunk_files(self.directory)}

    def save(self, index: int, payload: dict[str, Any]) -> None:
        """Store a finished chunk's payload (atomically), stamped with this run's key.

        For a batch run the payload is the chunk's rows as a pandas DataFrame, failed
        records, timing, and the node budget its rows were solved with.  Pickle stores a
        DataFrame losslessly (dtypes, nulls, exact floats), which is what makes the
        merged output of a resumed run byte-identical.  The file is written to a
        temporary name, flushed to disk and renamed over the final name, so a run killed
        at any moment (even by SIGKILL) leaves either the whole file or none; a chunk
        that a later run computes again is replaced the same way.
        """
        stamped = {**payload, "key": self.key, "index": index}
        atomic_write(self.chunk_path(index),
                     lambda h: pickle.dump(stamped, h, protocol=pickle.HIGHEST_PROTOCOL))

    def load(self, index: int) -> dict[str, Any]:
        """A finished chunk's payload; :class:`CheckpointError` if its file is damaged or
        foreign."""
        path = self.chunk_path(index)
        try:
            with open(path, "rb") as handle:
                payload = pickle.load(handle)
        except Exception as exc:  # noqa: BLE001 — any unpickling failure means "damaged"
            raise CheckpointError(f"checkpoint {path} cannot be read ({type(exc).__name__}: {exc}); "
                             f"delete that file and run again to recompute the chunk.") from None
        if not isinstance(payload, dict) or payload.get("key") != self.key \
                or payload.get("index") != index:
            raise CheckpointError(f"checkpoint {path} belongs to another run; delete it and run "
                             f"again to recompute the chunk.")
        return payload

    # -- closing ------------------------------------------------------------

    def close(self) -> None:
        """Release the lock (the checkpoints stay)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def remove(self) -> None:
        """Delete the whole directory (after the final output has been written)."""
        self.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
