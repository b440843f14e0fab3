"""Hypothesis strategies: valid rules of every registered game, and states reached by random play.

They need Hypothesis, which comes with the `test` extra
(`pip install "cucumber-rules[test]"`); it is imported only when a strategy is
built, so importing `cucumber_rules.testing` never needs it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import seat_number
from ..engine import apply, legal_moves, new_game, sample_chance
from ..game import game_of
from ..rules import RULESETS, Rules, preset_name, ruleset
from ..state import CHANCE, State
from .hooks import Testing

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

__all__ = ["random_play", "rules", "states"]

_NEEDS_HYPOTHESIS = (
    'the strategies of cucumber_rules.testing need Hypothesis: pip install "cucumber-rules[test]"'
)


def rules(presets: Sequence[str] | None = None) -> SearchStrategy[Rules]:
    """A Hypothesis strategy of valid rules: a preset with random valid option overrides.

    Each game draws its own overrides (`Game.draw_options`): the ladder presets get
    random `deck`, `hand_size`, `follow`, `ace_lead`, `penalty`, `doubling`,
    `tie_bonus`, `threshold`, `lives`, `next_leader`, `reverse`, `revival`,
    `fixed_rounds` and `round_limit` (thresholds and limits kept small so matches stay
    short, and some reach their limit); Catastrophe gets
    random `surprise`, `cant_beat_em`, `hands`, `hand_size` and `cucumbers` tables.
    Every drawn combination is valid: `InvalidRulesError` is never raised. Needs
    Hypothesis (the `test` extra).

    Args:
        presets: Preset names or aliases to draw from (default: all of `RULESETS`).

    Returns:
        A strategy of `Rules`.

    Raises:
        InvalidRulesError: If a name in `presets` is not a preset.

    Example:
        >>> from hypothesis import given, settings
        >>> from cucumber_rules.testing import check_game
        >>> @settings(max_examples=5, database=None)
        ... @given(rules(["agurk", "gurka"]))
        ... def test_matches_end(r):
        ...     check_game(r, matches=1)
        >>> test_matches_end()
    """
    try:
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_HYPOTHESIS) from exc
    names = sorted(RULESETS) if presets is None else sorted({preset_name(p) for p in presets})
    if not names:
        raise ValueError("presets must name at least one preset")

    @st.composite
    def build(draw: DrawFn) -> Rules:
        name = draw(st.sampled_from(names))
        base = RULESETS[name]
        return ruleset(name, **Testing.of(game_of(base)).draw_options(draw, base))

    return build()


def states(
    rules: Rules | SearchStrategy[Rules] | None = None,
    *,
    players: int | None = None,
    max_actions: int = 400,
) -> SearchStrategy[State]:
    """A Hypothesis strategy of states reached by random play from a new game.

    Draws the rules (from [`rules`][cucumber_rules.testing.rules] unless
    given), a player count (unless given), the first seat, a seed and a number
    of actions up to `max_actions`, then plays that many random actions (deals
    from `sample_chance`, moves from `legal_moves`) with `random.Random(seed)`,
    stopping early at the end of the match. Needs Hypothesis (the `test` extra).

    Args:
        rules: Fixed rules, a strategy of rules, or None for `rules()`.
        players: A fixed player count, or None to draw one the rules allow.
        max_actions: The most actions to play from the new game.

    Returns:
        A strategy of `State`.

    Example:
        >>> from hypothesis import given, settings
        >>> import cucumber_rules as cr
        >>> @settings(max_examples=10, database=None)
        ... @given(states(cr.ruleset("agurk"), players=3))
        ... def test_hands_shrink(state):
        ...     assert all(len(h) <= 7 for h in state.hands)
        >>> test_hands_shrink()
    """
    try:
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_HYPOTHESIS) from exc
    if rules is None:
        source: SearchStrategy[Rules] = _rules_strategy()
    elif isinstance(rules, Rules):
        source = st.just(rules)
    else:
        source = rules
    if isinstance(max_actions, bool) or not hasattr(type(max_actions), "__index__") or max_actions < 0:
        raise ValueError(f"max_actions must be an int >= 0, not {max_actions!r}")
    max_actions = operator.index(max_actions)
    if players is not None:
        players = seat_number(players, "players must be an int or None")

    @st.composite
    def build(draw: DrawFn) -> State:
        r = draw(source)
        n = players if players is not None else draw(st.integers(r.min_players, r.max_players))
        first = draw(st.integers(0, n - 1))
        seed = draw(st.integers(0, 2**32 - 1))
        steps = draw(st.integers(0, max_actions))
        return random_play(r, n, first, seed, steps)

    return build()


_rules_strategy = rules


def random_play(rules: Rules, players: int, first: int, seed: int, steps: int) -> State:
    """The state after `steps` random actions (fewer if the match ends) from a new game, seeded.

    Example:
        >>> import cucumber_rules as cr
        >>> len(random_play(cr.ruleset("gurka"), 2, 0, 1, 5).history)
        5
    """
    rng = random.Random(seed)
    state = new_game(rules, players, first=first)
    for _ in range(steps):
        if state.is_over:
            break
        action = sample_chance(state, rng) if state.to_act == CHANCE else rng.choice(legal_moves(state))
        state = apply(state, action)
    return state
