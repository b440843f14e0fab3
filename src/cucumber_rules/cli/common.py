"""The command line's Typer app, its shared options and the helpers every command uses.

`app` and `main` (what the console script runs); parsing `--option key=value`;
the rules, players and bots of a command, or the error they exit with; a rule set's title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

import cucumber_rules as cr
from cucumber_rules.bots import BOTS, Bot, resolve_bots

#: Seat names for bot matches.
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")


# --------------------------------------------------------------------------- typer set-up


def _plain_flags(params: list[Any]) -> list[Any]:
    """Give on/off flags (and --help) an empty metavar: typer's rich help would show them as `<bool>`."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
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

#: Characters a terminal may act on instead of showing: C0 and C1 controls (ESC starts clear-screen,
#: window-title and colour sequences; CSI is U+009B), DEL, the line and paragraph separators, the
#: bidirectional overrides and isolates (they reorder what is shown around them) and lone surrogates
#: (they cannot be written as UTF-8 at all).
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(text: object) -> str:
    """Text that came from a file or a user, made safe to print with rich markup on.

    Every place the command line prints such text (player names, file names, option
    values, the library's messages quoting a document) passes it through here:
    characters a terminal would act on are written as visible escapes (`\\x1b`,
    `\\u202e`), so a hostile name cannot clear the screen, set the window title or
    reorder a line, and rich markup is escaped, so `[red]` is printed as written.

    Example:
        >>> print(shown("\\x1b[2JAnn [bold]"))
        \\x1b[2JAnn \\[bold]
    """
    return escape(_UNSHOWABLE.sub(_escape_char, str(text)))


def make_console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/red] {shown(message)}")
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


def option_overrides(options: Sequence[str] | None) -> dict[str, Any]:
    try:
        return dict(parse_option(o) for o in options or ())
    except cr.InvalidRulesError as error:
        fail(str(error))


def rules_from(preset: str, options: Sequence[str] | None) -> cr.Rules:
    try:
        return cr.ruleset(preset, **option_overrides(options))
    except cr.InvalidRulesError as error:
        fail(str(error))
    except TypeError as error:  # e.g. a list where an int is expected
        fail(f"bad option value: {error}")


def resolve_lineup(names: str, players: int, *, human: bool = False) -> tuple[Bot, ...]:
    """The bots of `players` seats (with `human`, the seats besides the human's)."""
    try:
        return resolve_bots(names, players)
    except ValueError as error:
        given = len([n for n in names.split(",") if n.strip()])
        if human and given > players:  # (say it in the player's terms: they asked for players + 1)
            fail(f"{given} bots for the {players} seats besides yours ({players + 1} players)")
        fail(str(error))


def check_players(rules: cr.Rules, players: int) -> None:
    try:
        cr.new_game(rules, players)
    except cr.InvalidRulesError as error:
        fail(str(error))


def rules_title(rules: cr.Rules) -> str:
    base = cr.RULESETS.get(rules.name)
    theirs = base.options() if base is not None and type(base) is type(rules) else {}
    changed = [
        f"{name}={'custom' if isinstance(value, tuple) else value}"
        for name, value in rules.options().items()
        if name in theirs and value != theirs[name]
    ]
    return rules.name + (f" ({', '.join(changed)})" if changed else "")


def option_given(ctx: typer.Context, name: str) -> bool:
    """True if the option was given (on the command line or in the environment), not defaulted."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


# --------------------------------------------------------------------------- shared options


def _words(names: Sequence[str]) -> str:
    """`a, b or c`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


#: Every preset by name, and every built-in bot, for the options' help.
PRESET_NAMES = _words(list(cr.RULESETS))
BOT_NAMES = _words(list(BOTS))

PresetOpt = Annotated[
    str,
    typer.Option(
        "--preset",
        "-p",
        metavar="PRESET",
        help=f"The rules: {PRESET_NAMES} (`cucumber-rules rules` lists them with their options).",
    ),
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
        metavar="BOT,...",
        help=f"Bots by seat, comma-separated ({BOT_NAMES}); the last fills the remaining seats.",
    ),
]
