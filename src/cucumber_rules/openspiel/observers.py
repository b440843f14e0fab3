"""OpenSpiel's observers of a game: the observation and information-state tensors and strings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol, cast

import attrs
import numpy as np
import pyspiel

from .. import encoding
from ..actions import Action, Deal, Decision, Play
from ..cards import Card
from ..encoding.hooks import action_table as _encoding
from ..games import game_of
from ..history import History
from ..rules import Rules
from ..state import State
from ..values import Value
from ..views import Dealt, Event, PlayerView, public_history, view
from ..views.build import is_deal as _is_deal
from .params import rounds_bound

#: The most `_earlier_rounds` entries an observer keeps (then it starts again).
_ROUNDS_KEPT = 256


#: No entries (shared: never changed).
_NONE: dict[int, float] = {}


HISTORY_TENSOR_LIMIT = 2**17
"""The most values a perfect-recall tensor may have; a game whose tensor would be longer offers none.

A perfect-recall tensor holds every round a match can have (its deals, tricks, turned-up cards
and decisions), so its length grows with the bound on rounds: Catastrophe's `hand_count`, a ladder
game's `fixed_rounds` or `round_limit`. The ladder presets' automatic round limit (hundreds of
rounds) would make it millions of values long: such a game offers the information-state *string*
(always perfect recall) but no tensor (`provides_information_state_tensor` is False, and asking
for one raises `ValueError`). Set `round_limit` or `fixed_rounds` to get one.

Example:
    >>> HISTORY_TENSOR_LIMIT
    131072
"""


@attrs.frozen
class HistoryLayout(Value):
    """A match's history in a perfect-recall tensor: R rounds of T tricks, n seats, K card ids."""

    rounds: int
    tricks: int
    seats: int
    cards: int
    decisions: int
    """Decision ids (the ladder games with revival: 2)."""
    reveals: bool
    """Whether the game turns up stock cards (Surprise Cucumber): a `revealed` part."""

    @classmethod
    def of(cls, rules: Rules, players: int) -> HistoryLayout | None:
        """The layout, or None where it is unbounded or longer than `HISTORY_TENSOR_LIMIT`."""
        rounds = rounds_bound(rules, players)
        if rounds is None:
            return None
        e = _encoding(rules)
        parts = dict(encoding.observation_parts(rules, players))
        reveals = "revealed" in parts and bool(rules.options().get("surprise", True))
        found = cls(rounds, rules.cards_per_player(players), players, len(e.cards), e.decisions, reveals)
        if sum(math.prod(shape) for _, shape in found.parts(private="all")) > HISTORY_TENSOR_LIMIT:
            return None
        return found

    def parts(self, *, public: bool = True, private: str = "single") -> list[tuple[str, tuple[int, ...]]]:
        """The perfect-recall parts: each round's dealt cards (private), then its public events."""
        r, t, n, k = self.rounds, self.tricks, self.seats, self.cards
        out: list[tuple[str, tuple[int, ...]]] = []
        if private == "single":
            out.append(("dealt", (r, k)))
        elif private == "all":
            out.append(("dealt", (r, n, k)))
        if public:
            out += [("leaders", (r, t, n)), ("plays", (r, t, n, k))]
            if self.reveals:
                out.append(("turned_up", (r, t, k)))
            if self.decisions:
                out.append(("decisions", (r, n, self.decisions)))
        return out


_PRIVATE = {
    pyspiel.PrivateInfoType.NONE: "none",
    pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
    pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
}


class ObservedGame(Protocol):
    """What an observer reads of its game (a `CucumberGame` is one)."""

    @property
    def rules(self) -> Rules:
        """The library's rules of the game."""

    @property
    def players(self) -> int:
        """The player count."""

    @property
    def history_layout(self) -> HistoryLayout | None:
        """The information-state tensor's layout (None: the game has no such tensor)."""


class ObservedState(Protocol):
    """What an observer reads of a state (a `CucumberState` is one)."""

    @property
    def cucumber_state(self) -> State:
        """The library's state."""

    def get_game(self) -> Any:
        """The state's game."""


class CucumberObserver:
    """OpenSpiel's observer (its PyObserver interface) of one `IIGObservationType`: tensors and strings.

    The three choices OpenSpiel defines, in every combination:

    - **public information**: what every seat sees. Without perfect recall, the compact observation
      (`encoding.observation`) of the seat's view without its `hand` part, from a spectator's view
      with seats counted from the observing player; with perfect recall, every public event of the
      match so far as well (below).
    - **private information** of no seat, of the observing seat (its `hand`; with perfect recall,
      the cards each deal gave it) or of every seat (`hands`, one row per relative seat; with
      perfect recall, every deal's hands). Cards that reach no seat (the undealt cards and the
      stock's unturned cards) are in none of them.
    - **perfect recall** (the information state): the whole match as the player saw it, every
      round up to the rules' bound: for each round, the cards dealt (`dealt`), each trick's leader
      (`leaders`) and each relative seat's card in it (`plays`), the cards turned up for the
      tricks (`turned_up`, Surprise Cucumber) and the decisions taken (`decisions`, revival),
      after the compact observation. The strings list the events (`public_history`). A game whose
      rounds have no useful bound offers the strings only (see `HISTORY_TENSOR_LIMIT`).

    The default observation (`observation_tensor`) is public information and the player's own,
    without perfect recall; the information state adds perfect recall.

    Example:
        >>> from open_spiel.python.observation import make_observation
        >>> game = pyspiel.load_game("cucumber_gurka", {"players": 2, "hand_size": 2, "fixed_rounds": 2})
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> observer = make_observation(game)
        >>> observer.string_from(state, 0)
        'seat 0 · round 1 · totals [0, 0] · hand 2C 2D · trick - · seen -'
        >>> public = make_observation(game, pyspiel.IIGObservationType(
        ...     perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
        >>> public.string_from(state, 0)
        'public · round 1 dealt 2 2'
        >>> list(public.dict)[-4:]
        ['sitting_out', 'pending', 'leaders', 'plays']
    """

    def __init__(self, game: ObservedGame, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"the cucumber games take no observation parameters, not {dict(params)}")
        rules, n = game.rules, game.players
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.rules = rules
        self.players = n
        self._rounds: dict[tuple[int, int, int], tuple[History[Action], int, dict[int, float]]] = {}
        """`_earlier_rounds`' entries, by the history before the current deal (see there)."""
        self.perfect_recall: bool = bool(iig_obs_type.perfect_recall)
        """Whether the observation is the whole match so far (the information state)."""
        self.public_info: bool = bool(iig_obs_type.public_info)
        """Whether public information is observed."""
        self.private_info: str = _PRIVATE[iig_obs_type.private_info]
        """Whose private information is observed: `"none"`, `"single"` (the player's) or `"all"`."""
        k = len(_encoding(rules).cards)
        compact = list(encoding.observation_parts(rules, n))
        parts: list[tuple[str, tuple[int, ...]]] = []
        if self.public_info:
            parts += [
                (name, (size,)) for name, size in compact if self.private_info == "single" or name != "hand"
            ]
        elif self.private_info == "single":
            parts.append(("hand", (k,)))
        if self.private_info == "all":
            parts.append(("hands", (n, k)))
        self._compact = sum(math.prod(shape) for _, shape in parts)
        history = game.history_layout
        if self.perfect_recall and history is not None:
            parts += history.parts(public=self.public_info, private=self.private_info)
        if self.perfect_recall and history is None:
            self._history: HistoryLayout | None = None
            self.tensor: np.ndarray[Any, Any] | None = None
            """The flat tensor `set_from` fills (None: strings only, see `HISTORY_TENSOR_LIMIT`)."""
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
            """Named views into `tensor`, by part."""
            self._offsets: dict[str, int] = {}
            self._size = 0
            return
        self._history = history if self.perfect_recall else None
        self._size = sum(math.prod(shape) for _, shape in parts)
        self.tensor = np.zeros(self._size, np.float32)
        self.dict = {}
        self._offsets = {}
        at = 0
        for name, shape in parts:
            size = math.prod(shape)
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            self._offsets[name] = at
            at += size

    # ----------------------------------------------------------------- values

    def values(self, state: ObservedState, player: int) -> list[float]:
        """The tensor `set_from(state, player)` fills, as a new list of floats.

        Raises:
            ValueError: Where the observer has no tensor (see `HISTORY_TENSOR_LIMIT`).
        """
        if self.tensor is None:
            raise ValueError(
                f"{state.get_game()} has no perfect-recall tensor: its matches may run to "
                f"{rounds_bound(self.rules, self.players) or 'an unknown number of'} rounds; set "
                "round_limit or fixed_rounds (or use the information state string)"
            )
        head, earlier, ones = self._entries(state.cucumber_state, player)
        out = [0.0] * self._size
        out[: len(head)] = head
        for i, value in earlier.items():
            out[i] = value
        for i, value in ones.items():
            out[i] = value
        return out

    def set_from(self, state: ObservedState, player: int) -> None:
        """Fill `tensor` with what `player` observes in `state`."""
        if self.tensor is None:
            self.values(state, player)  # raises
            return
        head, earlier, ones = self._entries(state.cucumber_state, player)
        tensor = self.tensor
        tensor[: len(head)] = head
        tensor[len(head) :] = 0.0
        if earlier:
            tensor[list(earlier)] = list(earlier.values())
        if ones:
            tensor[list(ones)] = list(ones.values())

    def _entries(self, s: State, player: int) -> tuple[list[float], dict[int, float], dict[int, float]]:
        """The compact part as a list, and the perfect-recall part's nonzero entries by position: the
        finished rounds' (kept: never to be changed) and the current round's (new)."""
        n = self.players
        e = _encoding(self.rules)
        single = self.private_info == "single"
        seen = view(s, player if single else None)  # the player's view, or a spectator's
        head: list[float] = []
        if self.public_info:
            if single:
                head = list(encoding.observation(seen))
            else:
                head = list(encoding.observation(attrs.evolve(seen, seat=player)))
                lo, k = self._relative_hand_span()
                del head[lo : lo + k]
        elif single:
            head = [0.0] * len(e.cards)
            for c in seen.hand:
                head[e.ids[c.index]] += 1.0
        if self.private_info == "all":
            k = len(e.cards)
            hands = [0.0] * (n * k)
            for seat, hand in enumerate(s.hands):
                base = (seat - player) % n * k
                for c in hand:
                    hands[base + e.ids[c.index]] += 1.0
            head += hands
        ones: dict[int, float] = {}
        earlier = self._history_entries(s, seen, player, ones) if self._history is not None else _NONE
        return head, earlier, ones

    def _relative_hand_span(self) -> tuple[int, int]:
        at = 0
        for name, size in encoding.observation_parts(self.rules, self.players):
            if name == "hand":
                return at, size
            at += size
        raise AssertionError("every observation has a hand part")  # pragma: no cover

    def _history_entries(
        self, s: State, seen: PlayerView, player: int, ones: dict[int, float]
    ) -> dict[int, float]:
        """The perfect-recall part's nonzero entries: the current round's, from its events (`seen`: the
        player's view, or a spectator's, which holds them), added to `ones`; the finished rounds',
        from `_earlier_rounds` (worked out once per round), returned (kept: not to be changed)."""
        found = s.past._newest(_is_deal)  # (the current trick holds plays only)
        if found is None:  # before the first deal
            self._fold(public_history(s, seen.seat), player, ones, -1, ())
            return _NONE
        rounds, earlier = self._earlier_rounds(s, found, player, seen.seat)
        node, at = found
        deals = (cast("Deal", node.items()[at]),) if self.private_info == "all" else ()
        self._fold(seen.events, player, ones, rounds - 1, deals)
        return earlier

    def _earlier_rounds(
        self, s: State, found: tuple[History[Action], int], player: int, seat: int | None
    ) -> tuple[int, dict[int, float]]:
        """The rounds before the current one (the current deal is `found`, from `History._newest`) as
        `seat` saw them (None: a spectator): their count, and their entries, worked out once and kept.

        The actions before the deal, and so these entries, are named exactly by the history holding
        the deal and the deal's position (histories share their older parts): that pair is the key,
        and the history is kept with the entries, so that its identity cannot be reused. An entry is
        published whole, in one assignment, and never changed: threads may share the observer.
        """
        node, at = found
        key = (id(node), at, player)
        hit = self._rounds.get(key)
        if hit is not None and hit[0] is node:
            return hit[1], hit[2]
        prefix = node.items()[:at]
        events = game_of(s).views.public_events(prefix, self.rules, seat)
        deals = tuple(a for a in prefix if type(a) is Deal) if self.private_info == "all" else ()
        entries: dict[int, float] = {}
        rounds = self._fold(events, player, entries, -1, deals) + 1
        if len(self._rounds) >= _ROUNDS_KEPT:
            self._rounds.clear()
        self._rounds[key] = (node, rounds, entries)
        return rounds, entries

    def _fold(
        self, events: Sequence[Event], player: int, ones: dict[int, float], r: int, deals: Sequence[Deal]
    ) -> int:
        """Add the entries of a stretch of `events` (whole rounds, each from its `Dealt`) to `ones`;
        `r` is the round before the first `Dealt`'s, `deals` the stretch's deals (for every seat's
        hands). Returns the round of the last event."""
        layout = self._history
        assert layout is not None
        rules = self.rules
        e = _encoding(rules)
        ids, k, n, t_max = e.ids, len(e.cards), self.players, layout.tricks
        offsets = self._offsets
        played = 0
        per_trick = 1
        dealt = offsets.get("dealt")
        if self.private_info == "all" and dealt is not None:
            for round_, deal in enumerate(deals, r + 1):
                for seat, hand in enumerate(deal.hands):
                    base = dealt + (round_ * n + (seat - player) % n) * k
                    for c in hand:
                        ones[base + ids[c.index]] = ones.get(base + ids[c.index], 0.0) + 1.0
        if not self.public_info and self.private_info != "single":
            return r + len(deals)
        single = self.private_info == "single" and dealt is not None
        public = self.public_info
        leaders = offsets.get("leaders", 0)
        plays = offsets.get("plays", 0)
        turned_up = offsets.get("turned_up")
        for event in events:
            kind = type(event)
            if kind is Play:  # the most frequent event first
                if not public:
                    continue
                trick = played // per_trick
                seat = (event.seat - player) % n  # type: ignore[union-attr]
                if played % per_trick == 0:
                    ones[leaders + (r * t_max + trick) * n + seat] = 1.0
                ones[plays + ((r * t_max + trick) * n + seat) * k + ids[event.card.index]] = 1.0  # type: ignore[union-attr]
                played += 1
            elif kind is Dealt:
                r += 1
                played = 0
                per_trick = sum(1 for size in event.sizes if size) or 1  # type: ignore[union-attr,misc]
                if single:
                    base = dealt + r * k  # type: ignore[operator]
                    for c in event.hand:  # type: ignore[union-attr]
                        ones[base + ids[c.index]] = ones.get(base + ids[c.index], 0.0) + 1.0
            elif not public:
                continue
            elif isinstance(event, Decision):
                number = encoding.action_id(rules, event) - k
                seat = (event.seat - player) % n
                ones[offsets["decisions"] + (r * n + seat) * layout.decisions + number] = 1.0
            elif turned_up is not None and isinstance(card := getattr(event, "card", None), Card):
                ones[turned_up + (r * t_max + played // per_trick) * k + ids[card.index]] = 1.0
            else:
                raise ValueError(
                    f"perfect-recall tensors encode deals, plays, decisions and turned-up cards, "
                    f"not {kind.__name__} events: use the information state string"
                )
        return r

    # ----------------------------------------------------------------- strings

    def string_from(self, state: ObservedState, player: int) -> str:
        """What `player` observes in `state`, in words."""
        s = state.cucumber_state
        if self.perfect_recall:
            return self._history_string(s, player)
        parts: list[str] = []
        if self.public_info:
            seat_view = view(s, player if self.private_info == "single" else None)
            label = f"seat {player}" if self.private_info == "single" else "public"
            parts += [label, f"round {seat_view.round_number}", f"totals {list(seat_view.totals)}"]
            if self.private_info == "single":
                parts.append("hand " + (" ".join(str(c) for c in seat_view.hand) or "-"))
            parts.append("trick " + (" ".join(f"{p.seat}:{p.card}" for p in seat_view.trick) or "-"))
            seen = " ".join(str(p.card) for t in seat_view.tricks for p in t.plays)
            parts.append(f"seen {seen or '-'}")
            extra = game_of(s).words.describe_table(seat_view)
            if extra:
                parts.append(extra)
        elif self.private_info == "single":
            parts.append("hand " + (" ".join(str(c) for c in view(s, player).hand) or "-"))
        if self.private_info == "all":
            parts.append("hands " + " | ".join(" ".join(str(c) for c in h) or "-" for h in s.hands))
        return " · ".join(parts)

    def _history_string(self, s: State, player: int) -> str:
        single = self.private_info == "single"
        words: list[str] = [f"seat {player}" if single else "public" if self.public_info else "private"]
        deals = iter([a for a in s.actions if type(a) is Deal]) if self.private_info == "all" else None
        number = 0
        for event in public_history(s, player if single else None):
            if type(event) is Dealt:
                number += 1
                text = f"round {number}"
                if self.public_info:
                    text += " dealt " + " ".join(str(size) for size in event.sizes)
                if single:
                    text += " hand " + (" ".join(str(c) for c in event.hand) or "-")
                if deals is not None:
                    hands = next(deals).hands
                    text += " hands " + " | ".join(" ".join(str(c) for c in h) or "-" for h in hands)
                if event.leader is not None and self.public_info:
                    text += f" starter {event.leader}"
                words.append(text)
            elif self.public_info:
                words.append(_event(event))
        return " · ".join(words) if self.public_info or self.private_info != "none" else ""


def _event(event: object) -> str:
    if isinstance(event, Dealt):
        return "dealt " + " ".join(str(n) for n in event.sizes)
    card = getattr(event, "card", None)
    if not isinstance(event, Play) and card is not None:
        return f"{type(event).__name__.lower()} {card}"
    return str(event)
