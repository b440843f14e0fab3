"""Whether a view is one some match could show: `validate_view`, and the checks it is built of.

`loads` checks every view it reads with `validate_view`, and so do `sample_world` and
`WorldSampler` before any work: seats, sizes, the cards of the deck and how often they
appear, whose turn it is, the events and the results. Then the game checks what it can of
the earlier rounds (its `Views.check_view`: the built-in games rebuild the match from the
results, round by round, without their cards), and the current round is played on one deal
that fits (`check_round`): every field of the view must be that world's. A refusal names
the field at fault, from `$`, as `loads` does.
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final

import attrs

from .._paths import fail, value_diff
from .._text import name_problem
from ..actions import MAX_SEATS, Play
from ..cards import DECKS, Card
from ..engine import new_game
from ..errors import InvalidStateError
from ..game import game_of
from ..rules import Rules
from ..scoring import Score
from ..state import CHANCE, State
from ..views import Dealt, PlayerView, Views
from ..views import view as view_of
from .world import RawSampler

__all__ = [
    "MOST_EVENTS",
    "cards_of",
    "check_names",
    "check_per_seat",
    "check_results",
    "check_round",
    "check_seats",
    "finished_rounds",
    "seat_ok",
    "validate_view",
    "walk_cards",
]


def seat_ok(seat: int | None, n: int) -> bool:
    return seat is not None and 0 <= seat < n


def check_seats(values: tuple[int, ...], n: int, path: str) -> None:
    for i, seat in enumerate(values):
        if not 0 <= seat < n:
            raise fail(f"{path}[{i}]", f"{seat} is not a seat (0..{n - 1})")


def check_per_seat(value: tuple[Any, ...], n: int, path: str) -> None:
    if len(value) != n:
        raise fail(path, f"must have one entry per seat ({n}), not {len(value)}")


def walk_cards(value: Any, path: str) -> Iterator[tuple[str, Card]]:
    if type(value) is Card:
        yield path, value
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from walk_cards(item, f"{path}[{i}]")
    elif attrs.has(type(value)) and not isinstance(value, Rules):
        for f in attrs.fields(type(value)):
            if f.init:
                yield from walk_cards(getattr(value, f.name), f"{path}.{f.name}")


_SCALARS: Final = frozenset({int, str, bool, type(None)})
#: More events than one round of any game can have: its deal, a play and a game's event for each
#: card of the largest deck, and a decision for each seat.
MOST_EVENTS: Final = 1 + 2 * max(map(len, DECKS.values())) + MAX_SEATS
_SEAT: Final = operator.attrgetter("seat")


def cards_of(value: Any) -> set[Card]:
    """Every card `walk_cards` finds in `value`, without their paths: a quick first look.

    Views may hold many events; only when a card is not of the deck does `validate_view`
    walk them again for the path.

    Example:
        >>> import cucumber_rules as cr
        >>> sorted(cards_of((cr.Play(0, "2C"), (cr.card("QS"), 3))))
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


def check_results(sc: Score | PlayerView, n: int) -> None:
    if set(map(len, sc.round_points)) - {n}:  # the path is spelled out only for a problem: many rows
        for i, row in enumerate(sc.round_points):
            check_per_seat(row, n, f"$.round_points[{i}]")
    for i, result in enumerate(sc.results):
        if len(result.points) != n or len(result.totals) != n:
            check_per_seat(result.points, n, f"$.results[{i}].points")
            check_per_seat(result.totals, n, f"$.results[{i}].totals")
        if result.number != i + 1:
            raise fail(f"$.results[{i}].number", f"round {i + 1} must have number {i + 1}")
        for f in attrs.fields(type(result)):
            value = getattr(result, f.name)
            if f.name in ("marked", "went_out", "returned") and isinstance(value, tuple):
                check_seats(value, n, f"$.results[{i}].{f.name}")
            elif f.name == "payer" and not seat_ok(value, n):
                raise fail(f"$.results[{i}].payer", f"{value} is not a seat")
    if sc.round_points != tuple(r.points for r in sc.results):
        raise fail("$.round_points", "the rows must be the points of the results, in order")
    if sc.results and sc.totals != sc.results[-1].totals:
        raise fail("$.totals", "the totals must be those after the last result")
    check_seats(sc.winners, n, "$.winners")
    if sorted(sc.standings) != list(range(n)):
        raise fail("$.standings", f"must list every seat 0..{n - 1} once")
    for name in type(sc).per_seat:  # (a game's own values per seat: the ladder's marks, eliminations)
        check_per_seat(getattr(sc, name), n, f"$.{name}")


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
        raise fail("$.players", f"a match has at most {MAX_SEATS} players, not {len(players)}")
    for i, name in enumerate(players):
        problem = name_problem(name) if type(name) is str else None
        if problem is not None:
            raise fail(f"$.players[{i}]", f"a player's name {problem}")


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
        raise fail(
            "$.players", f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    check_names(v.players)
    if v.seat is not None and not seat_ok(v.seat, n):
        raise fail("$.seat", f"{v.seat} is not a seat (0..{n - 1})")
    if not seat_ok(v.first, n):
        raise fail("$.first", f"{v.first} is not a seat (0..{n - 1})")
    if v.to_act is not None and v.to_act != CHANCE and not seat_ok(v.to_act, n):
        raise fail("$.to_act", f"{v.to_act} is not a seat, CHANCE (-1) or null")
    if (v.to_act is None) != bool(v.winners):
        raise fail("$.winners", "a match has winners exactly when it is over (to_act null)")
    if not seat_ok(v.dealer, n):
        raise fail("$.dealer", f"{v.dealer} is not a seat (0..{n - 1})")
    if v.leader is not None and not seat_ok(v.leader, n):
        raise fail("$.leader", f"{v.leader} is not a seat (0..{n - 1})")
    for i, p in enumerate(v.trick):
        if not seat_ok(p.seat, n):
            raise fail(f"$.trick[{i}].seat", f"{p.seat} is not a seat")
    for i, t in enumerate(v.tricks):
        if not seat_ok(t.leader, n) or not seat_ok(t.taker, n):
            raise fail(f"$.tricks[{i}]", "the leader and the taker must be seats")
        check_seats(tuple(p.seat for p in t.plays), n, f"$.tricks[{i}].plays")
    for name in ("hand_sizes", "totals", *type(v).per_seat):
        check_per_seat(getattr(v, name), n, f"$.{name}")
    deck = Counter(DECKS[rules.deck])
    if not cards_of(v).issubset(deck):
        for path, c in walk_cards(v, "$"):
            if c not in deck:
                raise fail(path, f"{c} is not a card of the {rules.deck} deck")
    per = rules.cards_per_player(n)
    for i, size in enumerate(v.hand_sizes):
        if not 0 <= size <= per:
            raise fail(f"$.hand_sizes[{i}]", f"a hand holds 0 to {per} cards, not {size}")
    if v.seat is None:
        if v.hand:
            raise fail("$.hand", "a spectator has no hand")
    else:
        if len(v.hand) != v.hand_sizes[v.seat]:
            raise fail(
                "$.hand", f"the hand holds {len(v.hand)} cards but hand_sizes says {v.hand_sizes[v.seat]}"
            )
        if list(v.hand) != sorted(v.hand):
            raise fail("$.hand", "the hand must be sorted")
    # The cards of this round appear no more often than the deck holds them (a game adds its own).
    visible = [*v.hand, *(p.card for p in v.trick), *(p.card for t in v.tricks for p in t.plays)]
    game = game_of(rules)
    visible += Views.of(game).view_cards(v)
    for c, count in Counter(visible).items():
        if count > deck[c]:
            raise fail("$.hand", f"{c} appears {count} times in this round, but the deck holds it {deck[c]}")
    for i, move in enumerate(v.legal):
        if move.seat != v.seat or v.to_act != v.seat:
            raise fail(f"$.legal[{i}]", "only the seat to act has legal moves, and only its own")
        if type(move) is Play and move.card not in v.hand:
            raise fail(f"$.legal[{i}].card", f"{move.card} is not in the hand")
    if len(v.trick) >= n:
        raise fail("$.trick", f"a trick in progress has fewer than {n} cards")
    if v.round_number < 0:
        raise fail("$.round_number", "must be >= 0")
    if set(map(type, v.events)) - {Play} or set(map(_SEAT, v.events)) - set(range(n)):
        _check_events(v, n)
    _check_rounds(v)
    check_results(v, n)
    # What the view shows must be what some match shows: the game checks the earlier rounds'
    # results (the built-in games rebuild the match from them, round by round, without the cards)
    # and then the current round; a view with no earlier round is checked here for every game.
    problem = Views.of(game).check_view(v)
    if problem is None and finished_rounds(v) == 0:
        problem = check_round(v, new_game(rules, v.players, first=v.first))
    if problem is not None:
        path, _, message = problem.partition(": ")
        raise fail(path, message)


def _check_rounds(v: PlayerView) -> None:
    """The round number, the results and the events agree: cheap, and before anything reads them."""
    finished = finished_rounds(v)
    dealt = finished != v.round_number
    if not dealt and v.events:
        raise fail("$.events[0]", "a round's events start with its deal (a `dealt` event)")
    if len(v.results) != finished and not (dealt and len(v.results) == finished + 1):
        shown = f"round {v.round_number}" + (" (dealt)" if dealt else " (before its deal)")
        raise fail("$.results", f"{len(v.results)} results do not fit {shown}")
    for i, event in enumerate(v.events[1:], 1):
        if type(event) is Dealt:
            raise fail(f"$.events[{i}]", "a round has one deal, its first event")


def _check_events(v: PlayerView, n: int) -> None:
    """Check a view's events: deals' sizes and the viewer's cards, seats (plays alone need no look)."""
    for i, event in enumerate(v.events):
        if type(event) is Dealt:
            check_per_seat(event.sizes, n, f"$.events[{i}].sizes")
            if (v.seat is None and event.hand) or (
                v.seat is not None and len(event.hand) != event.sizes[v.seat]
            ):
                raise fail(f"$.events[{i}].hand", "the viewer's cards do not match the sizes")
        elif hasattr(event, "seat") and not seat_ok(event.seat, n):
            raise fail(f"$.events[{i}].seat", f"{event.seat} is not a seat")


def finished_rounds(view: PlayerView) -> int:
    """The earlier rounds a view sums up in its results: those before its current round.

    A view whose events start with a `Dealt` shows a round (in play, or just finished, its result
    then the last); before the first deal there is none.

    Example:
        >>> import cucumber_rules as cr
        >>> finished_rounds(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0))
        0
    """
    events = view.events
    dealt = bool(events) and type(events[0]) is Dealt
    return view.round_number - 1 if dealt else view.round_number


def check_round(view: PlayerView, before: State) -> str | None:
    """Whether some deal of the view's current round, played as its events say, shows exactly `view`.

    `before` is the state before the round's deal, with the view's earlier results (a game's
    `check_view` builds it from them; its history may leave the earlier rounds out). One deal
    that fits everything the view shows is drawn (with a fixed seed: the answer does not
    depend on the draw, as every such deal shows the same) and played; then every field of
    the view must be that world's. Returns `"$.path: message"` for the first field that no
    deal explains, or None.

    Example:
        >>> import attrs, random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> v = cr.view(cr.apply(s, cr.sample_chance(s, random.Random(1))), 0)
        >>> check_round(v, s) is None
        True
        >>> print(check_round(attrs.evolve(v, to_act=2), s))
        $.to_act: does not match what the view's events and results give (expected 0)
    """
    rng = random.Random(0)
    try:
        world = RawSampler._around(view, before, rng).sample(rng)
    except InvalidStateError as err:
        return str(err)
    seen = view_of(world, view.seat)
    if seen == view:
        return None
    bad = value_diff(seen, view, reason="what the view's events and results give")
    return str(bad) if bad is not None else "$: does not match what the view's events and results give"


def check_folded(view: PlayerView, fold: Callable[[PlayerView, int], State]) -> str | None:
    """A view's earlier results folded into its match by the game's `fold`, then its current round
    checked from there (`check_round`): what a game's `Views.check_view` does with results that
    carry no cards.

    `fold(view, count)` returns the state before round `count + 1`, rebuilt from the view's first
    `count` results, or raises `InvalidStateError` naming the first result the game's scoring
    cannot give. A view with no earlier round is left to the library's own check of a first round.
    Returns `"$.path: message"` for the first field no match explains, or None.

    Example:
        >>> import attrs
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.games.ladder.sampling import fold_results
        >>> rules = cr.ruleset("gurka", hand_size=1)
        >>> s = cr.apply(cr.new_game(rules, players=2), cr.Deal(hands=[["9C"], ["2D"]]))
        >>> s = cr.apply_all(s, [cr.Play(0, "9C"), cr.Play(1, "2D"), cr.Deal(hands=[["3C"], ["KD"]])])
        >>> v = cr.view(s, 1)
        >>> check_folded(v, fold_results) is None
        True
        >>> late = attrs.evolve(v.results[0], payer=1)
        >>> print(check_folded(attrs.evolve(v, results=(late,)), fold_results))
        $.results[0].points: does not match what the ladder's scoring gives (expected [0, 9])
    """
    finished = finished_rounds(view)
    if finished == 0:
        return None
    try:
        before = fold(view, finished)
    except InvalidStateError as err:
        return str(err)
    return check_round(view, before)
