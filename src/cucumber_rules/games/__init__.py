"""The Game registry: what a trick mechanism provides, and where the engine finds it.

A *game* is one trick mechanism with its options, presets, engine and everything
the rest of the library needs to know about it: the ladder games (Agurk, Gurka,
Five Cucumbers) are one, Cucumber Catastrophe another. Each lives in its own
module (`cucumber_rules.games.ladder`, `cucumber_rules.games.catastrophe`),
defines a subclass of [`Game`][cucumber_rules.Game] and registers an instance
of it with [`register_game`][cucumber_rules.register_game]. The engine, views,
JSON, records, bots, narration, simulation, the command line, the testing
module and the docs all ask the game; none of them knows a game by name.

Third-party packages add games through the entry-point group
`cucumber_rules.games`: each entry point names a `Game` instance, a `Game`
subclass, a function returning a `Game`, or a module that registers its game
when imported. They are loaded the first time the registry is read.

```toml
[project.entry-points."cucumber_rules.games"]
highcard = "highcard:GAME"
```
"""

from __future__ import annotations

from .base import Game, group
from .registry import ENTRY_POINT_GROUP, GAMES, game_of, register_game, registry_version, unregister_game

__all__ = [
    "ENTRY_POINT_GROUP",
    "GAMES",
    "Game",
    "game_of",
    "group",
    "register_game",
    "registry_version",
    "unregister_game",
]
