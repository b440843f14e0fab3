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

from collections.abc import Iterable, Sequence
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

import attrs

from cucumber_rules import CHANCE, GAMES, Card, Game, Play, PlayerView, Rules, State, Trick, card, view
from cucumber_rules.games import Badge

__all__ = ["card_svg", "describe", "hand_svg", "results_svg", "svg", "trick_svg"]

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
_MARKER_COLOURS = {"high": "#1565c0", "low": "#6a1b9a"}  # Catastrophe's two sides
_TABLE = "#1f4d2b"  # standalone pictures: the table
_TABLE_TEXT = "#f4f4ee"
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
_BADGE_COLOURS = ("#1565c0", "#6a1b9a", "#00695c", "#ad1457")  # a badge's sides, in order of appearance

CardLike = Card | str


@attrs.frozen
class _Pending:
    """The plays of a trick in progress, with what a game shows beside them (`trick_svg`)."""

    marker: str | None
    revealed: CardLike | None

    def __attrs_post_init__(self) -> None:
        if self.revealed is not None:
            object.__setattr__(self, "revealed", _as_card(self.revealed))


@attrs.frozen
class _Block:
    """A piece of a picture: SVG elements drawn from (0, 0), its size, and what it shows in words."""

    body: str
    width: float
    height: float
    text: str


# --- small helpers ------------------------------------------------------------------------------------


def _attr(value: object) -> str:
    return quoteattr(str(value))


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(
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
    attrs_ = f'x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{fill}"'
    if weight != "normal":
        attrs_ += f' font-weight="{weight}"'
    if anchor != "start":
        attrs_ += f' text-anchor="{anchor}"'
    return f"<text {attrs_}{extra}>{escape(content)}</text>"


def _short(name: str, limit: int = 10) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _as_card(value: CardLike) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return card(value)
    raise TypeError(f"a card is a Card or card text such as 'QS', not {type(value).__name__}")


def _game(rules: Rules) -> Game:
    return GAMES[rules.game]


def _cucumbers(c: Card, rules: Rules | None) -> int:
    """The cucumbers printed on a card under these rules (0 when the game prints none)."""
    return 0 if rules is None else _game(rules).card_icons(rules, c)


def _cucumber_glyph(x: float, y: float, length: float = 7.0) -> str:
    """A small cucumber: a green capsule, slightly tilted, centred on (x, y)."""
    return (
        f'<rect x="{_num(x - length / 2)}" y="{_num(y - 2)}" width="{_num(length)}" height="4" rx="2" '
        f'fill="{_CUCUMBER}" stroke="{_CUCUMBER_EDGE}" stroke-width="0.6" '
        f'transform="rotate(-20 {_num(x)} {_num(y)})"/>'
    )


# --- cards --------------------------------------------------------------------------------------------


def _card_face(c: Card, rules: Rules | None) -> str:
    if c.suit is not None:
        colour = _RED if c.suit in "HD" else _INK
        rank = _RANK_LABELS.get(c.rank, str(c.rank))
        symbol = _SUIT_SYMBOLS[c.suit]
        return "".join(
            [
                _text(5, 15, rank, size=13, weight="700", fill=colour),
                _text(5, 28, symbol, size=12, fill=colour),
                _text(CARD_W / 2 + 2, 51, symbol, size=24, anchor="middle", fill=colour),
            ]
        )
    parts = [
        _text(5, 13, str(c.rank), size=10, weight="700", fill=_INK),
        _text(CARD_W / 2, 40, str(c.rank), size=20, weight="700", anchor="middle", fill=_INK),
    ]
    count = _cucumbers(c, rules)
    if count:
        step = 8.0
        start = CARD_W / 2 - step * (count - 1) / 2
        parts += [_cucumber_glyph(start + i * step, 55) for i in range(count)]
    return "".join(parts)


def _card(
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
            f'<g class="cr-card cr-back" transform="translate({_num(x)} {_num(y)})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_BACK}" stroke="{_BACK_LINE}"/>'
            f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="3" fill="none" '
            f'stroke="{_BACK_LINE}" stroke-width="1" stroke-dasharray="3 2"/>'
            f"{_cucumber_glyph(CARD_W / 2, CARD_H / 2, 16)}</g>"
        )
    classes = "cr-card" + (" cr-legal" if legal else "") + (" cr-taker" if taker else "")
    stroke, width = (_LEGAL, 3.0) if legal else (_TAKER, 3.0) if taker else (_EDGE, 1.0)
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<g class="{classes}" data-card={_attr(c)} transform="translate({_num(x)} {_num(y)})">'
        f"<title>{escape(_card_words(c))}</title>"
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_FACE}" stroke="{stroke}" '
        f'stroke-width="{_num(width)}"{dash}/>'
        f"{_card_face(c, rules)}</g>"
    )


def _card_words(c: Card) -> str:
    if c.suit is None:
        return str(c)
    rank = {11: "jack", 12: "queen", 13: "king", 14: "ace"}.get(c.rank, str(c.rank))
    return f"{c} ({rank} of {_SUIT_NAMES[c.suit]})"


def _cards_text(cards: Iterable[Card]) -> str:
    return ", ".join(str(c) for c in cards) or "no cards"


# --- blocks -------------------------------------------------------------------------------------------


def _hand_block(
    cards: Sequence[Card | None],
    rules: Rules | None,
    *,
    legal: Iterable[Card] = (),
    x0: float = 0,
    lift: float = 8,
) -> tuple[str, float]:
    """A row of cards (None = face down) from x0; returns the SVG and the row's width."""
    playable = set(legal)
    faces = [c for c in cards if c is not None]
    step = CARD_W + 4 if len(cards) <= 10 and faces else 16 if not faces else 34
    parts = []
    for i, c in enumerate(cards):
        up = c is not None and c in playable
        parts.append(_card(c, x0 + i * step, lift - (lift if up else 0), rules, legal=up))
    width = (len(cards) - 1) * step + CARD_W if cards else 0
    return "".join(parts), width


def _trick_block(
    plays: Sequence[Play],
    players: Sequence[str],
    rules: Rules | None,
    *,
    title: str,
    taker: int | None = None,
    badge: Badge | None = None,
    revealed: Card | None = None,
) -> _Block:
    cell = CARD_W + 20
    top = 22.0
    parts = [_text(0, 13, title, size=13, weight="700")]
    x = 0.0
    words = []
    if revealed is not None:
        parts.append(_text(x + cell / 2, top + 11, "revealed", size=11, anchor="middle"))
        parts.append(_card(revealed, x + 10, top + 16, rules, dashed=True))
        words.append(f"revealed {revealed}")
        x += cell
    for i, play in enumerate(plays):
        takes = taker is not None and play.seat == taker and _taking_play(plays, taker) == i
        name = _short(players[play.seat])
        parts.append(
            _text(x + cell / 2, top + 11, name, size=11, anchor="middle", weight="700" if takes else "normal")
        )
        parts.append(_card(play.card, x + 10, top + 16, rules, taker=takes))
        below = "takes" if takes else ("led" if i == 0 and revealed is None else "")
        if below:
            parts.append(
                _text(
                    x + cell / 2,
                    top + 16 + CARD_H + 14,
                    below,
                    size=11,
                    anchor="middle",
                    weight="700" if takes else "normal",
                )
            )
        words.append(f"{players[play.seat]} {play.card}")
        x += cell
    if not plays and revealed is None:
        parts.append(_text(0, top + 16 + CARD_H / 2, "No cards on the table yet.", size=12))
        x = 180
    text = f"{title}: " + ", ".join(words) + "." if words else "No cards on the table yet."
    if badge is not None:
        parts.append(_badge(badge, x + 14, top + 16))
        x += 14 + 110
        text += f" {badge.text}."
    if taker is not None:
        text += f" {players[taker]} takes the trick."
    height = top + 16 + CARD_H + 20
    return _Block("".join(parts), max(x, 200), height, text)


def _taking_play(plays: Sequence[Play], taker: int) -> int:
    """The index of the taker's card in the trick (a seat plays once per trick)."""
    for i, play in enumerate(plays):
        if play.seat == taker:
            return i
    return -1


def _badge(badge: Badge, x: float, y: float) -> str:
    """A game's badge beside a trick (Catastrophe's two-sided Trick Marker): crossed out when struck."""
    cx, cy, r = x + 40, y + 26, 24
    if badge.side is None:
        return (
            f'<g class="cr-marker"><circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="currentColor" '
            f'stroke-dasharray="4 3"/>'
            + _text(cx, cy + 4, badge.word, size=14, anchor="middle")
            + _text(cx, cy + r + 16, badge.meaning, size=11, anchor="middle")
            + "</g>"
        )
    colour = _MARKER_COLOURS.get(badge.side, _BADGE_COLOURS[sum(map(ord, badge.side)) % len(_BADGE_COLOURS)])
    data = f" data-marker={_attr(badge.key)}" if badge.key is not None else ""
    parts = [
        f'<g class="cr-marker"{data}>',
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}" stroke="#ffffff" stroke-width="2"/>',
        _text(cx, cy - 1, badge.word, size=11, weight="700", anchor="middle", fill="#ffffff"),
        _text(cx, cy + 13, badge.arrow, size=11, anchor="middle", fill="#ffffff"),
    ]
    if badge.struck:
        d = r * 0.72
        parts.append(
            f'<line x1="{_num(cx - d)}" y1="{_num(cy + d)}" x2="{_num(cx + d)}" y2="{_num(cy - d)}" '
            f'stroke="#ffffff" stroke-width="3"/>'
        )
    parts.append(_text(cx, cy + r + 16, badge.meaning, size=11, anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def _unit(rules: Rules) -> str:
    return _game(rules).unit


def _points(rules: Rules) -> str:
    return _game(rules).points_word(rules)


def _results_block(v: PlayerView, *, last: int = 8) -> _Block:
    players = v.players
    unit = _unit(v.rules)
    name_w, col_w, row_h = 70.0, 64.0, 18.0
    parts = [_text(0, 13, f"Scores ({_points(v.rules)})", size=13, weight="700")]
    y = 34.0
    for seat, name in enumerate(players):
        parts.append(
            _text(
                name_w + seat * col_w + col_w / 2, y, _short(name, 9), size=11, weight="700", anchor="middle"
            )
        )
    shown = v.results[-last:]
    if len(v.results) > len(shown):
        y += row_h
        parts.append(_text(0, y, f"… {len(v.results) - len(shown)} earlier {unit}s", size=11))
    for result in shown:
        y += row_h
        parts.append(_text(0, y, f"{unit} {result.number}", size=11))
        for seat, points in enumerate(result.points):
            cell = f"{points}{_game(v.rules).result_note(result, seat)}"
            parts.append(_text(name_w + seat * col_w + col_w / 2, y, cell, size=11, anchor="middle"))
    y += 6
    parts.append(
        f'<line x1="0" y1="{_num(y)}" x2="{_num(name_w + len(players) * col_w)}" y2="{_num(y)}" '
        f'stroke="currentColor" stroke-width="1"/>'
    )
    y += row_h
    parts.append(_text(0, y, "total", size=11, weight="700"))
    for seat, total in enumerate(v.totals):
        cell = str(total) + (" out" if v.eliminated[seat] else "")
        if seat in v.winners:
            cell += " ★"
        parts.append(
            _text(name_w + seat * col_w + col_w / 2, y, cell, size=11, weight="700", anchor="middle")
        )
    text_rows = [
        f"{unit} {r.number}: " + ", ".join(f"{players[s]} {p}" for s, p in enumerate(r.points)) for r in shown
    ]
    notes = []
    if any(v.marks):
        y += row_h
        marks = ", ".join(f"{players[s]} {m}" for s, m in enumerate(v.marks) if m)
        parts.append(_text(0, y, f"✱ cucumber marks: {marks}", size=11))
        notes.append(f"Cucumber marks: {marks}.")
    if v.winners:
        y += row_h
        won = " and ".join(players[s] for s in v.winners)
        parts.append(
            _text(0, y, f"★ {won} {'win' if len(v.winners) > 1 else 'wins'} the match", size=11, weight="700")
        )
        notes.append(f"{won} {'win' if len(v.winners) > 1 else 'wins'} the match.")
    totals = ", ".join(
        f"{players[s]} {t}" + (" (out)" if v.eliminated[s] else "") for s, t in enumerate(v.totals)
    )
    text = "Scores: " + "; ".join(text_rows) + (". " if text_rows else "") + f"Totals: {totals}."
    if notes:
        text += " " + " ".join(notes)
    width = max(name_w + len(players) * col_w, 260)
    return _Block("".join(parts), width, y + 8, text)


def _seat_rows(v: PlayerView, hands: Sequence[Sequence[Card] | None], legal: Sequence[Card]) -> _Block:
    """One row per seat: name, hand (faces, or backs), total; `legal` (of the seat to act) outlined."""
    players, rules = v.players, v.rules
    row_h = CARD_H + 22.0
    name_w = 104.0
    parts: list[str] = []
    texts: list[str] = []
    width = 0.0
    game = _game(rules)
    for seat, name in enumerate(players):
        y = seat * row_h
        acting = v.to_act == seat
        label = ("▶ " if acting else "") + _short(name, 11)
        parts.append(_text(0, y + 26, label, size=13, weight="700" if acting else "normal"))
        notes = []
        if seat == v.dealer and game.shows_dealer:
            notes.append("dealer")
        if v.seat == seat:
            notes.append("you")
        if v.eliminated[seat]:
            notes.append("out")
        if notes:
            parts.append(_text(0, y + 42, ", ".join(notes), size=11))
        total = f"{v.totals[seat]} {_points(rules)}"
        if v.marks[seat]:
            total += f", {v.marks[seat]} mark{'s' if v.marks[seat] > 1 else ''} ✱"
        parts.append(_text(0, y + 58, total, size=11))
        hand = hands[seat]
        if hand is None:
            cards: list[Card | None] = [None] * v.hand_sizes[seat]
        else:
            cards = list(hand)
        playable = legal if acting and hand is not None else ()
        row, row_w = _hand_block(cards, rules, legal=playable, x0=name_w, lift=8)
        parts.append(f'<g transform="translate(0 {_num(y)})">{row}</g>')
        if hand is None and cards:
            parts.append(_text(name_w + row_w + 8, y + 8 + CARD_H / 2 + 4, f"× {len(cards)}", size=12))
            row_w += 40
        width = max(width, name_w + row_w)
        extra = game.seat_note(v, seat)
        if extra:
            parts.append(_text(name_w + row_w + 12 if cards else name_w, y + 42, extra, size=11))
            width = max(width, name_w + row_w + 12 + 170)
        if v.seat == seat and hand is not None:
            said = f"Your hand ({name}): {_cards_text(hand)}"
            if playable:
                said += f"; you may play {_cards_text(playable)}"
        elif hand is not None:
            said = f"{name} holds {_cards_text(hand)}"
            if playable:
                said += f" and may play {_cards_text(playable)}"
        else:
            said = f"{name} holds {v.hand_sizes[seat]} card{'s' if v.hand_sizes[seat] != 1 else ''}"
        if v.eliminated[seat]:
            said += " (out)"
        if extra:
            said += f" and has {extra}"
        if v.seat == seat:
            texts.insert(0, said + ".")  # the viewer's own hand first
        else:
            texts.append(said + ".")
    totals = "Totals: " + ", ".join(f"{n} {t}" for n, t in zip(players, v.totals, strict=True)) + "."
    return _Block("".join(parts), width, len(players) * row_h, " ".join([*texts, totals]))


def _stack(blocks: Sequence[_Block], gap: float = 14) -> _Block:
    parts = []
    y = 0.0
    width = 0.0
    for i, block in enumerate(blocks):
        if i:
            y += gap
        parts.append(f'<g transform="translate(0 {_num(y)})">{block.body}</g>')
        y += block.height
        width = max(width, block.width)
    return _Block("".join(parts), width, y, " ".join(b.text for b in blocks if b.text))


def _document(block: _Block, *, standalone: bool, pad: float = 12) -> str:
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
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cr-picture" role="img" aria-label={_attr(label)} '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" height="{_num(height)}" '
        f'style="max-width: 100%; height: auto" font-family="{_FONT}"{colour}>'
        f"<title>{escape(label)}</title>{background}"
        f'<g transform="translate({_num(pad)} {_num(pad)})">{block.body}</g></svg>'
    )


# --- what to draw -------------------------------------------------------------------------------------


def _view_of(obj: State | PlayerView, seat: int | None) -> PlayerView:
    if isinstance(obj, PlayerView):
        if seat is not None and seat != obj.seat:
            raise ValueError(f"this view is seat {obj.seat}'s; it cannot be drawn for seat {seat}")
        return obj
    if isinstance(obj, State):
        return view(obj, seat)
    raise TypeError(f"expected a State or a PlayerView, not {type(obj).__name__}")


def _header(v: PlayerView) -> _Block:
    rules = v.rules
    name = _game(rules).preset_titles.get(rules.name, rules.name)
    parts = [name]
    if v.round_number:
        done = len(v.tricks)
        total = done + max(v.hand_sizes, default=0)
        number = done + 1 if total > done else done
        parts.append(f"{_unit(rules)} {v.round_number}")
        if total:
            parts.append(f"trick {min(number, total)} of {total}")
    line = ", ".join(parts) + "."
    if v.is_over:
        won = " and ".join(v.players[s] for s in v.winners)
        turn = f"The match is over: {won} {'win' if len(v.winners) > 1 else 'wins'}."
    elif v.to_act == CHANCE:
        turn = "A deal is due." if not v.round_number else f"The {_unit(rules)} is over; a deal is due."
    elif v.to_act is not None and not any(v.hand_sizes) and not v.trick:
        turn = f"{v.players[v.to_act]} has a decision to take."
    elif v.to_act is not None:
        turn = f"{v.players[v.to_act]} to play."
    else:
        turn = ""
    text = f"{line} {turn}".strip()
    return _Block(_text(0, 14, text, size=14, weight="700"), min(len(text) * 7.2, 640), 20, text)


def _tricks_to_draw(v: PlayerView, tricks: str) -> list[_Block]:
    game = _game(v.rules)

    def block(plays: Sequence[Play], source: Trick | PlayerView, title: str, taker: int | None) -> _Block:
        revealed, badge = game.trick_extras(source)
        return _trick_block(
            plays, v.players, v.rules, title=title, taker=taker, badge=badge, revealed=revealed
        )

    blocks = []
    done = v.tricks
    if tricks == "round":
        for number, t in enumerate(done, start=1):
            blocks.append(block(t.plays, t, f"Trick {number}", t.taker))
    in_progress = bool(v.trick) or game.trick_extras(v)[0] is not None
    if in_progress:
        blocks.append(block(v.trick, v, f"Trick {len(done) + 1}", None))
    elif done and tricks == "current":
        t = done[-1]
        blocks.append(block(t.plays, t, f"Trick {len(done)} (complete)", t.taker))
    elif v.round_number and not done:
        blocks.append(block((), v, f"Trick {len(done) + 1}", None))
    return blocks


def _blocks(
    obj: State | PlayerView,
    seat: int | None,
    *,
    open_hands: bool,
    tricks: str,
    results: bool | None,
    highlight: bool,
) -> _Block:
    if tricks not in ("current", "round", "none"):
        raise ValueError(f"tricks is 'current', 'round' or 'none', not {tricks!r}")
    v = _view_of(obj, seat)
    acting = v.to_act if v.to_act is not None and v.to_act >= 0 else None
    if open_hands:
        if not isinstance(obj, State):
            raise ValueError("open_hands=True needs a State: a view holds only its own seat's hand")
        views = [view(obj, s) for s in range(len(v.players))]
        hands: list[Sequence[Card] | None] = [w.hand for w in views]
        legal = views[acting].legal if acting is not None else ()
    else:
        hands = [v.hand if s == v.seat else None for s in range(len(v.players))]
        legal = v.legal if acting is not None and acting == v.seat else ()
    cards = [a.card for a in legal if isinstance(a, Play)] if highlight else []
    blocks = [_header(v)]
    if tricks != "none":
        blocks += _tricks_to_draw(v, tricks)
    if v.round_number or open_hands:
        blocks.append(_seat_rows(v, hands, cards))
    show_results = bool(v.results) if results is None else results
    if show_results:
        blocks.append(_results_block(v))
    return _stack(blocks)


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
    block = _blocks(obj, seat, open_hands=open_hands, tricks=tricks, results=results, highlight=highlight)
    return _document(block, standalone=standalone)


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
    return _blocks(obj, seat, open_hands=open_hands, tricks=tricks, results=results, highlight=True).text


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
    face = None if c is None else _as_card(c)
    words = "A card, face down" if face is None else _card_words(face)
    return _document(_Block(_card(face, 0, 0, rules), CARD_W, CARD_H, words), standalone=standalone, pad=4)


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
    shown = [_as_card(c) for c in cards]
    playable = [_as_card(c) for c in legal]
    row, width = _hand_block(shown, rules, legal=playable, x0=0, lift=8)
    text = (
        f"{label}: {_cards_text(shown)}" + (f"; playable: {_cards_text(playable)}" if playable else "") + "."
    )
    return _document(_Block(row, max(width, CARD_W), CARD_H + 8, text), standalone=standalone)


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
    shown, badge = _game(rules).trick_extras(source) if rules is not None else (None, None)  # type: ignore[arg-type]
    plays = trick.plays if isinstance(trick, Trick) else tuple(trick)
    taker = trick.taker if isinstance(trick, Trick) else None
    block = _trick_block(plays, players, rules, title=title, taker=taker, badge=badge, revealed=shown)
    return _document(block, standalone=standalone)


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
    return _document(_results_block(_view_of(obj, None), last=last), standalone=standalone)
