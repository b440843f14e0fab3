"""High Card: a third game, defined entirely outside the library, to prove the `Game` seam.

Each round every player gets one card from the 52-card deck and plays it, the
seat after the last round's starter starting. The highest card (the later of
equal ranks) takes the trick, and its player scores the card's rank. After
`round_count` rounds the lowest total wins (ties share). It uses only the public
API for game authors: `cucumber_rules`, `cucumber_rules.dealing` (deals) and
`cucumber_rules.tricks` (the steps of a round, as keyword-only builders).

The tests register it with `cr.register_game(GAME)`; an installed package would
name it in the entry-point group `cucumber_rules.games` instead. The docs page
"Adding a game" walks through this file section by section; the snippet
comments (`start:` and `end:` a section's name) mark the sections it includes.
"""

# --8<-- [start:imports]
from __future__ import annotations

import random
from typing import ClassVar

import attrs

import cucumber_rules as cr
from cucumber_rules.bots import Bots
from cucumber_rules.dealing import deal_error, shuffled_deal
from cucumber_rules.tricks import end_round, next_turn, not_held, round_started, take_trick

# --8<-- [end:imports]

__all__ = ["GAME", "HighCardGame", "HighCardRules"]


# --8<-- [start:rules]
@attrs.frozen(kw_only=True)
class HighCardRules(cr.Rules):
    """The rules of High Card: one card each per round, `round_count` rounds."""

    game = "highcard"
    round_count: int = cr.option(5, meaning="rounds in a match; the lowest total wins")

    def validate(self) -> None:
        """One card each, at least one round, the 52-card deck."""
        if self.deck != "standard-52":
            raise cr.InvalidRulesError("deck", "High Card is played with the standard-52 deck")
        if self.hand_size != 1:
            raise cr.InvalidRulesError("hand_size", "High Card deals one card to each player")
        if self.round_count < 1:
            raise cr.InvalidRulesError(
                "round_count", f"round_count must be at least 1, not {self.round_count}"
            )


PRESET = HighCardRules(name="highcard", deck="standard-52", min_players=2, max_players=6, hand_size=1)
# --8<-- [end:rules]


# --8<-- [start:game]
class HighCardBots(Bots):
    """One card: nothing to think about."""

    def heuristic(self, view: cr.PlayerView, rng: random.Random, *, caution: float = 1.0) -> cr.Action:
        return view.legal[0]


class HighCardGame(cr.Game[cr.State]):
    """One trick a round; the highest card pays its rank."""

    name: ClassVar[str] = "highcard"
    title: ClassVar[str] = "High Card"
    rules_type = HighCardRules
    presets: ClassVar = {"highcard": PRESET}
    aliases: ClassVar = {"high-card": "highcard"}
    preset_titles: ClassVar = {"highcard": "High Card"}
    view_type = cr.PlayerView
    bots = HighCardBots()
    # --8<-- [end:game]

    # --8<-- [start:deal]
    def deal_error(self, state: cr.State, deal: cr.Deal) -> cr.IllegalMoveError | None:
        n = state.num_players
        return deal_error(deal, players=n, seats=range(n), per=1, deck=cr.DECKS["standard-52"])

    def sample_deal(self, state: cr.State, rng: random.Random) -> cr.Deal:
        n = state.num_players
        return shuffled_deal(rng, cr.DECKS["standard-52"], players=n, seats=range(n), per=1, stock=False)

    def start_round(self, state: cr.State, deal: cr.Deal) -> cr.State:
        m = state.match
        starter = (m.first + m.rounds) % state.num_players
        dealer = (starter - 1) % state.num_players
        return round_started(state, deal, leader=starter, match=attrs.evolve(m, dealer=dealer))

    # --8<-- [end:deal]

    # --8<-- [start:play]
    def legal(self, state: cr.State) -> tuple[cr.Action, ...]:
        assert state.to_act is not None
        return tuple(dict.fromkeys(state.held[state.to_act]))  # every card held

    def play_error(self, state: cr.State, play: cr.Play) -> cr.IllegalMoveError | None:
        return not_held(state, play)  # any card held may be played

    def play(self, state: cr.State, play: cr.Play) -> cr.State:
        best = state.best
        if best is None or play.card.rank >= best.card.rank:
            best = play
        table = state.table
        assert table is not None
        if len(state.trick) + 1 < len(table.seats):
            return next_turn(state, play, to_act=table.after[play.seat], best=best)
        return self._score(take_trick(state, play, taker=best.seat), best)  # one trick a round

    # --8<-- [end:play]

    # --8<-- [start:score]
    def _score(self, state: cr.State, best: cr.Play) -> cr.State:
        m = state.match
        rules: HighCardRules = m.rules  # type: ignore[assignment]
        points = tuple(best.card.rank if s == best.seat else 0 for s in range(state.num_players))
        totals = tuple(t + p for t, p in zip(m.totals, points, strict=True))
        number = m.rounds + 1
        low = min(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == low) if number >= rules.round_count else ()
        result = cr.RoundResult(number, points, totals)
        match = attrs.evolve(
            m, totals=totals, rounds=number, results=m.results.append(result), winners=winners
        )
        return end_round(state, match=match)

    def max_actions(self, rules: cr.Rules, players: int) -> int:
        assert isinstance(rules, HighCardRules)
        return rules.round_count * (1 + players)

    # --8<-- [end:score]


# --8<-- [start:instance]
GAME = HighCardGame()
"""The game, ready to register."""
# --8<-- [end:instance]
