"""Exact double-dummy card points and game points for the adviser, on solver threads.

:class:`ExactSolver` solves card-point requests (:data:`Request`; with a cell
width, the proved cell, see :meth:`~.series.ContractSeries.values`) and
game-point ones (:class:`GameRequest`) and Trischaken ones (:class:`TrischakenRequest`)
on ``jobs`` threads while the main thread
runs the evaluator; every solve's seconds budget ends at the run's deadline
(:func:`solve_budget`), and one that does not finish returns ``None``.  On a
fresh install the kernels compile in a detached process first, serialised by a
lock file (:func:`compile_detached`).
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .evaluate import PlayTask

__all__ = ["ExactSolver", "GameRequest", "Request", "TrischakenRequest", "compile_command",
           "compile_detached", "compile_lock_path", "solve_budget", "solve_game_one",
           "solve_trischaken_one", "warm_up"]

#: One position: (hands at trick 1 in seat order, declarer seat, a first guess of its
#: value for MTD(f), and optionally the cell width, its offset and the thresholds of
#: :meth:`~tarock_solver.solver.CardPointSearch.cell`); forehand leads.
Request = tuple  # (hands, declarer, guess[, width, offset, thresholds])


class GameRequest(NamedTuple):
    """One position's play for net game points (silent birds, Valat and hand bonuses
    as the score sheet counts them): the hands at trick 1, the declarer, the contract,
    his discard in thirds, and the three hands as dealt (the hand bonuses' holdings)."""

    hands: tuple[int, int, int]
    declarer: int
    contract: str
    pile_thirds: int
    dealt: tuple[int, int, int]
    #: Announced items ``(name, level)`` (a bird option); none for plain play.
    announcements: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, task: PlayTask, announcements: tuple[tuple[str, str], ...] = ()
           ) -> GameRequest:
        """The request for a task's play (its contract, hands and discard), plain or with
        ``announcements``."""
        return cls(task.hands, task.declarer, task.contract, task.pile_thirds,
                   task.dealt_hands, tuple(announcements))


class TrischakenRequest(NamedTuple):
    """A Trischaken deal's paranoid card points of each of ``seats`` (F leads; the talon
    unused), solved one after the other on one thread."""

    hands: tuple[int, int, int]
    seats: tuple[int, ...] = (0, 1, 2)
    #: A first guess of each seat's value for MTD(f) (the evaluator's; None: none).
    guesses: tuple[int, ...] | None = None


#: Table size of each solver thread (2**20 rows: 64 MiB, cleared before every solve).
TT_BITS = 20
#: Seconds a collect waits past the deadline for solves to return their bounds.
GRACE = 2.0


def warm_up(search: Any = None) -> None:
    """Load (or compile) the card-point kernels with one tiny solve."""
    from ..solver import Budget, CardPointSearch, Position

    search = search or CardPointSearch(TT_BITS)
    search.value(Position((1 << 53, 1 << 52, 1 << 51), 0, 0), Budget(seconds=600.0))


def warm_up_games() -> None:
    """Load (or compile) the game-point kernels with one tiny solve (the last trick)."""
    from ..rules import load_rules
    from ..solver import solve_game_points

    solve_game_points((1 << 53, 1 << 52, 1 << 51), 0, 0, rules=load_rules("dummett"),
                      contract="three", tt_bits=10)


def warm_up_trischaken() -> None:
    """Load (or compile) the Trischaken kernels with one tiny solve (the last trick)."""
    from ..rules import load_rules
    from ..solver import solve_trischaken

    solve_trischaken((1 << 53, 1 << 52, 1 << 51), 0, 0, rules=load_rules("dummett"))


def all_kernels_cached() -> bool:
    """Are the drivers, card points, game points and Trischaken, in numba's cache?"""
    from ..solver import game_kernels_cached, kernels_cached, trischaken_kernels_cached

    return kernels_cached() and game_kernels_cached() and trischaken_kernels_cached()


def compile_lock_path() -> str:
    """The lock file the detached compiles of this user take (one compile at a time)."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"tarock-solver-compile-{uid}.lock")


def compile_detached() -> bool:
    """Compile the kernels (card points, then game points) into numba's cache unless
    another compile did it meanwhile; True if this call compiled.  Runs in the detached
    process :class:`ExactSolver` starts; the lock makes concurrent first runs compile
    once (POSIX; elsewhere each compiles)."""
    try:
        import fcntl
    except ImportError:  # no flock: compile without the lock
        fcntl = None
    with open(compile_lock_path(), "a+") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # waits while another run compiles
        if all_kernels_cached():
            return False
        warm_up()
        warm_up_games()
        warm_up_trischaken()
        return True


def compile_command() -> tuple[list[str], str]:
    """The detached compile's command line and working directory.

    ``python -c`` puts its working directory first on the import path, so the child
    runs in the folder that holds this very package: it compiles (and caches) the
    kernels of the copy that is running, never a source checkout the user happens to
    stand in (the README's ``pip install . && tarock advise`` runs in one)."""
    import tarock_solver

    root = os.path.dirname(os.path.dirname(os.path.abspath(tarock_solver.__file__)))
    return [sys.executable, "-c", "from tarock_solver.advise.exact import compile_detached; "
            "compile_detached()"], root


#: A solve whose deadline has passed: it does not start.
_EXPIRED = object()


def solve_budget(deadline: float | None) -> Any:
    """The seconds :class:`~tarock_solver.solver.Budget` of a solve that starts now and
    must end by the run's ``deadline`` (None: no limit; :data:`_EXPIRED`: none left)."""
    from ..solver import Budget

    if deadline is None:
        return None
    left = deadline - time.time()
    return Budget(seconds=left) if left > 0 else _EXPIRED


def solve_one(search: Any, request: Request, deadline: float | None
              ) -> tuple[Any, int, float]:
    """(result or None if the deadline came first, nodes, seconds) of one position: the
    future points, or with a cell width the cell's proved bounds ``(lower, upper)``."""
    from ..solver import Position

    hands, declarer, guess = request[:3]
    width, offset, thresholds = request[3:] if len(request) > 3 else (1, 0, ())
    search.clear()  # every solve from an empty table: its work does not depend on the order
    budget = solve_budget(deadline)
    if budget is _EXPIRED:
        return None, 0, 0.0
    t0 = time.perf_counter()
    if width == 1 and not thresholds:
        r = search.value(Position(hands, 0, declarer), budget, guess=guess)
        return (r.lower if r.exact else None), int(r.nodes), time.perf_counter() - t0
    r, done = search.cell(Position(hands, 0, declarer), width, offset, thresholds, budget,
                          guess=guess)
    return ((r.lower, r.upper) if done else None), int(r.nodes), time.perf_counter() - t0


def solve_game_one(rules: Any, request: GameRequest, deadline: float | None,
                   on_search: Callable[[Any], None] | None = None
                   ) -> tuple[float | None, int, float]:
    """(net game points of plain play or None if the deadline came first, nodes, seconds).

    The payoff tables are built first (0.1–0.5 s of Python, more while other threads
    hold the interpreter) and the search's budget is what is then left to the deadline,
    so the solve ends there (or earlier, when ``on_search``'s caller interrupts the
    search it is handed)."""
    from ..solver import GamePointSearch, make_payoff

    if deadline is not None and deadline <= time.time():
        return None, 0, 0.0
    t0 = time.perf_counter()
    hands, d = request.hands, request.declarer
    payoff = make_payoff(rules, request.contract, d, hands, leader=0, trick=(),
                         base_thirds=request.pile_thirds, valat_open=True,
                         announcements=dict(request.announcements) or None,
                         declarer_hand=hands[d], dealt=request.dealt)
    search = GamePointSearch(payoff, rules=rules, tt_bits=TT_BITS)
    if on_search is not None:
        on_search(search)  # the solver may interrupt it (ExactSolver.abort)
    budget = solve_budget(deadline)
    if budget is _EXPIRED:
        return None, 0, time.perf_counter() - t0
    r = search.value(search.position(hands, 0), budget)  # the net only: no line followed
    return (float(r.lower) if r.exact else None), int(r.nodes), time.perf_counter() - t0


def solve_trischaken_one(rules: Any, request: TrischakenRequest, deadline: float | None,
                         search: Any) -> tuple[tuple[int, ...] | None, int, float]:
    """(the seats' paranoid card points, or None if the deadline came first, nodes,
    seconds)."""
    from ..solver import trischaken_position

    t0 = time.perf_counter()
    values, nodes = [], 0
    for k, seat in enumerate(request.seats):
        search.clear()  # every solve from an empty table, as the card points'
        budget = solve_budget(deadline)
        if budget is _EXPIRED:
            return None, nodes, time.perf_counter() - t0
        guess = request.guesses[k] if request.guesses is not None else None
        r = search.value(trischaken_position(request.hands, 0, seat, rules=rules), budget,
                         guess=guess)
        nodes += int(r.nodes)
        if not r.exact:
            return None, nodes, time.perf_counter() - t0
        values.append(int(r.lower))
    return tuple(values), nodes, time.perf_counter() - t0


class ExactSolver:
    """Solves batches of requests on ``jobs`` threads: card points (:data:`Request`) and,
    given the game's ``rules``, net game points (:class:`GameRequest`).  ``solve_batch``
    (tests) replaces the card-point solver by a function of ``[(hands, declarer), …] →
    points``, ``solve_game`` the game-point one by a function of a :class:`GameRequest`
    → net."""

    def __init__(self, jobs: int, solve_batch: Callable | None = None, *, rules: Any = None,
                 solve_game: Callable[[GameRequest], float] | None = None,
                 solve_trischaken: Callable[[TrischakenRequest], Sequence[int]] | None = None
                 ) -> None:
        self.jobs = max(1, int(jobs))
        self.solve_trischaken = solve_trischaken
        self.trischaken_solves = 0
        self.trischaken_seconds = 0.0
        self.solve_batch = solve_batch
        self.rules = rules
        self.solve_game = solve_game
        self._queue: queue.Queue = queue.Queue()
        self._ready = threading.Event()
        self._threads: list[threading.Thread] = []
        self.compiled_first = False  # the kernels had to be compiled (fresh install)
        self.ready_after: float | None = None  # seconds from start() to loaded kernels
        self.solves = 0
        self.unfinished = 0
        self.nodes = 0
        self.seconds = 0.0
        self.game_solves = 0
        self.game_unfinished = 0
        self.game_seconds = 0.0
        #: The game-point kernels were in numba's cache when the solver started (else a
        #: detached process compiles them, and this run makes no game-point solve: a
        #: compile in a solver thread would hold the interpreter for most of a minute).
        self.games_ready = False
        #: The same for the Trischaken kernels.
        self.trischaken_ready = False
        self._compile: subprocess.Popen | None = None
        #: Set by :meth:`abort`: no new solve starts, and those running give up.
        self._aborting = False
        self._searches: dict[int, Any] = {}  # worker → the search it runs

    @property
    def game_points(self) -> bool:
        """Can this solver answer game-point requests (:class:`GameRequest`) now?"""
        if self.solve_game is not None:
            return True
        return self.solve_batch is None and self.rules is not None and self.games_ready

    @property
    def card_seconds(self) -> float:
        """Solver-thread seconds of the card-point solves (the pace of a firm answer)."""
        return self.seconds - self.game_seconds - self.trischaken_seconds

    @property
    def trischaken(self) -> bool:
        """Can this solver answer Trischaken requests (:class:`TrischakenRequest`) now?"""
        if self.solve_trischaken is not None:
            return True
        return self.solve_batch is None and self.rules is not None and self.trischaken_ready

    @property
    def compiling(self) -> bool:
        """Is the first run's compile of the kernels still going (no solve can start before
        it ends, one to two minutes after install)?"""
        return self.compiled_first and not self._ready.is_set()

    def start(self) -> None:
        """Start loading the kernels and the solver threads (the caller goes on working)."""
        if self.solve_batch is not None or self._threads:
            return
        from ..solver import game_kernels_cached, kernels_cached, trischaken_kernels_cached

        t0 = time.time()
        cards_ready = kernels_cached()
        self.games_ready = game_kernels_cached()
        self.trischaken_ready = trischaken_kernels_cached()

        def load() -> None:
            if not (cards_ready and self.games_ready and self.trischaken_ready):
                # A detached process compiles and writes numba's cache: it finishes even
                # if this run ends first, so the next run loads the kernels.  Only the
                # card-point kernels are waited for (the game points wait for a next run).
                argv, cwd = compile_command()
                proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
                self._compile = proc  # kept: a Popen collected while it runs warns
                if not cards_ready:
                    self.compiled_first = True
                    proc.wait()
            warm_up()
            self.ready_after = time.time() - t0
            self._ready.set()

        threading.Thread(target=load, daemon=True, name="tarock-exact-load").start()
        for k in range(self.jobs):
            th = threading.Thread(target=self._work, args=(k,), daemon=True,
                                  name=f"tarock-exact-{k}")
            th.start()
            self._threads.append(th)

    def _work(self, k: int) -> None:
        from ..solver import CardPointSearch

        self._ready.wait()
        search = CardPointSearch(TT_BITS)
        trischaken: Any = None

        def running(s: Any) -> None:
            self._searches[k] = s
            if self._aborting:
                s.interrupt()

        while True:
            item = self._queue.get()
            if item is None:
                return
            request, deadline, fut = item
            if fut.set_running_or_notify_cancel():
                try:
                    if self._aborting:
                        fut.set_result((None, 0, 0.0))
                    elif isinstance(request, GameRequest):
                        fut.set_result(solve_game_one(self.rules, request, deadline, running))
                    elif isinstance(request, TrischakenRequest):
                        if trischaken is None:
                            from ..solver import TrischakenSearch
                            trischaken = TrischakenSearch(self.rules, tt_bits=TT_BITS)
                        running(trischaken)
                        fut.set_result(solve_trischaken_one(self.rules, request, deadline,
                                                            trischaken))
                    else:
                        running(search)
                        fut.set_result(solve_one(search, request, deadline))
                except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                    fut.set_exception(exc)

    def submit(self, requests: Sequence[Request], deadline: float | None) -> Any:
        """Queue ``requests``; returns the handle :meth:`collect` takes."""
        requests = list(requests)
        kinds = {_kind(r) for r in requests}
        if len(kinds) > 1:
            raise ValueError("a batch holds requests of one kind (card points, game points "
                             "or Trischaken)")
        kind = kinds.pop() if kinds else "cards"
        if kind == "games" and not self.game_points:
            raise ValueError("this solver has no game-point solves (no rules given)")
        if kind == "trischaken" and not self.trischaken:
            raise ValueError("this solver has no Trischaken solves (no rules given)")
        fake = {"games": self.solve_game, "trischaken": self.solve_trischaken,
                "cards": self.solve_batch}[kind]
        if fake is not None:
            return requests, None
        self.start()
        futures = []
        for r in requests:
            fut: Future = Future()
            self._queue.put((r, deadline, fut))
            futures.append(fut)
        return requests, futures

    def ready(self, handle: Any) -> bool:
        """Are all of a handle's solves done (collect would not wait)?"""
        _requests, futures = handle
        return futures is None or all(f.done() for f in futures)

    def wait_any(self, handles: Sequence[Any], timeout: float) -> None:
        """Wait until one of the handles is ready, at most ``timeout`` seconds."""
        from concurrent.futures import FIRST_COMPLETED, wait

        futures = [f for _r, fs in handles if fs is not None for f in fs]
        if futures:
            wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)

    def collect(self, handle: Any, deadline: float | None) -> list[Any]:
        """Exact future points (a :class:`GameRequest`: net game points) of each submitted
        request (None: not finished by the deadline; the solves' own seconds budgets end
        them there)."""
        requests, futures = handle
        if not requests:
            return []
        kind = _kind(requests[0])
        games = kind == "games"
        if futures is None:
            if games:
                nets = [float(self.solve_game(r)) for r in requests]
                self.game_solves += len(nets)
                return nets
            if kind == "trischaken":
                points = [tuple(int(v) for v in self.solve_trischaken(r)) for r in requests]
                self.trischaken_solves += len(points)
                return points
            values = [int(v) for v in self.solve_batch([tuple(r[:2]) for r in requests])]
            self.solves += len(values)
            return list(values)
        limit = None if deadline is None else deadline + GRACE
        if limit is not None and not self._ready.is_set():
            limit = deadline  # still compiling: no solve can end in the grace
        out: list[int | None] = []
        for fut in futures:
            wait = None if limit is None else max(0.0, limit - time.time())
            try:
                value, nodes, seconds = fut.result(timeout=wait)
            except FutureTimeout:
                fut.cancel()
                value, nodes, seconds = None, 0, 0.0
            self.nodes += nodes
            self.seconds += seconds
            if games:
                self.game_seconds += seconds
                self.game_unfinished += value is None
                self.game_solves += value is not None
            elif kind == "trischaken":
                self.trischaken_seconds += seconds
                self.trischaken_solves += value is not None
                self.unfinished += value is None
            elif value is None:
                self.unfinished += 1
            else:
                self.solves += 1
            out.append(value)
        return out

    def abort(self) -> None:
        """End the work early: no queued solve starts, and every running search gives up
        within a few thousand nodes (its result is None, as at a deadline).  Safe to
        call again; a search that armed its budget after an earlier call is stopped by
        the next one, so a caller waiting for its solves calls it while it waits."""
        self._aborting = True
        for s in list(self._searches.values()):
            s.interrupt()

    def close(self) -> None:
        """Stop the threads once their current solve ends (queued work is dropped)."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[2].cancel()
        for _ in self._threads:
            self._queue.put(None)
        self._threads = []


def _kind(request: Any) -> str:
    if isinstance(request, GameRequest):
        return "games"
    if isinstance(request, TrischakenRequest):
        return "trischaken"
    return "cards"
