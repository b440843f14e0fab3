"""The OpenSpiel game of a preset (`CucumberGame`), its registration with `pyspiel`, and `load_game`."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import pyspiel

from .. import encoding
from ..encoding import Dealing
from ..encoding.hooks import action_table as _encoding
from ..engine import new_game
from ..errors import InvalidRulesError
from ..outcomes import max_actions
from ..rules import Rules, ruleset
from .history import new_record
from .observers import CucumberObserver, HistoryLayout
from .params import INT_MAX, default_players, game_name, max_decisions, parameters, rounds_bound, rules_of
from .state import CucumberState, new_moves


def load_game(game: str, params: Mapping[str, Any] | None = None) -> CucumberGame:
    """`pyspiel.load_game`, the parameters checked here first: a bad one is an `InvalidRulesError`.

    `pyspiel.load_game(name, params)` turns the parameters into C++ values before the game sees
    them: an integer beyond 32 bits fails there with pybind11's `RuntimeError` (and in a game
    string, with a `SpielError`). This function checks them as `rules_of` does, then loads.

    Args:
        game: A game name (`"cucumber_agurk"`) or a preset (`"agurk"`, `"five-cucumbers"`).
        params: The game's parameters (see `cucumber_rules.openspiel`); a table such as `cucumbers`
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
        self._record = new_record(None, (0, self._start, self._dealing, None))
        self._no_moves = new_moves(None, (), (), _encoding(rules).ids)
        self._observers: dict[tuple[bool, bool, str], CucumberObserver] = {}
        self.history_layout = HistoryLayout.of(rules, players)
        """The information-state tensor's layout (None: the matches have no useful bound on rounds)."""
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(rules),
            max_chance_outcomes=encoding.num_chance_outcomes(rules),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_decisions(rules, players),
        )
        tensor = self.history_layout is not None
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
        rounds = rounds_bound(self.rules, self.players)
        if rounds is None:  # a game whose bound on rounds is not known here: a deal per action at most
            return min(max_actions(self.rules, self.players) * (len(plan.deck) + 1), INT_MAX)
        # The first deal deals every seat in, and a starter may be drawn after any deal.
        return min(rounds * (sum(plan.hands) + plan.stock + 1), INT_MAX)

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


#: The package, where each preset's game class lives (`cucumber_rules.openspiel.CucumberGame_agurk`).
_PACKAGE = __name__.rpartition(".")[0]

#: The registered OpenSpiel game types, by preset.
_TYPES: dict[str, pyspiel.GameType] = {}


def register(preset: str) -> str:
    """Register a preset with OpenSpiel (once) and return its game name.

    Importing `cucumber_rules.openspiel` registers every preset of every registered game;
    call it for a preset registered later.

    Example:
        >>> register("agurk")
        'cucumber_agurk'
    """
    name = game_name(preset)
    if preset not in _TYPES:
        rules = ruleset(preset)
        cls_name = f"CucumberGame_{preset.replace('-', '_')}"
        cls = type(cls_name, (CucumberGame,), {"preset": preset, "__module__": _PACKAGE})
        setattr(sys.modules[_PACKAGE], cls_name, cls)  # pickle finds the class by name, in the package
        tensor = HistoryLayout.of(rules, default_players(rules)) is not None
        _TYPES[preset] = _game_type(preset, rules, information_tensor=tensor)
        pyspiel.register_game(_TYPES[preset], cls)
    return name


def register_all() -> tuple[str, ...]:
    from ..rules import RULESETS

    return tuple(register(preset) for preset in RULESETS)
