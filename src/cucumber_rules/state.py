"""The immutable match state, and the values it is made of.

A `State` is a value: `apply` returns a new one and never changes its input, so undo is keeping the
previous state. It is split by how often things change, so a card played builds one object:

- `State`: what a card played changes: whose turn, the hands, the current trick and the play
  taking it, the game's own per-trick value (`extra`), and pointers to the parts below;
- `Table`: what changes once a trick: the seats dealt in, the leader, the completed tricks, the stock;
- `Match`: what changes once a round: the rules, the players, totals, the dealer, the results;
- `History` (`state.past`): the actions before the current trick, shared with every earlier state.

Every game uses these classes; what only one game has lives in its own subclasses (`LadderMatch`,
`CatastropheTable`, `CatastropheTrick`, `LadderResult`, ...) and in `State.extra`, whose meaning
its game defines. `state.round` gathers the round in play into one `Round` value.
"""

from __future__ import annotations

import warnings
from operator import attrgetter, itemgetter
from typing import Any, Final

import attrs

from ._registry import game_of
from .actions import PLAY_OF, Action, Deal, Play, seat_in
from .cards import Card
from .history import EMPTY, History
from .rules import Rules
from .values import Value, builder, kept

__all__ = [
    "CHANCE",
    "Match",
    "Round",
    "RoundResult",
    "State",
    "Table",
    "Trick",
    "dealt_held",
    "held_cards",
    "without_trick",
]

CHANCE: Final = -1
"""The value of `State.to_act` while a chance action (a deal) is due.

Example:
    >>> import cucumber_rules as cr
    >>> cr.new_game(cr.ruleset("agurk"), players=3).to_act == CHANCE
    True
"""


@attrs.frozen(weakref_slot=False)
class Trick(Value):
    """A completed trick.

    Example:
        >>> t = Trick(leader=0, plays=(Play(0, "3C"), Play(1, "9H")), taker=1)
        >>> [str(p.card) for p in t.plays], t.taker
        (['3C', '9H'], 1)
    """

    leader: int
    """The seat that led (in Surprise Cucumber: the seat that set the rule)."""
    plays: tuple[Play, ...] = attrs.field(converter=kept)
    """The cards played, in order (any iterable given is kept as a tuple)."""
    taker: int
    """The seat that took the trick."""


@attrs.frozen(weakref_slot=False)
class RoundResult(Value):
    """What one finished round (or Catastrophe hand) did to the scores.

    Games whose rounds say more subclass it (`LadderResult`: who paid with which
    card, marks, eliminations).

    Example:
        >>> RoundResult(number=1, points=(0, 12, 0), totals=(0, 12, 0)).points
        (0, 12, 0)
    """

    number: int
    """1 for the first round of the match."""
    points: tuple[int, ...] = attrs.field(converter=kept)
    """What each seat scored in the round (negative for a bonus; any iterable given is kept as a tuple)."""
    totals: tuple[int, ...] = attrs.field(converter=kept)
    """Each seat's total after the round (a tuple, as `points`)."""


@attrs.frozen(weakref_slot=False)
class Table(Value):
    """What changes once a trick in a round: who is dealt in, the leader, the completed tricks, the stock.

    A `State` points to its table; every card played makes a new `State` but shares
    the table until the trick ends. Games with more to keep per trick subclass it
    (`CatastropheTable`: the revealed and the captured cards).

    Example:
        >>> Table(seats=(0, 1, 2), after=(1, 2, 0), leader=0).tricks
        ()
    """

    seats: tuple[int, ...]
    """The seats dealt in, clockwise from seat 0."""
    after: tuple[int, ...]
    """`after[s]`: the dealt-in seat that plays after seat `s` (clockwise); -1 for seats not dealt in."""
    leader: int
    """The seat that led the current trick (or will lead it)."""
    tricks: tuple[Trick, ...] = ()
    """This round's completed tricks."""
    stock: tuple[Card, ...] = ()
    """The undealt cards in order, top first (private: never in a view)."""
    _views: Any = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)
    """A cache for `view` (not part of the value): what every view during this trick shares."""


@attrs.frozen(kw_only=True, weakref_slot=False)
class Match(Value):
    """The match: its rules and players, and what changes once a round (scores, dealer, results).

    Each game has its own subclass with what only it keeps (`LadderMatch`: marks,
    eliminations, revivals; `CatastropheMatch`: the next hand's starter).

    Example:
        >>> import cucumber_rules as cr
        >>> cr.new_game(cr.ruleset("agurk"), players=3).match.dealer
        2
    """

    rules: Rules
    """The rules of the match."""
    players: tuple[str, ...]
    """Seat labels (names); seats are 0..n-1 clockwise."""
    first: int
    """The seat that leads the first trick of the match."""
    totals: tuple[int, ...]
    """Running points (or cucumbers) per seat."""
    dealer: int
    """The dealer of the current (or last) round."""
    rounds: int = 0
    """Rounds finished."""
    results: History[RoundResult] = EMPTY
    """Every finished round's result."""
    winners: tuple[int, ...] = ()
    """Set once the match is over."""
    _rows: tuple[tuple[RoundResult, ...], tuple[tuple[int, ...], ...]] | None = attrs.field(
        init=False, default=None, eq=False, hash=False, repr=False
    )
    """A cache for `result_rows` (not part of the value)."""
    _views: Any = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)
    """A cache for `view` (not part of the value): what every view during this match value shares."""

    def is_out(self, seat: int) -> bool:
        """True once `seat` is out for good, dealt no more cards (never, unless its game's match says so).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.new_game(cr.ruleset("catastrophe"), players=3).match.is_out(0)
            False
        """
        return False


@attrs.frozen(repr=False)  # (a weakref slot: a drawn deal marks the state it was drawn for weakly)
class State(Value):
    """A position in a match. Get one from `new_game`, then `apply` actions.

    Its fields are what a card played changes; the rest is shared with the
    state before: `table` (changes once a trick), `match` (once a round) and
    `past` (the history before the current trick). `rules`, `players` and
    `first` read through to the match, and `round` gathers the round in play
    into one `Round` value. A game may offer more named readings of its state
    (Catastrophe: `state.marker`): its `Game.state_type` is a subclass of `State` that
    adds them, and its states are of that class.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=["Ann", "Bo"])
        >>> s.to_act == cr.CHANCE, s.players, s.is_over
        (True, ('Ann', 'Bo'), False)
    """

    to_act: int | None
    """The seat to act, `CHANCE` (-1) while a deal is due, None when over."""
    match: Match
    """The rules, players, scores and everything else that changes once a round."""
    table: Table | None = None
    """The seats dealt in, the leader, the completed tricks and the stock of the round in play
    (or just finished); None before the first deal."""
    held: tuple[tuple[Play, ...], ...] = ()
    """Each seat's cards at the start of the current trick, as that seat's plays, sorted (empty
    before the first deal). A card played in the trick leaves its seat's hand when the trick ends;
    `hands` gives the cards each seat holds now."""
    trick: tuple[Play, ...] = ()
    """The current trick so far, in play order."""
    best: Play | None = None
    """The play taking the current trick so far (None before its first card)."""
    extra: Any = None
    """What the game keeps per trick beyond these fields (Catastrophe: the Trick Marker;
    None in the ladder games)."""
    past: History[Action] = EMPTY
    """Every action before the current trick (`history` adds the trick's plays)."""
    is_over: bool = attrs.field(
        init=False, eq=False, hash=False, repr=False, metadata={"builder": "to_act is None"}
    )
    """True once the match has winners (`to_act` is None)."""
    _legal: tuple[Action, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )
    """`legal_moves(state)`, kept (not part of the value): worked out by the engine as it builds the
    state of a seat to play (`tricks.state_builder`), else on the first ask. `apply` checks a move
    against it instead of working out the rule again."""

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards now, sorted (empty before the first deal)."""
        return tuple(self.hand(seat) for seat in range(len(self.held)))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards one seat holds now, sorted.

        Raises:
            TypeError: If `seat` is not an integer.
            ValueError: If `seat` is not a seat of the match.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
            >>> cr.apply(s, cr.Play(0, "KS")).hand(0)
            (card('2C'),)
        """
        seat = seat_in(seat, len(self.match.players))
        return tuple([p.card for p in unplayed(self.held[seat], self.trick, seat)])

    def hand_size(self, seat: int) -> int:
        """How many cards one seat holds now.

        Raises:
            TypeError: If `seat` is not an integer.
            ValueError: If `seat` is not a seat of the match.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.new_game(cr.ruleset("gurka"), players=2).hand_size(1)
            0
        """
        seat = seat_in(seat, len(self.match.players))
        return len(self.held[seat]) - int(any(p.seat == seat for p in self.trick))  # (a card played to it)

    @property
    def history(self) -> History[Action]:
        """Every action applied since `new_game`, oldest first."""
        trick = self.trick
        return self.past.extend(trick) if trick else self.past

    @property
    def rules(self) -> Rules:
        """The rules of the match."""
        return self.match.rules

    @property
    def game(self) -> Any:
        """Deprecated: `game_of(state)` (`game` is the game's name, a string, on `Rules` and `Score`).

        Example:
            >>> import cucumber_rules as cr, warnings
            >>> s = cr.new_game(cr.ruleset("gurka"), players=2)
            >>> with warnings.catch_warnings():
            ...     warnings.simplefilter("ignore", DeprecationWarning)
            ...     s.game is cr.game_of(s)
            True
        """
        warnings.warn(
            "State.game is deprecated: use cucumber_rules.game_of(state) (`game` is the game's name "
            "on Rules and Score: state.rules.game)",
            DeprecationWarning,
            stacklevel=2,
        )
        return game_of(self)

    @property
    def players(self) -> tuple[str, ...]:
        """Seat labels (names); seats are 0..n-1 clockwise."""
        return self.match.players

    @property
    def first(self) -> int:
        """The seat that leads the first trick of the match."""
        return self.match.first

    @property
    def taker(self) -> int:
        """The seat taking the current trick so far; -1 before its first card."""
        best = self.best
        return -1 if best is None else best.seat

    @property
    def round(self) -> Round | None:
        """The round in play (or just finished) as one `Round` value; None before the first deal."""
        table = self.table
        if table is None:
            return None
        return Round(self.hands, table, self.trick, self.best, self.extra)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The history as a tuple, oldest first."""
        return self.history.items()

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.match.players)

    def __repr__(self) -> str:
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(State) if a.repr)
        return f"{type(self).__name__}({fields})"

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, a.name) for a in attrs.fields(State) if a.init)

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        for setter, value in zip(_STATE_SETTERS, (*values, values[0] is None, None), strict=True):
            setter(self, value)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "is_over", self.to_act is None)


@attrs.frozen
class Round(Value):
    """The round (or Catastrophe hand) in play, or the one just finished, as one value.

    `state.round` builds it from the state's fields on demand. What changes once
    a trick lives in `table`, and reads through: `seats`, `after`, `leader`,
    `tricks`, `stock`, and a game's own table fields (Catastrophe: `revealed`,
    `captured`).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("agurk"), players=3), cr.Deal(hands=[
        ...     ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
        ...     ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        ...     ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]))
        >>> s.round.seats, s.round.after, s.round.leader, len(s.round.hands[0])
        ((0, 1, 2), (1, 2, 0), 0, 7)
    """

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards, sorted."""
    table: Table
    """The seats, leader, completed tricks and stock (and a game's own per-trick fields)."""
    trick: tuple[Play, ...] = ()
    """The current trick so far, in play order."""
    best: Play | None = None
    """The play taking the current trick so far."""
    extra: Any = None
    """The game's own per-trick value (see `State.extra`)."""

    @property
    def taker(self) -> int:
        """The seat taking the current trick so far; -1 before its first card."""
        return -1 if self.best is None else self.best.seat

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt in, clockwise from seat 0."""
        return self.table.seats

    @property
    def after(self) -> tuple[int, ...]:
        """`after[s]`: the dealt-in seat that plays after seat `s` (clockwise)."""
        return self.table.after

    @property
    def leader(self) -> int:
        """The seat that led the current trick (or will lead it)."""
        return self.table.leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This round's completed tricks."""
        return self.table.tricks

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards in order, top first (private: never in a view)."""
        return self.table.stock

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("hands", "table", "trick", "best", "extra"):
            raise AttributeError(name)
        return getattr(self.table, name)


def held_cards(hands: tuple[tuple[Card, ...], ...]) -> tuple[tuple[Play, ...], ...]:
    """Dealt hands (cards by seat) as `State.held`: each seat's cards as that seat's plays.

    Example:
        >>> from cucumber_rules import Deal
        >>> held_cards(Deal(hands=[["2C"], ["KS", "3H"]]).hands)
        ((Play(seat=0, card=card('2C')),), (Play(seat=1, card=card('3H')), Play(seat=1, card=card('KS'))))
    """
    held = []
    for seat, hand in enumerate(hands):
        if len(hand) > 1:
            held.append(itemgetter(*hand)(PLAY_OF[seat]))  # the lookups in C
        else:
            held.append(tuple([PLAY_OF[seat][c] for c in hand]))
    return tuple(held)


def dealt_held(deal: Deal) -> tuple[tuple[Play, ...], ...]:
    """`held_cards(deal.hands)`: the plays the deal's dealer kept on it, else worked out now.

    The library's dealer (`dealing.shuffled_deal`) makes each hand's cards and plays
    together, so the state a drawn deal starts takes its `held` from the deal.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> drawn, typed = cr.sample_chance(s, random.Random(4)), cr.Deal(hands=[["2C"], ["KS", "3H"]])
        >>> dealt_held(drawn) == held_cards(drawn.hands), dealt_held(typed) == held_cards(typed.hands)
        (True, True)
    """
    held: tuple[tuple[Play, ...], ...] | None = deal._held
    return held_cards(deal.hands) if held is None else held


def unplayed(held: tuple[Play, ...], trick: tuple[Play, ...], seat: int | None) -> tuple[Play, ...]:
    """A seat's plays now: its `held` plays but the one it played to the current `trick` (one copy of it).

    A card played mid-trick stays in `State.held` until the trick ends; this is that seat's hand
    in between (`State.hand`, and a view's `hand`).

    Example:
        >>> from cucumber_rules import Deal, Play
        >>> held = held_cards(Deal(hands=[["2C", "9C"], ["KS", "3H"]]).hands)
        >>> unplayed(held[0], (Play(0, "9C"),), 0), unplayed(held[1], (Play(0, "9C"),), 1) == held[1]
        ((Play(seat=0, card=card('2C')),), True)
    """
    for p in trick:
        if p.seat == seat:
            i = held.index(p)
            return held[:i] + held[i + 1 :]
    return held


def without_trick(
    held: tuple[tuple[Play, ...], ...], trick: tuple[Play, ...]
) -> tuple[tuple[Play, ...], ...]:
    """`held` once a trick is over: each card played leaves its seat's hand (one copy of it).

    Example:
        >>> from cucumber_rules import Deal, Play
        >>> held = held_cards(Deal(hands=[["2C", "9C"], ["KS", "3H"]]).hands)
        >>> without_trick(held, (Play(0, "9C"), Play(1, "3H")))
        ((Play(seat=0, card=card('2C')),), (Play(seat=1, card=card('KS')),))
    """
    after = list(held)
    for p in trick:
        seat = p.seat
        hand = after[seat]
        i = hand.index(p)
        after[seat] = hand[1:] if i == 0 else hand[:i] + hand[i + 1 :]  # (one slice for the lowest card)
    return tuple(after)


_STATE_SETTERS: Final = tuple(State.__dict__[a.name].__set__ for a in attrs.fields(State))
#: Keep a state's legal moves once they are worked out (the cache is not part of the value).
remember_legal: Final = State.__dict__["_legal"].__set__
_POINTS: Final = attrgetter("points")


def result_rows(match: Match) -> tuple[tuple[RoundResult, ...], tuple[tuple[int, ...], ...]]:
    """The finished rounds' results and their points rows, as tuples (built once per `Match`, then kept).

    A `Match` lives for a whole round, so a server asking for the score or a view after every card
    walks the results once a round, not once a call.

    Example:
        >>> import cucumber_rules as cr
        >>> result_rows(cr.new_game(cr.ruleset("agurk"), players=3).match)
        ((), ())
    """
    found = match._rows
    if found is None:
        results = match.results.items()
        found = (results, tuple(map(_POINTS, results)))
        object.__setattr__(match, "_rows", found)
    return found


#: `new_state(to_act, match, table, held, trick, best, extra, past)`: a `State` from all its fields, in
#: order, without validation (see `values.builder`; a game's own class: `tricks.state_builder`).
new_state: Final = builder(State)
