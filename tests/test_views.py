"""Player views: what a seat may know, and nothing more (issue 5)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import Action, Card, Deal, Dealt, Play, PlayerView, Revealed, Rules, State
from cucumber_rules.games.catastrophe.views import CatastropheViews
from helpers import autoplay, cards, catastrophe_trick, ladder_state, play, random_states, start

#: Every preset, plus the variants that change what is hidden (the stock, revivals).
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("agurk", {}),
    ("gurka", {}),
    ("five-cucumbers", {}),
    ("fuenf-gurken", {}),
    ("gurka", {"revival": True, "threshold": 12, "hand_size": 3}),
    ("catastrophe", {}),
    ("catastrophe", {"surprise": True}),
    ("catastrophe", {"surprise": True, "cant_beat_em": True}),
]


def _variant_id(v: tuple[str, dict[str, Any]]) -> str:
    return v[0] + "".join(f",{k}={x}" for k, x in v[1].items())


def rules_of(name: str, options: dict[str, Any]) -> Rules:
    return cr.ruleset(name, **options)


def cards_in(value: Any) -> Iterator[Card]:
    """Every card object anywhere inside a value (attrs classes, tuples), Rules excluded."""
    if type(value) is Card:
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from cards_in(item)
    elif attrs.has(type(value)) and not isinstance(value, Rules):
        for f in attrs.fields(type(value)):
            yield from cards_in(getattr(value, f.name))


def revealed_ever(states: list[State]) -> set[Card]:
    """The cards turned up from the stock at any point (Surprise Cucumber)."""
    out: set[Card] = set()
    for s in states:
        if s.round is not None and getattr(s.round, "revealed", None) is not None:
            out.add(s.round.revealed)
    return out


# --------------------------------------------------------------------------- unit tests


def _agurk() -> State:
    return start(
        cr.ruleset("agurk", hand_size=3),
        "2C 9S KD",
        "3D 10H AS",
        "4H 5H QC",
    )


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    s = play(_agurk(), "9S")
    v = cr.view(s, 1)
    assert isinstance(v, PlayerView)
    assert [str(c) for c in v.hand] == ["3D", "10H", "AS"]
    assert v.hand_sizes == (2, 3, 3)
    assert v.seat == 1
    assert v.to_act == 1
    assert v.trick == (Play(0, "9S"),)
    assert v.leader == 0
    assert v.legal == cr.legal_moves(s)
    assert [str(m.card) for m in v.legal] == ["3D", "10H", "AS"]  # type: ignore[union-attr]
    # Not seat 0's turn: no legal moves for seat 0 even though it holds cards.
    assert cr.view(s, 0).legal == ()
    assert [str(c) for c in cr.view(s, 0).hand] == ["2C", "KD"]


def test_spectator_view_has_no_hand_and_no_moves() -> None:
    s = _agurk()
    v = cr.view(s, None)
    assert v.seat is None
    assert v.is_spectator
    assert v.hand == ()
    assert v.legal == ()
    assert v.hand_sizes == (3, 3, 3)
    assert v.events == (Dealt(hand=(), sizes=(3, 3, 3), leader=None),)


def test_view_is_frozen_and_not_a_state() -> None:
    v = cr.view(_agurk(), 0)
    assert not isinstance(v, State)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        v.hand = ()  # type: ignore[misc]


def test_view_fields_are_a_whitelist() -> None:
    # Adding a field to a view class must be a conscious decision: update these lists and the leak tests.
    common = [
        "rules", "players", "seat", "first", "hand", "hand_sizes", "to_act", "dealer", "leader", "trick",
        "tricks", "totals", "winners", "standings", "round_points", "results", "round_number", "legal",
        "events",
    ]  # fmt: skip
    assert [f.name for f in attrs.fields(PlayerView)] == common
    # marks and eliminations are the ladder's alone: Catastrophe's views do not carry zeros for them
    ladder = [*common, "marks", "eliminated", "sitting_out", "pending"]
    assert [f.name for f in attrs.fields(cr.LadderView)] == ladder
    assert [f.name for f in attrs.fields(cr.CatastropheView)] == [*common, "revealed", "marker", "captured"]
    for game in cr.GAMES.values():
        names = {f.name for f in attrs.fields(game.view_type)}
        assert not names & {"stock", "hands", "history", "past", "round", "match", "table", "extra"}


def test_deal_event_holds_only_the_viewers_cards() -> None:
    s = play(_agurk(), "9S", "10H", "QC")
    for seat, hand in enumerate(["2C 9S KD", "3D 10H AS", "4H 5H QC"]):
        dealt = cr.view(s, seat).events[0]
        assert dealt == Dealt(hand=cards(hand), sizes=(3, 3, 3), leader=None)
    assert cr.view(s, 0).events[1:] == (Play(0, "9S"), Play(1, "10H"), Play(2, "QC"))


def test_own_hand_in_deal_event_is_sorted() -> None:
    s = cr.apply(
        cr.new_game(cr.ruleset("gurka", hand_size=2), players=2), Deal(hands=[["KS", "2C"], ["AS", "3H"]])
    )
    assert cr.view(s, 0).events[0] == Dealt(hand=cards("2C KS"), sizes=(2, 2))


def test_completed_tricks_scores_and_round_number() -> None:
    s = autoplay(_agurk())  # the whole round, first legal move each time
    v = cr.view(s, 2)
    assert len(v.tricks) == 3
    assert v.tricks == s.round.tricks  # type: ignore[union-attr]
    sc = cr.score(s)
    assert isinstance(v, cr.LadderView)
    assert isinstance(sc, cr.LadderScore)
    assert (v.totals, v.round_points, v.marks, v.eliminated, v.winners, v.standings, v.results) == (
        sc.totals, sc.round_points, sc.marks, sc.eliminated, sc.winners, sc.standings, sc.results,
    )  # fmt: skip
    assert sum(v.totals) > 0
    assert v.round_number == 1
    assert v.to_act == cr.CHANCE
    assert v.hand_sizes == (0, 0, 0)
    s2 = cr.apply(s, cr.sample_chance(s, random.Random(0)))
    assert cr.view(s2, 2).round_number == 2
    assert cr.view(s2, 2).tricks == ()
    assert cr.view(cr.new_game(cr.ruleset("agurk"), 3), 0).round_number == 0


def test_before_the_first_deal() -> None:
    v = cr.view(cr.new_game(cr.ruleset("agurk"), players=["A", "B", "C"], first=1), 2)
    assert v.players == ("A", "B", "C")
    assert v.first == 1
    assert v.hand == ()
    assert v.hand_sizes == (0, 0, 0)
    assert v.leader is None
    assert v.to_act == cr.CHANCE
    assert v.events == ()
    assert v.dealer == 0


def test_view_rejects_bad_arguments() -> None:
    s = _agurk()
    with pytest.raises(TypeError):
        cr.view("state", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cr.view(s, True)
    with pytest.raises(TypeError):
        cr.view(s, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        cr.view(s, 3)
    with pytest.raises(ValueError, match="seat"):
        cr.view(s, -1)


def test_catastrophe_marker_and_captured_are_public() -> None:
    s = cr.apply(
        cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        Deal(hands=[["7", "40"], ["9", "50"], ["2", "3"]]),
    )
    s = play(s, "7", "9")
    v = cr.view(s, 2)
    assert v.marker == "high"
    s = play(s, "2")  # seat 2 cannot go higher: breaks the High rule and takes the trick
    v = cr.view(s, 0)
    assert catastrophe_trick(v.tricks[0]).marker == "high-broken"
    assert sorted(str(c) for c in v.captured[2]) == ["2", "7", "9"]


def test_surprise_reveals_appear_when_turned_and_never_before() -> None:
    rules = cr.ruleset("catastrophe", surprise=True)
    states = random_states(rules, 3, seed=11, limit=80)
    for s in states[1:]:
        assert s.round is not None
        for seat in (0, 1, 2, None):
            v = cr.view(s, seat)
            reveals = [e.card for e in cr.public_history(s, seat) if type(e) is Revealed]
            # The reveals of the current hand match the engine's record of them, in order.
            assert [type(e) for e in v.events].count(Dealt) == 1
            assert type(v.events[0]) is Dealt
            current = [e.card for e in v.events if type(e) is Revealed]
            expected = [catastrophe_trick(t).revealed for t in s.round.tricks]
            if s.round.revealed is not None:
                expected.append(s.round.revealed)
            assert current == expected
            assert v.revealed == s.round.revealed
            # The rest of the stock stays hidden.
            assert not set(current) & set(s.round.stock)
            assert set(reveals) <= revealed_ever(states)


def test_catastrophe_announced_leader_is_in_the_deal_event() -> None:
    rules = cr.ruleset("catastrophe", hand_size=1, hand_count=6)
    for seed in range(200):
        states = random_states(rules, 3, seed=seed)
        leaders = [a.leader for a in states[-1].actions if type(a) is Deal and a.leader is not None]
        if leaders:
            events = cr.public_history(states[-1], None)
            assert [e.leader for e in events if type(e) is Dealt and e.leader is not None] == leaders
            return
    pytest.fail("no tie for the next starter in 200 matches")


def test_revival_decision_is_the_viewers_legal_move() -> None:
    rules = cr.ruleset("gurka", revival=True, threshold=8, hand_size=2)
    for seed in range(100):
        for s in random_states(rules, 3, seed=seed):
            if ladder_state(s).match.pending:
                seat = ladder_state(s).match.pending[0]
                v = cr.view(s, seat)
                assert v.pending == ladder_state(s).match.pending
                assert v.legal == (cr.Revive(seat, False), cr.Revive(seat, True))
                assert cr.view(s, (seat + 1) % 3).legal == ()
                return
    pytest.fail("no revival decision in 100 matches")


def test_views_share_play_objects_with_the_history() -> None:
    s = play(_agurk(), "9S", "10H")
    events = cr.view(s, 0).events
    assert events[1] is s.actions[1]


# --------------------------------------------------------------------------- properties


PLAYABLE = VARIANTS


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[State], int | None]:
    """A random match of a random variant, cut at a random point; and a random viewer."""
    name, options = draw(st.sampled_from(PLAYABLE))
    rules = rules_of(name, options)
    players = draw(st.integers(rules.min_players, min(rules.max_players, 5)))
    seed = draw(st.integers(0, 2**32 - 1))
    limit = draw(st.integers(0, 250))
    states = random_states(rules, players, seed=seed, limit=limit)
    seat = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    return states, seat


def _hidden_now(state: State, seat: int | None) -> Counter[Card]:
    """The cards the viewer cannot see now: other hands, the stock and the undealt cards."""
    deck = Counter(cr.DECKS[state.rules.deck])
    r = state.round
    if r is None:
        return deck
    hidden: Counter[Card] = Counter()
    for s, hand in enumerate(r.hands):
        if s != seat:
            hidden.update(hand)
    hidden.update(r.stock)
    deal = next(a for a in reversed(state.actions) if type(a) is Deal)
    dealt = Counter(c for h in deal.hands for c in h)
    dealt.update(deal.stock)
    hidden.update(deck - dealt)
    return hidden


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_no_hidden_card_ever_appears_in_a_view(position: tuple[list[State], int | None]) -> None:
    states, seat = position
    state = states[-1]
    v = cr.view(state, seat)
    # Everything the viewer may have seen: its own dealt cards, every card played, every card revealed.
    allowed: set[Card] = set(revealed_ever(states))
    for action in state.actions:
        if type(action) is Deal and seat is not None:
            allowed.update(action.hands[seat])
        elif type(action) is Play:
            allowed.add(action.card)
    seen = set(cards_in(v))
    assert seen <= allowed, f"cards the viewer never saw: {sorted(seen - allowed)}"
    # No card of another hand, the stock or the undealt cards is among the current round's fields:
    # the copies shown plus the copies hidden never exceed the deck (this also covers identical
    # copies in Five Cucumbers, where a value can be both in the viewer's hand and hidden).
    hidden = _hidden_now(state, seat)
    deck = Counter(cr.DECKS[state.rules.deck])
    shown = Counter(v.hand) + Counter(cards_in((v.trick, v.tricks, getattr(v, "revealed", None))))
    for c, count in shown.items():
        assert count + hidden[c] <= deck[c], f"{c} is shown {count} times and hidden {hidden[c]} times"
    assert Counter(cards_in(getattr(v, "captured", ()))) <= Counter(cards_in(v.tricks))
    assert set(cards_in(v.legal)) <= set(v.hand)
    # The serialized view does not name a card the viewer never saw either.
    text = cr.dumps(v)
    never = {c for c in deck if c not in allowed}
    assert not [c for c in never if f'"{c}"' in text]
    # And the view's hand is exactly the seat's hand.
    assert v.hand == (state.hands[seat] if seat is not None else ())
    assert v.hand_sizes == tuple(len(h) for h in state.hands)


def _redeal(state: State, seat: int | None, rng: random.Random) -> State | None:
    """Replay `state`'s history with the hidden cards of the last deal shuffled among themselves.

    The viewer's hand, every card already played and every card already revealed stay
    where they are; the other seats' unplayed cards, the unrevealed stock and (ladder) the
    undealt cards are shuffled together and dealt back into the same slots. Returns None when
    the shuffled deal makes one of the recorded plays illegal.
    """
    actions = list(state.actions)
    last = max(i for i, a in enumerate(actions) if type(a) is Deal)
    deal: Deal = actions[last]  # type: ignore[assignment]
    r = state.round
    assert r is not None
    played: dict[int, list[Card]] = {}
    for a in actions[last + 1 :]:
        if type(a) is Play:
            played.setdefault(a.seat, []).append(a.card)
    surprise = getattr(state.rules, "surprise", False)
    shown = len(r.tricks) + (1 if r.revealed is not None else 0) if surprise else 0
    pool = [c for s, hand in enumerate(r.hands) if s != seat for c in hand]
    pool += deal.stock[shown:]
    if state.rules.game == "ladder":
        pool += list(
            (Counter(cr.DECKS[state.rules.deck]) - Counter(c for h in deal.hands for c in h)).elements()
        )
    rng.shuffle(pool)
    it = iter(pool)
    hands = []
    for s, hand in enumerate(r.hands):
        if s == seat:
            hands.append(deal.hands[s])
        else:
            hands.append((*played.get(s, ()), *(next(it) for _ in hand)))
    stock = (*deal.stock[:shown], *(next(it) for _ in deal.stock[shown:]))
    actions[last] = Deal(hands=hands, stock=stock, leader=deal.leader)
    try:
        return cr.apply_all(cr.new_game(state.rules, state.players, first=state.first), actions)
    except cr.IllegalMoveError:
        return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32 - 1))
def test_states_differing_only_in_hidden_cards_give_equal_views(
    position: tuple[list[State], int | None], seed: int
) -> None:
    states, seat = position
    state = states[-1]
    assume(state.round is not None)
    rng = random.Random(seed)
    other = next((s for s in (_redeal(state, seat, rng) for _ in range(20)) if s is not None), None)
    assume(other is not None)
    assert other is not None
    event("re-dealt state differs" if other != state else "re-dealt state is the same")
    assert cr.view(other, seat) == cr.view(state, seat)
    assert cr.dumps(cr.view(other, seat)) == cr.dumps(cr.view(state, seat))


def test_redeal_really_changes_hidden_cards() -> None:
    # The property above is not vacuous: re-dealing changes the state but not the view,
    # while changing the viewer's own cards changes the view.
    rules = cr.ruleset("agurk")
    state = random_states(rules, 4, seed=5, limit=12)[-1]
    rng = random.Random(1)
    other = next(s for s in (_redeal(state, 0, rng) for _ in range(50)) if s is not None)
    assert other != state
    assert other.hands[0] == state.hands[0]
    assert cr.view(other, 0) == cr.view(state, 0)
    assert cr.view(other, 1) != cr.view(state, 1)


def test_leak_checks_can_fail() -> None:
    # The leak detector finds another seat's card if a view were to carry one.
    state = _agurk()
    v = cr.view(state, 0)
    leaky = attrs.evolve(v, events=(*v.events, Dealt(hand=state.hands[1], sizes=(3, 3, 3))))
    assert set(cards_in(leaky)) & set(state.hands[1])
    assert '"AS"' in cr.dumps(leaky)
    assert '"AS"' not in cr.dumps(v)
    assert json.loads(cr.dumps(v))["hand"] == ["2C", "9S", "KD"]


def test_events_cover_the_current_round_and_public_history_the_match() -> None:
    rules = cr.ruleset("agurk", hand_size=1)
    s = cr.new_game(rules, 3)
    s = cr.apply(s, cr.Deal(hands=[["2C"], ["3C"], ["4C"]]))
    s = play(s, "2C", "3C", "4C")
    first_round = cr.view(s, 0).events
    assert [type(e) for e in first_round] == [Dealt, Play, Play, Play]
    s = cr.apply(s, cr.Deal(hands=[["5C"], ["6C"], ["7C"]]))
    s = play(s, "6C")
    v = cr.view(s, 0)
    assert v.events == (Dealt(hand=cards("5C"), sizes=(1, 1, 1)), Play(1, "6C"))
    assert v.round_number == 2
    assert cr.public_history(s, 0) == (*first_round, *v.events)
    assert cr.public_history(s, None)[0] == Dealt(hand=(), sizes=(1, 1, 1))
    with pytest.raises(ValueError, match="seat"):
        cr.public_history(s, 3)


# --------------------------------------------------------------------------- views are cheap, and equal


def _rebuilt(state: State, seat: int | None) -> PlayerView:
    """The view worked out from scratch, field by field (what `view` gave before it kept anything)."""
    game = cr.game_of(state)
    t, m = state.table, state.match
    sc = cr.score(state)
    hands = state.hands
    since: list[Any] = []
    for action in reversed(state.history):
        since.insert(0, action)
        if type(action) is Deal:
            break
    in_play = t is not None and (bool(state.trick) or any(hands))
    return game.view_type(
        rules=m.rules,
        players=m.players,
        seat=seat,
        first=m.first,
        hand=hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in hands),
        to_act=state.to_act,
        dealer=m.dealer,
        leader=t.leader if t is not None else None,
        trick=state.trick,
        tricks=t.tricks if t is not None else (),
        totals=sc.totals,
        winners=sc.winners,
        standings=sc.standings,
        round_points=sc.round_points,
        results=sc.results,
        round_number=m.rounds + 1 if in_play else m.rounds,
        legal=cr.legal_moves(state) if seat is not None and state.to_act == seat else (),  # type: ignore[arg-type]
        events=game.views.public_events(tuple(since), m.rules, seat),
        **game.views.view_fields(state, seat),
    )


def _advance(state: State, actions: int, rng: random.Random) -> State:
    for _ in range(actions):
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    return state


@pytest.mark.parametrize("variant", VARIANTS, ids=_variant_id)
def test_views_equal_views_worked_out_from_scratch(variant: tuple[str, dict[str, Any]]) -> None:
    # `view` keeps pieces on the Table and Match and fills most fields in when first read: whatever the
    # order of the views and of the reads, every field is what a view built from scratch holds.
    rules = rules_of(*variant)
    for seed in range(3):
        rng = random.Random(seed)
        players = max(rules.min_players, min(4, rules.max_players))
        state = cr.new_game(rules, players)
        seats: list[int | None] = [None, *range(players)]
        while True:
            for seat in seats if seed % 2 else seats[::-1]:
                got, expected = cr.view(state, seat), _rebuilt(state, seat)
                if seed == 0:
                    assert got == expected
                    assert hash(got) == hash(expected)
                elif seed == 1:
                    assert repr(got) == repr(expected)
                else:
                    assert cr.dumps(got) == cr.dumps(expected)
            if state.is_over:
                break
            moves = cr.legal_moves(state)
            state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))


def test_a_view_reaches_no_hidden_card_before_its_fields_are_read() -> None:
    # Nothing reachable from a fresh view (fields not read yet) is the state, its table (with the stock),
    # a deal or the history: the fields it fills in later come from public pieces only (the match's
    # results are public: a history of round results is allowed).
    import gc

    rules = cr.ruleset("catastrophe", surprise=True)
    state = _advance(cr.new_game(rules, 4), 17, random.Random(3))
    hidden = (State, cr.Table, Deal, cr.History)
    for seat in (None, 0, 1, 2, 3):
        v = cr.view(state, seat)
        seen: set[int] = set()
        stack: list[Any] = list(gc.get_referents(v))
        while stack:
            obj = stack.pop()
            if id(obj) in seen or isinstance(obj, type | Rules) or type(obj).__name__ == "module":
                continue
            seen.add(id(obj))
            if isinstance(obj, cr.History) and all(isinstance(r, cr.RoundResult) for r in obj):
                continue  # the match's results (its nodes reach only earlier results)
            assert not isinstance(obj, hidden), (seat, type(obj))
            stack.extend(gc.get_referents(obj))
        assert v.events  # reading fills them in
        assert v.hand_sizes
    leaky = cr.view(state, 0)
    object.__setattr__(leaky, "_later", (state,))  # the check can fail: a view that kept the state
    assert any(isinstance(o, State) for o in gc.get_referents(leaky._later))


def test_a_fresh_view_pickles_compares_and_copies_whole() -> None:
    import copy
    import pickle

    state = _advance(cr.new_game(cr.ruleset("agurk"), 4), 30, random.Random(5))
    expected = _rebuilt(state, 2)
    assert pickle.loads(pickle.dumps(cr.view(state, 2))) == expected
    assert copy.deepcopy(cr.view(state, 2)) == expected
    assert attrs.evolve(cr.view(state, 2), seat=1).hand == expected.hand
    assert attrs.asdict(cr.view(state, 2)) == attrs.asdict(expected)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        _ = cr.view(state, 2).nonsense
    with pytest.raises(AttributeError):
        _ = expected.nonsense  # built by __init__: nothing to fill in


@pytest.mark.parametrize(
    "rules",
    [
        cr.ruleset("gurka", next_leader="penalized", hand_size=3),
        cr.ruleset("catastrophe", surprise=True, hand_count=2),
    ],
    ids=["gurka-penalized", "catastrophe-surprise"],
)
def test_views_do_not_change_when_later_states_are_viewed_first(rules: cr.Rules) -> None:
    # A match value can outlive its round (the round's end shares it with the next round when the
    # dealer stays), and views keep what they share on it: a view of an earlier state, asked again
    # after views of later ones (or of another branch), must be the view it was.
    for seed in range(12):
        rng = random.Random(seed)
        state = cr.new_game(rules, 3)
        seen: list[tuple[cr.State, int, str]] = []
        while not state.is_over and len(seen) < 240:
            if state.to_act == cr.CHANCE:
                state = cr.apply(state, cr.sample_chance(state, rng))
            else:
                moves = cr.legal_moves(state)
                branch = cr.apply(state, moves[0])  # another branch of the same match value
                cr.view(branch, 0)
                state = cr.apply(state, moves[int(rng.random() * len(moves))])
            seat = len(seen) % 3
            seen.append((state, seat, repr(cr.view(state, seat))))
        for earlier, seat, text in seen:
            assert repr(cr.view(earlier, seat)) == text


def _round_events_from_scratch(state: State, seat: int | None) -> tuple[Any, ...]:
    actions = state.history.since(lambda a: type(a) is Deal)
    return cr.game_of(state).views.public_events(actions, state.match.rules, seat)


class _NoRoundEvents(CatastropheViews):
    """Catastrophe's views as a game that cannot extend a hand's events would have them (`round_events`
    answers None): the same events, worked out by `public_events` alone."""

    __slots__ = ()

    def public_events(self, actions: Sequence[Action], rules: Rules, seat: int | None) -> tuple[Any, ...]:
        return CatastropheViews().public_events(actions, rules, seat)

    def round_events(self, rules: Rules, deal: Deal, done: int, actions: Sequence[Action]) -> None:  # type: ignore[override]
        return None


@pytest.mark.parametrize("fallback", [False, True], ids=["round_events", "public_events"])
@pytest.mark.parametrize(
    "options",
    [{"surprise": True}, {"surprise": True, "hand_size": 3, "hand_count": 3}, {}],
    ids=["s", "s3", "plain"],
)
def test_catastrophe_events_extended_trick_by_trick_equal_the_hand_recomputed(
    options: dict[str, Any], fallback: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Views extend a hand's events by each trick's new actions (`Views.round_events`; Surprise Cucumber's
    # reveals depend on the deal and the count of plays). Viewed at every decision or only now and then
    # (several tricks, or part of one, between two views), the events are what `public_events` makes of
    # the hand's actions from scratch; and so they are for a game that answers None (the fallback).
    game = cr.GAMES["catastrophe"]
    if fallback:
        monkeypatch.setattr(type(game), "views", _NoRoundEvents())
    rules = cr.ruleset("catastrophe", **options)
    for seed, every in enumerate((1, 2, 5, 7, 9)):
        rng = random.Random(seed)
        state = cr.new_game(rules, 4)
        step = 0
        while not state.is_over:
            if step % every == 0:
                for seat in (None, *range(4)):
                    expected = _round_events_from_scratch(state, seat)
                    assert cr.view(state, seat).events == expected, (seed, step)
            moves = cr.legal_moves(state)
            move = moves[int(rng.random() * len(moves))] if moves else cr.sample_chance(state, rng)
            state = cr.apply(state, move)
            step += 1


def test_catastrophe_round_events_split_anywhere_equal_public_events() -> None:
    from cucumber_rules.games.catastrophe.rules import CatastropheRules

    public_events, round_events = CatastropheViews().public_events, CatastropheViews().round_events

    for options in ({"surprise": True}, {"surprise": True, "hand_size": 2}, {}):
        rules = cr.ruleset("catastrophe", **options)
        assert isinstance(rules, CatastropheRules)
        for players in (3, 4, 6):
            state = _advance(cr.new_game(rules, players), 1, random.Random(players))
            while state.to_act is not None and state.to_act >= 0:
                state = _advance(state, 1, random.Random(len(state.actions)))
            hand = state.history.since(lambda a: type(a) is Deal)
            deal = hand[0]
            assert type(deal) is Deal
            whole = public_events(hand, rules, None)[1:]
            for cut in range(len(hand) + 1):
                first = round_events(rules, deal, 0, hand[:cut])
                assert first + round_events(rules, deal, cut, hand[cut:]) == whole, (options, players, cut)
            assert len(whole) > len(hand) - 1 if rules.surprise else whole == hand[1:]


@pytest.mark.parametrize("preset", ["agurk", "catastrophe"])
def test_a_views_score_is_worked_out_once_per_match_and_only_when_read(preset: str) -> None:
    # A bot that reads only `legal` does not pay for the score; the first fill works it out for
    # every view of the same match value, and it is the match's score.
    state = _advance(cr.new_game(cr.ruleset(preset), 4), 40, random.Random(11))
    while state.to_act is not None and state.to_act < 0:
        state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    first = cr.view(state, 0)
    assert first.legal or first.to_act != 0
    lazy = state.match._views.score
    assert lazy._score is None  # not worked out yet
    expected = cr.score(state)
    assert first.totals == expected.totals
    assert first.standings == expected.standings
    assert lazy._score == expected
    again = cr.view(state, 1)
    assert again.results == expected.results
    assert state.match._views.score._score is lazy._score


@pytest.mark.parametrize("preset", ["agurk", "catastrophe"])
def test_a_view_is_exactly_its_games_view_class_and_frozen(preset: str) -> None:
    # `view` fills a fresh twin instance and then makes it a view of the game's class (`open_twin`).
    import pickle

    rules = cr.ruleset(preset)
    state = _advance(cr.new_game(rules, 4), 12, random.Random(2))
    for seat in (None, 0, 1):
        v = cr.view(state, seat)
        assert type(v) is type(rules)._game.view_type
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            v.seat = 3  # type: ignore[misc]
        assert pickle.loads(pickle.dumps(v)) == v
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            v.hand = ()  # type: ignore[misc]


@pytest.mark.parametrize("variant", VARIANTS, ids=_variant_id)
def test_glance_reads_what_the_filled_view_holds(variant: tuple[str, dict[str, Any]]) -> None:
    # `glance` reads a fresh view's pieces without filling it in; it must agree with the filled fields,
    # for every seat (whether or not it has played to the trick) and a spectator, and with a loaded view.
    from cucumber_rules.views import glance

    rules = rules_of(*variant)
    rng = random.Random(7)
    players = max(rules.min_players, min(4, rules.max_players))
    state = cr.new_game(rules, players)
    common = attrs.fields_dict(PlayerView)
    own_names = [a.name for a in attrs.fields(cr.game_of(state).view_type) if a.name not in common]
    checked = 0
    while not state.is_over:
        for seat in [None, *range(players)]:
            fresh = cr.view(state, seat)
            seats, hand, trick, own = glance(fresh)
            assert seats == len(fresh.players)
            assert trick == fresh.trick
            assert [p.card for p in hand] == list(fresh.hand)
            assert all(p.seat == seat for p in hand)
            assert dict(own) == {name: getattr(fresh, name) for name in own_names}
            with pytest.raises(TypeError):
                own["marker"] = None  # type: ignore[index]  # read-only: the fresh view's pieces
            loaded = cr.loads(cr.dumps(fresh))
            assert isinstance(loaded, PlayerView)
            assert glance(loaded)[:3] == (seats, hand, trick)
            assert dict(glance(loaded)[3]) == dict(own)
            checked += any(p.seat == seat for p in trick)
        state = _advance(state, 1, rng)
    assert checked > 10  # seats that had played to the current trick were seen


@pytest.mark.parametrize("variant", VARIANTS, ids=_variant_id)
def test_sibling_states_views_show_their_own_game_fields(variant: tuple[str, dict[str, Any]]) -> None:
    # Sibling states (the same trick so far, another card played) share what views keep per trick;
    # a game whose `view_fields_shared` is true has its fields asked once per trick and `extra` (in
    # Catastrophe the second card sets the Trick Marker, so siblings differ there). Asked in turns,
    # every view shows what `view_fields` says of its own state, fresh and filled in.
    from cucumber_rules.views import glance

    rules = rules_of(*variant)
    game = cr.GAMES[rules.game]
    assert game.views.view_fields_shared  # both built-in games claim it; `check_game` holds them to it
    common = attrs.fields_dict(PlayerView)
    own_names = [a.name for a in attrs.fields(game.view_type) if a.name not in common]
    players = max(rules.min_players, min(4, rules.max_players))
    differing = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = cr.new_game(rules, players)
        while not state.is_over:
            moves = cr.legal_moves(state)
            if not moves:
                state = cr.apply(state, cr.sample_chance(state, rng))
                continue
            siblings = [cr.apply(state, m) for m in dict.fromkeys((moves[0], moves[-1], rng.choice(moves)))]
            differing += len({repr(s.extra) for s in siblings if s.table is state.table}) > 1
            to_act = state.to_act
            assert to_act is not None
            for seat in (None, to_act, (to_act + 1) % players):
                for sibling in siblings + siblings[::-1]:
                    expected = game.views.view_fields(sibling, seat)
                    v = cr.view(sibling, seat)
                    assert dict(glance(v)[3]) == expected
                    assert {name: getattr(v, name) for name in own_names} == expected
            state = siblings[-1]
    if rules.game == "catastrophe":
        assert differing > 10  # siblings of one trick with different markers were seen


def test_view_fields_are_asked_once_per_trick_only_when_the_game_says_they_may_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = cr.ruleset("agurk")
    game = cr.GAMES["ladder"]
    asked: list[int | None] = []
    views = type(game.views)
    real = views.view_fields

    def counting(self: Any, state: State, seat: int | None) -> dict[str, Any]:
        asked.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(views, "view_fields", counting)
    for shared, expected in ((True, [0]), (False, [0, 1, None, 0, 2])):
        monkeypatch.setattr(views, "view_fields_shared", shared)
        start = cr.new_game(rules, 4)  # a new match: nothing kept from the other round of the loop
        state = cr.apply(start, cr.sample_chance(start, random.Random(1)))
        asked.clear()
        for seat in (0, 1, None, 0):
            cr.view(state, seat)
        cr.view(cr.apply(state, cr.legal_moves(state)[0]), 2)  # the same trick, one card on
        assert asked == expected
