"""The table server under attack: a link acts only for its seat, a spectator for no one, messages and
requests are limited in size and rate, origins are checked, links are stored hashed, and hostile
messages get error documents, never a crash or a half-applied move (issue 37)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import socket
import sqlite3
import threading
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import attrs
import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

import cucumber_rules as cr
from cucumber_rules.server import Hub, Limits, Store, StoredTable, create_app, digest
from server_harness import Player, ThreadServer
from test_server import AGURK, deterministic_hub, wait_for_at

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    limits = Limits(messages_per_second=50, message_burst=60, table_burst=1000, join_burst=1000)
    hub = deterministic_hub(tmp_path_factory.mktemp("db") / "db.sqlite3", AGURK, limits=limits)
    with ThreadServer(hub) as running:
        yield running


def new_table(server: ThreadServer, seats: list[str] | None = None) -> dict[str, Any]:
    answer = server.create("agurk", seats or ["person", "person", "person"])
    wait_for_at(server.url, answer["spectators"]["secret"], 1)
    return answer


def joined(server: ThreadServer, secret: str, **options: Any) -> Player:
    player = Player(server.url, secret, **options)
    player.until(lambda m: m["type"] == "view")
    return player


# --------------------------------------------------------------------------- seats and links


def test_a_link_acts_only_for_its_seat(server: ThreadServer) -> None:
    answer = new_table(server)
    seat0 = joined(server, answer["seats"][0]["secret"])
    for action in (cr.Play(1, "2D"), cr.Play(2, "8H"), cr.Play(1, "AS"), cr.Revive(1, True)):
        seat0.act(action)
        error = seat0.error()
        assert error["code"] == "not-your-seat"
        for card in AGURK[1] + AGURK[2]:  # nothing about the other hands
            assert card not in error["message"].replace(
                str(action.card) if isinstance(action, cr.Play) else "", ""
            )
    assert seat0.at == 1
    assert len(server.hub.store.actions(answer["table"])) == 1


def test_a_spectator_acts_for_no_one_and_nobody_deals(server: ThreadServer) -> None:
    answer = new_table(server)
    watcher = joined(server, answer["spectators"]["secret"])
    assert watcher.view is not None
    assert watcher.view["seat"] is None
    assert watcher.view["hand"] == []
    for seat in range(3):
        watcher.act(cr.Play(seat, AGURK[seat][0]))
        assert watcher.error()["code"] == "spectator"
    seat0 = joined(server, answer["seats"][0]["secret"])
    seat0.act(cr.Deal(hands=AGURK))
    assert seat0.error()["code"] == "chance-action"
    assert len(server.hub.store.actions(answer["table"])) == 1


@pytest.mark.parametrize(
    "join",
    [
        {"type": "join", "link": "guessed-secret"},
        {"type": "join", "link": ""},
        {"type": "join", "link": "x" * 300},
        {"type": "join", "link": ["secret-0"]},
        {"type": "join"},
    ],
)
def test_unknown_links_are_refused(server: ThreadServer, join: dict[str, Any]) -> None:
    player = Player(server.url, "", join=False)
    player.send(join)
    assert player.error()["code"] == "unknown-link"
    with pytest.raises(ConnectionClosed):
        player.receive(5)


@pytest.mark.parametrize(
    "first",
    ["hello", "[]", '{"type": "act"}', "{" * 2000, '{"type": "join", "link": "x", "admin": true}'],
)
def test_the_first_message_must_be_a_join(server: ThreadServer, first: str) -> None:
    player = Player(server.url, "", join=False)
    player.send(first)
    assert player.error()["code"] == "invalid-document"
    with pytest.raises(ConnectionClosed):
        player.receive(5)


def test_a_silent_connection_is_closed(tmp_path: Path) -> None:
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=Limits(join_timeout=0.3))) as quick:
        player = Player(quick.url, "", join=False)
        with pytest.raises(ConnectionClosed):
            player.receive(5)


# --------------------------------------------------------------------------- hostile messages


def act(at: Any = 1, **action: Any) -> str:
    """An `act` message with an action document (fields given, or a play of KC by seat 0)."""
    fields = action or {"type": "play", "seat": 0, "card": "KC"}
    document = {"format": cr.FORMAT_VERSION, "kind": "action", **fields}
    return json.dumps({"type": "act", "at": at, "action": document})


PLAY = {"type": "play", "seat": 0, "card": "KC"}  # an action object without its document's envelope

HOSTILE_MESSAGES = [
    ("not json", "invalid-document", "$"),
    ("[" * 2000 + "]" * 2000, "invalid-document", "$"),  # nested past Python's recursion limit
    ("[1, 2]", "invalid-document", "$"),
    ('{"type": "steal"}', "invalid-document", "$.type"),
    ('{"type": "act", "at": "1", "action": {}}', "invalid-document", "$.at"),
    ('{"type": "act", "at": true, "action": {}}', "invalid-document", "$.at"),
    ('{"type": "act", "at": 1}', "invalid-document", "$.action"),
    ('{"type": "act", "at": 1, "action": {}, "admin": true}', "invalid-document", "$.admin"),
    ('{"type": "ping", "admin": true}', "invalid-document", "$.admin"),
    (json.dumps({"type": "act", "at": 1, "action": PLAY}), "invalid-document", "$.action.format"),
    (act(type="play", seat=0, card="KX"), "invalid-document", "$.action.card"),
    (act(type="play", seat=0, card="KC", x=1), "invalid-document", "$.action.x"),
    (act(type="play", seat=-1, card="KC"), "invalid-document", "$.action.seat"),
    (act(type="revive", seat=0, accept="yes"), "invalid-document", "$.action.accept"),
    (act(at=0), "stale", None),
    (act(at=99), "stale", None),
    (act(at=-1), "stale", None),
]  # fmt: skip


@pytest.mark.parametrize(("message", "code", "path"), HOSTILE_MESSAGES)
def test_hostile_messages_get_error_documents_and_change_nothing(
    server: ThreadServer, message: str, code: str, path: str | None
) -> None:
    answer = new_table(server)
    seat0 = joined(server, answer["seats"][0]["secret"])
    seat0.send(message)
    error = seat0.error()
    assert error["code"] == code
    assert error["path"] == path
    seat0.act(cr.Play(0, "KC"))  # the connection still works, and the match is where it was
    assert seat0.until_at(2)["at"] == 2


def test_binary_and_oversized_messages(server: ThreadServer) -> None:
    answer = new_table(server)
    seat0 = joined(server, answer["seats"][0]["secret"])
    seat0.ws.send(b'{"type": "ping"}')
    assert seat0.error()["code"] == "invalid-document"
    seat0.send('{"type": "ping", "pad": "' + "x" * 5000 + '"}')
    assert seat0.error()["code"] == "too-large"
    seat0.send('{"type": "ping", "pad": "' + "🥒" * 1100 + '"}')  # 1,124 characters, 4,424 bytes in UTF-8
    assert seat0.error()["code"] == "too-large"
    seat0.send('{"type": "ping"}')
    assert seat0.until(lambda m: m["type"] == "pong")
    seat0.send("x" * 200_000)  # past the frame limit: the connection is closed unread
    with pytest.raises(ConnectionClosed):
        seat0.until(lambda m: False, timeout=5)


def test_flooding_is_refused_then_cut_off(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=2, message_burst=5)
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK, limits=limits)) as slow:
        answer = slow.create("agurk", ["person", "person", "person"])
        wait_for_at(slow.url, answer["spectators"]["secret"], 1)
        seat0 = joined(slow, answer["seats"][0]["secret"])
        codes = []
        try:
            for _ in range(50):
                seat0.send('{"type": "ping"}')
        except ConnectionClosed:
            pass  # (a busy machine: the server may cut the flood off before the last ping is sent)

        def read_all() -> None:
            while True:
                message = seat0.receive(5)
                codes.append(message["type"] if message["type"] != "error" else message["error"]["code"])

        with pytest.raises(ConnectionClosed):
            read_all()
        assert codes.count("pong") <= 6
        assert "rate-limited" in codes
        # a fresh connection is welcome once the flood is over
        time.sleep(0.5)
        assert joined(slow, answer["seats"][0]["secret"]).at == 1


# --------------------------------------------------------------------------- origins


def test_websocket_origins_are_checked(server: ThreadServer) -> None:
    answer = new_table(server)
    secret = answer["seats"][0]["secret"]
    with pytest.raises(InvalidStatus) as refused:
        Player(server.url, secret, origin="http://evil.example")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):
        Player(server.url, secret, origin=f"http://127.0.0.1:{server.port + 1}")
    assert joined(server, secret, origin=server.url).at == 1  # the server's own pages
    assert joined(server, secret).at == 1  # a program (no Origin header)


def test_other_origins_are_allowed_only_when_configured(tmp_path: Path) -> None:
    body = {"preset": "agurk", "seats": ["person"] * 3}
    docs = {"Origin": "https://docs.example.org"}
    with ThreadServer(database=tmp_path / "db") as plain:
        assert httpx.post(f"{plain.url}/api/tables", json=body, headers=docs).status_code == 403
    with ThreadServer(database=tmp_path / "db2", origins=("https://docs.example.org/",)) as opened:
        answer = httpx.post(f"{opened.url}/api/tables", json=body, headers=docs)
        assert answer.status_code == 201
        secret = answer.json()["seats"][0]["secret"]
        assert joined(opened, secret, origin="https://docs.example.org").view is not None
        with pytest.raises(InvalidStatus):
            Player(opened.url, secret, origin="https://docs.example.org.evil.example")


def test_table_requests_from_other_origins_are_refused(server: ThreadServer) -> None:
    body = {"preset": "agurk", "seats": ["person"] * 3}
    evil = httpx.post(f"{server.url}/api/tables", json=body, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403
    assert evil.json()["kind"] == "error"
    own = httpx.post(f"{server.url}/api/tables", json=body, headers={"Origin": server.url})
    assert own.status_code == 201


# --------------------------------------------------------------------------- table requests


def request(**fields: Any) -> dict[str, Any]:
    return {"preset": "agurk", "seats": ["person"] * 3, **fields}


BAD_REQUESTS = [
    (request(preset="hearts"), "invalid-rules", "preset"),
    (request(options={"threshold": 0}), "invalid-rules", "threshold"),
    (request(options={"surprise": True}), "invalid-rules", "surprise"),
    (request(options=[1]), "invalid-document", "$.options"),
    (request(options={f"o{i}": 1 for i in range(40)}), "invalid-document", "$.options"),
    (request(seats=["person"] * 2), "invalid-rules", "players"),
    (request(seats=["person"] * 9), "invalid-document", "$.seats"),
    (request(seats=["person", "person", "ismcts"]), "invalid-document", "$.seats[2]"),
    (request(seats=["person", "person", None]), "invalid-document", "$.seats[2]"),
    (request(seats="person"), "invalid-document", "$.seats"),
    (request(seats=["random", "heuristic", "random"]), "invalid-document", "$.seats"),  # no person
    (request(preset=7), "invalid-document", "$.preset"),
    (request(names=["a", "b"]), "invalid-document", "$.names"),
    (request(names=["a", "b\n", "c"]), "invalid-document", "$.names[1]"),
    (request(names=["a", "b", "c" * 41]), "invalid-document", "$.names[2]"),
    (request(names=["a", "b", 3]), "invalid-document", "$.names[2]"),
    (request(names=["a", " b", "c"]), "invalid-document", "$.names[1]"),
    (request(first=3), "invalid-document", "$.first"),
    (request(first=True), "invalid-document", "$.first"),
    (request(owner="me"), "invalid-document", "$.owner"),
    ([], "invalid-document", "$"),
]


@pytest.mark.parametrize(("body", "code", "where"), BAD_REQUESTS)
def test_bad_table_requests(server: ThreadServer, body: Any, code: str, where: str) -> None:
    response = httpx.post(f"{server.url}/api/tables", json=body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["code"] == code
    assert where in (error["path"] or error["option"] or ""), error


def test_table_requests_are_limited_in_size_and_type(server: ThreadServer) -> None:
    url = f"{server.url}/api/tables"
    big = json.dumps({"preset": "agurk", "seats": ["person"] * 3, "names": ["x" * 3000] * 3})
    response = httpx.post(url, content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["code"] == "too-large"

    def chunks() -> Any:  # no Content-Length: the body is counted as it comes
        for _ in range(100):
            yield b" " * 100

    response = httpx.post(url, content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    response = httpx.post(url, content="{}", headers={"Content-Type": "text/plain"})  # a form can send this
    assert response.status_code == 415
    response = httpx.post(url, content="{nope", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid-document"


def test_table_creation_is_rate_limited_and_bounded(tmp_path: Path) -> None:
    limits = Limits(tables_per_minute=1, table_burst=2, max_tables=3)
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=limits)) as strict:
        body = {"preset": "gurka", "seats": ["person", "person"]}
        codes = [httpx.post(f"{strict.url}/api/tables", json=body).status_code for _ in range(3)]
        assert codes == [201, 201, 429]
    limits = Limits(max_tables=2)
    with ThreadServer(Hub(Store(tmp_path / "db2"), limits=limits)) as small:
        body = {"preset": "gurka", "seats": ["person", "person"]}
        codes = [httpx.post(f"{small.url}/api/tables", json=body).status_code for _ in range(3)]
        assert codes == [201, 201, 503]


def test_tables_being_stored_count_against_the_bound(tmp_path: Path) -> None:
    # With `--sync full` a table is stored in the writer thread: requests that come in meanwhile must
    # see it counted, or many at once would all pass the check.
    with ThreadServer(Hub(Store(tmp_path / "db", synchronous="FULL"), limits=Limits(max_tables=2))) as full:
        body = {"preset": "gurka", "seats": ["person", "person"]}
        with concurrent.futures.ThreadPoolExecutor(10) as pool:
            codes = list(
                pool.map(lambda _: httpx.post(f"{full.url}/api/tables", json=body).status_code, range(10))
            )
        assert sorted(codes) == [201, 201] + [503] * 8
        assert len([r for r in full.hub.rooms.values() if not r.state.is_over]) == 2


def test_spectators_cannot_lock_a_player_out(tmp_path: Path) -> None:
    # Each person's seat keeps a place: spectators fill only the others, and a seat still joins.
    with ThreadServer(
        deterministic_hub(tmp_path / "db", AGURK, limits=Limits(connections_per_table=4))
    ) as small:
        answer = small.create("agurk", ["person", "heuristic", "person"])
        watch = answer["spectators"]["secret"]
        joined(small, watch)
        joined(small, watch)
        assert Player(small.url, watch).error()["code"] == "server-full"  # 2 places kept for the people
        seat0 = joined(small, answer["seats"][0]["secret"])
        assert Player(small.url, answer["seats"][0]["secret"]).error()["code"] == "server-full"
        joined(small, answer["seats"][2]["secret"])
        assert seat0.view is not None


def test_links_tried_over_http_are_rate_limited(tmp_path: Path) -> None:
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=Limits(joins_per_minute=1, join_burst=3))) as strict:
        headers = {"Authorization": "Bearer a-guessed-secret-" + "x" * 30}
        codes = [
            httpx.get(f"{strict.url}/api/{what}", headers=headers).status_code
            for what in ["table", "record"] * 2
        ]
        assert codes == [404, 404, 404, 429]
        assert httpx.get(f"{strict.url}/api/record", headers=headers).json()["code"] == "rate-limited"


def test_connections_per_table_are_bounded(tmp_path: Path) -> None:
    with ThreadServer(
        deterministic_hub(tmp_path / "db", AGURK, limits=Limits(connections_per_table=5))
    ) as small:
        answer = small.create("agurk", ["person"] * 3)  # 3 places kept for the seats, 2 for spectators
        secret = answer["spectators"]["secret"]
        joined(small, secret)
        joined(small, secret)
        third = Player(small.url, secret)
        assert third.error()["code"] == "server-full"


# --------------------------------------------------------------------------- the database


def test_links_are_stored_hashed(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with ThreadServer(Hub(Store(database))) as plain:
        answer = plain.create("agurk", ["person", "heuristic", "person"])
        secrets_ = [s["secret"] for s in answer["seats"] if s["secret"]] + [answer["spectators"]["secret"]]
        wait_for_at(plain.url, secrets_[0], 1)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("db.sqlite3"))
    for secret in secrets_:
        assert secret.encode() not in stored
    with sqlite3.connect(database) as db:
        digests = {bytes(row[0]) for row in db.execute("SELECT digest FROM links")}
    assert digests == {digest(s) for s in secrets_}


def test_connections_are_rate_limited_per_address(tmp_path: Path) -> None:
    """Guessing links costs a connection a guess, and connections are limited per address."""
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=Limits(joins_per_minute=1, join_burst=3))) as strict:
        codes = []
        for _ in range(5):
            player = Player(strict.url, "", join=False)
            with contextlib.suppress(ConnectionClosed):  # (a refused connection is closed at once)
                player.send({"type": "join", "link": "a-guessed-secret-" + "x" * 30})
            codes.append(player.error()["code"])
            player.close()
        assert codes == ["unknown-link"] * 3 + ["rate-limited"] * 2


# --------------------------------------------------------------------------- slow and idle clients


class _Silent:
    """An ASGI WebSocket peer that joins with a link, then never sends or reads again: every
    message the server sends it waits forever (as a full socket makes uvicorn's send wait)."""

    def __init__(self, link: str) -> None:
        self.incoming: list[dict[str, Any]] = [
            {"type": "websocket.connect"},
            {"type": "websocket.receive", "text": json.dumps({"type": "join", "link": link})},
        ]
        self.accepted = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        if self.incoming:
            return self.incoming.pop(0)
        await asyncio.Event().wait()  # a peer that never sends again
        raise AssertionError

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] == "websocket.accept":
            self.accepted.set()
            return
        await asyncio.Event().wait()  # a peer that never reads


async def _started(app: Any) -> tuple[asyncio.Task[None], asyncio.Queue[Any], asyncio.Queue[Any]]:
    """Run an ASGI app's lifespan (its hub starts); send `lifespan.shutdown` to the queue to stop it."""
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    outbox: asyncio.Queue[Any] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put))
    assert (await outbox.get())["type"] == "lifespan.startup.complete"
    return task, inbox, outbox


def _socket_scope() -> dict[str, Any]:
    return {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "path": "/api/play",
        "raw_path": b"/api/play",
        "root_path": "",
        "scheme": "ws",
        "query_string": b"",
        "headers": [],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "subprotocols": [],
    }


async def _a_reader_that_never_reads(limits: Limits, flood: int) -> None:
    hub = Hub(Store(":memory:"), limits=limits)
    app = create_app(hub=hub)
    lifespan, inbox, _outbox = await _started(app)
    answer = await hub.create({"preset": "agurk", "seats": ["person", "person", "person"]})
    room = hub.rooms[answer["table"]]
    peer = _Silent(answer["spectators"])
    handler = asyncio.create_task(app(_socket_scope(), peer.receive, peer.send))
    await asyncio.wait_for(peer.accepted.wait(), 5)
    for _ in range(100):
        if room.clients:
            break
        await asyncio.sleep(0.01)
    assert len(room.clients) == 1
    for _ in range(flood):  # views sent on: the reader's queue fills up
        room.broadcast()
    # The peer sends nothing and reads nothing: its handler must let go of it all the same.
    done, _ = await asyncio.wait({handler}, timeout=5)
    assert done, "the connection's handler still waits for a peer that sends and reads nothing"
    assert room.clients == []
    await inbox.put({"type": "lifespan.shutdown"})
    await asyncio.wait_for(lifespan, 5)


def _run_apart(test: Any, seconds: float = 30) -> None:
    """Run a coroutine in an event loop of a thread of its own: a handler that never ends fails the
    test instead of holding it up for good."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(test)
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the event loop could not stop: a connection's handler never ended"
    if failed:
        raise failed[0]


def test_a_reader_whose_queue_fills_up_lets_go_of_its_place_at_once() -> None:
    # (Before: the handler waited for the silent peer's next message, the dropped connection kept its
    # place at the table and `server-full` locked others out.)
    _run_apart(_a_reader_that_never_reads(Limits(queue=3, send_timeout=600), flood=5))


def test_a_reader_whose_socket_takes_nothing_in_is_dropped_after_the_send_timeout() -> None:
    _run_apart(_a_reader_that_never_reads(Limits(send_timeout=0.3), flood=0))


def test_a_table_request_whose_body_never_comes_gets_408(tmp_path: Path) -> None:
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=Limits(join_timeout=0.5))) as strict:
        with socket.create_connection(("127.0.0.1", strict.port), timeout=10) as raw:
            raw.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
            start = time.monotonic()
            answer = _http_answer(raw)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert time.monotonic() - start < 5
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["code"] == "invalid-document"


def _http_answer(raw: socket.socket) -> bytes:
    """One whole HTTP answer from a socket: its head, then as many bytes as its Content-Length says
    (they may come in more than one piece on a busy machine)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        piece = raw.recv(4096)
        if not piece:
            return answer
        answer += piece
    head, body = answer.split(b"\r\n\r\n", 1)
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        None,
    )
    while length is not None and len(body) < length:
        piece = raw.recv(4096)
        if not piece:
            break
        body += piece
    return head + b"\r\n\r\n" + body


def _wait(test: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_idle_tables_are_put_away_and_come_back_where_they_were(tmp_path: Path) -> None:
    limits = Limits(max_tables=1, idle_timeout=0.5)
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK, limits=limits)) as small:
        body = {"preset": "agurk", "seats": ["person", "heuristic", "heuristic"]}
        first = httpx.post(f"{small.url}/api/tables", json=body).json()
        table = first["table"]
        seat0 = Player(small.url, first["seats"][0]["secret"])
        seat0.until_turn()
        seat0.act(seat0.legal()[0])
        at = seat0.until_turn()["at"]
        assert httpx.post(f"{small.url}/api/tables", json=body).status_code == 503  # one in play
        time.sleep(1.0)  # twice the idle timeout, with someone there: the table stays
        assert table in small.hub.rooms
        seat0.close()
        _wait(lambda: table not in small.hub.rooms)  # nobody there and no action: put away
        second = httpx.post(f"{small.url}/api/tables", json=body)
        assert second.status_code == 201  # the abandoned table no longer holds the server
        # While the server is full, the first table's links are told so (its table is kept) ...
        link = first["seats"][0]["secret"]
        assert Player(small.url, link).error()["code"] == "server-full"
        looked = httpx.get(f"{small.url}/api/table", headers={"Authorization": f"Bearer {link}"})
        assert looked.status_code == 503
        # ... and once the second is put away in its turn, the first comes back where it was.
        _wait(lambda: second.json()["table"] not in small.hub.rooms)
        back = Player(small.url, link)
        view = back.until_turn()
        assert view["at"] == at
        back.act(back.legal()[0])
        assert back.until_turn()["at"] > at


def test_tables_idle_for_longer_than_the_timeout_stay_put_away_at_start(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with ThreadServer(deterministic_hub(database, AGURK)) as first:
        fresh = first.create("agurk", ["person", "person", "person"])
        old = first.create("agurk", ["person", "person", "person"])
        wait_for_at(first.url, old["spectators"]["secret"], 1)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables SET updated = updated - 7200 WHERE id = ?", (old["table"],))
    with ThreadServer(deterministic_hub(database, AGURK)) as again:
        assert set(again.hub.rooms) == {fresh["table"]}
        assert wait_for_at(again.url, old["spectators"]["secret"], 1)["at"] == 1  # its links bring it back
        assert old["table"] in again.hub.rooms


def test_a_database_without_the_updated_column_is_brought_up_to_date(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    store = Store(database)
    store.create(StoredTable("t1", "{}", ("Ann", "Bo"), 0, (None, None), 0, False), [])
    store.close()
    with sqlite3.connect(database) as db:
        db.execute("ALTER TABLE tables DROP COLUMN updated")
    store = Store(database)
    assert [t.id for t in store.unfinished(since=time.time() - 60)] == ["t1"]  # counted from its making
    assert store.unfinished(since=time.time() + 60) == []
    store.close()


@pytest.mark.parametrize("field", [f.name for f in attrs.fields(Limits)])
@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), True, "10"])
def test_limits_are_positive_numbers(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=f"Limits.{field} must be a positive number"):
        Limits(**{field: value})


def test_a_table_brought_back_on_a_deal_or_a_bots_turn_plays_on(tmp_path: Path) -> None:
    # A table put away where the server is to act (its last deal could not be stored, say): when a
    # link brings it back, its deals and bots go on, as they do for the tables loaded at start.
    database = tmp_path / "db.sqlite3"
    rules = cr.ruleset("agurk")
    store = Store(database)
    stored = StoredTable(
        "old", cr.dumps(rules), ("Ann", "Bo", "Cy"), 0, (None, "heuristic", "heuristic"), 0, False
    )
    store.create(stored, [(digest("a-seat-link-" + "x" * 30), 0)])
    store.close()
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables SET updated = updated - 7200")
    with ThreadServer(deterministic_hub(database, AGURK, limits=Limits(join_burst=1000))) as again:
        assert again.hub.rooms == {}
        assert wait_for_at(again.url, "a-seat-link-" + "x" * 30, 1)["at"] >= 1  # dealt, once back
