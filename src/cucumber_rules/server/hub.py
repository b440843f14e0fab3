"""The server's state (`Hub`): the parts that each do one job, put together.

- `Database` (in `database`): the store, called where its waits cannot hold up the tables;
- `Rates` and `Addresses` (in `limits`): what each address may still ask, and what it holds open;
- `Tables` (in `tables`): the tables in play, brought back, put away, set aside when damaged;
- `TableMaker` (in `creation`): new tables.

A `Room` (in `rooms`) is one table. Deals are drawn by the server (`cr.sample_chance` with the
operating system's randomness) and bots answer at once, each of their actions stored and sent like a
person's. Nothing a seat may not know is ever written into a message to it: views, pictures drawn
from views, the table's seats and names, and errors about that seat's own actions.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Final

import cucumber_rules as cr

from .. import schema
from ..bots import BOTS
from .creation import TableMaker
from .database import Database
from .limits import Addresses, Limits, Rates
from .requests import CreateError
from .rooms import Room
from .store import Store, StoredTable, digest
from .tables import Tables

__all__ = ["FAST_BOTS", "Hub"]

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
        self.limits = limits or Limits()
        self.bot_names = tuple(bots)
        system = random.SystemRandom()
        self.dealer = dealer or (lambda state: cr.sample_chance(state, system))
        self.bot_rng = bot_rng or (lambda: random.Random(secrets.randbits(64)))
        self.database = Database(store)
        self.rates = Rates(self.limits)
        self.addresses = Addresses(self.limits.connections_per_address)
        self.tables = Tables(self.database, self.limits, self.room)
        self.maker = TableMaker(
            self.database,
            self.tables,
            bots=self.bot_names,
            secret=secret or (lambda: secrets.token_urlsafe(32)),
            table_id=table_id or (lambda: secrets.token_urlsafe(12)),
        )

    def room(self, stored: StoredTable, state: cr.State) -> Room:
        """The room of a table (a new one, or one brought back from the database)."""
        return Room(self, stored, state)

    @property
    def store(self) -> Store:
        """The database."""
        return self.database.store

    @property
    def rooms(self) -> dict[str, Room]:
        """The tables in play, by id."""
        return self.tables.rooms

    @property
    def damaged(self) -> dict[str, str]:
        """The tables set aside as damaged, by id: why each cannot be brought back."""
        return self.tables.damaged

    # ----------------------------------------------------------------- start and stop

    async def start(self) -> None:
        """Claim the database (`Store.claim`: one server per file), bring back the tables in play, and
        start the checkpoints.

        Raises:
            DatabaseInUse: Another server writes this database.
        """
        self.store.claim()
        self.database.start()
        await self.tables.start()

    async def stop(self) -> None:
        """Stop the tables' tasks and close the database."""
        self.tables.stop()
        await self.database.stop()

    # ----------------------------------------------------------------- what the app asks

    def may_create(self, address: str) -> bool:
        """Whether a client address may create a table now (its rate limit)."""
        return self.rates.may_create(address)

    def may_join(self, address: str) -> bool:
        """Whether a client address may open a connection now (its rate limit)."""
        return self.rates.may_join(address)

    async def create(self, request: Any) -> dict[str, Any]:
        """Create a table from a request (see `TableMaker.create`)."""
        return await self.maker.create(request)

    async def commit(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        """Store action `n` of a table (one transaction); return once it is committed."""
        await self.database.commit(table_id, n, action, finished=finished)

    async def rename(self, table_id: str, players: Sequence[str]) -> None:
        """Store a table's seat labels (a person named their seat when joining); return once committed."""
        await self.database.call(self.store.rename, table_id, players)

    async def join(self, secret: Any) -> tuple[Room, int | None] | None:
        """The room and seat of a link's secret, or None for a secret that names no seat.

        A finished table, or one put away for being idle, is brought back from the database.

        Raises:
            CreateError: 503: `server-full` for an unfinished table put away while the server holds
                all the tables it may (it stays stored: it comes back once there is room);
                `damaged-table` for a table set aside; `database-error` if the database failed.
        """
        if type(secret) is not str or not 1 <= len(secret) <= 200:
            return None
        try:
            found = await self.database.call(self.store.link, digest(secret))
        except Exception:
            raise _database_error() from None
        if found is None:
            return None
        table_id, seat = found
        try:
            room = await self.tables.find(table_id)
        except CreateError:
            raise
        except Exception:
            raise _database_error() from None
        return None if room is None else (room, seat)

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

    def put_away_idle(self, now: float | None = None) -> list[str]:
        """Put away the idle tables (see `Tables.put_away_idle`).

        Example:
            >>> Hub(Store(":memory:")).put_away_idle()  # no tables, none to put away
            []
        """
        return self.tables.put_away_idle(now)

    def unload(self, room: Room) -> None:
        """Forget a finished table nobody watches (it stays in the database)."""
        self.tables.unload(room)


def _database_error() -> CreateError:
    log.exception("the database failed")
    message = "the server's database failed; try again later"
    return CreateError(503, schema.protocol_error("database-error", message))
