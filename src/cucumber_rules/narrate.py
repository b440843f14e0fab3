"""Match narration: what happened at the table, in plain words.

[`narrate`][cucumber_rules.narrate.narrate] turns one step of a match (the state
before, the action, the state after) into lines of text: the deal (who deals and
leads, never the cards), each finished trick (who played what, who took it),
the end of a round (what it cost, marks, eliminations, the scores) and the
winners. It tells only what every player at the table sees, so the CLI's `play`
command uses it to report the bots' moves. The words for each game come from
the game itself (`Game.describe_deal`, `describe_trick`, `describe_result`,
`describe_seat`).

Example:
    >>> import cucumber_rules as cr
    >>> s0 = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"])
    >>> s1 = cr.apply(s0, cr.Deal(hands=[["2C"], ["9S"]]))
    >>> s2 = cr.apply(s1, cr.Play(0, "2C"))
    >>> s3 = cr.apply(s2, cr.Play(1, "9S"))
    >>> for line in narrate(s2, cr.Play(1, "9S"), s3):
    ...     print(line)
      trick 1: Ann 2C, Bo 9S → Bo takes the last trick
      Bo pays 9 for 9S (total 9)
      scores: Ann 0 · Bo 9
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Deal, Decision, Play
from .state import State, Trick

__all__ = ["describe_trick", "narrate", "scores_line"]


def scores_line(state: State) -> str:
    """The running totals, with the game's notes (out, marked).

    Example:
        >>> import cucumber_rules as cr
        >>> scores_line(cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"]))
        'scores: Ann 0 · Bo 0 · Cy 0'
    """
    game = state.game
    m = state.match
    parts = [
        f"{name} {m.totals[seat]}{game.describe_seat(state, seat)}" for seat, name in enumerate(m.players)
    ]
    return "scores: " + " · ".join(parts)


def describe_trick(state: State, trick: Trick, number: int, *, last: bool = False) -> str:
    """One line for a finished trick, in the game's words.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
        >>> t = cr.CatastropheTrick(leader=0, plays=(cr.Play(0, "22"), cr.Play(1, "30"), cr.Play(2, "25")),
        ...                         taker=1, marker=cr.Marker.HIGH)
        >>> describe_trick(s, t, 1)
        'trick 1: Ann 22, Bo 30, Cy 25 [High: highest wins] → Bo takes 7 cucumbers'
    """
    return state.game.describe_trick(state, trick, number, last=last)


def _winners(state: State, seats: Sequence[int]) -> str:
    names = ", ".join(state.players[s] for s in seats)
    return f"Winner: {names}" if len(seats) == 1 else f"Shared win: {names}"


def narrate(before: State, action: Action, after: State) -> list[str]:
    """Lines of plain text describing one step of a match.

    Only public information is told: a deal is reported without its cards.

    Args:
        before: The state before the action.
        action: The action applied.
        after: The state after it.

    Returns:
        Zero or more lines (a play that does not finish a trick gives none).

    Example:
        >>> import cucumber_rules as cr
        >>> s0 = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
        >>> deal = cr.Deal(hands=[[f"{r}{s}" for r in range(2, 9)] for s in "CDH"])
        >>> narrate(s0, deal, cr.apply(s0, deal))
        ['Round 1: Cy deals, Ann leads']
    """
    game = after.game
    lines: list[str] = []
    if isinstance(action, Deal):
        lines.append(game.describe_deal(after))
    elif isinstance(action, Decision):
        lines.append(f"{after.players[action.seat]} {str(action).removeprefix(f'seat {action.seat} ')}")
    elif isinstance(action, Play):
        old, new = before.table, after.table
        if old is not None and new is not None and len(new.tricks) > len(old.tricks):
            finished = after.match.rounds > before.match.rounds
            lines.append("  " + game.describe_trick(after, new.tricks[-1], len(new.tricks), last=finished))
            if finished:
                result = after.match.results.last
                assert result is not None
                lines.extend("  " + line for line in game.describe_result(after, result))
                lines.append("  " + scores_line(after))
    if after.is_over and not before.is_over:
        lines.append(_winners(after, after.match.winners))
    return lines
