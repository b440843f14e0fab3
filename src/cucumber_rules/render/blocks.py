"""The parts of a table picture: a hand, a trick with its badge, the seats, the scores, the header.

`view_blocks` puts together what `svg` and `describe` draw for one seat's view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import Play
from ..cards import Card
from ..game import game_of
from ..rules import Rules
from ..state import CHANCE, State, Trick
from ..views import PlayerView, view
from .hooks import Badge, Pictures
from .primitives import (
    BADGE_COLOURS,
    CARD_H,
    CARD_W,
    MARKER_COLOURS,
    Block,
    attr_text,
    card_picture,
    cards_text,
    fit_text,
    num,
    stack,
    text_element,
    text_width,
)

# --- blocks -------------------------------------------------------------------------------------------


def hand_block(
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
        parts.append(card_picture(c, x0 + i * step, lift - (lift if up else 0), rules, legal=up))
    width = (len(cards) - 1) * step + CARD_W if cards else 0
    return "".join(parts), width


def trick_block(
    plays: Sequence[Play],
    players: Sequence[str],
    rules: Rules | None,
    *,
    title: str,
    taker: int | None = None,
    badge: Badge | None = None,
    revealed: Card | None = None,
) -> Block:
    cell = CARD_W + 20
    top = 22.0
    parts = [text_element(0, 13, title, size=13, weight="700")]
    x = 0.0
    wide = text_width(title, 13, "700")  # the widest line that starts at the left edge
    words = []
    if revealed is not None:
        parts.append(text_element(x + cell / 2, top + 11, "revealed", size=11, anchor="middle"))
        parts.append(card_picture(revealed, x + 10, top + 16, rules, dashed=True))
        words.append(f"revealed {revealed}")
        x += cell
    for i, play in enumerate(plays):
        takes = taker is not None and play.seat == taker and _taking_play(plays, taker) == i
        weight = "700" if takes else "normal"
        name = fit_text(players[play.seat], cell - 4, 11, weight)
        parts.append(text_element(x + cell / 2, top + 11, name, size=11, anchor="middle", weight=weight))
        parts.append(card_picture(play.card, x + 10, top + 16, rules, taker=takes))
        below = "takes" if takes else ("led" if i == 0 and revealed is None else "")
        if below:
            parts.append(
                text_element(
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
        empty = "No cards on the table yet."
        parts.append(text_element(0, top + 16 + CARD_H / 2, empty, size=12))
        x = text_width(empty, 12) + 4
    text = f"{title}: " + ", ".join(words) + "." if words else "No cards on the table yet."
    if badge is not None:
        drawn, across = _badge(badge, x + 14, top + 16)
        parts.append(drawn)
        x += 14 + across
        text += f" {badge.text}."
    if taker is not None:
        text += f" {players[taker]} takes the trick."
    height = top + 16 + CARD_H + 20
    return Block("".join(parts), max(x, wide, 200), height, text)


def _taking_play(plays: Sequence[Play], taker: int) -> int:
    """The index of the taker's card in the trick (a seat plays once per trick)."""
    for i, play in enumerate(plays):
        if play.seat == taker:
            return i
    return -1


def _badge(badge: Badge, x: float, y: float) -> tuple[str, float]:
    """A game's badge beside a trick (Catastrophe's two-sided Trick Marker), crossed out when struck,
    drawn from `x`; and how wide it is, with its caption."""
    r = 24
    across = max(2.0 * r + 4, text_width(badge.meaning, 11) + 4, text_width(badge.word, 14) + 4)
    cx, cy = x + across / 2, y + 26
    return _badge_parts(badge, cx, cy, r), across


def _badge_parts(badge: Badge, cx: float, cy: float, r: float) -> str:
    if badge.side is None:
        return (
            f'<g class="cr-marker"><circle cx="{num(cx)}" cy="{num(cy)}" r="{r}" fill="none" '
            f'stroke="currentColor" stroke-dasharray="4 3"/>'
            + text_element(cx, cy + 4, badge.word, size=14, anchor="middle")
            + text_element(cx, cy + r + 16, badge.meaning, size=11, anchor="middle")
            + "</g>"
        )
    colour = MARKER_COLOURS.get(badge.side, BADGE_COLOURS[sum(map(ord, badge.side)) % len(BADGE_COLOURS)])
    data = f" data-marker={attr_text(badge.key)}" if badge.key is not None else ""
    parts = [
        f'<g class="cr-marker"{data}>',
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{r}" fill="{colour}" stroke="#ffffff" stroke-width="2"/>',
        text_element(cx, cy - 1, badge.word, size=11, weight="700", anchor="middle", fill="#ffffff"),
        text_element(cx, cy + 13, badge.arrow, size=11, anchor="middle", fill="#ffffff"),
    ]
    if badge.struck:
        d = r * 0.72
        parts.append(
            f'<line x1="{num(cx - d)}" y1="{num(cy + d)}" x2="{num(cx + d)}" y2="{num(cy - d)}" '
            f'stroke="#ffffff" stroke-width="3"/>'
        )
    parts.append(text_element(cx, cy + r + 16, badge.meaning, size=11, anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def _unit(rules: Rules) -> str:
    return game_of(rules).unit


def _points(rules: Rules) -> str:
    return Pictures.of(game_of(rules)).points_word(rules)


def results_block(v: PlayerView, *, last: int = 8) -> Block:
    players = v.players
    unit = _unit(v.rules)
    pictures = Pictures.of(game_of(v.rules))
    shown = v.results[-last:]
    rows = [
        (f"{unit} {r.number}", [f"{p}{pictures.result_note(r, s)}" for s, p in enumerate(r.points)])
        for r in shown
    ]
    totals_row = []
    for seat, total in enumerate(v.totals):
        cell = str(total) + (" out" if pictures.is_out(v, seat) else "")
        totals_row.append(cell + (" ★" if seat in v.winners else ""))
    # The columns are as wide as their widest cell (a name is shortened to the width of a number column).
    name_w = max(
        70.0, *(text_width(label, 11) + 10 for label, _ in rows), text_width("total", 11, "700") + 10
    )
    cells = [c for _, row in rows for c in row]
    col_w = max(
        64.0, *(text_width(c, 11) + 8 for c in cells), *(text_width(c, 11, "700") + 8 for c in totals_row)
    )
    row_h = 18.0
    title = f"Scores ({_points(v.rules)})"
    parts = [text_element(0, 13, title, size=13, weight="700")]
    lines = [text_width(title, 13, "700")]  # the widths of the lines drawn from the left edge
    y = 34.0
    for seat, name in enumerate(players):
        x = name_w + seat * col_w + col_w / 2
        parts.append(
            text_element(x, y, fit_text(name, col_w - 6, 11, "700"), size=11, weight="700", anchor="middle")
        )
    if len(v.results) > len(shown):
        y += row_h
        earlier = f"… {len(v.results) - len(shown)} earlier {unit}s"
        parts.append(text_element(0, y, earlier, size=11))
        lines.append(text_width(earlier, 11))
    for label, row in rows:
        y += row_h
        parts.append(text_element(0, y, label, size=11))
        for seat, cell in enumerate(row):
            parts.append(text_element(name_w + seat * col_w + col_w / 2, y, cell, size=11, anchor="middle"))
    y += 6
    parts.append(
        f'<line x1="0" y1="{num(y)}" x2="{num(name_w + len(players) * col_w)}" y2="{num(y)}" '
        f'stroke="currentColor" stroke-width="1"/>'
    )
    y += row_h
    parts.append(text_element(0, y, "total", size=11, weight="700"))
    for seat, cell in enumerate(totals_row):
        parts.append(
            text_element(name_w + seat * col_w + col_w / 2, y, cell, size=11, weight="700", anchor="middle")
        )
    text_rows = [
        f"{unit} {r.number}: " + ", ".join(f"{players[s]} {p}" for s, p in enumerate(r.points)) for r in shown
    ]
    notes = []
    note = pictures.results_note(v)
    if note:
        y += row_h
        parts.append(text_element(0, y, note, size=11))
        lines.append(text_width(note, 11))
        plain = note.removeprefix("✱ ")  # (not `capitalize()`: it lowers the players' names)
        notes.append(plain[:1].upper() + plain[1:] + ".")
    if v.winners:
        y += row_h
        won = " and ".join(players[s] for s in v.winners)
        line = f"★ {won} {'win' if len(v.winners) > 1 else 'wins'} the match"
        parts.append(text_element(0, y, line, size=11, weight="700"))
        lines.append(text_width(line, 11, "700"))
        notes.append(f"{won} {'win' if len(v.winners) > 1 else 'wins'} the match.")
    totals = ", ".join(
        f"{players[s]} {t}" + (" (out)" if pictures.is_out(v, s) else "") for s, t in enumerate(v.totals)
    )
    text = "Scores: " + "; ".join(text_rows) + (". " if text_rows else "") + f"Totals: {totals}."
    if notes:
        text += " " + " ".join(notes)
    width = max(name_w + len(players) * col_w, 260, *lines)
    return Block("".join(parts), width, y + 8, text)


def _seat_rows(
    v: PlayerView, hands: Sequence[Sequence[Card] | None], legal: Sequence[Card], *, totals: bool = True
) -> Block:
    """One row per seat: name, hand (faces, or backs), total; `legal` (of the seat to act) outlined.

    The text ends with the totals, unless a results block below says them (`totals=False`).
    """
    players, rules = v.players, v.rules
    row_h = CARD_H + 22.0
    parts: list[str] = []
    texts: list[str] = []
    width = 0.0
    game = game_of(rules)
    pictures = Pictures.of(game)
    notes = []  # per seat, under its name: "dealer, you", then its total
    for seat in range(len(players)):
        shown = (seat == v.dealer and game.shows_dealer, v.seat == seat, pictures.is_out(v, seat))
        marks = [mark for mark, on in zip(("dealer", "you", "out"), shown, strict=True) if on]
        total = f"{v.totals[seat]} {_points(rules)}" + pictures.total_note(v, seat)
        notes.append((", ".join(marks), total))
    # The cards start right of the widest note (a name is shortened to fit there).
    name_w = max(104.0, *(text_width(t, 11) + 8 for pair in notes for t in pair))
    for seat, name in enumerate(players):
        y = seat * row_h
        acting = v.to_act == seat
        weight = "700" if acting else "normal"
        label = ("▶ " if acting else "") + name
        parts.append(text_element(0, y + 26, fit_text(label, name_w - 8, 13, weight), size=13, weight=weight))
        marked, total = notes[seat]
        if marked:
            parts.append(text_element(0, y + 42, marked, size=11))
        parts.append(text_element(0, y + 58, total, size=11))
        hand = hands[seat]
        if hand is None:
            cards: list[Card | None] = [None] * v.hand_sizes[seat]
        else:
            cards = list(hand)
        playable = legal if acting and hand is not None else ()
        row, row_w = hand_block(cards, rules, legal=playable, x0=name_w, lift=8)
        parts.append(f'<g transform="translate(0 {num(y)})">{row}</g>')
        if hand is None and cards:
            count = f"× {len(cards)}"
            parts.append(text_element(name_w + row_w + 8, y + 8 + CARD_H / 2 + 4, count, size=12))
            row_w += max(40, 8 + text_width(count, 12) + 4)
        width = max(width, name_w + row_w)
        extra = pictures.seat_note(v, seat)
        if extra:
            x = name_w + row_w + 12 if cards else name_w
            parts.append(text_element(x, y + 42, extra, size=11))
            width = max(width, x + text_width(extra, 11) + 4)
        if v.seat == seat and hand is not None:
            said = f"Your hand ({name}): {cards_text(hand)}"
            if playable:
                said += f"; you may play {cards_text(playable)}"
        elif hand is not None:
            said = f"{name} holds {cards_text(hand)}"
            if playable:
                said += f" and may play {cards_text(playable)}"
        else:
            size = v.hand_sizes[seat]
            said = f"{name} holds {size or 'no'} card{'s' if size != 1 else ''}"
        if pictures.is_out(v, seat):
            said += " (out)"
        if extra:
            said += f"; you have {extra}" if v.seat == seat and hand is not None else f" and has {extra}"
        if v.seat == seat:
            texts.insert(0, said + ".")  # the viewer's own hand first
        else:
            texts.append(said + ".")
    said = "Totals: " + ", ".join(f"{n} {t}" for n, t in zip(players, v.totals, strict=True)) + "."
    return Block("".join(parts), width, len(players) * row_h, " ".join([*texts, *([said] if totals else [])]))


# --- what to draw -------------------------------------------------------------------------------------


def view_of(obj: State | PlayerView, seat: int | None) -> PlayerView:
    if isinstance(obj, PlayerView):
        if seat is not None and seat != obj.seat:
            raise ValueError(f"this view is seat {obj.seat}'s; it cannot be drawn for seat {seat}")
        return obj
    if isinstance(obj, State):
        return view(obj, seat)
    raise TypeError(f"expected a State or a PlayerView, not {type(obj).__name__}")


def _header(v: PlayerView, room: float) -> Block:
    """The picture's heading: the game, round and trick, then whose turn it is. It takes one line if
    that fits in `room` (the width of the rest of the picture), else two."""
    rules = v.rules
    name = game_of(rules).preset_titles.get(rules.name, rules.name)
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
    width = text_width(text, 14, "700")
    if width <= room or not turn:
        return Block(text_element(0, 14, text, size=14, weight="700"), width, 20, text)
    body = text_element(0, 14, line, size=14, weight="700") + text_element(0, 32, turn, size=14, weight="700")
    return Block(body, max(text_width(line, 14, "700"), text_width(turn, 14, "700")), 38, text)


def _tricks_to_draw(v: PlayerView, tricks: str) -> list[Block]:
    pictures = Pictures.of(game_of(v.rules))

    def block(plays: Sequence[Play], source: Trick | PlayerView, title: str, taker: int | None) -> Block:
        revealed, badge = pictures.trick_extras(source)
        return trick_block(
            plays, v.players, v.rules, title=title, taker=taker, badge=badge, revealed=revealed
        )

    blocks = []
    done = v.tricks
    if tricks == "round":
        for number, t in enumerate(done, start=1):
            blocks.append(block(t.plays, t, f"Trick {number}", t.taker))
    in_progress = bool(v.trick) or pictures.trick_extras(v)[0] is not None
    if in_progress:
        blocks.append(block(v.trick, v, f"Trick {len(done) + 1}", None))
    elif done and tricks == "current":
        t = done[-1]
        blocks.append(block(t.plays, t, f"Trick {len(done)} (complete)", t.taker))
    elif v.round_number and not done:
        blocks.append(block((), v, f"Trick {len(done) + 1}", None))
    return blocks


def view_blocks(
    obj: State | PlayerView,
    seat: int | None,
    *,
    open_hands: bool,
    tricks: str,
    results: bool | None,
    highlight: bool,
) -> Block:
    if tricks not in ("current", "round", "none"):
        raise ValueError(f"tricks is 'current', 'round' or 'none', not {tricks!r}")
    v = view_of(obj, seat)
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
    blocks = _tricks_to_draw(v, tricks) if tricks != "none" else []
    show_results = bool(v.results) if results is None else results
    if v.round_number or open_hands:
        blocks.append(_seat_rows(v, hands, cards, totals=not show_results))  # (the results say the totals)
    if show_results:
        blocks.append(results_block(v))
    return stack([_header(v, max((b.width for b in blocks), default=0)), *blocks])
