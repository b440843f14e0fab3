"""`python -m cucumber_rules.server`: the table server without the command line's extra (see `run`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import DatabaseInUse, Limits, run


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the server."""
    parser = argparse.ArgumentParser(prog="python -m cucumber_rules.server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--db", type=Path, default=Path("cucumber-rules.sqlite3"), help="the database file")
    parser.add_argument(
        "--site", type=Path, default=None, help="a built docs site to serve (default: ./site if built there)"
    )
    parser.add_argument("--origin", action="append", default=[], help="another origin whose pages may play")
    parser.add_argument("--sync", choices=["normal", "full"], default="normal", help="SQLite synchronous")
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=Limits().connections_per_address,
        help="connections one client address may hold open at once",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="reverse proxies whose X-Forwarded-For names the client (comma-separated, or *)",
    )
    args = parser.parse_args(argv)
    site = args.site
    if site is None and (Path("site") / "index.html").is_file():  # (as `cucumber-rules serve` does)
        site = Path("site")
    if site is not None and not (site / "index.html").is_file():
        parser.error(f"--site {site}: no built site there (build it with: bash tools/docs.sh build)")
    if args.connections_per_address < 1:
        parser.error("--connections-per-address is at least 1")
    try:
        run(
            host=args.host,
            port=args.port,
            database=args.db,
            site=site,
            origins=tuple(args.origin),
            synchronous=args.sync.upper(),
            log_level=args.log_level,
            limits=Limits(connections_per_address=args.connections_per_address),
            forwarded_allow_ips=args.forwarded_allow_ips,
        )
    except DatabaseInUse as err:
        parser.exit(1, f"{parser.prog}: error: {err}\n")


if __name__ == "__main__":
    main()
