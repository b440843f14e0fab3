"""One table in play (`Room`): its match, its seats and connections, its actions and bots, and the
fan-out of views. `Tables` (in `tables`) holds the rooms.

Every action goes through the room's lock: read and checked, applied with `cr.apply`, stored (one
transaction), and only then sent on: each connection gets the view of its own seat
(`cr.view(state, seat)`), as a view document, written once per seat and action.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import attrs

import cucumber_rules as cr

from .. import schema
from ..bots import Bot, get_bot
from ..serialization.documents import ENVELOPE
from .clients import Client
from .documents import ViewWriter
from .limits import Limits
from .protocol import dumps, error_message, table_message, unknown_field, view_message
from .store import StoredTable

__all__ = ["NotStored", "Room", "RoomHost"]

log = logging.getLogger("cucumber_rules.server")

#: The fields of an `act` message.
ACT_FIELDS: Final = frozenset(("type", "at", "action"))


class RoomHost(Protocol):
    """What a room asks of the server that holds it (a `Hub` is one): its limits, the deals, the
    bots' generators, the store, and to be let go."""

    limits: Limits
    """The server's limits (a room checks its connections per table)."""
    dealer: Callable[[cr.State], cr.Action]
    """Draws the deal at a chance node."""
    bot_rng: Callable[[], random.Random]
    """A new generator for a room's bots."""

    async def commit(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        """Store action `n` of a table; return once it is committed."""

    async def rename(self, table_id: str, players: Sequence[str]) -> None:
        """Store a table's seat labels."""

    def unload(self, room: Room) -> None:
        """Forget a finished table nobody watches."""


class NotStored(Exception):
    """The database failed to store an action: nothing was applied, and nobody was told."""


class Room:
    """One table: its match, its seats (people and bots) and the connections to it.

    `Hub.create` makes one for a new table and `Hub.join` brings a stored one back; the room's
    messages are what its connections are sent.

    Example:
        >>> import json
        >>> import cucumber_rules as cr
        >>> rules = cr.ruleset("gurka")
        >>> state = cr.new_game(rules, players=["Ann", "Bo"])
        >>> stored = StoredTable("t1", cr.dumps(rules), state.players, 0, (None, "random"), 0, False)
        >>> from cucumber_rules.server import Hub, Store
        >>> room = Room(Hub(Store(":memory:")), stored, state)
        >>> json.loads(room.table_message(0))["seats"]  # Ann is a person, not connected yet
        [{'name': 'Ann', 'bot': None, 'online': False}, {'name': 'Bo', 'bot': 'random', 'online': True}]
    """

    def __init__(self, hub: RoomHost, stored: StoredTable, state: cr.State) -> None:
        self.hub = hub
        self.id = stored.id
        self.state = state
        self.length = stored.length
        self.bots: tuple[Bot | None, ...] = tuple(None if b is None else get_bot(b) for b in stored.seats)
        self.clients: list[Client] = []
        self.lock = asyncio.Lock()
        self.rng = hub.bot_rng()
        self.advancing: asyncio.Task[None] | None = None
        self.views = ViewWriter()
        self.sent: dict[tuple[int | None, bool], str] = {}
        """The view messages of the current position, by seat and pictures (each written once)."""
        self.told: dict[str, Any] | None = None
        """What the views with pictures add at the current position (`story`), once written."""
        self.record_text: str | None = None  # the finished match's record document, once written
        self.step: tuple[cr.State, cr.Action] | None = None  # the latest action, and the state before it
        table = state.table  # the latest trick taken (kept into the next round), for the `last_trick`
        self.last_trick = (
            (table.tricks[-1], len(table.tricks)) if table is not None and table.tricks else None
        )
        self.last_active = time.monotonic()  # the last action, or the last connection to come or go

    # ----------------------------------------------------------------- messages

    def table_message(self, seat: int | None) -> str:
        """The table as one seat sees it: the seats, their names, bots and who is connected."""
        online = {c.seat for c in self.clients if not c.dropped}
        seats = [
            (name, None if bot is None else bot.name, bot is not None or i in online)
            for i, (name, bot) in enumerate(zip(self.state.players, self.bots, strict=True))
        ]
        return table_message(seat, seats, None in online)

    def view_message(self, seat: int | None, pictures: bool) -> str:
        """The view of one seat after the latest action (written once per seat and kind of message)."""
        key = (seat, pictures)
        text = self.sent.get(key)
        if text is None:
            view = cr.view(self.state, seat)
            picture = None
            if pictures:
                from .. import render

                picture = render.svg(view)
                if self.told is None:
                    self.told = self.story()
            text = self.sent[key] = view_message(
                self.length, self.views.dumps(view), picture, self.told if pictures else None
            )
        return text

    def story(self) -> dict[str, Any]:
        """What a view with pictures adds, the same for every seat (it tells only what all see): `said`,
        the narration of the latest action (`cr.narrate`), and `last_trick`, the latest trick taken."""
        from .. import render
        from ..narrate import narrate

        said = []
        if self.step is not None:
            before, action = self.step
            if isinstance(action, cr.Play):
                said.append(f"{self.state.players[action.seat]} plays {action.card}")
            said += [line.strip() for line in narrate(before, action, self.state)]
        last = None
        if self.last_trick is not None:
            trick, number = self.last_trick
            title = f"Trick {number}"
            picture = render.trick_svg(trick, self.state.players, rules=self.state.rules, title=title)
            last = {"number": number, "taker": trick.taker, "picture": picture}
        return {"said": said, "last_trick": last}

    def broadcast(self) -> None:
        """Send every connection its own seat's view of the current state."""
        for client in self.clients:
            client.send(self.view_message(client.seat, client.pictures))

    def announce(self) -> None:
        """Send every connection the table's seats (someone came or went)."""
        texts: dict[int | None, str] = {}
        for client in self.clients:
            if client.seat not in texts:
                texts[client.seat] = self.table_message(client.seat)
            client.send(texts[client.seat])

    def attach(self, client: Client) -> bool:
        """Connect a client: it gets the table and its view at once. False if the table is full.

        Each person's seat keeps a place for a connection of its own: spectators (and a seat's
        further connections) take only the places left, so they can never lock a player out.
        """
        connected = {c.seat for c in self.clients}
        waiting = sum(1 for s, bot in enumerate(self.bots) if bot is None and s not in connected)
        if client.seat is not None and client.seat not in connected:
            waiting -= 1  # (this connection takes its seat's own place)
        if len(self.clients) + waiting >= self.hub.limits.connections_per_table:
            return False
        self.clients.append(client)
        self.last_active = time.monotonic()
        self.announce()
        client.send(self.view_message(client.seat, client.pictures))
        return True

    def detach(self, client: Client) -> None:
        """Disconnect a client."""
        if client in self.clients:
            self.clients.remove(client)
            self.last_active = time.monotonic()
            self.announce()
        if not self.clients and self.state.is_over:
            self.hub.unload(self)

    def idle(self, now: float, timeout: float) -> bool:
        """Whether nobody is connected, nothing is under way, and nothing happened for `timeout` seconds."""
        return (
            not self.clients
            and now - self.last_active >= timeout
            and not self.lock.locked()
            and (self.advancing is None or self.advancing.done())
        )

    def stop(self) -> None:
        """Stop the deals and bots, and close every connection (the server is stopping)."""
        if self.advancing is not None:
            self.advancing.cancel()
        for client in self.clients:
            client.close()

    async def rename(self, seat: int, name: str) -> None:
        """Name a person's seat (a `join` message's `name`) while the match runs: stored, then told to all.

        The match is replayed with the new labels, so its views, pictures and record carry them.
        """
        async with self.lock:
            if self.bots[seat] is not None or self.state.is_over or self.state.players[seat] == name:
                return
            players = (*self.state.players[:seat], name, *self.state.players[seat + 1 :])
            record = attrs.evolve(cr.record(self.state), players=players)
            state = await asyncio.to_thread(cr.replay, record)  # (a long match: off the event loop)
            await self.hub.rename(self.id, players)
            self.state, self.sent, self.told = state, {}, None
        self.announce()
        self.broadcast()

    # ----------------------------------------------------------------- actions

    async def act(self, client: Client, message: Mapping[str, Any]) -> None:
        """A client's `act` message: check it, apply it, store it, tell everyone; or send an error."""
        try:
            error = await self.check_and_apply(client, message)
        except NotStored:
            message_ = "the server could not store the action: it was not applied; send it again later"
            error = schema.protocol_error("database-error", message_, seat=client.seat)
        if error is not None:
            client.send(error_message(error))

    async def check_and_apply(self, client: Client, message: Mapping[str, Any]) -> dict[str, Any] | None:
        """An `act` message's action, checked and applied (stored, then sent on); or the error document.

        Raises:
            NotStored: The database failed: nothing was applied, and nobody was told.
        """
        unknown = unknown_field(message, ACT_FIELDS)
        if unknown is not None:
            return unknown
        at = message.get("at")
        if type(at) is not int:
            return schema.protocol_error("invalid-document", "`at` must be an integer", path="$.at")
        if "action" not in message:
            return schema.protocol_error("invalid-document", "missing field 'action'", path="$.action")
        try:
            action = schema.read_action(message["action"])
        except cr.InvalidStateError as err:
            path = "$.action" + err.path[1:]
            return schema.protocol_error("invalid-document", str(err).replace(err.path, path, 1), path=path)
        sent = schema.action_document(action)
        body = {k: v for k, v in sent.items() if k not in ENVELOPE}
        if client.seat is None:
            return schema.protocol_error("spectator", "a spectator's link acts for no seat", action=body)
        if isinstance(action, cr.Deal):
            return schema.protocol_error("chance-action", "the server deals, not a player", action=body)
        if action.seat != client.seat:
            return schema.protocol_error(
                "not-your-seat", f"this link is seat {client.seat}'s, not seat {action.seat}'s", action=body
            )
        async with self.lock:
            if at != self.length:
                return schema.protocol_error(
                    "stale",
                    f"the action was chosen at action {at}, but the match is at action {self.length}",
                    seat=client.seat,
                    action=body,
                )
            illegal = cr.check(self.state, action)
            if illegal is not None:
                return schema.error_document(illegal)
            await self.accept(action)
        self.wake()
        return None

    async def accept(self, action: cr.Action) -> None:
        """Apply, store, then tell: the caller holds the lock and has checked the action.

        Raises:
            NotStored: The database failed: nothing was applied, and nobody was told.
        """
        before, state = self.state, cr.apply(self.state, action)
        document = dumps(schema.action_document(action))
        try:
            await self.hub.commit(self.id, self.length, document, finished=state.is_over)
        except Exception as err:
            log.exception("table %s: action %d could not be stored", self.id, self.length)
            raise NotStored from err
        self.state, self.step = state, (before, action)
        taken = state.table.tricks if state.table is not None else ()
        if before.table is not None and len(taken) > len(before.table.tricks):
            self.last_trick = (taken[-1], len(taken))
        self.length += 1
        self.sent, self.told = {}, None
        self.last_active = time.monotonic()
        self.broadcast()

    def wake(self) -> None:
        """Let the deals and the bots play, if it is their turn (in a task of the room's own)."""
        if self.advancing is None or self.advancing.done():
            self.advancing = asyncio.get_running_loop().create_task(self.advance())

    async def advance(self) -> None:
        """Deal and let the bots play while it is their turn, one stored action at a time.

        If the database fails, the table waits where it is (nothing was applied or told): the
        next action sent to it, or the next start of the server, tries again.
        """
        try:
            await self.play_on()
        except NotStored:
            pass  # (logged by `accept`)
        except Exception:
            log.exception("table %s: a deal or a bot's action failed", self.id)

    async def play_on(self) -> None:
        """Deal and let the bots play while it is their turn (see `advance`)."""
        while True:
            async with self.lock:
                state = self.state
                seat = state.to_act
                if seat is None:
                    return
                if seat == cr.CHANCE:
                    action = self.hub.dealer(state)
                else:
                    bot = self.bots[seat]
                    if bot is None:
                        return
                    action = bot.choose(cr.view(state, seat), self.rng)
                await self.accept(action)
            await asyncio.sleep(0)  # let other tables and connections run between actions
