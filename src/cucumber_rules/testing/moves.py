"""Invariants of moves: every legal move applies, every wrong action is refused with its code."""

from __future__ import annotations

import attrs

from ..actions import Action, Deal, Decision, Play
from ..cards import DECKS
from ..engine import apply, check, is_legal, sample_chance
from ..errors import IllegalMoveError
from ..state import CHANCE, State
from .base import CheckBase, actions_text, codes_text
from .hooks import Testing

__all__ = ["MoveChecks", "action_key"]


def action_key(action: Action) -> tuple[int, int, tuple[object, ...]]:
    """How `legal_moves` orders actions: plays by seat and card, then decisions by their fields.

    Example:
        >>> import cucumber_rules as cr
        >>> action_key(cr.Play(1, "QS"))[:2], action_key(cr.Revive(1, False)) < action_key(cr.Revive(1, True))
        ((1, 1), True)
    """
    if type(action) is Play:
        return (1, action.seat, (action.card.index,))
    if isinstance(action, Decision):
        return (2, action.seat, (type(action).__name__, *attrs.astuple(action)))
    return (0, -1, ())


class MoveChecks(CheckBase):
    """`check_legal`, `check_illegal`, `expect_illegal`, `bad_deal`.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.testing import match, strategies
        >>> s = strategies.random_play(cr.ruleset("gurka"), 2, 0, 1, 3)  # a deal and two plays
        >>> after = match.MatchCheck(s.rules, 2, 0, None).check_legal(s, cr.legal_moves(s))
        >>> all(after[a] == cr.apply(s, a) for a in cr.legal_moves(s))
        True
    """

    def check_legal(self, state: State, legal: tuple[Action, ...]) -> dict[Action, State]:
        """Check the legal moves, apply each, and return the states they lead to."""
        to_act = state.to_act
        if type(legal) is not tuple:
            self.fail("legal-moves", f"legal_moves returned a {type(legal).__name__}, not a tuple")
        if to_act is None or to_act == CHANCE:
            if legal:
                where = "over" if to_act is None else "at a chance node"
                self.fail("legal-moves", f"legal_moves is {legal} {where}, not ()")
            return {}
        if not legal:
            self.fail("legal-moves", f"legal_moves is empty while seat {to_act} is to act")
        if len(set(legal)) != len(legal):
            self.fail("legal-moves", f"legal_moves {actions_text(legal)} has duplicates")
        if list(legal) != sorted(legal, key=action_key):
            self.fail("legal-moves", f"legal_moves {actions_text(legal)} is not sorted")
        results: dict[Action, State] = {}
        for move in legal:
            if getattr(move, "seat", None) != to_act:
                self.fail("legal-moves", f"legal move {move} is not for seat {to_act}, who is to act")
            error = check(state, move)
            if error is not None or not is_legal(state, move):
                self.fail("legal-moves", f"legal move {move} fails check: {error}")
            results[move] = self.apply_legal(state, move)
        if any(isinstance(m, Decision) for m in legal):
            return results
        hand = state.hand(to_act)
        codes = frozenset(self.game.error_codes)
        for c in dict.fromkeys(hand):
            move = Play(to_act, c)
            if move in results:
                continue
            self.expect_illegal(state, move, codes, "a held card that is not a legal move")
        if any(type(m) is Play and m.card not in hand for m in legal):
            self.fail("legal-moves", f"legal_moves {actions_text(legal)} plays a card not in hand")
        return results

    def expect_illegal(self, state: State, action: Action, codes: frozenset[str], what: str) -> None:
        error = self.call("illegal-moves", f"check(state, {action})", check, state, action)
        if error is None or error.code not in codes:
            got = "no error" if error is None else f"code {error.code!r} ({error})"
            self.fail(
                "illegal-moves", f"{action} ({what}) should be refused with {codes_text(codes)}, got {got}"
            )
        if error.action != action or not str(error):
            self.fail("illegal-moves", f"the error for {action} does not carry the action and a message")
        if is_legal(state, action):
            self.fail("illegal-moves", f"is_legal says {action} is legal, but check refuses it")
        try:
            apply(state, action)
        except IllegalMoveError as raised:
            if raised.code != error.code:
                self.fail(
                    "illegal-moves", f"apply({action}) raised {raised.code!r} but check gave {error.code!r}"
                )
        except Exception as exc:
            self.fail("illegal-moves", f"apply({action}) raised {type(exc).__name__}: {exc}")
        else:
            self.fail("illegal-moves", f"apply({action}) accepted an action check refuses ({error.code})")

    def check_illegal(self, state: State, legal: tuple[Action, ...]) -> None:
        """Try actions that are wrong now, each with the code it must get."""
        aux = self.aux
        n = self.n
        to_act = state.to_act
        some_card = aux.choice(DECKS[self.rules.deck])
        empty = Deal(hands=[()] * n)
        foreign = Decision(aux.randrange(n))  # a decision no game takes
        if to_act is None:
            for action in (Play(aux.randrange(n), some_card), empty, foreign):
                self.expect_illegal(state, action, frozenset({"game-over"}), "an action after the end")
            return
        if to_act == CHANCE:
            self.expect_illegal(
                state, Play(aux.randrange(n), some_card), frozenset({"deal-expected"}), "a play"
            )
            for decision in (foreign, *Testing.of(self.game).decision_examples(aux.randrange(n))):
                self.expect_illegal(state, decision, frozenset({"no-decision"}), "a decision")
            self.expect_illegal(state, self.bad_deal(state), frozenset({"bad-deal"}), "a corrupted deal")
            return
        self.expect_illegal(state, empty, frozenset({"unexpected-deal"}), "a deal during play")
        other = aux.choice([s for s in range(n) if s != to_act])
        other_hand = state.hand(other)
        wrong_card = aux.choice(other_hand) if other_hand else some_card
        decisions = [m for m in legal if isinstance(m, Decision)]
        if decisions:
            self.expect_illegal(state, Play(to_act, some_card), frozenset({"decision-expected"}), "a play")
            wrong_seat = attrs.evolve(decisions[0], seat=other)
            self.expect_illegal(state, wrong_seat, frozenset({"not-your-turn"}), "the wrong seat")
            return
        self.expect_illegal(state, Play(other, wrong_card), frozenset({"not-your-turn"}), "the wrong seat")
        for decision in (foreign, *Testing.of(self.game).decision_examples(to_act)):
            self.expect_illegal(
                state, attrs.evolve(decision, seat=to_act), frozenset({"no-decision"}), "a decision"
            )
        hand = set(state.hand(to_act))
        missing = [c for c in dict.fromkeys(DECKS[self.rules.deck]) if c not in hand]
        if missing:
            self.expect_illegal(
                state, Play(to_act, aux.choice(missing)), frozenset({"not-in-hand"}), "a card not held"
            )

    def bad_deal(self, state: State) -> Deal:
        """A deal drawn at random, then corrupted: a card moved to another seat, or a card doubled."""
        deal = self.call("chance", "sample_chance", sample_chance, state, self.aux)
        hands = [list(h) for h in deal.hands]
        givers = [s for s, h in enumerate(hands) if h]
        giver = self.aux.choice(givers)
        takers = [s for s in range(self.n) if s != giver]
        other = self.aux.choice(takers)
        copy_of = hands[other][0] if hands[other] else None
        if copy_of is None or self.deck[copy_of] > 1 or self.aux.random() < 0.5:
            hands[other].append(hands[giver].pop(0))  # a card moved to another seat
        else:
            hands[giver][0] = copy_of  # a card replaced by a copy of another seat's card
        return Deal(hands=hands, stock=deal.stock, leader=deal.leader)
