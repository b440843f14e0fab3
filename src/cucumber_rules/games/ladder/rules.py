"""The ladder games' rules: `LadderRules`, its options, presets and validation.

Agurk, Gurka, Five Cucumbers and fuenf-gurken are one trick mechanism with
different options. Every option is a field of `LadderRules`; the presets are
values of it. What the engine reads in its hot path is computed once per rule
set into `LadderPlan`, a frozen value kept on the rules.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

import attrs

from ...cards import DECKS, Card
from ...errors import InvalidRulesError
from ...rules import Rules, option

__all__ = [
    "ALIASES",
    "CUCUMBERS_BY_RANK",
    "PRESETS",
    "LadderPlan",
    "LadderRules",
    "automatic_round_limit",
    "penalty_value",
    "round_limit",
]

#: Five Cucumbers' cucumbers on a card, by rank (index 0 unused): 1→0, 2–5→1, 6–9→2, 10–11→3, 12–14→4, 15→5.
CUCUMBERS_BY_RANK: Final = (0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5)

_LADDER_DECKS: Final = ("standard-52", "five-cucumbers-60")


def penalty_value(penalty: str, rank: int) -> int:
    """What the last trick costs when a card of `rank` takes it, before doubling.

    Example:
        >>> penalty_value("card-value", 12), penalty_value("cucumbers", 12), penalty_value("cucumbers", 1)
        (12, 4, 0)
    """
    return CUCUMBERS_BY_RANK[rank] if penalty == "cucumbers" else rank


def automatic_round_limit(rules: LadderRules, players: int) -> int:
    """The round limit when `round_limit` is None: far beyond any real match played to elimination.

    `4 x players x lives x (threshold + 1)` rounds (twice that with `revival`), plus 50.
    Every round but a rare free one (a Five Cucumbers trick of 1s pays 0) costs its
    payer at least 1, so thresholds end a match long before (random play of the
    presets stays below a tenth of it); only tie bonuses that keep lowering totals,
    or a rigged run of free rounds, could reach it.

    Example:
        >>> from cucumber_rules import ruleset
        >>> automatic_round_limit(ruleset("agurk"), 3), automatic_round_limit(ruleset("five-cucumbers"), 2)
        (578, 98)
    """
    return 4 * players * rules.lives * (rules.threshold + 1) * (2 if rules.revival else 1) + 50


def round_limit(rules: LadderRules, players: int) -> int:
    """The most rounds a match of these rules can have: `fixed_rounds`, else `round_limit`, else automatic.

    Example:
        >>> from cucumber_rules import ruleset
        >>> round_limit(ruleset("gurka", fixed_rounds=3), 2), round_limit(ruleset("gurka", round_limit=9), 2)
        (3, 9)
        >>> round_limit(ruleset("gurka"), 2)
        298
    """
    if rules.fixed_rounds is not None:
        return rules.fixed_rounds
    if rules.round_limit is not None:
        return rules.round_limit
    return automatic_round_limit(rules, players)


@attrs.frozen
class LadderPlan:
    """The rules read once into plain values for the engine's hot path (private to the engine).

    Example:
        >>> from cucumber_rules import ruleset
        >>> p = ruleset("gurka")._plan
        >>> p.forced, p.ace, p.copies
        (True, 14, False)
    """

    deck: tuple[Card, ...]
    forced: bool
    ace: int
    copies: bool
    suited: bool
    value: tuple[int, ...]
    limits: tuple[int, ...] = ()
    """`round_limit(rules, n)` for `n` players, by `n` (read at each round's end)."""


@attrs.frozen(kw_only=True)
class LadderRules(Rules):
    """The rules of the ladder games (Agurk, Gurka, Five Cucumbers, fuenf-gurken).

    Example:
        >>> from cucumber_rules import ruleset
        >>> r = ruleset("agurk")
        >>> type(r).__name__, r.threshold, r.lives, r.tie_bonus
        ('LadderRules', 21, 2, True)
    """

    game = "ladder"
    seats_limit = 7
    follow: str = option(
        "optional-lowest",
        choices=("optional-lowest", "forced-lowest"),
        meaning="optional-lowest: a card >= the highest in the trick, or the lowest card; "
        "forced-lowest: the lowest card only when no card >= the highest is held",
    )
    ace_lead: bool = option(
        False,
        meaning="a led top-rank card (Ace) forces every other player to play their lowest card, and wins",
    )
    penalty: str = option(
        "card-value",
        choices=("card-value", "cucumbers"),
        meaning="what the last trick costs: the card's value (J 11, Q 12, K 13, A 14), "
        "or cucumbers (1:0, 2-5:1, 6-9:2, 10-11:3, 12-14:4, 15:5)",
    )
    doubling: str = option(
        "none",
        choices=("none", "per-one", "once"),
        meaning="1s in the last trick: none; x2 for each 1; or x2 once if any",
    )
    tie_bonus: bool = option(
        False,
        meaning="every other player who played the paying card's rank in the last trick "
        "subtracts the penalty (floor 0)",
    )
    threshold: int = option(21, meaning="reaching or passing this total costs a life")
    lives: int = option(
        1,
        meaning="crossings until elimination; before the last, a crossing draws a cucumber mark "
        "and resets the score to the highest score of another active player",
    )
    next_leader: str = option(
        "rotate",
        choices=("rotate", "penalized"),
        meaning="rotate: the deal passes clockwise and the seat after the dealer leads; "
        "penalized: the last round's payer leads (next active seat if out)",
    )
    reverse: bool = option(False, meaning="the lowest card of the last trick pays")
    revival: bool = option(
        False, meaning="once per match an eliminated player may buy back in by sitting out a round"
    )
    fixed_rounds: int | None = option(
        None, meaning="play this many rounds without elimination; the lowest total wins, ties share"
    )
    round_limit: int | None = option(
        None,
        meaning="a match played to elimination ends after this many rounds even if it is undecided: "
        "the lowest total among the players still in wins, ties share; None: automatic, "
        "4 x players x lives x (threshold + 1) rounds (x2 with revival) + 50, never reached in play",
    )
    _plan: LadderPlan = attrs.field(init=False, eq=False, hash=False, repr=False)
    """The engine's reading of these rules (frozen; derived, never part of the value or its JSON)."""

    def validate(self) -> None:
        """Check the ladder's own requirements: deck, cards for every seat, thresholds, revival.

        Raises:
            InvalidRulesError: Naming the offending option.

        Example:
            >>> from cucumber_rules import ruleset
            >>> ruleset("agurk", revival=True, fixed_rounds=3)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cucumber_rules.errors.InvalidRulesError: revival needs elimination, but fixed_rounds ...
        """
        deck_size = len(DECKS[self.deck])
        if self.deck not in _LADDER_DECKS:
            raise InvalidRulesError(
                "deck", f"the ladder game uses {' or '.join(_LADDER_DECKS)}, not {self.deck!r}"
            )
        if self.max_players * self.hand_size > deck_size:
            raise InvalidRulesError(
                "hand_size",
                f"{self.max_players} players x {self.hand_size} cards need "
                f"{self.max_players * self.hand_size} cards, but the {self.deck} deck has {deck_size}",
            )
        if self.threshold < 1:
            raise InvalidRulesError("threshold", f"threshold must be at least 1, not {self.threshold}")
        if self.lives < 1:
            raise InvalidRulesError("lives", f"lives must be at least 1, not {self.lives}")
        if self.fixed_rounds is not None and self.fixed_rounds < 1:
            raise InvalidRulesError(
                "fixed_rounds", f"fixed_rounds must be at least 1 (or None), not {self.fixed_rounds}"
            )
        if self.round_limit is not None and self.round_limit < 1:
            raise InvalidRulesError(
                "round_limit", f"round_limit must be at least 1 (or None), not {self.round_limit}"
            )
        if self.round_limit is not None and self.fixed_rounds is not None:
            raise InvalidRulesError(
                "round_limit",
                "round_limit limits a match played to elimination; fixed_rounds already fixes its length",
            )
        if self.fixed_rounds is not None and self.revival:
            raise InvalidRulesError("revival", "revival needs elimination, but fixed_rounds plays without it")
        if self.revival and self.max_players < 3:
            raise InvalidRulesError(
                "revival", "revival needs at least two other players left, so max_players >= 3"
            )
        if self.penalty == "cucumbers" and self.deck != "five-cucumbers-60":
            raise InvalidRulesError(
                "penalty", "the cucumbers penalty table is for the five-cucumbers-60 deck"
            )
        if self.doubling != "none" and self.deck != "five-cucumbers-60":
            raise InvalidRulesError(
                "doubling", "doubling counts 1s, which only the five-cucumbers-60 deck has"
            )

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        deck = DECKS[self.deck]
        top = max(c.rank for c in deck)
        plan = LadderPlan(
            deck=deck,
            forced=self.follow == "forced-lowest",
            ace=top if self.ace_lead else -1,
            copies=len(set(deck)) != len(deck),
            suited=deck[0].suit is not None,
            value=tuple(penalty_value(self.penalty, rank) for rank in range(top + 1)),
            limits=tuple(round_limit(self, n) for n in range(self.max_players + 1)),
        )
        object.__setattr__(self, "_plan", plan)


PRESETS: Final = MappingProxyType(
    {
        "agurk": LadderRules(
            name="agurk", deck="standard-52", min_players=3, max_players=7, hand_size=7,
            follow="optional-lowest", ace_lead=False, penalty="card-value", doubling="none", tie_bonus=True,
            threshold=21, lives=2, next_leader="rotate", reverse=False, revival=False, fixed_rounds=None,
            round_limit=None,
        ),
        "gurka": LadderRules(
            name="gurka", deck="standard-52", min_players=2, max_players=7, hand_size=7,
            follow="forced-lowest", ace_lead=True, penalty="card-value", doubling="none", tie_bonus=False,
            threshold=30, lives=1, next_leader="rotate", reverse=False, revival=False, fixed_rounds=None,
            round_limit=None,
        ),
        "five-cucumbers": LadderRules(
            name="five-cucumbers", deck="five-cucumbers-60", min_players=2, max_players=6,
            hand_size=7, follow="optional-lowest", ace_lead=False, penalty="cucumbers", doubling="per-one",
            tie_bonus=False, threshold=5, lives=1, next_leader="penalized", reverse=False, revival=False,
            fixed_rounds=None, round_limit=None,
        ),
        "fuenf-gurken": LadderRules(
            name="fuenf-gurken", deck="five-cucumbers-60", min_players=2, max_players=6,
            hand_size=7, follow="optional-lowest", ace_lead=False, penalty="cucumbers", doubling="once",
            tie_bonus=False, threshold=6, lives=1, next_leader="penalized", reverse=False, revival=False,
            fixed_rounds=None, round_limit=None,
        ),
    }
)  # fmt: skip
"""The ladder presets by name."""

ALIASES: Final = MappingProxyType(
    {
        "danish": "agurk",
        "danish-cucumber": "agurk",
        "cucumber": "agurk",
        "swedish": "gurka",
        "scandinavian": "gurka",
        "scandinavian-cucumber": "gurka",
        "kurkku": "gurka",
        "5-cucumbers": "five-cucumbers",
        "fuenf": "fuenf-gurken",
        "fünf-gurken": "fuenf-gurken",
        "funf-gurken": "fuenf-gurken",
        "5-gurken": "fuenf-gurken",
    }
)
"""Other names of the ladder presets."""
