"""The `cucumber-rules` command line: demo matches, play in the terminal, simulate, replay, rules.

```text
cucumber-rules demo       a narrated match between bots (no arguments needed)
cucumber-rules play       play against bots in the terminal; save and resume
cucumber-rules simulate   many bot matches: win rates with 95% intervals, penalties
cucumber-rules replay     check a saved match record and print its score
cucumber-rules rules      the presets and every option
```

Rules options are given as `--option key=value` (repeatable): ints, `true`/`false`,
`none`, and comma-separated ints for `cucumbers`. A bad option or argument
prints the library's explanation and exits with code 2; an unreadable or
invalid file exits with code 1. The entry point is [`main`][cucumber_rules.cli.main].
"""

from __future__ import annotations

import json
import multiprocessing
import re
import secrets
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .actions import Action, Decision, Play
from .bots import Bot, resolve_bots
from .cards import card
from .engine import apply, check, new_game, sample_chance, score
from .errors import IllegalMoveError, InvalidNotationError, InvalidRulesError, InvalidStateError, RulesError
from .narrate import narrate
from .records import Record, record, replay
from .rules import OPTIONS, RULESETS, Rules, preset_name, ruleset
from .serialization import dumps, loads
from .simulate import SimulationResult, _rngs, play_steps, simulate
from .state import CHANCE, State
from .views import PlayerView, view

__all__ = ["app", "main", "parse_option", "parse_value"]

#: Seat names for bot matches.
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")

app = typer.Typer(
    name="cucumber-rules",
    help="The Cucumber family of card games: watch bots, play, simulate, check records, list rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def main() -> None:
    """Run the command line (the `cucumber-rules` entry point).

    Example:
        >>> from typer.testing import CliRunner
        >>> result = CliRunner().invoke(app, ["rules", "gurka"])
        >>> result.exit_code, "threshold" in result.output
        (0, True)
    """
    app()


# --------------------------------------------------------------------------- helpers


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


def parse_value(text: str) -> Any:
    """Parse an option value: an int, `true`/`false`, `none`, comma-separated ints, else the text.

    Example:
        >>> parse_value("21"), parse_value("True"), parse_value("none"), parse_value("forced-lowest")
        (21, True, None, 'forced-lowest')
        >>> parse_value("5,1,1")
        (5, 1, 1)
    """
    raw = text.strip()
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(raw)
    except ValueError:
        pass
    if "," in raw:
        parts = [p.strip() for p in raw.split(",")]
        try:
            return tuple(int(p) for p in parts)
        except ValueError:
            return raw
    return raw


def parse_option(text: str) -> tuple[str, Any]:
    """Parse `key=value` into an option name and a value (see `parse_value`).

    Raises:
        InvalidRulesError: If there is no `=` or no key.

    Example:
        >>> parse_option("threshold=30"), parse_option("ace-lead=false")
        (('threshold', 30), ('ace_lead', False))
    """
    key, sep, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise InvalidRulesError("option", f"write an option as key=value (e.g. threshold=21), not {text!r}")
    return key, parse_value(value)


def _rules(preset: str, options: Sequence[str] | None) -> Rules:
    try:
        overrides = dict(parse_option(o) for o in options or ())
        return ruleset(preset, **overrides)
    except InvalidRulesError as error:
        _fail(str(error))
    except TypeError as error:  # e.g. a list where an int is expected
        _fail(f"bad option value: {error}")


def _bots(names: str, players: int) -> tuple[Bot, ...]:
    try:
        return resolve_bots(names, players)
    except ValueError as error:
        _fail(str(error))


def _check_players(rules: Rules, players: int) -> None:
    try:
        new_game(rules, players)
    except InvalidRulesError as error:
        _fail(str(error))


def _title(rules: Rules) -> str:
    base = RULESETS.get(rules.name)
    changed = [
        f"{name}={getattr(rules, name)}"
        for name in OPTIONS
        if base is not None and getattr(rules, name) != getattr(base, name) and name != "cucumbers"
    ]
    if base is not None and rules.cucumbers != base.cucumbers:
        changed.append("cucumbers=custom")
    return rules.name + (f" ({', '.join(changed)})" if changed else "")


def _standings(state: State) -> Table:
    sc = score(state)
    table = Table(title="Final standings" if state.is_over else "Standings")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("total", justify="right")
    ladder = any(sc.marks)
    if ladder:
        table.add_column("marks", justify="right")
    table.add_column("")
    for place, seat in enumerate(sc.standings, 1):
        note = "winner" if seat in sc.winners else ("out" if sc.eliminated[seat] else "")
        row = [str(place), escape(state.players[seat]), str(sc.totals[seat])]
        if ladder:
            row.append(str(sc.marks[seat]))
        table.add_row(*row, note)
    return table


# --------------------------------------------------------------------------- demo

PresetOpt = Annotated[str, typer.Option("--preset", "-p", help="A preset: agurk, gurka, five-cucumbers, ...")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rules option as key=value (repeatable), e.g. threshold=30."),
]


@app.command()
def demo(
    preset: PresetOpt = "agurk",
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the match (deals and bots).")] = 7,
    bots: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated; the last fills the remaining seats.")
    ] = "heuristic,random",
    option: OptionOpt = None,
) -> None:
    """Watch a seeded match between bots, narrated trick by trick."""
    rules = _rules(preset, option)
    _check_players(rules, players)
    lineup = _bots(bots, players)
    names = list(NAMES[:players])
    out = _out()
    seats = ", ".join(f"{name} ({bot.name})" for name, bot in zip(names, lineup, strict=True))
    out.print(f"[bold]{escape(_title(rules))}[/bold] · {players} players · seed {seed}")
    out.print(f"Seats: {escape(seats)}")
    state = new_game(rules, names)
    for before, action, after in play_steps(rules, lineup, seed=seed, state=state):
        for line in narrate(before, action, after):
            out.print(line, markup=False)
        state = after
    out.print(_standings(state))


# --------------------------------------------------------------------------- play

_HELP = (
    "Type a card to play it (e.g. QS, 10H, TH, 7, 42). Commands: '?' or 'help' (this help), "
    "'hand' (show the table again), 'quit' (stop; with --save the match is saved)."
)


def _show_view(out: Console, v: PlayerView) -> None:
    assert v.seat is not None
    trick_no = len(v.tricks) + 1
    game = type(v.rules)._game
    unit = game.unit.capitalize()
    out.print(
        f"\n[bold]{unit} {v.round_number}, trick {trick_no}[/bold] · your turn, {escape(v.players[v.seat])}"
    )
    table_cards = ", ".join(f"{escape(v.players[p.seat])} {p.card}" for p in v.trick) or "nothing yet"
    line = f"On the table: {table_cards}"
    extra = game.describe_table(v)
    if extra:
        line += f" [{escape(extra)}]"
    out.print(line)
    others = " · ".join(
        f"{escape(v.players[s])} {n}" for s, n in enumerate(v.hand_sizes) if s != v.seat and n
    )
    if others:
        out.print(f"Cards in hand: {others}")
    out.print(
        "Scores: " + " · ".join(f"{escape(name)} {t}" for name, t in zip(v.players, v.totals, strict=True))
    )
    out.print("Your hand: [bold]" + " ".join(str(c) for c in v.hand) + "[/bold]")
    plays = [str(a.card) for a in v.legal if isinstance(a, Play)]
    out.print("You may play: " + " ".join(dict.fromkeys(plays)))


def _save(path: Path | None, state: State) -> None:
    if path is not None:
        try:
            path.write_text(dumps(record(state)), encoding="utf-8")
        except OSError as error:
            _fail(f"cannot save to {path}: {error.strerror or error}", 1)


def _read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        _fail(f"cannot read {path}: {reason}", 1)


_ACTION_PATH = re.compile(r"^\$\.actions\[(\d+)\]")
_ILLEGAL = re.compile(r"^illegal action \(([\w-]+)\): (.*)$", re.DOTALL)


def _load_record(path: Path) -> Record:
    text = _read_file(path)
    try:
        obj = loads(text)
    except InvalidStateError as error:
        found = _ACTION_PATH.match(error.path)
        why = _ILLEGAL.match(str(error).removeprefix(f"{error.path}: "))
        if found and why:
            _fail(f"{path}: action {found.group(1)} is illegal ({why.group(1)}): {why.group(2)}", 1)
        _fail(f"{path} is not a valid match record: {error}", 1)
    except RulesError as error:
        _fail(f"{path} is not a valid match record: {error}", 1)
    if isinstance(obj, State):
        return record(obj)
    if not isinstance(obj, Record):
        _fail(f"{path} holds a {type(obj).__name__}, not a match record", 1)
    return obj


def _replay(path: Path, rec: Record) -> State:
    try:
        return replay(rec)
    except IllegalMoveError as error:
        index = error.index if error.index is not None else "?"
        message = error.message.removeprefix(f"action {index}: ")
        _fail(f"{path}: action {index} is illegal ({error.code}): {message}", 1)
    except RulesError as error:
        _fail(f"{path} is not a valid match record: {error}", 1)


def _ask(prompt: str) -> str | None:
    try:
        return str(typer.prompt(prompt, prompt_suffix=": "))
    except typer.Abort:
        return None


def _human_action(out: Console, state: State, seat: int) -> Action | None:
    """Ask until the player gives a legal action; None means stop."""
    v = view(state, seat)
    decisions = [a for a in v.legal if isinstance(a, Decision)]
    if decisions:
        game = type(v.rules)._game
        out.print(f"\n[bold]{escape(game.decision_prompt(v))}[/bold] Scores: {v.totals}")
        for number, decision in enumerate(decisions, 1):
            out.print(f"  {number}: {escape(str(decision).removeprefix(f'seat {seat} '))}")
        while True:
            answer = _ask(f"Your choice [1-{len(decisions)}]")
            if answer is None:
                return None
            word = answer.strip().lower()
            if word.isdigit() and 1 <= int(word) <= len(decisions):
                return decisions[int(word) - 1]
            if word in ("q", "quit", "exit"):
                return None
            out.print(f"Answer a number from 1 to {len(decisions)} (or quit).")
    _show_view(out, v)
    while True:
        answer = _ask("Your card")
        if answer is None:
            return None
        word = answer.strip()
        low = word.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "help", "h"):
            out.print(_HELP)
            continue
        if low in ("hand", "table", "show"):
            _show_view(out, v)
            continue
        try:
            action = Play(seat, card(word))
        except InvalidNotationError as bad:
            out.print(f"[red]{escape(str(bad))}[/red]")
            continue
        illegal = check(state, action)
        if illegal is None:
            return action
        out.print(f"[red]{escape(illegal.message)}[/red]")


@app.command()
def play(
    preset: PresetOpt = "agurk",
    option: OptionOpt = None,
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 4,
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the first trick).")] = 0,
    bots: Annotated[str, typer.Option(help="The other seats' bot(s), comma-separated.")] = "heuristic",
    seed: Annotated[int | None, typer.Option(help="Seed for the deals and bots (default: random).")] = None,
    save: Annotated[
        Path | None, typer.Option(help="Save the match record to this file after every move.")
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="Resume the match saved in this file.")] = None,
) -> None:
    """Play against bots in the terminal; you see only your own cards."""
    out = _out()
    if resume is not None:
        rec = _load_record(resume)
        state = _replay(resume, rec)
        rules = state.rules
        players = len(state.players)
        out.print(f"Resumed {escape(str(resume))}: {len(rec.actions)} actions replayed.")
    else:
        rules = _rules(preset, option)
        _check_players(rules, players)
    if not 0 <= seat < players:
        _fail(f"--seat must be a seat 0..{players - 1}, not {seat}")
    if resume is None:
        state = new_game(rules, list(NAMES[:players]))
    others = _bots(bots, players - 1)
    lineup = [*others[:seat], others[0], *others[seat:]]  # the human's seat is never asked
    if seed is None:
        seed = secrets.randbits(32)
    out.print(
        f"[bold]{escape(_title(rules))}[/bold] · you are {escape(state.players[seat])} (seat {seat}) "
        f"· seed {seed} · '?' for help"
    )
    deal_rng, bot_rng = _rngs(seed)
    while not state.is_over:
        to_act = state.to_act
        assert to_act is not None
        if to_act == CHANCE:
            action: Action | None = sample_chance(state, deal_rng)
        elif to_act == seat:
            action = _human_action(out, state, seat)
            if action is None:
                _save(save, state)
                note = f" Saved to {save}; continue with --resume {save}." if save is not None else ""
                out.print(f"Stopped.{escape(note)}")
                raise typer.Exit(0)
        else:
            action = lineup[to_act].choose(view(state, to_act), bot_rng)
        assert action is not None
        after = apply(state, action)
        for line in narrate(state, action, after):
            out.print(line, markup=False)
        state = after
        _save(save, state)
    out.print(_standings(state))


# --------------------------------------------------------------------------- simulate


@contextmanager
def _executor(workers: int) -> Iterator[Executor | None]:
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


def _rate(rate: Any) -> tuple[str, str]:
    return f"{rate.rate:.1%}", f"{rate.low:.1%} – {rate.high:.1%}"


def _summary(out: Console, result: SimulationResult) -> None:
    data = result.to_dict()
    rounds = data["rounds_per_match"]
    game = type(result.rules)._game
    unit = game.unit + "s"
    summary = Table(title=f"{_title(result.rules)}: {result.players} players, seed {result.seed}")
    summary.add_column("")
    summary.add_column("value", justify="right")
    summary.add_row("matches", str(data["matches"]))
    summary.add_row(
        f"{unit} per match", f"{rounds['mean']:.2f} (min {rounds['min']:.0f}, max {rounds['max']:.0f})"
    )
    summary.add_row("decisions per match", f"{data['decisions_per_match']:.1f}")
    summary.add_row("seats rotate", "yes" if result.rotate else "no")
    out.print(summary)

    seats = Table(title="Win rate by seat")
    seats.add_column("seat", justify="right")
    if not result.rotate:
        seats.add_column("bot")
    seats.add_column("wins", justify="right")
    seats.add_column("rate", justify="right")
    seats.add_column("95% interval", justify="right")
    for s, rate in enumerate(result.seat_rates()):
        row = [str(s)] + ([result.bots[s]] if not result.rotate else [])
        seats.add_row(*row, f"{rate.wins:g}", *_rate(rate))
    out.print(seats)

    bots = Table(title="Win rate by bot")
    bots.add_column("bot")
    bots.add_column("seats played", justify="right")
    bots.add_column("wins", justify="right")
    bots.add_column("rate", justify="right")
    bots.add_column("95% interval", justify="right")
    for name, rate in result.bot_rates().items():
        bots.add_row(name, str(rate.games), f"{rate.wins:g}", *_rate(rate))
    out.print(bots)

    pen = data["penalties"]
    what = game.penalty_words
    out.print(
        f"Penalties ({what}): n={pen['count']:.0f}, mean {pen['mean']:.2f}, median {pen['median']:g}, "
        f"90th percentile {pen['p90']:g}, max {pen['max']:g}"
    )
    dist = result.penalty_distribution()
    if dist:
        histogram = Table(title="Penalty distribution")
        histogram.add_column("penalty", justify="right")
        histogram.add_column("count", justify="right")
        histogram.add_column("share", justify="right")
        total = sum(dist.values())
        for value, count in dist.items():
            histogram.add_row(str(value), str(count), f"{count / total:.1%}")
        out.print(histogram)


@app.command(name="simulate")
def simulate_command(
    preset: PresetOpt = "agurk",
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 4,
    matches: Annotated[int, typer.Option("--matches", "-n", help="Number of matches.")] = 100,
    bots: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated; the last fills the remaining seats.")
    ] = "heuristic,random",
    seed: Annotated[
        int, typer.Option(help="Seed of the simulation; match i uses a seed derived from it.")
    ] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes (1: this process).")] = 1,
    rotate: Annotated[bool, typer.Option(help="Rotate the bots round the seats from match to match.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    option: OptionOpt = None,
) -> None:
    """Play many matches between bots and summarise them (win rates with 95% intervals)."""
    rules = _rules(preset, option)
    _check_players(rules, players)
    lineup = _bots(bots, players)
    if matches < 0:
        _fail(f"--matches must be 0 or more, not {matches}")
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


@app.command(name="replay")
def replay_command(
    file: Annotated[
        Path, typer.Argument(help="A match record saved by `play --save` or cr.dumps(cr.record(state)).")
    ],
) -> None:
    """Check a saved match record and print its score (exit code 1 if it is invalid)."""
    rec = _load_record(file)
    state = _replay(file, rec)
    out = _out()
    out.print(
        f"{escape(str(file))}: a valid record of {escape(_title(rec.rules))}, {len(rec.players)} players, "
        f"{len(rec.actions)} actions"
    )
    out.print(_standings(state))
    sc = score(state)
    if state.is_over:
        out.print("Winner: " + ", ".join(escape(state.players[s]) for s in sc.winners))
    elif state.to_act == CHANCE:
        out.print("The match is in progress: a deal is due.")
    else:
        assert state.to_act is not None
        who = escape(state.players[state.to_act])
        out.print(f"The match is in progress: {who} (seat {state.to_act}) is to act.")


# --------------------------------------------------------------------------- rules


def _value(value: Any) -> str:
    if isinstance(value, tuple):
        fives = [str(i + 1) for i, v in enumerate(value) if v == 5]
        if all(v in (1, 5) for v in value):
            return f"5 on {', '.join(fives)}; 1 on the others"
        return ",".join(str(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@app.command(name="rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="Show one preset's options.")] = None,
) -> None:
    """List the presets and every option with its default and meaning."""
    out = _out()
    if preset is not None:
        try:
            name = preset_name(preset)
        except InvalidRulesError as error:
            _fail(str(error))
        rules = RULESETS[name]
        table = Table(title=f"{name} ({rules.game}, {rules.min_players}–{rules.max_players} players)")
        table.add_column("option")
        table.add_column("value")
        table.add_column("meaning")
        for option in OPTIONS.values():
            if rules.game in option.games:
                table.add_row(
                    option.name, escape(_value(getattr(rules, option.name))), escape(option.meaning)
                )
        out.print(table)
        return
    presets = Table(title="Presets")
    presets.add_column("preset")
    presets.add_column("game")
    presets.add_column("players")
    presets.add_column("deck")
    for name, rules in RULESETS.items():
        presets.add_row(name, rules.game, f"{rules.min_players}–{rules.max_players}", rules.deck)
    out.print(presets)
    options = Table(title="Options (defaults by preset)")
    options.add_column("option")
    options.add_column("default")
    options.add_column("meaning")
    for option in OPTIONS.values():
        values: dict[str, list[str]] = {}
        for name, rules in RULESETS.items():
            if rules.game in option.games:
                values.setdefault(_value(getattr(rules, option.name)), []).append(name)
        if len(values) == 1:
            default = next(iter(values))
        else:
            default = "; ".join(f"{', '.join(names)}: {v}" for v, names in values.items())
        choices = f" (one of {', '.join(_value(c) for c in option.choices)})" if option.choices else ""
        options.add_row(option.name, escape(default), escape(option.meaning + choices))
    out.print(options)
    out.print("Change an option with --option key=value, e.g. --option threshold=30.")
