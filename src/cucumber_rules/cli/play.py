"""`play`: a match against bots in the terminal, saved after every move; and what a player who is out sees."""

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


def play(
    ctx: typer.Context,
    preset: PresetOpt = "agurk",
    option: OptionOpt = None,
    players: PlayersOpt = 4,
    seat: Annotated[int, typer.Option(metavar="SEAT", help="Your seat (0 leads the first trick).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOT,...",
            help=f"The other seats' bots, comma-separated ({BOT_NAMES}); the last fills the remaining seats.",
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed for the deals and bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Save the game to this file after every move and when you quit."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Resume the game saved in this file (your seat, the bots and the seed too); "
            "it is saved back there.",
        ),
    ] = None,
) -> None:
    """Play against bots in the terminal; you see only your own cards."""
    out = make_console()
    if resume is not None:
        rec, saved = load_save(resume)
        state = replay_save(resume, rec)
        rules = state.rules
        check_resume_flags(ctx, resume, state, preset, option, players)
        players = len(state.players)
        if saved is not None:
            for flag, value, was in (
                ("--seat", seat, saved.seat),
                ("--seed", seed, saved.seed),
            ):
                if option_given(ctx, flag[2:]) and value != was:
                    refuse(flag, value, resume, f"it has {flag[2:]} {was}")
            if option_given(ctx, "bots"):
                wanted = [b.name for b in resolve_lineup(bots, players - 1, human=True)]
                kept = [b for b in saved.bots if b is not None]
                if wanted != kept:
                    refuse("--bots", bots, resume, f"its bots are {','.join(kept)}")
            seat, seed = saved.seat, saved.seed
            names = [b for b in saved.bots if b is not None]
            bots = ",".join(names)
        if save is None:
            save = resume
    else:
        rules = rules_from(preset, option)
        check_players(rules, players)
        state = cr.new_game(rules, list(NAMES[:players]))
    if not 0 <= seat < players:
        fail(f"--seat must be a seat 0..{players - 1}, not {seat}")
    others = resolve_lineup(bots, players - 1, human=True)
    lineup: tuple[Bot | None, ...] = (*others[:seat], None, *others[seat:])
    if seed is None:
        seed = secrets.randbits(32)
    game = Session(cr.record(state), seat, tuple(b.name if b is not None else None for b in lineup), seed)
    write_save(
        save, game
    )  # (at once: a file that cannot be written is said before the deal, not after a move)
    if resume is not None:
        out.print(f"Resumed {shown(str(resume))}: {len(rec.actions)} actions replayed.")
    out.print(
        f"[bold]{shown(rules_title(rules))}[/bold] · you are {shown(state.players[seat])} (seat {seat}) "
        f"· seed {seed} · '?' for help"
    )
    how = rules_intro(rules)
    if how is not None:
        out.print(shown(how))
    step = len(game.record.actions)
    watch: Watch = "all"
    while not state.is_over:
        if watch == "all" and _is_out(state, seat):
            out.print("\n[bold]You are out.[/bold] The bots play the match to its end.")
            watch = _watch(out, "Enter: watch it round by round · s: skip to the final standings · q: stop")
        if watch == "stop":
            _stop(out, save)
        to_act = state.to_act
        assert to_act is not None
        bot = lineup[to_act] if to_act >= 0 else None
        rng = random.Random(play_seed(seed, step))
        if to_act == cr.CHANCE:
            action = cr.sample_chance(state, rng)
        elif bot is not None:
            action = bot.choose(cr.view(state, to_act), rng)
        else:
            chosen = human_action(out, state, seat)
            if chosen is None:
                write_save(save, game)
                _stop(out, save)
            action = chosen
        after = cr.apply(state, action)
        if watch != "skip" or after.is_over:
            for line in narrate(state, action, after):
                out.print(shown(line))
        state, before = after, state
        step += 1
        game = attrs.evolve(game, record=cr.record(state))
        write_save(save, game)
        if watch == "rounds" and not state.is_over and state.match.rounds > before.match.rounds:
            watch = _watch(out, "Enter: the next round · s: skip to the final standings · q: stop")
    out.print(standings_table(state))


#: How much of the match a player who is out sees: every line, a pause after each round, only the end.
Watch = Literal["all", "rounds", "skip", "stop"]


def _is_out(state: cr.State, seat: int) -> bool:
    """True once `seat` is out of the match for good (not while a buy-back is still theirs to decide).

    Only a game whose scores have eliminations (`Score.per_seat`, the ladder's) puts anyone out.
    """
    if state.is_over or state.to_act == seat:
        return False
    sc = cr.score(state)
    return "eliminated" in type(sc).per_seat and bool(sc.eliminated[seat])


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
