"""Catastrophe's scoring: each hand's captured cucumbers, the next starter, the match's end and ranking."""

from __future__ import annotations

from typing import Final

from ...cards import Card
from ...scoring import Score, new_score
from ...state import RoundResult, State, result_rows
from ...tricks import end_round
from ...values import builder
from .rules import BONUS, BONUS_FIVES, CatastropheRules
from .types import CatastropheMatch, CatastropheState, CatastropheTable

__all__ = [
    "best_hand",
    "catastrophe_score",
    "finish_hand",
    "hand_points",
    "ranking",
    "score_problem",
    "starters",
    "winners_of",
]

#: `_new_match(rules, players, first, totals, dealer, rounds, results, winners, starter)`.
_new_match: Final = builder(CatastropheMatch)
_new_result: Final = builder(RoundResult)


def starters(state: State) -> tuple[int, ...]:
    """The seats that may start the coming hand: `first`, else the highest cumulative total(s).

    Example:
        >>> import cucumber_rules as cr
        >>> starters(cr.new_game(cr.ruleset("catastrophe"), players=3, first=2))
        (2,)
    """
    m = state.match
    if m.rounds == 0:
        return (m.first,)
    top = max(m.totals)
    return tuple(s for s, total in enumerate(m.totals) if total == top)


def best_hand(results: tuple[RoundResult, ...], seat: int) -> int:
    """A seat's lowest single-hand score so far (the first tie-break), 0 before any hand.

    Example:
        >>> import cucumber_rules as cr
        >>> best_hand((cr.RoundResult(1, (3, 9), (3, 9)), cr.RoundResult(2, (5, 1), (8, 10))), 1)
        1
    """
    return min((r.points[seat] for r in results), default=0)


def hand_points(rules: CatastropheRules, captured: tuple[Card, ...]) -> int:
    """What a hand's captured cards score: their cucumbers, or If You Can't Beat 'Em's -5.

    Example:
        >>> import cucumber_rules as cr
        >>> r = cr.ruleset("catastrophe", cant_beat_em=True)
        >>> hand_points(r, tuple(cr.card(n) for n in (5, 15, 25, 35))), hand_points(r, (cr.card(7),))
        (-5, 1)
    """
    p = rules._plan
    if rules.cant_beat_em and sum(1 for c in captured if p.five[c.rank]) >= BONUS_FIVES:
        return BONUS
    return sum(p.cucumbers[c.rank] for c in captured)


def finish_hand(state: CatastropheState) -> CatastropheState:
    """Score the hand's captured cards (`state` is just after its last trick); a deal or the match's end next.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=1, hand_count=1), players=3),
        ...              cr.Deal(hands=[["5"], ["7"], ["9"]]))
        >>> s = cr.apply_all(s, [cr.Play(0, "5"), cr.Play(1, "7"), cr.Play(2, "9")])  # 9 takes 7 cucumbers
        >>> s.match.totals, s.match.winners
        ((0, 0, 7), (0, 1))
    """
    m = state.match
    rules = m.rules
    table = state.table
    assert isinstance(table, CatastropheTable)
    n = len(m.players)
    number = m.rounds + 1
    points = tuple(hand_points(rules, won) for won in table.captured)
    totals = tuple(t + x for t, x in zip(m.totals, points, strict=True))
    results = m.results.append(_new_result(number, points, totals))
    top = max(totals)
    highest = [s for s in range(n) if totals[s] == top]
    winners = winners_of(totals, results.items()) if number >= rules.hand_count else ()
    starter = highest[0] if len(highest) == 1 else -1
    match = _new_match(m.rules, m.players, m.first, totals, m.dealer, number, results, winners, starter)
    return end_round(state, match=match)


def catastrophe_score(game: str, state: State) -> Score:
    """Totals, one row per hand, winners, and the ranking: fewest cucumbers, lowest hand, seat.

    Example:
        >>> import cucumber_rules as cr
        >>> catastrophe_score("catastrophe", cr.new_game(cr.ruleset("catastrophe"), players=3)).standings
        (0, 1, 2)
    """
    m = state.match
    results, rows = result_rows(m)
    return new_score(m.totals, rows, m.winners, ranking(m.totals, results), results, game)


def winners_of(totals: tuple[int, ...], results: tuple[RoundResult, ...]) -> tuple[int, ...]:
    """The winners once the last hand is scored: the fewest cucumbers, then the lowest single hand.

    Example:
        >>> import cucumber_rules as cr
        >>> winners_of((8, 8), (cr.RoundResult(1, (3, 1), (3, 1)), cr.RoundResult(2, (5, 7), (8, 8))))
        (1,)
    """
    fewest = min(totals)
    tied = [s for s, total in enumerate(totals) if total == fewest]
    low = min(best_hand(results, s) for s in tied)
    return tuple(s for s in tied if best_hand(results, s) == low)


def ranking(totals: tuple[int, ...], results: tuple[RoundResult, ...]) -> tuple[int, ...]:
    """The standings: fewest cucumbers first, then the lowest single hand, then the seat.

    Example:
        >>> import cucumber_rules as cr
        >>> ranking((8, 8, 2), (cr.RoundResult(1, (3, 1, 2), (3, 1, 2)),))
        (2, 1, 0)
    """
    n = len(totals)
    if results and len(set(totals)) < n:  # only a tie needs the best hands
        best = [best_hand(results, seat) for seat in range(n)]
        return tuple(sorted(range(n), key=lambda seat: (totals[seat], best[seat])))
    return tuple(sorted(range(n), key=totals.__getitem__))  # (a stable sort: ties by seat)


def score_problem(score: Score) -> str | None:
    """Why a loaded Catastrophe score is one no match could produce (`"$.path: message"`), or None.

    Without the rules, what a score must show is still fixed: each hand scores its captured cucumbers
    (0 or more) or If You Can't Beat 'Em's -5, the totals add the hands up, the standings rank the
    totals (then the best hands), and the winners, once there are any, are the first of them.

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> sc = cr.score(cr.new_game(cr.ruleset("catastrophe"), players=3))
        >>> score_problem(sc) is None, score_problem(attrs.evolve(sc, standings=(2, 1, 0)))
        (True, '$.standings: must rank the seats by total, then best hand, then seat: [0, 1, 2]')
    """
    if score.winners and not score.results:
        return "$.winners: no hand has been played"
    before = (0,) * len(score.totals)
    for i, result in enumerate(score.results):
        wrong = [p for p in result.points if p < 0 and p != BONUS]
        if wrong:
            return f"$.results[{i}].points: a hand scores 0 cucumbers or more (or {BONUS}), not {wrong[0]}"
        if result.totals != tuple(t + p for t, p in zip(before, result.points, strict=True)):
            return f"$.results[{i}].totals: must be the totals before the hand plus its points"
        before = result.totals
    expected = ranking(score.totals, score.results)
    if score.standings != expected:
        return f"$.standings: must rank the seats by total, then best hand, then seat: {list(expected)}"
    winners = winners_of(score.totals, score.results) if score.winners else ()
    if score.winners != winners:
        return f"$.winners: the winners are the fewest cucumbers, then the lowest hand: {list(winners)}"
    return None
