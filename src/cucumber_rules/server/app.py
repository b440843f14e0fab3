"""The ASGI application: the HTTP API, the WebSocket endpoint, the schema files and the docs site.

Routes:

- `POST /api/tables`: create a table; the answer holds one secret per person's seat and one
  for spectators.
- `GET /api/table` and `GET /api/record` (with `Authorization: Bearer <secret>`): a seat's
  current view; the record of a finished match.
- `GET /api/server.json`: `{"server": true, ...}`, the presets, their player counts and the bots,
  for a table form (the docs site publishes the same file with `"server": false`: a copy of the
  site that no server serves says so without a failed request).
- `WS /api/play`: a connection to a table (its first message names the link's secret).
- `GET /schemas/...`: the JSON Schemas of `cucumber_rules.schema`.
- everything else: the documentation site, when the server is given one (its Play page plays
  with friends through this server).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import cucumber_rules as cr

from .. import schema
from .clients import Client
from .collector import tune_collector
from .connections import AddressCap, client_address
from .hub import Hub
from .limits import Bucket, Limits
from .pages import HOME_PAGE, PLAY_PAGE
from .protocol import PONG, NotJSON, dumps, error_message, parse, refusal, unknown_field
from .requests import CreateError, is_name
from .store import Store

__all__ = ["create_app"]

_JSON = "application/json"

log = logging.getLogger("cucumber_rules.server")


def json_response(value: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer, written by the protocol's serializer."""
    return Response(dumps(value), status_code=status, media_type=_JSON, headers=headers)


def _error(status: int, code: str, message: str) -> Response:
    return json_response(schema.protocol_error(code, message), status)


def _refused(status: int, code: str, message: str, path: str | None = None) -> CreateError:
    return CreateError(status, schema.protocol_error(code, message, path=path))


def _same_origin(origin: str, host: str | None) -> bool:
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc == host


def create_app(
    database: str | Path = "cucumber-rules.sqlite3",
    *,
    site: str | Path | None = None,
    origins: tuple[str, ...] = (),
    limits: Limits | None = None,
    synchronous: str = "NORMAL",
    hub: Hub | None = None,
    collector: bool = False,
) -> Starlette:
    """The server as an ASGI application (run it with uvicorn, or mount it in your own app).

    Args:
        database: The SQLite database file (created if missing).
        site: A built documentation site to serve at `/` (its Play page plays with friends).
        origins: Origins, besides the server's own, whose pages may use the API (e.g.
            `"https://docs.example.org"`). A browser always says its page's origin; a request
            from a page of another origin is refused.
        limits: What one client may ask (message sizes and rates, tables, connections).
        synchronous: SQLite's `synchronous`: `"NORMAL"` or `"FULL"` (see `Store`).
        hub: A hub of your own (tests give one with rigged deals); `database`, `limits` and
            `synchronous` are then ignored.
        collector: Set Python's garbage collector for the server once the tables are loaded
            (`tune_collector`; `run` does). It is the process's, so it is off by default.

    The origins given may also use the HTTP API from their pages: the app answers their CORS
    preflight requests and sends `Access-Control-Allow-Origin` to them. At most
    `Limits.connections_per_address` connections (WebSockets and requests) of one client address
    are open at once; behind a reverse proxy, run uvicorn with its proxy headers and
    `forwarded_allow_ips`, so that the address is the client's (`run` does, given them).

    Without a site, `/` says so and `/play/` is a plain page of its own that plays at a table
    from a link (`/play/#join=<secret>`), so the links the API hands out always open a table.

    Returns:
        The Starlette application. Its hub is `app.state.hub`, set up when the app starts.

    Example:
        >>> app = create_app(":memory:")
        >>> {"/api/tables", "/api/play", "/api/server.json"} <= {r.path for r in app.routes}
        True
    """
    allowed = {o.rstrip("/") for o in origins}
    holder: dict[str, Hub] = {}

    def the_hub() -> Hub:
        return holder["hub"]

    def origin_ok(headers: Any) -> bool:
        origin = headers.get("origin")
        if origin is None:  # not a browser page: a program, which no other site can drive
            return True
        return origin.rstrip("/") in allowed or _same_origin(origin, headers.get("host"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        made = hub or Hub(Store(database, synchronous=synchronous), limits=limits)
        holder["hub"] = made
        app.state.hub = made
        await made.start()
        if collector:
            tune_collector()
        try:
            yield
        finally:
            await made.stop()

    # ----------------------------------------------------------------- HTTP

    async def read_body(request: Request) -> Any:
        limit = the_hub().limits.message_bytes
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise _refused(413, "too-large", f"a request is at most {limit} bytes")

        async def whole() -> bytes:
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise _refused(413, "too-large", f"a request is at most {limit} bytes")
            return body

        seconds = the_hub().limits.join_timeout
        try:
            body = await asyncio.wait_for(whole(), seconds)
        except TimeoutError:  # (a client that sends its body slowly holds a connection, nothing more)
            raise _refused(
                408, "invalid-document", f"the request's body did not come in {seconds:g} seconds", "$"
            ) from None
        try:
            return parse(body)
        except NotJSON as err:
            raise _refused(400, "invalid-document", str(err), "$") from None

    async def create_table(request: Request) -> Response:
        if not origin_ok(request.headers):
            return _error(403, "invalid-document", "requests from this page's origin are not accepted")
        if request.headers.get("content-type", "").split(";")[0].strip() != _JSON:
            return _error(415, "invalid-document", "send the table request as application/json")
        hub_ = the_hub()
        address = client_address(request.scope)
        if not hub_.may_create(address):
            return _error(429, "rate-limited", "too many tables created from this address; wait a minute")
        try:
            answer = await hub_.create(await read_body(request))
        except CreateError as err:
            return json_response(err.document, err.status)
        base = str(request.base_url)
        for seat in answer["seats"]:
            seat["url"] = None if seat["secret"] is None else f"{base}play/#join={seat['secret']}"
        answer["spectators"] = {
            "secret": answer["spectators"],
            "url": f"{base}play/#join={answer['spectators']}",
        }
        return json_response(answer, 201)

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        scheme, _, secret = header.partition(" ")
        return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None

    def may_look_up(request: Request) -> bool:
        """A link tried over HTTP counts as a connection of its address (the guessing stays bounded)."""
        return the_hub().may_join(client_address(request.scope))

    async def get_table(request: Request) -> Response:
        if not may_look_up(request):
            return _error(429, "rate-limited", "too many links tried from this address; wait a minute")
        try:
            joined = await the_hub().join(bearer(request))
        except CreateError as err:  # a table put away and no room to bring it back, or damaged
            return json_response(err.document, err.status)
        if joined is None:
            return _error(404, "unknown-link", "the link names no seat of any table")
        room, seat = joined
        view = orjson.Fragment(room.views.dumps(cr.view(room.state, seat)))
        answer = json_response({"seat": seat, "at": room.length, "view": view})
        the_hub().unload(room)
        return answer

    async def get_record(request: Request) -> Response:
        if not may_look_up(request):
            return _error(429, "rate-limited", "too many links tried from this address; wait a minute")
        secret = bearer(request)
        try:
            joined = await the_hub().join(secret)
        except CreateError as err:  # a table put away and no room to bring it back, or damaged
            return json_response(err.document, err.status)
        if joined is None:
            return _error(404, "unknown-link", "the link names no seat of any table")
        text = await the_hub().record(secret)
        if text is None:
            return _error(
                409, "invalid-document", "the match is not over: its record would show hidden cards"
            )
        headers = {"Content-Disposition": 'attachment; filename="match.cucumber.json"'}
        return Response(text, media_type=_JSON, headers=headers)

    async def presets(request: Request) -> Response:
        found = []
        for game in cr.GAMES.values():
            for name in game.presets:
                rules = cr.ruleset(name)
                title = game.preset_titles.get(name, name)
                found.append(
                    {"name": name, "title": title, "min": rules.min_players, "max": rules.max_players}
                )
        hub_ = the_hub()
        return json_response(
            {
                "server": True,
                "version": cr.__version__,
                "presets": found,
                "bots": list(hub_.bot_names),
                "damaged_tables": len(hub_.damaged),
            }
        )

    schema_texts = schema.schema_files()

    async def schema_file(request: Request) -> Response:
        text = schema_texts.get(request.path_params["path"])
        if text is None:
            return _error(404, "invalid-document", "no such schema file")
        return Response(text, media_type="application/schema+json")

    async def home(request: Request) -> Response:
        return HTMLResponse(HOME_PAGE)

    async def play_page(request: Request) -> Response:
        return HTMLResponse(PLAY_PAGE)

    # ----------------------------------------------------------------- WebSocket

    async def play(websocket: WebSocket) -> None:
        if not origin_ok(websocket.headers):
            await _close(websocket, 1008)  # before accepting: the handshake is refused (403)
            return
        await websocket.accept()
        hub_ = the_hub()
        limits = hub_.limits
        if not hub_.may_join(client_address(websocket.scope)):
            await _close(
                websocket, 1008, "", refusal("rate-limited", "too many connections from this address")
            )
            return
        try:
            first = await asyncio.wait_for(websocket.receive(), limits.join_timeout)
        except TimeoutError:
            await _close(websocket, 1008, "no join message")
            return
        text = first.get("text")
        if first["type"] != "websocket.receive" or text is None or _too_long(text, limits.message_bytes):
            await _close(websocket, 1008, "the first message must be a join message")
            return
        try:
            join = parse(text)
        except NotJSON as err:
            await _close(websocket, 1008, "", refusal("invalid-document", str(err), "$"))
            return
        if type(join) is not dict or join.get("type") != "join":
            expected = 'expected {"type": "join", "link": ..., "pictures": ...}'
            await _close(websocket, 1008, "", refusal("invalid-document", expected, "$"))
            return
        unknown = unknown_field(join, JOIN_FIELDS)
        if unknown is not None:
            await _close(websocket, 1008, "", error_message(unknown))
            return
        if "name" in join and not is_name(join["name"]):
            bad_name = "a name is 1 to 40 characters, without control characters"
            await _close(websocket, 1008, "", refusal("invalid-document", bad_name, "$.name"))
            return
        try:
            joined = await hub_.join(join.get("link"))
        except CreateError as err:  # put away with no room to bring it back, damaged, or a database error
            await _close(websocket, 1013, "", error_message(err.document))
            return
        if joined is None:
            await _close(websocket, 1008, "", refusal("unknown-link", "the link names no seat of any table"))
            return
        room, seat = joined
        if "name" in join and seat is not None:  # (a spectator's link names nobody)
            await room.rename(seat, join["name"])
        client = Client(seat, pictures=join.get("pictures") is True, queue=limits.queue)
        if not room.attach(client):
            full = refusal("server-full", "this table has all the connections it may")
            await _close(websocket, 1013, "", full)
            return
        loop = asyncio.get_running_loop()
        sender = loop.create_task(_pump(websocket, client, limits.send_timeout))
        gone = loop.create_task(client.gone.wait())
        bucket = Bucket(limits.messages_per_second, limits.message_burst)
        too_large = f"a message is at most {limits.message_bytes} bytes"
        try:
            while True:
                message = await _next(websocket, gone)
                if message is None or message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if not bucket.take():
                    bucket.refuse()
                    if bucket.debt > limits.message_burst:
                        break
                    client.send(refusal("rate-limited", "too many messages"))
                elif text is None:
                    client.send(refusal("invalid-document", "send text messages", "$"))
                elif _too_long(text, limits.message_bytes):
                    client.send(refusal("too-large", too_large))
                else:
                    await _dispatch(room, client, text)
        except (WebSocketDisconnect, RuntimeError):  # (receiving after the connection closed)
            pass
        except Exception:  # a fault of the server's own: said in the log; the client may come back
            log.exception("table %s: a connection failed", room.id)
            client.dropped = True
            await _close(websocket, 1011, "the server failed")
        finally:
            gone.cancel()
            room.detach(client)
            client.close()
            await _finish(websocket, client, sender, limits.send_timeout)

    routes: list[Any] = [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/table", get_table),
        Route("/api/record", get_record),
        Route("/api/server.json", presets),
        WebSocketRoute("/api/play", play),
        Route("/schemas/{path:path}", schema_file),
    ]
    if site is not None:
        routes.append(Mount("/", app=StaticFiles(directory=str(site), html=True)))
    else:
        routes += [Route("/", home), Route("/play/", play_page)]
    cors = Middleware(
        CORSMiddleware,
        allow_origins=sorted(allowed),
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type", "Authorization"],
    )
    capped = Middleware(AddressCap, counter=lambda: the_hub().addresses)
    return Starlette(routes=routes, middleware=[capped, cors], lifespan=lifespan)


#: The fields of a `join` message.
JOIN_FIELDS: Final = frozenset(("type", "link", "pictures", "name"))


def _too_long(text: str, limit: int) -> bool:
    """Whether a message is longer than `limit` bytes (in UTF-8, as it came over the wire)."""
    return len(text) > limit or (len(text) * 4 > limit and len(text.encode("utf-8")) > limit)


async def _close(websocket: WebSocket, code: int, reason: str = "", last: str | None = None) -> None:
    """Send a last message (if any) and close; a connection already gone is no error."""
    with contextlib.suppress(Exception):
        if last is not None:
            await websocket.send_text(last)
        await websocket.close(code=code, reason=reason)


#: The fields of a `ping` message.
PING_FIELDS: Final = frozenset(("type",))


async def _dispatch(room: Any, client: Client, text: str) -> None:
    try:
        message = parse(text)
    except NotJSON as err:
        client.send(refusal("invalid-document", str(err), "$"))
        return
    if type(message) is not dict:
        client.send(refusal("invalid-document", "a message is an object", "$"))
        return
    kind = message.get("type")
    if kind == "act":
        await room.act(client, message)
    elif kind == "ping":
        unknown = unknown_field(message, PING_FIELDS)
        client.send(PONG if unknown is None else error_message(unknown))
    else:
        client.send(refusal("invalid-document", 'type must be "act" or "ping"', "$.type"))


async def _next(websocket: WebSocket, gone: asyncio.Task[Any]) -> Any:
    """The connection's next message, or None once its client is gone (dropped for being slow, or
    closed): a peer that sends nothing is not waited for."""
    receiving = asyncio.ensure_future(websocket.receive())
    await asyncio.wait((receiving, gone), return_when=asyncio.FIRST_COMPLETED)
    if gone.done():
        receiving.cancel()
        return None
    return receiving.result()


async def _pump(websocket: WebSocket, client: Client, timeout: float) -> None:
    """Send a client's queued messages, in order, until it is closed, or dropped for being slow: its
    queue filled up, or its socket took no message for `timeout` seconds."""
    later = asyncio.get_running_loop().call_later
    try:
        while True:
            text = await client.queue.get()
            if text is None:
                return
            # A reader that does not read is dropped (its handler then stops this task): a timer, not
            # `asyncio.wait_for`, which would cost a task of its own for every message sent.
            timer = later(timeout, client.drop)
            try:
                await websocket.send_text(text)
            finally:
                timer.cancel()
    except Exception:  # the connection went away: the receiving side notices and detaches
        client.close()


async def _finish(websocket: WebSocket, client: Client, sender: asyncio.Task[None], timeout: float) -> None:
    """Let a connection's sender send what is left, then close the connection, in at most `timeout`
    seconds. A connection dropped for being slow is sent nothing more: its close gets a second."""
    if client.slow:
        sender.cancel()
    done, _ = await asyncio.wait((sender,), timeout=timeout)
    if not done:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    with contextlib.suppress(Exception):
        closing = websocket.close(code=1013 if client.dropped else 1000)
        await asyncio.wait_for(closing, 1.0 if client.slow else timeout)
