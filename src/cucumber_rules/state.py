"""The immutable match state.

A `State` is a value: `apply` returns a new one and never changes its input, so
undo is keeping the previous state. It is split by how often things change, so
that a play copies little:

- `State`: rules, players, whose turn, and pointers to the parts below;
- `Round`: the round (Catastrophe: the hand) being played: hands, the current
  trick, the completed tricks, the Trick Marker, the stock;
- `Match`: what changes once a round: totals, marks, eliminations, the dealer;
- `Chain`: persistent linked lists for what grows with the match (the history
  and the round results), appended in O(1) without copying.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Final, Generic, TypeVar

import attrs

from .actions import Action, Play
from .cards import Card
from .rules import Rules

__all__ = ["CHANCE", "Chain", "Match", "Round", "RoundResult", "State", "Trick"]

#: The value of `State.to_act` while a chance action (a deal) is due.
CHANCE: Final = -1

T = TypeVar("T")


@attrs.frozen(eq=False)
class Chain(Generic[T]):
    """A persistent (immutable, shared-tail) list: `append` is O(1) and copies nothing.

    Iterates oldest first; compares equal to another chain with equal items.

    Example:
        >>> c = Chain.EMPTY.append(1).append(2)
        >>> list(c), len(c), c.last
        ([1, 2], 2, 2)
    """

    last: T | None = None
    """The newest item (None when empty)."""
    rest: Chain[T] | None = None
    """The chain without its newest item (None when empty)."""
    length: int = 0

    EMPTY: ClassVar[Chain[object]]  # set below

    def append(self, item: T) -> Chain[T]:
        """Return a new chain with `item` added at the end."""
        return Chain(item, self, self.length + 1)

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[T]:
        return iter(self.items())

    def items(self) -> tuple[T, ...]:
        """The items as a tuple, oldest first."""
        out: list[T] = []
        node: Chain[T] | None = self
        while node is not None and node.length:
            out.append(node.last)  # type: ignore[arg-type]
            node = node.rest
        out.reverse()
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return NotImplemented
        a: Chain[T] | None = self
        b: Chain[object] | None = other
        while a is not b:
            if a is None or b is None or a.length != b.length:
                return False
            if a.length == 0:
                return True
            if a.last != b.last:
                return False
            a, b = a.rest, b.rest
        return True

    def __hash__(self) -> int:
        return hash(self.items())

    def __repr__(self) -> str:
        return f"Chain({list(self.items())!r})"

    @classmethod
    def of(cls, items: tuple[T, ...] | list[T]) -> Chain[T]:
        """Build a chain from items, oldest first."""
        chain: Chain[T] = cls.EMPTY  # type: ignore[assignment]
        for item in items:
            chain = chain.append(item)
        return chain


Chain.EMPTY = Chain()


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
    """Catastrophe: the Trick Marker when the trick ended (`"high"`, `"low"`, `"high-broken"`, `"low-broken"`)."""
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
class Round:
    """The round (ladder) or hand (Catastrophe) in play, or the one just finished.

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
    seats: tuple[int, ...]
    """The seats dealt in, clockwise from seat 0."""
    after: tuple[int, ...]
    """`after[s]`: the dealt-in seat that plays after seat `s` (clockwise)."""
    leader: int
    """The seat that led the current trick (or will lead it)."""
    trick: tuple[Play, ...] = ()
    """The current trick so far, in play order."""
    high: int = 0
    """Ladder: the highest rank in the current trick. Catastrophe: the lead card's number."""
    taker: int = -1
    """The seat currently taking the trick."""
    tricks: tuple[Trick, ...] = ()
    """This round's completed tricks."""
    marker: str | None = None
    """Catastrophe: the Trick Marker (`None` until the second card)."""
    stock: tuple[Card, ...] = ()
    """The undealt cards in order, top first (private: never in a view)."""
    revealed: Card | None = None
    """Surprise Cucumber: this trick's revealed lead card."""
    captured: tuple[tuple[Card, ...], ...] = ()
    """Catastrophe: the cards each seat has captured this hand."""


@attrs.frozen
class Match:
    """The parts of the state that change once a round.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.new_game(cr.ruleset("agurk"), players=3).match.dealer
        2
    """

    totals: tuple[int, ...]
    """Running points (or cucumbers) per seat."""
    marks: tuple[int, ...]
    """Agurk cucumber marks per seat."""
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
    results: Chain[RoundResult] = Chain.EMPTY  # type: ignore[assignment]
    """Every finished round's result."""
    winners: tuple[int, ...] = ()
    """Set once the match is over."""

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Per seat: eliminated and not (yet) back."""
        return tuple(o > 0 for o in self.out)


@attrs.frozen
class State:
    """A position in a match. Get one from `new_game`, then `apply` actions.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=["Ann", "Bo"])
        >>> s.to_act == cr.CHANCE, s.players, s.is_over
        (True, ('Ann', 'Bo'), False)
    """

    rules: Rules
    players: tuple[str, ...]
    """Seat labels (names); seats are 0..n-1 clockwise."""
    first: int
    """The seat that leads the first trick of the match."""
    to_act: int | None
    """The seat to act, `CHANCE` (-1) while a deal is due, None when over."""
    match: Match
    round: Round | None
    """The round in play (or just finished); None before the first deal."""
    history: Chain[Action] = Chain.EMPTY  # type: ignore[assignment]
    """Every action applied since `new_game`, oldest first."""

    @property
    def is_over(self) -> bool:
        """True once the match has winners."""
        return self.to_act is None

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards (empty before the first deal)."""
        if self.round is None:
            return tuple(() for _ in self.players)
        return self.round.hands

    @property
    def trick(self) -> tuple[Play, ...]:
        """The current trick's plays."""
        return () if self.round is None else self.round.trick

    @property
    def marker(self) -> str | None:
        """Catastrophe's Trick Marker: `"high"`, `"low"`, `"high-broken"`, `"low-broken"` or None."""
        return None if self.round is None else self.round.marker

    @property
    def actions(self) -> tuple[Action, ...]:
        """The history as a tuple, oldest first."""
        return self.history.items()

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.players)
