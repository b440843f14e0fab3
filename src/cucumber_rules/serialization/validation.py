"""Re-validating loaded documents: states and records by replay, views and scores by consistency.

A state document is checked by replaying its history from `new_game(rules,
players, first=first)` and comparing the document with the replayed state, field
by field: the first difference (a tampered hand, a wrong turn, a forged score, a
missing or unknown field) is reported with its JSON path. A loaded state is
therefore always one the engine itself produced. Records are replayed too; views
and scores, which cannot be replayed, are checked for consistency.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final

import attrs
import cattrs

from .._text import name_problem
from ..actions import MAX_SEATS, Action, Play
from ..cards import DECKS, Card, card
from ..errors import IllegalMoveError, InvalidNotationError, InvalidRulesError, InvalidStateError
from ..history import History
from ..rules import Rules, game_of
from ..sampling import check_round, finished_rounds
from ..scoring import Score
from ..state import CHANCE, State
from ..views import Dealt, PlayerView
from .converter import At, Bad, kind_name, state_document, step

__all__ = [
    "check_counts",
    "check_names",
    "diff",
    "replay_actions",
    "structure_state",
    "validate_score",
    "validate_view",
]

_CARD_CODES: Final = frozenset(
    {"not-in-hand", "must-follow", "must-play-lowest", "cannot-lead-five", "must-follow-marker"}
)


def replay_actions(
    rules: Rules, players: tuple[str, ...], first: int, actions: tuple[Action, ...] | History[Action]
) -> State:
    """Replay actions from a new game; an illegal one raises `At("[i]", Bad(...))` (relative to the actions).

    Example:
        >>> import cucumber_rules as cr
        >>> replay_actions(cr.ruleset("gurka"), ("a", "b"), 0, ()).to_act == cr.CHANCE
        True
    """
    from ..engine import apply, new_game

    try:
        state = new_game(rules, players, first=first)
    except InvalidRulesError as err:
        where = "first" if err.option == "first" else "players"
        raise At(f"<{where}>", Bad(str(err).removeprefix(f"{err.option}: "))) from None
    for i, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalMoveError as err:
            where = ".card" if err.code in _CARD_CODES else ".seat" if err.code == "not-your-turn" else ""
            raise At(f"[{i}]", Bad(f"illegal action ({err.code}): {err.message}", where)) from None
        except Exception as err:  # an engine failure on hostile input must still be a clean error
            raise At(
                f"[{i}]", Bad(f"engine error (please report this bug): {type(err).__name__}: {err}")
            ) from None
    return state


def _same_card(expected: str, found: str) -> bool:
    try:
        return card(found) is card(expected)
    except InvalidNotationError:
        return False


def diff(
    expected: Any, found: Any, path: str = "", *, reason: str = "the state rebuilt by replaying the history"
) -> Bad | None:
    """The first difference between two JSON values, as a `Bad` naming its path (relative), or None.

    Cards may be spelled differently (`"TH"` for `"10H"`). A value that differs "does not
    match" `reason`.

    Example:
        >>> diff({"a": [1, 2]}, {"a": [1, 3]}).step
        '.a[1]'
        >>> diff({"a": 1}, {"a": 1, "b": 2}).message
        "unknown field 'b'"
    """
    if type(expected) is dict:
        if type(found) is not dict:
            return Bad(f"expected an object, not {kind_name(found)}", path)
        for key in found:
            if key not in expected:
                return Bad(f"unknown field {key!r}", path + step(key))
        for key, value in expected.items():
            if key not in found:
                return Bad(f"missing field {key!r}", path + step(key))
            bad = diff(value, found[key], path + step(key), reason=reason)
            if bad is not None:
                return bad
        return None
    if type(expected) is list:
        if type(found) is not list:
            return Bad(f"expected an array, not {kind_name(found)}", path)
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            bad = diff(a, b, f"{path}[{i}]", reason=reason)
            if bad is not None:
                return bad
        if len(expected) != len(found):
            return Bad(
                f"does not match {reason} ({len(found)} items, not {len(expected)})",
                path,
            )
        return None
    if type(expected) is not type(found):
        wanted = {int: "an integer", bool: "true or false", str: "a string"}.get(type(expected))
        if expected is not None and wanted is not None:
            return Bad(f"expected {wanted}, not {kind_name(found)}", path)
        return Bad(
            f"does not match {reason} (expected {json.dumps(expected)})",
            path,
        )
    if expected == found or (type(expected) is str and _same_card(expected, found)):
        return None
    return Bad(f"does not match {reason} (expected {json.dumps(expected)})", path)


def _same_json(expected: Any, found: Any) -> bool:
    """True if two JSON values are written alike, so that `diff` finds nothing: a quick first look.

    `json.dumps` tells apart what `==` does not (`1`, `1.0` and `true`) and runs in C.

    Example:
        >>> _same_json({"a": [1, None]}, {"a": [1, None]}), _same_json({"a": 1}, {"a": True})
        (True, False)
    """
    write = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":")).encode
    return write(expected) == write(found)


def structure_state(
    conv: cattrs.Converter,
    value: Any,
    legacy: Callable[[State], dict[str, Any]] | None = None,
    *,
    consume: bool = False,
) -> State:
    """A state from its document: replay its history, then require every field to match the replay.

    `legacy` writes the replayed state in an older layout to compare against (format 1).
    With `consume`, `value` is the caller's to give up: its parsed history is taken out of it
    once structured, so the replay does not keep it alive (`loads` passes its own copy).

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.serialization.documents import converter
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["3H"]]))
        >>> value = converter().unstructure(s, cr.State)
        >>> structure_state(converter(), value, consume=True) == s, "history" in value
        (True, False)
    """
    if type(value) is not dict:
        raise Bad(f"expected an object, not {kind_name(value)}")
    for key in ("rules", "players", "first", "history"):
        if key not in value:
            raise Bad(f"missing field {key!r}", f".{key}")
    parts: dict[str, Any] = {}
    for key, t in (
        ("rules", Rules),
        ("players", tuple[str, ...]),
        ("first", int),
        ("history", tuple[Action, ...]),
    ):
        try:
            parts[key] = conv.structure(value[key], t)
        except Exception as err:
            raise At(f".{key}", err) from None
    if consume:
        del value["history"]
    try:
        state = replay_actions(parts["rules"], parts["players"], parts["first"], parts["history"])
    except At as err:
        if err.step.startswith("<"):
            raise At("." + err.step.strip("<>"), err.error) from None
        raise At(".history", err) from None
    expected = legacy(state) if legacy is not None else state_document(conv, state, history=False)
    skip = ("rules", "players", "first", "history")
    expected = {k: v for k, v in expected.items() if k not in skip}
    found = {k: v for k, v in value.items() if k not in skip}
    if not _same_json(expected, found):
        bad = diff(expected, found)
        if bad is not None:
            raise bad
    return state


# --------------------------------------------------------------------------- views and scores


def _seat_ok(seat: int | None, n: int) -> bool:
    return seat is not None and 0 <= seat < n


def _fail(path: str, message: str) -> InvalidStateError:
    return InvalidStateError(path, message)


def _check_seats(values: tuple[int, ...], n: int, path: str) -> None:
    for i, seat in enumerate(values):
        if not 0 <= seat < n:
            raise _fail(f"{path}[{i}]", f"{seat} is not a seat (0..{n - 1})")


def _check_per_seat(value: tuple[Any, ...], n: int, path: str) -> None:
    if len(value) != n:
        raise _fail(path, f"must have one entry per seat ({n}), not {len(value)}")


def _walk_cards(value: Any, path: str) -> Iterator[tuple[str, Card]]:
    if type(value) is Card:
        yield path, value
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _walk_cards(item, f"{path}[{i}]")
    elif attrs.has(type(value)) and not isinstance(value, Rules):
        for f in attrs.fields(type(value)):
            if f.init:
                yield from _walk_cards(getattr(value, f.name), f"{path}.{f.name}")


_SCALARS: Final = frozenset({int, str, bool, type(None)})
#: More events than one round of any game can have: its deal, a play and a game's event for each
#: card of the largest deck, and a decision for each seat.
_MOST_EVENTS: Final = 1 + 2 * max(map(len, DECKS.values())) + MAX_SEATS
_SEAT: Final = operator.attrgetter("seat")


def _cards_of(value: Any) -> set[Card]:
    """Every card `_walk_cards` finds in `value`, without their paths: a quick first look.

    Views may hold many events; only when a card is not of the deck does `validate_view`
    walk them again for the path.

    Example:
        >>> import cucumber_rules as cr
        >>> sorted(_cards_of((cr.Play(0, "2C"), (cr.card("QS"), 3))))
        [card('2C'), card('QS')]
    """
    found: set[Card] = set()
    fields: dict[type, tuple[str, ...]] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Play:
            found.add(item.card)
        elif kind is Card:
            found.add(item)
        elif kind in _SCALARS:
            continue
        elif isinstance(item, tuple):
            stack.extend(item)
        elif attrs.has(kind) and not isinstance(item, Rules):
            names = fields.get(kind)
            if names is None:
                names = fields[kind] = tuple(f.name for f in attrs.fields(kind) if f.init)
            stack.extend(getattr(item, name) for name in names)
    return found


def _check_results(sc: Score | PlayerView, n: int) -> None:
    if set(map(len, sc.rounds)) - {n}:  # the path is spelled out only for a problem: many rows
        for i, row in enumerate(sc.rounds):
            _check_per_seat(row, n, f"$.rounds[{i}]")
    for i, result in enumerate(sc.results):
        if len(result.points) != n or len(result.totals) != n:
            _check_per_seat(result.points, n, f"$.results[{i}].points")
            _check_per_seat(result.totals, n, f"$.results[{i}].totals")
        if result.number != i + 1:
            raise _fail(f"$.results[{i}].number", f"round {i + 1} must have number {i + 1}")
        for f in attrs.fields(type(result)):
            value = getattr(result, f.name)
            if f.name in ("marks", "eliminated", "returned") and isinstance(value, tuple):
                _check_seats(value, n, f"$.results[{i}].{f.name}")
            elif f.name == "payer" and not _seat_ok(value, n):
                raise _fail(f"$.results[{i}].payer", f"{value} is not a seat")
    if sc.rounds != tuple(r.points for r in sc.results):
        raise _fail("$.rounds", "the rows must be the points of the results, in order")
    if sc.results and sc.totals != sc.results[-1].totals:
        raise _fail("$.totals", "the totals must be those after the last result")
    _check_seats(sc.winners, n, "$.winners")
    if sorted(sc.standings) != list(range(n)):
        raise _fail("$.standings", f"must list every seat 0..{n - 1} once")
    if any(sc.eliminated[s] for s in sc.winners):
        raise _fail("$.winners", "an eliminated seat cannot win")


def check_names(players: Any) -> None:
    """Refuse a list of player names holding a name that breaks the rule for names, naming it.

    The rule (valid Unicode text on one line, 1 to 64 characters, see `new_game`) is
    `new_game`'s; `loads` applies it to a document's `players` before reading anything else.
    Anything but a list of strings is left for the converter to name.

    Example:
        >>> try:
        ...     check_names(["Ann", "Bo\\u202e"])
        ... except InvalidStateError as err:
        ...     print(err)
        $.players[1]: a player's name holds a bidirectional formatting character (U+202E) at index 2
    """
    if type(players) not in (list, tuple):
        return
    if len(players) > MAX_SEATS:
        raise _fail("$.players", f"a match has at most {MAX_SEATS} players, not {len(players)}")
    for i, name in enumerate(players):
        problem = name_problem(name) if type(name) is str else None
        if problem is not None:
            raise _fail(f"$.players[{i}]", f"a player's name {problem}")


def check_counts(body: dict[str, Any]) -> None:
    """Refuse a score or view document whose counts disagree, before reading any of its lists.

    The rows must be the results' points, one per result (`validate_score` checks their values once
    they are read); a view holds no more results than rounds dealt, and no more events than one round
    of any game can have. So a document padded with rows, results or events is refused in time
    proportional to nothing but its parsing.

    Example:
        >>> check_counts({"rounds": [[0, 1]], "results": []})
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidStateError: $.rounds: must hold one row per result: 1 rows for 0 results
    """
    rows, results = body.get("rounds"), body.get("results", [])
    if type(rows) is list and type(results) is list and len(rows) != len(results):
        raise _fail("$.rounds", f"must hold one row per result: {len(rows)} rows for {len(results)} results")
    number, events = body.get("round_number"), body.get("events")
    if type(number) is int and type(results) is list and len(results) > max(number, 0):
        raise _fail("$.results", f"{len(results)} results do not fit round {number}")
    if type(events) is list and len(events) > _MOST_EVENTS:
        raise _fail("$.events", f"a round has at most {_MOST_EVENTS} events, not {len(events)}")


def validate_score(sc: Score) -> None:
    """Check a loaded score for consistency (seats, one entry per seat, rows and results agree).

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> sc = cr.score(cr.new_game(cr.ruleset("agurk"), players=3))
        >>> validate_score(sc)
        >>> validate_score(attrs.evolve(sc, winners=(5,)))
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidStateError: $.winners[0]: 5 is not a seat (0..2)
    """
    n = len(sc.totals)
    if not 2 <= n <= 16:
        raise _fail("$.totals", f"a match has 2 to 16 seats, not {n}")
    for name in ("marks", "eliminated"):
        _check_per_seat(getattr(sc, name), n, f"$.{name}")
    _check_results(sc, n)


def validate_view(v: PlayerView) -> None:
    """Check a loaded view for consistency: seats, sizes, cards of the deck and how often, turn, results.

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> v = cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0)
        >>> validate_view(v)
        >>> validate_view(attrs.evolve(v, seat=7))
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidStateError: $.seat: 7 is not a seat (0..2)
    """
    rules = v.rules
    n = len(v.players)
    if not rules.min_players <= n <= rules.max_players:
        raise _fail(
            "$.players", f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    check_names(v.players)
    if v.seat is not None and not _seat_ok(v.seat, n):
        raise _fail("$.seat", f"{v.seat} is not a seat (0..{n - 1})")
    if not _seat_ok(v.first, n):
        raise _fail("$.first", f"{v.first} is not a seat (0..{n - 1})")
    if v.to_act is not None and v.to_act != CHANCE and not _seat_ok(v.to_act, n):
        raise _fail("$.to_act", f"{v.to_act} is not a seat, CHANCE (-1) or null")
    if (v.to_act is None) != bool(v.winners):
        raise _fail("$.winners", "a match has winners exactly when it is over (to_act null)")
    if not _seat_ok(v.dealer, n):
        raise _fail("$.dealer", f"{v.dealer} is not a seat (0..{n - 1})")
    if v.leader is not None and not _seat_ok(v.leader, n):
        raise _fail("$.leader", f"{v.leader} is not a seat (0..{n - 1})")
    for i, p in enumerate(v.trick):
        if not _seat_ok(p.seat, n):
            raise _fail(f"$.trick[{i}].seat", f"{p.seat} is not a seat")
    for i, t in enumerate(v.tricks):
        if not _seat_ok(t.leader, n) or not _seat_ok(t.taker, n):
            raise _fail(f"$.tricks[{i}]", "the leader and the taker must be seats")
        _check_seats(tuple(p.seat for p in t.plays), n, f"$.tricks[{i}].plays")
    for name in ("hand_sizes", "totals", "marks", "eliminated"):
        _check_per_seat(getattr(v, name), n, f"$.{name}")
    deck = Counter(DECKS[rules.deck])
    if not _cards_of(v).issubset(deck):
        for path, c in _walk_cards(v, "$"):
            if c not in deck:
                raise _fail(path, f"{c} is not a card of the {rules.deck} deck")
    per = rules.cards_per_player(n)
    for i, size in enumerate(v.hand_sizes):
        if not 0 <= size <= per:
            raise _fail(f"$.hand_sizes[{i}]", f"a hand holds 0 to {per} cards, not {size}")
    if v.seat is None:
        if v.hand:
            raise _fail("$.hand", "a spectator has no hand")
    else:
        if len(v.hand) != v.hand_sizes[v.seat]:
            raise _fail(
                "$.hand", f"the hand holds {len(v.hand)} cards but hand_sizes says {v.hand_sizes[v.seat]}"
            )
        if list(v.hand) != sorted(v.hand):
            raise _fail("$.hand", "the hand must be sorted")
    # The cards of this round appear no more often than the deck holds them (a game adds its own).
    visible = [*v.hand, *(p.card for p in v.trick), *(p.card for t in v.tricks for p in t.plays)]
    game = game_of(rules)
    visible += game.views.view_cards(v)
    for c, count in Counter(visible).items():
        if count > deck[c]:
            raise _fail("$.hand", f"{c} appears {count} times in this round, but the deck holds it {deck[c]}")
    for i, move in enumerate(v.legal):
        if move.seat != v.seat or v.to_act != v.seat:
            raise _fail(f"$.legal[{i}]", "only the seat to act has legal moves, and only its own")
        if type(move) is Play and move.card not in v.hand:
            raise _fail(f"$.legal[{i}].card", f"{move.card} is not in the hand")
    if len(v.trick) >= n:
        raise _fail("$.trick", f"a trick in progress has fewer than {n} cards")
    if v.round_number < 0:
        raise _fail("$.round_number", "must be >= 0")
    if set(map(type, v.events)) - {Play} or set(map(_SEAT, v.events)) - set(range(n)):
        _check_events(v, n)
    _check_rounds(v)
    _check_results(v, n)
    # What the view shows must be what some match shows: the game checks the earlier rounds'
    # results (the built-in games rebuild the match from them, round by round, without the cards)
    # and then the current round; a view with no earlier round is checked here for every game.
    problem = game.views.check_view(v)
    if problem is None and finished_rounds(v) == 0:
        from ..engine import new_game

        problem = check_round(v, new_game(rules, v.players, first=v.first))
    if problem is not None:
        path, _, message = problem.partition(": ")
        raise _fail(path, message)


def _check_rounds(v: PlayerView) -> None:
    """The round number, the results and the events agree: cheap, and before anything reads them."""
    finished = finished_rounds(v)
    dealt = finished != v.round_number
    if not dealt and v.events:
        raise _fail("$.events[0]", "a round's events start with its deal (a `dealt` event)")
    if len(v.results) != finished and not (dealt and len(v.results) == finished + 1):
        shown = f"round {v.round_number}" + (" (dealt)" if dealt else " (before its deal)")
        raise _fail("$.results", f"{len(v.results)} results do not fit {shown}")
    for i, event in enumerate(v.events[1:], 1):
        if type(event) is Dealt:
            raise _fail(f"$.events[{i}]", "a round has one deal, its first event")


def _check_events(v: PlayerView, n: int) -> None:
    """Check a view's events: deals' sizes and the viewer's cards, seats (plays alone need no look)."""
    for i, event in enumerate(v.events):
        if type(event) is Dealt:
            _check_per_seat(event.sizes, n, f"$.events[{i}].sizes")
            if (v.seat is None and event.hand) or (
                v.seat is not None and len(event.hand) != event.sizes[v.seat]
            ):
                raise _fail(f"$.events[{i}].hand", "the viewer's cards do not match the sizes")
        elif hasattr(event, "seat") and not _seat_ok(event.seat, n):
            raise _fail(f"$.events[{i}].seat", f"{event.seat} is not a seat")
