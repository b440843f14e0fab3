"""Reading cucumber_rules 0.1's JSON (format 1): the `Format1` hook group (`Game.format1`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..game import HookGroup

__all__ = ["Format1"]


class Format1(HookGroup):
    """What format 1 wrote for a game: `Game.format1` (see `Game`).

    Format 1 (cucumber_rules 0.1) had one layout for both its games: each object held
    the fields of either game, empty where the game has none. `unused` names those
    fields of the other game, with the empty value they held, per object (`"view"`,
    `"trick"`, `"result"`), so that the reader can drop them. A game without it never
    appeared in format 1 (only the library's two did).

    Example:
        >>> import cucumber_rules as cr
        >>> sorted(cr.GAMES["catastrophe"].format1.unused), cr.Game.format1.unused
        (['result', 'trick', 'view'], {})
    """

    __slots__ = ()
    attribute = "format1"  # (`Game.format1`)

    unused: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """The other game's fields format 1 wrote, with their empty values, per object."""
