"""A real table server for the tests: uvicorn on a free port (in a thread, or in a process of its own),
and players that talk to it as a front end would, over real WebSockets."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.sync.client import ClientConnection, connect

import cucumber_rules as cr
from cucumber_rules import schema
from cucumber_rules.server import WS_MAX_SIZE, Hub, Store, create_app
from cucumber_rules.server.connections import TrustedProxies, guarded_protocols

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """The server's app run by uvicorn in a thread of this process (a hub of the test's own)."""

    def __init__(
        self,
        hub: Hub | None = None,
        *,
        database: Path | str = ":memory:",
        origins: tuple[str, ...] = (),
        site: Path | None = None,
        guarded: bool = False,
        forwarded_allow_ips: str | None = None,
        **options: Any,
    ) -> None:
        """`guarded`: uvicorn's protocols as `run` has them (every socket counted and timed);
        `forwarded_allow_ips`: the proxies believed, as `run` takes them."""
        self.hub = hub or Hub(Store(database), **options)
        self.app = create_app(hub=self.hub, origins=origins, site=site)
        self.port = free_port()
        http: Any = "auto"
        ws: Any = "websockets-sansio"
        if guarded:
            trusted = TrustedProxies(forwarded_allow_ips or "")
            http, ws = guarded_protocols(AutoHTTPProtocol, WebSocketsSansIOProtocol, self.hub.limits, trusted)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            http=http,
            ws=ws,
            ws_max_size=WS_MAX_SIZE,
            log_level="warning",
            lifespan="on",
            proxy_headers=forwarded_allow_ips is not None,
            forwarded_allow_ips=forwarded_allow_ips or "",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create(self, preset: str, seats: list[str], **request: Any) -> dict[str, Any]:
        return create_table(self.url, preset, seats, **request)


class ProcessServer:
    """`python -m cucumber_rules.server` in a process of its own (to be killed with SIGKILL)."""

    def __init__(self, database: Path, port: int | None = None, *options: str) -> None:
        self.database = database
        self.port = port or free_port()
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ProcessServer:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        command = [sys.executable, "-m", "cucumber_rules.server", "--db", str(self.database)]
        command += ["--port", str(self.port), "--log-level", "warning", *self.options]
        log = self.database.with_suffix(".log")
        with log.open("ab") as output:  # (the child keeps its own copy of the file)
            self.process = subprocess.Popen(command, env=env, stderr=output)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.url}/api/server.json", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def create_table(url: str, preset: str, seats: list[str], **request: Any) -> dict[str, Any]:
    response = httpx.post(f"{url}/api/tables", json={"preset": preset, "seats": seats, **request}, timeout=10)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


class Player:
    """One connection to a table, as a front end holds it: it joins with a link's secret, keeps every
    message it receives (as text, in order), and acts from its latest view."""

    def __init__(
        self,
        url: str,
        secret: str,
        *,
        pictures: bool = False,
        origin: str | None = None,
        join: bool = True,
        headers: dict[str, str] | None = None,
    ) -> None:
        headers = {**({"Origin": origin} if origin else {}), **(headers or {})} or None
        self.ws: ClientConnection = connect(
            url.replace("http", "ws", 1) + "/api/play", additional_headers=headers, max_size=2**24
        ).__enter__()  # (closed by `close`)
        self.texts: list[str] = []
        self.sent: list[str] = []
        self.view: dict[str, Any] | None = None
        self.at = -1
        self.table: dict[str, Any] | None = None
        if join:
            self.send({"type": "join", "link": secret, "pictures": pictures})

    def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.sent.append(text)
        self.ws.send(text)

    def close(self) -> None:
        self.ws.close()

    def receive(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "view":
            self.view, self.at = message["view"], message["at"]
        elif message["type"] == "table":
            self.table = message
        return message

    def messages(self) -> Iterator[dict[str, Any]]:
        while True:
            yield self.receive()

    def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        """Read messages until one passes `test`; return it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if test(message):
                return message

    def until_at(self, at: int) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "view" and m["at"] >= at)

    def until_turn(self) -> dict[str, Any]:
        """Read until it is this seat's turn (or the match is over); return the view message."""

        def turn(m: dict[str, Any]) -> bool:
            if m["type"] != "view":
                return False
            view = m["view"]
            return view["to_act"] is None or (view["to_act"] == view["seat"] and bool(view["legal"]))

        return self.until(turn)

    def drain(self, quiet: float = 0.2) -> None:
        """Read every message that comes until none has come for `quiet` seconds."""
        while True:
            try:
                self.receive(quiet)
            except TimeoutError:
                return

    def act(self, action: cr.Action | dict[str, Any], at: int | None = None) -> None:
        if isinstance(action, dict):  # an action object from a view's `legal`, or a whole document
            document = (
                action if "format" in action else {"format": cr.FORMAT_VERSION, "kind": "action", **action}
            )
        else:
            document = schema.action_document(action)
        self.send({"type": "act", "at": self.at if at is None else at, "action": document})

    def legal(self) -> list[dict[str, Any]]:
        assert self.view is not None
        return list(self.view["legal"])

    def error(self, timeout: float = 10) -> dict[str, Any]:
        """Read until an error message; return its error document."""
        message = self.until(lambda m: m["type"] == "error", timeout)
        document: dict[str, Any] = message["error"]
        return document


def action_of(document: dict[str, Any]) -> cr.Action:
    return schema.read_action({"format": cr.FORMAT_VERSION, "kind": "action", **document})
