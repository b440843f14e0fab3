"""The score of a match: `Score`, valid at any point."""

from __future__ import annotations

from typing import Final

import attrs

from ._values import Value, builder
from .state import RoundResult

__all__ = ["Score"]


@attrs.frozen(weakref_slot=False)
class Score(Value):
    """The scores at some point of a match (from [`score`][cucumber_rules.score]).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.score(cr.new_game(cr.ruleset("agurk"), players=3))
        >>> s.totals, s.rounds, s.winners, s.standings
        ((0, 0, 0), (), (), (0, 1, 2))
    """

    totals: tuple[int, ...]
    """Running points (ladder) or cucumbers (Five Cucumbers, Catastrophe) per seat."""
    rounds: tuple[tuple[int, ...], ...]
    """One row per finished round (Catastrophe: hand): what each seat scored in it."""
    marks: tuple[int, ...]
    """Cucumber marks per seat (Agurk's first-life warnings)."""
    eliminated: tuple[bool, ...]
    """Per seat: out of the match."""
    winners: tuple[int, ...]
    """The winning seats; empty while the match runs, several on a shared win."""
    standings: tuple[int, ...]
    """Every seat, best first."""
    results: tuple[RoundResult, ...] = ()
    """Every finished round in detail (the game's `RoundResult` class: who paid what, marks, ...)."""
    game: str = ""
    """The game the match is played under (names the class of `results` in JSON)."""

    @property
    def is_final(self) -> bool:
        """True once the match has winners."""
        return bool(self.winners)


#: `new_score(totals, rounds, marks, eliminated, winners, standings, results, game)`: a `Score` from all
#: its fields, in order, without validation (the games' `score` build it; see `_values.builder`).
new_score: Final = builder(Score)
