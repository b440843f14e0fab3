"""The server's own pages, for a server started without the documentation site: `/`, which says so, and
`/play/`, a plain page that plays at a table from a link (`/play/#join=<secret>`, as `POST /api/tables`
hands them out). The docs site's Play page does more (its own table form, a drawn table, the log);
this one is enough that every link the API answers with opens a table that can be played.

The pages are the files `home.html` and `play.html` beside this module.

Example:
    >>> "/api/play" in PLAY_PAGE, "Hosting a table" in HOME_PAGE
    (True, True)
"""

from __future__ import annotations

from importlib.resources import files
from typing import Final

__all__ = ["HOME_PAGE", "PLAY_PAGE"]

HOME_PAGE: Final = files(__package__).joinpath("home.html").read_text(encoding="utf-8")
"""The page at `/`."""

PLAY_PAGE: Final = files(__package__).joinpath("play.html").read_text(encoding="utf-8")
"""The page at `/play/`."""
