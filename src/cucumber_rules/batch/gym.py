"""A Gymnasium `VectorEnv`: one learning seat per lane against bots (or against a policy of yours).

`cucumber_rules.batch.gym.VectorEnv` runs `num_envs` lanes of `cucumber_rules.batch`; in each, the
learner plays seat `seat` and the other seats are played by `opponents` between the learner's turns:
`"random"` (uniformly random legal moves), `"heuristic"` (`batch.heuristic_actions`: for the ladder
games the library's heuristic exactly) or any callable `policy(observations, masks) -> actions`
(for self-play, pass your own policy: it sees each opponent's own observation). An observation is the
learner's (`cr.observation` of its view, float32); the legal actions ride in `infos["action_mask"]`
(and `action_masks()`). The reward is the learner's `cr.returns` when its match ends, else 0; in the
ladder games a learner eliminated for good (no revival to decide) ends its episode there, with
reward 0, which is its return whatever the others still play.

Autoreset is Gymnasium's `SAME_STEP` (`metadata["autoreset_mode"]`): the step that ends a lane's
match returns `terminated` and the reward, the next match's first observation, and the finished
match's last observation in `infos["final_obs"]` (where `infos["_final_obs"]` is True). Matches never
truncate (the rules bound them). Needs gymnasium (`pip install gymnasium`, or the `pettingzoo` extra).

Example:
    >>> import numpy as np
    >>> from cucumber_rules.batch.gym import VectorEnv
    >>> env = VectorEnv("agurk", num_envs=4, players=4, opponents="heuristic")
    >>> obs, infos = env.reset(seed=0)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 345), (4, 52))
    >>> actions = infos["action_mask"].argmax(axis=1)
    >>> obs, rewards, terminated, truncated, infos = env.step(actions)
    >>> rewards.dtype.name, terminated.shape
    ('float32', (4,))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover (the test environments have gymnasium)
    raise ImportError(
        'cucumber_rules.batch.gym needs gymnasium: pip install gymnasium (or "cucumber-rules[pettingzoo]")'
    ) from error

from .. import encoding
from ..rules import Rules
from .backend import Array
from .env import make
from .policies import heuristic_actions, random_actions
from .state import BatchState

__all__ = ["Policy", "VectorEnv"]

Policy = Callable[[Array, Array], Any]
"""An opponents' policy: `(observations (B, size) float32, masks (B, A) bool) -> (B,) action ids`."""


class VectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` lanes, one learning seat each, the other seats played by `opponents` (see the module).

    Args:
        rules: A preset name or a `Rules`.
        num_envs: The lanes.
        players: The player count (one for every lane, or one per lane, or a `range`).
        seat: The learner's seat.
        opponents: `"random"`, `"heuristic"`, or a `Policy`.
        seed: Seeds the deals and the random opponents (`reset(seed=...)` seeds them again).

    Example:
        >>> from cucumber_rules.batch.gym import VectorEnv
        >>> env = VectorEnv("catastrophe", num_envs=2, players=3, seat=1)
        >>> env.single_action_space, env.metadata["autoreset_mode"].name
        (Discrete(60), 'SAME_STEP')
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        rules: Rules | str = "agurk",
        num_envs: int = 64,
        *,
        players: Any = 4,
        seat: int = 0,
        opponents: str | Policy = "random",
        seed: int | None = None,
    ) -> None:
        self.batch = make(rules, players=players, size=num_envs, auto_reset=False)
        counts = self.batch.players
        if type(seat) is not int or not 0 <= seat < min(counts):
            raise ValueError(f"seat must be a seat of every lane (0..{min(counts) - 1}), not {seat!r}")
        if not callable(opponents) and opponents not in ("random", "heuristic"):
            raise ValueError(f"opponents must be 'random', 'heuristic' or a policy, not {opponents!r}")
        self.seat = seat
        self.opponents = opponents
        self.num_envs = num_envs
        low, high = encoding.observation_bounds(self.batch.rules, self.batch.max_players)
        self.single_observation_space = gymnasium.spaces.Box(
            np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = 0 if seed is None else seed
        self._rng = np.random.default_rng(self._seed)
        self._state: BatchState | None = None

    # ------------------------------------------------------------------ Gymnasium's API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """New matches in every lane, played up to the learner's first turn.

        Example:
            >>> from cucumber_rules.batch.gym import VectorEnv
            >>> obs, infos = VectorEnv("gurka", num_envs=3, players=2).reset(seed=1)
            >>> obs.shape, infos["action_mask"].any(axis=1).tolist()
            ((3, 225), [True, True, True])
        """
        if seed is not None:
            self._seed = seed
            self._rng = np.random.default_rng(seed)
        state = self.batch.init(self._seed)
        state, _, _, _ = self._opponents(state)
        self._state = state
        return self.batch.observe(state, seat=self.seat), self._infos(state)

    def step(self, actions: Any) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """The learner's actions (one per lane), then the opponents' moves up to its next turn.

        Raises:
            batch.IllegalActionError: Naming the lanes whose action is not legal (see `action_masks`).

        Example:
            >>> from cucumber_rules.batch.gym import VectorEnv
            >>> env = VectorEnv("five-cucumbers", num_envs=2, players=3)
            >>> _, infos = env.reset(seed=0)
            >>> _, rewards, terminated, truncated, _ = env.step(infos["action_mask"].argmax(axis=1))
            >>> rewards.tolist(), truncated.tolist()
            ([0.0, 0.0], [False, False])
        """
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        state = self.batch.step(self._state, np.asarray(actions).astype(np.int64))
        rewards = state.rewards[:, self.seat].copy()
        ended = state.terminated.copy()
        state, more, ended_later, final = self._opponents(state)
        rewards += more
        ended |= ended_later
        self._state = state
        infos = self._infos(state)
        if ended.any():
            infos["final_obs"] = final
            infos["_final_obs"] = ended
        truncated = np.zeros(self.num_envs, bool)
        return self.batch.observe(state, seat=self.seat), rewards.astype(np.float32), ended, truncated, infos

    def action_masks(self) -> Array:
        """(num_envs, A) bool: the learner's legal actions now (sb3-contrib's name for them).

        Example:
            >>> from cucumber_rules.batch.gym import VectorEnv
            >>> env = VectorEnv("agurk", num_envs=2)
            >>> _ = env.reset(seed=0)
            >>> env.action_masks().shape
            (2, 52)
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state.legal_action_mask.copy()

    def close(self, **kwargs: Any) -> None:
        """Nothing to release."""
        self._state = None

    # ------------------------------------------------------------------ the opponents

    def _policy(self, state: BatchState) -> Array:
        if self.opponents == "random":
            return random_actions(state.legal_action_mask, self._rng)
        if self.opponents == "heuristic":
            return heuristic_actions(self.batch, state)
        assert callable(self.opponents)
        return np.asarray(self.opponents(self.batch.observe(state), state.legal_action_mask)).astype(np.int64)

    def _opponents(self, state: BatchState) -> tuple[BatchState, Array, Array, Array]:
        """Play the other seats until every lane waits for the learner; a lane whose match ends is
        restarted (its final observation kept). Returns the state, the learner's rewards, the lanes
        that ended and their final observations."""
        env = self.batch
        rewards = np.zeros(self.num_envs, np.float32)
        ended = state.terminated.copy()
        final = np.zeros((self.num_envs, env.observation_size), np.float32)
        ladder = env.spec.family == "ladder"
        while True:
            over = state.over.copy()
            if ladder:  # an eliminated learner's return is 0 whatever follows: its episode ends there
                gone = (state.out[:, self.seat] > 0) & (state.pending != self.seat) & ~over
                ended |= gone
                over |= gone
            if over.any():
                final[over] = env.observe(state, seat=self.seat)[over]
                state = env.restart(state, over)
            waiting = state.current_player != self.seat
            if not waiting.any():
                return state, rewards, ended, final
            state = env.step(state, self._policy(state), where=waiting)
            rewards += state.rewards[:, self.seat]
            ended |= state.terminated

    def _infos(self, state: BatchState) -> dict[str, Any]:
        return {"action_mask": state.legal_action_mask.copy(), "_action_mask": np.ones(self.num_envs, bool)}
