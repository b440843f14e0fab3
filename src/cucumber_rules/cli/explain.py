"""What the command line explains beyond the library's own words: how a trick is taken, why a card is barred.

`intro` is a game's rule for taking a trick, said once when a match starts and by
`rules PRESET`; `marker_note` is the Trick Marker at the player's turn (Catastrophe);
`barred` says why each card of the hand is missing from "You may play", in the
library's own third-person messages (`cr.check`) turned to the player.

The game-specific words live here, keyed by the game's name, until the games
provide them themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import cucumber_rules as cr

# --------------------------------------------------------------------------- the library's words, to you

_YOU = (
    (re.compile(r"\bevery other player plays their lowest card\b"), "you must play your lowest card"),
    (re.compile(r"\bthey hold\b"), "you hold"),
    (re.compile(r"\bthey must\b"), "you must"),
    (re.compile(r"\btheir hand\b"), "your hand"),
    (re.compile(r"\bthe hand holds\b"), "your hand holds"),
    (re.compile(r"(:|, so) must play\b"), r"\1 you must play"),
    (re.compile(r"\bthe lowest card\b"), "your lowest card"),
)


def _to_you(message: str, seat: int, players: Sequence[str]) -> str:
    """The library's third-person message about `seat`, addressed to the player in that seat.

    `IllegalMoveError` messages are a stable third-person contract ("seat 2 cannot
    play 9H: must play 10 or higher, or the lowest card 3C"); at the table the
    human reads "you cannot play 9H: you must play 10 or higher, or your lowest card 3C".
    Other seats are named.
    """
    text = re.sub(rf"^seat {seat}\b", "you", message)
    for pattern, replacement in _YOU:
        text = pattern.sub(replacement, text)
    return re.sub(
        r"\bseat (\d+)\b",
        lambda m: players[int(m[1])] if int(m[1]) < len(players) else m[0],
        text,
    )


# --------------------------------------------------------------------------- how a trick is taken


def _catastrophe_intro(rules: cr.Rules) -> str:
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


_INTROS: dict[str, Callable[[cr.Rules], str]] = {"catastrophe": _catastrophe_intro}


def intro(rules: cr.Rules) -> str | None:
    """How a trick is taken in the game of `rules`, or None where the rules table says enough.

    Example:
        >>> "Trick Marker" in intro(cr.ruleset("catastrophe")), intro(cr.ruleset("agurk"))
        (True, None)
    """
    explain = _INTROS.get(rules.game)
    return None if explain is None else explain(rules)


# --------------------------------------------------------------------------- the Trick Marker now


def marker_note(v: cr.PlayerView) -> str | None:
    """The Trick Marker as it stands at the viewer's turn, and what it asks of them (Catastrophe).

    Example:
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
    m = cr.Marker(marker)
    side = "HIGH" if m in (cr.Marker.HIGH, cr.Marker.HIGH_BROKEN) else "LOW"
    wins = "lowest" if m.lowest_wins else "highest"
    if m.broken:
        return f"Trick Marker: {side}, broken: the {wins} card takes the trick. Play any card."
    other, flipped = ("lower", "lowest") if side == "HIGH" else ("higher", "highest")
    return (
        f"Trick Marker: {side}, the {wins} card takes the trick. "
        f"Play {side.lower()}er than {lead} if you can; "
        f"a {other} card breaks the marker, and then the {flipped} card takes the trick."
    )


# --------------------------------------------------------------------------- why a card is barred

_CANNOT = re.compile(r"^you cannot (?:play|lead) \S+: (.*?)(?: \((?:you hold|lead one of) [^()]*\))?$")


def barred(state: cr.State, seat: int) -> list[str]:
    """Why each card in the hand of `seat` cannot be played now, one line per reason, addressed to them.

    Example:
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=3), players=["Ann", "Bo", "Cy"])
        >>> s = cr.apply(s, cr.Deal(hands=[["5", "22", "60"], ["30", "10", "40"], ["25", "15", "50"]]))
        >>> barred(s, 0)
        ['Not now: 5 (a 5-cucumber card may not lead a trick while your hand holds other cards)']
    """
    v = cr.view(state, seat)
    if v.to_act != seat:
        return []
    legal = {a.card for a in v.legal if isinstance(a, cr.Play)}
    reasons: dict[str, list[str]] = {}
    for card in dict.fromkeys(v.hand):
        if card in legal:
            continue
        error = cr.check(state, cr.Play(seat, card))
        if error is None:  # (a card the view's legal moves leave out but the engine takes: none is barred)
            continue
        message = _to_you(error.message, seat, state.players)
        found = _CANNOT.match(message)
        reasons.setdefault(found[1] if found else message, []).append(str(card))
    return [f"Not now: {' '.join(cards)} ({reason})" for reason, cards in reasons.items()]
