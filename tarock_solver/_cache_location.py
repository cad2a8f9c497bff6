"""Where numba keeps this package's compiled kernels when the package is installed.

In a source checkout numba's default is kept: the kernels' ``__pycache__`` folders.
An installed copy (under ``site-packages``) uses a user cache folder instead,
because pip removes only the files it installed: numba's cache files would survive
``pip uninstall`` and leave a ``tarock_solver`` folder without ``__init__.py`` in
``site-packages`` — an empty namespace package that Python then finds before a
later editable install of the project, so that ``tarock`` fails on import.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["installed_cache_dir", "user_cache_dir"]

#: Folder names of installed packages.
_INSTALL_DIRS = ("site-packages", "dist-packages")


def user_cache_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The user's cache folder: ``%LOCALAPPDATA%`` on Windows, else ``$XDG_CACHE_HOME``
    or ``~/.cache``."""
    if platform.startswith("win") and environ.get("LOCALAPPDATA"):
        return Path(environ["LOCALAPPDATA"])
    if environ.get("XDG_CACHE_HOME"):
        return Path(environ["XDG_CACHE_HOME"])
    return Path(environ.get("HOME") or Path.home()) / ".cache"


def installed_cache_dir(package_dir: str | os.PathLike[str], environ: Mapping[str, str],
                        platform: str = sys.platform) -> str | None:
    """numba's cache folder for a package at ``package_dir``, or None to keep numba's
    default: a checkout, or a cache folder the user chose (``NUMBA_CACHE_DIR``).

    Installed: ``$XDG_CACHE_HOME/tarock-solver/numba`` (``~/.cache`` without it;
    ``%LOCALAPPDATA%`` on Windows).  numba files each source folder's cache under a
    hash of its path there, so two installs never share entries; where that folder
    cannot be written numba falls back to its default by itself."""
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    if not any(part in _INSTALL_DIRS for part in Path(package_dir).parts):
        return None
    return str(user_cache_dir(environ, platform) / "tarock-solver" / "numba")
