"""Encodings for AI (cucumber_rules.encoding), returns and max_actions, and integers of any kind."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import numpy as np
import pytest

import cucumber_rules as cr
from cucumber_rules import encoding, simulate, testing
from cucumber_rules.bots import RandomBot
from helpers import catastrophe_state, catastrophe_table, random_states
from plugins.highcard import GAME

VARIANTS = [
    cr.ruleset("agurk"),
    cr.ruleset("agurk", revival=True, threshold=8),
    cr.ruleset("gurka", threshold=12),
    cr.ruleset("five-cucumbers"),
    cr.ruleset("fuenf-gurken"),
    cr.ruleset("catastrophe", hand_count=2),
    cr.ruleset("catastrophe", hand_count=2, surprise=True),
    cr.ruleset("catastrophe", hand_count=2, cant_beat_em=True),
    cr.ruleset("catastrophe", hand_count=2, surprise=True, cant_beat_em=True),
]


def _states(rules: cr.Rules, players: int, seed: int) -> Iterator[cr.State]:
    """Every state of a random match, dealt card by card through `chance_outcomes`."""
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    while True:
        yield state
        if state.is_over:
            return
        if state.to_act == cr.CHANCE:
            drawn: list[int] = []
            while outcomes := encoding.chance_outcomes(state, drawn):
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert all(p > 0 for _, p in outcomes)
                ids, probs = zip(*outcomes, strict=True)
                drawn.append(rng.choices(ids, probs)[0])
            deal = encoding.chance_deal(state, drawn)
            assert deal is not None
            state = cr.apply(state, deal)
        else:
            state = cr.apply(state, rng.choice(cr.legal_moves(state)))


@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{i}" for i, r in enumerate(VARIANTS)])
def test_every_state_encodes_consistently(rules: cr.Rules) -> None:
    n = rules.min_players + 1
    size = cr.observation_size(rules, n)
    bounds = encoding.observation_bounds(rules, n)
    assert len(bounds[0]) == len(bounds[1]) == size
    decisions = 0
    for state in _states(rules, n, seed=len(rules.name)):
        mask = cr.legal_mask(state)
        assert len(mask) == cr.num_actions(rules)
        legal = cr.legal_moves(state)
        assert [i for i, ok in enumerate(mask) if ok] == sorted(cr.action_id(rules, a) for a in legal)
        for action in legal:
            assert state.to_act is not None
            assert cr.action_of(rules, state.to_act, cr.action_id(rules, action)) == action
            decisions += isinstance(action, cr.Decision)
        for seat in range(n):
            obs = cr.observation(cr.view(state, seat))
            assert len(obs) == size
            assert all(isinstance(x, float) for x in obs)
            assert all(lo <= x <= hi for lo, x, hi in zip(bounds[0], obs, bounds[1], strict=True))
    assert state.is_over
    if rules.options().get("revival"):
        assert decisions > 0, "no revival decision came up: pick another seed"


def test_action_ids_are_stable_and_documented() -> None:
    agurk, cat, five = cr.ruleset("agurk"), cr.ruleset("catastrophe"), cr.ruleset("five-cucumbers")
    assert [cr.num_actions(r) for r in (agurk, cat, five)] == [52, 60, 15]
    assert cr.action_id(agurk, cr.Play(0, "2C")) == 0
    assert cr.action_id(agurk, cr.Play(6, "2S")) == 3
    assert cr.action_id(agurk, cr.Play(2, "AS")) == 51
    assert cr.action_id(cat, cr.Play(1, "1")) == 0
    assert cr.action_id(cat, cr.Play(1, "60")) == 59
    assert cr.action_id(five, cr.Play(0, "15")) == 14
    revival = cr.ruleset("gurka", revival=True)
    assert cr.num_actions(revival) == 54
    assert cr.action_of(revival, 3, 52) == cr.Revive(3, True)
    assert cr.action_of(revival, 3, 53) == cr.Revive(3, False)
    assert cr.action_id(revival, cr.Revive(0, False)) == 53


def test_action_encoding_refuses_bad_input() -> None:
    agurk = cr.ruleset("agurk")
    with pytest.raises(ValueError, match="not a card of the standard-52 deck"):
        cr.action_id(agurk, cr.Play(0, "42"))
    with pytest.raises(ValueError, match="not a decision"):
        cr.action_id(agurk, cr.Revive(0, True))  # no revival in these rules
    with pytest.raises(TypeError, match="Deal has no action id"):
        cr.action_id(agurk, cr.Deal(hands=[["2C"]]))
    with pytest.raises(TypeError):
        cr.action_id(agurk, "2C")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"action id must be 0\.\.51"):
        cr.action_of(agurk, 0, 52)
    with pytest.raises(ValueError, match="action id"):
        cr.action_of(agurk, 0, -1)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.6"):
        cr.action_of(agurk, 7, 0)
    with pytest.raises(TypeError):
        cr.action_of(agurk, 0, True)
    with pytest.raises(TypeError):
        cr.action_of(agurk, 0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cr.num_actions("agurk")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cr.legal_mask(cr.view(cr.new_game(agurk, 3), 0))  # type: ignore[arg-type]


def test_legal_mask_is_empty_at_chance_and_at_the_end() -> None:
    state = cr.new_game(cr.ruleset("gurka", hand_size=1, fixed_rounds=1), 2)
    assert not any(cr.legal_mask(state))
    state = cr.apply_all(state, [cr.Deal(hands=[["2C"], ["AS"]]), cr.Play(0, "2C")])
    assert [i for i, ok in enumerate(cr.legal_mask(state)) if ok] == [51]
    state = cr.apply(state, cr.Play(1, "AS"))
    assert state.is_over
    assert not any(cr.legal_mask(state))


def _part(rules: cr.Rules, players: int, obs: tuple[float, ...], name: str) -> tuple[float, ...]:
    at = 0
    for part, size in cr.observation_parts(rules, players):
        if part == name:
            return obs[at : at + size]
        at += size
    raise KeyError(name)


def test_observation_counts_seats_from_the_viewer() -> None:
    rules = cr.ruleset("agurk", hand_size=2)
    state = cr.apply(
        cr.new_game(rules, 3),
        cr.Deal(hands=[["2C", "KS"], ["3H", "AS"], ["4D", "4S"]]),
    )
    state = cr.apply(state, cr.Play(0, "KS"))  # seat 0 leads the KS
    for viewer in range(3):
        obs = cr.observation(cr.view(state, viewer))
        hand = _part(rules, 3, obs, "hand")
        assert [i for i, x in enumerate(hand) if x] == sorted(
            cr.action_id(rules, cr.Play(viewer, c)) for c in state.hand(viewer)
        )
        trick = _part(rules, 3, obs, "trick")
        relative = (0 - viewer) % 3
        ks = cr.action_id(rules, cr.Play(0, "KS"))
        assert [i for i, x in enumerate(trick) if x] == [relative * 52 + ks]
        assert _part(rules, 3, obs, "leader") == tuple(1.0 if r == relative else 0.0 for r in range(3))
        assert _part(rules, 3, obs, "to_act") == tuple(
            1.0 if r == (1 - viewer) % 3 else 0.0 for r in range(3)
        )
        sizes = _part(rules, 3, obs, "hand_sizes")
        assert sizes == tuple(float(state.hand_size((viewer + r) % 3)) for r in range(3))
        assert _part(rules, 3, obs, "round") == (1.0,)
    with pytest.raises(ValueError, match="spectator"):
        cr.observation(cr.view(state, None))
    with pytest.raises(TypeError):
        cr.observation(state)  # type: ignore[arg-type]


def _table(state: cr.State) -> cr.Table:
    assert state.table is not None
    return state.table


def test_catastrophe_observation_has_its_marker_reveal_and_captures() -> None:
    rules = cr.ruleset("catastrophe", surprise=True)
    state = cr.new_game(rules, 3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(4)))
    while len(_table(state).tricks) < 1 or len(state.trick) < 1:
        state = cr.apply(state, cr.legal_moves(state)[0])
    table = catastrophe_table(_table(state))
    obs = cr.observation(cr.view(state, 1))
    revealed = _part(rules, 3, obs, "revealed")
    assert table.revealed is not None
    assert [i for i, x in enumerate(revealed) if x] == [table.revealed.rank - 1]
    marker = _part(rules, 3, obs, "marker")
    assert sum(marker) == (0.0 if catastrophe_state(state).marker is None else 1.0)
    captured = _part(rules, 3, obs, "captured")
    taker = table.tricks[0].taker
    assert captured[(taker - 1) % 3] > 0
    seen = _part(rules, 3, obs, "seen")
    assert sum(seen) == 3 + 2  # the first trick's three cards and its reveal, and the current reveal


def test_ladder_observation_has_eliminations_marks_and_revival() -> None:
    rules = cr.ruleset("agurk")
    parts = [name for name, _ in cr.observation_parts(rules, 4)]
    assert parts[-4:] == ["eliminated", "marks", "sitting_out", "pending"]
    assert cr.observation_size(rules, 4) == 52 * 2 + 4 * 52 + 4 * 4 + 1 + 4 * 4
    # No one goes out of a Catastrophe match: it has no such part (format 3's views have no field for it).
    catastrophe = {name for name, _ in cr.observation_parts(cr.ruleset("catastrophe"), 4)}
    assert not {"eliminated", "out", "marks"} & catastrophe
    # The flags of the seats out, counted from the viewer.
    rules = cr.ruleset("gurka", threshold=6, hand_size=3)
    state = next(
        s
        for s in random_states(rules, 4, seed=3, limit=2000)
        if not s.is_over and s.to_act != cr.CHANCE and any(cr.score(s).eliminated)
    )
    out = cr.score(state).eliminated
    for viewer in range(4):
        flags = _part(rules, 4, cr.observation(cr.view(state, viewer)), "eliminated")
        assert flags == tuple(1.0 if out[(viewer + r) % 4] else 0.0 for r in range(4))


def test_chance_outcomes_refuse_bad_draws() -> None:
    state = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
    with pytest.raises(ValueError, match="not a card left"):
        encoding.chance_outcomes(state, [60])
    with pytest.raises(ValueError, match="not a card left"):
        encoding.chance_outcomes(state, [3, 3])
    with pytest.raises(ValueError, match="chance outcomes"):
        encoding.chance_deal(state, [0, 1, 2])
    dealt = cr.apply(state, cr.Deal(hands=[["2C"], ["AS"]]))
    with pytest.raises(ValueError, match="no deal is due"):
        encoding.chance_outcomes(dealt)
    assert encoding.chance_outcomes(state, [0, 51]) == ()


def test_the_starter_is_drawn_among_tied_seats() -> None:
    rules = cr.ruleset("catastrophe", hand_count=2, hand_size=1, cucumbers=(0,) * 60)  # nobody ever scores
    state = cr.new_game(rules, 3)
    assert encoding.deal_plan(state).leaders == ()  # the first hand: seat `first` starts
    state = cr.apply(state, cr.Deal(hands=[["2"], ["3"], ["4"]]))
    for _ in range(3):
        state = cr.apply(state, cr.legal_moves(state)[0])
    assert state.match.totals == (0, 0, 0)
    plan = encoding.deal_plan(state)
    assert plan.leaders == (0, 1, 2)
    k = cr.num_actions(rules)
    assert len(encoding.chance_outcomes(state, [0, 1])) == 58  # the third card: any of the 58 left
    outcomes = encoding.chance_outcomes(state, [0, 1, 2])
    assert outcomes == tuple((k + s, 1 / 3) for s in (0, 1, 2))
    assert encoding.chance_deal(state, [0, 1, 2]) is None
    deal = encoding.chance_deal(state, [0, 1, 2, k + 2])
    assert deal is not None
    assert deal.leader == 2
    assert cr.apply(state, deal).to_act == 2
    with pytest.raises(ValueError, match="chance outcome"):
        encoding.chance_deal(state, [0, 1, 2, 3])


def test_a_third_game_gets_encodings_from_the_defaults() -> None:
    with testing.registered(GAME):
        rules = cr.ruleset("highcard")
        assert cr.num_actions(rules) == 52
        for state in _states(rules, 3, seed=2):
            assert sum(cr.legal_mask(state)) == len(cr.legal_moves(state))
            assert len(cr.observation(cr.view(state, 1))) == cr.observation_size(rules, 3)
        assert sum(cr.returns(state)) == pytest.approx(1.0)
        assert cr.max_actions(rules, 3) == 5 * 4


def test_returns_share_the_win() -> None:
    rules = cr.ruleset("gurka", hand_size=1, fixed_rounds=1)
    state = cr.new_game(rules, 3)
    assert cr.returns(state) == (0.0, 0.0, 0.0)
    state = cr.apply_all(state, [cr.Deal(hands=[["2C"], ["AS"], ["3C"]]), cr.Play(0, "2C")])
    assert cr.returns(state) == (0.0, 0.0, 0.0)  # nobody has won while the match runs
    state = cr.apply_all(state, [cr.Play(1, "AS"), cr.Play(2, "3C")])
    assert state.match.winners == (0, 2)
    assert cr.returns(state) == (0.5, 0.0, 0.5)
    with pytest.raises(TypeError):
        cr.returns(cr.view(state, 0))  # type: ignore[arg-type]


def test_max_actions_is_public_and_the_testing_bound() -> None:
    for rules in VARIANTS:
        for n in (rules.min_players, rules.max_players):
            assert cr.max_actions(rules, n) == testing.action_bound(rules, n)
            assert cr.max_actions(rules, n) == type(rules)._game.max_actions(rules, n)
    cat = cr.ruleset("catastrophe")
    assert cr.max_actions(cat, 4) == 4 * (1 + 4 * 10)
    with pytest.raises(ValueError, match="3 to 6 players"):
        cr.max_actions(cat, 7)
    with pytest.raises(TypeError):
        cr.max_actions(cat, True)
    with pytest.raises(TypeError):
        cr.max_actions("catastrophe", 4)  # type: ignore[arg-type]


class Index:
    """The least an integer needs: `__index__` (what numpy's integers have)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint8, Index], ids=lambda k: k.__name__)
def test_integers_of_any_kind(kind: type) -> None:
    rules = cr.ruleset("gurka", threshold=kind(12), hand_size=kind(3))
    assert rules.threshold == 12
    state = cr.new_game(rules, kind(3), first=kind(1))
    assert state.first == 1
    assert state.num_players == 3
    assert cr.card(kind(42)) is cr.card("42")
    assert cr.Play(kind(1), kind(7)) is cr.Play(1, "7")
    assert cr.Revive(kind(2), True).seat == 2
    assert cr.Deal(hands=[[kind(1)], [kind(2)]], leader=kind(1)).leader == 1
    assert cr.view(state, kind(2)).seat == 2
    assert cr.public_history(state, kind(2)) == ()
    assert cr.Record(rules=rules, players=["a", "b", "c"], first=kind(2), actions=[]).first == 2
    assert cr.max_actions(rules, kind(3)) == cr.max_actions(rules, 3)
    assert cr.observation_size(rules, kind(3)) == cr.observation_size(rules, 3)
    assert cr.observation_parts(rules, kind(3)) == cr.observation_parts(rules, 3)
    assert cr.action_of(rules, kind(2), kind(51)) == cr.Play(2, "AS")
    assert encoding.chance_outcomes(state, [kind(0)]) == encoding.chance_outcomes(state, [0])
    assert testing.action_bound(rules, kind(3)) == cr.max_actions(rules, 3)
    assert testing.check_game(rules, matches=kind(1), seed=kind(2), players=kind(3)).matches == 1
    assert testing.check_game(rules, matches=2, seed=2, players=[kind(2), kind(3)]).players == (2, 3)
    result = simulate.simulate(rules, kind(2), "random", matches=kind(2), seed=kind(1))
    assert len(result.matches) == 2
    assert simulate.play_match(rules, [RandomBot()] * 2, seed=kind(1), first=kind(1)).is_over
    dealt = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    assert dealt.hand(kind(1)) == dealt.hand(1)
    assert dealt.hand_size(kind(1)) == 3


@pytest.mark.parametrize("bad", [True, 1.0, "1"])
def test_bools_floats_and_text_are_not_integers(bad: object) -> None:
    rules = cr.ruleset("gurka")
    for call in (
        lambda: cr.new_game(rules, 3, first=bad),  # type: ignore[arg-type]
        lambda: cr.view(cr.new_game(rules, 3), bad),  # type: ignore[arg-type]
        lambda: cr.max_actions(rules, bad),  # type: ignore[arg-type]
        lambda: cr.observation_size(rules, bad),  # type: ignore[arg-type]
        lambda: cr.action_of(rules, bad, 0),  # type: ignore[arg-type]
        lambda: cr.action_of(rules, 0, bad),  # type: ignore[arg-type]
        lambda: simulate.simulate(rules, 2, "random", matches=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("players", [2, 8, 0, 17])
def test_observation_sizes_refuse_a_player_count_the_rules_forbid_like_max_actions(players: int) -> None:
    rules = cr.ruleset("agurk")  # 3 to 7 players (the observation once took any count 1..16)
    message = f"^agurk is for 3 to 7 players, not {players}$"
    with pytest.raises(ValueError, match=message):
        cr.max_actions(rules, players)
    for call in (
        cr.observation_size,
        cr.observation_parts,
        encoding.observation_bounds,
        encoding.common_parts,
    ):
        with pytest.raises(ValueError, match=message):
            call(rules, players)
    with pytest.raises(TypeError, match=r"^rules must be a Rules"):
        cr.observation_size("agurk", 3)  # type: ignore[arg-type]


def test_values_copy_as_themselves() -> None:
    state = cr.new_game(cr.ruleset("catastrophe", surprise=True), 3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    values = [
        state,
        state.match,
        state.table,
        state.rules,
        cr.view(state, 0),
        cr.score(state),
        cr.record(state),
        cr.Play(0, "5"),
        cr.card("5"),
        encoding.deal_plan(cr.new_game(cr.ruleset("agurk"), 3)),
    ]
    for value in values:
        assert copy.copy(value) is value
        assert copy.deepcopy(value) is value


@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{i}" for i, r in enumerate(VARIANTS)])
def test_deal_outcomes_deal_the_deal_again(rules: cr.Rules) -> None:
    rng = random.Random(5)
    state = cr.new_game(rules, rules.max_players)
    while not state.is_over:
        if state.to_act != cr.CHANCE:
            state = cr.apply(state, rng.choice(cr.legal_moves(state)))
            continue
        deal = cr.sample_chance(state, rng)
        assert isinstance(deal, cr.Deal)
        outcomes = encoding.deal_outcomes(state, deal)
        assert encoding.chance_outcomes(state, outcomes) == ()
        again = encoding.chance_deal(state, outcomes)
        assert again is not None
        assert again.hands == deal.hands
        assert again.leader == deal.leader
        assert again.stock == deal.stock[: encoding.deal_plan(state).stock]  # the cards the round turns up
        state = cr.apply(state, again)
    with pytest.raises(ValueError, match="no deal is due"):
        encoding.deal_outcomes(state, cr.Deal(hands=[[]]))
    with pytest.raises(ValueError, match="not a legal deal"):
        encoding.deal_outcomes(cr.new_game(rules, 3), cr.Deal(hands=[[], [], []]))


@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{i}" for i, r in enumerate(VARIANTS)])
def test_a_card_by_card_deal_is_the_deal_its_fields_make_and_skips_checks_only_there(rules: cr.Rules) -> None:
    rng = random.Random(9)
    state = cr.new_game(rules, rules.max_players)
    drawn = cr.sample_chance(state, rng)
    assert isinstance(drawn, cr.Deal)
    deal = encoding.chance_deal(state, encoding.deal_outcomes(state, drawn))
    assert deal is not None
    # Built without the converters: the same value, sorted hands of the shared cards.
    rebuilt = cr.Deal(hands=deal.hands, stock=deal.stock, leader=deal.leader)
    assert deal == rebuilt
    assert all(c is cr.card(str(c)) for hand in deal.hands for c in hand)
    assert cr.apply(state, deal) == cr.apply(state, rebuilt)
    # Checked once for its own state only: elsewhere `apply` checks it again.
    fewer = cr.new_game(rules, rules.max_players - 1)
    assert fewer.to_act == cr.CHANCE
    with pytest.raises(cr.IllegalMoveError):
        cr.apply(fewer, deal)


def test_observation_bounds_of_a_third_game_are_finite_and_hold() -> None:
    with testing.registered(GAME):
        rules = cr.ruleset("highcard")
        low, high = encoding.observation_bounds(rules, 3)
        parts = [name for name, size in cr.observation_parts(rules, 3) for _ in range(size)]
        wide = {name for name, lo, hi in zip(parts, low, high, strict=True) if hi == encoding.UNKNOWN_BOUND}
        assert wide == {"totals", "round"}  # what only the game could bound
        assert all(lo == -hi for name, lo, hi in zip(parts, low, high, strict=True) if name in wide)
        for state in _states(rules, 3, seed=4):
            obs = cr.observation(cr.view(state, 0))
            assert all(lo <= x <= hi for lo, x, hi in zip(low, obs, high, strict=True))
