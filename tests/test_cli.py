"""The `cucumber-rules` command line, driven through typer's CliRunner: every command, good and bad input."""

from __future__ import annotations

import importlib.metadata
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cucumber_rules as cr
from cli_harness import RUNNER, run
from cucumber_rules.bots import HeuristicBot, RandomBot
from cucumber_rules.cli import app, parse_option, parse_value, play_seed
from cucumber_rules.games.catastrophe.rules import CatastropheRules, cucumbers_on
from cucumber_rules.simulate import play_match


def saved_record(path: Path) -> cr.Record:
    """The match record inside a game saved by `play --save`."""
    document = json.loads(path.read_text(encoding="utf-8"))
    rec = cr.loads(json.dumps(document["record"]))
    assert isinstance(rec, cr.Record)
    return rec


def save(path: Path, state: cr.State) -> Path:
    path.write_text(cr.dumps(cr.record(state)), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- options


def test_parse_values_and_options() -> None:
    assert parse_value("21") == 21
    assert parse_value("-3") == -3
    assert parse_value("true") is True
    assert parse_value("FALSE") is False
    assert parse_value("None") is None
    assert parse_value("forced-lowest") == "forced-lowest"
    assert parse_value("5,1,2") == (5, 1, 2)
    assert parse_value("a,b") == "a,b"
    assert parse_option("ace-lead=true") == ("ace_lead", True)
    assert parse_option(" threshold = 30 ") == ("threshold", 30)
    with pytest.raises(cr.InvalidRulesError, match="key=value"):
        parse_option("threshold")
    with pytest.raises(cr.InvalidRulesError, match="key=value"):
        parse_option("=3")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "bridge"], "unknown preset 'bridge'"),
        (["--option", "threshold=0"], "threshold must be at least 1"),
        (["--option", "threshold"], "key=value"),
        (["--option", "surprise=true"], "does not apply to the ladder game"),
        (["--option", "colour=red"], "unknown option 'colour'"),
        (["--option", "ace_lead=maybe"], "ace_lead must be bool"),
        (["--players", "9"], "agurk is for 3 to 7 players, not 9"),
        (["--bots", "genius"], "unknown bot 'genius'"),
    ],
)
def test_bad_arguments_give_the_library_message_and_exit_2(args: list[str], message: str) -> None:
    for command in ("demo", "simulate"):
        extra = ["-n", "1"] if command == "simulate" else []
        result = run(command, *args, *extra, code=2)
        assert message in result.output
    result = run("play", *args, input="quit\n", code=2)
    assert message in result.output


def test_typer_usage_errors_exit_2() -> None:
    run("demo", "--players", "four", code=2)
    run("simulate", "--no-such-flag", code=2)
    run("frobnicate", code=2)


def test_no_command_shows_help() -> None:
    result = RUNNER.invoke(app, [])
    for command in ("demo", "play", "simulate", "replay", "rules"):
        assert command in result.output


# --------------------------------------------------------------------------- demo


def test_demo_works_without_arguments() -> None:
    result = run("demo")
    out = result.output
    assert "agurk · 4 players · seed 7" in out
    assert "Seats: Ann (heuristic), Bo (random), Cy (random), Di (random)" in out
    assert "Round 1: Di deals, Ann leads" in out
    assert "trick 1: Ann " in out
    assert "takes the last trick" in out
    assert " pays " in out
    assert "is eliminated" in out
    assert "Winner: " in out
    assert "Final standings" in out


def test_demo_is_seeded() -> None:
    a = run("demo", "--preset", "gurka", "--seed", "3").output
    assert run("demo", "--preset", "gurka", "--seed", "3").output == a
    assert run("demo", "--preset", "gurka", "--seed", "4").output != a


def test_demo_narrates_the_winner_of_the_replayed_match() -> None:
    # The narrated winner is the winner of the same seeded match played through the API.
    out = run("demo", "--players", "3", "--seed", "5", "--bots", "random,heuristic").output
    final = play_match(
        cr.ruleset("agurk"),
        [RandomBot(), HeuristicBot(), HeuristicBot()],
        seed=5,
    )
    (winner,) = cr.score(final).winners
    assert f"Winner: {('Ann', 'Bo', 'Cy')[winner]}" in out


def test_demo_catastrophe_shows_the_trick_marker() -> None:
    out = run("demo", "-p", "catastrophe", "--players", "3", "--seed", "2").output
    assert "Hand 1: Ann leads" in out
    assert "[High: highest wins]" in out
    assert "[Low: lowest wins]" in out
    assert "cucumbers" in out
    assert "hand 4 cucumbers:" in out


def test_demo_with_options_and_marks() -> None:
    out = run("demo", "-p", "catastrophe", "-o", "surprise=true", "-o", "hand_count=1", "--seed", "1").output
    assert "catastrophe (surprise=True, hand_count=1)" in out
    assert "revealed " in out
    assert "hand 2" not in out.lower()
    out = run("demo", "--seed", "7").output
    assert "a cucumber mark, score reset to" in out


# --------------------------------------------------------------------------- rules


def test_rules_lists_presets_and_every_option() -> None:
    out = run("rules").output
    for name in cr.RULESETS:
        assert name in out
    for name, option in cr.OPTIONS.items():
        assert name in out
        assert option.meaning[:30] in out
    assert "agurk: 21" in out  # defaults that differ by preset are listed per preset
    assert "5 on 5, 15, 25, 35, 45, 55; 1 on the others" in out


def test_rules_for_one_preset() -> None:
    out = run("rules", "GURKA").output
    assert "gurka (ladder, 2–7 players)" in out
    assert "forced-lowest" in out
    assert "surprise" not in out
    assert "unknown preset 'x'" in run("rules", "x", code=2).output


# --------------------------------------------------------------------------- simulate


def test_simulate_table() -> None:
    out = run("simulate", "-p", "gurka", "--players", "3", "-n", "6", "--seed", "2").output
    for text in ("matches", "rounds per match", "Win rate by seat", "Win rate by bot", "95% interval"):
        assert text in out
    assert "heuristic" in out
    assert "random" in out
    assert "Penalty distribution" in out


def test_simulate_json_matches_the_api() -> None:
    out = run("simulate", "-p", "five-cucumbers", "--players", "3", "-n", "5", "--seed", "1", "--json").output
    data = json.loads(out)
    expected = cr_simulate("five-cucumbers", 3, 5, 1)
    assert data == json.loads(json.dumps(expected))
    assert data["matches"] == 5


def cr_simulate(preset: str, players: int, n: int, seed: int) -> dict[str, object]:
    from cucumber_rules.simulate import simulate

    return simulate(
        cr.ruleset(preset), players=players, bots="heuristic,random", matches=n, seed=seed
    ).to_dict()


def test_simulate_results_do_not_depend_on_workers() -> None:
    args = ["simulate", "-p", "gurka", "--players", "2", "-n", "8", "--seed", "4", "--json"]
    one = json.loads(run(*args).output)
    two = json.loads(run(*args, "--workers", "2").output)
    assert one == two


def test_simulate_options_bots_and_no_rotation() -> None:
    args = ["-p", "agurk", "-o", "threshold=30", "--players", "3", "-n", "3", "--json"]
    data = json.loads(run("simulate", *args, "--bots", "random", "--no-rotate").output)
    assert data["options"] == {"threshold": 30}
    assert data["bots"] == ["random"] * 3
    assert data["rotate"] is False
    out = run("simulate", "-p", "gurka", "--players", "2", "-n", "2", "--no-rotate").output
    assert "bot" in out


def test_simulate_shows_a_progress_bar_on_a_terminal_only() -> None:
    args = ["simulate", "-p", "gurka", "--players", "2", "-n", "3", "--json"]
    on_terminal = CliRunner(env={"FORCE_COLOR": "1"}).invoke(app, args)
    assert on_terminal.exit_code == 0
    assert "simulating" in on_terminal.stderr
    assert "3/3" in on_terminal.stderr
    assert json.loads(on_terminal.stdout)["matches"] == 3  # stdout stays pure JSON
    assert "simulating" not in run(*args).stderr


def test_simulate_bad_counts() -> None:
    assert "--workers must be at least 1" in run("simulate", "-n", "2", "--workers", "0", code=2).output
    assert "--matches must be at least 1, not -1" in run("simulate", "-n", "-1", code=2).output
    assert "--matches must be at least 1, not 0" in run("simulate", "-n", "0", code=2).output


# --------------------------------------------------------------------------- replay


def finished_state() -> cr.State:
    return play_match(cr.ruleset("gurka", threshold=15), [HeuristicBot(), RandomBot()], seed=6)


def test_replay_valid_record(tmp_path: Path) -> None:
    final = finished_state()
    path = save(tmp_path / "match.json", final)
    out = run("replay", str(path)).output
    assert f"{len(final.actions)} actions" in out
    assert "a valid record of gurka (threshold=15), 2 players" in out
    (winner,) = cr.score(final).winners
    assert f"Winner: {final.players[winner]}" in out
    for total in cr.score(final).totals:
        assert str(total) in out


def test_replay_of_a_match_in_progress(tmp_path: Path) -> None:
    final = finished_state()
    partial = cr.replay(cr.Record(final.rules, final.players, final.first, final.actions[:5]))
    out = run("replay", str(save(tmp_path / "partial.json", partial))).output
    assert f"The match is in progress: seat {partial.to_act} is to act." in out
    # A saved state (not a record) is accepted too.
    (tmp_path / "state.json").write_text(cr.dumps(partial), encoding="utf-8")
    assert "5 actions" in run("replay", str(tmp_path / "state.json")).output


def test_replay_reports_the_first_illegal_action(tmp_path: Path) -> None:
    final = finished_state()
    actions = list(final.actions)
    bad = actions[3]
    assert isinstance(bad, cr.Play)
    actions[3] = cr.Play(1 - bad.seat, bad.card)  # the wrong seat
    path = tmp_path / "bad.json"
    doc = json.loads(cr.dumps(cr.record(final)))
    doc["actions"] = json.loads(cr.dumps(cr.Record(final.rules, final.players, 0, actions)))["actions"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = run("replay", str(path), code=1).output
    assert "action 3 is illegal (not-your-turn)" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not a valid match record"),
        ('{"format": 1, "kind": "record"}', "is not a valid match record"),
        ('{"format": 99, "kind": "record"}', "unsupported format 99"),
        ("[]", "is not a valid match record"),
    ],
)
def test_replay_rejects_malformed_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    assert message in run("replay", str(path), code=1).output


def test_replay_rejects_other_documents_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(cr.dumps(cr.ruleset("agurk")), encoding="utf-8")
    assert "holds a Rules, not a match record" in run("replay", str(path), code=1).output
    assert "cannot read" in run("replay", str(tmp_path / "missing.json"), code=1).output
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    run("replay", str(tmp_path / "binary.json"), code=1)


# --------------------------------------------------------------------------- play


def rigged(tmp_path: Path) -> Path:
    """Gurka, 2 players, 2 cards each, threshold 5: Ann (a bot) leads, the human is Bo (seat 1)."""
    rules = cr.ruleset("gurka", hand_size=2, threshold=5)
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo"]), cr.Deal(hands=[["5C", "9D"], ["2H", "7S"]]))
    return save(tmp_path / "rigged.json", state)


def test_play_a_rigged_match_to_the_end(tmp_path: Path) -> None:
    path = rigged(tmp_path)
    # Ann (heuristic) leads 9D; Bo holds nothing as high, so must play the lowest card 2H.
    out = run(
        "play", "--resume", str(path), "--seat", "1", "--save", str(path), input="7S\nQQ\nQ\n2H\n7S\n"
    ).output
    assert "Resumed" in out
    assert "Your hand: 2H 7S" in out
    assert "You may play: 2H" in out
    assert "you cannot play 7S: you hold nothing of 9 or higher, so you must play your lowest card 2H" in out
    assert "seat 1 cannot" not in out
    assert "'QQ' is not a card of this deck" in out
    assert "'Q' is not a card of this deck" in out  # a Queen without its suit: explained, not taken as quit
    assert "trick 1: Ann 9D, Bo 2H → Ann" in out
    assert "Bo pays 7 for 7S" in out
    assert "Bo is eliminated" in out
    assert "Winner: Ann" in out
    # Saved after every move: the file now holds the finished match.
    saved = cr.loads(json.dumps(json.loads(path.read_text(encoding="utf-8"))["record"]))
    assert isinstance(saved, cr.Record)
    assert cr.replay(saved).is_over


def test_play_shows_only_the_players_own_cards(tmp_path: Path) -> None:
    out = run("play", "--resume", str(rigged(tmp_path)), "--seat", "1", input="quit\n").output
    assert "2H 7S" in out
    assert "5C" not in out  # Ann's unplayed card is never shown
    assert "Cards in hand: Ann 1" in out  # (Ann has led 9D; her hand size is public)


def test_play_save_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    out = run(
        "play",
        "-p",
        "catastrophe",
        "--players",
        "3",
        "--seed",
        "1",
        "--save",
        str(path),
        input="?\nhand\nq\n",
    ).output
    assert "Type a card to play it" in out
    assert out.count("Your hand:") == 2
    assert f"Saved to {path}" in out
    rec = saved_record(path)
    assert rec.rules == cr.ruleset("catastrophe")
    assert len(rec.players) == 3
    out = run("play", "--resume", str(path), input="quit\n").output
    assert f"Resumed {path}: {len(rec.actions)} actions replayed." in out
    assert "Stopped." in out


def test_play_end_of_input_stops_cleanly() -> None:
    out = run("play", "-p", "five-cucumbers", "--seed", "3", input="").output
    assert "Stopped." in out


def test_play_revival_decision(tmp_path: Path) -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
    path = save(tmp_path / "revival.json", state)
    out = run("play", "--resume", str(path), "--seat", "2", input="9S\nmaybe\nhand\n?\n\ny\n").output
    assert "Cy is eliminated" in out
    assert out.count("Answer y or n; 'hand' shows the question again") == 3  # 'maybe', '?' and Enter
    assert out.count("Scores: Ann 0 · Bo 0 · Cy 9") == 2  # the question, and again for 'hand'
    assert "Cy buys back in" in out
    assert "(Cy sits out)" in out


def test_play_bad_seat_and_bad_files(tmp_path: Path) -> None:
    assert "--seat must be a seat 0..3, not 4" in run("play", "--seat", "4", code=2).output
    too_many = run("play", "--players", "3", "--bots", "random,heuristic,random", code=2).output
    assert "3 bots for the 2 seats besides yours (3 players)" in too_many
    assert "cannot read" in run("play", "--resume", str(tmp_path / "nope.json"), code=1).output
    (tmp_path / "junk.json").write_text("junk", encoding="utf-8")
    assert "not a valid match record" in run("play", "--resume", str(tmp_path / "junk.json"), code=1).output
    out = run(
        "play", "--save", str(tmp_path / "no" / "dir.json"), "--seed", "1", input="quit\n", code=1
    ).output
    assert "cannot save" in out


# --------------------------------------------------------------------------- version and help


def test_version_is_the_package_version() -> None:
    assert run("--version").output == f"cucumber-rules {cr.__version__}\n"
    assert importlib.metadata.version("cucumber-rules") == cr.__version__


@pytest.mark.parametrize("command", [[], ["demo"], ["play"], ["simulate"], ["replay"], ["rules"]])
def test_help_shows_no_type_placeholders(command: list[str]) -> None:
    out = run(*command, "--help").output
    assert "Show this message and exit." in out
    for placeholder in ("<bool>", "<int>", "<list[str]>"):
        assert placeholder not in out, out
    options = out[out.index("─ Options ") :]  # (an argument's row may name its type: FILE <path>)
    assert not re.search(r"<\w+>", options), options
    if command in (["demo"], ["play"], ["simulate"]):
        assert "KEY=VALUE" in out
        assert "PRESET" in out


@pytest.mark.parametrize("command", ["demo", "play", "simulate"])
def test_help_lists_every_preset_and_bot(command: str) -> None:
    out = " ".join(run(command, "--help").output.replace("│", " ").split())
    for name in [*cr.RULESETS, "random", "heuristic", "ismcts"]:
        assert name in out, (name, out)
    assert "catastrophe" in out


def test_each_command_is_summed_up_in_one_sentence() -> None:
    # the command list of `--help` shows a command's first paragraph as written: a docstring's line
    # break there shows as a ragged break in the middle of the table
    for command in app.registered_commands:
        assert command.callback is not None
        summary = (command.callback.__doc__ or "").strip().split("\n\n")[0]
        assert summary, command.name
        assert "\n" not in summary, (command.name, summary)


def test_help_of_a_flag_has_no_metavar() -> None:
    lines = run("simulate", "--help").output.splitlines()
    (line,) = [line for line in lines if "--json" in line]
    assert re.search(r"--json\s+Print the summary as JSON", line), line


# --------------------------------------------------------------------------- play: at the table


def agurk_table(tmp_path: Path) -> Path:
    """Agurk, 3 players, 3 cards: Ann (a bot) leads 10C; the human is Bo (seat 1) with 3C 9H JD."""
    rules = cr.ruleset("agurk", hand_size=3)
    hands = [["10C", "KS", "4D"], ["9H", "3C", "JD"], ["2S", "5H", "6H"]]
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=hands))
    state = cr.apply(state, cr.Play(0, cr.card("10C")))
    return save(tmp_path / "agurk.json", state)


def test_play_errors_address_the_player(tmp_path: Path) -> None:
    out = run("play", "--resume", str(agurk_table(tmp_path)), "--seat", "1", input="9H\nAS\nquit\n").output
    assert "you cannot play 9H: you must play 10 or higher, or your lowest card 3C" in out
    assert "you cannot play AS: it is not in your hand (you hold 3C, 9H, JD)" in out
    assert "seat 1 cannot" not in out
    assert "they hold" not in out


def test_second_person_for_every_rule(tmp_path: Path) -> None:
    # Catastrophe: a 5-cucumber card may not lead while the hand holds another card.
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = cr.apply(cr.new_game(rules, 3), cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
    out = run("play", "--resume", str(save(tmp_path / "c.json", state)), input="5\nquit\n").output
    assert (
        "you cannot lead 5: a 5-cucumber card may not lead a trick while your hand holds other cards" in out
    )
    # Gurka: after a led Ace every other player plays their lowest card.
    rules = cr.ruleset("gurka", hand_size=2)
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo"]), cr.Deal(hands=[["AS", "3D"], ["2H", "KH"]]))
    state = cr.apply(state, cr.Play(0, cr.card("AS")))
    out = run(
        "play", "--resume", str(save(tmp_path / "g.json", state)), "--seat", "1", input="KH\nq\n"
    ).output
    assert "you cannot play KH: AS was led, so you must play your lowest card 2H" in out


def test_the_library_messages_stay_third_person(tmp_path: Path) -> None:
    # The rewording is the command line's: IllegalMoveError keeps its documented wording.
    rec = cr.loads(agurk_table(tmp_path).read_text(encoding="utf-8"))
    assert isinstance(rec, cr.Record)
    error = cr.check(cr.replay(rec), cr.Play(1, cr.card("9H")))
    assert error is not None
    assert error.message == "seat 1 cannot play 9H: must play 10 or higher, or the lowest card 3C"


@pytest.mark.parametrize(
    ("preset", "typed", "hint"),
    [
        ("agurk", "99", "cards are written like 7H, 10S, QD or AS"),
        ("agurk", "7", "cards are written like 7H, 10S, QD or AS"),
        ("gurka", "ZZ", "cards are written like 7H, 10S, QD or AS"),
        ("five-cucumbers", "99", "cards are numbers 1..15"),
        ("five-cucumbers", "QS", "cards are numbers 1..15"),
        ("catastrophe", "61", "cards are numbers 1..60"),
    ],
)
def test_a_typo_gets_a_hint_for_the_deck_in_play(preset: str, typed: str, hint: str) -> None:
    players = "3" if preset == "catastrophe" else "4"
    out = run("play", "-p", preset, "--players", players, "--seed", "2", input=f"{typed}\nquit\n").output
    assert f"'{typed}' is not a card of this deck: {hint}" in out
    if preset != "catastrophe":
        assert "1..60" not in out


def test_help_at_the_table_fits_the_deck() -> None:
    out = run("play", "--seed", "1", input="?\nquit\n").output
    assert "e.g. QS, 10H (or TH), A♠" in out
    out = run("play", "-p", "five-cucumbers", "--seed", "1", input="?\nquit\n").output
    assert "e.g. 7 or 12" in out


def test_one_legal_card_is_offered_as_the_default(tmp_path: Path) -> None:
    out = run("play", "--resume", str(rigged(tmp_path)), "--seat", "1", input="\n\n").output
    assert "Your card [2H]: " in out  # Enter plays the only card
    assert "trick 1: Ann 9D, Bo 2H → Ann" in out
    assert "Your card [7S]: " in out
    assert "Winner: Ann" in out
    # With a choice, there is no default: an empty line is answered with the cards to choose from.
    out = run("play", "--resume", str(agurk_table(tmp_path)), "--seat", "1", input="\nquit\n").output
    assert "Your card: " in out
    assert "Your card [" not in out
    assert "Type the card to play: you may play 3C JD ('?' for help)." in out
    assert out.count("Your card: ") == 2  # asked again once, after saying what is wanted


def test_end_of_input_ends_the_prompt_line(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    out = run("play", "-p", "gurka", "--seed", "3", "--save", str(path), input="").output
    assert "Your card: Stopped" not in out
    assert re.search(r"Your card: \nStopped\. Saved to ", out), out
    assert saved_record(path).actions  # the deal at least


# --------------------------------------------------------------------------- standings


def test_standings_say_how_they_are_ranked() -> None:
    out = run("demo", "--seed", "7").output
    assert "Ranked: winners first, then players still in, then eliminated players, the last out first" in out
    assert re.search(r"[┃│] status\s+[┃│]", out)
    assert re.search(r"out in round \d+", out)
    out = run("demo", "-p", "catastrophe", "--players", "3", "--seed", "2").output
    assert "Ranked by fewest cucumbers, then by the lowest single-hand score." in out
    out = run("demo", "-o", "fixed_rounds=2", "--seed", "1").output
    assert "Ranked by lowest total." in out


def test_replay_of_a_match_in_progress_labels_the_status(tmp_path: Path) -> None:
    final = finished_state()
    partial = cr.replay(cr.Record(final.rules, final.players, final.first, final.actions[:5]))
    out = run("replay", str(save(tmp_path / "partial.json", partial))).output
    assert "Standings (the match is in play)" in out
    assert re.search(r"[┃│] status\s+[┃│]", out)
    assert out.count("in play") == 3  # the title and both players


# --------------------------------------------------------------------------- simulate --json


def test_simulate_json_writes_counts_as_integers() -> None:
    out = run("simulate", "-p", "gurka", "--players", "3", "-n", "20", "--json").output
    data = json.loads(out)
    for rate in [*data["seat_win_rates"], *data["bot_win_rates"].values()]:
        assert type(rate["wins"]) is int, rate  # no shared wins in gurka
        assert type(rate["games"]) is int
    assert sum(rate["wins"] for rate in data["seat_win_rates"]) == 20
    for key in ("count", "min", "max", "p90"):
        assert type(data["penalties"][key]) is int, key
    assert type(data["rounds_per_match"]["min"]) is int
    assert type(data["rounds_per_match"]["mean"]) is float
    assert not re.search(r'"(wins|count|min|max)": \d+\.0\b', out)


def test_simulate_json_rounds_every_fraction_alike() -> None:
    out = run("simulate", "-p", "five-cucumbers", "--players", "4", "-n", "30", "--json").output
    data = json.loads(out)
    fractions = re.findall(r"-?\d+\.(\d+)", out)
    assert fractions, out
    assert max(len(digits) for digits in fractions) <= 6, out  # not `3.0404459991254917` beside `0.25`
    assert type(data["decisions_per_match"]) is float
    assert type(data["penalties"]["mean"]) is float
    assert type(data["penalties"]["median"]) is float


def test_simulate_table_says_ties_share_wins() -> None:
    out = run("simulate", "-p", "five-cucumbers", "--players", "4", "-n", "30").output
    assert out.count("Ties share a win: each of k winners of a match counts 1/k of a win.") == 2


# --------------------------------------------------------------------------- play: save and resume


def saved_document(path: Path) -> dict[str, object]:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def test_a_saved_game_keeps_the_seat_bots_and_seed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ["-p", "gurka", "--players", "3", "--seat", "2", "--bots", "random", "--seed", "5"]
    out = run("play", *args, "--save", str(path), input="quit\n").output
    assert "you are Cy (seat 2) · seed 5" in out
    document = saved_document(path)
    assert document["cucumber_rules_cli"] == 1
    assert (document["seat"], document["seed"], document["bots"]) == (2, 5, ["random", "random", None])
    rec = saved_record(path)  # the record is an ordinary record document
    assert rec.rules == cr.ruleset("gurka")
    assert rec.players == ("Ann", "Bo", "Cy")
    out = run("play", "--resume", str(path), input="quit\n").output
    assert f"Resumed {path}: {len(rec.actions)} actions replayed." in out
    assert "you are Cy (seat 2) · seed 5" in out
    assert "your turn, Cy" in out
    # `replay` reads a saved game too.
    out = run("replay", str(path)).output
    assert "Saved by cucumber-rules play (seed 5): Ann (random), Bo (random), Cy (you)" in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--seat", "1"], "--seat 1 does not match the game saved in"),
        (["--seed", "6"], "--seed 6 does not match"),
        (["--bots", "heuristic"], "--bots heuristic does not match"),
        (["--players", "4"], "--players 4 does not match"),
        (["--preset", "agurk"], "--preset agurk does not match"),
        (["-o", "threshold=21"], "--option threshold=21 does not match"),
        (["-o", "surprise=true"], "option 'surprise' does not apply to the ladder game"),
    ],
)
def test_resume_refuses_flags_that_contradict_the_saved_game(
    tmp_path: Path, flags: list[str], message: str
) -> None:
    path = tmp_path / "game.json"
    run("play", "-p", "gurka", "--players", "3", "--seat", "2", "--bots", "random", "--seed", "5",
        "--save", str(path), input="quit\n")  # fmt: skip
    before = path.read_text(encoding="utf-8")
    out = run("play", "--resume", str(path), *flags, input="quit\n", code=2).output
    assert message in out
    assert path.read_text(encoding="utf-8") == before


def test_resume_accepts_flags_that_agree_with_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", "-p", "gurka", "--players", "3", "--seat", "0", "--bots", "random", "--seed", "5",
        "--save", str(path), input="quit\n")  # fmt: skip
    flags = ["--seat", "0", "--seed", "5", "--bots", "random", "--players", "3", "-p", "Scandinavian"]
    out = run("play", "--resume", str(path), *flags, "-o", "threshold=30", input="quit\n").output
    assert "you are Ann (seat 0) · seed 5" in out


def test_quitting_a_resumed_game_saves_it_back(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", "--seed", "4", "--save", str(path), input="quit\n")
    before = saved_record(path)
    state = cr.replay(before)
    (first,) = cr.legal_moves(state)[:1]
    assert isinstance(first, cr.Play)
    run("play", "--resume", str(path), input=f"{first.card}\nquit\n")  # no --save: back to its own file
    after = saved_record(path)
    assert after.actions[: len(before.actions)] == before.actions
    assert after.actions[len(before.actions)] == first
    assert saved_document(path)["seed"] == 4
    # End of input (Ctrl-D) saves too.
    run("play", "--resume", str(path), input="")
    assert saved_record(path) == after


def test_a_resumed_game_continues_as_it_would_have(tmp_path: Path) -> None:
    """Stop and resume after every move of yours: the bots and deals go on as without the breaks."""
    path = tmp_path / "game.json"
    args = ["-p", "agurk", "--players", "3", "--bots", "random", "--seed", "11"]
    run("play", *args, "--save", str(path), input="quit\n")
    moves: list[str] = []
    for _ in range(8):
        state = cr.replay(saved_record(path))
        if state.is_over:
            break
        move = cr.legal_moves(state)[-1]  # the highest card: never the only choice of a bot
        assert isinstance(move, cr.Play)
        moves.append(str(move.card))
        run("play", "--resume", str(path), input=f"{move.card}\nquit\n")
    in_one_go = tmp_path / "one-go.json"
    run("play", *args, "--save", str(in_one_go), input="".join(f"{m}\n" for m in moves) + "quit\n")
    assert saved_record(in_one_go) == saved_record(path)
    assert len(saved_record(path).actions) > 3 * len(moves)  # the bots played in between


def test_resume_of_a_plain_record_takes_the_flags(tmp_path: Path) -> None:
    path = rigged(tmp_path)  # a plain `cr.dumps(cr.record(state))` file
    out = run("play", "--resume", str(path), "--seat", "1", "--seed", "9", input="quit\n").output
    assert "you are Bo (seat 1) · seed 9" in out
    document = saved_document(path)  # saved back, now with the seat, bots and seed
    assert (document["seat"], document["seed"], document["bots"]) == (1, 9, ["heuristic", None])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cucumber_rules_cli": 2}, "was saved by a newer cucumber-rules (saved-game format 2)"),
        ({"cucumber_rules_cli": "1"}, "cucumber_rules_cli must be 1"),
        ({"seat": 7}, "seat must be a seat 0..2, not 7"),
        ({"seat": True}, "seat must be a seat 0..2, not true"),  # (the file's JSON, not Python's words)
        ({"seed": "x"}, 'seed must be an int, not "x"'),
        ({"bots": ["random", None]}, "bots must be a list of 3 entries"),
        ({"bots": ["random", "random", "random"]}, "bots[2] must be null (your seat)"),
        ({"bots": [None, "random", None]}, "bots[0] must be a bot name, not null"),
        ({"bots": ["genius", "random", None]}, "bots[0]: unknown bot 'genius'"),
        ({"record": {"format": 1}}, "is not a valid match record"),
        ({"seed": None, "record": None}, "record must be a match record (a JSON object), not null"),
    ],
)
def test_a_bad_saved_game_is_refused(tmp_path: Path, change: dict[str, object], message: str) -> None:
    path = tmp_path / "game.json"
    run("play", "-p", "gurka", "--players", "3", "--seat", "2", "--bots", "random", "--seed", "5",
        "--save", str(path), input="quit\n")  # fmt: skip
    document = {**saved_document(path), **change}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert message in run("play", "--resume", str(path), input="quit\n", code=1).output
    assert message in run("replay", str(path), code=1).output


def test_a_saved_game_missing_a_field_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"cucumber_rules_cli": 1, "seat": 0}), encoding="utf-8")
    assert "seed, bots, record missing" in run("replay", str(path), code=1).output


def test_play_seed_is_documented_and_stable() -> None:
    # Saved games depend on it: a change would make resumed games continue differently.
    assert play_seed(11, 0) == play_seed(11, 0)
    assert len({play_seed(11, step) for step in range(100)}) == 100
    assert (play_seed(0, 0), play_seed(11, 3)) == (6948088331274158535, 609575403947046022)


def test_play_shows_the_revealed_card_and_the_marker() -> None:
    # rich reads "[revealed ...]" as a markup tag unless the brackets are escaped too.
    args = ["play", "-p", "catastrophe", "-o", "surprise=true", "--players", "3", "--seed", "2"]
    out = run(*args, input="quit\n")
    line = next(line for line in out.output.splitlines() if line.startswith("On the table:"))
    assert "[revealed lead card" in line


# --------------------------------------------------------------------------- hostile files and names

#: Characters that must never reach the terminal from a file or a user: C0/C1 controls but the newline
#: rich writes itself, DEL, line/paragraph separators, bidirectional overrides and isolates, surrogates.
UNSHOWABLE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)

#: Player names an attacker might write into a file: clear screen, set the window title (ended by BEL),
#: a C1 CSI colour, a newline that forges a line, rich markup, a right-to-left override.
HOSTILE = ("\x1b[2J\x1b[HAnn", "\x1b]0;pwned\x07Bo", "\x9b31mCy\nWinner: Cy", "[red]Di[/red]\u202eEd")


def no_unshowable(text: str) -> str:
    found = UNSHOWABLE.search(text)
    assert found is None, f"{found[0]!r} reached the terminal in {text!r}"
    return text


def hostile_record_text(players: int = 3) -> str:
    """A record of Gurka whose player names are HOSTILE's, written into the JSON by hand.

    `new_game` and `loads` refuse such names (a name is one line of printable Unicode text), so
    a file that holds them was made by something else: every command must refuse it in one line,
    with the names' control characters written as escapes.
    """
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    plain = [f"P{seat}" for seat in range(players)]
    state = cr.apply(cr.new_game(rules, plain), cr.Deal(hands=[["2C"], ["3C"], ["9S"]][:players]))
    document = json.loads(cr.dumps(cr.record(state)))
    document["players"] = list(HOSTILE[:players])
    return json.dumps(document)


def test_files_with_hostile_names_are_refused_in_one_escaped_line(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(hostile_record_text(), encoding="utf-8")
    for command in ("replay", "replay --narrate", "replay --step", "play --resume"):
        out = no_unshowable(run(*command.split(), str(path), input="quit\n", code=1).output)
        (line,) = out.splitlines()
        assert line.startswith("error: "), (command, line)
        assert "$.players[0]" in line, (command, line)  # the path of the first bad name
        assert "control character" in line, (command, line)


def test_names_the_rule_allows_are_printed_as_written(tmp_path: Path) -> None:
    # Names may hold rich markup, other scripts and emoji: the one helper escapes what rich would read.
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    names = ["[red]Di[/red]", "[bold]", "Zoë 🥒"]
    state = cr.apply(cr.new_game(rules, names), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
    record = save(tmp_path / "r.json", state)
    game = tmp_path / "game.json"
    outputs = {
        "replay": run("replay", str(record)).output,
        "play --resume": run(
            "play", "--resume", str(record), "--seat", "2", "--seed", "1", "--save", str(game),
            input="?\nhand\nQQ\n2C\n9S\ns\n",
        ).output,
    }  # fmt: skip
    outputs["replay --narrate"] = run("replay", str(game), "--narrate").output
    for command, out in outputs.items():
        no_unshowable(out)
        assert "[red]Di[/red]" in out, command  # printed as written, not read as markup
        assert "[bold]" in out, command
    assert "you are Zoë 🥒 (seat 2)" in outputs["play --resume"]
    assert "you cannot play 2C: it is not in your hand" in outputs["play --resume"]


def test_the_one_helper_writes_control_characters_as_escapes() -> None:
    from cucumber_rules.cli.common import shown

    for name in HOSTILE:
        no_unshowable(shown(name))
    assert shown(HOSTILE[0]) == "\\x1b[2J\\x1b[HAnn"
    assert shown(HOSTILE[1]) == "\\x1b]0;pwned\\x07Bo"
    assert shown(HOSTILE[2]) == "\\x9b31mCy\\x0aWinner: Cy"


def test_file_names_and_option_values_are_shown_escaped(tmp_path: Path) -> None:
    out = run("replay", str(tmp_path / "\x1b[2Jgone.json"), code=1).output
    assert "\\x1b[2Jgone.json" in no_unshowable(out)
    out = run("demo", "--option", "threshold=\x1b]0;t\x07", code=2).output
    assert "\\x1b]0;t\\x07" in no_unshowable(out)
    out = run("demo", "--bots", "\x1b[31mgenius", code=2).output
    assert "\\x1b[31mgenius" in no_unshowable(out)


def test_every_place_that_prints_text_uses_the_one_helper() -> None:
    """rich's own `escape` is called in one place only: `shown`, which escapes control characters first."""
    cli = Path(cr.__file__).parent / "cli"
    users = [p.name for p in sorted(cli.glob("*.py")) if "escape(" in p.read_text(encoding="utf-8")]
    assert users == ["common.py"]
    assert "markup=False" not in "".join(p.read_text(encoding="utf-8") for p in cli.glob("*.py"))


def deep(opening: str, depth: int = 5000) -> str:
    return opening * depth


#: Files no command may answer with a traceback: deep nesting (Python's JSON parser recurses), deep
#: nesting inside a saved game, numbers Python will not parse, NaN, a name that is not Unicode text,
#: NUL bytes, an empty file, a byte-order mark.
HOSTILE_FILES = {
    "deep arrays": deep("["),
    "deep objects": deep('{"a":'),
    "deep arrays, closed": deep("[") + deep("]"),
    "deep inside a saved game": '{"cucumber_rules_cli": 1, "record": ' + deep("["),
    "deep saved-game field": '{"cucumber_rules_cli": 1, "seat": ' + deep("[") + deep("]") + "}",
    "a 5,000-digit number": "1" * 5000,
    "a 5,000-digit seat": '{"cucumber_rules_cli": 1, "seat": ' + "9" * 5000 + "}",
    "NaN": '{"format": NaN}',
    "empty": "",
    "NUL bytes": "\x00" * 10,
    "byte-order mark": "\ufeff{}",
    "a lone surrogate": hostile_record_text().replace("\\u001b[2J", "\\ud800"),
}


@pytest.mark.parametrize("content", HOSTILE_FILES.values(), ids=HOSTILE_FILES.keys())
@pytest.mark.parametrize("command", ["replay", "play --resume"])
def test_no_file_gives_a_traceback(tmp_path: Path, command: str, content: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(content, encoding="utf-8", errors="surrogatepass")
    out = run(*command.split(), str(path), input="quit\n", code=1).output
    (line,) = no_unshowable(out).splitlines()  # one line, saying what is wrong
    assert line.startswith("error: "), line


def test_an_endless_or_huge_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    from cucumber_rules.cli.saves import MAX_FILE_BYTES

    path = tmp_path / "huge.json"
    path.write_text(" " * (MAX_FILE_BYTES + 1), encoding="utf-8")
    assert "longer than" in run("replay", str(path), code=1).output
    if Path("/dev/zero").exists():
        assert "longer than" in run("replay", "/dev/zero", code=1).output
    assert "cannot read" in run("replay", str(tmp_path), code=1).output  # a directory


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_damaged_saved_game_gives_an_error_line_not_a_traceback(
    tmp_path: Path, data: st.DataObject
) -> None:
    """Cut, splice and byte-flip a saved game: every command reads it or refuses it in one line."""
    text = GOOD_SAVE
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(at, min(len(text), at + 40)))
        insert = data.draw(
            st.sampled_from(["", "[", "{", "]", "}", '"', ",", "null", "-1", "1e999", "\\u0000"])
        )
        text = text[:at] + insert + text[end:]
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8")
    for command in ("replay", "play --resume"):
        result = RUNNER.invoke(app, [*command.split(), str(path)], input="quit\n")
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 2), result.output
        if result.exit_code:
            errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
            assert len(errors) == 1, result.output


def _good_save() -> str:
    state = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), ["Ann", "Bo", "Cy"]),
                     cr.Deal(hands=[["2C", "4D"], ["3C", "5D"], ["9S", "6H"]]))  # fmt: skip
    document = {"cucumber_rules_cli": 1, "seat": 2, "seed": 1, "bots": ["random", "random", None],
                "record": json.loads(cr.dumps(cr.record(state)))}  # fmt: skip
    return json.dumps(document)


GOOD_SAVE = _good_save()


# --------------------------------------------------------------------------- play: explained


def test_play_save_to_a_missing_directory_fails_before_the_deal(tmp_path: Path) -> None:
    out = run("play", "--save", str(tmp_path / "no" / "x.json"), "--seed", "1", input="quit\n", code=1).output
    assert "cannot save to" in out
    assert "Your hand" not in out
    assert "Round 1" not in out


def catastrophe_table(tmp_path: Path, *plays: str) -> Path:
    """Catastrophe, 3 players, 3 cards each; Ann holds the 5-cucumber card 5."""
    rules = cr.ruleset("catastrophe", hand_size=3)
    hands = [["5", "22", "60"], ["30", "10", "40"], ["25", "15", "50"]]
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=hands))
    for seat, card in enumerate(plays):
        state = cr.apply(state, cr.Play(seat, cr.card(card)))
    return save(tmp_path / "catastrophe.json", state)


def test_play_catastrophe_explains_the_marker_from_the_start(tmp_path: Path) -> None:
    out = run("play", "-p", "catastrophe", "--players", "3", "--seed", "3", input="quit\n").output
    assert out.index("How a trick is taken: the Trick Marker.") < out.index("Your hand")
    assert "Trick Marker: not set. You lead; the next card sets it (higher: High, lower: Low)." in out
    # Why 5 is missing from "You may play": the library's reason, addressed to the player.
    out = run("play", "--resume", str(catastrophe_table(tmp_path)), "--seat", "0", input="quit\n").output
    assert "You may play: 22 60\n" in out
    assert "Not now: 5 (a 5-cucumber card may not lead a trick while your hand holds other cards)" in out
    out = run(
        "play", "--resume", str(catastrophe_table(tmp_path, "22")), "--seat", "1", input="quit\n"
    ).output
    assert "Trick Marker: your card sets it. Higher than 22 sets High" in out
    assert "Not now" not in out  # (any card may set the marker)
    path = catastrophe_table(tmp_path, "22", "30")
    out = run("play", "--resume", str(path), "--seat", "2", input="quit\n").output
    assert "Trick Marker: HIGH, the highest card takes the trick. Play higher than 22 if you can" in out
    assert "Not now: 15 (the High rule is in force, play a card higher than 22)" in out


def test_a_card_barred_by_the_ladder_rule_is_explained(tmp_path: Path) -> None:
    out = run("play", "--resume", str(agurk_table(tmp_path)), "--seat", "1", input="quit\n").output
    assert "You may play: 3C JD" in out
    assert "Not now: 9H (you must play 10 or higher, or your lowest card 3C)" in out


def test_rules_catastrophe_describes_the_trick_marker() -> None:
    out = " ".join(run("rules", "catastrophe").output.split())
    assert "How a trick is taken: the Trick Marker." in out
    assert "after a broken High the lowest card takes the trick" in out
    assert "A five-cucumber card cannot lead" in out
    assert "Trick Marker" not in run("rules", "agurk").output


def test_the_cli_page_lists_every_subcommand() -> None:
    import typer.main

    names = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    page = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    words = {5: "five", 6: "six", 7: "seven", 8: "eight"}
    assert f"It has {words[len(names)]} subcommands:" in page
    assert [n for n in names if f"| `cucumber-rules {n}" not in page] == []


def test_the_rules_intro_with_surprise_has_no_lead_ban() -> None:
    # With Surprise Cucumber the turned-up card leads every trick: no player leads, so the 5-cucumber
    # lead ban never applies (the first seat may play a 5-cucumber card), and the intro says nothing of it.
    words = cr.GAMES["catastrophe"].words
    assert "cannot lead" in str(words.rules_intro(cr.ruleset("catastrophe")))
    surprise = cr.ruleset("catastrophe", surprise=True)
    assert isinstance(surprise, CatastropheRules)
    intro = str(words.rules_intro(surprise))
    assert "turned up as each trick's lead" in intro
    assert "cannot lead" not in intro
    start = cr.new_game(surprise, players=3)
    s = cr.apply(start, cr.sample_chance(start, random.Random(0)))
    hand = cr.view(s, s.to_act).hand
    fives = [c for c in hand if cucumbers_on(surprise, c) == 5]
    assert fives  # a 5-cucumber card among others: the lead ban would bar it ...
    assert len(hand) > len(fives)
    playable = {m.card for m in cr.legal_moves(s) if isinstance(m, cr.Play)}
    assert playable == set(hand)  # ... but every card is playable


def out_of_the_match(tmp_path: Path) -> Path:
    """Gurka, 3 players, one card each: Cy (the human, seat 2) must take a 9 and is out at once."""
    rules = cr.ruleset("gurka", hand_size=1, threshold=5)
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
    return save(tmp_path / "out.json", state)


@pytest.mark.parametrize(
    ("answer", "seen", "unseen"),
    [
        ("\n", ["Round 2: Ann deals", "Winner: Ann", "Final standings"], []),
        ("s\n", ["Winner: Ann", "Final standings"], ["Round 2: Ann deals"]),
        ("q\n", ["Stopped. Saved to"], ["Round 2", "Final standings"]),
    ],
)
def test_a_player_who_is_out_is_told_and_may_watch_or_skip(
    tmp_path: Path, answer: str, seen: list[str], unseen: list[str]
) -> None:
    path = out_of_the_match(tmp_path)
    out = run("play", "--resume", str(path), "--seat", "2", "--seed", "1", input="9S\n" + answer).output
    assert "Cy is eliminated" in out
    assert "You are out. The bots play the match to its end." in out
    assert "Enter: watch it round by round · s: skip to the final standings · q: stop" in out
    for text in seen:
        assert text in out, text
    for text in unseen:
        assert text not in out, text
    # Resumed while out: told again, and asked again.
    if answer == "q\n":
        again = run("play", "--resume", str(path), input="s\n").output
        assert "You are out." in again
        assert "Final standings" in again


def test_watching_round_by_round_pauses_after_each_round(tmp_path: Path) -> None:
    rules = cr.ruleset("gurka", hand_size=1, threshold=20)
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy", "Di"]),
                     cr.Deal(hands=[["2C"], ["3C"], ["AS"], ["4C"]]))  # fmt: skip
    state = cr.apply(cr.apply(state, cr.Play(0, cr.card("2C"))), cr.Play(1, cr.card("3C")))
    path = save(tmp_path / "long.json", state)
    # Cy takes AS (14) and then KC (13): out after round 2. Ann, Bo and Di play four more rounds.
    out = run("play", "--resume", str(path), "--seat", "2", "--seed", "2", input="AS\n\n\n\n\n\n").output
    assert out.index("Cy is eliminated") < out.index("You are out.") < out.index("Round 3: Bo deals")
    assert out.count("Enter: the next round · s: skip to the final standings · q: stop") == 3
    assert "Round 6: Di deals" in out
    assert "Winner: Ann" in out
    # Skipping after round 3: the rest is not told, only how it ended.
    path = save(tmp_path / "long.json", state)
    out = run("play", "--resume", str(path), "--seat", "2", "--seed", "2", input="AS\n\n\ns\n").output
    assert "Round 3: Bo deals" in out
    assert "Round 4" not in out
    assert "Winner: Ann" in out


# --------------------------------------------------------------------------- replay, told


def catastrophe_match(tmp_path: Path) -> tuple[cr.State, Path]:
    final = play_match(cr.ruleset("catastrophe"), [HeuristicBot(), RandomBot(), RandomBot()], seed=3)
    return final, save(tmp_path / "catastrophe.json", final)


def test_replay_narrate_tells_every_trick_and_every_deal(tmp_path: Path) -> None:
    final, path = catastrophe_match(tmp_path)
    out = run("replay", str(path), "--narrate").output
    assert out.count("trick 1:") == 4  # four hands
    assert out.count("trick 10:") == 4  # of ten tricks each
    assert "[High: highest wins]" in out or "[Low: lowest wins]" in out  # the marker, in the game's words
    assert out.count(" holds ") == 4 * 3  # each deal's hands: a record holds them all
    for number in range(1, 5):
        assert f"hand {number} cucumbers:" in out
    (winner,) = cr.score(final).winners
    assert out.rstrip().endswith(f"Winner: {final.players[winner]}")


def test_replay_jumps_to_one_round(tmp_path: Path) -> None:
    final, path = catastrophe_match(tmp_path)
    out = run("replay", str(path), "--round", "2").output
    assert "Hand 2:" in out
    assert "Hand 1:" not in out
    assert "Hand 3:" not in out
    assert out.count("trick 1:") == 1
    # The standings after hand 2, labelled as such (not the match's), and how the record ends.
    assert "Standings (after hand 2 of 4)" in out
    assert "After hand 2 of 4, a deal is due." in out
    assert "Final standings" not in out
    (winner,) = cr.score(final).winners
    assert f"to the end of the match. Winner: {final.players[winner]}" in out
    assert (
        "--round must be a hand 1..4 of this match, not 5"
        in run("replay", str(path), "-r", "5", code=2).output
    )
    assert "not 0" in run("replay", str(path), "-r", "0", code=2).output
    fresh = save(tmp_path / "fresh.json", cr.new_game(cr.ruleset("catastrophe"), 3))
    assert "has not dealt its first hand yet" in run("replay", str(fresh), "-r", "1", code=2).output
    assert "a valid record" in run("replay", str(fresh), "--narrate").output  # nothing to tell, no error
    assert "a deal is due" in run("replay", str(fresh), "--step", input="").output


def test_replay_steps_trick_by_trick_and_jumps(tmp_path: Path) -> None:
    _, path = catastrophe_match(tmp_path)
    out = run("replay", str(path), "--step", input="\n?\nt\nr 9\nr 4\nq\n").output
    assert "Enter: the next trick · r N: jump to hand N · t: the table in words · q: stop" in out
    assert "trick 2:" in out
    assert "trick 3:" not in out.split("Hand 4:")[0]  # one trick per Enter
    assert "Cucumber Catastrophe, hand 1, trick 3 of 10." in out  # the table in the picture's words
    assert "This match has hands 1..4." in out
    after_jump = out.split("Hand 4:")[1]
    assert "trick 1:" in after_jump
    assert "trick 2:" not in after_jump  # stopped after the first trick of hand 4
    assert "Standings (after trick 1 of hand 4)" in out  # the standings where the telling stopped
    assert "After trick 1 of hand 4, " in out
    assert "The record goes on for " in out
    assert "Standings (the match is in play)" not in out
    assert "Final standings" not in out
    # End of input stops too; --step with --round starts there.
    out = run("replay", str(path), "--step", "--round", "3", input="").output
    assert "Hand 3:" in out
    assert "Hand 1:" not in out
