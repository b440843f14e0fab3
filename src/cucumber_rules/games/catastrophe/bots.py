"""Catastrophe's bot knowledge and statistics: its heuristic, and the cucumbers each hand cost."""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from math import isfinite
from typing import TYPE_CHECKING, ClassVar, Final, cast

from ...actions import Action, Play
from ...bots import Bots
from ...cards import Card
from ...simulate import Stats
from ...views import PlayerView, glance
from .rules import PRESETS, CatastropheRules, Marker

if TYPE_CHECKING:
    from ...state import State

__all__ = ["CatastropheBots", "CatastropheStats"]


class CatastropheBots(Bots):
    """Catastrophe's heuristic: avoid capturing cucumbers.

    Example:
        >>> type(CatastropheBots()).__name__
        'CatastropheBots'
    """

    __slots__ = ()

    def heuristic(self, view: PlayerView, rng: random.Random, *, caution: float = 1.0) -> Action:
        """Avoid capturing cucumbers: play cards that cannot take the trick, shed the dangerous ones.

        For each legal card it estimates the chance of ending up with the trick (a
        card that does not take the trick now can never take it later) and the
        cucumbers it would capture, and prefers safe plays that get rid of
        5-cucumber and extreme cards. `caution` weighs the expected capture against
        the value of shedding a dangerous card.

        It reads the view through `views.glance` (a decision costs a few raw
        moves, not a view filled in) and counts the cards it has not seen (not in
        its hand, the trick or a captured pile) only when players after it could
        still take the trick.

        Raises:
            ValueError: If `caution` is not a finite number.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=4)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(5)))
            >>> v = cr.view(s, s.to_act)
            >>> CatastropheBots().heuristic(v, random.Random(6)) in v.legal
            True
        """
        if not isfinite(caution):
            raise ValueError(f"caution must be a finite number, not {caution!r}")
        plays = cast("tuple[Play, ...]", view.legal)  # (Catastrophe has no decisions)
        if not plays:
            return rng.choice(plays)
        best: list[Play] = []
        high = low = -float("inf")  # the best gain so far, give or take 1e-9
        for p, gain in zip(plays, card_gains(view, plays, caution), strict=True):
            if gain > high:
                best, high, low = [p], gain + 1e-9, gain - 1e-9
            elif gain >= low:
                best.append(p)
        return best[0] if len(best) == 1 else rng.choice(best)


class CatastropheStats(Stats):
    """Catastrophe's statistics: each seat's cucumbers in each finished hand.

    Example:
        >>> CatastropheStats.penalty_words
        'cucumbers per seat per hand'
    """

    __slots__ = ()

    penalty_words: ClassVar[str] = "cucumbers per seat per hand"

    def penalties(self, state: State) -> tuple[int, ...]:
        """Each seat's cucumbers in each finished hand."""
        return tuple(p for r in state.match.results for p in r.points)


# --------------------------------------------------------------------------- the heuristic


def card_gains(view: PlayerView, plays: tuple[Play, ...], caution: float) -> list[float]:
    """What the heuristic sees in each play: the card's liability shed, less the risk of taking the trick
    times what it would capture.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
        ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
        >>> v = cr.view(s, 0)
        >>> [str(p.card) for p in v.legal], card_gains(v, v.legal, 1.0)  # leading: nothing to capture
        (['30', '60'], [0.0, 0.9666666666666667])
    """
    rules = cast("CatastropheRules", view.rules)
    plan = rules._plan
    liability = plan.liability
    seats, hand, trick, own = glance(view)
    revealed: Card | None = own["revealed"]
    if not trick and revealed is None:  # leading: the lead card never takes the trick, so only the liability
        return [liability[p.card.rank] for p in plays]
    per_card = plan.cucumbers
    # Each card's gain: its liability shed (5-cucumber cards are costly to keep; extreme ranks take
    # tricks later), less the risk of taking the trick times what it would capture: the cucumbers
    # in play (the revealed lead's too) and those still to come.
    trick_ranks = [p.card.rank for p in trick]
    trick_cuc = 0
    for r in trick_ranks:  # (a loop: cheaper than `sum` over a `map`)
        trick_cuc += per_card[r]
    if revealed is not None:  # the revealed card leads: every card played follows it
        lead_rank = revealed.rank
        played = trick_ranks
        trick_cuc += per_card[lead_rank]
    else:
        lead_rank = trick_ranks[0]
        played = trick_ranks[1:]
    later = seats - len(trick) - 1
    ranks = [p.card.rank for p in plays]
    seen: list[int] = []
    expected_later = 0.0
    if later <= 0:  # (none still to come for the last)
        later = 0
    else:  # players after this one could take the trick: count the cards not seen
        seen = [c.rank for got in own["captured"] for c in got]
        seen += ranks if hand is plays else [p.card.rank for p in hand]  # (every card legal: the same tuple)
        seen += trick_ranks
        if revealed is not None:
            seen.append(lead_rank)
        seen.sort()
        unseen_cuc = plan.total
        for r in seen:
            unseen_cuc -= per_card[r]
        n = len(plan.deck) - len(seen)
        mean_cuc = unseen_cuc / n if n else 1.0
        expected_later = later * mean_cuc
    risks = card_risks(ranks, lead_rank, played, trick_ranks, own["marker"], seen, plan.below, later)
    gains = []
    for r, risk in zip(ranks, risks, strict=True):
        gain = liability[r]
        if risk:
            gain -= caution * risk * (trick_cuc + per_card[r] + expected_later)
        gains.append(gain)
    return gains


def card_risk(
    r: int,
    lead_rank: int | None,
    played: Sequence[int],
    trick_ranks: Sequence[int],
    rule: Marker | None,
    unseen: Sequence[int],
    later: int,
) -> float:
    """The estimated chance that playing a card of rank `r` ends with this seat taking the trick.

    `played` are the ranks played to the trick but the lead's, `trick_ranks` every rank
    played to it. `unseen` are the unseen cards' ranks (of 1..60): the cards still to come
    are drawn from them (or from those on one side of the lead's rank), and each beats `r`
    or not. One card's `card_risks`.

    Example:
        >>> card_risk(40, 30, [35], [30, 35], Marker.HIGH, [10, 20, 38, 45], later=1)
        0.5
    """
    seen = sorted(set(range(1, 61)).difference(unseen))
    return card_risks([r], lead_rank, played, trick_ranks, rule, seen, BELOW_60, later)[0]


#: For the 60-card deck: how many of its ranks (1..60) are below each rank 0..61.
BELOW_60: Final = PRESETS["catastrophe"]._plan.below

#: Each marker (or its string): whether it is broken, whether the lowest card wins.
_MARKS: Final[dict[str, tuple[bool, bool]]] = {m: (m.broken, m.lowest_wins) for m in Marker}


def card_risks(
    cards: Sequence[int],
    lead_rank: int | None,
    played: Sequence[int],
    trick_ranks: Sequence[int],
    rule: str | None,
    seen: Sequence[int],
    below: Sequence[int],
    later: int,
) -> list[float]:
    """`card_risk` for each rank of `cards`, with what they share (the lead's place, the rule) found once.

    The unseen cards are the deck's but the `seen` ranks (sorted): `below[x]` deck ranks
    are below rank `x`, so `below[x] - bisect_left(seen, x)` unseen ranks are. `rule` is
    the Trick Marker (or its string).

    Example:
        >>> seen = sorted(set(range(1, 61)) - {10, 20, 38, 45})
        >>> card_risks([40, 36, 20], 30, [35], [30, 35], Marker.HIGH, seen, BELOW_60, later=1)
        [0.5, 0.0, 0.75]
    """
    if lead_rank is None:
        return [0.0] * len(cards)  # the leader's card is never the highest or lowest that takes the trick
    n = below[-1] - len(seen)
    # The unseen ranks, in order, are [0, under) below the lead and [over, n) above it.
    under = below[lead_rank] - bisect_left(seen, lead_rank)
    over = below[lead_rank + 1] - bisect_right(seen, lead_rank)
    broken, rule_lowest = (False, False) if rule is None else _MARKS[rule]
    current: int | None = None  # the rank that takes the trick so far (worked out when needed)
    out: list[float] = []
    for r in cards:
        if rule is None:
            # This card sets the rule: it takes the trick for now, whichever way it goes.
            lowest_wins = r < lead_rank
            lo, hi = (0, under) if lowest_wins else (over, n)
        elif not broken:
            lowest_wins = rule_lowest
            if r < lead_rank if lowest_wins else r > lead_rank:  # obeys the rule
                if current is None:
                    current = min(played) if lowest_wins else max(played)
                if r >= current if lowest_wins else r <= current:  # does not beat the card taking
                    out.append(0.0)
                    continue
                lo, hi = (0, under) if lowest_wins else (over, n)
            else:
                # Breaking the rule flips it: this card (below or above every card so far) takes for now.
                lowest_wins = not lowest_wins
                lo, hi = 0, n
        else:
            lowest_wins = rule_lowest
            if current is None:
                all_ranks = [*trick_ranks, lead_rank]
                current = min(all_ranks) if lowest_wins else max(all_ranks)
            if r >= current if lowest_wins else r <= current:
                out.append(0.0)
                continue
            lo, hi = 0, n
        if later == 0:
            out.append(1.0)
            continue
        if lo == hi:
            lo, hi = 0, n
        if lo == hi:
            out.append(1.0)
            continue
        # The unseen ranks of [lo, hi) that would beat r: those below it, or those above it.
        if lowest_wins:
            k = below[r] - bisect_left(seen, r)  # unseen ranks below r
            beating = (hi if k > hi else k if k > lo else lo) - lo
        else:
            k = below[r + 1] - bisect_right(seen, r)  # unseen ranks up to r
            beating = hi - (hi if k > hi else k if k > lo else lo)
        out.append((1.0 - beating / (hi - lo)) ** later)
    return out
