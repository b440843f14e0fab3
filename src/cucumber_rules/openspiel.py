"""OpenSpiel games for every preset: `cucumber_agurk`, `cucumber_gurka`, ... (extra `[openspiel]`).

Importing this module registers one Python game with `pyspiel` per preset:
`cucumber_agurk`, `cucumber_gurka`, `cucumber_five_cucumbers`,
`cucumber_fuenf_gurken` and `cucumber_catastrophe` (a registered third-party
game's presets too: `cucumber_<preset>`, with `-` written `_`). Load one with
`pyspiel.load_game("cucumber_agurk")` or with parameters,
`pyspiel.load_game("cucumber_gurka", {"players": 3, "threshold": 21})`.

- **Parameters**: `players` (default 4, or the nearest count the preset allows)
  and every option of the preset (`ruleset` names and values) except
  `min_players` and `max_players`. An option that may be None (`fixed_rounds`,
  `round_limit`) takes 0 for None; Catastrophe's `cucumbers` table is 60 counts
  joined by `:` (a game string splits on commas).
- **Actions** are `cucumber_rules.encoding` ids: `num_distinct_actions` is
  `num_actions(rules)`, a card's id is the same for every seat.
- **Chance**: each deal is a run of chance nodes, one card at a time (hands in
  seat order, then the stock cards Surprise Cucumber turns up, then the starter
  when tied seats draw for it), with exactly `sample_chance`'s probabilities,
  If You Can't Beat 'Em included (`encoding.chance_outcomes`). Chance outcome ids
  are card ids, and `num_actions + seat` for a starter.
- **Returns**: `cucumber_rules.returns`: once the match is over the winners share
  1.0 (constant-sum, utilities in [0, 1]); 0.0 for everyone before.
- **Observations**: the observation tensor is `encoding.observation` of the
  player's view. The information-state tensor adds the round's completed tricks
  (for each trick: its leader and each relative seat's card), so it holds
  everything the player saw this round; earlier rounds count through the scores.
  The strings say the same in words (the information state: the round's events).
- **Length**: `max_game_length` is `max_actions(rules, players)`.
- **Serialization**: OpenSpiel's own (`pyspiel.serialize_game_and_state`, the
  action history) and pickle both work; `state.cucumber_state` is the library's
  `State`, for `cr.view`, `cr.dumps` and the rest.

Example:
    >>> import pyspiel
    >>> import cucumber_rules.openspiel
    >>> game = pyspiel.load_game("cucumber_gurka", {"players": 3, "hand_size": 2})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 52)
    >>> while state.is_chance_node():
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (0, ['seat 0 plays 2C', 'seat 0 plays 2D'])
"""

from __future__ import annotations

import math
import operator
import random
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from . import encoding
from ._values import Value, builder
from .actions import Action, Deal, Decision, Play
from .cards import Card
from .encoding import Dealing
from .encoding.ids import _encoding
from .engine import apply, legal_moves, new_game
from .errors import IllegalMoveError, InvalidRulesError
from .outcomes import max_actions, returns
from .rules import OPTIONS, Rules, game_of, ruleset
from .sampling import sample_world
from .state import CHANCE, State
from .views import Dealt, public_history, view

__all__ = [
    "GAME_NAMES",
    "HISTORY_TENSOR_LIMIT",
    "CucumberGame",
    "CucumberObserver",
    "CucumberState",
    "ISMCTSBot",
    "game_name",
    "load_game",
    "register",
    "rules_of",
]

_SKIPPED = ("min_players", "max_players")


def game_name(preset: str) -> str:
    """The OpenSpiel name of a preset: `cucumber_` and the preset with `-` as `_`.

    Example:
        >>> game_name("five-cucumbers")
        'cucumber_five_cucumbers'
    """
    return "cucumber_" + preset.replace("-", "_")


def _default_players(rules: Rules) -> int:
    return min(max(4, rules.min_players), rules.max_players)


def _parameter(value: Any) -> Any:
    if value is None:
        return 0
    if isinstance(value, tuple):
        return ":".join(str(v) for v in value)
    return value


def parameters(rules: Rules) -> dict[str, Any]:
    """A rule set's OpenSpiel game parameters with their defaults (see the module docstring).

    Example:
        >>> parameters(ruleset("gurka"))["threshold"], parameters(ruleset("gurka"))["fixed_rounds"]
        (30, 0)
    """
    values = {name: _parameter(v) for name, v in rules.options().items() if name not in _SKIPPED}
    return {"players": _default_players(rules), **values}


#: OpenSpiel keeps integer parameters and game sizes in C++ `int`s (32 bits).
_INT_MAX = 2**31 - 1


def _integer(name: str, value: Any, preset: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise InvalidRulesError(name, f"{game_name(preset)}'s {name} is an integer, not {value!r}")
    number = operator.index(value)
    if not -_INT_MAX - 1 <= number <= _INT_MAX:
        raise InvalidRulesError(
            name, f"{game_name(preset)}'s {name} must fit OpenSpiel's 32-bit integers, not {number}"
        )
    return number


def _counts(name: str, value: Any, preset: str) -> tuple[int, ...]:
    """A table option (Catastrophe's `cucumbers`) from counts joined by `:` (or a sequence of counts)."""
    parts = value if isinstance(value, (tuple, list)) else re.split(r"[:,\s]+", str(value).strip())
    counts = []
    for part in parts:
        if isinstance(part, str) and not part:
            continue
        try:
            counts.append(int(part) if isinstance(part, str) else _integer(name, part, preset))
        except ValueError:
            raise InvalidRulesError(
                name, f"{game_name(preset)}'s {name} is counts joined by ':', not {str(value)[:80]!r}"
            ) from None
    return tuple(counts)


def rules_of(preset: str, params: Mapping[str, Any]) -> tuple[Rules, int]:
    """The rules and player count that OpenSpiel parameters give for a preset.

    Raises:
        InvalidRulesError: For a parameter the preset does not have, a bad option value (of the
            wrong kind, or an integer beyond OpenSpiel's 32 bits), a player count outside the game's
            range, or rules whose matches could run longer than OpenSpiel can count (its `option`
            names the parameter).

    Example:
        >>> r, n = rules_of("gurka", {"players": 3, "fixed_rounds": 2})
        >>> r.fixed_rounds, r.threshold, n
        (2, 30, 3)
        >>> rules_of("catastrophe", {"cucumbers": "a:b"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidRulesError: cucumbers: ...cucumbers is counts joined by ':', not 'a:b'
    """
    base = ruleset(preset)
    options: dict[str, Any] = {}
    own = base.options()
    for name, value in params.items():
        if name == "players":
            continue
        if name not in own or name in _SKIPPED:
            raise InvalidRulesError(name, f"{game_name(preset)} has no parameter {name!r}")
        default = own[name]
        if isinstance(default, tuple):
            value = _counts(name, value, preset)
        elif OPTIONS[name].type.startswith("int"):
            value = _integer(name, value, preset)
            if value == 0 and OPTIONS[name].type.endswith("| None"):
                value = None
        options[name] = value
    rules = base.replace(**options) if options else base
    players = _integer("players", params.get("players", _default_players(base)), preset)
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidRulesError(
            "players",
            f"{game_name(preset)} is for {rules.min_players} to {rules.max_players} players, not {players}",
        )
    if max_actions(rules, players) > _INT_MAX:
        raise InvalidRulesError(
            "round_limit",
            f"{game_name(preset)}'s matches under these rules could run to {max_actions(rules, players):,} "
            f"actions, more than OpenSpiel counts ({_INT_MAX:,}): set round_limit or fixed_rounds",
        )
    return rules, players


def load_game(game: str, params: Mapping[str, Any] | None = None) -> CucumberGame:
    """`pyspiel.load_game`, the parameters checked here first: a bad one is an `InvalidRulesError`.

    `pyspiel.load_game(name, params)` turns the parameters into C++ values before the game sees
    them: an integer beyond 32 bits fails there with pybind11's `RuntimeError` (and in a game
    string, with a `SpielError`). This function checks them as `rules_of` does, then loads.

    Args:
        game: A game name (`"cucumber_agurk"`) or a preset (`"agurk"`, `"five-cucumbers"`).
        params: The game's parameters (see the module docstring); a table such as `cucumbers`
            may be a sequence of counts.

    Raises:
        InvalidRulesError: For an unknown game or preset, or a bad parameter (see `rules_of`).

    Example:
        >>> load_game("gurka", {"players": 3, "threshold": 21}).rules.threshold
        21
        >>> load_game("cucumber_gurka", {"threshold": 2**62})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidRulesError: threshold: ...must fit OpenSpiel's 32-bit integers, not 46...
    """
    preset = next((p for p in _TYPES if game in (p, game_name(p))), None)
    if preset is None:
        try:
            preset = ruleset(game).name
        except InvalidRulesError:
            raise InvalidRulesError("preset", f"no OpenSpiel game or preset named {game!r}") from None
        register(preset)
    given = dict(params or {})
    rules_of(preset, given)
    converted = {k: ":".join(map(str, v)) if isinstance(v, (tuple, list)) else v for k, v in given.items()}
    loaded = pyspiel.load_game(game_name(preset), converted)
    assert isinstance(loaded, CucumberGame)
    return loaded


def _game_type(preset: str, rules: Rules, *, information_tensor: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"Cucumber ({preset}) from cucumber_rules",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=information_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(rules),
    )


HISTORY_TENSOR_LIMIT = 2**17
"""The most values a perfect-recall tensor may have; a game whose tensor would be longer offers none.

A perfect-recall tensor holds every round a match can have (its deals, tricks, turned-up cards
and decisions), so its length grows with the bound on rounds: Catastrophe's `hands`, a ladder
game's `fixed_rounds` or `round_limit`. The ladder presets' automatic round limit (hundreds of
rounds) would make it millions of values long: such a game offers the information-state *string*
(always perfect recall) but no tensor (`provides_information_state_tensor` is False, and asking
for one raises `ValueError`). Set `round_limit` or `fixed_rounds` to get one.

Example:
    >>> HISTORY_TENSOR_LIMIT
    131072
"""


def _rounds_bound(rules: Rules, players: int) -> int | None:
    """The most rounds a match of these rules has, where the game is one whose bound is known here."""
    bound = game_of(rules).encoding.observation_bounds(rules, players).get("round")
    return None if bound is None else int(bound[1])


def _max_decisions(rules: Rules, players: int) -> int:
    """OpenSpiel's `max_game_length`: the most decisions of a match (its chance outcomes not counted).

    `max_actions` counts a deal as one action; a match with at most R rounds has at most R deals,
    so at most `max_actions - R` decisions (R is 1 where the game's bound on rounds is unknown).
    """
    return max_actions(rules, players) - (_rounds_bound(rules, players) or 1)


class CucumberGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of one preset (a subclass per preset is registered by `register`).

    Example:
        >>> game = pyspiel.load_game("cucumber_gurka", {"players": 2, "threshold": 21})
        >>> isinstance(game, CucumberGame), game.preset, game.players, game.rules.threshold
        (True, 'gurka', 2, 21)
        >>> game.max_game_length(), game.max_chance_nodes_in_history()  # 226 rounds of 14 cards
        (3164, 3390)
    """

    preset: str = ""
    """The preset this game class plays."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        rules, players = rules_of(self.preset, given)
        self.rules = rules
        """The library's rules of this game."""
        self.players = players
        """The player count."""
        self._start = new_game(rules, players)
        self._dealing = Dealing.start(self._start)
        self._record = _new_record(None, (0, self._start, self._dealing, None))
        self._observers: dict[tuple[bool, bool, str], CucumberObserver] = {}
        self._history_layout = _HistoryLayout.of(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(rules),
            max_chance_outcomes=encoding.num_chance_outcomes(rules),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=_max_decisions(rules, players),
        )
        tensor = self._history_layout is not None
        kind = _TYPES[self.preset]
        if kind.provides_information_state_tensor != tensor:
            kind = _game_type(self.preset, ruleset(self.preset), information_tensor=tensor)
        super().__init__(kind, info, given)

    def new_initial_state(self) -> CucumberState:
        """A match before its first deal."""
        return CucumberState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance outcomes of a match: every card (and starter) of every deal of every round.

        Example:
            >>> pyspiel.load_game("cucumber_catastrophe", {"players": 3}).max_chance_nodes_in_history()
            124
        """
        plan = self._dealing.plan
        rounds = _rounds_bound(self.rules, self.players)
        if rounds is None:  # a game whose bound on rounds is not known here: a deal per action at most
            return min(max_actions(self.rules, self.players) * (len(plan.deck) + 1), _INT_MAX)
        # The first deal deals every seat in, and a starter may be drawn after any deal.
        return min(rounds * (sum(plan.hands) + plan.stock + 1), _INT_MAX)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CucumberObserver:
        """The observer of an `IIGObservationType` (OpenSpiel's default observation when None).

        Every combination OpenSpiel defines is offered: perfect recall or not; public information
        or not; private information of no seat, of the observing seat, or of every seat. See
        `CucumberObserver`.

        Raises:
            ValueError: For observation parameters (the games take none).
        """
        if isinstance(iig_obs_type, Mapping):  # pyspiel calls make_py_observer(params) without a type
            iig_obs_type, params = None, iig_obs_type
        return CucumberObserver(self, iig_obs_type, params)

    def _observer(self, perfect_recall: bool) -> CucumberObserver:
        """The game's own observation (perfect recall: information state) observer, made once."""
        key = (perfect_recall, True, "single")
        found = self._observers.get(key)
        if found is None:
            kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
            found = self._observers[key] = CucumberObserver(self, kind, None)
        return found


class _PlayerAction(NamedTuple):
    """An entry of `CucumberState.full_history()`: who acted (`PlayerId.CHANCE` for chance) and the id."""

    player: int
    action: int


@attrs.frozen(weakref_slot=False)
class _Record(Value):
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
        return (_replayed, (marks[1], marks[2], tuple(self.actions())))


_new_record = builder(_Record)


def _recorded(record: _Record, player: int, action: int, state: State, dealing: Dealing | None) -> _Record:
    """The record after one more action, which led to `state` (and `dealing`)."""
    head = record.head
    depth = 0 if head is None else head[2] + 1
    marks = record.marks
    if dealing is not None and not dealing.drawn:  # a deal begins: a state to replay from
        marks = (depth + 1, state, dealing, marks)
    return _new_record((player, action, depth, head), marks)


def _replayed(state: State, dealing: Dealing | None, actions: tuple[tuple[int, int], ...]) -> _Record:
    record = _new_record(None, (0, state, dealing, None))
    for player, action in actions:
        state, dealing = _advance(state, dealing, action)
        record = _recorded(record, player, action, state, dealing)
    return record


def _action_of(state: State, seat: int, action: int) -> Action:
    """The legal move of `seat` with id `action` (the very object `legal_moves` lists), else its action."""
    e = _encoding(state.match.rules)
    ids = e.ids
    for move in legal_moves(state):
        if (
            ids[move.card.index] if type(move) is Play else encoding.action_id(state.match.rules, move)
        ) == action:
            return move
    return encoding.action_of(state.match.rules, seat, action)  # apply will say why it is not legal


def _advance(state: State, dealing: Dealing | None, action: int) -> tuple[State, Dealing | None]:
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
        state = apply(state, _action_of(state, to_act, action))
    return state, (Dealing.start(state) if state.to_act == CHANCE else None)


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


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

    def __init__(self, game: CucumberGame) -> None:
        super().__init__(game)
        # Immutable values only: OpenSpiel's clone deep-copies these attributes, and a refused action
        # must leave them as they were (every change is worked out first, then assigned).
        self._state: State = game._start
        self._dealing: Dealing | None = game._dealing
        self._record: _Record = game._record

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

    def _legal_actions(self, player: int) -> list[int]:
        s = self._state
        if player != s.to_act:
            return []
        rules = s.match.rules
        moves = legal_moves(s)
        try:
            ids = _encoding(rules).ids
            found = [ids[m.card.index] for m in moves]  # type: ignore[union-attr]
        except AttributeError:  # a decision among them (revival)
            found = [encoding.action_id(rules, m) for m in moves]
        found.sort()
        return found

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
        moves = legal_moves(s)
        try:
            ids = _encoding(s.match.rules).ids
            found = [ids[m.card.index] for m in moves]  # type: ignore[union-attr]
        except AttributeError:  # a decision among them (revival)
            found = [encoding.action_id(s.match.rules, m) for m in moves]
        found.sort()
        return found

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
        state, dealing = _advance(before, self._dealing, action)
        to_act: int = before.to_act  # type: ignore[assignment]
        self._record = _recorded(
            self._record, _CHANCE if to_act == CHANCE else to_act, action, state, dealing
        )
        self._state, self._dealing = state, dealing

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
            state, dealing = _advance(state, dealing, earlier)
        self._state, self._dealing = state, dealing
        self._record = _new_record(head[3], marks)

    def history(self) -> list[int]:
        """Every action id applied since the start, chance outcomes included, oldest first."""
        return [action for _, action in self._record.actions()]

    def full_history(self) -> list[_PlayerAction]:
        """Every action applied since the start, with who took it (`.player`, `.action`)."""
        return [_PlayerAction(player, action) for player, action in self._record.actions()]

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
        game: CucumberGame = self.get_game()
        return game._observer(False).values(self, self._checked_player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The player's information state (default: the player to act): see `CucumberObserver`.

        Raises:
            ValueError: For a game whose matches have no useful bound on rounds (see
                `HISTORY_TENSOR_LIMIT`), or a player out of range.
        """
        game: CucumberGame = self.get_game()
        return game._observer(True).values(self, self._checked_player(player))

    def observation_string(self, player: int | None = None) -> str:
        """The player's observation in words (default: the player to act)."""
        game: CucumberGame = self.get_game()
        return game._observer(False).string_from(self, self._checked_player(player))

    def information_state_string(self, player: int | None = None) -> str:
        """The player's information state in words (default: the player to act): every event it saw."""
        game: CucumberGame = self.get_game()
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


@attrs.frozen
class _HistoryLayout(Value):
    """A match's history in a perfect-recall tensor: R rounds of T tricks, n seats, K card ids."""

    rounds: int
    tricks: int
    seats: int
    cards: int
    decisions: int
    """Decision ids (the ladder games with revival: 2)."""
    reveals: bool
    """Whether the game turns up stock cards (Surprise Cucumber): a `revealed` part."""

    @classmethod
    def of(cls, rules: Rules, players: int) -> _HistoryLayout | None:
        """The layout, or None where it is unbounded or longer than `HISTORY_TENSOR_LIMIT`."""
        rounds = _rounds_bound(rules, players)
        if rounds is None:
            return None
        e = _encoding(rules)
        parts = dict(encoding.observation_parts(rules, players))
        reveals = "revealed" in parts and bool(rules.options().get("surprise", True))
        found = cls(rounds, rules.cards_per_player(players), players, len(e.cards), e.decisions, reveals)
        if sum(math.prod(shape) for _, shape in found.parts(private="all")) > HISTORY_TENSOR_LIMIT:
            return None
        return found

    def parts(self, *, public: bool = True, private: str = "single") -> list[tuple[str, tuple[int, ...]]]:
        """The perfect-recall parts: each round's dealt cards (private), then its public events."""
        r, t, n, k = self.rounds, self.tricks, self.seats, self.cards
        out: list[tuple[str, tuple[int, ...]]] = []
        if private == "single":
            out.append(("dealt", (r, k)))
        elif private == "all":
            out.append(("dealt", (r, n, k)))
        if public:
            out += [("leaders", (r, t, n)), ("plays", (r, t, n, k))]
            if self.reveals:
                out.append(("turned_up", (r, t, k)))
            if self.decisions:
                out.append(("decisions", (r, n, self.decisions)))
        return out


_PRIVATE = {
    pyspiel.PrivateInfoType.NONE: "none",
    pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
    pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
}


class CucumberObserver:
    """OpenSpiel's observer (its PyObserver interface) of one `IIGObservationType`: tensors and strings.

    The three choices OpenSpiel defines, in every combination:

    - **public information**: what every seat sees. Without perfect recall, the compact observation
      (`encoding.observation`) of the seat's view without its `hand` part, from a spectator's view
      with seats counted from the observing player; with perfect recall, every public event of the
      match so far as well (below).
    - **private information** of no seat, of the observing seat (its `hand`; with perfect recall,
      the cards each deal gave it) or of every seat (`hands`, one row per relative seat; with
      perfect recall, every deal's hands). Cards that reach no seat (the undealt cards and the
      stock's unturned cards) are in none of them.
    - **perfect recall** (the information state): the whole match as the player saw it, every
      round up to the rules' bound: for each round, the cards dealt (`dealt`), each trick's leader
      (`leaders`) and each relative seat's card in it (`plays`), the cards turned up for the
      tricks (`turned_up`, Surprise Cucumber) and the decisions taken (`decisions`, revival),
      after the compact observation. The strings list the events (`public_history`). A game whose
      rounds have no useful bound offers the strings only (see `HISTORY_TENSOR_LIMIT`).

    The default observation (`observation_tensor`) is public information and the player's own,
    without perfect recall; the information state adds perfect recall.

    Example:
        >>> from open_spiel.python.observation import make_observation
        >>> game = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2, "fixed_rounds": 2})
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> observer = make_observation(game)
        >>> observer.string_from(state, 0)
        'seat 0 · round 1 · totals [0, 0] · hand 2C 2D · trick - · seen -'
        >>> public = make_observation(game, pyspiel.IIGObservationType(
        ...     perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
        >>> public.string_from(state, 0)
        'public · round 1 dealt 2 2'
        >>> list(public.dict)[-4:]
        ['sitting_out', 'pending', 'leaders', 'plays']
    """

    def __init__(self, game: CucumberGame, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"the cucumber games take no observation parameters, not {dict(params)}")
        rules, n = game.rules, game.players
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.rules = rules
        self.players = n
        self.perfect_recall: bool = bool(iig_obs_type.perfect_recall)
        """Whether the observation is the whole match so far (the information state)."""
        self.public_info: bool = bool(iig_obs_type.public_info)
        """Whether public information is observed."""
        self.private_info: str = _PRIVATE[iig_obs_type.private_info]
        """Whose private information is observed: `"none"`, `"single"` (the player's) or `"all"`."""
        k = len(_encoding(rules).cards)
        compact = list(encoding.observation_parts(rules, n))
        parts: list[tuple[str, tuple[int, ...]]] = []
        if self.public_info:
            parts += [
                (name, (size,)) for name, size in compact if self.private_info == "single" or name != "hand"
            ]
        elif self.private_info == "single":
            parts.append(("hand", (k,)))
        if self.private_info == "all":
            parts.append(("hands", (n, k)))
        self._compact = sum(math.prod(shape) for _, shape in parts)
        history = game._history_layout
        if self.perfect_recall and history is not None:
            parts += history.parts(public=self.public_info, private=self.private_info)
        if self.perfect_recall and history is None:
            self._history: _HistoryLayout | None = None
            self.tensor: np.ndarray[Any, Any] | None = None
            """The flat tensor `set_from` fills (None: strings only, see `HISTORY_TENSOR_LIMIT`)."""
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
            """Named views into `tensor`, by part."""
            self._offsets: dict[str, int] = {}
            self._size = 0
            return
        self._history = history if self.perfect_recall else None
        self._size = sum(math.prod(shape) for _, shape in parts)
        self.tensor = np.zeros(self._size, np.float32)
        self.dict = {}
        self._offsets = {}
        at = 0
        for name, shape in parts:
            size = math.prod(shape)
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            self._offsets[name] = at
            at += size

    # ----------------------------------------------------------------- values

    def values(self, state: CucumberState, player: int) -> list[float]:
        """The tensor `set_from(state, player)` fills, as a new list of floats.

        Raises:
            ValueError: Where the observer has no tensor (see `HISTORY_TENSOR_LIMIT`).
        """
        if self.tensor is None:
            raise ValueError(
                f"{state.get_game()} has no perfect-recall tensor: its matches may run to "
                f"{_rounds_bound(self.rules, self.players) or 'an unknown number of'} rounds; set "
                "round_limit or fixed_rounds (or use the information state string)"
            )
        head, ones = self._entries(state._state, player)
        out = head + [0.0] * (self._size - len(head))
        for i, value in ones.items():
            out[i] = value
        return out

    def set_from(self, state: CucumberState, player: int) -> None:
        """Fill `tensor` with what `player` observes in `state`."""
        if self.tensor is None:
            self.values(state, player)  # raises
            return
        head, ones = self._entries(state._state, player)
        tensor = self.tensor
        tensor[: len(head)] = head
        tensor[len(head) :] = 0.0
        if ones:
            tensor[list(ones)] = list(ones.values())

    def _entries(self, s: State, player: int) -> tuple[list[float], dict[int, float]]:
        """The compact part as a list, and the perfect-recall part's nonzero entries by position."""
        n = self.players
        e = _encoding(self.rules)
        head: list[float] = []
        if self.public_info:
            if self.private_info == "single":
                head = list(encoding.observation(view(s, player)))
            else:
                head = list(encoding.observation(attrs.evolve(view(s, None), seat=player)))
                lo, k = self._relative_hand_span()
                del head[lo : lo + k]
        elif self.private_info == "single":
            head = [0.0] * len(e.cards)
            for c in view(s, player).hand:
                head[e.ids[c.index]] += 1.0
        if self.private_info == "all":
            k = len(e.cards)
            hands = [0.0] * (n * k)
            for seat, hand in enumerate(s.hands):
                base = (seat - player) % n * k
                for c in hand:
                    hands[base + e.ids[c.index]] += 1.0
            head += hands
        ones: dict[int, float] = {}
        if self._history is not None:
            self._history_entries(s, player, ones)
        return head, ones

    def _relative_hand_span(self) -> tuple[int, int]:
        at = 0
        for name, size in encoding.observation_parts(self.rules, self.players):
            if name == "hand":
                return at, size
            at += size
        raise AssertionError("every observation has a hand part")  # pragma: no cover

    def _history_entries(self, s: State, player: int, ones: dict[int, float]) -> None:
        layout = self._history
        assert layout is not None
        rules = self.rules
        e = _encoding(rules)
        ids, k, n, t_max = e.ids, len(e.cards), self.players, layout.tricks
        offsets = self._offsets
        events = public_history(s, player if self.private_info == "single" else None)
        r = -1
        played = 0
        per_trick = 1
        dealt = offsets.get("dealt")
        if self.private_info == "all" and dealt is not None:
            deals = [a for a in s.actions if type(a) is Deal]
            for round_, deal in enumerate(deals):
                for seat, hand in enumerate(deal.hands):
                    base = dealt + (round_ * n + (seat - player) % n) * k
                    for c in hand:
                        ones[base + ids[c.index]] = ones.get(base + ids[c.index], 0.0) + 1.0
        if not self.public_info and self.private_info != "single":
            return
        single = self.private_info == "single" and dealt is not None
        public = self.public_info
        leaders = offsets.get("leaders", 0)
        plays = offsets.get("plays", 0)
        turned_up = offsets.get("turned_up")
        for event in events:
            kind = type(event)
            if kind is Play:  # the most frequent event first
                if not public:
                    continue
                trick = played // per_trick
                seat = (event.seat - player) % n  # type: ignore[union-attr]
                if played % per_trick == 0:
                    ones[leaders + (r * t_max + trick) * n + seat] = 1.0
                ones[plays + ((r * t_max + trick) * n + seat) * k + ids[event.card.index]] = 1.0  # type: ignore[union-attr]
                played += 1
            elif kind is Dealt:
                r += 1
                played = 0
                per_trick = sum(1 for size in event.sizes if size) or 1  # type: ignore[union-attr,misc]
                if single:
                    base = dealt + r * k  # type: ignore[operator]
                    for c in event.hand:  # type: ignore[union-attr]
                        ones[base + ids[c.index]] = ones.get(base + ids[c.index], 0.0) + 1.0
            elif not public:
                continue
            elif isinstance(event, Decision):
                number = encoding.action_id(rules, event) - k
                seat = (event.seat - player) % n
                ones[offsets["decisions"] + (r * n + seat) * layout.decisions + number] = 1.0
            elif turned_up is not None and isinstance(card := getattr(event, "card", None), Card):
                ones[turned_up + (r * t_max + played // per_trick) * k + ids[card.index]] = 1.0
            else:
                raise ValueError(
                    f"perfect-recall tensors encode deals, plays, decisions and turned-up cards, "
                    f"not {kind.__name__} events: use the information state string"
                )

    # ----------------------------------------------------------------- strings

    def string_from(self, state: CucumberState, player: int) -> str:
        """What `player` observes in `state`, in words."""
        s = state._state
        if self.perfect_recall:
            return self._history_string(s, player)
        parts: list[str] = []
        if self.public_info:
            seat_view = view(s, player if self.private_info == "single" else None)
            label = f"seat {player}" if self.private_info == "single" else "public"
            parts += [label, f"round {seat_view.round_number}", f"totals {list(seat_view.totals)}"]
            if self.private_info == "single":
                parts.append("hand " + (" ".join(str(c) for c in seat_view.hand) or "-"))
            parts.append("trick " + (" ".join(f"{p.seat}:{p.card}" for p in seat_view.trick) or "-"))
            seen = " ".join(str(p.card) for t in seat_view.tricks for p in t.plays)
            parts.append(f"seen {seen or '-'}")
            extra = game_of(s).words.describe_table(seat_view)
            if extra:
                parts.append(extra)
        elif self.private_info == "single":
            parts.append("hand " + (" ".join(str(c) for c in view(s, player).hand) or "-"))
        if self.private_info == "all":
            parts.append("hands " + " | ".join(" ".join(str(c) for c in h) or "-" for h in s.hands))
        return " · ".join(parts)

    def _history_string(self, s: State, player: int) -> str:
        single = self.private_info == "single"
        words: list[str] = [f"seat {player}" if single else "public" if self.public_info else "private"]
        deals = iter([a for a in s.actions if type(a) is Deal]) if self.private_info == "all" else None
        number = 0
        for event in public_history(s, player if single else None):
            if type(event) is Dealt:
                number += 1
                text = f"round {number}"
                if self.public_info:
                    text += " dealt " + " ".join(str(size) for size in event.sizes)
                if single:
                    text += " hand " + (" ".join(str(c) for c in event.hand) or "-")
                if deals is not None:
                    hands = next(deals).hands
                    text += " hands " + " | ".join(" ".join(str(c) for c in h) or "-" for h in hands)
                if event.leader is not None and self.public_info:
                    text += f" starter {event.leader}"
                words.append(text)
            elif self.public_info:
                words.append(_event(event))
        return " · ".join(words) if self.public_info or self.private_info != "none" else ""


def _last_deal(actions: tuple[Action, ...]) -> int:
    return max((i for i, a in enumerate(actions) if type(a) is Deal), default=len(actions))


def _match_over(state: State, action: object) -> IllegalMoveError:
    winners = ", ".join(f"seat {w}" for w in state.match.winners)
    return IllegalMoveError(
        "game-over", f"the match is over (won by {winners}); no action is possible, not {action}"
    )


def _event(event: object) -> str:
    if isinstance(event, Dealt):
        return "dealt " + " ".join(str(n) for n in event.sizes)
    card = getattr(event, "card", None)
    if not isinstance(event, Play) and card is not None:
        return f"{type(event).__name__.lower()} {card}"
    return str(event)


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python information-set MCTS bot (`open_spiel.python.algorithms.ismcts.ISMCTSBot`), with
    `restart_at`.

    OpenSpiel's own class lacks `restart_at`, which `open_spiel.python.algorithms.evaluate_bots`
    calls at the start of every match (pyspiel then fails with "RestartAt(state) not implemented").
    This subclass takes the same arguments and starts a fresh search tree there; its search
    builds a new tree at every step anyway. Resampling goes through
    `CucumberState.resample_from_infostate`.

    Example:
        >>> import numpy as np
        >>> from open_spiel.python.algorithms import evaluate_bots, mcts
        >>> game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hands": 1, "hand_size": 3})
        >>> rs = np.random.RandomState(0)
        >>> bots = [ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.5, 10, random_state=rs)] * 3
        >>> sum(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs))
        1.0
    """

    def restart_at(self, state: Any) -> None:
        """Start afresh at `state` (the tree of the last search is dropped)."""
        self.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to follow: every step searches from the state it is given."""


#: The registered OpenSpiel game types, by preset.
_TYPES: dict[str, pyspiel.GameType] = {}


def register(preset: str) -> str:
    """Register a preset with OpenSpiel (once) and return its game name.

    Importing this module registers every preset of every registered game;
    call it for a preset registered later.

    Example:
        >>> register("agurk")
        'cucumber_agurk'
    """
    name = game_name(preset)
    if preset not in _TYPES:
        rules = ruleset(preset)
        cls_name = f"CucumberGame_{preset.replace('-', '_')}"
        cls = type(cls_name, (CucumberGame,), {"preset": preset, "__module__": __name__})
        globals()[cls_name] = cls  # pickle finds the class by name
        tensor = _HistoryLayout.of(rules, _default_players(rules)) is not None
        _TYPES[preset] = _game_type(preset, rules, information_tensor=tensor)
        pyspiel.register_game(_TYPES[preset], cls)
    return name


def _register_all() -> tuple[str, ...]:
    from .rules import RULESETS

    return tuple(register(preset) for preset in RULESETS)


GAME_NAMES: tuple[str, ...] = _register_all()
"""The OpenSpiel names registered on import.

Example:
    >>> GAME_NAMES[:2]
    ('cucumber_agurk', 'cucumber_gurka')
"""
