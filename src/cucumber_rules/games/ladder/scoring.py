"""The ladder's scoring: the last trick's payment, marks, resets, eliminations, revivals, the match's end."""

from __future__ import annotations

from typing import Any, Final

from ...actions import Play
from ...scoring import Score
from ...state import CHANCE, result_rows
from ...tricks import end_round
from ...values import builder
from .types import LadderMatch, LadderResult, LadderScore, LadderState

__all__ = ["finish_round", "ladder_score", "ranking", "score_problem"]

_new_match: Final = builder(LadderMatch)
_new_result: Final = builder(LadderResult)
_new_score: Final = builder(LadderScore)


def finish_round(state: LadderState, last: tuple[Play, ...], best: Play) -> LadderState:
    """Score the round's last trick (`state` is just after it, `last` its plays, `best` its taking play).

    The taker pays (with `reverse`, the lowest card; the amount is the highest card's value,
    doubled by 1s), tie bonuses apply, then thresholds: a cucumber mark and a reset, or an
    elimination (and, with `revival`, the seat's decision is due). Seats that sat out come
    back with the highest score of another seat in. The match ends with one seat left, after
    `fixed_rounds`, or at the round limit.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["9S"]]))
        >>> cr.apply(cr.apply(s, cr.Play(0, "2C")), cr.Play(1, "9S")).match.totals
        (0, 9)
    """
    m = state.match
    rules = m.rules
    plan = rules._plan
    n = len(m.players)
    number = m.rounds + 1
    taken = best.card  # the highest card (the last of equals)
    payer, paying = best.seat, taken
    if rules.reverse:  # the lowest card pays instead (the last of equals)
        for x in last:
            if x.card.rank <= paying.rank:
                payer, paying = x.seat, x.card
    amount = plan.value[taken.rank]
    if rules.doubling != "none":
        ones = sum(1 for x in last if x.card.rank == 1)
        if rules.doubling == "per-one":
            amount <<= ones
        elif ones:
            amount *= 2
    totals = list(m.totals)
    points = [0] * n
    totals[payer] += amount
    points[payer] = amount
    if rules.tie_bonus:
        paying_rank = paying.rank
        for x in last:
            if x.seat != payer and x.card.rank == paying_rank:
                new_total = max(0, totals[x.seat] - amount)
                points[x.seat] = new_total - totals[x.seat]
                totals[x.seat] = new_total
    marks = m.marks
    out = m.out
    pending: tuple[int, ...] = ()
    marked: tuple[int, ...] = ()
    went_out: tuple[int, ...] = ()
    table = state.table
    assert table is not None
    if rules.fixed_rounds is None and totals[payer] >= rules.threshold:
        if marks[payer] + 1 >= rules.lives:
            out = (*out[:payer], number, *out[payer + 1 :])
            went_out = (payer,)
            others = [s for s in range(n) if s != payer and out[s] == 0]
            if rules.revival and not m.revived[payer] and len(others) >= 2:
                pending = (payer,)
        else:
            marks = (*marks[:payer], marks[payer] + 1, *marks[payer + 1 :])
            marked = (payer,)
            others_scores = [totals[s] for s in table.seats if s != payer and out[s] == 0]
            totals[payer] = max(others_scores, default=0)
    returned = m.sitting_out
    for s in returned:
        totals[s] = max((totals[o] for o in table.seats if out[o] == 0), default=0)
    result = _new_result(number, tuple(points), tuple(totals), payer, taken, marked, went_out, returned)
    winners: tuple[int, ...] = ()
    if rules.fixed_rounds is not None:
        if number >= rules.fixed_rounds:
            best_total = min(totals)
            winners = tuple(s for s in range(n) if totals[s] == best_total)
    elif out.count(0) == 1 and not pending:
        winners = (out.index(0),)
    elif number >= plan.limits[n]:  # undecided at the `round_limit`: the lowest total still in wins
        best_total = min(totals[s] for s in range(n) if out[s] == 0)
        winners = tuple(s for s in range(n) if out[s] == 0 and totals[s] == best_total)
        pending = ()  # the match is over: an eliminated payer stays out
    match = _new_match(
        m.rules, m.players, m.first, tuple(totals), m.dealer, number, m.results.append(result), winners,
        marks, out, m.revived, (), pending, payer,
    )  # fmt: skip
    # (the eliminated payer decides first whether to buy back in: a decision, not a deal, is due)
    return end_round(state, match=match, to_act=pending[0] if pending else CHANCE)


def ladder_score(m: LadderMatch) -> Score:
    """The ladder score: winners first, then seats still in, then by when they went out, then total.

    Example:
        >>> import cucumber_rules as cr
        >>> ladder_score(cr.new_game(cr.ruleset("agurk"), players=3).match).standings
        (0, 1, 2)
    """
    results, rows = result_rows(m)
    winners, out, totals = m.winners, m.out, m.totals
    standings = ranking(winners, out, totals)
    return _new_score(totals, rows, winners, standings, results, "ladder", m.marks, m.eliminated)


def ranking(winners: tuple[int, ...], out: tuple[int, ...], totals: tuple[int, ...]) -> tuple[int, ...]:
    """The standings: winners first, then seats still in, then by when they went out (the latest
    first, `out` holding each seat's round or 0), then by total, then by seat.

    Example:
        >>> ranking((), (0, 2, 0), (9, 30, 4)), ranking((2,), (0, 2, 0), (9, 30, 4))
        ((2, 0, 1), (2, 0, 1))
    """
    if winners or any(out):

        def key(seat: int) -> tuple[int, int, int, int]:
            gone = out[seat]
            return (0 if seat in winners else 1, 1 if gone else 0, -gone, totals[seat])

        return tuple(sorted(range(len(out)), key=key))
    return tuple(sorted(range(len(out)), key=totals.__getitem__))  # (a stable sort: ties by seat)


def score_problem(score: Any) -> str | None:
    """Why a loaded ladder score is one no match could produce (`"$.path: message"`), or None.

    Without the rules (the threshold, the lives) a score still shows what the scoring makes of it: the
    winners are seats still in, and the standings put the winners first, then the other seats still in
    by total, then the seats that went out (in the order they went out, which the score does not hold).

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> sc = cr.score(cr.new_game(cr.ruleset("agurk"), players=3))
        >>> score_problem(sc) is None, score_problem(attrs.evolve(sc, standings=(2, 1, 0)))
        (True, '$.standings: must rank the winners, then the seats still in by total: [0, 1, 2]')
    """
    out = tuple(int(gone) for gone in score.eliminated)
    for seat in score.winners:
        if out[seat]:
            return f"$.winners: seat {seat} went out of the match and cannot win it"
    expected = ranking(score.winners, out, score.totals)
    k = out.count(0)
    if score.standings[:k] != expected[:k]:
        return f"$.standings: must rank the winners, then the seats still in by total: {list(expected[:k])}"
    return None
