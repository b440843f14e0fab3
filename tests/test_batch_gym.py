"""`cucumber_rules.batch.gym.VectorEnv`: Gymnasium's vector API, SAME_STEP autoreset, bots and self-play."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cucumber_rules as cr
from cucumber_rules import batch
from cucumber_rules.batch.gym import VectorEnv


def test_spaces_and_metadata_follow_gymnasium() -> None:
    import gymnasium
    from gymnasium.vector import AutoresetMode

    env = VectorEnv("agurk", num_envs=8, players=4)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space.shape == (cr.observation_size(cr.ruleset("agurk"), 4),)
    assert env.observation_space.shape == (8, 345)
    assert env.single_action_space == gymnasium.spaces.Discrete(52)
    obs, infos = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert infos["action_mask"].shape == (8, 52)
    assert infos["_action_mask"].all()
    assert np.array_equal(env.action_masks(), infos["action_mask"])


def test_the_learner_sees_its_own_seat_at_its_turn() -> None:
    env = VectorEnv("catastrophe", num_envs=6, players=4, seat=2, opponents="heuristic")
    obs, _infos = env.reset(seed=0)
    state = env._state
    assert state is not None
    assert (state.current_player == 2).all()
    parts = dict(cr.observation_parts(cr.ruleset("catastrophe"), 4))
    to_act = 60 + 60 + 4 * 60 + 4  # hand, seen, trick, leader: then to_act (relative seats)
    assert parts["to_act"] == 4
    assert (obs[:, to_act] == 1).all()


def test_same_step_autoreset_gives_the_final_observation() -> None:
    env = VectorEnv(cr.ruleset("gurka", fixed_rounds=1, hand_size=2), num_envs=16, players=3)
    obs, infos = env.reset(seed=0)
    gen = np.random.default_rng(0)
    for _ in range(2):
        obs, rewards, terminated, truncated, infos = env.step(batch.random_actions(infos["action_mask"], gen))
    assert terminated.all()
    assert not truncated.any()
    assert infos["_final_obs"].all()
    assert infos["final_obs"].shape == obs.shape
    assert rewards.sum() == pytest.approx(sum(1.0 for _ in range(16)) * rewards.mean())
    hand = slice(0, 52)
    assert (infos["final_obs"][:, hand].sum(axis=1) == 0).all()  # the finished match: hands played out
    assert (obs[:, hand].sum(axis=1) == 2).all()  # the next match, dealt
    assert set(np.round(rewards, 6).tolist()) <= {0.0, 0.5, 1.0, round(1 / 3, 6)}


def test_rewards_are_the_learners_returns_and_heuristic_play_wins_more() -> None:
    def share(opponents: str, learner: str) -> float:
        env = VectorEnv("agurk", num_envs=64, players=4, opponents=opponents, seed=1)
        _, infos = env.reset(seed=1)
        gen = np.random.default_rng(2)
        won = ended = 0.0
        for _ in range(200):
            state = env._state
            assert state is not None
            a = batch.heuristic_actions(env.batch, state) if learner == "heuristic" else None
            if a is None:
                a = batch.random_actions(infos["action_mask"], gen)
            _obs, rewards, terminated, _, infos = env.step(a)
            won += float(rewards.sum())
            ended += float(terminated.sum())
        assert ended > 100
        return won / ended

    random_share = share("random", "random")
    assert 0.18 < random_share < 0.32  # a seat's share is 0.25
    assert share("random", "heuristic") > random_share + 0.1


def test_opponents_may_be_a_policy_for_self_play() -> None:
    seen: list[Any] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen.append(observations.shape)
        chosen: np.ndarray = masks.argmax(axis=1)
        return chosen

    env = VectorEnv("five-cucumbers", num_envs=4, players=3, opponents=policy)
    _, infos = env.reset(seed=0)
    env.step(infos["action_mask"].argmax(axis=1))
    assert seen
    assert seen[0] == (4, cr.observation_size(cr.ruleset("five-cucumbers"), 3))


def test_bad_arguments_and_illegal_actions() -> None:
    with pytest.raises(ValueError, match="seat must be"):
        VectorEnv("agurk", num_envs=2, players=3, seat=3)
    with pytest.raises(ValueError, match="opponents must be"):
        VectorEnv("agurk", num_envs=2, opponents="clever")
    env = VectorEnv("agurk", num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    _, infos = env.reset(seed=0)
    illegal = (~infos["action_mask"]).argmax(axis=1)
    with pytest.raises(batch.IllegalActionError):
        env.step(illegal)
