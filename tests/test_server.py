"""The reference table server: tables, links, views after every action, errors, bots, records and
secrecy (issue 37). A real uvicorn server on a free port; players connect over real WebSockets."""

from __future__ import annotations

import functools
import itertools
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

import cucumber_rules as cr
from cucumber_rules import schema
from cucumber_rules.server import Client, Hub, Store, digest
from server_harness import Player, ThreadServer, action_of

pytestmark = pytest.mark.server

AGURK = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "KC"],
    ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
    ["2H", "3H", "4H", "5H", "6H", "7H", "8H"],
]


@functools.cache
def validator(kind: str) -> Any:
    return jsonschema.Draft202012Validator(schema.json_schema(kind))


def assert_valid_messages(texts: list[str]) -> None:
    """Every view and error a client received is valid against the published schemas."""
    for text in texts:
        message = json.loads(text)
        if message["type"] == "view":
            assert list(validator("view").iter_errors(message["view"])) == []
        elif message["type"] == "error":
            assert list(validator("error").iter_errors(message["error"])) == []


def rigged(first_deal: list[list[str]]) -> Any:
    """A dealer: the given first deal, then deals drawn from a fixed seed."""
    rng = random.Random(5)

    def deal(state: cr.State) -> cr.Action:
        return cr.Deal(hands=first_deal) if state.match.rounds == 0 else cr.sample_chance(state, rng)

    return deal


def counting(prefix: str) -> Any:
    """Names made in order (`prefix` and a number, as long as a real secret), the same at twin tables."""
    numbers = itertools.count()
    return lambda: f"{prefix}{next(numbers):036d}"


def deterministic_hub(database: Path | str, first_deal: list[list[str]] | None = None, **options: Any) -> Hub:
    return Hub(
        Store(database),
        dealer=rigged(first_deal) if first_deal else None,
        bot_rng=lambda: random.Random(1),
        secret=counting("secret-"),
        table_id=counting("table-"),
        **options,
    )


def wait_for_at(url: str, secret: str, at: int) -> dict[str, Any]:
    for _ in range(500):
        answer: dict[str, Any] = httpx.get(
            f"{url}/api/table", headers={"Authorization": f"Bearer {secret}"}, timeout=5
        ).json()
        if answer["at"] >= at:
            return answer
        import time

        time.sleep(0.01)
    raise AssertionError(f"the table did not reach action {at}")


# --------------------------------------------------------------------------- a whole match


def play_out(players: dict[int, Player], final: int | None = None) -> None:
    """The people play their first legal move whenever it is their turn, until the match ends."""
    quiet = 0.02
    while True:
        for player in players.values():
            player.drain(quiet)
        views = [p.view for p in players.values() if p.view is not None]
        if any(v["to_act"] is None for v in views):
            return
        acted = False
        for seat, player in players.items():
            view = player.view
            if view is not None and view["to_act"] == seat and view["legal"]:
                player.act(view["legal"][0])
                player.until_at(player.at + 1)
                acted = True
        quiet = 0.02 if acted else min(1.0, quiet * 2)  # (a view may still be on its way)


def test_a_whole_match_with_people_and_a_bot(tmp_path: Path) -> None:
    with ThreadServer(database=tmp_path / "db.sqlite3") as server:
        answer = server.create(
            "agurk", ["person", "heuristic", "person"], options={"threshold": 12, "hand_size": 3}
        )
        assert [s["bot"] for s in answer["seats"]] == [None, "heuristic", None]
        assert answer["seats"][1]["secret"] is None
        secrets_ = [
            answer["seats"][0]["secret"],
            answer["seats"][2]["secret"],
            answer["spectators"]["secret"],
        ]
        assert len(set(secrets_)) == 3
        assert all(len(s) >= 40 for s in secrets_)  # 256 random bits
        assert answer["seats"][0]["url"].endswith("/play/#join=" + secrets_[0])
        people = {0: Player(server.url, secrets_[0]), 2: Player(server.url, secrets_[1])}
        watcher = Player(server.url, secrets_[2])
        first = people[0].until(lambda m: m["type"] == "table")
        assert first["seat"] == 0
        assert [s["name"] for s in first["seats"]] == ["Player 1", "Heuristic bot 1", "Player 2"]
        play_out(people)
        for player in (*people.values(), watcher):
            player.drain(0.3)
        final_at = people[0].at
        assert all(p.at == final_at for p in (*people.values(), watcher))
        record = httpx.get(f"{server.url}/api/record", headers={"Authorization": f"Bearer {secrets_[2]}"})
        assert record.status_code == 200
        assert record.headers["content-type"].startswith("application/json")
        state = cr.replay(cr.loads(record.text, cr.Record))
        assert state.is_over
        assert len(cr.record(state).actions) == final_at
        for seat, player in ((0, people[0]), (2, people[2]), (None, watcher)):
            assert player.view == json.loads(cr.dumps(cr.view(state, seat)))
            assert_valid_messages(player.texts)
            # every action reached every connection: one view per action since it joined, in order
            ats = [json.loads(t)["at"] for t in player.texts if json.loads(t)["type"] == "view"]
            assert ats == list(range(ats[0], final_at + 1))
        for player in (*people.values(), watcher):
            player.close()


def test_views_after_every_action_are_the_librarys_views(tmp_path: Path) -> None:
    """Each view message is exactly `cr.view` of the match after `at` actions (checked against the record)."""
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"], options={"threshold": 5})
        secrets_ = [s["secret"] for s in answer["seats"]]
        players = {seat: Player(server.url, secret) for seat, secret in enumerate(secrets_)}
        watcher = Player(server.url, answer["spectators"]["secret"])
        for _ in range(12):
            for player in players.values():
                player.drain(0.02)
            seat = next(s for s, p in players.items() if p.view and p.view["to_act"] == s)
            target = players[seat].at + 1
            players[seat].act(players[seat].legal()[-1])
            for player in (*players.values(), watcher):
                player.until_at(target)
        actions = [action_of(json.loads(t)) for t in server.hub.store.actions(answer["table"])]
        rules, names = cr.ruleset("agurk", threshold=5), ["Player 1", "Player 2", "Player 3"]
        everyone: list[tuple[int | None, Player]] = [*players.items(), (None, watcher)]
        for who, player in everyone:
            for text in player.texts:
                message = json.loads(text)
                if message["type"] == "view":
                    state = cr.replay(cr.Record(rules, names, 0, actions[: message["at"]]))
                    assert message["view"] == json.loads(cr.dumps(cr.view(state, who)))


def test_illegal_moves_get_the_librarys_error_document_and_change_nothing(tmp_path: Path) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        p0 = Player(server.url, answer["seats"][0]["secret"])
        p1 = Player(server.url, answer["seats"][1]["secret"])
        p0.until_at(1)
        p1.until_at(1)
        p0.act(cr.Play(0, "AS"))  # not in hand
        error = p0.error()
        assert error["code"] == "not-in-hand"
        assert error["seat"] == 0
        assert error["action"] == {"type": "play", "seat": 0, "card": "AS"}
        assert "AS" in error["message"]
        p1.act(cr.Play(1, "2D"))  # not seat 1's turn
        assert p1.error()["code"] == "not-your-turn"
        p0.act(cr.Play(0, "KC"))
        p0.until_at(2)
        p1.until_at(2)
        p1.act(cr.Play(1, "3D"))  # must follow: play the lowest (2D) or K or higher
        error = p1.error()
        assert error["code"] == "must-follow"
        assert error == schema.error_document(cr.check(_after(AGURK, "KC"), cr.Play(1, "3D")))  # type: ignore[arg-type]
        assert p1.at == 2  # nothing was applied
        assert_valid_messages(p0.texts + p1.texts)


def _after(deal: list[list[str]], *cards: str) -> cr.State:
    state = cr.apply(
        cr.new_game(cr.ruleset("agurk"), players=["Player 1", "Player 2", "Player 3"]), cr.Deal(hands=deal)
    )
    for card in cards:
        assert state.to_act is not None
        state = cr.apply(state, cr.Play(state.to_act, card))
    return state


def test_a_resent_action_is_stale_and_applied_once(tmp_path: Path) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        p0 = Player(server.url, answer["seats"][0]["secret"])
        p0.until_at(1)
        p0.act(cr.Play(0, "KC"), at=1)
        p0.until_at(2)
        p0.act(cr.Play(0, "KC"), at=1)  # the same message again (a retry after a lost answer)
        error = p0.error()
        assert error["code"] == "stale"
        assert len(server.hub.store.actions(answer["table"])) == 2


def test_a_seat_reconnects_with_its_link_and_two_tabs_both_follow(tmp_path: Path) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "heuristic", "heuristic"])
        secret = answer["seats"][0]["secret"]
        first = Player(server.url, secret)
        first.until_at(1)
        first.act(cr.Play(0, "KC"))
        first.until_at(4)  # the bots answered at once
        first.close()
        again, other_tab = Player(server.url, secret), Player(server.url, secret)
        again.until_at(4)
        other_tab.until_at(4)
        assert again.view == other_tab.view == first.view
        again.act(again.legal()[0])
        assert again.until_at(5)["at"] == 5
        assert other_tab.until_at(5)["view"] == again.view


def test_record_is_refused_until_the_match_is_over_and_table_reads_a_view(tmp_path: Path) -> None:
    with ThreadServer(deterministic_hub(tmp_path / "db", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        secret = answer["seats"][1]["secret"]
        view = wait_for_at(server.url, secret, 1)
        assert view["seat"] == 1
        assert view["view"] == json.loads(cr.dumps(cr.view(_after(AGURK), 1)))
        record = httpx.get(f"{server.url}/api/record", headers={"Authorization": f"Bearer {secret}"})
        assert record.status_code == 409
        assert record.json()["kind"] == "error"
        for header in ({}, {"Authorization": "Bearer nope"}, {"Authorization": f"Basic {secret}"}):
            assert httpx.get(f"{server.url}/api/table", headers=header).status_code == 404


def test_the_schema_files_and_presets_are_served(tmp_path: Path) -> None:
    with ThreadServer(database=tmp_path / "db") as server:
        response = httpx.get(f"{server.url}/schemas/view.json")
        assert response.status_code == 200
        assert response.json() == schema.json_schema("view")
        assert httpx.get(f"{server.url}/schemas/ladder/state.json").json()["$id"] == schema.schema_id(
            "state", "ladder"
        )
        assert httpx.get(f"{server.url}/schemas/../etc/passwd").status_code == 404
        presets = httpx.get(f"{server.url}/api/server.json").json()
        assert presets["server"] is True
        assert {p["name"] for p in presets["presets"]} == set(cr.RULESETS)
        assert presets["bots"] == ["heuristic", "random"]  # (a person is no bot)
        assert presets["damaged_tables"] == 0
        assert "Play page" in httpx.get(f"{server.url}/").text


class FailingStore(Store):
    """A database that can be made to fail (a full disk)."""

    failing = False

    def append(self, table_id: str, n: int, action: str, *, finished: bool) -> None:
        if self.failing:
            raise OSError("the disk is full")
        super().append(table_id, n, action, finished=finished)


def test_an_action_is_stored_before_anyone_is_told(tmp_path: Path) -> None:
    """When the database cannot store an action, nobody hears of it and the table stays where it was.
    The sender gets an error document (not a closed connection), and the same connection sends the
    action again once the database is back."""
    store = FailingStore(tmp_path / "db")
    hub = Hub(store, dealer=rigged(AGURK), secret=counting("s"), table_id=counting("t"))
    with ThreadServer(hub) as server:
        answer = server.create("agurk", ["person", "person", "heuristic"])
        secrets_ = [s["secret"] for s in answer["seats"][:2]]
        seat0, seat1 = Player(server.url, secrets_[0]), Player(server.url, secrets_[1])
        seat0.until_at(1)
        seat1.until_at(1)
        store.failing = True
        seat0.act(cr.Play(0, "KC"))
        error = seat0.error()
        assert error["code"] == "database-error"
        assert error["seat"] == 0
        seat0.drain(0.3)
        seat1.drain(0.3)
        assert seat0.at == seat1.at == 1  # nobody was told, the sender neither
        assert server.hub.rooms[answer["table"]].length == 1
        assert len(store.actions(answer["table"])) == 1
        store.failing = False
        seat0.act(cr.Play(0, "KC"))  # the same connection: it was never closed
        assert seat0.until_at(2)["at"] == 2
        assert seat1.until_at(2)["at"] == 2
        assert len(store.actions(answer["table"])) == 2
        assert_valid_messages(seat0.texts)


# --------------------------------------------------------------------------- secrecy


def twin_messages(tmp_path: Path, name: str, deal: list[list[str]]) -> dict[Any, list[str]]:
    """Every message each seat and a spectator receive while the same moves are made at a table dealt
    `deal`."""
    hub = deterministic_hub(tmp_path / f"{name}.sqlite3", deal)
    with ThreadServer(hub) as server:
        answer = server.create("agurk", ["person", "person", "person"])
        secrets_ = [s["secret"] for s in answer["seats"]]
        wait_for_at(server.url, secrets_[0], 1)
        connections: dict[Any, Player] = {}
        for who, secret, pictures in (
            (0, secrets_[0], True),
            (1, secrets_[1], False),
            (2, secrets_[2], False),
            ("spectator", answer["spectators"]["secret"], True),
        ):
            connections[who] = Player(server.url, secret, pictures=pictures)
            for player in connections.values():
                player.drain(0.1)
        moves = [(0, "KC"), (1, "2D"), (2, "2H"), (0, "7C"), (1, "3D"), (2, "3H"), (0, "2C"), (1, "4D")]
        for seat, card in moves:
            target = connections[seat].at + 1
            connections[seat].act(cr.Play(seat, card))
            for player in connections.values():
                player.until_at(target)
        # errors too: illegal moves, another seat's move, a spectator's move
        connections[0].act(cr.Play(0, "AS"))
        connections[0].error()
        connections[0].act(cr.Play(2, "4H"))
        connections[0].error()
        connections["spectator"].act(cr.Play(2, "4H"))
        connections["spectator"].error()
        for player in connections.values():
            player.drain(0.2)
            player.close()
        return {who: player.texts for who, player in connections.items()}


def test_twins_that_differ_only_in_hidden_cards_send_identical_messages(tmp_path: Path) -> None:
    """SPEC 5, Secret: seats 1 and 2 swap 8D and 8H, cards neither plays. Every message seat 0 and the
    spectator receive (views, pictures, seats, errors) is the same text at both tables."""
    twin = [AGURK[0], [*AGURK[1][:-1], "8H"], [*AGURK[2][:-1], "8D"]]
    a = twin_messages(tmp_path, "a", AGURK)
    b = twin_messages(tmp_path, "b", twin)
    assert len(a[0]) > 10
    assert any('"picture":"<svg' in text for text in a[0])
    assert a[0] == b[0]
    assert a["spectator"] == b["spectator"]
    assert a[1] != b[1]  # the twins really differ: seat 1 sees its own 8D or 8H
    assert a[2] != b[2]


# --------------------------------------------------------------------------- pieces


def test_a_slow_connection_is_dropped_not_waited_for() -> None:
    client = Client(0, queue=3)
    for i in range(3):
        client.send(f"m{i}")
    assert not client.dropped
    client.send("m3")
    assert client.dropped
    assert client.queue.qsize() == 1
    assert client.queue.get_nowait() is None  # the connection's task closes it


def test_the_store_never_stores_an_action_twice(tmp_path: Path) -> None:
    from cucumber_rules.server import StoredTable

    store = Store(tmp_path / "db")
    store.create(StoredTable("t", "{}", ("a", "b"), 0, (None, None), 0, False), [(digest("s"), 0)])
    store.append("t", 0, "a0", finished=False)
    with pytest.raises(RuntimeError, match="not the next one"):
        store.append("t", 0, "again", finished=False)
    with pytest.raises(RuntimeError, match="not the next one"):
        store.append("t", 2, "a gap", finished=False)
    store.append("t", 1, "a1", finished=True)
    with pytest.raises(RuntimeError):
        store.append("t", 2, "after the end", finished=False)
    assert store.actions("t") == ["a0", "a1"]
    assert store.table("t") is not None
    assert store.unfinished() == []
    store.close()
    with sqlite3.connect(tmp_path / "db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="synchronous"):
        Store(":memory:", synchronous="OFF")
    with pytest.raises(ValueError, match="unknown bot"):
        Hub(Store(":memory:"), bots=["nope"])


@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("agurk", {}, 4),
        ("gurka", {"revival": True, "threshold": 8, "hand_size": 3}, 3),
        ("five-cucumbers", {}, 3),
        ("catastrophe", {"surprise": True, "cant_beat_em": True, "hand_count": 2}, 4),
    ],
)
def test_the_view_writer_writes_what_dumps_writes(preset: str, options: dict[str, Any], players: int) -> None:
    """The server's speed trick (`ViewWriter`) writes every view of whole matches exactly as cr.dumps."""
    from cucumber_rules.server.documents import ViewWriter

    writer = ViewWriter()
    rng = random.Random(3)
    state = cr.new_game(cr.ruleset(preset, **options), players=players)
    while not state.is_over:
        action = (
            cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(cr.legal_moves(state))
        )
        state = cr.apply(state, action)
        for seat in (*range(players), None):
            view = cr.view(state, seat)
            assert writer.dumps(view) == cr.dumps(view)
    assert writer.exact


def test_a_view_writer_that_meets_a_layout_it_cannot_follow_uses_dumps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cucumber_rules.server import documents

    writer = documents.ViewWriter()
    monkeypatch.setattr(writer, "_write", lambda view: "{}")
    view = cr.view(cr.new_game(cr.ruleset("gurka"), players=2), 0)
    assert writer.dumps(view) == cr.dumps(view)
    assert not writer.exact
    assert writer.dumps(view) == cr.dumps(view)


def test_the_log_is_checkpointed_by_the_server_not_inside_commits(tmp_path: Path) -> None:
    store = Store(tmp_path / "db")
    store.checkpoint_elsewhere()
    with sqlite3.connect(tmp_path / "db") as db:
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000  # (per connection)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    from cucumber_rules.server import StoredTable

    store.create(StoredTable("t", "{}", ("a", "b"), 0, (None, None), 0, False), [])
    for n in range(50):
        store.append("t", n, "x" * 1000, finished=False)
    wal = tmp_path / "db-wal"
    assert wal.stat().st_size > 50_000
    store.checkpoint()
    store.close()
    assert not wal.exists() or wal.stat().st_size == 0
