"""One table in play (`Room`): its match, its seats and connections, its actions and bots, and the
fan-out of views. `Hub` (in `tables`) holds the rooms.

Every action goes through the room's lock: read and checked, applied with `cr.apply`, stored (one
transaction, in the database's writer thread), and only then sent on: each connection gets the view of
its own seat (`cr.view(state, seat)`), as a view document.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

import cucumber_rules as cr

from .. import schema
from ..bots import Bot, get_bot
from ..serialization.documents import ENVELOPE
from .clients import Client, error_message
from .documents import ViewWriter
from .store import StoredTable

if TYPE_CHECKING:
    from .tables import Hub

__all__ = ["Room"]

log = logging.getLogger("cucumber_rules.server")


class Room:
    """One table: its match, its seats (people and bots) and the connections to it.

    `Hub.create` makes one for a new table and `Hub.join` brings a stored one back; the room's
    messages are what its connections are sent.

    Example:
        >>> import cucumber_rules as cr
        >>> rules = cr.ruleset("gurka")
        >>> state = cr.new_game(rules, players=["Ann", "Bo"])
        >>> stored = StoredTable("t1", cr.dumps(rules), state.players, 0, (None, "random"), 0, False)
        >>> from cucumber_rules.server import Hub, Store
        >>> room = Room(Hub(Store(":memory:")), stored, state)
        >>> json.loads(room.table_message(0))["seats"]  # Ann is a person, not connected yet
        [{'name': 'Ann', 'bot': None, 'online': False}, {'name': 'Bo', 'bot': 'random', 'online': True}]
    """

    def __init__(self, hub: Hub, stored: StoredTable, state: cr.State) -> None:
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
            {"name": name, "bot": None if bot is None else bot.name, "online": bot is not None or i in online}
            for i, (name, bot) in enumerate(zip(self.state.players, self.bots, strict=True))
        ]
        body = {"type": "table", "seat": seat, "seats": seats, "spectators": None in online}
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False)

    def view_message(self, seat: int | None, pictures: bool, cache: dict[Any, str]) -> str:
        """The view of one seat after the latest action (built once per seat and kind of message)."""
        key = (seat, pictures)
        text = cache.get(key)
        if text is None:
            view = cr.view(self.state, seat)
            text = f'{{"type":"view","at":{self.length},"view":{self.views.dumps(view)}'
            if pictures:
                from .. import render

                text += ',"picture":' + json.dumps(render.svg(view), ensure_ascii=False)
                if "story" not in cache:
                    cache["story"] = self.story()
                text += cache["story"]
            text += "}"
            cache[key] = text
        return text

    def story(self) -> str:
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
        return "," + json.dumps({"said": said, "last_trick": last}, ensure_ascii=False)[1:-1]

    def broadcast(self) -> None:
        """Send every connection its own seat's view of the current state."""
        cache: dict[Any, str] = {}
        for client in self.clients:
            client.send(self.view_message(client.seat, client.pictures, cache))

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
        client.send(self.view_message(client.seat, client.pictures, {}))
        return True

    def detach(self, client: Client) -> None:
        """Disconnect a client."""
        if client in self.clients:
            self.clients.remove(client)
            self.last_active = time.monotonic()
            self.announce()
        if not self.clients and self.state.is_over:
            self.hub.unload(self)

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
            self.state = state
        self.announce()
        self.broadcast()

    # ----------------------------------------------------------------- actions

    async def act(self, client: Client, message: Mapping[str, Any]) -> None:
        """A client's `act` message: check it, apply it, store it, tell everyone; or send an error."""
        error = await self._act(client, message)
        if error is not None:
            client.send(error_message(error))

    async def _act(self, client: Client, message: Mapping[str, Any]) -> dict[str, Any] | None:
        for key in message:
            if key not in ("type", "at", "action"):
                path = f"$.{key}" if key.isidentifier() and len(key) <= 40 else "$"
                return schema.protocol_error("invalid-document", f"unknown field {key[:40]!r}", path=path)
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
            await self._accept(action)
        self.wake()
        return None

    async def _accept(self, action: cr.Action) -> None:
        """Apply, store, then tell: the caller holds the lock and has checked the action."""
        before, state = self.state, cr.apply(self.state, action)
        document = json.dumps(schema.action_document(action), separators=(",", ":"), ensure_ascii=False)
        await self.hub.commit(self.id, self.length, document, finished=state.is_over)
        self.state, self.step = state, (before, action)
        taken = state.table.tricks if state.table is not None else ()
        if before.table is not None and len(taken) > len(before.table.tricks):
            self.last_trick = (taken[-1], len(taken))
        self.length += 1
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
            await self._advance()
        except Exception:
            log.exception("table %s: a deal or a bot's action could not be stored", self.id)

    async def _advance(self) -> None:
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
                await self._accept(action)
            await asyncio.sleep(0)  # let other tables and connections run between actions
