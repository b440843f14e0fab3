"""The connections one address may hold open, counted at two layers.

- `AddressCap`, an ASGI middleware: the WebSockets and HTTP requests of each client address (as
  the application sees it: behind a trusted reverse proxy, the client's address that the proxy
  forwards, once uvicorn's proxy headers middleware has read it). Past `Limits.connections_per_address`
  a WebSocket gets an error document and is closed, a request gets 429.
- `guarded_protocols`, for uvicorn (`run` uses them): every socket, before it has sent anything. A
  socket that sends no request within `Limits.join_timeout` is closed (uvicorn waits for ever), and
  past the cap a new socket from the same peer is closed at once; a trusted proxy's own sockets are
  not capped (they carry many clients), only timed.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import schema
from .limits import Addresses, Limits
from .protocol import dumps, error_message

__all__ = ["AddressCap", "TrustedProxies", "client_address", "guarded_protocols"]


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address of an ASGI connection (`"?"` when the server does not say).

    Example:
        >>> client_address({"client": ("10.0.0.7", 51000)}), client_address({})
        ('10.0.0.7', '?')
    """
    client = scope.get("client")
    return str(client[0]) if client else "?"


class AddressCap:
    """ASGI middleware: at most `Limits.connections_per_address` connections open per client address.

    Args:
        app: The application.
        counter: The counts (read when a connection comes, so the hub may be made later).
    """

    def __init__(self, app: Any, counter: Callable[[], Addresses]) -> None:
        self.app = app
        self.counter = counter

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        counts = self.counter()
        address = client_address(scope)
        if not counts.enter(address):
            message = f"this address holds all the connections it may ({counts.cap}); close one first"
            document = schema.protocol_error("server-full", message)
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": error_message(document)})
                await send({"type": "websocket.close", "code": 1008})
            else:
                body = dumps(document).encode("utf-8")
                headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
                await send({"type": "http.response.start", "status": 429, "headers": headers})
                await send({"type": "http.response.body", "body": body})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            counts.leave(address)


class TrustedProxies:
    """The addresses whose `X-Forwarded-For` is believed, as uvicorn's `--forwarded-allow-ips` gives them:
    addresses and networks separated by commas, or `*` for every one.

    Example:
        >>> trusted = TrustedProxies("127.0.0.1, 10.0.0.0/8")
        >>> "10.1.2.3" in trusted, "192.168.1.1" in trusted, "*" in TrustedProxies("*")
        (True, False, True)
        >>> "anything" in TrustedProxies("*"), "10.0.0.1" in TrustedProxies("")
        (True, False)
    """

    def __init__(self, spec: str | Iterable[str]) -> None:
        items = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
        self.everyone = "*" in items
        self.networks = []
        self.names = set()
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.names.add(item)  # (a Unix socket's name, say)

    def __contains__(self, host: object) -> bool:
        if self.everyone or host in self.names:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks or self.names)


def guarded_protocols(
    http: type[asyncio.Protocol], websocket: type[asyncio.Protocol], limits: Limits, trusted: TrustedProxies
) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's protocol classes, made to count each peer's sockets and close those that stay silent.

    The HTTP protocol counts a socket when it opens (closing it at once if its peer holds
    `Limits.connections_per_address`, unless the peer is a trusted proxy) and closes it if no byte
    comes within `Limits.join_timeout`; the count ends when the socket does, under the HTTP
    protocol or under the WebSocket protocol uvicorn hands it to.

    Args:
        http: uvicorn's HTTP protocol class.
        websocket: uvicorn's WebSocket protocol class.
        limits: The cap and the time limit.
        trusted: The reverse proxies (not capped).

    Returns:
        The HTTP and WebSocket protocol classes to give uvicorn.
    """
    counts = Addresses(limits.connections_per_address)
    held: dict[int, str] = {}  # id(transport) -> the peer it is counted against

    def release(transport: Any) -> None:
        peer = held.pop(id(transport), None)
        if peer is not None:
            counts.leave(peer)

    class GuardedHTTP(http):  # type: ignore[valid-type,misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.guarded = transport
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if host not in trusted:
                if not counts.enter(host):
                    transport.abort()
                    self.silent = None
                    return
                held[id(transport)] = host
            self.silent = asyncio.get_running_loop().call_later(limits.join_timeout, transport.close)

        def data_received(self, data: bytes) -> None:
            if self.silent is not None:
                self.silent.cancel()
                self.silent = None
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.silent is not None:
                self.silent.cancel()
            release(self.guarded)
            super().connection_lost(exc)

    class GuardedWebSocket(websocket):  # type: ignore[valid-type,misc]
        def connection_made(self, transport: Any) -> None:
            self.guarded = transport
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            release(self.guarded)
            super().connection_lost(exc)

    return GuardedHTTP, GuardedWebSocket
