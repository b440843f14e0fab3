"""Observation vectors: a seat's view as floats of a fixed length, seats relative to the viewer."""

from __future__ import annotations

from ..game import game_of
from ..rules import Rules
from ..views import PlayerView
from .hooks import Encoding, action_table, common_observation, common_parts, player_count, relative

__all__ = [
    "UNKNOWN_BOUND",
    "common_observation",
    "common_parts",
    "observation",
    "observation_bounds",
    "observation_parts",
    "observation_size",
    "relative",
]


# --------------------------------------------------------------------------- observations


def observation_parts(rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
    """The named parts of a rule set's observation vector, in order, as (name, size).

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> [name for name, size in cr.observation_parts(cr.ruleset("catastrophe"), 4)][-3:]
        ['marker', 'revealed', 'captured']
    """
    n = player_count(rules, players)
    return tuple(Encoding.of(game_of(rules)).observation_parts(rules, n))


def observation_size(rules: Rules, players: int) -> int:
    """The length of `observation(view)` for a rule set and player count.

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> cr.observation_size(cr.ruleset("agurk"), 4), cr.observation_size(cr.ruleset("catastrophe"), 4)
        (345, 445)
    """
    return sum(size for _, size in observation_parts(rules, players))


def observation(view: PlayerView) -> tuple[float, ...]:
    """A seat's view as a fixed-length vector of floats, seats relative to the viewer.

    The layout is `observation_parts(view.rules, len(view.players))` (see the module docstring).

    Args:
        view: A seat's view (from `view(state, seat)`); a spectator's view has no seat to count from.

    Returns:
        `observation_size(rules, players)` floats.

    Raises:
        TypeError: If `view` is not a `PlayerView`.
        ValueError: For a spectator's view.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> obs = cr.observation(cr.view(s, 1))
        >>> [i for i in range(52) if obs[i]]  # the hand: 3H and AS
        [6, 51]
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"expected a PlayerView (from view(state, seat)), not {type(view).__name__}")
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to observe from: use view(state, seat)")
    rules = view.rules
    values = tuple(Encoding.of(game_of(rules)).observe(view))
    n = len(view.players)
    found = _SIZES.get(id(rules))
    if found is None or found[0] is not rules or found[1] != n:
        found = _SIZES[id(rules)] = (rules, n, observation_size(rules, n))
        if len(_SIZES) > 64:
            _SIZES.clear()
    if len(values) != found[2]:
        raise ValueError(f"{rules.game}: observe gave {len(values)} values, not {found[2]}")
    return values


#: `observation_size` of the rules last observed, by their identity (kept alive here), with the count.
_SIZES: dict[int, tuple[Rules, int, int]] = {}


# --------------------------------------------------------------------------- bounds

UNKNOWN_BOUND = 3.4028234663852886e38
"""`observation_bounds` where no bound is known: the largest float32, so that a bound is always finite.

Example:
    >>> import numpy as np
    >>> UNKNOWN_BOUND == float(np.finfo(np.float32).max)
    True
"""

#: Parts whose values are 0 or 1 (the common parts' and the built-in games' own).
_FLAGS = frozenset(("trick", "leader", "to_act"))


def _copies(rules: Rules) -> int:
    """The most copies of one card id in the deck (4 in Five Cucumbers, else 1)."""
    from collections import Counter

    from ..cards import DECKS

    ids = action_table(rules).ids
    return max(Counter(ids[c.index] for c in DECKS[rules.deck]).values())


def observation_bounds(rules: Rules, players: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The lowest and highest value of each entry of `observation(view)`, for a rule set and player count.

    Every observation of every match of these rules lies within them: counts of a card between 0 and
    its copies in the deck, flags between 0 and 1, hand sizes up to the cards dealt each player, and
    totals, the round and the games' own parts from their rules (`Encoding.observation_bounds`; a
    fixed-round match's totals grow with its rounds). A part whose range the game does not give gets
    `±UNKNOWN_BOUND`, the largest float32.

    Returns:
        `(low, high)`, each a tuple of `observation_size(rules, players)` floats.

    Raises:
        TypeError: If `rules` is not a `Rules` or `players` is not an integer.
        ValueError: If `players` is outside the rules' range.

    Example:
        >>> import cucumber_rules as cr
        >>> low, high = observation_bounds(cr.ruleset("gurka", fixed_rounds=10), 3)
        >>> dict(zip([n for n, size in cr.observation_parts(cr.ruleset("gurka"), 3) for _ in range(size)],
        ...          high))["totals"]
        140.0
    """
    n = player_count(rules, players)
    game = Encoding.of(game_of(rules)).observation_bounds(rules, n)
    copies = float(_copies(rules))
    cards = float(rules.cards_per_player(n))
    low: list[float] = []
    high: list[float] = []
    for name, size in observation_parts(rules, n):
        if name in ("hand", "seen"):
            bound = (0.0, copies)
        elif name == "hand_sizes":
            bound = (0.0, cards)
        elif name in game:
            bound = game[name]
        elif name in _FLAGS:
            bound = (0.0, 1.0)
        else:
            bound = (-UNKNOWN_BOUND, UNKNOWN_BOUND)
        low += [bound[0]] * size
        high += [bound[1]] * size
    return tuple(low), tuple(high)
