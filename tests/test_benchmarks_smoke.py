"""Smoke tests for the benchmarks: the scripts run, and the baseline plays the library's rules.

No timing is asserted here (benchmarks are run by hand: `python benchmarks/run.py`).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import adapters
import baseline
import bot_strength
import count_instructions
import hardware
import ismcts_strength
import profile_playouts
import run
import sample_world_stress

import cucumber_rules as cr

PLAYER_COUNTS = {
    "agurk": (3, 4, 7),
    "gurka": (2, 4, 7),
    "five-cucumbers": (2, 4, 6),
    "fuenf-gurken": (2, 5),
    "catastrophe": (3, 4, 6),
}


@pytest.mark.parametrize("preset", run.BASELINE_PRESETS)
def test_baseline_plays_the_library_matches_exactly(preset: str) -> None:
    # Same deals and the same choice generator: every round's scores, totals, marks, eliminations, winners.
    for players in PLAYER_COUNTS[preset]:
        assert run.verify_exact(preset, players, matches=4, seed=players) > 0


def test_baseline_presets_mirror_the_library_presets() -> None:
    for name, mine in baseline.PRESETS.items():
        rules = cr.ruleset(name)
        assert mine.hand_size == rules.hand_size
        assert mine.threshold == rules.threshold
        assert mine.lives == rules.lives
        assert mine.forced == (rules.follow == "forced-lowest")
        assert (mine.ace > 0) == rules.ace_lead
        assert mine.tie_bonus == rules.tie_bonus
        assert mine.doubling == rules.doubling
        assert mine.rotate == (rules.next_leader == "rotate")
        assert len(mine.deck) == len(cr.DECKS[rules.deck])
        assert sorted(mine.deck) == [baseline.card_code(c.rank, c.suit) for c in cr.DECKS[rules.deck]]


def test_verify_exact_catches_a_rule_difference() -> None:
    # The check can fail: a baseline with Gurka's threshold at 21 no longer plays the library's matches.
    wrong = attrs.evolve(baseline.PRESETS["gurka"], threshold=21)
    rules = cr.ruleset("gurka")
    differs = 0
    for seed in range(6):
        expected, deals = run.library_match(rules, 3, random.Random(seed), random.Random(100 + seed))
        got = baseline.play_match(wrong, 3, random.Random(seed), deals=iter([h for h, _ in deals]))
        differs += got != expected
    assert differs > 0


def test_fast_and_general_round_players_agree() -> None:
    for seed in range(20):
        fast = baseline.play_match("agurk", 4, random.Random(seed))
        general = baseline.play_match("agurk", 4, random.Random(seed), general=True)
        assert fast == general


def test_baseline_statistics_agree_with_the_library() -> None:
    # The baseline's own (differently drawn) deals: rounds per match and penalties agree in distribution.
    for preset in ("agurk", "five-cucumbers", "catastrophe"):
        rows = run.verify_statistics(preset, 4, matches=80, seed=1)
        assert rows
        for row in rows:
            assert abs(row.z) < 4.5, row


def test_fixed_rounds_in_the_baseline() -> None:
    result = baseline.play_match("agurk", 4, random.Random(3), fixed_rounds=12)
    assert result.round_count == 12
    assert result.out == (0, 0, 0, 0)
    assert result.winners == tuple(s for s in range(4) if result.totals[s] == min(result.totals))


def test_benchmark_functions_run() -> None:
    rate = run.compare_rates("agurk", 4, repeats=1, seconds=0.001)
    assert rate.decisions_per_s > 0
    assert rate.baseline_per_s is not None
    assert rate.ratio is not None
    scaling = run.fixed_round_scaling(long_rounds=20, short_rounds=10, segments=2, repeats=1)
    assert scaling.long_rounds == 20
    calls = run.per_call(repeats=1, min_seconds=0.0, late_rounds=5)
    assert {"legal_moves(state)", "check(state, move)", "apply(state, move)"} <= {c.call for c in calls}
    memory = run.memory_rows(long_rounds=3)
    assert all(r.deep_bytes > 0 for r in memory)


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, str, str]:
    """One smoke run of the script, without the shared yardstick: its JSON, Markdown, stdout and stderr."""
    out = tmp_path_factory.mktemp("smoke")
    out_json, out_md = out / "out.json", out / "snippet.md"
    buffer_out, buffer_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buffer_out), contextlib.redirect_stderr(buffer_err):
        argv = [
            "--smoke",
            "--shared",
            str(out / "missing"),
            "--json",
            str(out_json),
            "--markdown",
            str(out_md),
        ]
        assert run.main(argv) == 0
    data = json.loads(out_json.read_text())
    data["_missing"] = str(out / "missing")
    return data, out_md.read_text(), buffer_out.getvalue(), buffer_err.getvalue()


def test_the_script_writes_json_and_markdown(smoke_run: tuple[dict[str, Any], str, str, str]) -> None:
    data, text, _, _ = smoke_run
    assert {r["preset"] for r in data["rates"]} == set(run.BASELINE_PRESETS)
    assert all(r["ratio"] > 0 for r in data["rates"])
    assert data["machine"]["cpu_count"]
    assert "| `agurk` |" in text
    assert "long / short" in text
    assert {r["preset"] for r in data["adapters"]["rates"]} == set(adapters.PRESETS)
    assert "OpenSpiel / core" in text
    assert "Hearts' information state" in text


def test_library_match_counts_decisions_not_deals() -> None:
    result, deals = run.library_match(cr.ruleset("gurka"), 2, random.Random(1), random.Random(2))
    assert len(deals) == result.round_count
    assert result.decisions == sum(result.dealt) * 7


@pytest.mark.parametrize(
    "module",
    [
        baseline,
        run,
        profile_playouts,
        count_instructions,
        bot_strength,
        ismcts_strength,
        sample_world_stress,
        adapters,
        hardware,
    ],
    ids=[
        "baseline",
        "run",
        "profile",
        "count",
        "bot-strength",
        "ismcts-strength",
        "sample-world-stress",
        "adapters",
        "hardware",
    ],
)
def test_docstring_examples(module: object, capsys: pytest.CaptureFixture[str]) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
    capsys.readouterr()


def test_the_shared_yardstick_is_found_beside_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(run.SHARED_ENV, raising=False)
    assert run.shared_dir() == Path(run.__file__).resolve().parents[1].parent / "shared" / "bench"
    monkeypatch.setenv(run.SHARED_ENV, "/somewhere/else")
    assert run.shared_dir() == Path("/somewhere/else")
    assert run.shared_dir(Path("/given")) == Path("/given")


def test_a_missing_yardstick_falls_back_to_the_baseline(
    smoke_run: tuple[dict[str, Any], str, str, str],
) -> None:
    data, _, out, err = smoke_run
    assert data["shared"] == {"path": data["_missing"], "found": False}
    assert all(r["reference_ratio"] is None and r["ratio"] > 0 for r in data["rates"])
    assert data["perf_ratio"] is None
    assert "the shared yardstick is not at" in err
    assert "was not found" in out


def test_a_shared_yardstick_is_timed_beside_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stand-in for ../shared/bench: a "reference" that plays 10 decisions a match, and perf_ratio.py.
    (tmp_path / "reference.py").write_text(
        "def agurk_match(seed, variant='fast', n_players=4):\n    return (10, seed)\n"
        "five_cucumbers_match = catastrophe_match = agurk_match\n"
    )
    (tmp_path / "perf_ratio.py").write_text(
        "def api_round(seconds, seed, rules, players):\n    return 50.0, seed + 1\n"
        "def ref_round(seconds, seed):\n    return 200.0, seed + 1\n"
    )
    row = run.compare_rates(
        "catastrophe", 4, repeats=1, seconds=0.001, reference=run.load_script(tmp_path / "reference.py", "r")
    )
    assert row.reference_per_s is not None
    assert row.reference_ratio is not None
    assert row.reference_ratio > 0
    assert run.compare_rates("gurka", 4, repeats=1, seconds=0.001).reference_ratio is None
    assert run.perf_ratio(tmp_path, 3, 0.01) == {
        "api_per_s": 50.0,
        "yardstick_per_s": 200.0,
        "ratio": 0.25,
        "rounds": 3,
        "seconds": 0.01,
    }
    capsys.readouterr()


def test_the_smoke_run_measures_bots_views_checks_and_documents(
    smoke_run: tuple[dict[str, Any], str, str, str],
) -> None:
    data = smoke_run[0]
    assert {b["preset"] for b in data["bots"]} == set(run.BASELINE_PRESETS)
    assert all(b["random_ratio"] > 0 for b in data["bots"])
    assert {"every decision", "first card of a trick"} <= {v["where"] for v in data["views"]}
    assert data["check_game"] == {}  # the smoke run leaves the checks out
    assert [d["kind"] for d in data["documents"]] == ["state", "record"]
    assert {h["outcome"] for h in data["hostile"]} >= {"accepted", "refused: InvalidStateError"}


def test_check_times_and_old_libraries() -> None:
    found = run.check_times(["gurka"])
    assert found["gurka"]["players"] == list(range(2, 8))
    assert run.load_old(Path("/nonexistent")) is None


def test_counting_instructions_needs_valgrind_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert count_instructions.main(["gurka"]) == 2
    assert "needs valgrind" in capsys.readouterr().err


def test_the_counted_loop_plays_the_same_matches_as_the_profiler(capsys: pytest.CaptureFixture[str]) -> None:
    # The loop callgrind runs: raw playouts, or bots' matches as simulate plays them, with fixed seeds.
    assert count_instructions.main(["gurka", "--play", "2", "--players", "3"]) == 0
    assert int(capsys.readouterr().out) == profile_playouts.playouts("gurka", 3, 2)
    assert count_instructions.main(["catastrophe", "--play", "1", "--bots", "heuristic"]) == 0
    assert int(capsys.readouterr().out) == profile_playouts.bot_matches("catastrophe", 4, 1, "heuristic")


def test_ismcts_merge_keeps_each_rows_command_and_version(tmp_path: Path) -> None:
    def run_file(name: str, command: str, version: str, preset: str) -> Path:
        wins = {"wins": 1, "games": 2, "rate": 0.5, "low": 0.1, "high": 0.9}
        row = {"preset": preset, "players": 4, "iterations": 40, "rollout": "heuristic",
               "against": "heuristic", "wins": wins, "decisions_per_second": 1.0, "seconds": 1.0}  # fmt: skip
        made = {"command": command, "seed": 1, "cucumber_rules": version, "python": "3", "date": "today"}
        path = tmp_path / name
        path.write_text(json.dumps({"made": made, "rows": [row]}), encoding="utf-8")
        return path

    first = ismcts_strength._merge(
        [run_file("a.json", "cmd a", "0.1.0", "agurk"), run_file("b.json", "cmd b", "0.1.0", "gurka")],
        None,
        tmp_path / "ab.json",
    )
    assert first == 0
    with contextlib.redirect_stdout(io.StringIO()):
        ismcts_strength._merge(
            [tmp_path / "ab.json", run_file("c.json", "cmd c", "0.2.0", "catastrophe")],
            tmp_path / "abc.md",
            tmp_path / "abc.json",
        )
    merged = json.loads((tmp_path / "abc.json").read_text(encoding="utf-8"))
    assert [r["command"] for r in merged["rows"]] == ["cmd a", "cmd b", "cmd c"]
    assert [r["cucumber_rules"] for r in merged["rows"]] == ["0.1.0", "0.1.0", "0.2.0"]
    assert merged["made"]["cucumber_rules"] == "0.1.0 and 0.2.0"
    text = (tmp_path / "abc.md").read_text(encoding="utf-8")
    assert "(1) Made with `cmd a`" in text
    assert "(3) Made with `cmd c`" in text
    # a later run of the same row replaces it, in its place
    with contextlib.redirect_stdout(io.StringIO()):
        ismcts_strength._merge(
            [tmp_path / "abc.json", run_file("b2.json", "cmd b longer", "0.2.0", "gurka")],
            None,
            tmp_path / "ab2c.json",
        )
    merged = json.loads((tmp_path / "ab2c.json").read_text(encoding="utf-8"))
    assert [r["command"] for r in merged["rows"]] == ["cmd a", "cmd b longer", "cmd c"]
