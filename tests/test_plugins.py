"""The plug-in hostility test: bad games and bad entry points never change how the other games behave.

SPEC section 5, "Contained plug-ins": a plug-in is checked when it registers (its types serialise,
its names clash with nothing); a bad one is refused or skipped with a warning and never changes
how other games behave; `unregister_game` leaves the process as it was.

Every hostile game of `plugins/hostile.py` is refused by `register_game`, all or nothing, while
High Card is registered; then the fixed battery of `plugins/battery.py` (a seeded match of every
built-in preset, its documents written and read back, `bool(state)`, `ruleset`, the listings,
error codes, the attributes of `State` and `Rules`) must see exactly what it saw before, and
High Card must play and serialise as before. Entry points are tried in child processes with a
package folder made on the fly (a `.dist-info` naming them), as an installed package would be:
one that calls `sys.exit`, raises, is interrupted, loads slowly, registers and then fails,
unregisters another, reads the registry while loading, or names no game.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import threading
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest

import cucumber_rules as cr
from cucumber_rules import schema
from cucumber_rules.games import unregister_game
from cucumber_rules.testing import check_game, registered
from plugins import battery, hostile
from plugins.highcard import GAME, HighCardGame, HighCardRules

TESTS = Path(__file__).resolve().parent

Played = dict[str, tuple[cr.State, cr.State]]


@pytest.fixture(scope="module")
def played() -> Played:
    assert "highcard" not in cr.GAMES
    return battery.matches()


@pytest.fixture(scope="module")
def before(played: Played) -> dict[str, Any]:
    """The quick battery before any plug-in is registered."""
    return battery.fingerprint(played, quick=True)


def _highcard_documents(seed: int = 3) -> list[Any]:
    """A seeded High Card match's documents, and whether each reads back equal."""
    rng = random.Random(seed)
    state = cr.new_game(cr.ruleset("highcard"), 3)
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    out = []
    for value in (state.rules, state, cr.record(state), cr.view(state, 1), cr.score(state)):
        text = cr.dumps(value)
        out.append([text, cr.loads(text) == value])
    return out


# ----------------------------------------------------------------------------- register_game refuses


@pytest.mark.parametrize("case", hostile.CASES, ids=[c.id for c in hostile.CASES])
def test_a_hostile_game_is_refused_and_changes_nothing(
    case: hostile.Case, played: Played, before: dict[str, Any]
) -> None:
    name = "hostile-" + case.id.replace(" ", "-").replace("_", "").lower()
    game = case.build(name)
    with registered(GAME):
        games, codes = dict(cr.GAMES), dict(cr.ERROR_CODES)
        state_attributes = battery.attribute_names(cr.State)
        rules_attributes = battery.attribute_names(cr.Rules)
        highcard = _highcard_documents()
        with pytest.raises(case.error) as refused:
            _refused(game)
        assert str(refused.value).startswith(case.message.format(name=name)), str(refused.value)
        # all or nothing: a refused game leaves nothing behind, and High Card is as it was
        assert dict(cr.GAMES) == games
        assert dict(cr.ERROR_CODES) == codes
        assert battery.attribute_names(cr.State) == state_attributes
        assert battery.attribute_names(cr.Rules) == rules_attributes
        assert _highcard_documents() == highcard
    assert battery.fingerprint(played, quick=True) == before


def _refused(game: cr.Game[Any]) -> None:
    """Register a game that must be refused; if it is accepted, unregister it again and fail."""
    cr.register_game(game)
    unregister_game(game.name)
    pytest.fail(f"the {game.name} game was accepted")


def test_the_issue_examples_no_longer_break_every_game(played: Played) -> None:
    """The issue's examples: a built-in tag reused, a trick annotation naming nothing, a loose
    result class, a reading named `__len__`. Each used to be accepted, and then broke documents
    and `bool(state)` of every game."""
    state = played["catastrophe"][1]
    reveal = cr.dumps(cr.view(state, 0))  # an honest document with "reveal" events
    assert '"type":"reveal"' in reveal
    games = (
        hostile.game("tag-clash-again", events=(hostile.FakeReveal,)),
        hostile.game("bad-trick-again", trick_type=hostile.BadTrick),
        hostile.game("loose-result", result_type=hostile.LooseResult),
        hostile.game("lenny", state_type=hostile.state_class("lenny", __len__=lambda self: 0)),
    )
    accepted = []
    for game in games:
        try:
            cr.register_game(game)
            accepted.append(game.name)
        except (TypeError, ValueError):
            pass
    try:
        assert cr.loads(reveal) == cr.view(state, 0)
        assert cr.loads(cr.dumps(cr.ruleset("agurk"))) == cr.ruleset("agurk")
        assert bool(state)
    finally:
        for name in accepted:
            unregister_game(name)
    assert accepted == []


def test_the_full_battery_after_every_hostile_game(played: Played) -> None:
    expected = battery.fingerprint(played)
    for case in hostile.CASES:
        with pytest.raises(case.error):
            _refused(case.build("hostile-again"))
    assert battery.fingerprint(played) == expected


def test_registering_twice_and_twins() -> None:
    with registered(GAME):
        assert cr.register_game(GAME) is GAME  # the same object again: nothing happens
        with pytest.raises(ValueError, match=r"^a game named 'highcard' is already registered"):
            cr.register_game(HighCardGame())  # an equal twin is another game of the same name
        assert cr.GAMES["highcard"] is GAME


@pytest.mark.parametrize("name", ["ladder", "catastrophe"])
def test_the_built_in_games_cannot_be_unregistered(name: str, played: Played, before: dict[str, Any]) -> None:
    game = cr.GAMES[name]
    with pytest.raises(ValueError, match=f"^the {name} game is part of cucumber_rules"):
        unregister_game(name)
    assert cr.GAMES[name] is game
    assert battery.fingerprint(played, quick=True) == before


# ----------------------------------------------------------------------------- unregister_game undoes


def _shade(state: cr.State) -> int:
    return len(state.players)


def _shaded(state: cr.State) -> Any:
    """The reading `shade` of a state (of a game whose state class has it)."""
    return state.shade  # type: ignore[attr-defined]


def test_unregister_leaves_the_process_as_it_was(played: Played, before: dict[str, Any]) -> None:
    state_attributes = battery.attribute_names(cr.State)
    rules_attributes = battery.attribute_names(cr.Rules)
    shade = property(_shade)
    one = hostile.game(
        "shade-one", state_type=hostile.state_class("one", shade=shade), error_codes={"shade-code": "x"}
    )
    two = hostile.game("shade-two", state_type=hostile.state_class("two", shade=shade))
    agurk = played["agurk"][1]
    with registered(one):
        with registered(two):  # two games' states may read the same name, each its own way
            assert _shaded(cr.new_game(cr.ruleset("shade-two"), 4)) == 4
            assert battery.attribute_names(cr.State) == state_attributes  # neither added it to State
        assert _shaded(cr.new_game(cr.ruleset("shade-one"), 3)) == 3
        assert type(cr.new_game(cr.ruleset("shade-one"), 3)) is one.state_type
        with pytest.raises(AttributeError, match="'LadderState' object has no attribute 'shade'"):
            _shaded(agurk)
        assert "shade-code" in cr.ERROR_CODES
        with pytest.raises(AttributeError, match="'LadderRules' object has no attribute 'round_count'"):
            _ = agurk.rules.round_count
        assert battery.attribute_names(cr.State) == state_attributes
        assert battery.attribute_names(cr.Rules) == rules_attributes
    assert battery.attribute_names(cr.State) == state_attributes
    assert battery.attribute_names(cr.Rules) == rules_attributes
    assert not hasattr(agurk, "shade")
    assert "shade-code" not in cr.ERROR_CODES
    with pytest.raises(AttributeError, match="'LadderRules' object has no attribute 'round_count'"):
        _ = agurk.rules.round_count
    assert battery.fingerprint(played, quick=True) == before


@attrs.frozen(kw_only=True)
class _ColourRules(HighCardRules):
    """High Card with options of types the converter reads and the schemas must describe too."""

    game = "colour"
    colour: typing.Literal["red", "blue"] = cr.option("red", meaning="the colour of the backs")
    corner: tuple[int, str] = cr.option((1, "a"), meaning="a number and a letter")


def test_an_option_of_any_type_the_converter_reads_has_a_schema() -> None:
    """A `Literal` option used to register and then break the schemas of every game (and so the
    reference server); a `tuple[int, str]` one got a schema its own documents failed."""
    colour = hostile.game("colour", _ColourRules)
    with registered(colour):
        rules = cr.ruleset("colour")
        assert cr.loads(cr.dumps(rules)) == rules
        for game in (None, "colour"):
            checker = jsonschema.Draft202012Validator(schema.json_schema("rules", game))
            assert list(checker.iter_errors(json.loads(cr.dumps(rules)))) == []
            for wrong in ({"colour": "green"}, {"corner": [1, 2]}, {"corner": [1, "a", "b"]}):
                assert not checker.is_valid(json.loads(cr.dumps(rules)) | wrong)
        options = schema.json_schema("rules", "colour")["properties"]
        assert options["colour"]["enum"] == ["red", "blue"]
        assert options["corner"]["prefixItems"] == [{"type": "integer"}, {"type": "string"}]
        assert "colour/rules.json" in schema.schema_files()
        server = pytest.importorskip("cucumber_rules.server")
        server.create_app()  # the server builds every game's schemas when it starts


@attrs.frozen(kw_only=True)
class _ClashRules(HighCardRules):
    """High Card with options named like built-in ones, of other types and choices."""

    game = "clash"
    follow: int = cr.option(1, meaning="how many tricks a player must follow suit in", choices=(1, 2, 3))
    hand_count: str = cr.option("few", meaning="how long a match is", choices=("few", "many"))


def test_options_belong_to_their_game() -> None:
    """Issue 45: a plug-in option with a built-in's name (`follow`, `hand_count` of another type) was
    described with the built-in's type and choices in `OPTIONS`, the plug-in's schemas and the docs."""
    from typer.testing import CliRunner

    from cucumber_rules.cli import app
    from cucumber_rules.options import option_definitions

    clash = hostile.game("clash", _ClashRules)
    with registered(clash):
        own = clash.options
        assert (own["follow"].type, own["follow"].choices, own["follow"].games) == (
            "int",
            (1, 2, 3),
            ("clash",),
        )
        assert (own["hand_count"].type, own["hand_count"].choices) == ("str", ("few", "many"))
        assert cr.game_of(cr.ruleset("clash")).options is own
        # the built-in games' own tables, and OPTIONS, are as they were
        assert cr.GAMES["ladder"].options["follow"].choices == ("optional-lowest", "forced-lowest")
        assert cr.OPTIONS["follow"] == cr.GAMES["ladder"].options["follow"]
        assert (cr.OPTIONS["hand_count"].type, cr.OPTIONS["hand_count"].games) == ("int", ("catastrophe",))
        assert cr.OPTIONS["hand_size"].games == ("ladder", "catastrophe", "clash")  # (defined alike)
        assert [(o.name, o.games) for o in option_definitions() if o.name == "follow"] == [
            ("follow", ("ladder",)),
            ("follow", ("clash",)),
        ]
        # the validation, the JSON Schemas and the command line describe the game's own
        with pytest.raises(cr.InvalidRulesError, match="follow must be int, not str 'forced-lowest'"):
            cr.ruleset("clash", follow="forced-lowest")
        with pytest.raises(cr.InvalidRulesError, match="follow must be one of 1, 2, 3, not 4"):
            cr.ruleset("clash", follow=4)
        rules = cr.ruleset("clash", follow=3, hand_count="many")
        assert cr.loads(cr.dumps(rules)) == rules
        props = schema.json_schema("rules", "clash")["properties"]
        assert props["follow"] == {
            "description": "how many tricks a player must follow suit in",
            "type": "integer",
            "enum": [1, 2, 3],
        }
        assert props["hand_count"]["enum"] == ["few", "many"]
        assert schema.json_schema("rules", "ladder")["properties"]["follow"]["enum"] == [
            "optional-lowest",
            "forced-lowest",
        ]
        checker = jsonschema.Draft202012Validator(schema.json_schema("rules"))
        assert checker.is_valid(json.loads(cr.dumps(rules)))
        shown = CliRunner().invoke(app, ["rules", "clash"]).output
        assert "how many tricks a player must follow suit in" in shown, shown
        listed = CliRunner().invoke(app, ["rules"]).output
        assert "follow (clash)" in listed, listed
        assert "follow (ladder)" in listed, listed
    assert [o.name for o in option_definitions()].count("follow") == 1


def test_a_subclass_of_another_games_rules_never_plays_as_that_game() -> None:
    """A plug-in's rules class may derive from another game's (every hostile game's derives from
    High Card's). Neither before its game is registered nor after it is unregistered do its rules
    and states find the parent's game: they used to play on as High Card (or as Catastrophe)."""
    shadow = hostile.game("shadow")
    assert issubclass(shadow.rules_type, type(GAME.presets["highcard"]))
    with registered(GAME):
        with pytest.raises(LookupError, match="the shadow game is not registered"):
            cr.game_of(shadow.presets["shadow"])  # not yet
        with registered(shadow):
            state = cr.new_game(cr.ruleset("shadow"), 3)
            state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
            assert cr.game_of(state) is shadow
        assert cr.game_of(cr.ruleset("highcard")) is GAME  # the parent's game plays on as itself
        with pytest.raises(LookupError, match="the shadow game is not registered"):
            cr.game_of(state)
        with pytest.raises(LookupError, match="not registered"):
            cr.legal_moves(state)
        with pytest.raises(LookupError, match="not registered"):
            cr.apply(state, cr.Play(0, state.hands[0][0]))
        with registered(shadow):  # and it can come back
            assert cr.game_of(state) is shadow


def test_a_reader_in_another_thread_never_sees_a_refused_game(played: Played) -> None:
    """While hostile games are refused one after another, a thread using the built-in games sees no change."""
    final = played["catastrophe"][1]
    view = cr.view(final, 0)
    text, rules = cr.dumps(view), cr.dumps(cr.ruleset("agurk"))
    stop, seen = threading.Event(), []

    def read() -> None:
        while not stop.is_set():
            try:
                assert cr.loads(text) == view
                assert cr.loads(rules) == cr.ruleset("agurk")
                assert bool(final)
                assert list(cr.GAMES) == ["ladder", "catastrophe"]
            except BaseException as error:  # (every failure is what this test looks for)
                seen.append(f"{type(error).__name__}: {error}")
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    reader = threading.Thread(target=read)
    reader.start()
    try:
        for _ in range(2):
            for case in hostile.CASES:
                with pytest.raises(case.error):
                    _refused(case.build("hostile-meanwhile"))
    finally:
        stop.set()
        reader.join()
        sys.setswitchinterval(interval)
    assert seen == []


# ----------------------------------------------------------------------------- entry points


def _site(tmp_path: Path, entries: dict[str, str]) -> Path:
    """A folder holding a package's metadata that names `entries` in the entry-point group."""
    site = tmp_path / "site"
    info = site / "cucumber_hostile-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cucumber-hostile\nVersion: 1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[{cr.games.ENTRY_POINT_GROUP}]\n{lines}")
    return site


def _run(site: Path | None, code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run Python code in a child process with `site` (if any) and the tests' plug-ins on its path."""
    paths = [str(site)] if site is not None else []
    paths += [str(TESTS), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    env.pop("CUCUMBER_INTERRUPTED", None)
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=TESTS,
    )


def _warnings(stderr: str) -> list[str]:
    return [
        line.split("RuntimeWarning: ", 1)[1] for line in stderr.splitlines() if "RuntimeWarning: " in line
    ]


HOSTILE_ENTRIES = {
    "exits": "plugins.exits:GAME",
    "raises": "plugins.raises:GAME",
    "leftover": "plugins.leftover:GAME",
    "tag-clash": "plugins.hostile:TAG_CLASH",
    "bad-trick": "plugins.hostile:BAD_TRICK",
    "not-a-game": "plugins.hostile:NOT_A_GAME",
    "nothing": "plugins.hostile:make_nothing",
    "missing": "plugins.no_such_module:GAME",
    "saboteur": "plugins.saboteur:GAME",  # unregisters a built-in game
}
"""Entry points that must each be skipped with a warning, leaving the built-in games as they were."""

BATTERY = (
    "import json; from plugins import battery; print(json.dumps(battery.fingerprint(battery.matches())))"
)


def test_hostile_entry_points_are_skipped_with_warnings_and_change_nothing(tmp_path: Path) -> None:
    clean = _run(None, BATTERY)
    assert clean.returncode == 0, clean.stderr
    result = _run(_site(tmp_path, HOSTILE_ENTRIES), BATTERY)
    assert result.returncode == 0, result.stderr  # `sys.exit(3)` in a plug-in did not end the host
    assert json.loads(result.stdout) == json.loads(clean.stdout)
    found = _warnings(result.stderr)
    for name in HOSTILE_ENTRIES:
        assert any(w.startswith(f"cucumber_rules: the game plugin {name!r} (") for w in found), (name, found)
    said = "\n".join(found)
    assert "SystemExit: 3" in said
    assert "tag 'revive' of FakeRevive is taken by the ladder game" in said
    assert "the annotations of BadTrick (trick_type) failed: NameError" in said
    assert "it names int 42, not a Game" in said
    assert "it names NoneType None, not a Game" in said
    assert "ValueError: the ladder game is part of cucumber_rules: it cannot be unregistered" in said
    assert len(found) == len(HOSTILE_ENTRIES)


def test_a_plugin_calling_sys_exit_at_import_becomes_a_warning(tmp_path: Path) -> None:
    site = _site(tmp_path, {"exits": "plugins.exits:GAME"})
    result = _run(site, "import cucumber_rules as cr; print(cr.ruleset('agurk').name, list(cr.GAMES))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "agurk ['ladder', 'catastrophe']"
    (warning,) = _warnings(result.stderr)
    assert warning == (
        "cucumber_rules: the game plugin 'exits' (plugins.exits:GAME) failed to load and was skipped: "
        "SystemExit: 3"
    )


def test_good_plugins_load_beside_bad_ones_and_undone_work_is_undone(tmp_path: Path) -> None:
    entries = {
        "highcard": "plugins.highcard:GAME",
        "twin": "plugins.highcard:HighCardGame",  # another High Card: refused, the first one stays
        "leftover": "plugins.leftover:GAME",  # registers a game, then raises: the game goes too
        "usurper": "plugins.usurper:GAME",  # unregisters High Card, then names a game: undone
        "reentrant": "plugins.reentrant:GAME",  # reads the registry while the plug-ins load
        "tag-clash": "plugins.hostile:TAG_CLASH",
    }
    code = """
        import json, random
        import cucumber_rules as cr
        rules = cr.ruleset("highcard")
        from plugins.reentrant import SEEN
        state = cr.new_game(rules, 3)
        rng = random.Random(1)
        while not state.is_over:
            moves = cr.legal_moves(state)
            state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
        assert cr.loads(cr.dumps(state)) == state
        print(json.dumps([list(cr.GAMES), SEEN, cr.ruleset("reentrant").name]))
    """
    result = _run(_site(tmp_path, entries), code)
    assert result.returncode == 0, result.stderr
    games, seen, reentrant = json.loads(result.stdout)
    assert games == ["ladder", "catastrophe", "highcard", "reentrant"]
    assert seen == "agurk"  # the plug-in's own read of the registry, while loading, did not hang
    assert reentrant == "reentrant"
    skipped = sorted(w.split("'")[1] for w in _warnings(result.stderr))
    assert skipped == ["leftover", "tag-clash", "twin", "usurper"]


def test_readers_wait_for_a_slow_plugin(tmp_path: Path) -> None:
    """While one thread loads a slow plug-in, another thread's `ruleset` of its preset waits for it."""
    code = """
        import sys, threading, time
        import cucumber_rules as cr
        loader = threading.Thread(target=lambda: list(cr.GAMES))
        loader.start()
        while "plugins.slow" not in sys.modules:  # the loader is inside the plug-in's slow import
            time.sleep(0.001)
        try:
            print(cr.ruleset("slow").name)
        except Exception as error:
            print(type(error).__name__, error)
        loader.join()
    """
    result = _run(_site(tmp_path, {"slow": "plugins.slow:GAME"}), code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "slow"


def test_an_interrupted_loading_propagates_and_the_next_read_loads_again(tmp_path: Path) -> None:
    code = """
        import cucumber_rules as cr
        try:
            cr.ruleset("agurk")
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted")
        print(cr.ruleset("interrupts").name, list(cr.GAMES))
    """
    entries = {
        "highcard": "plugins.highcard:HighCardGame",  # (a class: each load would make a new game)
        "exits": "plugins.exits:GAME",
        "interrupts": "plugins.interrupts:GAME",
    }
    result = _run(_site(tmp_path, entries), code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n", 1) == [
        "interrupted",
        "interrupts ['ladder', 'catastrophe', 'highcard', 'interrupts']\n",
    ]
    (warning,) = _warnings(result.stderr)  # the entry points loaded before the interrupt load once
    assert "'exits'" in warning


def test_warnings_as_errors_lose_no_plugin(tmp_path: Path) -> None:
    """A warnings filter that raises reaches the first reader, after every plug-in has loaded."""
    code = """
        import warnings
        import cucumber_rules as cr
        warnings.simplefilter("error")
        try:
            list(cr.GAMES)
        except RuntimeWarning as warning:
            print("raised:", str(warning).split(":")[1].strip())
        print(list(cr.GAMES))
    """
    site = _site(tmp_path, {"exits": "plugins.exits:GAME", "highcard": "plugins.highcard:GAME"})
    result = _run(site, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "raised: the game plugin 'exits' (plugins.exits",
        "['ladder', 'catastrophe', 'highcard']",
    ]


@pytest.fixture(autouse=True)
def _no_leftovers() -> Iterator[None]:
    games = dict(cr.GAMES)
    yield
    assert dict(cr.GAMES) == games, "a test left a game registered"


def test_check_game_names_a_list_kept_in_a_state_as_the_shareable_invariant() -> None:
    # A plug-in that keeps a list in `State.extra`: check_game reports the invariant (it raised a bare
    # "TypeError: unhashable type: 'list'" while it fingerprinted the state).
    import attrs

    base = hostile.game("leaky")

    class LeakyGame(type(base)):  # type: ignore[misc]
        def play(self, state: cr.State, play: cr.Play) -> cr.State:
            after: cr.State = super().play(state, play)
            return attrs.evolve(after, extra=["seen", play.seat]) if after.trick else after

    with registered(LeakyGame()), pytest.raises(AssertionError, match=r"invariant 'shareable' broke: .*list"):
        check_game(cr.ruleset("leaky"), matches=1, seed=1, players=3)


def test_public_value_classes_keep_tuples_of_what_they_are_given() -> None:
    play = cr.Play(0, "3C")
    assert type(cr.Trick(0, [play], 0).plays) is tuple
    result = cr.RoundResult(1, [0, 1], [0, 1])
    assert type(result.points) is tuple
    assert type(result.totals) is tuple
    hash(result)
