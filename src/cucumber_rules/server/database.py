"""The database off the event loop: `Database` calls the `Store` where its waits cannot hold up the tables,
and copies its log into the file from a thread of its own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .store import Store

__all__ = ["Database"]

log = logging.getLogger("cucumber_rules.server")


class Database:
    """The server's use of its `Store`: each call at once or in the writer thread, and checkpoints.

    With `synchronous=NORMAL` a commit takes about 0.1 ms and never waits for the disk: it is made
    on the event loop at once (handing it to a thread would cost more: the thread must win the GIL
    back from the busy event loop, up to 5 ms each time). With `FULL` each commit waits for the
    disk, so every call goes to a writer thread of its own (one: the calls keep their order).

    Example:
        >>> database = Database(Store(":memory:"))
        >>> database.store.synchronous  # (so `call` calls the store at once, on the event loop)
        'NORMAL'
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="cucumber-rules-db")
        self.checkpointer = ThreadPoolExecutor(1, thread_name_prefix="cucumber-rules-checkpoint")
        self.checkpointing: asyncio.Task[None] | None = None

    async def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call one of the store's methods: at once, or in the writer thread (see the class)."""
        if self.store.synchronous == "NORMAL":
            return function(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.writer, lambda: function(*args, **kwargs))

    async def commit(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        """Store action `n` of a table (one transaction); return once it is committed.

        Raises:
            Exception: Whatever the store raised (nothing was stored).
        """
        await self.call(self.store.append, table_id, n, action, finished=finished)

    def start(self, every: float = 1.0) -> None:
        """Move SQLite's checkpoints out of the commits: one every `every` seconds in a thread."""
        self.store.checkpoint_elsewhere()
        self.checkpointing = asyncio.get_running_loop().create_task(self.checkpoints(every))

    async def checkpoints(self, every: float) -> None:
        """Copy the database's log into its file every `every` seconds, in a thread that may wait for
        the disk."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(self.checkpointer, self.store.checkpoint)
            except Exception:  # a busy database: the next one will do
                log.exception("checkpoint failed")

    async def stop(self) -> None:
        """Stop the checkpoints and close the store (a last checkpoint first)."""
        if self.checkpointing is not None:
            self.checkpointing.cancel()
        self.checkpointer.shutdown(wait=True)
        await self.call(self.store.close)
        self.writer.shutdown(wait=True)
