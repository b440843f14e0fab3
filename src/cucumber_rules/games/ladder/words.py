"""The ladder games in words and pictures: narration, the CLI's questions, the docs' tables, the cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ...narrate import Words
from ...render.hooks import Pictures
from .rules import CUCUMBERS_BY_RANK
from .types import LadderMatch, LadderResult, LadderView, Revive

if TYPE_CHECKING:
    from ...actions import Decision
    from ...cards import Card
    from ...rules import Rules
    from ...state import RoundResult, State, Trick
    from ...views import PlayerView
    from .rules import LadderRules

__all__ = ["LadderPictures", "LadderWords"]


class LadderWords(Words):
    """The ladder's words: who deals and leads, who paid for which card, marks and eliminations, revival.

    Example:
        >>> import cucumber_rules as cr
        >>> LadderWords().ranking(cr.ruleset("agurk", fixed_rounds=3))
        'Ranked by lowest total.'
    """

    __slots__ = ()

    def describe_deal(self, state: State) -> str:
        """`Round 3: Bo deals, Cy leads (Di sits out)`.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s0 = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
            >>> s1 = cr.apply(s0, cr.sample_chance(s0, random.Random(1)))
            >>> LadderWords().describe_deal(s1)
            'Round 1: Cy deals, Ann leads'
        """
        m = cast("LadderMatch", state.match)
        table = state.table
        assert table is not None
        names = state.players
        sitting = [s for s in range(len(names)) if s not in table.seats and not m.out[s]]
        line = f"Round {m.rounds + 1}: {names[m.dealer]} deals, {names[table.leader]} leads"
        if sitting:
            line += " (" + ", ".join(names[s] for s in sitting) + " sits out)"
        return line

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """`trick 7: Ann 2C, Bo 9S → Bo takes the last trick`.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka"), players=["Ann", "Bo"])
            >>> t = cr.Trick(0, (cr.Play(0, "2C"), cr.Play(1, "9S")), 1)
            >>> LadderWords().describe_trick(s, t, 7, last=True)
            'trick 7: Ann 2C, Bo 9S → Bo takes the last trick'
        """
        names = state.players
        plays = ", ".join(f"{names[p.seat]} {p.card}" for p in trick.plays)
        return f"trick {number}: {plays} → {names[trick.taker]}" + (" takes the last trick" if last else "")

    def describe_result(self, state: State, result: RoundResult) -> list[str]:
        """Who paid what for which card, tie bonuses, cucumber marks, eliminations, returns, the round limit.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
            >>> r = cr.LadderResult(1, (0, 9, -9), (0, 9, 0), payer=1, card=cr.card("9S"))
            >>> LadderWords().describe_result(s, r)
            ['Bo pays 9 for 9S (total 9)', 'Cy played the same rank: -9 (total 0)']
            >>> s = cr.new_game(cr.ruleset("agurk", reverse=True), players=["Ann", "Bo", "Cy"])
            >>> r = cr.LadderResult(1, (0, 0, 14), (0, 0, 14), payer=2, card=cr.card("AD"))
            >>> LadderWords().describe_result(s, r)
            ['Cy pays 14, the value of the highest card AD (total 14)']
        """
        assert isinstance(result, LadderResult)
        names = state.players
        rules = cast("LadderRules", state.match.rules)
        lines = []
        payer = result.payer
        before_reset = result.totals[payer] if payer not in result.marked else None
        total = f" (total {before_reset})" if before_reset is not None else ""
        if rules.reverse:  # the lowest card pays the value of the highest, which another seat may have played
            lines.append(
                f"{names[payer]} pays {result.points[payer]}, "
                f"the value of the highest card {result.card}{total}"
            )
        else:
            lines.append(f"{names[payer]} pays {result.points[payer]} for {result.card}{total}")
        for seat, points in enumerate(result.points):
            if points < 0:
                lines.append(f"{names[seat]} played the same rank: {points} (total {result.totals[seat]})")
        for seat in result.marked:
            lines.append(
                f"{names[seat]} crosses {rules.threshold}: a cucumber mark, "
                f"score reset to {result.totals[seat]}"
            )
        for seat in result.went_out:
            lines.append(f"{names[seat]} is eliminated")
        for seat in result.returned:
            lines.append(f"{names[seat]} is back in with {result.totals[seat]}")
        m = cast("LadderMatch", state.match)
        if rules.fixed_rounds is None and m.winners and result.number == m.rounds and m.out.count(0) > 1:
            lines.append("Round limit reached: the lowest total still in wins")
        return lines

    def describe_seat(self, state: State, seat: int) -> str:
        """`" (out)"`, `" (marked)"` or `" (2 marks)"` after a seat's total.

        Example:
            >>> import cucumber_rules as cr
            >>> LadderWords().describe_seat(cr.new_game(cr.ruleset("agurk"), players=3), 0)
            ''
        """
        m = cast("LadderMatch", state.match)
        rules: LadderRules = m.rules
        if m.out[seat]:
            return " (out)"
        if m.marks[seat] and rules.lives > 1:
            return " (marked)" if m.marks[seat] == 1 else f" ({m.marks[seat]} marks)"
        return ""

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """The rows of a ladder preset's at-a-glance table in the docs.

        Example:
            >>> import cucumber_rules as cr
            >>> LadderWords().facts(cr.ruleset("gurka"))[-1]
            ('threshold', '30 (reaching it eliminates)')
            >>> LadderWords().facts(cr.ruleset("gurka", round_limit=20))[-1]
            ('round limit', '20 rounds, then the lowest total still in wins')
        """
        if rules.lives == 1:
            lives = "reaching it eliminates"
        else:
            lives = (
                f"{rules.lives} lives: each crossing but the last draws a cucumber mark and resets the total"
            )
        if rules.fixed_rounds is not None:
            return [
                ("cards per player", str(rules.hand_size)),
                (
                    "match",
                    f"{rules.fixed_rounds} rounds, the lowest total wins; "
                    "only the last trick of a round scores",
                ),
            ]
        rows = [
            ("cards per player", str(rules.hand_size)),
            ("match", "rounds until one player is left; only the last trick of a round scores"),
            ("threshold", f"{rules.threshold} ({lives})"),
        ]
        if rules.round_limit is not None:
            rows.append(("round limit", f"{rules.round_limit} rounds, then the lowest total still in wins"))
        return rows

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


class LadderPictures(Pictures):
    """What the ladder draws: Five Cucumbers' cucumbers on the cards, marks, eliminations.

    Example:
        >>> import cucumber_rules as cr
        >>> LadderPictures().card_icons(cr.ruleset("five-cucumbers"), cr.card("15"))
        5
    """

    __slots__ = ()

    def card_icons(self, rules: Rules, card: Card) -> int:
        """A Five Cucumbers card shows its cucumbers; a 52-card deck's cards none."""
        numbered = card.suit is None and card.rank < len(CUCUMBERS_BY_RANK)
        return CUCUMBERS_BY_RANK[card.rank] if numbered else 0

    def points_word(self, rules: Rules) -> str:
        """`"cucumbers"` with the cucumbers penalty, else `"points"`."""
        return "cucumbers" if rules.penalty == "cucumbers" else "points"

    def is_out(self, view: PlayerView, seat: int) -> bool:
        """An eliminated seat is out."""
        v = cast("LadderView", view)
        return v.eliminated[seat]

    def total_note(self, view: PlayerView, seat: int) -> str:
        """`", 1 mark ✱"` after the total of a seat with cucumber marks."""
        v = cast("LadderView", view)
        marks = v.marks[seat]
        return f", {marks} mark{'s' if marks > 1 else ''} ✱" if marks else ""

    def results_note(self, view: PlayerView) -> str:
        """`"✱ cucumber marks: Ann 1"` when a seat has marks."""
        v = cast("LadderView", view)
        if not any(v.marks):
            return ""
        return "✱ cucumber marks: " + ", ".join(f"{v.players[s]} {m}" for s, m in enumerate(v.marks) if m)

    def result_note(self, result: RoundResult, seat: int) -> str:
        """` ✱` for a cucumber mark, ` out` for an elimination."""
        r = cast("LadderResult", result)
        return " out" if seat in r.went_out else " ✱" if seat in r.marked else ""
