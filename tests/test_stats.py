"""`tarock stats`: the summary numbers, grouping, the tarocks join and the command.

Expected values are computed here from the rows with plain Python (statistics module,
a hand-written linear quantile), not with the pandas code under test.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from tarock_cli.main import cli

from tarock_solver.analysis import results_frame, write_results
from tarock_solver.cards import CARD_IDS, indices_of, mask_of
from tarock_solver.deal import Deal
from tarock_solver.deal_files import DealRecord, write_deals
from tarock_solver.errors import FileFormatError
from tarock_solver.stats import (
    StatsError,
    default_keys,
    load_results,
    summarise,
    tarocks_held,
    with_tarocks,
)

# (deal_id, declarer, contract, option, points, made, net_declarer, valat)
ROWS = [
    ("d1", "F", "three", "plain", 40, True, 12, False),
    ("d2", "F", "three", "plain", 30, False, -8, False),
    ("d3", "F", "three", "plain", 70, True, 40, True),
    ("d4", "F", "three", "plain", 36, False, -6, False),
    ("d1", "M", "three", "plain", 20, False, -10, False),
    ("d2", "M", "three", "plain", 50, True, 14, False),
    ("d1", "F", "solo", "plain", 45, True, 60, False),
    ("d2", "F", "solo", "plain", 10, False, -120, False),
    ("d3", "R", "solo", "plain", 36, False, -60, False),
]


def frame(rows=ROWS) -> pd.DataFrame:
    return results_frame([
        {"schema": 1, "deal_id": d, "rules": "dummett", "rule_options": "", "declarer": s,
         "contract": c, "option": o, "talon_pick": "", "discard": "", "points_thirds": 3 * p,
         "points": p, "made": m, "margin_thirds": 3 * p - 107, "game_value": 3,
         "multiplier": 1, "birds": "", "valat": v, "written_F": 0, "written_M": 0,
         "written_R": 0, "net_F": 0, "net_M": 0, "net_R": 0, "net_declarer": n, "nodes": 1,
         "solve_ms": 1.0, "solver_version": "test", "seed": None}
        for d, s, c, o, p, m, n, v in rows])


def linear_quantile(values: list[float], q: float) -> float:
    """Quantile by linear interpolation between closest ranks (numpy's default)."""
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def test_per_contract_and_declarer():
    table = summarise(frame())
    # Bid order of contracts (three before solo), seat order F, M, R.
    assert list(zip(table["contract"], table["declarer"], strict=True)) == [
        ("three", "F"), ("three", "M"), ("solo", "F"), ("solo", "R")]
    for _, row in table.iterrows():
        mine = [r for r in ROWS if r[2] == row["contract"] and r[1] == row["declarer"]]
        points = [r[4] for r in mine]
        assert row["rows"] == len(mine)
        assert row["made_pct"] == pytest.approx(100 * sum(r[5] for r in mine) / len(mine))
        assert row["points_mean"] == pytest.approx(statistics.mean(points))
        for q in (10, 25, 50, 75, 90):
            assert row[f"points_p{q}"] == pytest.approx(linear_quantile(points, q / 100))
        assert row["net_mean"] == pytest.approx(statistics.mean(r[6] for r in mine))
        assert row["valat_pct"] == pytest.approx(100 * sum(r[7] for r in mine) / len(mine))


def test_by_other_columns():
    table = summarise(frame(), ["contract"])
    assert table["contract"].tolist() == ["three", "solo"]
    assert table["rows"].tolist() == [6, 3]
    assert table["made_pct"].iloc[0] == pytest.approx(100 * 3 / 6)


def test_varying_option_is_kept_apart_by_default():
    rows = [*ROWS, ("d1", "F", "three", "pagat@after", 40, True, 30, False)]
    assert default_keys(frame(rows)) == ["option", "contract", "declarer"]
    assert default_keys(frame()) == ["contract", "declarer"]


def test_unknown_group_column_names_the_choices():
    with pytest.raises(StatsError, match=r'unknown column "tarocks".*needs --deals'):
        summarise(frame(), ["contract", "tarocks"])


def deal_file(path: Path) -> dict[tuple[str, str], int]:
    """Three deals with different tarock counts; returns the counts, taken from the
    card ids (tarock ids start with T), independently of the code under test."""
    deals = {}
    for n, deal_id in zip((16, 12, 9), ("d1", "d2", "d3"), strict=True):
        tarocks = list(range(22 - n, 22))
        # Suit cards first, so that F's filler cards are no tarocks.
        rest = [*range(22, 54), *(c for c in range(22) if c not in tarocks)]
        f = tarocks + rest[:16 - n]
        rest = rest[16 - n:]
        deals[deal_id] = Deal(hands=(mask_of(f), mask_of(rest[:16]), mask_of(rest[16:32])),
                              talon=tuple(rest[32:38]))
    write_deals(path, [DealRecord(id=k, deal=d) for k, d in deals.items()])
    return {(k, seat): sum(CARD_IDS[c].startswith("T") for c in indices_of(hand))
            for k, d in deals.items() for seat, hand in zip("FMR", d.hands, strict=True)}


def test_tarocks_join_and_table(tmp_path):
    counts = deal_file(tmp_path / "deals.jsonl")
    held = tarocks_held(tmp_path / "deals.jsonl")
    assert {(r.deal_id, r.declarer): r.tarocks for r in held.itertuples()} == counts
    joined = with_tarocks(frame(), tmp_path / "deals.jsonl")
    for row in joined.itertuples():
        want = counts.get((row.deal_id, row.declarer))
        assert pd.isna(row.tarocks) if want is None else row.tarocks == want
    table = summarise(joined, ["contract", "tarocks"])
    three_16 = table[(table["contract"] == "three") & (table["tarocks"] == 16)]
    assert three_16["rows"].tolist() == [1]  # d1 F only: d4 is not in the deal file


def test_with_tarocks_from_the_wrong_file(tmp_path):
    path = tmp_path / "deals.jsonl"
    write_deals(path, [DealRecord(id="other", deal=Deal(
        hands=(mask_of(range(16)), mask_of(range(16, 32)), mask_of(range(32, 48))),
        talon=tuple(range(48, 54))))])
    with pytest.raises(StatsError, match="no deal id of the results"):
        with_tarocks(frame(), path)


def test_load_results_rejects_other_files(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("id,deal\na,b\n")
    with pytest.raises(FileFormatError, match="not a results file"):
        load_results(path)


def test_advice_output_is_summarised_per_seat(tmp_path):
    path = tmp_path / "advice.csv"
    pd.DataFrame({"deal_id": ["a", "b", "a"], "rules": "dummett", "rule_options": "",
                  "seat": ["F", "F", "M"], "contract": ["solo", "solo", "solo"],
                  "option": "plain", "samples": 10, "win_prob": [0.5, 0.7, 0.1],
                  "win_prob_se": 0.1, "mean_net": [3.0, 5.0, -4.0], "mean_net_se": 1.0,
                  "mean_points": [30.0, 40.0, 20.0]}).to_csv(path, index=False)
    table = summarise(load_results(path))
    assert table["seat"].tolist() == ["F", "M"]
    assert table["win_pct"].tolist() == pytest.approx([60.0, 10.0])
    assert table["net_mean"].tolist() == pytest.approx([4.0, -4.0])


def test_stats_command(tmp_path):
    results = tmp_path / "out.csv"
    write_results(frame(), results)
    deal_file(tmp_path / "deals.jsonl")
    runner = CliRunner()
    result = runner.invoke(cli, ["stats", str(results), "--deals", str(tmp_path / "deals.jsonl"),
                                 "--csv", str(tmp_path / "table.csv")])
    assert result.exit_code == 0, result.output
    assert "By contract, declarer:" in result.stdout
    assert "By contract, tarocks (tarocks dealt to the declarer):" in result.stdout
    saved = pd.read_csv(tmp_path / "table.csv")
    assert saved[["contract", "declarer", "rows"]].values.tolist() == [
        ["three", "F", 4], ["three", "M", 2], ["solo", "F", 2], ["solo", "R", 1]]

    bad = runner.invoke(cli, ["stats", str(results), "--by", "nonsense"])
    assert bad.exit_code != 0
    assert 'unknown column "nonsense"' in str(bad.exception)


def test_stats_plot(tmp_path):
    pytest.importorskip("matplotlib")
    results = tmp_path / "out.jsonl"
    write_results(frame(), results)
    png = tmp_path / "plot.png"
    result = CliRunner().invoke(cli, ["stats", str(results), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
