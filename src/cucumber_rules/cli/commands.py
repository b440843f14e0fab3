"""The commands, registered on `app` in the order `--help` lists them: demo, play, simulate, replay, rules.

`play` is in `cli.play` and `replay` in `cli.replay`; `demo`, `simulate` and `rules` are here.
"""

from __future__ import annotations

import json
import multiprocessing
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import cucumber_rules as cr
from cucumber_rules.narrate import narrate, rules_intro
from cucumber_rules.options import option_definitions
from cucumber_rules.simulate import play_steps, simulate

from .common import (
    NAMES,
    Command,
    LineupOpt,
    OptionOpt,
    PlayersOpt,
    PresetOpt,
    app,
    check_players,
    fail,
    make_console,
    resolve_lineup,
    rules_from,
    rules_title,
    shown,
)
from .output import print_summary, standings_table, value_text
from .play import play
from .replay import replay_command

# --------------------------------------------------------------------------- demo


def demo(
    preset: PresetOpt = "agurk",
    players: PlayersOpt = 4,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the match (deals and bots).")] = 7,
    bots: LineupOpt = "heuristic,random",
    option: OptionOpt = None,
) -> None:
    """Watch a seeded match between bots, narrated trick by trick."""
    rules = rules_from(preset, option)
    check_players(rules, players)
    lineup = resolve_lineup(bots, players)
    names = list(NAMES[:players])
    out = make_console()
    seats = ", ".join(f"{name} ({bot.name})" for name, bot in zip(names, lineup, strict=True))
    out.print(f"[bold]{shown(rules_title(rules))}[/bold] · {players} players · seed {seed}")
    out.print(f"Seats: {shown(seats)}")
    state = cr.new_game(rules, names)
    for before, action, after in play_steps(rules, lineup, seed=seed, state=state):
        for line in narrate(before, action, after):
            out.print(shown(line))
        state = after
    out.print(standings_table(state))


# --------------------------------------------------------------------------- simulate


@contextmanager
def _executor(workers: int) -> Iterator[Executor | None]:
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


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
    rules = rules_from(preset, option)
    check_players(rules, players)
    lineup = resolve_lineup(bots, players)
    if matches < 1:
        fail(f"--matches must be at least 1, not {matches}")
    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
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
        print_summary(make_console(), result)


# --------------------------------------------------------------------------- rules


def rules_command(
    preset: Annotated[str | None, typer.Argument(metavar="PRESET", help="Show one preset's options.")] = None,
) -> None:
    """List the presets and every option with its default and meaning."""
    out = make_console()
    if preset is not None:
        try:
            rules = cr.ruleset(preset)
        except cr.InvalidRulesError as error:
            fail(str(error))
        name = rules.name
        table = Table(title=f"{name} ({rules.game}, {rules.min_players}–{rules.max_players} players)")
        table.add_column("option")
        table.add_column("value")
        table.add_column("meaning")
        for option in cr.game_of(rules).options.values():
            table.add_row(option.name, shown(value_text(getattr(rules, option.name))), shown(option.meaning))
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
    definitions = option_definitions()
    names = Counter(option.name for option in definitions)
    for option in definitions:
        values: dict[str, list[str]] = {}
        for name, rules in cr.RULESETS.items():
            if rules.game in option.games:
                values.setdefault(value_text(getattr(rules, option.name)), []).append(name)
        if len(values) == 1:
            default = next(iter(values))
        else:
            default = "; ".join(f"{', '.join(names)}: {v}" for v, names in values.items())
        choices = f" (one of {', '.join(value_text(c) for c in option.choices)})" if option.choices else ""
        # (an option two games define differently is listed for each, with its games)
        label = option.name if names[option.name] == 1 else f"{option.name} ({', '.join(option.games)})"
        options.add_row(shown(label), shown(default), shown(option.meaning + choices))
    out.print(options)
    out.print("Change an option with --option key=value, e.g. --option threshold=30.")


# --------------------------------------------------------------------------- the commands, in order

app.command(name="demo", cls=Command)(demo)
app.command(name="play", cls=Command)(play)
app.command(name="simulate", cls=Command)(simulate_command)
app.command(name="replay", cls=Command)(replay_command)
app.command(name="rules", cls=Command)(rules_command)
