"""What the invariant groups of `check_game` share: the match being checked, and how to report."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from ..actions import Action, Deal, Play
    from ..cards import Card
    from ..game import GameBase
    from ..rules import Rules
    from ..state import State

__all__ = ["CheckBase", "actions_text", "cards_text", "codes_text", "plays_text"]


class CheckBase:
    """The attributes and reporting every invariant group uses (see `match.MatchCheck`).

    Example:
        >>> from cucumber_rules.testing.match import MatchCheck
        >>> [cls.__name__ for cls in MatchCheck.__mro__[1:-1]]
        ['StateChecks', 'MoveChecks', 'ViewChecks', 'CheckBase']
    """

    rules: Rules
    game: GameBase[State]
    n: int
    seed: int
    index: int
    aux: random.Random
    deck: Counter[Card]
    deck_indexes: list[int]
    deal: Deal | None
    dealt: list[list[int]]
    stock: list[int]
    never_dealt: list[int]

    def fail(self, invariant: str, detail: str) -> NoReturn:
        raise NotImplementedError

    def call(self, invariant: str, what: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def apply_legal(self, state: State, action: Action) -> State:
        raise NotImplementedError

    def remember(self, deal: Deal, used: Counter[Card]) -> None:
        raise NotImplementedError


def cards_text(cards: Any) -> str:
    """Cards as `[2C 9H]` for messages.

    Example:
        >>> import cucumber_rules as cr
        >>> cards_text([cr.card("2C"), cr.card("9H")])
        '[2C 9H]'
    """
    return "[" + " ".join(str(c) for c in cards) + "]"


def plays_text(plays: tuple[Play, ...]) -> str:
    """Plays as `[0:2C, 1:9H]` for messages.

    Example:
        >>> import cucumber_rules as cr
        >>> plays_text((cr.Play(0, "2C"), cr.Play(1, "9H")))
        '[0:2C, 1:9H]'
    """
    return "[" + ", ".join(f"{p.seat}:{p.card}" for p in plays) + "]"


def actions_text(actions: tuple[Action, ...]) -> str:
    """Actions as `[seat 0 plays 2C, ...]` for messages.

    Example:
        >>> import cucumber_rules as cr
        >>> actions_text((cr.Play(0, "2C"), cr.Play(1, "9H")))
        '[seat 0 plays 2C, seat 1 plays 9H]'
    """
    return "[" + ", ".join(str(a) for a in actions) + "]"


def codes_text(codes: frozenset[str]) -> str:
    """Codes as `'a' or 'b'` for messages.

    Example:
        >>> codes_text(frozenset({"must-follow", "cannot-lead-five"}))
        "'cannot-lead-five' or 'must-follow'"
    """
    return " or ".join(repr(c) for c in sorted(codes))
