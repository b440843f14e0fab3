"""The PettingZoo adapter: PettingZoo's own test module on every preset, its classic games' conventions.

The `pettingzoo` extra is part of the test environment (tools/test.sh, tools/dev.sh): these tests import
it unconditionally, so a missing framework fails the suite instead of skipping it.

PettingZoo's `api_test` warns about what it cannot check for an environment it does not know, and the
suite turns warnings into errors. Three of those warnings are advice that PettingZoo's own classic games
get too and that the name lists in `pettingzoo.test.api_test` silence for them alone: observations that are
dicts (the classic games' convention, with the action mask), their space not being a Box, and an action
mask of zeros (at the end of a match no action is legal). Those three are let through; every other
warning fails the test.
"""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

with warnings.catch_warnings():
    # With pygame installed (benchmarks/adapters.py times PettingZoo's classic games beside ours),
    # PettingZoo's own api_test imports `pettingzoo.classic.connect_four_v3`, a path its registry
    # deprecates: PettingZoo's warning, not ours.
    warnings.filterwarnings("ignore", "The old environment creation API", DeprecationWarning)
    from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test
    from pettingzoo.test.api_test import test_observation as check_observation
    from pettingzoo.test.state_test import test_state as check_state
    from pettingzoo.test.state_test import test_state_space as check_state_space
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import aec_to_parallel

import cucumber_rules as cr
from cucumber_rules.pettingzoo import env, raw_env

pytestmark = pytest.mark.framework

PRESETS = ["agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe"]

#: PettingZoo's advice for environments outside its name lists (see the module docstring).
ADVICE = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


def _mask(e: Any) -> np.ndarray[Any, Any]:
    return e.observe(e.agent_selection)["action_mask"]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- PettingZoo's test module


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset: str) -> None:
    api_test(env(preset), num_cycles=200)


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize(
    "options", [{"surprise": True}, {"cant_beat_em": True, "surprise": True}], ids=["surprise", "both"]
)
def test_api_test_catastrophe_variants(options: dict[str, bool]) -> None:
    api_test(env("catastrophe", players=5, **options), num_cycles=100)


@pytest.mark.filterwarnings(*ADVICE)
def test_api_test_revival() -> None:
    api_test(env("agurk", players=4, revival=True, threshold=5), num_cycles=200)


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_test(preset: str) -> None:
    seed_test(functools.partial(env, preset, 3), num_cycles=50)


@pytest.mark.parametrize("preset", PRESETS)
def test_render_test(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(functools.partial(env, preset), custom_tests={"ansi": lambda text: " · round " in text})
    printed = capsys.readouterr().out.splitlines()
    assert printed
    assert all(" · totals " in line for line in printed)


@pytest.mark.parametrize("preset", PRESETS)
def test_state_test(preset: str) -> None:
    # state_test's own state checks (its third part takes a parallel environment: see
    # test_no_parallel_api), with actions sampled without the mask, so that illegal ones end matches too
    e = env(preset)
    check_state_space(e)
    check_state(e, 30)


@pytest.mark.filterwarnings(*ADVICE)
@pytest.mark.parametrize("preset", PRESETS)
def test_bombardment(preset: str) -> None:
    """PettingZoo's bombardment_test as fixed upstream (Farama-Foundation/PettingZoo#1464).

    PettingZoo 1.27's own bombardment_test takes the None that an AEC step returns for the next
    observation (and then fails on every multi-agent AEC environment, its classic games included), and
    calls its observation check on dict observations, which it cannot read. This runs the fixed loop:
    masked random actions, every observation checked against its space.
    """
    e = env(preset)
    e.reset()
    first = e.last()[0]["observation"]
    for _ in range(20):
        for agent in e.agent_iter(e.num_agents):
            obs, _reward, terminated, truncated, _info = e.last()
            assert e.observation_space(agent).contains(obs)
            check_observation(obs, first, str(e.unwrapped))
            if terminated or truncated:
                action = None
            else:
                action = random.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(action)
        e.reset()


@pytest.mark.slow
@pytest.mark.filterwarnings(*ADVICE)
def test_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    performance_benchmark(env("agurk"))  # (five seconds of masked random play and resets)
    assert "turns per second" in capsys.readouterr().out


def test_max_cycles() -> None:
    """The AEC half of PettingZoo's max_cycles_test (its other half needs a parallel environment)."""
    max_cycles = 4
    e = env("gurka", max_cycles=max_cycles)
    e.reset()
    counts = np.zeros(len(e.possible_agents))
    for agent in e.agent_iter():
        counts[e.possible_agents.index(agent)] += 1
        _obs, _reward, terminated, truncated, _info = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(_mask(e)))
    assert max_cycles == np.max(counts) - 1
    assert max_cycles == np.median(counts) - 1
    assert e.unwrapped.truncations == {}  # every agent was truncated, then stepped out


def test_no_parallel_api() -> None:
    e = raw_env("gurka", players=2)
    assert e.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="not generally safe"):
        aec_to_parallel(e)


# --------------------------------------------------------------------------- the classic games' conventions


def test_the_mask_is_in_the_observation() -> None:
    e = raw_env("catastrophe", players=4)
    e.reset(seed=3)
    space = e.observation_space("player_0")
    assert isinstance(space, spaces.Dict)
    assert set(space) == {"observation", "action_mask"}
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert space.contains(obs)
        assert obs["action_mask"].dtype == np.int8
        legal = sorted(cr.action_id(e.rules, a) for a in cr.legal_moves(e.cucumber_state))
        mine = e.possible_agents.index(agent) == e.cucumber_state.to_act
        assert np.flatnonzero(obs["action_mask"]).tolist() == (legal if mine else [])
        assert obs["observation"].tolist() == list(cr.observation(cr.view(e.cucumber_state, e._seats[agent])))
        assert e.infos[agent].keys() == {"action_mask"}
        assert np.array_equal(e.infos[agent]["action_mask"], obs["action_mask"])


def test_the_mask_is_in_the_info_too_at_every_step() -> None:
    # PettingZoo's masking loop reads `info["action_mask"]` first: it must be the observation's mask
    # for every agent at every step, and an info handed out earlier must not change afterwards.
    e = env("agurk", players=3, hand_size=4, fixed_rounds=2)
    e.reset(seed=8)
    handed: list[tuple[dict[str, Any], list[int]]] = []
    for agent in e.agent_iter():
        _obs, _reward, done, truncated, info = e.last(observe=False)
        assert info is e.infos[agent]
        for a in e.agents:
            assert np.array_equal(e.infos[a]["action_mask"], e.observe(a)["action_mask"]), a
        handed.append((info, info["action_mask"].tolist()))
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) == (0 if done or truncated else len(cr.legal_moves(e.unwrapped.cucumber_state)))
        e.step(None if done or truncated else int(legal[-1]))
    assert e.unwrapped.cucumber_state.is_over
    assert all(info["action_mask"].tolist() == mask for info, mask in handed)


def test_an_edited_observation_changes_nothing_else() -> None:
    # A policy may edit its observation's arrays (a mask made all-legal, a vector normalised in place):
    # no other agent's observation or info, and no later step or match, may see the edit; the masks
    # the environment hands out in `infos` are its own, read-only.
    e = env("gurka", players=3, hand_size=3, fixed_rounds=2)
    e.reset(seed=1)
    for _ in range(2):
        for _agent in e.agent_iter():
            for a in e.agents:
                obs = e.observe(a)
                obs["action_mask"][:] = 1
                obs["observation"][:] = -1.0
                mask = e.infos[a]["action_mask"]
                assert not mask.flags.writeable
                with pytest.raises(ValueError, match="read-only"):
                    mask[0] = 1
                with pytest.raises(ValueError, match="WRITEABLE"):  # nor can a caller make it writable
                    mask.flags.writeable = True
            state = e.unwrapped.cucumber_state
            for a in e.agents:
                seat = e.possible_agents.index(a)
                legal = sorted(cr.action_id(e.unwrapped.rules, m) for m in cr.legal_moves(state))
                fresh = e.observe(a)
                expected = legal if seat == state.to_act else []
                assert np.flatnonzero(fresh["action_mask"]).tolist() == expected
                assert np.flatnonzero(e.infos[a]["action_mask"]).tolist() == expected
                assert fresh["observation"].tolist() == list(cr.observation(cr.view(state, seat)))
            _obs, _reward, done, truncated, info = e.last(observe=False)
            e.step(None if done or truncated else int(np.flatnonzero(info["action_mask"])[0]))
        e.reset(seed=2)


def test_an_illegal_action_ends_the_match_for_the_offender() -> None:
    e = env("gurka", players=3)
    e.reset(seed=5)
    offender = e.agent_selection
    illegal = int(np.flatnonzero(_mask(e) == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert e.infos[offender]["illegal_action"] == illegal
    assert all(not info["action_mask"].any() for info in e.infos.values())
    seen = {}
    for agent in e.agent_iter():
        _obs, reward, terminated, _truncated, _info = e.last()
        assert terminated
        seen[agent] = reward
        e.step(None)
    assert seen == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    # an id beyond the action space counts as illegal too; the penalty is a parameter
    e = env("gurka", players=3, illegal_reward=-5)
    e.reset(seed=5)
    offender = e.agent_selection
    e.step(99)
    assert e.rewards[offender] == -5.0


def test_strict_mode_raises_and_changes_nothing() -> None:
    e = raw_env("gurka", players=3, strict=True)
    e.reset(seed=4)
    for _ in range(5):  # a few plays in, so that rewards and the trick are not all at their start
        e.step(int(np.flatnonzero(_mask(e))[0]))
    illegal = int(np.flatnonzero(_mask(e) == 0)[0])

    def snapshot() -> tuple[object, ...]:
        return (
            e.cucumber_state,
            e.agent_selection,
            dict(e.rewards),
            dict(e._cumulative_rewards),
            dict(e.terminations),
            dict(e.truncations),
            dict(e.infos),
            {a: {k: v.tolist() for k, v in e.observe(a).items()} for a in e.possible_agents},
        )

    before = snapshot()
    with pytest.raises(cr.IllegalMoveError) as caught:
        e.step(illegal)
    assert caught.value.code in cr.ERROR_CODES
    for bad in (52, -1):
        with pytest.raises(ValueError, match="action id"):
            e.step(bad)
    for wrong in ("2C", None, 1.0, True):
        with pytest.raises(TypeError, match="action must be an int"):
            e.step(wrong)
    assert snapshot() == before
    with pytest.raises(TypeError):
        e.reset(seed=True)
    assert snapshot() == before
    lenient = raw_env("gurka", players=3)
    lenient.reset(seed=4)
    with pytest.raises(TypeError):
        lenient.step(None)  # not an integer: a mistake of the caller, never a move
    assert not any(lenient.terminations.values())


def test_an_observation_of_the_wrong_length_is_refused() -> None:
    # the packer's fixed length is `encoding.observation`'s length check: a game's hook that gives
    # another count gets the same ValueError, not a struct error
    e = raw_env("catastrophe", players=4)
    e.reset(seed=1)
    e._observe = lambda view: [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="catastrophe: observe gave 3 values, not 445"):
        e.observe(e.agent_selection)


def test_state_is_the_whole_table() -> None:
    e = raw_env("five-cucumbers", players=3)
    e.reset(seed=2)
    for _ in range(8):
        e.step(int(np.flatnonzero(_mask(e))[0]))
    state = e.state()
    assert e.state_space.contains(state)
    k = cr.num_actions(e.rules)
    hands = state[-3 * k :].reshape(3, k)
    for seat in range(3):
        assert hands[seat].sum() == len(e.cucumber_state.hand(seat))
    # everything else is public: the same for a twin whose hidden cards differ would need a redeal; here
    # it is seat 0's observation without its hand part
    obs = list(cr.observation(cr.view(e.cucumber_state, 0)))
    names = [name for name, size in cr.observation_parts(e.rules, 3) for _ in range(size)]
    public = [v for name, v in zip(names, obs, strict=True) if name != "hand"]
    assert state[: -3 * k].tolist() == public


def test_a_seed_replays_the_match_and_the_env_follows_the_rules() -> None:
    def play(seed: int) -> tuple[cr.State, dict[str, float]]:
        e = raw_env("gurka", players=3, fixed_rounds=2)
        e.reset(seed=seed)
        totals: dict[str, float] = {}
        rng = np.random.default_rng(seed)
        while e.agents:
            agent = e.agent_selection
            obs, reward, done, _truncated, _info = e.last()
            totals[agent] = totals.get(agent, 0.0) + reward
            assert obs["observation"].shape == (cr.observation_size(e.rules, 3),)
            assert obs["observation"].dtype == np.float32
            seat = e.possible_agents.index(agent)
            if done:
                e.step(None)
                continue
            assert e.cucumber_state.to_act == seat
            legal = np.flatnonzero(obs["action_mask"])
            assert sorted(cr.action_id(e.rules, a) for a in cr.legal_moves(e.cucumber_state)) == list(legal)
            e.step(rng.choice(legal))
        return e.cucumber_state, totals

    first, rewards = play(11)
    again, _ = play(11)
    assert first == again
    assert first.is_over
    assert [rewards[f"player_{s}"] for s in range(3)] == list(cr.returns(first))
    assert play(12)[0] != first


def test_revival_decisions_are_actions() -> None:
    e = env("agurk", players=4, revival=True, threshold=5)
    decisions = 0
    for seed in range(6):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _reward, done, truncated, _info = e.last()
            mask = obs["action_mask"]
            if not done and mask[52:].any():
                assert not mask[:52].any()  # a revival decision: no card to play
                decisions += 1
            e.step(None if done or truncated else e.action_space(agent).sample(mask))
    assert decisions > 0


def test_a_numpy_seed_is_a_seed() -> None:
    e = raw_env("agurk", players=4)
    e.reset(seed=np.int64(3))  # type: ignore[arg-type]
    first = e.observe(e.agent_selection)["observation"]
    e.reset(seed=3)
    assert (e.observe(e.agent_selection)["observation"] == first).all()


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
    e.reset(options={"state": state})
    assert e.agent_selection == "player_0"
    box = e.observation_space("player_1")["observation"]  # type: ignore[index]
    assert isinstance(box, spaces.Box)
    obs = e.observe("player_1")["observation"]
    assert box.contains(obs)
    parts = [name for name, size in cr.observation_parts(e.rules, 2) for _ in range(size)]
    totals = [float(v) for name, v in zip(parts, obs, strict=True) if name == "totals"]
    assert totals == [0.0, 14.0 * (rounds - 1)]
    assert max(top for name, top in zip(parts, box.high, strict=True) if name == "totals") == 14.0 * rounds
    e.step(int(cr.action_id(e.rules, plays[0])))
    assert box.contains(e.observe("player_0")["observation"])
    assert e.observe("player_1")["observation"][parts.index("totals") + 1] == 14.0 * rounds  # the bound
    assert e.state_space.contains(e.state())


def test_bad_input() -> None:
    with pytest.raises(cr.InvalidRulesError):
        raw_env("catastrophe", players=2)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("agurk", render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env("agurk", max_cycles=0)
    with pytest.raises(TypeError, match="strict"):
        raw_env("agurk", strict=1)  # type: ignore[arg-type]


def test_render_and_rules_objects(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(cr.ruleset("gurka"), players=np.int64(2), render_mode="ansi", threshold=21)  # type: ignore[arg-type]
    e.reset(seed=3)
    assert e.rules.threshold == 21
    text = e.render()
    assert text is not None
    assert text.startswith("gurka · round 1")
    assert raw_env("gurka").render() is None
    human = raw_env("gurka", fixed_rounds=1, hand_size=1, players=2, render_mode="human")
    human.reset(seed=1)
    while human.agents:
        _obs, _r, done, _t, _i = human.last()
        human.step(None if done else int(np.flatnonzero(_mask(human))[0]))
    assert human.render() is None
    totals = str(list(human.cucumber_state.match.totals))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3  # a line after each of the two plays, and the one asked for
    assert lines[-1] == lines[-2] == f"gurka · round 1 · totals {totals} · trick - · over"


def test_env_keeps_pettingzoos_order_checks(caplog: pytest.LogCaptureFixture) -> None:
    # `env` answers `last` and `step` without the wrapper's attribute detour: the wrapper's checks
    # must hold as PettingZoo's own `OrderEnforcingWrapper` makes them.
    e = env("gurka", players=2, hand_size=1, fixed_rounds=1)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    for name in ("agents", "agent_selection", "num_agents", "rewards", "infos"):
        with pytest.raises(AttributeError, match=f"^{name} cannot be accessed before reset$"):
            getattr(e, name)
        assert not hasattr(e, name)
    assert str(e) == str(wrappers.OrderEnforcingWrapper(raw_env("gurka"))) == "cucumber_gurka_v1"
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        e.last()
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before observe"):
        e.observe("player_0")
    e.reset(seed=2)
    assert e.agents is e.unwrapped.agents
    assert e.num_agents == 2
    assert e.agent_selection == e.unwrapped.agent_selection
    iterator = iter(e.agent_iter())
    agent = next(iterator)
    obs, reward, done, truncated, info = e.last()
    raw_obs, *rest = e.unwrapped.last()
    assert np.array_equal(obs["observation"], raw_obs["observation"])
    assert [reward, done, truncated, info] == rest
    with pytest.raises(AssertionError, match="need to call step\\(\\) or reset\\(\\)"):
        next(iterator)  # no step since the last agent was given
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert next(iterator) != agent
    while e.agents:
        _obs, _reward, done, truncated, _info = e.last()
        e.step(None if done or truncated else int(np.flatnonzero(_obs["action_mask"])[0]))
    e.step(None)  # PettingZoo's logger warns, and nothing happens
    assert "step() called after all agents are terminated" in caplog.text


# --------------------------------------------------------------------------- setting a state


def _played(rules: cr.Rules, players: int, seed: int, decisions: int) -> cr.State:
    """A library state: a deal drawn with `seed`, then `decisions` random legal moves (dealing on)."""
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    made = 0
    while not state.is_over and (made < decisions or state.to_act == cr.CHANCE):
        if state.to_act == cr.CHANCE:
            state = cr.apply(state, cr.sample_chance(state, rng))
            continue
        state = cr.apply(state, rng.choice(cr.legal_moves(state)))
        made += 1
    return state


def _agrees_with(e: Any, state: cr.State) -> None:
    """The environment shows `state` exactly: selection, observations, masks, infos, rewards."""
    raw = e.unwrapped
    assert raw.cucumber_state is state
    rules = raw.rules
    legal = sorted(cr.action_id(rules, m) for m in cr.legal_moves(state))
    assert e.agent_selection == f"player_{state.to_act}"
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert obs["observation"].tolist() == list(cr.observation(cr.view(state, seat)))
        assert e.observation_space(agent).contains(obs)
        expected = legal if seat == state.to_act else []
        assert np.flatnonzero(obs["action_mask"]).tolist() == expected
        assert np.flatnonzero(e.infos[agent]["action_mask"]).tolist() == expected
        assert e.rewards[agent] == 0.0
        assert not e.terminations[agent]
        assert not e.truncations[agent]
    assert e.state().tolist() == raw.state().tolist()


@pytest.mark.parametrize("preset", PRESETS)
def test_reset_to_a_state_plays_on_from_it(preset: str) -> None:
    rules = cr.ruleset(preset)
    players = 4 if rules.max_players >= 4 else rules.max_players
    state = _played(rules, players, seed=3, decisions=9)
    e = env(preset, players=players)
    e.reset(seed=1)
    e.reset(options={"state": state})
    _agrees_with(e, state)
    # and it plays on as the library does, move for move, to the end of the round
    rng = random.Random(4)
    while not state.is_over and state.match.rounds == 0:
        move = rng.choice(cr.legal_moves(state))
        e.step(cr.action_id(rules, move))
        state = cr.apply(state, move)
        if state.to_act == cr.CHANCE:  # the environment deals with its own generator
            state = e.unwrapped.cucumber_state
        else:
            assert e.unwrapped.cucumber_state == state
        if not state.is_over:
            _agrees_with(e, e.unwrapped.cucumber_state)


def test_reset_to_a_state_before_a_deal_deals_with_the_seed() -> None:
    rules = cr.ruleset("five-cucumbers")
    start = cr.new_game(rules, 3)
    first = raw_env("five-cucumbers", players=3)
    first.reset(seed=21, options={"state": start})
    again = env("five-cucumbers", players=3)
    again.reset(seed=21, options={"state": start})  # through PettingZoo's order checks, before any reset
    assert first.cucumber_state == again.unwrapped.cucumber_state
    assert first.cucumber_state.actions[:-1] == start.actions
    assert len(first.cucumber_state.hand(0)) == 7
    plain = raw_env("five-cucumbers", players=3)
    plain.reset(seed=21)
    assert plain.cucumber_state == first.cucumber_state  # a new match's state is no different
    _agrees_with(again, again.unwrapped.cucumber_state)
    again.reset(options={"state": None})  # None: a new match
    assert again.unwrapped.cucumber_state.match.rounds == 0


def test_reset_to_a_finished_match_hands_out_the_returns() -> None:
    rules = cr.ruleset("gurka", fixed_rounds=1, hand_size=2)
    state = _played(rules, 3, seed=5, decisions=10_000)
    assert state.is_over
    e = env(rules, players=3)
    e.reset(options={"state": state})
    assert all(e.terminations.values())
    assert [e.rewards[a] for a in e.possible_agents] == list(cr.returns(state))
    assert all(not m.any() for m in (e.infos[a]["action_mask"] for a in e.agents))
    seen = []
    for agent in e.agent_iter():
        _obs, reward, done, _truncated, _info = e.last()
        assert done
        seen.append((agent, reward))
        e.step(None)
    assert sorted(seen) == sorted(zip(e.possible_agents, cr.returns(state), strict=True))


def test_reset_refuses_a_state_of_other_rules_or_players_and_changes_nothing() -> None:
    e = env("agurk", players=4)
    e.reset(seed=2)
    before = e.unwrapped.cucumber_state
    selected = e.agent_selection
    refusals: list[tuple[Any, type[Exception], str]] = [
        (
            cr.new_game(cr.ruleset("gurka"), 4),
            ValueError,
            r'options\["state"\] is a match of gurka for 4 players; this environment plays agurk for 4',
        ),
        (cr.new_game(cr.ruleset("agurk"), 3), ValueError, "agurk for 3 players; .*agurk for 4 players"),
        (
            cr.new_game(cr.ruleset("agurk", threshold=30, lives=1), 4),
            ValueError,
            r"\(options threshold, lives differ\)",
        ),
        (cr.new_game(cr.ruleset("agurk", threshold=30), 4), ValueError, r"\(option threshold differs\)"),
        (cr.dumps(before), TypeError, "must be a cucumber_rules State"),
    ]
    for state, error, message in refusals:
        with pytest.raises(error, match=message):
            e.reset(seed=99, options={"state": state})
    with pytest.raises(TypeError, match="options must be a dict"):
        e.reset(options=[("state", before)])
    assert e.unwrapped.cucumber_state is before
    assert e.agent_selection == selected
    # the seed was not taken either: the next match is the one seed 2's generator deals next
    twin = env("agurk", players=4)
    twin.reset(seed=2)
    e.reset(options={"options": 1})  # another key is ignored (PettingZoo's api_test passes this one)
    twin.reset()
    assert e.unwrapped.cucumber_state == twin.unwrapped.cucumber_state
