"""A rule set read once into the tables the kernels look up (`Spec`).

Everything comes from the library's public names: the card ids and their cards from
`cucumber_rules.encoding` (`num_actions`, `action_of`), the deck from `cucumber_rules.DECKS`, the
ladder's penalty values and round limits from `cucumber_rules.games.ladder.rules`, Catastrophe's
cucumbers per card and its If You Can't Beat 'Em bonus from `cucumber_rules.games.catastrophe`.
Nothing is typed in twice: a rules change reaches the kernels through these tables.

Example:
    >>> import cucumber_rules as cr
    >>> s = spec_of(cr.ruleset("gurka"), 4)
    >>> s.family, s.num_cards, s.num_actions, s.forced, s.ace, s.threshold
    ('ladder', 52, 52, True, 14, 30)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs
import numpy as np

from .. import encoding
from ..actions import Play
from ..cards import DECKS
from ..games.catastrophe import CatastropheRules, cucumbers_on
from ..games.catastrophe.rules import BONUS, BONUS_FIVES
from ..games.ladder import LadderRules
from ..games.ladder.rules import penalty_value, round_limit
from ..rules import Rules
from .backend import Array

__all__ = ["BITS", "LADDER_SEATS", "Spec", "lane_players", "spec_of"]

#: Seat bitmasks cover this many seats (the ladder's most; Catastrophe has 6).
LADDER_SEATS: Final = 7
BITS: Final = 1 << LADDER_SEATS


def _frozen(a: Any, dtype: Any) -> Array:
    out = np.array(a, dtype=dtype)
    out.flags.writeable = False
    return out


def _seat_tables() -> tuple[Array, Array, Array]:
    """NEXT[seat * 128 + bits], PREV[...]: the first seat of `bits` clockwise after (before) `seat`
    (`dealing.next_seat` / `previous_seat` over seat bitmasks); RANKPOS: the seats of `bits` below `seat`."""
    nxt = np.zeros(LADDER_SEATS * BITS, np.int32)
    prv = np.zeros(LADDER_SEATS * BITS, np.int32)
    pos = np.zeros(LADDER_SEATS * BITS, np.int32)
    for seat in range(LADDER_SEATS):
        for bits in range(BITS):
            i = seat * BITS + bits
            nxt[i] = next((s % LADDER_SEATS for s in range(seat + 1, seat + 1 + LADDER_SEATS)
                           if bits >> (s % LADDER_SEATS) & 1), seat)  # fmt: skip
            prv[i] = next((s % LADDER_SEATS for s in range(seat - 1, seat - 1 - LADDER_SEATS, -1)
                           if bits >> (s % LADDER_SEATS) & 1), seat)  # fmt: skip
            pos[i] = bin(bits & ((1 << seat) - 1)).count("1")
    for t in (nxt, prv, pos):
        t.flags.writeable = False
    return nxt, prv, pos


NEXT, PREV, RANKPOS = _seat_tables()


def _seat_tables_for(seats: int) -> dict[str, Array]:
    """The `Spec`'s seat tables for lanes of up to `seats` players."""
    j = np.arange(seats)
    relative = np.zeros(((seats + 1) * seats, seats), np.int32)
    rotation = np.zeros(((seats + 1) * seats, seats), np.int32)
    for n in range(1, seats + 1):
        for x in range(seats):
            relative[n * seats + x] = np.where(j < n, (j - x) % n, 0)
            rotation[n * seats + x] = np.where(j < n, (x + j) % n, x)
    return {
        "seated": _frozen(j[None, :] < np.arange(seats + 1)[:, None], bool),
        "bit_seats": _frozen((np.arange(1 << seats)[:, None] >> j[None, :]) & 1, bool),
        "other_seats": _frozen(j[None, :] != j[:, None], bool),
        "relative": _frozen(relative, np.int32),
        "rotation": _frozen(rotation, np.int32),
    }


def _ladder_deal_seats(seats: int, slots: int, hand: int) -> Array:
    """[bits]: the seat each place of the deck goes to, `hand` cards to each seat of `bits` in turn."""
    out = np.full((1 << seats, slots), -1, np.int32)
    for bits in range(1 << seats):
        dealt = [s for s in range(seats) if bits >> s & 1]
        for place in range(min(slots, hand * len(dealt))):
            out[bits, place] = dealt[place // hand]
    return _frozen(out, np.int32)


def _catastrophe_deal_seats(seats: int, slots: int, hand: list[int]) -> Array:
    """[n]: the seat each place of the deck goes to among n players, `hand[n]` cards each."""
    out = np.full((seats + 1, slots), -1, np.int32)
    for n in range(1, seats + 1):
        for place in range(min(slots, n * hand[n])):
            out[n, place] = place // hand[n]
    return _frozen(out, np.int32)


@attrs.frozen(kw_only=True)
class Spec:
    """A rule set as the kernels read it: sizes, flags and lookup tables (read-only arrays).

    Built by `spec_of`; the mutation tests plant rule mutants by evolving one field.

    Example:
        >>> import cucumber_rules as cr
        >>> s = spec_of(cr.ruleset("catastrophe", surprise=True), 6)
        >>> s.family, int(s.hand[6]), int(s.hand[3]), s.max_hand, bool(s.five[4])
        ('catastrophe', 8, 10, 10, True)
    """

    rules: Rules
    family: str
    """`"ladder"` or `"catastrophe"`."""
    seats: int
    """The seat slots of a lane (the most players of the environment)."""
    num_cards: int
    """K: the card ids (`0..K-1`), in the encoding's order (ids rise with rank)."""
    num_actions: int
    deck: Array
    """The deck's cards as ids, one entry per physical card (Five Cucumbers: each id 4 times)."""
    rank: Array
    """The rank (printed number) of each card id."""
    hand: Array
    """Cards dealt to each player, by player count (0 where the count is not allowed)."""
    max_hand: int
    min_players: int
    max_players: int
    unique: bool = True
    """Each card id once in the deck (counts are 0 or 1)."""
    parts: tuple[tuple[str, int, int], ...] = ()
    """The observation's parts for `seats` players: (name, offset, size), in order."""
    # --- seat tables (a row lookup costs a tenth of the broadcast comparison it replaces)
    seated: Array = attrs.field(factory=lambda: _frozen([], bool))
    """seated[n]: (S,) the seats of a lane of n players."""
    bit_seats: Array = attrs.field(factory=lambda: _frozen([], bool))
    """bit_seats[bits]: (S,) the seats set in a seat bitmask."""
    other_seats: Array = attrs.field(factory=lambda: _frozen([], bool))
    """other_seats[x]: (S,) every seat but x."""
    relative: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """relative[n * S + x]: (S,) each seat counted from seat x, among n players (0 past them)."""
    rotation: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """rotation[n * S + x]: (S,) the seat at each place counted from seat x, among n players (x past them)."""
    # --- the ladder
    forced: bool = False
    ace: int = -1
    """The rank that forces the lowest cards when led (`ace_lead`), else -1."""
    value: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """What the last trick costs, by the rank of the card taking it."""
    doubling: str = "none"
    tie_bonus: bool = False
    threshold: int = 0
    lives: int = 1
    rotate: bool = True
    reverse: bool = False
    revival: bool = False
    fixed_rounds: int = 0
    """`fixed_rounds`, or 0 for a match played to elimination."""
    limit: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """The round limit, by player count."""
    ge: Array = attrs.field(factory=lambda: _frozen([], bool))
    """ge[r]: the ids of rank >= r (a row past the top rank: none)."""
    eq: Array = attrs.field(factory=lambda: _frozen([], bool))
    """eq[r]: the ids of rank r."""
    rows: Array = attrs.field(factory=lambda: _frozen([], bool))
    """The ladder: `ge`'s rows, then `eq`'s (forced following takes one of them); Catastrophe: see below."""
    either: Array = attrs.field(factory=lambda: _frozen([], bool))
    """either[high * (top + 1) + low] = ge[high] | eq[low]: the optional follow rule's cards in one row."""
    # --- Catastrophe
    cucumbers: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """Cucumbers by card id, shifted by one: `cucumbers[id + 1]` (`cucumbers[0]` = 0 for no card)."""
    five: Array = attrs.field(factory=lambda: _frozen([], bool))
    """The 5-cucumber card ids."""
    other_first: Array = attrs.field(factory=lambda: _frozen([], np.uint32))
    """Per deck slot: `1 << 31` for a card that is not a 5-cucumber card (If You Can't Beat 'Em's sort
    puts the 5-cucumber cards first), else 0."""
    fives: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """five[id + 1] as 0/1 (shifted by one, as `cucumbers`)."""
    deal_seats: Array = attrs.field(factory=lambda: _frozen([], np.int32))
    """The seat each place of the shuffled deck is dealt to (-1: none): the ladder's rows by the
    bitmask of the seats dealt in, Catastrophe's by the player count."""
    hand_count: int = 0
    surprise: bool = False
    cant_beat_em: bool = False
    bonus: int = 0
    bonus_fives: int = 0
    restrict: Array = attrs.field(factory=lambda: _frozen([], bool))
    """The restriction rows of the rules of play: 0 any card, 1 no 5-cucumber card, 2 + id the ids
    above `id` (High), 2 + K + id the ids below it (Low)."""


def spec_of(rules: Rules, seats: int) -> Spec:
    """Read a rule set into a `Spec` for lanes of up to `seats` players.

    Raises:
        TypeError: For rules of a game the batched engine has no kernel for.

    Example:
        >>> import cucumber_rules as cr
        >>> s = spec_of(cr.ruleset("five-cucumbers"), 6)
        >>> s.num_cards, len(s.deck), s.value.tolist()[:4], s.doubling
        (15, 60, [0, 0, 1, 1], 'per-one')
    """
    if not isinstance(rules, LadderRules | CatastropheRules):
        raise TypeError(
            f"cucumber_rules.batch has kernels for the ladder games and Catastrophe, not for the "
            f"{rules.game} game (a plug-in game has no batched kernel)"
        )
    k = encoding.num_actions(rules)
    cards = []
    for i in range(k):
        action = encoding.action_of(rules, 0, i)
        if type(action) is not Play:
            break
        cards.append(action.card)
    num_cards = len(cards)
    rank = _frozen([c.rank for c in cards], np.int32)
    deck = _frozen(sorted(encoding.action_id(rules, Play(0, c)) for c in DECKS[rules.deck]), np.int32)
    hand = [0] * (seats + 1)
    for n in range(rules.min_players, min(rules.max_players, seats) + 1):
        hand[n] = rules.cards_per_player(n)
    parts = []
    at = 0
    for name, size in encoding.observation_parts(rules, seats):
        parts.append((name, at, size))
        at += size
    common: dict[str, Any] = {
        "parts": tuple(parts),
        **_seat_tables_for(seats),
        "unique": len(deck) == num_cards,
        "rules": rules,
        "seats": seats,
        "num_cards": num_cards,
        "num_actions": k,
        "deck": deck,
        "rank": rank,
        "hand": _frozen(hand, np.int32),
        "max_hand": max(hand),
        "min_players": rules.min_players,
        "max_players": rules.max_players,
    }
    if isinstance(rules, LadderRules):
        top = int(rank.max())
        ranks = np.arange(top + 2)[:, None]
        limit = [round_limit(rules, n) if n >= 2 else 0 for n in range(seats + 1)]
        return Spec(
            family="ladder",
            forced=rules.follow == "forced-lowest",
            ace=top if rules.ace_lead else -1,
            value=_frozen([penalty_value(rules.penalty, r) for r in range(top + 1)], np.int32),
            doubling=rules.doubling,
            tie_bonus=rules.tie_bonus,
            threshold=rules.threshold,
            lives=rules.lives,
            rotate=rules.next_leader == "rotate",
            reverse=rules.reverse,
            revival=rules.revival,
            fixed_rounds=rules.fixed_rounds or 0,
            limit=_frozen(limit, np.int32),
            deal_seats=_ladder_deal_seats(seats, len(deck), max(hand)),
            ge=_frozen(rank[None, :] >= ranks, bool),
            eq=_frozen(rank[None, :] == ranks[: top + 1], bool),
            rows=_frozen(np.concatenate([rank[None, :] >= ranks, rank[None, :] == ranks[: top + 1]]), bool),
            either=_frozen(
                (
                    (rank[None, None, :] >= ranks[:, :, None])
                    | (rank[None, None, :] == ranks[None, : top + 1, :])
                ).reshape(-1, num_cards),
                bool,
            ),
            **common,
        )
    if isinstance(rules, CatastropheRules):
        cuc = [cucumbers_on(rules, c) for c in cards]
        five = np.array([x == 5 for x in cuc], bool)
        ids = np.arange(num_cards)
        rows = np.concatenate(
            [
                np.ones((1, num_cards), bool),
                ~five[None, :],
                ids[None, :] > ids[:, None],  # 2 + lead: above the lead
                ids[None, :] < ids[:, None],  # 2 + K + lead: below it
            ]
        )
        return Spec(
            family="catastrophe",
            cucumbers=_frozen([0, *cuc], np.int32),
            deal_seats=_catastrophe_deal_seats(seats, len(deck), hand),
            five=_frozen(five, bool),
            other_first=_frozen((~five[deck]).astype(np.uint32) << np.uint32(31), np.uint32),
            fives=_frozen([0, *five.astype(int)], np.int32),
            hand_count=rules.hand_count,
            surprise=rules.surprise,
            cant_beat_em=rules.cant_beat_em,
            bonus=BONUS,
            bonus_fives=BONUS_FIVES,
            restrict=_frozen(rows, bool),
            **common,
        )
    raise AssertionError("unreachable: the rules are the ladder's or Catastrophe's")  # pragma: no cover


def lane_players(rules: Rules, players: int | Sequence[int] | range | None, size: int) -> Array:
    """(size,) int32: each lane's player count from `make`'s `players` (an int, a range taken in turn,
    one per lane, or None for the rules' whole range), each checked against the rules.

    Example:
        >>> import cucumber_rules as cr
        >>> lane_players(cr.ruleset("agurk"), range(3, 5), 3).tolist()
        [3, 4, 3]
    """
    if players is None:
        players = range(rules.min_players, rules.max_players + 1)
    if isinstance(players, bool):
        raise TypeError("players must be an int, a range or a sequence of ints, not a bool")
    if isinstance(players, int | np.integer):
        counts = np.full(size, int(players), np.int32)
    elif isinstance(players, range):
        values = list(players)
        if not values:
            raise ValueError("players is an empty range")
        counts = np.array([values[i % len(values)] for i in range(size)], np.int32)
    else:
        values = [int(x) for x in players]
        if len(values) != size:
            raise ValueError(
                f"players lists {len(values)} counts for {size} lanes (give one per lane, or a range)"
            )
        counts = np.array(values, np.int32)
    bad = [int(x) for x in counts if not rules.min_players <= x <= rules.max_players]
    if bad:
        raise ValueError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {bad[0]}"
        )
    return counts
