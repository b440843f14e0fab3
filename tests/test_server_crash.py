"""Durability (SPEC 5, "Durable service"): the server is killed with SIGKILL in the middle of matches and
started again on the same database. Every table comes back at its last accepted action, every client
reconnects with its link, no accepted action is lost and none is applied twice; finished matches are
kept and download as records that `replay` reads (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import cucumber_rules as cr
from cucumber_rules.server import Store
from server_harness import Player, ProcessServer, action_of, create_table

pytestmark = pytest.mark.server

TABLES = [  # (preset, options, seats)
    ("agurk", {"threshold": 10, "hand_size": 3}, ["person", "heuristic", "person"]),
    ("gurka", {"threshold": 8, "hand_size": 3}, ["person", "person"]),
    ("catastrophe", {"hand_count": 2, "hand_size": 4}, ["person", "heuristic", "random"]),
]


def stored_actions(database: Path, table: str) -> list[cr.Action]:
    store = Store(database)
    try:
        return [action_of(json.loads(t)) for t in store.actions(table)]
    finally:
        store.close()


def connect_all(url: str, table: dict[str, Any]) -> dict[int | None, Player]:
    players: dict[int | None, Player] = {
        s["seat"]: Player(url, s["secret"]) for s in table["seats"] if s["secret"] is not None
    }
    players[None] = Player(url, table["spectators"]["secret"])
    for player in players.values():
        player.until(lambda m: m["type"] == "view")
    return players


def move(players: dict[int | None, Player], wait: bool = True) -> bool:
    """The person whose turn it is plays their last legal move; False when the match is over."""
    for attempt in range(300):
        for player in players.values():
            player.drain(0.01 if attempt < 5 else 0.05)
        views = {seat: p.view for seat, p in players.items() if p.view is not None}
        if any(v["to_act"] is None for v in views.values()):
            return False
        for seat, view in views.items():
            if seat is not None and view["to_act"] == seat and view["legal"]:
                target = players[seat].at + 1
                players[seat].act(view["legal"][-1])
                if wait:
                    players[seat].until_at(target)
                return True
    raise AssertionError("no person's turn came")


def test_sigkill_mid_match_loses_nothing_and_applies_nothing_twice(tmp_path: Path) -> None:
    database = tmp_path / "tables.sqlite3"
    server = ProcessServer(database).start()
    try:
        tables = [
            create_table(server.url, preset, seats, options=options) for preset, options, seats in TABLES
        ]
        before: list[dict[int | None, Player]] = []
        for i, table in enumerate(tables):
            players = connect_all(server.url, table)
            for _ in range(3 + 2 * i):
                assert move(players)
            before.append(players)
        finished = create_table(
            server.url, "gurka", ["person", "person"], options={"threshold": 1, "hand_size": 1}
        )
        finishers = connect_all(server.url, finished)
        while move(finishers):
            pass
        # In flight when the server dies: an action sent, its answer never awaited.
        in_flight = before[0]
        assert move(in_flight, wait=False)
        server.kill()
    finally:
        server.stop()

    # Nothing was lost: every view a client saw is the view of the stored match at that point.
    lengths = {}
    for table, players in zip(tables, before, strict=True):
        actions = stored_actions(database, table["table"])
        lengths[table["table"]] = len(actions)
        view = players[None].view
        assert view is not None
        document = {"format": view["format"], "kind": "rules", **view["rules"]}  # (the view's own rules)
        rules = cr.loads(json.dumps(document), cr.Rules)
        names = view["players"]
        seen = 0
        for seat, player in players.items():
            for text in player.texts:
                message = json.loads(text)
                if message["type"] != "view":
                    continue
                seen = max(seen, message["at"])
                state = cr.replay(cr.Record(rules, names, 0, actions[: message["at"]]))
                assert message["view"] == json.loads(cr.dumps(cr.view(state, seat)))
        assert len(actions) >= seen  # (one more if the action in flight was committed before the kill)

    server = ProcessServer(database, port=server.port).start()
    try:
        # Every client reconnects with its link and finds its table at the last stored action.
        for table, old in zip(tables, before, strict=True):
            players = connect_all(server.url, table)
            at = lengths[table["table"]]
            for player in players.values():
                assert player.at >= at
            if table is tables[0]:
                # The action in flight: sent again as it was (a client retrying). It is applied once:
                # refused as stale if it was stored before the kill, applied now if it was not.
                seat, text = next(
                    (s, t) for s, p in old.items() for t in reversed(p.sent) if '"type": "act"' in t
                )
                players[seat].send(text)
                players[seat].drain(0.3)
                sent = json.loads(text)
                retried = (sent["at"], action_of(sent["action"]))
            while move(players):
                pass
            secret = table["spectators"]["secret"]
            record = httpx.get(f"{server.url}/api/record", headers={"Authorization": f"Bearer {secret}"})
            assert record.status_code == 200, record.text
            final = cr.replay(cr.loads(record.text, cr.Record))
            assert final.is_over
            kept = stored_actions(database, table["table"])
            assert list(cr.record(final).actions) == kept
            if table is tables[0]:
                assert kept[retried[0]] == retried[1]  # stored once, where it was chosen
            for player in players.values():
                player.close()
        # The match finished before the kill is kept, and downloads as a record.
        record = httpx.get(
            f"{server.url}/api/record", headers={"Authorization": f"Bearer {finished['seats'][0]['secret']}"}
        )
        assert record.status_code == 200
        assert cr.replay(cr.loads(record.text, cr.Record)).is_over
    finally:
        server.stop()
