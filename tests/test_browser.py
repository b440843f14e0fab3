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
from typing import TYPE_CHECKING, Any, Literal
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
#: The player, called "You", spoken of in the third person ("You takes", "You has"; not "You cross").
THIRD_PERSON_YOU = re.compile(r"\bYou (?:has|(?!\w*ss\b)\w+s)\b")
#: Python starts in the page (Pyodide): allow for a slow, shared machine.
START_TIMEOUT_MS = 120_000
#: The address the site is built for (mkdocs.yml's site_url), which its sitemap.xml names.
SITE_URL = "http://127.0.0.1:8000/"
#: The words of the status line while Python starts (javascripts/live.js), stage by stage.
STARTING = re.compile(r"^(Loading Python|Starting Python|Installing cucumber_rules|Starting the examples)")


def _required() -> bool:
    return bool(os.environ.get("CI") or os.environ.get("CUCUMBER_REQUIRE_BROWSER"))


def missing_browser(what: str) -> None:
    """Fail where the browser tests are required (CI, tools/test.sh), skip elsewhere."""
    if _required():
        pytest.fail(
            f"the browser tests are required here (CI or CUCUMBER_REQUIRE_BROWSER is set), but {what}"
        )
    pytest.skip(f"{what}: the pages are not tested in a browser (set CI=1 to make this an error)")


def find_chromium() -> str | None:
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
        missing_browser("the `playwright` package is not installed (pip install -e '.[test]')")
    executable = find_chromium()
    if executable is None:
        missing_browser("Chromium is not installed (Debian: apt-get install chromium)")
    if not all(importlib.util.find_spec(m) for m in ("mkdocs", "material", "markdown_exec")):
        missing_browser(
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

    def do_GET(self) -> None:
        """The files of the site; its sitemap.xml names this server, as it names site_url where published.

        The theme's instant navigation follows only the links whose address the sitemap lists (scheme
        and host aside), so a site served on another port than its site_url's loads page by page.
        """
        if urlsplit(self.path).path != "/sitemap.xml":
            super().do_GET()
            return
        here = f"http://{self.headers['Host']}/"  # this server, as the browser names it
        text = (Path(self.directory) / "sitemap.xml").read_text(encoding="utf-8")
        body = text.replace(SITE_URL, here).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


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


def test_a_finished_trick_stays_on_the_play_page_until_the_player_moves_on(
    watched: _Watched, server: str
) -> None:
    page = watched.page
    page.goto(server + "play/")
    form = page.locator("form.live-play-setup")
    form.locator("select[name=preset]").select_option("agurk")
    form.locator("input[name=players]").fill("4")
    form.locator("input[name=seed]").fill("11")
    form.locator("input[name=autoplay]").uncheck()  # move on by a click only
    form.get_by_role("button", name="New match").click()
    moves = page.locator(".live-play-moves .live-move")
    moves.first.wait_for()
    assert form.locator("input[name=seed]").get_attribute("placeholder") == "random"  # never a cut-off seed
    assert "Seed 11" in page.locator(".live-status").inner_text()
    log = page.locator(".live-play-log")
    assert "Round 1" in log.inner_text()
    # Seat 0 leads the first trick of the match: whatever card we play, the three bots answer.
    card = moves.first.get_attribute("data-card")
    hand = page.locator(".live-play-table .cr-legal").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert card in hand
    moves.first.click()
    # The completed trick is shown, with every card, who took it and what it cost, until Continue.
    trick = page.locator(".live-play-trick")
    trick.wait_for()
    picture = trick.locator("svg")
    label = picture.get_attribute("aria-label") or ""
    told = re.search(
        rf"Trick 1: You {re.escape(card or '')}, Bot 1 \S+, Bot 2 \S+, Bot 3 \S+\. "
        r"(You take|Bot \d takes) the trick",
        label,
    )
    assert told is not None, label  # (to the player: "You take the trick", never "You takes")
    caption = trick.locator(".live-play-trick-caption").inner_text()
    assert re.match(r"(You take|Bot \d takes) trick 1\. Cost: nothing yet: only the last trick", caption), (
        caption
    )
    assert page.locator(".live-play-table").is_hidden()
    page.wait_for_timeout(3000)  # no pause moves on by itself when the box is unticked
    # Continue has the focus (Enter moves on), and reads as well focused as not (it read 1.75:1).
    assert page.evaluate("() => document.activeElement.classList.contains('live-play-continue')")
    assert not _low(_contrast(page, ".live-play-continue")), _contrast(page, ".live-play-continue")
    assert trick.is_visible()
    trick.get_by_role("button", name="Continue").click()
    trick.wait_for(state="hidden")
    moves.first.wait_for()
    # The last trick stays in view beside the table; the log is newest first.
    last = page.locator(".live-play-last")
    assert last.is_visible()
    assert (last.locator("svg").get_attribute("aria-label") or "").startswith(f"Trick 1: You {card},")
    items = page.locator(".live-play-log li").all_inner_texts()
    assert items[-1].startswith("agurk, 4 players"), "the first line of the log comes last"
    newest = next(i for i, line in enumerate(items) if line.startswith(f"You play {card}"))
    oldest = next(i for i, line in enumerate(items) if line.startswith("Round 1"))
    assert newest < oldest
    assert any(
        re.match(r"trick 1: You \S+, Bot 1 \S+, Bot 2 \S+, Bot 3 \S+ → (You|Bot \d)", line) for line in items
    )
    # The table is seat 0's view: our hand face up, the bots' hands face down, and its words say the
    # totals once.
    table = page.locator(".live-play-table svg")
    words = table.get_attribute("aria-label") or ""
    assert "Your hand (You)" in words
    assert words.count("Totals:") == 1, words
    assert page.locator(".live-play-table .cr-back").count() > 0
    # What a screen reader reads (the pictures' words, the live regions) speaks to the player: "You take".
    read = page.evaluate(
        "() => [...document.querySelectorAll('#live-play [aria-label], #live-play [aria-live], "
        "#live-play title')].map((n) => n.getAttribute('aria-label') || n.textContent).join(' ')"
    )
    assert "You" in read
    assert not re.findall(THIRD_PERSON_YOU, read), re.findall(THIRD_PERSON_YOU, read)
    _ok(watched)


def test_the_play_page_explains_the_trick_marker_and_form_errors(watched: _Watched, server: str) -> None:
    page = watched.page
    page.goto(server + "play/")
    form = page.locator("form.live-play-setup")
    form.locator("select[name=preset]").select_option("agurk")
    form.locator("input[name=players]").fill("9")
    form.get_by_role("button", name="New match").click()
    error = page.locator(".live-play-error")
    assert error.is_visible()
    assert "agurk is for 3 to 7 players, not 9" in error.inner_text()
    assert form.locator("input[name=players]").get_attribute("aria-invalid") == "true"
    form.locator("select[name=preset]").select_option("catastrophe")
    form.locator("input[name=players]").fill("3")
    form.locator("input[name=seed]").fill("2")
    form.get_by_role("button", name="New match").click()
    page.locator(".live-play-moves .live-move").first.wait_for()
    assert error.is_hidden()
    assert "How a trick is taken: the Trick Marker." in page.locator(".live-play-intro").inner_text()
    hints = page.locator(".live-play-hints").inner_text()
    assert "Trick Marker: not set. You lead" in hints
    # Seed 2 deals seat 0 the five-cucumber card 45: the page says why it may not lead.
    assert "Not now: 45 (a 5-cucumber card may not lead a trick while your hand holds other cards)" in hints
    _ok(watched)


def _pages_with_run(site: Path) -> list[str]:
    """Every page of the built site with a live example's Run button (its address under the site)."""
    found = []
    for path in sorted(site.rglob("index.html")):
        if 'class="md-button md-button--primary live-run"' in path.read_text(encoding="utf-8"):
            found.append(path.parent.relative_to(site).as_posix().replace(".", "") + "/")
    return [p.lstrip("/") for p in found]


def test_a_run_replaces_the_static_output_on_every_page(
    context: BrowserContext, server: str, site: Path
) -> None:
    """On every page with live examples, a Run hides the build's output: the output is shown once."""
    pages = _pages_with_run(site)
    assert {"", "quickstart/", "try/", "rules/agurk/"} <= set(pages), pages
    for address in pages:
        page = context.new_page()
        watched = _Watched(page, server)
        page.goto(server + address)
        example = page.locator(".live-example").first
        statics = example.locator(".live-static-output, .live-static")
        had = statics.count()
        run = example.get_by_role("button", name="Run", exact=True)
        run.click()
        output = example.locator(".live-output")
        output.locator(".live-text, .live-picture").first.wait_for()
        assert output.is_visible(), address
        assert had == 0 or all(not node.is_visible() for node in statics.all()), (
            f"{address}: the build's output is still shown beside the live one"
        )
        if address != "try/":  # (the try/ page starts with no output of its own)
            assert had > 0, f"{address}: the live example has no static output to replace"
        # A stepper only for two pictures or more.
        frames = output.locator(".live-frame")
        if frames.count():
            steps = output.locator(".live-stepper")
            single = output.locator(".live-single").count()
            assert (steps.count() == 0) == (single == 1), address
            if steps.count():
                counter = output.locator(".live-counter").inner_text()
                assert not counter.endswith(" of 1"), f"{address}: a stepper for one picture"
        if address == "quickstart/":  # a block that prints one picture of the table: no stepper for it
            drawn = page.locator(".live-example:has(.live-static-output svg)").first
            drawn.get_by_role("button", name="Run", exact=True).click()
            drawn.locator(".live-output .live-single svg").wait_for()
            assert drawn.locator(".live-stepper").count() == 0
            assert drawn.locator(".live-static-output").is_hidden()
        _ok(watched)
        page.close()


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


#: Records every text the pages' status lines show (`window.statuses`), from now on: the observer lives
#: as long as the window does, so `window.statuses` is also proof that no page load replaced it.
WATCH_STATUSES = """() => {
  window.statuses = [];
  new MutationObserver(() => {
    for (const node of document.querySelectorAll(".live-status")) {
      const text = node.textContent.trim();
      if (text && window.statuses[window.statuses.length - 1] !== text) window.statuses.push(text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def _statuses(page: Page) -> list[str]:
    found = page.evaluate("() => window.statuses === undefined ? null : window.statuses.splice(0)")
    assert found is not None, "the window was reloaded: a link of the site should replace the content only"
    return list(found)


def _go(page: Page, name: str, address: str) -> None:
    """Follow the link `name` of the site's navigation (the sidebar); wait until the page shows."""
    page.locator(".md-sidebar--primary").get_by_role("link", name=name, exact=True).click()
    page.wait_for_url("**/" + address)
    page.wait_for_function(
        "a => location.pathname.endsWith(a) && !!document.querySelector('.md-content h1')", arg=address
    )


def test_python_starts_once_for_all_the_pages_of_a_visit(watched: _Watched, server: str, site: Path) -> None:
    """With instant navigation the window stays: the next page's examples run in the same Python at once."""
    assert SITE_URL in (site / "sitemap.xml").read_text(encoding="utf-8"), "mkdocs.yml's site_url changed"
    page = watched.page
    page.goto(server + "quickstart/")
    page.evaluate(WATCH_STATUSES)
    first = page.locator(".live-example").first
    first.get_by_role("button", name="Run", exact=True).click()
    first.locator(".live-output .live-text, .live-output .live-picture").first.wait_for()
    told = _statuses(page)
    assert any(STARTING.match(text) for text in told), told  # the first page starts Python, and says so

    # A match on the Play page, left in the middle of a completed trick's pause.
    _go(page, "Play", "play/")
    form = page.locator("form.live-play-setup")
    form.locator("select[name=preset]").select_option("agurk")
    form.locator("input[name=players]").fill("3")
    form.locator("input[name=seed]").fill("11")
    form.locator("input[name=autoplay]").check()  # the trick moves on by itself after a pause
    form.get_by_role("button", name="New match").click()
    moves = page.locator(".live-play-moves .live-move")
    moves.first.wait_for()
    told = _statuses(page)
    assert not [text for text in told if STARTING.match(text)], f"Python started again: {told}"
    moves.first.click()
    page.locator(".live-play-trick").wait_for()

    _go(page, "Agurk (Danish Cucumber)", "rules/agurk/")
    page.wait_for_timeout(3000)  # past the Play page's pause: its timer was stopped with the page
    heading = page.get_by_role(
        "heading", name=re.compile("^Suits do not matter, an equal card is high enough")
    )
    example = heading.locator("xpath=following::div[contains(@class, 'live-example')][1]")
    example.get_by_role("button", name="Run", exact=True).click()
    text = example.locator(".live-output .live-text")
    text.wait_for()
    assert text.inner_text().strip() == "seat 1 may play: 3C KS AH"
    told = _statuses(page)
    assert not [t for t in told if STARTING.match(t)], f"Python started again: {told}"

    # Back (the browser's button) to the first page: set up again, its examples run.
    page.go_back()
    page.go_back()
    page.wait_for_url("**/quickstart/")
    first = page.locator(".live-example").first
    first.get_by_role("button", name="Run", exact=True).click()
    first.locator(".live-output .live-text, .live-output .live-picture").first.wait_for()
    told = _statuses(page)
    assert told, "the run said nothing"
    assert not [t for t in told if STARTING.match(t)], told

    # The runtime and the wheels were fetched once for the whole visit.
    live = [urlsplit(u).path for u in watched.requests if "/live/" in urlsplit(u).path]
    for name in ("manifest.json", "pyodide/pyodide.js", "pyodide/pyodide.asm.wasm", "cucumber_live.py"):
        assert sum(p.endswith("/live/" + name) for p in live) == 1, (name, live)
    wheels = [p for p in live if p.endswith(".whl")]
    assert wheels
    assert len(wheels) == len(set(wheels)), wheels
    pages = [u for u in watched.requests if urlsplit(u).path.endswith(("/play/", "/rules/agurk/"))]
    assert pages, "the pages were not fetched by the theme's instant navigation"
    _ok(watched)


# --- pictures: every text fits its picture -----------------------------------------------------------

#: For every picture of the page (`svg.cr-picture`), the texts that reach past its viewBox (clipped on
#: the page) and the pairs of texts that overlap, measured by the browser in the picture's own units.
#: Text on a card (its rank and suit) is left out of the overlaps: it is drawn over the card on purpose.
MEASURE_PICTURES = """() => {
  document.querySelectorAll("details").forEach((d) => (d.open = true));
  const clipped = [], overlaps = [];
  let measured = 0;
  const pictures = [...document.querySelectorAll("svg.cr-picture")];
  for (const svg of pictures) {
    const box = svg.viewBox.baseVal;
    const toPicture = svg.getScreenCTM().inverse();
    const seen = [];
    for (const text of svg.querySelectorAll("text")) {
      const b = text.getBBox();
      if (!b.width) continue;
      measured += 1;
      const m = toPicture.multiply(text.getScreenCTM());
      const xs = [m.a * b.x + m.e, m.a * (b.x + b.width) + m.e];
      const ys = [m.d * b.y + m.f, m.d * (b.y + b.height) + m.f];
      const at = { text: text.textContent, left: Math.min(...xs), right: Math.max(...xs),
                   top: Math.min(...ys), bottom: Math.max(...ys), onCard: !!text.closest(".cr-card") };
      if (at.left < box.x - 0.5 || at.right > box.x + box.width + 0.5) {
        const span = `${at.left.toFixed(1)} to ${at.right.toFixed(1)} of ${box.width}`;
        clipped.push(`"${at.text}" spans ${span} (${svg.getAttribute("aria-label").slice(0, 60)})`);
      }
      for (const other of seen) {
        if (at.onCard || other.onCard) continue;
        const across = Math.min(at.right, other.right) - Math.max(at.left, other.left);
        const down = Math.min(at.bottom, other.bottom) - Math.max(at.top, other.top);
        if (across > 0.5 && down > 2) overlaps.push(`"${other.text}" and "${at.text}"`);
      }
      seen.push(at);
    }
  }
  return { pictures: pictures.length, hidden: pictures.filter((p) => !p.getBBox().width).length,
           measured, clipped, overlaps };
}"""


def _measure_pictures(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE_PICTURES)
    return found


def _pages_with_pictures(site: Path) -> list[str]:
    """Every page of the built site that shows a picture drawn at build time."""
    return sorted(
        path.parent.relative_to(site).as_posix().replace(".", "") + "/"
        for path in site.rglob("index.html")
        if 'class="cr-picture"' in path.read_text(encoding="utf-8")
    )


def test_every_picture_on_the_site_fits_its_text(context: BrowserContext, server: str, site: Path) -> None:
    """No heading or label of a picture is clipped at its right edge, and no two labels overlap."""
    pages = [p.lstrip("/") for p in _pages_with_pictures(site)]
    rules = {f"rules/{name}/" for name in ("catastrophe", "five-cucumbers", "agurk", "gurka")}
    assert rules | {"quickstart/", "play/"} <= set(pages), pages
    page = context.new_page()
    measured = 0
    for address in pages:
        page.goto(server + address)
        found = _measure_pictures(page)
        assert found["pictures"], address
        assert not found["hidden"], (address, found)
        assert not found["clipped"], (
            f"{address}: texts cut off at the edge of their picture: {found['clipped']}"
        )
        assert not found["overlaps"], f"{address}: texts drawn over each other: {found['overlaps']}"
        measured += found["measured"]
    page.close()
    assert measured > 1000, measured  # (every rule page's worked examples: thousands of labels)


#: Names that make the labels of a picture long: long words, wide letters, letters from beyond ASCII.
LONG_NAMES = (
    "Wolfgang Amadeus Mozart",
    "WWWWWWWWWWWWWW",
    "Ann",
    "Élodie Ångström",
    "李小龙",
    "Bo",
    "Maximiliane",
)


def _gallery() -> list[str]:
    """Pictures of every game at every stage: whole random matches of long-named players (each seat's
    view, the tricks, the scores), and the Play page's own pictures (its player is "You") to the end."""
    import random

    _tools_on_path()
    import cucumber_live

    import cucumber_rules as cr
    from cucumber_rules import render

    pictures = []
    rng = random.Random(48)
    for name, rules in sorted(cr.RULESETS.items()):
        players = list(LONG_NAMES[: rules.max_players])
        state = cr.new_game(rules, players=players)
        for step in range(3000):
            if state.is_over:
                break
            before = state
            action = (
                cr.sample_chance(state, rng)
                if state.to_act == cr.CHANCE
                else rng.choice(cr.legal_moves(state))
            )
            state = cr.apply(state, action)
            if step % 9 == 0:
                pictures.append(render.svg(state, seat=step % len(players)))
                pictures.append(render.svg(state, open_hands=True))
            done = cucumber_live.trick_done(before, state)
            if done is not None:
                pictures.append(done["svg"])
        pictures += [render.svg(state, seat=0), render.svg(state), render.results_svg(state)]
        match = cucumber_live.Match(name, players=min(4, rules.max_players), bots="random", seed=3)
        snapshot = match.snapshot()
        while True:
            pictures.append(snapshot["svg"])
            pictures += [trick["svg"] for trick in snapshot["tricks"]]
            if snapshot["over"] or not snapshot["legal"]:
                break
            snapshot = match.act(len(snapshot["legal"]) - 1)
    return pictures


def _tools_on_path() -> None:
    """Put `tools/` (the live docs' Python, `cucumber_live`) on the import path."""
    import sys

    tools = str(Path(__file__).resolve().parents[1] / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)


def test_pictures_of_whole_matches_fit_their_text(watched: _Watched, server: str) -> None:
    """Long names, seven seats, every game to its end, and the Play page's table late in a round
    (its heading was cut to "You to p")."""
    page = watched.page
    page.goto(server)  # (the site's styles: the pictures are measured as its pages show them)
    pictures = _gallery()
    page.evaluate(
        "html => { const box = document.createElement('div'); box.className = 'md-typeset'; "
        "box.innerHTML = html; document.body.prepend(box); }",
        "".join(pictures),
    )
    found = _measure_pictures(page)
    assert found["pictures"] == len(pictures) > 300, found["pictures"]
    assert not found["hidden"], found
    assert not found["clipped"], f"texts cut off at the edge of their picture: {found['clipped'][:20]}"
    assert not found["overlaps"], f"texts drawn over each other: {sorted(set(found['overlaps']))[:20]}"


# --- contrast ----------------------------------------------------------------------------------------

#: WCAG 2's contrast ratio of the text of links, buttons and inline code (and of every element inside
#: them that holds text of its own) against what lies behind it: the nearest backgrounds, their
#: transparency composed over the page's. `selector` picks the elements; each result names one.
CONTRAST = """(selector) => {
  const parse = (c) => {
    const p = c.match(/rgba?\\(([^)]+)\\)/)[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const behind = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    return layers.reverse().reduce((under, layer) => over(layer, under), { r: 255, g: 255, b: 255, a: 1 });
  };
  const luminance = (c) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!shown(el)) continue;
    for (const node of [el, ...el.querySelectorAll("*")]) {
      if (!ownText(node) || !shown(node)) continue;
      const back = behind(node);
      const [a, b] = [luminance(over(parse(getComputedStyle(node).color), back)), luminance(back)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      found.push({ ratio: Math.round(ratio * 100) / 100, text: node.textContent.trim().slice(0, 30),
                   element: `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}` });
    }
  }
  return found;
}"""
#: What the contrast test measures: the links (of the page, its navigation and the permalinks of its
#: headings), the buttons (the theme's and the live examples'), and inline code.
MEASURED = {
    "links": "a",
    "buttons": "button, .md-button",
    "inline code": ":not(pre) > code",
}
#: WCAG 2.1 AA for text of normal size.
AA = 4.5


def _contrast(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(CONTRAST, selector)
    return found


def _low(found: list[dict[str, Any]]) -> list[str]:
    return sorted({f"{f['element']} {f['text']!r}: {f['ratio']}" for f in found if f["ratio"] < AA})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_links_buttons_and_inline_code_have_the_contrast_wcag_asks(
    browser: Browser, server: str, scheme: Literal["light", "dark"]
) -> None:
    """At least 4.5:1 on the light and the dark scheme, as they are shown and when hovered or focused."""
    # A context of its own: the palette follows the reader's preference, unless one was chosen (and
    # kept in the site's storage) on an earlier visit.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    lowest: dict[str, float] = {}
    for address in ("", "quickstart/", "try/", "play/", "rules/agurk/", "api/playing/", "hosting/"):
        page.goto(server + address)
        assert page.get_attribute("body", "data-md-color-scheme") == (
            "slate" if scheme == "dark" else "default"
        )
        for kind, selector in MEASURED.items():
            found = _contrast(page, selector)
            assert found, (address, kind)
            assert not _low(found), f"{scheme} scheme, {address}: {kind} below {AA}:1: {_low(found)}"
            lowest[kind] = min(lowest.get(kind, 99.0), *(f["ratio"] for f in found))
        # A button hovered or focused changes colour (the Play page's Continue button is focused when
        # it shows), and so does a link hovered.
        for button in page.locator(".md-typeset .md-button:visible").all()[:3]:
            button.focus()
            page.wait_for_timeout(300)  # (past the theme's transition of the colours, 125 ms)
            found = _contrast(page, ".md-typeset .md-button:focus")
            assert not _low(found), f"{scheme} scheme, {address}: a focused button: {_low(found)}"
            button.hover()
            page.wait_for_timeout(300)
            found = _contrast(page, ".md-typeset .md-button:hover")
            assert not _low(found), f"{scheme} scheme, {address}: a hovered button: {_low(found)}"
        link = page.locator(".md-content a[href]:visible").first
        link.hover()
        page.wait_for_timeout(300)
        found = _contrast(page, ".md-content a:hover")
        assert not _low(found), f"{scheme} scheme, {address}: a hovered link: {_low(found)}"
    context.close()
    print(f"{scheme} scheme: the lowest contrast of", ", ".join(f"{k} {v}:1" for k, v in lowest.items()))
