"""The OpenSpiel adapter: every preset passes OpenSpiel's own simulation checks, and its bots play it.

The `openspiel` extra is part of the test environment (tools/test.sh, tools/dev.sh): these tests import
pyspiel unconditionally, so a missing framework fails the suite instead of skipping it.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.observation import make_observation
from open_spiel.python.tests import games_sim_test

import cucumber_rules as cr
from cucumber_rules import encoding
from cucumber_rules.games.catastrophe.rules import CatastropheRules
from cucumber_rules.games.ladder.rules import LadderRules, round_limit
from cucumber_rules.openspiel import GAME_NAMES, CucumberState, ISMCTSBot, game_name, load_game, rules_of

pytestmark = pytest.mark.framework

#: Short matches of every preset and variant: OpenSpiel's checks replay the history at every step.
CASES = [
    ("cucumber_agurk", {"players": 3, "fixed_rounds": 2}),
    ("cucumber_agurk", {"players": 4, "threshold": 8, "revival": True}),
    ("cucumber_gurka", {"players": 2, "threshold": 15}),
    ("cucumber_five_cucumbers", {"players": 3}),
    ("cucumber_fuenf_gurken", {"players": 2}),
    ("cucumber_catastrophe", {"players": 3, "hand_count": 2}),
    ("cucumber_catastrophe", {"players": 4, "hand_count": 2, "surprise": True}),
    ("cucumber_catastrophe", {"players": 5, "hand_count": 2, "cant_beat_em": True}),
    ("cucumber_catastrophe", {"players": 6, "hand_count": 2, "surprise": True, "cant_beat_em": True}),
]


def test_every_preset_is_registered() -> None:
    assert set(GAME_NAMES) >= {
        "cucumber_agurk",
        "cucumber_gurka",
        "cucumber_five_cucumbers",
        "cucumber_fuenf_gurken",
        "cucumber_catastrophe",
    }
    registered = {g.short_name for g in pyspiel.registered_games()}
    assert set(GAME_NAMES) <= registered


@pytest.mark.parametrize(("name", "params"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_random_sim_test(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["cucumber_gurka", "cucumber_catastrophe"])
def test_openspiel_python_api_checks(name: str) -> None:
    """OpenSpiel's own Python checks (its games_sim_test): pickling, clones, serialization, returns."""
    np.random.seed(3)
    params = (
        {"players": 3, "fixed_rounds": 1} if name == "cucumber_gurka" else {"players": 3, "hand_count": 1}
    )
    games_sim_test.GamesSimTest().sim_game(pyspiel.load_game(name, params))


def test_game_parameters_are_the_options() -> None:
    game = pyspiel.load_game("cucumber_gurka", {"players": 5, "threshold": 21, "ace_lead": False})
    assert game.num_players() == 5
    rules = game.rules
    assert (rules.threshold, rules.ace_lead, rules.follow) == (21, False, "forced-lowest")
    assert game.num_distinct_actions() == 52
    # OpenSpiel counts decisions, not chance outcomes: every action but one deal per round
    assert game.max_game_length() == cr.max_actions(rules, 5) - round_limit(rules, 5)
    cat = pyspiel.load_game(
        "cucumber_catastrophe(players=6,surprise=True,cucumbers=" + ":".join(["2"] * 60) + ")"
    )
    assert cat.rules.cucumbers == (2,) * 60
    assert cat.rules.surprise
    assert cat.num_players() == 6
    assert rules_of("agurk", {"fixed_rounds": 0})[0].fixed_rounds is None
    assert rules_of("agurk", {"round_limit": 0})[0].round_limit is None
    limited = pyspiel.load_game("cucumber_agurk", {"players": 3, "round_limit": 4})
    assert limited.rules.round_limit == 4
    assert cr.max_actions(limited.rules, 3) == 4 * (1 + 3 * 7)
    assert limited.max_game_length() == 4 * 3 * 7
    assert limited.max_chance_nodes_in_history() == 4 * (3 * 7 + 1)
    with pytest.raises(cr.InvalidRulesError, match="players") as caught:
        rules_of("catastrophe", {"players": 2})
    assert caught.value.option == "players"  # (as PettingZoo's `env` and `new_game` say it)
    with pytest.raises(cr.InvalidRulesError, match="no parameter 'min_players'") as caught:
        rules_of("catastrophe", {"min_players": 4})
    assert caught.value.option == "min_players"
    with pytest.raises(cr.InvalidRulesError):
        rules_of("gurka", {"follow": "sideways"})


def _play_out(state: CucumberState, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_match_is_the_library_match() -> None:
    game = pyspiel.load_game("cucumber_agurk", {"players": 3, "fixed_rounds": 1})
    state = game.new_initial_state()
    _play_out(state, random.Random(4))
    s = state.cucumber_state
    assert s.is_over
    assert state.returns() == list(cr.returns(s))
    assert sum(state.returns()) == pytest.approx(1.0)
    # the OpenSpiel history replays in the library: deals card by card, then ids
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert again.cucumber_state == s
    assert cr.replay(cr.record(s)) == s


def test_chance_nodes_deal_card_by_card() -> None:
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "surprise": True, "cant_beat_em": True})
    state = game.new_initial_state()
    steps = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])  # the highest card left: the deal is forced to keep the fives
        steps += 1
    assert steps == 30 + 10  # every hand card, then a reveal per trick
    deal = state.cucumber_state.history[0]
    assert isinstance(deal, cr.Deal)
    assert len(deal.stock) == 10
    fives = {c for c in cr.DECKS["numbered-60"] if c.rank % 10 == 5}
    assert fives <= {c for h in deal.hands for c in h}
    assert not fives & set(deal.stock)


def test_card_by_card_deals_have_sample_chances_odds() -> None:
    """Each 5-cucumber card lands in seat 0's hand a third of the time, drawn either way (3 players)."""
    rules = cr.ruleset("catastrophe", cant_beat_em=True)
    start = cr.new_game(rules, 3)
    rng = random.Random(8)
    by_card: Counter[str] = Counter()
    by_deal: Counter[str] = Counter()
    runs = 300
    for _ in range(runs):
        drawn: list[int] = []
        while outcomes := encoding.chance_outcomes(start, drawn):
            ids, probs = zip(*outcomes, strict=True)
            drawn.append(rng.choices(ids, probs)[0])
        deal = encoding.chance_deal(start, drawn)
        assert deal is not None
        by_card.update(str(c) for c in deal.hands[0])
        sampled = cr.sample_chance(start, rng)
        assert isinstance(sampled, cr.Deal)
        by_deal.update(str(c) for c in sampled.hands[0])
    for five in ("5", "25", "55"):
        assert abs(by_card[five] / runs - 1 / 3) < 0.1
        assert abs(by_deal[five] / runs - 1 / 3) < 0.1
    # the other cards fill the remaining 24 places of 30: each is in seat 0's hand 4/54 of the time
    others = sum(v for k, v in by_card.items() if int(k) % 10 != 5)
    assert others == runs * 10 - sum(by_card[f] for f in ("5", "15", "25", "35", "45", "55"))


def test_tensors_and_strings() -> None:
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 4})
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or len(state.cucumber_state.trick) < 2:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    s = state.cucumber_state
    seat = s.to_act
    assert state.observation_tensor(seat) == pytest.approx(cr.observation(cr.view(s, seat)))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, seat)
    assert info.tensor.shape == (len(state.information_state_tensor(seat)),)
    hand = info.dict["hand"]
    assert [i for i in range(60) if hand[i]] == [c.rank - 1 for c in s.hand(seat)]
    assert "hand" in state.information_state_string(seat)
    other = (seat + 1) % 4
    assert state.observation_string(seat) != state.observation_string(other)


def test_state_pickles_and_serializes() -> None:
    game = pyspiel.load_game("cucumber_five_cucumbers", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.history() == state.history()
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.history() == state.history()
    assert str(copy) == str(state)


def _play_out_with(game: pyspiel.Game, rng: random.Random, choose: Any) -> tuple[pyspiel.State, int]:
    """A whole match: chance outcomes drawn with `rng`, every seat's action from `choose(state)` (checked
    legal); the final state and how many actions `choose` gave."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        action = choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    return state, decisions


def _rounds_bound(rules: cr.Rules, players: int) -> int:
    """The most rounds of a match, from the rules alone (not from the adapter)."""
    if isinstance(rules, CatastropheRules):
        return rules.hand_count
    assert isinstance(rules, LadderRules)
    return round_limit(rules, players)


@pytest.mark.parametrize("preset", ["agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe"])
def test_max_game_length_is_max_actions_less_a_deal_per_round(preset: str) -> None:
    # OpenSpiel's MaxGameLength counts decisions, never chance outcomes; `max_actions` counts a deal as
    # one action, and a match deals once a round: the two differ by the bound on rounds, exactly.
    rules = cr.ruleset(preset)
    for players in range(rules.min_players, rules.max_players + 1):
        game = load_game(preset, {"players": players})
        rounds = _rounds_bound(rules, players)
        assert game.max_game_length() == cr.max_actions(rules, players) - rounds
        per_deal = players * rules.cards_per_player(players) + 1  # every card dealt, and a starter
        if rules.options().get("surprise"):
            per_deal += rules.cards_per_player(players)
        assert game.max_chance_nodes_in_history() == rounds * per_deal
        assert game.max_history_length() == game.max_game_length() + game.max_chance_nodes_in_history()


def test_max_game_length_figures_in_the_docs() -> None:
    # the figures the package docstring gives: Agurk with 4 players
    agurk = load_game("agurk", {"players": 4})
    assert (cr.max_actions(agurk.rules, 4), _rounds_bound(agurk.rules, 4)) == (21_866, 754)
    assert agurk.max_game_length() == 21_112
    # a Catastrophe match takes exactly max_game_length decisions: the bound is reached
    game = load_game("catastrophe", {"players": 4, "hand_count": 2})
    rng = random.Random(9)
    _state, decisions = _play_out_with(game, rng, lambda s: rng.choice(s.legal_actions()))
    assert decisions == game.max_game_length() == 2 * 4 * 10


_CXX_BOT = """
import sys, pyspiel, cucumber_rules.openspiel
game = cucumber_rules.openspiel.load_game("catastrophe", {"players": 3, "hand_count": 1})
evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
if sys.argv[1] == "mcts":
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 8, 100, False, 1, False)
else:
    bot = pyspiel.ISMCTSBot(1, evaluator, 2.0, 8)
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
print("searching", flush=True)
print("chose", bot.step(state), flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["mcts", "ismcts"])
def test_openspiels_cxx_bots_crash_on_python_games(bot: str) -> None:
    # The docs (the package docstring, docs/ai.md) say OpenSpiel's C++ MCTSBot and ISMCTSBot crash on
    # games written in Python and send users to the Python bots. This holds the statement to the
    # installed OpenSpiel: should a release fix it, this fails, and the docs are to be updated.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _CXX_BOT, bot], capture_output=True, text=True, timeout=120, check=False
    )
    assert "searching" in done.stdout, done.stderr[-2000:]
    assert done.returncode < 0, f"pyspiel's C++ {bot} bot no longer crashes: update the docs ({done.stdout})"


def test_mcts_bot_plays_a_match() -> None:
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hand_count": 1})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=np.random.RandomState(1)
    )
    rng = random.Random(5)
    searched: list[int] = []

    def choose(state: pyspiel.State) -> int:
        if state.current_player() != 0:
            return int(rng.choice(state.legal_actions()))
        searched.append(bot.step(state))
        return searched[-1]

    state, _ = _play_out_with(game, rng, choose)
    assert len(searched) == 10
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("cucumber_gurka", {"players": 3, "hand_size": 3, "fixed_rounds": 1}),
        ("cucumber_catastrophe", {"players": 3, "hand_count": 1, "hand_size": 3, "surprise": True}),
    ],
)
def test_openspiels_ismcts_bot_plays_on_resampled_worlds(name: str, params: dict[str, object]) -> None:
    # OpenSpiel's information-set MCTS resamples the hidden cards at every simulation through
    # `resample_from_infostate`: each world must look the same to the seat and differ elsewhere.
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.5, max_simulations=6, random_state=rs)
    differed: list[bool] = []

    def choose(state: pyspiel.State) -> int:
        player = state.current_player()
        hidden = set()
        for _ in range(8):
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.legal_actions() == state.legal_actions()
            hidden.add(str(world.cucumber_state.hands))
        differed.append(len(hidden) > 1)
        return int(bot.step(state))

    state, decisions = _play_out_with(game, random.Random(4), choose)
    assert decisions == 9
    assert differed[0]  # the other hands are drawn anew
    assert sum(state.returns()) == pytest.approx(1.0)


def test_no_resampling_in_the_middle_of_a_deal() -> None:
    state = pyspiel.load_game("cucumber_gurka", {"players": 2}).new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="middle of a deal"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


# --------------------------------------------------------------------------- refused actions change nothing


def _snapshot(state: CucumberState) -> tuple[object, ...]:
    """Everything a caller can read of an OpenSpiel state."""
    node = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
    return (
        state.history(),
        [(p.player, p.action) for p in state.full_history()],
        state.move_number(),
        state.drawn,
        state.cucumber_state,
        str(state),
        state.serialize(),
        state.is_terminal(),
        state.current_player(),
        state.returns(),
        node,
    )


def _refusals(state: CucumberState, rng: random.Random) -> list[int]:
    """Action ids that must be refused here: out of range, a card already dealt, an illegal card."""
    game = state.get_game()
    k = game.num_distinct_actions()
    bad = [-2, -(2**40), 2**40, k + game.max_chance_outcomes()]  # (OpenSpiel refuses -1 itself)
    if state.is_terminal():
        return [*bad, 0, rng.randrange(k)]
    if state.is_chance_node():
        possible = {a for a, _ in state.chance_outcomes()}
        bad += [a for a in range(game.max_chance_outcomes()) if a not in possible]
        bad += [
            a for a in state.drawn if a not in possible
        ]  # cards just dealt, again (Five Cucumbers has copies)
    else:
        bad += [a for a in range(k) if a not in state.legal_actions()]
    return bad


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_a_refused_action_changes_nothing(case: tuple[str, dict[str, object]], seed: int, cut: int) -> None:
    game = pyspiel.load_game(*case)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(cut):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    before = _snapshot(state)
    for action in rng.sample(_refusals(state, rng), min(6, len(_refusals(state, rng)))):
        with pytest.raises((ValueError, TypeError)):
            state.apply_action(action)
        assert _snapshot(state) == before, f"refusing {action} changed the state"
    # and the state still plays on as before
    _play_out(state, rng)
    assert state.is_terminal()


def test_dealing_a_card_twice_is_refused_and_the_deal_goes_on() -> None:
    state = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2}).new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    with pytest.raises(ValueError, match="not a card left to deal"):
        state.apply_action(first)
    assert state.drawn == (first,)
    assert state.history() == [first]
    assert first not in [a for a, _ in state.chance_outcomes()]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.history() == [0, 1, 2, 3]


def test_an_action_after_the_end_says_the_match_is_over() -> None:
    state = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 1, "fixed_rounds": 1})
    state = state.new_initial_state()
    _play_out(state, random.Random(1))
    winner = cr.score(state.cucumber_state).winners[0]
    with pytest.raises(cr.IllegalMoveError, match=f"the match is over \\(won by seat {winner}\\)") as caught:
        state.apply_action(0)
    assert caught.value.code == "game-over"


def test_the_state_s_values_cannot_be_changed_from_outside() -> None:
    state = pyspiel.load_game("cucumber_gurka", {"players": 2}).new_initial_state()
    state.apply_action(5)
    assert state.drawn == (5,)
    with pytest.raises(AttributeError):
        state.drawn = ()
    with pytest.raises(AttributeError):
        state.cucumber_state = cr.new_game(cr.ruleset("gurka"), 2)
    clone = state.clone()
    clone.apply_action(6)
    assert state.drawn == (5,)
    assert clone.drawn == (5, 6)


# --------------------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    ("name", "params", "option"),
    [
        ("gurka", {"threshold": 2**62}, "threshold"),
        ("gurka", {"fixed_rounds": 2**62}, "fixed_rounds"),
        ("gurka", {"threshold": 2**31 - 1}, "round_limit"),  # fits, but matches could outrun OpenSpiel
        ("gurka", {"players": "three"}, "players"),
        ("gurka", {"players": 2**40}, "players"),
        ("gurka", {"threshold": 1.5}, "threshold"),
        ("gurka", {"threshold": True}, "threshold"),
        ("catastrophe", {"cucumbers": "a:b"}, "cucumbers"),
        ("catastrophe", {"cucumbers": "1:2"}, "cucumbers"),
        ("catastrophe", {"hand_count": 2**33}, "hand_count"),
    ],
)
def test_bad_parameters_are_invalid_rules(name: str, params: dict[str, object], option: str) -> None:
    with pytest.raises(cr.InvalidRulesError) as caught:
        rules_of(name, params)
    assert caught.value.option == option
    with pytest.raises(cr.InvalidRulesError):
        load_game(name, params)
    with pytest.raises(cr.InvalidRulesError):
        type(pyspiel.load_game(game_name(name)))(params)  # the game class itself, as pyspiel calls it


def test_load_game_takes_presets_names_and_tables() -> None:
    assert load_game("five-cucumbers").rules.name == "five-cucumbers"
    assert load_game("cucumber_gurka", {"players": 3}).num_players() == 3
    table = load_game("catastrophe", {"cucumbers": (2,) * 60})
    assert table.rules.cucumbers == (2,) * 60
    assert pyspiel.load_game(str(table)).rules.cucumbers == (2,) * 60
    with pytest.raises(cr.InvalidRulesError, match="no OpenSpiel game or preset named 'chess'"):
        load_game("chess")


# --------------------------------------------------------------------------- resampling keeps the history


@pytest.mark.parametrize(("name", "params"), CASES[:3] + CASES[5:7], ids=str)
def test_a_resampled_state_has_a_history_that_makes_it(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(7)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        if rng.random() < 0.2:
            player = state.current_player()
            world = state.resample_from_infostate(player, sampler)
            assert world.move_number() == state.move_number() == len(state.history())
            assert len(world.history()) == len(state.history())
            again = game.new_initial_state()
            for a in world.history():
                again.apply_action(a)
            assert again.cucumber_state == world.cucumber_state
            assert [p.player for p in world.full_history()] == [p.player for p in state.full_history()]
            assert world.information_state_string(player) == state.information_state_string(player)
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 3


def test_the_ismcts_bot_restarts_for_openspiels_evaluate_bots() -> None:
    # OpenSpiel's Python ISMCTSBot has no restart_at, which evaluate_bots calls: ours adds it.
    game = pyspiel.load_game("cucumber_gurka", {"players": 3, "hand_size": 3, "fixed_rounds": 2})
    rs = np.random.RandomState(4)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.5, 8, random_state=rs)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [theirs] * 3, rs)
    ours = ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.5, 8, random_state=rs)
    values = evaluate_bots.evaluate_bots(game.new_initial_state(), [ours, RandomBot(), RandomBot()], rs)
    assert sum(values) == pytest.approx(1.0)


class RandomBot(pyspiel.Bot):  # type: ignore[misc]
    """A uniformly random OpenSpiel bot (for evaluate_bots)."""

    def __init__(self) -> None:
        pyspiel.Bot.__init__(self)
        self._rng = random.Random(0)

    def step(self, state: pyspiel.State) -> int:
        return int(self._rng.choice(state.legal_actions()))

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to forget."""

    def inform_action(self, state: pyspiel.State, player: int, action: int) -> None:
        """Nothing to follow."""


@pytest.mark.parametrize(("name", "params"), CASES)
def test_listed_moves_are_kept_across_clones_and_undo(name: str, params: dict[str, object]) -> None:
    # `legal_actions` remembers the moves behind its ids for the state it was asked about; a clone,
    # an undone action and a refused one must each play on from their own state, not from that memory.
    rng = random.Random(3)
    state = pyspiel.load_game(name, params).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        ids = state.legal_actions()
        seat = state.current_player()
        first, last = ids[0], ids[-1]
        twin = state.clone()
        state.apply_action(first)
        rules = twin.cucumber_state.match.rules
        assert state.cucumber_state.history[-1] == encoding.action_of(rules, seat, first)
        state.undo_action(seat, first)
        assert state.legal_actions() == ids == twin.legal_actions()
        twin.apply_action(last)
        illegal = next((a for a in range(state.get_game().num_distinct_actions()) if a not in ids), None)
        if illegal is not None:
            with pytest.raises(cr.IllegalMoveError):
                state.apply_action(illegal)
        state.apply_action(last)
        assert state.cucumber_state == twin.cucumber_state
        assert state.history() == twin.history()
