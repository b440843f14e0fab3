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

import operator
import random
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from . import encoding
from .actions import Action, Deal, Play
from .engine import apply, legal_moves, new_game
from .errors import IllegalMoveError, InvalidRulesError
from .outcomes import max_actions, returns
from .rules import OPTIONS, Rules, ruleset
from .sampling import sample_world
from .state import CHANCE, State
from .views import Dealt, view

__all__ = [
    "GAME_NAMES",
    "CucumberGame",
    "CucumberObserver",
    "CucumberState",
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


def _game_type(preset: str, rules: Rules) -> pyspiel.GameType:
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
        provides_information_state_tensor=True,
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
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(rules),
            max_chance_outcomes=encoding.num_chance_outcomes(rules),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_actions(rules, players),
        )
        super().__init__(_TYPES[self.preset], info, given)

    def new_initial_state(self) -> CucumberState:
        """A match before its first deal."""
        return CucumberState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CucumberObserver:
        """The observer OpenSpiel asks for its tensors and strings (information state when perfect recall)."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CucumberObserver(self.rules, self.players, perfect_recall=perfect, params=params)


class CucumberState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: the library's `State` plus the chance outcomes drawn so far of a deal.

    Example:
        >>> state = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2}).new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> str(state)
        'round 1 · totals [0, 0] · hands 2C 2D | 2H 2S · trick - · seat 0 to act'
        >>> state.cucumber_state.to_act, state.cucumber_state.hands[1]
        (0, (card('2H'), card('2S')))
    """

    def __init__(self, game: CucumberGame) -> None:
        super().__init__(game)
        # Immutable values only: OpenSpiel's clone deep-copies these attributes, and a refused action
        # must leave them as they were (every change is worked out first, then assigned).
        self._state: State = new_game(game.rules, game.players)
        self._drawn: tuple[int, ...] = ()

    @property
    def cucumber_state(self) -> State:
        """The library's state (between deals; a deal being drawn card by card is in `drawn`)."""
        return self._state

    @property
    def drawn(self) -> tuple[int, ...]:
        """The chance outcomes drawn so far of the deal in progress."""
        return self._drawn

    def current_player(self) -> int:
        """The seat to act, `pyspiel.PlayerId.CHANCE` while dealing, `TERMINAL` once over."""
        to_act = self.cucumber_state.to_act
        if to_act is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if to_act == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        s = self.cucumber_state
        if player != s.to_act:
            return []
        rules = s.match.rules
        return sorted(encoding.action_id(rules, a) for a in legal_moves(s))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card (or starter) of the deal, with its probability."""
        return list(encoding.chance_outcomes(self.cucumber_state, self.drawn))

    def _apply_action(self, action: int) -> None:
        # Everything is checked before anything changes: a refused action raises and leaves the
        # state (and OpenSpiel's history, which it extends only after this returns) as it was.
        s = self._state
        to_act = s.to_act
        if to_act is None:
            raise _match_over(s, action)
        if to_act == CHANCE:
            drawn = (*self._drawn, action)
            deal = encoding.chance_deal(s, drawn)  # checks every outcome drawn so far
            if deal is None:
                self._drawn = drawn
            else:
                self._state, self._drawn = apply(s, deal), ()
            return
        self._state = apply(s, encoding.action_of(s.match.rules, to_act, action))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CucumberState:
        """A state that `player_id` cannot tell from this one: the hidden cards drawn anew.

        OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts`) calls it. The
        other hands (and the stock) are drawn with [`sample_world`][cucumber_rules.sample_world]
        from the seat's view, seeded by two draws of `probability_sampler` (a callable that returns
        a float in [0, 1), such as `pyspiel.UniformProbabilitySampler(0., 1.)`). The new state is
        reached from the start by its own history (`history()`, `move_number()`), deals card by card
        included, as if it had been played.

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
        if self._drawn:
            raise ValueError("cannot resample in the middle of a deal being drawn: finish the deal first")
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        world = sample_world(view(self._state, player_id), random.Random(seed))
        # The earlier rounds stay as they were played: the seat remembers them (its information state
        # is perfect recall), and every card their deals drew was played in the open. The round in
        # play, which the view covers, is the sampled world's.
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
        rules = self.cucumber_state.match.rules
        k = len(rules._game.action_cards(rules))
        if player == pyspiel.PlayerId.CHANCE:
            if action >= k:
                return f"seat {action - k} starts"
            return f"deal {rules._game.action_cards(rules)[action]}"
        return str(encoding.action_of(rules, player, action))

    def is_terminal(self) -> bool:
        """True once the match is over."""
        return self.cucumber_state.is_over

    def returns(self) -> list[float]:
        """`cucumber_rules.returns`: the winners share 1.0 at the end; 0.0 before."""
        return list(returns(self.cucumber_state))

    def __str__(self) -> str:
        s = self.cucumber_state
        m = s.match
        parts = [f"round {m.rounds + (0 if s.to_act == CHANCE else 1)}", f"totals {list(m.totals)}"]
        if s.to_act == CHANCE and self.drawn:
            rules = m.rules
            cards = rules._game.action_cards(rules)
            parts.append(
                "dealing " + " ".join(str(cards[i]) if i < len(cards) else f"#{i}" for i in self.drawn)
            )
        elif s.table is not None and not s.is_over:
            hands = " | ".join(" ".join(str(c) for c in h) or "-" for h in s.hands)
            parts.append(f"hands {hands}")
            parts.append("trick " + (" ".join(str(p.card) for p in s.trick) or "-"))
        parts.append("over" if s.is_over else "chance" if s.to_act == CHANCE else f"seat {s.to_act} to act")
        return " · ".join(parts)


class CucumberObserver:
    """OpenSpiel's observer (its PyObserver interface): tensors and strings of a player's view.

    Example:
        >>> game = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2})
        >>> observer, state = game.make_py_observer(), game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> observer.string_from(state, 0)
        'seat 0 · round 1 · totals [0, 0] · hand 2C 2D · trick - · seen -'
    """

    def __init__(
        self, rules: Rules, players: int, *, perfect_recall: bool, params: Mapping[str, Any] | None = None
    ) -> None:
        if params:
            raise ValueError(f"the cucumber games take no observation parameters, not {dict(params)}")
        self.rules = rules
        self.players = players
        self.perfect_recall = perfect_recall
        k = len(rules._game.action_cards(rules))
        self.tricks = rules.cards_per_player(players)
        parts = list(encoding.observation_parts(rules, players))
        if perfect_recall:
            parts += [("trick_leaders", self.tricks * players), ("trick_cards", self.tricks * players * k)]
        self.size = sum(size for _, size in parts)
        self.tensor = np.zeros(self.size, np.float32)
        """The flat tensor `set_from` fills."""
        self.dict: dict[str, Any] = {}
        """Named views into `tensor`, by part (`observation_parts`, then the tricks)."""
        at = 0
        for name, size in parts:
            piece = self.tensor[at : at + size]
            if name == "trick":
                piece = piece.reshape(players, k)
            elif name == "trick_leaders":
                piece = piece.reshape(self.tricks, players)
            elif name == "trick_cards":
                piece = piece.reshape(self.tricks, players, k)
            self.dict[name] = piece
            at += size

    def set_from(self, state: CucumberState, player: int) -> None:
        """Fill `tensor` with what `player` knows in `state`."""
        v = view(state.cucumber_state, player)
        obs = encoding.observation(v)
        n = len(obs)
        self.tensor[:n] = obs
        if self.perfect_recall:
            self.tensor[n:] = 0.0
            leaders = self.dict["trick_leaders"]
            cards = self.dict["trick_cards"]
            ids = self.rules._game.action_cards(self.rules)
            index = {c: i for i, c in enumerate(ids)}
            for t, trick in enumerate(v.tricks[: self.tricks]):
                leaders[t, (trick.leader - player) % self.players] = 1.0
                for p in trick.plays:
                    cards[t, (p.seat - player) % self.players, index[p.card]] = 1.0

    def string_from(self, state: CucumberState, player: int) -> str:
        """What `player` knows in `state`, in words."""
        v = view(state.cucumber_state, player)
        head = f"seat {player} · round {v.round_number} · totals {list(v.totals)}"
        hand = "hand " + (" ".join(str(c) for c in v.hand) or "-")
        if self.perfect_recall:
            events = " ; ".join(_event(e) for e in v.events)
            return f"{head} · {hand} · {events}"
        trick = "trick " + (" ".join(f"{p.seat}:{p.card}" for p in v.trick) or "-")
        seen = " ".join(str(p.card) for t in v.tricks for p in t.plays)
        extra = state.cucumber_state.game.describe_table(v)
        return " · ".join(x for x in (head, hand, trick, f"seen {seen or '-'}", extra) if x)


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
        _TYPES[preset] = _game_type(preset, rules)
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
