"""The Play page's "play with friends" in a real browser: pages in separate browser contexts (separate
people) create a table on a real server, join it by their links and play a whole round, one of them
reloading its page in the middle of a trick (issue 37).

The server serves the built site itself, as `cucumber-rules serve` does. Chromium and Playwright as in
`tests/test_browser.py` (required in CI, skipped elsewhere when missing). Each test drives its browser
from a thread of its own: Playwright's synchronous API refuses to start where another instance (that of
`tests/test_browser.py`, kept for the session) runs its loop. Set `CUCUMBER_PREBUILT_SITE` to a site
built beforehand to skip the build while working on these tests.
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import cucumber_rules as cr
from server_harness import ThreadServer
from test_browser import CHROMIUM_FLAGS, THIRD_PERSON_YOU, find_chromium, missing_browser
from test_server import AGURK, deterministic_hub

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.server

TIMEOUT_MS = 30_000
#: True once the page shows a later point of the match than `at`.
MOVED_ON = "at => Number(document.getElementById('friends').dataset.at) > at"


def in_a_browser(scenario: Callable[[Browser], None]) -> None:
    """Run `scenario` with a headless Chromium of its own, in a thread of its own; re-raise its failure."""
    if importlib.util.find_spec("playwright") is None:
        missing_browser("the `playwright` package is not installed (pip install -e '.[test]')")
    executable = find_chromium()
    if executable is None:
        missing_browser("Chromium is not installed (Debian: apt-get install chromium)")
    failures: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
                try:
                    scenario(browser)
                finally:
                    browser.close()
        except BaseException as error:  # handed to the test's own thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


@pytest.fixture(scope="module")
def friends_site(request: pytest.FixtureRequest) -> Path:
    prebuilt = os.environ.get("CUCUMBER_PREBUILT_SITE")
    return Path(prebuilt) if prebuilt else Path(request.getfixturevalue("site"))


@pytest.fixture
def table_server(friends_site: Path, tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(deterministic_hub(tmp_path / "tables.sqlite3", AGURK), site=friends_site) as running:
        yield running


def at_the_table(person: Person, heading: str, role: str) -> None:
    """The page went to the table: its heading at the top of the window, with the focus, and the sample
    picture of a match against bots hidden (it looks like a table, and is none)."""
    page = person.page
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'your-table'")
    assert page.locator("#your-table").inner_text() == heading
    assert page.locator(".friends-role").inner_text().startswith(role)
    top = page.evaluate("() => document.getElementById('your-table').getBoundingClientRect().top")
    assert 0 <= top < 200, top  # (below the theme's header, at the top of the window)
    assert page.evaluate("() => window.scrollY") > 500  # (the page opened at its top, far above)
    assert page.locator("#live-play .live-static").is_hidden()


class Person:
    """One person: a browser context of their own (their own storage), and their page."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(url)

    def data(self, name: str) -> str | None:
        return self.page.get_attribute("#friends", f"data-{name}")

    def at(self) -> int:
        return int(self.data("at") or -1)

    def wait_state(self, state: str) -> None:
        self.page.wait_for_selector(f'#friends[data-state="{state}"]')

    def my_turn(self) -> bool:
        moves = self.page.locator(".friends-moves button:enabled")
        return self.data("state") == "playing" and moves.count() > 0

    def play(self, by_card: bool) -> None:
        """Play a legal move: clicking a lifted card of the picture, or a move's button."""
        at = self.at()
        cards = self.page.locator(".friends-table .cr-legal")
        if by_card and cards.count():
            cards.first.click(position={"x": 4, "y": 6})  # (a card's top left corner shows in a fanned hand)
        else:
            self.page.locator(".friends-moves button:enabled").first.click()
        self.page.wait_for_function(MOVED_ON, arg=at)

    def close(self) -> None:
        self.context.close()


def test_friends_play_a_whole_round_with_a_reload_mid_trick(table_server: ThreadServer) -> None:
    in_a_browser(lambda browser: whole_round(browser, table_server))


def whole_round(browser: Browser, table_server: ThreadServer) -> None:
    ann = Person(browser, table_server.url + "/play/")
    ann.wait_state("setup")
    setup = ann.page.locator("form.friends-setup")
    setup.locator("select[name=preset]").select_option("agurk")
    setup.locator("input[name=players]").fill("3")
    setup.locator("input[name=players]").dispatch_event("change")
    setup.locator("select[name=seat0]").select_option("person")
    setup.locator("select[name=seat1]").select_option("person")
    setup.locator("select[name=seat2]").select_option("heuristic")
    setup.locator("input[name=name]").fill("Ann")
    setup.get_by_role("button", name="Create the table").click()
    ann.wait_state("playing")
    assert ann.data("seat") == "0"
    # Ann's page shows the links to share: one per person's seat, one for spectators, titled by the names
    # (the seats have one numbering: "Player 2" sits second), and the bot's seat, which has no link.
    items = ann.page.locator(".friends-links li")
    assert items.locator(".friends-link-title").all_inner_texts() == [
        "Ann (you): ",
        "Player 2: ",
        "Spectators (anyone with this link watches, and sees no hand): ",
    ]
    assert "Heuristic bot 3: a bot, it plays at once" in items.all_inner_texts()
    links = {
        item.get_attribute("data-seat"): item.locator("a.friends-link").get_attribute("href")
        for item in ann.page.locator(".friends-links li:has(a.friends-link)").all()
    }
    assert set(links) == {"0", "1", "spectators"}
    assert all(re.search(r"/play/#join=[A-Za-z0-9_-]{40,}$", url or "") for url in links.values())
    at_the_table(ann, "Your table", "You play as Ann.")
    assert ann.page.locator(".friends-name").is_hidden()  # (named when creating the table)

    bo = Person(browser, links["1"] or "")
    watcher = Person(browser, links["spectators"] or "")
    bo.wait_state("playing")
    watcher.wait_state("playing")
    assert bo.data("seat") == "1"
    assert watcher.data("seat") == "spectator"
    assert watcher.page.locator(".friends-moves button").count() == 0
    # Each link opens the page at its table, saying whose it is; a spectator is told they watch.
    at_the_table(watcher, "Watching a table", "You are a spectator")
    assert watcher.page.locator(".friends-name").is_hidden()
    at_the_table(bo, "Your table", "You play as Player 2.")
    # Bo names the seat: everyone sees the name at once, in the seats and in the picture.
    naming = bo.page.locator("form.friends-name")
    assert naming.locator("input[name=name]").input_value() == "Player 2"
    naming.locator("input[name=name]").fill("Bo")
    naming.get_by_role("button", name="Use this name").click()
    for person in (ann, bo, watcher):
        person.page.wait_for_function(
            "() => document.querySelector('.friends-seats-line').textContent.includes('Bo')"
        )
        person.page.wait_for_function("() => !!document.querySelector('.friends-table svg text')")
    assert "Ann (you) · Bo · Heuristic bot 3 (bot)" in ann.page.locator(".friends-seats-line").inner_text()
    assert "Ann · Bo (you) · Heuristic bot 3 (bot)" in bo.page.locator(".friends-seats-line").inner_text()
    assert bo.page.locator(".friends-role").inner_text() == "You play as Bo."
    assert naming.is_hidden()
    ann.page.wait_for_function(
        "() => document.querySelector('.friends-table').getAttribute('aria-label').includes('Bo holds')"
    )
    # Bo's picture shows Bo's own cards, face up, and not Ann's.
    bo_picture = bo.page.locator(".friends-table svg").inner_html()
    assert 'data-card="2D"' in bo_picture
    assert 'data-card="KC"' not in bo_picture

    played = {"ann": 0, "bo": 0}
    reloaded = False
    deadline = time.monotonic() + 120
    while int(watcher.data("results") or 0) < 1:
        assert time.monotonic() < deadline, "the round did not finish"
        moved = False
        for name, person in (("ann", ann), ("bo", bo)):
            if not person.my_turn():
                continue
            if name == "bo" and not reloaded and played["ann"] >= 2 and int(bo.data("trick") or 0) > 0:
                # Mid-trick (a card on the table, Bo to play): Bo reloads the page and is back at once.
                before = ann.at()
                told = bo.page.locator(".friends-log li").all_inner_texts()
                bo.page.reload()
                bo.wait_state("playing")
                assert bo.at() == before
                assert int(bo.data("trick") or 0) > 0
                assert bo.my_turn()
                # The tab keeps the log and the name; the server sends the last trick again.
                assert bo.page.locator(".friends-log li").all_inner_texts() == told
                assert bo.page.locator(".friends-last").is_visible()
                assert bo.page.locator(".friends-name").is_hidden()
                reloaded = True
            person.play(by_card=played[name] % 2 == 0)
            played[name] += 1
            moved = True
        if not moved:
            watcher.page.wait_for_timeout(50)
    assert reloaded
    assert played["ann"] >= 7
    assert played["bo"] >= 7
    # Everyone sees the same match: the round is scored, and the pages agree on how far the match is.
    time.sleep(0.5)
    assert ann.at() == bo.at() == watcher.at()
    assert ann.data("results") == bo.data("results") == watcher.data("results") == "1"
    # Beside the table, as against the bots: the last trick, and the log of what happened, newest first.
    for person in (ann, bo, watcher):
        last = person.page.locator(".friends-last")
        assert (last.locator("svg").get_attribute("aria-label") or "").startswith("Trick 7: ")
        taker = last.locator(".live-play-trick-caption").inner_text()
        assert re.fullmatch(r"(You|Ann|Bo|Heuristic bot 3) took trick 7\.", taker), taker
        log = person.page.locator(".friends-log li").all_inner_texts()
        assert log[-1].startswith("Round 1: ") or log[-1].startswith("(You came in after"), log[-3:]
        assert any(re.match(r"trick 7: .* → ", line) for line in log), log
        assert any(" pays " in line for line in log), log
        scores = next(i for i, line in enumerate(log) if line.startswith("scores: "))
        first = next(i for i, line in enumerate(log) if line.startswith("trick 1: "))
        assert scores < first, log  # (newest first)
        text = person.page.locator("#friends").inner_text()
        assert not re.findall(THIRD_PERSON_YOU, text), re.findall(THIRD_PERSON_YOU, text)
    assert "Ann plays KC" in ann.page.locator(".friends-log").inner_text()
    for person in (ann, bo, watcher):
        assert not person.errors, person.errors
        person.close()


def test_the_play_page_says_when_no_server_serves_it(friends_site: Path) -> None:
    """Served by a plain static server (the docs site on its own), the page says what it needs."""
    in_a_browser(lambda browser: no_server(browser, friends_site))


def no_server(browser: Browser, friends_site: Path) -> None:
    import functools
    import http.server
    import threading

    handler: Any = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(friends_site))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        person = Person(browser, f"http://127.0.0.1:{httpd.server_address[1]}/play/")
        person.wait_state("offline")
        assert "cucumber-rules serve" in person.page.locator("#friends").inner_text()
        assert not person.errors, person.errors  # (no failed request: the site says "server": false)
        person.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_without_a_site_a_link_opens_a_plain_page_that_plays(tmp_path: Path) -> None:
    """The server started without the docs site: the link its API hands out opens its own plain page,
    which shows the table and plays the seat's moves (issue 48: the link was a 404)."""
    with ThreadServer(deterministic_hub(tmp_path / "tables.sqlite3", AGURK)) as server:
        answer = server.create("agurk", ["person", "heuristic", "heuristic"], names=["Ann", "Bo", "Cy"])
        in_a_browser(lambda browser: plain_page(browser, answer["seats"][0]["url"]))


def plain_page(browser: Browser, url: str) -> None:
    person = Person(browser, url)
    page = person.page
    page.wait_for_selector("#moves button")
    assert "You are seat 0, Ann" in page.locator("#status").inner_text()
    assert page.locator("#seats li").count() == 3
    assert page.locator("#picture img").count() == 1
    for _ in range(3):  # a few moves, each answered by the bots at once
        before = page.locator("#moves").inner_text()
        page.locator("#moves button").first.click()
        page.wait_for_function(
            "before => document.getElementById('moves').innerText !== before"
            " || document.getElementById('turn').innerText.startsWith('The match')",
            arg=before,
        )
        page.wait_for_selector("#moves button, #record button")
    assert page.locator("#error").inner_text() == ""
    assert not person.errors, person.errors
    person.close()


def test_views_with_pictures_narrate_each_action_and_keep_the_last_trick(tmp_path: Path) -> None:
    """What the Play page shows beside a friends' table: the log (`said`) and the last trick, the same
    for every seat; a client that asked for no pictures gets neither."""
    from server_harness import Player

    with ThreadServer(deterministic_hub(tmp_path / "tables.sqlite3", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "person"], names=["Ann", "Bo", "Cy"])
        secrets = [seat["secret"] for seat in answer["seats"]]
        ann = Player(server.url, secrets[0], pictures=True)
        watcher = Player(server.url, answer["spectators"]["secret"], pictures=True)
        bo = Player(server.url, secrets[1])
        others = []
        dealt = ann.until_at(1)
        assert dealt["said"] == ["Round 1: Cy deals, Ann leads"]
        assert dealt["last_trick"] is None
        for seat, card in ((0, "KC"), (1, "2D"), (2, "2H")):
            player = ann
            if seat:  # (a connection of that seat's own, at the match's latest action)
                player = Player(server.url, secrets[seat])
                others.append(player)
                player.until_at(ann.at)
            player.act(cr.Play(seat, card))
            told = ann.until_at(ann.at + 1)
            assert told["said"][0] == f"{('Ann', 'Bo', 'Cy')[seat]} plays {card}"
        assert told["said"][1:] == ["trick 1: Ann KC, Bo 2D, Cy 2H → Ann"]
        last = told["last_trick"]
        assert (last["number"], last["taker"]) == (1, 0)
        assert 'aria-label="Trick 1: Ann KC, Bo 2D, Cy 2H. Ann takes the trick."' in last["picture"]
        ann.act(cr.Play(0, "7C"))
        later = ann.until_at(ann.at + 1)
        assert later["said"] == ["Ann plays 7C"]
        assert later["last_trick"] == last  # kept while the next trick is played
        # The spectator is told the same; a client without pictures is told nothing of it.
        seen = watcher.until_at(ann.at)
        assert (seen["said"], seen["last_trick"]) == (later["said"], later["last_trick"])
        plain = bo.until_at(ann.at)
        assert "said" not in plain
        assert "last_trick" not in plain
        for player in (ann, watcher, bo, *others):
            player.close()


def test_each_person_names_their_seat_when_joining(tmp_path: Path) -> None:
    """A join message's `name` names the link's seat: stored, told to everyone, in the views; a bad
    name is refused; a spectator's name is ignored."""
    from server_harness import Player

    with ThreadServer(deterministic_hub(tmp_path / "tables.sqlite3", AGURK)) as server:
        answer = server.create("agurk", ["person", "person", "heuristic"])
        secrets = [seat["secret"] for seat in answer["seats"]]
        assert [seat["name"] for seat in answer["seats"]] == ["Player 1", "Player 2", "Heuristic bot 1"]
        ann = Player(server.url, secrets[0])
        ann.until(lambda m: m["type"] == "view")
        bo = Player(server.url, secrets[1], join=False)
        bo.send({"type": "join", "link": secrets[1], "name": "Bo"})
        told = ann.until(lambda m: m["type"] == "table" and m["seats"][1]["name"] == "Bo")
        assert [seat["name"] for seat in told["seats"]] == ["Player 1", "Bo", "Heuristic bot 1"]
        view = ann.until(lambda m: m["type"] == "view")["view"]
        assert view["players"] == ["Player 1", "Bo", "Heuristic bot 1"]
        assert bo.until(lambda m: m["type"] == "view")["view"]["players"][1] == "Bo"
        stored = server.hub.store.table(answer["table"])
        assert stored is not None
        assert stored.players == ("Player 1", "Bo", "Heuristic bot 1")
        # A name that is no name is refused, and the connection closed; the seat keeps its name.
        bad = Player(server.url, secrets[0], join=False)
        bad.send({"type": "join", "link": secrets[0], "name": "\u0007" * 3})
        error = bad.error()
        assert (error["code"], error["path"]) == ("invalid-document", "$.name")
        # A spectator's link names nobody.
        watcher = Player(server.url, answer["spectators"]["secret"], join=False)
        watcher.send({"type": "join", "link": answer["spectators"]["secret"], "name": "Eve"})
        seats = watcher.until(lambda m: m["type"] == "table")["seats"]
        assert [seat["name"] for seat in seats] == ["Player 1", "Bo", "Heuristic bot 1"]
        for player in (ann, bo, bad, watcher):
            player.close()
