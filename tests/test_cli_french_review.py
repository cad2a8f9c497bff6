"""`tarock --game french review` and `tarock --game french batch --mode review` through the
command line (in-process): the example, JSON output checked against the solver, the
learned evaluator when there is one, exit status 2 naming what is wrong before any
search, and batch rows that resume after a crash."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from batchtools import Crash, CrashingExecutor
from clitools import main, run
from french_playout import played_deal, played_with_blunder, with_revoke

from tarock_solver.batch import get_mode, plan_batch, run_batch
from tarock_solver.batch.settings import BatchSettings
from tarock_solver.checkpoint import parts_dir
from tarock_solver.french.cards import CARD_IDS, half_points
from tarock_solver.french.deal_files import format_record, parse_record, write_deals
from tarock_solver.french.notation import parse_card
from tarock_solver.french.review import check_play
from tarock_solver.french.rules import load_rules
from tarock_solver.french.solver import FrenchSearch

#: The package the commands are imported from (where the monkeypatches must go).
CLI = main.__module__.rsplit(".", 1)[0]
ROOT = Path(__file__).resolve().parent.parent
RULES = load_rules("fft")


def _no_work(*args, **kwargs):
    raise AssertionError("the review started before the record was checked")


@pytest.fixture(scope="module")
def blunder_text():
    record, index, loss = played_with_blunder(11, 5, record_id="b11")
    return format_record(record), index, loss


def test_the_example_is_reviewed_as_the_documents_show(capsys):
    command = "tarock --game french review example --mistakes"
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "FRENCH_TAROT.md").read_text(encoding="utf-8")
    section = doc.split("## Reviewing a played deal")[1]
    assert command in section
    code, out, err = run(capsys, *command.split()[1:])
    assert code == 0, err
    assert out.startswith("Review example   French Tarot, rules fft   taker 4, Garde")
    shown = section.split("```")[3]
    for line in shown.splitlines():
        if line.strip() and line.strip() != "…":
            assert line.rstrip() in out, line


def test_json_verdicts_are_the_solver_s(capsys, blunder_text):
    text, index, loss = blunder_text
    code, out, err = run(capsys, "--game", "french", "review", text, "--json",
                         "--exact-tricks", "5", "--no-estimate")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["game"] == "french" and len(doc["cards"]) == 72 and doc["evaluator"] is None
    assert doc["evaluator_note"] == "--no-estimate"
    card = doc["cards"][index]
    assert card["source"] == "exact" and card["loss_half"] == loss > 0
    line = check_play(parse_record(text), RULES)
    pos = line.positions[index]
    values = {c: r.lower for c, r in FrenchSearch().card_values(pos).items()}
    assert card["values"] == {cid: values[parse_card(cid)] for cid in card["values"]}
    assert doc["final_half"] == doc["played"]["half_points"] == line.final.taker_points
    seat = doc["seats"][int(card["seat"]) - 1]
    assert any(w["trick"] == card["trick"] and w["loss_half"] == loss for w in seat["worst"])


def test_a_record_in_a_text_file_and_only_the_mistakes(capsys, tmp_path, blunder_text):
    text, index, loss = blunder_text
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "--ascii", "--game", "french", "review", str(path),
                         "--mistakes", "--exact-tricks", "5", "--no-margin")
    assert code == 0, err
    assert "Review b11" in out and "Margin" not in out
    trick, place = divmod(index, 4)
    assert f"  {trick + 1}.{place + 1} " in out
    # the learned evaluator is installed: the cards before the exact zone are estimates
    assert "~ estimates of the learned evaluator" in out
    assert out.isascii()
    code, out, err = run(capsys, "--ascii", "--game", "french", "review", str(path),
                         "--mistakes", "--exact-tricks", "5", "--no-margin", "--no-estimate")
    assert code == 0, err
    assert "no card is judged, for want of a learned evaluator (--no-estimate)" in out


def test_the_learned_evaluator_is_used_when_it_is_installed(capsys, monkeypatch, blunder_text):
    text, _, _ = blunder_text
    calls = []

    def estimate_points(positions):
        calls.append(len(positions))
        return np.array([p.state.taker_points + half_points(p.hands[p.taker])
                         for p in positions], dtype=float)

    module = types.ModuleType("tarock_solver.french.estimate")
    module.estimate_points = estimate_points
    monkeypatch.setitem(sys.modules, "tarock_solver.french.estimate", module)
    code, out, err = run(capsys, "--game", "french", "review", text, "--exact-tricks", "5",
                         "--no-margin")
    assert code == 0, err
    assert calls and "~ estimates of the learned evaluator (tarock_solver.french.estimate)" in out
    first = next(r for r in out.splitlines() if r.strip().startswith("1.1 "))
    assert "~" in first
    code, out, err = run(capsys, "--game", "french", "review", text, "--exact-tricks", "5",
                         "--no-margin", "--no-estimate")
    assert code == 0 and "~ estimates" not in out and len(calls) == 1


def _bad_records() -> list[tuple[str, str, list[str]]]:
    good = format_record(played_deal(5, record_id="g5"))
    revoke, i, card = with_revoke(played_deal(5, record_id="g5"))
    lines = good.splitlines()
    play = lines.index("play:") + 1
    first = lines[play].split()
    return [
        ("bad card", good.replace(lines[play], " ".join([*first[:3], "S55", *first[4:]])),
         ["trick 1, card 2", '"S55"']),
        ("revoke", format_record(revoke), [f"trick {i // 4 + 1}, card {i % 4 + 1}",
                                           CARD_IDS[card], "revoke"]),
        ("contract", good.replace("contract: garde", "contract: gardee"), ['"gardee"']),
        ("no play", "\n".join(lines[:play - 1]), ['no cards played']),
        ("empty", " ", ["give a played deal"]),
        ("missing file", "nowhere/game.txt", ["nowhere/game.txt: no such file"]),
        ("not a field", good.replace("contract: garde\n", "contract: garde\nscores: 12\n"),
         ['"scores: 12": not a field']),
    ]


@pytest.mark.parametrize("index", range(7))
def test_bad_input_exits_2_naming_what_is_wrong_before_any_search(capsys, monkeypatch, index):
    monkeypatch.setattr(f"{CLI}.commands._french_review.review_line", _no_work)
    name, text, words = _bad_records()[index]
    code, out, err = run(capsys, "--game", "french", "review", text)
    assert code == 2, (name, out, err)
    assert "Traceback" not in err
    for w in words:
        assert w in err, (name, w, err)


def test_a_bad_record_in_a_file_stops_the_command_before_any_search(capsys, monkeypatch,
                                                                      tmp_path):
    monkeypatch.setattr(f"{CLI}.commands._french_review.review_line", _no_work)
    good, bad = played_deal(5, record_id="night-1"), played_deal(6, record_id="night-2")
    bad = type(bad)(id=bad.id, deal=bad.deal, play=bad.play[:5] + bad.play[:1])
    path = tmp_path / "club.jsonl"
    write_deals(path, [good, bad])
    code, _, err = run(capsys, "--game", "french", "review", str(path))
    assert code == 2 and 'record "night-2": trick 2, card 2' in err
    assert "already played in trick 1" in err
    code, _, err = run(capsys, "--game", "french", "review", str(path), "--id", "nobody")
    assert code == 2 and 'no record with id "nobody"' in err




def test_batch_review_writes_a_row_per_card_and_resumes(capsys, tmp_path):
    src = tmp_path / "played.jsonl"
    revoke, i, _ = with_revoke(played_deal(6, record_id="bad"))
    write_deals(src, [played_deal(5, record_id="d5"), played_deal(7, record_id="d7"), revoke])
    out = tmp_path / "reviews.csv"
    code, _, err = run(capsys, "--game", "french", "batch", str(src), "--mode", "review",
                       "-o", str(out), "--no-progress", "--no-timing")
    assert code == 0, err
    assert "2 deals ok, 1 failed" in err
    errors = (tmp_path / "reviews.csv.errors.csv").read_text()
    assert f'3,bad,"record ""bad"": trick {i // 4 + 1}, card {i % 4 + 1}' in errors
    assert "revoke" in errors
    whole = out.read_bytes()
    assert whole.decode().count("\n") == 1 + 2 * 72
    assert ",d5,french,fft,4,garde,18,4," in whole.decode()
    # killed after the first chunk, then run again: only the second chunk is computed
    settings = BatchSettings.create(mode="french-review", rules="fft", timing=False)
    plan = plan_batch(src, 1, reader=get_mode("french-review").read)
    resumed = tmp_path / "resumed.csv"
    with pytest.raises(Crash):
        run_batch(plan, resumed, settings, executor=CrashingExecutor(after=1))
    assert len(list(parts_dir(resumed).glob("chunk-*"))) == 1
    summary = run_batch(plan, resumed, settings)
    assert (summary.resumed, summary.analysed) == (1, 2)
    assert resumed.read_bytes() == whole
