"""A batched array engine for reinforcement learning: every lane a match, every step one action per lane.

`cucumber_rules.batch` plays the five presets and every option (revival, Surprise Cucumber, If You
Can't Beat 'Em, custom cucumbers tables) as numpy array operations over a leading batch axis, with
pgx's field names, the action ids and observations of `cucumber_rules.encoding`, and a lockstep
harness (`check`) that compares every lane with the library at every decision. It needs numpy
(`pip install "cucumber-rules[batch]"`); the Gymnasium face is `cucumber_rules.batch.gym`;
`make(..., backend="jax")` runs the same kernels under `jax.jit` when jax is installed.

Example:
    >>> import numpy as np
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=8)
    >>> state = env.init(0)
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(200):
    ...     state = env.step(state, batch.random_actions(state.legal_action_mask, rng))
    >>> env.observe(state).shape, state.rewards.dtype.name
    ((8, 345), 'float32')
"""

from __future__ import annotations

try:
    import numpy as _numpy  # noqa: F401
except ImportError as error:  # pragma: no cover (the extra is installed in the test environments)
    raise ImportError('cucumber_rules.batch needs numpy: pip install "cucumber-rules[batch]"') from error

from .backend import NUMPY, Backend, JaxBackend
from .env import AUTORESET_MODE, Env, IllegalActionError, make
from .harness import CheckReport, LockstepError, check
from .policies import heuristic_actions, random_actions
from .state import BatchState

__all__ = [
    "AUTORESET_MODE",
    "NUMPY",
    "Backend",
    "BatchState",
    "CheckReport",
    "Env",
    "IllegalActionError",
    "JaxBackend",
    "LockstepError",
    "check",
    "heuristic_actions",
    "make",
    "random_actions",
]
