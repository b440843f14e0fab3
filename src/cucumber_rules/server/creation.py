"""Making a table (`TableMaker`): a request read and checked, the match begun, its links drawn, the table
stored in one transaction, and only then put in play."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import cucumber_rules as cr

from .. import schema
from .database import Database
from .requests import CreateError, read_request
from .store import StoredTable, digest
from .tables import Tables

__all__ = ["TableMaker"]

log = logging.getLogger("cucumber_rules.server")


class TableMaker:
    """Creates tables: from a request to a stored table in play, and the links to hand out.

    Args:
        database: Where the table and its links' digests are stored.
        tables: The tables in play (the new one joins them; their bound is checked first).
        bots: The bot names a table may seat.
        secret: Makes a link's secret.
        table_id: Makes a table's id.
        room: Makes the room of a table (stored, and its state).

    Example:
        >>> from cucumber_rules.server import Hub, Store
        >>> maker = Hub(Store(":memory:"), bots=["random"]).maker  # (a hub makes its own)
        >>> maker.bots, len(maker.secret()) >= 40
        (('random',), True)
    """

    def __init__(
        self,
        database: Database,
        tables: Tables,
        *,
        bots: Sequence[str],
        secret: Callable[[], str],
        table_id: Callable[[], str],
    ) -> None:
        self.database = database
        self.tables = tables
        self.bots = tuple(bots)
        self.secret = secret
        self.table_id = table_id

    async def create(self, request: Any) -> dict[str, Any]:
        """Create a table from a request (parsed JSON); return the seats' and spectators' secrets.

        The request: `{"preset": "agurk", "options": {...}, "seats": ["person", "heuristic", ...],
        "names": ["Ann", ...], "first": 0}`; only `preset` and `seats` are required.

        Raises:
            CreateError: A bad request (400), a full server (503 `server-full`) or a database that
                failed (503 `database-error`: nothing was stored).
        """
        rules, seats, names, first = read_request(request, self.bots)
        self.tables.check_room()
        try:
            state = cr.new_game(rules, players=names, first=first)
        except cr.InvalidRulesError as err:
            raise CreateError(400, schema.error_document(err)) from None
        table_id = self.table_id()
        people = {seat: self.secret() for seat, bot in enumerate(seats) if bot is None}
        watchers = self.secret()
        stored = StoredTable(table_id, cr.dumps(rules), state.players, first, seats, 0, False)
        links = [(digest(s), seat) for seat, s in people.items()] + [(digest(watchers), None)]
        self.tables.creating += 1  # (while the writer thread stores it, other requests see it counted)
        try:
            await self.database.call(self.database.store.create, stored, links)
        except Exception:
            log.exception("a new table could not be stored")
            message = "the server could not store the table; try again later"
            raise CreateError(503, schema.protocol_error("database-error", message)) from None
        finally:
            self.tables.creating -= 1
        self.tables.add(self.tables.room(stored, state))
        return {
            "table": table_id,
            "seats": [
                {"seat": seat, "name": name, "bot": bot, "secret": people.get(seat)}
                for seat, (name, bot) in enumerate(zip(state.players, seats, strict=True))
            ],
            "spectators": watchers,
        }
