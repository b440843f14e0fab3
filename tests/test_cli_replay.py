"""`cucumber-rules replay` (and `play --resume`) of records that end mid-trick, of a telling stopped early,
and of a plug-in's game without its plug-in (issue 48). The other replay tests are in test_cli.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cucumber_rules as cr
from cli_harness import run
from cucumber_rules.bots import HeuristicBot, RandomBot
from cucumber_rules.simulate import play_match
from cucumber_rules.testing import registered
from plugins.highcard import GAME as HIGH_CARD


def save(path: Path, state: cr.State | cr.Record) -> Path:
    path.write_text(cr.dumps(cr.record(state) if isinstance(state, cr.State) else state), encoding="utf-8")
    return path


def agurk(*plays: str) -> cr.State:
    """Agurk, 3 players, 3 cards each; Ann leads; then `plays` in turn."""
    rules = cr.ruleset("agurk", hand_size=3)
    hands = [["10C", "KS", "4D"], ["9H", "3C", "JD"], ["2S", "5H", "6H"]]
    state = cr.apply(cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=hands))
    for card in plays:
        assert state.to_act is not None
        state = cr.apply(state, cr.Play(state.to_act, cr.card(card)))
    return state


# --------------------------------------------------------------------------- a record that ends mid-trick


def test_the_cards_of_an_open_trick_are_told(tmp_path: Path) -> None:
    path = save(tmp_path / "mid.json", agurk("10C", "JD"))
    for flags, given in ((["--narrate"], None), (["--step"], ""), (["--round", "1"], None)):
        out = run("replay", str(path), *flags, input=given).output
        assert "  trick 1 in play: Ann led 10C, Bo JD; Cy to play\n" in out, flags
        assert "The match is in progress: Cy (seat 2) is to act." in out, flags
    # The second trick, opened by the taker of the first: numbered, after the finished one.
    path = save(tmp_path / "second.json", agurk("10C", "JD", "2S", "3C"))
    out = run("replay", str(path), "--narrate").output
    assert "  trick 1: Ann 10C, Bo JD, Cy 2S → Bo\n" in out
    assert out.index("trick 1:") < out.index("  trick 2 in play: Bo led") < out.index("Standings")
    # A record whose trick is closed, or not begun, has no trick in play.
    for state in (agurk(), agurk("10C", "JD", "2S")):
        assert "in play:" not in run("replay", str(save(tmp_path / "closed.json", state)), "--narrate").output


def test_an_open_trick_of_catastrophe_says_the_trick_marker(tmp_path: Path) -> None:
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = cr.apply(
        cr.new_game(rules, ["Ann", "Bo", "Cy"]), cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]])
    )
    state = cr.apply(cr.apply(state, cr.Play(0, "30")), cr.Play(1, "31"))  # 31 above 30: High
    out = run("replay", str(save(tmp_path / "cat.json", state)), "--step", input="").output
    assert "  trick 1 in play: Ann led 30, Bo 31 [High: highest wins]; Cy to play" in out


# --------------------------------------------------------------------------- stopping early


def named_catastrophe(actions: int) -> cr.Record:
    """The first `actions` of a seeded Catastrophe match between Ann, Bo and Cy."""
    final = play_match(cr.ruleset("catastrophe"), [HeuristicBot(), RandomBot(), RandomBot()], seed=3)
    return cr.Record(final.rules, ("Ann", "Bo", "Cy"), final.first, final.actions[:actions])


def to_act(text: str, pattern: str) -> str:
    found = re.search(pattern, text)
    assert found, text
    return found[1]


def test_step_then_quit_and_plain_replay_agree_on_the_records_end(tmp_path: Path) -> None:
    record = named_catastrophe(49)  # hand 2, trick 6: two cards played
    end = cr.replay(record)
    assert end.to_act is not None
    assert end.trick
    path = save(tmp_path / "partial.json", record)
    plain = run("replay", str(path)).output
    at_end = f"{record.players[end.to_act]} (seat {end.to_act})"
    assert to_act(plain, r"The match is in progress: (.*) is to act\.") == at_end
    for typed in ("\n\nq\n", "\n\n"):  # q, or the end of input, after the third trick of hand 1
        stepped = run("replay", str(path), "--step", input=typed).output
        assert to_act(stepped, r"; at its end, (.*) is to act\.") == at_end
        # The standings and the seat to act where the telling stopped are labelled as that point's.
        stop = cr.replay(cr.Record(record.rules, record.players, record.first, record.actions[:10]))
        assert stop.to_act is not None
        assert stop.to_act != end.to_act  # (else the test would prove nothing)
        at_stop = f"{record.players[stop.to_act]} (seat {stop.to_act})"
        assert "Standings (after trick 3 of hand 1)" in stepped
        assert to_act(stepped, r"After trick 3 of hand 1, (.*) is to act\.") == at_stop
        assert f"The record goes on for {len(record.actions) - 10} more actions;" in stepped
        assert "The match is in progress" not in stepped
        assert "Standings (the match is in play)" not in stepped
    # Stepped to the end, the telling ends where the plain replay does: the same closing words.
    stepped = run("replay", str(path), "--step", input="\n" * 40).output
    assert stepped.endswith(plain.split("Standings (the match is in play)")[1])
    assert "in play: " in stepped  # (the open trick, told)


def test_step_then_quit_on_a_finished_match_names_its_winner(tmp_path: Path) -> None:
    record = named_catastrophe(10_000)
    final = cr.replay(record)
    (winner,) = cr.score(final).winners
    path = save(tmp_path / "final.json", record)
    assert f"Winner: {record.players[winner]}" in run("replay", str(path)).output
    stepped = run("replay", str(path), "--step", input="q\n").output
    assert f"to the end of the match. Winner: {record.players[winner]}" in stepped
    assert "The match is in progress" not in stepped
    assert "Final standings" not in stepped  # (the standings shown are hand 1's, labelled so)
    assert "Standings (after trick 1 of hand 1)" in stepped


# --------------------------------------------------------------------------- a plug-in's game, without it


def high_card_record() -> str:
    with registered(HIGH_CARD):
        state = cr.new_game(cr.ruleset("highcard"), ["Ann", "Bo"])
        state = cr.apply(state, cr.Deal(hands=[["3H"], ["KC"]]))
        return cr.dumps(cr.record(cr.apply(state, cr.Play(0, cr.card("3H")))))


def test_a_plugin_game_without_its_plugin_says_the_plugin_is_missing(tmp_path: Path) -> None:
    assert "highcard" not in cr.GAMES
    text = high_card_record()
    record = tmp_path / "highcard.json"
    record.write_text(text, encoding="utf-8")
    saved = tmp_path / "saved.json"
    document = {"cucumber_rules_cli": 1, "seat": 0, "seed": 1, "bots": [None, "random"]}
    saved.write_text(json.dumps({**document, "record": json.loads(text)}), encoding="utf-8")
    for command in ("replay", "replay --narrate", "play --resume"):
        for path in (record, saved):
            out = run(*command.split(), str(path), input="quit\n", code=1).output
            (line,) = out.splitlines()
            assert line.startswith(
                f"error: {path} records a match of the game 'highcard', whose plug-in is missing"
            )
            assert "entry-point group 'cucumber_rules.games'" in line
            assert "install the package that provides 'highcard'" in line
            assert "game must be one of" not in line
    # With the game registered, the same files replay.
    with registered(HIGH_CARD):
        assert "a valid record of highcard, 2 players, 2 actions" in run("replay", str(record)).output
    # A game that is not a name at all is still a malformed record, said as before.
    document = json.loads(text)
    document["rules"]["game"] = 3
    record.write_text(json.dumps(document), encoding="utf-8")
    out = run("replay", str(record), code=1).output
    assert "is not a valid match record: $.rules.game" in out
    assert "plug-in" not in out
