"""What a game knows about sampling hidden worlds: the `Sampling` hook group (`Game.sampling`)."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Deal, trusted_deal
from ..cards import DECKS, Card
from ..game import HookGroup, game_of
from ..state import State
from ..views import Dealt, Event, PlayerView
from .assign import assign_cards, joined_hands, remaining_cards
from .rounds import search_round

__all__ = ["Sampling"]


class Sampling(HookGroup):
    """The hook group `sample_world` asks: `Game.sampling` (see `Game`).

    The defaults deal the rest of the rules' deck uniformly and search for earlier
    rounds by random play; a game whose rounds are rare under random play builds them.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["catastrophe"].sampling).__name__, type(cr.Game.sampling).__name__
        ('CatastropheSampling', 'Sampling')
    """

    __slots__ = ()
    attribute = "sampling"  # (`Game.sampling`)

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """A deal for the round due in `state` that fits what a viewer knows (for `sample_world`).

        Each seat `s` gets its `known` cards plus hidden ones up to `dealt.sizes[s]`, each
        hidden card one that `allowed(s, card)` accepts; `events` are the round's public
        events other than plays and decisions (Catastrophe's revealed cards). The default
        deals the rest of the `rules.deck` deck with `sampling.assign_cards`, with no stock
        and the announced `dealt.leader`. None if no deal fits.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> d = cr.Dealt(hand=(cr.card("2C"),), sizes=(1, 1))
            >>> Sampling().complete_deal(s, ((cr.card("2C"),), ()), d, (), lambda s, c: c.rank == 14,
            ...                         random.Random(1)).hands[1][0].rank
            14
        """
        pool = remaining_cards(DECKS[state.match.rules.deck], *known)
        needs = [size - len(hand) for size, hand in zip(dealt.sizes, known, strict=True)]
        found = assign_cards(pool, needs, allowed, rng)
        if found is None:
            return None
        return trusted_deal(joined_hands(known, found[0]), (), dealt.leader)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """The state after a legal round `index` (0-based) from `state` (its deal due) that ends with
        `view.results[index]`, with any decisions taken after it (for `sample_world`).

        The view sums up the rounds before its own in `results`; any legal round with the same
        result will do. The default searches with `sampling.search_round` (no decisions);
        a game whose results are rare under random play overrides it with a construction.

        Raises:
            ValueError: If no such round was found.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> v = cr.view(cr.apply_all(s, [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"),
            ...                              cr.Play(1, "KS")]), 0)
            >>> Sampling().rebuild_round(s, v, 0, random.Random(1)).match.totals
            (0, 13)
        """
        found = search_round(state, view.results[index], rng)
        if found is None:
            raise ValueError(f"could not rebuild round {index + 1} of this {game_of(state).name} match")
        return found
