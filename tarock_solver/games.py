"""The games the package serves, by name: the seam every command dispatches on.

Illustrated Tarock (54 cards, three players) is the package's top-level modules;
French Tarot (78 cards, four players by default) is :mod:`tarock_solver.french`.
Each game keeps its own pack, rules and profiles, scoring, notation and trick rules;
the budget and result types, the batch runner and the bench reports are shared.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

__all__ = ["GAMES", "Game", "game_named"]


@dataclass(frozen=True)
class Game:
    """One game: its ``--game`` name, its title and its default rule profile."""

    name: str
    title: str
    default_rules: str
    profiles: tuple[str, ...]


ILLUSTRATED = Game("illustrated", "Illustrated Tarock", "dummett",
                   ("dummett", "beck", "ms2016", "loew"))
FRENCH = Game("french", "French Tarot", "fft", ("fft",))

GAMES: dict[str, Game] = {g.name: g for g in (ILLUSTRATED, FRENCH)}


def game_named(name: str) -> Game:
    """The game called ``name``; RulesError naming the games otherwise."""
    key = name.strip().lower()
    if key not in GAMES:
        raise RulesError(f'unknown game "{name}": expected one of {", ".join(GAMES)}')
    return GAMES[key]
