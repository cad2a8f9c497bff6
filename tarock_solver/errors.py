"""User-facing errors.  The CLI turns every :class:`TarockError` into one clear
message and exit status 2 (no traceback unless ``--debug``)."""

from __future__ import annotations


class TarockError(Exception):
    """Base class for errors caused by user input; ``str(err)`` is the message to show."""


class NotationError(TarockError, ValueError):
    """A card, hand or deal string that cannot be read."""


class DealError(TarockError, ValueError):
    """A deal that is readable but invalid (card counts, duplicates, missing cards)."""


class RulesError(TarockError, ValueError):
    """An unknown rule profile, option key or option value, or an impossible scenario."""


class FileFormatError(TarockError, ValueError):
    """A bad record in a deal or results file; carries file name and line number."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 record_id: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.record_id = record_id
