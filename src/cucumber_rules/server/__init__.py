"""The reference table server: play with friends, every move checked, nothing hidden sent, nothing lost.

A game that embeds cucumber_rules needs what this package shows working end to end: a
server that keeps each match's `State`, checks every move with the library, sends each
player only their own [view](../concepts/views.md), and stores every accepted action
before anyone hears of it. Copy it, or run it as it is:

```bash
pip install ".[server]"
cucumber-rules serve --db tables.sqlite3 --site site   # or: python -m cucumber_rules.server
```

It is a [Starlette](https://www.starlette.io/) application (`create_app`) run by uvicorn,
with one SQLite database file (`Store`) and WebSockets. The protocol, the guarantees and
how to run it in front of real players are on the docs' page "Hosting a table".

Example:
    >>> from cucumber_rules.server import create_app, Limits
    >>> app = create_app(":memory:", limits=Limits(messages_per_second=5))
    >>> type(app).__name__
    'Starlette'
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from .app import create_app
from .clients import Client
from .collector import tune_collector
from .hub import FAST_BOTS, Hub
from .limits import Limits
from .requests import CreateError
from .rooms import Room
from .store import DamagedTable, DatabaseInUse, Store, StoredTable, digest

__all__ = [
    "FAST_BOTS",
    "WS_MAX_SIZE",
    "Client",
    "CreateError",
    "DamagedTable",
    "DatabaseInUse",
    "Hub",
    "Limits",
    "Room",
    "Store",
    "StoredTable",
    "create_app",
    "digest",
    "run",
    "tune_collector",
]

WS_MAX_SIZE = 65_536
"""The largest WebSocket message uvicorn reads at all, in bytes: past this it closes the connection
(the application itself refuses anything over `Limits.message_bytes` with an error document).

Example:
    >>> WS_MAX_SIZE > Limits().message_bytes
    True
"""


def run(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | Path = "cucumber-rules.sqlite3",
    site: str | Path | None = None,
    origins: tuple[str, ...] = (),
    synchronous: str = "NORMAL",
    log_level: str = "info",
    limits: Limits | None = None,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run the server with uvicorn until it is stopped (Ctrl-C, SIGTERM).

    The database is claimed first (`Store.claim`): a second server on the same file stops here,
    before it listens. Every socket is counted against `Limits.connections_per_address` from the
    moment it opens, and closed if it sends no request within `Limits.join_timeout`.

    Args:
        host: The address to listen on (`"0.0.0.0"` for every interface).
        port: The port.
        database: The SQLite database file.
        site: A built documentation site to serve (its Play page plays with friends here).
        origins: Other origins whose pages may use the server.
        synchronous: SQLite's `synchronous`: `"NORMAL"` or `"FULL"`.
        log_level: uvicorn's log level.
        limits: What one client may ask (default: `Limits()`).
        forwarded_allow_ips: The reverse proxies in front of the server, as uvicorn's option of this
            name takes them (addresses or networks separated by commas, or `"*"`): their
            `X-Forwarded-For` names the client, whose address the limits per address then count
            (the proxy's own sockets are not capped). None (the default): no proxy is believed.

    Raises:
        DatabaseInUse: Another server writes this database.

    Example:
        >>> callable(run)
        True
    """
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    from .connections import TrustedProxies, guarded_protocols

    limits = limits or Limits()
    hub = Hub(Store(database, synchronous=synchronous), limits=limits)
    hub.store.claim()
    trusted = TrustedProxies(forwarded_allow_ips or "")
    http, websocket = guarded_protocols(AutoHTTPProtocol, WebSocketsSansIOProtocol, limits, trusted)
    app = create_app(hub=hub, site=site, origins=origins, collector=True)
    _more_files()
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=http,
        ws=websocket,
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=forwarded_allow_ips or "",
    )


def _more_files() -> None:
    """Let the process open as many files (sockets) as the system allows it, not the shell's default 1,024."""
    try:
        import resource
    except ImportError:  # (Windows)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # (a hard limit the kernel refuses as a soft one)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
