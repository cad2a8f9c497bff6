"""Errors of a batch run as a whole (as opposed to one bad record)."""

from __future__ import annotations

from ..errors import TarockError

__all__ = ["BatchError"]


class BatchError(TarockError):
    """A run that cannot start or go on: checkpoints of another run, a locked output,
    an output format that is not available, a worker that died.  The CLI shows the
    message and exits with status 2; checkpoints already written are kept."""
