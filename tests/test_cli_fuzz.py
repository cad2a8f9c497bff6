"""Fuzz the command line: random text, random bytes and token soups for every parser.

Each command's hand, deal, record and option parsers get input drawn by hypothesis —
arbitrary text, decoded random bytes, and soups of card tokens, seat markers and
punctuation that look almost right.  Whatever comes in, the command must end with exit
status 2 and one ``Error:`` message (a deal error may list its problems and a caret line
under it), or, where the input can happen to be valid, succeed; never a traceback.

No exact solve of a full deal can start: the adviser is replaced by a stand-in that
raises :class:`WorkStarted`, solve runs with ``--estimate-only`` or on a broken deal,
batch gets files without a readable deal, and bench is stopped by an unwritable output
before it runs.  ``max_examples`` keeps the whole file well under a minute on one core
(about 20 s of CPU time); ``TAROCK_FUZZ_EXAMPLES=500`` hunts longer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from tarock_cli.main import main

from tarock_solver.analysis import empty_results, write_results

HAND = "21,20,16,15,7,5,2,1.K.KQ.K97.Q9"

#: Card tokens in every spelling, seat markers, the deal punctuation, and near misses.
TOKENS = [
    "T1", "T21", "T22", "XXI", "VII", "Pagat", "Uhu", "Kakadu", "Mond", "Sküs", "Skus", "22",
    "23", "0", "HK", "H1", "HA", "H7", "DQ", "SC", "S10", "ST", "S2", "C7", "CJ", "HR", "♥K",
    "K♥", "Herz-Dame", "Pik 10", "Q♠x", "F:", "M:", "R:", "N:", "-", "?", "/", ",", ".", ";",
    ":", "=", "@", "example-", "example-9", "EXAMPLE-0", "{", "}", "[", "]", '"', "null", "true",
    "nan", "inf", "-1", "1e9", "three", "lower", "two", "one", "solo", "pass", "pagat", "uhu",
    "absolut", "valat", "before", "after", "holder", "trick", "winner", "game", "trull",
    "koepfe", "kings", "\t", "\\", "\u200b", "ß", "∞",
]

#: Text an argument can hold (no NUL: no shell can pass one).
_TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)),
                max_size=40)
_BYTES_AS_TEXT = st.binary(max_size=40).map(
    lambda b: b.decode("utf-8", "replace").replace("\x00", ""))
_SOUP = st.tuples(st.lists(st.sampled_from(TOKENS), max_size=10),
                  st.sampled_from([" ", "", ",", ".", "/"])).map(lambda t: t[1].join(t[0]))
FUZZ = st.one_of(_TEXT, _BYTES_AS_TEXT, _SOUP)

#: File contents: random bytes, or lines of JSON-ish and CSV-ish token soup.
_LINE = st.tuples(st.lists(st.sampled_from(TOKENS), max_size=12),
                  st.sampled_from([" ", "", ",", '","', '":"'])).map(lambda t: t[1].join(t[0]))
FILE_BYTES = st.one_of(
    st.binary(max_size=200),
    st.lists(st.one_of(_LINE, _LINE.map(lambda s: '{"deal": "' + s + '"}'),
                       _LINE.map(lambda s: '{"hand": "' + s + '", "seat": "M"}'),
                       _LINE.map(lambda s: "id,deal\n1," + s)), max_size=4)
    .map(lambda lines: "\n".join(lines).encode("utf-8")),
)

# No "explain" phase: it only annotates failures, and costs an import of libcst.
# TAROCK_FUZZ_EXAMPLES raises the examples per parser for a longer hunt (CI: 25).
FUZZ_SETTINGS = settings(max_examples=int(os.environ.get("TAROCK_FUZZ_EXAMPLES", "25")),
                         deadline=None, database=None,
                         phases=[Phase.explicit, Phase.generate, Phase.shrink],
                         suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                HealthCheck.too_slow])


class WorkStarted(Exception):  # noqa: N818 — a signal, not an error
    """The command got past its checks and began real work (the input was valid)."""


def _started(*args, **kwargs):
    raise WorkStarted


def inside(f: dict[str, Path], text: str) -> str:
    """``text`` as a file name in the test's folder: a fuzzed output path must never
    reach the file system elsewhere (the tests may run as root)."""
    return str(f["root"] / (text.replace("/", "_").replace("\\", "_") or "_"))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fuzz")
    results = root / "results.csv"
    write_results(empty_results(), results)
    no_deals = root / "none.jsonl"
    no_deals.write_text("# no deal here\n")
    bad_json = root / "bad.json"
    bad_json.write_text("{")
    return {"root": root, "results": results, "no_deals": no_deals, "bad_json": bad_json}


@pytest.fixture(autouse=True)
def no_long_work(monkeypatch):
    monkeypatch.setattr("tarock_cli.commands.advise.advise", _started)
    monkeypatch.setattr("tarock_solver.bench.run_bench", _started)
    monkeypatch.setattr("tarock_solver.bench.advise.run_advise_bench", _started)


def _run(capsys, argv: list[str]) -> tuple[int | str, str, str]:
    try:
        main(argv)
        code: int | str = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except WorkStarted:
        code = "started"
    out, err = capsys.readouterr()
    return code, out, err


_EXCEPTION_LINE = re.compile(r"^\s*[A-Za-z_][\w.]*(Error|Exception|Warning)\b(?!:\s)|^\s*File \"")


def check(capsys, argv: list[str], allowed: tuple[int | str, ...]) -> None:
    code, out, err = _run(capsys, argv)
    where = f"tarock {' '.join(map(repr, argv))}"
    assert code in allowed, f"{where}: exit {code}\n{err}"
    assert "Traceback" not in out + err, f"{where}\n{err}"
    for line in err.splitlines():
        assert not _EXCEPTION_LINE.search(line), f"{where}: a raw exception\n{err}"
    if code == 2:
        errors = [line for line in err.splitlines() if line.startswith("Error")]
        assert len(errors) == 1 and errors[0].startswith("Error: "), f"{where}\n{err}"


# ----------------------------------------------------------------------------- hands and deals

# These can never be valid: the token soups hold at most 10 cards.
MUST_FAIL = {
    "show DEAL": lambda x, f: ["show", x],
    "solve DEAL": lambda x, f: ["solve", x, "--estimate-only"],
    "advise HAND": lambda x, f: ["advise", x, "--no-progress"],
    "advise --seat M HAND": lambda x, f: ["advise", "--seat", "M", x, "--no-progress"],
    "solve game points": lambda x, f: ["solve", x, "--objective", "game-points"],
}


@pytest.mark.parametrize("name", list(MUST_FAIL))
@FUZZ_SETTINGS
@given(text=FUZZ)
def test_hand_and_deal_parsers(capsys, files, name, text):
    check(capsys, MUST_FAIL[name](text, files), (2,))


# ----------------------------------------------------------------------------- options

# Inputs a valid value can match (a contract name, a number): exit 0 is fine, and the
# adviser's stand-in says when its checks let the input through.
MAY_PASS = {
    "advise --seat": lambda x, f: ["advise", HAND, "--seat", x],
    "advise --contract": lambda x, f: ["advise", HAND, "--contract", x],
    "advise --talon": lambda x, f: ["advise", HAND, "--contract", "three", "--talon", x],
    "advise --samples": lambda x, f: ["advise", HAND, "--samples", x],
    "advise --time-limit": lambda x, f: ["advise", HAND, "--time-limit", x],
    "advise --csv": lambda x, f: ["advise", HAND, "--csv", inside(f, x)],
    "solve --contract": lambda x, f: ["solve", "example-2", "--estimate-only", "--contract", x],
    "solve --declarer": lambda x, f: ["solve", "example-2", "--estimate-only", "--declarer", x],
    "solve --announce": lambda x, f: ["solve", "XX", "--objective", "game-points",
                                      "--announce", x],
    "solve --contra": lambda x, f: ["solve", "XX", "--objective", "game-points", "--contra", x],
    "score --contract": lambda x, f: ["score", "--contract", x, "--points", "40"],
    "score --points": lambda x, f: ["score", "--contract", "two", "--points", x],
    "score --announce": lambda x, f: ["score", "--contract", "two", "--points", "40",
                                      "--announce", x],
    "score --bird": lambda x, f: ["score", "--contract", "two", "--points", "40", "--bird", x],
    "score --contra": lambda x, f: ["score", "--contract", "two", "--points", "40",
                                    "--contra", x],
    "score --hand-bonus": lambda x, f: ["score", "--contract", "two", "--points", "40",
                                        "--hand-bonus", x],
    "score --option": lambda x, f: ["score", "--contract", "two", "--points", "40",
                                    "--option", x],
    "score --hand": lambda x, f: ["score", "--contract", "two", "--points", "40",
                                  "--hand", f"M={x}"],
    "score --level": lambda x, f: ["score", "--contract", "two", "--points", "40", "--level", x],
    "score --trischaken-points": lambda x, f: ["score", "--contract", "trischaken",
                                               "--trischaken-points", x],
    "rules NAME": lambda x, f: ["rules", x],
    "--opt": lambda x, f: ["--opt", x, "rules"],
    "--rules": lambda x, f: ["--rules", x, "show", "example-1"],
    "deal --seed": lambda x, f: ["deal", "--seed", x],
    "deal -o": lambda x, f: ["deal", "--seed", "1", "-o", inside(f, x)],
    "show --id": lambda x, f: ["show", str(f["no_deals"]), "--id", x],
    "stats --by": lambda x, f: ["stats", str(f["results"]), "--by", x],
    "stats --csv": lambda x, f: ["stats", str(f["results"]), "--csv", inside(f, x)],
    "batch --contract": lambda x, f: ["batch", str(f["no_deals"]), "--contract", x,
                                      "-o", str(f["root"] / "c.csv"), "--no-progress"],
    "batch --declarer": lambda x, f: ["batch", str(f["no_deals"]), "--declarer", x,
                                      "-o", str(f["root"] / "d.csv"), "--no-progress"],
    "batch --rules": lambda x, f: ["batch", str(f["no_deals"]), "--rules", x,
                                   "-o", str(f["root"] / "r.csv"), "--no-progress"],
    "batch -o": lambda x, f: ["batch", str(f["no_deals"]), "-o", inside(f, x),
                              "--no-progress"],
    "batch --node-limit": lambda x, f: ["batch", str(f["no_deals"]), "--node-limit", x,
                                        "-o", str(f["root"] / "n.csv"), "--no-progress"],
    # bench: an output it cannot write stops it before any solve, whatever else passes.
    "bench --threads": lambda x, f: ["bench", "--threads", x, "--json", "bench.txt"],
    "bench --tricks": lambda x, f: ["bench", "--tricks", x, "--json", "bench.txt"],
    "bench --time-limit": lambda x, f: ["bench", "--advise", "--time-limit", x,
                                        "--json", "bench.txt"],
    "bench --json": lambda x, f: ["bench", "--compare", str(f["bad_json"]),
                                  "--json", inside(f, x)],
}


@pytest.mark.parametrize("name", list(MAY_PASS))
@FUZZ_SETTINGS
@given(text=FUZZ)
def test_option_parsers(capsys, files, name, text):
    check(capsys, MAY_PASS[name](text, files), (0, 2, "started"))


# ----------------------------------------------------------------------------- files

FILE_COMMANDS = {
    "show FILE.jsonl": ("jsonl", lambda p, f: ["show", str(p)], (2,)),
    "show FILE.csv": ("csv", lambda p, f: ["show", str(p)], (2,)),
    "score --json-in": ("json", lambda p, f: ["score", "--json-in", str(p)], (0, 2)),
    "stats FILE.csv": ("csv", lambda p, f: ["stats", str(p)], (2,)),
    "stats FILE.jsonl": ("jsonl", lambda p, f: ["stats", str(p)], (2,)),
    "bench --compare": ("json", lambda p, f: ["bench", "--compare", str(p), "--against",
                                              str(p)], (2,)),
    # Bad records are skipped and listed (exit 3 with --strict); a file that cannot be
    # read at all is exit 2; a file without any deal gives an empty result.
    "batch FILE.jsonl": ("jsonl", lambda p, f: ["batch", str(p), "--strict", "--no-progress",
                                                "-o", str(f["root"] / "b.csv")], (0, 2, 3)),
    "batch FILE.csv": ("csv", lambda p, f: ["batch", str(p), "--strict", "--no-progress",
                                            "-o", str(f["root"] / "b.csv")], (0, 2, 3)),
}


@pytest.mark.parametrize("name", list(FILE_COMMANDS))
@FUZZ_SETTINGS
@given(data=FILE_BYTES)
# a vertical tab (a line break to str.splitlines) in a quoted header once split the message
@example(data=b"\x00\x0b")
@example(data=b"a\x0cb,\x1c\n1,2")
def test_record_parsers(capsys, files, name, data):
    suffix, argv, allowed = FILE_COMMANDS[name]
    path = files["root"] / f"fuzz.{suffix}"
    path.write_bytes(data)
    check(capsys, argv(path, files), allowed)
    if name.startswith("batch"):
        # Every message of a batch run is one line of its own kind.
        _, _, err = _run(capsys, argv(path, files))
        for line in err.splitlines():
            assert line.startswith(("Warning: ", "Error: ", "Done: ")), err
