"""The web app of `tarock serve`: the Advice, Deal and Review pages and the job
stream behind them (Starlette), for one game: the one the server was started with
(``tarock --game french serve`` serves French Tarot's pages).

``GET /advise``, ``/deal``, ``/review`` answer the page (its fields filled from the
address); the page's script opens ``GET /run/<page>?<the same query>``, a stream of
server-sent events fed by :func:`.jobs.stream`.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .jobs import GAME_JOBS, FieldError, event, stream
from .pages import page_html

STATIC = Path(__file__).resolve().parent / "static"


async def home(_request: Request) -> Response:
    return RedirectResponse("/advise")


async def page(request: Request) -> Response:
    return HTMLResponse(page_html(request.url.path.strip("/"), request.app.state.game))


async def run(request: Request) -> Response:
    kind = request.path_params["kind"]
    jobs = GAME_JOBS[request.app.state.game]
    if kind not in jobs:
        return Response("no such page", status_code=404)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    try:
        job = jobs[kind](request.query_params)
    except FieldError as exc:
        answer = event("error", {"field": exc.field, "message": exc.message})

        async def bad_input():
            yield answer

        return StreamingResponse(bad_input(), media_type="text/event-stream", headers=headers)
    return StreamingResponse(stream(job), media_type="text/event-stream", headers=headers)


def create_app(game: str = "illustrated") -> Starlette:
    """The app of ``game`` (illustrated or french): three pages, the job stream, the
    script and the style sheet."""
    if game not in GAME_JOBS:
        raise ValueError(f"no pages for the game {game!r}")
    app = Starlette(routes=[
        Route("/", home),
        Route("/advise", page),
        Route("/deal", page),
        Route("/review", page),
        Route("/run/{kind}", run),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.game = game
    return app
