"""Cucumber Catastrophe, with Surprise Cucumber and If You Can't Beat 'Em, as one registered `Game`.

Every trick's cards are captured; the second card of a trick sets the Trick
Marker (`Marker`), which decides which card takes the trick and what later
players must play. Everything only this game has lives here: its rules class,
preset, markers and cucumbers per card (`rules`), its states, match, tables,
tricks, views and the `Revealed` event (`types`), the game and its engine
(`engine`), its scoring (`scoring`), and its hook groups: what its views show
(`views`), words and pictures (`words`), heuristic and statistics (`bots`),
numbers for machine learning (`encoding`), hidden-world sampling (`sampling`,
`rebuild`) and test strategies (`testing`).

Example:
    >>> import cucumber_rules as cr
    >>> cr.GAMES["catastrophe"] is CATASTROPHE, cr.ruleset("catastrophe").game
    (True, 'catastrophe')
"""

from __future__ import annotations

from ..registry import register_game
from .engine import CatastropheGame
from .rules import DEFAULT_CUCUMBERS, MAX_CUCUMBERS, CatastrophePlan, CatastropheRules, Marker, cucumbers_on
from .types import (
    CatastropheMatch,
    CatastropheState,
    CatastropheTable,
    CatastropheTrick,
    CatastropheView,
    Revealed,
)

__all__ = [
    "CATASTROPHE",
    "DEFAULT_CUCUMBERS",
    "MAX_CUCUMBERS",
    "CatastropheGame",
    "CatastropheMatch",
    "CatastrophePlan",
    "CatastropheRules",
    "CatastropheState",
    "CatastropheTable",
    "CatastropheTrick",
    "CatastropheView",
    "Marker",
    "Revealed",
    "cucumbers_on",
]

CATASTROPHE = register_game(CatastropheGame())
"""The registered Catastrophe game."""
