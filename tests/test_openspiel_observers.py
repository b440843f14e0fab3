"""OpenSpiel observers: every `IIGObservationType` keeps every card hidden from it hidden (twin matches that
differ only in such cards observe the same), perfect recall remembers the whole match, and undo.

The `openspiel` extra is part of the test environment (tools/test.sh, tools/dev.sh).
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
import random
from collections import Counter
from typing import Any

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.observation import make_observation

import cucumber_rules as cr
from cucumber_rules import encoding
from cucumber_rules.openspiel import HISTORY_TENSOR_LIMIT, CucumberState

pytestmark = pytest.mark.framework

#: Matches whose rounds are bounded, so that every observer has a tensor.
GAMES = [
    ("cucumber_gurka", {"players": 3, "fixed_rounds": 3}),
    ("cucumber_agurk", {"players": 4, "threshold": 8, "revival": True, "round_limit": 6}),
    ("cucumber_five_cucumbers", {"players": 3, "round_limit": 5}),
    ("cucumber_catastrophe", {"players": 3, "hand_count": 2, "surprise": True}),
    ("cucumber_catastrophe", {"players": 4, "hand_count": 2, "cant_beat_em": True}),
]

PRIVATE = {
    "none": pyspiel.PrivateInfoType.NONE,
    "single": pyspiel.PrivateInfoType.SINGLE_PLAYER,
    "all": pyspiel.PrivateInfoType.ALL_PLAYERS,
}
#: Every observation type OpenSpiel defines: (perfect recall, public information, whose private information).
KINDS = list(itertools.product((False, True), (False, True), PRIVATE))


def _kind(perfect_recall: bool, public: bool, private: str) -> pyspiel.IIGObservationType:
    return pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=public, private_info=PRIVATE[private]
    )


def _openspiel(game: pyspiel.Game, state: cr.State) -> CucumberState:
    """The OpenSpiel state that plays the library state's history (deals card by card)."""
    out: CucumberState = game.new_initial_state()
    for action in state.actions:
        if type(action) is cr.Deal:
            for outcome in encoding.deal_outcomes(out.cucumber_state, action):
                out.apply_action(outcome)
        else:
            out.apply_action(cr.action_id(state.rules, action))
    return out


def _random_state(game: pyspiel.Game, seed: int, cut: int) -> CucumberState:
    rng = random.Random(seed)
    state: CucumberState = game.new_initial_state()
    for _ in range(cut):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, odds)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():  # observe where a seat acts (or at the end)
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def _twin(state: cr.State, keep: set[int], rng: random.Random) -> cr.State | None:
    """`state` with the hidden cards of its last deal dealt anew: the unplayed cards of the seats not in
    `keep`, the stock's cards not turned up yet and (ladder) the cards not dealt, shuffled among those
    places. Every card played or turned up stays where it was. None if a recorded play becomes illegal."""
    actions = list(state.actions)
    last = max(i for i, a in enumerate(actions) if type(a) is cr.Deal)
    deal: cr.Deal = actions[last]  # type: ignore[assignment]
    played: dict[int, list[cr.Card]] = {}
    for a in actions[last + 1 :]:
        if type(a) is cr.Play:
            played.setdefault(a.seat, []).append(a.card)
    plan = encoding.deal_plan(cr.apply_all(cr.new_game(state.rules, state.players), actions[:last]))
    stock = list(deal.stock[: plan.stock])
    shown = 0
    if getattr(state.rules, "surprise", False) and state.round is not None:
        shown = len(state.round.tricks) + (1 if state.round.revealed is not None else 0)
    pool: list[cr.Card] = []
    for seat, hand in enumerate(deal.hands):
        if seat not in keep:
            pool += list((Counter(hand) - Counter(played.get(seat, ()))).elements())
    pool += stock[shown:]
    if state.rules.game == "ladder" and not keep >= set(range(len(deal.hands))):
        dealt = Counter(c for h in deal.hands for c in h)
        pool += list((Counter(cr.DECKS[state.rules.deck]) - dealt).elements())
    rng.shuffle(pool)
    cards = iter(pool)
    hands = []
    for seat, hand in enumerate(deal.hands):
        if seat in keep:
            hands.append(hand)
        else:
            hands.append(
                (*played.get(seat, ()), *(next(cards) for _ in range(len(hand) - len(played.get(seat, ())))))
            )
    new_stock = (*stock[:shown], *(next(cards) for _ in stock[shown:]))
    actions[last] = cr.Deal(hands=hands, stock=new_stock, leader=deal.leader)
    try:
        return cr.apply_all(cr.new_game(state.rules, state.players), actions)
    except cr.IllegalMoveError:
        return None


def _keep(private: str, seat: int, players: int) -> set[int]:
    """The seats whose hands an observer of this kind may see."""
    return {"none": set(), "single": {seat}, "all": set(range(players))}[private]


def _observe(observer: Any, state: CucumberState, seat: int) -> tuple[Any, ...]:
    tensor = None
    if observer.tensor is not None:
        observer.set_from(state, seat)
        tensor = observer.tensor.tolist()
    return tensor, observer.string_from(state, seat)


# --------------------------------------------------------------------------- secrecy


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GAMES)])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 600))
def test_every_observer_keeps_every_hidden_card_hidden(
    name: str, params: dict[str, object], seed: int, cut: int
) -> None:
    game = pyspiel.load_game(name, params)
    state = _random_state(game, seed, cut)
    lib = state.cucumber_state
    if lib.round is None:
        return
    rng = random.Random(seed)
    n = game.num_players()
    compared = 0
    for perfect_recall, public, private in KINDS:
        observer = make_observation(game, _kind(perfect_recall, public, private))
        assert observer.tensor is not None  # the rounds are bounded: every kind has a tensor
        for seat in range(n):
            twin = next((t for t in (_twin(lib, _keep(private, seat, n), rng) for _ in range(10)) if t), None)
            if twin is None:
                continue
            other = _openspiel(game, twin)
            compared += 1
            assert _observe(observer, other, seat) == _observe(observer, state, seat), (
                f"perfect_recall={perfect_recall} public={public} private={private} seat {seat} "
                "observes cards hidden from it"
            )
            # and the Python answers of the state itself (information state / observation) agree
            if public and private == "single":
                ask = state.information_state_tensor if perfect_recall else state.observation_tensor
                again = other.information_state_tensor if perfect_recall else other.observation_tensor
                assert ask(seat) == again(seat)
                assert ask(seat) == pytest.approx(_observe(observer, state, seat)[0])
    assert compared or lib.is_over


def test_the_twins_differ_and_the_harness_can_fail() -> None:
    # Twins that deal the other seats anew do differ, and an observer that may see those cards (every
    # seat's private information) tells them apart: the test above is not vacuous.
    game = pyspiel.load_game("cucumber_gurka", {"players": 3, "fixed_rounds": 3})
    state = _random_state(game, 3, 10)
    rng = random.Random(1)
    twin = next(t for t in (_twin(state.cucumber_state, {0}, rng) for _ in range(20)) if t)
    assert twin.hands[0] == state.cucumber_state.hands[0]
    assert twin.hands[1:] != state.cucumber_state.hands[1:]
    other = _openspiel(game, twin)
    everyone = make_observation(game, _kind(False, True, "all"))
    mine = make_observation(game, _kind(False, True, "single"))
    assert _observe(everyone, other, 0) != _observe(everyone, state, 0)
    assert _observe(mine, other, 0) == _observe(mine, state, 0)
    public = make_observation(game, _kind(True, True, "none"))
    mine_again = next(t for t in (_twin(state.cucumber_state, set(), rng) for _ in range(20)) if t)
    assert mine_again.hands[0] != state.cucumber_state.hands[0]
    assert _observe(public, _openspiel(game, mine_again), 0) == _observe(public, state, 0)


@pytest.mark.parametrize(("perfect_recall", "public", "private"), KINDS, ids=str)
def test_every_observer_type_has_its_parts(perfect_recall: bool, public: bool, private: str) -> None:
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hand_count": 2, "surprise": True})
    observer = make_observation(game, _kind(perfect_recall, public, private))
    parts = list(observer.dict)
    assert ("hand" in parts) == ((private == "single" and not perfect_recall) or private == "single")
    assert ("hands" in parts) == (private == "all")
    assert ("totals" in parts) == public
    assert ("plays" in parts) == (perfect_recall and public)
    assert ("dealt" in parts) == (perfect_recall and private != "none")
    state = _random_state(game, 5, 40)
    tensor, text = _observe(observer, state, 1)
    assert len(tensor) == sum(v.size for v in observer.dict.values())
    if not public and private == "none":
        assert tensor == []
        assert text == ""
    else:
        assert text
    if public and private == "single" and perfect_recall:
        assert tensor == state.information_state_tensor(1)
        assert text == state.information_state_string(1)
    if public and private == "single" and not perfect_recall:
        assert tensor == state.observation_tensor(1)
        assert text == state.observation_string(1)


def test_observers_refuse_parameters() -> None:
    game = pyspiel.load_game("cucumber_gurka", {"players": 2})
    with pytest.raises(ValueError, match="no observation parameters"):
        make_observation(game, _kind(False, True, "single"), {"x": 1})


# --------------------------------------------------------------------------- perfect recall


def _whole_history_entries(observer: Any, s: cr.State, player: int) -> dict[int, float]:
    """The perfect-recall entries worked out from the whole match's events at once (no round kept)."""
    seat = player if observer.private_info == "single" else None
    deals = tuple(a for a in s.actions if type(a) is cr.Deal) if observer.private_info == "all" else ()
    ones: dict[int, float] = {}
    observer._fold(cr.public_history(s, seat), player, ones, -1, deals)
    return ones


#: Each game, and one observer of each perfect-recall kind of it, kept across examples: the observers'
#: rounds stay cached.
_WARM: dict[str, tuple[pyspiel.Game, dict[tuple[bool, bool, str], Any]]] = {}


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GAMES)])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 600))
def test_kept_rounds_give_the_whole_histories_entries(
    name: str, params: dict[str, Any], seed: int, cut: int
) -> None:
    # The information state keeps each round's entries once worked out, by the history before the
    # round's deal: for every kind, in matches played on, rebuilt from JSON (one segment of history) and
    # sharing a deal object with another match, they must be what the whole history gives.
    game, observers = _WARM.setdefault(
        f"{name}{sorted(params.items())}", (pyspiel.load_game(name, params), {})
    )
    state = _random_state(game, seed, cut).cucumber_state
    loaded = cr.loads(cr.dumps(state))
    assert isinstance(loaded, cr.State)
    states = [state, loaded]
    deals = [i for i, a in enumerate(state.actions) if type(a) is cr.Deal]
    other = _random_state(game, seed + 1, 600).cucumber_state.actions
    other_deals = [i for i, a in enumerate(other) if type(a) is cr.Deal]
    if len(deals) >= 2 and len(other_deals) >= 2:  # another first round, then this match's deal object
        # (the deal may not fit after that round: a starter or a seat dealt in differs)
        with contextlib.suppress(cr.IllegalMoveError):
            actions = [*other[: other_deals[1]], *state.actions[deals[1] :]]
            states.append(cr.apply_all(cr.new_game(state.rules, state.players), actions))
    for kind in KINDS:
        if not kind[0]:  # not perfect recall: nothing kept
            continue
        warm = observers.setdefault(kind, make_observation(game, _kind(*kind)))
        if warm.tensor is None:
            continue
        cold = make_observation(game, _kind(*kind))
        for s in states:
            for player in range(game.num_players()):
                expected = _whole_history_entries(cold, s, player)
                for observer in (warm, cold):
                    _head, earlier, ones = observer._entries(s, player)
                    assert not earlier.keys() & ones.keys(), (kind, player)
                    assert {**earlier, **ones} == expected, (kind, player)


def test_the_information_state_remembers_earlier_rounds() -> None:
    # Two matches whose first rounds differ only in cards (same payer, same points) and whose second
    # rounds are the same: the information state tells them apart, the compact observation does not.
    game = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 1, "fixed_rounds": 2})
    rules = game.rules

    def played(first: tuple[str, str]) -> CucumberState:
        s = cr.new_game(rules, 2)
        s = cr.apply(s, cr.Deal(hands=[[first[0]], [first[1]]]))
        s = cr.apply_all(s, [cr.Play(s.to_act, first[s.to_act]), cr.Play(1 - s.to_act, first[1 - s.to_act])])  # type: ignore[index,operator]
        s = cr.apply(s, cr.Deal(hands=[["9S"], ["KH"]]))
        return _openspiel(game, s)

    a, b = played(("2C", "3C")), played(("2D", "3D"))
    seat = a.current_player()
    assert a.cucumber_state.match.totals == b.cucumber_state.match.totals
    assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.observation_string(seat) == b.observation_string(seat)
    assert a.information_state_string(seat) != b.information_state_string(seat)
    assert a.information_state_tensor(seat) != b.information_state_tensor(seat)


@pytest.mark.parametrize(("name", "params"), GAMES[:1] + GAMES[3:4], ids=["gurka", "catastrophe"])
def test_information_state_string_and_tensor_tell_the_same_states_apart(
    name: str, params: dict[str, object]
) -> None:
    # Perfect recall as OpenSpiel means it: two states are the same information state for a seat
    # exactly when the seat saw the same match; the tensor and the string agree on that, and a state
    # resampled for the seat is in the same information state.
    game = pyspiel.load_game(name, {**params, "hand_size": 2})
    by_string: dict[str, list[float]] = {}
    by_tensor: dict[tuple[float, ...], str] = {}
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(40):
        rng = random.Random(seed)
        state: CucumberState = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            seat = state.current_player()
            text, tensor = state.information_state_string(seat), state.information_state_tensor(seat)
            assert by_string.setdefault(text, tensor) == tensor
            assert by_tensor.setdefault(tuple(tensor), text) == text
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_tensor(seat) == tensor
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(by_string) > 100


def test_unbounded_matches_offer_the_string_but_no_tensor() -> None:
    game = pyspiel.load_game("cucumber_agurk", {"players": 4})
    assert not game.get_type().provides_information_state_tensor
    assert (
        pyspiel.load_game("cucumber_agurk", {"players": 4, "round_limit": 20})
        .get_type()
        .provides_information_state_tensor
    )
    assert game.get_type().provides_observation_tensor
    observer = make_observation(game, _kind(True, True, "single"))
    assert observer.tensor is None
    state = _random_state(game, 1, 100)
    assert state.information_state_string(state.current_player()).startswith("seat ")
    with pytest.raises(ValueError, match=r"no perfect-recall tensor.*754 rounds.*round_limit"):
        state.information_state_tensor(state.current_player())
    limited = pyspiel.load_game("cucumber_agurk", {"players": 4, "round_limit": 20})
    assert limited.information_state_tensor_size() <= HISTORY_TENSOR_LIMIT


# --------------------------------------------------------------------------- undo


def test_undo_takes_back_actions_across_deals_and_rounds() -> None:
    game = pyspiel.load_game("cucumber_gurka", {"players": 3, "hand_size": 2, "fixed_rounds": 3})
    rng = random.Random(2)
    state: CucumberState = game.new_initial_state()
    trail: list[tuple[int, int, str, list[int], Any]] = []
    while not state.is_terminal():
        player = state.current_player()
        options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        action = rng.choice(options)
        trail.append((player, action, str(state), state.history(), state.cucumber_state))
        state.apply_action(action)
    assert len(trail) == state.move_number() > 30
    final = state.clone()
    for player, action, text, history, lib in reversed(trail):
        state.undo_action(player, action)
        assert (str(state), state.history(), state.cucumber_state) == (text, history, lib)
        assert state.move_number() == len(history)
        assert [(p.player, p.action) for p in state.full_history()] == [
            (t[0], t[1]) for t in trail[: len(history)]
        ]
    assert state.is_initial_state()
    assert final.is_terminal()  # the clone kept its own history
    # and forward again, to the same end
    for _, action, *_ in trail:
        state.apply_action(action)
    assert state.cucumber_state == final.cucumber_state
    assert state.history() == final.history()


def test_undo_refuses_what_was_not_the_last_action() -> None:
    state = pyspiel.load_game("cucumber_gurka", {"players": 2}).new_initial_state()
    with pytest.raises(ValueError, match="no action to undo"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 0)
    state.apply_action(7)
    with pytest.raises(ValueError, match="last action was 7 of player -1, not 8"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 8)
    assert state.history() == [7]


def test_an_undone_state_pickles_clones_and_serializes_with_its_history() -> None:
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hand_count": 1})
    state = _random_state(game, 4, 45)
    last = state.full_history()[-1]
    state.undo_action(last.player, last.action)
    for copy in (
        pickle.loads(pickle.dumps(state)),
        state.clone(),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ):
        assert copy.history() == state.history()
        assert copy.move_number() == state.move_number()
        assert copy.cucumber_state == state.cucumber_state
        assert str(copy) == str(state)
        copy.apply_action(last.action)  # the undone action is legal again


def test_kept_rounds_are_safe_to_share_between_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # Threads ask one observer for information states at once, while it keeps rounds and (kept
    # two at a time) keeps dropping them: every tensor must be what an observer of their own gives.
    import sys
    import threading

    from cucumber_rules.openspiel import observers

    monkeypatch.setattr(observers, "_ROUNDS_KEPT", 2)
    game = pyspiel.load_game("cucumber_catastrophe", {"players": 3, "hand_count": 3, "surprise": True})
    states = [_random_state(game, seed, cut) for seed in range(4) for cut in (70, 150, 250, 330)]
    shared = make_observation(game, _kind(True, True, "single"))
    expected = {
        (i, p): make_observation(game, _kind(True, True, "single")).values(s, p)
        for i, s in enumerate(states)
        for p in range(3)
    }
    errors: list[str] = []

    def ask(k: int) -> None:
        for i in [*range(k, len(states)), *range(k)] * 4:
            for p in range(3):
                if shared.values(states[i], p) != expected[i, p]:
                    errors.append(f"state {i}, player {p}")

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(before)
    assert not errors, errors[:5]
