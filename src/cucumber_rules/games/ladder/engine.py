"""The ladder engine: dealing, the follow rule, tricks, the scoring of the last trick, revivals.

The leader plays any card; each later player plays a card at least as high as
the highest card in the trick, or their lowest card (`follow`); a led Ace may
force everyone's lowest card (`ace_lead`). The highest card takes the trick
(the later of equal cards); its player leads the next. Only the last trick of a
round scores: its taker pays (`penalty`, `doubling`, `tie_bonus`, `reverse`),
and crossing `threshold` costs a life (`lives`, `revival`), unless the match is
a fixed number of rounds (`fixed_rounds`). A match still undecided after
`round_limit` rounds (automatic by default) ends there: the lowest total among
the seats still in wins, ties share.

The follow rule is written once, in `_moves`: `legal` lists its moves for a
state, `play_card` works them out for the state it builds (so `legal_moves` finds
them kept), and `play_error` and `apply_play` accept exactly those moves.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

import attrs

from ..._values import builder
from ...actions import Action, Deal, Play
from ...cards import Card, card_list, not_in_hand, rank_label
from ...dealing import after_table, next_seat, previous_seat, shuffled_deal
from ...dealing import deal_error as generic_deal_error
from ...errors import IllegalMoveError
from ...history import History
from ...state import CHANCE, State, Table, Trick, dealt_held, new_state, new_state_with_moves, without_trick
from .types import LadderMatch, LadderResult, Revive

if TYPE_CHECKING:
    from .rules import LadderPlan, LadderRules

__all__ = [
    "apply_play",
    "deal_error",
    "dealt_seats",
    "decide",
    "decision_error",
    "high",
    "legal",
    "play_card",
    "play_error",
    "sample_deal",
    "start_round",
]

_new_trick: Final = builder(Trick)
_new_table: Final = builder(Table)
#: `_new_match(rules, players, first, totals, dealer, rounds, results, winners, marks, out, revived,
#: sitting_out, pending, payer)`: a `LadderMatch` from its fields, in order.
_new_match: Final = builder(LadderMatch)
_new_result: Final = builder(LadderResult)

#: The revival decisions of each seat, as `legal` lists them.
_DECISIONS: Final = tuple((Revive(seat, False), Revive(seat, True)) for seat in range(7))


# --------------------------------------------------------------------------- dealing


_ALL_SEATS: Final = tuple(tuple(range(n)) for n in range(8))


def dealt_seats(match: LadderMatch) -> tuple[int, ...]:
    """The seats that receive cards in the coming round: in play and not sitting out.

    Example:
        >>> import cucumber_rules as cr
        >>> dealt_seats(cr.new_game(cr.ruleset("agurk"), players=4).match)
        (0, 1, 2, 3)
    """
    if not match.sitting_out and not any(match.out):
        return _ALL_SEATS[len(match.out)]
    return tuple(s for s, out in enumerate(match.out) if out == 0 and s not in match.sitting_out)


def deal_error(state: State, deal: Deal) -> IllegalMoveError | None:
    """Why a deal does not fit the coming round, or None.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
        >>> deal_error(s, cr.Deal(hands=[["9C"], ["2D"]])) is None
        True
        >>> err = deal_error(s, cr.Deal(hands=[["9C"], ["9C"]]))
        >>> err.code, str(err)
        ('bad-deal', 'bad deal: 9C appears 2 times, but the deck holds it once')
    """
    if deal.leader is not None:
        return IllegalMoveError(
            "bad-deal", "bad deal: the ladder game never draws a leader, so leader must be None", action=deal
        )
    rules: LadderRules = state.match.rules  # type: ignore[assignment]
    match: LadderMatch = state.match  # type: ignore[assignment]
    return generic_deal_error(
        deal, players=len(match.players), seats=dealt_seats(match), per=rules.hand_size, deck=rules._plan.deck
    )


def sample_deal(state: State, rng: random.Random) -> Deal:
    """A random deal for the coming round: `hand_size` cards to each seat dealt in, no stock.

    Example:
        >>> import cucumber_rules as cr, random
        >>> d = sample_deal(cr.new_game(cr.ruleset("gurka"), players=3), random.Random(3))
        >>> [len(h) for h in d.hands], d.stock, d.leader
        ([7, 7, 7], (), None)
    """
    rules: LadderRules = state.match.rules  # type: ignore[assignment]
    match: LadderMatch = state.match  # type: ignore[assignment]
    return shuffled_deal(
        rng,
        rules._plan.deck,
        players=len(match.players),
        seats=dealt_seats(match),
        per=rules.hand_size,
        stock=False,
    )


def start_round(state: State, deal: Deal) -> State:
    """Apply a (checked) deal: choose the dealer and the leader, and start the round.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("agurk"), players=3, first=1)
        >>> s = start_round(s, sample_deal(s, random.Random(1)))
        >>> s.to_act, s.match.dealer, len(s.history)
        (1, 0, 1)
    """
    m: LadderMatch = state.match  # type: ignore[assignment]
    rules: LadderRules = m.rules  # type: ignore[assignment]
    n = len(m.players)
    seats = dealt_seats(m)
    if m.rounds == 0:
        dealer, leader = (m.first - 1) % n, m.first
    elif rules.next_leader == "rotate":
        dealer = next_seat(m.dealer, seats, n)
        leader = next_seat(dealer, seats, n)
    else:
        leader = m.payer if m.payer in seats else next_seat(m.payer, seats, n)
        dealer = previous_seat(leader, seats, n)
    if dealer != m.dealer:
        m = _new_match(
            m.rules, m.players, m.first, m.totals, dealer, m.rounds, m.results, m.winners,
            m.marks, m.out, m.revived, m.sitting_out, m.pending, m.payer,
        )  # fmt: skip
    match = m
    table = _new_table(seats, after_table(seats, n), leader, (), deal.stock)
    held = dealt_held(deal)
    moves = _moves(rules._plan, held[leader], (), None)
    return new_state_with_moves(leader, match, table, held, (), None, None, state.past.append(deal), moves)


# --------------------------------------------------------------------------- the follow rule


def high(state: State) -> int:
    """`state.high`: the highest rank in the current trick (0 before its first card).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["9C"], ["2D"]]))
        >>> high(s), high(cr.apply(s, cr.Play(0, "9C")))
        (0, 9)
    """
    return 0 if state.best is None else state.best.card.rank


def legal(state: State) -> tuple[Action, ...]:
    """The legal actions of the seat to act (not at chance, not over): a revival decision, or `_moves`.

    `check` and `apply` accept exactly these moves.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=4), players=2),
        ...              cr.Deal(hands=[["9S", "2C", "4C", "6C"], ["3C", "3H", "8D", "QS"]]))
        >>> s = cr.apply(s, cr.Play(0, "9S"))
        >>> [str(m.card) for m in legal(s)]
        ['QS']
    """
    seat: int = state.to_act  # type: ignore[assignment]
    m: LadderMatch = state.match  # type: ignore[assignment]
    if m.pending:
        return _DECISIONS[seat]
    # The seat's plays, sorted by card (it has not played in this trick).
    return _moves(m.rules._plan, state.held[seat], state.trick, state.best)


def _moves(
    plan: LadderPlan, hand: tuple[Play, ...], trick: tuple[Play, ...], best: Play | None
) -> tuple[Action, ...]:
    """The follow rule, written once: the plays of `hand` legal after `trick`, whose card `best` is taking.

    `hand` is a seat's plays, sorted, none of them in `trick`. Leading, any card. After
    a led Ace (with `ace_lead`), only the lowest cards. Otherwise a card at least as
    high as the highest in the trick, or a lowest card; with forced following, a
    lowest card only when no card is high enough. Identical cards are listed once.

    Example:
        >>> from cucumber_rules import Play, card, ruleset
        >>> from cucumber_rules.state import held_cards
        >>> hand = held_cards(((), (card("2C"), card("4C"), card("9S"), card("QS"))))[1]
        >>> lead = Play(0, "8D")
        >>> [str(p.card) for p in _moves(ruleset("agurk")._plan, hand, (lead,), lead)]
        ['2C', '9S', 'QS']
        >>> [str(p.card) for p in _moves(ruleset("gurka")._plan, hand, (lead,), lead)]
        ['9S', 'QS']
    """
    if trick:  # the lowest cards are hand[:a], those high enough hand[b:]
        n = len(hand)
        low = hand[0].card.rank
        a = 1
        while a < n and hand[a].card.rank == low:
            a += 1
        if trick[0].card.rank == plan.ace:
            hand = hand[:a]
        else:
            high = best.card.rank  # type: ignore[union-attr]
            if low < high:
                b = n
                while hand[b - 1].card.rank >= high:  # stops at the lowest card, below `high`
                    b -= 1
                if not plan.forced:
                    hand = hand[:a] + hand[b:]
                elif b < n:  # forced: the lowest cards only when no card is high enough
                    hand = hand[b:]
                else:
                    hand = hand[:a]
    if plan.copies:  # identical cards are one shared card, so one shared play: keep each once
        return tuple(dict.fromkeys(hand))
    return hand


def _lowest(cards: tuple[Card, ...]) -> str:
    low = cards[0].rank
    return " or ".join(str(c) for c in dict.fromkeys(cards) if c.rank == low)


def play_error(state: State, play: Play) -> IllegalMoveError | None:
    """Why the acting seat may not play this card now, or None (the seat is already checked).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
        >>> err = play_error(cr.apply(s, cr.Play(0, "9S")), cr.Play(1, "3C"))
        >>> err.code, str(err)
        ('must-follow', 'seat 1 cannot play 3C: must play 9 or higher (they hold QS)')
    """
    seat = play.seat
    m: LadderMatch = state.match  # type: ignore[assignment]
    if m.pending:
        return IllegalMoveError(
            "decision-expected",
            f"seat {seat} cannot play now: they must first decide whether to buy back in "
            "(Revive(seat, True) or Revive(seat, False))",
            seat=seat,
            action=play,
        )
    if play not in state.held[seat]:
        return not_in_hand(seat, play.card, state.hand(seat), play, state.match.rules.deck)
    allowed = legal(state)
    if play in allowed:
        return None
    return _follow_error(state, play, allowed)


def _follow_error(state: State, play: Play, allowed: tuple[Action, ...]) -> IllegalMoveError:
    """Explain a play the follow rule refuses, from the moves `legal` allows."""
    seat, c = play.seat, play.card
    hand = state.hand(seat)
    plan: LadderPlan = state.match.rules._plan
    lead = state.trick[0].card
    if lead.rank == plan.ace:
        return IllegalMoveError(
            "must-play-lowest",
            f"seat {seat} cannot play {c}: {lead} was led, so every other player plays "
            f"their lowest card {_lowest(hand)}",
            seat=seat,
            action=play,
        )
    high = state.best.card.rank  # type: ignore[union-attr]
    label = rank_label(high, suited=plan.suited)
    higher = [p.card for p in allowed if p.card.rank >= high]  # type: ignore[union-attr]
    if plan.forced and higher:
        message = f"must play {label} or higher (they hold {card_list(higher)})"
    elif plan.forced:
        message = f"they hold nothing of {label} or higher, so must play the lowest card {_lowest(hand)}"
    else:
        message = f"must play {label} or higher, or the lowest card {_lowest(hand)}"
    return IllegalMoveError("must-follow", f"seat {seat} cannot play {c}: {message}", seat=seat, action=play)


def apply_play(state: State, play: Play) -> State:
    """Check and apply a play of the seat to act (the seat is already checked): legal if `legal` lists it.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
        >>> s = apply_play(s, cr.Play(0, "9S"))
        >>> apply_play(s, cr.Play(1, "3C"))
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.IllegalMoveError: seat 1 cannot play 3C: must play 9 or higher (they hold QS)
    """
    if play not in legal(state):
        raise play_error(state, play)  # type: ignore[misc]
    return play_card(state, play)


def play_card(state: State, play: Play) -> State:
    """Apply a play already known to be legal (one of `legal(state)`): the trick, and its end.

    The card stays in the seat's `held` hand until the trick ends (`State.hands` leaves it out),
    so a card played mid-trick builds one new state and nothing else.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
        >>> s = play_card(play_card(s, cr.Play(0, "9S")), cr.Play(1, "QS"))
        >>> s.to_act, [str(c) for c in s.hand(0)], [str(c) for c in s.hand(1)]
        (1, ['2C'], ['3C'])
    """
    trick = state.trick
    best = state.best
    m = state.match
    plan: LadderPlan = m.rules._plan
    if best is None or (play.card.rank >= best.card.rank and trick[0].card.rank != plan.ace):
        best = play  # plays are shared objects: this is the one Play of this seat and card
    trick = trick + (play,)  # noqa: RUF005 (`(*trick, play)` builds a list: slower)
    table: Table = state.table  # type: ignore[assignment]
    if len(trick) < len(table.seats):
        seat = table.after[play.seat]
        held = state.held
        moves = _moves(plan, held[seat], trick, best)
        return new_state_with_moves(seat, m, table, held, trick, best, None, state.past, moves)
    taker = best.seat
    held = state.held
    past = state.past.extend(trick)
    tricks = table.tricks + (_new_trick(table.leader, trick, taker),)  # noqa: RUF005
    table = _new_table(table.seats, table.after, taker, tricks, table.stock)
    if len(held[taker]) > 1:
        held = without_trick(held, trick)
        moves = _moves(plan, held[taker], (), None)
        return new_state_with_moves(taker, m, table, held, (), None, None, past, moves)
    # The round's last trick: every seat dealt in held one card, the one it played.
    return _finish_round(state, table, ((),) * len(held), trick, best, past)


# --------------------------------------------------------------------------- scoring


def _finish_round(
    state: State,
    table: Table,
    held: tuple[tuple[Play, ...], ...],
    last: tuple[Play, ...],
    best: Play,
    past: History[Action],
) -> State:
    """Score the last trick, then marks, resets, eliminations, revivals, and the end of the match."""
    m: LadderMatch = state.match  # type: ignore[assignment]
    rules: LadderRules = m.rules  # type: ignore[assignment]
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
    drew: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    if rules.fixed_rounds is None and totals[payer] >= rules.threshold:
        if marks[payer] + 1 >= rules.lives:
            out = (*out[:payer], number, *out[payer + 1 :])
            eliminated = (payer,)
            others = [s for s in range(n) if s != payer and out[s] == 0]
            if rules.revival and not m.revived[payer] and len(others) >= 2:
                pending = (payer,)
        else:
            marks = (*marks[:payer], marks[payer] + 1, *marks[payer + 1 :])
            drew = (payer,)
            others_scores = [totals[s] for s in table.seats if s != payer and out[s] == 0]
            totals[payer] = max(others_scores, default=0)
    returned = m.sitting_out
    for s in returned:
        totals[s] = max((totals[o] for o in table.seats if out[o] == 0), default=0)
    result = _new_result(number, tuple(points), tuple(totals), payer, taken, drew, eliminated, returned)
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
    to_act = None if winners else (pending[0] if pending else CHANCE)
    return new_state(to_act, match, table, held, (), None, None, past)


# --------------------------------------------------------------------------- revival


def decision_error(state: State, action: Revive) -> IllegalMoveError | None:
    """Why a revival decision may not be taken now (none due, or another seat's), or None.

    Example:
        >>> import cucumber_rules as cr
        >>> rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
        >>> s = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
        >>> s = cr.apply_all(s, [cr.Play(0, "2C"), cr.Play(1, "3C"), cr.Play(2, "9S")])  # seat 2 pays 9: out
        >>> decision_error(s, cr.Revive(2, True)), decision_error(s, cr.Revive(0, True)).code
        (None, 'not-your-turn')
    """
    m: LadderMatch = state.match  # type: ignore[assignment]
    to_act = state.to_act
    if not m.pending or to_act is None or to_act < 0:
        why = "now" if m.rules.revival else "(these rules have no revival: revival=False)"
        return IllegalMoveError(
            "no-decision",
            f"seat {action.seat} has no decision to take {why}",
            seat=action.seat,
            action=action,
        )
    if action.seat != to_act:
        return IllegalMoveError(
            "not-your-turn",
            f"seat {action.seat} cannot decide now: seat {to_act} must decide whether to buy back in",
            seat=action.seat,
            action=action,
        )
    return None


def decide(state: State, action: Revive) -> State:
    """Apply a revival decision: buy back in (sit out the next round) or stay out.

    A decision is offered to the round's one eliminated payer, and only while two
    other players are still in, so it never ends the match: a deal is due next.

    Example:
        >>> import cucumber_rules as cr
        >>> rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
        >>> s = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
        >>> s = cr.apply_all(s, [cr.Play(0, "2C"), cr.Play(1, "3C"), cr.Play(2, "9S")])  # seat 2 pays 9: out
        >>> decide(s, cr.Revive(2, True)).match.sitting_out, decide(s, cr.Revive(2, False)).match.out
        ((2,), (0, 0, 1))
    """
    m: LadderMatch = state.match  # type: ignore[assignment]
    seat = action.seat
    if action.accept:
        out = tuple(0 if s == seat else o for s, o in enumerate(m.out))
        revived = tuple(v or s == seat for s, v in enumerate(m.revived))
        match = attrs.evolve(m, out=out, revived=revived, sitting_out=(*m.sitting_out, seat), pending=())
    else:
        match = attrs.evolve(m, pending=())
    return new_state(CHANCE, match, state.table, state.held, (), None, None, state.past.append(action))
