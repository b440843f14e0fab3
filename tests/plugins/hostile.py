"""Hostile plug-ins: High Card made wrong in every way a game can be, by mistake or malice.

`CASES` lists them: each builds a fresh game (High Card under its own name, with its own rules
class and preset, and some class attributes changed) that `register_game` must refuse, with the
error type and the start of the message it must give. Nothing here changes `highcard.py`.

Some objects are named by entry points in the tests (`tests/test_plugins.py`): `TAG_CLASH` and
`BAD_TRICK` (bad games), `NOT_A_GAME` and `make_nothing` (not games at all).

A game says what its states read through its own state class (`state_type`), and what its views,
words, tests and the rest say through its hook groups (`views = ...`): the attacks come that way
too, as a state class that adds fields or hides what `State` has, and as groups of the wrong class,
holding data of the wrong type, or with hooks that raise.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

import cucumber_rules as cr
from cucumber_rules.bots import Bots
from cucumber_rules.dealing import shuffled_deal
from cucumber_rules.narrate import Words
from cucumber_rules.serialization import Format1
from cucumber_rules.simulate import Stats
from cucumber_rules.testing import Testing
from cucumber_rules.views import Views

from .highcard import HighCardGame, HighCardRules

__all__ = [
    "BAD_TRICK",
    "CASES",
    "NOT_A_GAME",
    "TAG_CLASH",
    "Case",
    "game",
    "group_object",
    "make_nothing",
    "rules_class",
    "state_class",
]


def rules_class(name: str, **extra: Any) -> type[HighCardRules]:
    """High Card's rules for a game called `name` (class attributes `extra` added)."""
    return attrs.frozen(kw_only=True)(type(f"Rules_{name}", (HighCardRules,), {"game": name, **extra}))


def state_class(name: str, /, **members: Any) -> type[cr.State]:
    """A state class for a game called `name`: `State` with `members` added (and no `__dict__`)."""
    return type(f"State_{name}", (cr.State,), {"__slots__": (), **members})


def group_object(base: type, /, **members: Any) -> Any:
    """A hook group: an object of a subclass of `base` (e.g. `Views`) with `members` set on the class."""
    return type(f"Hostile{base.__name__}", (base,), {"__slots__": (), **members})()


def game(name: str, rules: type[HighCardRules] | None = None, /, **changes: Any) -> cr.Game[Any]:
    """High Card under another name, with its own rules class and preset, and `changes` made."""
    rules = rules or rules_class(name)
    preset = rules(name=name, deck="standard-52", min_players=2, max_players=6, hand_size=1)
    body = {
        "name": name,
        "rules_type": rules,
        "presets": {name: preset},
        "aliases": {},
        "preset_titles": {},
        **changes,
    }
    return type(f"Game_{name}", (HighCardGame,), body)()  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------- hostile classes


@attrs.frozen
class FakeRevive(cr.Decision):
    """A decision that takes the ladder's tag."""

    TAG: ClassVar[str] = "revive"
    accept: bool = True


@attrs.frozen
class FakeReveal:
    """An event that takes Catastrophe's tag."""

    TAG: ClassVar[str] = "reveal"
    card: int = 0


@attrs.frozen
class FakeDealt:
    """An event that takes the core deal event's tag."""

    TAG: ClassVar[str] = "dealt"
    sizes: tuple[int, ...] = ()


@attrs.frozen
class Untagged(cr.Decision):
    """A decision without a tag of its own (it would inherit `Decision`'s)."""

    ring: int = 0


@attrs.frozen
class Bell:
    """A tagged class that is not a `Decision`."""

    TAG: ClassVar[str] = "bell"


@attrs.frozen
class Gong(cr.Decision):
    """A decision, fine on its own."""

    TAG: ClassVar[str] = "gong"


@attrs.frozen
class OtherGong(cr.Decision):
    """Another decision with the same tag as `Gong`."""

    TAG: ClassVar[str] = "gong"


@attrs.frozen
class DecisionEvent(cr.Decision):
    """An event that is a `Decision` (every game's documents would take it for an action)."""

    TAG: ClassVar[str] = "decision-event"


@attrs.frozen
class LostEvent:
    """An event whose field's annotation names nothing."""

    TAG: ClassVar[str] = "lost"
    where: Nowhere  # type: ignore[name-defined]  # noqa: F821


@attrs.frozen(weakref_slot=False)
class BadTrick(cr.Trick):
    """A trick whose field's annotation names nothing."""

    note: Nowhere = None  # type: ignore[name-defined]  # noqa: F821


class LooseResult:
    """A round result that is not an attrs class."""

    number: int = 0


@attrs.frozen(weakref_slot=False)
class LooseView(cr.PlayerView):
    """A view whose field's annotation names nothing."""

    fog: Mist = None  # type: ignore[name-defined]  # noqa: F821


class Opaque:
    """A value the JSON converter knows nothing of."""


@attrs.frozen(weakref_slot=False)
class OpaqueTable(cr.Table):
    """A table with a field of a type no JSON hook reads."""

    note: Opaque = attrs.field(factory=Opaque)


@attrs.frozen(weakref_slot=False)
class FatState(cr.State):
    """A state class that adds a field to `State` (every game's engine builds states of its own)."""

    note: int = 0


class DictState(cr.State):
    """A state class with a `__dict__` (no `__slots__`): any attribute could be set on its states."""


@attrs.frozen(kw_only=True, weakref_slot=False)
class SetMatch(cr.Match):
    """A match holding a set (no JSON for it): its type is `Any`, so only a value shows it."""

    seen: Any = attrs.field(factory=frozenset)


@attrs.frozen
class Bid(cr.Decision):
    """A decision with a field named like the tag's key: it would overwrite its own `"type"`."""

    TAG: ClassVar[str] = "bid"
    type: int = 0


@attrs.frozen
class Kinded(cr.Decision):
    """A decision with a field named like the envelope's `kind` (an action document has both)."""

    TAG: ClassVar[str] = "kinded"
    kind: int = 0


@attrs.frozen
class Typed:
    """An event with a field named like the tag's key."""

    TAG: ClassVar[str] = "typed"
    type: int = 0


@attrs.frozen(weakref_slot=False)
class FormatView(cr.PlayerView):
    """A view with a field named like the envelope's `format`."""

    format: int = 0


@attrs.frozen(kw_only=True, weakref_slot=False)
class KindScore(cr.Score):
    """A score with a field written as the envelope's `kind` (through its alias)."""

    sort: int = attrs.field(default=0, alias="kind")


def _raises(*_: Any, **__: Any) -> Any:
    raise RuntimeError("a hook that raises")


def _exits(*_: Any, **__: Any) -> Any:
    sys.exit(4)


def _undecorated(name: str) -> type[HighCardRules]:
    """High Card's rules with an option, in a subclass its author forgot to make an attrs class."""
    members = {"game": name, "__annotations__": {"rounds": "int"}, "rounds": cr.option(3, meaning="rounds")}
    return type(f"Rules_{name}", (HighCardRules,), members)


def _nine_each(self: cr.Game[Any], state: cr.State, rng: random.Random) -> cr.Deal:
    """A dealer that gives every seat nine cards of the 52-card deck (too many for six players)."""
    n = state.num_players
    return shuffled_deal(rng, cr.DECKS["standard-52"], players=n, seats=range(n), per=9, stock=False)


# ----------------------------------------------------------------------------- the catalogue


@attrs.frozen
class Case:
    """A hostile game `register_game` must refuse, with `error` and a message starting `message`."""

    id: str
    build: Callable[[str], cr.Game[Any]]
    error: type[BaseException]
    message: str


def _case(id: str, error: type[BaseException], message: str, **changes: Any) -> Case:
    return Case(id, lambda name: game(name, **changes), error, message)


def _rules_case(id: str, error: type[BaseException], message: str, **extra: Any) -> Case:
    return Case(id, lambda name: game(name, rules_class(name, **extra)), error, message)


def _option_case(id: str, option: str) -> Case:
    def build(name: str) -> cr.Game[Any]:
        field = cr.option(1, meaning="a hostile option")
        rules = attrs.make_class(
            f"Rules_{name}", {option: field}, bases=(HighCardRules,), frozen=True, kw_only=True
        )
        rules.game = name  # type: ignore[attr-defined]
        return game(name, rules)

    return Case(id, build, ValueError, "{name}: an option ")


def _preset_case(id: str, error: type[BaseException], message: str, presets: Callable[[str], Any]) -> Case:
    return Case(id, lambda name: game(name, presets=presets(name)), error, message)


CASES: tuple[Case, ...] = (
    # names
    _case("empty name", ValueError, "a game needs a name", name=""),
    _case("name not text", TypeError, "a game's name must be a string", name=3),
    _case("name not canonical", ValueError, "a game needs a name in lower case", name="High Card"),
    _case(
        "name taken by a built-in game",
        ValueError,
        "a game named 'ladder' is already registered",
        name="ladder",
    ),
    # decision and event tags, and their classes
    _case(
        "decision tag of the ladder",
        ValueError,
        "{name}: tag 'revive' of FakeRevive is taken by the ladder game",
        decisions=(FakeRevive,),
    ),
    _case(
        "event tag of Catastrophe",
        ValueError,
        "{name}: tag 'reveal' of FakeReveal is taken by the catastrophe game",
        events=(FakeReveal,),
    ),
    _case(
        "event tag of the core",
        ValueError,
        "{name}: tag 'dealt' of FakeDealt is taken by the core actions",
        events=(FakeDealt,),
    ),
    _case(
        "decision without a tag", TypeError, "{name}: Untagged needs a TAG of its own", decisions=(Untagged,)
    ),
    _case(
        "decision that is no Decision",
        TypeError,
        "{name}: Bell in decisions must derive from Decision",
        decisions=(Bell,),
    ),
    _case(
        "event that is a Decision",
        TypeError,
        "{name}: DecisionEvent in events cannot be a Decision",
        events=(DecisionEvent,),
    ),
    _case(
        "one tag twice",
        ValueError,
        "{name}: tag 'gong' is used by both Gong and OtherGong",
        decisions=(Gong, OtherGong),
    ),
    _case("decisions not a tuple", TypeError, "{name}: decisions must be a tuple", decisions=Gong),
    _case("event not a class", TypeError, "{name}: events must hold attrs classes", events=("reveal",)),
    # types that do not serialise
    _case(
        "trick annotation that names nothing",
        TypeError,
        "{name}: its values do not serialise: the annotations of BadTrick (trick_type) failed: NameError",
        trick_type=BadTrick,
    ),
    _case(
        "result not an attrs class",
        TypeError,
        "{name}: result_type must be an attrs subclass of RoundResult",
        result_type=LooseResult,
    ),
    _case(
        "result that is a Score",
        TypeError,
        "{name}: result_type must be an attrs subclass of RoundResult",
        result_type=cr.Score,
    ),
    _case(
        "match that is a Play",
        TypeError,
        "{name}: match_type must be an attrs subclass of Match",
        match_type=cr.Play,
    ),
    _case(
        "view annotation that names nothing",
        TypeError,
        "{name}: its values do not serialise: the annotations of LooseView (view_type)",
        view_type=LooseView,
    ),
    _case(
        "event annotation that names nothing",
        TypeError,
        "{name}: its values do not serialise: the annotations of LostEvent (events)",
        events=(LostEvent,),
    ),
    _case(
        "table field no JSON hook reads",
        TypeError,
        "{name}: its values do not serialise: the JSON hooks of OpaqueTable (table_type) failed",
        table_type=OpaqueTable,
    ),
    _case(
        "match value that is not JSON",
        TypeError,
        "{name}: its values do not serialise: a new match of '{name}' failed: TypeError",
        match_type=SetMatch,
    ),
    _rules_case(
        "option value that is not JSON",
        TypeError,
        "{name}: its values do not serialise: preset '{name}'",
        __annotations__={"colours": "Any"},
        colours=attrs.field(factory=lambda: frozenset({1, 2})),
    ),
    _rules_case(
        "option of a type with no JSON Schema",
        TypeError,
        "{name}: its values do not serialise: its JSON Schema of rules documents failed: "
        "TypeError: no JSON Schema for the type dict[str, int]",
        __annotations__={"weights": "dict[str, int]"},
        weights=attrs.field(factory=lambda: {"a": 1}),
    ),
    _case(
        "extra payload with no JSON",
        TypeError,
        "{name}: its values do not serialise: its JSON Schema of state documents failed: "
        "TypeError: no JSON Schema for the type <class 'frozenset'>",
        extra_type=frozenset,
    ),
    # state classes and their readings
    _case(
        "state class that is no State",
        TypeError,
        "{name}: state_type must be State or a subclass of it",
        state_type=cr.Trick,
    ),
    _case(
        "state class that is not a class",
        TypeError,
        "{name}: state_type must be State or a subclass of it",
        state_type=[("shade", len)],
    ),
    _case(
        "state class adding a field",
        TypeError,
        "{name}: its state class FatState may add readings (properties) to State, not fields",
        state_type=FatState,
    ),
    _case(
        "state class with a __dict__",
        TypeError,
        "{name}: its state class DictState may add readings (properties) to State, not fields or a __dict__",
        state_type=DictState,
    ),
    _case(
        "reading named __len__",
        ValueError,
        "{name}: a state reading cannot be named '__len__'",
        state_type=state_class("lenny", __len__=lambda self: 0),
    ),
    _case(
        "reading named like a field",
        ValueError,
        "{name}: a state reading cannot be named 'hands'",
        state_type=state_class("hands", hands=property(len)),
    ),
    _case(
        "reading named like a property",
        ValueError,
        "{name}: a state reading cannot be named 'game'",
        state_type=state_class("game", game=property(len)),
    ),
    _case(
        "reading named like a method",
        ValueError,
        "{name}: a state reading cannot be named 'hand'",
        state_type=state_class("hand", hand=property(len)),
    ),
    _case(
        "reading named like a slot",
        ValueError,
        "{name}: a state reading cannot be named 'to_act'",
        state_type=state_class("to-act", to_act=property(len)),
    ),
    _case(
        "reading named with a keyword",
        ValueError,
        "{name}: a state reading cannot be named 'class'",
        state_type=state_class("keyword", **{"class": property(len)}),
    ),
    _case(
        "reading named privately",
        ValueError,
        "{name}: a state reading cannot be named '_secret'",
        state_type=state_class("private", _secret=property(len)),
    ),
    # options
    _option_case("option named like a method of Rules", "replace"),
    _option_case("option named like a class attribute of Rules", "seats_limit"),
    _option_case("option named privately", "_secret"),
    _option_case("option named like the envelope key kind", "kind"),
    _option_case("option named like the envelope key format", "format"),
    # fields written under a key that JSON uses for something else
    _case(
        "decision field named like the tag",
        ValueError,
        "{name}: Bid (decisions) cannot have a field written as 'type': JSON uses it for the tag",
        decisions=(Bid,),
    ),
    _case(
        "decision field named like the envelope",
        ValueError,
        "{name}: Kinded (decisions) cannot have a field written as 'kind': JSON uses it for the envelope",
        decisions=(Kinded,),
    ),
    _case(
        "event field named like the tag",
        ValueError,
        "{name}: Typed (events) cannot have a field written as 'type'",
        events=(Typed,),
    ),
    _case(
        "view field named like the envelope",
        ValueError,
        "{name}: FormatView (view_type) cannot have a field written as 'format'",
        view_type=FormatView,
    ),
    _case(
        "score field written as the envelope key kind",
        ValueError,
        "{name}: KindScore (score_type) cannot have a field written as 'kind'",
        score_type=KindScore,
    ),
    _rules_case(
        "too many seats", ValueError, "{name}: seats_limit of its rules must be an int 2..", seats_limit=99
    ),
    # presets and aliases
    _preset_case(
        "presets not a mapping", TypeError, "{name}: presets must be a mapping", lambda name: [name]
    ),
    _case(
        "alias of a built-in preset",
        ValueError,
        "{name}: preset name 'gurka' is taken by the ladder game",
        aliases={"gurka": "x"},
    ),
    _case(
        "alias not canonical",
        ValueError,
        "{name}: preset name 'Danish' must be in lower case",
        aliases={"Danish": "x"},
    ),
    _case(
        "alias of no preset",
        ValueError,
        "{name}: alias 'hc2' names no preset ('nothing')",
        aliases={"hc2": "nothing"},
    ),
    _preset_case(
        "preset of another game's rules",
        ValueError,
        "{name}: preset 'agurk-2' must be",
        lambda name: {"agurk-2": attrs.evolve(cr.ruleset("agurk"), name="agurk-2")},
    ),
    _case(
        "rules class of the ladder",
        ValueError,
        "{name}: its rules class says game 'ladder'",
        rules_type=cr.LadderRules,
    ),
    _case(
        "rules class that is no Rules",
        TypeError,
        "{name}: rules_type must be a subclass of Rules",
        rules_type=int,
    ),
    # error codes
    _case(
        "code of the ladder",
        ValueError,
        "{name}: error code 'must-follow' is taken by the ladder game",
        error_codes={"must-follow": "x"},
    ),
    _case(
        "core code",
        ValueError,
        "{name}: error code 'game-over' is taken by the core codes",
        error_codes={"game-over": "x"},
    ),
    _case(
        "codes not a mapping",
        TypeError,
        "{name}: error_codes must map codes to meanings",
        error_codes=["hc-code"],
    ),
    _case(
        "code not text",
        TypeError,
        "{name}: error code 7 and its meaning must be strings",
        error_codes={7: "x"},
    ),
    # other class attributes of the wrong type
    _case("title not text", TypeError, "{name}: title must be str, not NoneType", title=None),
    _case("flag not a bool", TypeError, "{name}: shows_dealer must be bool, not str", shows_dealer="yes"),
    _case(
        "format 1 claimed",
        ValueError,
        "{name}: format1.unused is for the games cucumber_rules 0.1 wrote",
        format1=group_object(Format1, unused={"result": {"payer": -1}}),
    ),
    # hook groups of the wrong class, or holding data of the wrong type
    _case("words not a group", TypeError, "{name}: its words group must be a Words", words=object()),
    _case("views of the words' class", TypeError, "{name}: its views group must be a Views", views=Words()),
    _case(
        "a group class, not an object",
        TypeError,
        "{name}: its bots group must be a Bots (or a subclass), not type",
        bots=Bots,
    ),
    _case(
        "view_fields_shared not a bool",
        TypeError,
        "{name}: views.view_fields_shared must be bool, not str",
        views=group_object(Views, view_fields_shared="yes"),
    ),
    _case(
        "penalty_words not text",
        TypeError,
        "{name}: stats.penalty_words must be str, not int",
        stats=group_object(Stats, penalty_words=3),
    ),
    # hooks that raise while registration proves the values
    _case(
        "new_match raises",
        TypeError,
        "{name}: its values do not serialise: a new match of '{name}' failed",
        new_match=_raises,
    ),
    _case(
        "view_fields raises",
        TypeError,
        "{name}: its values do not serialise: a new match of '{name}' failed",
        views=group_object(Views, view_fields=_raises),
    ),
    _case(
        "decision_examples raises",
        TypeError,
        "{name}: its values do not serialise: testing.decision_examples(0)",
        testing=group_object(Testing, decision_examples=_raises),
    ),
    _case("new_match exits", SystemExit, "4", new_match=_exits),
    # a plug-in author's slips, each named by its cause
    _case(
        "no max_actions",
        TypeError,
        "{name}: it does not define the engine hook max_actions (a hard bound on the actions of a match",
        max_actions=cr.Game.max_actions,
    ),
    Case(
        "rules class not made an attrs class",
        lambda name: game(name, _undecorated(name)),
        TypeError,
        "{name}: its rules class Rules_{name} is not an attrs class, so its options rounds would vanish; "
        "declare it with @attrs.frozen(kw_only=True)",
    ),
    Case(
        "rules class without game",
        lambda name: game(name, attrs.frozen(kw_only=True)(type(f"Rules_{name}", (HighCardRules,), {}))),
        ValueError,
        "{name}: its rules class says game 'highcard' (inherited from HighCardRules); set game = '{name}'",
    ),
    Case(
        "rules class that says no game",
        lambda name: game(name, attrs.frozen(kw_only=True)(type(f"Rules_{name}", (cr.Rules,), {}))),
        ValueError,
        "{name}: its rules class Rules_{name} does not say its game; set game = '{name}' on the class",
    ),
    _case(
        "deal larger than the deck",
        TypeError,
        "{name}: dealing '{name}' to 6 players failed: ValueError: cannot deal 9 cards to each of 6 seats: "
        "that needs 54 cards, and the deck holds 52",
        sample_deal=_nine_each,
    ),
)
"""Every hostile game, each refused by `register_game` (the message may name the game: `{name}`)."""


TAG_CLASH = game("tag-clash", decisions=(FakeRevive,))
"""A game whose decision takes the ladder's `"revive"` tag (for an entry point)."""

BAD_TRICK = game("bad-trick", trick_type=BadTrick)
"""A game whose trick class has an annotation that names nothing (for an entry point)."""

NOT_A_GAME = 42
"""Not a game at all (for an entry point)."""


def make_nothing() -> None:
    """A function an entry point names that returns no game."""
