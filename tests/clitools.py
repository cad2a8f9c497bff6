"""Run `tarock ARGS` in-process for the CLI tests, as the console script does."""

from __future__ import annotations

from tarock_cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `tarock ARGS` through cli.main.main."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
