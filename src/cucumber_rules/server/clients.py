"""A client's connection to a table (`Client`): its seat and its queue of messages to send."""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["Client"]


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
