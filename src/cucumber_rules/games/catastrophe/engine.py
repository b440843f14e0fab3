"""The Cucumber Catastrophe engine, with Surprise Cucumber and If You Can't Beat 'Em.

A match is `hand_count` hands of 60 numbered cards (1..60). In each trick the lead
card may not be a 5-cucumber card unless the leader holds only those. The
second card sets the Trick Marker (`Marker`): higher than the lead sets High
(the highest card wins; later cards must be higher than the lead), lower sets
Low (the lowest card wins; later cards must be lower). A player who cannot obey
plays any card and breaks the rule: the marker flips and every later player in
the trick plays freely. The taker captures every card of the trick and leads the
next one. A hand scores the cucumbers on each seat's captured cards; after the
last hand the fewest cucumbers win, ties go to the lowest single-hand score,
then the win is shared.

The marker is `State.extra` (read it as `state.marker`): None before the
second card of a trick. The rules of play are written once, in `allowed`.

Choices this module makes where the rulebook is silent (SPEC rulings 7 and 8):

- **The 5-cucumber cards** are the cards whose count in the rules' `cucumbers`
  table is 5 (by default Nos. 5, 15, ..., 55); a custom table moves the lead
  restriction and If You Can't Beat 'Em with it.
- **Starting a hand**: seat `first` starts the first hand; a later hand is
  started by the seat with the highest cumulative total. On a tie the deal's
  `Deal.leader` names the starter and must be one of the tied seats; without a
  tie it must be None or that seat. The seat before the starter is shown as the
  dealer.
- **Surprise Cucumber**: every trick's lead card is revealed from the stock
  (`Deal.stock`, top first). The trick's first player plays the second card
  from hand, which sets the rule, so nobody leads from hand and the 5-cucumber
  lead restriction never applies. The taker captures the revealed card too. Six
  players get 8 cards (see `CatastropheRules.cards_per_player`).
- **If You Can't Beat 'Em**: the hands hold every 5-cucumber card plus others
  at random; with Surprise the stock holds other cards only. A seat that
  captures four or more 5-cucumber cards in a hand scores -5 for it.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, Final

from ...actions import Action, Deal, Play, trusted_deal
from ...cards import Card, card_list
from ...dealing import after_table, shuffled_deal
from ...dealing import deal_error as generic_deal_error
from ...errors import IllegalMoveError
from ...scoring import Score
from ...state import State, dealt_held, without_trick
from ...tricks import not_held, state_builder, trick_taken
from ...values import builder
from ..base import Game, group
from .rules import ALIASES, PRESETS, CatastropheRules, Marker
from .scoring import catastrophe_score, finish_hand, starters
from .types import (
    CatastropheMatch,
    CatastropheState,
    CatastropheTable,
    CatastropheTrick,
    CatastropheView,
    Revealed,
)
from .views import CatastropheViews

if TYPE_CHECKING:
    from ...rules import Rules

__all__ = ["CatastropheGame", "allowed", "lead_rank"]

_new_table: Final = builder(CatastropheTable)
_new_trick: Final = builder(CatastropheTrick)
#: `_new_match(rules, players, first, totals, dealer, rounds, results, winners, starter)`.
_new_match: Final = builder(CatastropheMatch)
_new_state: Final = state_builder(CatastropheState)
#: A play's card number: hands (`State.held`) are sorted by it, so the rules of play cut them by bisection.
_RANK: Final = attrgetter("card.rank")
HIGH, LOW, HIGH_BROKEN, LOW_BROKEN = Marker.HIGH, Marker.LOW, Marker.HIGH_BROKEN, Marker.LOW_BROKEN


class CatastropheGame(Game[CatastropheState]):
    """The Cucumber Catastrophe trick mechanism (see the module docstring).

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["catastrophe"]
        >>> isinstance(game, CatastropheGame), game.unit, sorted(game.error_codes), game.decisions
        (True, 'hand', ['cannot-lead-five', 'must-follow-marker'], ())
    """

    __slots__ = ()

    name: ClassVar[str] = "catastrophe"
    title: ClassVar[str] = "Cucumber Catastrophe"
    rules_type = CatastropheRules
    presets = PRESETS
    aliases = ALIASES
    preset_titles: ClassVar = {"catastrophe": "Cucumber Catastrophe"}
    error_codes: ClassVar = {
        "cannot-lead-five": "Catastrophe: a 5-cucumber card may not lead a trick while the hand holds "
        "another card.",
        "must-follow-marker": "Catastrophe: the High or Low rule set by the second card must be obeyed "
        "by a player who can.",
    }
    events: ClassVar = (Revealed,)
    state_type = CatastropheState
    match_type = CatastropheMatch
    table_type = CatastropheTable
    trick_type = CatastropheTrick
    view_type = CatastropheView
    extra_type = Marker | None
    unit: ClassVar[str] = "hand"
    shows_dealer: ClassVar[bool] = False

    views = CatastropheViews()
    words = group("cucumber_rules.games.catastrophe.words:CatastropheWords")
    pictures = group("cucumber_rules.games.catastrophe.words:CatastrophePictures")
    bots = group("cucumber_rules.games.catastrophe.bots:CatastropheBots")
    stats = group("cucumber_rules.games.catastrophe.bots:CatastropheStats")
    sampling = group("cucumber_rules.games.catastrophe.sampling:CatastropheSampling")
    encoding = group("cucumber_rules.games.catastrophe.encoding:CatastropheEncoding")
    testing = group("cucumber_rules.games.catastrophe.testing:CatastropheTesting")
    format1 = group("cucumber_rules.games.catastrophe.views:CatastropheFormat1")

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> CatastropheMatch:
        """A new Catastrophe match: seat `first` starts the first hand."""
        n = len(players)
        return CatastropheMatch(
            rules=rules, players=players, first=first, totals=(0,) * n, dealer=(first - 1) % n, starter=first
        )

    def deal_error(self, state: CatastropheState, deal: Deal) -> IllegalMoveError | None:
        """Why a deal does not fit the coming hand, or None.

        Checks the hand sizes, the cards, the stock (Surprise Cucumber: a reveal for
        every trick), the 5-cucumber cards (If You Can't Beat 'Em: all in the hands)
        and the starter (`Deal.leader`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
            >>> cr.GAMES["catastrophe"].deal_error(s, cr.Deal(hands=[["1"], ["2"], ["3"]])).message
            'bad deal: seat 0 must receive 10 cards, not 1'
        """
        rules: CatastropheRules = state.match.rules
        p = rules._plan
        n = len(state.match.players)
        per = rules.cards_per_player(n)
        error = generic_deal_error(
            deal, players=n, seats=range(n), per=per, deck=p.deck, stock_needed=per if rules.surprise else 0
        )
        if error is not None:
            return error
        if rules.cant_beat_em:
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
                seats = ", ".join(str(s) for s in tied)
                return IllegalMoveError(
                    "bad-deal",
                    f"bad deal: seats {seats} tie for the highest total, so the deal's leader "
                    f"must be one of them (drawn at random), not {leader}",
                    action=deal,
                )
        elif leader is not None and leader != tied[0]:
            why = (
                "seat `first` starts the first hand"
                if state.match.rounds == 0
                else "it has the highest total"
            )
            return IllegalMoveError(
                "bad-deal",
                f"bad deal: seat {tied[0]} starts this hand ({why}), so leader must be None or {tied[0]}, "
                f"not {leader}",
                action=deal,
            )
        return None

    def sample_deal(self, state: CatastropheState, rng: random.Random) -> Deal:
        """A random deal for the coming hand, drawing the starter among tied seats.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True), players=6)
            >>> d = cr.GAMES["catastrophe"].sample_deal(s, random.Random(3))
            >>> [len(h) for h in d.hands], len(d.stock), d.leader
            ([8, 8, 8, 8, 8, 8], 12, None)
        """
        rules: CatastropheRules = state.match.rules
        p = rules._plan
        n = len(state.match.players)
        per = rules.cards_per_player(n)
        tied = starters(state)
        leader = rng.choice(tied) if len(tied) > 1 else None
        if not rules.cant_beat_em:
            return shuffled_deal(
                rng, p.deck, players=n, seats=range(n), per=per, stock=rules.surprise, leader=leader
            )
        others = list(p.others)
        rng.shuffle(others)
        filler = per * n - len(p.fives)
        dealt = [*p.fives, *others[:filler]]
        stock = others[filler : filler + per] if rules.surprise else []
        inner = shuffled_deal(rng, dealt, players=n, seats=range(n), per=per, stock=False)
        return trusted_deal(inner.hands, tuple(stock), leader, dealt_held(inner))

    def start_round(self, state: CatastropheState, deal: Deal) -> CatastropheState:
        """Apply a (checked) deal: choose the starter and start the hand.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3, first=1)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
            >>> s.to_act, s.match.dealer, s.marker
            (1, 0, None)
        """
        m = state.match
        rules: CatastropheRules = m.rules
        n = len(m.players)
        leader = deal.leader if deal.leader is not None else starters(state)[0]
        stock = deal.stock
        revealed: Card | None = None
        if rules.surprise:
            revealed, stock = stock[0], stock[1:]
        seats = tuple(range(n))
        table = _new_table(seats, after_table(seats, n), leader, (), stock, revealed, ((),) * n)
        dealer = (leader - 1) % n
        if dealer != m.dealer:
            m = _new_match(
                m.rules, m.players, m.first, m.totals, dealer, m.rounds, m.results, m.winners, m.starter
            )
        held = dealt_held(deal)
        moves = _allowed(rules._plan.five, revealed, (), None, held[leader])
        return _new_state(leader, m, table, held, (), None, None, state.past.append(deal), moves)

    def legal(self, state: CatastropheState) -> tuple[Action, ...]:
        """The legal plays of the seat to act, sorted by card.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
            >>> [str(m.card) for m in cr.GAMES["catastrophe"].legal(s)]
            ['7']
        """
        seat = state.to_act
        if TYPE_CHECKING:  # (never at chance or once over: the engine calls it for a seat to act)
            assert seat is not None
        return allowed(state, state.held[seat])

    def play_error(self, state: CatastropheState, play: Play) -> IllegalMoveError | None:
        """Why the acting seat may not play this card now, or None (the seat is already checked).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
            >>> cr.GAMES["catastrophe"].play_error(s, cr.Play(0, "5")).code
            'cannot-lead-five'
        """
        seat = play.seat
        hand = state.held[seat]
        c = play.card
        error = not_held(state, play)
        if error is not None:
            return error
        ok = allowed(state, hand)
        if ok is hand or play in ok:
            return None
        if not state.trick:
            return IllegalMoveError(
                "cannot-lead-five",
                f"seat {seat} cannot lead {c}: a 5-cucumber card may not lead a trick while the hand holds "
                f"other cards (lead one of {card_list([p.card for p in ok])})",
                seat=seat,
                action=play,
            )
        rule, word = ("High", "higher") if state.extra == HIGH else ("Low", "lower")
        return IllegalMoveError(
            "must-follow-marker",
            f"seat {seat} cannot play {c}: the {rule} rule is in force, play a card {word} than "
            f"{lead_rank(state)} (they hold {card_list([p.card for p in ok])})",
            seat=seat,
            action=play,
        )

    def apply_play(self, state: CatastropheState, play: Play) -> CatastropheState:
        """Check and apply a play of the seat to act (the seat is already checked).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
            >>> t = cr.GAMES["catastrophe"].apply_play(s, cr.Play(0, "7"))
            >>> t.lead, t.to_act
            (card('7'), 1)
            >>> cr.GAMES["catastrophe"].apply_play(s, cr.Play(0, "5"))  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cucumber_rules.errors.IllegalMoveError: seat 0 cannot lead 5: a 5-cucumber card may not lead a ...
        """
        error = self.play_error(state, play)
        if error is not None:
            raise error
        return self.play(state, play)

    def play(self, state: CatastropheState, play: Play) -> CatastropheState:
        """Apply a checked play: set or break the marker, track the best card, end the trick or the hand.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
            >>> game = cr.GAMES["catastrophe"]
            >>> s = game.play(game.play(s, cr.Play(0, "7")), cr.Play(1, "9"))
            >>> s.marker, s.taker
            (<Marker.HIGH: 'high'>, 1)
        """
        table = state.table
        if TYPE_CHECKING:  # (a trick is in play)
            assert table is not None
        seat = play.seat
        shared = play  # plays are shared objects: this is the one Play of this seat and card
        trick = state.trick
        rank = play.card.rank
        marker: Marker | None = state.extra
        best = state.best
        if not trick:
            best = shared
            if table.revealed is not None:  # the first card from hand sets the rule against the revealed lead
                marker = HIGH if rank > table.revealed.rank else LOW
        elif marker is None:  # the second card sets the rule, and is the best card so far either way
            marker = HIGH if rank > trick[0].card.rank else LOW
            best = shared
        else:  # past the trick's second card, a best card is set
            assert best is not None
            top = best.card.rank
            if marker == HIGH:
                if rank < lead_rank(state):  # the breaker's card is below the lead, every other card above it
                    marker, best = HIGH_BROKEN, shared
                elif rank > top:
                    best = shared
            elif marker == LOW:
                if rank > lead_rank(state):
                    marker, best = LOW_BROKEN, shared
                elif rank < top:
                    best = shared
            elif (rank < top) if marker == HIGH_BROKEN else (rank > top):
                best = shared
        trick = trick + (shared,)  # noqa: RUF005 (unpacking builds a list: slower)
        held = state.held
        five = state.match.rules._plan.five
        if len(trick) < len(held):
            following = table.after[seat]
            moves = _allowed(five, table.revealed, trick, marker, held[following])
            return _new_state(following, state.match, table, held, trick, best, marker, state.past, moves)
        taker = best.seat
        revealed = table.revealed
        won = tuple([x.card for x in trick] if revealed is None else [revealed, *[x.card for x in trick]])
        captured = table.captured
        captured = (*captured[:taker], captured[taker] + won, *captured[taker + 1 :])
        tricks = table.tricks + (_new_trick(table.leader, trick, taker, marker, revealed),)  # noqa: RUF005
        stock = table.stock
        last = len(held[taker]) == 1  # (every seat holds the card it played until the trick ends)
        if not last and revealed is not None:
            revealed, stock = stock[0], stock[1:]
        if last:
            table = _new_table(table.seats, table.after, taker, tricks, stock, None, captured)
            return finish_hand(trick_taken(state, trick, taker, table, without_trick(held, trick), None))
        table = _new_table(table.seats, table.after, taker, tricks, stock, revealed, captured)
        held = without_trick(held, trick)
        moves = _allowed(five, revealed, (), None, held[taker])  # (the taker leads: its moves, listed now)
        return trick_taken(state, trick, taker, table, held, moves)  # (`take_trick`, positionally)

    def score(self, state: CatastropheState) -> Score:
        """Totals, one row per hand, winners, and the ranking: fewest cucumbers, lowest hand, seat.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].score(cr.new_game(cr.ruleset("catastrophe"), players=3)).standings
            (0, 1, 2)
        """
        return catastrophe_score(self.name, state)

    def max_actions(self, rules: Rules, players: int) -> int:
        """The actions of every Catastrophe match, exactly: `hand_count` deals and every card of every hand.

        A hard bound, and reached by every match: each hand is one deal of
        `cards_per_player` cards to every seat (`deal_error` refuses any other), a hand
        ends only when every card is played, the game has no decisions, and the match
        ends after its `hand_count`-th hand (the winners are never empty).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].max_actions(cr.ruleset("catastrophe"), 4)
            164
        """
        assert isinstance(rules, CatastropheRules)
        return rules.hand_count * (1 + players * rules.cards_per_player(players))


# --------------------------------------------------------------------------- the rules of play, written once


def lead_rank(state: State) -> int:
    """The number of the trick's lead card: the revealed card (Surprise Cucumber) or the first played.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> lead_rank(cr.apply(s, cr.Play(0, "7")))
        7
    """
    table = state.table
    if TYPE_CHECKING:  # (a trick is in play)
        assert isinstance(table, CatastropheTable)
    revealed = table.revealed
    return revealed.rank if revealed is not None else state.trick[0].card.rank


def allowed(state: State, hand: tuple[Play, ...]) -> tuple[Play, ...]:
    """The rules of play: the plays of `hand` (the seat to act's, as plays) it may make now.

    Leading from hand, a 5-cucumber card only when the hand holds nothing else;
    under a High rule, a card higher than the lead when the hand has one; under
    a Low rule, a lower one; otherwise any card.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["5", "7"], ["1", "9"], ["2", "3"]]))
        >>> [str(p.card) for p in allowed(s, s.held[0])]
        ['7']
    """
    table = state.table
    if TYPE_CHECKING:  # (a trick is in play)
        assert isinstance(table, CatastropheTable)
    return _allowed(state.match.rules._plan.five, table.revealed, state.trick, state.extra, hand)


def _allowed(
    five: tuple[bool, ...],
    revealed: Card | None,
    trick: tuple[Play, ...],
    marker: Marker | None,
    hand: tuple[Play, ...],
) -> tuple[Play, ...]:
    """`allowed`, from the parts of the state it reads (the rules of play, written once).

    `five[rank]` says whether a rank is a 5-cucumber card (the rules' plan), `revealed` is the
    lead card turned up from the stock (Surprise Cucumber), `marker` the Trick Marker. `play_card`
    calls it for the state it builds, so `legal_moves` finds the moves kept.
    """
    if not trick:
        if revealed is None:
            return tuple([p for p in hand if not five[p.card.rank]]) or hand
        return hand
    if marker == HIGH:
        lead = trick[0].card.rank if revealed is None else revealed.rank
        if hand[-1].card.rank > lead:  # the cards above the lead: the end of the sorted hand
            return hand[bisect_right(hand, lead, key=_RANK) :]
    elif marker == LOW:
        lead = trick[0].card.rank if revealed is None else revealed.rank
        if hand[0].card.rank < lead:
            return hand[: bisect_left(hand, lead, key=_RANK)]
    return hand
