"""`cucumber_rules.batch`: the API, its errors, chance, the bridge to the library, policies, the benchmark.

The lockstep comparison with the library over every preset and option is `test_batch_lockstep.py`;
the planted rule mutants the harness must catch are `test_batch_mutants.py`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

import cucumber_rules as cr
from cucumber_rules import batch


def _walk(env: batch.Env, state: batch.BatchState, steps: int, seed: int = 0) -> batch.BatchState:
    gen = np.random.default_rng(seed)
    for _ in range(steps):
        state = env.step(state, batch.random_actions(state.legal_action_mask, gen))
    return state


# --------------------------------------------------------------------------- shapes, dtypes, fields


@pytest.mark.parametrize("preset", ["agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe"])
def test_fields_have_fixed_shapes_and_32_bit_dtypes(preset: str) -> None:
    rules = cr.ruleset(preset)
    counts = range(rules.min_players, rules.max_players + 1)
    env = batch.make(preset, players=counts, size=12)
    s = _walk(env, env.init(3), 400)
    n = rules.max_players
    assert s.current_player.shape == (12,)
    assert s.current_player.dtype == np.int32
    assert s.legal_action_mask.shape == (12, cr.num_actions(rules))
    assert s.legal_action_mask.dtype == bool
    assert s.rewards.shape == (12, n)
    assert s.rewards.dtype == np.float32
    assert s.terminated.dtype == bool
    assert s.truncated.dtype == bool
    assert not s.truncated.any()
    assert env.observe(s).shape == (12, cr.observation_size(rules, n))
    assert env.observe(s).dtype == np.float32
    for name in batch.BatchState._fields[:-2]:
        assert getattr(s, name).dtype.itemsize <= 4, name
    assert env.players == tuple(counts[i % len(counts)] for i in range(12))


@pytest.mark.parametrize(
    "rules", [cr.ruleset("agurk", revival=True), cr.ruleset("catastrophe", surprise=True)], ids=str
)
def test_no_two_fields_share_an_array(rules: cr.Rules) -> None:
    # numpy updates in place: two fields holding one array would overwrite each other in a merge
    env = batch.make(rules, players=range(rules.min_players, rules.max_players + 1), size=9)
    s = env.init(0)
    gen = np.random.default_rng(1)
    for _ in range(300):
        arrays = [getattr(s, f) for f in batch.BatchState._fields[:-2]]
        assert len({id(a) for a in arrays}) == len(arrays)
        assert not any(np.shares_memory(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1 :])
        s = env.step(s, batch.random_actions(s.legal_action_mask, gen))


def test_make_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="3 to 7 players, not 2"):
        batch.make("agurk", players=2, size=4)
    with pytest.raises(ValueError, match="size must be"):
        batch.make("agurk", size=0)
    with pytest.raises(ValueError, match="illegal must be"):
        batch.make("agurk", size=2, illegal="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 counts for 3 lanes"):
        batch.make("agurk", players=[3, 4], size=3)
    with pytest.raises(TypeError, match="preset name or a Rules"):
        batch.make(42, size=2)  # type: ignore[arg-type]
    env = batch.make("agurk", players=3, size=2)
    with pytest.raises(ValueError, match="first must be a seat"):
        env.init(0, first=3)
    with pytest.raises(ValueError, match="2 integers"):
        env.init([1, 2, 3])


def test_backends_are_chosen_by_name() -> None:
    assert batch.make("agurk", size=2, backend="numpy").backend is batch.NUMPY
    with pytest.raises(ValueError, match="backend must be 'numpy', 'jax' or a Backend"):
        batch.make("agurk", size=2, backend="torch")
    if importlib.util.find_spec("jax") is None:  # (CI: the JAX tests are test_batch_jax.py, skipped)
        with pytest.raises(ImportError, match="pip install jax"):
            batch.make("agurk", size=2, backend="jax")


def test_a_plug_in_game_has_no_kernel() -> None:
    from cucumber_rules.batch.spec import spec_of

    class Other(cr.Rules):
        game = "other"

    with pytest.raises(TypeError, match="no batched kernel"):
        spec_of(object.__new__(Other), 4)


# --------------------------------------------------------------------------- stepping


def test_illegal_actions_raise_naming_the_lanes_and_lose_nothing() -> None:
    env = batch.make("gurka", players=3, size=4)
    s = env.init(0)
    kept = env.copy(s)
    actions = s.legal_action_mask.argmax(axis=1)
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(~s.legal_action_mask[2])[0])
    bad[3] = 99
    with pytest.raises(
        batch.IllegalActionError, match=r"illegal actions in 2 lanes: lane 2: seat 0 chose"
    ) as e:
        env.step(s, bad)
    assert e.value.lanes == (2, 3)
    assert "legal: [" in str(e.value)
    assert all(np.array_equal(getattr(s, f), getattr(kept, f)) for f in batch.BatchState._fields[:-2])
    env.step(s, actions)  # the state was not consumed by the refused step


def test_actions_must_be_one_integer_per_lane() -> None:
    env = batch.make("gurka", players=3, size=4)
    s = env.init(0)
    with pytest.raises(ValueError, match="4 integer action ids"):
        env.step(s, [0, 1])
    with pytest.raises(ValueError, match="4 integer action ids"):
        env.step(s, np.zeros(4))


def test_a_stepped_state_is_consumed() -> None:
    env = batch.make("agurk", players=4, size=2)
    s = env.init(0)
    a = s.legal_action_mask.argmax(axis=1)
    t = env.step(s, a)
    with pytest.raises(ValueError, match="already passed to step"):
        env.step(s, a)
    assert t.ticket == [True]


def test_public_fields_of_a_returned_state_are_never_changed_later() -> None:
    env = batch.make("gurka", players=2, size=64, auto_reset=True)
    gen = np.random.default_rng(0)
    s = env.init(0)
    kept = []
    for _ in range(300):
        s = env.step(s, batch.random_actions(s.legal_action_mask, gen))
        kept.append((s.rewards, s.rewards.copy(), s.legal_action_mask, s.legal_action_mask.copy()))
    for rewards, copy, mask, mask_copy in kept:
        assert np.array_equal(rewards, copy)
        assert np.array_equal(mask, mask_copy)
    assert sum(float(r.sum()) for r, *_ in kept) > 0


def test_public_fields_survive_partial_steps_and_restarts() -> None:
    env = batch.make("agurk", players=range(3, 8), size=16, auto_reset=False, illegal="penalty")
    gen = np.random.default_rng(0)
    s = env.init(0)
    kept = []
    for i in range(600):
        kept.append((s.current_player, s.current_player.copy(), s.terminated, s.terminated.copy()))
        actions = batch.random_actions(s.legal_action_mask, gen)
        if i % 50 == 7:
            actions[i % 16] = 60  # an illegal id: penalised
        s = env.step(s, actions, where=gen.random(16) < 0.7)
        if i % 5 == 0 and s.over.any():
            s = env.restart(s, s.over.copy())
    for player, copy, ended, ended_copy in kept:
        assert np.array_equal(player, copy)
        assert np.array_equal(ended, ended_copy)


def test_penalty_mode_ends_the_match_with_minus_one_for_the_offender() -> None:
    env = batch.make("agurk", players=4, size=3, illegal="penalty", auto_reset=False)
    s = env.init(0)
    actions = s.legal_action_mask.argmax(axis=1)
    actions[1] = int(np.flatnonzero(~s.legal_action_mask[1])[0])
    s = env.step(s, actions)
    assert s.terminated.tolist() == [False, True, False]
    assert s.rewards[1].tolist() == pytest.approx([-1.0, 1 / 3, 1 / 3, 1 / 3])
    assert s.rewards[[0, 2]].sum() == 0
    assert s.over[1]
    assert s.current_player[1] == -1
    assert s.legal_action_mask[1].all()  # pgx: all True once over
    s = env.step(s, s.legal_action_mask.argmax(axis=1))
    assert not s.rewards.any()
    assert not s.terminated[1]


def test_penalty_mode_with_auto_reset_starts_the_next_match() -> None:
    env = batch.make("catastrophe", players=3, size=2, illegal="penalty")
    s = env.init(0)
    actions = s.legal_action_mask.argmax(axis=1)
    actions[0] = 60
    s = env.step(s, actions)
    assert s.terminated.tolist() == [True, False]
    assert s.rewards[0].tolist() == [-1.0, 0.5, 0.5]
    assert int(s.match[0]) == 1
    assert s.hands[0].sum() == 30
    assert not s.over[0]


def test_without_auto_reset_a_finished_lane_waits() -> None:
    env = batch.make(cr.ruleset("gurka", fixed_rounds=1, hand_size=1), players=2, size=3, auto_reset=False)
    s = env.init(0)
    s = env.step(s, s.legal_action_mask.argmax(axis=1))
    s = env.step(s, s.legal_action_mask.argmax(axis=1))
    assert s.terminated.all()
    assert s.over.all()
    assert (s.current_player == -1).all()
    assert np.allclose(s.rewards.sum(axis=1), 1.0)
    assert s.legal_action_mask.all()
    s = env.step(s, np.zeros(3, np.int64))
    assert not s.terminated.any()
    assert not s.rewards.any()


def test_where_moves_only_some_lanes() -> None:
    env = batch.make("agurk", players=4, size=3)
    s = env.init(0)
    before = env.copy(s)
    s = env.step(s, s.legal_action_mask.argmax(axis=1), where=np.array([True, False, True]))
    assert s.trick_len.tolist() == [1, 0, 1]
    assert np.array_equal(s.hands[1], before.hands[1])
    assert int(s.current_player[1]) == int(before.current_player[1])


def test_auto_reset_is_gymnasiums_same_step() -> None:
    env = batch.make(cr.ruleset("gurka", fixed_rounds=1, hand_size=1), players=2, size=2)
    assert env.autoreset_mode == batch.AUTORESET_MODE == "same-step"
    s = env.init(0)
    s = env.step(s, s.legal_action_mask.argmax(axis=1))
    s = env.step(s, s.legal_action_mask.argmax(axis=1))
    assert s.terminated.all()
    assert np.allclose(s.rewards.sum(axis=1), 1.0)
    assert (s.match == 1).all()
    assert (s.hands.sum(axis=(1, 2)) == 2).all()
    assert (s.current_player == 0).all()


# --------------------------------------------------------------------------- chance


def test_a_lanes_deals_depend_only_on_its_key_match_and_round() -> None:
    keys = np.array([11, 22, 33], np.uint32)
    small = batch.make("agurk", players=4, size=3, record=True)
    big = batch.make("agurk", players=4, size=5)
    a = small.init(keys)
    b = big.init(np.array([99, 22, 11, 33, 7], np.uint32))
    assert np.array_equal(a.hands[0], b.hands[2])
    assert np.array_equal(a.hands[1], b.hands[1])
    assert not np.array_equal(a.hands[0], a.hands[1])
    again = _walk(small, small.init(keys), 500)
    once = _walk(small, small.init(keys), 500)
    for name in batch.BatchState._fields[:-2]:
        assert np.array_equal(getattr(again, name), getattr(once, name)), name


#: A digest of every array of the state after each of 400 steps (and the last observation) of 16 lanes
#: over the preset's player range from seed 2024, with the actions `_chosen` picks: a lane's games,
#: deals and returns for a seed stay the same from release to release (0.2's numbers; a change to
#: them is a change of the games a seed gives, to be said in the changelog).
DIGESTS = {
    "agurk": "bc0c356fa042237a",
    "catastrophe": "1534e854d0771df1",
    "five-cucumbers": "584afc582bfc34cd",
    "fuenf-gurken": "954f954af99fabfd",
    "gurka": "f2b075df57343edc",
}


def _chosen(mask: np.ndarray, step: int) -> np.ndarray:
    """A legal id per lane picked by a fixed rule (numpy's random streams may change between versions)."""
    counts = mask.sum(axis=1)
    pick = (np.arange(len(mask)) * 7 + step * 13) % counts
    chosen: np.ndarray = (np.cumsum(mask, axis=1) > pick[:, None]).argmax(axis=1)
    return chosen


@pytest.mark.parametrize("preset", sorted(DIGESTS))
def test_the_games_a_seed_gives_do_not_change(preset: str) -> None:
    rules = cr.ruleset(preset)
    env = batch.make(rules, players=range(rules.min_players, rules.max_players + 1), size=16)
    s = env.init(2024)
    digest = hashlib.sha256()
    for step in range(400):
        s = env.step(s, _chosen(s.legal_action_mask, step))
        for name in batch.BatchState._fields[:-2]:
            digest.update(np.ascontiguousarray(getattr(s, name)).tobytes())
    digest.update(env.observe(s).tobytes())
    assert int(s.match.sum()) > 0  # (matches ended and began again in the run)
    assert digest.hexdigest()[:16] == DIGESTS[preset]


def test_init_from_an_int_seed_is_reproducible() -> None:
    env = batch.make("catastrophe", players=range(3, 7), size=8)
    assert np.array_equal(env.init(5).hands, env.init(5).hands)
    assert not np.array_equal(env.init(5).hands, env.init(6).hands)


@pytest.mark.parametrize(("preset", "players"), [("agurk", 4), ("five-cucumbers", 3), ("catastrophe", 5)])
def test_deals_are_uniform(preset: str, players: int) -> None:
    # P(card id in seat) over 20,000 deals: every cell within 5 standard deviations (fixed keys, so the
    # test is deterministic; a biased shuffle, such as one seat always getting the low cards, fails).
    rules = cr.ruleset(preset)
    env = batch.make(rules, players=players, size=20_000)
    hands = env.init(2024).hands.astype(np.float64)[:, :players]
    deck = len(cr.DECKS[rules.deck])
    copies = deck // cr.num_actions(rules)
    p = rules.cards_per_player(players) / deck
    mean = hands.mean(axis=0)
    sd = np.sqrt(copies * p * (1 - p) / hands.shape[0])
    assert np.abs(mean - copies * p).max() < 5 * sd
    assert (hands.sum(axis=2) == rules.cards_per_player(players)).all()


def test_cant_beat_em_deals_every_five_into_the_hands() -> None:
    env = batch.make(cr.ruleset("catastrophe", cant_beat_em=True, surprise=True), players=6, size=500)
    s = env.init(1)
    fives = [4, 14, 24, 34, 44, 54]
    assert (s.hands[:, :, fives].sum(axis=1) == 1).all()
    assert not np.isin(s.stock, fives).any()
    assert (s.stock >= 0).sum(axis=1).tolist() == [8] * 500


# --------------------------------------------------------------------------- the library bridge


def _positions(rules: cr.Rules, count: int, seed: int) -> list[cr.State]:
    rng = random.Random(seed)
    out: list[cr.State] = []
    while len(out) < count:
        n = rng.randint(rules.min_players, rules.max_players)
        s = cr.new_game(rules, n, first=rng.randrange(n))
        for _ in range(rng.randint(0, 300)):
            if s.to_act is None:
                break
            s = cr.apply(
                s, cr.sample_chance(s, rng) if s.to_act == cr.CHANCE else rng.choice(cr.legal_moves(s))
            )
        if s.to_act is not None:
            out.append(s)
    return out


@pytest.mark.parametrize(
    "rules",
    [
        cr.ruleset("agurk", revival=True),
        cr.ruleset("five-cucumbers"),
        cr.ruleset("catastrophe", surprise=True, cant_beat_em=True),
    ],
    ids=["agurk-revival", "five-cucumbers", "catastrophe-both"],
)
def test_lanes_from_library_positions_go_on_in_lockstep(rules: cr.Rules) -> None:
    states = _positions(rules, 48, seed=7)
    env = batch.make(rules, players=[len(s.players) for s in states], size=48, record=True)
    report = batch.check(env, matches=60, start=states, observe=0.1)
    assert report.matches >= 60
    assert report.replays == 4


def test_from_scalar_refuses_what_it_cannot_start_from() -> None:
    env = batch.make("agurk", players=4, size=2)
    over = cr.apply_all(
        cr.new_game(cr.ruleset("agurk", fixed_rounds=1, hand_size=1), 4),
        [cr.Deal(hands=[["2C"], ["3C"], ["4C"], ["5C"]])],
    )
    with pytest.raises(ValueError, match="one per lane"):
        env.from_scalar([cr.new_game(cr.ruleset("agurk"), 4)])
    with pytest.raises(ValueError, match="not a state of the environment's rules"):
        env.from_scalar([over, over])
    with pytest.raises(ValueError, match="seats at most 4"):
        env.from_scalar([cr.new_game(cr.ruleset("agurk"), 5)] * 2)


def test_to_scalar_replays_a_lane() -> None:
    env = batch.make("agurk", players=range(3, 8), size=5, record=True)
    s = _walk(env, env.init(9), 120)
    for lane in range(5):
        t = env.to_scalar(s, lane)
        assert t.to_act == int(s.current_player[lane])
        assert [i for i, ok in enumerate(cr.legal_mask(t)) if ok] == np.flatnonzero(
            s.legal_action_mask[lane]
        ).tolist()
        n = len(t.players)
        want = cr.observation(cr.view(t, t.to_act))
        assert env.observe(s)[lane, : len(want)].tolist() == list(want) or n < 7
    plain = batch.make("agurk", players=4, size=2)
    with pytest.raises(ValueError, match="record=True"):
        plain.to_scalar(_walk(plain, plain.init(0), 3), 0)
    assert plain.to_scalar(plain.init(0), 1).to_act == 0  # nothing played yet: no log needed
    with pytest.raises(ValueError, match="lane must be"):
        plain.to_scalar(plain.init(0), 2)


def test_observe_takes_a_seat_per_lane() -> None:
    env = batch.make("catastrophe", players=4, size=3, record=True)
    s = _walk(env, env.init(1), 7)
    obs = env.observe(s, seat=np.array([0, 3, 2]))
    for lane, seat in enumerate([0, 3, 2]):
        assert obs[lane].tolist() == list(cr.observation(cr.view(env.to_scalar(s, lane), seat)))
    with pytest.raises(ValueError, match="seat must be a seat"):
        env.observe(s, seat=4)


# --------------------------------------------------------------------------- policies


def test_random_actions_are_legal_and_uniform() -> None:
    mask = np.zeros((20_000, 5), bool)
    mask[:, [1, 3, 4]] = True
    picks = batch.random_actions(mask, np.random.default_rng(0))
    counts = np.bincount(picks, minlength=5)
    assert counts[[0, 2]].sum() == 0
    assert abs(counts[[1, 3, 4]] - 20_000 / 3).max() < 300


@pytest.mark.parametrize("rules", [cr.ruleset("agurk", revival=True), cr.ruleset("five-cucumbers")], ids=str)
def test_the_ladder_heuristic_is_the_librarys(rules: cr.Rules) -> None:
    env = batch.make(rules, players=4, size=16, record=True)
    s = env.init(0)
    gen = np.random.default_rng(0)
    heuristic = cr.GAMES["ladder"].bots.heuristic
    for step in range(150):
        actions = batch.heuristic_actions(env, s)
        if step % 10 == 0:
            for lane in range(16):
                t = env.to_scalar(s, lane)
                want = heuristic(cr.view(t, t.to_act), random.Random(0))
                assert int(actions[lane]) == cr.action_id(rules, want)
        mixed = np.where(gen.random(16) < 0.5, actions, batch.random_actions(s.legal_action_mask, gen))
        s = env.step(s, mixed)


def test_the_catastrophe_heuristic_plays_legal_cards_and_beats_random_play() -> None:
    env = batch.make("catastrophe", players=4, size=256)
    s = env.init(0)
    gen = np.random.default_rng(0)
    wins = 0.0
    for _ in range(4 * 41 * 3):
        clever = batch.heuristic_actions(env, s)
        assert s.legal_action_mask[np.arange(256), clever].all()
        actions = np.where(s.current_player == 0, clever, batch.random_actions(s.legal_action_mask, gen))
        s = env.step(s, actions)
        wins += float(s.rewards[:, 0].sum())
    assert wins / (256 * 3) > 0.4  # a seat's share is 0.25


# --------------------------------------------------------------------------- the benchmark


def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "batch.py"
    found = importlib.util.spec_from_file_location("benchmarks_batch", path)
    assert found is not None
    assert found.loader is not None
    bench = importlib.util.module_from_spec(found)
    found.loader.exec_module(bench)

    assert (
        bench.main(
            ["--rounds", "1", "--seconds", "0.02", "--presets", "gurka", "catastrophe", "--sizes", "8"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "| catastrophe |" in out
    assert "numpy 1,024 + observe" in out
    assert "load average" in out
