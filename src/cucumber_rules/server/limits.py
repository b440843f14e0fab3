"""What one client may ask of the server (`Limits`), and the counts that hold each address to them: rate
buckets (`Bucket`, `Rates`) and the connections an address holds open (`Addresses`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

__all__ = ["Addresses", "Bucket", "Limits", "Rates"]


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
    connections_per_address: int = 32
    """Connections one address may hold open at once: its WebSockets and the requests being answered
    (and, under `cucumber-rules serve`, its sockets that have not sent a request yet). Behind a
    reverse proxy, the address is the client's as the proxy says it (see `run`'s
    `forwarded_allow_ips`)."""
    max_tables: int = 10_000
    """Tables in play at once (finished ones do not count)."""
    connections_per_table: int = 32
    """Connections at one table (every seat and the spectators together)."""
    join_timeout: float = 10.0
    """Seconds a new connection has to send its `join` message (a table request its body, and, under
    `cucumber-rules serve`, a new socket its first request)."""
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


class Rates:
    """The rate limits of each address: the tables it creates, the connections it opens.

    Example:
        >>> rates = Rates(Limits(table_burst=1))
        >>> rates.may_create("10.0.0.1"), rates.may_create("10.0.0.1"), rates.may_create("10.0.0.2")
        (True, False, True)
    """

    #: The most addresses remembered; past this every address starts afresh (memory stays bounded).
    MAX_ADDRESSES = 20_000

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def may_create(self, address: str) -> bool:
        """Whether an address may create a table now."""
        return self.allow("create", address, self.limits.tables_per_minute, self.limits.table_burst)

    def may_join(self, address: str) -> bool:
        """Whether an address may open a connection (or try a link over HTTP) now."""
        return self.allow("join", address, self.limits.joins_per_minute, self.limits.join_burst)

    def allow(self, what: str, address: str, per_minute: float, burst: int) -> bool:
        """Take a token from the bucket of `what` for `address`."""
        bucket = self.buckets.get((what, address))
        if bucket is None:
            if len(self.buckets) > self.MAX_ADDRESSES:
                self.buckets.clear()
            bucket = self.buckets[what, address] = Bucket(per_minute / 60, burst)
        return bucket.take()


class Addresses:
    """How many connections each address holds open, against a cap.

    Example:
        >>> open_ = Addresses(2)
        >>> open_.enter("a"), open_.enter("a"), open_.enter("a"), open_.enter("b")
        (True, True, False, True)
        >>> open_.leave("a"); open_.enter("a"), open_.count("a")
        (True, 2)
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count one more connection of an address; False (and nothing counted) if it holds `cap`."""
        held = self.counts.get(address, 0)
        if held >= self.cap:
            return False
        self.counts[address] = held + 1
        return True

    def leave(self, address: str) -> None:
        """Count one connection of an address less (one that `enter` let in)."""
        held = self.counts.get(address, 0) - 1
        if held > 0:
            self.counts[address] = held
        else:
            self.counts.pop(address, None)

    def count(self, address: str) -> int:
        """The connections an address holds open."""
        return self.counts.get(address, 0)
