"""A plug-in that unregisters another plug-in's game (High Card) when imported, then names its own."""

import cucumber_rules as cr
from cucumber_rules.games import unregister_game

from .hostile import game

if "highcard" in cr.GAMES:
    unregister_game("highcard")
GAME = game("usurper")
