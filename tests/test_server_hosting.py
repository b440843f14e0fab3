"""The table server as a host runs it (issue 45): a damaged table cannot stop the server, one server per
database file, connections capped per address (behind a proxy too) and silent sockets closed, a store
error is an error document, lone surrogates and control characters get clean errors, CORS for the
origins allowed, and a play page of the server's own when no docs site is served (issue 48)."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import cucumber_rules as cr
from cucumber_rules.server import DatabaseInUse, Hub, Limits, Store
from server_harness import Player, ProcessServer, ThreadServer, create_table
from test_server import AGURK, FailingStore, assert_valid_messages, deterministic_hub, wait_for_at

pytestmark = pytest.mark.server


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


# --------------------------------------------------------------------------- damaged tables


def damage(database: Path, table: str, how: str) -> None:
    """Damage one table's rows as a bad disk, a bad copy or a hand edit might."""
    with sqlite3.connect(database) as db:
        if how == "length":
            db.execute("UPDATE tables SET length = length + 3 WHERE id = ?", (table,))
        elif how == "rules":
            db.execute('UPDATE tables SET rules = \'{"format": 3, "kind": "rul\' WHERE id = ?', (table,))
        elif how == "action":
            broken = '{"type": "play"}'
            db.execute("UPDATE actions SET action = ? WHERE table_id = ? AND n = 0", (broken, table))
        elif how == "players":
            db.execute("UPDATE tables SET players = 'not json' WHERE id = ?", (table,))
        elif how == "bot":
            db.execute("UPDATE tables SET seats = '[null, \"genius\", null]' WHERE id = ?", (table,))


DAMAGES = ["length", "rules", "action", "players", "bot"]


def test_damaged_tables_are_set_aside_and_the_others_served(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with ThreadServer(deterministic_hub(database, AGURK)) as first:
        good = first.create("agurk", ["person", "person", "person"])
        bad = {how: first.create("agurk", ["person", "person", "person"]) for how in DAMAGES}
        for answer in (good, *bad.values()):
            wait_for_at(first.url, answer["spectators"]["secret"], 1)
    for how, answer in bad.items():
        damage(database, answer["table"], how)
    with ThreadServer(deterministic_hub(database, AGURK)) as again:
        assert set(again.hub.rooms) == {good["table"]}
        assert set(again.hub.damaged) == {a["table"] for a in bad.values()}
        assert httpx.get(f"{again.url}/api/server.json").json()["damaged_tables"] == len(DAMAGES)
        # the good table plays on
        seat0 = Player(again.url, good["seats"][0]["secret"])
        seat0.until_at(1)
        seat0.act(cr.Play(0, "KC"))
        assert seat0.until_at(2)["at"] == 2
        for answer in bad.values():
            player = Player(again.url, answer["seats"][0]["secret"])
            error = player.error()
            assert error["code"] == "damaged-table"
            with pytest.raises(ConnectionClosed):
                player.receive(5)
            assert_valid_messages(player.texts)
            looked = httpx.get(f"{again.url}/api/table", headers=bearer(answer["spectators"]["secret"]))
            assert looked.status_code == 503
            assert looked.json()["code"] == "damaged-table"
            record = httpx.get(f"{again.url}/api/record", headers=bearer(answer["spectators"]["secret"]))
            assert record.status_code == 503


def test_a_table_damaged_while_put_away_is_set_aside_when_its_link_comes(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with ThreadServer(deterministic_hub(database, AGURK)) as first:
        answer = first.create("agurk", ["person", "person", "person"])
        wait_for_at(first.url, answer["spectators"]["secret"], 1)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables SET updated = updated - 7200")  # idle for two hours: put away at start
    damage(database, answer["table"], "action")
    with ThreadServer(deterministic_hub(database, AGURK)) as again:
        assert again.hub.rooms == {}
        assert again.hub.damaged == {}
        player = Player(again.url, answer["seats"][1]["secret"])
        assert player.error()["code"] == "damaged-table"
        assert answer["table"] in again.hub.damaged
        assert httpx.get(f"{again.url}/api/server.json").json()["damaged_tables"] == 1


# --------------------------------------------------------------------------- one server per database


def test_a_store_claims_its_database_until_it_closes(tmp_path: Path) -> None:
    first = Store(tmp_path / "db.sqlite3")
    first.claim()
    first.claim()  # (again: harmless)
    with pytest.raises(DatabaseInUse, match="in use by another server"):
        Store(tmp_path / "db.sqlite3").claim()
    Store(tmp_path / "other.sqlite3").claim()
    first.close()
    second = Store(tmp_path / "db.sqlite3")
    second.claim()
    second.close()


def test_a_second_server_on_one_database_refuses_to_start_and_a_killed_one_lets_go(tmp_path: Path) -> None:
    database = tmp_path / "tables.sqlite3"
    first = ProcessServer(database).start()
    second = ProcessServer(database)
    try:
        answer = create_table(first.url, "gurka", ["person", "person"])
        with pytest.raises(RuntimeError, match="is in use by another server") as refused:
            second.start()
        assert f"process {first.process.pid}" in str(refused.value)  # type: ignore[union-attr]
        assert second.process is not None
        assert second.process.wait(10) == 1
        first.kill()  # kill -9: the lock goes with the process
        third = ProcessServer(database).start()
        try:
            assert wait_for_at(third.url, answer["spectators"]["secret"], 1)["at"] == 1
        finally:
            third.stop()
    finally:
        first.stop()
        second.stop()


# --------------------------------------------------------------------------- a store error is no disconnect


def test_a_table_that_cannot_be_stored_is_a_database_error(tmp_path: Path) -> None:
    class Full(FailingStore):
        def create(self, *args: Any) -> None:
            raise OSError("the disk is full")

    with ThreadServer(Hub(Full(tmp_path / "db"))) as server:
        response = httpx.post(f"{server.url}/api/tables", json={"preset": "gurka", "seats": ["person"] * 2})
        assert response.status_code == 503
        assert response.json()["code"] == "database-error"
        assert server.hub.rooms == {}


# --------------------------------------------------------------------------- connections per address


def test_connections_are_capped_per_address(tmp_path: Path) -> None:
    limits = Limits(connections_per_address=3, join_burst=100)
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK, limits=limits)) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        secrets_ = [s["secret"] for s in answer["seats"]]
        players = [Player(server.url, s) for s in secrets_]
        for player in players:
            player.until(lambda m: m["type"] == "view")
        extra = Player(server.url, "", join=False)  # (refused before it could send its join)
        error = extra.error()
        assert error["code"] == "server-full"
        assert "3" in error["message"]
        with pytest.raises(ConnectionClosed):
            extra.receive(5)
        refused = httpx.get(f"{server.url}/api/server.json")  # a request is a connection too
        assert refused.status_code == 429
        assert refused.json()["code"] == "server-full"
        players[0].close()
        deadline = time.monotonic() + 5
        while server.hub.addresses.count("127.0.0.1") > 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        again = Player(server.url, answer["spectators"]["secret"])
        assert again.until(lambda m: m["type"] == "view")["at"] >= 1
        for player in (*players[1:], again):
            player.close()


def test_behind_a_trusted_proxy_the_client_address_is_capped(tmp_path: Path) -> None:
    limits = Limits(connections_per_address=1, join_burst=100)
    hub = deterministic_hub(tmp_path / "db", AGURK, limits=limits)
    with ThreadServer(hub, guarded=True, forwarded_allow_ips="127.0.0.1") as server:
        answer = server.create("agurk", ["person", "person", "person"])
        secret = answer["spectators"]["secret"]
        ann = Player(server.url, secret, headers={"X-Forwarded-For": "198.51.100.1"})
        bo = Player(server.url, secret, headers={"X-Forwarded-For": "198.51.100.2"})
        for player in (ann, bo):  # two clients through one proxy: the proxy's own sockets are not capped
            assert player.until(lambda m: m["type"] == "view")["type"] == "view"
        again = Player(server.url, "", join=False, headers={"X-Forwarded-For": "198.51.100.1"})
        assert again.error()["code"] == "server-full"  # Ann's second connection
        assert server.hub.addresses.count("198.51.100.1") == 1
    limits = Limits(connections_per_address=1, join_burst=100)
    with ThreadServer(deterministic_hub(tmp_path / "db2", AGURK, limits=limits), guarded=True) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        secret = answer["spectators"]["secret"]
        first = Player(server.url, secret, headers={"X-Forwarded-For": "198.51.100.1"})
        first.until(lambda m: m["type"] == "view")
        with pytest.raises(Exception):  # noqa: B017, PT011 - no proxy believed: one address, one socket
            Player(server.url, secret, headers={"X-Forwarded-For": "198.51.100.2"}).receive(5)


def test_sockets_are_capped_per_peer_and_silent_ones_closed(tmp_path: Path) -> None:
    limits = Limits(connections_per_address=2, join_timeout=0.5)
    with ThreadServer(Hub(Store(tmp_path / "db"), limits=limits), guarded=True) as server:
        silent = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(2)]
        over = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        assert over.recv(100) == b""  # closed at once: the peer holds its two
        start = time.monotonic()
        for s in silent:  # closed once the time to send a request is up
            assert s.recv(100) == b""
        assert time.monotonic() - start < 5
        for s in (*silent, over):
            s.close()
        deadline = time.monotonic() + 5
        while True:  # the count follows them out: a request is welcome again
            try:
                if httpx.get(f"{server.url}/api/server.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.05)


# --------------------------------------------------------------------------- hostile text


@pytest.mark.parametrize(
    "first",
    [
        '{"type": "join", "link": "\\ud800"}',
        '{"type": "join", "link": "\\udfff\\ud800"}',
        '{"type": "join", "link": "ok", "\\ud800": 1}',
        '{"type": "join", "link": "x\\u0000\\u001b[2J"}',
    ],
)
def test_lone_surrogates_and_control_characters_in_a_join_get_clean_errors(
    tmp_path: Path, first: str
) -> None:
    with ThreadServer(Hub(Store(tmp_path / "db"))) as server:
        player = Player(server.url, "", join=False)
        player.send(first)
        error = player.error()
        assert error["code"] in ("invalid-document", "unknown-link")
        assert error["message"].isprintable()
        with pytest.raises(ConnectionClosed):
            player.receive(5)
        assert_valid_messages(player.texts)


HOSTILE_KEYS = [
    ('{"type": "act", "at": 1, "action": {"format": 3, "kind": "action", "\\ud800": 1}}', "$"),
    ('{"type": "act", "at": 1, "\\ud800": 1}', "$"),
    ('{"type": "act", "at": 1, "\\u001b[2J": 1}', "$"),
    ('{"type": "ping", "\\u202e": 1}', "$"),
    (
        '{"type": "act", "at": 1, "action": '
        '{"format": 3, "kind": "action", "type": "play", "seat": 0, "card": "KC", "\\u001b[31m": 1}}',
        '$.action["\\u001b[31m"]',
    ),
]


@pytest.mark.parametrize(("message", "path"), HOSTILE_KEYS)
def test_lone_surrogates_and_control_characters_in_keys_get_clean_errors(
    tmp_path: Path, message: str, path: str
) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        seat0 = Player(server.url, answer["seats"][0]["secret"])
        seat0.until_at(1)
        seat0.send(message)
        error = seat0.error()
        assert error["code"] == "invalid-document"
        assert error["path"] == path
        assert error["message"].isprintable(), error["message"]
        seat0.act(cr.Play(0, "KC"))  # the connection still works
        assert seat0.until_at(2)["at"] == 2
        assert_valid_messages(seat0.texts)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"preset": "agurk", "seats": SEATS, "options": {"\\ud800": 1}}', "invalid-document"),
        ('{"preset": "agurk", "seats": SEATS, "\\ud800": 1}', "invalid-document"),
        ('{"preset": "agurk", "seats": SEATS, "options": {"\\u001b[2J": 1}}', "invalid-rules"),
        ('{"preset": "\\u001b[2J", "seats": SEATS}', "invalid-rules"),
        ('{"preset": "agurk", "seats": SEATS, "\\u202e": 1}', "invalid-document"),
    ],
)
def test_lone_surrogates_and_control_characters_in_table_requests_get_clean_errors(
    tmp_path: Path, body: str, code: str
) -> None:
    with ThreadServer(Hub(Store(tmp_path / "db"))) as server:
        text = body.replace("SEATS", '["person", "person", "person"]')
        response = httpx.post(
            f"{server.url}/api/tables", content=text.encode(), headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 400, response.text
        error = response.json()
        assert error["code"] == code
        assert error["message"].isprintable(), error["message"]
        assert error["option"] is None or error["option"].encode("utf-8")


# --------------------------------------------------------------------------- CORS


def test_pages_of_an_allowed_origin_may_create_a_table(tmp_path: Path) -> None:
    docs = "https://docs.example.org"
    with ThreadServer(database=tmp_path / "db", origins=(docs,)) as server:
        preflight = httpx.options(
            f"{server.url}/api/tables",
            headers={
                "Origin": docs,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == docs
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert "content-type" in preflight.headers["access-control-allow-headers"].lower()
        body = {"preset": "gurka", "seats": ["person", "person"]}
        created = httpx.post(f"{server.url}/api/tables", json=body, headers={"Origin": docs})
        assert created.status_code == 201
        assert created.headers["access-control-allow-origin"] == docs
        secret = created.json()["spectators"]["secret"]
        looked = httpx.get(f"{server.url}/api/table", headers={"Origin": docs, **bearer(secret)})
        assert looked.headers["access-control-allow-origin"] == docs
        evil = httpx.options(
            f"{server.url}/api/tables",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert evil.status_code == 400
        assert "access-control-allow-origin" not in evil.headers
        refused = httpx.post(
            f"{server.url}/api/tables", json=body, headers={"Origin": "https://evil.example"}
        )
        assert refused.status_code == 403
        assert "access-control-allow-origin" not in refused.headers


# --------------------------------------------------------------------------- the play page without a site


def test_without_a_site_the_links_open_a_play_page_of_the_servers_own(tmp_path: Path) -> None:
    with ThreadServer(database=tmp_path / "db") as server:
        answer = server.create("gurka", ["person", "random"])
        url = answer["seats"][0]["url"]
        assert "/play/#join=" in url
        page = httpx.get(url.split("#")[0])
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "/api/play" in page.text
        assert "join" in page.text
        assert httpx.get(f"{server.url}/play").status_code in (200, 307)


def test_table_answers_are_written_by_the_serializer(tmp_path: Path) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        names = ["Zoë", "B\u00f6", "\U0001f952"]
        answer = server.create("agurk", ["person", "person", "person"], names=names)
        looked = wait_for_at(server.url, answer["seats"][0]["secret"], 1)
        assert looked["view"]["players"] == names
        text = httpx.get(f"{server.url}/api/table", headers=bearer(answer["seats"][0]["secret"])).text
        assert json.loads(text) == looked


# --------------------------------------------------------------------------- the load benchmark


@pytest.mark.skipif(sys.platform != "linux", reason="the four-person scenario binds 127.x.y.z (Linux)")
@pytest.mark.parametrize("scenario", ["light", "four"])
def test_the_load_benchmark_measures_both_scenarios(scenario: str) -> None:
    # (a process of its own, as it is run: its event loop is its own)
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "server_load.py"
    command = [sys.executable, str(script), "--scenario", scenario, "--tables", "3", "--seconds", "2"]
    command += ["--warmup", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["scenario"] == scenario
    assert report["errors"] == 0
    assert report["latency_ms"]["own"]["count"] > 0
    assert report["server_gc"]["pauses"].keys() == {"0", "1", "2"}
    assert report["addresses"] == ("one loopback address per table" if scenario == "four" else "127.0.0.1")
