"""The immutable match state.

A `State` is a value: `apply` returns a new one and never changes its input, so
undo is keeping the previous state. It is split by how often things change, so
that a card played builds one object and copies little:

- `State`: what a card played changes: whose turn, the hands, the current
  trick, and pointers to the parts below;
- `Table`: what changes once a trick: the seats dealt in, the leader, the
  completed tricks, the stock;
- `Match`: what changes once a round: the rules, the players, totals, marks,
  eliminations, the dealer;
- `Chain`: persistent linked lists for what grows with the match (the history
  and the round results), appended in O(1) without copying.

`state.round` gathers the round in play into one `Round` value when you want
to read it as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Final, Generic, TypeVar

import attrs

from .actions import Action, Play
from .cards import Card
from .rules import Rules

__all__ = ["CHANCE", "Chain", "Match", "Round", "RoundResult", "State", "Table", "Trick"]

CHANCE: Final = -1
"""The value of `State.to_act` while a chance action (a deal) is due.

Example:
    >>> import cucumber_rules as cr
    >>> cr.new_game(cr.ruleset("agurk"), players=3).to_act == CHANCE
    True
"""

T = TypeVar("T")


class Chain(tuple[Any, ...], Generic[T]):
    """A persistent (immutable, shared-tail) list: `append` is O(1) and copies nothing.

    It holds what grows with a match (the history, the round results), so a new
    state shares all earlier entries with the state it came from. It is an
    immutable tuple `(last, rest, length)` underneath; use it as a sequence:
    it iterates oldest first, has a `len`, and compares equal to another chain
    with equal items.

    Example:
        >>> c = Chain.EMPTY.append(1).append(2)
        >>> list(c), len(c), c.last, c == Chain.of([1, 2])
        ([1, 2], 2, 2, True)
    """

    __slots__ = ()
    EMPTY: ClassVar[Chain[Any]]

    def __new__(cls, last: T | None = None, rest: Chain[T] | None = None, length: int = 0) -> Chain[T]:
        return _tuple_new(cls, (last, rest, length))

    @property
    def last(self) -> T | None:
        """The newest item (None when empty)."""
        return tuple.__getitem__(self, 0)  # type: ignore[no-any-return]

    @property
    def rest(self) -> Chain[T] | None:
        """The chain without its newest item (None when empty)."""
        rest = tuple.__getitem__(self, 1)
        return None if rest is None else chain_of(rest)

    @property
    def length(self) -> int:
        """The number of items."""
        return tuple.__getitem__(self, 2)  # type: ignore[no-any-return]

    def append(self, item: T) -> Chain[T]:
        """Return a new chain with `item` added at the end (O(1)); the old chain is unchanged.

        Example:
            >>> one = Chain.EMPTY.append("a")
            >>> two = one.append("b")
            >>> list(one), list(two)
            (['a'], ['a', 'b'])
        """
        return _tuple_new(Chain, (item, self, tuple.__getitem__(self, 2) + 1))

    def __len__(self) -> int:
        return tuple.__getitem__(self, 2)  # type: ignore[no-any-return]

    def __bool__(self) -> bool:
        return bool(tuple.__getitem__(self, 2))

    def __iter__(self) -> Iterator[T]:
        return iter(self.items())

    def __getitem__(self, index: Any) -> Any:
        return self.items()[index]

    def __contains__(self, item: object) -> bool:
        return item in self.items()

    def items(self) -> tuple[T, ...]:
        """The items as a tuple, oldest first (O(n)).

        Example:
            >>> Chain.of([1, 2, 3]).items()
            (1, 2, 3)
        """
        out: list[T] = []
        node: tuple[Any, ...] = self
        fields = tuple.__iter__  # a node's own three fields (a Chain's iteration yields its items)
        while True:
            last, rest, length = fields(node)
            if not length:
                break
            out.append(last)
            node = rest
        out.reverse()
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return NotImplemented
        getitem = tuple.__getitem__
        a: tuple[Any, ...] = self
        b: tuple[Any, ...] = other
        while a is not b:
            if getitem(a, 2) != getitem(b, 2):
                return False
            if getitem(a, 2) == 0:
                return True
            if getitem(a, 0) != getitem(b, 0):
                return False
            a, b = getitem(a, 1), getitem(b, 1)
        return True

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.items())

    def __repr__(self) -> str:
        return f"Chain.of({list(self.items())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Chain.of, (list(self.items()),))

    def __add__(self, other: Any) -> Any:
        return self.items() + tuple(other)

    def __mul__(self, other: Any) -> Any:
        return NotImplemented

    def __lt__(self, other: Any) -> bool:
        return NotImplemented

    @classmethod
    def of(cls, items: Iterable[T]) -> Chain[T]:
        """Build a chain from items, oldest first.

        Example:
            >>> Chain.of(["x", "y"]).last
            'y'
        """
        chain: Chain[T] = Chain.EMPTY
        for item in items:
            chain = chain.append(item)
        return chain


_tuple_new = tuple.__new__
Chain.EMPTY = Chain()

#: A chain's node: `(last, rest, length)`, `rest` the node before; the empty node is `(None, None, 0)`
#: (`EMPTY_NODE`, or `Chain.EMPTY`). A `Chain` is a
#: node; so is a plain tuple of the same shape, which is what the engines build for the history (a
#: plain tuple costs a fraction of a tuple subclass). `chain_of` reads a node as a `Chain`.
Node = tuple[Any, Any, int]


def chain_of(node: tuple[Any, ...]) -> Chain[Any]:
    """Read a node (a `Chain`, or a plain `(last, rest, length)` tuple) as a `Chain`, in O(1).

    Example:
        >>> chain_of(("b", ("a", EMPTY_NODE, 1), 2)) == Chain.of(["a", "b"])
        True
    """
    return node if type(node) is Chain else _tuple_new(Chain, node)


def push(node: tuple[Any, ...], item: Any) -> Node:
    """The node after appending `item` to the chain `node` (a plain tuple; O(1), copies nothing).

    Example:
        >>> list(chain_of(push(push(Chain.EMPTY, 1), 2)))
        [1, 2]
    """
    return (item, node, _getitem(node, 2) + 1)


def plain_node(node: tuple[Any, ...]) -> Node:
    """`node` with a plain tuple at its head (the rest is shared), as `State` keeps its history.

    Example:
        >>> type(plain_node(Chain.of([1]))) is tuple
        True
    """
    return (_getitem(node, 0), _getitem(node, 1), _getitem(node, 2))


_getitem = tuple.__getitem__
EMPTY_NODE: Final[Node] = (None, None, 0)


@attrs.frozen
class Trick:
    """A completed trick.

    Example:
        >>> t = Trick(leader=0, plays=(Play(0, "3C"), Play(1, "9H")), taker=1)
        >>> [str(p.card) for p in t.plays], t.taker
        (['3C', '9H'], 1)
    """

    leader: int
    """The seat that led (in Surprise Cucumber: the seat that set the rule)."""
    plays: tuple[Play, ...]
    """The cards played, in order."""
    taker: int
    """The seat that took the trick."""
    marker: str | None = None
    """Catastrophe: the Trick Marker when the trick ended.

    One of `"high"`, `"low"`, `"high-broken"`, `"low-broken"`."""
    revealed: Card | None = None
    """Surprise Cucumber: the lead card revealed from the stock."""


@attrs.frozen
class RoundResult:
    """What one finished round (ladder) or hand (Catastrophe) did to the scores.

    Example:
        >>> RoundResult(number=1, points=(0, 12, 0), totals=(0, 12, 0)).points
        (0, 12, 0)
    """

    number: int
    """1 for the first round of the match."""
    points: tuple[int, ...]
    """What each seat scored in the round (a tie bonus is negative)."""
    totals: tuple[int, ...]
    """Each seat's total after the round, resets included."""
    payer: int | None = None
    """Ladder: the seat that paid for the last trick."""
    card: Card | None = None
    """Ladder: the card whose value was paid (the highest card of the last trick)."""
    marks: tuple[int, ...] = ()
    """Seats that drew a cucumber mark (and had their score reset)."""
    eliminated: tuple[int, ...] = ()
    """Seats eliminated by this round."""
    returned: tuple[int, ...] = ()
    """Seats that came back from a revival with this round's end."""


@attrs.frozen
class Table:
    """What changes once a trick in a round: who is dealt in, the leader, the completed tricks,
    the stock, the revealed card and the captured cards.

    A `State` points to its table; every card played makes a new `State` but shares
    the table until the trick ends. Read it as `state.table` (e.g.
    `state.table.leader`), or through `state.round`.

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
    revealed: Card | None = None
    """Surprise Cucumber: this trick's revealed lead card."""
    captured: tuple[tuple[Card, ...], ...] = ()
    """Catastrophe: the cards each seat has captured this hand."""


@attrs.frozen
class Round:
    """The round (ladder) or hand (Catastrophe) in play, or the one just finished, as one value.

    `state.round` builds it from the state's fields on demand (the engine keeps
    them on `State` itself, so that a card played builds one object). What
    changes once a trick lives in `table`, and reads through as `seats`,
    `after`, `leader`, `tricks`, `stock`, `revealed` and `captured`.

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
    """The seats, leader, completed tricks, stock, revealed and captured cards."""
    trick: tuple[Play, ...] = ()
    """The current trick so far, in play order."""
    high: int = 0
    """Ladder: the highest rank in the current trick. Catastrophe: the lead card's number."""
    taker: int = -1
    """The seat currently taking the trick."""
    marker: str | None = None
    """Catastrophe: the Trick Marker (`None` until the second card)."""

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

    @property
    def revealed(self) -> Card | None:
        """Surprise Cucumber: this trick's revealed lead card."""
        return self.table.revealed

    @property
    def captured(self) -> tuple[tuple[Card, ...], ...]:
        """Catastrophe: the cards each seat has captured this hand."""
        return self.table.captured


@attrs.frozen
class Match:
    """The match: its rules and players, and what changes once a round (scores, eliminations, dealer).

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
    marks: tuple[int, ...]
    """Cucumber marks per seat: crossings of the threshold that cost a life but did not
    eliminate (Agurk's first-life warning); always below `lives`."""
    out: tuple[int, ...]
    """0 for a seat in play, else the round number that eliminated it."""
    revived: tuple[bool, ...]
    """Seats that have used their one revival."""
    sitting_out: tuple[int, ...] = ()
    """Seats that bought back in and sit out the coming round."""
    pending: tuple[int, ...] = ()
    """Seats that must decide whether to buy back in, in order."""
    dealer: int = 0
    """The dealer of the current (or last) round."""
    payer: int = -1
    """Who paid (ladder) or should start next (Catastrophe) after the last round; -1 before any."""
    rounds: int = 0
    """Rounds finished."""
    results: Chain[RoundResult] = Chain.EMPTY
    """Every finished round's result."""
    winners: tuple[int, ...] = ()
    """Set once the match is over."""
    _rows: tuple[tuple[RoundResult, ...], tuple[tuple[int, ...], ...]] | None = attrs.field(
        init=False, default=None, eq=False, hash=False, repr=False
    )
    """A cache for `result_rows` (not part of the value)."""

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Per seat: eliminated and not (yet) back."""
        return tuple(o > 0 for o in self.out)


@attrs.frozen(repr=False)
class State:
    """A position in a match. Get one from `new_game`, then `apply` actions.

    Its fields are what a card played changes; the rest is shared with the
    state before: `table` (changes once a trick) and `match` (once a round).
    `rules`, `players` and `first` read through to the match, and `round`
    gathers the round in play into one `Round` value.

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
    hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards, sorted (empty before the first deal)."""
    trick: tuple[Play, ...] = ()
    """The current trick so far, in play order."""
    high: int = 0
    """Ladder: the highest rank in the current trick. Catastrophe: the lead card's number."""
    taker: int = -1
    """The seat currently taking the trick."""
    marker: str | None = None
    """Catastrophe's Trick Marker: `"high"`, `"low"`, `"high-broken"`, `"low-broken"`, or None
    until the second card of a trick."""
    _history: Node = attrs.field(alias="history", default=EMPTY_NODE, converter=plain_node, eq=chain_of)
    """The history as its newest node, always a plain tuple (read it as `history`)."""

    @property
    def history(self) -> Chain[Action]:
        """Every action applied since `new_game`, oldest first (a persistent `Chain`)."""
        return chain_of(self._history)

    def __repr__(self) -> str:
        fields = ", ".join(f"{a.alias}={getattr(self, a.alias or a.name)!r}" for a in attrs.fields(State))
        return f"State({fields})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # For IPython and Hypothesis, whose printers would otherwise walk the raw history nodes.
        printer.text("State(...)" if cycle else repr(self))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle (and deepcopy) the history as a Chain, which flattens itself: a long
        # history is a deep nest of tuples that pickle would otherwise recurse into.
        # `State(...)` turns the chain back into a plain node, as the engines expect.
        fields = tuple(getattr(self, a.name) for a in attrs.fields(State))
        return (State, (*fields[:-1], self.history))

    @property
    def rules(self) -> Rules:
        """The rules of the match."""
        return self.match.rules

    @property
    def players(self) -> tuple[str, ...]:
        """Seat labels (names); seats are 0..n-1 clockwise."""
        return self.match.players

    @property
    def first(self) -> int:
        """The seat that leads the first trick of the match."""
        return self.match.first

    @property
    def round(self) -> Round | None:
        """The round in play (or just finished) as one `Round` value; None before the first deal."""
        table = self.table
        if table is None:
            return None
        return Round(self.hands, table, self.trick, self.high, self.taker, self.marker)

    @property
    def is_over(self) -> bool:
        """True once the match has winners."""
        return self.to_act is None

    @property
    def actions(self) -> tuple[Action, ...]:
        """The history as a tuple, oldest first."""
        return self.history.items()

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.match.players)


def result_rows(match: Match) -> tuple[tuple[RoundResult, ...], tuple[tuple[int, ...], ...]]:
    """The finished rounds' results and their points rows, as tuples (built once per `Match`, then kept).

    A `Match` lives for a whole round, so a server asking for the score or a view after every card
    walks the results chain once a round, not once a call.

    Example:
        >>> import cucumber_rules as cr
        >>> result_rows(cr.new_game(cr.ruleset("agurk"), players=3).match)
        ((), ())
    """
    found = match._rows
    if found is None:
        results = match.results.items()
        found = (results, tuple([r.points for r in results]))
        object.__setattr__(match, "_rows", found)
    return found


# Fast constructors for the hot path. `apply` builds a `State` for every card
# played, and a `Trick` and a `Table` when a trick ends. These set the slots
# directly, in field order, skipping the generated `__init__` (which goes through
# `object.__setattr__` for frozen classes). They take exactly the fields,
# positionally; tests/test_state.py checks that they build values equal to the
# attrs constructors.
_object_new = object.__new__
#: The slot setters of `State`, in field order (for the engines' hottest path).
STATE_SETTERS: Final = tuple(State.__dict__[a.name].__set__ for a in attrs.fields(State))
(_s0, _s1, _s2, _s3, _s4, _s5, _s6, _s7, _s8) = STATE_SETTERS
(_t0, _t1, _t2, _t3, _t4, _t5, _t6) = (Table.__dict__[a.name].__set__ for a in attrs.fields(Table))
(_k0, _k1, _k2, _k3, _k4) = (Trick.__dict__[a.name].__set__ for a in attrs.fields(Trick))


def new_trick(
    leader: int, plays: tuple[Play, ...], taker: int, marker: str | None = None, revealed: Card | None = None
) -> Trick:
    """Build a completed `Trick` from its fields, in order (internal fast path).

    Example:
        >>> new_trick(0, (), 1) == Trick(0, (), 1)
        True
    """
    t = _object_new(Trick)
    _k0(t, leader)
    _k1(t, plays)
    _k2(t, taker)
    _k3(t, marker)
    _k4(t, revealed)
    return t


def new_table(
    seats: tuple[int, ...],
    after: tuple[int, ...],
    leader: int,
    tricks: tuple[Trick, ...],
    stock: tuple[Card, ...],
    revealed: Card | None,
    captured: tuple[tuple[Card, ...], ...],
) -> Table:
    """Build a `Table` from its fields, in order (at a deal or the end of a trick).

    Example:
        >>> new_table((0, 1), (1, 0), 0, (), (), None, ()) == Table((0, 1), (1, 0), 0)
        True
    """
    table = _object_new(Table)
    _t0(table, seats)
    _t1(table, after)
    _t2(table, leader)
    _t3(table, tricks)
    _t4(table, stock)
    _t5(table, revealed)
    _t6(table, captured)
    return table


def new_state(
    to_act: int | None,
    match: Match,
    table: Table | None,
    hands: tuple[tuple[Card, ...], ...],
    trick: tuple[Play, ...],
    high: int,
    taker: int,
    marker: str | None,
    history: Node,
) -> State:
    """Build a `State` from all its fields, in order (internal fast path).

    `history` must be a plain-tuple node (`EMPTY_NODE`, or from `push`), never a `Chain`:
    the engines read its length as `node[2]`, which a `Chain` would answer with an item.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3)
        >>> new_state(s.to_act, s.match, None, s.hands, (), 0, -1, None, s._history) == s
        True
    """
    s = _object_new(State)
    _s0(s, to_act)
    _s1(s, match)
    _s2(s, table)
    _s3(s, hands)
    _s4(s, trick)
    _s5(s, high)
    _s6(s, taker)
    _s7(s, marker)
    _s8(s, history)
    return s
