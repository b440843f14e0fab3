"""The ladder engine: the `LadderGame` itself (dealing, the follow rule, tricks, revivals).

The leader plays any card; each later player plays a card at least as high as
the highest card in the trick, or their lowest card (`follow`); a led Ace may
force everyone's lowest card (`ace_lead`). The highest card takes the trick
(the later of equal cards); its player leads the next. Only the last trick of a
round scores (`scoring`): its taker pays (`penalty`, `doubling`, `tie_bonus`,
`reverse`), and crossing `threshold` costs a life (`lives`, `revival`), unless the
match is a fixed number of rounds (`fixed_rounds`).

The follow rule is written once, in `_moves`: `legal` lists its moves for a
state, `play` works them out for the state it builds (so `legal_moves` finds
them kept), and `play_error` and `apply_play` accept exactly those moves.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Final

import attrs

from ...actions import Action, Deal, Decision, Play
from ...cards import Card, card_list, rank_label
from ...dealing import after_table, next_seat, previous_seat, shuffled_deal
from ...dealing import deal_error as generic_deal_error
from ...errors import IllegalMoveError
from ...scoring import Score
from ...state import CHANCE, Table, Trick, dealt_held, without_trick
from ...tricks import not_held, state_builder, trick_taken
from ...values import builder
from ..base import Game, group
from .rules import ALIASES, PRESETS, LadderRules, round_limit
from .scoring import finish_round, ladder_score
from .types import (
    LadderMatch,
    LadderResult,
    LadderScore,
    LadderState,
    LadderView,
    Revive,
    dealt_seats,
)
from .views import LadderViews

if TYPE_CHECKING:
    from ...rules import Rules
    from .rules import LadderPlan

__all__ = ["LadderGame", "dealt_seats"]

_new_trick: Final = builder(Trick)
_new_table: Final = builder(Table)
#: `_new_match(rules, players, first, totals, dealer, rounds, results, winners, marks, out, revived,
#: sitting_out, pending, payer)`: a `LadderMatch` from its fields, in order.
_new_match: Final = builder(LadderMatch)
_new_state: Final = state_builder(LadderState)

# --------------------------------------------------------------------------- the game


#: The revival decisions of each seat, as `legal` lists them.
_DECISIONS: Final = tuple((Revive(seat, False), Revive(seat, True)) for seat in range(7))


class LadderGame(Game[LadderState]):
    """The ladder trick mechanism: Agurk, Gurka, Five Cucumbers and Fünf Gurken (see the module docstring).

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["ladder"]
        >>> isinstance(game, LadderGame), game.unit, sorted(game.error_codes), game.decisions == (cr.Revive,)
        (True, 'round', ['must-follow', 'must-play-lowest'], True)
    """

    __slots__ = ()

    name: ClassVar[str] = "ladder"
    title: ClassVar[str] = "Ladder games (Agurk, Gurka, Five Cucumbers)"
    rules_type = LadderRules
    presets = PRESETS
    aliases = ALIASES
    preset_titles: ClassVar = {
        "agurk": "Agurk",
        "gurka": "Gurka",
        "five-cucumbers": "Five Cucumbers",
        "fuenf-gurken": "Fünf Gurken",
    }
    error_codes: ClassVar = {
        "must-follow": "Ladder rule: play a card at least as high as the highest card in the trick, "
        "or the lowest card in hand (forced following: the lowest only when no such card is held).",
        "must-play-lowest": "Ace lead: after a led Ace (the deck's top rank) every other player plays "
        "their lowest card.",
    }
    decisions: ClassVar = (Revive,)
    state_type = LadderState
    match_type = LadderMatch
    result_type = LadderResult
    score_type = LadderScore
    view_type = LadderView
    extra_type = type(None)

    views = LadderViews()
    words = group("cucumber_rules.games.ladder.words:LadderWords")
    pictures = group("cucumber_rules.games.ladder.words:LadderPictures")
    bots = group("cucumber_rules.games.ladder.bots:LadderBots")
    stats = group("cucumber_rules.games.ladder.bots:LadderStats")
    sampling = group("cucumber_rules.games.ladder.sampling:LadderSampling")
    encoding = group("cucumber_rules.games.ladder.encoding:LadderEncoding")
    testing = group("cucumber_rules.games.ladder.testing:LadderTesting")
    format1 = group("cucumber_rules.games.ladder.views:LadderFormat1")

    # ------------------------------------------------------------- dealing

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> LadderMatch:
        """A new ladder match: no marks, nobody out, the seat before `first` dealing."""
        zeros = (0,) * len(players)
        return LadderMatch(
            rules=rules,
            players=players,
            first=first,
            totals=zeros,
            dealer=(first - 1) % len(players),
            marks=zeros,
            out=zeros,
            revived=(False,) * len(players),
        )

    def deal_error(self, state: LadderState, deal: Deal) -> IllegalMoveError | None:
        """Why a deal does not fit the coming round, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> cr.GAMES["ladder"].deal_error(s, cr.Deal(hands=[["9C"], ["2D"]])) is None
            True
            >>> err = cr.GAMES["ladder"].deal_error(s, cr.Deal(hands=[["9C"], ["9C"]]))
            >>> err.code, str(err)
            ('bad-deal', 'bad deal: 9C appears 2 times, but the deck holds it once')
        """
        if deal.leader is not None:
            return IllegalMoveError(
                "bad-deal",
                "bad deal: the ladder game never draws a leader, so leader must be None",
                action=deal,
            )
        match = state.match
        rules = match.rules
        return generic_deal_error(
            deal,
            players=len(match.players),
            seats=dealt_seats(match),
            per=rules.hand_size,
            deck=rules._plan.deck,
        )

    def sample_deal(self, state: LadderState, rng: random.Random) -> Deal:
        """A random deal for the coming round: `hand_size` cards to each seat dealt in, no stock.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("gurka"), players=3)
            >>> d = cr.GAMES["ladder"].sample_deal(s, random.Random(3))
            >>> [len(h) for h in d.hands], d.stock, d.leader
            ([7, 7, 7], (), None)
        """
        match = state.match
        rules = match.rules
        return shuffled_deal(
            rng,
            rules._plan.deck,
            players=len(match.players),
            seats=dealt_seats(match),
            per=rules.hand_size,
            stock=False,
        )

    def start_round(self, state: LadderState, deal: Deal) -> LadderState:
        """Apply a (checked) deal: choose the dealer and the leader, and start the round.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("agurk"), players=3, first=1)
            >>> s = cr.GAMES["ladder"].start_round(s, cr.sample_chance(s, random.Random(1)))
            >>> s.to_act, s.match.dealer, len(s.history)
            (1, 0, 1)
        """
        m = state.match
        rules = m.rules
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
        table = _new_table(seats, after_table(seats, n), leader, (), deal.stock)
        held = dealt_held(deal)
        moves = _moves(rules._plan, held[leader], (), None)
        return _new_state(leader, m, table, held, (), None, None, state.past.append(deal), moves)

    # ------------------------------------------------------------- the follow rule

    def legal(self, state: LadderState) -> tuple[Action, ...]:
        """The legal actions of the seat to act (not at chance, not over): a revival decision, or `_moves`.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=4), players=2),
            ...              cr.Deal(hands=[["9S", "2C", "4C", "6C"], ["3C", "3H", "8D", "QS"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> [str(m.card) for m in cr.GAMES["ladder"].legal(s)]
            ['QS']
        """
        seat = state.to_act
        if TYPE_CHECKING:  # (never at chance or once over: the engine calls it for a seat to act)
            assert seat is not None
        m = state.match
        if m.pending:
            return _DECISIONS[seat]
        # The seat's plays, sorted by card (it has not played in this trick).
        return _moves(m.rules._plan, state.held[seat], state.trick, state.best)

    def play_error(self, state: LadderState, play: Play) -> IllegalMoveError | None:
        """Why the acting seat may not play this card now, or None (the seat is already checked).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
            >>> err = cr.GAMES["ladder"].play_error(cr.apply(s, cr.Play(0, "9S")), cr.Play(1, "3C"))
            >>> err.code, str(err)
            ('must-follow', 'seat 1 cannot play 3C: must play 9 or higher (they hold QS)')
        """
        seat = play.seat
        if state.match.pending:
            return IllegalMoveError(
                "decision-expected",
                f"seat {seat} cannot play now: they must first decide whether to buy back in "
                "(Revive(seat, True) or Revive(seat, False))",
                seat=seat,
                action=play,
            )
        error = not_held(state, play)
        if error is not None:
            return error
        allowed = self.legal(state)
        if play in allowed:
            return None
        return _follow_error(state, play, allowed)

    def apply_play(self, state: LadderState, play: Play) -> LadderState:
        """Check and apply a play of the seat to act (the seat is already checked): legal if `legal` lists it.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
            >>> s = cr.GAMES["ladder"].apply_play(s, cr.Play(0, "9S"))
            >>> cr.GAMES["ladder"].apply_play(s, cr.Play(1, "3C"))  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cucumber_rules.errors.IllegalMoveError: seat 1 cannot play 3C: must play 9 or higher (they hold...
        """
        if play not in self.legal(state):
            error = self.play_error(state, play)
            assert error is not None
            raise error
        return self.play(state, play)

    def play(self, state: LadderState, play: Play) -> LadderState:
        """Apply a play already known to be legal (one of `legal(state)`): the trick, and its end.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["9S", "2C"], ["3C", "QS"]]))
            >>> game = cr.GAMES["ladder"]
            >>> s = game.play(game.play(s, cr.Play(0, "9S")), cr.Play(1, "QS"))
            >>> s.to_act, [str(c) for c in s.hand(0)], [str(c) for c in s.hand(1)]
            (1, ['2C'], ['3C'])
        """
        trick = state.trick
        best = state.best
        m = state.match
        plan = m.rules._plan
        if best is None or (play.card.rank >= best.card.rank and trick[0].card.rank != plan.ace):
            best = play  # plays are shared objects: this is the one Play of this seat and card
        trick = trick + (play,)  # noqa: RUF005 (`(*trick, play)` builds a list: slower)
        table = state.table
        if TYPE_CHECKING:  # (a trick is in play)
            assert table is not None
        if len(trick) < len(table.seats):
            seat = table.after[play.seat]
            moves = _moves(plan, state.held[seat], trick, best)
            return _new_state(seat, m, table, state.held, trick, best, None, state.past, moves)
        taker = best.seat
        done = _new_trick(table.leader, trick, taker)
        table = _new_table(table.seats, table.after, taker, table.tricks + (done,), table.stock)  # noqa: RUF005
        held = state.held
        if len(held[taker]) > 1:  # (`take_trick`, positionally, with the taker's moves)
            held = without_trick(held, trick)
            return trick_taken(state, trick, taker, table, held, _moves(plan, held[taker], (), None))
        # The round's last trick (each seat dealt in held one card, the one it played): it scores.
        return finish_round(trick_taken(state, trick, taker, table, ((),) * len(held), None), trick, best)

    # ------------------------------------------------------------- revival

    def decision_error(self, state: LadderState, decision: Decision) -> IllegalMoveError | None:
        """Why a revival decision may not be taken now (none due, or another seat's), or None.

        Example:
            >>> import cucumber_rules as cr
            >>> rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
            >>> s = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "2C"), cr.Play(1, "3C"), cr.Play(2, "9S")])  # seat 2 out
            >>> game = cr.GAMES["ladder"]
            >>> game.decision_error(s, cr.Revive(2, True)), game.decision_error(s, cr.Revive(0, True)).code
            (None, 'not-your-turn')
        """
        m = state.match
        to_act = state.to_act
        if not m.pending or to_act is None or to_act < 0:
            why = "now" if m.rules.revival else "(these rules have no revival: revival=False)"
            return IllegalMoveError(
                "no-decision",
                f"seat {decision.seat} has no decision to take {why}",
                seat=decision.seat,
                action=decision,
            )
        if decision.seat != to_act:
            return IllegalMoveError(
                "not-your-turn",
                f"seat {decision.seat} cannot decide now: seat {to_act} must decide whether to buy back in",
                seat=decision.seat,
                action=decision,
            )
        return None

    def decide(self, state: LadderState, decision: Decision) -> LadderState:
        """Apply a revival decision: buy back in (sit out the next round) or stay out.

        A decision is offered to the round's one eliminated payer, and only while two
        other players are still in, so it never ends the match: a deal is due next.

        Example:
            >>> import cucumber_rules as cr
            >>> rules = cr.ruleset("gurka", hand_size=1, threshold=5, revival=True)
            >>> s = cr.apply(cr.new_game(rules, players=3), cr.Deal(hands=[["2C"], ["3C"], ["9S"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "2C"), cr.Play(1, "3C"), cr.Play(2, "9S")])  # seat 2 out
            >>> game = cr.GAMES["ladder"]
            >>> game.decide(s, cr.Revive(2, True)).match.sitting_out
            (2,)
            >>> game.decide(s, cr.Revive(2, False)).match.out
            (0, 0, 1)
        """
        assert isinstance(decision, Revive)
        m = state.match
        seat = decision.seat
        if decision.accept:
            out = tuple(0 if s == seat else o for s, o in enumerate(m.out))
            revived = tuple(v or s == seat for s, v in enumerate(m.revived))
            match = attrs.evolve(m, out=out, revived=revived, sitting_out=(*m.sitting_out, seat), pending=())
        else:
            match = attrs.evolve(m, pending=())
        past = state.past.append(decision)
        return _new_state(CHANCE, match, state.table, state.held, (), None, None, past, None)

    # ------------------------------------------------------------- the score and the length of a match

    def score(self, state: LadderState) -> Score:
        """The ladder score: winners first, then seats still in, then by when they went out, then total.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].score(cr.new_game(cr.ruleset("agurk"), players=3)).marks
            (0, 0, 0)
        """
        return ladder_score(state.match)

    def max_actions(self, rules: Rules, players: int) -> int:
        """A hard bound on the actions of a match: its most rounds times the most actions of a round.

        A match has at most `round_limit(rules, players)` rounds (`fixed_rounds`, else the
        `round_limit` option, else the automatic limit), since the engine ends an undecided
        match there. A round is one deal, at most `hand_size` plays from each seat, and with
        `revival` at most one decision (only the round's payer can be put out in it).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].max_actions(cr.ruleset("gurka", fixed_rounds=2), 2)
            30
            >>> cr.GAMES["ladder"].max_actions(cr.ruleset("gurka", round_limit=3, revival=True), 3)
            69
        """
        assert isinstance(rules, LadderRules)
        per_round = 1 + players * rules.hand_size + (1 if rules.revival else 0)
        return round_limit(rules, players) * per_round


# --------------------------------------------------------------------------- the follow rule, written once


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
            if TYPE_CHECKING:  # (a trick in play has a best card)
                assert best is not None
            high = best.card.rank
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


def _follow_error(state: LadderState, play: Play, allowed: tuple[Action, ...]) -> IllegalMoveError:
    """Explain a play the follow rule refuses, from the moves `legal` allows."""
    seat, c = play.seat, play.card
    hand = state.hand(seat)
    plan = state.match.rules._plan
    lead = state.trick[0].card
    if lead.rank == plan.ace:
        return IllegalMoveError(
            "must-play-lowest",
            f"seat {seat} cannot play {c}: {lead} was led, so every other player plays "
            f"their lowest card {_lowest(hand)}",
            seat=seat,
            action=play,
        )
    best = state.best
    assert best is not None
    high = best.card.rank
    label = rank_label(high, suited=plan.suited)
    higher = [p.card for p in allowed if isinstance(p, Play) and p.card.rank >= high]
    if plan.forced and higher:
        message = f"must play {label} or higher (they hold {card_list(higher)})"
    elif plan.forced:
        message = f"they hold nothing of {label} or higher, so must play the lowest card {_lowest(hand)}"
    else:
        message = f"must play {label} or higher, or the lowest card {_lowest(hand)}"
    return IllegalMoveError("must-follow", f"seat {seat} cannot play {c}: {message}", seat=seat, action=play)
