"""The analysis of a played deal: the double-dummy value and the loss of every card.

:func:`review` / :func:`review_line` search every card's position of a checked record
(:class:`CardVerdict`, in card points and, with game points on, net game points) and
judge the exchange (:func:`judge_exchange`); :func:`estimate_line` is the learned
evaluator's instant first view of the same line, which judges nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..analysis.options import PlayOption, best_play, order_options, play_options
from ..cards import bit, thirds_of
from ..play import LEADER, N_TRICKS, trick_points
from ..rules import Rules
from ..solver import Budget, CardPointSearch, GamePointSearch, Position, make_payoff
from .record import PlayLine, PlayRecord, check_record

__all__ = ["CardVerdict", "EstimatedStep", "ExchangeVerdict", "Review", "estimate_line",
           "judge_exchange", "played_thirds", "review", "review_line"]

#: How many alternatives to the played card a verdict lists.
N_ALTERNATIVES = 3


@dataclass(frozen=True)
class CardVerdict:
    """One card of the record and what double-dummy play says of it.

    ``values`` maps every legal card to the bounds ``(lower, upper)`` of the
    declarer's future card points after it (equal: exact).  ``base_thirds`` is the
    declarer's pile before the card (discard and tricks won).  ``before`` is the value
    of the position (the best legal card), ``after`` the played card's value, ``loss``
    the difference from the mover's side, in whole card points; all three None when a
    budget left the values open.  ``gp_*`` are the same in net game points (None
    without game points).
    """

    trick: int
    place: int
    seat: int
    card: int
    declarer: int
    values: dict[int, tuple[int, int]]
    base_thirds: int
    before: int | None
    after: int | None
    loss: int | None
    gp_values: dict[int, tuple[int, int]] | None = None
    gp_before: int | None = None
    gp_after: int | None = None
    gp_loss: int | None = None

    @property
    def by_declarer(self) -> bool:
        return self.seat == self.declarer

    @property
    def exact(self) -> bool:
        return self.loss is not None

    @property
    def forced(self) -> bool:
        """Only one legal card (or only equivalent ones: every card had the same value)."""
        return len(self.values) == 1

    @property
    def before_thirds(self) -> int | None:
        """The declarer's total in thirds under best play from before this card."""
        return None if self.before is None else self.base_thirds + 3 * self.before

    @property
    def after_thirds(self) -> int | None:
        """The declarer's total in thirds under best play after this card."""
        return None if self.after is None else self.base_thirds + 3 * self.after

    def ranked(self) -> list[tuple[int, int]]:
        """``(card, value)`` of the exact values, best for the mover first (ties by card)."""
        sign = -1 if self.by_declarer else 1
        exact = [(c, lo) for c, (lo, hi) in self.values.items() if lo == hi]
        return sorted(exact, key=lambda cv: (sign * cv[1], cv[0]))

    @property
    def best_cards(self) -> tuple[int, ...]:
        """Every card with the best value (empty when the values are open)."""
        if self.before is None:
            return ()
        return tuple(c for c, v in self.ranked() if v == self.before)

    @property
    def alternatives(self) -> tuple[tuple[int, int], ...]:
        """Up to three other cards, best first, with their values."""
        return tuple((c, v) for c, v in self.ranked() if c != self.card)[:N_ALTERNATIVES]


@dataclass(frozen=True)
class ExchangeVerdict:
    """The chosen exchange against the best of the contract on the same deal (thirds).

    ``best_*`` name the best exchange found (the chosen one when none beats it);
    ``loss_thirds`` is best − chosen.  With ``complete`` False a budget ran out: the
    best total lies in ``lower_thirds`` … ``upper_thirds`` and the loss is None.
    """

    chosen_group: str
    chosen_discard: int
    chosen_thirds: int | None
    best_group: str
    best_discard: int
    best_thirds: int | None
    complete: bool
    lower_thirds: int | None
    upper_thirds: int | None
    options: int

    @property
    def loss_thirds(self) -> int | None:
        if not self.complete or self.best_thirds is None or self.chosen_thirds is None:
            return None
        return self.best_thirds - self.chosen_thirds


@dataclass(frozen=True)
class Review:
    """A reviewed record: a :class:`CardVerdict` per card played, the exchange verdict
    (None in Solo or when not asked for), the declarer's total under best play from the
    start (``start_thirds``) and as played out (``final_thirds``: the tricks he won, and
    best play from where the record stops), and the work done."""

    record: PlayRecord
    rules: str
    cards: tuple[CardVerdict, ...]
    exchange: ExchangeVerdict | None
    start_thirds: int | None
    final_thirds: int | None
    game_points: bool
    start_net: int | None = None
    final_net: int | None = None
    complete: bool = True
    seconds: float = 0.0
    nodes: int = 0
    win_thirds: int = 107
    meta: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def exact(self) -> bool:
        """Every verdict (and the exchange's) is exact."""
        return all(c.exact for c in self.cards) and (
            self.exchange is None or self.exchange.complete)


def _bounds(result: dict[int, object]) -> dict[int, tuple[int, int]]:
    return {c: (r.lower, r.upper) for c, r in result.items()}  # type: ignore[attr-defined]


def _verdict_values(values: dict[int, tuple[int, int]], card: int, maximise: bool
                    ) -> tuple[int | None, int | None, int | None]:
    """(before, after, loss) when every value is exact; else the played card's exact
    value if it has one and no verdict."""
    after = values[card][0] if values[card][0] == values[card][1] else None
    if any(lo != hi for lo, hi in values.values()):
        return None, after, None
    pick = max if maximise else min
    before = pick(lo for lo, _ in values.values())
    assert after is not None
    return before, after, (before - after) if maximise else (after - before)


def _game_point_search(line: PlayLine, rules: Rules) -> tuple[GamePointSearch, Position]:
    rec = line.record
    payoff = make_payoff(rules, rec.contract, rec.declarer, line.hands,
                         base_thirds=line.base_thirds, announcements=rec.announced,
                         valat_open=True, declarer_hand=line.hands[rec.declarer],
                         dealt=rec.deal.hands)
    gsearch = GamePointSearch(payoff, rules=rules)
    return gsearch, gsearch.position(line.hands, 0)


def judge_exchange(line: PlayLine, rules: Rules, search: CardPointSearch,
                   chosen_value: int | None, budget: Budget | None = None
                   ) -> ExchangeVerdict | None:
    """The exchange of ``line`` against the best exchange of its contract (None in Solo).

    The chosen talon group and discard are judged on the same deal against
    :func:`~tarock_solver.analysis.options.best_play`, the chosen exchange searched
    first so that its value is the bar the others must beat.

    ``chosen_value`` is the chosen exchange's play value (future points at trick 1),
    when already known: it is then the first option's value, found in the table.
    Exchanges are compared in card points with no bird kept back, as ``tarock solve``'s
    table does: with an announced bird under ``bird_reserve`` the chosen exchange's
    value here can differ from the review's start value, which keeps the bird back.
    """
    rec = line.record
    if rec.contract == "solo":
        return None
    seat = rec.declarer
    chosen = PlayOption(line.hands[seat], line.base_thirds)
    others = [o for o in order_options(play_options(rec.deal, seat, rec.contract, rules))
              if o.hand != chosen.hand]
    result = best_play(search, [chosen, *others], line.hands, seat, budget=budget)
    first = result.outcomes[0]
    chosen_thirds = first.thirds
    if chosen_thirds is None and chosen_value is not None:
        chosen_thirds = line.base_thirds + 3 * chosen_value
    best = result.best
    ex = best.option.exchange if best is not None else None
    if best is not None and ex is None:  # the chosen exchange is (among) the best
        group, discard = rec.talon_pick, rec.discard
    elif ex is not None:
        group, discard = ex.group_label, ex.discard
    else:
        group, discard = "", 0
    return ExchangeVerdict(
        chosen_group=rec.talon_pick, chosen_discard=rec.discard, chosen_thirds=chosen_thirds,
        best_group=group, best_discard=discard,
        best_thirds=best.thirds if best is not None and result.complete else None,
        complete=result.complete, lower_thirds=result.lower_thirds,
        upper_thirds=result.upper_thirds, options=len(others) + 1)


def review_line(line: PlayLine, rules: Rules, *, search: CardPointSearch | None = None,
                budget: Budget | None = None, game_points: bool | None = None,
                exchange: bool = True,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Review a checked record: the value of every card's position and the loss of every card.

    The position where each card was played is searched once with
    :meth:`CardPointSearch.card_values`: the value of every legal card of the player
    to move, equivalent cards searched once, on one table that carries over from card
    to card (each position lies on the line of the previous one, so most of its
    subtrees are already in the table).  A search value is the declarer's *future*
    card points (whole points: nominal sum − 2 per trick, the current trick
    included); his total is ``declarer thirds = discard thirds + 3 × (points of the
    tricks he has won + value)``, the quantity ``tarock solve`` reports
    (``declarer_thirds``, rounded ``P``).  The loss of a card is, from the side of
    the player who played it, the best legal card's value minus the played card's
    value: whole card points, never negative (the declarer maximises, the defenders
    minimise).  With game points on, the same is done for the declarer's net game
    points (:class:`GamePointSearch` with the record's announcements), reported
    beside the loss in card points.  A card whose values the budget does not settle
    gets bounds and no verdict (``loss`` None), never a midpoint.

    ``search`` supplies the card-point table (reuse one across records: entries are
    keyed on the whole position); ``budget`` caps each position's search;
    ``game_points`` (default: when the record announces something) adds the net game
    points; ``exchange`` judges the talon exchange; ``progress(done, total)`` is called
    after each card.
    """
    t0 = time.perf_counter()
    rec = line.record
    search = search if search is not None else CardPointSearch()
    nodes0 = search.stats.nodes
    gp = bool(rec.announcements) if game_points is None else bool(game_points)
    gp_steps: list[dict[int, object]] | None = None
    gp_start: int | None = None
    if gp:
        gsearch, groot = _game_point_search(line, rules)
        if rec.play:
            gp_steps = gsearch.line_card_values(groot, rec.play, budget)  # type: ignore[assignment]
        else:
            res = gsearch.solve(groot, budget)
            gp_start = res.value if res.exact else None

    hands = list(line.hands)
    decl = rec.declarer
    banked = 0
    verdicts: list[CardVerdict] = []
    total = len(rec.play)
    pos: Position | None = Position(hands, LEADER, decl, birds=line.reserved)
    for trick in line.tricks:
        for k, card in enumerate(trick.cards):
            assert pos is not None
            values = _bounds(search.card_values(pos, budget))
            seat = pos.mover
            before, after, loss = _verdict_values(values, card, seat == decl)
            g_values = g_before = g_after = g_loss = None
            if gp_steps is not None:
                g_values = _bounds(gp_steps[len(verdicts)])
                g_before, g_after, g_loss = _verdict_values(g_values, card, seat == decl)
            verdicts.append(CardVerdict(
                trick=trick.number, place=k, seat=seat, card=card, declarer=decl,
                values=values, base_thirds=line.base_thirds + 3 * banked, before=before,
                after=after, loss=loss, gp_values=g_values, gp_before=g_before,
                gp_after=g_after, gp_loss=g_loss))
            pos, gained = pos.play(card)
            banked += gained
            if progress is not None:
                progress(len(verdicts), total)

    start_thirds: int | None
    if verdicts:
        start_thirds = verdicts[0].before_thirds
        start_value = verdicts[0].before
    else:
        res = search.value(Position(hands, LEADER, decl, birds=line.reserved), budget)
        start_value = res.value if res.exact else None
        start_thirds = None if start_value is None else line.base_thirds + 3 * start_value
    if pos is None:
        final_thirds: int | None = line.base_thirds + 3 * banked
    else:
        res = search.value(pos, budget)
        final_thirds = line.base_thirds + 3 * (banked + res.value) if res.exact else None
    start_net = verdicts[0].gp_before if verdicts and gp else gp_start
    final_net = verdicts[-1].gp_after if verdicts and gp else gp_start
    verdict = judge_exchange(line, rules, search, start_value, budget) if exchange else None
    return Review(record=rec, rules=rules.name, cards=tuple(verdicts), exchange=verdict,
                  start_thirds=start_thirds, final_thirds=final_thirds, game_points=gp,
                  start_net=start_net, final_net=final_net, complete=line.complete,
                  seconds=time.perf_counter() - t0, nodes=search.stats.nodes - nodes0,
                  win_thirds=rules.win_thirds)


def review(record: PlayRecord, rules: Rules, **kwargs: object) -> Review:
    """Check ``record`` (:func:`~.record.check_record`) and review it (:func:`review_line`)."""
    return review_line(check_record(record, rules), rules, **kwargs)  # type: ignore[arg-type]


def played_thirds(line: PlayLine) -> int:
    """The declarer's pile from the record alone: discard plus the tricks he won."""
    decl = line.record.declarer
    return line.base_thirds + sum(thirds_of(sum(bit(c) for c in t.cards))
                                  for t in line.tricks if t.winner == decl)


@dataclass(frozen=True)
class EstimatedStep:
    """The learned evaluator's view at the start of one trick of the played line: the
    declarer's estimated total (discard, tricks won so far and the estimate of the
    rest), in card points; after the last trick, his actual total."""

    trick: int
    points: float


def estimate_line(line: PlayLine) -> tuple[EstimatedStep, ...]:
    """The evaluator's estimate of the declarer's total before each trick of ``line``
    (and the actual total after the 16th; where a record stops after a whole trick, the
    estimate before the next): an instant first view, microseconds a
    position, that shows roughly where the game turned before the exact review is done.
    Estimates, not verdicts (docs/EVALUATOR.md: about 2.3 card points off on average).
    """
    import numpy as np

    from ..estimate import estimate_many

    decl = line.record.declarer
    hands = list(line.hands)
    rows, leaders, banked = [], [], []
    won = 0
    leader = LEADER
    for trick in line.tricks:
        rows.append(tuple(hands))
        leaders.append(leader)
        banked.append(won)
        if trick.winner is None:
            break
        for k, c in enumerate(trick.cards):
            hands[trick.seat_of(k)] &= ~bit(c)
        if trick.winner == decl:
            won += trick_points(trick.cards)
        leader = trick.winner
    else:
        if any(hands):  # the record stops after a whole trick: the position it leaves
            rows.append(tuple(hands))
            leaders.append(leader)
            banked.append(won)
    est = estimate_many(np.array(rows, dtype=np.uint64), np.array(leaders, dtype=np.int64),
                        decl) if rows else np.zeros(0)
    out = [EstimatedStep(t + 1, (line.base_thirds + 3 * (banked[t] + float(est[t]))) / 3)
           for t in range(len(rows))]
    if line.complete:
        out.append(EstimatedStep(N_TRICKS + 1, (line.base_thirds + 3 * won) / 3))
    return tuple(out)
