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

from pathlib import Path

from .app import create_app
from .clients import Client, Limits
from .requests import CreateError
from .store import Store, StoredTable, digest
from .tables import FAST_BOTS, Hub, Room

__all__ = [
    "FAST_BOTS",
    "WS_MAX_SIZE",
    "Client",
    "CreateError",
    "Hub",
    "Limits",
    "Room",
    "Store",
    "StoredTable",
    "create_app",
    "digest",
    "run",
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
) -> None:
    """Run the server with uvicorn until it is stopped (Ctrl-C, SIGTERM).

    Args:
        host: The address to listen on (`"0.0.0.0"` for every interface).
        port: The port.
        database: The SQLite database file.
        site: A built documentation site to serve (its Play page plays with friends here).
        origins: Other origins whose pages may use the server.
        synchronous: SQLite's `synchronous`: `"NORMAL"` or `"FULL"`.
        log_level: uvicorn's log level.

    Example:
        >>> callable(run)
        True
    """
    import uvicorn

    app = create_app(database, site=site, origins=origins, synchronous=synchronous)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        proxy_headers=False,
    )
