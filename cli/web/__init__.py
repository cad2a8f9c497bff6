"""`tarock serve`: a local web app with the Advice, Deal and Review pages, for the game
of ``--game`` (Illustrated Tarock, or French Tarot with ``tarock --game french serve``).

Needs the ``web`` extra (Starlette, uvicorn).  Modules: :mod:`.app` — the routes;
:mod:`.pages` — the pages' HTML; :mod:`.jobs` — fields to CLI words, the job stream;
:mod:`.worker` — the job process; ``static/`` — the script and the style sheet.
"""
