"""The JAX backend plays the numpy backend's games bit for bit (skipped when jax is not installed).

Each run steps a numpy environment and a JAX one (`backend="jax"`) side by side with the same
random actions, and compares every array of the state after every step (dtypes too), and the
observations every few steps: every preset over its player range, the options that add their own
paths (revival decisions, Surprise Cucumber with If You Can't Beat 'Em), lanes that wait without
auto-reset and restart, `where`, and the penalty for an illegal action. CI does not install jax;
`bash tools/dev.sh` does not either: run it in an environment of its own with jax (`pip install jax`).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cucumber_rules as cr
from cucumber_rules import batch
from cucumber_rules.batch.state import ARRAY_FIELDS

jax = pytest.importorskip("jax")

R = cr.ruleset


def _same(a: batch.BatchState, b: batch.BatchState, where: str) -> None:
    for name in ARRAY_FIELDS:
        x, y = getattr(a, name), np.asarray(getattr(b, name))
        assert x.dtype == y.dtype, f"{where}: {name} is {x.dtype} with numpy, {y.dtype} with jax"
        lanes = np.flatnonzero((x != y).reshape(len(x), -1).any(axis=1))
        assert np.array_equal(x, y), f"{where}: {name} differs in lanes {lanes[:5].tolist()}"


def _lockstep(rules: cr.Rules, steps: int, *, size: int = 48, seed: int = 0, **options: object) -> int:
    players = range(rules.min_players, rules.max_players + 1)
    ours = batch.make(rules, players=players, size=size, **options)  # type: ignore[arg-type]
    theirs = batch.make(rules, players=players, size=size, backend="jax", **options)  # type: ignore[arg-type]
    a, b = ours.init(seed), theirs.init(seed)
    _same(a, b, "init")
    gen = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        actions = batch.random_actions(a.legal_action_mask, gen)
        a, b = ours.step(a, actions), theirs.step(b, actions)
        _same(a, b, f"step {step}")
        ended += int(a.terminated.sum())
        if step % 25 == 0:
            seats = gen.integers(0, a.players)
            assert np.array_equal(ours.observe(a), np.asarray(theirs.observe(b)))
            assert np.array_equal(ours.observe(a, seats), np.asarray(theirs.observe(b, seats)))
    return ended


@pytest.mark.parametrize("preset", ["agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe"])
def test_every_preset_is_the_same_game_with_jax(preset: str) -> None:
    assert _lockstep(R(preset), 300) > 0


@pytest.mark.parametrize(
    "rules",
    [
        R("gurka", revival=True, lives=2, hand_size=3, threshold=12),
        R("catastrophe", surprise=True, cant_beat_em=True, hand_count=2),
        R("agurk", reverse=True, next_leader="penalized", tie_bonus=True, hand_size=4),
    ],
    ids=str,
)
def test_options_with_paths_of_their_own_are_the_same_with_jax(rules: cr.Rules) -> None:
    assert _lockstep(rules, 300) > 0


def test_waiting_lanes_restarts_where_and_penalties_are_the_same_with_jax() -> None:
    rules = R("five-cucumbers", hand_size=3)
    kw: dict[str, object] = {"players": range(2, 7), "size": 24, "auto_reset": False, "illegal": "penalty"}
    ours, theirs = batch.make(rules, **kw), batch.make(rules, backend="jax", **kw)  # type: ignore[arg-type]
    a, b = ours.init(3), theirs.init(3)
    gen = np.random.default_rng(3)
    for step in range(200):
        actions = batch.random_actions(a.legal_action_mask, gen)
        if step % 7 == 0:
            actions[step % 24] = np.flatnonzero(~np.asarray(a.legal_action_mask[step % 24]))[0]
        moving = gen.random(24) < 0.8
        a, b = ours.step(a, actions, where=moving), theirs.step(b, actions, where=moving)
        _same(a, b, f"step {step}")
        if a.over.any():
            over = a.over.copy()  # (the numpy restart updates `a` in place)
            a, b = ours.restart(a, over), theirs.restart(b, over)
            _same(a, b, f"restart {step}")


def test_a_jax_state_holds_jax_arrays_and_is_not_consumed() -> None:
    env = batch.make("agurk", players=4, size=8, backend="jax")
    s = env.init(0)
    assert isinstance(s.hands, jax.Array)
    t = env.step(s, batch.random_actions(np.asarray(s.legal_action_mask), np.random.default_rng(0)))
    again = env.step(s, batch.random_actions(np.asarray(s.legal_action_mask), np.random.default_rng(0)))
    for name in ARRAY_FIELDS:  # stepping a state again gives the same state: nothing was consumed
        assert np.array_equal(np.asarray(getattr(t, name)), np.asarray(getattr(again, name))), name
    with pytest.raises(ValueError, match="record=True needs the numpy backend"):
        batch.make("agurk", size=2, backend="jax", record=True)


def test_lanes_from_library_states_are_the_same_with_jax() -> None:
    rules = R("agurk")
    starts = []
    for seed in range(6):
        s = cr.new_game(rules, 4)
        gen = np.random.default_rng(seed)
        for _ in range(int(gen.integers(0, 60))):
            if s.to_act == cr.CHANCE:
                s = cr.apply(s, cr.sample_chance(s, random.Random(seed)))
            else:
                moves = cr.legal_moves(s)
                s = cr.apply(s, moves[int(gen.integers(len(moves)))])
        starts.append(s)
    ours, theirs = batch.make(rules, players=4, size=6), batch.make(rules, players=4, size=6, backend="jax")
    a, b = ours.from_scalar(starts, keys=1), theirs.from_scalar(starts, keys=1)
    _same(a, b, "from_scalar")
    gen = np.random.default_rng(1)
    for step in range(120):
        actions = batch.random_actions(a.legal_action_mask, gen)
        a, b = ours.step(a, actions), theirs.step(b, actions)
        _same(a, b, f"step {step}")
    kept = theirs.copy(b)
    theirs.step(kept, batch.random_actions(np.asarray(kept.legal_action_mask), gen))
    with pytest.raises(ValueError, match="check runs on the numpy backend"):
        batch.check(theirs, matches=1)
