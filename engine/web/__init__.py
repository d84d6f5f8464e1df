"""The web table (``monopoly serve``, docs/web.md): tables of people and bots played in the browser over the
agents protocol. :mod:`monopoly.web.table` drives a game and needs nothing more; :mod:`monopoly.web.server`
serves it (the ``[web]`` extra: Starlette and uvicorn)."""
