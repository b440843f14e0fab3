"""A PettingZoo AEC environment for every preset (extra `[pettingzoo]`).

`env("agurk", players=4)` makes the environment (with PettingZoo's order
checks); `raw_env` is the bare class. Options go by keyword, as in `ruleset`:
`env("gurka", players=3, threshold=21)`.

- **Agents** are `"player_0"` .. `"player_{n-1}"`, seat for seat. Only the seat
  to act is selected; deals happen inside the environment with a
  `random.Random` seeded by `reset(seed=...)`, so a seed replays a match
  exactly.
- **Actions** are `cucumber_rules.encoding` ids: `Discrete(num_actions(rules))`.
  An illegal id raises `IllegalMoveError`.
- **Observations** are `Box` vectors of `observation_size(rules, players)`
  float32 values (`encoding.observation` of the agent's view, seats relative
  to the agent), within `encoding.observation_bounds(rules, players)`.
- **Action masks** are in `infos[agent]["action_mask"]` (int8, one per action
  id; all 0 for an agent whose turn it is not). Pass them to
  `action_space(agent).sample(mask)`.
- **Rewards** come once, at the end: `cucumber_rules.returns` (the winners share
  1.0). Then every agent is terminated; nothing is truncated.
- `render()` returns a line of text (render mode `"ansi"`).

Example:
    >>> from cucumber_rules.pettingzoo import env
    >>> e = env("gurka", players=2, hand_size=2, fixed_rounds=1)
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, done, truncated, info = e.last()
    ...     e.step(None if done else e.action_space(agent).sample(info["action_mask"]))
    >>> sorted(e.rewards) == [] and e.unwrapped.state.is_over
    True
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import encoding
from .actions import seat_number
from .engine import apply, new_game, sample_chance
from .outcomes import returns
from .rules import Rules, ruleset
from .state import CHANCE, State
from .views import view

__all__ = ["env", "raw_env"]


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment of a preset (see the module docstring).

    Args:
        preset: A preset name or alias (`"agurk"`, `"catastrophe"`, ...), or a `Rules`.
        players: The player count (default: 4, or the nearest count the preset allows).
        render_mode: None or `"ansi"`.
        **options: Option overrides, as for `ruleset`.

    Example:
        >>> e = raw_env("catastrophe", players=3)
        >>> e.reset(seed=0)
        >>> e.agent_selection, int(e.action_space("player_0").n), e.observation_space("player_0").shape
        ('player_0', 60, (383,))
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "cucumber_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        preset: str | Rules = "agurk",
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        rules = preset if isinstance(preset, Rules) else ruleset(preset, **options)
        if isinstance(preset, Rules) and options:
            rules = rules.replace(**options)
        if players is None:
            players = min(max(4, rules.min_players), rules.max_players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = rules
        """The rules of the matches."""
        self.render_mode = render_mode
        n = len(new_game(rules, players).players)  # checks the count
        self.metadata = {**self.metadata, "name": f"cucumber_{rules.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        low, high = encoding.observation_bounds(rules, n)
        box = spaces.Box(low=np.array(low, np.float32), high=np.array(high, np.float32), dtype=np.float32)
        self.observation_spaces = dict.fromkeys(self.possible_agents, box)
        self.action_spaces = {a: spaces.Discrete(encoding.num_actions(rules)) for a in self.possible_agents}
        self._players = n
        self._rng = random.Random(0)
        self.state: State = new_game(rules, n)
        """The library's state of the match in play."""
        self._reset_dicts()

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space (the same object every time)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> np.ndarray[Any, Any]:
        """The agent's observation vector."""
        seat = self.possible_agents.index(agent)
        return np.asarray(encoding.observation(view(self.state, seat)), dtype=np.float32)

    def _deal(self) -> None:
        while self.state.to_act == CHANCE:
            self.state = apply(self.state, sample_chance(self.state, self._rng))

    def _update(self) -> None:
        """Select the seat to act, refresh the masks, and at the end hand out the returns."""
        state = self.state
        mask = np.asarray(encoding.legal_mask(state), dtype=np.int8)
        zeros = np.zeros_like(mask)
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            self.infos[agent] = {"action_mask": mask if seat == state.to_act else zeros}
        if state.is_over:
            values = returns(state)
            for agent in self.agents:
                self.rewards[agent] = values[self.possible_agents.index(agent)]
                self.terminations[agent] = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.to_act]  # type: ignore[index]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match and deal; `seed` (any integer, numpy's included) fixes every deal of it."""
        if seed is not None:
            self._rng = random.Random(seat_number(seed, "seed must be an int or None"))
        self.agents = self.possible_agents[:]
        self._reset_dicts()
        self.state = new_game(self.rules, self._players)
        self._deal()
        self._update()

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (None once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        # Worked out before anything changes: an illegal id raises IllegalMoveError and leaves the
        # environment as it was.
        state = apply(self.state, encoding.action_of(self.rules, seat, action))
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.state = state
        self._deal()
        self._update()

    def render(self) -> str | None:
        """A line of text about the match (render mode `"ansi"`); None without a render mode."""
        if self.render_mode is None:
            return None
        s = self.state
        m = s.match
        trick = " ".join(f"{p.seat}:{p.card}" for p in s.trick) or "-"
        turn = "over" if s.is_over else f"seat {s.to_act} to act"
        return f"{m.rules.name} · round {m.rounds + 1} · totals {list(m.totals)} · trick {trick} · {turn}"

    def close(self) -> None:
        """Nothing to release."""


def env(preset: str | Rules = "agurk", players: int | None = None, **options: Any) -> AECEnv:
    """The AEC environment of a preset, wrapped in PettingZoo's checks (order of calls, action bounds).

    Args:
        preset: A preset name or alias, or a `Rules`.
        players: The player count (default: 4, or the nearest count the preset allows).
        **options: Option overrides (as for `ruleset`), and `render_mode`.

    Example:
        >>> e = env("five-cucumbers", players=3)
        >>> e.reset(seed=7)
        >>> e.possible_agents, int(e.action_space(e.agent_selection).n)
        (['player_0', 'player_1', 'player_2'], 15)
    """
    render_mode = options.pop("render_mode", None)
    inner = raw_env(preset, players, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))
