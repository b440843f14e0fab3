"""The server's storage: one SQLite database file holding tables, hashed links and every accepted action.

An action is stored in one transaction that also moves the table's length on, and only if the
table's length is still the one the action was chosen at: so an action is never stored twice, and
a crash leaves each table at its last committed action. SQLite runs in WAL mode; a committed
transaction survives the process being killed (`synchronous=NORMAL`, the default), and survives
the machine losing power with `synchronous=FULL`.

Only the SHA-256 digest of each link is stored: whoever reads the database cannot join a table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import attrs

__all__ = ["DamagedTable", "DatabaseInUse", "Store", "StoredTable", "digest"]


class DamagedTable(Exception):
    """A stored table that cannot be brought back: its rows do not make a match the library reads.

    Example:
        >>> str(DamagedTable("t1", "3 actions stored, length 4"))
        'table t1 is damaged: 3 actions stored, length 4'
    """

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id} is damaged: {reason}")
        self.table_id = table_id
        self.reason = reason


class DatabaseInUse(RuntimeError):
    """Another server already writes this database file (`Store.claim`).

    Example:
        >>> str(DatabaseInUse("t.sqlite3", 1234))[:53]
        'the database t.sqlite3 is in use by another server (p'
    """

    def __init__(self, path: str, pid: int | None) -> None:
        who = f"process {pid}" if pid else "another process"
        super().__init__(
            f"the database {path} is in use by another server ({who}): one server per database file."
            " Stop that server first, or give this one another --db"
        )
        self.path = path
        self.pid = pid


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,               -- the rules document (cucumber_rules.dumps)
    players TEXT NOT NULL,             -- JSON array of the seat labels
    first INTEGER NOT NULL,
    seats TEXT NOT NULL,               -- JSON array, per seat: null for a person, else a bot's name
    length INTEGER NOT NULL DEFAULT 0, -- actions accepted so far
    finished INTEGER NOT NULL DEFAULT 0,
    updated REAL                       -- when the last action was stored (or the table created)
);
CREATE TABLE IF NOT EXISTS links (
    digest BLOB PRIMARY KEY,           -- SHA-256 of the link's secret; the secret itself is not kept
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER                       -- NULL for the spectators' link
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,                -- 0 for the first action of the match
    action TEXT NOT NULL,              -- the action document (cucumber_rules.schema.action_document)
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


def digest(secret: str) -> bytes:
    """The SHA-256 digest of a link's secret: what the database keeps instead of the secret.

    A link's secret is 256 random bits, so a fast hash is enough: nobody can search the space.

    Example:
        >>> digest("abc").hex()[:16]
        'ba7816bf8f01cfea'
    """
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest()  # (any str: a lone surrogate too)


@attrs.frozen
class StoredTable:
    """A table as the database holds it.

    Example:
        >>> StoredTable("t1", '{"format":2}', ("Ann", "Bo"), 0, (None, "heuristic"), 0, False).seats
        (None, 'heuristic')
    """

    id: str
    rules: str
    """The rules document."""
    players: tuple[str, ...]
    first: int
    seats: tuple[str | None, ...]
    """Per seat: None for a person, else the bot's name."""
    length: int
    """How many actions have been accepted."""
    finished: bool


class Store:
    """One SQLite database file: every table, its hashed links and its accepted actions.

    Writes go through one connection, serialised by a lock. With `synchronous=NORMAL` a commit
    does not wait for the disk (about 0.1 ms here), and the server calls the store from its event
    loop; with `FULL` every commit flushes the disk, and the server calls it from a writer thread
    of its own so that the event loop never waits.

    Args:
        path: The database file (created if missing), or `":memory:"`.
        synchronous: SQLite's `synchronous` setting: `"NORMAL"` (survives the process being
            killed) or `"FULL"` (also survives a power loss, at the cost of a disk flush per action).

    Example:
        >>> store = Store(":memory:")
        >>> store.create(StoredTable("t1", "{}", ("Ann", "Bo"), 0, (None, None), 0, False),
        ...              [(digest("s0"), 0), (digest("s1"), 1), (digest("w"), None)])
        >>> store.append("t1", 0, '{"type":"deal"}', finished=False)
        >>> store.link(digest("s1")), store.actions("t1"), store.table("t1").length
        (('t1', 1), ['{"type":"deal"}'], 1)
    """

    def __init__(self, path: str | Path, *, synchronous: str = "NORMAL") -> None:
        if synchronous.upper() not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "updated" not in columns:  # a database made before the column: count from each table's making
            self._db.execute("ALTER TABLE tables ADD COLUMN updated REAL")
            self._db.execute("UPDATE tables SET updated = created")
        self._checkpointer: sqlite3.Connection | None = None
        self._claim: int | None = None  # the lock file's descriptor, once claimed

    @property
    def lock_path(self) -> str | None:
        """The lock file beside the database that `claim` locks (None for `":memory:"`)."""
        return None if self.path == ":memory:" else self.path + ".lock"

    def claim(self) -> None:
        """Make this store the database's only writer, for as long as this process lives.

        Two servers on one file would each keep their own tables in memory and overwrite each
        other's moves. The claim is an exclusive lock (`flock`) on a file beside the database,
        `<database>.lock`, which holds the process id for the message: the operating system
        lets go of it when the process ends, however it ends (`kill -9` included), so a
        crashed server never keeps the next one out. Claiming again is harmless.

        Raises:
            DatabaseInUse: Another process holds the claim.

        Example:
            >>> import tempfile, pathlib
            >>> folder = pathlib.Path(tempfile.mkdtemp())
            >>> first = Store(folder / "t.sqlite3"); first.claim()
            >>> Store(folder / "t.sqlite3").claim()
            Traceback (most recent call last):
            ...
            cucumber_rules.server.store.DatabaseInUse: the database ... is in use by another server ...
            >>> first.close(); Store(folder / "t.sqlite3").claim()  # let go of when it closes
        """
        path = self.lock_path
        if path is None or self._claim is not None:
            return
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _lock(descriptor):
            try:
                pid = int(os.pread(descriptor, 32, 0).decode("ascii").strip() or 0)
            except (OSError, ValueError):
                pid = 0
            os.close(descriptor)
            raise DatabaseInUse(self.path, pid or None)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode("ascii"), 0)
        self._claim = descriptor

    def checkpoint_elsewhere(self) -> None:
        """Stop commits from copying the log into the database file themselves (SQLite's automatic
        checkpoint, which waits for the disk inside a commit); call `checkpoint` regularly instead,
        from a thread of its own."""
        with self._lock:
            self._db.execute("PRAGMA wal_autocheckpoint=0")

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file, without holding up writers (PASSIVE).

        Runs on a connection of its own, so it may be called from another thread while
        actions are stored; the wait for the disk happens there.
        """
        if self.path == ":memory:":
            return
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._checkpointer.execute("PRAGMA busy_timeout=5000")
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Close the database (a last checkpoint first)."""
        with self._lock:
            if self._checkpointer is not None:
                self._checkpointer.close()
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()
            if self._claim is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._claim, 0)
                os.close(self._claim)  # (the lock goes with it)
                self._claim = None

    # ----------------------------------------------------------------- writes (each one transaction)

    def create(self, table: StoredTable, links: Sequence[tuple[bytes, int | None]]) -> None:
        """Store a new table and its links' digests, in one transaction."""
        with self._lock, self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, created, rules, players, first, seats, length, finished, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?)",
                (
                    table.id,
                    now := time.time(),
                    table.rules,
                    json.dumps(list(table.players)),
                    table.first,
                    json.dumps(list(table.seats)),
                    now,
                ),
            )
            db.executemany(
                "INSERT INTO links (digest, table_id, seat) VALUES (?, ?, ?)",
                [(d, table.id, seat) for d, seat in links],
            )

    def append(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        """Store action number `n` of a table, in one transaction, if the table holds exactly `n` actions.

        Raises:
            RuntimeError: If the table does not hold exactly `n` actions (nothing is written).
        """
        with self._lock, self._transaction() as db:
            moved = db.execute(
                "UPDATE tables SET length = ?, finished = ?, updated = ?"
                " WHERE id = ? AND length = ? AND finished = 0",
                (n + 1, int(finished), time.time(), table_id, n),
            ).rowcount
            if moved != 1:
                raise RuntimeError(f"table {table_id}: action {n} is not the next one; nothing was stored")
            db.execute("INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)", (table_id, n, action))

    def rename(self, table_id: str, players: Sequence[str]) -> None:
        """Store a table's seat labels (a person named their seat when joining)."""
        with self._lock, self._transaction() as db:
            db.execute("UPDATE tables SET players = ? WHERE id = ?", (json.dumps(list(players)), table_id))

    class _Transaction:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, kind: Any, *_: Any) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def _transaction(self) -> Store._Transaction:
        return Store._Transaction(self._db)

    # ----------------------------------------------------------------- reads

    def _row(self, row: tuple[Any, ...]) -> StoredTable:
        table_id, rules, players, first, seats, length, finished = row
        try:
            names, kinds = json.loads(players), json.loads(seats)
            if not (
                type(rules) is str
                and type(names) is list
                and all(type(n) is str for n in names)
                and type(kinds) is list
                and all(k is None or type(k) is str for k in kinds)
                and len(kinds) == len(names)
                and type(first) is int
                and type(length) is int
                and length >= 0
            ):
                raise ValueError("a column holds a value of the wrong type")
        except (ValueError, TypeError) as err:
            raise DamagedTable(str(table_id), f"its row cannot be read ({err})") from None
        return StoredTable(table_id, rules, tuple(names), first, tuple(kinds), length, bool(finished))

    def table(self, table_id: str) -> StoredTable | None:
        """One table, or None.

        Raises:
            DamagedTable: Its row cannot be read (a column that is not what the server wrote).
        """
        with self._lock:
            row = self._db.execute(
                "SELECT id, rules, players, first, seats, length, finished FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        return None if row is None else self._row(row)

    def unfinished_ids(self, since: float | None = None) -> list[str]:
        """The ids of the tables whose match is not over, oldest first (the server brings them back at
        start, one by one: a damaged one is set aside, not in the way of the others); with `since`
        (a `time.time()`), only those with an action stored (or made) since then."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables"
                " WHERE finished = 0 AND COALESCE(updated, created) >= ? ORDER BY created",
                (float("-inf") if since is None else since,),
            ).fetchall()
        return [r[0] for r in rows]

    def unfinished(self, since: float | None = None) -> list[StoredTable]:
        """Every table whose match is not over, oldest first (the server brings them back at start);
        with `since` (a `time.time()`), only those with an action stored (or made) since then."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, players, first, seats, length, finished FROM tables"
                " WHERE finished = 0 AND COALESCE(updated, created) >= ? ORDER BY created",
                (float("-inf") if since is None else since,),
            ).fetchall()
        return [self._row(r) for r in rows]

    def actions(self, table_id: str) -> list[str]:
        """A table's action documents, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
        return [r[0] for r in rows]

    def link(self, secret_digest: bytes) -> tuple[str, int | None] | None:
        """The table and seat (None: spectators) of a link's digest, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT table_id, seat FROM links WHERE digest = ?", (secret_digest,)
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def links(self, table_id: str) -> list[tuple[bytes, int | None]]:
        """Every link digest of a table, with its seat."""
        with self._lock:
            rows = self._db.execute(
                "SELECT digest, seat FROM links WHERE table_id = ?", (table_id,)
            ).fetchall()
        return [(bytes(r[0]), r[1]) for r in rows]


def _lock(descriptor: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: a lock on the file's first byte
        import msvcrt

        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
