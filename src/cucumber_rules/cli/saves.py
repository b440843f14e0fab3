"""`play --save` and `--resume`: saved-game files, match records read back, the seed of each step."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import attrs
import typer

import cucumber_rules as cr
from cucumber_rules.bots import get_bot
from cucumber_rules.errors import quoted
from cucumber_rules.games.registry import ENTRY_POINT_GROUP
from cucumber_rules.serialization import MAX_LENGTH, RulesDocumentError

from .common import fail, option_given, option_overrides, rules_title

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


# --------------------------------------------------------------------------- play: saved games


@attrs.frozen
class Session:
    """A session of `play`: the match so far and what its record does not hold (a saved-game file)."""

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


def _session_text(session: Session) -> str:
    document = {
        "cucumber_rules_cli": SAVE_FORMAT,
        "seat": session.seat,
        "seed": session.seed,
        "bots": list(session.bots),
        "record": json.loads(cr.dumps(session.record)),
    }
    return json.dumps(document, ensure_ascii=False)


def write_save(path: Path | None, session: Session) -> None:
    """Write the session to `path` (through a temporary file, so a failed write never leaves half a file)."""
    if path is None:
        return
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(_session_text(session), encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        fail(f"cannot save to {path}: {error.strerror or error}", 1)


#: The longest file `replay` and `play --resume` read: the longest document `cr.loads` accepts, plus
#: room for a saved game's own fields around its record.
MAX_FILE_BYTES = MAX_LENGTH + 64 * 1024


def _read_file(path: Path) -> str:
    """The file's text; a one-line error (exit code 1) if it cannot be read, is too long or is not UTF-8."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)  # (never more: the file may be endless, e.g. /dev/zero)
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}", 1)
    if len(data) > MAX_FILE_BYTES:
        fail(f"cannot read {path}: longer than {MAX_FILE_BYTES:,} bytes, too long for a match record", 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"cannot read {path}: it is not UTF-8 text (byte {error.start} is not valid)", 1)


_ACTION_PATH = re.compile(r"^\$\.actions\[(\d+)\]")
_ILLEGAL = re.compile(r"^illegal action \(([\w-]+)\): (.*)$", re.DOTALL)


_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")


def _game_at(text: str, path: str) -> object:
    """The value at `path` (`$.rules.game`) of the JSON document `text`; None if there is none."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    for step in _STEP.finditer(path.removeprefix("$")):
        key: str | int = step[1] if step[1] is not None else int(step[2])
        found = isinstance(value, dict) and key in value
        if not found and not (isinstance(value, list) and isinstance(key, int) and key < len(value)):
            return None
        value = value[key]
    return value


def _missing_game(path: Path, text: str, error: cr.InvalidStateError | RulesDocumentError) -> None:
    """Fail, saying a plug-in is missing, if `error` is about a game no installed package registers.

    (`loads` says only which games it knows: the game of a plug-in that is not installed is not one.)
    """
    if not error.path.endswith(".game"):
        return
    game = _game_at(text, error.path)
    if not isinstance(game, str) or not game or game in cr.GAMES:
        return
    fail(
        f"{path} records a match of the game {quoted(game)}, whose plug-in is missing: no installed package "
        f"registers it (installed games: {', '.join(cr.GAMES)}). A plug-in game is loaded from the "
        f"entry-point group {ENTRY_POINT_GROUP!r}: install the package that provides {quoted(game)} in this "
        "environment, then try again.",
        1,
    )


def _parse_record(path: Path, text: str) -> cr.Record:
    try:
        obj = cr.loads(text)
    except cr.InvalidStateError as error:
        _missing_game(path, text, error)
        found = _ACTION_PATH.match(error.path)
        why = _ILLEGAL.match(str(error).removeprefix(f"{error.path}: "))
        if found and why:
            fail(f"{path}: action {found.group(1)} is illegal ({why.group(1)}): {why.group(2)}", 1)
        fail(f"{path} is not a valid match record: {error}", 1)
    except RulesDocumentError as error:
        _missing_game(path, text, error)
        fail(f"{path} is not a valid match record: {error}", 1)
    except cr.RulesError as error:
        fail(f"{path} is not a valid match record: {error}", 1)
    if isinstance(obj, cr.State):
        obj = cr.record(obj)
    if not isinstance(obj, cr.Record):
        kind = next(k.__name__ for k in (cr.Rules, cr.State, cr.PlayerView, cr.Score) if isinstance(obj, k))
        fail(f"{path} holds a {kind}, not a match record", 1)
    for seat, name in enumerate(obj.players):
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # (a lone surrogate: such a game could not be saved back)
            fail(f"{path} is not a valid match record: player {seat}'s name is not valid Unicode text", 1)
    return obj


def _json(value: object) -> str:
    """A value from a saved file as JSON writes it (`null`, `"x"`), cut short if long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_session(path: Path, document: Mapping[str, Any]) -> Session:
    def bad(why: str) -> NoReturn:
        fail(f"{path} is not a valid saved game: {why}", 1)

    version = document["cucumber_rules_cli"]
    if not _is_int(version) or version < 1:
        bad(f"cucumber_rules_cli must be {SAVE_FORMAT}, not {version!r}")
    if version > SAVE_FORMAT:
        fail(
            f"{path} was saved by a newer cucumber-rules (saved-game format {version}); "
            f"this version reads format {SAVE_FORMAT}",
            1,
        )
    missing = [key for key in ("seat", "seed", "bots", "record") if key not in document]
    if missing:
        bad(f"{', '.join(missing)} missing")
    if not isinstance(document["record"], dict):
        bad(f"record must be a match record (a JSON object), not {_json(document['record'])}")
    record = _parse_record(path, json.dumps(document["record"]))
    players = len(record.players)
    seat, seed, bots = document["seat"], document["seed"], document["bots"]
    if not _is_int(seat) or not 0 <= seat < players:
        bad(f"seat must be a seat 0..{players - 1}, not {_json(seat)}")
    if not _is_int(seed):
        bad(f"seed must be an int, not {_json(seed)}")
    if not isinstance(bots, list) or len(bots) != players:
        bad(f"bots must be a list of {players} entries (a bot name per seat, null for yours)")
    for index, name in enumerate(bots):
        if (name is None) != (index == seat):
            wanted = "null (your seat)" if index == seat else "a bot name"
            bad(f"bots[{index}] must be {wanted}, not {_json(name)}")
        if name is not None:
            try:
                get_bot(name)
            except (ValueError, TypeError) as error:
                bad(f"bots[{index}]: {error}")
    return Session(record, seat, tuple(bots), seed)


def load_save(path: Path) -> tuple[cr.Record, Session | None]:
    """A saved game, or a plain match record (or state) document with no saved seat, bots or seed."""
    text = _read_file(path)
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):  # (not JSON, or nested deeper than Python's parser goes)
        document = None  # cr.loads says what is wrong with it, in one line
    if isinstance(document, dict) and "cucumber_rules_cli" in document:
        session = _parse_session(path, document)
        return session.record, session
    return _parse_record(path, text), None


def replay_save(path: Path, rec: cr.Record) -> cr.State:
    try:
        return cr.replay(rec)
    except cr.IllegalMoveError as error:
        index = error.index if error.index is not None else "?"
        message = error.message.removeprefix(f"action {index}: ")
        fail(f"{path}: action {index} is illegal ({error.code}): {message}", 1)
    except cr.RulesError as error:
        fail(f"{path} is not a valid match record: {error}", 1)


def refuse(flag: str, value: object, path: Path, saved: str) -> NoReturn:
    fail(f"{flag} {value} does not match the game saved in {path}: {saved}; leave {flag} out to resume it")


def check_resume_flags(
    ctx: typer.Context, path: Path, state: cr.State, preset: str, option: Sequence[str] | None, players: int
) -> None:
    """Refuse --preset, --option and --players values that contradict the resumed match."""
    rules = state.rules
    if option_given(ctx, "preset"):
        try:
            name = cr.ruleset(preset).name
        except cr.InvalidRulesError as error:
            fail(str(error))
        if name != rules.name:
            refuse("--preset", preset, path, f"it is {rules_title(rules)}")
    for key, value in option_overrides(option).items():
        try:
            same = rules.replace(**{key: value}) == rules
        except cr.InvalidRulesError as error:
            fail(str(error))
        except TypeError as error:
            fail(f"bad option value: {error}")
        if not same:
            saved = f"it is {rules_title(rules)}, with {key}={getattr(rules, key)}"
            refuse("--option", f"{key}={value}", path, saved)
    if option_given(ctx, "players") and players != len(state.players):
        refuse("--players", players, path, f"it has {len(state.players)} players")
