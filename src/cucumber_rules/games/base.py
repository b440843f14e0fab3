"""What a game provides: the `Game` base class a trick mechanism subclasses.

A `Game` is the engine core of one trick mechanism: what it is (its name, rules
class, presets, value classes, error codes) and the dozen hooks the engine calls
(deal, list and check moves, play, decide, score). Everything else a game may say
lives in **hook groups**, each owned by the module that calls it and defined with
its defaults beside that code:

| attribute | group class | called by |
| --- | --- | --- |
| `views` | [`views.Views`][cucumber_rules.views.Views] | `view`, `loads` (what each seat sees) |
| `words` | [`narrate.Words`][cucumber_rules.narrate.Words] | narration, the command line, the docs' tables |
| `pictures` | [`render.Pictures`][cucumber_rules.render.Pictures] | the SVG pictures |
| `bots` | [`bots.Bots`][cucumber_rules.bots.Bots] | the heuristic bot |
| `stats` | [`simulate.Stats`][cucumber_rules.simulate.Stats] | simulation summaries |
| `sampling` | [`sampling.Sampling`][cucumber_rules.sampling.Sampling] | `sample_world` |
| `encoding` | [`encoding.Encoding`][cucumber_rules.encoding.Encoding] | action ids, observations, deals |
| `testing` | [`testing.Testing`][cucumber_rules.testing.Testing] | `check_game` |
| `format1` | [`serialization.Format1`][cucumber_rules.serialization.Format1] | reading 0.1's JSON |

A game that says more than the defaults sets one object per group, e.g.
`words = LadderWords()` where `LadderWords` subclasses `narrate.Words`; a game
that keeps the defaults writes nothing. A group's class derives from
[`HookGroup`][cucumber_rules.game.HookGroup]: the code that calls it reads a
game's group as `Words.of(game)`. A group is looked up in its module only when
first read, so a program pays for no group it never asks for, and a later group
(say, a batched array engine for reinforcement learning) is one more attribute
that no existing game needs to know about.

`Game` sits above the packages that call its hooks in the import graph (it names
their group classes); the core and those packages know a game by its Game base,
[`GameBase`][cucumber_rules.game.GameBase] (`cucumber_rules.game`), which every
`Game` is.

0.2 put every hook on `Game` itself. A subclass that still defines one of those
flat hooks (`def heuristic(self, view, rng, *, caution=1.0)`) keeps working for
this release: its game gets a group whose hook calls the flat method, with a
`DeprecationWarning` when the class is defined.
"""

from __future__ import annotations

import importlib
import random
import threading
import warnings
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from ..actions import Decision
from ..errors import IllegalMoveError
from ..options import Option, option_table
from ..scoring import Score
from ..state import Match, RoundResult, State, Table, Trick
from ..views import PlayerView

if TYPE_CHECKING:
    from ..actions import Action, Deal, Play
    from ..bots import Bots
    from ..encoding import Encoding
    from ..narrate import Words
    from ..render import Pictures
    from ..rules import Rules
    from ..sampling import Sampling
    from ..serialization import Format1
    from ..simulate import Stats
    from ..testing import Testing
    from ..views import Views


__all__ = ["FLAT_HOOKS", "Game", "group"]

S = TypeVar("S", bound=State)
G = TypeVar("G")


def group(path: str) -> Any:
    """Declare a hook group of a `Game` class: `module:Class`, imported and built when first read.

    A game may set a group object itself (`words = LadderWords()`), or name its class with
    `group` (`words = group("mygame.words:MyWords")`) so that the module is imported only when
    the group is first used: a game's words, pictures or encodings cost nothing to a program
    that never asks for them. `Game` declares each group's default this way, so the core
    modules never import the registry. The object is built once (with no arguments) and shared.

    Args:
        path: Where the group's class is: `"package.module:Class"`.

    Returns:
        A descriptor that reads as the group object.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.Game.words).__name__, type(cr.GAMES["ladder"].words).__name__
        ('Words', 'LadderWords')
    """
    return LazyGroup(path)


class LazyGroup(Generic[G]):
    """The descriptor `group` returns: the group object, built once from its class's path."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = ""
        self._default: G | None = None
        self._lock = threading.Lock()

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def default(self) -> G:
        """The group's object (the named class, built with no arguments), built once.

        A game's own group must derive from the class of `Game`'s default for the same group
        (`register_game` checks a group set as an object at once; one named here, now).
        """
        found = self._default
        if found is None:
            module, _, name = self.path.partition(":")
            cls = getattr(importlib.import_module(module), name)
            base = Game.__dict__.get(self.name)
            if isinstance(base, LazyGroup) and base is not self:
                expected = type(base.default())
                if not (isinstance(cls, type) and issubclass(cls, expected)):
                    raise TypeError(
                        f"the {self.name} group {self.path} must be a subclass of {expected.__name__}"
                    )
            with self._lock:
                if self._default is None:
                    self._default = cls()
                found = self._default
        assert found is not None
        return found

    @overload
    def __get__(self, game: None, owner: type) -> G: ...
    @overload
    def __get__(self, game: object, owner: type) -> G: ...
    def __get__(self, game: object, owner: type) -> G:
        return self.default()


class Game(Generic[S]):
    """A trick mechanism: its metadata, the engine hooks, and groups of hooks for everything else.

    Subclass it, set the class attributes, implement the engine hooks (those that
    raise `NotImplementedError` here), set the groups you need (see the module
    docstring), then `register_game(MyGame())`. A game is a description, not a state:
    keep instances immutable. The engine calls a hook only where its own checks have
    passed: the match is not over, the action's kind is due, and (for a `Play`) the seat
    is the seat to act. The docs' "Adding a game" walks through a complete example.

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["ladder"]
        >>> game.name, sorted(game.presets), game.unit
        ('ladder', ['agurk', 'five-cucumbers', 'fuenf-gurken', 'gurka'], 'round')
    """

    __slots__ = ()  # a description, not a state (and its hooks are found faster without a `__dict__`)

    # ----------------------------------------------------------------- what the game is

    name: ClassVar[str] = ""
    """The game's registry name, e.g. `"ladder"` (also `Rules.game`)."""
    title: ClassVar[str] = ""
    """A human title, e.g. `"Ladder games"`."""
    rules_type: ClassVar[type[Rules]]
    """The game's rules class: a subclass of `Rules` whose `option` fields are its options."""
    presets: ClassVar[Mapping[str, Rules]] = MappingProxyType({})
    """The game's presets by canonical name (lower case, words joined by `-`)."""
    aliases: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Other names of its presets: alias -> preset name."""
    preset_titles: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """How its presets are called in titles (`"five-cucumbers"` -> `"Five Cucumbers"`)."""
    error_codes: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """The codes of its rules of play (`IllegalMoveError.code`) with what they mean.

    A subclass may give these four as plain dicts: each is copied into a read-only mapping when the
    class is made (a game is reachable from every state of it, and nothing mutable may be)."""
    decisions: ClassVar[tuple[type[Decision], ...]] = ()
    """Its decision action classes (the ladder's `Revive`), beside `Deal` and `Play`."""
    events: ClassVar[tuple[type, ...]] = ()
    """Event classes its views add to the public history (Catastrophe's `Revealed`)."""
    state_type: ClassVar[type[State]] = State
    """Its `State` class: `State`, or a subclass that adds named readings (`CatastropheState.marker`)."""
    match_type: ClassVar[type[Match]] = Match
    """Its `Match` class."""
    table_type: ClassVar[type[Table]] = Table
    """Its `Table` class."""
    trick_type: ClassVar[type[Trick]] = Trick
    """Its `Trick` class."""
    result_type: ClassVar[type[RoundResult]] = RoundResult
    """Its `RoundResult` class."""
    score_type: ClassVar[type[Score]] = Score
    """Its `Score` class (the ladder's `LadderScore` adds marks and eliminations)."""
    view_type: ClassVar[type[PlayerView]] = PlayerView
    """Its `PlayerView` class."""
    extra_type: ClassVar[Any] = Any
    """The type of what the game keeps per trick in `State.extra` (Catastrophe: `Marker | None`; the
    ladder keeps nothing: `None`); `Any` when it does not say (the JSON Schemas then allow any value)."""
    unit: ClassVar[str] = "round"
    """What one deal's play is called (`"round"`; Catastrophe: `"hand"`)."""
    shows_dealer: ClassVar[bool] = True
    """Whether a dealer deals (pictures and narration name them); Catastrophe has a starter instead."""

    @property
    def options(self) -> Mapping[str, Option]:
        """The game's options by name, in declaration order, as this game defines them.

        Options belong to their game: two games may each have an option of the same name with a
        type and choices of their own. (`OPTIONS` merges every game's.)

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].options["follow"].choices
            ('optional-lowest', 'forced-lowest')
            >>> "follow" in cr.GAMES["catastrophe"].options
            False
        """
        return option_table(self.rules_type)

    # ----------------------------------------------------------------- hook groups (see the module docstring)

    views: Views = group("cucumber_rules.views:Views")
    """What each seat sees and the public history; how a loaded view is checked (`views.Views`)."""
    words: Words = group("cucumber_rules.narrate:Words")
    """Narration, the command line's questions, the docs' preset tables (`narrate.Words`)."""
    pictures: Pictures = group("cucumber_rules.render:Pictures")
    """What the SVG pictures draw beyond the cards (`render.Pictures`)."""
    bots: Bots = group("cucumber_rules.bots:Bots")
    """The heuristic bot's knowledge (`bots.Bots`)."""
    stats: Stats = group("cucumber_rules.simulate:Stats")
    """What simulation summaries count (`simulate.Stats`)."""
    sampling: Sampling = group("cucumber_rules.sampling:Sampling")
    """How `sample_world` deals hidden cards and rebuilds earlier rounds (`sampling.Sampling`)."""
    encoding: Encoding = group("cucumber_rules.encoding:Encoding")
    """Action ids, observation vectors and card-by-card deals for machine learning (`encoding.Encoding`)."""
    testing: Testing = group("cucumber_rules.testing:Testing")
    """What `check_game` and the Hypothesis strategies ask of the game (`testing.Testing`)."""
    format1: Format1 = group("cucumber_rules.serialization:Format1")
    """What JSON format 1 (cucumber_rules 0.1) wrote for the game (`serialization.Format1`)."""

    # ----------------------------------------------------------------- the engine

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> Match:
        """The `Match` of a new game: zero totals, the seat before `first` as the dealer.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].new_match(cr.ruleset("catastrophe"), ("a", "b", "c"), 1).dealer
            0
        """
        n = len(players)
        return self.match_type(
            rules=rules, players=players, first=first, totals=(0,) * n, dealer=(first - 1) % n
        )

    def deal_error(self, state: S, deal: Deal) -> IllegalMoveError | None:
        """Why `deal` does not fit the coming round (code `bad-deal`), or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> cr.GAMES["ladder"].deal_error(s, cr.Deal(hands=[["2C"], ["3C", "4C"]])).message
            'bad deal: seat 0 must receive 2 cards, not 1'
        """
        raise NotImplementedError

    def sample_deal(self, state: S, rng: random.Random) -> Deal:
        """A random deal for the coming round, drawn with `rng` only.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> [len(h) for h in cr.GAMES["ladder"].sample_deal(s, random.Random(1)).hands]
            [2, 2]
        """
        raise NotImplementedError

    def start_round(self, state: S, deal: Deal) -> S:
        """The state after a checked deal: the round starts (see `tricks.round_started`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> s = cr.GAMES["ladder"].start_round(s, cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s.to_act, [str(c) for c in s.hands[0]]
            (0, ['2C', '9S'])
        """
        raise NotImplementedError

    def legal(self, state: S) -> tuple[Action, ...]:
        """The legal actions of the seat to act (never called at chance or once over), sorted.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> [str(m.card) for m in cr.GAMES["ladder"].legal(s)]  # Gurka: follow high when you can
            ['KD']
        """
        raise NotImplementedError

    def play_error(self, state: S, play: Play) -> IllegalMoveError | None:
        """Why the seat to act may not play this card now, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> cr.GAMES["ladder"].play_error(s, cr.Play(1, "3C")).code
            'must-follow'
        """
        raise NotImplementedError

    def play(self, state: S, play: Play) -> S:
        """The state after a play known to be legal (see `tricks.next_turn` and `tricks.take_trick`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.GAMES["ladder"].play(s, cr.Play(0, "9S"))
            >>> s.to_act, [str(p.card) for p in s.trick]
            (1, ['9S'])
        """
        raise NotImplementedError

    def apply_play(self, state: S, play: Play) -> S:
        """Check and apply a play of the seat to act; raise the `IllegalMoveError` if illegal.

        The default checks with `play_error` and applies with `play`; a game may fuse them.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> cr.GAMES["ladder"].apply_play(s, cr.Play(1, "KD")).to_act  # KD takes the trick and leads
            1
        """
        error = self.play_error(state, play)
        if error is not None:
            raise error
        return self.play(state, play)

    def decision_error(self, state: S, decision: Decision) -> IllegalMoveError | None:
        """Why this decision may not be taken now, or None (default: no decision is ever due).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
            >>> cr.GAMES["catastrophe"].decision_error(s, cr.Revive(0, True)).code
            'no-decision'
        """
        return IllegalMoveError(
            "no-decision",
            f"seat {decision.seat} has no decision to take now",
            seat=decision.seat,
            action=decision,
        )

    def decide(self, state: S, decision: Decision) -> S:
        """The state after a checked decision (required when the game has `decisions`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
            >>> cr.GAMES["catastrophe"].decide(s, cr.Revive(0, True))
            Traceback (most recent call last):
            NotImplementedError: the catastrophe game has no decisions
        """
        raise NotImplementedError(f"the {self.name} game has no decisions")

    def score(self, state: S) -> Score:
        """The score now. The default ranks the seats by total, lowest first (winners first).

        A score depends on `state.match` alone (views work it out, once per match value, from a
        copy of the match in a `State` that holds nothing else).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].score(cr.new_game(cr.ruleset("catastrophe"), players=3)).totals
            (0, 0, 0)
        """
        from ..scoring import default_score  # (scoring's default needs the game)

        return default_score(self, state)

    def max_actions(self, rules: Rules, players: int) -> int:
        """A hard bound on the actions of a match (deals and decisions included).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].max_actions(cr.ruleset("catastrophe"), 4)  # 4 hands: a deal, 40 cards
            164
        """
        raise NotImplementedError

    # ----------------------------------------------------------------- 0.2's flat hooks (deprecated)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _MAPPINGS:  # read-only copies: a game is reachable from its states
            value = cls.__dict__.get(name)
            if isinstance(value, Mapping) and not isinstance(value, MappingProxyType):
                setattr(cls, name, MappingProxyType(dict(value)))
        flat = [name for name in cls.__dict__ if name in FLAT_HOOKS]
        if flat:
            warnings.warn(
                f"{cls.__qualname__} defines 0.2's flat Game hooks ({', '.join(flat)}); they now live in "
                "hook groups (" + ", ".join(sorted({f"{FLAT_HOOKS[n][0]}.{n}" for n in flat})) + "): "
                "set e.g. `words = MyWords()` with a subclass of the group's class. The flat hooks "
                "work for this release only.",
                DeprecationWarning,
                stacklevel=2,
            )
            _shim(cls, flat)

    def __repr__(self) -> str:
        return f"<Game {self.name!r}>"


#: The game's mappings, made read-only when a subclass is made (see `Game.error_codes`).
_MAPPINGS = ("presets", "aliases", "preset_titles", "error_codes")

#: 0.2's flat hooks and data, and the group each moved to: name -> (group attribute, its name there).
FLAT_HOOKS: dict[str, tuple[str, str]] = {
    **{
        n: ("views", n)
        for n in (
            "view_fields", "view_fields_shared", "public_events", "round_events", "check_view", "view_cards"
        )
    },
    **{
        n: ("words", n)
        for n in (
            "describe_deal", "describe_trick", "describe_result", "describe_table", "describe_seat",
            "decision_prompt", "decision_answers", "ranking", "facts",
        )
    },
    **{n: ("pictures", n) for n in ("card_icons", "points_word", "trick_extras", "seat_note", "result_note")},
    "heuristic": ("bots", "heuristic"),
    "penalties": ("stats", "penalties"),
    "penalty_words": ("stats", "penalty_words"),
    **{n: ("sampling", n) for n in ("complete_deal", "rebuild_round")},
    **{
        n: ("encoding", n)
        for n in ("action_cards", "action_decisions", "observation_parts", "observe", "deal_plan")
    },
    **{n: ("testing", n) for n in ("draw_options", "round_cards", "decision_examples", "check_state")},
    "format1_unused": ("format1", "unused"),
}  # fmt: skip


def _shim(cls: type[Game[Any]], flat: list[str]) -> None:
    """Give a 0.2-style game class groups whose hooks call its flat methods (one release only).

    Each group becomes a subclass of the group's class the game had, with the flat hook under its
    new name: a method calls the game's flat method (on an instance of the game class: a game is a
    description), data (`penalty_words`, `view_fields_shared`, `format1_unused`) is copied.
    """
    by_group: dict[str, list[str]] = {}
    for name in flat:
        by_group.setdefault(FLAT_HOOKS[name][0], []).append(name)
    for attr, names in by_group.items():
        base = type(getattr(cls, attr))
        members: dict[str, Any] = {"__slots__": ()}
        for name in names:
            value = cls.__dict__[name]
            plain = callable(value) and not isinstance(value, staticmethod | classmethod | type)
            members[FLAT_HOOKS[name][1]] = _forward(cls, value) if plain else value
        setattr(cls, attr, type(f"{cls.__name__}{base.__name__}", (base,), members)())


def _forward(cls: type[Game[Any]], method: Callable[..., Any]) -> Callable[..., Any]:
    def hook(self: object, *args: Any, **kwargs: Any) -> Any:
        return method(cls.__new__(cls), *args, **kwargs)

    hook.__name__ = hook.__qualname__ = method.__name__
    return hook
