"""The tables in play and their lifecycle (`Tables`): brought back from the database at start or when a
link asks for one, put away when idle, forgotten when finished, and set aside when damaged.

A table whose stored rows cannot be read back (a length that does not match its actions, rules
or an action that is not a document the library reads, a bot that no longer exists) is *damaged*:
it is set aside, named in the log and in `Tables.damaged`, and its links get a `damaged-table`
error; every other table is served as usual.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import cucumber_rules as cr

from .. import schema
from .database import Database
from .limits import Limits
from .protocol import parse
from .requests import CreateError
from .store import DamagedTable, StoredTable

if TYPE_CHECKING:
    from .rooms import Room

__all__ = ["DamagedTable", "Tables", "replayed"]

log = logging.getLogger("cucumber_rules.server")


def replayed(stored: StoredTable, texts: Sequence[str]) -> cr.State:
    """The state after a stored table's actions (their documents, in order).

    Raises:
        DamagedTable: The rows do not make a match (the reason says what is wrong).

    Example:
        >>> rules = cr.ruleset("gurka")
        >>> stored = StoredTable("t1", cr.dumps(rules), ("Ann", "Bo"), 0, (None, None), 1, False)
        >>> replayed(stored, [])
        Traceback (most recent call last):
        ...
        cucumber_rules.server.store.DamagedTable: table t1 is damaged: 0 actions stored, length 1
    """
    if len(texts) != stored.length:
        raise DamagedTable(stored.id, f"{len(texts)} actions stored, length {stored.length}")
    try:
        rules = cr.loads(stored.rules, cr.Rules)
    except (cr.RulesError, ValueError, TypeError) as err:
        raise DamagedTable(stored.id, f"its rules cannot be read ({err})") from None
    actions = []
    for n, text in enumerate(texts):
        try:
            actions.append(schema.read_action(parse(text)))
        except (cr.RulesError, ValueError, TypeError) as err:
            raise DamagedTable(stored.id, f"action {n} cannot be read ({err})") from None
    try:
        return cr.replay(cr.Record(rules, stored.players, stored.first, actions))
    except (cr.RulesError, ValueError, TypeError) as err:
        raise DamagedTable(stored.id, f"its actions do not replay ({err})") from None


class Tables:
    """The tables in play (`rooms`), and the tables set aside as damaged (`damaged`).

    Args:
        database: The database they are stored in.
        limits: `max_tables` and `idle_timeout` are theirs.
        room: Makes the room of a table (stored, and its state).

    Example:
        >>> from cucumber_rules.server import Store
        >>> tables = Tables(Database(Store(":memory:")), Limits(), room=lambda stored, state: None)
        >>> tables.rooms, tables.damaged, tables.put_away_idle()
        ({}, {}, [])
    """

    def __init__(
        self, database: Database, limits: Limits, room: Callable[[StoredTable, cr.State], Room]
    ) -> None:
        self.database = database
        self.limits = limits
        self.room = room
        self.rooms: dict[str, Room] = {}
        self.damaged: dict[str, str] = {}
        """The tables set aside, by id: why each cannot be brought back."""
        self.creating = 0
        """Tables being stored or brought back: counted against `max_tables` before they are in `rooms`."""
        self.sweeping: asyncio.Task[None] | None = None

    # ----------------------------------------------------------------- start and stop

    async def start(self) -> None:
        """Bring back every unfinished table at its last stored action (those idle for longer than
        `Limits.idle_timeout` stay put away) and let its bots play on; set aside the damaged ones."""
        self.sweeping = asyncio.get_running_loop().create_task(self.sweeps())
        since = time.time() - self.limits.idle_timeout
        for table_id in await self.database.call(self.database.store.unfinished_ids, since):
            try:
                stored = await self.database.call(self.database.store.table, table_id)
                if stored is None:
                    continue
                room = await self.load(stored)
            except DamagedTable as err:
                self.set_aside(err)
                continue
            self.rooms[room.id] = room
            room.wake()
        if self.damaged:
            log.error(
                "%d table(s) set aside as damaged (their links are told so); the others are served",
                len(self.damaged),
            )

    def stop(self) -> None:
        """Stop the sweeps and every table's tasks and connections."""
        if self.sweeping is not None:
            self.sweeping.cancel()
        for room in list(self.rooms.values()):
            room.stop()

    async def load(self, stored: StoredTable) -> Room:
        """A stored table's room, at its last stored action.

        Raises:
            DamagedTable: Its rows cannot be read back.
        """
        texts = await self.database.call(self.database.store.actions, stored.id)
        state = await asyncio.to_thread(replayed, stored, texts)  # (a long match: off the event loop)
        try:
            return self.room(stored, state)
        except (ValueError, KeyError, TypeError) as err:  # (a bot that no longer exists, say)
            raise DamagedTable(stored.id, str(err)) from None

    def set_aside(self, err: DamagedTable) -> None:
        """Keep a damaged table out of play, and say so in the log (once)."""
        if err.table_id not in self.damaged:
            log.error("%s; it is set aside, and its links are told so", err)
        self.damaged[err.table_id] = err.reason

    def refusal(self, table_id: str) -> CreateError:
        """The error for a link of a damaged table."""
        message = "this table's stored record cannot be read back; the server's host has been told"
        return CreateError(503, schema.protocol_error("damaged-table", message))

    # ----------------------------------------------------------------- in play

    def playing(self) -> int:
        """Tables in play (finished ones do not count), those being stored or brought back included."""
        return sum(1 for room in self.rooms.values() if not room.state.is_over) + self.creating

    def check_room(self, what: str = "") -> None:
        """Refuse another table in play if the server holds all it may (`Limits.max_tables`).

        Raises:
            CreateError: 503 (`server-full`).
        """
        if self.playing() >= self.limits.max_tables:
            message = "the server holds all the tables it may" + what
            raise CreateError(503, schema.protocol_error("server-full", message))

    def add(self, room: Room) -> None:
        """Put a new table in play, and let its deals and bots go."""
        self.rooms[room.id] = room
        room.wake()

    async def find(self, table_id: str) -> Room | None:
        """The room of a table, brought back from the database if it is not in play (a finished table,
        to be looked at, or one put away for being idle); None if there is no such table.

        Raises:
            CreateError: 503, `damaged-table` for a table set aside; `server-full` for an unfinished
                table put away while the server holds all the tables it may (it stays stored: it
                comes back once there is room).
        """
        if table_id in self.damaged:
            raise self.refusal(table_id)
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        try:
            stored = await self.database.call(self.database.store.table, table_id)
        except DamagedTable as err:
            self.set_aside(err)
            raise self.refusal(table_id) from None
        if stored is None:
            return None
        room = self.rooms.get(table_id)  # (brought back meanwhile, by another connection)
        if room is not None:
            return room
        playing = not stored.finished
        if playing:
            self.check_room("; this table is kept, and comes back when there is room")
            self.creating += 1
        try:
            room = self.rooms.get(table_id) or await self.load(stored)
        except DamagedTable as err:
            self.set_aside(err)
            raise self.refusal(table_id) from None
        finally:
            self.creating -= playing
        room = self.rooms.setdefault(table_id, room)
        room.wake()  # (its deals and bots go on, as at start, if it was left on their turn)
        return room

    # ----------------------------------------------------------------- leaving play

    async def sweeps(self) -> None:
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
        """
        now = time.monotonic() if now is None else now
        idle = [room for room in self.rooms.values() if room.idle(now, self.limits.idle_timeout)]
        for room in idle:
            del self.rooms[room.id]
        return [room.id for room in idle]

    def unload(self, room: Room) -> None:
        """Forget a finished table nobody watches (it stays in the database)."""
        if self.rooms.get(room.id) is room and room.state.is_over and not room.clients:
            del self.rooms[room.id]

    def __repr__(self) -> str:
        return f"Tables({len(self.rooms)} in play, {len(self.damaged)} damaged)"
