"""The score of a match: `Score`, valid at any point, and the default ranking."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Protocol

import attrs

from .state import RoundResult, State, result_rows
from .values import Value, builder

__all__ = ["Score", "default_score"]


@attrs.frozen(weakref_slot=False)
class Score(Value):
    """The scores at some point of a match (from [`score`][cucumber_rules.score]).

    A game whose score says more subclasses it (the ladder's `LadderScore`: cucumber
    marks and eliminations).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.score(cr.new_game(cr.ruleset("catastrophe"), players=3))
        >>> s.totals, s.round_points, s.winners, s.standings
        ((0, 0, 0), (), (), (0, 1, 2))
    """

    renamed: ClassVar[Mapping[str, str]] = {"rounds": "round_points"}
    """Fields JSON format 2 called otherwise (read by `loads`)."""
    retired: ClassVar[Mapping[str, Any]] = {"marks": 0, "eliminated": False}
    """Fields format 2 wrote for every game, with their value per seat where a game has none."""
    per_seat: ClassVar[tuple[str, ...]] = ()
    """The fields a game's score class adds that hold one value per seat (checked when loaded)."""
    totals: tuple[int, ...]
    """Running points (ladder) or cucumbers (Five Cucumbers, Catastrophe) per seat."""
    round_points: tuple[tuple[int, ...], ...]
    """One row per finished round (Catastrophe: hand): what each seat scored in it."""
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

    @property
    def rounds(self) -> tuple[tuple[int, ...], ...]:
        """Deprecated: `round_points` (`rounds` counts rounds, as `Match.rounds` does)."""
        _moved("Score.rounds", "Score.round_points")
        return self.round_points

    @property
    def marks(self) -> tuple[int, ...]:
        """Deprecated: marks are the ladder's (`LadderScore.marks`); other games have none."""
        _moved("Score.marks", "LadderScore.marks (other games have no marks)")
        return (0,) * len(self.totals)

    @property
    def eliminated(self) -> tuple[bool, ...]:
        """Deprecated: eliminations are the ladder's (`LadderScore.eliminated`)."""
        _moved("Score.eliminated", "LadderScore.eliminated (no one is eliminated in other games)")
        return (False,) * len(self.totals)


def _moved(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)


#: `new_score(totals, round_points, winners, standings, results, game)`: a `Score` from all its fields,
#: in order, without validation (see `values.builder`).
new_score: Final = builder(Score)


class _Named(Protocol):
    """A game, as `default_score` needs it: its name (`GameBase` is above the scores)."""

    @property
    def name(self) -> str: ...


def default_score(game: _Named, state: State) -> Score:
    """`Game.score`'s default: the totals, a row per round, winners first, then the lowest total.

    Example:
        >>> import cucumber_rules as cr
        >>> default_score(cr.GAMES["catastrophe"], cr.new_game(cr.ruleset("catastrophe"), 3)).standings
        (0, 1, 2)
    """
    m = state.match
    results, rows = result_rows(m)
    winners = set(m.winners)
    order = sorted(range(len(m.players)), key=lambda s: (s not in winners, m.totals[s], s))
    return new_score(m.totals, rows, m.winners, tuple(order), results, game.name)
