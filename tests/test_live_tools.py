"""The tools behind the live documentation, tested in CPython.

`tools/cucumber_live.py` runs in the reader's browser (Pyodide) exactly as here;
`tools/docs_scenarios.py` and `tools/docs_live.py` write the live examples at build time.
"""

from __future__ import annotations

import doctest
import importlib
import os
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

import cucumber_rules as cr

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

import cucumber_live  # noqa: E402
import docs_live  # noqa: E402
import docs_scenarios  # noqa: E402
import mkdocs_live  # noqa: E402
from docs_scenarios import Step  # noqa: E402


@pytest.mark.parametrize(
    "name", ["cucumber_live", "docs_scenarios", "docs_live", "mkdocs_live", "readme_image"]
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


# --- run: the examples' runner -----------------------------------------------------------------------


def test_run_collects_output_pictures_and_errors() -> None:
    code = "\n".join(
        [
            "import cucumber_rules as cr",
            'state = cr.new_game(cr.ruleset("agurk", hand_size=1), players=["Ann", "Bo", "Cy"])',
            'for action in [cr.Deal(hands=[["KC"], ["KD"], ["2H"]]), cr.Play(0, "KC"), cr.Play(1, "KD"),',
            '               cr.Play(2, "2H")]:',
            "    state = cr.apply(state, action)",
            "    show(state, action)",
            "show(state, seat=2)",
            'print("totals", cr.score(state).totals)',
        ]
    )
    result = cucumber_live.run(code)
    assert result["error"] is None
    assert result["output"] == "totals (0, 13, 0)\n"
    captions = [f["caption"] for f in result["frames"]]
    assert captions[:3] == ["the deal", "Ann plays KC", "Bo plays KD"]
    # The step that ends the round carries the narration of the trick and the scores.
    assert captions[3].startswith("Cy plays 2H\ntrick 1: Ann KC, Bo KD, Cy 2H → Bo takes the last trick")
    assert "Bo pays 13 for KD" in captions[3]
    # show(state) draws every hand; show(state, seat=2) only what Cy may see.
    assert 'data-card="KC"' in result["frames"][0]["svg"]
    assert "Your hand (Cy)" in result["frames"][4]["svg"]


def test_run_reports_the_readers_error_from_their_own_code() -> None:
    result = cucumber_live.run("import cucumber_rules as cr\ncr.card('1X')\n")
    assert result["error"] is not None
    lines = result["error"].splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert 'File "<example>", line 2' in lines[1]
    assert lines[-1].startswith("cucumber_rules.errors.InvalidNotationError:")
    syntax = cucumber_live.run("print(")
    assert syntax["error"] is not None
    assert "SyntaxError" in syntax["error"]


def test_run_shares_a_namespace_between_the_blocks_of_a_session() -> None:
    namespace: dict[str, object] = {}
    assert cucumber_live.run("x = 6 * 7", namespace)["error"] is None
    assert cucumber_live.run("print(x)", namespace)["output"] == "42\n"
    assert cucumber_live.run("print(x)")["error"] is not None  # a fresh run knows nothing of it


def test_run_keeps_a_bounded_number_of_pictures() -> None:
    code = "import cucumber_rules as cr\ns = cr.new_game(cr.ruleset('agurk'), players=3)\n"
    code += "for _ in range(450):\n    show(s)\n"
    result = cucumber_live.run(code)
    assert len(result["frames"]) == cucumber_live.MAX_FRAMES
    assert "50 more steps not drawn" in result["output"]


# --- Match: the play/ page ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(cr.RULESETS))
def test_a_match_against_the_bots_plays_to_the_end_showing_only_seat_0s_cards(preset: str) -> None:
    rules = cr.RULESETS[preset]
    players = max(rules.min_players, 3)
    match = cucumber_live.Match(preset, players=players, bots="random", seed=5)
    rng = random.Random(9)
    snapshot = match.snapshot()
    log = list(snapshot["log"])
    for _ in range(2000):
        if snapshot["over"]:
            break
        assert match.state.to_act == 0, "the reader is asked to act only on their turn"
        assert snapshot["legal"], "the reader always has a move when asked"
        visible = {str(c) for c in cr.view(match.state, 0).hand}
        v = cr.view(match.state, 0)
        visible |= {str(p.card) for p in v.trick} | {str(p.card) for t in v.tricks for p in t.plays}
        visible |= {str(c) for got in getattr(v, "captured", ()) for c in got}
        visible |= {str(c) for t in v.tricks if (c := getattr(t, "revealed", None)) is not None}
        if getattr(v, "revealed", None) is not None:
            visible.add(str(v.revealed))
        drawn = set(re.findall(r'data-card="([^"]+)"', snapshot["svg"]))
        assert drawn <= visible, f"the table shows cards seat 0 may not see: {drawn - visible}"
        choice = rng.randrange(len(snapshot["legal"]))
        snapshot = match.act(snapshot["legal"][choice]["index"])
        log += snapshot["log"]
    assert snapshot["over"], "the match should end"
    assert snapshot["status"].startswith(("You win", "Winner", "A shared win"))
    assert any(line.startswith(("Winner", "Shared win")) for line in log)


def test_a_match_is_replayed_by_its_seed_and_narrates_in_the_second_person() -> None:
    one = cucumber_live.Match("agurk", players=4, bots="heuristic", seed=3)
    two = cucumber_live.Match("agurk", players=4, bots="heuristic", seed=3)
    assert one.snapshot() == two.snapshot()
    assert one.snapshot()["log"][1] == "Round 1: Bot 3 deals, You lead"
    after = one.act(0)
    assert after["log"][0] == f"You play {one.snapshot()['legal'][0]['label']}" or after["log"][0].startswith(
        "You play"
    )
    with pytest.raises(IndexError, match="no legal action 99"):
        one.act(99)


def test_a_revival_decision_is_offered_as_buttons() -> None:
    # Seat 0 is eliminated at once (threshold 2) and may buy back in (revival): two choices, no card.
    match = cucumber_live.Match(
        "gurka", players=3, bots="random", seed=1, hand_size=1, threshold=2, revival=True
    )
    snapshot = match.snapshot()
    for _ in range(50):
        if snapshot["over"] or snapshot["legal"][0]["card"] is None:
            break
        snapshot = match.act(snapshot["legal"][-1]["index"])  # the highest card: likely to pay
    assert not snapshot["over"]
    assert [m["label"] for m in snapshot["legal"]] == ["Stay out", "Buy back in"]
    assert snapshot["status"] == "You are out: buy back in?"
    after = match.act(1)
    assert "You buy back in" in after["log"]


# --- scenarios as programs ---------------------------------------------------------------------------


def test_an_unknown_step_or_an_illegal_card_is_an_error_that_names_it() -> None:
    game = Step("Context", "a game of agurk for 3 players")
    with pytest.raises(docs_scenarios.TranslationError, match="the step 'seat 0 dances': no translation"):
        docs_scenarios.translate([game, Step("Action", "seat 0 dances")])
    deal = Step("Action", "the cards are dealt:", [["seat", "hand"], ["0", "2C"], ["1", "3C"], ["2", "4C"]])
    steps = [
        Step("Context", "a game of agurk for 3 players with hand size 1"),
        deal,
        Step("Action", "seat 1 leads 3C"),
    ]
    refused = r"the step 'seat 1 leads 3C': the engine refuses seat 1 plays 3C: .* seat 0's turn"
    with pytest.raises(docs_scenarios.TranslationError, match=refused):
        docs_scenarios.translate(steps)


def test_a_program_prints_what_the_then_steps_check() -> None:
    steps = [
        Step("Context", "a game of gurka for Ann, Bo and Cy with hand size 2"),
        Step(
            "Action",
            "the cards are dealt:",
            [["player", "hand"], ["Ann", "AS 2C"], ["Bo", "4D QD"], ["Cy", "3H KH"]],
        ),
        Step("Action", "Ann leads AS"),
        Step("Outcome", "Bo may play only 4D"),
        Step("Conjunction", 'playing QD by Bo is refused with "must-play-lowest"'),
        Step("Action", "Bo plays 4D"),
        Step("Action", "Cy plays 3H"),
        Step("Outcome", "Ann takes the trick"),
    ]
    program = docs_scenarios.translate(steps)
    assert program.state is not None
    namespace: dict[str, object] = {}
    result = cucumber_live.run(program.code, namespace)
    assert result["error"] is None
    assert namespace["state"] == program.state
    lines = result["output"].splitlines()
    assert lines[0] == "Bo may play: 4D"
    assert lines[1].startswith("Bo playing QD: [must-play-lowest]")
    assert lines[2] == "last trick: Ann AS, Bo 4D, Cy 3H -> Ann takes it"
    assert [f["caption"].splitlines()[0] for f in result["frames"]] == [
        "the deal",
        "Ann plays AS",
        "Bo plays 4D",
        "Cy plays 3H",
    ]


def test_seeded_deals_and_random_actions_are_replayed_by_the_program() -> None:
    steps = [
        Step("Context", "a game of catastrophe for 3 players with hand count 1"),
        Step("Action", "the cards are shuffled and dealt with seed 4"),
        Step("Action", "7 actions are taken at random with seed 8"),
        Step("Outcome", "the match is not over"),
    ]
    program = docs_scenarios.translate(steps)
    namespace: dict[str, object] = {}
    assert cucumber_live.run(program.code, namespace)["error"] is None
    assert namespace["state"] == program.state
    assert "random.Random(4)" in program.code
    assert "for _ in range(7):" in program.code


def test_outline_rows_fill_the_placeholders() -> None:
    scenario = {
        "steps": [{"keywordType": "Context", "text": "a game of <preset> for <n> players"}],
        "examples": [
            {
                "tableHeader": {"cells": [{"value": "preset"}, {"value": "n"}]},
                "tableBody": [{"cells": [{"value": "agurk"}, {"value": "3"}]}],
            }
        ],
    }
    (row,) = docs_live.outline_rows(scenario)
    assert row == {"preset": "agurk", "n": "3"}
    assert docs_scenarios.steps_of(scenario, [], row) == [Step("Context", "a game of agurk for 3 players")]


def test_scenario_markup_is_static_first_and_live_on_demand() -> None:
    scenario = {
        "steps": [
            {"keywordType": "Context", "text": "a game of gurka for 2 players with hand size 1"},
            {
                "keywordType": "Action",
                "text": "the cards are dealt:",
                "dataTable": {
                    "rows": [
                        {"cells": [{"value": "seat"}, {"value": "hand"}]},
                        {"cells": [{"value": "0"}, {"value": "2C"}]},
                        {"cells": [{"value": "1"}, {"value": "9S"}]},
                    ]
                },
            },
            {"keywordType": "Outcome", "text": "seat 0 may play only 2C"},
        ]
    }
    markup = "\n".join(docs_live.scenario_markup(scenario, [], "test:1"))
    assert markup.startswith('<div class="live-example live-scenario">')
    assert '<figure class="live-static"><svg' in markup
    assert "seat 0 may play: 2C" in markup  # the static output, printed at build time
    assert '<div class="live-controls" hidden>' in markup
    assert ">Run</button>" in markup
    assert '<div class="live-output" hidden></div>' in markup
    broken = {"steps": [{"keywordType": "Context", "text": "a game of agurk for 3 players"},
                        {"keywordType": "Action", "text": "seat 0 leads 2C"}]}  # fmt: skip
    with pytest.raises(docs_live.LiveExampleError, match="test:2"):
        docs_live.scenario_markup(broken, [], "test:2")


def test_live_fences_are_wrapped_and_keep_their_session() -> None:
    page = 'Text.\n\n```python exec="on" source="above" session="quick" live="on"\nx = 1 < 2\n```\n\nMore.\n'
    wrapped = docs_live.wrap_live_fences(page)
    assert '<div class="live-example live-block" markdown data-session="quick">' in wrapped
    # The code as a plain block; the build's run (without its source) in the output a Run replaces.
    assert '```python\nx = 1 < 2\n```\n\n<div class="live-static-output" markdown>' in wrapped
    assert (
        '<div class="live-static-output" markdown>\n\n```python exec="on" session="quick"\nx = 1 < 2\n```'
        in wrapped
    )
    assert 'source="above"' not in wrapped
    assert '<template class="live-source">x = 1 &lt; 2\n</template>' in wrapped
    assert wrapped.endswith("</div>\n\nMore.\n")
    assert docs_live.wrap_live_fences("```python\nx = 1\n```\n") == "```python\nx = 1\n```\n"


# --- vendoring ------------------------------------------------------------------------------------------


def test_an_unreachable_registry_fails_the_build_and_says_how_to_build_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("npm") is None:
        if os.environ.get("CI"):
            pytest.fail("npm is needed to build the docs in CI")
        pytest.skip("npm is not installed")
    from mkdocs.exceptions import PluginError

    monkeypatch.setenv("npm_config_registry", "http://127.0.0.1:9/")  # nothing listens there
    monkeypatch.setenv("npm_config_fetch_retries", "0")
    with pytest.raises(PluginError, match=r"Is the package registry reachable\? .*CUCUMBER_LIVE_DOCS=off"):
        mkdocs_live.fetch_pyodide(tmp_path)
    assert not (tmp_path / f"pyodide-{mkdocs_live.PYODIDE_VERSION}").exists(), (
        "nothing half-downloaded is kept"
    )


@pytest.mark.parametrize(
    ("value", "on"), [(None, True), ("on", True), ("off", False), ("0", False), ("no", False)]
)
def test_the_live_runtime_is_left_out_only_when_asked(
    value: str | None, on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(mkdocs_live.SWITCH, raising=False)
    else:
        monkeypatch.setenv(mkdocs_live.SWITCH, value)
    assert mkdocs_live.enabled() is on


def test_the_wheel_requirements_are_read_from_its_metadata(tmp_path: Path) -> None:
    import zipfile

    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            "demo-1.0.dist-info/METADATA", "Name: demo\nRequires-Dist: attrs>=24\nRequires-Dist: cattrs\n"
        )
    assert mkdocs_live.requirements(wheel) == ["attrs>=24", "cattrs"]


def test_each_completed_trick_is_handed_to_the_page_with_its_taker_and_cost() -> None:
    match = cucumber_live.Match("catastrophe", players=3, bots="heuristic", seed=2)
    first = match.snapshot()
    assert first["tricks"] == []
    assert first["last_trick"] is None
    assert match.intro is not None
    assert "Trick Marker" in match.intro
    assert first["hints"][0].startswith("Trick Marker: not set. You lead")
    assert "Not now: 45 (a 5-cucumber card may not lead a trick" in first["hints"][1]
    after = match.act(0)
    (trick,) = after["tricks"]  # the reader led; both bots answered: one trick, then the reader's turn
    assert trick["number"] == 1
    assert trick["cost"].endswith("cucumbers")
    assert trick["text"].startswith("Trick 1: You ")
    assert trick["svg"].startswith("<svg")
    assert after["last_trick"] == trick
    assert match.act(0)["tricks"] != []  # (one card a trick: one ends each turn)
    ladder = cucumber_live.Match("agurk", players=4, bots="heuristic", seed=2)
    (done,) = ladder.act(0)["tricks"]
    assert done["cost"] == "nothing yet: only the last trick of a round is paid for"
    assert ladder.intro is None


def test_the_readers_own_trick_cost_is_put_to_them() -> None:
    match = cucumber_live.Match("gurka", players=2, bots="random", seed=4, hand_size=1)
    done = match.act(0)["tricks"]
    assert done, "one card each: the reader's card ends the round's only trick"
    assert "You pays" not in done[0]["cost"]
