"""Match narration: what happened at the table, in plain words.

[`narrate`][cucumber_rules.narrate.narrate] turns one step of a match (the state
before, the action, the state after) into lines of text: the deal (who deals and
leads, never the cards), each finished trick (who played what, who took it),
the end of a round (what it cost, marks, eliminations, the scores) and the
winners. It tells only what every player at the table sees, so the CLI's `play`
command uses it to report the bots' moves. The words for each game come from
the game itself (`Game.describe_deal`, `describe_trick`, `describe_result`,
`describe_seat`).

For a player at the table, [`rules_intro`][cucumber_rules.narrate.rules_intro] says how a
trick is taken where the game has a rule worth saying first (Catastrophe's Trick Marker),
[`marker_note`][cucumber_rules.narrate.marker_note] where the marker stands at their turn,
and [`barred`][cucumber_rules.narrate.barred] why a card of their hand cannot be played now,
in the library's own words put to them ([`to_you`][cucumber_rules.narrate.to_you]).

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

import re
from collections.abc import Callable, Sequence

from .actions import Action, Deal, Decision, Play
from .engine import check
from .rules import Rules
from .state import State, Trick
from .views import PlayerView, view

__all__ = ["barred", "describe_trick", "marker_note", "narrate", "rules_intro", "scores_line", "to_you"]


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


# --------------------------------------------------------------------------- explaining a turn to its player

_YOU = (
    (re.compile(r"\bevery other player plays their lowest card\b"), "you must play your lowest card"),
    (re.compile(r"\bthey hold\b"), "you hold"),
    (re.compile(r"\bthey must\b"), "you must"),
    (re.compile(r"\btheir hand\b"), "your hand"),
    (re.compile(r"\bthe hand holds\b"), "your hand holds"),
    (re.compile(r"(:|, so) must play\b"), r"\1 you must play"),
    (re.compile(r"\bthe lowest card\b"), "your lowest card"),
)


def to_you(message: str, seat: int, players: Sequence[str]) -> str:
    """The library's third-person message about `seat`, addressed to the player in that seat.

    `IllegalMoveError` messages are a stable third-person contract ("seat 2 cannot
    play 9H: must play 10 or higher, or the lowest card 3C"); at the table the
    human reads "you cannot play 9H: you must play 10 or higher, or your lowest card 3C".
    Other seats are named.

    Example:
        >>> message = "seat 2 cannot play 9H: must play 10 or higher, or the lowest card 3C"
        >>> to_you(message, 2, ["Ann", "Bo", "Cy"])
        'you cannot play 9H: you must play 10 or higher, or your lowest card 3C'
    """
    text = re.sub(rf"^seat {seat}\b", "you", message)
    for pattern, replacement in _YOU:
        text = pattern.sub(replacement, text)
    return re.sub(
        r"\bseat (\d+)\b",
        lambda m: players[int(m[1])] if int(m[1]) < len(players) else m[0],
        text,
    )


def _catastrophe_intro(rules: Rules) -> str:
    lead = (
        "The top card of the stock is turned up as each trick's lead, and the first card played to it"
        if getattr(rules, "surprise", False)
        else "The second card of each trick"
    )
    return (
        f"How a trick is taken: the Trick Marker. {lead} sets it: higher than the lead sets High "
        "(the highest card takes the trick, and every later card must be higher than the lead), "
        "lower sets Low (the lowest card takes it, and every later card must be lower). "
        "A player who cannot follow the marker plays any card and breaks it: it flips "
        "(after a broken High the lowest card takes the trick, after a broken Low the highest) "
        "and the others play freely. A five-cucumber card cannot lead a trick while its player "
        "holds any other card."
    )


_INTROS: dict[str, Callable[[Rules], str]] = {"catastrophe": _catastrophe_intro}


def rules_intro(rules: Rules) -> str | None:
    """How a trick is taken in the game of `rules`, or None where the rules table says enough.

    The words for each game live here until the games provide them.

    Example:
        >>> import cucumber_rules as cr
        >>> "Trick Marker" in rules_intro(cr.ruleset("catastrophe")), rules_intro(cr.ruleset("agurk"))
        (True, None)
    """
    explain = _INTROS.get(rules.game)
    return None if explain is None else explain(rules)


def marker_note(v: PlayerView) -> str | None:
    """The Trick Marker as it stands at the viewer's turn, and what it asks of them (Catastrophe).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=["Ann", "Bo", "Cy"])
        >>> s = cr.apply(s, cr.Deal(hands=[["22", "5"], ["30", "10"], ["25", "15"]]))
        >>> print(marker_note(cr.view(s, 0)))
        Trick Marker: not set. You lead; the next card sets it (higher: High, lower: Low).
        >>> s = cr.apply(s, cr.Play(0, "22"))
        >>> print(marker_note(cr.view(s, 1)))
        Trick Marker: your card sets it. Higher than 22 sets High (the highest card takes the trick), \
lower sets Low (the lowest card takes it).
        >>> s = cr.apply(s, cr.Play(1, "30"))
        >>> print(marker_note(cr.view(s, 2)))
        Trick Marker: HIGH, the highest card takes the trick. Play higher than 22 if you can; \
a lower card breaks the marker, and then the lowest card takes the trick.
    """
    if v.rules.game != "catastrophe" or v.seat is None:
        return None
    marker = getattr(v, "marker", None)
    revealed = getattr(v, "revealed", None)
    plays = [p.card for p in v.trick]
    lead = revealed if revealed is not None else (plays[0] if plays else None)
    if marker is None:
        if lead is None:
            return "Trick Marker: not set. You lead; the next card sets it (higher: High, lower: Low)."
        return (
            f"Trick Marker: your card sets it. Higher than {lead} sets High "
            "(the highest card takes the trick), lower sets Low (the lowest card takes it)."
        )
    side, _, broken = str(marker).upper().partition("-")  # "high", "low", "high-broken", "low-broken"
    wins = "lowest" if (side == "LOW") != bool(broken) else "highest"
    if broken:
        return f"Trick Marker: {side}, broken: the {wins} card takes the trick. Play any card."
    other, flipped = ("lower", "lowest") if side == "HIGH" else ("higher", "highest")
    return (
        f"Trick Marker: {side}, the {wins} card takes the trick. "
        f"Play {side.lower()}er than {lead} if you can; "
        f"a {other} card breaks the marker, and then the {flipped} card takes the trick."
    )


_CANNOT = re.compile(r"^you cannot (?:play|lead) \S+: (.*?)(?: \((?:you hold|lead one of) [^()]*\))?$")


def barred(state: State, seat: int) -> list[str]:
    """Why each card in the hand of `seat` cannot be played now, one line per reason, addressed to them.

    The reasons are the library's own `IllegalMoveError` messages (`check`), put to the
    player with `to_you`, without the list of the cards they may play.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=3), players=["Ann", "Bo", "Cy"])
        >>> s = cr.apply(s, cr.Deal(hands=[["5", "22", "60"], ["30", "10", "40"], ["25", "15", "50"]]))
        >>> barred(s, 0)
        ['Not now: 5 (a 5-cucumber card may not lead a trick while your hand holds other cards)']
    """
    v = view(state, seat)
    if v.to_act != seat:
        return []
    legal = {a.card for a in v.legal if isinstance(a, Play)}
    reasons: dict[str, list[str]] = {}
    for card in dict.fromkeys(v.hand):
        if card in legal:
            continue
        error = check(state, Play(seat, card))
        if error is None:  # (a card the view's legal moves leave out but the engine takes: none is barred)
            continue
        message = to_you(error.message, seat, state.players)
        found = _CANNOT.match(message)
        reasons.setdefault(found[1] if found else message, []).append(str(card))
    return [f"Not now: {' '.join(cards)} ({reason})" for reason, cards in reasons.items()]
