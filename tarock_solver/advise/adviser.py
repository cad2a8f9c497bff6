"""Bidding advice for one hand: :func:`advise` answers an :class:`~.settings.AdviceRequest`.

It plans the problem (:mod:`.problem`), runs the engine within the request's
limit (:mod:`.schedule`), and turns the series into the table rows
(:mod:`.rows`), the recommendation (:mod:`.decision`) and the run's
:class:`~.results.RunMeta`; :func:`firm_time_limit` is the hint a tentative
answer gives.
"""

from __future__ import annotations

import math
import sys
import time

from ..cards import SEAT_NAMES
from .cv import MIN_BIRD_WORLDS, MIN_EXACT
from .decision import CONDITIONAL_CONTRACT, recommend, waiting_for
from .exact import ExactSolver
from .infoset import warm_evaluator
from .passing import check_opponents, make_passing
from .problem import Problem, make_problem
from .progress import ProgressReporter
from .results import Advice, RunMeta, build_table
from .rows import option_rows
from .rulesview import RulesView
from .schedule import run_engine
from .settings import AdviceLimit, AdviceRequest, AdviceSettings

__all__ = ["advise", "firm_time_limit"]

#: Time limits a tentative answer's hint rounds up to (seconds).
_NICE_LIMITS = (20, 30, 45, 60, 90, 120, 180, 300, 450, 600)

PASS_NOTE = ("Passing is valued at 0 game points: it assumes that when you pass nobody "
             "scores against you (--opponents pass; the others' games are not modelled).")
PASS_POLICY_NOTE = (
    "Passing: on every world the other two bid by the adviser's policy (the bidding "
    "model's value of each contract for their hand; a player bids what it puts above 0); "
    "a declarer exchanges by the adviser's talon decision on his own hand and talon and "
    "announces by the same policy, the defenders contra by theirs, and your net is a "
    "defender's (the evaluator on every world, exact solves as its correction; no silent "
    "birds); when all pass, your Trischaken result (its evaluator; exact: the three "
    "seats' paranoid values taken as their results) or 0 for a redeal.")


def advise(req: AdviceRequest) -> Advice:
    """Answer an advice request: the :class:`~.results.Advice` with table and recommendation."""
    limit = req.limit
    view = RulesView(req.rule_profile())
    problem: Problem = make_problem(req, view.rules)
    check_opponents(req.opponents)
    exact = ExactSolver(req.jobs, req.solve_batch, rules=view.rules, solve_game=req.solve_game,
                        solve_trischaken=req.solve_trischaken)
    exact.start()  # the solver threads load their kernels meanwhile
    # The evaluator is loaded before the clock starts: on a fresh install its kernels
    # compile (seconds, once), which must not eat the time limit.
    t0 = time.time()
    warm_evaluator()
    evaluator_load = time.time() - t0
    start = time.time()
    bar = _progress_bar(req.progress, limit)
    reporter = (ProgressReporter(req.on_progress, exact, limit, start)
                if req.on_progress is not None else None)

    seen: set[str] = set()
    last = 0.0
    waiting: list[str | None] = [None]  # what the answer waits for, as last checked
    talon_mode = problem.given_talon is not None

    def firm(series) -> str | None:
        rows_now = option_rows(series)
        waiting[0] = waiting_for(recommend(series, rows_now, talon_mode=talon_mode), rows_now)
        if reporter is not None:
            reporter.waiting_for = waiting[0]
        return waiting[0]
    # A terminal redraws the bar in place; a log file gets every redraw appended, so
    # it gets one every few seconds (and the first of each phase at once).
    every = 0.1 if sys.stderr.isatty() else 2.0

    def progress(phase: str, done: int, total: int, series) -> None:
        nonlocal last
        if reporter is not None:
            reporter.report(phase, series)
        if bar is None:
            return
        now = time.time()
        if phase in seen and now - last < every:
            return
        seen.add(phase)
        last = now
        bar.set_description(phase if phase != "exact" or waiting[0] is None
                            else f"exact (waiting for {waiting[0]})", refresh=False)
        bar.n = min(bar.total, now - start) if limit.timed else done
        bar.refresh()

    try:
        passing = senior = None
        if req.opponents == "policy" and problem.given_talon is None:
            contras = req.settings.contras
            passing = make_passing(view.rules, req.seat, contras=contras)
            if any(pl.contract == CONDITIONAL_CONTRACT for pl in problem.plans):
                # the seat may bid Lower over a senior's Three: passing then defends it
                senior = make_passing(view.rules, req.seat, senior_three=True, contras=contras)
        result = run_engine(problem, req.settings, exact, limit, progress=progress, firm=firm,
                            passing=passing, senior_three=senior)
    finally:
        if bar is not None:
            if limit.timed:
                bar.n = min(bar.total, time.time() - start)  # the bar ends where the run did
            bar.close()
        exact.close()
    elapsed = time.time() - start
    rows = option_rows(result.series)
    key = {"deal_id": req.deal_id, "rules": view.rules.name,
           "rule_options": view.rules.describe_overrides(), "seat": SEAT_NAMES[req.seat]}
    table = build_table(rows, key)
    rec = recommend(result.series, rows, talon_mode=talon_mode)
    # How a run that stops when firm ended: early (firm), or what its answer still waited
    # for as it ended (None: firm by then, which counts as stopping firm unless the
    # deadline struck)
    stopped_firm, still_waiting = result.stopped_firm, None
    if limit.timed and limit.stop_when_firm and not stopped_firm and result.worlds >= 2 \
            and not result.interrupted:
        still_waiting = waiting_for(rec, rows)
        stopped_firm = still_waiting is None and not result.deadline_hit
    points = {c: s.values(0, "points", exact=False) for c, s in result.series.items()}
    meta = RunMeta(
        seed=int(req.seed),
        samples_requested=int(limit.worlds),
        worlds=result.worlds,
        exact_worlds={c: len(s.exact_worlds()) for c, s in result.series.items()},
        bird_worlds={c: len(s.birds()) for c, s in result.series.items()},
        exact_cut_by_deadline=[c for c, s in result.series.items() if s.cut],
        contenders=result.contenders,
        stopped=result.stopped,
        exchanges_valued={c: (sum(s.options_valued) / len(s.options_valued)
                              if s.options_valued else 0.0)
                          for c, s in result.series.items() if s.plan.take},
        jobs=int(req.jobs),
        time_limit=limit.seconds,
        seconds=elapsed,
        evaluator_load_seconds=evaluator_load,
        seconds_evaluator=result.seconds_evaluator,
        seconds_exact=result.seconds_exact,
        exact_solves=exact.solves,
        exact_unfinished=exact.unfinished,
        exact_nodes=exact.nodes,
        exact_solver_seconds=exact.seconds,
        game_point_solves=exact.game_solves,
        game_point_unfinished=exact.game_unfinished,
        game_point_seconds=exact.game_seconds,
        kernels_compiled_this_run=exact.compiled_first,
        kernels_ready_after=exact.ready_after,
        interrupted=result.interrupted,
        talon=list(req.talon) if req.talon is not None else None,
        talon_decision=result.talon_decision,
        left_out={c: why for c, why in problem.left_out},
        settings={k: getattr(req.settings, k) for k in req.settings.__dataclass_fields__},
        notes=[
            "Card points: the learned evaluator on every world, corrected by exact "
            "double-dummy solves on the first worlds of each contract (control variates: "
            "unbiased; ± is one standard error).",
            "Talon exchanges and after-talon announcements are chosen on what the declarer "
            "sees (hand and talon) by the evaluator over inner worlds, never on the world "
            "being scored.",
            "Silent birds: every net counts them when the run makes game-point solves "
            "(from the second run after install): the game-point evaluator's value of the "
            "birds of plain play on every world, corrected by exact game-point solves of "
            f"the contenders' worlds (from their {AdviceSettings.birds_from}th exact world "
            f"on; {MIN_BIRD_WORLDS} of them give the net its SE). Bird announcements "
            "(each bird the hand holds, at every level the contract allows) are judged the "
            "same way: the game-point evaluator's gain over plain play on every world, "
            "exact game-point solves with the bird announced as its correction (the best "
            "contract's, once plain play has its game-point worlds); P(won) is the bird "
            "model's.",
            "Contras: the defenders' contras on plain play's game by their policy "
            "(on what each sees, the declarer re-contra'ing where he expects to make) "
            "are shown beside each contract's net; the recommendation is made without "
            "them (contra is the defenders' choice).",
            PASS_NOTE if passing is None else PASS_POLICY_NOTE,
        ],
        stopped_firm=stopped_firm,
        waiting_for=still_waiting,
        opponents=req.opponents if problem.given_talon is None else "pass",
        pass_exact_worlds=len(passing.exact) if passing is not None else 0,
        trischaken_solves=exact.trischaken_solves,
        firm_time_limit=(
            firm_time_limit(exact.solves, exact.card_seconds, req.jobs,
                            len({result.series[c].plan.take for c in result.contenders}),
                            game_solves=exact.game_solves + exact.game_unfinished,
                            game_seconds=exact.game_seconds,
                            birds=any(s.count_birds for s in result.series.values()))
            if rec.tentative and limit.timed and not exact.compiled_first
            and not result.interrupted and req.solve_batch is None else None),
    )
    return Advice(table=table, recommendation=rec, meta=meta, rows=rows, points=points)


def firm_time_limit(solves: int, solver_seconds: float, jobs: int, contenders: int, *,
                    game_solves: int = 0, game_seconds: float = 0.0, birds: bool = False
                    ) -> float | None:
    """The ``--time-limit`` a firm answer would take at this hand's pace (seconds, rounded
    up to a round number), or None without a pace to go by.

    A firm answer needs :data:`~.cv.MIN_EXACT` exact worlds for each of the
    ``contenders`` (the talon shares solved at the end; passing needs none); a solve
    costs ``solver_seconds / solves`` thread-seconds here (with no solve finished, each
    thread's whole time: a lower bound), and ``jobs`` threads share them.  A hint for
    the player, never an input to the estimates.  With ``birds`` (nets that count the
    silent birds) each contender also needs :data:`~.cv.MIN_BIRD_WORLDS` game-point
    solves, at this run's pace of them (``game_seconds`` over ``game_solves`` started).
    """
    if solver_seconds <= 0:
        return None
    jobs = max(1, jobs)
    per_solve = solver_seconds / solves if solves else solver_seconds / jobs
    need = MIN_EXACT * max(1, contenders) * per_solve / jobs
    if birds and game_solves and game_seconds > 0:
        need += MIN_BIRD_WORLDS * max(1, contenders) * (game_seconds / game_solves) / jobs
    need *= 1.25  # the evaluator's share of the time and the solves the deadline cuts
    nice = next((x for x in _NICE_LIMITS if x >= need), None)
    return float(nice if nice is not None else 300 * math.ceil(need / 300))


def _progress_bar(show: bool, limit: AdviceLimit):
    if not show:
        return None
    from tqdm import tqdm

    if limit.timed:
        return tqdm(total=float(limit.seconds), unit="s", desc="advise", file=sys.stderr,
                    dynamic_ncols=True, bar_format="{desc}: {percentage:3.0f}%|{bar}| "
                    "{n:.1f}/{total:.0f} s")
    return tqdm(total=limit.worlds, unit="world", desc="advise", file=sys.stderr,
                dynamic_ncols=True)
