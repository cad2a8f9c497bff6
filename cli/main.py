"""Entry point of the `tarock` command: global options and command registration.

Each command lives in its own module under ``cli/commands`` and exposes a
click command named ``command``.  Errors from the library (``TarockError``)
become one message on stderr and exit status 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from tarock_solver import __version__
from tarock_solver.errors import TarockError

if TYPE_CHECKING:
    from tarock_solver.rules import Rules

#: Command modules, in the order `tarock --help` lists them.
COMMAND_MODULES = (
    "advise",
    "solve",
    "review",
    "batch",
    "stats",
    "bench",
    "show",
    "deal",
    "score",
    "rules",
    "serve",
)


@dataclass
class Settings:
    """Global options shared by every command.

    ``rules`` is the profile name given with ``--rules`` and ``opts`` the ``--opt``
    overrides; commands take the loaded :class:`Rules` from :attr:`loaded_rules` (or
    :meth:`rules_named` for a profile of their own), which loads each profile once per
    invocation, on first use: a command that needs no rules never fails on them.
    """

    rules: str = "dummett"
    game: str = "illustrated"
    opts: dict[str, str] = field(default_factory=dict)
    debug: bool = False
    ascii: bool = False
    _loaded: dict[str, Rules] = field(default_factory=dict, init=False, repr=False,
                                      compare=False)

    @property
    def loaded_rules(self) -> Rules:
        """The rules of ``--rules`` with the ``--opt`` overrides."""
        return self.rules_named(self.rules)

    def rules_named(self, name: str, options: Mapping[str, Any] | None = None) -> Rules:
        """Profile ``name`` with ``options`` and, over them, the ``--opt`` overrides.

        RulesError if the profile, a key or a value is unknown.
        """
        merged = {**(options or {}), **self.opts}
        key = json.dumps([name, merged], sort_keys=True, default=repr)
        if key not in self._loaded:
            # Imported here: the rules pull in numpy, which `tarock --help` does not need.
            if self.game == "french":
                from tarock_solver.french.rules import load_rules as load_french

                self._loaded[key] = load_french(name, merged)
            else:
                from tarock_solver.rules import load_rules

                self._loaded[key] = load_rules(name, merged)
        return self._loaded[key]


def parse_opt(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        if "=" not in v:
            raise click.BadParameter(f'"{v}" is not KEY=VALUE (for example partner_capture=fail)',
                                     param_hint="--opt")
        key, _, val = v.partition("=")
        out[key.strip()] = val.strip()
    return out


#: The commands' package: ``tarock_cli.commands`` when installed (the ``cli/`` folder
#: installs under that name), ``cli.commands`` when run from a source checkout.
_COMMANDS = f"{__package__}.commands"


#: The commands that serve French Tarot, and the module of those whose French side is a
#: command of its own (the others dispatch on ``Settings.game`` inside).
FRENCH_COMMANDS: dict[str, str | None] = {
    "show": None, "deal": None, "score": None, "rules": None, "solve": "_french_solve",
    "review": "_french_review", "batch": None, "stats": None, "bench": "_french_bench",
    "advise": "_french_advise", "serve": None,
}


class TarockGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMAND_MODULES if self.get_command(ctx, name) is not None]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMAND_MODULES:
            return None
        module_name = name
        if str(ctx.params.get("game") or "").lower() == "french" and FRENCH_COMMANDS.get(name):
            module_name = FRENCH_COMMANDS[name] or name
        try:
            module = importlib.import_module(f"{_COMMANDS}.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{_COMMANDS}.{module_name}":
                return None
            raise
        return module.command


@click.group(cls=TarockGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tarock")
@click.option("--game", "game", default="illustrated", show_default=True,
              type=click.Choice(["illustrated", "french"], case_sensitive=False),
              help="The game: Illustrated Tarock or French Tarot.")
@click.option("--rules", "rules", default=None, metavar="NAME",
              help="Rule profile: dummett (default), beck, ms2016 or loew; fft for French Tarot.")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE",
              help="Override one option key of the profile (repeatable).")
@click.option("--ascii", "ascii_", is_flag=True, help="Plain ASCII output (no card symbols).")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def cli(ctx: click.Context, game: str, rules: str | None, opts: tuple[str, ...], ascii_: bool,
        debug: bool) -> None:
    """Double-dummy analysis and bidding advice for Illustrated Tarock and French Tarot."""
    from tarock_solver.games import game_named

    chosen = game_named(game)
    if chosen.name == "french" and ctx.invoked_subcommand not in (None, *FRENCH_COMMANDS):
        from tarock_solver.errors import RulesError

        raise RulesError(f"tarock {ctx.invoked_subcommand} serves Illustrated Tarock only; "
                         f"with --game french: {', '.join(FRENCH_COMMANDS)}.")
    ctx.obj = Settings(rules=rules or chosen.default_rules, game=chosen.name,
                       opts=parse_opt(opts), debug=debug, ascii=ascii_)


def require_game(settings: Settings, command: str, games: tuple[str, ...]) -> None:
    """Stop with a clear error (exit 2) when ``command`` does not serve ``--game``."""
    if settings.game not in games:
        from tarock_solver.errors import RulesError

        raise RulesError(f"tarock {command} does not serve --game {settings.game} "
                         f"(it serves {', '.join(games)})")


def main(argv: list[str] | None = None) -> None:
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        # In non-standalone mode click returns the code of ctx.exit(N) instead of exiting.
        rv = cli.main(args=argv, prog_name="tarock", standalone_mode=False)
        if isinstance(rv, int) and rv != 0:
            sys.exit(rv)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except TarockError as exc:
        if debug:
            raise
        click.echo(f"Error: {exc}" if not str(exc).startswith(("Error", "Warning")) else str(exc),
                   err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
