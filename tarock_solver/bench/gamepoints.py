"""What a game-point solve costs next to the card-point solve of the same deal.

Behind ``tarock bench --gamepoints``: :func:`run_gamepoint_bench` solves every benchmark
position (full deals by default) both ways, a Solo with one bird announced, and reports
the ratio of the two times against :data:`RATIO_BAR`; :func:`format_gamepoint_report`
prints it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..cards import BIRD_CARD
from ..notation import SEATS
from ..rules import BIRD_KEYS, Rules, load_rules
from .positions import PLAYOUT_SEED, BenchPosition, bench_positions, load_bench_deals
from .stats import timing_summary

__all__ = ["GamePointBenchConfig", "format_gamepoint_report", "json_ready", "pick_bird",
           "run_gamepoint_bench"]

#: The target ratio: a game-point solve with one bird announced costs at most this many
#: card-point solves (median).
RATIO_BAR = 4.0


@dataclass(frozen=True)
class GamePointBenchConfig:
    """What to run; ``deals=None`` means every shipped deal."""

    deals: int | None = 20
    tricks: tuple[int, ...] = (16,)
    node_limit: int = 100_000_000
    deals_file: str | None = None
    seed: int = PLAYOUT_SEED
    rules: str = "dummett"
    rule_options: dict[str, str] = field(default_factory=dict)
    #: Transposition-table rows (log2) of both solvers: the card-point solver's default.
    tt_bits: int = 21


def pick_bird(rules: Rules, pos: BenchPosition) -> str | None:
    """The bird the declarer announces: the first of Pagat, Uhu, Kakadu he holds
    that the profile lets him announce in a Solo (None: he holds none; RULES.md 4:
    only the holder may announce it)."""
    for bird in BIRD_KEYS:
        if pos.hands[pos.declarer] >> BIRD_CARD[bird] & 1 and \
                "after" in rules.announcement_levels(bird):
            return bird
    return None


def _base_thirds(pos: BenchPosition) -> int:
    """The declarer's pile outside the play, in thirds: 0 on a full deal.

    Shorter positions come from the same seeded play-outs; their earlier tricks are
    not scored, so the pile is set to leave the game open: 35 points minus half the
    points still to play (never below 0).
    """
    if pos.tricks == 16:
        return 0
    from ..cards import thirds_of

    left = thirds_of(pos.hands[0] | pos.hands[1] | pos.hands[2]) // 3
    return 3 * max(0, 35 - left // 2)


def _one(rules: Rules, pos: BenchPosition, bird: str, config: GamePointBenchConfig,
         solver: Any) -> dict[str, Any]:
    from ..solver import Budget, Position, solve_game_points

    budget = Budget(nodes=config.node_limit)
    row: dict[str, Any] = {"deal": pos.deal_id, "tricks": pos.tricks,
                           "declarer": SEATS[pos.declarer], "bird": bird}
    solver.clear()
    start = time.perf_counter()
    card = solver.value(Position(pos.hands, pos.leader, pos.declarer), budget)
    value = card.value if card.exact else None
    row.update(card_ms=(time.perf_counter() - start) * 1e3, card_nodes=card.nodes,
               card_value=value)
    start = time.perf_counter()
    res = solve_game_points(
        pos.hands, pos.leader, pos.declarer, rules=rules, contract="solo",
        announcements={bird: "after"}, taken_thirds=_base_thirds(pos),
        valat_open=pos.tricks == 16, tt_bits=config.tt_bits, budget=budget)
    if not res.exact:
        row.update(gp_ms=None, gp_nodes=None, net_declarer=None, tests=None)
    else:
        row.update(gp_ms=(time.perf_counter() - start) * 1e3, gp_nodes=res.nodes,
                   net_declarer=res.value, tests=res.tests)
    if value is None:
        row["ratio"] = None
    elif row["gp_ms"] is None:
        row["ratio"] = math.inf
    else:
        row["ratio"] = row["gp_ms"] / max(row["card_ms"], 1e-3)
    return row


def run_gamepoint_bench(config: GamePointBenchConfig,
                        step: Callable[[], None] | None = None) -> dict[str, Any]:
    """Solve every position both ways; the rows and a summary per tricks level.

    Each benchmark position (deal i, declarer seat ``i % 3``, F leading; see
    :mod:`.positions`) is a Solo (no talon, so the position is the deal itself) in
    which the declarer announces one bird at the after-talon level
    (:func:`pick_bird`), under the run's ``--rules``.  It is solved twice, each time
    from an empty table of the same number of rows (``tt_bits``):
    :meth:`~tarock_solver.solver.CardPointSearch.value` (exact card points) and
    :func:`~tarock_solver.solver.solve_game_points` (the score-sheet value and its
    principal variation; the payoff tables are built inside the timing).  The ratio
    of the two times is reported per position and as a median per tricks level.
    Positions where the declarer holds no bird are skipped and counted.  A
    game-point solve over the node budget counts as an infinite ratio (leaving it
    out would flatter the median); a position whose card-point solve is over budget
    has no ratio.
    """
    from ..solver import CardPointSearch, Position, solve_game_points

    rules = load_rules(config.rules, config.rule_options)
    records = load_bench_deals(config.deals_file, config.deals)
    levels = bench_positions(records, tuple(config.tricks), seed=config.seed)
    solver = CardPointSearch(config.tt_bits)
    # load (or compile) both kernels outside the timings
    tiny = (1 << 0 | 1 << 40, 1 << 1 | 1 << 41, 1 << 2 | 1 << 42)
    solver.value(Position(tiny, 0, 0))

    solve_game_points(tiny, 0, 0, rules=rules, contract="solo", announcements={"pagat": "after"},
                      taken_thirds=3 * 30, valat_open=False, tt_bits=10)
    rows: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    for tricks in sorted(levels, reverse=True):
        level_rows = []
        skipped = 0
        for pos in levels[tricks]:
            bird = pick_bird(rules, pos)
            if bird is None:
                skipped += 1
            else:
                level_rows.append(_one(rules, pos, bird, config, solver))
            if step is not None:
                step()
        rows.extend(level_rows)
        ratios = sorted(r["ratio"] for r in level_rows if r["ratio"] is not None)
        finite = [r for r in level_rows if r["gp_ms"] is not None and r["ratio"] is not None]
        summary[str(tricks)] = {
            "positions": len(level_rows),
            "no_bird": skipped,
            "card_over_budget": sum(r["card_value"] is None for r in level_rows),
            "gp_over_budget": sum(r["gp_ms"] is None and r["card_value"] is not None
                                  for r in level_rows),
            "median_ratio": _median(ratios),
            "p90_ratio": ratios[min(len(ratios) - 1, math.ceil(0.9 * len(ratios)) - 1)]
            if ratios else None,
            "max_ratio": ratios[-1] if ratios else None,
            "card_ms": timing_summary([{"ms": r["card_ms"], "nodes": r["card_nodes"],
                                        "over_budget": False} for r in finite]),
            "gp_ms": timing_summary([{"ms": r["gp_ms"], "nodes": r["gp_nodes"],
                                      "over_budget": False} for r in finite]),
        }
    return {"config": asdict(config), "rules": rules.name, "summary": summary, "rows": rows}


def _median(xs: list[float]) -> float | None:
    if not xs:
        return None
    n = len(xs)
    if n % 2:
        return xs[n // 2]
    a, b = xs[n // 2 - 1], xs[n // 2]
    return math.inf if math.inf in (a, b) else (a + b) / 2


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return "over budget" if math.isinf(x) else f"{x:.2f}"


def format_gamepoint_report(doc: dict[str, Any]) -> list[str]:
    """Printable lines of a :func:`run_gamepoint_bench` result."""
    cfg = doc["config"]
    lines = [f"Game-point vs card-point solve: Solo, one bird announced by the declarer, "
             f"rules {doc['rules']}, node budget {cfg['node_limit']:,}"]
    lines.append(f"{'tricks':>6} {'pos':>4} {'no bird':>7} {'card ms':>9} {'gp ms':>9} "
                 f"{'median ratio':>12} {'p90':>8} {'max':>11} {'gp over':>7}")
    for tricks, s in doc["summary"].items():
        card = s["card_ms"]["median_ms"]
        gp = s["gp_ms"]["median_ms"]
        lines.append(f"{tricks:>6} {s['positions']:>4} {s['no_bird']:>7} "
                     f"{_fmt(card):>9} {_fmt(gp):>9} {_fmt(s['median_ratio']):>12} "
                     f"{_fmt(s['p90_ratio']):>8} {_fmt(s['max_ratio']):>11} "
                     f"{s['gp_over_budget']:>7}")
    lines.append(f"(ratio: game-point ms / card-point ms per position; the bar is a median "
                 f"of at most {RATIO_BAR:g})")
    return lines


def json_ready(doc: Any) -> Any:
    """``doc`` with infinite ratios (game-point solve over budget) written as the
    string ``"over budget"``, so the file is strict JSON."""
    if isinstance(doc, dict):
        return {k: json_ready(v) for k, v in doc.items()}
    if isinstance(doc, list | tuple):
        return [json_ready(v) for v in doc]
    if isinstance(doc, float) and math.isinf(doc):
        return "over budget"
    return doc
