"""Click parameter types shared by the commands.

:class:`Seconds` reads a time limit.  ``float()`` accepts ``nan`` and ``inf``, and
``nan`` passes every range check (each comparison with it is false), so a plain
``FloatRange`` let ``--time-limit nan`` through to run without any limit.
"""

from __future__ import annotations

import math

import click

__all__ = ["Seconds"]


class Seconds(click.ParamType):
    """A finite number of seconds > 0 (or ≥ 0 with ``zero_means``, which says what 0 does)."""

    name = "seconds"

    def __init__(self, zero_means: str | None = None) -> None:
        self.zero_means = zero_means

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            try:
                number = float(text)
            except ValueError:
                self.fail(f'"{value}" is not a number of seconds; give e.g. 60 or 0.5.',
                          param, ctx)
        lowest = "0 or more" if self.zero_means else "more than 0"
        if not math.isfinite(number):
            self.fail(f'"{value}" is not a number of seconds: give a finite number, '
                      f"{lowest}.", param, ctx)
        if number < 0 or (number == 0 and not self.zero_means):
            hint = f" (0: {self.zero_means})" if self.zero_means else ""
            self.fail(f"{number:g} seconds: give {lowest}{hint}.", param, ctx)
        return number
