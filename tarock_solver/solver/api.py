"""Public entry points of the double-dummy solver.

A *position* is three hands (card masks in the NOTATION index layout; seats
0, 1, 2 = F, M, R), the seat who led the current trick, the cards already
played to it (0, 1 or 2; the hands no longer hold them), the declarer's seat
and the birds he announced (`bird_reserve`, RULES.md 3).  Positions are ends
of a 16-trick deal: the current trick is number 17 − (cards of its leader,
his card to this trick included).

The value of a position is the card points (nominal sum − 2 per trick) the
declarer takes from here on, the current trick included; he maximises it
and the two defenders minimise it.

:class:`Solver` owns a transposition table that stays valid across calls
(entries are keyed on the complete position, declarer and birds included),
so related searches — the discards of one talon, the worlds of one sample —
share work by using one ``Solver``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..cards import CARD_IDS, FULL_MASK, N_CARDS, bit
from ..errors import DealError, RulesError
from ..play import legal_moves, reserved_mask
from ._kernels import cardpoint as kernel
from ._kernels.play import BIRD_KAKADU, BIRD_PAGAT, BIRD_UHU
from ._kernels.table import new_table

#: Default transposition-table size: 2**21 rows of 64 bytes (128 MiB: 2**22 rank-only
#: entries, or 2**22 exact-key ones when birds are announced; see kernel.TT_COLUMNS).  Measured on full
#: deals: 2**22 rows save ~15% of the time of 2**20; small positions need far less.
DEFAULT_TT_BITS = 21
MIN_TT_BITS, MAX_TT_BITS = 10, 28
SEAT_NAMES = ("F", "M", "R")
_BIRD_BITS = {"pagat": BIRD_PAGAT, "uhu": BIRD_UHU, "kakadu": BIRD_KAKADU}


class Position(NamedTuple):
    """One position for :func:`solve_many` (same meaning as the arguments of
    :func:`solve_position`)."""

    hands: Sequence[int]
    leader: int
    declarer: int
    trick: Sequence[int] = ()
    restrictions: Iterable[str] | None = None


class NodeLimitExceeded(RuntimeError):
    """A search ran over the node budget of its :class:`Solver` (``max_nodes``)."""


@dataclass
class SolveStats:
    """Work done by a :class:`Solver` since it was created (or :meth:`Solver.reset_stats`)."""

    nodes: int = 0
    tt_hits: int = 0
    tt_cutoffs: int = 0
    bound_cutoffs: int = 0
    solves: int = 0
    seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass
class _Prepared:
    """A validated position as kernel arguments."""

    hands: np.ndarray
    leader: int
    tcards: np.ndarray
    ntrick: int
    declarer: int
    birds: int

    def args(self) -> tuple[Any, ...]:
        """The leading arguments shared by every kernel entry point."""
        return self.hands, self.leader, self.tcards, self.ntrick, self.declarer, self.birds


# ----------------------------------------------------------------- validation

def _card_name(c: int) -> str:
    return CARD_IDS[c]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _seat(value: Any, what: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise RulesError(f'{what} "{value}" is not a seat; expected 0, 1 or 2 (F, M, R)') from None
    if seat not in (0, 1, 2):
        raise RulesError(f"{what} {seat} is not a seat; expected 0, 1 or 2 (F, M, R)")
    return seat


def bird_bits(restrictions: Iterable[str] | None) -> int:
    """Kernel bird bits of announced birds ('pagat', 'uhu', 'kakadu')."""
    bits = 0
    if restrictions is None:
        return 0
    if isinstance(restrictions, str):
        restrictions = [restrictions]
    for name in restrictions:
        key = str(name).strip().lower()
        if key not in _BIRD_BITS:
            raise RulesError(f'unknown bird "{name}"; expected pagat, uhu or kakadu')
        bits |= _BIRD_BITS[key]
    return bits


def _bird_names(bits: int) -> tuple[str, ...]:
    return tuple(name for name, b in _BIRD_BITS.items() if bits & b)


def prepare(hands: Sequence[int], leader: int, declarer: int, *, trick: Sequence[int] = (),
            restrictions: Iterable[str] | None = None) -> _Prepared:
    """Check a position and convert it to kernel arguments.

    Raises :class:`DealError` for impossible card sets (overlaps, unknown
    cards, hand sizes that no 16-trick deal can reach) and :class:`RulesError`
    for bad seats, unknown birds and trick cards no legal play could produce.
    """
    if len(hands) != 3:
        raise DealError(f"a position needs 3 hands (F, M, R); found {len(hands)}")
    masks = []
    for s, h in enumerate(hands):
        try:
            m = int(h)
        except (TypeError, ValueError):
            raise DealError(f"hand {SEAT_NAMES[s]} is not a card mask: {h!r}") from None
        if m < 0 or m & ~FULL_MASK:
            raise DealError(f"hand {SEAT_NAMES[s]} has bits outside the 54 cards (0..53)")
        masks.append(m)
    leader = _seat(leader, "leader")
    declarer = _seat(declarer, "declarer")
    birds = bird_bits(restrictions)
    for a in range(3):
        for b in range(a + 1, 3):
            both = masks[a] & masks[b]
            if both:
                c = both.bit_length() - 1
                raise DealError(f"card {_card_name(c)} appears twice: in hand {SEAT_NAMES[a]} "
                                f"and in hand {SEAT_NAMES[b]}")
    trick = [int(c) for c in trick]
    if len(trick) > 2:
        raise DealError(f"the current trick may hold 0, 1 or 2 played cards; found {len(trick)} "
                        "(a complete trick belongs to the trick history)")
    for i, c in enumerate(trick):
        if not 0 <= c < N_CARDS:
            raise DealError(f"trick card {c} is not a card index; expected 0..53")
        if trick.index(c) != i:
            raise DealError(f"card {_card_name(c)} is played twice to the current trick")
        for s in range(3):
            if masks[s] & bit(c):
                raise DealError(f"card {_card_name(c)} is in the current trick and in hand "
                                f"{SEAT_NAMES[s]}")
    n = masks[leader].bit_count() + (1 if trick else 0)
    if n > 16:
        raise DealError(f"hand {SEAT_NAMES[leader]} has {_cards(n)}; a hand holds at most 16")
    for off in range(3):
        s = (leader + off) % 3
        want = n - 1 if off < len(trick) else n
        have = masks[s].bit_count()
        if have != want:
            raise DealError(
                f"hand {SEAT_NAMES[s]} has {_cards(have)}; with {SEAT_NAMES[leader]} leading "
                f"and {_cards(len(trick))} played to the current trick it needs {want}")
    # Every card of the current trick must have been a legal play.
    trick_no = 17 - n
    for off, c in enumerate(trick):
        s = (leader + off) % 3
        held = masks[s] | bit(c)
        reserved = reserved_mask(_bird_names(birds), trick_no) if s == declarer else 0
        led = trick[0] if off > 0 else None
        if not legal_moves(held, led, reserved) & bit(c):
            raise RulesError(f"card {_card_name(c)} played by {SEAT_NAMES[s]} to the current "
                             f"trick is not a legal play from that hand")
    tcards = np.zeros(3, dtype=np.int64)
    tcards[:len(trick)] = trick
    return _Prepared(np.array(masks, dtype=np.int64), leader, tcards, len(trick), declarer, birds)


def _check_tt_bits(tt_bits: int | None) -> int:
    if tt_bits is None:
        return DEFAULT_TT_BITS
    bits = int(tt_bits)
    if not MIN_TT_BITS <= bits <= MAX_TT_BITS:
        raise RulesError(f"tt_bits {tt_bits} is out of range; expected {MIN_TT_BITS}..{MAX_TT_BITS}")
    return bits


# ----------------------------------------------------------------- the solver object

class Solver:
    """A double-dummy solver with its own transposition table.

    The table survives between calls and stays valid for any position,
    declarer and bird set, so reuse one ``Solver`` for related searches.
    Not safe for concurrent use from several threads.
    """

    def __init__(self, tt_bits: int | None = None, *, max_nodes: int | None = None) -> None:
        self.tt_bits = _check_tt_bits(tt_bits)
        self.tt = new_table(self.tt_bits, kernel.TT_COLUMNS)
        self.stats = SolveStats()
        self._counters = np.zeros(kernel.NSTATS, dtype=np.int64)
        self.last_nodes = 0
        #: Node budget of one call (None: unlimited); over it, :class:`NodeLimitExceeded`.
        self.max_nodes = max_nodes

    def clear(self) -> None:
        """Empty the transposition table (never needed for correctness)."""
        self.tt.fill(0)

    def reset_stats(self) -> None:
        self.stats = SolveStats()

    def _run(self, call: Callable[[np.ndarray, np.ndarray], Any]) -> Any:
        """Run ``call(tt, counters)``, book its work, enforce the node budget."""
        c = self._counters
        c.fill(0)
        if self.max_nodes is not None:
            c[kernel.ST_LIMIT] = max(1, int(self.max_nodes))
        t0 = time.perf_counter()
        result = call(self.tt, c)
        dt = time.perf_counter() - t0
        self.last_nodes = int(c[kernel.ST_NODES])
        st = self.stats
        st.nodes += self.last_nodes
        st.tt_hits += int(c[kernel.ST_TT_HITS])
        st.tt_cutoffs += int(c[kernel.ST_TT_CUTS])
        st.bound_cutoffs += int(c[kernel.ST_QB_CUTS])
        st.solves += 1
        st.seconds += dt
        if c[kernel.ST_ABORTED]:
            # an aborted search stores nothing, so the table is still sound
            raise NodeLimitExceeded(
                f"search stopped after {self.last_nodes} nodes (max_nodes={self.max_nodes})")
        return result

    def value(self, hands: Sequence[int], leader: int, declarer: int, *,
              trick: Sequence[int] = (), restrictions: Iterable[str] | None = None) -> int:
        """Exact future card points of the declarer (MTD(f) over null-window tests)."""
        a = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions).args()
        return int(self._run(lambda tt, c: kernel.solve_exact(*a, tt, c)))

    def value_full_window(self, hands: Sequence[int], leader: int, declarer: int, *,
                          trick: Sequence[int] = (),
                          restrictions: Iterable[str] | None = None) -> int:
        """Exact value by a single full-window search (a cross-check of :meth:`value`)."""
        a = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions).args()
        return int(self._run(lambda tt, c: kernel.solve_window(*a, tt, c)))

    def reaches(self, hands: Sequence[int], leader: int, declarer: int, target: int, *,
                trick: Sequence[int] = (), restrictions: Iterable[str] | None = None) -> bool:
        """Does the declarer take at least ``target`` points?  (One null-window test.)"""
        a = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions).args()
        return bool(self._run(lambda tt, c: kernel.solve_target(*a, int(target), tt, c)))

    def card_values(self, hands: Sequence[int], leader: int, declarer: int, *,
                    trick: Sequence[int] = (),
                    restrictions: Iterable[str] | None = None) -> dict[int, int]:
        """Exact value of each legal card of the player to move (card index -> points).

        The value of a card is the declarer's future points, the current
        trick included, after that card is played and best play follows.
        """
        a = prepare(hands, leader, declarer, trick=trick, restrictions=restrictions).args()
        out = np.full(N_CARDS, -1, dtype=np.int64)
        self._run(lambda tt, c: kernel.card_values(*a, tt, c, out))
        return {int(card): int(out[card]) for card in np.flatnonzero(out >= 0)}


_default_solvers: dict[int, Solver] = {}


def default_solver(tt_bits: int | None = None) -> Solver:
    """The process-wide solver for ``tt_bits`` (created on first use, then reused)."""
    bits = _check_tt_bits(tt_bits)
    if bits not in _default_solvers:
        _default_solvers[bits] = Solver(bits)
    return _default_solvers[bits]


# ----------------------------------------------------------------- module functions

def solve_position(hands: Sequence[int], leader: int, declarer: int, *, target: int | None = None,
                   restrictions: Iterable[str] | None = None, trick: Sequence[int] = (),
                   tt_bits: int | None = None, stats: bool = False,
                   solver: Solver | None = None) -> int | bool | tuple[int | bool, int]:
    """Solve one position double-dummy.

    Returns the declarer's exact future card points, or with ``target`` a
    bool: does he take at least ``target``?  With ``stats=True`` returns
    ``(result, nodes searched)``.  ``solver`` (else a process-wide one with
    ``tt_bits``) supplies the transposition table.
    """
    slv = solver if solver is not None else default_solver(tt_bits)
    if target is None:
        result: int | bool = slv.value(hands, leader, declarer, trick=trick,
                                       restrictions=restrictions)
    else:
        result = slv.reaches(hands, leader, declarer, int(target), trick=trick,
                             restrictions=restrictions)
    return (result, slv.last_nodes) if stats else result


def solve_cards(hands: Sequence[int], leader: int, declarer: int, *,
                restrictions: Iterable[str] | None = None, trick: Sequence[int] = (),
                tt_bits: int | None = None, stats: bool = False,
                solver: Solver | None = None) -> dict[int, int] | tuple[dict[int, int], int]:
    """Value of each legal card of the player to move (card index -> declarer's points).

    Equivalent cards (same group and value, adjacent among the cards in play)
    are searched once and reported with the same value.  The best card for
    the mover is the max (declarer) or min (defender) of the values.
    """
    slv = solver if solver is not None else default_solver(tt_bits)
    values = slv.card_values(hands, leader, declarer, trick=trick, restrictions=restrictions)
    return (values, slv.last_nodes) if stats else values


def solve_many(positions: Iterable[Position | Sequence[Any]], *, threads: int | None = None,
               target: int | Sequence[int] | None = None, tt_bits: int | None = None,
               stats: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Solve many independent positions on all cores.

    Positions are :class:`Position` tuples (or plain tuples in the same
    order).  Position i is solved by worker ``i % threads`` (a numba
    ``prange`` over workers), each worker with its own transposition table
    of ``2**tt_bits`` rows, shared by all its positions.  Returns an int64
    array of exact values, or with ``target`` (one int, or one per position)
    a bool array; with ``stats=True`` also an int64 array of nodes.

    Unless ``NUMBA_THREADING_LAYER`` says otherwise, the workers run on
    numba's ``workqueue`` layer: with the OpenMP layer a process that forks
    after a parallel kernel ran kills its children (SOLVER_NOTES 2), and
    ``workqueue`` is fork-safe.  It is not safe to call this concurrently
    from several Python threads.
    """
    import numba

    if "NUMBA_THREADING_LAYER" not in os.environ:
        # only effective before numba's first parallel launch in the process
        numba.config.THREADING_LAYER = "workqueue"

    preps = []
    for p in positions:
        args, kwargs = _position_args(p)
        preps.append(prepare(*args, **kwargs))
    n = len(preps)
    nthreads = numba.get_num_threads() if threads is None else int(threads)
    if nthreads < 1:
        raise RulesError(f"threads {threads} must be at least 1")
    nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS, max(n, 1)))
    bits = _check_tt_bits(tt_bits)
    hands = np.zeros((n, 3), dtype=np.int64)
    tcards = np.zeros((n, 3), dtype=np.int64)
    leaders = np.zeros(n, dtype=np.int64)
    ntricks = np.zeros(n, dtype=np.int64)
    declarers = np.zeros(n, dtype=np.int64)
    birds = np.zeros(n, dtype=np.int64)
    for i, p in enumerate(preps):
        hands[i] = p.hands
        tcards[i] = p.tcards
        leaders[i] = p.leader
        ntricks[i] = p.ntrick
        declarers[i] = p.declarer
        birds[i] = p.birds
    if target is None:
        targets = np.full(n, -1, dtype=np.int64)
    elif np.ndim(target) == 0:
        targets = np.full(n, int(target), dtype=np.int64)  # type: ignore[arg-type]
    else:
        targets = np.asarray(target, dtype=np.int64)
        if targets.shape != (n,):
            raise RulesError(f"target needs one value per position ({n}); found {targets.size}")
    if target is not None:
        targets = np.maximum(targets, 0)  # any target <= 0 is reached; < 0 means "exact" below
    out = np.zeros(n, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)
    if n:
        previous = numba.get_num_threads()
        numba.set_num_threads(nthreads)
        try:
            kernel.solve_batch(hands, leaders, tcards, ntricks, declarers, birds, targets, bits,
                               nthreads, out, nodes)
        finally:
            numba.set_num_threads(previous)
    result = out if target is None else out.astype(bool)
    return (result, nodes) if stats else result


def _position_args(p: Position | Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    if isinstance(p, dict):
        p = Position(**p)
    elif not isinstance(p, Position):
        p = Position(*p)
    return (p.hands, p.leader, p.declarer), {"trick": p.trick, "restrictions": p.restrictions}
