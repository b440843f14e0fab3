"""A third game, defined outside `src/` (tests/plugins/highcard.py), runs through the whole library.

If this needs a change in `src/`, the `Game` seam is in the wrong place. High Card is written on
the 1.0 contract: its option is `round_count`, its states are built by the trick toolkit
(`cucumber_rules.tricks`), its bot is a `Bots` group, and it uses no private name of the library.
"""

from __future__ import annotations

import ast
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.bots import Bots, HeuristicBot, RandomBot
from cucumber_rules.narrate import narrate
from cucumber_rules.simulate import play_match, simulate
from cucumber_rules.testing import check_game, check_state, registered
from plugins.highcard import GAME, HighCardBots, HighCardGame, HighCardRules

PLUGINS = Path(__file__).resolve().parent / "plugins"


@pytest.fixture
def highcard() -> Iterator[cr.Rules]:
    with registered(GAME):
        yield cr.ruleset("highcard")


def _played(rules: cr.Rules, players: int = 3, seed: int = 1) -> cr.State:
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


def test_registered_for_the_block_only() -> None:
    assert "highcard" not in cr.GAMES
    with registered(GAME):
        assert cr.GAMES["highcard"] is GAME
        assert "highcard" in cr.RULESETS
        assert cr.OPTIONS["round_count"].games == ("highcard",)
        assert cr.ruleset("High Card").round_count == 5
        assert cr.game_of(cr.ruleset("highcard")) is GAME
        assert not hasattr(cr.Rules, "round_count")  # the option is High Card's rules class's alone
    assert "highcard" not in cr.GAMES
    assert "highcard" not in cr.RULESETS
    assert "round_count" not in cr.OPTIONS
    with pytest.raises(cr.InvalidRulesError):
        cr.ruleset("highcard")


def test_it_passes_check_game(highcard: cr.Rules) -> None:
    report = check_game(highcard, matches=6, seed=3)
    assert report.matches == 6
    assert report.rounds == 6 * 5
    check_game(cr.ruleset("highcard", round_count=2), matches=3, players=[2, 6])


def test_the_highest_card_pays_and_the_lowest_total_wins(highcard: cr.Rules) -> None:
    state = cr.new_game(highcard, ["Ann", "Bo"])
    state = cr.apply(state, cr.Deal(hands=[["7C"], ["KD"]]))
    with pytest.raises(cr.IllegalMoveError) as refused:
        cr.apply(state, cr.Play(1, "KD"))
    assert refused.value.code == "not-your-turn"
    state = cr.apply_all(state, [cr.Play(0, "7C"), cr.Play(1, "KD")])
    assert cr.score(state).totals == (0, 13)
    assert state.to_act == cr.CHANCE
    assert state.round is not None
    assert state.round.tricks == (cr.Trick(0, (cr.Play(0, "7C"), cr.Play(1, "KD")), 1),)
    final = _played(cr.ruleset("highcard", round_count=3), players=2, seed=4)
    totals = cr.score(final).totals
    assert final.match.rounds == 3
    assert final.match.winners == tuple(s for s in range(2) if totals[s] == min(totals))


def test_equal_ranks_the_later_card_takes_and_the_lead_passes_round_by_round(highcard: cr.Rules) -> None:
    state = cr.new_game(highcard, ["Ann", "Bo", "Cy"])
    state = cr.apply_all(state, [cr.Deal(hands=[["9C"], ["9D"], ["4H"]]), *_plays(state, "9C 9D 4H", 0)])
    assert cr.score(state).round_points == ((0, 9, 0),)  # the later nine takes the trick
    assert state.match.dealer == 2  # the seat before the round's starter
    state = cr.apply(state, cr.Deal(hands=[["2C"], ["3C"], ["AS"]]))
    assert state.to_act == 1  # round 2: the seat after round 1's starter starts
    assert state.match.dealer == 0
    state = cr.apply_all(state, _plays(state, "3C AS 2C", 1))
    assert cr.score(state).round_points == ((0, 9, 0), (0, 0, 14))
    assert cr.score(state).totals == (0, 9, 14)


def _plays(state: cr.State, cards: str, first: int) -> list[cr.Action]:
    n = state.num_players
    return [cr.Play((first + i) % n, c) for i, c in enumerate(cards.split())]


def test_the_trick_toolkit_keeps_the_engine_layout(highcard: cr.Rules) -> None:
    # High Card builds every state with `cucumber_rules.tricks`: a played card stays in `held` until
    # the trick ends (`hand` leaves it out), the finished trick joins the table and the history, the
    # taker leads, and a round scored waits for the next deal (or ends the match).
    state = cr.apply(cr.new_game(highcard, 3), cr.Deal(hands=[["5S"], ["QH"], ["2D"]]))
    assert type(state) is GAME.state_type is cr.State
    assert state.table is not None
    assert (state.table.seats, state.table.leader, state.to_act) == ((0, 1, 2), 0, 0)
    one = cr.apply(state, cr.Play(0, "5S"))
    assert one.held is state.held  # the hands at the trick's start, shared until it ends
    assert one.hand(0) == ()
    assert one.trick == (cr.Play(0, "5S"),)
    assert one.best == cr.Play(0, "5S")
    assert one.to_act == 1
    two = cr.apply(one, cr.Play(1, "QH"))
    assert two.best == cr.Play(1, "QH")
    done = cr.apply(two, cr.Play(2, "2D"))
    assert done.held == ((), (), ())
    assert done.trick == ()
    assert done.best is None
    assert done.table is not None
    assert done.table.leader == 1  # the taker
    assert done.table.tricks == (cr.Trick(0, (cr.Play(0, "5S"), cr.Play(1, "QH"), cr.Play(2, "2D")), 1),)
    assert done.history == state.history.extend(done.table.tricks[0].plays)
    assert done.to_act == cr.CHANCE
    assert done.match.rounds == 1
    assert done.match.results[-1] == cr.RoundResult(1, (0, 12, 0), (0, 12, 0))
    last = _played(cr.ruleset("highcard", round_count=1), players=3, seed=5)
    assert last.to_act is None
    assert last.is_over


def test_high_card_uses_only_the_public_contract() -> None:
    # No private name of the library, no `State(...)` laid out by hand, and shorter than its 0.2 self.
    tree = ast.parse((PLUGINS / "highcard.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cucumber_rules"):
            assert not any(part.startswith("_") for part in (node.module or "").split(".")), node.module
            assert not any(alias.name.startswith("_") for alias in node.names), ast.dump(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cr":
            assert not node.attr.startswith("_"), node.attr
            assert node.attr != "State" or not _called(tree, node), "cr.State(...) laid out by hand"
    old = (PLUGINS / "highcard_v02.py").read_text().count("\n")
    assert (PLUGINS / "highcard.py").read_text().count("\n") < old


def _called(tree: ast.AST, func: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and n.func is func for n in ast.walk(tree))


def test_views_json_records_and_replays(highcard: cr.Rules) -> None:
    state = _played(highcard)
    for seat in (None, 0, 1, 2):
        v = cr.view(state, seat)
        assert type(v) is cr.PlayerView
        assert v.round_points == cr.score(state).round_points
        assert cr.loads(cr.dumps(v)) == v
    assert cr.loads(cr.dumps(state), cr.State) == state
    assert cr.loads(cr.dumps(cr.score(state))) == cr.score(state)
    assert cr.loads(cr.dumps(highcard)) == highcard
    assert json.loads(cr.dumps(highcard))["game"] == "highcard"
    rec = cr.record(state)
    assert cr.replay(cr.loads(cr.dumps(rec), cr.Record)) == state
    check_state(state)


def test_bots_narration_and_simulation(highcard: cr.Rules) -> None:
    assert isinstance(GAME.bots, HighCardBots)
    assert isinstance(GAME.bots, Bots)
    state = cr.apply(cr.new_game(highcard, 2), cr.Deal(hands=[["8H"], ["3S"]]))
    assert GAME.bots.heuristic(cr.view(state, 0), random.Random(1)) == cr.Play(0, "8H")
    assert HeuristicBot().choose(cr.view(state, 0), random.Random(1)) == cr.Play(0, "8H")
    final = play_match(highcard, [HeuristicBot(), RandomBot(), RandomBot()], seed=2)
    assert final.is_over
    state = cr.new_game(highcard, ["Ann", "Bo"])
    after = cr.apply(state, cr.Deal(hands=[["2C"], ["9S"]]))
    assert narrate(state, cr.Deal(hands=[["2C"], ["9S"]]), after) == ["Round 1: Ann leads"]
    done = cr.apply_all(after, [cr.Play(0, "2C"), cr.Play(1, "9S")])
    lines = narrate(cr.apply(after, cr.Play(0, "2C")), cr.Play(1, "9S"), done)
    assert lines[0] == "  trick 1: Ann 2C, Bo 9S → Bo takes it"
    assert lines[-1] == "  scores: Ann 0 · Bo 9"
    result = simulate(highcard, players=3, bots=["heuristic", "random"], matches=4, seed=1)
    assert len(result.matches) == 4


def _entry_point_dir(tmp_path: Path) -> Path:
    """A folder that installs High Card the way a package would: an entry point in its metadata."""
    site = tmp_path / "site"
    info = site / "cucumber_highcard-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cucumber-highcard\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[cucumber_rules.games]\nhighcard = highcard:GAME\n")
    (site / "highcard.py").write_text((PLUGINS / "highcard.py").read_text())
    return site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_an_installed_plugin_is_found_through_its_entry_point(tmp_path: Path) -> None:
    site = _entry_point_dir(tmp_path)
    code = "import cucumber_rules as cr; print(list(cr.GAMES), cr.ruleset('highcard').round_count)"
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['ladder', 'catastrophe', 'highcard'] 5"


def test_the_command_line_plays_the_plugin(tmp_path: Path) -> None:
    site = _entry_point_dir(tmp_path)
    result = _run(
        site, "-m", "cucumber_rules", "demo", "--preset", "highcard", "--players", "3", "--seed", "2"
    )
    assert result.returncode == 0, result.stderr
    assert "highcard" in result.stdout
    assert "Round 5: " in result.stdout
    assert "Winner" in result.stdout or "Shared win" in result.stdout
    rules = _run(site, "-m", "cucumber_rules", "rules", "highcard")
    assert rules.returncode == 0, rules.stderr
    assert "round_count" in rules.stdout


def test_a_broken_plugin_warns_and_the_library_still_works(tmp_path: Path) -> None:
    site = _entry_point_dir(tmp_path)
    (site / "highcard.py").write_text("raise RuntimeError('broken on purpose')\n")
    result = _run(site, "-W", "default", "-c", "import cucumber_rules as cr; print(len(cr.RULESETS))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "5"
    assert "the game plugin 'highcard'" in result.stderr
    assert "broken on purpose" in result.stderr


def test_the_rules_class_is_a_rules(highcard: cr.Rules) -> None:
    assert isinstance(highcard, HighCardRules)
    assert isinstance(highcard, cr.Rules)
    with pytest.raises(cr.InvalidRulesError) as bad:
        cr.ruleset("highcard", hand_size=2)
    assert bad.value.option == "hand_size"
    with pytest.raises(cr.InvalidRulesError, match="does not apply to the highcard game"):
        cr.ruleset("highcard", threshold=3)


@attrs.frozen(kw_only=True)
class _ClashRules(HighCardRules):
    game = "highcard-clash"


class _Clash(HighCardGame):
    """High Card under another name, for the registry's refusals."""

    name = "highcard-clash"
    rules_type = _ClashRules
    presets: ClassVar = {}
    aliases: ClassVar = {}
    preset_titles: ClassVar = {}


_HIDING = type("HidingState", (cr.State,), {"__slots__": (), "hands": property(len)})
"""A state class whose reading would hide `State.hands`."""


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "highcard"}, "a game named 'highcard' is already registered"),
        ({"aliases": {"agurk": "x"}}, "highcard-clash: preset name 'agurk' is taken by the ladder game"),
        (
            {"error_codes": {"must-follow": "x"}},
            "highcard-clash: error code 'must-follow' is taken by the ladder game",
        ),
        (
            {"error_codes": {"not-in-hand": "x"}},
            "highcard-clash: error code 'not-in-hand' is taken by the core codes",
        ),
        (
            {"error_codes": {"hc-own": "x"}, "state_type": _HIDING},
            "highcard-clash: a state reading cannot be named 'hands'",
        ),
    ],
)
def test_a_refused_game_leaves_the_registry_as_it_was(changes: dict[str, Any], message: str) -> None:
    game = type("Refused", (_Clash,), changes)()
    codes, games = dict(cr.ERROR_CODES), dict(cr.GAMES)
    with registered(GAME), pytest.raises(ValueError, match=r"^" + re.escape(message)):
        cr.register_game(game)
    assert dict(cr.ERROR_CODES) == codes  # no code of the refused game stays behind
    assert dict(cr.GAMES) == games
