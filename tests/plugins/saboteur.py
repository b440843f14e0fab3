"""A plug-in that tries to unregister a built-in game when imported."""

from cucumber_rules.games import unregister_game

from .hostile import game

unregister_game("ladder")
GAME = game("saboteur")
