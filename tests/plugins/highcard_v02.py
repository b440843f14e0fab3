"""High Card as 0.2 wrote it: the copy kept to test the one-release shim of the `Game` contract.

This is tests/plugins/highcard.py as cucumber_rules 0.2 had it, unchanged but for this
docstring and its registry names (`highcard-v02`, preset `highcard-v02`, alias
`high-card-v02`, so it can be registered beside the 1.0 High Card). It defines 0.2's flat
hook `heuristic` on the game class, builds states with positional `cr.State(...)` and ends a
trick by hand. 1.0 moves the flat hook into its group (`bots.heuristic`) with a
`DeprecationWarning` when the class is defined; `tests/test_contract.py` checks that it still
registers, plays and passes `check_game`. Remove it with the shim.
"""

# 0.2's `Game` was not generic: the class below subclasses it bare, as 0.2's plug-ins did.
# mypy: disable-error-code="type-arg"

# --8<-- [start:imports]
from __future__ import annotations

import random
from typing import Any, ClassVar

import attrs

import cucumber_rules as cr
from cucumber_rules.dealing import after_table, deal_error, shuffled_deal
from cucumber_rules.state import held_cards, without_trick

# --8<-- [end:imports]

__all__ = ["GAME", "HighCardGame", "HighCardRules"]


# --8<-- [start:rules]
@attrs.frozen(kw_only=True)
class HighCardRules(cr.Rules):
    """The rules of High Card: one card each per round, `rounds` rounds."""

    game = "highcard-v02"
    rounds: int = cr.option(5, meaning="rounds in a match; the lowest total wins")

    def validate(self) -> None:
        """One card each, at least one round, the 52-card deck."""
        if self.deck != "standard-52":
            raise cr.InvalidRulesError("deck", "High Card is played with the standard-52 deck")
        if self.hand_size != 1:
            raise cr.InvalidRulesError("hand_size", "High Card deals one card to each player")
        if self.rounds < 1:
            raise cr.InvalidRulesError("rounds", f"rounds must be at least 1, not {self.rounds}")


PRESET = HighCardRules(
    name="highcard-v02", deck="standard-52", min_players=2, max_players=6, hand_size=1, rounds=5
)
# --8<-- [end:rules]


# --8<-- [start:game]
class HighCardGame(cr.Game):
    """One trick a round; the highest card pays its rank."""

    name: ClassVar[str] = "highcard-v02"
    title: ClassVar[str] = "High Card"
    rules_type = HighCardRules
    presets: ClassVar = {"highcard-v02": PRESET}
    aliases: ClassVar = {"high-card-v02": "highcard-v02"}
    error_codes: ClassVar = {}  # every card held may be played: no rule of play to break
    match_type = cr.Match
    table_type = cr.Table
    trick_type = cr.Trick
    result_type = cr.RoundResult
    view_type = cr.PlayerView
    preset_titles: ClassVar = {"highcard-v02": "High Card"}
    # --8<-- [end:game]

    # --8<-- [start:deal]
    def _starter(self, state: cr.State) -> int:
        m = state.match
        return (m.first + m.rounds) % len(m.players)

    def deal_error(self, state: cr.State, deal: cr.Deal) -> cr.IllegalMoveError | None:
        n = len(state.players)
        return deal_error(deal, players=n, seats=range(n), per=1, deck=cr.DECKS["standard-52"])

    def sample_deal(self, state: cr.State, rng: random.Random) -> cr.Deal:
        n = len(state.players)
        return shuffled_deal(rng, cr.DECKS["standard-52"], players=n, seats=range(n), per=1, stock=False)

    def start_round(self, state: cr.State, deal: cr.Deal) -> cr.State:
        n = len(state.players)
        starter = self._starter(state)
        seats = tuple(range(n))
        table = cr.Table(seats=seats, after=after_table(seats, n), leader=starter)
        match = attrs.evolve(state.match, dealer=(starter - 1) % n)
        return cr.State(starter, match, table, held_cards(deal.hands), past=state.history.append(deal))

    # --8<-- [end:deal]

    # --8<-- [start:play]
    def legal(self, state: cr.State) -> tuple[cr.Action, ...]:
        seat = state.to_act
        assert seat is not None
        return tuple(dict.fromkeys(state.held[seat]))  # its plays; it has not played in this trick

    def play_error(self, state: cr.State, play: cr.Play) -> cr.IllegalMoveError | None:
        if play in state.held[play.seat]:
            return None
        held = ", ".join(str(c) for c in state.hand(play.seat))
        return cr.IllegalMoveError(
            "not-in-hand",
            f"seat {play.seat} cannot play {play.card}: it is not in their hand (they hold {held})",
            seat=play.seat,
            action=play,
        )

    def play(self, state: cr.State, play: cr.Play) -> cr.State:
        trick = (*state.trick, play)
        best = state.best
        if best is None or play.card.rank >= best.card.rank:
            best = play
        table = state.table
        assert table is not None
        if len(trick) < len(state.players):
            return cr.State(
                table.after[play.seat], state.match, table, state.held, trick, best, None, state.past
            )
        return self._finish(state, table, trick, best)

    # --8<-- [end:play]

    # --8<-- [start:finish]
    def _finish(
        self,
        state: cr.State,
        table: cr.Table,
        trick: Any,
        best: cr.Play,
    ) -> cr.State:
        m = state.match
        rules: HighCardRules = m.rules  # type: ignore[assignment]
        n = len(m.players)
        points = tuple(best.card.rank if s == best.seat else 0 for s in range(n))
        totals = tuple(t + p for t, p in zip(m.totals, points, strict=True))
        number = m.rounds + 1
        winners: tuple[int, ...] = ()
        if number >= rules.rounds:
            low = min(totals)
            winners = tuple(s for s in range(n) if totals[s] == low)
        done = cr.Trick(table.leader, trick, best.seat)
        table = attrs.evolve(table, leader=best.seat, tricks=(*table.tricks, done))
        match = attrs.evolve(
            m,
            totals=totals,
            rounds=number,
            results=m.results.append(cr.RoundResult(number, points, totals)),
            winners=winners,
        )
        held = without_trick(state.held, trick)  # the trick's cards leave the hands
        return cr.State(
            None if winners else cr.CHANCE, match, table, held, (), None, None, state.past.extend(trick)
        )

    # --8<-- [end:finish]

    # --8<-- [start:rest]
    def max_actions(self, rules: cr.Rules, players: int) -> int:
        hc: HighCardRules = rules  # type: ignore[assignment]
        return hc.rounds * (1 + players)

    def heuristic(self, view: cr.PlayerView, rng: random.Random, *, caution: float = 1.0) -> cr.Action:
        return view.legal[0]  # one card: nothing to think about

    # --8<-- [end:rest]


# --8<-- [start:instance]
GAME = HighCardGame()
"""The game, ready to register."""
# --8<-- [end:instance]
