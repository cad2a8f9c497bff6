"""`tarock review` and `tarock batch --mode review` through the command line (in-process):
the README's commands, JSON output, the picture, and exit status 2 naming trick and card
for every malformed record, before any search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import main, run
from test_review_record import _malformed

from tarock_solver.review import parse_record

#: The package the commands are imported from (where the monkeypatches must go).
CLI = main.__module__.rsplit(".", 1)[0]

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tarock_solver" / "data"
README_RECORD = ("deal: example-1; declarer: F; contract: three; talon: 4-6; discard: S9 S7 C9; "
                 "play: ♥K ♥J ♥Q | Mond 13 Sküs")


def _no_work(*args, **kwargs):
    raise AssertionError("the review started before the record was checked")


def test_readme_commands_work_as_written(capsys, tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f'tarock review "{README_RECORD}"' in readme
    assert "tarock review example --plot review.png" in readme
    code, out, err = run(capsys, "review", README_RECORD)
    assert code == 0, err
    assert "F (declarer): 2 mistakes in 2 cards, total loss 9 card points" in out
    png = tmp_path / "review.png"
    code, out, err = run(capsys, "review", "example", "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Review example" in out
    for line in readme.split("### Reviewing a played deal")[1].split("```")[1].splitlines():
        if line.strip() and line.strip() != "…":
            assert line.rstrip() in out, line


def test_json_output_is_the_review_document(capsys):
    code, out, err = run(capsys, "review", "example", "--json", "--no-exchange")
    assert code == 0, err
    doc = json.loads(out)
    assert len(doc["cards"]) == 48 and doc["exchange"] is None
    assert parse_record((DATA / "review_example.txt").read_text()).id == doc["record"]["id"]


@pytest.mark.parametrize("index", range(27))
def test_every_malformed_record_exits_2_naming_trick_and_card(capsys, monkeypatch, index):
    monkeypatch.setattr(f"{CLI}.commands.review.review_line", _no_work)
    example = parse_record((DATA / "review_example.txt").read_text(encoding="utf-8"))
    cases = _malformed(example)
    assert len(cases) == 27
    name, text, words = cases[index]
    code, out, err = run(capsys, "review", text)
    assert code == 2, (name, out, err)
    assert "Traceback" not in err
    for w in words:
        assert w in err, (name, w, err)


def test_bad_plot_path_is_refused_before_work(capsys, monkeypatch):
    monkeypatch.setattr(f"{CLI}.commands.review.review_line", _no_work)
    code, _, err = run(capsys, "review", "example", "--plot", "/nonexistent-dir/x.png")
    assert code == 2 and "--plot" in err


def test_batch_review_mode_and_stats(capsys, tmp_path):
    src = tmp_path / "played.jsonl"
    lines = (DATA / "review_examples.jsonl").read_text().splitlines()[:1]
    lines.append(json.dumps({"id": "bad", "deal": "example-1", "declarer": "F",
                             "contract": "three", "talon_pick": "4-6", "discard": "S9 S7 C9",
                             "play": "F: HK HJ T22"}))
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "reviews.csv"
    code, _, err = run(capsys, "batch", str(src), "--mode", "review", "-o", str(out),
                       "--no-progress")
    assert code == 0, err
    assert 'trick 1, card 3 (R): T22' in (tmp_path / "reviews.csv.errors.csv").read_text()
    text = out.read_text()
    assert text.count("\n") == 1 + 1 + 48  # header, the exchange, 48 cards
    code, stats_out, err = run(capsys, "stats", str(out))
    assert code == 0, err
    assert "declarer" in stats_out and "loss_per_deal_mean" in stats_out
    code, stats_out, err = run(capsys, "stats", str(out), "--by", "player")
    assert code == 0, err
    assert "Anna" in stats_out and "Bert" in stats_out and "Cleo" in stats_out


def test_estimate_only_is_instant_and_searches_nothing(capsys, monkeypatch):
    monkeypatch.setattr(f"{CLI}.commands.review.review_line", _no_work)
    code, out, err = run(capsys, "review", "example", "--estimate-only", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [e["trick"] for e in doc["estimate"]] == list(range(1, 18))
    code, out, err = run(capsys, "review", "example", "--estimate-only")
    assert code == 0 and "largest swings" in out


def test_a_bad_record_in_a_file_names_line_id_trick_and_card(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(f"{CLI}.commands.review.review_line", _no_work)
    src = tmp_path / "club.jsonl"
    good = (DATA / "review_examples.jsonl").read_text().splitlines()[0]
    bad = json.dumps({"id": "night-2", "deal": "example-1", "declarer": "F",
                      "contract": "three", "talon_pick": "4-6", "discard": "S9 S7 C9",
                      "play": "F: HK HJ T22"})
    src.write_text(good + "\n" + bad + "\n")
    code, _, err = run(capsys, "review", str(src))
    assert code == 2
    assert 'record "night-2": trick 1, card 3 (R): T22 (Sküs) revokes' in err
    unreadable = tmp_path / "broken.jsonl"
    unreadable.write_text(good + "\n" + '{"id": "x", "deal": "example-1", "declarer": "F", '
                          '"contract": "three", "talon_pick": "4-6", "discard": "S9 S7 C9", '
                          '"play": "F: HK Hx"}\n')
    code, _, err = run(capsys, "review", str(unreadable))
    assert code == 2
    assert "broken.jsonl:2" in err and "trick 1, card 2" in err and "Hx" in err
    code, _, err = run(capsys, "review", str(src), "--id", "nobody")
    assert code == 2 and "nobody" in err


def test_readme_batch_and_stats_line_works_as_written(capsys, monkeypatch, tmp_path):
    import shlex
    import shutil

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if x.startswith("tarock batch tarock_solver/data/"
                                                                "review_examples.jsonl"))
    (tmp_path / "tarock_solver" / "data").mkdir(parents=True)
    shutil.copy(DATA / "review_examples.jsonl", tmp_path / "tarock_solver" / "data")
    monkeypatch.chdir(tmp_path)
    for command in line.split("&&"):
        words = shlex.split(command)
        assert words[0] == "tarock"
        code, out, err = run(capsys, *words[1:])
        assert code == 0, (command, err)
    assert "Anna" in out and "mistakes" in out
    assert (tmp_path / "reviews.csv").read_text().count("\n") == 1 + 3 * 49


def test_batch_review_resumes_from_its_checkpoints(capsys, monkeypatch, tmp_path):
    src = tmp_path / "played.jsonl"
    src.write_text((DATA / "review_examples.jsonl").read_text().splitlines()[0] + "\n")
    out = tmp_path / "r.jsonl"
    args = ("batch", str(src), "--mode", "review", "-o", str(out), "--no-progress",
            "--keep-parts", "--no-timing")
    code, _, err = run(capsys, *args)
    assert code == 0, err
    first = out.read_bytes()
    monkeypatch.setattr("tarock_solver.batch.review_adapter.review_line", _no_work)
    code, _, err = run(capsys, *args)
    assert code == 0, err
    assert "from checkpoints" in err
    assert out.read_bytes() == first


def test_batch_review_in_two_worker_processes_writes_the_same_file(capsys, tmp_path):
    src = tmp_path / "played.jsonl"
    src.write_text((DATA / "review_examples.jsonl").read_text())
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.csv"
        code, _, err = run(capsys, "batch", str(src), "--mode", "review", "-o", str(out),
                           "--jobs", jobs, "--chunk-size", "1", "--no-progress", "--no-timing")
        assert code == 0, err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_a_text_file_with_one_record(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(f"{CLI}.commands.review.review_line", _no_work)
    path = tmp_path / "night.txt"
    path.write_text((DATA / "review_example.txt").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--estimate-only")
    assert code == 0, err
    assert "first view of example" in out
    code, _, err = run(capsys, "review", str(tmp_path / "missing.txt"))
    assert code == 2 and "no such file" in err
