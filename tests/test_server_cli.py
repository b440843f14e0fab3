"""`cucumber-rules serve`: its options, its refusals, and that it runs the server with them (issue 37)."""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cucumber_rules.server
from cucumber_rules.cli import app
from cucumber_rules.server import Limits, Store

pytestmark = pytest.mark.server

RUNNER = CliRunner()


def run(*args: str, code: int = 0) -> Any:
    result = RUNNER.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(cucumber_rules.server, "run", lambda **kwargs: calls.append(kwargs))
    return calls


def test_serve_is_listed_and_its_help_has_no_type_placeholders() -> None:
    assert "serve" in run("--help").output
    out = run("serve", "--help").output
    options = out[out.index("─ Options ") :]
    assert not re.search(r"<\w+>", options), options
    for option in ("--db", "--host", "--port", "--site", "--origin", "--sync"):
        assert option in out


def test_serve_runs_the_server_with_its_options(
    started: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run("serve")
    assert started[-1] == {
        "host": "127.0.0.1",
        "port": 8000,
        "database": Path("cucumber-rules.sqlite3"),
        "site": None,
        "origins": (),
        "synchronous": "NORMAL",
        "limits": Limits(),
        "forwarded_allow_ips": None,
    }
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<!doctype html>")
    out = run(
        "serve", "--db", "t.db", "--port", "9000", "--origin", "https://a.example", "--origin", "https://b.example",
        "--sync", "full",
    ).output  # fmt: skip
    assert started[-1]["site"] == Path("site")  # a built site in the working directory is served
    assert started[-1]["origins"] == ("https://a.example", "https://b.example")
    assert started[-1]["synchronous"] == "FULL"
    assert "/play/" in out
    run("serve", "--connections-per-address", "4", "--forwarded-allow-ips", "10.0.0.1,10.0.1.0/24")
    assert started[-1]["limits"] == Limits(connections_per_address=4)
    assert started[-1]["forwarded_allow_ips"] == "10.0.0.1,10.0.1.0/24"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sync", "off"], "--sync is normal or full"),
        (["--port", "0"], "--port is 1..65535"),
        (["--site", "nowhere"], "no built site there"),
        (["--connections-per-address", "0"], "--connections-per-address is at least 1"),
    ],
)
def test_serve_refuses_bad_options(started: list[dict[str, Any]], args: list[str], message: str) -> None:
    assert message in run("serve", *args, code=2).output
    assert started == []


def test_serve_says_which_extra_is_missing(
    started: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    out = run("serve", code=2).output
    assert "uvicorn missing" in out
    assert 'pip install ".[cli,server]"' in out  # (from a clone: the package is not on the index)
    assert "cucumber-rules[server]" not in out
    assert started == []


def test_serve_refuses_a_database_another_server_writes(tmp_path: Path) -> None:
    holder = Store(tmp_path / "t.sqlite3")
    holder.claim()
    try:
        out = run("serve", "--db", str(tmp_path / "t.sqlite3"), code=1).output
    finally:
        holder.close()
    assert "is in use by another server" in out
    assert f"process {os.getpid()}" in out
