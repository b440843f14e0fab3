"""The OpenSpiel state (`CucumberState`): the library's `State` behind OpenSpiel's `pyspiel.State` API."""

from __future__ import annotations

import random
from typing import Any, Protocol

import attrs
import pyspiel

from .. import encoding
from ..actions import Action, Deal
from ..encoding import Dealing
from ..encoding.hooks import action_table as _encoding
from ..engine import apply, legal_moves
from ..outcomes import returns
from ..sampling import sample_world
from ..state import CHANCE, State
from ..values import Value, builder
from ..views import view
from .history import ActionLog, PlayerAction, advance, deal_due, library_action, new_record, recorded
from .observers import CucumberObserver

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


@attrs.frozen(weakref_slot=False)
class Moves(Value):
    """The legal moves of a state and their ids, in the same order (a value: clones share it)."""

    state: State | None
    ids: tuple[int, ...]
    moves: tuple[Action, ...]
    table: tuple[int, ...]
    """The rules' card ids by `Card.index` (`_encoding(rules).ids`), carried from one to the next."""


new_moves = builder(Moves)


class StateGame(Protocol):
    """What a `CucumberState` reads of its game (a `CucumberGame` is one): the start of a match, the
    dealing, the empty action log and moves its states share, and its own observers."""

    _start: State
    _dealing: Dealing | None
    _record: ActionLog
    _no_moves: Moves

    def _observer(self, perfect_recall: bool) -> CucumberObserver: ...

    def max_chance_outcomes(self) -> int: ...

    def num_distinct_actions(self) -> int: ...

    def num_players(self) -> int: ...

    def new_initial_state(self) -> Any: ...


class CucumberState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: the library's `State`, the deal being drawn card by card, and the history.

    Every value it keeps is immutable, so OpenSpiel's `clone` (which deep-copies them) costs
    little, and an action is checked before anything changes. `undo_action` takes back the
    last action. Queries OpenSpiel's Python API asks often (`current_player`, `legal_actions`,
    `chance_outcomes`, the tensors and strings) are answered in Python, as the C++ side would.

    Example:
        >>> state = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2}).new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> str(state)
        'round 1 · totals [0, 0] · hands 2C 2D | 2H 2S · trick - · seat 0 to act'
        >>> state.cucumber_state.to_act, state.cucumber_state.hands[1]
        (0, (card('2H'), card('2S')))
        >>> state.apply_action(0); state.undo_action(0, 0); state.history()
        [0, 1, 2, 3]
    """

    def __init__(self, game: StateGame) -> None:
        super().__init__(game)
        # Immutable values only: OpenSpiel's clone deep-copies these attributes, and a refused action
        # must leave them as they were (every change is worked out first, then assigned).
        self._state: State = game._start
        self._dealing: Dealing | None = game._dealing
        self._record: ActionLog = game._record
        # The legal moves of the last state asked about, with their ids (`_moves`): a random playout
        # asks `legal_actions` then applies one of them, so the move of an id is found, not rebuilt.
        self._moves_of: Moves = game._no_moves

    @property
    def cucumber_state(self) -> State:
        """The library's state (between deals; a deal being drawn card by card is in `drawn`)."""
        return self._state

    @property
    def drawn(self) -> tuple[int, ...]:
        """The chance outcomes drawn so far of the deal in progress."""
        return () if self._dealing is None else self._dealing.drawn

    # ----------------------------------------------------------------- the node

    def current_player(self) -> int:
        """The seat to act, `pyspiel.PlayerId.CHANCE` while dealing, `TERMINAL` once over."""
        to_act = self._state.to_act
        if to_act is None:
            return _TERMINAL
        return _CHANCE if to_act == CHANCE else to_act

    def is_terminal(self) -> bool:
        """True once the match is over."""
        return self._state.to_act is None

    def is_chance_node(self) -> bool:
        """True while a deal is being drawn."""
        return self._state.to_act == CHANCE

    def is_player_node(self) -> bool:
        """True where a seat is to act."""
        to_act = self._state.to_act
        return to_act is not None and to_act >= 0

    def is_simultaneous_node(self) -> bool:
        """Never: the seats act one at a time."""
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card (or starter) of the deal, with its probability (`[]` where no deal is drawn)."""
        dealing = self._dealing
        return [*dealing.outcomes()] if dealing is not None else []

    def _moves(self, s: State) -> Moves:
        """The legal moves of `s` (the state to act) and the id of each."""
        found = self._moves_of
        if found.state is s:
            return found
        moves = legal_moves(s)
        table = found.table
        try:
            ids = tuple([table[m.card.index] for m in moves])  # type: ignore[union-attr]
        except AttributeError:  # a decision among them (revival)
            ids = tuple([encoding.action_id(s.match.rules, m) for m in moves])
        self._moves_of = found = new_moves(s, ids, moves, table)
        return found

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of `player` (default: the player to act), sorted; the chance outcomes at a deal."""
        s = self._state
        to_act = s.to_act
        if to_act is None:
            return []
        if to_act == CHANCE:
            return [a for a, _ in self._dealing.outcomes()]  # type: ignore[union-attr]
        if player is not None and player != to_act:
            return []
        return sorted(self._moves(s).ids)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal id of `player` (default: the player to act), as long as the game's ids."""
        game = self.get_game()
        chance = self._state.to_act == CHANCE
        mask = [0] * (game.max_chance_outcomes() if chance else game.num_distinct_actions())
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def returns(self) -> list[float]:
        """`cucumber_rules.returns`: the winners share 1.0 at the end; 0.0 before."""
        return list(returns(self._state))

    # ----------------------------------------------------------------- actions

    def apply_action(self, action: int) -> None:
        """Apply an action id of the player to act, or a chance outcome at a deal (checked first).

        Called from Python, this applies the action here, without the round trip through
        pyspiel's C++ `ApplyAction` (which OpenSpiel's C++ code still takes, and which calls this):
        the state keeps the history itself (see `undo_action`).

        Raises:
            IllegalMoveError: For an illegal action, or any action once the match is over.
            ValueError: For an id that is no action or outcome now (nothing changes).
        """
        # Everything is checked before anything changes: a refused action raises and leaves the
        # state (and OpenSpiel's history, which it extends only after this returns) as it was.
        before = self._state
        to_act = before.to_act
        dealing = self._dealing
        if to_act == CHANCE and dealing is not None:  # the next card (or starter) of the deal
            dealing = dealing.draw(action)
            if not dealing.complete:  # the common case, kept short: no new state, no deal begins
                self._record = recorded(self._record, _CHANCE, action, before, dealing)
                self._dealing = dealing
                return
            state = apply(before, dealing.deal())
            dealing = deal_due(state)
        elif to_act is not None and to_act >= 0:  # a seat's action: the move with that id, if legal
            found = self._moves(before)
            ids = found.ids
            move = found.moves[ids.index(action)] if action in ids else library_action(before, to_act, action)
            state = apply(before, move)
            dealing = deal_due(state)
        else:  # the match is over (`advance` says so), or a deal not begun yet
            state, dealing = advance(before, dealing, action)
        player = _CHANCE if to_act is None or to_act == CHANCE else to_act  # (None: `advance` raised)
        self._record = recorded(self._record, player, action, state, dealing)
        self._state = state
        self._dealing = dealing

    _apply_action = apply_action

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which was `action` of `player` (`PlayerId.CHANCE` for a chance outcome).

        pyspiel keeps its own copy of the history in C++ and gives a game written in Python no way
        to shorten it, so this state keeps the history itself: `history()`, `full_history()`,
        `history_str()`, `move_number()` and `is_initial_state()` answer from it, and clones and
        pickles carry it. (C++ code reading an undone state's history would see the old one.)

        Raises:
            ValueError: If no action was applied, or the last one was not `action` of `player`.

        Example:
            >>> state = pyspiel.load_game("cucumber_gurka", {"players": 2}).new_initial_state()
            >>> state.apply_action(7)
            >>> state.undo_action(pyspiel.PlayerId.CHANCE, 7)
            >>> state.history(), state.move_number(), len(state.chance_outcomes())
            ([], 0, 52)
        """
        record = self._record
        head = record.head
        if head is None:
            raise ValueError("no action to undo: the match is at its start")
        if (head[0], head[1]) != (player, action):
            raise ValueError(
                f"the last action was {head[1]} of player {head[0]}, not {action} of player {player}"
            )
        depth = head[2]  # the actions before the undone one
        marks = record.marks
        while marks[0] > depth:
            marks = marks[3]
        redo = []
        node = head[3]
        while node is not None and node[2] >= marks[0]:
            redo.append(node[1])
            node = node[3]
        state, dealing = marks[1], marks[2]
        for earlier in reversed(redo):
            state, dealing = advance(state, dealing, earlier)
        self._state, self._dealing = state, dealing
        self._record = new_record(head[3], marks)

    def history(self) -> list[int]:
        """Every action id applied since the start, chance outcomes included, oldest first."""
        return [action for _, action in self._record.actions()]

    def full_history(self) -> list[PlayerAction]:
        """Every action applied since the start, with who took it (`.player`, `.action`)."""
        return [PlayerAction(player, action) for player, action in self._record.actions()]

    def history_str(self) -> str:
        """`history()` as text, ids joined by `, `."""
        return ", ".join(str(a) for a in self.history())

    def move_number(self) -> int:
        """How many actions (chance outcomes included) were applied since the start."""
        head = self._record.head
        return 0 if head is None else head[2] + 1

    def is_initial_state(self) -> bool:
        """True before the first action."""
        return self._record.head is None

    # ----------------------------------------------------------------- observations

    def _checked_player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        n = self.get_game().num_players()
        if type(player) is not int and not isinstance(player, int):
            raise TypeError(f"player must be an int, not {type(player).__name__}")
        if not 0 <= player < n:
            raise ValueError(
                f"player must be 0..{n - 1}, not {player} (a chance node or the end has no player)"
            )
        return int(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The player's observation (default: the player to act): `encoding.observation` of its view."""
        game: StateGame = self.get_game()
        return game._observer(False).values(self, self._checked_player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The player's information state (default: the player to act): see `CucumberObserver`.

        Raises:
            ValueError: For a game whose matches have no useful bound on rounds (see
                `HISTORY_TENSOR_LIMIT`), or a player out of range.
        """
        game: StateGame = self.get_game()
        return game._observer(True).values(self, self._checked_player(player))

    def observation_string(self, player: int | None = None) -> str:
        """The player's observation in words (default: the player to act)."""
        game: StateGame = self.get_game()
        return game._observer(False).string_from(self, self._checked_player(player))

    def information_state_string(self, player: int | None = None) -> str:
        """The player's information state in words (default: the player to act): every event it saw."""
        game: StateGame = self.get_game()
        return game._observer(True).string_from(self, self._checked_player(player))

    # ----------------------------------------------------------------- the rest of OpenSpiel's state

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CucumberState:
        """A state that `player_id` cannot tell from this one: the hidden cards drawn anew.

        OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts`) calls it. The
        other hands (and the stock) are drawn with [`sample_world`][cucumber_rules.sample_world]
        from the seat's view, seeded by two draws of `probability_sampler` (a callable that returns
        a float in [0, 1), such as `pyspiel.UniformProbabilitySampler(0., 1.)`). The new state is
        reached from the start by its own history (`history()`, `move_number()`), deals card by card
        included, as if it had been played: the earlier rounds as they were played (the seat
        remembers them, and every card their deals drew was played in the open), then the sampled
        round in play.

        Raises:
            ValueError: In the middle of a deal being drawn card by card (a chance node); ISMCTS
                resamples only where a seat is to act.

        Example:
            >>> game = pyspiel.load_game("cucumber_gurka", {"players": 2})
            >>> state = game.new_initial_state()
            >>> while state.is_chance_node():
            ...     state.apply_action(state.chance_outcomes()[0][0])
            >>> other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
            >>> other.information_state_string(0) == state.information_state_string(0)
            True
            >>> other.move_number() == state.move_number() == 14
            True
        """
        if self.drawn:
            raise ValueError("cannot resample in the middle of a deal being drawn: finish the deal first")
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        world = sample_world(view(self._state, player_id), random.Random(seed))
        mine, theirs = _last_deal(self._state.actions), _last_deal(world.actions)
        other: CucumberState = self.get_game().new_initial_state()
        rules = world.match.rules
        for action in (*self._state.actions[:mine], *world.actions[theirs:]):
            if type(action) is Deal:
                for outcome in encoding.deal_outcomes(other._state, action):
                    other.apply_action(outcome)
            else:
                other.apply_action(encoding.action_id(rules, action))
        return other

    def _action_to_string(self, player: int, action: int) -> str:
        rules = self._state.match.rules
        cards = _encoding(rules).cards
        if player == _CHANCE:
            if action >= len(cards):
                return f"seat {action - len(cards)} starts"
            return f"deal {cards[action]}"
        return str(encoding.action_of(rules, player, action))

    def __str__(self) -> str:
        s = self._state
        m = s.match
        over = s.is_over
        # `m.rounds` counts the rounds played out: the one in play (or being dealt) is the next.
        parts = [f"round {m.rounds if over else m.rounds + 1}", f"totals {list(m.totals)}"]
        if s.to_act == CHANCE and self.drawn:
            cards = _encoding(m.rules).cards
            parts.append(
                "dealing " + " ".join(str(cards[i]) if i < len(cards) else f"#{i}" for i in self.drawn)
            )
        elif s.table is not None and not over and s.to_act != CHANCE:
            hands = " | ".join(" ".join(str(c) for c in h) or "-" for h in s.hands)
            parts.append(f"hands {hands}")
            parts.append("trick " + (" ".join(str(p.card) for p in s.trick) or "-"))
        parts.append("over" if over else "chance" if s.to_act == CHANCE else f"seat {s.to_act} to act")
        return " · ".join(parts)


def _last_deal(actions: tuple[Action, ...]) -> int:
    return max((i for i, a in enumerate(actions) if type(a) is Deal), default=len(actions))
