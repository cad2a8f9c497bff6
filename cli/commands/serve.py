"""`tarock serve`: the Advice, Deal and Review pages in a browser (the ``web`` extra),
for the game of ``--game``: one server serves one game."""

from __future__ import annotations

import click

from ..main import Settings


@click.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind (the default serves this machine only).")
@click.pass_obj
def command(settings: Settings, port: int, host: str) -> None:
    """A local web app: pick cards for advice, solve a deal, replay a review.

    Open http://127.0.0.1:8000/ (or the --host and --port given).  It serves the game of
    --game: tarock --game french serve for French Tarot.  Needs the web extra:
    pip install "tarock-solver[web]".
    """
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as exc:
        click.echo(f'Error: tarock serve needs the web extra ({exc.name} is missing): '
                   'pip install "tarock-solver[web]".', err=True)
        raise SystemExit(2) from None
    from tarock_solver.games import game_named

    title = game_named(settings.game).title
    click.echo(f"Serving {title} on http://{host}:{port}/  (Ctrl-C stops)", err=True)
    uvicorn.run(create_app(settings.game), host=host, port=port, log_level="warning")
