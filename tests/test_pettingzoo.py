"""The PettingZoo adapter: PettingZoo's own API and seed tests on every preset, and what the env says.

The `pettingzoo` extra is part of the test environment (tools/test.sh, tools/dev.sh): these tests import
it unconditionally, so a missing framework fails the suite instead of skipping it.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test

import cucumber_rules as cr
from cucumber_rules.pettingzoo import env, raw_env

pytestmark = pytest.mark.framework

PRESETS = ["agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe"]


@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset: str) -> None:
    api_test(env(preset), num_cycles=1000)


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_test(preset: str) -> None:
    seed_test(functools.partial(env, preset, 3), num_cycles=100)


@pytest.mark.parametrize(
    "options", [{"surprise": True}, {"cant_beat_em": True, "surprise": True}], ids=["surprise", "both"]
)
def test_catastrophe_variants(options: dict[str, bool]) -> None:
    api_test(env("catastrophe", players=5, **options), num_cycles=200)


def test_revival_decisions_are_actions() -> None:
    e = env("agurk", players=4, revival=True, threshold=5)
    decisions = 0
    for seed in range(6):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            _obs, _reward, done, _truncated, info = e.last()
            mask = info["action_mask"]
            if not done and mask[52:].any():
                assert not mask[:52].any()  # a revival decision: no card to play
                decisions += 1
            e.step(None if done else e.action_space(agent).sample(mask))
    assert decisions > 0


def test_a_seed_replays_the_match_and_the_env_follows_the_rules() -> None:
    def play(seed: int) -> tuple[cr.State, dict[str, float]]:
        e = raw_env("gurka", players=3, fixed_rounds=2)
        e.reset(seed=seed)
        totals: dict[str, float] = {}
        rng = np.random.default_rng(seed)
        while e.agents:
            agent = e.agent_selection
            obs, reward, done, _truncated, info = e.last()
            totals[agent] = totals.get(agent, 0.0) + reward
            assert obs.shape == (cr.observation_size(e.rules, 3),)
            assert obs.dtype == np.float32
            seat = e.possible_agents.index(agent)
            if done:
                e.step(None)
                continue
            assert e.state.to_act == seat
            legal = np.flatnonzero(info["action_mask"])
            assert sorted(cr.action_id(e.rules, a) for a in cr.legal_moves(e.state)) == list(legal)
            e.step(rng.choice(legal))
        return e.state, totals

    first, rewards = play(11)
    again, _ = play(11)
    assert first == again
    assert first.is_over
    assert [rewards[f"player_{s}"] for s in range(3)] == list(cr.returns(first))
    assert play(12)[0] != first


def test_bad_input() -> None:
    with pytest.raises(cr.InvalidRulesError):
        raw_env("catastrophe", players=2)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("agurk", render_mode="human")
    e = raw_env("gurka", players=2)
    e.reset(seed=0)
    _obs, _reward, _done, _truncated, info = e.last()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = e.state
    with pytest.raises(cr.IllegalMoveError):
        e.step(illegal)
    assert e.state is before


def test_render_and_rules_objects() -> None:
    e = raw_env(cr.ruleset("gurka"), players=np.int64(2), render_mode="ansi", threshold=21)  # type: ignore[arg-type]
    e.reset(seed=3)
    assert e.rules.threshold == 21
    text = e.render()
    assert text is not None
    assert text.startswith("gurka · round 1")
    assert raw_env("gurka").render() is None


def test_a_refused_step_changes_nothing() -> None:
    e = raw_env("gurka", players=3)
    e.reset(seed=4)
    for _ in range(5):  # a few plays in, so that rewards and the trick are not all at their start
        e.step(int(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])[0]))
    illegal = int(np.flatnonzero(e.infos[e.agent_selection]["action_mask"] == 0)[0])

    def snapshot() -> tuple[object, ...]:
        return (
            e.state,
            e.agent_selection,
            dict(e.rewards),
            dict(e._cumulative_rewards),
            dict(e.terminations),
            dict(e.truncations),
            {a: info["action_mask"].tolist() for a, info in e.infos.items()},
            e.observe(e.agent_selection).tolist(),
        )

    before = snapshot()
    for bad in (illegal, 52, -1, "2C", None, 1.0):
        with pytest.raises((cr.IllegalMoveError, ValueError, TypeError)):
            e.step(bad)
        assert snapshot() == before, f"refusing {bad!r} changed the environment"
    with pytest.raises(TypeError):
        e.reset(seed=True)
    assert snapshot() == before


def test_a_numpy_seed_is_a_seed() -> None:
    e = raw_env("agurk", players=4)
    e.reset(seed=np.int64(3))  # type: ignore[arg-type]
    first = e.observe(e.agent_selection)
    e.reset(seed=3)
    assert (e.observe(e.agent_selection) == first).all()


def test_observations_stay_in_the_box_in_long_fixed_round_matches() -> None:
    # 80,000 one-card rounds in which seat 0 always takes the trick with the ace: its total reaches
    # 14 x 80,000 = 1,120,000, beyond any fixed bound such as the former +-1e6; the box's bounds come
    # from the rules (14 points a round at most, 80,000 rounds) and this match reaches them exactly.
    rounds = 80_000
    e = raw_env("gurka", players=2, hand_size=1, fixed_rounds=rounds)
    e.reset(seed=0)
    state = cr.new_game(e.rules, 2)
    deal = cr.Deal(hands=[["AS"], ["2C"]])
    plays = {0: cr.Play(0, "AS"), 1: cr.Play(1, "2C")}
    for _ in range(rounds - 1):
        state = cr.apply(state, deal)
        leader = 0 if state.to_act == 0 else 1
        state = cr.apply_all(state, [plays[leader], plays[1 - leader]])
    state = cr.apply(state, deal)
    if state.to_act == 1:
        state = cr.apply(state, plays[1])
    e.state = state
    e._update()
    box = e.observation_space("player_1")
    assert isinstance(box, spaces.Box)
    assert e.agent_selection == "player_0"
    obs = e.observe("player_1")
    assert box.contains(obs)
    parts = [name for name, size in cr.observation_parts(e.rules, 2) for _ in range(size)]
    totals = [float(v) for name, v, top in zip(parts, obs, box.high, strict=True) if name == "totals"]
    assert totals == [0.0, 14.0 * (rounds - 1)]
    assert max(top for name, top in zip(parts, box.high, strict=True) if name == "totals") == 14.0 * rounds
    e.step(int(cr.action_id(e.rules, plays[0])))
    assert box.contains(e.observe("player_0"))
    assert e.observe("player_1")[parts.index("totals") + 1] == 14.0 * rounds  # the bound, reached
