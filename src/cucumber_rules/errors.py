"""The error hierarchy and its stable codes.

Every error about the game (an illegal move, bad rules, bad data, bad card text)
is a `RulesError`. The four concrete kinds also subclass `ValueError`, so
`except ValueError` keeps working. A mistake in calling a function raises the
usual Python error: `TypeError` for a wrong type, `ValueError` for an argument out
of range (a seat no match can have, an unknown bot name).

```text
RulesError
├── IllegalMoveError     (an action the rules forbid now; has a stable `code`)
├── InvalidRulesError    (a bad option or option combination; names the `option`)
├── InvalidStateError    (malformed or tampered data; names the field `path`)
└── InvalidNotationError (text that is not a card)
```
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "CORE_CODES",
    "ERROR_CODES",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "RulesError",
    "check_codes",
    "codes_of",
    "quoted",
    "register_codes",
    "unregister_codes",
]

#: The codes every game shares: turns, hands, deals, decisions, the end of the match.
CORE_CODES: Mapping[str, str] = MappingProxyType(
    {
        "not-your-turn": "The action's seat is not the seat to act.",
        "not-in-hand": "The card played is not in the player's hand.",
        "deal-expected": "A deal (chance action) is due; no player action is possible now.",
        "unexpected-deal": "A deal was given while no deal is due.",
        "bad-deal": "The deal does not fit the rules: hand sizes, deck, stock, seats or leader.",
        "decision-expected": "The seat to act must take a decision (e.g. revival), not play a card.",
        "no-decision": "A decision action was given while no decision is due.",
        "game-over": "The match is over; no action is possible.",
    }
)

#: The codes of the registered games' rules of play, by code (filled by `register_codes`).
_GAME_CODES: dict[str, tuple[str, str]] = {}


class _ErrorCodes(Mapping[str, str]):
    """The core codes, then every registered game's codes (a live, read-only view)."""

    def __getitem__(self, code: str) -> str:
        if code in CORE_CODES:
            return CORE_CODES[code]
        return _GAME_CODES[code][1]

    def __iter__(self) -> Iterator[str]:
        yield from CORE_CODES
        yield from _GAME_CODES

    def __len__(self) -> int:
        return len(CORE_CODES) + len(_GAME_CODES)

    def __contains__(self, code: object) -> bool:
        return code in CORE_CODES or code in _GAME_CODES

    def __repr__(self) -> str:
        return f"ERROR_CODES({dict(self)!r})"


ERROR_CODES: Mapping[str, str] = _ErrorCodes()
"""Every `IllegalMoveError.code`, with what it means: the core codes, then each game's own.

Codes are stable: they never change meaning. A game adds the codes of its rules of
play when it is registered (`Game.error_codes`).

Example:
    >>> ERROR_CODES["not-your-turn"]
    "The action's seat is not the seat to act."
    >>> ERROR_CODES["must-follow"].startswith("Ladder rule")
    True
"""


#: The most characters of a value that an error message quotes (`quoted`).
QUOTED_LENGTH: Final = 60


def quoted(value: object, limit: int = QUOTED_LENGTH) -> str:
    """A value given by a user (a key, an option, a name) as an error message quotes it: escaped and short.

    Every message that repeats what it was given quotes it with this: Python's `repr`, so control
    characters (a terminal's escape sequences, new lines), lone surrogates (which no UTF-8 text can
    hold: a message that copied one could not be written as JSON or printed), bidirectional and
    other invisible format characters are shown as escapes; and cut after `limit` characters, so
    that a huge key makes a short message.

    Args:
        value: The value (usually a str; anything else is shown by its `repr`).
        limit: The most characters of the value shown; `...` follows a value cut short.

    Example:
        >>> quoted("threshold"), quoted(7)
        ("'threshold'", '7')
        >>> print(quoted("\\ud800"), quoted("a\\x1b[2Jb"), quoted("\\u202eevil"))
        '\\ud800' 'a\\x1b[2Jb' '\\u202eevil'
        >>> quoted("x" * 100, limit=5)
        "'xxxxx'..."
    """
    if isinstance(value, str):
        return repr(value[:limit]) + ("..." if len(value) > limit else "")
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit] + "..."


def check_codes(game: str, codes: Mapping[str, str]) -> None:
    """Check a game's error codes before they are registered: text, and taken by no one else.

    Raises:
        TypeError: If `codes` is not a mapping of strings to strings.
        ValueError: If a code is empty, a core code, or already belongs to another game.

    Example:
        >>> check_codes("mine", {"not-your-turn": "Wait."})
        Traceback (most recent call last):
        ...
        ValueError: mine: error code 'not-your-turn' is taken by the core codes
    """
    if not isinstance(codes, Mapping):
        raise TypeError(f"{game}: error_codes must map codes to meanings, not {type(codes).__name__}")
    for code, meaning in codes.items():
        if type(code) is not str or type(meaning) is not str:
            raise TypeError(f"{game}: error code {code!r} and its meaning must be strings")
        if not code or code != code.strip():
            raise ValueError(f"{game}: error code {code!r} must be a word such as 'must-follow'")
        owner = _GAME_CODES.get(code, (game, ""))[0]
        if code in CORE_CODES or owner != game:
            owned = "the core codes" if code in CORE_CODES else f"the {owner} game"
            raise ValueError(f"{game}: error code {code!r} is taken by {owned}")


def register_codes(game: str, codes: Mapping[str, str]) -> None:
    """Add a game's error codes to `ERROR_CODES` (called by `register_game`), all or none.

    Raises:
        TypeError: If `codes` is not a mapping of strings to strings.
        ValueError: If a code is empty, a core code, or already belongs to another game.

    Example:
        >>> register_codes("ladder", {"must-follow": ERROR_CODES["must-follow"]})  # already its own
    """
    check_codes(game, codes)
    for code, meaning in codes.items():
        _GAME_CODES[code] = (game, meaning)


def unregister_codes(game: str) -> None:
    """Remove a game's error codes from `ERROR_CODES` (called by `unregister_game`).

    Example:
        >>> unregister_codes("no-such-game")  # a game without codes: nothing to do
    """
    for code in codes_of(game):
        del _GAME_CODES[code]


def codes_of(game: str) -> tuple[str, ...]:
    """The codes a game registered (its rules of play), in order.

    Example:
        >>> codes_of("catastrophe")
        ('cannot-lead-five', 'must-follow-marker')
    """
    return tuple(code for code, (owner, _) in _GAME_CODES.items() if owner == game)


#: The longest message an error keeps. A longer one (a huge value quoted from hostile input) keeps its
#: start and its end around a note of how much was left out, so that a server's logs stay readable.
MAX_MESSAGE: Final = 1000


class RulesError(Exception):
    """Base of every error about the game: illegal moves, bad rules, bad data and bad card text.

    A message longer than `MAX_MESSAGE` characters is shortened in the middle.

    Example:
        >>> issubclass(IllegalMoveError, RulesError), issubclass(IllegalMoveError, ValueError)
        (True, True)
        >>> text = str(InvalidNotationError(repr("Q" * 5000) + " is not a card"))
        >>> len(text) <= MAX_MESSAGE, text[:10], text[-15:]
        (True, "'QQQQQQQQQ", "' is not a card")
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and type(args[0]) is str and len(args[0]) > MAX_MESSAGE:
            text = args[0]
            head, tail = MAX_MESSAGE * 6 // 10, MAX_MESSAGE * 3 // 10
            args = (
                f"{text[:head]} ... [{len(text) - head - tail:,} characters left out] ... {text[-tail:]}",
            )
        super().__init__(*args)


class IllegalMoveError(RulesError, ValueError):
    """An action the rules forbid in the current state.

    Attributes:
        code: A stable code from `ERROR_CODES`, e.g. `"must-follow"`.
        seat: The seat the action was for (None for a chance action).
        action: The offending action.
        index: In `replay`, the position of the offending action in the record.

    Example:
        >>> err = IllegalMoveError("not-your-turn", "seat 1 cannot play 3C: seat 0 is to act", seat=1)
        >>> err.code, str(err)
        ('not-your-turn', 'seat 1 cannot play 3C: seat 0 is to act')
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        seat: int | None = None,
        action: Any = None,
        index: int | None = None,
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}; codes are listed in ERROR_CODES")
        super().__init__(message)
        self.code = code
        self.seat = seat
        self.action = action
        self.index = index

    @property
    def message(self) -> str:
        """The human-readable explanation."""
        return str(self.args[0])

    def at(self, index: int) -> IllegalMoveError:
        """Return a copy of this error carrying a record position (used by `replay`).

        Example:
            >>> IllegalMoveError("game-over", "the match is over").at(12).index
            12
        """
        prefix = f"action {index}: "
        return IllegalMoveError(
            self.code, prefix + self.message, seat=self.seat, action=self.action, index=index
        )

    def __reduce__(self) -> Any:
        return (_rebuild_illegal, (self.code, self.message, self.seat, self.action, self.index))


def _rebuild_illegal(code: str, message: str, seat: int | None, action: Any, index: int | None) -> Any:
    return IllegalMoveError(code, message, seat=seat, action=action, index=index)


class InvalidRulesError(RulesError, ValueError):
    """A bad option value, unknown option, or impossible combination.

    Attributes:
        option: The name of the offending option (or `"preset"`, `"players"`).

    Example:
        >>> InvalidRulesError("threshold", "threshold must be at least 1").option
        'threshold'
    """

    def __init__(self, option: str, message: str) -> None:
        shown = option if option.isidentifier() else quoted(option)  # (a user's key: escaped)
        super().__init__(f"{shown}: {message}" if not message.startswith(shown) else message)
        self.option = option

    def __reduce__(self) -> Any:
        return (type(self), (self.option, str(self)))


class InvalidStateError(RulesError, ValueError):
    """Malformed, tampered or impossible data, e.g. from `loads`.

    Attributes:
        path: Where the problem is, as a JSON path such as `$.hands[2][0]`.

    Example:
        >>> InvalidStateError("$.to_act", "must be an int").path
        '$.to_act'
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path

    def __reduce__(self) -> Any:
        return (_rebuild_state_error, (self.path, str(self)))


def _rebuild_state_error(path: str, text: str) -> InvalidStateError:
    err = InvalidStateError.__new__(InvalidStateError)
    Exception.__init__(err, text)
    err.path = path
    return err


class InvalidNotationError(RulesError, ValueError):
    """Text that is not a card, such as `"QX"` or `"61"`.

    Example:
        >>> from cucumber_rules import card
        >>> try:
        ...     card("QX")
        ... except InvalidNotationError as err:
        ...     print(err)
        'QX' is not a card: ranks are 2-10, J, Q, K, A and suits S, H, D, C
    """
