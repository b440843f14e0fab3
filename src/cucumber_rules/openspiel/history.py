"""What an OpenSpiel state keeps of its past: the actions applied, and how one action advances a state.

`advance` checks an action and works out the state after it without changing anything;
`ActionLog` keeps the actions (and a state at the start of each deal, to replay from) for
`history()` and `undo_action`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from .. import encoding
from ..actions import Action, Play
from ..encoding import Dealing
from ..encoding.hooks import action_table as _encoding
from ..engine import apply, legal_moves
from ..errors import IllegalMoveError
from ..state import CHANCE, State
from ..values import Value, builder


class PlayerAction(NamedTuple):
    """An entry of `CucumberState.full_history()`: who acted (`PlayerId.CHANCE` for chance) and the id."""

    player: int
    action: int


@attrs.frozen(weakref_slot=False)
class ActionLog(Value):
    """The actions applied since the start, for `history()` and `undo_action`.

    `head` is a chain of plain tuples `(player, action, depth, earlier)` (the latest action first;
    tuples of numbers the garbage collector stops tracking, so that a long match keeps no heap of
    states alive); `marks` is a chain `(depth, state, dealing, earlier)` of the state at the start
    of each deal, from which the state before an undone action is replayed (a round at most).
    """

    head: tuple[Any, ...] | None
    marks: tuple[Any, ...]

    def actions(self) -> list[tuple[int, int]]:
        """`(player, action)` for every action, oldest first."""
        out = []
        node = self.head
        while node is not None:
            out.append((node[0], node[1]))
            node = node[3]
        out.reverse()
        return out

    def __reduce__(self) -> Any:
        # Pickled flat (the chains nest thousands deep): the first state and the actions, replayed.
        marks = self.marks
        while marks[3] is not None:
            marks = marks[3]
        return (replayed, (marks[1], marks[2], tuple(self.actions())))


new_record = builder(ActionLog)


def recorded(record: ActionLog, player: int, action: int, state: State, dealing: Dealing | None) -> ActionLog:
    """The record after one more action, which led to `state` (and `dealing`)."""
    head = record.head
    depth = 0 if head is None else head[2] + 1
    marks = record.marks
    if dealing is not None and not dealing.drawn:  # a deal begins: a state to replay from
        marks = (depth + 1, state, dealing, marks)
    return new_record((player, action, depth, head), marks)


def replayed(state: State, dealing: Dealing | None, actions: tuple[tuple[int, int], ...]) -> ActionLog:
    record = new_record(None, (0, state, dealing, None))
    for player, action in actions:
        state, dealing = advance(state, dealing, action)
        record = recorded(record, player, action, state, dealing)
    return record


def library_action(state: State, seat: int, action: int) -> Action:
    """The legal move of `seat` with id `action` (the very object `legal_moves` lists), else its action."""
    e = _encoding(state.match.rules)
    ids = e.ids
    for move in legal_moves(state):
        if (
            ids[move.card.index] if type(move) is Play else encoding.action_id(state.match.rules, move)
        ) == action:
            return move
    return encoding.action_of(state.match.rules, seat, action)  # apply will say why it is not legal


def advance(state: State, dealing: Dealing | None, action: int) -> tuple[State, Dealing | None]:
    """The state and deal in progress after one OpenSpiel action (checked; nothing is changed)."""
    to_act = state.to_act
    if to_act is None:
        raise _match_over(state, action)
    if to_act == CHANCE:
        if dealing is None:
            dealing = Dealing.start(state)
        dealing = dealing.draw(action)
        if not dealing.complete:
            return state, dealing
        state = apply(state, dealing.deal())
    else:
        state = apply(state, library_action(state, to_act, action))
    return state, deal_due(state)


def deal_due(state: State) -> Dealing | None:
    """The deal to draw card by card after an action led to `state` (None where no deal is due)."""
    return Dealing.start(state) if state.to_act == CHANCE else None


def _match_over(state: State, action: object) -> IllegalMoveError:
    winners = ", ".join(f"seat {w}" for w in state.match.winners)
    return IllegalMoveError(
        "game-over", f"the match is over (won by {winners}); no action is possible, not {action}"
    )
