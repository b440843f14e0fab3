"""The commands, registered on `app` in the order `--help` lists them: demo, play, simulate, replay, rules."""

from __future__ import annotations

import json
import multiprocessing
import random
import re
import secrets
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Literal, NoReturn

import attrs
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import cucumber_rules as cr
from cucumber_rules.bots import Bot
from cucumber_rules.narrate import narrate, rules_intro
from cucumber_rules.render import describe
from cucumber_rules.simulate import play_steps, simulate

from .common import (
    BOT_NAMES,
    NAMES,
    LineupOpt,
    OptionOpt,
    PlayersOpt,
    PresetOpt,
    _bots,
    _check_players,
    _Command,
    _fail,
    _given,
    _out,
    _rules,
    _title,
    app,
    shown,
)
from .output import _standings, _summary, _value
from .prompts import _human_action, _pause
from .saves import _check_resume_flags, _Game, _load, _refuse, _replay, _save, play_seed

# --------------------------------------------------------------------------- demo


@app.command(cls=_Command)
def demo(
    preset: PresetOpt = "agurk",
    players: PlayersOpt = 4,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the match (deals and bots).")] = 7,
    bots: LineupOpt = "heuristic,random",
    option: OptionOpt = None,
) -> None:
    """Watch a seeded match between bots, narrated trick by trick."""
    rules = _rules(preset, option)
    _check_players(rules, players)
    lineup = _bots(bots, players)
    names = list(NAMES[:players])
    out = _out()
    seats = ", ".join(f"{name} ({bot.name})" for name, bot in zip(names, lineup, strict=True))
    out.print(f"[bold]{shown(_title(rules))}[/bold] · {players} players · seed {seed}")
    out.print(f"Seats: {shown(seats)}")
    state = cr.new_game(rules, names)
    for before, action, after in play_steps(rules, lineup, seed=seed, state=state):
        for line in narrate(before, action, after):
            out.print(shown(line))
        state = after
    out.print(_standings(state))


# --------------------------------------------------------------------------- play


@app.command(cls=_Command)
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
    out = _out()
    if resume is not None:
        rec, saved = _load(resume)
        state = _replay(resume, rec)
        rules = state.rules
        _check_resume_flags(ctx, resume, state, preset, option, players)
        players = len(state.players)
        if saved is not None:
            for flag, value, was in (
                ("--seat", seat, saved.seat),
                ("--seed", seed, saved.seed),
            ):
                if _given(ctx, flag[2:]) and value != was:
                    _refuse(flag, value, resume, f"it has {flag[2:]} {was}")
            if _given(ctx, "bots"):
                wanted = [b.name for b in _bots(bots, players - 1, human=True)]
                kept = [b for b in saved.bots if b is not None]
                if wanted != kept:
                    _refuse("--bots", bots, resume, f"its bots are {','.join(kept)}")
            seat, seed = saved.seat, saved.seed
            names = [b for b in saved.bots if b is not None]
            bots = ",".join(names)
        if save is None:
            save = resume
    else:
        rules = _rules(preset, option)
        _check_players(rules, players)
        state = cr.new_game(rules, list(NAMES[:players]))
    if not 0 <= seat < players:
        _fail(f"--seat must be a seat 0..{players - 1}, not {seat}")
    others = _bots(bots, players - 1, human=True)
    lineup: tuple[Bot | None, ...] = (*others[:seat], None, *others[seat:])
    if seed is None:
        seed = secrets.randbits(32)
    game = _Game(cr.record(state), seat, tuple(b.name if b is not None else None for b in lineup), seed)
    _save(save, game)  # (at once: a file that cannot be written is said before the deal, not after a move)
    if resume is not None:
        out.print(f"Resumed {shown(str(resume))}: {len(rec.actions)} actions replayed.")
    out.print(
        f"[bold]{shown(_title(rules))}[/bold] · you are {shown(state.players[seat])} (seat {seat}) "
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
            chosen = _human_action(out, state, seat)
            if chosen is None:
                _save(save, game)
                _stop(out, save)
            action = chosen
        after = cr.apply(state, action)
        if watch != "skip" or after.is_over:
            for line in narrate(state, action, after):
                out.print(shown(line))
        state, before = after, state
        step += 1
        game = attrs.evolve(game, record=cr.record(state))
        _save(save, game)
        if watch == "rounds" and not state.is_over and state.match.rounds > before.match.rounds:
            watch = _watch(out, "Enter: the next round · s: skip to the final standings · q: stop")
    out.print(_standings(state))


#: How much of the match a player who is out sees: every line, a pause after each round, only the end.
Watch = Literal["all", "rounds", "skip", "stop"]


def _is_out(state: cr.State, seat: int) -> bool:
    """True once `seat` is out of the match for good (not while a buy-back is still theirs to decide)."""
    return not state.is_over and cr.score(state).eliminated[seat] and state.to_act != seat


def _watch(out: Console, choices: str) -> Watch:
    """Ask how to go on watching; end of input stops."""
    while True:
        answer = _pause(out, choices)
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


# --------------------------------------------------------------------------- simulate


@contextmanager
def _executor(workers: int) -> Iterator[Executor | None]:
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@app.command(name="simulate", cls=_Command)
def simulate_command(
    preset: PresetOpt = "agurk",
    players: PlayersOpt = 4,
    matches: Annotated[int, typer.Option("--matches", "-n", metavar="N", help="Number of matches.")] = 100,
    bots: LineupOpt = "heuristic,random",
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed of the simulation; match i uses a seed derived from it.")
    ] = 0,
    workers: Annotated[
        int, typer.Option("--workers", "-w", metavar="N", help="Worker processes (1: this process).")
    ] = 1,
    rotate: Annotated[bool, typer.Option(help="Rotate the bots round the seats from match to match.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    option: OptionOpt = None,
) -> None:
    """Play many matches between bots and summarise them (win rates with 95% intervals)."""
    rules = _rules(preset, option)
    _check_players(rules, players)
    lineup = _bots(bots, players)
    if matches < 1:
        _fail(f"--matches must be at least 1, not {matches}")
    if workers < 1:
        _fail(f"--workers must be at least 1, not {workers}")
    err = Console(stderr=True)
    with (
        _executor(workers) as executor,
        Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as bar,
    ):
        task = bar.add_task("matches", total=matches)
        result = simulate(
            rules,
            players=players,
            bots=lineup,
            matches=matches,
            seed=seed,
            executor=executor,
            rotate=rotate,
            chunk_size=max(1, min(50, matches // (8 * workers))) if executor is not None else None,
            progress=lambda done: bar.update(task, completed=done),
        )
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _summary(_out(), result)


# --------------------------------------------------------------------------- replay


@app.command(name="replay", cls=_Command)
def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A game saved by `play --save`, or a match record (cr.dumps(cr.record(state))).",
        ),
    ],
    narrated: Annotated[
        bool,
        typer.Option(
            "--narrate",
            help="Tell the match trick by trick: each deal's hands, each trick and what it cost, the scores.",
        ),
    ] = False,
    round_number: Annotated[
        int | None,
        typer.Option("--round", "-r", metavar="N", help="Tell only round N (Catastrophe: hand N)."),
    ] = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Tell the match a trick at a time: Enter for the next, 'r N' to jump to round N, "
            "'t' for the table in words, 'q' to stop.",
        ),
    ] = False,
) -> None:
    """Check a saved game or match record and print its score; tell it trick by trick, or one round.

    Exit code 1 if the file is not a valid record.
    """
    rec, saved = _load(file)
    state = _replay(file, rec)
    out = _out()
    out.print(
        f"{shown(str(file))}: a valid record of {shown(_title(rec.rules))}, {len(rec.players)} players, "
        f"{len(rec.actions)} actions"
    )
    if saved is not None:
        lineup = ", ".join(
            f"{shown(name)} ({'you' if bot is None else shown(bot)})"
            for name, bot in zip(rec.players, saved.bots, strict=True)
        )
        out.print(f"Saved by cucumber-rules play (seed {saved.seed}): {lineup}")
    if narrated or step or round_number is not None:
        match = _Retold.of(rec)
        unit = cr.GAMES[rec.rules.game].unit
        if round_number is not None and not match.rounds:
            _fail(f"--round {round_number}: this match has not dealt its first {unit} yet")
        if round_number is not None and not 1 <= round_number <= match.rounds:
            _fail(f"--round must be a {unit} 1..{match.rounds} of this match, not {round_number}")
        if step and match.rounds:
            state = _step_through(out, match, round_number or 1)
        elif round_number is not None:
            start, end = match.round_span(round_number)
            match.tell(out, start, end)
            state = match.states[end]
            if not state.is_over:
                out.print(f"(after {unit} {round_number} of {match.rounds})")
        elif not step:
            match.tell(out, 0, len(rec.actions))
    out.print(_standings(state))
    sc = cr.score(state)
    if state.is_over:
        out.print("Winner: " + ", ".join(shown(state.players[s]) for s in sc.winners))
    elif state.to_act == cr.CHANCE:
        out.print("The match is in progress: a deal is due.")
    else:
        assert state.to_act is not None
        name, seat = state.players[state.to_act], f"seat {state.to_act}"
        who = seat if name == seat else f"{shown(name)} ({seat})"
        out.print(f"The match is in progress: {who} is to act.")


@attrs.frozen
class _Retold:
    """A match record replayed step by step, to be told in any order."""

    record: cr.Record
    states: tuple[cr.State, ...]
    """The state before each action, and the last state after them all."""
    deals: tuple[int, ...]
    """The index of each round's deal among the actions."""

    @classmethod
    def of(cls, rec: cr.Record) -> _Retold:
        states = [cr.new_game(rec.rules, list(rec.players), first=rec.first)]
        for action in rec.actions:
            states.append(cr.apply(states[-1], action))
        deals = tuple(i for i, a in enumerate(rec.actions) if isinstance(a, cr.Deal))
        return cls(rec, tuple(states), deals)

    @property
    def rounds(self) -> int:
        """The rounds begun."""
        return len(self.deals)

    def round_span(self, number: int) -> tuple[int, int]:
        """The actions of round `number` (from 1): from its deal to the next deal or the end."""
        end = self.deals[number] if number < len(self.deals) else len(self.record.actions)
        return self.deals[number - 1], end

    def lines(self, index: int) -> list[str]:
        """What action `index` tells: `narrate`'s lines, and a deal's hands (a record holds them all)."""
        before, action, after = self.states[index], self.record.actions[index], self.states[index + 1]
        lines = narrate(before, action, after)
        if isinstance(action, cr.Deal):
            lines += [
                f"  {name} holds {' '.join(str(c) for c in hand)}"
                for name, hand in zip(after.players, action.hands, strict=True)
                if hand
            ]
        return lines

    def tell(self, out: Console, start: int, end: int) -> None:
        for index in range(start, end):
            for line in self.lines(index):
                out.print(shown(line))


def _step_help(unit: str) -> str:
    return f"Enter: the next trick · r N: jump to {unit} N · t: the table in words · q: stop"


def _step_through(out: Console, match: _Retold, first_round: int) -> cr.State:
    """Tell the match a trick at a time from round `first_round`; the state where the reader stopped."""
    unit = cr.GAMES[match.record.rules.game].unit
    index = match.round_span(first_round)[0]
    total = len(match.record.actions)
    out.print(_step_help(unit))
    while index < total:
        told = match.lines(index)
        for line in told:
            out.print(shown(line))
        index += 1
        after = match.states[index]
        if index == total or not told or isinstance(match.record.actions[index - 1], cr.Deal):
            continue  # (pause after each trick, not after a deal or a play that leaves the trick open)
        while True:
            answer = _pause(out, ">")
            if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
                return after
            word = answer.strip().lower()
            if word in ("", "n", "next"):
                break
            if word in ("t", "table"):
                for sentence in describe(after, open_hands=True).split(". "):
                    out.print(shown(sentence.removesuffix(".") + "."))
                continue
            jump = re.fullmatch(r"(?:r|round)\s*(\d+)", word)
            if jump and 1 <= int(jump[1]) <= match.rounds:
                index = match.round_span(int(jump[1]))[0]
                break
            if jump:
                out.print(f"This match has {unit}s 1..{match.rounds}.")
                continue
            out.print(_step_help(unit))
    return match.states[total]


# --------------------------------------------------------------------------- rules


@app.command(name="rules", cls=_Command)
def rules_command(
    preset: Annotated[str | None, typer.Argument(metavar="PRESET", help="Show one preset's options.")] = None,
) -> None:
    """List the presets and every option with its default and meaning."""
    out = _out()
    if preset is not None:
        try:
            rules = cr.ruleset(preset)
        except cr.InvalidRulesError as error:
            _fail(str(error))
        name = rules.name
        table = Table(title=f"{name} ({rules.game}, {rules.min_players}–{rules.max_players} players)")
        table.add_column("option")
        table.add_column("value")
        table.add_column("meaning")
        for option in cr.OPTIONS.values():
            if rules.game in option.games:
                table.add_row(option.name, shown(_value(getattr(rules, option.name))), shown(option.meaning))
        out.print(table)
        how = rules_intro(rules)
        if how is not None:
            out.print(shown(how))
        return
    presets = Table(title="Presets")
    presets.add_column("preset")
    presets.add_column("game")
    presets.add_column("players")
    presets.add_column("deck")
    for name, rules in cr.RULESETS.items():
        presets.add_row(name, rules.game, f"{rules.min_players}–{rules.max_players}", rules.deck)
    out.print(presets)
    options = Table(title="Options (defaults by preset)")
    options.add_column("option")
    options.add_column("default")
    options.add_column("meaning")
    for option in cr.OPTIONS.values():
        values: dict[str, list[str]] = {}
        for name, rules in cr.RULESETS.items():
            if rules.game in option.games:
                values.setdefault(_value(getattr(rules, option.name)), []).append(name)
        if len(values) == 1:
            default = next(iter(values))
        else:
            default = "; ".join(f"{', '.join(names)}: {v}" for v, names in values.items())
        choices = f" (one of {', '.join(_value(c) for c in option.choices)})" if option.choices else ""
        options.add_row(option.name, shown(default), shown(option.meaning + choices))
    out.print(options)
    out.print("Change an option with --option key=value, e.g. --option threshold=30.")
