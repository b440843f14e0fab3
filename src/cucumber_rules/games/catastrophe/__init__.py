"""Cucumber Catastrophe, with Surprise Cucumber and If You Can't Beat 'Em, as one registered `Game`.

Every trick's cards are captured; the second card of a trick sets the Trick
Marker (`Marker`), which decides which card takes the trick and what later
players must play. Everything only this game has lives here: its rules class,
preset, markers and cucumbers per card (`rules`), its match, tables, tricks,
views and the `Revealed` event (`types`), its engine (`engine`), and its words,
heuristic and test strategies (`words`).

Example:
    >>> import cucumber_rules as cr
    >>> cr.GAMES["catastrophe"] is CATASTROPHE, cr.ruleset("catastrophe").game
    (True, 'catastrophe')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import IllegalMoveError
from ...scoring import Score, new_score
from ...state import RoundResult, result_rows
from .. import Badge, Game, register_game
from . import engine, sampling, words
from .rules import (
    ALIASES,
    DEFAULT_CUCUMBERS,
    PRESETS,
    CatastrophePlan,
    CatastropheRules,
    Marker,
    cucumbers_on,
)
from .types import CatastropheMatch, CatastropheTable, CatastropheTrick, CatastropheView, Revealed

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn

    from ...actions import Action, Deal, Play
    from ...cards import Card
    from ...encoding import DealPlan
    from ...rules import Rules
    from ...state import State, Trick
    from ...views import Dealt, Event, PlayerView

__all__ = [
    "CATASTROPHE",
    "DEFAULT_CUCUMBERS",
    "CatastropheGame",
    "CatastropheMatch",
    "CatastrophePlan",
    "CatastropheRules",
    "CatastropheTable",
    "CatastropheTrick",
    "CatastropheView",
    "Marker",
    "Revealed",
    "cucumbers_on",
]


class CatastropheGame(Game):
    """The Cucumber Catastrophe trick mechanism (see the module docstring).

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["catastrophe"]
        >>> isinstance(game, CatastropheGame), game.unit, sorted(game.error_codes), game.decisions
        (True, 'hand', ['cannot-lead-five', 'must-follow-marker'], ())
    """

    name: ClassVar[str] = "catastrophe"
    title: ClassVar[str] = "Cucumber Catastrophe"
    rules_type = CatastropheRules
    presets = PRESETS
    aliases = ALIASES
    error_codes: ClassVar = {
        "cannot-lead-five": "Catastrophe: a 5-cucumber card may not lead a trick while the hand holds "
        "another card.",
        "must-follow-marker": "Catastrophe: the High or Low rule set by the second card must be obeyed "
        "by a player who can.",
    }
    events: ClassVar = (Revealed,)
    match_type = CatastropheMatch
    table_type = CatastropheTable
    trick_type = CatastropheTrick
    result_type = RoundResult
    view_type = CatastropheView
    state_attributes: ClassVar = {"marker": engine.marker, "lead": engine.lead}
    unit: ClassVar[str] = "hand"
    penalty_words: ClassVar[str] = "cucumbers per seat per hand"
    preset_titles: ClassVar = {"catastrophe": "Cucumber Catastrophe"}
    shows_dealer: ClassVar[bool] = False
    format1_unused: ClassVar = {
        "view": {"sitting_out": [], "pending": []},
        "trick": {},
        "result": {"payer": None, "card": None, "marks": [], "eliminated": [], "returned": []},
    }

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> CatastropheMatch:
        """A new Catastrophe match: seat `first` starts the first hand."""
        n = len(players)
        return CatastropheMatch(
            rules=rules, players=players, first=first, totals=(0,) * n, dealer=(first - 1) % n, starter=first
        )

    def deal_error(self, state: State, deal: Deal) -> IllegalMoveError | None:
        """See `engine.deal_error`."""
        return engine.deal_error(state, deal)

    # (bound once, as `legal` is: a round's deal makes no extra call)
    sample_deal = staticmethod(engine.sample_deal)
    start_round = staticmethod(engine.start_round)

    legal = staticmethod(engine.legal)

    def play_error(self, state: State, play: Play) -> IllegalMoveError | None:
        """See `engine.play_error`."""
        return engine.play_error(state, play)

    apply_play = staticmethod(engine.apply_play)
    play = staticmethod(engine.play_card)

    def decision_error(self, state: State, decision: Any) -> IllegalMoveError | None:
        """Catastrophe has no decisions: every decision is refused with `no-decision`."""
        return IllegalMoveError(
            "no-decision",
            f"seat {decision.seat} has no decision to take: Cucumber Catastrophe has no decisions",
            seat=decision.seat,
            action=decision,
        )

    def score(self, state: State) -> Score:
        """Totals, one row per hand, winners, and the ranking: fewest cucumbers, lowest hand, seat."""
        m = state.match
        results, rows = result_rows(m)
        n = len(m.players)
        totals = m.totals
        if rows and len(set(totals)) < n:  # only a tie needs the best hands
            best = [engine.best_hand(results, seat) for seat in range(n)]
            standings = sorted(range(n), key=lambda seat: (totals[seat], best[seat]))
        else:
            standings = sorted(range(n), key=totals.__getitem__)  # (a stable sort: ties by seat)
        winners = m.winners
        return new_score(totals, rows, (0,) * n, (False,) * n, winners, tuple(standings), results, self.name)

    def max_actions(self, rules: Rules, players: int) -> int:
        """See `words.max_actions`."""
        return words.max_actions(rules, players)  # type: ignore[arg-type]

    view_fields_shared = True  # the table's revealed and captured cards, the marker in `extra`

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The Trick Marker, the revealed lead card and the captured cards."""
        table: CatastropheTable | None = state.table  # type: ignore[assignment]
        return {
            "revealed": None if table is None else table.revealed,
            "marker": state.extra,
            "captured": () if table is None else table.captured,
        }

    def public_events(self, actions: Sequence[Action], rules: Rules, seat: int | None) -> tuple[Event, ...]:
        """See `words.public_events`."""
        return words.public_events(actions, rules, seat)  # type: ignore[arg-type]

    def round_events(
        self, rules: Rules, deal: Deal, done: int, actions: Sequence[Action]
    ) -> tuple[Event, ...] | None:
        """See `words.round_events`."""
        return words.round_events(rules, deal, done, actions)  # type: ignore[arg-type]

    def check_view(self, view: PlayerView) -> str | None:
        """A loaded view's captured cards are exactly the cards of the tricks each seat took; then
        its earlier hands and its current hand (`sampling.check_view`)."""
        v: CatastropheView = view  # type: ignore[assignment]
        if v.captured and len(v.captured) != len(v.players):
            return f"$.captured: must have one entry per seat ({len(v.players)}), not {len(v.captured)}"
        if v.captured or v.tricks:
            problem = _captured_problem(v.tricks, v.captured, len(v.players))
            if problem is not None:
                return "$.captured: " + problem
        return sampling.check_view(view)

    def view_cards(self, view: PlayerView) -> list[Card]:
        """The revealed lead cards of the completed tricks and of the current one."""
        v: CatastropheView = view  # type: ignore[assignment]
        found = [t.revealed for t in v.tricks if getattr(t, "revealed", None) is not None]
        return found + ([v.revealed] if v.revealed is not None else [])

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """See `words.describe_trick`."""
        return words.describe_trick(state, trick, number)  # type: ignore[arg-type]

    def describe_result(self, state: State, result: RoundResult) -> list[str]:
        """`hand 2 cucumbers: Ann 3 · Bo 9 · Cy -5`."""
        row = " · ".join(f"{state.players[s]} {p}" for s, p in enumerate(result.points))
        return [f"hand {result.number} cucumbers: {row}"]

    def card_icons(self, rules: Rules, card: Card) -> int:
        """The cucumbers printed on the card (the `cucumbers` option)."""
        return cucumbers_on(rules, card)  # type: ignore[arg-type]

    def points_word(self, rules: Rules) -> str:
        """Cucumbers."""
        return "cucumbers"

    def trick_extras(self, source: Trick | PlayerView) -> tuple[Card | None, Badge | None]:
        """The revealed lead card (Surprise Cucumber) and the Trick Marker's badge."""
        marker = getattr(source, "marker", None)
        return getattr(source, "revealed", None), words.badge(marker)

    def seat_note(self, view: PlayerView, seat: int) -> str:
        """`captured 5 cards, 7 cucumbers`."""
        captured = getattr(view, "captured", ())
        got = captured[seat] if seat < len(captured) else ()
        if not got:
            return ""
        count = sum(self.card_icons(view.rules, c) for c in got)
        return f"captured {len(got)} cards, {count} cucumbers"

    def ranking(self, rules: Rules) -> str:
        """Fewest cucumbers, then the lowest single-hand score."""
        return "Ranked by fewest cucumbers, then by the lowest single-hand score."

    def describe_table(self, view: PlayerView) -> str:
        """`revealed 40 · High: highest wins`."""
        v: CatastropheView = view  # type: ignore[assignment]
        parts = [] if v.revealed is None else [f"revealed lead card {v.revealed}"]
        if v.marker is not None:
            parts.append(Marker(v.marker).label)
        return " · ".join(parts)

    heuristic = staticmethod(words.heuristic)  # (bound once: a bot's decision makes no extra call)

    def penalties(self, state: State) -> tuple[int, ...]:
        """Each seat's cucumbers in each finished hand."""
        return tuple(p for r in state.match.results for p in r.points)

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """See `words.draw_options`."""
        return words.draw_options(draw, base)  # type: ignore[arg-type]

    def check_state(self, state: State) -> str | None:
        """The captured cards are exactly the cards (and reveals) of the tricks each seat took."""
        table: CatastropheTable | None = state.table  # type: ignore[assignment]
        if table is None:
            return None
        return _captured_problem(table.tricks, table.captured, len(state.match.players))

    def round_cards(self, state: State) -> list[Card]:
        """The revealed lead cards (Surprise Cucumber): turned up from the stock, not from a hand."""
        table: CatastropheTable | None = state.table  # type: ignore[assignment]
        if table is None:
            return []
        found: list[Card] = [t.revealed for t in table.tricks if getattr(t, "revealed", None) is not None]
        return found + ([table.revealed] if table.revealed is not None else [])

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """See `sampling.complete_deal`: the stock starts with the revealed cards."""
        return sampling.complete_deal(state, known, dealt, events, allowed, rng)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """See `sampling.rebuild_hand`: a hand built to end with the view's cucumbers."""
        found = sampling.rebuild_hand(state, view.results[index], rng)
        if found is None:
            found = super().rebuild_round(state, view, index, rng)
        return found

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """See `words.facts`."""
        return words.facts(rules)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- encodings

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The common parts, then `marker` (4), `revealed` (a card id each) and `captured` (per seat)."""
        from ...encoding import common_parts

        k = len(self.action_cards(rules))
        return (*common_parts(rules, players), ("marker", 4), ("revealed", k), ("captured", players))

    def observe(self, view: PlayerView) -> list[float]:
        """The common parts, then the Trick Marker, the card turned up and each seat's captured cucumbers."""
        from ...encoding import common_observation, relative

        v: CatastropheView = view  # type: ignore[assignment]
        rules: CatastropheRules = v.rules  # type: ignore[assignment]
        cards = self.action_cards(rules)
        marker = [1.0 if v.marker == m else 0.0 for m in _MARKERS]
        revealed = [1.0 if c is v.revealed else 0.0 for c in cards]
        per_seat = [float(sum(cucumbers_on(rules, c) for c in got)) for got in v.captured]
        captured = relative(per_seat, v.seat) if per_seat else [0.0] * len(v.players)  # type: ignore[arg-type]
        return [*common_observation(v), *marker, *revealed, *captured]

    def deal_plan(self, state: State) -> DealPlan:
        """Every seat's hand, a stock card per trick with Surprise, the 5-cucumber cards kept in the hands
        with If You Can't Beat 'Em, and the starter drawn among tied seats."""
        from ...encoding import DealPlan

        rules: CatastropheRules = state.match.rules  # type: ignore[assignment]
        n = len(state.match.players)
        per = rules.cards_per_player(n)
        tied = engine.starters(state)
        return DealPlan(
            (per,) * n,
            per if rules.surprise else 0,
            rules._plan.deck,
            rules._plan.fives if rules.cant_beat_em else (),
            tied if len(tied) > 1 else (),
        )


def _captured_problem(tricks: Sequence[Trick], captured: tuple[tuple[Card, ...], ...], n: int) -> str | None:
    """Why the captured cards are not exactly the cards (and reveals) of the tricks each seat took."""
    won: list[list[int]] = [[] for _ in range(n)]
    for t in tricks:
        revealed = getattr(t, "revealed", None)
        if revealed is not None:
            won[t.taker].append(revealed.index)
        won[t.taker] += [p.card.index for p in t.plays]
    for s in range(n):
        cards = captured[s] if s < len(captured) else ()
        if sorted(c.index for c in cards) != sorted(won[s]):
            return f"seat {s} captured {[str(c) for c in cards]}, not the cards of the tricks it took"
    return None


#: The Trick Marker's values in the order of the observation's `marker` part.
_MARKERS = (Marker.HIGH, Marker.LOW, Marker.HIGH_BROKEN, Marker.LOW_BROKEN)

CATASTROPHE = register_game(CatastropheGame())
"""The registered Catastrophe game."""
