"""The table a scenario plays at (the `game` fixture), and the parsers the steps share.

A scenario builds its game lazily: the Given steps name the preset, the players,
the options and the starting player, and the game is created (with the public
`cr.new_game`) the first time a step needs its state. After that, every action
goes through `cr.apply`, so each step sees exactly what a user of the library sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import pytest

import cucumber_rules as cr

#: A player in step text: `seat 3`, or a player's name (a capitalised word).
WHO = r"seat \d+|[A-Z][a-z]\w*"
#: One card in step text: `QS`, `10H`, `A♠`, or a number of a numbered deck.
CARD = r"(?:10|[2-9TJQKA])[SHDC♠♥♦♣]|\d{1,2}"

#: How the Trick Marker is written in the feature files, by its value on `state.marker`.
MARKER_WORDS: dict[str | None, str] = {
    None: "not set",
    "high": "High",
    "low": "Low",
    "high-broken": "broken High",
    "low-broken": "broken Low",
}
_MARKERS = {word.lower(): value for value, word in MARKER_WORDS.items()}

#: Option phrases that read better than `name value` in a rulebook.
_OPTION_PHRASES: dict[str, tuple[str, object]] = {
    "surprise cucumber": ("surprise", True),
    "if you can't beat 'em": ("cant_beat_em", True),
    "can't beat 'em": ("cant_beat_em", True),
}
_TRUE = {"on", "yes", "true"}
_FALSE = {"off", "no", "false"}


class Game:
    """The game of one scenario: its setup, then its current state."""

    def __init__(self) -> None:
        self.preset: str | None = None
        self.players: int | tuple[str, ...] = 0
        self.options: dict[str, object] = {}
        self.first = 0
        self._state: cr.State | None = None
        self.refusal: cr.IllegalMoveError | None = None
        self.saved: str | None = None

    # ---------------------------------------------------------------- setup

    def setup(self, preset: str, players: int | tuple[str, ...], options: dict[str, object]) -> None:
        """Record what game to play; it starts when a step first needs it."""
        self.preset = preset
        self.players = players
        self.options = options

    @property
    def rules(self) -> cr.Rules:
        """The rules of the scenario's game."""
        assert self.preset is not None, "the scenario must start with 'Given a game of ... for ...'"
        return cr.ruleset(self.preset, **self.options)

    @property
    def started(self) -> bool:
        """True once the game exists."""
        return self._state is not None

    @property
    def state(self) -> cr.State:
        """The current state (the game starts on first use)."""
        if self._state is None:
            self._state = cr.new_game(self.rules, players=self.players, first=self.first)
        return self._state

    @state.setter
    def state(self, value: cr.State) -> None:
        self._state = value

    @property
    def labels(self) -> tuple[str, ...]:
        """The players' names (`seat 0`, `seat 1`... when the scenario gave none)."""
        if isinstance(self.players, tuple):
            return self.players
        return tuple(f"seat {i}" for i in range(self.players))

    # ---------------------------------------------------------------- words

    def seat(self, who: str) -> int:
        """The seat a step means by `seat 3` or by a player's name."""
        found = re.fullmatch(r"seat (\d+)", who.strip())
        labels = self.labels
        if found:
            seat = int(found[1])
            assert 0 <= seat < len(labels), f"there is no {who} in a game of {len(labels)} players"
            return seat
        assert who in labels, f"no player called {who!r}: the players are {', '.join(labels)}"
        return labels.index(who)

    def seats(self, text: str) -> list[int]:
        """Seats from a list such as `seat 0 and seat 2`, `seats 0 and 2` or `Rick, Martha and Simon`."""
        text = text.strip()
        if text.startswith("seats "):
            return [int(n) for n in re.findall(r"\d+", text)]
        return [self.seat(part) for part in split_list(text)]

    def name(self, seat: int) -> str:
        """How a seat is called in messages."""
        return self.labels[seat]

    # ---------------------------------------------------------------- acting

    def act(self, action: cr.Action, what: str) -> None:
        """Apply an action the scenario says is legal; fail with the engine's reason if it is not."""
        before = self.state
        try:
            self.state = cr.apply(before, action)
        except cr.IllegalMoveError as error:
            pytest.fail(f"{what} should be legal, but the engine refused it [{error.code}]: {error}")

    def play(self, who: str, text: str) -> None:
        """The named player plays the card."""
        seat = self.seat(who)
        self.act(cr.Play(seat, cr.card(text)), f"{who} playing {text}")

    def hand(self, seat: int) -> tuple[cr.Card, ...]:
        """A seat's cards now."""
        return self.state.hands[seat]

    def legal_cards(self, seat: int) -> list[cr.Card]:
        """The cards the seat may play now (it must be the seat's turn)."""
        state = self.state
        assert state.to_act == seat, (
            f"it should be {self.name(seat)}'s turn, but {describe_turn(self, state.to_act)}"
        )
        moves = cr.legal_moves(state)
        cards = [m.card for m in moves if isinstance(m, cr.Play)]
        assert len(cards) == len(moves), f"{self.name(seat)} has non-play moves: {moves}"
        return cards

    def last_result(self) -> cr.RoundResult:
        """The result of the last finished round (ladder) or hand (Catastrophe)."""
        results = cr.score(self.state).results
        assert results, "no round has finished yet"
        return results[-1]


def check_may_play(game: Game, who: str, cards: str) -> None:
    """Assert that the player may play exactly `cards` now, and that `check` agrees with `legal_moves`.

    `cards` is a card list, `only QS`, `any card`, or `any card but 45` (the hand minus those cards).
    """
    seat = game.seat(who)
    legal = game.legal_cards(seat)
    hand = game.hand(seat)
    text = cards.strip()
    found = re.fullmatch(r"any card(?: of their hand)?(?: (?:but|except) (?P<rest>.+))?", text)
    expected = set(hand) - set(parse_cards(found["rest"] or "none")) if found else set(parse_cards(text))
    assert len(legal) == len(set(legal)), f"legal_moves lists a card twice: {legal}"
    assert set(legal) == expected, (
        f"{who} holds {card_list(hand)} and should be allowed exactly {card_list(expected)}, "
        f"but legal_moves gives {card_list(legal)}"
    )
    for c in set(hand):
        verdict = cr.check(game.state, cr.Play(seat, c))
        assert (verdict is None) == (c in expected), (
            f"check() disagrees with legal_moves about {who} playing {c}: {verdict}"
        )


def describe_turn(game: Game, to_act: int | None) -> str:
    """Say whose turn it is, in words."""
    if to_act is None:
        return "the match is over"
    if to_act == cr.CHANCE:
        return "a deal is due"
    return f"it is {game.name(to_act)}'s turn"


@pytest.fixture
def game() -> Game:
    """The game the scenario plays."""
    return Game()


# -------------------------------------------------------------------- parsing


def split_list(text: str) -> list[str]:
    """Split `a, b and c` (or `a b c`) into its items."""
    parts = re.split(r",\s*|\s+and\s+", text.strip())
    return [p.strip() for p in parts if p.strip()]


def parse_cards(text: str) -> list[cr.Card]:
    """Cards from `2C 9H KS`, `2C, 10S and KS`, `only QS`, or `-` / `none` for no cards."""
    words = text.replace(",", " ").split()
    words = [w for w in words if w.lower() not in {"and", "only"}]
    if words in (["-"], ["none"], ["nothing"], ["no", "cards"]):
        return []
    return [cr.card(w) for w in words]


def card_list(cards: Iterable[cr.Card]) -> str:
    """Cards as text, sorted, without duplicates: `2C, 10S, KS`."""
    return ", ".join(str(c) for c in sorted(set(cards))) or "nothing"


def parse_ints(text: str) -> list[int]:
    """Integers from `0, 12, 0 and 0`."""
    return [int(n) for n in split_list(text)]


def parse_value(text: str) -> object:
    """An option value: on/off, a number, none, or a word."""
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    if word == "none":
        return None
    if re.fullmatch(r"-?\d+", word):
        return int(word)
    return word


def parse_options(text: str | None) -> dict[str, object]:
    """Options from `threshold 21 and ace lead off`, `hand size 1, hand count 2`, `Surprise Cucumber`.

    `3 cucumbers on card 42` changes one entry of Catastrophe's cucumber table.
    """
    options: dict[str, object] = {}
    if not text:
        return options
    for item in split_list(text):
        phrase = item.lower().strip()
        on_card = re.fullmatch(r"(\d+) cucumbers? on card (\d+)", phrase)
        if on_card:  # Catastrophe's per-card table: the default with one card changed
            current = options.get("cucumbers")
            table = list(
                current if isinstance(current, tuple) else cr.RULESETS["catastrophe"].cucumbers or ()
            )
            table[int(on_card[2]) - 1] = int(on_card[1])
            options["cucumbers"] = tuple(table)
            continue
        if phrase in _OPTION_PHRASES:
            name, value = _OPTION_PHRASES[phrase]
            options[name] = value
            continue
        *words, value_text = phrase.split()
        assert words, f"an option is written as 'name value', e.g. 'threshold 21', not {item!r}"
        name = "_".join(w.replace("'", "") for w in words)
        options[name] = parse_value(value_text)
    return options


def parse_marker(text: str) -> str | None:
    """The Trick Marker value meant by `High`, `Low`, `broken High`, `broken Low` or `not set`."""
    key = text.strip().strip('"').lower()
    assert key in _MARKERS, f"the Trick Marker is one of {', '.join(MARKER_WORDS.values())}, not {text!r}"
    return _MARKERS[key]


def table_rows(datatable: Sequence[Sequence[str]]) -> list[dict[str, str]]:
    """A data table as dicts keyed by the lower-cased header."""
    header, *rows = datatable
    keys = [h.strip().lower() for h in header]
    return [dict(zip(keys, (cell.strip() for cell in row), strict=True)) for row in rows]


def deal_from_table(game: Game, datatable: Sequence[Sequence[str]], leader: str | None = None) -> cr.Deal:
    """A rigged deal from a `| seat | hand |` table (or `| player | hand |`).

    A row whose seat is `stock` gives the undealt deck, top card first (Surprise
    Cucumber reveals from it). Seats without a row receive no cards.
    """
    header = [h.strip().lower() for h in datatable[0]]
    well_formed = len(header) == 2 and header[0] in {"seat", "player"} and header[1] in {"hand", "cards"}
    assert well_formed, (
        f"a deal table has the columns | seat | hand | (or | player | hand |), not {datatable[0]}"
    )
    hands: list[list[cr.Card]] = [[] for _ in game.labels]
    stock: list[cr.Card] = []
    for row in datatable[1:]:
        who, cards = row[0].strip(), parse_cards(row[1])
        if who.lower() == "stock":
            stock = cards
        elif re.fullmatch(r"\d+", who):
            hands[game.seat(f"seat {who}")] = cards
        else:
            hands[game.seat(who)] = cards
    return cr.Deal(hands=hands, stock=stock, leader=None if leader is None else game.seat(leader))
