"""The documentation site in a real browser: live examples run, and a match can be played.

The site is built once (the `site` fixture of `conftest.py`, with its live runtime), served
from a local HTTP server, and driven in headless Chromium (Debian's `chromium` package) through
Playwright. Every request a page makes must go to that server: the site loads nothing from any
other host.

These tests need Chromium and the `playwright` package (the `test` extra). `tools/test.sh`, the
CI command, installs Chromium when it is missing and sets `CUCUMBER_REQUIRE_BROWSER=1`: there,
and wherever `CI` is set, a missing browser fails the tests. Elsewhere they are skipped, saying
what is missing. Point `CUCUMBER_CHROMIUM` at another Chromium binary if yours is not on the PATH.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

#: Chromium's flags for a quiet headless run in a container (no sandbox as root, no background traffic).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Python starts in the page (Pyodide): allow for a slow, shared machine.
START_TIMEOUT_MS = 120_000


def _required() -> bool:
    return bool(os.environ.get("CI") or os.environ.get("CUCUMBER_REQUIRE_BROWSER"))


def _missing(what: str) -> None:
    """Fail where the browser tests are required (CI, tools/test.sh), skip elsewhere."""
    if _required():
        pytest.fail(
            f"the browser tests are required here (CI or CUCUMBER_REQUIRE_BROWSER is set), but {what}"
        )
    pytest.skip(f"{what}: the pages are not tested in a browser (set CI=1 to make this an error)")


def _chromium() -> str | None:
    named = os.environ.get("CUCUMBER_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium, driven by Playwright."""
    if importlib.util.find_spec("playwright") is None:
        _missing("the `playwright` package is not installed (pip install -e '.[test]')")
    executable = _chromium()
    if executable is None:
        _missing("Chromium is not installed (Debian: apt-get install chromium)")
    if not all(importlib.util.find_spec(m) for m in ("mkdocs", "material", "markdown_exec")):
        _missing(
            "the docs toolchain is not installed (pip install -e '.[docs]'), so the site cannot be built"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the handler's documented way to add types
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
    }

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    """The built site over HTTP on a free local port; its base URL."""
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def context(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """One browser context for all pages (Pyodide comes from the HTTP cache after the first page)."""
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    made.set_default_timeout(START_TIMEOUT_MS)
    yield made
    made.close()


class _Watched:
    """A page with everything it requested and every error it reported."""

    def __init__(self, page: Page, server: str) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []
        local = urlsplit(server).netloc
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        # Anything for another host is refused (and reported below), so a test never waits on it.
        page.route(
            re.compile(r"^https?://"),
            lambda route: route.continue_() if urlsplit(route.request.url).netloc == local else route.abort(),
        )
        self.local = local

    def foreign(self) -> list[str]:
        return [
            u
            for u in self.requests
            if urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc != self.local
        ]


@pytest.fixture
def watched(context: BrowserContext, server: str) -> Iterator[_Watched]:
    page = context.new_page()
    yield _Watched(page, server)
    page.close()


def _ok(watched: _Watched) -> None:
    assert not watched.foreign(), f"the page loaded from other hosts: {watched.foreign()}"
    errors = [e for e in watched.errors if "favicon" not in e]
    assert not errors, f"the page reported errors: {errors}"


def test_a_worked_example_runs_steps_card_by_card_and_runs_edited(watched: _Watched, server: str) -> None:
    page = watched.page
    page.goto(server + "rules/agurk/")
    heading = page.get_by_role(
        "heading", name=re.compile("^Suits do not matter, an equal card is high enough")
    )
    example = heading.locator("xpath=following::div[contains(@class, 'live-example')][1]")
    run = example.get_by_role("button", name="Run", exact=True)
    assert run.is_visible(), "the Run button should be shown once the page's script runs"
    run.click()
    output = example.locator(".live-output")
    output.locator(".live-text").wait_for()
    # The scenario says: "Then seat 1 may play 3C, KS and AH"; the program prints it.
    assert output.locator(".live-text").inner_text().strip() == "seat 1 may play: 3C KS AH"
    counter = output.locator(".live-counter")
    assert counter.inner_text() == "step 2 of 2"
    output.get_by_role("button", name="First step").click()
    assert counter.inner_text() == "step 1 of 2"
    assert output.locator(".live-caption").inner_text() == "the deal"
    picture = output.locator(".live-picture svg")
    assert picture.get_attribute("role") == "img"
    assert "No cards on the table yet" in (picture.get_attribute("aria-label") or "")
    output.get_by_role("button", name="Next step").click()
    assert counter.inner_text() == "step 2 of 2"
    assert output.locator(".live-caption").inner_text() == "seat 0 plays KD"
    # The trick now shows seat 0's KD; seat 1's legal cards are lifted and outlined.
    legal = sorted(
        output.locator(".live-picture .cr-legal").evaluate_all("cs => cs.map(c => c.dataset.card)")
    )
    assert legal == ["3C", "AH", "KS"]
    # Edited, the example runs the reader's code: an illegal card is refused with the engine's reason.
    example.get_by_role("button", name="Edit").click()
    editor = example.locator("textarea.live-editor")
    editor.fill(editor.input_value() + 'state = cr.apply(state, cr.Play(1, "4D"))\n')
    example.get_by_role("button", name="Run", exact=True).click()
    page.wait_for_function("el => el.textContent.includes('IllegalMoveError')", arg=output.element_handle())
    text = output.locator(".live-text").inner_text()
    assert text.startswith("seat 1 may play: 3C KS AH\nTraceback")
    assert "IllegalMoveError: seat 1 cannot play 4D" in text
    _ok(watched)


def test_one_trick_against_the_bots_on_the_play_page(watched: _Watched, server: str) -> None:
    page = watched.page
    page.goto(server + "play/")
    form = page.locator("form.live-play-setup")
    form.locator("select[name=preset]").select_option("agurk")
    form.locator("input[name=players]").fill("4")
    form.locator("input[name=seed]").fill("11")
    form.get_by_role("button", name="New match").click()
    moves = page.locator(".live-play-moves .live-move")
    moves.first.wait_for()
    log = page.locator(".live-play-log li")
    assert "Round 1" in page.locator(".live-play-log").inner_text()
    # Seat 0 leads the first trick of the match: whatever card we play, the three bots answer.
    card = moves.first.get_attribute("data-card")
    hand = page.locator(".live-play-table .cr-legal").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert card in hand
    before = log.count()
    moves.first.click()
    page.wait_for_function(f"document.querySelectorAll('.live-play-log li').length > {before}")
    lines = page.locator(".live-play-log").inner_text()
    assert f"You play {card}" in lines
    trick = re.search(r"trick 1: You (\S+), Bot 1 \S+, Bot 2 \S+, Bot 3 \S+ → (You|Bot \d)", lines)
    assert trick is not None, f"the first trick should be told in the log:\n{lines}"
    assert trick[1] == card
    # The table is seat 0's view: our hand face up, the bots' hands face down.
    table = page.locator(".live-play-table svg")
    assert "Your hand (You)" in (table.get_attribute("aria-label") or "")
    assert page.locator(".live-play-table .cr-back").count() > 0
    _ok(watched)


def test_the_try_page_runs_the_readme_example(watched: _Watched, server: str) -> None:
    page = watched.page
    page.goto(server + "try/")
    example = page.locator(".live-try")
    assert "cr.ruleset(" in example.locator("textarea.live-editor").input_value()
    example.get_by_role("button", name="Run", exact=True).click()
    text = example.locator(".live-output .live-text")
    text.wait_for()
    output = text.inner_text()
    assert "(0, 0, 0, 0)" in output
    assert "not-your-turn" in output
    _ok(watched)
