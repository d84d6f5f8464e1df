"""The web server of ``monopoly serve`` (docs/web.md): a lobby to set a table up, and the table played in the
browser over the agents protocol (one WebSocket a seat), the server authoritative. Starlette (the ``[web]``
extra); the pages are static files shipped in the package (no build step, no CDN).

Routes: ``GET /`` the lobby; ``GET /table/{id}`` the table's page (the seat's secret token in the link's
fragment, never sent in a request line); ``GET /api/rulesets`` the editions and variants with their
descriptions; ``POST /api/check`` an edition and variants checked (the located problems); ``POST /api/tables`` a
table made (its seats' links); ``GET /api/tables/{id}/board.svg`` its board; ``WS /ws/{id}`` a seat's or a
spectator's connection (its first message ``{"type": "join", "token": ...}``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents import BOTS
from ..files import create
from ..ruleset import RulesetError, builtin_rulesets, load_ruleset
from ..ruleset.compose import is_builtin_name
from ..ruleset.load import MAX_BYTES, load_bytes, load_file
from ..ruleset.problems import escape
from .table import MAX_CLOCK, MAX_SEATS, MIN_CLOCK, Table, TableError

#: Tables one server keeps at most (the oldest finished ones go first).
MAX_TABLES = 200
#: The longest request body or WebSocket message the server reads.
MAX_BODY = 64 * 1024
#: The longest name of a person at a table.
MAX_NAME = 40
#: Editions uploaded to one server at most.
MAX_UPLOADS = 100
#: The most starting cash a table may set.
MAX_STARTING_CASH = 1_000_000
#: The most minutes a time-limit table may set.
MAX_MINUTES = 24 * 60
#: Connections one table may have open at once (its seats' pages and spectators), and the server in all.
MAX_TABLE_CONNECTIONS = 32
MAX_CONNECTIONS = 1_000
#: Seconds a new connection has to say which seat it is.
JOIN_SECONDS = 30.0
#: What a kept table's file says it is, and the most bytes one may have.
TABLE_FORMAT = "monopoly-web-table"
MAX_SAVED_TABLE = 16 * 1024 * 1024
#: What a table's file keeps of how it was set up (with its seats and game): its ruleset and options.
SOURCE_KEYS = ("edition", "variants", "starting_cash", "minutes")


class Lobby:
    """The server's tables, by id, and the editions uploaded to it (files in ``data``, named by the server).
    With ``keep``, every table is saved in ``data/tables`` after each change (atomically: the project's
    writer) and the tables and uploads found there are resumed when the server starts."""

    def __init__(self, data: Path, keep: bool = False) -> None:
        self.tables: dict[str, Table] = {}
        #: by table: the (event loop, event) of each connection waiting for its lines; told of every change
        self.listeners: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.data = data
        self.keep = keep
        self.uploads: dict[str, tuple[Path, str]] = {}  # "upload:TOKEN" -> (its file, its name)
        self.sources: dict[str, dict[str, Any]] = {}  # by table: its edition, variants and starting cash
        self.connections: dict[str, int] = {}  # by table: its open WebSockets
        if keep:
            (data / "tables").mkdir(exist_ok=True)
            self._resume()

    def save(self, table: Table) -> None:
        """Keep the table as it is now (when the server keeps tables)."""
        if not self.keep:
            return
        from ..files import write_whole

        data = {"format": TABLE_FORMAT, "version": 1, "id": table.id, **self.sources[table.id],
                "seats": [{"name": seat.name, "bot": seat.bot} for seat in table.seats], **table.saved()}
        write_whole(self.data / "tables" / f"{table.id}.json", json.dumps(data, separators=(",", ":")),
                    replace=True)

    def _resume(self) -> None:
        """The uploads and the tables the data folder holds (a file that cannot be resumed is left there, said
        on standard error)."""
        import sys

        from ..game.jsonin import read_json_file

        for path in sorted(self.data.glob("upload-*.yaml"))[:MAX_UPLOADS]:
            key = "upload:" + path.stem[len("upload-"):]
            ruleset, problems = _check(key, [], {key: (path, "")})
            if ruleset is not None:
                self.uploads[key] = (path, ruleset.name)
        for path in sorted((self.data / "tables").glob("*.json"))[:MAX_TABLES]:
            try:
                data = read_json_file(path, max_bytes=MAX_SAVED_TABLE, kind="saved table")
                if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT or data.get("id") != path.stem:
                    raise ValueError("not a table this server saved")
                ruleset, problems = _check(data["edition"], data["variants"], self.uploads)
                if ruleset is None:
                    raise ValueError("; ".join(problems))
                ruleset = _with_options(ruleset, data)
                seats = [(str(seat["name"])[:MAX_NAME], seat["bot"]) for seat in data["seats"]]
                tokens = data["tokens"]
                if type(data["number"]) is not int or not isinstance(tokens, list) or len(tokens) != len(seats) or \
                        not all(isinstance(token, str) and 16 <= len(token) <= 64 for token in tokens):
                    raise ValueError("its links or its count of questions are damaged")
                left = data.get("time_left")
                if left is not None and (type(left) not in (int, float) or not 0 <= left <= MAX_MINUTES * 60):
                    raise ValueError("its time left is damaged")
                table = Table(data["id"], ruleset, seats, seed=0, clock=_clock(data.get("clock")), saved=data)
                table.advance()
            except Exception as exc:  # a damaged or foreign file: the others are resumed all the same
                print(f"monopoly serve: {path.name} not resumed: {escape(str(exc))[:200]}", file=sys.stderr)
                continue
            self.tables[table.id] = table
            self.sources[table.id] = {key: data.get(key) for key in SOURCE_KEYS}

    def add(self, table: Table) -> None:
        if len(self.tables) >= MAX_TABLES:
            finished = [key for key, t in self.tables.items() if t.game.finished] or list(self.tables)
            self.tables.pop(finished[0])
            self.listeners.pop(finished[0], None)
        self.tables[table.id] = table

    def listen(self, table_id: str) -> asyncio.Event:
        """An event set whenever the table changes, for the connection asking (on its own event loop)."""
        event = asyncio.Event()
        self.listeners.setdefault(table_id, []).append((asyncio.get_running_loop(), event))
        return event

    def unlisten(self, table_id: str, event: asyncio.Event) -> None:
        self.listeners[table_id] = [entry for entry in self.listeners.get(table_id, []) if entry[1] is not event]

    def notify(self, table_id: str) -> None:
        """Wake every connection of the table (each on its loop: a server has one, a test client several)."""
        here = asyncio.get_running_loop()
        for loop, event in self.listeners.get(table_id, []):
            if loop is here:
                event.set()
            else:
                loop.call_soon_threadsafe(event.set)


def _static(name: str) -> Any:
    folder = resources.files("monopoly.web").joinpath("static")
    return folder.joinpath(name) if name else folder


def rulesets_listed() -> dict[str, Any]:
    editions: list[dict[str, str]] = []
    variants: list[dict[str, str]] = []
    for builtin in builtin_rulesets():
        try:
            description = load_file(builtin.path).data.get("description", "")
        except Exception:  # a built-in file is ours: listed without its description if it cannot be read
            description = ""
        (editions if builtin.kind == "edition" else variants).append({"id": builtin.id, "description": description})
    return {"editions": editions, "variants": variants, "bots": list(BOTS)}


def _check(edition: Any, variants: Any, uploads: dict[str, tuple[Path, str]] | None = None) -> tuple[Any, list[str]]:
    """The ruleset of a built-in (or uploaded) edition with built-in variants, or the problems that refuse it."""
    names = {b.id: b.kind for b in builtin_rulesets()}
    uploaded = (uploads or {}).get(edition) if isinstance(edition, str) else None
    if uploaded is None and (not isinstance(edition, str) or names.get(edition) != "edition"):
        return None, [f"no built-in edition {escape(str(edition))[:40]!r}"]
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants) or len(variants) > 20:
        return None, ["variants are a list of names (at most 20)"]
    unknown = [v for v in variants if names.get(v) != "variant"]
    if unknown:
        return None, [f"no built-in variant {escape(v)[:40]!r}" for v in unknown]
    try:
        return load_ruleset(uploaded[0] if uploaded is not None else edition, list(variants)), []
    except RulesetError as exc:
        shown = [problem.format() for problem in exc.problems][:20]
        if uploaded is not None:  # the server's own folder is nobody's business: the file is "upload.yaml"
            shown = [line.replace(str(uploaded[0]), "upload.yaml") for line in shown]
        return None, shown


def _upload(lobby: Lobby, raw: bytes) -> tuple[str | None, list[str], str | None]:
    """An uploaded edition checked and kept: (its id "upload:TOKEN", no problems, its name), or (None, the
    located problems, None). It may extend a built-in edition only: nothing a file says decides what the server
    reads."""
    if len(lobby.uploads) >= MAX_UPLOADS:
        return None, [f"this server keeps {MAX_UPLOADS} uploaded editions at most"], None
    try:
        document = load_bytes(raw, "upload.yaml")
    except RulesetError as exc:
        return None, [problem.format() for problem in exc.problems][:20], None
    data = document.data if isinstance(document.data, dict) else {}
    base = data.get("extends")
    if base is not None and (not isinstance(base, str) or not is_builtin_name(base)):
        return None, ["upload.yaml: an uploaded edition extends a built-in edition only (extends: classic)"], None
    if data.get("kind", "edition") != "edition":
        return None, ["upload.yaml: upload an edition (a variant is chosen among the house rules)"], None
    token = secrets.token_urlsafe(12)
    path = lobby.data / f"upload-{token}.yaml"
    with create(path) as out:
        out.write(raw.decode("utf-8"))
    key = f"upload:{token}"
    ruleset, problems = _check(key, [], {key: (path, "")})
    if ruleset is None:
        path.unlink(missing_ok=True)
        return None, problems, None
    lobby.uploads[key] = (path, ruleset.name)
    return key, [], ruleset.name


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ValueError("the request is too large")
    return json.loads(body)


def create_app(data: str | Path | None = None) -> Starlette:
    """The application: ``uvicorn.run(create_app())`` serves it (``monopoly serve`` does). Uploaded editions are
    kept in the folder ``data`` (made if missing), under names the server chooses; without it, in a temporary
    folder of the process's life."""
    if data is None:
        holder = tempfile.TemporaryDirectory(prefix="monopoly-serve-")
        folder = Path(holder.name)
    else:
        holder = None
        folder = Path(data)
        folder.mkdir(parents=True, exist_ok=True)
    lobby = Lobby(folder, keep=data is not None)

    routes = [
        Route("/", index),
        Route("/table/{table_id}", table_page),
        Route("/api/rulesets", api_rulesets),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/api/tables", api_tables, methods=["POST"]),
        Route("/api/editions", api_editions, methods=["POST"]),
        Route("/api/tables/{table_id}/board.svg", board_svg),
        WebSocketRoute("/ws/{table_id}", connect),
        Mount("/static", StaticFiles(directory=str(_static(""))), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.lobby = lobby
    app.state.data_folder = holder  # a temporary folder lives as long as the application
    return app


def _with_options(ruleset: Any, data: dict[str, Any]) -> Any:
    """The ruleset with a table's options: ``starting_cash`` (0 to MAX_STARTING_CASH) and ``minutes`` (the
    time-limit rules' length, 1 to MAX_MINUTES; only where the rules end on time)."""
    cash = data.get("starting_cash")
    if cash is not None:
        if type(cash) is not int or not 0 <= cash <= MAX_STARTING_CASH:
            raise ValueError(f"the starting cash is a whole number from 0 to {MAX_STARTING_CASH:,}")
        ruleset = attrs.evolve(ruleset, starting_cash=cash)
    minutes = data.get("minutes")
    if minutes is not None:
        end = ruleset.rules.end
        if end.when != "time":
            raise ValueError("minutes are for a game with a time limit (the time-limit variant)")
        if type(minutes) is not int or not 1 <= minutes <= MAX_MINUTES:
            raise ValueError(f"the game's minutes are a whole number from 1 to {MAX_MINUTES:,}")
        ruleset = attrs.evolve(ruleset, rules=attrs.evolve(ruleset.rules, end=attrs.evolve(end, minutes=minutes)))
    return ruleset


def _clock(raw: Any) -> float | None:
    """A table's per-decision clock: None or 0 for none, else whole seconds from MIN_CLOCK to MAX_CLOCK."""
    if type(raw) is float and raw.is_integer():  # as a kept table's file writes it
        raw = int(raw)
    if raw is None or (type(raw) is int and raw == 0):
        return None
    if type(raw) is not int or not MIN_CLOCK <= raw <= MAX_CLOCK:
        raise ValueError(f"the clock gives each decision {MIN_CLOCK} to {MAX_CLOCK} seconds (0: no clock)")
    return float(raw)


async def index(request: Request) -> Response:
    return FileResponse(str(_static("lobby.html")))


async def table_page(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    if request.path_params["table_id"] not in lobby.tables:
        return JSONResponse({"error": "no such table"}, status_code=404)
    return FileResponse(str(_static("table.html")))


async def api_rulesets(request: Request) -> Response:
    return JSONResponse(rulesets_listed())


async def api_check(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        data = await _json_body(request)
    except ValueError as exc:
        return JSONResponse({"ok": False, "problems": [str(exc)[:200]]}, status_code=400)
    ruleset, problems = _check(data.get("ruleset") if isinstance(data, dict) else None,
                               data.get("variants", []) if isinstance(data, dict) else None, lobby.uploads)
    return JSONResponse({"ok": ruleset is not None, "problems": problems,
                         "name": ruleset.name if ruleset is not None else None,
                         "starting_cash": ruleset.starting_cash if ruleset is not None else None,
                         "minutes": ruleset.rules.end.minutes
                         if ruleset is not None and ruleset.rules.end.when == "time" else None})


async def api_editions(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    body = await request.body()
    if len(body) > MAX_BYTES:
        return JSONResponse({"ok": False, "problems": [f"an edition file is at most {MAX_BYTES // 1024} KiB"]},
                            status_code=400)
    key, problems, name = _upload(lobby, body)
    return JSONResponse({"ok": key is not None, "id": key, "name": name, "problems": problems},
                        status_code=200 if key is not None else 400)


async def api_tables(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        data = await _json_body(request)
        if not isinstance(data, dict):
            raise ValueError("a table is a JSON object")
        ruleset, problems = _check(data.get("ruleset"), data.get("variants", []), lobby.uploads)
        if ruleset is None:
            return JSONResponse({"ok": False, "problems": problems}, status_code=400)
        ruleset = _with_options(ruleset, data)
        clock = _clock(data.get("clock"))
        seats = _seats(data.get("seats"))
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000) + 1
        if type(seed) is not int or not 0 <= seed < 2**31:
            raise ValueError("the seed is a whole number from 0")
        table = Table(secrets.token_urlsafe(9), ruleset, seats, seed=seed, max_turns=data.get("max_turns"),
                      clock=clock)
    except (ValueError, TableError) as exc:
        return JSONResponse({"ok": False, "problems": [str(exc)[:300]]}, status_code=400)
    lobby.add(table)
    lobby.sources[table.id] = {"edition": data.get("ruleset"), "variants": list(data.get("variants", [])),
                               "starting_cash": data.get("starting_cash"), "minutes": data.get("minutes")}
    table.advance()
    lobby.save(table)
    return JSONResponse({"ok": True, "id": table.id, "seed": seed, "watch": f"/table/{table.id}#watch",
                         "seats": [{"name": s.name, "bot": s.bot,
                                    "link": None if s.bot else f"/table/{table.id}#{s.token}"}
                                   for s in table.seats]})


async def board_svg(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    table = lobby.tables.get(request.path_params["table_id"])
    if table is None:
        return JSONResponse({"error": "no such table"}, status_code=404)
    from ..analysis.render import render_board_svg

    return Response(render_board_svg(table.ruleset), media_type="image/svg+xml")


async def connect(websocket: WebSocket) -> None:
    lobby: Lobby = websocket.app.state.lobby
    await websocket.accept()
    table = lobby.tables.get(websocket.path_params["table_id"])
    if table is None:
        await websocket.close(code=4404)
        return
    if lobby.connections.get(table.id, 0) >= MAX_TABLE_CONNECTIONS or \
            sum(lobby.connections.values()) >= MAX_CONNECTIONS:
        await websocket.send_json({"type": "error", "reason": "too many connections to this table or server"})
        await websocket.close(code=4429)
        return
    lobby.connections[table.id] = lobby.connections.get(table.id, 0) + 1
    try:
        await _serve(websocket, table)
    finally:
        lobby.connections[table.id] -= 1


async def _serve(websocket: WebSocket, table: Table) -> None:
    lobby: Lobby = websocket.app.state.lobby
    try:  # the join comes first, and soon: a connection that says nothing is not kept open
        join = json.loads(await asyncio.wait_for(websocket.receive_text(), JOIN_SECONDS))
        token = join.get("token") if isinstance(join, dict) else None
        seat = None if token == "watch" else table.seat_of(str(token))
    except (ValueError, TableError, TypeError, asyncio.TimeoutError):
        await websocket.send_json({"type": "error", "reason": "no seat of this table has that link"})
        await websocket.close(code=4403)
        return
    changed = lobby.listen(table.id)
    try:
        if seat is None:
            await _watch(websocket, lobby, table, changed)
        else:
            await _play(websocket, table, seat, changed)
    finally:
        lobby.unlisten(table.id, changed)


async def _play(websocket: WebSocket, table: Table, seat: int, changed: asyncio.Event) -> None:
    lobby: Lobby = websocket.app.state.lobby
    await websocket.send_json({"type": "joined", "seat": seat, "players": [s.name for s in table.seats]})
    table.rejoin(seat)  # a (re)joining page is sent the whole game so far, and the question waiting
    sender = asyncio.create_task(_pump(websocket, lobby, table, seat, changed))
    try:
        while True:
            text = await websocket.receive_text()
            table.receive(seat, text.encode("utf-8")[:MAX_BODY + 1])
            lobby.save(table)
            lobby.notify(table.id)
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()


def _seats(raw: Any) -> list[tuple[str, str | None]]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_SEATS:
        raise ValueError(f"seats are a list of 1 to {MAX_SEATS}")
    seats: list[tuple[str, str | None]] = []
    for number, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise ValueError(f"seat {number} is an object: {{\"bot\": NAME}} or {{\"name\": PERSON}}")
        bot = entry.get("bot")
        if bot is not None:
            if bot not in BOTS:
                raise ValueError(f"seat {number}: no bot {escape(str(bot))[:30]!r} ({', '.join(BOTS)})")
            seats.append((f"{bot}-{number}", bot))
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise ValueError(f"seat {number}: a person's name is 1 to {MAX_NAME} printable characters")
        seats.append((name.strip(), None))
    return seats


async def _next_change(lobby: Lobby, table: Table, changed: asyncio.Event) -> None:
    """Wait until the table changes. Meanwhile its clocks are kept: when one runs out first, the table applies
    it (a person answered for, a game told its time is up), is saved, and every connection woken (any of the
    table's connections may be the one that does it; the first does)."""
    while True:
        deadline = table.next_deadline()
        wait = None if deadline is None else max(0.0, deadline - time.monotonic()) + 0.01
        try:
            await asyncio.wait_for(changed.wait(), wait)
        except asyncio.TimeoutError:
            if table.expire():
                lobby.save(table)
                lobby.notify(table.id)
            continue
        changed.clear()
        return


async def _pump(websocket: WebSocket, lobby: Lobby, table: Table, seat: int, changed: asyncio.Event) -> None:
    """Send the seat's lines as they come."""
    while True:
        for message in table.take(seat):
            await websocket.send_json(message)
        await _next_change(lobby, table, changed)


async def _watch(websocket: WebSocket, lobby: Lobby, table: Table, changed: asyncio.Event) -> None:
    """A spectator: the game's events as they come (public ones only), until it disconnects."""
    from ..agents.protocol import public_event, public_state

    sent = 0
    board = [{"name": space.name} for space in table.ruleset.board]
    await websocket.send_json({"type": "joined", "seat": None, "players": [s.name for s in table.seats],
                               "board": board})
    try:
        while True:
            events = table.game.events
            if sent < len(events):
                await websocket.send_json({"type": "events", "events": [public_event(r) for r in events[sent:]],
                                           "state": public_state(table.game), "clocks": table.clocks()})
                sent = len(events)
            await _next_change(lobby, table, changed)
    except WebSocketDisconnect:
        pass
