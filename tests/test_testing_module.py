"""Tests of `cucumber_rules.testing`: the checker catches planted bugs, and the strategies are sound.

Each planted bug replaces one engine function (through `monkeypatch`, undone after the
test) with a subtly broken version; `check_game` must then fail with an
`AssertionError` naming the broken invariant, the seed and the action index.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import find, given
from hypothesis import strategies as st

import cucumber_rules as cr
from cucumber_rules import testing as crt
from cucumber_rules.games.catastrophe import CATASTROPHE
from cucumber_rules.games.ladder import LADDER, LadderState
from cucumber_rules.games.ladder import engine as ladder_engine
from cucumber_rules.state import State, held_cards
from cucumber_rules.testing import RULE_CODES, GameCheck, check_game, check_state, rules, states
from cucumber_rules.tricks import state_builder
from helpers import ladder_state

AGURK = cr.ruleset("agurk", threshold=10)
SHORT = cr.ruleset("gurka", threshold=12, revival=True)


def expect_broken(invariant: str, rules_: cr.Rules = AGURK, **kwargs: Any) -> str:
    """Run check_game and return its failure message, which must name `invariant`."""
    kwargs.setdefault("matches", 2)
    kwargs.setdefault("seed", 5)
    with pytest.raises(AssertionError) as raised:
        check_game(rules_, **kwargs)
    message = str(raised.value)
    assert f"invariant {invariant!r} broke" in message, message
    assert "seed: " in message or "check_state" in message
    assert "action index: " in message
    return message


def patch(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, wrap: Callable[..., Any]) -> None:
    """Replace the hook `owner.name` (of a game, or of one of its hook groups) by `wrap(original)`.

    Games and groups keep nothing per instance (`__slots__ = ()`): the hook is replaced on the
    object's class, for the test only. A play reaches a game by two doors: `apply_play` (checked)
    and, once `legal_moves` has listed it, `play` (already known legal). Wrapping `apply_play` wraps
    both, so the fault is everywhere. The engine asks the registered game itself for its hooks
    (`type(rules)._game`): nothing is copied at registration, so the replaced hook is the one called.
    """
    cls = type(owner)

    def replace(hook: str) -> None:
        wrapped = wrap(getattr(owner, hook))
        monkeypatch.setattr(cls, hook, lambda self, *args, **kwargs: wrapped(*args, **kwargs))

    replace(name)
    if name == "apply_play":
        replace("play")


# --------------------------------------------------------------------------- a sound engine passes


def test_presets_pass_and_report_what_was_played() -> None:
    report = check_game(cr.ruleset("five-cucumbers"), matches=3, seed=11)
    assert isinstance(report, GameCheck)
    assert report.matches == 3
    assert report.players == (2, 3, 4)
    assert report.actions > report.rounds >= 3


def test_action_count_is_the_history_length() -> None:
    rules_ = cr.ruleset("fuenf-gurken")
    report = check_game(rules_, matches=1, seed=4, players=3)
    rng = random.Random(4)
    state = cr.new_game(rules_, 3, first=rng.randrange(3))
    while not state.is_over:
        action = (
            cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(cr.legal_moves(state))
        )
        state = cr.apply(state, action)
    assert report.actions == len(state.history)
    assert report.rounds == state.match.rounds


def test_by_default_one_match_per_player_count() -> None:
    rules = cr.ruleset("gurka", hand_size=2, threshold=6)
    assert check_game(rules).players == tuple(range(rules.min_players, rules.max_players + 1))
    assert check_game(rules, players=[3, 2], seed=5).players == (3, 2)
    assert check_game(rules, players=4).players == (4,)


def test_zero_matches_checks_nothing() -> None:
    assert check_game(AGURK, matches=0) == GameCheck(matches=0, actions=0, rounds=0, players=())


def test_global_random_is_restored() -> None:
    random.seed(123)
    before = random.getstate()
    check_game(AGURK, matches=1, seed=3, players=3)
    assert random.getstate() == before


def test_global_random_is_restored_after_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    patch(monkeypatch, LADDER, "legal", lambda f: lambda s: tuple(reversed(f(s))))
    random.seed(9)
    before = random.getstate()
    with pytest.raises(AssertionError):
        check_game(AGURK, matches=1, seed=3, players=3)
    assert random.getstate() == before


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        check_game("agurk", matches=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_game(AGURK, matches=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_game(AGURK, seed="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="matches"):
        check_game(AGURK, matches=-1)
    with pytest.raises(TypeError):
        check_game(AGURK, players="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_game(AGURK, players=[])
    with pytest.raises(TypeError):
        check_game(AGURK, players=True)
    with pytest.raises(TypeError):
        check_game(AGURK, max_actions=0)
    with pytest.raises(cr.InvalidRulesError) as raised:
        check_game(AGURK, players=2)  # agurk is for 3 to 7 players
    assert raised.value.option == "players"


def test_action_bound_covers_each_kind_of_match() -> None:
    assert crt.action_bound(cr.ruleset("catastrophe", hand_count=2), 3) == 2 * (1 + 3 * 10)  # deals and cards
    # rounds x (a deal + every card of every hand + a revival decision with revival)
    assert crt.action_bound(cr.ruleset("agurk", fixed_rounds=3), 4) == 3 * (1 + 4 * 7)
    assert crt.action_bound(cr.ruleset("agurk", round_limit=5), 4) == 5 * (1 + 4 * 7)
    plain = crt.action_bound(cr.ruleset("gurka"), 4)
    assert plain == (4 * 4 * 1 * 31 + 50) * (1 + 4 * 7)  # the automatic round limit
    assert crt.action_bound(cr.ruleset("gurka", revival=True), 4) == (2 * 4 * 4 * 1 * 31 + 50) * (2 + 4 * 7)


def test_rule_codes_are_the_rules_of_play() -> None:
    assert {"must-follow", "must-play-lowest", "cannot-lead-five", "must-follow-marker"} <= RULE_CODES
    assert not RULE_CODES & {"not-your-turn", "not-in-hand", "bad-deal", "game-over"}
    assert set(cr.ERROR_CODES) >= RULE_CODES


# --------------------------------------------------------------------------- planted bugs


def test_unsorted_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    patch(monkeypatch, LADDER, "legal", lambda f: lambda s: tuple(reversed(f(s))))
    assert "is not sorted" in expect_broken("legal-moves")


def test_duplicate_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    patch(monkeypatch, LADDER, "legal", lambda f: lambda s: f(s) + f(s)[-1:])
    assert "duplicates" in expect_broken("legal-moves")


def test_a_legal_move_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    # `legal_moves` leaves out a move that `check` and `apply` accept. (The ladder's `play_error` asks the
    # game's own `legal`, so leaving the move out of `legal` alone would refuse it everywhere: consistent.)
    real = cr.engine.legal_moves

    def fewer(s: State) -> tuple[cr.Action, ...]:
        moves = real(s)
        return moves[:-1] or moves

    monkeypatch.setattr(cr.engine, "legal_moves", fewer)
    monkeypatch.setattr(crt.match, "legal_moves", fewer)
    assert "should be refused" in expect_broken("illegal-moves")


def test_empty_legal_moves_during_play(monkeypatch: pytest.MonkeyPatch) -> None:
    patch(monkeypatch, LADDER, "legal", lambda f: lambda s: () if s.round.tricks else f(s))
    assert "empty" in expect_broken("legal-moves")


def test_legal_move_of_another_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[[State], tuple[cr.Action, ...]]) -> Callable[[State], tuple[cr.Action, ...]]:
        def legal(s: State) -> tuple[cr.Action, ...]:
            moves = f(s)
            p = moves[0]
            assert isinstance(p, cr.Play)
            return (cr.Play((p.seat + 1) % s.num_players, p.card), *moves[1:])

        return legal

    patch(monkeypatch, LADDER, "legal", wrap)
    expect_broken("legal-moves")


def test_moves_kept_as_a_state_is_built_are_not_the_legal_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # The ladder engine works out the next seat's moves as it builds a state (`legal_moves` then finds
    # them kept, and `apply` trusts them): here it keeps one move too few, while `legal` is right.
    build = state_builder(LadderState)

    def one_too_few(*fields: Any) -> LadderState:
        moves = fields[-1]
        return build(*fields[:-1], moves[:-1] or moves if moves is not None else None)

    monkeypatch.setattr(ladder_engine, "_new_state", one_too_few)
    assert "are not the game's legal moves" in expect_broken("legal-moves")


def test_legal_moves_at_a_chance_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cr.engine, "legal_moves", lambda s: (cr.Revive(0, True),))
    monkeypatch.setattr(crt.match, "legal_moves", lambda s: (cr.Revive(0, True),))
    expect_broken("legal-moves")


def test_rule_breaking_card_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play_error(s: State, p: cr.Play) -> cr.IllegalMoveError | None:
            error = f(s, p)
            return None if error is not None and error.code in RULE_CODES else error

        return play_error

    patch(monkeypatch, LADDER, "play_error", wrap)
    message = expect_broken("illegal-moves")
    assert "a held card that is not a legal move" in message


def test_rule_breaking_card_with_the_wrong_code(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play_error(s: State, p: cr.Play) -> cr.IllegalMoveError | None:
            error: cr.IllegalMoveError | None = f(s, p)
            if error is not None and error.code in RULE_CODES:
                return cr.IllegalMoveError("not-in-hand", "wrong code", seat=p.seat, action=p)
            return error

        return play_error

    patch(monkeypatch, LADDER, "play_error", wrap)
    assert "got code 'not-in-hand'" in expect_broken("illegal-moves")


def test_card_not_held_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play_error(s: State, p: cr.Play) -> cr.IllegalMoveError | None:
            error = f(s, p)
            return None if error is not None and error.code == "not-in-hand" else error

        return play_error

    patch(monkeypatch, LADDER, "play_error", wrap)
    assert "a card not held" in expect_broken("illegal-moves")


def test_check_and_apply_disagree(monkeypatch: pytest.MonkeyPatch) -> None:
    real_check = cr.engine.check

    def lenient(s: State, a: cr.Action) -> cr.IllegalMoveError | None:
        error = real_check(s, a)
        if error is not None and error.code == "not-your-turn":
            return cr.IllegalMoveError("not-your-turn", "told, not enforced", seat=error.seat, action=a)
        return error

    def apply(s: State, a: cr.Action) -> State:
        error = real_check(s, a)
        if error is not None and error.code == "not-your-turn":
            return s  # accepted although check refuses it
        return cr.engine.apply(s, a)

    monkeypatch.setattr(crt.moves, "check", lenient)
    monkeypatch.setattr(crt.moves, "apply", apply)
    assert "accepted an action check refuses" in expect_broken("illegal-moves")


def test_apply_raises_another_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            if s.round is not None and len(s.round.tricks) == 2:
                raise KeyError("oops")
            result: State = f(s, p)
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    assert "raised KeyError" in expect_broken("legal-moves")


def test_bad_deal_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(LADDER), "deal_error", lambda self, s, d: None)
    assert "a corrupted deal" in expect_broken("illegal-moves")


def test_global_random_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def sample_deal(s: State, rng: random.Random) -> cr.Deal:
            random.random()
            result: cr.Deal = f(s, rng)
            return result

        return sample_deal

    patch(monkeypatch, LADDER, "sample_deal", wrap)
    expect_broken("global-random")


def test_hidden_state_breaks_determinism(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def sample_deal(s: State, rng: random.Random) -> cr.Deal:
            calls[0] += 1
            result: cr.Deal = f(s, random.Random(calls[0]))  # ignores the caller's generator
            return result

        return sample_deal

    patch(monkeypatch, LADDER, "sample_deal", wrap)
    assert "the same seed drew" in expect_broken("determinism")


def test_a_deal_that_reads_the_global_random_is_caught_by_determinism(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reading the global generator after saving and restoring it hides from the getstate() check,
    # but the reseeding between steps makes the replayed match differ.
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def sample_deal(s: State, rng: random.Random) -> cr.Deal:
            saved = random.getstate()
            seeded = random.Random(random.getrandbits(32))
            random.setstate(saved)
            result: cr.Deal = f(s, seeded)
            return result

        return sample_deal

    patch(monkeypatch, LADDER, "sample_deal", wrap)
    expect_broken("determinism")


def test_illegal_sampled_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def sample_deal(s: State, rng: random.Random) -> cr.Deal:
            deal: cr.Deal = f(s, rng)
            hands = [list(h) for h in deal.hands]
            seat = next(i for i, h in enumerate(hands) if h)
            hands[seat].pop()
            return cr.Deal(hands=hands)

        return sample_deal

    patch(monkeypatch, LADDER, "sample_deal", wrap)
    assert "sample_chance drew an illegal deal" in expect_broken("chance")


def test_apply_changes_its_input(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            object.__setattr__(s.match, "dealer", (s.match.dealer + 1) % s.num_players)
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    expect_broken("immutability")


def test_apply_changes_its_input_history(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            items = s.past.items()  # same length and last action, another first action
            object.__setattr__(s, "past", cr.History((items[-1], *items[1:])))
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    expect_broken("immutability")


def test_apply_changes_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            object.__setattr__(s.rules, "threshold", 11)
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    rules_ = cr.ruleset("agurk", threshold=10)  # a private copy: the patch damages it
    expect_broken("immutability", rules_)


def test_a_card_vanishes(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            if r is not None and len(r.tricks) == 1 and not r.trick and r.hands[r.leader]:
                hands = tuple(h[1:] if seat == r.leader else h for seat, h in enumerate(r.hands))
                return attrs.evolve(result, held=held_cards(hands))  # between tricks: held is the hands
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    assert "was dealt" in expect_broken("card-conservation")


def test_hands_not_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            assert r is not None
            held = tuple(tuple(reversed(h)) for h in result.held)
            return attrs.evolve(result, held=held)

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    assert "is not sorted" in expect_broken("card-conservation")


def test_dealt_hands_not_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def start_round(s: State, d: cr.Deal) -> State:
            result: State = f(s, d)
            r = result.round
            assert r is not None
            hands = (r.hands[1], r.hands[0], *r.hands[2:])
            return attrs.evolve(result, held=held_cards(hands))

        return start_round

    patch(monkeypatch, LADDER, "start_round", wrap)
    assert "not the dealt hands" in expect_broken("card-conservation")


def test_the_stock_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            assert r is not None
            return attrs.evolve(result, table=attrs.evolve(r.table, stock=(cr.card("2C"),)))

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    assert "stock" in expect_broken("card-conservation")


def test_captured_cards_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            assert r is not None
            if r.tricks and not r.trick:
                captured = tuple(c[1:] for c in r.captured)
                return attrs.evolve(result, table=attrs.evolve(r.table, captured=captured))  # type: ignore[call-arg]
            return result

        return play

    patch(monkeypatch, CATASTROPHE, "apply_play", wrap)
    assert "captured" in expect_broken("game", cr.ruleset("catastrophe", hand_count=1))


def test_a_trick_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            assert r is not None
            if r.tricks and not r.trick:
                last = r.tricks[-1]
                swapped = attrs.evolve(last, plays=tuple(reversed(last.plays)))
                return attrs.evolve(result, table=attrs.evolve(r.table, tricks=(*r.tricks[:-1], swapped)))
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    expect_broken("tricks")


def test_the_wrong_seat_to_act(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            r = result.round
            if r is not None and len(r.trick) == 1 and result.to_act is not None:
                return attrs.evolve(result, to_act=r.trick[0].seat)
            return result

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    assert "should act" in expect_broken("turn")


def test_winners_without_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def start_round(s: State, d: cr.Deal) -> State:
            result: State = f(s, d)
            return attrs.evolve(result, match=attrs.evolve(result.match, winners=(0,)))

        return start_round

    patch(monkeypatch, LADDER, "start_round", wrap)
    expect_broken("turn")


def test_history_not_extended(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def play(s: State, p: cr.Play) -> State:
            result: State = f(s, p)
            kept = s.history.items()[: len(s.history) - len(result.trick)]
            return attrs.evolve(result, past=cr.History(kept))  # the history no longer grows

        return play

    patch(monkeypatch, LADDER, "apply_play", wrap)
    expect_broken("history")


def test_score_without_winners(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def score(s: State) -> cr.Score:
            result: cr.Score = f(s)
            return attrs.evolve(result, winners=())

        return score

    patch(monkeypatch, LADDER, "score", wrap)
    expect_broken("score")


def test_score_standings_not_a_ranking(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def score(s: State) -> cr.Score:
            result: cr.Score = f(s)
            return attrs.evolve(result, standings=result.standings[1:])

        return score

    patch(monkeypatch, LADDER, "score", wrap)
    expect_broken("score")


def test_a_match_that_never_ends() -> None:
    assert "not over after 30 actions" in expect_broken("termination", max_actions=30)


def test_view_shows_the_wrong_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    real_view = cr.view

    def view(s: State, seat: int | None) -> cr.PlayerView:
        v = real_view(s, seat)
        return attrs.evolve(v, hand=v.hand[1:]) if seat is not None and s.trick else v

    monkeypatch.setattr(crt.views, "view", view)
    assert "wrong hand" in expect_broken("views")


@pytest.mark.parametrize("shared", [True, False], ids=["claimed-shared", "per-seat"])
def test_view_fields_that_differ_by_seat(monkeypatch: pytest.MonkeyPatch, shared: bool) -> None:
    # The ladder's own view fields made to depend on the seat: a game that says they are the same for
    # every seat (`view_fields_shared`) is caught; one that does not say so may show each seat its own.
    views = LADDER.views
    real = type(views).view_fields

    def view_fields(self: Any, state: State, seat: int | None) -> dict[str, Any]:
        return {**real(self, state, seat), "pending": () if seat is None else (seat,)}

    monkeypatch.setattr(type(views), "view_fields", view_fields)
    monkeypatch.setattr(type(views), "view_fields_shared", shared)
    if shared:
        assert "view_fields_shared says every seat sees the same" in expect_broken("views")
    else:  # each view asks for its own seat's fields, and shows them
        assert check_game(AGURK, matches=1, seed=5, players=[3]).matches == 1
        start = cr.new_game(AGURK, 3)
        state = cr.apply(start, cr.sample_chance(start, random.Random(2)))
        assert [cr.view(state, seat).pending for seat in (0, None, 2, 1)] == [(0,), (), (2,), (1,)]


def test_view_leaks_a_hidden_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    real_view = cr.view

    def view(s: State, seat: int | None) -> cr.PlayerView:
        v = real_view(s, seat)
        peek = s.hands[((seat or 0) + 1) % s.num_players]
        return attrs.evolve(v, round_number=v.round_number + sum(c.index for c in peek))

    monkeypatch.setattr(crt.views, "view", view)
    assert "hidden cards" in expect_broken("views")


def test_serialization_loses_something(monkeypatch: pytest.MonkeyPatch) -> None:
    real_loads = cr.loads

    def loads(text: str) -> Any:
        value = real_loads(text)
        if isinstance(value, State):
            return attrs.evolve(value, match=attrs.evolve(value.match, first=(value.first + 1) % 3))
        return value

    monkeypatch.setattr(crt.views, "loads", loads)
    assert "loads(dumps(state))" in expect_broken("serialization")


def test_replay_of_a_record_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    real_replay = cr.replay

    def replay(rec: cr.Record) -> State:
        state = real_replay(rec)
        return attrs.evolve(state, match=attrs.evolve(state.match, first=1))

    monkeypatch.setattr(crt.views, "replay", replay)
    expect_broken("serialization", seed=9)


def test_failure_message_reproduces() -> None:
    message = expect_broken("termination", max_actions=40, seed=17, matches=1, players=4)
    # The call it names repeats the failure as it is (the bound given to the failing run included).
    found = re.search(
        r"reproduce: check_game\(rules, matches=1, seed=(\d+), players=(\d+), max_actions=(\d+)\)", message
    )
    assert found is not None
    assert found.groups() == ("17", "4", "40")
    with pytest.raises(AssertionError) as again:
        check_game(AGURK, matches=1, seed=17, players=4, max_actions=40)
    assert str(again.value) == message


def test_failure_message_names_the_options() -> None:
    message = expect_broken("termination", cr.ruleset("agurk", threshold=10, reverse=True), max_actions=20)
    assert "agurk (" in message
    assert "threshold=10" in message
    assert "reverse=True" in message


# --------------------------------------------------------------------------- check_state


def test_check_state_at_every_kind_of_node() -> None:
    rules_ = cr.ruleset("gurka", threshold=5, revival=True)
    rng = random.Random(3)
    state = cr.new_game(rules_, 4)
    kinds = set()
    while True:
        check_state(state, seed=len(state.history))
        kinds.add("over" if state.is_over else "chance" if state.to_act == cr.CHANCE else "play")
        if ladder_state(state).match.pending:
            kinds.add("decision")
        if state.is_over:
            break
        action = (
            cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(cr.legal_moves(state))
        )
        state = cr.apply(state, action)
    assert kinds >= {"over", "chance", "play"}


def test_check_state_catches_a_tampered_state() -> None:
    state = cr.new_game(cr.ruleset("agurk"), 3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    r = state.round
    assert r is not None
    tampered = attrs.evolve(state, held=held_cards((r.hands[0][1:], *r.hands[1:])))
    with pytest.raises(AssertionError, match="card-conservation") as raised:
        check_state(tampered)
    assert "reproduce: check_state(state, seed=0)" in str(raised.value)
    assert "seed: 0;" not in str(raised.value)


def test_check_state_catches_a_state_its_history_does_not_give() -> None:
    state = cr.new_game(cr.ruleset("agurk"), 3)
    tampered = attrs.evolve(state, match=attrs.evolve(state.match, dealer=0))
    # caught by the replay check or, first, by loads(), which re-validates against the history
    with pytest.raises(AssertionError, match=r"invariant '(determinism|serialization)' broke"):
        check_state(tampered)


def test_check_state_type_error() -> None:
    with pytest.raises(TypeError):
        check_state("state")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- strategies


@given(rules())
def test_rules_strategy_gives_valid_rules(r: cr.Rules) -> None:
    assert type(r)(name=r.name, **r.options()) == r  # validates again
    for n in range(r.min_players, r.max_players + 1):
        cr.new_game(r, n)


@pytest.mark.parametrize("name", sorted(cr.RULESETS))
def test_rules_strategy_reaches_every_preset(name: str) -> None:
    assert find(rules(), lambda r: r.name == name).name == name


@pytest.mark.parametrize(
    "condition",
    [
        lambda r: r.deck != cr.RULESETS[r.name].deck,
        lambda r: r.penalty == "cucumbers" and r.name in ("agurk", "gurka"),
        lambda r: r.revival is True,
        lambda r: r.fixed_rounds is not None,
        lambda r: r.lives == 3,
        lambda r: r.follow == "forced-lowest" and r.name == "agurk",
        lambda r: r.ace_lead is True and r.deck == "five-cucumbers-60",
        lambda r: r.hand_size == 1,
        lambda r: r.next_leader == "penalized" and r.name == "gurka",
        lambda r: r.reverse is True and r.tie_bonus is True,
        lambda r: r.doubling == "per-one" and r.name == "fuenf-gurken",
        lambda r: r.surprise is True and r.cant_beat_em is True,
        lambda r: r.cucumbers is not None and r.cucumbers != cr.RULESETS["catastrophe"].cucumbers,
        lambda r: r.hand_count == 1 and r.hand_size == 2,
    ],
)
def test_rules_strategy_varies_the_options(condition: Callable[[cr.Rules], bool]) -> None:
    def holds(r: cr.Rules) -> bool:
        try:
            return condition(r)
        except AttributeError:  # an option of the other game
            return False

    assert condition(find(rules(), holds))


def test_rules_strategy_restricted_to_presets() -> None:
    assert find(rules(["Danish"]), lambda r: True).name == "agurk"
    with pytest.raises(cr.InvalidRulesError):
        rules(["no-such-game"])
    with pytest.raises(ValueError, match="at least one"):
        rules([])


@given(states(cr.ruleset("gurka"), players=3, max_actions=50))
def test_states_strategy_with_fixed_rules_and_players(state: State) -> None:
    assert state.rules == cr.ruleset("gurka")
    assert state.num_players == 3
    assert len(state.history) <= 50


@given(states(rules(["catastrophe"]), max_actions=0))
def test_states_strategy_without_actions_gives_new_games(state: State) -> None:
    assert state.rules.game == "catastrophe"
    assert len(state.history) == 0
    assert state.to_act == cr.CHANCE


def test_states_strategy_reaches_ends_and_middles() -> None:
    assert find(states(), lambda s: s.is_over).is_over
    assert find(states(), lambda s: bool(s.trick)).trick
    revival = states(cr.ruleset("gurka", revival=True, threshold=3), players=4)
    assert ladder_state(find(revival, lambda s: bool(ladder_state(s).match.pending))).match.pending


def test_states_strategy_bad_arguments() -> None:
    with pytest.raises(ValueError, match="max_actions"):
        states(max_actions=-1)


def test_hypothesis_is_not_imported_by_the_package() -> None:
    code = "import sys, cucumber_rules, cucumber_rules.testing; print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@given(st.data())
def test_strategies_compose_in_an_embedders_test(data: st.DataObject) -> None:
    r = data.draw(rules(["five-cucumbers"]))
    state = data.draw(states(r, players=r.min_players, max_actions=30))
    assert state.rules == r
    check_state(state)


def test_the_quick_fingerprint_sees_changes_in_place_but_not_caches() -> None:
    # Between checkpoints `check_game` compares the identities of everything a state reaches (not its
    # repr): a field set again in place, however deep, shows up; the caches `legal_moves` and `view`
    # fill in do not.
    from cucumber_rules.testing.match import state_fingerprint

    rng = random.Random(2)
    state = cr.new_game(cr.ruleset("catastrophe", surprise=True), 4)
    for _ in range(20):
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
    assert state.table is not None
    assert state.table.tricks
    before = state_fingerprint(state, full=False)
    cr.legal_moves(state)
    cr.view(state, 1)
    assert state_fingerprint(state, full=False) == before
    trick = state.table.tricks[0]
    taker = trick.taker
    object.__setattr__(trick, "taker", (taker + 1) % 4)
    assert state_fingerprint(state, full=False) != before
    object.__setattr__(trick, "taker", taker)
    assert state_fingerprint(state, full=False) == before
    object.__setattr__(state.match, "totals", (*state.match.totals,))  # an equal value, set again
    assert state_fingerprint(state, full=False) != before


def test_a_view_field_holding_a_list_is_caught_as_not_shareable(monkeypatch: pytest.MonkeyPatch) -> None:
    # A game's view field that holds a list would let one holder of a view change what others see.
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def view_fields(s: State, seat: int | None) -> dict[str, Any]:
            fields: dict[str, Any] = f(s, seat)
            return {**fields, "pending": list(fields["pending"])}

        return view_fields

    patch(monkeypatch, LADDER.views, "view_fields", wrap)
    message = expect_broken("shareable")
    assert "view(state, None)" in message
    assert "is a list" in message


def test_a_state_cache_holding_a_dict_is_caught_as_not_shareable(monkeypatch: pytest.MonkeyPatch) -> None:
    # A cache is not part of a value's equality, but it is reachable: a dict there is a shared, mutable part.
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        def start_round(s: State, deal: cr.Deal) -> State:
            after: State = f(s, deal)
            object.__setattr__(after.match, "_rows", {"kept": True})
            return after

        return start_round

    patch(monkeypatch, LADDER, "start_round", wrap)
    assert "._rows is a dict" in expect_broken("shareable")
