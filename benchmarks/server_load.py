"""Load on the table server: many concurrent tables of bots and people, and the latency of every action.

The server runs in a process of its own (uvicorn, one worker, the SQLite database in a
temporary directory, `synchronous=NORMAL`). This process, a client independent of the
server, simulates the people. Two scenarios (`--scenario`), each option of which can be
changed on the command line:

- `light` (the default): each table gets `--people 2` connections that play their seat (a
  legal move after a random "thinking" time, exponential with mean `--think 1` second), a
  spectator connection, and `--bots 2` heuristic bots that the server plays at once.
- `four`: four people per table and no bot or spectator, each acting `--think 0.5` seconds
  after their turn comes (`--fixed-think`), and each table's connections come from a
  loopback address of its own (127.x.y.z, `--spread-addresses`), as people at different
  homes would: what a server behind a per-address limit sees.

A finished match is replaced by a new table. With `--pictures` every connection also asks
for the table's picture (`render.svg` of its view), as the Play page does.

Two latencies are measured for every action a simulated person sends, from the moment it is
sent: until the person's *own* connection receives the view that follows it (`own`: what a
player feels), and until the *last* connection of the table has (`all`). The report gives
their percentiles, the actions per second the server handled (people's, bots' and deals),
the CPU time of the server process, the load average of the machine before and after, and
how late this process's own event loop ran (`client_lag_ms`: a figure that must stay small
for the latencies to be the server's).

Run by hand (never part of the test suite), e.g.:

    python benchmarks/server_load.py --tables 200 --seconds 60
    python benchmarks/server_load.py --scenario four --tables 200 --seconds 60

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
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

SERVER = """
import gc, json, os, signal, sys, time
import attrs
from cucumber_rules.server import Limits, run

pauses = {0: [], 1: [], 2: []}
started = [0.0]


def collecting(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        pauses[info["generation"]].append(time.perf_counter() - started[0])


gc.callbacks.append(collecting)
profile = None
if os.environ["SERVER_LOAD_PROFILE"]:
    import cProfile
    profile = cProfile.Profile()


def measure(*_):
    # SIGUSR1 when the measured time starts: the collector's pauses from now on (and the profile) ...
    for p in pauses.values():
        p.clear()
    if profile is not None:
        profile.enable()
    signal.signal(signal.SIGUSR1, report)


def report(*_):
    # ... and again when it ends: the figures, in a file
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ["SERVER_LOAD_PROFILE"])
    figures = {g: {"count": len(p), "max_ms": round(1000 * max(p, default=0), 2)} for g, p in pauses.items()}
    where = os.environ["SERVER_LOAD_GC"]
    with open(where + ".part", "w") as out:  # (written whole, then renamed: the reader waits for the name)
        json.dump({"tracked_objects": len(gc.get_objects()), "pauses": figures}, out)
    os.replace(where + ".part", where)


signal.signal(signal.SIGUSR1, measure)
many = 10**9
limits = Limits(tables_per_minute=many, table_burst=many, joins_per_minute=many, join_burst=many,
                messages_per_second=100, message_burst=200)
if sys.argv[3] == "one-address" and "connections_per_address" in attrs.fields_dict(Limits):
    limits = attrs.evolve(limits, connections_per_address=many)  # (every table from 127.0.0.1)
run(host="127.0.0.1", port=int(sys.argv[2]), database=sys.argv[1], limits=limits, log_level="warning")
"""
"""The server as `cucumber-rules serve` runs it (`cucumber_rules.server.run`), with the rate limits
lifted (this process opens every table and connection at once), and the cap of connections per address
too when every table's connections come from 127.0.0.1. The collector's pauses are measured
(`gc.callbacks`), and `tracked_objects` counts what a full collection walks (not what `gc.freeze` set
aside)."""

SCENARIOS = {
    "light": {"people": 2, "bots": 2, "spectators": 1, "think": 1.0, "fixed_think": False, "spread": False},
    "four": {"people": 4, "bots": 0, "spectators": 0, "think": 0.5, "fixed_think": True, "spread": True},
}


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
    """Per action: until every connection of the table has the view that follows it."""
    own: list[float] = attrs.Factory(list)
    """Per action: until the acting person's own connection has it."""
    lags: list[float] = attrs.Factory(list)
    """How late this process's event loop woke up, every 10 ms."""
    measuring: bool = False
    actions: int = 0
    errors: int = 0
    matches: int = 0


@attrs.define
class Pending:
    at: int
    sent: float
    waiting: set[int]
    by: int
    """The connection that sent the action."""


def address(index: int) -> str:
    """The loopback address of the table simulated `index`th: 127.0.0.2, 127.0.0.3, ..."""
    n = index + 2
    return f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


class Table:
    """One table: its connections, and the action of its people now waiting for every view."""

    def __init__(self, connections: int) -> None:
        self.connections = connections
        self.pending: Pending | None = None
        self.done = asyncio.Event()


async def create(url: str, preset: str, seats: list[str], local: str | None) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"preset": preset, "seats": seats}).encode()
    where = None if local is None else (local, 0)
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=where)
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
    args: argparse.Namespace,
    local: str | None,
) -> None:
    import websockets

    where = None if local is None else (local, 0)
    async with websockets.connect(ws_url, max_size=2**22, local_addr=where, compression=None) as ws:
        pictures = args.pictures
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
                if index == pending.by and stats.measuring:
                    stats.own.append(time.perf_counter() - pending.sent)
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
                thinking.add(asyncio.create_task(act(ws, at, view, index, table, stats, rng, args)))
                thinking = {t for t in thinking if not t.done()}


async def act(
    ws: Any,
    at: int,
    view: dict[str, Any],
    index: int,
    table: Table,
    stats: Stats,
    rng: random.Random,
    args: argparse.Namespace,
) -> None:
    """A person thinks, then sends a legal move (in the view's format); the latency clock starts as it
    is sent."""
    await asyncio.sleep(args.think if args.fixed_think else rng.expovariate(1 / args.think))
    action = {"format": view["format"], "kind": "action", **rng.choice(view["legal"])}
    table.pending = Pending(at + 1, time.perf_counter(), set(range(table.connections)), index)
    try:
        await ws.send(json.dumps({"type": "act", "at": at, "action": action}))
    except Exception:  # the table was closed at the end of the run
        return
    if stats.measuring:
        stats.actions += 1


async def run_table(
    url: str, args: argparse.Namespace, stats: Stats, rng: random.Random, stop: float, local: str | None
) -> None:
    ws_url = url.replace("http://", "ws://") + "/api/play"
    while time.perf_counter() < stop:
        seats = ["person"] * args.people + ["heuristic"] * args.bots
        rng.shuffle(seats)
        answer = await create(url, args.preset, seats, local)
        secrets = [s["secret"] for s in answer["seats"] if s["secret"]]
        secrets += [answer["spectators"]["secret"]] * args.spectators
        table = Table(len(secrets))
        tasks = [
            asyncio.create_task(connection(ws_url, s, i, table, stats, rng, args, local))
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
    lag = asyncio.create_task(lateness(stats))
    for i, rng in enumerate(rngs):  # the tables start over the first second, not all at once
        local = address(i) if args.spread else None
        runners.append(asyncio.create_task(run_table(url, args, stats, rng, stop, local)))
        await asyncio.sleep(1 / args.tables)
    await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
    stats.measuring = True
    os.kill(pid, signal.SIGUSR1)  # the server's figures (its collector's pauses) count from now
    cpu0, mine0, t0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    stored0 = stored_actions(args.database)
    await asyncio.sleep(args.seconds)
    cpu1, mine1, t1 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    stored1 = stored_actions(args.database)
    os.kill(pid, signal.SIGUSR1)  # ... until now
    stats.measuring = False
    for runner in (*runners, lag):
        runner.cancel()
    await asyncio.gather(*runners, lag, return_exceptions=True)
    wall = t1 - t0
    return {
        "scenario": args.scenario,
        "tables": args.tables,
        "people_per_table": args.people,
        "bots_per_table": args.bots,
        "spectators_per_table": args.spectators,
        "preset": args.preset,
        "think_s": args.think,
        "fixed_think": args.fixed_think,
        "addresses": "one loopback address per table" if args.spread else "127.0.0.1",
        "pictures": args.pictures,
        "seconds": round(wall, 1),
        "people_actions_per_s": round(len(stats.own) / wall, 1),
        "latency_ms": {"own": summary(stats.own), "all": summary(stats.latencies)},
        "client_lag_ms": summary(stats.lags),
        "stored_actions_per_s": round((stored1 - stored0) / wall, 1),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
        "server_cpu_ms_per_stored_action": round(1000 * (cpu1 - cpu0) / max(1, stored1 - stored0), 3),
        "clients_cpu_percent": round(100 * (mine1 - mine0) / wall, 1),
        "load_average_1min_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "errors": stats.errors,
        "matches_finished": stats.matches,
    }


def summary(seconds: list[float]) -> dict[str, float]:
    """The percentiles and the maximum of durations, in milliseconds."""
    ms = [x * 1000 for x in seconds]
    figures = {f"p{p}": round(percentile(ms, p), 2) for p in (50, 90, 99)}
    return {**figures, "max": round(max(ms, default=float("nan")), 2), "count": len(ms)}


async def lateness(stats: Stats, every: float = 0.01) -> None:
    """How late this process's event loop wakes up from a sleep of `every` seconds (its own delay in
    reading the server's messages)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        if stats.measuring:
            stats.lags.append(max(0.0, time.perf_counter() - start - every))


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
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="light", help="the defaults below")
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables")
    parser.add_argument("--people", type=int, help="simulated people per table (light 2, four 4)")
    parser.add_argument("--bots", type=int, help="heuristic bots per table (light 2, four 0)")
    parser.add_argument("--spectators", type=int, help="spectator connections per table (light 1, four 0)")
    parser.add_argument("--preset", default="agurk")
    parser.add_argument("--think", type=float, help="a person's (mean) thinking time, s (light 1, four 0.5)")
    parser.add_argument(
        "--fixed-think",
        action=argparse.BooleanOptionalAction,
        help="think exactly --think seconds (four), not a random time of that mean (light)",
    )
    parser.add_argument(
        "--spread-addresses",
        dest="spread",
        action=argparse.BooleanOptionalAction,
        help="each table's connections from a loopback address of its own (four), or all from 127.0.0.1",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--profile", type=Path, metavar="FILE", help="run the server under cProfile, its statistics to FILE"
    )
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="connections ask for the table's picture, as the Play page does",
    )
    args = parser.parse_args(argv)
    for name, value in SCENARIOS[args.scenario].items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    for name in ("tables", "people"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.bots < 0 or args.spectators < 0 or args.think <= 0 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--bots, --think, --seconds and --warmup must be positive")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "load.sqlite3"
        script = Path(folder) / "server.py"
        script.write_text(SERVER)
        gc_figures = Path(folder) / "gc.json"
        env = {
            **os.environ,
            "SERVER_LOAD_PROFILE": str(args.profile.resolve()) if args.profile else "",
            "SERVER_LOAD_GC": str(gc_figures),
        }
        addresses = "spread" if args.spread else "one-address"
        server = subprocess.Popen([sys.executable, str(script), str(database), str(port), addresses], env=env)
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
            for _ in range(100):  # (the server writes them on its second SIGUSR1)
                if gc_figures.exists():
                    break
                time.sleep(0.05)
            report["server_gc"] = json.loads(gc_figures.read_text())
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
