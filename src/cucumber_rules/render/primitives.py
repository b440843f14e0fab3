"""The pictures' building blocks: the look (sizes, colours), SVG text, one card, a block and its `<svg>`."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import Final, SupportsIndex
from xml.sax.saxutils import escape, quoteattr

import attrs

from ..cards import Card, card
from ..game import game_of
from ..rules import Rules
from .hooks import Pictures

# --- look ---------------------------------------------------------------------------------------------

CARD_W = 46
CARD_H = 66
_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
_FACE = "#fffdf7"  # the card's face: a light, warm white in either page theme
_EDGE = "#4a4a4a"
_INK = "#1b1b1b"  # black suits and numbers on the face (contrast 16:1 on the face)
_RED = "#c62828"  # red suits (contrast 5.5:1 on the face)
_BACK = "#2e7d32"
_BACK_LINE = "#a5d6a7"
_CUCUMBER = "#388e3c"
_CUCUMBER_EDGE = "#1b5e20"
_LEGAL = "#e65100"  # outline of a card the viewer may play
_TAKER = "#f9a825"  # outline of the card that takes the trick
MARKER_COLOURS = {"high": "#1565c0", "low": "#6a1b9a"}  # Catastrophe's two sides
_TABLE = "#1f4d2b"  # standalone pictures: the table
_TABLE_TEXT = "#f4f4ee"
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
BADGE_COLOURS = ("#1565c0", "#6a1b9a", "#00695c", "#ad1457")  # a badge's sides, in order of appearance

CardLike = Card | str | SupportsIndex


@attrs.frozen
class Block:
    """A piece of a picture: SVG elements drawn from (0, 0), its size, and what it shows in words."""

    body: str
    width: float
    height: float
    text: str


# --- small helpers ------------------------------------------------------------------------------------


def attr_text(value: object) -> str:
    return quoteattr(str(value))


def num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def text_element(
    x: float,
    y: float,
    content: str,
    *,
    size: float = 12,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = "currentColor",
    extra: str = "",
) -> str:
    attrs_ = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}"'
    if weight != "normal":
        attrs_ += f' font-weight="{weight}"'
    if anchor != "start":
        attrs_ += f' text-anchor="{anchor}"'
    return f"<text {attrs_}{extra}>{escape(content)}</text>"


#: Advance widths of the characters " " to "~" in DejaVu Sans, regular and bold, in thousandths of an
#: em. DejaVu Sans is the widest of the usual sans-serif fonts the pictures' font list ends in (Linux's
#: default; Helvetica, Arial, Roboto, Segoe UI and San Francisco are narrower), so text measured with it
#: fits in whichever font the reader's browser picks. Any other character counts as a whole em: wider
#: than any of DejaVu's (the suits, ★, ▶ and … included).
_DEJAVU_SANS: Final = """
    318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 636 636
    636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 557 863 748 787
    603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 635 550 635 615 352 635
    634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 592 592 525 636 337 636 838
"""
_DEJAVU_SANS_BOLD: Final = """
    348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 696 696
    696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 637 995 837 850
    733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 716 593 716 678 435 716
    712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 645 652 582 712 365 712 838
"""
_WIDTHS: Final = {
    bold: tuple(map(int, table.split())) for bold, table in ((False, _DEJAVU_SANS), (True, _DEJAVU_SANS_BOLD))
}


def text_width(content: str, size: float = 12, weight: str = "normal") -> float:
    """The width of a line of SVG text at most, in the picture's units (see `_WIDTHS`).

    Example:
        >>> round(text_width("You to play.", 14, "700"), 1), round(text_width("You to play.", 14), 1)
        (94.5, 83.1)
    """
    table = _WIDTHS[weight != "normal"]
    thousandths = sum(table[o - 32] if 32 <= (o := ord(ch)) <= 126 else 1000 for ch in content)
    return thousandths * size / 1000


def fit_text(content: str, width: float, size: float = 12, weight: str = "normal") -> str:
    """`content`, shortened with "…" if need be so that it is at most `width` wide (see `text_width`).

    Example:
        >>> fit_text("Ann", 60, 11), fit_text("Wolfgang Amadeus", 60, 11)
        ('Ann', 'Wolfgan…')
    """
    if text_width(content, size, weight) <= width:
        return content
    while content and text_width(content + "…", size, weight) > width:
        content = content[:-1]
    return content.rstrip() + "…"


def as_card(value: CardLike) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return card(value)
    if not isinstance(value, bool) and hasattr(type(value), "__index__"):  # a number (numpy ints too)
        return card(operator.index(value))
    raise TypeError(f"a card is a Card, card text such as 'QS', or a number, not {type(value).__name__}")


def _cucumbers(c: Card, rules: Rules | None) -> int:
    """The cucumbers printed on a card under these rules (0 when the game prints none)."""
    return 0 if rules is None else Pictures.of(game_of(rules)).card_icons(rules, c)


def _cucumber_glyph(x: float, y: float, length: float = 7.0) -> str:
    """A small cucumber: a green capsule, slightly tilted, centred on (x, y)."""
    return (
        f'<rect x="{num(x - length / 2)}" y="{num(y - 2)}" width="{num(length)}" height="4" rx="2" '
        f'fill="{_CUCUMBER}" stroke="{_CUCUMBER_EDGE}" stroke-width="0.6" '
        f'transform="rotate(-20 {num(x)} {num(y)})"/>'
    )


# --- cards --------------------------------------------------------------------------------------------


def _card_face(c: Card, rules: Rules | None) -> str:
    if c.suit is not None:
        colour = _RED if c.suit in "HD" else _INK
        rank = _RANK_LABELS.get(c.rank, str(c.rank))
        symbol = _SUIT_SYMBOLS[c.suit]
        return "".join(
            [
                text_element(5, 15, rank, size=13, weight="700", fill=colour),
                text_element(5, 28, symbol, size=12, fill=colour),
                text_element(CARD_W / 2 + 2, 51, symbol, size=24, anchor="middle", fill=colour),
            ]
        )
    parts = [
        text_element(5, 13, str(c.rank), size=10, weight="700", fill=_INK),
        text_element(CARD_W / 2, 40, str(c.rank), size=20, weight="700", anchor="middle", fill=_INK),
    ]
    count = _cucumbers(c, rules)
    if count:
        step = 8.0
        start = CARD_W / 2 - step * (count - 1) / 2
        parts += [_cucumber_glyph(start + i * step, 55) for i in range(count)]
    return "".join(parts)


def card_picture(
    c: Card | None,
    x: float,
    y: float,
    rules: Rules | None,
    *,
    legal: bool = False,
    taker: bool = False,
    dashed: bool = False,
) -> str:
    """One card at (x, y); face down when `c` is None."""
    if c is None:
        return (
            f'<g class="cr-card cr-back" transform="translate({num(x)} {num(y)})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_BACK}" stroke="{_BACK_LINE}"/>'
            f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="3" fill="none" '
            f'stroke="{_BACK_LINE}" stroke-width="1" stroke-dasharray="3 2"/>'
            f"{_cucumber_glyph(CARD_W / 2, CARD_H / 2, 16)}</g>"
        )
    classes = "cr-card" + (" cr-legal" if legal else "") + (" cr-taker" if taker else "")
    stroke, width = (_LEGAL, 3.0) if legal else (_TAKER, 3.0) if taker else (_EDGE, 1.0)
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<g class="{classes}" data-card={attr_text(c)} transform="translate({num(x)} {num(y)})">'
        f"<title>{escape(card_words(c))}</title>"
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_FACE}" stroke="{stroke}" '
        f'stroke-width="{num(width)}"{dash}/>'
        f"{_card_face(c, rules)}</g>"
    )


def card_words(c: Card) -> str:
    if c.suit is None:
        return str(c)
    rank = {11: "jack", 12: "queen", 13: "king", 14: "ace"}.get(c.rank, str(c.rank))
    return f"{c} ({rank} of {_SUIT_NAMES[c.suit]})"


def cards_text(cards: Iterable[Card]) -> str:
    return ", ".join(str(c) for c in cards) or "no cards"


# --- layout -------------------------------------------------------------------------------------------


def stack(blocks: Sequence[Block], gap: float = 14) -> Block:
    parts = []
    y = 0.0
    width = 0.0
    for i, block in enumerate(blocks):
        if i:
            y += gap
        parts.append(f'<g transform="translate(0 {num(y)})">{block.body}</g>')
        y += block.height
        width = max(width, block.width)
    return Block("".join(parts), width, y, " ".join(b.text for b in blocks if b.text))


def svg_document(block: Block, *, standalone: bool, pad: float = 12) -> str:
    """Wrap a block in an accessible `<svg>` element."""
    width = block.width + 2 * pad
    height = block.height + 2 * pad
    label = block.text
    background = ""
    colour = ""
    if standalone:
        background = f'<rect width="100%" height="100%" rx="10" fill="{_TABLE}"/>'
        colour = f' color="{_TABLE_TEXT}"'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cr-picture" role="img" '
        f"aria-label={attr_text(label)} "
        f'viewBox="0 0 {num(width)} {num(height)}" width="{num(width)}" height="{num(height)}" '
        f'style="max-width: 100%; height: auto" font-family="{_FONT}"{colour}>'
        f"<title>{escape(label)}</title>{background}"
        f'<g transform="translate({num(pad)} {num(pad)})">{block.body}</g></svg>'
    )
