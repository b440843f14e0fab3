"""Catastrophe's earlier hands checked without their cards: the points a hand can score, folded into a match.

A view sums its earlier hands up in `results`. `HandCheck` tells which points a hand's seats
can score together (necessary conditions, from the deck's cucumbers); `fold_results` scores
each earlier hand in the engine from captured cards worth those points, so the totals, the
winners and the next starter are the engine's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import Card
from ...dealing import after_table
from ...errors import InvalidStateError
from ...history import EMPTY
from ...state import CHANCE, State
from ...tricks import state_builder
from .rules import BONUS, BONUS_FIVES, CatastropheRules
from .scoring import finish_hand
from .types import CatastropheState, CatastropheTable

if TYPE_CHECKING:
    from ...views import PlayerView


def fold_results(view: PlayerView, count: int) -> State:
    """The state before hand `count + 1` of the view's match, from its first `count` results.

    Each hand's points must pass `HandCheck`; the engine then scores the hand from captured
    cards that score those points (no hand is played: the state's history leaves the earlier
    hands out, and its table is not a real one). It serves to check the view, not to replay.

    Raises:
        InvalidStateError: Naming the first result no hand can give.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.games.catastrophe.sampling import rebuild_hand
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> after = rebuild_hand(s, target, random.Random(1))
        >>> fold_results(cr.view(after, 0), 1).match == after.match
        True
    """
    from ...engine import new_game

    state = new_game(view.rules, view.players, first=view.first)
    rules = view.rules
    assert isinstance(rules, CatastropheRules)
    check = HandCheck(rules, len(view.players))
    for index in range(count):
        target = view.results[index]
        if state.to_act != CHANCE:
            raise InvalidStateError(f"$.results[{index}]", f"the match was over after hand {index}")
        problem = check.problem(target.points)
        if problem is not None:
            where, message = problem
            raise InvalidStateError(f"$.results[{index}].points{where}", message)
        after = score_hand(state, target.points, check)
        got = after.match.results[-1]
        if got != target:
            seat = next(s for s, (a, b) in enumerate(zip(got.totals, target.totals, strict=True)) if a != b)
            raise InvalidStateError(
                f"$.results[{index}].totals[{seat}]",
                f"must be the total before plus the hand's points ({got.totals[seat]})",
            )
        state = after
    return state


def score_hand(state: State, points: tuple[int, ...], check: HandCheck) -> State:
    """The state after a hand from `state` (its deal due) in which each seat scored `points`.

    The engine scores the hand from captured cards that score those points (`HandCheck.captured`),
    so the totals, the winners and the next starter are its own; nothing is played.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_count=1), players=3)
        >>> after = score_hand(s, (3, 20, 7), HandCheck(s.rules, 3))
        >>> after.match.totals, after.match.winners
        ((3, 20, 7), (0,))
    """
    n = len(points)
    seats = tuple(range(n))
    captured = tuple(check.captured(p) for p in points)
    table = CatastropheTable(seats, after_table(seats, n), 0, captured=captured)
    assert state.to_act == CHANCE
    # (no history: only the match matters here)
    return finish_hand(
        state_builder(CatastropheState)(CHANCE, state.match, table, ((),) * n, (), None, None, EMPTY, None)
    )


class HandCheck:
    """Which points a hand's seats can score, for one rule set and number of players (necessary
    conditions, checked without cards).

    A seat captures whole tricks (`n` cards each, `n + 1` with Surprise Cucumber), so its
    points must be the cucumbers of `size * t` of the deck's cards for some number of tricks
    `t` (with If You Can't Beat 'Em: at most three 5-cucumber cards, or four and more for
    -5), and the seats' tricks must add up to the hand's. The sums of `k` cards are worked
    out once, as bit sets.

    Example:
        >>> import cucumber_rules as cr
        >>> check = HandCheck(cr.ruleset("catastrophe"), 3)
        >>> check.problem((12, 9, 17)) is None, check.problem((12, 9, 18))
        (True, ('', 'no cards of whole tricks score these points together'))
    """

    def __init__(self, rules: CatastropheRules, players: int) -> None:
        p = rules._plan
        self.players = players
        self.per = rules.cards_per_player(players)
        self.size = players + 1 if rules.surprise else players
        self.cbe = rules.cant_beat_em
        self.fives = len(p.fives)
        self.five_card = p.fives[0] if p.fives else None
        worths: dict[int, list[Card]] = {}
        for c in p.others:
            worths.setdefault(p.cucumbers[c.rank], []).append(c)
        self.worths = worths
        most = self.per * self.size
        # sums[k]: a bit set of the cucumbers `k` cards other than 5-cucumber cards can score
        sums = [1] + [0] * most
        for worth, cards in worths.items():
            grown = [0] * (most + 1)
            for k, have in enumerate(sums):
                if have:
                    for extra in range(min(len(cards), most - k) + 1):
                        grown[k + extra] |= have << (worth * extra)
            sums = grown
        self.sums = sums
        self._tricks: dict[int, int] = {}
        self._captured: dict[int, tuple[Card, ...]] = {}

    def tricks(self, points: int) -> int:
        """The numbers of tricks whose cards can score `points` for one seat, as a bit set."""
        found = self._tricks.get(points)
        if found is None:
            found = 0
            bonus = self.cbe and points == BONUS
            if points >= 0 or bonus:
                for t in range(self.per + 1):
                    k = self.size * t
                    top = min(self.fives, k)
                    for f in range(
                        BONUS_FIVES if bonus else 0, top + 1 if bonus or not self.cbe else min(top, 3) + 1
                    ):
                        rest = self.sums[k - f]
                        if rest and (bonus or (points >= 5 * f and rest >> (points - 5 * f) & 1)):
                            found |= 1 << t
                            break
            self._tricks[points] = found
        return found

    def problem(self, points: tuple[int, ...]) -> tuple[str, str] | None:
        """Why no hand scores `points`: (`[seat]` or "", message), or None."""
        reach = 1
        for seat, score in enumerate(points):
            options = self.tricks(score)
            if not options:
                return (
                    f"[{seat}]",
                    f"{score} cucumbers cannot be captured in a hand of {self.players} players",
                )
            grown = 0
            t = 0
            while options:
                if options & 1:
                    grown |= reach << t
                options >>= 1
                t += 1
            reach = grown
        if not reach >> self.per & 1:
            return "", "no cards of whole tricks score these points together"
        if self.cbe and sum(1 for x in points if x == BONUS) * BONUS_FIVES > self.fives:
            return "", f"-5 needs {BONUS_FIVES} of the {self.fives} 5-cucumber cards: one seat at most"
        return None

    def captured(self, points: int) -> tuple[Card, ...]:
        """Cards that score `points` in the engine's count (only their cucumbers matter here).

        Only for points `tricks` accepts: -5 is four 5-cucumber cards, anything else the
        fewest cards of the deck's worths (repeats allowed) with at most three 5-cucumber cards.
        """
        found = self._captured.get(points)
        if found is None:
            found = self._captured[points] = self._cards_for(points)
        return found

    def _cards_for(self, points: int) -> tuple[Card, ...]:
        if self.cbe and points == BONUS:
            assert self.five_card is not None
            return (self.five_card,) * BONUS_FIVES
        coins = sorted(self.worths, reverse=True)
        fives = min(points // 5, 3 if self.cbe else points // 5) if self.five_card is not None else 0
        for f in range(fives, -1, -1):
            found = _change(points - 5 * f, coins)
            if found is not None:
                picked = [self.worths[w][0] for w in found]
                fives_picked = (self.five_card,) * f if self.five_card is not None else ()
                return (*fives_picked, *picked)
        raise AssertionError(f"no cards score {points}")  # (`tricks` accepted it: some cards do)


def _change(amount: int, coins: list[int]) -> list[int] | None:
    """`amount` as a sum of `coins` (each any number of times), or None (coins are small: a tiny search)."""
    best: list[list[int] | None] = [[]] + [None] * amount
    for total in range(1, amount + 1):
        for coin in coins:
            before = best[total - coin] if 0 < coin <= total else None
            if before is not None:
                best[total] = [*before, coin]
                break
    return best[amount]
