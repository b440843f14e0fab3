"""The Cucumber Catastrophe engine, with Surprise Cucumber and If You Can't Beat 'Em.

A match is `hands` hands of 60 numbered cards (1..60). In each trick the lead
card may not be a 5-cucumber card unless the leader holds only those. The
second card sets the Trick Marker: higher than the lead sets the High rule
(the highest card wins; later cards must be higher than the lead), lower sets
the Low rule (the lowest card wins; later cards must be lower). A player who
cannot obey plays any card and breaks the rule: the marker flips (after a
broken High the lowest card wins, after a broken Low the highest) and every
later player in the trick plays freely. The taker captures every card of the
trick and leads the next one. A hand scores the cucumbers on each seat's
captured cards (the `cucumbers` table); after the last hand the fewest
cucumbers win, ties go to the lowest single-hand score, then the win is shared.

The marker is public: `State.marker` (and `Round.marker`) is None before the
second card, then `"high"`, `"low"`, `"high-broken"` or `"low-broken"`;
`Trick.marker` keeps the final one.

Choices this module makes where the rulebook is silent (SPEC rulings 7 and 8):

- **The 5-cucumber cards** are the cards whose count in the rules' `cucumbers`
  table is 5. With the default table (ruling 7) they are exactly the cards the
  rulebook names, Nos. 5, 15, 25, 35, 45 and 55; a custom table moves the lead
  restriction and If You Can't Beat 'Em with it.
- **Starting a hand**: seat `first` starts the first hand; a later hand is
  started by the seat with the highest cumulative total. On a tie the deal's
  `Deal.leader` names the starter and must be one of the tied seats; without a
  tie it must be None or that seat. `Match.payer` holds the next starter when it
  is certain, -1 when a tie leaves it to the deal. The seat before the starter
  is shown as the dealer (`Match.dealer`).
- **Surprise Cucumber** (`surprise`): every trick's lead card is revealed from
  the stock (`Deal.stock`, top first, at least one card per trick). The trick's
  first player (the last taker; seat `first` or the hand's starter for the
  first trick) plays the second card from hand, which sets the rule, so nobody
  leads from hand and the 5-cucumber lead restriction never applies. The
  revealed card is `Table.revealed` (and `Trick.revealed`), its number is
  `State.high`, and the taker captures it with the rest. Six players get 8 cards
  (8 tricks), see `Rules.cards_per_player`.
- **If You Can't Beat 'Em** (`cant_beat_em`): the hands hold every 5-cucumber
  card plus other cards at random; with Surprise the stock holds one more
  other card per trick for the reveals. A deal that leaves a 5-cucumber card
  out of the hands is rejected. A seat that captures four or more 5-cucumber
  cards in a hand scores -5 for it instead of its cucumbers.

The options are read once into a `_Plan` cached on the rules, and plays reuse
the shared `Play` objects of `ladder.PLAYS`, so
`legal`, `play_error` and `play` do a few comparisons on interned cards.
"""

from __future__ import annotations

import random
from typing import Final

from .actions import Action, Deal, Play, Revive, trusted_deal
from .cards import DECKS, Card, card_list, not_in_hand
from .dealing import after_table, shuffled_deal
from .dealing import deal_error as _generic_deal_error
from .errors import IllegalMoveError
from .ladder import PLAYS
from .rules import Rules
from .scoring import Score
from .state import (
    CHANCE,
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

__all__ = [
    "HIGH",
    "HIGH_BROKEN",
    "LOW",
    "LOW_BROKEN",
    "MARKERS",
    "apply_play",
    "deal_error",
    "decide",
    "decision_error",
    "legal",
    "plan",
    "play_error",
    "sample_deal",
    "score",
    "start_round",
    "starters",
]

HIGH: Final = "high"
"""The High rule: the highest card wins; later cards must be higher than the lead."""
LOW: Final = "low"
"""The Low rule: the lowest card wins; later cards must be lower than the lead."""
HIGH_BROKEN: Final = "high-broken"
"""A broken High rule: the lowest card wins and later players play freely."""
LOW_BROKEN: Final = "low-broken"
"""A broken Low rule: the highest card wins and later players play freely."""
#: Every value of the Trick Marker once set (None before the second card).
MARKERS: Final = (HIGH, LOW, HIGH_BROKEN, LOW_BROKEN)

#: Captured 5-cucumber cards that earn If You Can't Beat 'Em's -5.
_BONUS_FIVES: Final = 4
_BONUS: Final = -5


class _Plan:
    """The rules read once into plain values for the hot path."""

    __slots__ = ("cant", "cucumbers", "deck", "five", "fives", "hands", "others", "surprise")

    def __init__(self, rules: Rules) -> None:
        table: tuple[int, ...] = rules.cucumbers or ()
        deck = DECKS[rules.deck]
        self.deck: tuple[Card, ...] = deck
        #: Cucumbers by card number (index 0 unused).
        self.cucumbers: tuple[int, ...] = (0, *table)
        #: True at the number of each 5-cucumber card.
        self.five: tuple[bool, ...] = tuple(count == 5 for count in self.cucumbers)
        self.fives: tuple[Card, ...] = tuple(c for c in deck if self.five[c.rank])
        self.others: tuple[Card, ...] = tuple(c for c in deck if not self.five[c.rank])
        self.surprise: bool = bool(rules.surprise)
        self.cant: bool = bool(rules.cant_beat_em)
        self.hands: int = rules.hands or 1


def plan(rules: Rules) -> _Plan:
    """The precomputed plan for `rules`, built on first use and kept on the rules object.

    Example:
        >>> import cucumber_rules as cr
        >>> [str(c) for c in plan(cr.ruleset("catastrophe")).fives]
        ['5', '15', '25', '35', '45', '55']
    """
    found: _Plan | None = rules._plan
    if found is None:
        found = _Plan(rules)
        object.__setattr__(rules, "_plan", found)
    return found


# --------------------------------------------------------------------------- dealing


def starters(state: State) -> tuple[int, ...]:
    """The seats that may start the coming hand: `first`, else the highest cumulative total(s).

    Example:
        >>> import cucumber_rules as cr
        >>> starters(cr.new_game(cr.ruleset("catastrophe"), players=3, first=2))
        (2,)
    """
    m = state.match
    if m.rounds == 0:
        return (state.first,)
    top = max(m.totals)
    return tuple(s for s, total in enumerate(m.totals) if total == top)


def _seats(tied: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in tied)


def deal_error(state: State, deal: Deal) -> IllegalMoveError | None:
    """Why a deal does not fit the coming hand, or None.

    Checks the hand sizes, the cards, the stock (Surprise Cucumber: a reveal for
    every trick), the 5-cucumber cards (If You Can't Beat 'Em: all in the hands)
    and the starter (`Deal.leader`).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> deal_error(s, cr.Deal(hands=[["1"], ["2"], ["3"]])).message
        'bad deal: seat 0 must receive 10 cards, not 1'
    """
    p = plan(state.rules)
    n = len(state.players)
    per = state.rules.cards_per_player(n)
    error = _generic_deal_error(
        deal,
        players=n,
        seats=range(n),
        per=per,
        deck=p.deck,
        stock_needed=per if p.surprise else 0,
    )
    if error is not None:
        return error
    if p.cant:
        dealt = {c for hand in deal.hands for c in hand}
        missing = [c for c in p.fives if c not in dealt]
        if missing:
            return IllegalMoveError(
                "bad-deal",
                f"bad deal: If You Can't Beat 'Em deals all {len(p.fives)} 5-cucumber cards "
                f"({card_list(p.fives)}) into the hands; {card_list(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not in any hand",
                action=deal,
            )
    tied = starters(state)
    leader = deal.leader
    if len(tied) > 1:
        if leader not in tied:
            return IllegalMoveError(
                "bad-deal",
                f"bad deal: seats {_seats(tied)} tie for the highest total, so the deal's leader "
                f"must be one of them (drawn at random), not {leader}",
                action=deal,
            )
    elif leader is not None and leader != tied[0]:
        why = "seat `first` starts the first hand" if state.match.rounds == 0 else "it has the highest total"
        return IllegalMoveError(
            "bad-deal",
            f"bad deal: seat {tied[0]} starts this hand ({why}), so leader must be None or {tied[0]}, "
            f"not {leader}",
            action=deal,
        )
    return None


def sample_deal(state: State, rng: random.Random) -> Deal:
    """A random deal for the coming hand, drawing the starter among tied seats.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True), players=6)
        >>> d = sample_deal(s, random.Random(3))
        >>> [len(h) for h in d.hands], len(d.stock), d.leader
        ([8, 8, 8, 8, 8, 8], 12, None)
    """
    p = plan(state.rules)
    n = len(state.players)
    per = state.rules.cards_per_player(n)
    tied = starters(state)
    leader = rng.choice(tied) if len(tied) > 1 else None
    if not p.cant:
        return shuffled_deal(rng, p.deck, players=n, seats=range(n), per=per, stock=p.surprise, leader=leader)
    others = list(p.others)
    rng.shuffle(others)
    filler = per * n - len(p.fives)
    dealt = [*p.fives, *others[:filler]]
    stock = others[filler : filler + per] if p.surprise else []
    hands = shuffled_deal(rng, dealt, players=n, seats=range(n), per=per, stock=False).hands
    return trusted_deal(hands, tuple(stock), leader)


def start_round(state: State, deal: Deal) -> State:
    """Apply a (checked) deal: choose the starter and start the hand.

    Example:
        >>> import cucumber_rules as cr, random
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3, first=1)
        >>> s = start_round(s, sample_deal(s, random.Random(1)))
        >>> s.to_act, s.match.dealer, s.marker
        (1, 0, None)
    """
    m = state.match
    n = len(state.players)
    leader = deal.leader if deal.leader is not None else starters(state)[0]
    stock = deal.stock
    revealed: Card | None = None
    high = 0
    if plan(state.rules).surprise:
        revealed, stock = stock[0], stock[1:]
        high = revealed.rank
    seats = tuple(range(n))
    table = new_table(seats, after_table(seats, n), leader, (), stock, revealed, ((),) * n)
    match = Match(
        m.rules,
        m.players,
        m.first,
        m.totals,
        m.marks,
        m.out,
        m.revived,
        m.sitting_out,
        m.pending,
        (leader - 1) % n,
        m.payer,
        m.rounds,
        m.results,
        m.winners,
    )
    return new_state(leader, match, table, deal.hands, (), high, -1, None, push(state._history, deal))


# --------------------------------------------------------------------------- playing


def legal(state: State) -> tuple[Action, ...]:
    """The legal plays of the seat to act, sorted by card.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> [str(m.card) for m in legal(s)]
        ['7']
    """
    seat: int = state.to_act  # type: ignore[assignment]
    hand = state.hands[seat]
    plays = PLAYS[seat]
    marker = state.marker
    cards: tuple[Card, ...] | list[Card] = hand
    if not state.trick:
        p: _Plan = state.rules._plan or plan(state.rules)
        if not p.surprise:
            five = p.five
            cards = [c for c in hand if not five[c.rank]] or hand
    elif marker == HIGH:
        lead = state.high
        if hand[-1].rank > lead:
            cards = [c for c in hand if c.rank > lead]
    elif marker == LOW:
        lead = state.high
        if hand[0].rank < lead:
            cards = [c for c in hand if c.rank < lead]
    return tuple([plays[c.index] for c in cards])


def play_error(state: State, play: Play) -> IllegalMoveError | None:
    """Why the acting seat may not play this card now, or None (the seat is already checked).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> play_error(s, cr.Play(0, "5")).code
        'cannot-lead-five'
    """
    seat = play.seat
    hand = state.hands[seat]
    c = play.card
    if c not in hand:
        return not_in_hand(seat, c, hand, play)
    rank = c.rank
    if not state.trick:
        p: _Plan = state.rules._plan or plan(state.rules)
        five = p.five
        if p.surprise or not five[rank]:
            return None
        others = [x for x in hand if not five[x.rank]]
        if not others:
            return None
        return IllegalMoveError(
            "cannot-lead-five",
            f"seat {seat} cannot lead {c}: a 5-cucumber card may not lead a trick while the hand holds "
            f"other cards (lead one of {card_list(others)})",
            seat=seat,
            action=play,
        )
    marker = state.marker
    lead = state.high
    if marker == HIGH and rank < lead and hand[-1].rank > lead:
        obeying = [x for x in hand if x.rank > lead]
        rule, word = "High", "higher"
    elif marker == LOW and rank > lead and hand[0].rank < lead:
        obeying = [x for x in hand if x.rank < lead]
        rule, word = "Low", "lower"
    else:
        return None
    return IllegalMoveError(
        "must-follow-marker",
        f"seat {seat} cannot play {c}: the {rule} rule is in force, play a card {word} than {lead} "
        f"(you hold {card_list(obeying)})",
        seat=seat,
        action=play,
    )


def apply_play(state: State, play: Play) -> State:
    """Check and apply a play of the seat to act (the seat is already checked)."""
    error = play_error(state, play)
    if error is not None:
        raise error
    return _play(state, play)


def _play(state: State, play: Play) -> State:
    """Apply a checked play: set or break the marker, track the taker, end the trick or the hand.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> s = _play(_play(s, cr.Play(0, "7")), cr.Play(1, "9"))
        >>> s.marker, s.round.taker
        ('high', 1)
    """
    table: Table = state.table  # type: ignore[assignment]
    seat = play.seat
    hands = state.hands
    hand = hands[seat]
    i = hand.index(play.card)
    c = hand[i]
    shared: Play = PLAYS[seat][c.index]
    hands = (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])
    trick = state.trick
    rank = c.rank
    lead = state.high
    marker = state.marker
    taker = state.taker
    if not trick:
        taker = seat
        if table.revealed is None:
            lead = rank
        else:
            marker = HIGH if rank > lead else LOW
    elif marker is None:
        # The second card sets the rule, and is the best card so far either way.
        marker = HIGH if rank > lead else LOW
        taker = seat
    elif marker == HIGH:
        if rank < lead:
            # The breaker's card is below the lead, every other card above it: it is the lowest.
            marker, taker = HIGH_BROKEN, seat
        elif rank > _rank_of(trick, taker):
            taker = seat
    elif marker == LOW:
        if rank > lead:
            marker, taker = LOW_BROKEN, seat
        elif rank < _rank_of(trick, taker):
            taker = seat
    elif marker == HIGH_BROKEN:
        if rank < _rank_of(trick, taker):
            taker = seat
    elif rank > _rank_of(trick, taker):
        taker = seat
    trick = (*trick, shared)
    history = push(state._history, shared)
    n = len(hands)
    if len(trick) < n:
        return new_state(table.after[seat], state.match, table, hands, trick, lead, taker, marker, history)
    revealed = table.revealed
    won = tuple(x.card for x in trick)
    if revealed is not None:
        won = (revealed, *won)
    captured = table.captured
    captured = (*captured[:taker], captured[taker] + won, *captured[taker + 1 :])
    tricks = (*table.tricks, new_trick(table.leader, trick, taker, marker, revealed))
    stock = table.stock
    if hands[taker]:
        high = 0
        if revealed is not None:
            revealed, stock = stock[0], stock[1:]
            high = revealed.rank
        table = new_table(table.seats, table.after, taker, tricks, stock, revealed, captured)
        return new_state(taker, state.match, table, hands, (), high, -1, None, history)
    done = new_table(table.seats, table.after, taker, tricks, stock, None, captured)
    return _finish_hand(state, done, hands, history)


def _rank_of(trick: tuple[Play, ...], seat: int) -> int:
    for x in trick:
        if x.seat == seat:
            return x.card.rank
    raise AssertionError("the taker has no card in the trick")


# --------------------------------------------------------------------------- scoring


def _best_hand(results: tuple[RoundResult, ...], seat: int) -> int:
    return min((r.points[seat] for r in results), default=0)


def _finish_hand(state: State, table: Table, hands: tuple[tuple[Card, ...], ...], history: Node) -> State:
    """Score the hand's captured cards; start the next hand or end the match."""
    p = plan(state.rules)
    m = state.match
    n = len(state.players)
    number = m.rounds + 1
    cucumbers = p.cucumbers
    five = p.five
    points = []
    for won in table.captured:
        if p.cant and sum(1 for c in won if five[c.rank]) >= _BONUS_FIVES:
            points.append(_BONUS)
        else:
            points.append(sum(cucumbers[c.rank] for c in won))
    totals = tuple(t + x for t, x in zip(m.totals, points, strict=True))
    result = RoundResult(number=number, points=tuple(points), totals=totals)
    results = m.results.append(result)
    top = max(totals)
    highest = [s for s in range(n) if totals[s] == top]
    winners: tuple[int, ...] = ()
    if number >= p.hands:
        rows = results.items()
        best = min(totals)
        tied = [s for s in range(n) if totals[s] == best]
        low = min(_best_hand(rows, s) for s in tied)
        winners = tuple(s for s in tied if _best_hand(rows, s) == low)
    match = Match(
        rules=m.rules,
        players=m.players,
        first=m.first,
        totals=totals,
        marks=m.marks,
        out=m.out,
        revived=m.revived,
        dealer=m.dealer,
        payer=highest[0] if len(highest) == 1 else -1,
        rounds=number,
        results=results,
        winners=winners,
    )
    to_act = None if winners else CHANCE
    return new_state(to_act, match, table, hands, (), 0, -1, None, history)


def score(state: State) -> Score:
    """The Catastrophe score: totals, one row per hand, winners, and the ranking.

    Standings order the seats by the final ranking: fewest cucumbers, then the
    lowest single-hand score, then seat.

    Example:
        >>> import cucumber_rules as cr
        >>> score(cr.new_game(cr.ruleset("catastrophe"), players=3)).standings
        (0, 1, 2)
    """
    m = state.match
    results, rows = result_rows(m)
    n = len(state.players)

    def key(seat: int) -> tuple[int, int, int]:
        return (m.totals[seat], _best_hand(results, seat), seat)

    return Score(
        totals=m.totals,
        rounds=rows,
        marks=m.marks,
        eliminated=(False,) * n,
        winners=m.winners,
        standings=tuple(sorted(range(n), key=key)),
        results=results,
    )


# --------------------------------------------------------------------------- decisions


def decision_error(state: State, action: Revive) -> IllegalMoveError | None:
    """Catastrophe has no decisions: every `Revive` is refused with `no-decision`.

    Example:
        >>> import cucumber_rules as cr
        >>> decision_error(cr.new_game(cr.ruleset("catastrophe"), players=3), cr.Revive(0, True)).code
        'no-decision'
    """
    return IllegalMoveError(
        "no-decision",
        f"seat {action.seat} has no decision to take: Cucumber Catastrophe has no decisions",
        seat=action.seat,
        action=action,
    )


def decide(state: State, action: Revive) -> State:
    """Never called: `decision_error` refuses every decision.

    Example:
        >>> import cucumber_rules as cr
        >>> decide(cr.new_game(cr.ruleset("catastrophe"), players=3), cr.Revive(0, True))
        Traceback (most recent call last):
        ...
        AssertionError: Cucumber Catastrophe has no decisions
    """
    raise AssertionError("Cucumber Catastrophe has no decisions")
