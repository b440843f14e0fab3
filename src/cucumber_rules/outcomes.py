"""What a match is worth to each seat, and how long it can last: `returns` and `max_actions`.

These are what search and learning frameworks ask of a game: a utility per
seat once the match is over, and a bound on its length.
"""

from __future__ import annotations

from .actions import seat_number
from .game import game_of
from .rules import Rules
from .state import State

__all__ = ["max_actions", "returns"]


def returns(state: State) -> tuple[float, ...]:
    """Each seat's utility: once the match is over, the winners share 1.0 and the others get 0.0.

    A sole winner gets 1.0; two winners of a shared win get 0.5 each. While the
    match runs nobody has won anything yet, so every seat gets 0.0 (the rewards
    come at the end only): the values always sum to 1.0 once `state.is_over`,
    and to 0.0 before.

    Args:
        state: Any state of a match.

    Returns:
        One float per seat.

    Raises:
        TypeError: If `state` is not a `State`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1, fixed_rounds=1), players=2)
        >>> cr.returns(s)
        (0.0, 0.0)
        >>> s = cr.apply_all(s, [cr.Deal(hands=[["2C"], ["AS"]]), cr.Play(0, "2C"), cr.Play(1, "AS")])
        >>> cr.score(s).winners, cr.returns(s)
        ((0,), (1.0, 0.0))
    """
    if not isinstance(state, State):
        raise TypeError(f"expected a State, not {type(state).__name__}")
    n = len(state.match.players)
    winners = state.match.winners
    if not winners:
        return (0.0,) * n
    share = 1.0 / len(winners)
    won = set(winners)
    return tuple(share if s in won else 0.0 for s in range(n))


def max_actions(rules: Rules, players: int) -> int:
    """A hard bound on the actions of a match (deals and decisions included), for rules and a player count.

    It is the game's [`Game.max_actions`][cucumber_rules.Game.max_actions], and the
    bound `cucumber_rules.testing.check_game` holds every match to: no match passes
    it. A Catastrophe match takes exactly that many actions (`hands` deals and every
    card of every hand). A ladder match has at most `fixed_rounds` rounds, or else
    `round_limit` rounds (automatic by default, far beyond any real match): the
    engine ends a match still undecided there, so the bound is that many rounds of a
    deal, every card and a revival decision.

    Args:
        rules: The rules.
        players: The player count (any integer, not a bool).

    Returns:
        The bound.

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.max_actions(cr.ruleset("catastrophe"), 4)
        164
        >>> cr.max_actions(cr.ruleset("agurk", round_limit=10), 3)  # 10 rounds of a deal and 21 cards
        220
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (see ruleset()), not {type(rules).__name__}")
    n = seat_number(players, "players must be an int")
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}")
    return game_of(rules).max_actions(rules, n)
