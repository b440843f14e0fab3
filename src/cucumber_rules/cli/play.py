"""`play`: a match against bots in the terminal, saved after every move; and what a player who is out sees.

The command reads its flags into a `Sitting` (a new match, or one resumed from its saved file), greets
the player, then `_play_out` plays the match to its end: each step draws the chance action or a
bot's, or asks the player (`prompts.human_action`), narrates it and saves the session.
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Annotated, Literal, NoReturn

import attrs
import typer
from rich.console import Console

import cucumber_rules as cr
from cucumber_rules.bots import Bot
from cucumber_rules.narrate import narrate, rules_intro

from .common import (
    BOT_NAMES,
    NAMES,
    OptionOpt,
    PlayersOpt,
    PresetOpt,
    check_players,
    fail,
    make_console,
    option_given,
    resolve_lineup,
    rules_from,
    rules_title,
    shown,
)
from .output import standings_table
from .prompts import ask_pause, human_action
from .saves import Session, check_resume_flags, load_save, play_seed, refuse, replay_save, write_save

SeatOpt = Annotated[int, typer.Option(metavar="SEAT", help="Your seat (0 leads the first trick).")]
BotsOpt = Annotated[
    str,
    typer.Option(
        metavar="BOT,...",
        help=f"The other seats' bots, comma-separated ({BOT_NAMES}); the last fills the remaining seats.",
    ),
]
SeedOpt = Annotated[
    int | None, typer.Option(metavar="N", help="Seed for the deals and bots (default: random).")
]
SaveOpt = Annotated[
    Path | None,
    typer.Option(metavar="FILE", help="Save the game to this file after every move and when you quit."),
]
ResumeOpt = Annotated[
    Path | None,
    typer.Option(
        metavar="FILE",
        help="Resume the game saved in this file (your seat, the bots and the seed too); "
        "it is saved back there.",
    ),
]


def play(
    ctx: typer.Context,
    preset: PresetOpt = "agurk",
    option: OptionOpt = None,
    players: PlayersOpt = 4,
    seat: SeatOpt = 0,
    bots: BotsOpt = "heuristic",
    seed: SeedOpt = None,
    save: SaveOpt = None,
    resume: ResumeOpt = None,
) -> None:
    """Play against bots in the terminal; you see only your own cards."""
    out = make_console()
    if resume is None:
        sitting = _new_sitting(preset, option, players, seat, bots, seed, save)
    else:
        sitting = _resumed_sitting(ctx, resume, preset, option, players, seat, bots, seed, save)
    write_save(sitting.save, sitting.session)  # (at once: an unwritable file is said before the deal)
    if resume is not None:
        out.print(f"Resumed {shown(str(resume))}: {len(sitting.session.record.actions)} actions replayed.")
    _greet(out, sitting)
    _play_out(out, sitting)


@attrs.frozen
class Sitting:
    """A sitting of `play` about to go on: the match so far, who sits where, and where it is saved."""

    state: cr.State
    """The match so far."""
    session: Session
    """What the saved file holds: the record, the player's seat, the bots, the seed."""
    lineup: tuple[Bot | None, ...]
    """Each seat's bot; None for the player's."""
    save: Path | None
    """Where the session is saved after every move (None: nowhere)."""

    @property
    def seat(self) -> int:
        """The player's seat."""
        return self.session.seat


def _new_sitting(
    preset: str,
    option: list[str] | None,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    save: Path | None,
) -> Sitting:
    """A new match of the preset (its options given), the player at `seat` and the named bots around."""
    rules = rules_from(preset, option)
    check_players(rules, players)
    return _seated(cr.new_game(rules, list(NAMES[:players])), seat, bots, seed, save)


def _resumed_sitting(
    ctx: typer.Context,
    resume: Path,
    preset: str,
    option: list[str] | None,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    save: Path | None,
) -> Sitting:
    """The match saved in `resume`, replayed; a flag given that disagrees with the saved file is refused."""
    rec, saved = load_save(resume)
    state = replay_save(resume, rec)
    check_resume_flags(ctx, resume, state, preset, option, players)
    if saved is not None:
        for flag, value, was in (("--seat", seat, saved.seat), ("--seed", seed, saved.seed)):
            if option_given(ctx, flag[2:]) and value != was:
                refuse(flag, value, resume, f"it has {flag[2:]} {was}")
        kept = [b for b in saved.bots if b is not None]
        if option_given(ctx, "bots"):
            wanted = [b.name for b in resolve_lineup(bots, len(state.players) - 1, human=True)]
            if wanted != kept:
                refuse("--bots", bots, resume, f"its bots are {','.join(kept)}")
        seat, seed, bots = saved.seat, saved.seed, ",".join(kept)
    return _seated(state, seat, bots, seed, resume if save is None else save)


def _seated(state: cr.State, seat: int, bots: str, seed: int | None, save: Path | None) -> Sitting:
    """The sitting of a match: the player at `seat`, the bots in the other seats, a seed drawn if none."""
    players = len(state.players)
    if not 0 <= seat < players:
        fail(f"--seat must be a seat 0..{players - 1}, not {seat}")
    others = resolve_lineup(bots, players - 1, human=True)
    lineup: tuple[Bot | None, ...] = (*others[:seat], None, *others[seat:])
    if seed is None:
        seed = secrets.randbits(32)
    names = tuple(b.name if b is not None else None for b in lineup)
    return Sitting(state, Session(cr.record(state), seat, names, seed), lineup, save)


def _greet(out: Console, sitting: Sitting) -> None:
    """Say what is played, by whom, with which seed; and how the rules go, where there is a word on them."""
    state, seat = sitting.state, sitting.seat
    who = f"you are {shown(state.players[seat])} (seat {seat})"
    out.print(
        f"[bold]{shown(rules_title(state.rules))}[/bold] · {who} · seed {sitting.session.seed} · '?' for help"
    )
    how = rules_intro(state.rules)
    if how is not None:
        out.print(shown(how))


def _play_out(out: Console, sitting: Sitting) -> None:
    """Play the match to its end, narrating each action and saving the session after each one."""
    state, session, seat = sitting.state, sitting.session, sitting.seat
    step = len(session.record.actions)
    watch: Watch = "all"
    while not state.is_over:
        if watch == "all" and _is_out(state, seat):
            out.print("\n[bold]You are out.[/bold] The bots play the match to its end.")
            watch = _watch(out, "Enter: watch it round by round · s: skip to the final standings · q: stop")
        if watch == "stop":
            _stop(out, sitting.save)
        action = _next_action(out, sitting, state, step)
        if action is None:
            write_save(sitting.save, session)
            _stop(out, sitting.save)
        after = cr.apply(state, action)
        if watch != "skip" or after.is_over:
            for line in narrate(state, action, after):
                out.print(shown(line))
        state, before = after, state
        step += 1
        session = attrs.evolve(session, record=cr.record(state))
        write_save(sitting.save, session)
        if watch == "rounds" and not state.is_over and state.match.rounds > before.match.rounds:
            watch = _watch(out, "Enter: the next round · s: skip to the final standings · q: stop")
    out.print(standings_table(state))


def _next_action(out: Console, sitting: Sitting, state: cr.State, step: int) -> cr.Action | None:
    """The action due: drawn by chance, chosen by the seat's bot, or asked of the player (None: they quit).

    Each step draws with a generator seeded from the session's seed and the step (`saves.play_seed`),
    so a resumed session goes on as it would have.
    """
    to_act = state.to_act
    assert to_act is not None
    rng = random.Random(play_seed(sitting.session.seed, step))
    if to_act == cr.CHANCE:
        return cr.sample_chance(state, rng)
    bot = sitting.lineup[to_act]
    if bot is not None:
        return bot.choose(cr.view(state, to_act), rng)
    return human_action(out, state, sitting.seat)


#: How much of the match a player who is out sees: every line, a pause after each round, only the end.
Watch = Literal["all", "rounds", "skip", "stop"]


def _is_out(state: cr.State, seat: int) -> bool:
    """True once `seat` is out of the match for good (`Match.is_out`; not once the match is over)."""
    return not state.is_over and state.match.is_out(seat)


def _watch(out: Console, choices: str) -> Watch:
    """Ask how to go on watching; end of input stops."""
    while True:
        answer = ask_pause(out, choices)
        if answer is None:
            return "stop"
        word = answer.strip().lower()
        if word in ("", "w", "watch", "n", "next"):
            return "rounds"
        if word in ("s", "skip"):
            return "skip"
        if word in ("q", "quit", "exit"):
            return "stop"
        out.print(choices)


def _stop(out: Console, save: Path | None) -> NoReturn:
    where = shown(str(save))
    note = f" Saved to {where}; continue with --resume {where}." if save is not None else ""
    out.print(f"Stopped.{note}")
    raise typer.Exit(0)
