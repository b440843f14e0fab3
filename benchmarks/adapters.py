"""How fast the AI adapters are: random playouts through OpenSpiel and PettingZoo against the core API.

Run by hand (never part of the test suite), alone or as a part of `benchmarks/run.py`:

    python benchmarks/adapters.py [--repeats 5] [--seconds 1.0] [--json out.json]

Measured on this machine, in one process, the runners taking turns (each figure is the median of
the repeats, each ratio the median of the per-repeat ratios), in CPU time:

1. random playouts per preset, in decisions per second (a decision is a seat's action; deals
   are not counted but their time is):
   - **core**: the public API as a bot author writes it (`legal_moves`, `apply`, `sample_chance`),
     the same loop as `run.library_playouts`;
   - **OpenSpiel**: `cucumber_rules.openspiel`'s game through pyspiel's Python API: chance nodes a
     card at a time (`chance_outcomes`, a uniform pick, `apply_action`), then `legal_actions` and
     `apply_action` for each decision;
   - **PettingZoo raw** and **env**: `raw_env` and `env` (PettingZoo's `OrderEnforcingWrapper`),
     stepped through `agent_iter` and `last()` (which makes the agent's observation), a uniform
     pick among the observation's mask;
   - **PettingZoo env, unobserved**: `env` stepped with `last(observe=False)`, a uniform pick
     among the mask of the agent's `info` (where PettingZoo's masking loop looks first): a
     rollout that needs no observation, everything a step costs but its observation;
   - **PettingZoo floor**: the same loop on a PettingZoo environment that does nothing (a fixed
     observation), wrapped as `env` is (PettingZoo's `OrderEnforcingWrapper`, its `last` and `step`
     answered directly): what PettingZoo's own machinery costs per step.
2. observed steps against PettingZoo's own classic games (`tictactoe_v3`, `connect_four_v3`, made
   with `pettingzoo.make`, as PettingZoo hands them to its users): the same random masked loop with
   observations (`last()`, a uniform pick among the observation's mask) through each game and through
   this adapter's `env` for every preset, the runners taking turns in one run, in *steps* per second:
   every `last()` and `step()` of the loop, including the steps of agents already done and the time of
   `reset()`, as PettingZoo's own `performance_benchmark` counts turns. PettingZoo's classic games
   import pygame (for their rendering): without it this part is left out, with a message.
3. tensors from Python: `information_state_tensor` of OpenSpiel's C++ Hearts (a whole deal of four
   seats, the reference), against this adapter's `observation_tensor` and perfect-recall
   `information_state_tensor` (Catastrophe, four players: its four hands are bounded), at every
   decision of random matches, in microseconds per call. Each repeat asks about states made anew:
   a state keeps its views once made, and a learner asks about each state once.

Example:
    >>> row = adapter_rates("gurka", 3, repeats=1, seconds=0.01)
    >>> row.openspiel_ratio > 0 and row.pettingzoo_raw_ratio > 0
    True
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv

import cucumber_rules as cr
import cucumber_rules.openspiel as cos
from cucumber_rules.pettingzoo import env, raw_env

__all__ = ["AdapterRow", "ClassicRow", "TensorRow", "adapter_rates", "classic_rates", "main", "tensor_costs"]

_clock = time.process_time


def _core(rules: cr.Rules, players: int) -> Callable[[int, int], int]:
    def run(matches: int, seed: int) -> int:
        rng = random.Random(seed)
        rnd = rng.random
        decisions = 0
        for _ in range(matches):
            state = cr.new_game(rules, players)
            while True:
                to_act = state.to_act
                if to_act is None:
                    break
                if to_act < 0:
                    state = cr.apply(state, cr.sample_chance(state, rng))
                    continue
                moves = cr.legal_moves(state)
                state = cr.apply(state, moves[int(rnd() * len(moves))])
                decisions += 1
        return decisions

    return run


def _openspiel(preset: str, players: int) -> Callable[[int, int], int]:
    game = cos.load_game(preset, {"players": players})

    def run(matches: int, seed: int) -> int:
        rnd = random.Random(seed).random
        decisions = 0
        for _ in range(matches):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[int(rnd() * len(actions))])
                    decisions += 1
        return decisions

    return run


def _stepper(
    make: Callable[[], Any], *, observe: bool = True, steps: bool = False
) -> Callable[[int, int], int]:
    """A PettingZoo random playout: `last()`, a uniform pick among the observation's mask. Without
    `observe`, `last(observe=False)` and the mask of the agent's `info`: what a step costs but for
    its observation. It counts decisions, or with `steps` every step (an agent's already done too)."""
    e = make()

    def run(matches: int, seed: int) -> int:
        rnd = random.Random(seed).random
        decisions = done = 0
        for match in range(matches):
            e.reset(seed=seed * 100_003 + match)
            for _agent in e.agent_iter():
                obs, _reward, terminated, truncated, info = e.last(observe)
                if terminated or truncated:
                    e.step(None)
                    done += 1
                    continue
                legal = np.flatnonzero((obs if observe else info)["action_mask"])
                e.step(int(legal[int(rnd() * len(legal))]))
                decisions += 1
        return decisions + done if steps else decisions

    return run


class _Idle(AECEnv):  # type: ignore[misc]
    """A PettingZoo environment that does nothing but take turns: PettingZoo's own cost per step."""

    metadata = {"render_modes": [], "name": "idle_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, players: int, size: int, actions: int, decisions: int) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._obs = {"observation": np.zeros(size, np.float32), "action_mask": np.ones(actions, np.int8)}
        box = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, box)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(actions))
        self._decisions = decisions
        self._count = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Any:
        return self._obs

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self._count = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._count += 1
        self.agent_selection = self.possible_agents[self._count % len(self.possible_agents)]
        if self._count >= self._decisions:
            for agent in self.agents:
                self.terminations[agent] = True


def _rates(runners: Sequence[Callable[[int, int], int]], seconds: float, repeats: int) -> list[list[float]]:
    """Decisions per second of each runner, the repeats taking turns (runner(matches, seed) -> decisions)."""
    counts = []
    for run in runners:
        count = 1
        while True:
            start = _clock()
            run(count, 10_000)
            elapsed = _clock() - start
            if elapsed >= seconds / 4 or count >= 1 << 16:
                counts.append(max(1, round(count * seconds / max(elapsed, 1e-9))))
                break
            count *= 4
    rates: list[list[float]] = [[] for _ in runners]
    for rep in range(repeats):
        for i, run in enumerate(runners):
            gc.collect()
            start = _clock()
            decisions = run(counts[i], rep)
            rates[i].append(decisions / (_clock() - start))
    return rates


@attrs.frozen
class AdapterRow:
    """Random playouts of one preset through each adapter, against the core API (decisions per second)."""

    preset: str
    players: int
    core_per_s: float
    openspiel_per_s: float
    pettingzoo_raw_per_s: float
    pettingzoo_env_per_s: float
    pettingzoo_floor_per_s: float
    """PettingZoo's own loop and `OrderEnforcingWrapper` around an environment that does nothing."""
    pettingzoo_unobserved_per_s: float
    """`env` stepped without making observations (`last(observe=False)`, the mask from `info`)."""
    openspiel_ratio: float
    """Median of the per-repeat ratios OpenSpiel / core (the target: 0.25 or more)."""
    pettingzoo_raw_ratio: float
    pettingzoo_env_ratio: float
    pettingzoo_floor_ratio: float
    """The most `env` could reach if stepping and observing were free: PettingZoo's floor / core."""
    pettingzoo_unobserved_ratio: float
    """`env` without its observations / core: a rollout that needs only the mask, and the share of a
    step the observation takes."""
    repeats: int


def adapter_rates(preset: str, players: int = 4, *, repeats: int = 5, seconds: float = 1.0) -> AdapterRow:
    """Time random playouts through the core API, OpenSpiel and PettingZoo, taking turns (see the module).

    Example:
        >>> adapter_rates("catastrophe", 3, repeats=1, seconds=0.01).players
        3
    """
    rules = cr.ruleset(preset)
    size = cr.observation_size(rules, players)
    decisions = round(statistics.mean([_core(rules, players)(1, s) for s in range(3)]))
    idle = type(env(preset, players))(_Idle(players, size, cr.num_actions(rules), max(decisions, 1)))
    runners = [
        _core(rules, players),
        _openspiel(preset, players),
        _stepper(lambda: raw_env(preset, players)),
        _stepper(lambda: env(preset, players)),
        _stepper(lambda: idle),
        _stepper(lambda: env(preset, players), observe=False),
    ]
    rates = _rates(runners, seconds, repeats)

    def ratio(i: int) -> float:
        return statistics.median(a / b for a, b in zip(rates[i], rates[0], strict=True))

    core, openspiel, raw, wrapped, floor, unobserved = (statistics.median(r) for r in rates)
    return AdapterRow(
        preset, players, core, openspiel, raw, wrapped, floor, unobserved,
        ratio(1), ratio(2), ratio(3), ratio(4), ratio(5), repeats,
    )  # fmt: skip


#: PettingZoo's classic games with action masks that need nothing beyond pygame (the others need
#: python-chess, RLCard or Shimmy), as `pettingzoo.make` names them.
CLASSIC_GAMES = ("tictactoe_v3", "connect_four_v3")


def _classic(name: str) -> Callable[[], Any]:
    """A maker of one of PettingZoo's classic games, as PettingZoo hands it to its users (raises
    ImportError without pygame)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # (pygame greets on import otherwise)
    import pettingzoo

    if hasattr(pettingzoo, "make"):  # PettingZoo 1.27's registry (the old modules warn they are deprecated)
        from pettingzoo.env_registry.exceptions import FailedToImport

        try:
            pettingzoo.make("aec", f"classic/{name}")
        except FailedToImport as error:
            raise ImportError(str(error)) from error
        return functools.partial(pettingzoo.make, "aec", f"classic/{name}")
    import importlib

    module = importlib.import_module(f"pettingzoo.classic.{name}")
    return module.env  # type: ignore[no-any-return]


@attrs.frozen
class ClassicRow:
    """Observed steps per second of PettingZoo's classic games and of `env` for each preset, in one run."""

    games: dict[str, float]
    """Steps per second of each classic game (the median of the repeats)."""
    presets: dict[str, float]
    """Steps per second of `env` for each preset (4 players)."""
    ratios: dict[str, dict[str, float]]
    """For each preset, the median of the per-repeat ratios `env` / classic game, by game (the
    target: 1 or more)."""
    repeats: int


def classic_rates(
    presets: Sequence[str], *, games: Sequence[str] = CLASSIC_GAMES, repeats: int = 5, seconds: float = 1.0
) -> ClassicRow:
    """Time the same observed random loop through PettingZoo's classic games and `env`, taking turns.

    Raises:
        ImportError: Without pygame, which PettingZoo's classic games import.

    Example:
        >>> row = classic_rates(["gurka"], repeats=1, seconds=0.01)
        >>> sorted(row.games), row.ratios["gurka"]["tictactoe_v3"] > 0
        (['connect_four_v3', 'tictactoe_v3'], True)
    """
    makers = [_classic(game) for game in games]
    runners = [_stepper(make, steps=True) for make in makers]
    runners += [_stepper(functools.partial(env, preset, 4), steps=True) for preset in presets]
    rates = _rates(runners, seconds, repeats)
    theirs, ours = rates[: len(games)], rates[len(games) :]
    return ClassicRow(
        {game: statistics.median(r) for game, r in zip(games, theirs, strict=True)},
        {preset: statistics.median(r) for preset, r in zip(presets, ours, strict=True)},
        {
            preset: {
                game: statistics.median(a / b for a, b in zip(mine, other, strict=True))
                for game, other in zip(games, theirs, strict=True)
            }
            for preset, mine in zip(presets, ours, strict=True)
        },
        repeats,
    )


@attrs.frozen
class TensorRow:
    """Microseconds per tensor from Python: OpenSpiel's C++ Hearts against this adapter."""

    hearts_information_state_us: float
    hearts_size: int
    observation_us: float
    observation_size: int
    information_state_us: float
    information_state_size: int
    observation_speed: float
    """Hearts' time over the observation tensor's (the target: 0.5 or more)."""
    information_state_speed: float
    """Hearts' time over the information-state tensor's."""


def _decision_states(game: pyspiel.Game, matches: int, seed: int) -> list[pyspiel.State]:
    rng = random.Random(seed)
    out = []
    for _ in range(matches):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                out.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
    return out


def _per_call(
    states: Callable[[], list[pyspiel.State]], ask: Callable[[pyspiel.State], object], repeats: int
) -> float:
    """Microseconds per `ask(state)`, the best of `repeats`, each over states made anew (`states()`):
    the library's states keep their views once made, and a learner asks about each state once."""
    best = float("inf")
    for _ in range(repeats):
        fresh = states()
        gc.collect()
        start = _clock()
        for state in fresh:
            ask(state)
        best = min(best, (_clock() - start) / len(fresh))
    return best * 1e6


def tensor_costs(*, matches: int = 3, repeats: int = 3) -> TensorRow:
    """Time the tensors at every decision of random matches (best of `repeats`, CPU time).

    Example:
        >>> tensor_costs(matches=1, repeats=1).hearts_size
        5088
    """
    hearts = pyspiel.load_game("hearts")
    mine = cos.load_game("catastrophe", {"players": 4})
    theirs = functools.partial(_decision_states, hearts, matches, 1)
    ours = functools.partial(_decision_states, mine, matches, 1)
    hearts_us = _per_call(theirs, lambda s: s.information_state_tensor(s.current_player()), repeats)
    obs_us = _per_call(ours, lambda s: s.observation_tensor(s.current_player()), repeats)
    info_us = _per_call(ours, lambda s: s.information_state_tensor(s.current_player()), repeats)
    return TensorRow(
        hearts_us,
        hearts.information_state_tensor_size(),
        obs_us,
        mine.observation_tensor_size(),
        info_us,
        mine.information_state_tensor_size(),
        hearts_us / obs_us,
        hearts_us / info_us,
    )


PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


def run_all(*, repeats: int, seconds: float, presets: Sequence[str] = PRESETS) -> dict[str, Any]:
    """Every measurement of this module, JSON-ready (progress to standard error).

    Example:
        >>> run_all(repeats=1, seconds=0.005, presets=("gurka",))["rates"][0]["preset"]
        'gurka'
    """
    results: dict[str, Any] = {"rates": []}
    for preset in presets:
        row = adapter_rates(preset, 4, repeats=repeats, seconds=seconds)
        results["rates"].append(attrs.asdict(row))
        print(
            f"adapters {preset}: core {row.core_per_s:,.0f}/s; OpenSpiel {row.openspiel_ratio:.3f}, "
            f"PettingZoo raw {row.pettingzoo_raw_ratio:.3f}, env {row.pettingzoo_env_ratio:.3f} "
            f"(PettingZoo's floor {row.pettingzoo_floor_ratio:.3f}; env without observations "
            f"{row.pettingzoo_unobserved_ratio:.3f}) of the core",
            file=sys.stderr,
        )
    try:
        classic = classic_rates(presets, repeats=repeats, seconds=seconds)
    except ImportError as error:
        results["classic"] = None
        print(f"PettingZoo's classic games left out: {error} (pip install pygame)", file=sys.stderr)
    else:
        results["classic"] = attrs.asdict(classic)
        games = ", ".join(f"{game} {rate:,.0f}" for game, rate in classic.games.items())
        print(f"classic games, observed steps/s: {games}", file=sys.stderr)
        for preset, rate in classic.presets.items():
            against = ", ".join(f"{r:.2f}x {game}" for game, r in classic.ratios[preset].items())
            print(f"  env {preset}: {rate:,.0f} steps/s, {against}", file=sys.stderr)
    tensors = tensor_costs(matches=1 if seconds < 0.1 else 3, repeats=max(1, min(repeats, 3)))
    results["tensors"] = attrs.asdict(tensors)
    print(
        f"tensors: Hearts {tensors.hearts_information_state_us:.0f} us; observation "
        f"{tensors.observation_us:.0f} us ({tensors.observation_speed:.2f}x Hearts' speed), information "
        f"state {tensors.information_state_us:.0f} us ({tensors.information_state_speed:.2f}x)",
        file=sys.stderr,
    )
    return results


def _versions() -> str:
    """The frameworks' versions: Hearts' tensors from Python got twice as fast from OpenSpiel 1 to 2."""
    from importlib.metadata import version

    return f"open_spiel {version('open_spiel')}, pettingzoo {version('pettingzoo')}"


def _commit() -> str:
    """The checkout's commit, with a note if `src/` has local changes (the figures' version)."""
    root = Path(__file__).resolve().parent.parent
    try:
        git = ["git", "-C", str(root)]
        commit = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "an unknown commit"
    return commit.stdout.strip() + (" with local changes in src/" if dirty.stdout.strip() else "")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring).

    Example:
        `python benchmarks/adapters.py --repeats 5 --json adapters.json`
    """
    parser = argparse.ArgumentParser(description="Time the OpenSpiel and PettingZoo adapters.")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0:
        parser.error("--repeats must be at least 1 and --seconds positive")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results = run_all(repeats=args.repeats, seconds=args.seconds)
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"load average {load:.1f} before the run, {after:.1f} after",
        file=sys.stderr,
    )
    if args.json:
        words = ["python", "benchmarks/adapters.py", *(sys.argv[1:] if argv is None else argv)]
        results = {
            "command": " ".join(words),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
            "machine": f"{os.cpu_count()} CPUs, Python {platform.python_version()}, at {_commit()}, "
            f"{_versions()}, load average {load:.1f} before the run and {after:.1f} after",
            **results,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
