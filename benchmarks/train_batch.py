"""Train one seat of 4-player Agurk with masked PPO on the batched engine, and measure it.

The recipe of docs/ai.md ("Training a seat") in one file: PyTorch (its CPU build) and
`cucumber_rules.batch`, nothing else.

- **Environment.** `batch.make("agurk", players=4, size=lanes)`: every lane is a match; every step
  moves every lane by one decision. The learner plays seat `lane % 4`, so each seat (and each place in
  the deal's rotation) is learned and measured equally; the other three seats are bots. Where it is the
  learner's turn, the policy picks the card; elsewhere a bot does. No lane waits for another: a match
  that ends holds its successor in the same step (auto-reset), and a lane whose learner is eliminated
  starts its next match at once (`env.restart`).
- **Opponents.** Half the lanes (in groups of one lane per seat) are played by random bots, half by
  heuristic bots (`batch.random_actions`, `batch.heuristic_actions`: the library's heuristic, which plays
  its highest legal card and wins 99 of 100 matches against random bots). The random lanes give the
  learner wins, hence a signal, from its first updates; the heuristic lanes teach what random bots never
  punish. `--opponents random` and `--opponents heuristic` train against one kind; docs/ai.md compares.
- **Observation, mask, reward.** The learner's `cr.observation` (`env.observe(state, seat)`), each value
  divided by its upper bound (`encoding.observation_bounds`); the legal ids mask the policy's logits. The
  reward is the seat's `cr.returns` when its match is decided for it (1 for a win, 0 otherwise): its
  episode ends when the match does or when the seat is eliminated. No shaping.
- **PPO** (the clipped objective with generalised advantage estimation, as CleanRL writes it): an actor and
  a critic of two hidden layers each. A rollout is `--rollout` steps of every lane; the learner's
  decisions in it are the samples, each rewarded with what its lane got until the seat's next decision
  (whose value it bootstraps from; at the rollout's end, from the value of the seat's view then). Then
  `--epochs` passes over the samples in minibatches, the learning rate falling linearly to 0.
- **Measures.** Greedy play (the most probable legal card) in whole matches of deals of their own,
  seats rotated, against three random and three heuristic bots: every `--curve-every` updates
  (`--curve-matches` each) for the learning curve, and at the end (`--eval` each) beside the untrained
  network and the two bots in the learner's seat, on the very same deals.

Run it (PyTorch's CPU build, see docs/ai.md):

    pip install ".[batch]"
    pip install torch --index-url https://download.pytorch.org/whl/cpu
    python benchmarks/train_batch.py --seed 1 --json docs/data/training.json

The figures depend only on the arguments (PyTorch on one thread, every generator seeded); the times
depend on the machine and its load, and are written beside them.

Example:
    >>> from cucumber_rules import batch
    >>> env = batch.make("agurk", players=4, size=8)
    >>> seats = learner_seats(env)
    >>> seats.tolist()
    [0, 1, 2, 3, 0, 1, 2, 3]
    >>> x = scaled(env, env.observe(env.init(0), seat=seats))
    >>> x.shape, bool((x >= 0).all() and (x <= 1).all())
    ((8, 345), True)
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import torch
from hardware import cpu_name
from torch import nn

import cucumber_rules as cr
from cucumber_rules import batch, encoding
from cucumber_rules.simulate import WinRate

__all__ = [
    "Agent",
    "Rollout",
    "advantages",
    "collect",
    "evaluate",
    "learner_seats",
    "machine",
    "main",
    "opponent_actions",
    "parse_args",
    "scaled",
    "train",
    "update",
]

PRESET = "agurk"
PLAYERS = 4
OPPONENTS = ("random", "heuristic")

Array = np.ndarray[Any, Any]
Policy = Callable[[Array, Array], Array]
"""A seat's policy for `evaluate`: (scaled observations, legal masks) -> action ids."""


# --------------------------------------------------------------------------- the environment


def learner_seats(env: batch.Env) -> Array:
    """(B,) int32: the learner's seat in each lane, `lane % players` (every seat equally often).

    Example:
        >>> from cucumber_rules import batch
        >>> learner_seats(batch.make("agurk", players=4, size=6)).tolist()
        [0, 1, 2, 3, 0, 1]
    """
    return (np.arange(env.size) % env.max_players).astype(np.int32)


def scaled(env: batch.Env, observations: Array) -> Array:
    """Observations divided by their upper bounds (`encoding.observation_bounds`): every value in 0..1.

    Example:
        >>> from cucumber_rules import batch
        >>> env = batch.make("agurk", players=4, size=2)
        >>> float(scaled(env, env.observe(env.init(0))).max())
        1.0
    """
    _, high = encoding.observation_bounds(env.rules, env.max_players)
    out: Array = (observations / np.maximum(np.asarray(high, np.float32), 1.0)).astype(np.float32)
    return out


def opponent_actions(env: batch.Env, state: batch.BatchState, heuristic: Array, rng: np.random.Generator
                     ) -> Array:  # fmt: skip
    """(B,) the bots' actions: the heuristic's in the lanes of `heuristic`, random legal ones elsewhere.

    Example:
        >>> import numpy as np
        >>> from cucumber_rules import batch
        >>> env = batch.make("agurk", players=4, size=2)
        >>> s = env.init(0)
        >>> a = opponent_actions(env, s, np.array([True, False]), np.random.default_rng(0))
        >>> bool(s.legal_action_mask[np.arange(2), a].all())
        True
    """
    smart = batch.heuristic_actions(env, state)
    if heuristic.all():
        return smart
    found: Array = np.where(heuristic, smart, batch.random_actions(state.legal_action_mask, rng))
    return found


def evaluate(seat: Policy | str, opponent: str, matches: int, seed: int, *, preset: str = PRESET,
             players: int = PLAYERS, lanes: int = 1024) -> WinRate:  # fmt: skip
    """Matches won by `seat` (a policy, or `"random"` / `"heuristic"`) against `opponent` bots.

    Each match is dealt from its own key (drawn from `seed`), the seat rotates with the match
    (`match % players`), and the random bots draw from a generator seeded by `seed` too: the same seed
    gives every policy the same deals. Matches are played `lanes` at a time.

    Example:
        >>> lowest = lambda obs, mask: mask.argmax(axis=1)  # the lowest legal card
        >>> evaluate(lowest, "heuristic", 8, seed=1, lanes=4).games
        8
        >>> evaluate("heuristic", "random", 8, seed=1).rate > 0.5
        True
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be 'random' or 'heuristic', not {opponent!r}")
    rng = np.random.default_rng([seed, 2])
    wins = 0.0
    for start in range(0, matches, lanes):
        size = min(lanes, matches - start)
        env = batch.make(preset, players=players, size=size, auto_reset=False)
        state = env.init(np.random.default_rng([seed, 1, start]).integers(0, 2**32, size, dtype=np.uint32))
        seats = ((start + np.arange(size)) % players).astype(np.int32)
        bots = np.full(size, opponent == "heuristic")
        lane = np.arange(size)
        while True:
            gone = (state.out[lane, seats] > 0) & (state.pending != seats)  # its 0 is known
            live = ~state.over & ~gone
            if not live.any():
                break
            actions = opponent_actions(env, state, bots, rng)
            mine = (state.current_player == seats) & live
            if isinstance(seat, str):
                actions[mine] = opponent_actions(env, state, np.full(size, seat == "heuristic"), rng)[mine]
            elif mine.any():
                obs = scaled(env, env.observe(state, seat=seats)[mine])
                actions[mine] = seat(obs, state.legal_action_mask[mine])
            state = env.step(state, actions, where=None if live.all() else live)
            wins += float(state.rewards[lane, seats].sum())
    return WinRate(wins=wins, games=matches)


# --------------------------------------------------------------------------- PPO


def _mlp(inputs: int, outputs: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Linear(inputs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, outputs)
    )


class Agent:
    """An actor (logits over the action ids, the illegal ones masked out) and a critic (the chance to win).

    Example:
        >>> import torch
        >>> agent = Agent(345, 52, hidden=16)
        >>> mask = torch.zeros(2, 52, dtype=torch.bool)
        >>> mask[:, 3] = True
        >>> agent.policy(torch.zeros(2, 345), mask).sample().tolist()
        [3, 3]
    """

    def __init__(self, observation_size: int, num_actions: int, hidden: int = 128) -> None:
        self.actor = _mlp(observation_size, num_actions, hidden)
        self.critic = _mlp(observation_size, 1, hidden)

    def parameters(self) -> list[nn.Parameter]:
        """The actor's and the critic's weights (what the optimiser trains)."""
        return [*self.actor.parameters(), *self.critic.parameters()]

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        """The distribution over the legal actions (illegal logits at -1e8, not -inf: the entropy stays
        finite)."""
        logits = self.actor(obs)
        masked = torch.where(mask, logits, torch.full_like(logits, -1e8))
        return torch.distributions.Categorical(logits=masked)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        """The critic's estimate of the seat's return."""
        out: torch.Tensor = self.critic(obs).squeeze(1)
        return out

    def greedy(self, obs: Array, mask: Array) -> Array:
        """The most probable legal action of each row (a `Policy` for `evaluate`)."""
        with torch.no_grad():
            probs = self.policy(torch.from_numpy(obs), torch.from_numpy(mask)).probs
        found: Array = probs.argmax(dim=1).numpy()
        return found


class Rollout(NamedTuple):
    """The learner's decisions in a rollout, in order, and what became of each."""

    obs: Array
    """(M, size) float32: the scaled observations."""
    mask: Array
    """(M, A) bool: the legal actions."""
    action: Array
    """(M,) int: the actions taken."""
    logp: Array
    """(M,) float32: their log-probabilities under the policy that took them."""
    value: Array
    """(M,) float32: the critic's values."""
    reward: Array
    """(M,) float32: the lane's reward until the seat's next decision (or the match's end)."""
    done: Array
    """(M,) bool: the match was decided for the seat before its next decision."""
    next: Array
    """(M,) int: the index of the lane's next decision, -1 if none in this rollout."""
    tail: Array
    """(M,) float32: for a decision neither done nor followed, the value of the seat's view at the end."""
    steps: tuple[Array, ...]
    """The indices of the decisions of each step, in order."""


def collect(env: batch.Env, state: batch.BatchState, agent: Agent, steps: int, heuristic: Array,
            rng: np.random.Generator) -> tuple[batch.BatchState, Rollout]:  # fmt: skip
    """Play `steps` steps of every lane: the agent samples the learner's moves, bots play the rest.

    Example:
        >>> import numpy as np
        >>> from cucumber_rules import batch
        >>> env = batch.make("agurk", players=4, size=8)
        >>> agent, rng = Agent(345, 52, hidden=16), np.random.default_rng(0)
        >>> _, r = collect(env, env.init(0), agent, 12, np.zeros(8, bool), rng)
        >>> legal = r.mask[np.arange(len(r.action)), r.action]
        >>> len(r.action) == sum(len(s) for s in r.steps), bool(legal.all())
        (True, True)
    """
    b = env.size
    lane = np.arange(b)
    seats = learner_seats(env)
    parts: dict[str, list[Array]] = {name: [] for name in ("obs", "mask", "action", "logp", "value")}
    indices: list[Array] = []
    room = steps * b
    follow = np.full(room, -1)
    rewards = np.zeros(room, np.float32)
    done = np.zeros(room, bool)
    last = np.full(b, -1)  # each lane's latest open decision (an index into the samples), or -1
    taken = 0
    for _ in range(steps):
        actions = opponent_actions(env, state, heuristic, rng)
        mine = state.current_player == seats
        if mine.any():
            obs = scaled(env, env.observe(state, seat=seats)[mine])
            mask = state.legal_action_mask[mine]
            with torch.no_grad():
                x = torch.from_numpy(obs)
                dist = agent.policy(x, torch.from_numpy(mask))
                chosen = dist.sample()
                parts["logp"].append(dist.log_prob(chosen).numpy())
                parts["value"].append(agent.value(x).numpy())
            actions[mine] = chosen.numpy()
            parts["obs"].append(obs)
            parts["mask"].append(mask)
            parts["action"].append(chosen.numpy())
            index = np.arange(taken, taken + len(obs))
            previous = last[mine]
            follow[previous[previous >= 0]] = index[previous >= 0]
            last[mine] = index
            indices.append(index)
            taken += len(obs)
        state = env.step(state, actions)
        # the step's reward goes to each lane's open decision; a match decided for the seat closes it
        out = (state.out[lane, seats] > 0) & (state.pending != seats)  # out, and no revival to decide
        open_ = last >= 0
        rewards[last[open_]] += state.rewards[lane, seats][open_]
        closing = open_ & (state.terminated | out)
        done[last[closing]] = True
        last[closing] = -1
        if out.any():  # an eliminated learner has lost: its lane starts the next match at once
            state = env.restart(state, out)
    tail = np.zeros(taken, np.float32)
    still = np.flatnonzero(last >= 0)
    if len(still):
        view = scaled(env, env.observe(state, seat=seats)[still])
        with torch.no_grad():
            tail[last[still]] = agent.value(torch.from_numpy(view)).numpy()
    joined = {name: np.concatenate(chunks) for name, chunks in parts.items()}
    rollout = Rollout(**joined, reward=rewards[:taken], done=done[:taken], next=follow[:taken], tail=tail,
                      steps=tuple(indices))  # fmt: skip
    return state, rollout


def advantages(r: Rollout, gamma: float, lam: float) -> Array:
    """Generalised advantage estimates of the rollout's decisions, each lane's decisions in turn.

    Example:
        >>> import numpy as np
        >>> r = Rollout(obs=None, mask=None, action=None, logp=None,
        ...             value=np.array([0.5, 0.5], np.float32), reward=np.array([0, 1], np.float32),
        ...             done=np.array([False, True]), next=np.array([1, -1]),
        ...             tail=np.zeros(2, np.float32), steps=(np.array([0]), np.array([1])))
        >>> advantages(r, 1.0, 1.0).tolist()
        [0.5, 0.5]
    """
    after = np.where(r.next >= 0, r.value[np.maximum(r.next, 0)], r.tail)
    delta = r.reward + gamma * np.where(r.done, 0.0, after) - r.value
    found = np.zeros(len(r.value), np.float32)
    for index in reversed(r.steps):  # later decisions first: each decision's successor is done before it
        nxt = r.next[index]
        carry = np.where((nxt >= 0) & ~r.done[index], found[np.maximum(nxt, 0)], 0.0)
        found[index] = delta[index] + gamma * lam * carry
    return found


def update(agent: Agent, optimizer: torch.optim.Optimizer, r: Rollout, args: argparse.Namespace,
           generator: torch.Generator) -> None:  # fmt: skip
    """PPO's update: `args.epochs` passes over the rollout in shuffled minibatches (clipped ratio, value
    regression to the GAE returns, an entropy bonus; the gradient's norm clipped at 0.5)."""
    adv = advantages(r, args.gamma, args.lam)
    returns = torch.from_numpy(adv + r.value)
    adv_t = torch.from_numpy((adv - adv.mean()) / (adv.std() + 1e-8))
    obs, mask = torch.from_numpy(r.obs), torch.from_numpy(r.mask)
    action, old = torch.from_numpy(r.action), torch.from_numpy(r.logp)
    count = len(r.action)
    minibatches = max(1, round(count / args.minibatch))
    for _ in range(args.epochs):
        for idx in torch.randperm(count, generator=generator).tensor_split(minibatches):
            dist = agent.policy(obs[idx], mask[idx])
            ratio = (dist.log_prob(action[idx]) - old[idx]).exp()
            gain = torch.min(adv_t[idx] * ratio, adv_t[idx] * ratio.clamp(1 - args.clip, 1 + args.clip))
            value_loss = 0.5 * ((agent.value(obs[idx]) - returns[idx]) ** 2).mean()
            loss = -gain.mean() + args.value_coef * value_loss - args.entropy * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()


# --------------------------------------------------------------------------- training and measuring


def train(args: argparse.Namespace, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train, measure along the way and at the end; return the figures (see `parse_args`).

    Example:
        >>> small = ["--updates", "1", "--lanes", "8", "--rollout", "16", "--curve-matches", "8",
        ...          "--eval", "8"]
        >>> figures = train(parse_args(small), log=lambda line: None)
        >>> [point["update"] for point in figures["curve"]], sorted(figures["final"])
        ([0, 1], ['heuristic', 'random', 'trained', 'untrained'])
    """
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    env = batch.make(args.preset, players=args.players, size=args.lanes)
    group = np.arange(env.size) // args.players  # a lane per seat, against the same kind of bots
    heuristic = {"random": group < 0, "heuristic": group >= 0, "mixed": group % 2 == 1}[args.opponents]
    rng = np.random.default_rng([args.seed, 0])
    agent = Agent(env.observation_size, env.num_actions, args.hidden)
    untrained = copy.deepcopy(agent)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    generator = torch.Generator().manual_seed(args.seed)
    curve: list[dict[str, Any]] = []
    clock = {"training": 0.0, "training_cpu": 0.0, "measuring": 0.0}
    decisions = 0

    def measure(done: int) -> None:
        start = time.perf_counter()
        point: dict[str, Any] = {"update": done, "decisions": decisions}
        point["seconds"] = round(clock["training"], 1)
        for opponent in OPPONENTS:
            rate = evaluate(agent.greedy, opponent, args.curve_matches, args.seed + 1000, preset=args.preset,
                            players=args.players)  # fmt: skip
            point[opponent] = rate.to_dict()
        clock["measuring"] += time.perf_counter() - start
        curve.append(point)
        rates = ", ".join(f"{point[o]['rate']:.1%} against {o} bots" for o in OPPONENTS)
        log(f"update {done:4d}: {decisions:>9,} decisions, {clock['training']:5.0f} s: {rates}")

    measure(0)
    state = env.init(args.seed)
    for done in range(1, args.updates + 1):
        start, cpu = time.perf_counter(), time.process_time()
        for param_group in optimizer.param_groups:
            param_group["lr"] = args.lr * (1 - (done - 1) / args.updates)
        state, rollout = collect(env, state, agent, args.rollout, heuristic, rng)
        update(agent, optimizer, rollout, args, generator)
        decisions += len(rollout.action)
        clock["training"] += time.perf_counter() - start
        clock["training_cpu"] += time.process_time() - cpu
        if done % args.curve_every == 0 or done == args.updates:
            measure(done)
    start = time.perf_counter()
    final: dict[str, dict[str, Any]] = {}
    seats: dict[str, Policy | str] = {
        "trained": agent.greedy,
        "untrained": untrained.greedy,
        "random": "random",
        "heuristic": "heuristic",
    }
    for name, seat in seats.items():
        final[name] = {}
        for opponent in OPPONENTS:
            rate = evaluate(seat, opponent, args.eval, args.seed + 2000, preset=args.preset,
                            players=args.players)  # fmt: skip
            final[name][opponent] = rate.to_dict()
            log(f"{name} seat against {opponent} bots: {rate.rate:.1%} [{rate.low:.1%}-{rate.high:.1%}]")
    clock["measuring"] += time.perf_counter() - start
    return {"curve": curve, "final": final, "decisions": decisions, "clock": clock}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line's arguments (the defaults are the recipe's).

    Example:
        >>> parse_args(["--updates", "3"]).updates, parse_args([]).opponents
        (3, 'mixed')
    """
    parser = argparse.ArgumentParser(description="Train a seat with masked PPO on the batched engine.")
    add = parser.add_argument
    add("--seed", type=int, default=1)
    add("--preset", default=PRESET, help="the game (any preset; the recipe's figures are for agurk)")
    add("--players", type=int, default=PLAYERS)
    add("--opponents", choices=("mixed", "random", "heuristic"), default="mixed",
        help="the bots the learner trains against (mixed: half the lanes each)")  # fmt: skip
    add("--lanes", type=int, default=512, help="matches played at once")
    add("--rollout", type=int, default=64, help="steps of every lane per update")
    add("--updates", type=int, default=100)
    add("--epochs", type=int, default=4)
    add("--minibatch", type=int, default=1024)
    add("--hidden", type=int, default=128, help="units in each hidden layer")
    add("--lr", type=float, default=1e-3, help="Adam's learning rate at the start (falls linearly to 0)")
    add("--gamma", type=float, default=1.0)
    add("--lam", type=float, default=0.95, help="GAE's lambda")
    add("--clip", type=float, default=0.2)
    add("--entropy", type=float, default=0.01)
    add("--value-coef", type=float, default=0.5)
    add("--threads", type=int, default=1, help="PyTorch's threads (1: the figures are reproducible)")
    add("--curve-every", type=int, default=5, help="updates between the curve's points")
    add("--curve-matches", type=int, default=400, help="matches per curve point against each kind of bot")
    add("--eval", type=int, default=2000, help="matches against each kind of bot at the end")
    add("--json", help="write the figures (and how they were made) to this file")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring).

    Example:
        `python benchmarks/train_batch.py --seed 1 --json docs/data/training.json`
    """
    args = parse_args(argv)
    computer = machine()  # before the run: the load average at its start
    started = time.perf_counter()
    found = train(args, log=lambda line: print(line, file=sys.stderr))
    wall = time.perf_counter() - started
    clock = found["clock"]
    results = {
        "made": {
            "command": "python benchmarks/train_batch.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "preset": args.preset,
            "players": args.players,
            "arguments": {k: v for k, v in vars(args).items() if k != "json"},
            "decisions": found["decisions"],
            "training_seconds": round(clock["training"], 1),
            "training_cpu_seconds": round(clock["training_cpu"], 1),
            "measuring_seconds": round(clock["measuring"], 1),
            "wall_seconds": round(wall, 1),
            "machine": computer,
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        },
        "curve": found["curve"],
        "final": found["final"],
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 0


def machine() -> dict[str, Any]:
    """What the times were measured on: the CPU, the CPU count, the load average, the versions, the date.

    Example:
        >>> machine()["cpu_count"] == os.cpu_count()
        True
    """
    cpu = cpu_name()
    return {
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "cucumber_rules": cr.__version__,
        "date": datetime.date.today().isoformat(),
    }


if __name__ == "__main__":
    raise SystemExit(main())
