"""The public drawing functions: `svg` and `describe` for the table; one card, hand, trick or score table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from ..actions import Play
from ..game import game_of
from ..rules import Rules
from ..state import State, Trick
from ..views import PlayerView
from .blocks import hand_block, results_block, trick_block, view_blocks, view_of
from .hooks import Pictures
from .primitives import (
    CARD_H,
    CARD_W,
    Block,
    CardLike,
    as_card,
    card_picture,
    card_words,
    cards_text,
    svg_document,
)


@attrs.frozen
class _Pending:
    """The plays of a trick in progress, with what a game shows beside them (`trick_svg`)."""

    marker: str | None
    revealed: CardLike | None

    def __attrs_post_init__(self) -> None:
        if self.revealed is not None:
            object.__setattr__(self, "revealed", as_card(self.revealed))


# --- public -------------------------------------------------------------------------------------------


def svg(
    obj: State | PlayerView,
    seat: int | None = None,
    *,
    open_hands: bool = False,
    tricks: Literal["current", "round", "none"] = "current",
    results: bool | None = None,
    highlight: bool = True,
    standalone: bool = False,
) -> str:
    """Draw the table as one seat (or a spectator) sees it, as an SVG element.

    The picture shows whose turn it is, the trick on the table (or, between tricks,
    the trick just taken, with its taker), the Trick Marker in Cucumber Catastrophe,
    every seat's hand with its total, and a table of the finished rounds.

    Args:
        obj: A `State` (drawn through `view(obj, seat)`, so nothing hidden leaks) or a
            `PlayerView` (drawn as it is).
        seat: The seat whose view to draw; None for a spectator. With a view, leave it
            None or give the view's own seat.
        open_hands: Show every hand face up (a worked example, a replay); needs a State.
        tricks: `"current"`: the trick in play, or the last one taken; `"round"`: every
            trick of the round so far; `"none"`: no tricks.
        results: Draw the table of finished rounds; None draws it once a round has finished.
        highlight: Lift and outline the cards the viewer may play now.
        standalone: Bring a background and light text, for a picture shown on its own
            (an image file) rather than inside a page.

    Returns:
        An `<svg>` element as text, with `role="img"` and a text alternative.

    Raises:
        TypeError: `obj` is neither a State nor a PlayerView.
        ValueError: `open_hands` with a view, a seat that is not the view's, or an unknown `tricks`.

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("agurk", hand_size=2), players=["Ann", "Bo", "Cy"])
        >>> state = cr.apply(state, cr.Deal(hands=[["2C", "KS"], ["3H", "AS"], ["4D", "5D"]]))
        >>> state = cr.apply(state, cr.Play(0, "KS"))
        >>> picture = svg(state, seat=1)
        >>> 'data-card="AS"' in picture, 'data-card="2C"' in picture   # Bo's ace, not Ann's 2C
        (True, False)
        >>> 'class="cr-card cr-legal" data-card="AS"' in svg(state, seat=1)   # Bo may play it
        True
    """
    block = view_blocks(obj, seat, open_hands=open_hands, tricks=tricks, results=results, highlight=highlight)
    return svg_document(block, standalone=standalone)


def describe(
    obj: State | PlayerView,
    seat: int | None = None,
    *,
    open_hands: bool = False,
    tricks: Literal["current", "round", "none"] = "current",
    results: bool | None = None,
) -> str:
    """The text alternative of `svg` with the same arguments: the picture in words.

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"])
        >>> state = cr.apply(state, cr.Deal(hands=[["2C"], ["9S"]]))
        >>> print(*describe(state, seat=0).split(". "), sep="\\n")
        Gurka, round 1, trick 1 of 1
        Ann to play
        No cards on the table yet
        Your hand (Ann): 2C; you may play 2C
        Bo holds 1 card
        Totals: Ann 0, Bo 0.
    """
    return view_blocks(obj, seat, open_hands=open_hands, tricks=tricks, results=results, highlight=True).text


def card_svg(c: CardLike | None, *, rules: Rules | None = None, standalone: bool = False) -> str:
    """Draw one card; None draws a card face down.

    Args:
        c: The card, or its text (`"QS"`, `"10H"`, `"42"`); None for the back of a card.
        rules: The game's rules, to print the cucumbers of a numbered card (Cucumber
            Catastrophe's, Five Cucumbers') on it.
        standalone: Bring a background, for a picture shown on its own.

    Example:
        >>> picture = card_svg("QS")
        >>> 'aria-label="QS (queen of spades)"' in picture
        True
        >>> import cucumber_rules as cr
        >>> card_svg("35", rules=cr.ruleset("catastrophe")).count('fill="#388e3c"')   # five cucumbers
        5
    """
    face = None if c is None else as_card(c)
    words = "A card, face down" if face is None else card_words(face)
    return svg_document(
        Block(card_picture(face, 0, 0, rules), CARD_W, CARD_H, words), standalone=standalone, pad=4
    )


def hand_svg(
    cards: Iterable[CardLike],
    *,
    rules: Rules | None = None,
    legal: Iterable[CardLike] = (),
    label: str = "Hand",
    standalone: bool = False,
) -> str:
    """Draw a hand of cards face up in a row, the `legal` ones lifted and outlined.

    Example:
        >>> picture = hand_svg(["3C", "7H", "QS"], legal=["7H"], label="Your hand")
        >>> 'aria-label="Your hand: 3C, 7H, QS; playable: 7H."' in picture
        True
    """
    shown = [as_card(c) for c in cards]
    playable = [as_card(c) for c in legal]
    row, width = hand_block(shown, rules, legal=playable, x0=0, lift=8)
    text = f"{label}: {cards_text(shown)}" + (f"; playable: {cards_text(playable)}" if playable else "") + "."
    return svg_document(Block(row, max(width, CARD_W), CARD_H + 8, text), standalone=standalone)


def trick_svg(
    trick: Trick | Sequence[Play],
    players: Sequence[str],
    *,
    rules: Rules | None = None,
    marker: str | None = None,
    revealed: CardLike | None = None,
    title: str = "Trick",
    standalone: bool = False,
) -> str:
    """Draw one trick: each player's card in the order played, who led and who takes it.

    Args:
        trick: A completed `Trick` (its taker, marker and revealed card are drawn), or
            the plays of a trick in progress.
        players: The seats' names.
        rules: The rules: the game draws what it shows beside a trick (Catastrophe: the Trick
            Marker and the revealed card), and cards show their cucumbers.
        marker: For plays in progress in Catastrophe, the Trick Marker now (`"high"`, `"low"`,
            `"high-broken"`, `"low-broken"` or None).
        revealed: For plays in progress in Catastrophe, Surprise Cucumber's revealed card.
        title: The heading drawn above the trick.
        standalone: Bring a background, for a picture shown on its own.

    Example:
        >>> import cucumber_rules as cr
        >>> t = cr.CatastropheTrick(leader=0, plays=(cr.Play(0, "22"), cr.Play(1, "30"), cr.Play(2, "27")),
        ...                         taker=1, marker=cr.Marker.HIGH)
        >>> picture = trick_svg(t, ["Rick", "Martha", "Andrew"], rules=cr.ruleset("catastrophe"))
        >>> print(*picture.split('aria-label="')[1].split('"')[0].split(". "), sep="\\n")
        Trick: Rick 22, Martha 30, Andrew 27
        Trick Marker High (the highest card wins)
        Martha takes the trick.
    """
    source: Trick | _Pending = trick if isinstance(trick, Trick) else _Pending(marker, revealed)
    shown, badge = Pictures.of(game_of(rules)).trick_extras(source) if rules is not None else (None, None)  # type: ignore[arg-type]
    plays = trick.plays if isinstance(trick, Trick) else tuple(trick)
    taker = trick.taker if isinstance(trick, Trick) else None
    block = trick_block(plays, players, rules, title=title, taker=taker, badge=badge, revealed=shown)
    return svg_document(block, standalone=standalone)


def results_svg(obj: State | PlayerView, *, last: int = 8, standalone: bool = False) -> str:
    """Draw the scores: each finished round's points (the last `last` rounds), the totals, marks, winners.

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("agurk", hand_size=1), players=["Ann", "Bo", "Cy"])
        >>> state = cr.apply_all(state, [cr.Deal(hands=[["KC"], ["KD"], ["2H"]]),
        ...                              cr.Play(0, "KC"), cr.Play(1, "KD"), cr.Play(2, "2H")])
        >>> print(results_svg(state).split('aria-label="')[1].split('"')[0])
        Scores: round 1: Ann 0, Bo 13, Cy 0. Totals: Ann 0, Bo 13, Cy 0.
    """
    return svg_document(results_block(view_of(obj, None), last=last), standalone=standalone)
