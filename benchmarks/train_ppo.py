"""Train a seat with sb3-contrib's MaskablePPO on the PettingZoo environment, and measure it.

One seat of a preset (Catastrophe by default) is the learner; the others are the library's bots
(random by default), which see only their views. The learner observes what the environment's
observation holds, each value scaled to 0..1 by its bounds (`encoding.observation_bounds`), masked
to its legal actions, and is rewarded `returns` at the end of a match
(1 for a sole win, shared on a tie) and, at the end of each round, by how far its points fell below
the others' mean (a share of the points the round moved), which makes the signal dense enough to
learn from in minutes. After training, the policy plays `--eval` matches against
heuristic bots and as many against random bots (the learner in seat 0, deals seeded), and the win
rates are written with their 95% Wilson intervals.

Not part of the test suite (PyTorch is large); run it by hand:

    pip install ".[pettingzoo]" sb3-contrib torch      # a CPU build of PyTorch is enough
    python benchmarks/train_ppo.py --timesteps 50000 --seed 1 --json docs/data/ppo_training.json

The figures depend only on the arguments (PyTorch on one thread, every generator seeded); the time
does not: a few minutes on one core.

Example:
    >>> env = SeatEnv("catastrophe", 4, ("heuristic",) * 3, seed=1)
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, int(env.action_masks().sum()) > 0
    ((445,), True)
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import platform
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import cucumber_rules as cr
from cucumber_rules.bots import get_bot
from cucumber_rules.pettingzoo import raw_env
from cucumber_rules.simulate import WinRate

__all__ = ["SeatEnv", "evaluate", "main"]


class SeatEnv(gym.Env[Any, Any]):
    """A single-agent Gymnasium view of the PettingZoo environment: seat 0 learns, bots play the rest.

    `action_masks()` gives the legal ids, as sb3-contrib's `MaskablePPO` asks.
    """

    def __init__(
        self, preset: str, players: int, opponents: Sequence[str], seed: int = 0, *, shaped: bool = True
    ) -> None:
        self.env = raw_env(preset, players)
        self.shaped = shaped
        """Whether each finished round rewards the seat too (see `_round_reward`), not only the end."""
        self.bots = [get_bot(name) for name in opponents]
        space: Any = self.env.observation_space("player_0")
        box = space["observation"]
        # The observation scaled to its bounds (`encoding.observation_bounds`): every value in 0..1.
        self._low = box.low
        self._span = np.maximum(box.high - box.low, 1.0)
        self.observation_space = gym.spaces.Box(0.0, 1.0, box.shape, np.float32)
        self.action_space = self.env.action_space("player_0")
        self._rng = random.Random(seed)
        self._seeds = random.Random(seed + 1)

    def _others(self) -> None:
        """Let the bots play until seat 0 is to act or the match is over."""
        e = self.env
        while e.agents and e.agent_selection != "player_0":
            if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
                e.step(None)
                continue
            seat = e.possible_agents.index(e.agent_selection)
            move = self.bots[seat - 1].choose(cr.view(e.cucumber_state, seat), self._rng)
            e.step(cr.action_id(e.rules, move))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.env.reset(seed=self._seeds.randrange(2**32) if seed is None else seed)
        self._others()
        return self._observed(), {}

    def _observed(self) -> np.ndarray[Any, Any]:
        scaled: np.ndarray[Any, Any] = (self.env.observe("player_0")["observation"] - self._low) / self._span
        return scaled.astype(np.float32)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        e = self.env
        rounds = e.cucumber_state.match.rounds
        e.step(int(action))
        self._others()
        done = "player_0" not in e.agents or e.terminations.get("player_0", True)
        reward = float(e._cumulative_rewards.get("player_0", 0.0)) if done else 0.0
        if done and not e.cucumber_state.is_over:  # an illegal action (the mask prevents it)
            reward = -1.0
        if self.shaped and e.cucumber_state.match.rounds > rounds:
            reward += _round_reward(e.cucumber_state)
        return self._observed(), reward, done, False, {}

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal action ids of seat 0 (all False once the match is over)."""
        return self.env.observe("player_0")["action_mask"].astype(bool)


def _round_reward(state: cr.State) -> float:
    """How the round just finished went for seat 0: how far its points fell below the others' mean, as a
    share of all the points the round moved (between -1 and 1; 0 for a round that moved none)."""
    points = cr.view(state, 0).results[-1].points
    moved = sum(abs(p) for p in points)
    if not moved:
        return 0.0
    others = (sum(points) - points[0]) / (len(points) - 1)
    return (others - points[0]) / moved


def evaluate(model: Any, preset: str, players: int, opponent: str, matches: int, seed: int) -> WinRate:
    """The learner's wins (seat 0, deterministic policy) against `opponent` bots, with a Wilson interval."""
    env = SeatEnv(preset, players, (opponent,) * (players - 1), seed=seed)
    wins = 0.0
    for match in range(matches):
        obs, _ = env.reset(seed=seed * 1_000_003 + match)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _reward, done, _, _ = env.step(action)
        wins += cr.returns(env.env.cucumber_state)[0]
    return WinRate(wins=wins, games=matches)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring).

    Example:
        `python benchmarks/train_ppo.py --timesteps 50000 --seed 1 --json docs/data/ppo_training.json`
    """
    parser = argparse.ArgumentParser(description="Train a seat with MaskablePPO and measure it.")
    parser.add_argument("--preset", default="catastrophe")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="random", help="the bots the learner trains against")
    parser.add_argument("--timesteps", type=int, default=50_000, help="the learner's decisions to train on")
    parser.add_argument("--eval", type=int, default=400, help="evaluation matches per opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures (and how they were made) to this file")
    args = parser.parse_args(argv)
    # Imported here, by name: PyTorch and sb3-contrib are not among the project's dependencies.
    torch: Any = importlib.import_module("torch")
    maskable_ppo: Any = importlib.import_module("sb3_contrib").MaskablePPO

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # small networks: one thread is faster than several taking turns
    env = SeatEnv(args.preset, args.players, (args.opponent,) * (args.players - 1), seed=args.seed)
    # Short rollouts and few epochs, so that minutes of a CPU see many updates; otherwise the defaults.
    model = maskable_ppo("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=5, seed=args.seed, verbose=0)
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.monotonic() - start
    steps = int(model.num_timesteps)
    print(f"trained {steps:,} steps in {seconds:.0f} s", file=sys.stderr)
    results: dict[str, Any] = {
        "made": {
            "command": "python benchmarks/train_ppo.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "preset": args.preset,
            "players": args.players,
            "opponent": args.opponent,
            "seed": args.seed,
            "timesteps": steps,
            "seconds": round(seconds, 1),
            "evaluation_matches": args.eval,
            "torch": torch.__version__,
            "cucumber_rules": cr.__version__,
            "python": platform.python_version(),
            "date": datetime.date.today().isoformat(),
        },
        "against": {},
    }
    for opponent in ("heuristic", "random"):
        rate = evaluate(model, args.preset, args.players, opponent, args.eval, seed=args.seed + 7)
        results["against"][opponent] = {
            "wins": rate.wins,
            "games": rate.games,
            "rate": rate.rate,
            "low": rate.low,
            "high": rate.high,
        }
        print(f"against {opponent}: {rate.rate:.1%} [{rate.low:.1%}-{rate.high:.1%}]", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
