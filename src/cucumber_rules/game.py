"""The Game base: what the core and the packages that call hooks know of a game, and the road to it.

The core (rules, states, the engine) and the packages that call a game's hooks (views, encoding,
sampling, serialization, render, testing, schema, ...) sit below the games in the import graph:
none of them imports a game module, nor `cucumber_rules.games`, even for typing. They know a game
by its Game base:

- [`GameBase`][cucumber_rules.game.GameBase]: the protocol of a game's metadata and engine hooks,
  which every [`Game`][cucumber_rules.Game] has (the class game authors subclass, above, in
  `cucumber_rules.games`);
- [`HookGroup`][cucumber_rules.game.HookGroup]: the base of each group of hooks (`Views`, `Words`,
  ...), defined with its defaults beside the code that calls it; `Views.of(game)` is the game's group;
- [`game_of`][cucumber_rules.game_of]: the one road from a rule set, state, view, match or record to
  its registered game (the registry's, `cucumber_rules._registry`), typed as a `GameBase` here.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules.views import Views
    >>> game = game_of(cr.ruleset("catastrophe"))
    >>> game.name, type(Views.of(game)).__name__
    ('catastrophe', 'CatastropheViews')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Protocol, TypeVar, cast

from . import _registry
from .actions import Action, Deal, Decision, Play
from .errors import IllegalMoveError
from .options import Option
from .rules import Rules
from .scoring import Score
from .state import Match, RoundResult, State, Table, Trick

__all__ = ["GameBase", "HookGroup", "game_of", "registered_games"]

S = TypeVar("S", bound=State)
H = TypeVar("H", bound="HookGroup")


class HookGroup:
    """The base of each group of a game's hooks: `Views`, `Words`, `Pictures`, `Bots`, `Stats`, ...

    A group's class is defined, with its defaults, beside the code that calls its hooks; a game
    that says more sets an object of a subclass (`views = LadderViews()`). `attribute` names the
    `Game` attribute that holds the group, and `of(game)` reads it.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.narrate import Words
        >>> Words.attribute, type(Words.of(cr.GAMES["ladder"])).__name__
        ('words', 'LadderWords')
    """

    __slots__ = ()

    attribute: ClassVar[str] = ""
    """The `Game` attribute that holds a game's group of this kind (`"views"`, `"words"`, ...)."""

    @classmethod
    def of(cls: type[H], game: Any) -> H:
        """The game's group of this kind (its `Game` attribute `attribute`).

        Example:
            >>> import cucumber_rules as cr
            >>> from cucumber_rules.views import Views
            >>> Views.of(cr.GAMES["ladder"]).view_fields_shared
            True
        """
        found: H = getattr(game, cls.attribute)
        return found


class GameBase(Protocol[S]):
    """What the core and the packages that call hooks know of a game: its metadata and engine hooks.

    Every [`Game`][cucumber_rules.Game] has all of it (`Game` documents each member, and
    implements the defaults; its class attributes are read here as read-only properties); the
    groups of hooks are read with `HookGroup.of`.

    Example:
        >>> import cucumber_rules as cr
        >>> game: GameBase[cr.State] = cr.GAMES["catastrophe"]
        >>> game.unit, game.max_actions(cr.ruleset("catastrophe"), 4)
        ('hand', 164)
    """

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def rules_type(self) -> type[Rules]: ...

    @property
    def presets(self) -> Mapping[str, Rules]: ...

    @property
    def aliases(self) -> Mapping[str, str]: ...

    @property
    def preset_titles(self) -> Mapping[str, str]: ...

    @property
    def error_codes(self) -> Mapping[str, str]: ...

    @property
    def decisions(self) -> tuple[type[Decision], ...]: ...

    @property
    def events(self) -> tuple[type, ...]: ...

    @property
    def state_type(self) -> type[State]: ...

    @property
    def match_type(self) -> type[Match]: ...

    @property
    def table_type(self) -> type[Table]: ...

    @property
    def trick_type(self) -> type[Trick]: ...

    @property
    def result_type(self) -> type[RoundResult]: ...

    @property
    def score_type(self) -> type[Score]: ...

    @property
    def view_type(self) -> type[Any]: ...

    @property
    def extra_type(self) -> Any: ...

    @property
    def unit(self) -> str: ...

    @property
    def shows_dealer(self) -> bool: ...

    @property
    def options(self) -> Mapping[str, Option]: ...

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> Match: ...

    def deal_error(self, state: S, deal: Deal) -> IllegalMoveError | None: ...

    def sample_deal(self, state: S, rng: random.Random) -> Deal: ...

    def start_round(self, state: S, deal: Deal) -> S: ...

    def legal(self, state: S) -> tuple[Action, ...]: ...

    def play_error(self, state: S, play: Play) -> IllegalMoveError | None: ...

    def play(self, state: S, play: Play) -> S: ...

    def apply_play(self, state: S, play: Play) -> S: ...

    def decision_error(self, state: S, decision: Decision) -> IllegalMoveError | None: ...

    def decide(self, state: S, decision: Decision) -> S: ...

    def score(self, state: S) -> Score: ...

    def max_actions(self, rules: Rules, players: int) -> int: ...


game_of: Final = cast("Callable[[object], GameBase[State]]", _registry.game_of)
"""The registered game of a rule set, state, view, match or record (`cucumber_rules.game_of`, as a
`GameBase`: the core's and the hook-calling packages' road to a game).

Example:
    >>> import cucumber_rules as cr
    >>> game_of(cr.new_game(cr.ruleset("gurka"), 2)).name
    'ladder'
"""

registered_games: Final = cast("Callable[[], Mapping[str, GameBase[State]]]", _registry.games)
"""The registered games by name, plug-ins loaded (`GAMES`, for the code below the games package).

Example:
    >>> list(registered_games())[:2]
    ['ladder', 'catastrophe']
"""
