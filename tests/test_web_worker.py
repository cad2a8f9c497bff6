"""The web app's job process (:mod:`tarock_cli.web.worker`) in-process: the lines it
sends for the page, without a server or a browser."""

from __future__ import annotations

import csv
import io
import json

from clitools import run as run_cli
from tarock_cli.web import jobs, worker

from tarock_solver.advise import AdviceProgress
from tarock_solver.analysis.results import RESULT_COLUMNS
from tarock_solver.review.report import REVIEW_COLUMNS


def _run(kind: str, params: dict[str, str]) -> list[dict]:
    job = jobs.JOBS[kind](params)
    sent: list[dict] = []
    worker.run(job.kind, json.loads(json.dumps(job.args)), sent.append)
    return sent


def test_a_bad_card_is_the_clis_message_naming_it() -> None:
    (line,) = _run("advise", {"hand": "T21 T20 ZZ9 T1"})
    assert 'unknown card "ZZ9"' in line["error"] and "Traceback" not in line["error"]
    (line,) = _run("deal", {"deal": "example-1", "contract": "quartet"})
    assert "quartet" in line["error"]


def test_the_deal_job_sends_rows_then_the_clis_json(capsys) -> None:
    lines = _run("deal", {"deal": "example-1", "declarer": "R", "contract": "three"})
    *progress, last = lines
    assert [p["progress"] for p in progress] == [{"phase": "rows", "done": 1, "total": 1}]
    code, out, _err = run_cli(capsys, "solve", "example-1", "--cards", "--json",
                              "--declarer", "R", "--contract", "three")
    assert code == 0
    want, got = json.loads(out), last["result"]["json"]
    for doc in (want, got):
        for row in doc["rows"]:
            row.pop("seconds")
    assert got == want
    # the CSV download is the batch table mode's: NOTATION 5.3 results rows
    rows = list(csv.DictReader(io.StringIO(last["result"]["csv"])))
    assert list(rows[0]) == list(RESULT_COLUMNS) and len(rows) == 1
    assert (rows[0]["declarer"], rows[0]["contract"]) == ("R", "three")


def test_the_review_job_sends_the_batch_review_rows_as_its_csv() -> None:
    *_progress, last = _run("review", {"record": "example"})
    result = last["result"]
    rows = list(csv.DictReader(io.StringIO(result["csv"])))
    assert list(rows[0]) == list(REVIEW_COLUMNS)
    played = [r for r in rows if r["card"] != "exchange"]
    assert len(played) == len(result["json"]["cards"]) == 48
    assert [r["loss"] for r in played] == [
        "" if c["loss"] is None else str(c["loss"]) for c in result["json"]["cards"]]


def test_an_advice_progress_line_names_the_leader_and_rounds_its_ses() -> None:
    p = AdviceProgress(phase="exact", worlds=412, worlds_total=None, exact_solves=23,
                       seconds=6.14, time_limit=10.0, leader="two", leader_net_se=2.4321,
                       leader_points_se=0.987)
    line = worker.advice_progress_line(p, {"two": "Two"})
    assert line == {"phase": "exact", "worlds": 412, "worlds_total": None, "exact_solves": 23,
                    "seconds": 6.1, "time_limit": 10.0, "leader": "Two", "net_se": 2.43,
                    "points_se": 0.99}
    early = worker.advice_progress_line(
        AdviceProgress("evaluator", 3, 400, 0, 0.2, None, "two"), {"two": "Two"})
    assert early["net_se"] is None and early["points_se"] is None
