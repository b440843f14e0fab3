"""The `cucumber-rules` command line: demo matches, play in the terminal, simulate, replay, rules.

```text
cucumber-rules demo       a narrated match between bots (no arguments needed)
cucumber-rules play       play against bots in the terminal; save and resume
cucumber-rules simulate   many bot matches: win rates with 95% intervals, penalties
cucumber-rules replay     check a saved game or match record and print its score
cucumber-rules rules      the presets and every option
cucumber-rules --version  the installed version
```

The command line needs the `cli` extra (`pip install "cucumber-rules[cli]"`, which
brings typer and rich); the library itself does not. It talks to the library only
through its public names. Rules options are given as `--option key=value`
(repeatable): ints, `true`/`false`, `none`, and comma-separated ints for
`cucumbers`. A bad option or argument prints the library's explanation and exits
with code 2; an unreadable or invalid file exits with code 1. The entry point is
[`main`][cucumber_rules.cli.main].
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import attrs
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

import cucumber_rules as cr
from cucumber_rules.bots import Bot, get_bot, resolve_bots
from cucumber_rules.narrate import narrate
from cucumber_rules.simulate import SimulationResult, play_steps, simulate

__all__ = ["SAVE_FORMAT", "app", "main", "parse_option", "parse_value", "play_seed"]

#: Seat names for bot matches.
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")

SAVE_FORMAT = 1
"""The version of the saved-game files `play --save` writes.

A saved game is a JSON object `{"cucumber_rules_cli": 1, "seat": ..., "seed": ...,
"bots": [...], "record": {...}}` whose `record` is an ordinary match record document (what
`cr.dumps(cr.record(state))` writes); `bots` holds a bot name per seat and null for the
player's own.

Example:
    >>> SAVE_FORMAT
    1
"""


# --------------------------------------------------------------------------- typer set-up


def _plain_flags(params: list[Any]) -> list[Any]:
    """Give on/off flags (and --help) an empty metavar: typer's rich help would show them as `<bool>`."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_flags(super().get_params(ctx))


app = typer.Typer(
    name="cucumber-rules",
    cls=_Group,
    help="The Cucumber family of card games: watch bots, play, simulate, check records, list rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cucumber-rules {cr.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """The Cucumber family of card games: watch bots, play, simulate, check records, list rules."""


def main(args: Sequence[str] | None = None) -> None:
    """Run the command line (what `cucumber-rules` and `python -m cucumber_rules` run).

    Args:
        args: The arguments (default: the process's own, `sys.argv[1:]`).

    Example:
        >>> from typer.testing import CliRunner
        >>> result = CliRunner().invoke(app, ["rules", "gurka"])
        >>> result.exit_code, "threshold" in result.output
        (0, True)
    """
    app(args=None if args is None else list(args))


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
        raise cr.InvalidRulesError(
            "option", f"write an option as key=value (e.g. threshold=21), not {text!r}"
        )
    return key, parse_value(value)


def _overrides(options: Sequence[str] | None) -> dict[str, Any]:
    try:
        return dict(parse_option(o) for o in options or ())
    except cr.InvalidRulesError as error:
        _fail(str(error))


def _rules(preset: str, options: Sequence[str] | None) -> cr.Rules:
    try:
        return cr.ruleset(preset, **_overrides(options))
    except cr.InvalidRulesError as error:
        _fail(str(error))
    except TypeError as error:  # e.g. a list where an int is expected
        _fail(f"bad option value: {error}")


def _bots(names: str, players: int) -> tuple[Bot, ...]:
    try:
        return resolve_bots(names, players)
    except ValueError as error:
        _fail(str(error))


def _check_players(rules: cr.Rules, players: int) -> None:
    try:
        cr.new_game(rules, players)
    except cr.InvalidRulesError as error:
        _fail(str(error))


def _title(rules: cr.Rules) -> str:
    base = cr.RULESETS.get(rules.name)
    theirs = base.options() if base is not None and type(base) is type(rules) else {}
    changed = [
        f"{name}={'custom' if isinstance(value, tuple) else value}"
        for name, value in rules.options().items()
        if name in theirs and value != theirs[name]
    ]
    return rules.name + (f" ({', '.join(changed)})" if changed else "")


def _ranking(rules: cr.Rules) -> str:
    """How `Score.standings` orders the seats, for the standings table's caption."""
    return cr.GAMES[rules.game].ranking(rules)


def _standings(state: cr.State) -> Table:
    sc = cr.score(state)
    over = state.is_over
    table = Table(
        title="Final standings" if over else "Standings (the match is in play)",
        caption=_ranking(state.rules),
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("total", justify="right")
    ladder = any(sc.marks)
    if ladder:
        table.add_column("marks", justify="right")
    table.add_column("status")
    unit = cr.GAMES[state.rules.game].unit
    out_in = {
        seat: r.number for r in sc.results for seat in getattr(r, "eliminated", ())
    }  # elimination games
    for place, seat in enumerate(sc.standings, 1):
        if seat in sc.winners:
            status = "winner"
        elif sc.eliminated[seat]:
            status = f"out in {unit} {out_in[seat]}" if seat in out_in else "out"
        else:
            status = "" if over else "in play"
        row = [str(place), escape(state.players[seat]), str(sc.totals[seat])]
        if ladder:
            row.append(str(sc.marks[seat]))
        table.add_row(*row, status)
    return table


def _given(ctx: typer.Context, name: str) -> bool:
    """True if the option was given (on the command line or in the environment), not defaulted."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


# --------------------------------------------------------------------------- demo

PresetOpt = Annotated[
    str, typer.Option("--preset", "-p", metavar="PRESET", help="A preset: agurk, gurka, five-cucumbers, ...")
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", metavar="KEY=VALUE", help="A rules option (repeatable), e.g. threshold=30."
    ),
]
PlayersOpt = Annotated[int, typer.Option("--players", metavar="N", help="Number of players.")]
LineupOpt = Annotated[
    str,
    typer.Option(
        metavar="BOT,...", help="Bots by seat, comma-separated; the last fills the remaining seats."
    ),
]


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
    out.print(f"[bold]{escape(_title(rules))}[/bold] · {players} players · seed {seed}")
    out.print(f"Seats: {escape(seats)}")
    state = cr.new_game(rules, names)
    for before, action, after in play_steps(rules, lineup, seed=seed, state=state):
        for line in narrate(before, action, after):
            out.print(line, markup=False)
        state = after
    out.print(_standings(state))


# --------------------------------------------------------------------------- play: saved games


@attrs.frozen
class _Game:
    """A game of `play`: the match so far and what the record does not hold (the saved-game file)."""

    record: cr.Record
    seat: int
    """The human's seat."""
    bots: tuple[str | None, ...]
    """The bot of each seat by name; None for the human's seat."""
    seed: int
    """The seed of the deals and the bots' choices (see `play_seed`)."""


def play_seed(seed: int, step: int) -> int:
    """The seed of the generator that draws action number `step` of a `play` game seeded with `seed`.

    Each deal and each bot choice of `cucumber-rules play` draws from its own
    generator, `random.Random(play_seed(seed, step))`, where `step` is the number of
    actions in the match before it. So a game resumed from its saved file continues
    exactly as it would have without the break.

    Example:
        >>> play_seed(7, 0) == play_seed(7, 0) != play_seed(7, 1)
        True
    """
    digest = hashlib.sha256(f"cucumber-rules play:{seed}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _game_text(game: _Game) -> str:
    document = {
        "cucumber_rules_cli": SAVE_FORMAT,
        "seat": game.seat,
        "seed": game.seed,
        "bots": list(game.bots),
        "record": json.loads(cr.dumps(game.record)),
    }
    return json.dumps(document, ensure_ascii=False)


def _save(path: Path | None, game: _Game) -> None:
    """Write the game to `path` (through a temporary file, so a failed write never leaves half a file)."""
    if path is None:
        return
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(_game_text(game), encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        _fail(f"cannot save to {path}: {error.strerror or error}", 1)


def _read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        _fail(f"cannot read {path}: {reason}", 1)


_ACTION_PATH = re.compile(r"^\$\.actions\[(\d+)\]")
_ILLEGAL = re.compile(r"^illegal action \(([\w-]+)\): (.*)$", re.DOTALL)


def _parse_record(path: Path, text: str) -> cr.Record:
    try:
        obj = cr.loads(text)
    except cr.InvalidStateError as error:
        found = _ACTION_PATH.match(error.path)
        why = _ILLEGAL.match(str(error).removeprefix(f"{error.path}: "))
        if found and why:
            _fail(f"{path}: action {found.group(1)} is illegal ({why.group(1)}): {why.group(2)}", 1)
        _fail(f"{path} is not a valid match record: {error}", 1)
    except cr.RulesError as error:
        _fail(f"{path} is not a valid match record: {error}", 1)
    if isinstance(obj, cr.State):
        return cr.record(obj)
    if not isinstance(obj, cr.Record):
        kind = next(k.__name__ for k in (cr.Rules, cr.State, cr.PlayerView, cr.Score) if isinstance(obj, k))
        _fail(f"{path} holds a {kind}, not a match record", 1)
    return obj


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_game(path: Path, document: Mapping[str, Any]) -> _Game:
    def bad(why: str) -> NoReturn:
        _fail(f"{path} is not a valid saved game: {why}", 1)

    version = document["cucumber_rules_cli"]
    if not _is_int(version) or version < 1:
        bad(f"cucumber_rules_cli must be {SAVE_FORMAT}, not {version!r}")
    if version > SAVE_FORMAT:
        _fail(
            f"{path} was saved by a newer cucumber-rules (saved-game format {version}); "
            f"this version reads format {SAVE_FORMAT}",
            1,
        )
    missing = [key for key in ("seat", "seed", "bots", "record") if key not in document]
    if missing:
        bad(f"{', '.join(missing)} missing")
    record = _parse_record(path, json.dumps(document["record"]))
    players = len(record.players)
    seat, seed, bots = document["seat"], document["seed"], document["bots"]
    if not _is_int(seat) or not 0 <= seat < players:
        bad(f"seat must be a seat 0..{players - 1}, not {seat!r}")
    if not _is_int(seed):
        bad(f"seed must be an int, not {seed!r}")
    if not isinstance(bots, list) or len(bots) != players:
        bad(f"bots must be a list of {players} entries (a bot name per seat, null for yours)")
    for index, name in enumerate(bots):
        if (name is None) != (index == seat):
            wanted = "null (your seat)" if index == seat else "a bot name"
            bad(f"bots[{index}] must be {wanted}, not {name!r}")
        if name is not None:
            try:
                get_bot(name)
            except (ValueError, TypeError) as error:
                bad(f"bots[{index}]: {error}")
    return _Game(record, seat, tuple(bots), seed)


def _load(path: Path) -> tuple[cr.Record, _Game | None]:
    """A saved game, or a plain match record (or state) document with no saved seat, bots or seed."""
    text = _read_file(path)
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if isinstance(document, dict) and "cucumber_rules_cli" in document:
        game = _parse_game(path, document)
        return game.record, game
    return _parse_record(path, text), None


def _replay(path: Path, rec: cr.Record) -> cr.State:
    try:
        return cr.replay(rec)
    except cr.IllegalMoveError as error:
        index = error.index if error.index is not None else "?"
        message = error.message.removeprefix(f"action {index}: ")
        _fail(f"{path}: action {index} is illegal ({error.code}): {message}", 1)
    except cr.RulesError as error:
        _fail(f"{path} is not a valid match record: {error}", 1)


def _refuse(flag: str, value: object, path: Path, saved: str) -> NoReturn:
    _fail(f"{flag} {value} does not match the game saved in {path}: {saved}; leave {flag} out to resume it")


def _check_resume_flags(
    ctx: typer.Context, path: Path, state: cr.State, preset: str, option: Sequence[str] | None, players: int
) -> None:
    """Refuse --preset, --option and --players values that contradict the resumed match."""
    rules = state.rules
    if _given(ctx, "preset"):
        try:
            name = cr.ruleset(preset).name
        except cr.InvalidRulesError as error:
            _fail(str(error))
        if name != rules.name:
            _refuse("--preset", preset, path, f"it is {_title(rules)}")
    for key, value in _overrides(option).items():
        try:
            same = rules.replace(**{key: value}) == rules
        except cr.InvalidRulesError as error:
            _fail(str(error))
        except TypeError as error:
            _fail(f"bad option value: {error}")
        if not same:
            saved = f"it is {_title(rules)}, with {key}={getattr(rules, key)}"
            _refuse("--option", f"{key}={value}", path, saved)
    if _given(ctx, "players") and players != len(state.players):
        _refuse("--players", players, path, f"it has {len(state.players)} players")


# --------------------------------------------------------------------------- play: the table

_YOU = (
    (re.compile(r"\bevery other player plays their lowest card\b"), "you must play your lowest card"),
    (re.compile(r"\bthey hold\b"), "you hold"),
    (re.compile(r"\bthey must\b"), "you must"),
    (re.compile(r"\btheir hand\b"), "your hand"),
    (re.compile(r"\bthe hand holds\b"), "your hand holds"),
    (re.compile(r"(:|, so) must play\b"), r"\1 you must play"),
    (re.compile(r"\bthe lowest card\b"), "your lowest card"),
)


def _to_you(message: str, seat: int, players: Sequence[str]) -> str:
    """The library's third-person message about `seat`, addressed to the player in that seat.

    `IllegalMoveError` messages are a stable third-person contract ("seat 2 cannot
    play 9H: must play 10 or higher, or the lowest card 3C"); at the table the
    human reads "you cannot play 9H: you must play 10 or higher, or your lowest card 3C".
    Other seats are named.
    """
    text = re.sub(rf"^seat {seat}\b", "you", message)
    for pattern, replacement in _YOU:
        text = pattern.sub(replacement, text)
    return re.sub(
        r"\bseat (\d+)\b",
        lambda m: players[int(m[1])] if int(m[1]) < len(players) else m[0],
        text,
    )


def _suited(rules: cr.Rules) -> bool:
    return any(c.suit is not None for c in cr.DECKS.get(rules.deck, ()))


def _card_hint(rules: cr.Rules) -> str:
    """How the cards of the deck in play are written."""
    deck = cr.DECKS.get(rules.deck, ())
    if _suited(rules):
        return "cards are written like 7H, 10S, QD or AS"
    ranks = [c.rank for c in deck]
    return f"cards are numbers {min(ranks)}..{max(ranks)}" if ranks else "cards are written like 7 or 42"


def _help(rules: cr.Rules) -> str:
    example = "QS, 10H (or TH), A♠" if _suited(rules) else "7 or 12"
    return (
        f"Type a card to play it (e.g. {example}); when you have one card to play, Enter plays it. "
        "Commands: '?' or 'help' (this help), 'hand' (show the table again), "
        "'quit' or Ctrl-D (stop; a saved game can be resumed with --resume)."
    )


def _show_view(out: Console, v: cr.PlayerView) -> None:
    assert v.seat is not None
    trick_no = len(v.tricks) + 1
    game = cr.GAMES[v.rules.game]
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
    out.print("You may play: " + " ".join(_plays(v)))


def _plays(v: cr.PlayerView) -> list[str]:
    """The distinct cards the viewer may play, in order."""
    return list(dict.fromkeys(str(a.card) for a in v.legal if isinstance(a, cr.Play)))


def _ask(out: Console, prompt: str, default: str | None = None) -> str | None:
    """A line of input; None at the end of input (Ctrl-D) or on Ctrl-C."""
    try:
        if default is None:
            return str(typer.prompt(prompt, prompt_suffix=": "))
        return str(typer.prompt(prompt, default=default, prompt_suffix=": "))
    except typer.Abort:
        out.print()  # the prompt is still on the line: end it
        return None


def _human_action(out: Console, state: cr.State, seat: int) -> cr.Action | None:
    """Ask until the player gives a legal action; None means stop."""
    v = cr.view(state, seat)
    decisions = [a for a in v.legal if isinstance(a, cr.Decision)]
    if decisions:
        game = cr.GAMES[v.rules.game]
        answers = game.decision_answers(v)
        keys = list(dict.fromkeys(k for k in answers if len(k) == 1) or answers)
        out.print(f"\n[bold]{escape(game.decision_prompt(v))}[/bold] Scores: {v.totals}")
        while True:
            answer = _ask(out, f"Your choice [{'/'.join(keys)}]")
            if answer is None:
                return None
            word = answer.strip().lower()
            if word in answers:
                return answers[word]
            if word in ("q", "quit", "exit"):
                return None
            out.print(f"Answer {' or '.join(keys)} (or quit).")
    _show_view(out, v)
    plays = _plays(v)
    only = plays[0] if len(plays) == 1 else None
    deck = frozenset(cr.DECKS.get(v.rules.deck, ()))
    while True:
        answer = _ask(out, "Your card", default=only)
        if answer is None:
            return None
        word = answer.strip()
        low = word.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "help", "h"):
            out.print(_help(v.rules))
            continue
        if low in ("hand", "table", "show"):
            _show_view(out, v)
            continue
        try:
            played = cr.card(word)
        except cr.InvalidNotationError:
            played = None
        if played is None or (deck and played not in deck):
            hint = f"{word!r} is not a card of this deck: {_card_hint(v.rules)}"
            out.print(f"[red]{escape(hint)}[/red]")
            continue
        action = cr.Play(seat, played)
        illegal = cr.check(state, action)
        if illegal is None:
            return action
        out.print(f"[red]{escape(_to_you(illegal.message, seat, state.players))}[/red]")


@app.command(cls=_Command)
def play(
    ctx: typer.Context,
    preset: PresetOpt = "agurk",
    option: OptionOpt = None,
    players: PlayersOpt = 4,
    seat: Annotated[int, typer.Option(metavar="SEAT", help="Your seat (0 leads the first trick).")] = 0,
    bots: Annotated[
        str, typer.Option(metavar="BOT,...", help="The other seats' bot(s), comma-separated.")
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
                wanted = [b.name for b in _bots(bots, players - 1)]
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
    others = _bots(bots, players - 1)
    lineup: tuple[Bot | None, ...] = (*others[:seat], None, *others[seat:])
    if seed is None:
        seed = secrets.randbits(32)
    game = _Game(cr.record(state), seat, tuple(b.name if b is not None else None for b in lineup), seed)
    if resume is not None:
        out.print(f"Resumed {escape(str(resume))}: {len(rec.actions)} actions replayed.")
    out.print(
        f"[bold]{escape(_title(rules))}[/bold] · you are {escape(state.players[seat])} (seat {seat}) "
        f"· seed {seed} · '?' for help"
    )
    step = len(game.record.actions)
    while not state.is_over:
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
                where = escape(str(save))
                note = f" Saved to {where}; continue with --resume {where}." if save is not None else ""
                out.print(f"Stopped.{note}")
                raise typer.Exit(0)
            action = chosen
        after = cr.apply(state, action)
        for line in narrate(state, action, after):
            out.print(line, markup=False)
        state = after
        step += 1
        game = attrs.evolve(game, record=cr.record(state))
        _save(save, game)
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


#: Summary fields that count something (or hold a penalty, an int): written as ints when whole.
_COUNTS = frozenset({"wins", "games", "count", "min", "max", "p90"})


def _whole_counts(data: Any, key: str | None = None) -> Any:
    """The summary with whole-number counts as ints (`509`, not `509.0`); a shared win stays fractional."""
    if isinstance(data, dict):
        return {k: _whole_counts(v, k) for k, v in data.items()}
    if isinstance(data, list):
        return [_whole_counts(v) for v in data]
    if key in _COUNTS and isinstance(data, float) and data.is_integer():
        return int(data)
    return data


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
        typer.echo(json.dumps(_whole_counts(result.to_dict()), indent=2))
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
) -> None:
    """Check a saved game or match record and print its score (exit code 1 if it is invalid)."""
    rec, saved = _load(file)
    state = _replay(file, rec)
    out = _out()
    out.print(
        f"{escape(str(file))}: a valid record of {escape(_title(rec.rules))}, {len(rec.players)} players, "
        f"{len(rec.actions)} actions"
    )
    if saved is not None:
        lineup = ", ".join(
            f"{escape(name)} ({'you' if bot is None else bot})"
            for name, bot in zip(rec.players, saved.bots, strict=True)
        )
        out.print(f"Saved by cucumber-rules play (seed {saved.seed}): {lineup}")
    out.print(_standings(state))
    sc = cr.score(state)
    if state.is_over:
        out.print("Winner: " + ", ".join(escape(state.players[s]) for s in sc.winners))
    elif state.to_act == cr.CHANCE:
        out.print("The match is in progress: a deal is due.")
    else:
        assert state.to_act is not None
        name, seat = state.players[state.to_act], f"seat {state.to_act}"
        who = seat if name == seat else f"{escape(name)} ({seat})"
        out.print(f"The match is in progress: {who} is to act.")


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
        options.add_row(option.name, escape(default), escape(option.meaning + choices))
    out.print(options)
    out.print("Change an option with --option key=value, e.g. --option threshold=30.")
