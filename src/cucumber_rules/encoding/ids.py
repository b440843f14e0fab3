"""Action ids: every distinct card of the deck, then the game's decisions; the legal mask."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import MAX_SEATS, Action, Deal, Decision, Play, seat_number
from ..engine import legal_moves
from ..game import game_of
from ..rules import Rules
from ..state import State
from .hooks import Encoding, action_table

if TYPE_CHECKING:
    pass

__all__ = ["action_id", "action_of", "legal_mask", "num_actions"]


def num_actions(rules: Rules) -> int:
    """How many action ids a rule set has: each distinct card of its deck, then the game's decisions.

    Raises:
        TypeError: If `rules` is not a `Rules`.

    Example:
        >>> import cucumber_rules as cr
        >>> [cr.num_actions(cr.ruleset(n)) for n in ("agurk", "five-cucumbers", "catastrophe")]
        [52, 15, 60]
        >>> cr.num_actions(cr.ruleset("agurk", revival=True))
        54
    """
    e = action_table(rules)
    return len(e.cards) + e.decisions


def action_id(rules: Rules, action: Action) -> int:
    """The id of a player's action: its card's id for a `Play` (whoever plays it), else its decision's.

    Args:
        rules: The rule set.
        action: A `Play` or a decision of the game (a `Deal` has no id: see `chance_outcomes`).

    Returns:
        An id in `0..num_actions(rules) - 1`.

    Raises:
        ValueError: If the card is not in the deck or the decision is not one of the game's.
        TypeError: If `action` is not a `Play` or a `Decision`.

    Example:
        >>> import cucumber_rules as cr
        >>> r = cr.ruleset("gurka", revival=True)
        >>> cr.action_id(r, cr.Play(0, "2C")), cr.action_id(r, cr.Play(3, "AS"))
        (0, 51)
        >>> cr.action_id(r, cr.Revive(2, True)), cr.action_id(r, cr.Revive(2, False))
        (52, 53)
    """
    e = action_table(rules)
    if type(action) is Play:
        found = e.ids[action.card.index]
        if found < 0:
            raise ValueError(f"{action.card} is not a card of the {rules.deck} deck ({rules.name})")
        return found
    if isinstance(action, Decision):
        decisions = Encoding.of(game_of(rules)).action_decisions(rules, action.seat)
        for i, d in enumerate(decisions):
            if d == action:
                return len(e.cards) + i
        raise ValueError(f"{action} is not a decision of {rules.name}")
    if type(action) is Deal:
        raise TypeError("a Deal has no action id: chance outcomes have their own ids (see chance_outcomes)")
    raise TypeError(f"expected a Play or a Decision, not {type(action).__name__}")


def action_of(rules: Rules, seat: int, id: int) -> Play | Decision:
    """The action of `seat` that has this id (the inverse of `action_id`).

    Args:
        rules: The rule set.
        seat: The acting seat (any integer, not a bool).
        id: The action id (any integer, not a bool).

    Returns:
        A `Play` of the seat, or a decision of the seat.

    Raises:
        ValueError: If the id or the seat is out of range.
        TypeError: If `seat` or `id` is not an integer.

    Example:
        >>> import cucumber_rules as cr
        >>> r = cr.ruleset("agurk", revival=True)
        >>> cr.action_of(r, 2, 12), cr.action_of(r, 2, 52)
        (Play(seat=2, card=card('5C')), Revive(seat=2, accept=True))
    """
    seat = seat_number(seat, "seat must be an int")
    number = seat_number(id, "an action id is an int")
    if not 0 <= seat < min(rules.max_players, MAX_SEATS):
        raise ValueError(f"seat must be 0..{rules.max_players - 1} under {rules.name}, not {seat}")
    e = action_table(rules)
    if 0 <= number < len(e.cards):
        return Play(seat, e.cards[number])
    if len(e.cards) <= number < len(e.cards) + e.decisions:
        return Encoding.of(game_of(rules)).action_decisions(rules, seat)[number - len(e.cards)]
    top = len(e.cards) + e.decisions - 1
    raise ValueError(f"action id must be 0..{top} under {rules.name}, not {number}")


def legal_mask(state: State) -> tuple[bool, ...]:
    """One bool per action id: True where `legal_moves(state)` holds that id's action of the seat to act.

    All False at a deal (chance) and once the match is over.

    Raises:
        TypeError: If `state` is not a `State`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> [i for i, ok in enumerate(cr.legal_mask(s)) if ok]
        [0, 47]
    """
    if not isinstance(state, State):
        raise TypeError(f"expected a State, not {type(state).__name__}")
    rules = state.match.rules
    mask = [False] * num_actions(rules)
    for action in legal_moves(state):
        mask[action_id(rules, action)] = True
    return tuple(mask)
