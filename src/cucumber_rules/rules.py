"""Rules: every variant of the family as plain data, the presets, and their validation.

A `Rules` value names its `game` (the trick mechanism: `"ladder"` or
`"catastrophe"`) and holds every option. Options that belong to the other game
are `None`. Build rules with [`ruleset`][cucumber_rules.ruleset]; a bad option,
value or combination raises `InvalidRulesError` naming the option.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from .cards import DECKS
from .errors import InvalidRulesError

__all__ = ["OPTIONS", "RULESETS", "Option", "Rules", "ruleset"]

LADDER: Final = "ladder"
CATASTROPHE: Final = "catastrophe"

#: The Catastrophe cucumbers per card by default (ruling 7): 5 on 5, 15, ..., 55; 1 on every other card.
DEFAULT_CUCUMBERS: tuple[int, ...] = tuple(5 if n % 10 == 5 else 1 for n in range(1, 61))


@attrs.frozen
class Option:
    """Metadata about one option of `Rules`: for docs, the CLI and validation messages.

    Example:
        >>> OPTIONS["threshold"].games
        ('ladder',)
    """

    name: str
    type: str
    games: tuple[str, ...]
    choices: tuple[Any, ...] | None
    meaning: str


_L = (LADDER,)
_C = (CATASTROPHE,)
_B = (LADDER, CATASTROPHE)

OPTIONS: Mapping[str, Option] = MappingProxyType(
    {
        o.name: o
        for o in (
            Option("deck", "str", _B, tuple(DECKS), "the deck: 52 cards 2..A; four each of 1..15; or 1..60"),
            Option("min_players", "int", _B, None, "the fewest players"),
            Option("max_players", "int", _B, None, "the most players"),
            Option("hand_size", "int", _B, None, "cards per player, and so tricks per round or hand"),
            Option(
                "follow",
                "str",
                _L,
                ("optional-lowest", "forced-lowest"),
                "optional-lowest: a card >= the highest in the trick, or the lowest card; "
                "forced-lowest: the lowest card only when no card >= the highest is held",
            ),
            Option(
                "ace_lead",
                "bool",
                _L,
                (False, True),
                "a led top-rank card (Ace) forces every other player to play their lowest card, and wins",
            ),
            Option(
                "penalty",
                "str",
                _L,
                ("card-value", "cucumbers"),
                "what the last trick costs: the card's value (J 11, Q 12, K 13, A 14), "
                "or cucumbers (1:0, 2-5:1, 6-9:2, 10-11:3, 12-14:4, 15:5)",
            ),
            Option(
                "doubling",
                "str",
                _L,
                ("none", "per-one", "once"),
                "1s in the last trick: none; x2 for each 1; or x2 once if any",
            ),
            Option(
                "tie_bonus",
                "bool",
                _L,
                (False, True),
                "every other player who played the paying card's rank in the last trick "
                "subtracts the penalty (floor 0)",
            ),
            Option("threshold", "int", _L, None, "reaching or passing this total costs a life"),
            Option(
                "lives",
                "int",
                _L,
                None,
                "crossings until elimination; before the last, a crossing draws a cucumber mark "
                "and resets the score to the highest score of another active player",
            ),
            Option(
                "next_leader",
                "str",
                _L,
                ("rotate", "penalized"),
                "rotate: the deal passes clockwise and the seat after the dealer leads; "
                "penalized: the last round's payer leads (next active seat if out)",
            ),
            Option("reverse", "bool", _L, (False, True), "the lowest card of the last trick pays"),
            Option(
                "revival",
                "bool",
                _L,
                (False, True),
                "once per match an eliminated player may buy back in by sitting out a round",
            ),
            Option(
                "fixed_rounds",
                "int | None",
                _L,
                None,
                "play this many rounds without elimination; the lowest total wins, ties share",
            ),
            Option(
                "surprise",
                "bool",
                _C,
                (False, True),
                "Surprise Cucumber: each trick's lead card is revealed from the stock",
            ),
            Option(
                "cant_beat_em",
                "bool",
                _C,
                (False, True),
                "If You Can't Beat 'Em: all six 5-cucumber cards are in play; four or more "
                "captured in a hand score -5",
            ),
            Option("hands", "int", _C, None, "hands in a match"),
            Option("cucumbers", "tuple[int, ...]", _C, None, "cucumbers printed on cards 1..60 (60 counts)"),
        )
    }
)
"""Every option of `Rules`, in documentation order: name -> [`Option`][cucumber_rules.Option].

Example:
    >>> list(OPTIONS)[:4]
    ['deck', 'min_players', 'max_players', 'hand_size']
    >>> OPTIONS["follow"].choices
    ('optional-lowest', 'forced-lowest')
"""

_LADDER_DECKS = ("standard-52", "five-cucumbers-60")
_MAX_SEATS = 7


def _tuple_if_list(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _fail(option: str, message: str) -> InvalidRulesError:
    return InvalidRulesError(option, message)


@attrs.frozen
class Rules:
    """A complete, validated rule set: which game and every option.

    Build one with [`ruleset`][cucumber_rules.ruleset] rather than directly;
    `Rules(...)` validates all the same. Options of the other game are `None`.
    The option table is in the docs ("Variants and options") and in `OPTIONS`.

    Example:
        >>> r = ruleset("gurka", threshold=21)
        >>> r.game, r.threshold, r.follow, r.surprise
        ('ladder', 21, 'forced-lowest', None)
    """

    name: str
    """The preset these rules derive from (e.g. `"agurk"`)."""
    game: str
    """The trick mechanism: `"ladder"` or `"catastrophe"`."""
    deck: str
    min_players: int
    max_players: int
    hand_size: int
    follow: str | None = None
    ace_lead: bool | None = None
    penalty: str | None = None
    doubling: str | None = None
    tie_bonus: bool | None = None
    threshold: int | None = None
    lives: int | None = None
    next_leader: str | None = None
    reverse: bool | None = None
    revival: bool | None = None
    fixed_rounds: int | None = None
    surprise: bool | None = None
    cant_beat_em: bool | None = None
    hands: int | None = None
    cucumbers: tuple[int, ...] | None = attrs.field(default=None, converter=_tuple_if_list)
    _plan: Any = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)
    """The game engine's precomputed tables for these rules (private, built on first use)."""

    def __attrs_post_init__(self) -> None:
        _validate(self)

    def replace(self, **options: Any) -> Rules:
        """Return new rules with some options changed (validated).

        Example:
            >>> ruleset("agurk").replace(threshold=30).threshold
            30
        """
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise _fail(unknown[0], f"unknown option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
        for key in options:
            if self.game not in OPTIONS[key].games:
                raise _fail(key, f"option {key!r} does not apply to the {self.game} game")
        return attrs.evolve(self, **options)

    def cards_per_player(self, players: int) -> int:
        """Cards dealt to each player, and so tricks per round, for a player count.

        Example:
            >>> ruleset("catastrophe", surprise=True).cards_per_player(6)
            8
        """
        if self.surprise:
            return min(self.hand_size, len(DECKS[self.deck]) // (players + 1))
        return self.hand_size


def _check_type(rules: Rules, name: str, kind: type) -> None:
    value = getattr(rules, name)
    if type(value) is not kind:
        raise _fail(name, f"{name} must be {kind.__name__}, not {type(value).__name__} {value!r}")


def _validate(r: Rules) -> None:
    for name in ("name", "game", "deck"):
        _check_type(r, name, str)
    if r.game not in (LADDER, CATASTROPHE):
        raise _fail("game", f"game must be 'ladder' or 'catastrophe', not {r.game!r}")
    for name, option in OPTIONS.items():
        value = getattr(r, name)
        applies = r.game in option.games
        if not applies:
            if value is not None:
                raise _fail(name, f"option {name!r} does not apply to the {r.game} game")
            continue
        if name == "fixed_rounds" and value is None:
            continue
        if option.type in ("int", "int | None"):
            _check_type(r, name, int)
        elif option.type == "bool":
            _check_type(r, name, bool)
        elif option.type == "str":
            _check_type(r, name, str)
        if option.choices is not None and value not in option.choices:
            choices = ", ".join(repr(c) for c in option.choices)
            raise _fail(name, f"{name} must be one of {choices}, not {value!r}")
    deck = DECKS[r.deck]
    if not 2 <= r.min_players <= r.max_players <= _MAX_SEATS:
        bad = "min_players" if r.min_players < 2 or r.min_players > r.max_players else "max_players"
        raise _fail(bad, f"players must satisfy 2 <= min_players <= max_players <= {_MAX_SEATS}")
    if r.hand_size < 1:
        raise _fail("hand_size", "hand_size must be at least 1")
    if r.game == LADDER:
        _validate_ladder(r, len(deck))
    else:
        _validate_catastrophe(r, len(deck))


def _validate_ladder(r: Rules, deck_size: int) -> None:
    if r.deck not in _LADDER_DECKS:
        raise _fail("deck", f"the ladder game uses {' or '.join(_LADDER_DECKS)}, not {r.deck!r}")
    if r.max_players * r.hand_size > deck_size:
        raise _fail(
            "hand_size",
            f"{r.max_players} players x {r.hand_size} cards need {r.max_players * r.hand_size} cards, "
            f"but the {r.deck} deck has {deck_size}",
        )
    assert r.threshold is not None
    assert r.lives is not None
    if r.threshold < 1:
        raise _fail("threshold", f"threshold must be at least 1, not {r.threshold}")
    if r.lives < 1:
        raise _fail("lives", f"lives must be at least 1, not {r.lives}")
    if r.fixed_rounds is not None and r.fixed_rounds < 1:
        raise _fail("fixed_rounds", f"fixed_rounds must be at least 1 (or None), not {r.fixed_rounds}")
    if r.fixed_rounds is not None and r.revival:
        raise _fail("revival", "revival needs elimination, but fixed_rounds plays without it")
    if r.revival and r.max_players < 3:
        raise _fail("revival", "revival needs at least two other players left, so max_players >= 3")
    if r.penalty == "cucumbers" and r.deck != "five-cucumbers-60":
        raise _fail("penalty", "the cucumbers penalty table is for the five-cucumbers-60 deck")
    if r.doubling != "none" and r.deck != "five-cucumbers-60":
        raise _fail("doubling", "doubling counts 1s, which only the five-cucumbers-60 deck has")


def _validate_catastrophe(r: Rules, deck_size: int) -> None:
    if r.deck != "numbered-60":
        raise _fail("deck", f"catastrophe uses the numbered-60 deck, not {r.deck!r}")
    assert r.hands is not None
    assert r.cucumbers is not None
    if r.hands < 1:
        raise _fail("hands", f"hands must be at least 1, not {r.hands}")
    if r.min_players < 3 or r.max_players > 6:
        raise _fail(
            "max_players" if r.max_players > 6 else "min_players", "catastrophe is for 3 to 6 players"
        )
    if type(r.cucumbers) is not tuple or len(r.cucumbers) != 60:
        raise _fail("cucumbers", "cucumbers must list 60 counts, one for each card 1..60")
    for i, count in enumerate(r.cucumbers):
        if type(count) is not int or count < 0:
            raise _fail("cucumbers", f"cucumbers[{i}] (card {i + 1}) must be an int >= 0, not {count!r}")
    # Each player must receive a hand (and, with Surprise, every trick needs a reveal).
    fives = sum(1 for count in r.cucumbers if count == 5)  # the 5-cucumber cards (six by default)
    for players in range(r.min_players, r.max_players + 1):
        per = r.cards_per_player(players)
        needed = per * players + (per if r.surprise else 0)
        if per < 1 or needed > deck_size:
            raise _fail("hand_size", f"{players} players x {r.hand_size} cards need {needed} of {deck_size}")
        if r.cant_beat_em and per * players < fives:
            message = f"If You Can't Beat 'Em needs room in the hands for {fives} 5-cucumber cards"
            raise _fail("cant_beat_em", message)


_PRESETS: dict[str, Rules] = {
    "agurk": Rules(
        name="agurk", game=LADDER, deck="standard-52", min_players=3, max_players=7, hand_size=7,
        follow="optional-lowest", ace_lead=False, penalty="card-value", doubling="none", tie_bonus=True,
        threshold=21, lives=2, next_leader="rotate", reverse=False, revival=False, fixed_rounds=None,
    ),
    "gurka": Rules(
        name="gurka", game=LADDER, deck="standard-52", min_players=2, max_players=7, hand_size=7,
        follow="forced-lowest", ace_lead=True, penalty="card-value", doubling="none", tie_bonus=False,
        threshold=30, lives=1, next_leader="rotate", reverse=False, revival=False, fixed_rounds=None,
    ),
    "five-cucumbers": Rules(
        name="five-cucumbers", game=LADDER, deck="five-cucumbers-60", min_players=2, max_players=6,
        hand_size=7, follow="optional-lowest", ace_lead=False, penalty="cucumbers", doubling="per-one",
        tie_bonus=False, threshold=5, lives=1, next_leader="penalized", reverse=False, revival=False,
        fixed_rounds=None,
    ),
    "fuenf-gurken": Rules(
        name="fuenf-gurken", game=LADDER, deck="five-cucumbers-60", min_players=2, max_players=6,
        hand_size=7, follow="optional-lowest", ace_lead=False, penalty="cucumbers", doubling="once",
        tie_bonus=False, threshold=6, lives=1, next_leader="penalized", reverse=False, revival=False,
        fixed_rounds=None,
    ),
    "catastrophe": Rules(
        name="catastrophe", game=CATASTROPHE, deck="numbered-60", min_players=3, max_players=6,
        hand_size=10, surprise=False, cant_beat_em=False, hands=4, cucumbers=DEFAULT_CUCUMBERS,
    ),
}  # fmt: skip

RULESETS: Mapping[str, Rules] = MappingProxyType(_PRESETS)
"""The presets by canonical name (read-only); [`ruleset`][cucumber_rules.ruleset] also takes aliases.

Example:
    >>> list(RULESETS)
    ['agurk', 'gurka', 'five-cucumbers', 'fuenf-gurken', 'catastrophe']
    >>> RULESETS["gurka"].threshold
    30
"""

_ALIASES = {
    "danish": "agurk",
    "danish-cucumber": "agurk",
    "cucumber": "agurk",
    "swedish": "gurka",
    "scandinavian": "gurka",
    "scandinavian-cucumber": "gurka",
    "kurkku": "gurka",
    "5-cucumbers": "five-cucumbers",
    "fuenf": "fuenf-gurken",
    "fünf-gurken": "fuenf-gurken",
    "funf-gurken": "fuenf-gurken",
    "5-gurken": "fuenf-gurken",
    "cucumber-catastrophe": "catastrophe",
}


def preset_name(name: str) -> str:
    """Return the canonical preset name for a name or alias (case-insensitive).

    Example:
        >>> preset_name("Danish_Cucumber"), preset_name("Fünf Gurken")
        ('agurk', 'fuenf-gurken')
    """
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string, not {type(name).__name__}")
    key = "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    key = _ALIASES.get(key, key)
    if key not in _PRESETS:
        raise _fail("preset", f"unknown preset {name!r}; presets are {', '.join(_PRESETS)}")
    return key


def ruleset(name: str, /, **options: Any) -> Rules:
    """Return a preset's rules, optionally with options changed.

    Args:
        name: A preset (`"agurk"`, `"gurka"`, `"five-cucumbers"`, `"fuenf-gurken"`,
            `"catastrophe"`) or an alias; case-insensitive.
        **options: Option overrides, e.g. `threshold=21`.

    Returns:
        The validated rules.

    Raises:
        InvalidRulesError: For an unknown preset or option, a bad value, or an
            impossible combination; `.option` names it.

    Example:
        >>> ruleset("GURKA", threshold=21, ace_lead=False).ace_lead
        False
        >>> ruleset("agurk", hand_size=8)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidRulesError: hand_size: 7 players x 8 cards need 56 cards, ...
    """
    base = _PRESETS[preset_name(name)]
    return base.replace(**options) if options else base
