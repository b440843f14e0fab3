"""Cucumber Catastrophe in words and pictures: narration, the Trick Marker's badge, the docs' tables."""

from __future__ import annotations

from typing import cast

from ...cards import Card
from ...narrate import Words
from ...render.hooks import Badge, Pictures
from ...rules import Rules
from ...state import RoundResult, State, Trick
from ...views import PlayerView
from .rules import CatastropheRules, Marker, cucumbers_on
from .types import CatastropheTrick, CatastropheView

__all__ = ["CatastrophePictures", "CatastropheWords", "badge"]


class CatastropheWords(Words):
    """Catastrophe's words: the Trick Marker in every trick, cucumbers captured, hands scored.

    Example:
        >>> import cucumber_rules as cr
        >>> CatastropheWords().ranking(cr.ruleset("catastrophe"))
        'Ranked by fewest cucumbers, then by the lowest single-hand score.'
    """

    __slots__ = ()

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """`trick 1: Ann 22, Bo 30, Cy 25 [High: highest wins] → Bo takes 7 cucumbers`.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
            >>> t = cr.CatastropheTrick(0, (cr.Play(0, "22"), cr.Play(1, "30"), cr.Play(2, "25")), 1,
            ...                         marker=cr.Marker.HIGH)
            >>> CatastropheWords().describe_trick(s, t, 1)
            'trick 1: Ann 22, Bo 30, Cy 25 [High: highest wins] → Bo takes 7 cucumbers'
        """
        assert isinstance(trick, CatastropheTrick)
        names = state.players
        rules = cast("CatastropheRules", state.match.rules)
        plays = ", ".join(f"{names[p.seat]} {p.card}" for p in trick.plays)
        if trick.revealed is not None:
            plays = f"revealed {trick.revealed}; {plays}"
        text = f"trick {number}: {plays}"
        if trick.marker is not None:
            text += f" [{Marker(trick.marker).label}]"
        cards = [p.card for p in trick.plays] + ([trick.revealed] if trick.revealed is not None else [])
        cucumbers = sum(rules._plan.cucumbers[c.rank] for c in cards)
        noun = "cucumber" if cucumbers == 1 else "cucumbers"
        return f"{text} → {names[trick.taker]} takes {cucumbers} {noun}"

    def describe_result(self, state: State, result: RoundResult) -> list[str]:
        """`hand 2 cucumbers: Ann 3 · Bo 9 · Cy -5`."""
        row = " · ".join(f"{state.players[s]} {p}" for s, p in enumerate(result.points))
        return [f"hand {result.number} cucumbers: {row}"]

    def ranking(self, rules: Rules) -> str:
        """Fewest cucumbers, then the lowest single-hand score."""
        return "Ranked by fewest cucumbers, then by the lowest single-hand score."

    def describe_table(self, view: PlayerView) -> str:
        """`revealed 40 · High: highest wins`."""
        v = cast("CatastropheView", view)
        parts = [] if v.revealed is None else [f"revealed lead card {v.revealed}"]
        if v.marker is not None:
            parts.append(Marker(v.marker).label)
        return " · ".join(parts)

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """The rows of the Catastrophe preset's at-a-glance table in the docs.

        Example:
            >>> import cucumber_rules as cr
            >>> CatastropheWords().facts(cr.ruleset("catastrophe"))[0]
            ('cards per player', '10 (8 with six players and Surprise Cucumber)')
        """
        return [
            ("cards per player", f"{rules.hand_size} (8 with six players and Surprise Cucumber)"),
            ("match", f"{rules.hand_count} hands; every trick's cards are captured and scored"),
        ]

    def rules_intro(self, rules: Rules) -> str | None:
        """The Trick Marker: how it is set, what it asks, how it breaks; the lead rule.

        Example:
            >>> import cucumber_rules as cr
            >>> CatastropheWords().rules_intro(cr.ruleset("catastrophe")).startswith("How a trick is taken")
            True
        """
        lead = (
            "The top card of the stock is turned up as each trick's lead, and the first card played to it"
            if rules.surprise
            else "The second card of each trick"
        )
        return (
            f"How a trick is taken: the Trick Marker. {lead} sets it: higher than the lead sets High "
            "(the highest card takes the trick, and every later card must be higher than the lead), "
            "lower sets Low (the lowest card takes it, and every later card must be lower). "
            "A player who cannot follow the marker plays any card and breaks it: it flips "
            "(after a broken High the lowest card takes the trick, after a broken Low the highest) "
            "and the others play freely."
            + (
                ""  # (with Surprise, no player leads: the turned-up card is each trick's lead)
                if rules.surprise
                else " A five-cucumber card cannot lead a trick while its player holds any other card."
            )
        )

    def turn_note(self, view: PlayerView) -> str | None:
        """The Trick Marker as it stands at the viewer's turn, and what it asks of them.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=["Ann", "Bo", "Cy"])
            >>> s = cr.apply(s, cr.Deal(hands=[["22", "5"], ["30", "10"], ["25", "15"]]))
            >>> words = CatastropheWords()
            >>> print(words.turn_note(cr.view(s, 0)))
            Trick Marker: not set. You lead; the next card sets it (higher: High, lower: Low).
            >>> s = cr.apply(s, cr.Play(0, "22"))
            >>> print(words.turn_note(cr.view(s, 1)))
            Trick Marker: your card sets it. Higher than 22 sets High (the highest card takes the trick), \
lower sets Low (the lowest card takes it).
            >>> s = cr.apply(s, cr.Play(1, "30"))
            >>> print(words.turn_note(cr.view(s, 2)))
            Trick Marker: HIGH, the highest card takes the trick. Play higher than 22 if you can; \
a lower card breaks the marker, and then the lowest card takes the trick.
        """
        v = cast("CatastropheView", view)
        marker = v.marker
        revealed = v.revealed
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


class CatastrophePictures(Pictures):
    """What Catastrophe draws: the cucumbers on each card, the Trick Marker's badge, the captured cards.

    Example:
        >>> import cucumber_rules as cr
        >>> CatastrophePictures().points_word(cr.ruleset("catastrophe"))
        'cucumbers'
    """

    __slots__ = ()

    def card_icons(self, rules: Rules, card: Card) -> int:
        """The cucumbers printed on the card (the `cucumbers` option)."""
        return cucumbers_on(cast("CatastropheRules", rules), card)

    def points_word(self, rules: Rules) -> str:
        """Cucumbers."""
        return "cucumbers"

    def trick_extras(self, source: Trick | PlayerView) -> tuple[Card | None, Badge | None]:
        """The revealed lead card (Surprise Cucumber) and the Trick Marker's badge."""
        marker = getattr(source, "marker", None)
        return getattr(source, "revealed", None), badge(marker)

    def seat_note(self, view: PlayerView, seat: int) -> str:
        """`captured 5 cards, 7 cucumbers`."""
        captured = getattr(view, "captured", ())
        got = captured[seat] if seat < len(captured) else ()
        if not got:
            return ""
        count = sum(self.card_icons(view.rules, c) for c in got)
        return f"captured {len(got)} cards, {count} cucumbers"


def badge(marker: Marker | str | None) -> Badge:
    """The Trick Marker as a picture shows it: its side, crossed out when broken, and what it means.

    Example:
        >>> badge("high-broken").meaning, badge(None).word
        ('broken: lowest wins', '?')
    """
    if marker is None:
        return Badge("?", "", "marker not set", "Trick Marker not set yet", None, None)
    m = Marker(marker)
    side = m.value.removesuffix("-broken")
    word = side.upper()
    wins = "lowest" if m.lowest_wins else "highest"
    if m.broken:
        meaning = f"broken: {wins} wins"
        text = f"Trick Marker {side.capitalize()}, broken (the {wins} card wins)"
    else:
        meaning = f"{wins} wins"
        text = f"Trick Marker {side.capitalize()} (the {wins} card wins)"
    return Badge(word, "▲" if side == "high" else "▼", meaning, text, m.value, side, struck=m.broken)
