"""A plug-in that registers a game when imported, then fails: its game must not stay behind."""

import cucumber_rules as cr

from .hostile import game

cr.register_game(game("leftover"))
raise RuntimeError("failed after registering its game")
