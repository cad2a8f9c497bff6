"""Review of a played deal: the double-dummy cost of every card (``tarock review``).

* :mod:`.record` — the :class:`PlayRecord` model and :func:`check_record`, which plays a
  record card by card against the rules of play;
* :mod:`.text` — the play-record notation (NOTATION.md section 8): lenient in,
  canonical out;
* :mod:`.files` — JSON Lines and CSV files of records, for batches;
* :mod:`.engine` — :func:`review`: every card's value before and after, its best
  alternatives and its loss, and the exchange against the best one;
* :mod:`.report` — per-player totals, the JSON document and its reader, the batch rows;
* :mod:`.plot` — the picture of the declarer's value card by card (matplotlib).
"""

from .record import PlayLine, PlayRecord, PlayRecordError, Trick, check_record
from .text import format_play, format_record, parse_play, parse_record

__all__ = ["PlayLine", "PlayRecord", "PlayRecordError", "Trick", "check_record", "format_play",
           "format_record", "parse_play", "parse_record"]
