"""Load on the table server: many concurrent tables of bots and people, and the latency of every action.

The server runs in a process of its own (uvicorn, one worker, the SQLite database in a
temporary directory, `synchronous=NORMAL`). This process simulates the people: each table
gets `--people` connections that play their seat (a legal move after a random "thinking"
time, exponential with mean `--think` seconds), a spectator connection, and `--bots`
heuristic bots that the server plays at once. A finished match is replaced by a new table.

With `--pictures` every connection also asks for the table's picture
(`render.svg` of its view), as the Play page does.

For every action a simulated person sends, the latency is the time from sending it to the
moment the *last* connection of that table (every person and the spectator) has received
the view that follows it. The report gives the percentiles, the actions per second the
server handled (people's, bots' and deals), and the CPU time of the server process.

Run by hand (never part of the test suite), e.g.:

    python benchmarks/server_load.py --tables 200 --seconds 60

Example:
    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

SERVER = """
import sys, uvicorn
from cucumber_rules.server import WS_MAX_SIZE, Limits, create_app
many = 10**9
limits = Limits(tables_per_minute=many, table_burst=many, joins_per_minute=many, join_burst=many,
                messages_per_second=100, message_burst=200)
app = create_app(sys.argv[1], limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), ws="websockets-sansio",
            ws_max_size=WS_MAX_SIZE, log_level="warning")
"""


def percentile(values: list[float], p: float) -> float:
    """The `p`th percentile of `values`, interpolated between the nearest ranks."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@attrs.define
class Stats:
    latencies: list[float] = attrs.Factory(list)
    measuring: bool = False
    actions: int = 0
    errors: int = 0
    matches: int = 0


@attrs.define
class Pending:
    at: int
    sent: float
    waiting: set[int]


class Table:
    """One table: its connections, and the action of its people now waiting for every view."""

    def __init__(self, connections: int) -> None:
        self.connections = connections
        self.pending: Pending | None = None
        self.done = asyncio.Event()


async def create(url: str, preset: str, seats: list[str]) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"preset": preset, "seats": seats}).encode()
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
    )  # fmt: skip
    await writer.drain()
    response = await reader.read()
    writer.close()
    head, _, text = response.partition(b"\r\n\r\n")
    if b" 201 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(f"creating a table failed: {response[:300]!r}")
    answer: dict[str, Any] = json.loads(text)
    return answer


async def connection(
    ws_url: str,
    secret: str,
    index: int,
    table: Table,
    stats: Stats,
    rng: random.Random,
    think: float,
    pictures: bool,
) -> None:
    import websockets

    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "link": secret, "pictures": pictures}))
        acting_at = -1
        thinking: set[asyncio.Task[None]] = set()
        async for text in ws:
            message = json.loads(text)
            if message["type"] == "error":
                stats.errors += 1
                continue
            if message["type"] != "view":
                continue
            at, view = message["at"], message["view"]
            pending = table.pending
            if pending is not None and at >= pending.at and index in pending.waiting:
                pending.waiting.discard(index)
                if not pending.waiting:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - pending.sent)
                    table.pending = None
            if view["to_act"] is None:
                table.done.set()
                return
            seat = view["seat"]
            if seat is not None and view["to_act"] == seat and view["legal"] and acting_at != at:
                acting_at = at  # think in a task of its own: the connection keeps reading meanwhile
                thinking.add(asyncio.create_task(act(ws, at, view, table, stats, rng, think)))
                thinking = {t for t in thinking if not t.done()}


async def act(
    ws: Any, at: int, view: dict[str, Any], table: Table, stats: Stats, rng: random.Random, think: float
) -> None:
    """A person thinks, then sends a legal move (in the view's format); the latency clock starts as it
    is sent."""
    await asyncio.sleep(rng.expovariate(1 / think))
    action = {"format": view["format"], "kind": "action", **rng.choice(view["legal"])}
    table.pending = Pending(at + 1, time.perf_counter(), set(range(table.connections)))
    try:
        await ws.send(json.dumps({"type": "act", "at": at, "action": action}))
    except Exception:  # the table was closed at the end of the run
        return
    if stats.measuring:
        stats.actions += 1


async def run_table(
    url: str, args: argparse.Namespace, stats: Stats, rng: random.Random, stop: float
) -> None:
    ws_url = url.replace("http://", "ws://") + "/api/play"
    while time.perf_counter() < stop:
        seats = ["person"] * args.people + ["heuristic"] * args.bots
        rng.shuffle(seats)
        answer = await create(url, args.preset, seats)
        secrets = [s["secret"] for s in answer["seats"] if s["secret"]] + [answer["spectators"]["secret"]]
        table = Table(len(secrets))
        tasks = [
            asyncio.create_task(connection(ws_url, s, i, table, stats, rng, args.think, args.pictures))
            for i, s in enumerate(secrets)
        ]
        waiting = asyncio.create_task(table.done.wait())
        await asyncio.wait([waiting], timeout=max(0.0, stop - time.perf_counter()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        waiting.cancel()
        if table.done.is_set():
            stats.matches += 1


async def drive(url: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    stats = Stats()
    start = time.perf_counter()
    stop = start + args.warmup + args.seconds
    rngs = [random.Random(args.seed * 100_003 + i) for i in range(args.tables)]
    runners = []
    for rng in rngs:  # the tables start over the first second, not all at once
        runners.append(asyncio.create_task(run_table(url, args, stats, rng, stop)))
        await asyncio.sleep(1 / args.tables)
    await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
    stats.measuring = True
    cpu0, mine0, t0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    stored0 = stored_actions(args.database)
    await asyncio.sleep(args.seconds)
    cpu1, mine1, t1 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    stored1 = stored_actions(args.database)
    stats.measuring = False
    for runner in runners:
        runner.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    wall = t1 - t0
    ms = [x * 1000 for x in stats.latencies]
    return {
        "tables": args.tables,
        "people_per_table": args.people,
        "bots_per_table": args.bots,
        "preset": args.preset,
        "think_s": args.think,
        "pictures": args.pictures,
        "seconds": round(wall, 1),
        "people_actions_per_s": round(len(ms) / wall, 1),
        "latency_ms": {
            "p50": round(percentile(ms, 50), 2),
            "p90": round(percentile(ms, 90), 2),
            "p99": round(percentile(ms, 99), 2),
            "max": round(max(ms, default=float("nan")), 2),
        },
        "stored_actions_per_s": round((stored1 - stored0) / wall, 1),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
        "server_cpu_ms_per_stored_action": round(1000 * (cpu1 - cpu0) / max(1, stored1 - stored0), 3),
        "clients_cpu_percent": round(100 * (mine1 - mine0) / wall, 1),
        "load_average_1min_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "errors": stats.errors,
        "matches_finished": stats.matches,
    }


def stored_actions(database: Path) -> int:
    """How many actions the server has stored so far (read beside it: SQLite's WAL allows a reader)."""
    import sqlite3

    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
    finally:
        db.close()
    return int(count)


def main(argv: list[str] | None = None) -> None:
    """Start the server, run the simulated tables, print the report (JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables")
    parser.add_argument("--people", type=int, default=2, help="simulated people per table")
    parser.add_argument("--bots", type=int, default=2, help="heuristic bots per table")
    parser.add_argument("--preset", default="agurk")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean thinking time, seconds")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="connections ask for the table's picture, as the Play page does",
    )
    args = parser.parse_args(argv)
    for name in ("tables", "people"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.bots < 0 or args.think <= 0 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--bots, --think, --seconds and --warmup must be positive")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "load.sqlite3"
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(database), str(port)])
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            args.database = database
            load_before = os.getloadavg()[0]
            report = asyncio.run(drive(url, args, server.pid))
            report["load_average_1min_before"] = round(load_before, 2)
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
