"""Card tokens of both games: reading one token or a list of them into card indices.

Each game's notation module knows its own spellings (a function from a token to its
card index, or to the message saying what is wrong); these functions turn that into
the :class:`~tarock_solver.errors.NotationError` of one token, or of every bad token
of a list at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .errors import NotationError, Problem, make_error

__all__ = ["CardOrProblem", "card_of_token", "cards_of_tokens"]

#: ``(token, where) →`` the card index, or the message naming what is wrong.
CardOrProblem = Callable[[str, str], int | str]


def card_of_token(card_or_problem: CardOrProblem, token: str | int, where: str) -> int:
    """The card index of one token; :class:`NotationError` if it is not a card."""
    result = card_or_problem(str(token), where)
    if isinstance(result, str):
        raise make_error(NotationError, [Problem(result)])
    return result


def cards_of_tokens(card_or_problem: CardOrProblem, tokens: Iterable[str | int],
                    where: str) -> list[int]:
    """The card indices of several tokens, in order, duplicates kept; one
    :class:`NotationError` names every bad token."""
    cards: list[int] = []
    problems: list[Problem] = []
    for token in tokens:
        result = card_or_problem(str(token), where)
        if isinstance(result, str):
            problems.append(Problem(result))
        else:
            cards.append(result)
    if problems:
        raise make_error(NotationError, problems)
    return cards
