"""Bidding advice for one hand: :func:`advise` answers an :class:`AdviceRequest`.

The method: world *j* is a uniform completion of what the adviser knows
(:mod:`.sampling`), and every contract is evaluated on the same worlds
(common random numbers), so the differences the advice rests on have small
errors.  :func:`advise` makes the plan (:mod:`.plan`: contracts, announcement
sets, policies, bird sets), has the worlds evaluated (:mod:`.world`, one world;
:mod:`.schedule`, the workers and the time limit) and turns the results into
tables, metadata and a recommendation (:mod:`.report`).

Where the time goes: almost all of it is in the race's solves (choosing the
talon exchange on inner worlds).  They start from MTD(f) guesses of related
solves, begin with the null-window make test and have node budgets; one race
has a node budget too and the evaluation solves have their own
(:class:`RaceConfig`), so one pathological world cannot eat the time limit.
Each world is a pure function of (seed, j), so the numbers are identical for
any number of worker processes.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

from .evaluate import Evaluator
from .plan import AdviceRequest, Problem, RaceConfig, contracts_asked, make_problem
from .race import RaceResult
from .rulesview import RulesView
from .schedule import WorldRunner
from .types import WorldResult


def advise(req: AdviceRequest, evaluator: Evaluator | None = None):
    """Answer an advice request: the :class:`~.report.Advice` with tables and recommendation."""
    from tqdm import tqdm

    from . import report

    start = time.time()
    deadline = start + req.time_limit if req.time_limit else None
    view = RulesView(req.rule_profile())
    problem: Problem = make_problem(req, view.rules)
    plans = problem.plans
    contracts = contracts_asked(view.rules, req)  # in the rules' order (the meta's keys)
    runner = WorldRunner(problem, req.jobs, deadline, evaluator)
    bar = tqdm(total=req.samples, unit="world", desc="advise", file=sys.stderr,
               disable=not req.progress, dynamic_ncols=True)
    races: dict[str, RaceResult] = {}
    try:
        fixed: tuple = ()
        if problem.given_talon is not None:
            bar.set_description("choosing the exchange")
            races = runner.races(req.samples)
            fixed = tuple((c, tuple(r.candidates), tuple(r.choices)) for c, r in races.items())
            problem = replace(problem, plans=tuple(p for p in plans if p.contract in races))
            runner.problem = problem
            bar.set_description("advise")
        n_groups = len(runner.task_groups())
        parts: dict[int, int] = {}

        def progress(r: WorldResult) -> None:
            # A world counts on the bar when all of its contracts are done.
            if r.kind != "world":
                return
            parts[r.index] = parts.get(r.index, 0) + 1
            if parts[r.index] == n_groups:
                bar.update(1)

        results = runner.run(req.samples, fixed, progress)
    finally:
        bar.close()
        runner.close()
    elapsed = time.time() - start

    stats = report.option_stats(problem.plans, results)
    key = {"deal_id": req.deal_id, "rules": view.rules.name,
           "rule_options": view.rules.describe_overrides(), "seat": "FMR"[req.seat]}
    birds_judged = {c: len(report.bird_prefix(results, c)) for c, sets in problem.birds
                    if len(sets) > 1}
    table = report.build_table(stats, key, report.bird_rows(
        [(c, sets) for c, sets in problem.birds if len(sets) > 1], results, key))
    # Every contract asked about, in display order, with the worlds it got (maybe 0).
    worlds = {p.contract: len(report.prefix_results(results, p.contract)) for p in plans}
    complete = min(worlds.values()) if worlds else 0
    solves = sum(r.solves for r in results)
    meta = {
        "seed": int(req.seed),
        "samples_requested": int(req.samples),
        "worlds": worlds,
        "worlds_complete": complete,
        "jobs": int(req.jobs),
        "time_limit": req.time_limit,
        "seconds": elapsed,
        "worlds_per_second": (complete / elapsed) if elapsed > 0 else None,
        "solves": solves,
        "work": report.work_summary(plans, results),
        "objective": "card points (exact double-dummy), scored with the rules' calculator",
        "race": {"per_group": dict(req.race.per_group), "inner_schedule": list(req.race.schedule),
                 "talon_per_group": req.race.talon_per_group,
                 "talon_schedule": list(req.race.talon_schedule),
                 "race_nodes": req.race.race_nodes, "eval_nodes": req.race.eval_nodes,
                 "race_budget": req.race.race_budget, "bird_nodes": req.race.bird_nodes},
        "talon": list(req.talon) if req.talon is not None else None,
        "birds": {c: view.bird_levels(c) for c in contracts},
        "bird_options": {c: [";".join(f"{b}@{lv}" for b, lv in s) for s in sets[1:]]
                         for c, sets in problem.birds},
        "bird_worlds": birds_judged,
        "bird_worlds_over_budget": {c: report.birds_over_budget(results, c)
                                    for c in birds_judged},
        "bird_solves": {
            "evaluated": req.birds,
            "game_point_solves": sum(b.solves for r in results for b in r.birds.values()),
            "seconds": sum(b.seconds for r in results for b in r.birds.values())},
        "notes": [
            "Contract rows and card-point announcements: exact double-dummy card points scored "
            "with the rules' calculator; these nets count no bird items, silent or announced.",
            "Bird announcements: exact double-dummy game-point solves (the search plays for "
            "the birds) on the exchange plain play chose, as many worlds as the time allowed "
            "(bird_worlds); gain = announcing when the bird is held vs the game-point value "
            "without announcements (silent birds counted), paired on the same worlds.",
            "Contras are not modelled (the declarer does not choose them).",
            "Passing is valued at 0.",
        ],
    }
    exchanges = report.exchanges_table(races) if races else None
    return report.Advice(table=table, announcements=report.announcements_table(table),
                         recommendation=report.recommend(stats, worlds), meta=meta,
                         points=report.points_by_contract(stats), exchanges=exchanges,
                         options=stats)


__all__ = ["AdviceRequest", "RaceConfig", "advise"]
