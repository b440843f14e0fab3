"""A third game, defined outside `src/` (tests/plugins/highcard.py), runs through the whole library.

If this needs a change in `src/`, the `Game` seam is in the wrong place.
"""

from __future__ import annotations

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
from cucumber_rules.bots import HeuristicBot, RandomBot
from cucumber_rules.narrate import narrate
from cucumber_rules.simulate import play_match, simulate
from cucumber_rules.testing import check_game, check_state, registered
from plugins.highcard import GAME, HighCardGame, HighCardRules

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
        assert cr.OPTIONS["rounds"].games == ("highcard",)
        assert cr.ruleset("High Card").rounds == 5
    assert "highcard" not in cr.GAMES
    assert "highcard" not in cr.RULESETS
    with pytest.raises(cr.InvalidRulesError):
        cr.ruleset("highcard")


def test_it_passes_check_game(highcard: cr.Rules) -> None:
    report = check_game(highcard, matches=6, seed=3)
    assert report.matches == 6
    assert report.rounds == 6 * 5
    check_game(cr.ruleset("highcard", rounds=2), matches=3, players=[2, 6])


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
    final = _played(cr.ruleset("highcard", rounds=3), players=2, seed=4)
    totals = cr.score(final).totals
    assert final.match.winners == tuple(s for s in range(2) if totals[s] == min(totals))


def test_views_json_records_and_replays(highcard: cr.Rules) -> None:
    state = _played(highcard)
    for seat in (None, 0, 1, 2):
        v = cr.view(state, seat)
        assert type(v) is cr.PlayerView
        assert cr.loads(cr.dumps(v)) == v
    assert cr.loads(cr.dumps(state), cr.State) == state
    assert cr.loads(cr.dumps(cr.score(state))) == cr.score(state)
    assert cr.loads(cr.dumps(highcard)) == highcard
    assert json.loads(cr.dumps(highcard))["game"] == "highcard"
    rec = cr.record(state)
    assert cr.replay(cr.loads(cr.dumps(rec), cr.Record)) == state
    check_state(state)


def test_bots_narration_and_simulation(highcard: cr.Rules) -> None:
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
    code = "import cucumber_rules as cr; print(list(cr.GAMES), cr.ruleset('highcard').rounds)"
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
    assert "rounds" in rules.stdout


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
            {"error_codes": {"hc-own": "x"}, "state_attributes": {"hands": len}},
            "highcard-clash: a state reading cannot be named 'hands': State has it already",
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
