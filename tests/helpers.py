"""Shared test helpers: rigged deals and short ways to play them out.

Import them as `from helpers import ...` (pytest puts `tests/` on the path).

Hands and plays are written as card text separated by spaces, e.g.
`start(ruleset("agurk", hand_size=2), "2C 9S", "3D KD", "4H 5H")`; `""` or `"-"` is an
empty hand (a seat that is not dealt in). A play is given by its card only: the seat is
always the seat to act, so a test reads like the table.

Example:
    >>> import cucumber_rules as cr
    >>> s = start(cr.ruleset("agurk", hand_size=1), "5C", "9D", "3H")
    >>> s = play(s, "5C", "9D", "3H")
    >>> cr.score(s).totals
    (0, 9, 0)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence

import pytest

import cucumber_rules as cr
from cucumber_rules import Action, Card, Deal, IllegalMoveError, Play, Rules, State

__all__ = [
    "FILLERS",
    "assert_illegal",
    "autoplay",
    "cards",
    "catastrophe_state",
    "catastrophe_table",
    "catastrophe_trick",
    "deal",
    "dealt_seats",
    "ladder_result",
    "ladder_score",
    "ladder_state",
    "message_of",
    "names",
    "one_card_round",
    "pay_round",
    "play",
    "random_states",
    "start",
]

#: Low cards handed to the seats that must not pay in `pay_round`, per deck (ranks 2 and 3 only).
FILLERS: Mapping[str, tuple[str, ...]] = {
    "standard-52": ("2C", "2D", "2H", "2S", "3C", "3D"),
    "five-cucumbers-60": ("2", "2", "2", "2", "3", "3"),
}


def catastrophe_state(state: State) -> cr.CatastropheState:
    """The state as Catastrophe's state class (with its readings `marker` and `lead`); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> catastrophe_state(cr.new_game(cr.ruleset("catastrophe"), 3)).marker is None
        True
    """
    assert isinstance(state, cr.CatastropheState), f"not a Catastrophe state: {type(state).__name__}"
    return state


def ladder_state(state: State) -> cr.LadderState:
    """The state as the ladder's state class (with its reading `high`); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> ladder_state(cr.new_game(cr.ruleset("gurka"), 2)).high
        0
    """
    assert isinstance(state, cr.LadderState), f"not a ladder state: {type(state).__name__}"
    return state


def ladder_score(score: cr.Score) -> cr.LadderScore:
    """The score as the ladder's score class (its results are `LadderResult`s); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> ladder_score(cr.score(cr.new_game(cr.ruleset("gurka"), 2))).marks
        (0, 0)
    """
    assert isinstance(score, cr.LadderScore), f"not a ladder score: {type(score).__name__}"
    return score


def ladder_result(result: cr.RoundResult) -> cr.LadderResult:
    """The round's result as the ladder's result class (who paid, with which card); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> ladder_result(cr.LadderResult(1, (0, 9), (0, 9), payer=1, card=cr.card("9C"))).payer
        1
    """
    assert isinstance(result, cr.LadderResult), f"not a ladder result: {type(result).__name__}"
    return result


def catastrophe_trick(trick: cr.Trick) -> cr.CatastropheTrick:
    """The trick as Catastrophe's trick class (its marker and revealed card); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> catastrophe_trick(cr.CatastropheTrick(0, (cr.Play(0, "7"),), 0)).marker is None
        True
    """
    assert isinstance(trick, cr.CatastropheTrick), f"not a Catastrophe trick: {type(trick).__name__}"
    return trick


def catastrophe_table(table: cr.Table | None) -> cr.CatastropheTable:
    """The table as Catastrophe's table class (its revealed and captured cards); it must be one.

    Example:
        >>> import cucumber_rules as cr
        >>> catastrophe_table(cr.CatastropheTable((0, 1, 2), (1, 2, 0), 0)).revealed is None
        True
    """
    assert isinstance(table, cr.CatastropheTable), f"not a Catastrophe table: {type(table).__name__}"
    return table


def cards(text: str) -> tuple[Card, ...]:
    """Parse space-separated card text; `""` or `"-"` is no cards.

    Example:
        >>> [str(c) for c in cards("2c TH a♠")]
        ['2C', '10H', 'AS']
    """
    if text.strip() in ("", "-"):
        return ()
    return tuple(cr.card(t) for t in text.split())


def deal(*hands: str) -> Deal:
    """A rigged `Deal`: one card-text string per seat.

    Example:
        >>> deal("2C 3C", "-").hands
        ((card('2C'), card('3C')), ())
    """
    return Deal(hands=[cards(h) for h in hands])


def names(state: State, moves: Sequence[Action]) -> list[str]:
    """The cards of a sequence of plays as text (for compact assertions).

    Example:
        >>> import cucumber_rules as cr
        >>> names(cr.new_game(cr.ruleset("gurka"), 2), [cr.Play(0, "QS")])
        ['QS']
    """
    out: list[str] = []
    for m in moves:
        assert isinstance(m, Play), m
        out.append(str(m.card))
    return out


def start(rules: Rules, *hands: str, first: int = 0, players: int | Sequence[str] | None = None) -> State:
    """A new match with a rigged first deal (`players` defaults to the number of hands).

    Example:
        >>> import cucumber_rules as cr
        >>> start(cr.ruleset("gurka", hand_size=1), "2C", "AS", first=1).to_act
        1
    """
    state = cr.new_game(rules, len(hands) if players is None else players, first=first)
    return cr.apply(state, deal(*hands))


def play(state: State, *plays: str) -> State:
    """Play cards in order, each by the seat to act.

    Example:
        >>> import cucumber_rules as cr
        >>> s = start(cr.ruleset("gurka", hand_size=1), "2C", "AS")
        >>> play(s, "2C").to_act
        1
    """
    for text in plays:
        seat = state.to_act
        assert seat is not None, f"the match is over: no seat to play {text}"
        assert seat >= 0, f"no seat to act for {text} (to_act={seat})"
        state = cr.apply(state, Play(seat, cr.card(text)))
    return state


def dealt_seats(state: State) -> tuple[int, ...]:
    """The seats the coming deal must give cards to: not eliminated, not sitting out.

    Example:
        >>> import cucumber_rules as cr
        >>> dealt_seats(cr.new_game(cr.ruleset("gurka"), 3))
        (0, 1, 2)
    """
    m = ladder_state(state).match
    return tuple(s for s, out in enumerate(m.out) if out == 0 and s not in m.sitting_out)


def one_card_round(state: State, hands: Mapping[int, str]) -> State:
    """Deal one card to each listed seat (rules with `hand_size=1`) and play the trick out.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), 2)
        >>> cr.score(one_card_round(s, {0: "2C", 1: "9S"})).totals
        (0, 9)
    """
    assert state.to_act == cr.CHANCE, f"no deal is due (to_act={state.to_act})"
    state = cr.apply(state, deal(*(hands.get(s, "") for s in range(len(state.players)))))
    while state.to_act is not None and state.to_act >= 0 and not ladder_state(state).match.pending:
        if state.round is None or not state.round.hands[state.to_act]:
            break
        state = cr.apply(state, Play(state.to_act, state.round.hands[state.to_act][0]))
    return state


def pay_round(state: State, payer: int, paid: str) -> State:
    """A one-card round (`hand_size=1`) in which `payer` takes the trick with `paid`.

    Every other dealt seat gets a low filler card (rank 2 or 3), so `paid` must rank 4 or
    more (and not 1). Seats that are not dealt in get nothing.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), 3)
        >>> cr.score(pay_round(s, 2, "QS")).totals
        (0, 0, 12)
    """
    seats = dealt_seats(state)
    assert payer in seats, f"seat {payer} is not dealt in"
    assert cr.card(paid).rank >= 4, "the paying card must beat the fillers"
    fillers = iter(FILLERS[state.rules.deck])
    return one_card_round(state, {s: paid if s == payer else next(fillers) for s in seats})


def autoplay(state: State, rng: random.Random | None = None) -> State:
    """Play (the first legal move, or a random one with `rng`) until a deal or decision is due.

    Example:
        >>> import cucumber_rules as cr
        >>> s = start(cr.ruleset("gurka", hand_size=2), "2C 3C", "4D 5D")
        >>> autoplay(s).to_act == cr.CHANCE
        True
    """
    while state.to_act is not None and state.to_act >= 0 and not ladder_state(state).match.pending:
        moves = cr.legal_moves(state)
        state = cr.apply(state, moves[0] if rng is None else rng.choice(moves))
    return state


def random_states(rules: Rules, players: int, seed: int, limit: int = 400) -> list[State]:
    """Every state of one random match (deals and moves drawn from `random.Random(seed)`).

    Revival decisions are taken at random too. Stops at the end or after `limit` actions.

    Example:
        >>> import cucumber_rules as cr
        >>> states = random_states(cr.ruleset("gurka", hand_size=2, threshold=5), 2, seed=1)
        >>> states[0].to_act == cr.CHANCE, states[-1].is_over
        (True, True)
    """
    rng = random.Random(seed)
    state = cr.new_game(rules, players)
    out = [state]
    while not state.is_over and len(out) <= limit:
        if state.to_act == cr.CHANCE:
            action = cr.sample_chance(state, rng)
        else:
            action = rng.choice(cr.legal_moves(state))
        state = cr.apply(state, action)
        out.append(state)
    return out


def assert_illegal(state: State, action: Action, code: str, message: str | None = None) -> IllegalMoveError:
    """Assert that `action` is illegal with `code` everywhere, and that nothing changes.

    `check` returns the error, `is_legal` is False, `apply` raises an error with the same
    code, message, seat and action, and the state still equals a deep copy taken before.
    With `message`, the error's text must equal it exactly.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), 2)
        >>> assert_illegal(s, cr.Play(0, "AS"), "deal-expected").seat
        0
    """
    before = copy.deepcopy(state)
    found = cr.check(state, action)
    assert found is not None, f"{action} should be illegal ({code})"
    assert found.code == code, (found.code, str(found))
    assert not cr.is_legal(state, action)
    with pytest.raises(IllegalMoveError) as info:
        cr.apply(state, action)
    raised = info.value
    assert raised.code == found.code
    assert str(raised) == str(found)
    assert raised.seat == found.seat
    assert raised.action == action
    if message is not None:
        assert str(found) == message, str(found)
    assert found.action == action
    assert isinstance(found, ValueError)
    assert isinstance(found, cr.RulesError)
    assert state == before, "a rejected action changed the state"
    return found


def message_of(kind: type[Exception], call: Callable[[], object]) -> str:
    """The message of the `kind` error that `call()` raises (the test fails if it raises none)."""
    with pytest.raises(kind) as raised:
        call()
    return str(raised.value)
