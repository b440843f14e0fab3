"""The clients of the server: what one may ask (`Limits`, rate buckets), and its connection's queue."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs

__all__ = ["Bucket", "Client", "Limits", "error_message"]


@attrs.frozen
class Limits:
    """What one client may ask of the server: message sizes and rates, tables and connections.

    Every limit is a positive number.

    Example:
        >>> Limits().message_bytes
        4096
        >>> Limits(idle_timeout=0)
        Traceback (most recent call last):
        ...
        ValueError: Limits.idle_timeout must be a positive number, not 0
    """

    message_bytes: int = 4096
    """The longest WebSocket message (or table request) read; a longer one is refused unread."""
    messages_per_second: float = 20.0
    """Messages one connection may send per second, on average ..."""
    message_burst: int = 40
    """... and at once. Past this the message is refused (`rate-limited`), past twice this the
    connection is closed."""
    tables_per_minute: float = 30.0
    """Tables one address may create per minute, on average ..."""
    table_burst: int = 10
    """... and at once."""
    joins_per_minute: float = 120.0
    """Connections one address may open per minute, on average (a link is tried once per
    connection: this bounds the guessing too) ..."""
    join_burst: int = 30
    """... and at once."""
    max_tables: int = 10_000
    """Tables in play at once (finished ones do not count)."""
    connections_per_table: int = 32
    """Connections at one table (every seat and the spectators together)."""
    join_timeout: float = 10.0
    """Seconds a new connection has to send its `join` message (and a table request its body)."""
    queue: int = 1024
    """Messages waiting for one slow connection; past this it is dropped (it may reconnect)."""
    send_timeout: float = 30.0
    """Seconds a connection may take to take in one message (its socket full) before it is dropped."""
    idle_timeout: float = 3600.0
    """Seconds an unfinished table with nobody connected may wait for an action before it is put
    away: it stops counting as in play and leaves memory, and its links bring it back (when the
    server has room for it)."""

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            value = getattr(self, field.name)
            if type(value) not in (int, float) or not 0 < value < float("inf"):
                raise ValueError(f"Limits.{field.name} must be a positive number, not {value!r}")


class Bucket:
    """A token bucket: `rate` tokens a second, at most `burst` saved up.

    Example:
        >>> b = Bucket(1.0, 2, clock=lambda: 0.0)
        >>> b.take(), b.take(), b.take()
        (True, True, False)
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Take a token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    @property
    def debt(self) -> float:
        """How far below empty the bucket has been pushed (by refused messages)."""
        return max(0.0, -self.tokens)

    def refuse(self) -> None:
        """Count a refused message against the bucket."""
        self.tokens -= 1


class Client:
    """One connection to a table: its seat (None for a spectator) and its queue of messages to send.

    Messages are put on the queue at once and sent by the connection's own task, so a slow
    connection never holds up a table. One whose queue fills up, or whose socket takes no message
    for `Limits.send_timeout`, is dropped (it reconnects with its link and gets the latest view):
    `gone` is set at once, and the connection's handler stops reading and lets go of its place.

    Example:
        >>> client = Client(None, queue=2)
        >>> client.send("a"); client.send("b"); client.send("c")  # one too many
        >>> client.dropped, client.gone.is_set(), client.queue.get_nowait()
        (True, True, None)
    """

    def __init__(self, seat: int | None, *, pictures: bool = False, queue: int = 1024) -> None:
        self.seat = seat
        self.pictures = pictures
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(queue)
        self.dropped = False
        self.slow = False
        """Whether it was dropped for being too slow (its socket may take nothing more in)."""
        self.gone = asyncio.Event()
        """Set once the connection is dropped or closed: its handler stops waiting for messages."""

    def send(self, text: str) -> None:
        """Queue a message; a connection too slow to keep up is dropped."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Drop a connection that is too slow: nothing more is queued, and what waits is thrown away."""
        self.dropped = self.slow = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        self.gone.set()

    def close(self) -> None:
        """Ask the connection's task to close the connection."""
        self.dropped = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        self.gone.set()


def error_message(document: Mapping[str, Any]) -> str:
    """The message that carries an error document.

    Example:
        >>> from cucumber_rules import schema
        >>> error_message(schema.protocol_error("spectator", "no"))[:30]
        '{"type":"error","error":{"form'
    """
    return json.dumps({"type": "error", "error": document}, separators=(",", ":"), ensure_ascii=False)
