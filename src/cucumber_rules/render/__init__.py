"""Pictures of the table: hands, tricks and results as SVG, for pages, apps and docs.

[`svg`][cucumber_rules.render.svg] draws what one seat (or a spectator) may see of a
match: the trick on the table with who played what and in which order, the Trick
Marker's side in Cucumber Catastrophe, who takes the trick, every seat's hand (the
viewer's own face up, the others face down), the running totals and the finished
rounds. The smaller helpers draw one card, one hand, one trick or the results table.

Every picture is one self-contained `<svg>` element, deterministic (the same input
gives the same text) and accessible: it has `role="img"`, an `aria-label` and a
`<title>` that say in words what it shows (`"Your hand: 3C, 7H, ..."`). Cards have a
neutral face with dark ink, so they read the same on a light or a dark page; the
labels around them are drawn in `currentColor`, the text colour of the page they
are placed in. Pass `standalone=True` for a picture shown on its own (an image file):
it then brings its own dark green table and light text. Each card is a group
`<g class="cr-card" data-card="QS">` (`cr-legal` added for a card the viewer may
play), so a page can style the pictures with CSS or make cards clickable.

Given a `State`, the functions draw it through [`view`][cucumber_rules.view] for the
seat asked for, so a picture never shows a card that seat may not see. Only
`open_hands=True` shows every hand face up (a worked example, a replay): each hand
is then taken from its own seat's view.

Example:
    >>> import cucumber_rules as cr
    >>> from cucumber_rules import render
    >>> state = cr.new_game(cr.ruleset("gurka", hand_size=2), players=["Ann", "Bo"])
    >>> state = cr.apply(state, cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
    >>> picture = render.svg(state, seat=1)
    >>> picture.startswith("<svg") and 'role="img"' in picture
    True
    >>> print(*render.describe(state, seat=1).split(". "), sep="\\n")
    Gurka, round 1, trick 1 of 2
    Ann to play
    No cards on the table yet
    Your hand (Bo): 3H, AS
    Ann holds 2 cards
    Totals: Ann 0, Bo 0.
"""

from __future__ import annotations

from .hooks import Badge, Pictures
from .pictures import card_svg, describe, hand_svg, results_svg, svg, trick_svg

__all__ = ["Badge", "Pictures", "card_svg", "describe", "hand_svg", "results_svg", "svg", "trick_svg"]
