"""Tables in play: the matches, their seats and connections, actions, bots and the fan-out of views.

A `Hub` holds every table in play (a `Room` each). A room keeps its match's `State`, and
every action goes through the room's lock: read and checked, applied with `cr.apply`,
stored (one transaction, in the database's writer thread), and only then sent on: each
connection gets the view of its own seat (`cr.view(state, seat)`), as a view document.
Deals are drawn by the server (`cr.sample_chance` with the operating system's randomness)
and bots answer at once, each of their actions stored and sent like a person's.

Nothing a seat may not know is ever written into a message to it: views, pictures drawn
from views, the table's seats and names, and errors about that seat's own actions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import cucumber_rules as cr

from .. import schema
from ..bots import BOTS
from .clients import Bucket, Client, Limits
from .requests import CreateError, read_request
from .rooms import Room
from .store import Store, StoredTable, digest

__all__ = ["Client", "CreateError", "Hub", "Limits", "Room"]

FAST_BOTS: Final = ("heuristic", "random")
"""The bots a server seats by default: those that answer in a millisecond (a search bot would
hold up every table of the process while it thinks).

Example:
    >>> from cucumber_rules.bots import BOTS
    >>> FAST_BOTS, all(name in BOTS for name in FAST_BOTS)
    (('heuristic', 'random'), True)
"""

log = logging.getLogger("cucumber_rules.server")


class Hub:
    """Every table in play, the database, and the limits: the server's state.

    Args:
        store: The database.
        limits: What one client may ask.
        bots: The bot names a table may seat.
        dealer: Draws a deal for a state (default: `cr.sample_chance` with the operating
            system's randomness). Tests give rigged deals.
        bot_rng: Makes each table's random generator for its bots.
        secret: Makes a link's secret (default: 256 random bits, URL-safe text).
        table_id: Makes a table's id.

    Example:
        >>> hub = Hub(Store(":memory:"), bots=["random"], limits=Limits(max_tables=10))
        >>> hub.bot_names, hub.limits.max_tables, hub.rooms
        (('random',), 10, {})
        >>> Hub(Store(":memory:"), bots=["genius"])
        Traceback (most recent call last):
        ...
        ValueError: unknown bot 'genius'; bots are ...
    """

    def __init__(
        self,
        store: Store,
        *,
        limits: Limits | None = None,
        bots: Sequence[str] = FAST_BOTS,
        dealer: Callable[[cr.State], cr.Action] | None = None,
        bot_rng: Callable[[], random.Random] | None = None,
        secret: Callable[[], str] | None = None,
        table_id: Callable[[], str] | None = None,
    ) -> None:
        for name in bots:
            if name not in BOTS:
                raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}")
        self.store = store
        self.limits = limits or Limits()
        self.bot_names = tuple(bots)
        system = random.SystemRandom()
        self.dealer = dealer or (lambda state: cr.sample_chance(state, system))
        self.bot_rng = bot_rng or (lambda: random.Random(secrets.randbits(64)))
        self.secret = secret or (lambda: secrets.token_urlsafe(32))
        self.table_id = table_id or (lambda: secrets.token_urlsafe(12))
        self.rooms: dict[str, Room] = {}
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="cucumber-rules-db")
        self.checkpointer = ThreadPoolExecutor(1, thread_name_prefix="cucumber-rules-checkpoint")
        self.checkpointing: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.creating = 0  # tables being stored or brought back: counted against `max_tables` before
        # they are in `rooms`

    # ----------------------------------------------------------------- the database, off the event loop

    async def _db(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call the store: at once when a commit does not wait for the disk, else in the writer thread.

        A commit in WAL mode with `synchronous=NORMAL` takes about 0.1 ms and never waits for the
        disk: handing it to a thread would cost more (the thread must win the GIL back from the
        busy event loop, up to 5 ms each time, and the commits queue up behind each other).
        """
        if self.store.synchronous == "NORMAL":
            return call(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.writer, lambda: call(*args, **kwargs))

    async def commit(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        """Store action `n` of a table (one transaction); return once it is committed."""
        await self._db(self.store.append, table_id, n, action, finished=finished)

    async def rename(self, table_id: str, players: Sequence[str]) -> None:
        """Store a table's seat labels; return once they are committed."""
        await self._db(self.store.rename, table_id, players)

    # ----------------------------------------------------------------- start and stop

    async def _checkpoints(self, every: float = 1.0) -> None:
        """Copy the database's log into its file every second, in a thread that may wait for the disk."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(self.checkpointer, self.store.checkpoint)
            except Exception:  # a busy database: the next one will do
                log.exception("checkpoint failed")

    async def _sweeps(self) -> None:
        """Put away idle tables (`put_away_idle`) every minute, or more often for a short `idle_timeout`."""
        every = min(60.0, max(0.01, self.limits.idle_timeout / 4))
        while True:
            await asyncio.sleep(every)
            self.put_away_idle()

    def put_away_idle(self, now: float | None = None) -> list[str]:
        """Put away every table nobody is connected to that has waited `Limits.idle_timeout` seconds
        since its last action (or connection): it leaves memory and no longer counts as in play. It
        stays in the database, and its links bring it back where it was.

        Args:
            now: The time, on `time.monotonic()`'s clock (default: now).

        Returns:
            The ids of the tables put away.

        Example:
            >>> Hub(Store(":memory:")).put_away_idle()  # no tables, none to put away
            []
        """
        now = time.monotonic() if now is None else now
        idle = [
            room
            for room in self.rooms.values()
            if not room.clients
            and now - room.last_active >= self.limits.idle_timeout
            and not room.lock.locked()
            and (room.advancing is None or room.advancing.done())
        ]
        for room in idle:
            del self.rooms[room.id]
        return [room.id for room in idle]

    async def start(self) -> None:
        """Bring back every unfinished table at its last stored action (those idle for longer than
        `Limits.idle_timeout` stay put away), and let its bots play on."""
        self.store.checkpoint_elsewhere()
        loop = asyncio.get_running_loop()
        self.checkpointing = loop.create_task(self._checkpoints())
        self.sweeping = loop.create_task(self._sweeps())
        since = time.time() - self.limits.idle_timeout
        for stored in await self._db(self.store.unfinished, since):
            room = await self._load(stored)
            self.rooms[room.id] = room
            room.wake()

    async def _load(self, stored: StoredTable) -> Room:
        texts = await self._db(self.store.actions, stored.id)
        state = await asyncio.to_thread(_replayed, stored, texts)  # (a long match: off the event loop)
        if len(texts) != stored.length:
            raise RuntimeError(f"table {stored.id}: {len(texts)} actions stored, length {stored.length}")
        return Room(self, stored, state)

    async def stop(self) -> None:
        """Stop the tables' tasks and close the database."""
        for task in (self.checkpointing, self.sweeping):
            if task is not None:
                task.cancel()
        self.checkpointer.shutdown(wait=True)
        for room in list(self.rooms.values()):
            if room.advancing is not None:
                room.advancing.cancel()
            for client in room.clients:
                client.close()
        await self._db(self.store.close)
        self.writer.shutdown(wait=True)

    def unload(self, room: Room) -> None:
        """Forget a finished table nobody watches (it stays in the database)."""
        if self.rooms.get(room.id) is room and room.state.is_over and not room.clients:
            del self.rooms[room.id]

    # ----------------------------------------------------------------- tables

    def may_create(self, address: str) -> bool:
        """Whether a client address may create a table now (its rate limit)."""
        return self._allow("create", address, self.limits.tables_per_minute, self.limits.table_burst)

    def may_join(self, address: str) -> bool:
        """Whether a client address may open a connection now (its rate limit)."""
        return self._allow("join", address, self.limits.joins_per_minute, self.limits.join_burst)

    def _allow(self, what: str, address: str, per_minute: float, burst: int) -> bool:
        bucket = self.buckets.get((what, address))
        if bucket is None:
            if len(self.buckets) > 20_000:  # (forgetting every address lets them all start afresh)
                self.buckets.clear()
            bucket = self.buckets[what, address] = Bucket(per_minute / 60, burst)
        return bucket.take()

    async def create(self, request: Any) -> dict[str, Any]:
        """Create a table from a request (parsed JSON); return the seats' and spectators' secrets.

        The request: `{"preset": "agurk", "options": {...}, "seats": ["person", "heuristic", ...],
        "names": ["Ann", ...], "first": 0}`; only `preset` and `seats` are required.

        Raises:
            CreateError: A bad request (400) or a full server (503).
        """
        rules, seats, names, first = read_request(request, self.bot_names)
        self._check_room()
        try:
            state = cr.new_game(rules, players=names, first=first)
        except cr.InvalidRulesError as err:
            raise CreateError(400, schema.error_document(err)) from None
        table_id = self.table_id()
        people = {seat: self.secret() for seat, bot in enumerate(seats) if bot is None}
        watchers = self.secret()
        stored = StoredTable(table_id, cr.dumps(rules), state.players, first, seats, 0, False)
        links = [(digest(s), seat) for seat, s in people.items()] + [(digest(watchers), None)]
        self.creating += 1  # (while the writer thread stores it, other requests see it counted)
        try:
            await self._db(self.store.create, stored, links)
        finally:
            self.creating -= 1
        room = Room(self, stored, state)
        self.rooms[table_id] = room
        room.wake()
        return {
            "table": table_id,
            "seats": [
                {"seat": seat, "name": name, "bot": bot, "secret": people.get(seat)}
                for seat, (name, bot) in enumerate(zip(state.players, seats, strict=True))
            ],
            "spectators": watchers,
        }

    def _check_room(self, what: str = "") -> None:
        """Refuse another table in play if the server holds all it may (`Limits.max_tables`)."""
        playing = sum(1 for room in self.rooms.values() if not room.state.is_over) + self.creating
        if playing >= self.limits.max_tables:
            raise CreateError(
                503, schema.protocol_error("server-full", "the server holds all the tables it may" + what)
            )

    async def join(self, secret: Any) -> tuple[Room, int | None] | None:
        """The room and seat of a link's secret, or None for a secret that names no seat.

        A finished table, or one put away for being idle, is brought back from the database.

        Raises:
            CreateError: 503 (`server-full`) for an unfinished table put away while the server holds
                all the tables it may (it stays stored: it comes back once there is room).
        """
        if type(secret) is not str or not 1 <= len(secret) <= 200:
            return None
        found = await self._db(self.store.link, digest(secret))
        if found is None:
            return None
        table_id, seat = found
        room = self.rooms.get(table_id)
        if room is None:  # a finished table (to be looked at), or one put away for being idle
            stored = await self._db(self.store.table, table_id)
            if stored is None:
                return None
            room = self.rooms.get(table_id)
            if room is None:
                playing = not stored.finished
                if playing:
                    self._check_room("; this table is kept, and comes back when there is room")
                    self.creating += 1
                try:
                    room = self.rooms.get(table_id) or await self._load(stored)
                finally:
                    self.creating -= playing
                room = self.rooms.setdefault(table_id, room)
                room.wake()  # (its deals and bots go on, as at start, if it was left on their turn)
        return room, seat

    async def record(self, secret: Any) -> str | None:
        """The record document of a finished match, for any of its links; None if there is none yet."""
        joined = await self.join(secret)
        if joined is None or not joined[0].state.is_over:
            return None
        room = joined[0]
        text = room.record_text
        if text is None:  # written once (a finished match never changes), off the event loop
            state = room.state
            text = room.record_text = await asyncio.to_thread(lambda: cr.dumps(cr.record(state)))
        self.unload(room)
        return text


def _replayed(stored: StoredTable, texts: Sequence[str]) -> cr.State:
    """The state after a stored table's actions (their documents, in order)."""
    rules = cr.loads(stored.rules, cr.Rules)
    actions = [schema.read_action(json.loads(t)) for t in texts]
    return cr.replay(cr.Record(rules, stored.players, stored.first, actions))
