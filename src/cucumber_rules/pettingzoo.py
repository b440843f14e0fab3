"""A PettingZoo AEC environment for every preset (extra `[pettingzoo]`), in the manner of its classic games.

`env("agurk", players=4)` makes the environment (with PettingZoo's order checks); `raw_env` is the
bare class. Options go by keyword, as in `ruleset`: `env("gurka", players=3, threshold=21)`.

- **Agents** are `"player_0"` .. `"player_{n-1}"`, seat for seat. Only the seat to act is
  selected; deals happen inside the environment with a `random.Random` seeded by
  `reset(seed=...)` (any integer), so a seed replays a match exactly.
- **Actions** are `cucumber_rules.encoding` ids: `Discrete(num_actions(rules))`.
- **Observations** are dicts, as in PettingZoo's classic games: `"observation"`, a `Box` of
  `observation_size(rules, players)` float32 values (`encoding.observation` of the agent's
  view, seats relative to the agent, within `encoding.observation_bounds`), and
  `"action_mask"`, an int8 `Box` with a 1 for each legal id (all 0 for an agent whose turn it
  is not, and once the match is over).
- **The action mask is in `infos` too**: `infos[agent]["action_mask"]` holds the observation's
  mask, where PettingZoo's masking loop looks first (as Shimmy's OpenSpiel environments have it).
  A loop that needs only the mask (random or search rollouts) can call `last(observe=False)` and
  skip making the observation, which is most of a step's cost. The info's mask is read-only (the
  environment's own, shared by the agents' infos); an observation's arrays are the caller's own,
  made for each `observe`, so editing one changes nothing else.
- **An illegal action** ends the match for everyone (every agent terminated), the offender
  rewarded `illegal_reward` (default -1) and the others 0, as PettingZoo's
  `TerminateIllegalWrapper` and classic games do; `infos[offender]["illegal_action"]` holds the
  id. With `strict=True` it raises `IllegalMoveError` instead and nothing changes. An action
  that is not an integer (or None for a live agent) always raises.
- **Rewards** come once, at the end: `cucumber_rules.returns` (the winners share 1.0). Then
  every agent is terminated.
- **Truncation**: with `max_cycles=k`, every agent is truncated (rewards 0) after k cycles,
  a cycle being as many decisions as there are agents; by default matches run to their end
  (they always end: see `cucumber_rules.max_actions`).
- **Setting a state**: `reset(options={"state": state})` plays on from a library `State` of the
  environment's rules and player count (a saved match from `cr.loads`, a rigged deal, a position a
  search reached); another one is refused with a `ValueError` saying what differs. The environment
  then is as if it had played to that state: the seat to act selected, its mask in the observation
  and the info, rewards 0 (or, for a finished match, the `returns`). `env.unwrapped.cucumber_state`
  gives the state back.
- **State**: `state()` is the whole table for a centralised critic, in `state_space`: the public
  observation counted from seat 0 (everything but the hand) and every seat's hand.
- **Rendering**: `render_mode="ansi"` makes `render()` return a line of text; `"human"` prints
  it after every step (and on `render()`), as Gymnasium's human mode does.
- **Parallel API**: not offered. PettingZoo's `aec_to_parallel` needs an environment in which
  every live agent acts at each step; here one seat acts at a time, in an order the play
  decides (as in PettingZoo's classic games, none of which is parallelizable).

Example:
    >>> from cucumber_rules.pettingzoo import env
    >>> e = env("gurka", players=2, hand_size=2, fixed_rounds=1)
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, done, truncated, info = e.last()
    ...     e.step(None if done or truncated else e.action_space(agent).sample(obs["action_mask"]))
    >>> sorted(e.rewards) == [] and e.unwrapped.cucumber_state.is_over
    True
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import encoding
from .actions import Action, Play, seat_number
from .encoding.hooks import action_table as _encoding
from .engine import apply, check, legal_moves, new_game, sample_chance
from .outcomes import returns
from .rules import Rules, game_of, ruleset
from .state import CHANCE, State
from .views import PlayerView, view

__all__ = ["env", "raw_env"]

_RENDER_MODES = ("human", "ansi")


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment of a preset (see the module docstring).

    Args:
        preset: A preset name or alias (`"agurk"`, `"catastrophe"`, ...), or a `Rules`.
        players: The player count (default: 4, or the nearest count the preset allows).
        render_mode: None, `"ansi"` (`render()` returns text) or `"human"` (a line printed at each step).
        strict: Raise `IllegalMoveError` for an illegal action instead of ending the match.
        illegal_reward: The offender's reward when an illegal action ends the match.
        max_cycles: Truncate every agent after this many cycles (None: never).
        **options: Option overrides, as for `ruleset`.

    Example:
        >>> e = raw_env("catastrophe", players=3)
        >>> e.reset(seed=0)
        >>> space = e.observation_space("player_0")
        >>> e.agent_selection, int(e.action_space("player_0").n), space["observation"].shape
        ('player_0', 60, (380,))
        >>> int(e.observe("player_0")["action_mask"].sum())  # its 10 cards, but a 5-cucumber card
        9
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "render_modes": list(_RENDER_MODES),
        "name": "cucumber_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str | Rules = "agurk",
        players: int | None = None,
        render_mode: str | None = None,
        *,
        strict: bool = False,
        illegal_reward: float = -1.0,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        rules = preset if isinstance(preset, Rules) else ruleset(preset, **options)
        if isinstance(preset, Rules) and options:
            rules = rules.replace(**options)
        if players is None:
            players = min(max(4, rules.min_players), rules.max_players)
        if render_mode not in (None, *_RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if type(strict) is not bool:
            raise TypeError(f"strict must be True or False, not {strict!r}")
        if max_cycles is not None:
            max_cycles = seat_number(max_cycles, "max_cycles must be an int or None")
            if max_cycles < 1:
                raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        self.rules = rules
        """The rules of the matches."""
        self.render_mode = render_mode
        self.strict = strict
        """Whether an illegal action raises (True) or ends the match with `illegal_reward` (False)."""
        self.illegal_reward = float(illegal_reward)
        """The offender's reward when an illegal action ends the match."""
        self.max_cycles = max_cycles
        """Cycles before every agent is truncated (None: matches run to their end)."""
        start = new_game(rules, players)  # checks the count
        n = len(start.players)
        self.metadata = {**self.metadata, "name": f"cucumber_{rules.name.replace('-', '_')}_v1"}
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._actions = encoding.num_actions(rules)
        self._ids = _encoding(rules).ids
        low, high = encoding.observation_bounds(rules, n)
        observation = spaces.Box(np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32)
        mask = spaces.Box(0, 1, (self._actions,), np.int8)
        box = spaces.Dict({"observation": observation, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, box)
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}
        # state(): the public parts of seat 0's observation (all but its hand), then every hand
        parts = encoding.observation_parts(rules, n)
        at = 0
        for name, size in parts:
            if name == "hand":
                self._hand = (at, at + size)
            at += size
        k = self._hand[1] - self._hand[0]
        keep = [i for i in range(len(low)) if not self._hand[0] <= i < self._hand[1]]
        copies = high[self._hand[0]]
        state_low = np.array([low[i] for i in keep] + [0.0] * (n * k), np.float32)
        state_high = np.array([high[i] for i in keep] + [copies] * (n * k), np.float32)
        self.state_space = spaces.Box(state_low, state_high, dtype=np.float32)
        """The space of `state()`."""
        self._players = n
        self._rng = random.Random(0)
        self._no_mask = _mask(self._actions, ())
        self._mask = self._no_mask
        self._masked: str | None = None  # the agent whose info holds the live mask
        self._moves: dict[int, Action] = {}
        self._steps = 0
        self._state: State = start
        self._observe = game_of(rules).encoding.observe  # (see `_packed_observation`)
        self._packer = struct.Struct(f"={len(low)}f")
        self._reset_dicts()

    @property
    def cucumber_state(self) -> State:
        """The library's state of the match in play (for `cr.view`, `cr.dumps` and the rest)."""
        return self._state

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        no_mask = self._no_mask
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": no_mask} for a in self.agents}
        self._masked = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object every time)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation vector and action mask (all 0 unless it is the agent's turn): new
        arrays, the caller's own."""
        seat = self._seats[agent]
        state = self._state
        packed = _packed_observation(view(state, seat), self._observe, self._packer)
        return {
            "observation": np.frombuffer(bytearray(packed), np.float32),
            "action_mask": (self._mask if seat == state.to_act else self._no_mask).copy(),
        }

    def state(self) -> np.ndarray[Any, Any]:
        """The whole table (in `state_space`): seat 0's public observation and every seat's hand."""
        s = self._state
        spectator = view(s, None)
        public = list(encoding.observation(_seated(spectator, 0)))
        del public[self._hand[0] : self._hand[1]]
        e = _encoding(self.rules)
        k = len(e.cards)
        hands = [0.0] * (self._players * k)
        for seat, hand in enumerate(s.hands):
            for c in hand:
                hands[seat * k + e.ids[c.index]] += 1.0
        return _float32(public + hands)

    def _deal(self) -> None:
        while self._state.to_act == CHANCE:
            self._state = apply(self._state, sample_chance(self._state, self._rng))

    def _update(self) -> None:
        """Select the seat to act, its mask, and at the end hand out the returns."""
        state = self._state
        if state.is_over:
            self._mask, self._moves = self._no_mask, {}
            self._show_mask(None)
            values = returns(state)
            for agent in self.agents:
                self.rewards[agent] = values[self._seats[agent]]
                self.terminations[agent] = True
            self._accumulate_rewards()
            return
        rules = self.rules
        ids = self._ids
        moves = {
            ids[move.card.index] if type(move) is Play else encoding.action_id(rules, move): move
            for move in legal_moves(state)
        }
        self._mask, self._moves = _mask(self._actions, moves), moves
        self.agent_selection = agent = self.possible_agents[state.to_act]  # type: ignore[index]
        self._show_mask(agent)
        if self.max_cycles is not None and self._steps >= self.max_cycles * self._players:
            for agent in self.agents:
                self.truncations[agent] = True

    def _show_mask(self, agent: str | None) -> None:
        """Put the mask in `agent`'s info (None: no one's), and the empty mask back in the info of the
        agent shown it before. Each changed info is a new dict: one handed out earlier never changes."""
        infos = self.infos
        old = self._masked
        if old is not None and old != agent and old in infos:
            infos[old] = {**infos[old], "action_mask": self._no_mask}
        if agent is not None:
            infos[agent] = {**infos[agent], "action_mask": self._mask}
        self._masked = agent

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match and deal; or, with `options={"state": state}`, play on from a library `State`.

        `seed` (any integer, numpy's included) fixes every deal the environment draws from then on.
        A `state` (from `new_game` and `apply`, `cr.loads`, a bot's search, a rigged deal) must be of
        this environment's rules and player count. The environment takes it as it is: a state before a
        deal is dealt at once (with the generator `seed` sets), the seat to act is selected with its
        mask, rewards are 0, and a finished match has every agent terminated with its `returns` as
        rewards. `max_cycles` counts the cycles from this reset.

        Args:
            seed: Seeds the environment's deals (None: keep the generator as it is).
            options: None, or `{"state": state}` (a `State`, or None for a new match); other keys
                are ignored, as PettingZoo's `api_test` expects of an environment.

        Raises:
            TypeError: For a seed that is not an integer, options that are not a dict, or a state
                that is not a `State`.
            ValueError: For a state of other rules or another player count. Nothing changes then.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> state = cr.new_game(cr.ruleset("gurka"), players=3)
            >>> state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
            >>> state = cr.apply(state, cr.legal_moves(state)[0])
            >>> e = env("gurka", players=3)
            >>> e.reset(options={"state": state})
            >>> e.unwrapped.cucumber_state is state, e.agent_selection == f"player_{state.to_act}"
            (True, True)
            >>> e.reset(options={"state": cr.new_game(cr.ruleset("agurk"), players=3)})
            Traceback (most recent call last):
            ...
            ValueError: options["state"] is a match of agurk for 3 players; this environment plays gurka ...
        """
        start = self._start_of(options)  # checked before anything changes
        if seed is not None:
            self._rng = random.Random(seat_number(seed, "seed must be an int or None"))
        self.agents = self.possible_agents[:]
        self._reset_dicts()
        self._steps = 0
        self._state = new_game(self.rules, self._players) if start is None else start
        self.agent_selection = self.possible_agents[0]  # (the seat to act, once there is one)
        self._deal()
        self._update()

    def _start_of(self, options: Any) -> State | None:
        """The state `reset`'s options give (None: a new match), checked against the environment."""
        if options is None:
            return None
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict or None, not {type(options).__name__}")
        state = options.get("state")  # (other keys are ignored: PettingZoo's api_test passes its own)
        if state is None:
            return None
        if not isinstance(state, State):
            raise TypeError(
                f'options["state"] must be a cucumber_rules State (see new_game), not {type(state).__name__}'
            )
        rules, players = state.match.rules, len(state.match.players)
        if rules != self.rules or players != self._players:
            mine, theirs = self.rules.options(), rules.options()
            differ = [name for name in mine if name in theirs and mine[name] != theirs[name]]
            which = ""
            if rules.name == self.rules.name and differ:
                plural = len(differ) > 1
                which = f" (option{'s' if plural else ''} {', '.join(differ)} differ{'' if plural else 's'})"
            raise ValueError(
                f'options["state"] is a match of {rules.name} for {players} players; this environment '
                f"plays {self.rules.name} for {self._players} players{which} (make one with "
                f"env(state.match.rules, players={players}))"
            )
        return state

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (None once it is terminated or truncated).

        Raises:
            TypeError: For an action that is not an integer (or None for a live agent).
            IllegalMoveError: With `strict=True`, for an illegal action (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = action if type(action) is int else seat_number(action, f"{agent}'s action must be an int")
        move = self._moves.get(number)
        if move is not None:
            state = apply(self._state, move)  # worked out before anything changes
        elif self.strict:
            raise _illegal(self._state, self.rules, self._seats[agent], number)
        else:
            self._end_illegally(agent, number)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._state = state
        self._steps += 1
        self._deal()
        self._update()
        if self.render_mode == "human":  # (Gymnasium's convention: a human watches every step)
            self.render()

    def _end_illegally(self, agent: str, number: int) -> None:
        """An illegal action: the match ends, the offender rewarded `illegal_reward`, the others 0."""
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {**self.infos[agent], "illegal_action": number}
        self._mask, self._moves = self._no_mask, {}
        self._show_mask(None)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """A line of text about the match: returned (`"ansi"`), printed (`"human"`), or None."""
        if self.render_mode is None:
            return None
        s = self._state
        m = s.match
        trick = " ".join(f"{p.seat}:{p.card}" for p in s.trick) or "-"
        turn = "over" if s.is_over else f"seat {s.to_act} to act"
        number = m.rounds if s.is_over else m.rounds + 1
        text = f"{m.rules.name} · round {number} · totals {list(m.totals)} · trick {trick} · {turn}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _mask(size: int, ids: Iterable[int]) -> np.ndarray[Any, Any]:
    """An int8 mask of `size` with a 1 at each id, read-only for good: the environment's masks are
    handed out in `infos` and shared, so each lies over immutable `bytes` (numpy refuses to make such
    an array writable again). Filled as a `bytearray`: half the time of numpy's fancy indexing."""
    flags = bytearray(size)
    for i in ids:
        flags[i] = 1
    return np.frombuffer(bytes(flags), np.int8)


def _packed_observation(
    seen: PlayerView, observe: Callable[[PlayerView], Sequence[float]], packer: struct.Struct
) -> bytes:
    """`encoding.observation(seen)` as float32 bytes: the observation path's one speed trick.

    `observe` is the game's hook that `encoding.observation` calls (the same values: the tests
    compare the two at every step). The list it makes is packed by a `struct.Struct` of exactly
    `observation_size` floats (a third of numpy's time for a Python sequence of floats), without the
    tuple `encoding.observation` copies it into; the packer's fixed length is that function's length
    check, and its other checks hold by construction (the environment views a seat itself). Timed in
    `benchmarks/adapters.py`'s loop, taking turns with `_float32(encoding.observation(...))`: observed
    steps about 5 % faster (0-9 % by preset, on a loaded machine).
    """
    values = observe(seen)
    try:
        return packer.pack(*values)
    except struct.error:
        if len(values) == packer.size // 4:
            raise
        raise ValueError(
            f"{seen.rules.game}: observe gave {len(values)} values, not {packer.size // 4}"
        ) from None


def _float32(values: Sequence[float]) -> np.ndarray[Any, Any]:
    """A new float32 array of the values: packed by a `struct`, as `_packed_observation` does."""
    packer = _PACKERS.get(len(values))
    if packer is None:
        packer = _PACKERS[len(values)] = struct.Struct(f"={len(values)}f")
    return np.frombuffer(bytearray(packer.pack(*values)), np.float32)


#: A `struct.Struct` of n float32 values, by n.
_PACKERS: dict[int, struct.Struct] = {}


def _seated(spectator: Any, seat: int) -> Any:
    """A spectator's view counted from `seat` (public information only: the hand stays empty)."""
    import attrs

    return attrs.evolve(spectator, seat=seat)


def _illegal(state: State, rules: Rules, seat: int, number: int) -> Exception:
    """Why `number` is no legal action of `seat` now: the `IllegalMoveError` that `apply` would raise
    (a `ValueError` for an id that is no action of the rules at all)."""
    try:
        action = encoding.action_of(rules, seat, number)
    except ValueError as error:
        return error
    refusal = check(state, action)
    assert refusal is not None  # (the mask holds every legal id)
    return refusal


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's `OrderEnforcingWrapper`, what every step asks of it answered without the detour.

    The wrapper reads each attribute of the environment through `__getattr__` (two checks and a
    `getattr` a time): `last()` reads five of them, and `agent_iter` reads `agents` and
    `agent_selection` at every turn, which made the wrapper cost more than the loop it wraps.
    `last` and `step` make the wrapper's own checks, then ask the environment directly;
    `agents` and `agent_selection` are read from it directly once the environment is reset (before
    that, the wrapper's `__getattr__` refuses them, with its own message). The rest (and every
    error and warning) is the wrapper's.
    """

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:  # a property's AttributeError sends Python to the wrapper's __getattr__,
            raise AttributeError("agents")  # which refuses it in its own words
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # the wrapper's refusal, as its `agent_selection` would raise it
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:  # stepped before reset, or once every agent is done: the wrapper says so
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper shows itself: the environment's name


def env(preset: str | Rules = "agurk", players: int | None = None, **options: Any) -> AECEnv:
    """The AEC environment of a preset, wrapped in PettingZoo's order checks (`OrderEnforcingWrapper`).

    Args:
        preset: A preset name or alias, or a `Rules`.
        players: The player count (default: 4, or the nearest count the preset allows).
        **options: Option overrides (as for `ruleset`), and `render_mode`, `strict`,
            `illegal_reward` and `max_cycles` (see `raw_env`).

    Example:
        >>> e = env("five-cucumbers", players=3)
        >>> e.reset(seed=7)
        >>> e.possible_agents, int(e.action_space(e.agent_selection).n)
        (['player_0', 'player_1', 'player_2'], 15)
    """
    return _OrderEnforcing(raw_env(preset, players, **options))
