"""`cucumber-rules serve`: the reference table server (needs the `server` extra as well as `cli`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer

from .common import Command, app, fail, make_console


@app.command(name="serve", cls=Command)
def serve_command(
    db: Annotated[
        Path,
        typer.Option(
            "--db", metavar="FILE", help="The SQLite database file of the tables (created if missing)."
        ),
    ] = Path("cucumber-rules.sqlite3"),
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="The address to listen on; 0.0.0.0 for every interface.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="The port to listen on.")] = 8000,
    site: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR", help="A built docs site to serve (its Play page plays here); default ./site."
        ),
    ] = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(metavar="ORIGIN", help="Another origin whose pages may use this server (repeatable)."),
    ] = None,
    sync: Annotated[
        str,
        typer.Option(
            metavar="normal|full", help="SQLite synchronous: normal survives a crash; full also a power loss."
        ),
    ] = "normal",
    connections_per_address: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Connections one client address may hold open at once (WebSockets, requests, idle sockets).",
        ),
    ] = 32,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            metavar="IPS",
            help="Reverse proxies in front of this server (addresses or networks, comma-separated, or *):"
            " their X-Forwarded-For names the client, whose address the per-address limits count.",
        ),
    ] = None,
) -> None:
    """Host tables to play with friends: every move checked, each player sent only their view.

    Every action is stored before anyone is told of it. One server per database file. See the docs'
    page "Hosting a table".
    """
    missing = [
        m for m in ("starlette", "uvicorn", "websockets", "orjson") if importlib.util.find_spec(m) is None
    ]
    if missing:
        needed = ", ".join(missing)
        fail(
            f"the server needs the server extra ({needed} missing). cucumber-rules is not on the package"
            ' index: in a clone of its repository, pip install ".[cli,server]"'
        )
    if sync.lower() not in ("normal", "full"):
        fail(f"--sync is normal or full, not {sync!r}")
    if not 0 < port < 65536:
        fail(f"--port is 1..65535, not {port}")
    if connections_per_address < 1:
        fail(f"--connections-per-address is at least 1, not {connections_per_address}")
    if site is None and (Path("site") / "index.html").is_file():
        site = Path("site")
    if site is not None and not (site / "index.html").is_file():
        fail(f"--site {site}: no built site there (build it with: bash tools/docs.sh build)")
    from cucumber_rules.server import DatabaseInUse, Limits, run

    out = make_console()
    where = f"http://{host}:{port}"
    page = "the Play page" if site else "a plain play page for the links (no docs site: see --site)"
    out.print(f"Tables in {db}; {page} at {where}/play/, the API at {where}/api/")
    try:
        run(
            host=host,
            port=port,
            database=db,
            site=site,
            origins=tuple(origin or ()),
            synchronous=sync.upper(),
            limits=Limits(connections_per_address=connections_per_address),
            forwarded_allow_ips=forwarded_allow_ips,
        )
    except DatabaseInUse as err:
        fail(str(err), 1)
