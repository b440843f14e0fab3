"""The ladder engine: Agurk, Gurka, Five Cucumbers and fuenf-gurken.

The leader plays any card; each later player plays a card at least as high as
the highest card in the trick, or their lowest card (`follow`); a led Ace may
force everyone's lowest card (`ace_lead`). The highest card takes the trick
(the later of equal cards); its player leads the next. Only the last trick of a
round scores: its taker pays (`penalty`, `doubling`, `tie_bonus`, `reverse`),
and crossing `threshold` costs a life (`lives`, `revival`), unless the match is
a fixed number of rounds (`fixed_rounds`).

Every option is read once into a `_Plan` of plain values, so the hot path
(`legal`, `play_error`, `play`) is a few comparisons on interned cards.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from operator import attrgetter
from typing import Final, cast

import attrs

from .actions import Action, Deal, Play, Revive
from .cards import CARD_BY_INDEX, DECKS, Card, card_list, not_in_hand, rank_label
from .dealing import after_table, next_seat, previous_seat, shuffled_deal
from .dealing import deal_error as _generic_deal_error
from .errors import IllegalMoveError
from .rules import Rules
from .scoring import Score
from .state import (
    CHANCE,
    STATE_SETTERS,
    Match,
    Node,
    RoundResult,
    State,
    Table,
    new_state,
    new_table,
    new_trick,
    push,
    result_rows,
)

_MAX_SEATS: Final = 7

#: `PLAYS[seat][card.index]`: the one shared `Play` for each seat and card (indexes that
#: name no card hold None, and are never looked up).
PLAYS: Final = cast(
    "tuple[tuple[Play, ...], ...]",
    tuple(tuple(None if c is None else Play(seat, c) for c in CARD_BY_INDEX) for seat in range(_MAX_SEATS)),
)

_INDEX = attrgetter("index")
_new = object.__new__
(
    _set_to_act,
    _set_match,
    _set_table,
    _set_hands,
    _set_trick,
    _set_high,
    _set_taker,
    _set_marker,
    _set_history,
) = STATE_SETTERS

#: Five Cucumbers' cucumbers by rank (index 0 unused).
CUCUMBERS_BY_RANK: Final = (0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5)


class _Plan:
    """The rules read once into plain values for the hot path."""

    __slots__ = (
        "ace",
        "copies",
        "deck",
        "doubling",
        "fixed_rounds",
        "forced",
        "lives",
        "per",
        "reverse",
        "revival",
        "rotate",
        "suited",
        "threshold",
        "tie_bonus",
        "value",
    )

    def __init__(self, rules: Rules) -> None:
        deck = DECKS[rules.deck]
        top = max(c.rank for c in deck)
        self.deck: tuple[Card, ...] = deck
        self.per: int = rules.hand_size
        self.forced: bool = rules.follow == "forced-lowest"
        self.ace: int = top if rules.ace_lead else -1
        self.copies: bool = len(set(deck)) != len(deck)
        self.suited: bool = deck[0].suit is not None
        if rules.penalty == "cucumbers":
            self.value: tuple[int, ...] = CUCUMBERS_BY_RANK
        else:
            self.value = tuple(range(top + 1))
        self.doubling: str = rules.doubling or "none"
        self.tie_bonus: bool = bool(rules.tie_bonus)
        self.threshold: int = rules.threshold or 0
        self.lives: int = rules.lives or 1
        self.rotate: bool = rules.next_leader == "rotate"
        self.reverse: bool = bool(rules.reverse)
        self.revival: bool = bool(rules.revival)
        self.fixed_rounds: int | None = rules.fixed_rounds


def plan(rules: Rules) -> _Plan:
    """The precomputed plan for `rules`, built on first use and kept on the rules object."""
    found: _Plan | None = rules._plan
    if found is None:
        found = _Plan(rules)
        object.__setattr__(rules, "_plan", found)
    return found


# --------------------------------------------------------------------------- dealing


_ALL_SEATS: Final = tuple(tuple(range(n)) for n in range(_MAX_SEATS + 1))


def dealt_seats(match: Match) -> tuple[int, ...]:
    """The seats that receive cards in the coming round: in play and not sitting out."""
    if not match.sitting_out and not any(match.out):
        return _ALL_SEATS[len(match.out)]
    return tuple(s for s, out in enumerate(match.out) if out == 0 and s not in match.sitting_out)


def deal_error(state: State, deal: Deal) -> IllegalMoveError | None:
    """Why a deal does not fit the coming round, or None."""
    if deal.leader is not None:
        return IllegalMoveError(
            "bad-deal", "bad deal: the ladder game never draws a leader, so leader must be None", action=deal
        )
    p = plan(state.rules)
    return _generic_deal_error(
        deal, players=len(state.players), seats=dealt_seats(state.match), per=p.per, deck=p.deck
    )


def sample_deal(state: State, rng: random.Random) -> Deal:
    """A random deal for the coming round."""
    p = plan(state.rules)
    return shuffled_deal(
        rng, p.deck, players=len(state.players), seats=dealt_seats(state.match), per=p.per, stock=False
    )


def _with_dealer(m: Match, dealer: int) -> Match:
    return Match(
        m.rules,
        m.players,
        m.first,
        m.totals,
        m.marks,
        m.out,
        m.revived,
        m.sitting_out,
        m.pending,
        dealer,
        m.payer,
        m.rounds,
        m.results,
        m.winners,
    )


def start_round(state: State, deal: Deal) -> State:
    """Apply a (checked) deal: choose dealer and leader, and start the round."""
    m = state.match
    n = len(m.players)
    seats = dealt_seats(m)
    if m.rounds == 0:
        dealer, leader = (m.first - 1) % n, m.first
    elif plan(m.rules).rotate:
        dealer = next_seat(m.dealer, seats, n)
        leader = next_seat(dealer, seats, n)
    else:
        leader = m.payer if m.payer in seats else next_seat(m.payer, seats, n)
        dealer = previous_seat(leader, seats, n)
    return new_state(
        leader,
        m if dealer == m.dealer else _with_dealer(m, dealer),
        new_table(seats, after_table(seats, n), leader, (), deal.stock, None, ()),
        deal.hands,
        (),
        0,
        -1,
        None,
        push(state._history, deal),
    )


# --------------------------------------------------------------------------- playing


def legal(state: State) -> tuple[Action, ...]:
    """The legal actions of the seat to act (not at chance, not over)."""
    seat: int = state.to_act  # type: ignore[assignment]
    m = state.match
    if m.pending:
        return (Revive(seat, False), Revive(seat, True))
    hand = state.hands[seat]
    plays = PLAYS[seat]
    trick = state.trick
    p: _Plan = m.rules._plan or plan(m.rules)
    moves: list[Play]
    if not trick:
        moves = [plays[c.index] for c in hand]
    else:
        high = state.high
        low = hand[0].rank
        if trick[0].card.rank == p.ace:
            moves = [plays[c.index] for c in hand if c.rank == low]
        elif low >= high:
            moves = [plays[c.index] for c in hand]
        elif p.forced:
            moves = [plays[c.index] for c in hand if c.rank >= high] or [
                plays[c.index] for c in hand if c.rank == low
            ]
        else:
            moves = [plays[c.index] for c in hand if c.rank >= high or c.rank == low]
    if p.copies:  # identical cards are one shared object, and the hand is sorted
        return tuple([m for i, m in enumerate(moves) if not i or m is not moves[i - 1]])
    return tuple(moves)


def _lowest(cards: tuple[Card, ...]) -> str:
    low = cards[0].rank
    lowest = [str(c) for c in dict.fromkeys(cards) if c.rank == low]
    return " or ".join(lowest)


def play_error(state: State, play: Play) -> IllegalMoveError | None:
    """Why the acting seat may not play this card now, or None (seat already checked)."""
    seat = play.seat
    hand = state.hands[seat]
    c = play.card
    if c not in hand:
        return not_in_hand(seat, c, hand, play)
    trick = state.trick
    if not trick:
        return None
    p = plan(state.rules)
    rank = c.rank
    low = hand[0].rank
    if trick[0].card.rank == p.ace:
        if rank == low:
            return None
        return IllegalMoveError(
            "must-play-lowest",
            f"seat {seat} cannot play {c}: {trick[0].card} was led, so every other player plays "
            f"their lowest card {_lowest(hand)}",
            seat=seat,
            action=play,
        )
    high = state.high
    if rank >= high:
        return None
    if rank == low and not (p.forced and hand[-1].rank >= high):
        return None
    label = rank_label(high, suited=p.suited)
    if p.forced and hand[-1].rank >= high:
        higher = [x for x in hand if x.rank >= high]
        message = f"must play {label} or higher (they hold {card_list(higher)})"
    elif p.forced:
        message = f"they hold nothing of {label} or higher, so must play the lowest card {_lowest(hand)}"
    else:
        message = f"must play {label} or higher, or the lowest card {_lowest(hand)}"
    return IllegalMoveError("must-follow", f"seat {seat} cannot play {c}: {message}", seat=seat, action=play)


def apply_play(state: State, play: Play) -> State:
    """Check and apply a play of the seat to act (the seat is already checked).

    The hot path of every playout: it finds the card once, checks the follow
    rule inline and builds the error (with its explanation) only when the play
    is illegal.
    """
    seat = play.seat
    hands = state.hands
    hand = hands[seat]
    c = play.card
    i = bisect_left(hand, c.index, key=_INDEX)  # hands are sorted by index; cards are shared objects
    if i == len(hand) or hand[i] is not c:
        raise play_error(state, play)  # type: ignore[misc]
    rank = c.rank
    trick = state.trick
    if not trick:
        high, taker = rank, seat
    else:
        rules = state.match.rules
        p: _Plan = rules._plan or plan(rules)
        high = state.high
        if trick[0].card.rank == p.ace:
            if rank != hand[0].rank:
                raise play_error(state, play)  # type: ignore[misc]
            taker = state.taker
        elif rank >= high:
            high, taker = rank, seat
        elif rank == hand[0].rank and not (p.forced and hand[-1].rank >= high):
            taker = state.taker
        else:
            raise play_error(state, play)  # type: ignore[misc]
    shared = PLAYS[seat][c.index]
    new_hands = list(hands)
    new_hands[seat] = hand[:i] + hand[i + 1 :]
    hands = tuple(new_hands)
    trick = (*trick, shared)
    old = state._history
    history = (shared, old, old[2] + 1)  # the history, one node longer (state.push, inline)
    table: Table = state.table  # type: ignore[assignment]
    if len(trick) < len(table.seats):
        # Mid-trick (3 plays in 4): the next state, slot by slot (as new_state does).
        new = _new(State)
        _set_to_act(new, table.after[seat])
        _set_match(new, state.match)
        _set_table(new, table)
        _set_hands(new, hands)
        _set_trick(new, trick)
        _set_high(new, high)
        _set_taker(new, taker)
        _set_marker(new, None)
        _set_history(new, history)
        return new
    tricks = (*table.tricks, new_trick(table.leader, trick, taker))
    table = new_table(table.seats, table.after, taker, tricks, table.stock, None, ())
    if hands[taker]:
        return new_state(taker, state.match, table, hands, (), 0, -1, None, history)
    return _finish_round(state, table, hands, trick, high, taker, history)


# --------------------------------------------------------------------------- scoring


def _finish_round(
    state: State,
    table: Table,
    hands: tuple[tuple[Card, ...], ...],
    last: tuple[Play, ...],
    high: int,
    taker: int,
    history: Node,
) -> State:
    """Score the last trick, then marks, resets, eliminations, revivals, and the end of the match."""
    m = state.match
    p: _Plan = m.rules._plan or plan(m.rules)
    n = len(m.players)
    number = m.rounds + 1
    taken = next(x.card for x in last if x.seat == taker)  # the highest card (the last of equals)
    payer, paying = taker, taken
    if p.reverse:  # the lowest card pays instead (the last of equals)
        for x in last:
            if x.card.rank <= paying.rank:
                payer, paying = x.seat, x.card
    amount = p.value[high]
    if p.doubling != "none":
        ones = sum(1 for x in last if x.card.rank == 1)
        if p.doubling == "per-one":
            amount <<= ones
        elif ones:
            amount *= 2
    totals = list(m.totals)
    points = [0] * n
    totals[payer] += amount
    points[payer] = amount
    if p.tie_bonus:
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
    if p.fixed_rounds is None and totals[payer] >= p.threshold:
        if marks[payer] + 1 >= p.lives:
            out = (*out[:payer], number, *out[payer + 1 :])
            eliminated = (payer,)
            others = [s for s in range(n) if s != payer and out[s] == 0]
            if p.revival and not m.revived[payer] and len(others) >= 2:
                pending = (payer,)
        else:
            marks = (*marks[:payer], marks[payer] + 1, *marks[payer + 1 :])
            drew = (payer,)
            others_scores = [totals[s] for s in table.seats if s != payer and out[s] == 0]
            totals[payer] = max(others_scores, default=0)
    returned = m.sitting_out
    for s in returned:
        totals[s] = max((totals[o] for o in table.seats if out[o] == 0), default=0)
    result = RoundResult(number, tuple(points), tuple(totals), payer, taken, drew, eliminated, returned)
    winners: tuple[int, ...] = ()
    if p.fixed_rounds is not None:
        if number >= p.fixed_rounds:
            best = min(totals)
            winners = tuple(s for s in range(n) if totals[s] == best)
    elif out.count(0) == 1 and not pending:
        winners = (out.index(0),)
    match = Match(
        m.rules,
        m.players,
        m.first,
        tuple(totals),
        marks,
        out,
        m.revived,
        (),
        pending,
        m.dealer,
        payer,
        number,
        m.results.append(result),
        winners,
    )
    to_act = None if winners else (pending[0] if pending else CHANCE)
    return new_state(to_act, match, table, hands, (), 0, -1, None, history)


# --------------------------------------------------------------------------- revival


def decision_error(state: State, action: Revive) -> IllegalMoveError | None:
    """Every well-typed revival decision of the seat to decide is legal."""
    return None


def decide(state: State, action: Revive) -> State:
    """Apply a revival decision: buy back in (sit out the next round) or stay out.

    A decision is offered to the round's one eliminated payer, and only while two
    other players are still in, so it never ends the match: a deal is due next.
    """
    m = state.match
    seat = action.seat
    if action.accept:
        out = tuple(0 if s == seat else o for s, o in enumerate(m.out))
        revived = tuple(v or s == seat for s, v in enumerate(m.revived))
        match = attrs.evolve(m, out=out, revived=revived, sitting_out=(*m.sitting_out, seat), pending=())
    else:
        match = attrs.evolve(m, pending=())
    return attrs.evolve(state, to_act=CHANCE, match=match, history=push(state._history, action))


def score(state: State) -> Score:
    """The ladder score: totals, round rows, marks, eliminations, winners and standings."""
    m = state.match
    results, rows = result_rows(m)
    winners = set(m.winners)

    def key(seat: int) -> tuple[int, int, int, int]:
        out = m.out[seat]
        return (0 if seat in winners else 1, 1 if out else 0, -out, m.totals[seat])

    return Score(
        totals=m.totals,
        rounds=rows,
        marks=m.marks,
        eliminated=m.eliminated,
        winners=m.winners,
        standings=tuple(sorted(range(len(state.players)), key=key)),
        results=results,
    )
