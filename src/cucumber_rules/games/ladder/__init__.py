"""The ladder games: Agurk, Gurka, Five Cucumbers and fuenf-gurken, as one registered `Game`.

The leader plays any card; each later player plays a card at least as high as
the highest card in the trick, or their lowest card. The highest card takes
the trick; only the last trick of a round scores. Everything only this game
has lives here: its rules class and presets (`rules`), its match, round results,
views and the revival decision (`types`), its engine (`engine`) and its words,
heuristic and test strategies (`words`).

Example:
    >>> import cucumber_rules as cr
    >>> cr.GAMES["ladder"] is LADDER, cr.ruleset("agurk").game
    (True, 'ladder')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import IllegalMoveError
from ...scoring import Score, new_score
from ...state import Table, Trick, result_rows
from .. import Game, register_game
from . import engine, sampling, words
from .rules import ALIASES, CUCUMBERS_BY_RANK, PRESETS, LadderPlan, LadderRules
from .types import LadderMatch, LadderResult, LadderView, Revive

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn

    from ...actions import Deal, Decision, Play
    from ...cards import Card
    from ...encoding import DealPlan
    from ...rules import Rules
    from ...state import RoundResult, State
    from ...views import PlayerView

__all__ = [
    "LADDER",
    "LadderGame",
    "LadderMatch",
    "LadderPlan",
    "LadderResult",
    "LadderRules",
    "LadderView",
    "Revive",
]


class LadderGame(Game):
    """The ladder trick mechanism (see the module docstring).

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["ladder"]
        >>> isinstance(game, LadderGame), game.unit, sorted(game.error_codes), game.decisions == (cr.Revive,)
        (True, 'round', ['must-follow', 'must-play-lowest'], True)
    """

    name: ClassVar[str] = "ladder"
    title: ClassVar[str] = "Ladder games (Agurk, Gurka, Five Cucumbers)"
    rules_type = LadderRules
    presets = PRESETS
    aliases = ALIASES
    error_codes: ClassVar = {
        "must-follow": "Ladder rule: play a card at least as high as the highest card in the trick, "
        "or the lowest card in hand (forced following: the lowest only when no such card is held).",
        "must-play-lowest": "Ace lead: after a led Ace (the deck's top rank) every other player plays "
        "their lowest card.",
    }
    decisions: ClassVar = (Revive,)
    match_type = LadderMatch
    table_type = Table
    trick_type = Trick
    result_type = LadderResult
    view_type = LadderView
    state_attributes: ClassVar = {"high": engine.high}
    penalty_words: ClassVar[str] = "penalty paid for the last trick, per round"
    preset_titles: ClassVar = {
        "agurk": "Agurk",
        "gurka": "Gurka",
        "five-cucumbers": "Five Cucumbers",
        "fuenf-gurken": "Fünf Gurken",
    }
    format1_unused: ClassVar = {
        "view": {"revealed": None, "marker": None, "captured": []},
        "trick": {"marker": None, "revealed": None},
        "result": {},
    }

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> LadderMatch:
        """A new ladder match: no marks, nobody out, the seat before `first` dealing."""
        zeros = (0,) * len(players)
        return LadderMatch(
            rules=rules,
            players=players,
            first=first,
            totals=zeros,
            dealer=(first - 1) % len(players),
            marks=zeros,
            out=zeros,
            revived=(False,) * len(players),
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

    def decision_error(self, state: State, decision: Decision) -> IllegalMoveError | None:
        """See `engine.decision_error`."""
        return engine.decision_error(state, decision)  # type: ignore[arg-type]

    def decide(self, state: State, decision: Decision) -> State:
        """See `engine.decide`."""
        return engine.decide(state, decision)  # type: ignore[arg-type]

    def score(self, state: State) -> Score:
        """The ladder score: winners first, then seats still in, then by when they went out, then total."""
        m: LadderMatch = state.match  # type: ignore[assignment]
        results, rows = result_rows(m)
        winners, out, totals = m.winners, m.out, m.totals
        if winners or any(out):

            def key(seat: int) -> tuple[int, int, int, int]:
                gone = out[seat]
                return (0 if seat in winners else 1, 1 if gone else 0, -gone, totals[seat])

            standings = tuple(sorted(range(len(out)), key=key))
        else:  # every seat still in: by total (a stable sort: ties by seat)
            standings = tuple(sorted(range(len(out)), key=totals.__getitem__))
        return new_score(totals, rows, m.marks, m.eliminated, winners, standings, results, self.name)

    def max_actions(self, rules: Rules, players: int) -> int:
        """See `words.max_actions`."""
        return words.max_actions(rules, players)  # type: ignore[arg-type]

    view_fields_shared = True  # the revival rule's state: the match's

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The revival rule's public state."""
        m: LadderMatch = state.match  # type: ignore[assignment]
        return {"sitting_out": m.sitting_out, "pending": m.pending}

    def describe_deal(self, state: State) -> str:
        """See `words.describe_deal`."""
        return words.describe_deal(state)

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """See `words.describe_trick`."""
        return words.describe_trick(state, trick, number, last=last)

    def describe_result(self, state: State, result: RoundResult) -> list[str]:
        """See `words.describe_result`."""
        return words.describe_result(state, result)  # type: ignore[arg-type]

    def describe_seat(self, state: State, seat: int) -> str:
        """See `words.describe_seat`."""
        return words.describe_seat(state, seat)

    def ranking(self, rules: Rules) -> str:
        """Winners, seats still in, then the eliminated, last out first (fixed rounds: by total)."""
        if rules.fixed_rounds is not None:
            return "Ranked by lowest total."
        return (
            "Ranked: winners first, then players still in, then eliminated players, the last out first; "
            "ties by lowest total."
        )

    def decision_prompt(self, view: PlayerView) -> str:
        """The revival question."""
        return (
            "You are eliminated. Buy back in (sit out the next round and return with the highest "
            "score of another player)?"
        )

    def decision_answers(self, view: PlayerView) -> Mapping[str, Decision]:
        """`y`/`yes` buys back in, `n`/`no` stays out."""
        seat = view.seat if view.seat is not None else 0
        yes, no = Revive(seat, True), Revive(seat, False)
        return {"y": yes, "yes": yes, "n": no, "no": no}

    heuristic = staticmethod(words.heuristic)  # (bound once: a bot's decision makes no extra call)

    def penalties(self, state: State) -> tuple[int, ...]:
        """See `words.penalties`."""
        return words.penalties(state)

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """See `words.draw_options`."""
        return words.draw_options(draw, base)  # type: ignore[arg-type]

    def card_icons(self, rules: Rules, card: Card) -> int:
        """A Five Cucumbers card shows its cucumbers; a 52-card deck's cards none."""
        numbered = card.suit is None and card.rank < len(CUCUMBERS_BY_RANK)
        return CUCUMBERS_BY_RANK[card.rank] if numbered else 0

    def points_word(self, rules: Rules) -> str:
        """`"cucumbers"` with the cucumbers penalty, else `"points"`."""
        return "cucumbers" if rules.penalty == "cucumbers" else "points"

    def result_note(self, result: RoundResult, seat: int) -> str:
        """` ✱` for a cucumber mark, ` out` for an elimination."""
        r: LadderResult = result  # type: ignore[assignment]
        return " out" if seat in r.eliminated else " ✱" if seat in r.marks else ""

    def decision_examples(self, seat: int) -> tuple[Decision, ...]:
        """Buying back in and staying out."""
        return (Revive(seat, True), Revive(seat, False))

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """A round built from its last trick (`sampling.rebuild_round`; else searched for with the
        generic `cucumber_rules.sampling.search_round`), then the revival decision it led to.

        A seat eliminated with the revival rule decided to buy back in exactly when it
        sat out the next round: it came back at that round's end (`returned`), or sits
        out the round in play.
        """
        found = sampling.rebuild_round(state, view.results[index], rng)
        after = found if found is not None else super().rebuild_round(state, view, index, rng)
        return sampling.decide_revivals(after, view, index)

    def check_view(self, view: PlayerView) -> str | None:
        """See `sampling.check_view`: the results rebuilt into the match from last tricks alone."""
        return sampling.check_view(view)

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """See `words.facts`."""
        return words.facts(rules)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- encodings

    def action_decisions(self, rules: Rules, seat: int) -> tuple[Decision, ...]:
        """With `revival`: buying back in, then staying out."""
        return (Revive(seat, True), Revive(seat, False)) if rules.revival else ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The common parts, then `marks`, `sitting_out` and `pending` (one value per relative seat)."""
        from ...encoding import common_parts

        extra = (("marks", players), ("sitting_out", players), ("pending", players))
        return (*common_parts(rules, players), *extra)

    def observe(self, view: PlayerView) -> list[float]:
        """The common parts, then cucumber marks, the seats sitting out and those to decide on revival."""
        from ...encoding import common_observation, relative

        v: LadderView = view  # type: ignore[assignment]
        n = len(v.players)
        me: int = v.seat  # type: ignore[assignment]
        sitting = [1.0 if s in v.sitting_out else 0.0 for s in range(n)]
        pending = [1.0 if s in v.pending else 0.0 for s in range(n)]
        return [
            *common_observation(v),
            *relative(v.marks, me),
            *relative(sitting, me),
            *relative(pending, me),
        ]

    def deal_plan(self, state: State) -> DealPlan:
        """The hand size to every seat dealt in; no stock."""
        from ...encoding import DealPlan

        m: LadderMatch = state.match  # type: ignore[assignment]
        rules: LadderRules = m.rules  # type: ignore[assignment]
        seats = engine.dealt_seats(m)
        sizes = tuple(rules.hand_size if s in seats else 0 for s in range(len(m.players)))
        return DealPlan(sizes, 0, rules._plan.deck)


LADDER = register_game(LadderGame())
"""The registered ladder game."""
