"""OpenSpiel's game parameters: a preset's options, checked as OpenSpiel passes them (32-bit integers).

See the package's docstring for the parameters each game takes.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from typing import Any

from ..errors import InvalidRulesError
from ..games import game_of
from ..outcomes import max_actions
from ..rules import OPTIONS, Rules, ruleset

_SKIPPED = ("min_players", "max_players")


def game_name(preset: str) -> str:
    """The OpenSpiel name of a preset: `cucumber_` and the preset with `-` as `_`.

    Example:
        >>> game_name("five-cucumbers")
        'cucumber_five_cucumbers'
    """
    return "cucumber_" + preset.replace("-", "_")


def default_players(rules: Rules) -> int:
    return min(max(4, rules.min_players), rules.max_players)


def _parameter(value: Any) -> Any:
    if value is None:
        return 0
    if isinstance(value, tuple):
        return ":".join(str(v) for v in value)
    return value


def parameters(rules: Rules) -> dict[str, Any]:
    """A rule set's OpenSpiel game parameters with their defaults (see `cucumber_rules.openspiel`).

    Example:
        >>> parameters(ruleset("gurka"))["threshold"], parameters(ruleset("gurka"))["fixed_rounds"]
        (30, 0)
    """
    values = {name: _parameter(v) for name, v in rules.options().items() if name not in _SKIPPED}
    return {"players": default_players(rules), **values}


#: OpenSpiel keeps integer parameters and game sizes in C++ `int`s (32 bits).
INT_MAX = 2**31 - 1


def _integer(name: str, value: Any, preset: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise InvalidRulesError(name, f"{game_name(preset)}'s {name} is an integer, not {value!r}")
    number = operator.index(value)
    if not -INT_MAX - 1 <= number <= INT_MAX:
        raise InvalidRulesError(
            name, f"{game_name(preset)}'s {name} must fit OpenSpiel's 32-bit integers, not {number}"
        )
    return number


def _counts(name: str, value: Any, preset: str) -> tuple[int, ...]:
    """A table option (Catastrophe's `cucumbers`) from counts joined by `:` (or a sequence of counts)."""
    parts = value if isinstance(value, (tuple, list)) else re.split(r"[:,\s]+", str(value).strip())
    counts = []
    for part in parts:
        if isinstance(part, str) and not part:
            continue
        try:
            counts.append(int(part) if isinstance(part, str) else _integer(name, part, preset))
        except ValueError:
            raise InvalidRulesError(
                name, f"{game_name(preset)}'s {name} is counts joined by ':', not {str(value)[:80]!r}"
            ) from None
    return tuple(counts)


def rules_of(preset: str, params: Mapping[str, Any]) -> tuple[Rules, int]:
    """The rules and player count that OpenSpiel parameters give for a preset.

    Raises:
        InvalidRulesError: For a parameter the preset does not have, a bad option value (of the
            wrong kind, or an integer beyond OpenSpiel's 32 bits), a player count outside the game's
            range, or rules whose matches could run longer than OpenSpiel can count (its `option`
            names the parameter).

    Example:
        >>> r, n = rules_of("gurka", {"players": 3, "fixed_rounds": 2})
        >>> r.fixed_rounds, r.threshold, n
        (2, 30, 3)
        >>> rules_of("catastrophe", {"cucumbers": "a:b"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidRulesError: cucumbers: ...cucumbers is counts joined by ':', not 'a:b'
    """
    base = ruleset(preset)
    options: dict[str, Any] = {}
    own = base.options()
    for name, value in params.items():
        if name == "players":
            continue
        if name not in own or name in _SKIPPED:
            raise InvalidRulesError(name, f"{game_name(preset)} has no parameter {name!r}")
        default = own[name]
        if isinstance(default, tuple):
            value = _counts(name, value, preset)
        elif OPTIONS[name].type.startswith("int"):
            value = _integer(name, value, preset)
            if value == 0 and OPTIONS[name].type.endswith("| None"):
                value = None
        options[name] = value
    rules = base.replace(**options) if options else base
    players = _integer("players", params.get("players", default_players(base)), preset)
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidRulesError(
            "players",
            f"{game_name(preset)} is for {rules.min_players} to {rules.max_players} players, not {players}",
        )
    if max_actions(rules, players) > INT_MAX:
        raise InvalidRulesError(
            "round_limit",
            f"{game_name(preset)}'s matches under these rules could run to {max_actions(rules, players):,} "
            f"actions, more than OpenSpiel counts ({INT_MAX:,}): set round_limit or fixed_rounds",
        )
    return rules, players


def rounds_bound(rules: Rules, players: int) -> int | None:
    """The most rounds a match of these rules has, where the game is one whose bound is known here."""
    bound = game_of(rules).encoding.observation_bounds(rules, players).get("round")
    return None if bound is None else int(bound[1])


def max_decisions(rules: Rules, players: int) -> int:
    """OpenSpiel's `max_game_length`: the most decisions of a match (its chance outcomes not counted).

    `max_actions` counts a deal as one action; a match with at most R rounds has at most R deals,
    so at most `max_actions - R` decisions (R is 1 where the game's bound on rounds is unknown).
    """
    return max_actions(rules, players) - (rounds_bound(rules, players) or 1)
