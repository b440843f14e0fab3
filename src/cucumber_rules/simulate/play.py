"""One match between bots, seeded: its deals drawn with one generator and the bots' choices with another."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence

from ..actions import Action
from ..bots import Bot
from ..engine import apply, new_game, sample_chance
from ..rules import Rules
from ..state import CHANCE, State


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` of a simulation seeded with `seed`.

    Derived with SHA-256, so neighbouring seeds and indexes give unrelated matches,
    and the result does not depend on the Python version or hash randomisation.

    Example:
        >>> match_seed(7, 0) == match_seed(7, 0) != match_seed(7, 1)
        True
    """
    digest = hashlib.sha256(f"cucumber_rules:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _rngs(seed: int) -> tuple[random.Random, random.Random]:
    """Separate generators for the deals and the bots, so the deals do not depend on the bots."""
    return random.Random(match_seed(seed, -1)), random.Random(match_seed(seed, -2))


def play_steps(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    seed: int,
    players: Sequence[str] | None = None,
    first: int = 0,
    state: State | None = None,
) -> Iterator[tuple[State, Action, State]]:
    """Play a match between bots, yielding `(before, action, after)` for every action.

    Deals are drawn with one generator and the bots' choices with another, both
    derived from `seed`. Each bot sees only its own `PlayerView`.

    Args:
        rules: The rules.
        bots: One bot per seat.
        seed: The match's seed.
        players: Seat names (default `"seat 0"`, ...).
        first: The seat that leads the first trick.
        state: Continue from this state instead of starting a new match.

    Yields:
        The state before, the action, and the state after, until the match is over.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.bots import RandomBot
        >>> steps = list(play_steps(cr.ruleset("gurka"), [RandomBot(), RandomBot()], seed=3))
        >>> steps[0][1].TAG, steps[-1][2].is_over
        ('deal', True)
    """
    from ..views import view

    if state is None:
        state = new_game(rules, len(bots) if players is None else players, first=first)
    if len(bots) != len(state.players):
        raise ValueError(f"{len(bots)} bots for {len(state.players)} players")
    deal_rng, bot_rng = _rngs(seed)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        if seat == CHANCE:
            action = sample_chance(state, deal_rng)
        else:
            action = bots[seat].choose(view(state, seat), bot_rng)
        after = apply(state, action)
        yield state, action, after
        state = after


def play_match(rules: Rules, bots: Sequence[Bot], *, seed: int, first: int = 0) -> State:
    """Play a whole match between bots and return the final state.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.bots import HeuristicBot, RandomBot
        >>> final = play_match(cr.ruleset("agurk"), [HeuristicBot(), RandomBot(), RandomBot()], seed=2)
        >>> final.is_over, len(cr.score(final).winners)
        (True, 1)
    """
    from ..views import view

    state = new_game(rules, len(bots), first=first)
    deal_rng, bot_rng = _rngs(seed)  # as `play_steps` draws them
    choose = [bot.choose for bot in bots]
    while state.to_act is not None:
        seat = state.to_act
        if seat == CHANCE:
            state = apply(state, sample_chance(state, deal_rng))
        else:
            state = apply(state, choose[seat](view(state, seat), bot_rng))
    return state
