"""Match narration: what happened at the table, in plain words.

[`narrate`][cucumber_rules.narrate.narrate] turns one step of a match (the state
before, the action, the state after) into lines of text: the deal (who deals and
leads, never the cards), each finished trick (who played what, the Trick Marker
in Catastrophe, who took it), the end of a round (the last trick's penalty, tie
bonuses, cucumber marks, eliminations, revivals, the scores) and the winners.
It tells only what every player at the table sees, so the CLI's `play` command
uses it to report the bots' moves.

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

from .actions import Action, Deal, Play, Revive
from .state import RoundResult, State, Trick

__all__ = ["MARKERS", "describe_trick", "narrate", "scores_line"]

#: How each Trick Marker value reads.
MARKERS = {
    "high": "High: highest wins",
    "low": "Low: lowest wins",
    "high-broken": "High broken: lowest wins",
    "low-broken": "Low broken: highest wins",
}


def _name(state: State, seat: int) -> str:
    return state.players[seat]


def _unit(state: State) -> str:
    return "hand" if state.rules.game == "catastrophe" else "round"


def scores_line(state: State) -> str:
    """The running totals, with marks and eliminations.

    Example:
        >>> import cucumber_rules as cr
        >>> scores_line(cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"]))
        'scores: Ann 0 · Bo 0 · Cy 0'
    """
    m = state.match
    parts = []
    for seat in range(len(state.players)):
        text = f"{_name(state, seat)} {m.totals[seat]}"
        if m.out[seat]:
            text += " (out)"
        elif m.marks[seat] and state.rules.game == "ladder" and (state.rules.lives or 1) > 1:
            text += " (marked)" if m.marks[seat] == 1 else f" ({m.marks[seat]} marks)"
        parts.append(text)
    return "scores: " + " · ".join(parts)


def describe_trick(state: State, trick: Trick, number: int, *, last: bool = False) -> str:
    """One line for a finished trick: who played what, the Trick Marker, who took it.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
        >>> t = cr.Trick(leader=0, plays=(cr.Play(0, "22"), cr.Play(1, "30"), cr.Play(2, "25")),
        ...              taker=1, marker="high")
        >>> describe_trick(s, t, 1)
        'trick 1: Ann 22, Bo 30, Cy 25 [High: highest wins] → Bo takes 7 cucumbers'
    """
    plays = ", ".join(f"{_name(state, p.seat)} {p.card}" for p in trick.plays)
    if trick.revealed is not None:
        plays = f"revealed {trick.revealed}; {plays}"
    text = f"trick {number}: {plays}"
    taker = _name(state, trick.taker)
    if state.rules.game == "catastrophe":
        if trick.marker is not None:
            text += f" [{MARKERS.get(trick.marker, trick.marker)}]"
        counts = state.rules.cucumbers or ()
        cards = [p.card for p in trick.plays] + ([trick.revealed] if trick.revealed is not None else [])
        cucumbers = sum(counts[c.rank - 1] for c in cards) if counts else len(cards)
        noun = "cucumber" if cucumbers == 1 else "cucumbers"
        return f"{text} → {taker} takes {cucumbers} {noun}"
    return f"{text} → {taker}" + (" takes the last trick" if last else "")


def _round_lines(state: State, result: RoundResult) -> list[str]:
    lines: list[str] = []
    if state.rules.game == "catastrophe":
        row = " · ".join(f"{_name(state, s)} {p}" for s, p in enumerate(result.points))
        lines.append(f"hand {result.number} cucumbers: {row}")
    elif result.payer is not None:
        payer = result.payer
        paid = result.points[payer]
        before_reset = result.totals[payer] if payer not in result.marks else None
        total = f" (total {before_reset})" if before_reset is not None else ""
        lines.append(f"{_name(state, payer)} pays {paid} for {result.card}{total}")
        for seat, points in enumerate(result.points):
            if points < 0:
                lines.append(
                    f"{_name(state, seat)} played the same rank: {points} (total {result.totals[seat]})"
                )
    for seat in result.marks:
        lines.append(
            f"{_name(state, seat)} crosses {state.rules.threshold}: a cucumber mark, "
            f"score reset to {result.totals[seat]}"
        )
    for seat in result.eliminated:
        lines.append(f"{_name(state, seat)} is eliminated")
    for seat in result.returned:
        lines.append(f"{_name(state, seat)} is back in with {result.totals[seat]}")
    lines.append(scores_line(state))
    return lines


def _winners(state: State, seats: Sequence[int]) -> str:
    names = ", ".join(_name(state, s) for s in seats)
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
    lines: list[str] = []
    if isinstance(action, Deal):
        assert after.round is not None
        number = after.match.rounds + 1
        leader = _name(after, after.round.leader)
        if after.rules.game == "catastrophe":
            lines.append(f"Hand {number}: {leader} leads")
        else:
            sitting = [
                s for s in range(len(after.players)) if s not in after.round.seats and not after.match.out[s]
            ]
            line = f"Round {number}: {_name(after, after.match.dealer)} deals, {leader} leads"
            if sitting:
                line += " (" + ", ".join(_name(after, s) for s in sitting) + " sits out)"
            lines.append(line)
    elif isinstance(action, Revive):
        name = _name(after, action.seat)
        lines.append(f"{name} buys back in" if action.accept else f"{name} stays out")
    elif isinstance(action, Play):
        old = before.round
        new = after.round
        if old is not None and new is not None and len(new.tricks) > len(old.tricks):
            finished = after.match.rounds > before.match.rounds
            trick = new.tricks[-1]
            lines.append("  " + describe_trick(after, trick, len(new.tricks), last=finished))
            if finished:
                result = after.match.results.last
                assert result is not None
                lines.extend("  " + line for line in _round_lines(after, result))
    if after.is_over and not before.is_over:
        lines.append(_winners(after, after.match.winners))
    return lines
