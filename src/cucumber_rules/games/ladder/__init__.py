"""The ladder games: Agurk, Gurka, Five Cucumbers and Fünf Gurken, as one registered `Game`.

The leader plays any card; each later player plays a card at least as high as
the highest card in the trick, or their lowest card. The highest card takes
the trick; only the last trick of a round scores. Everything only this game
has lives here: its rules class and presets (`rules`), its states, match, round
results, score, views and the revival decision (`types`), the game and its engine
(`engine`), its scoring (`scoring`), and its hook groups: words and pictures
(`words`), heuristic and statistics (`bots`), numbers for machine learning
(`encoding`), hidden-world sampling (`sampling`) and test strategies (`testing`).

Example:
    >>> import cucumber_rules as cr
    >>> cr.GAMES["ladder"] is LADDER, cr.ruleset("agurk").game
    (True, 'ladder')
"""

from __future__ import annotations

from ..registry import register_game
from .engine import LadderGame
from .rules import LadderPlan, LadderRules
from .types import LadderMatch, LadderResult, LadderScore, LadderState, LadderView, Revive

__all__ = [
    "LADDER",
    "LadderGame",
    "LadderMatch",
    "LadderPlan",
    "LadderResult",
    "LadderRules",
    "LadderScore",
    "LadderState",
    "LadderView",
    "Revive",
]

LADDER = register_game(LadderGame())
"""The registered ladder game."""
