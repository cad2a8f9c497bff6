"""Output files of every command, checked before any work starts.

A run that finds out at its end that it cannot write its result has lost the work,
so each command passes every file it will write through :func:`check_output` first.
One rule holds for all commands: the directory must already exist (nothing creates
directories behind the user's back), the name must end in a type the command writes,
and a file must be creatable there.  A failure is one ``Error:`` line naming the
option, the path and the reason, with exit status 2.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

import click

__all__ = ["PLOT_SUFFIXES", "OutputPathError", "check_output"]

#: Figure types matplotlib writes without extra packages (its default backends).
PLOT_SUFFIXES: tuple[str, ...] = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps",
                                  ".tif", ".tiff", ".webp")


class OutputPathError(click.ClickException):
    """An output file that cannot be written; shown as one ``Error:`` line, exit 2."""

    exit_code = 2


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _probe_directory(directory: Path) -> None:
    """Create and remove a file in ``directory``: the only test that tells for root,
    read-only file systems and pseudo file systems (/proc, /sys) alike."""
    fd, name = tempfile.mkstemp(dir=directory, prefix=".tarock-write-test-")
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def check_output(path: str | os.PathLike[str], option: str, *,
                 suffixes: Iterable[str] | None = None) -> Path:
    """``path`` as a :class:`Path` if the command can write it; else :class:`OutputPathError`.

    ``option`` names where the path came from (``-o``, ``--csv``) for the message;
    ``suffixes`` (lower case, with the dot) are the file types the command writes.
    Nothing is left behind: an existing file is opened for appending without being
    changed, and the test file made in the directory is removed at once.
    """
    out = Path(path)

    def fail(reason: str) -> OutputPathError:
        return OutputPathError(f"{option} {out}: {reason}")

    if suffixes is not None:
        allowed = tuple(suffixes)
        suffix = out.suffix.lower()
        if suffix not in allowed:
            got = f"file type {suffix}" if suffix else "a name without a file type"
            raise fail(f"{got} is not written here; use {', '.join(allowed)}.")
    if str(path).strip() == "" or out.name in ("", ".", ".."):
        raise fail("not a file name.")
    parent = out.parent
    if not parent.exists():
        raise fail(f"the directory {parent} does not exist; create it first.")
    if not parent.is_dir():
        raise fail(f"{parent} is not a directory.")
    if out.is_dir():
        raise fail("is a directory; give a file name.")
    try:
        if out.exists():
            mode = out.stat().st_mode
            if stat.S_ISREG(mode):
                with open(out, "ab"):
                    pass
            elif not os.access(out, os.W_OK):
                raise PermissionError(13, "Permission denied")
        else:
            _probe_directory(parent)
    except OSError as exc:
        where = "the file" if out.exists() else f"files in {parent}"
        raise fail(f"cannot write {where} ({_reason(exc)}).") from None
    return out
