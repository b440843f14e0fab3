"""The codes of the errors a server sends about a message rather than a move (`PROTOCOL_CODES`).

A module of its own, importing nothing of the library: the schema builder describes them without
needing the registry (`register_game` builds a game's schemas before it is registered).
"""

from __future__ import annotations

import types
from collections.abc import Mapping

__all__ = ["PROTOCOL_CODES"]

PROTOCOL_CODES: Mapping[str, str] = types.MappingProxyType(
    {
        "invalid-document": "The message is not a valid document; `path` names the bad field.",
        "invalid-rules": "The rules or options asked for are not valid; `option` names the culprit.",
        "not-your-seat": "The action is for a seat that this link does not hold.",
        "spectator": "A spectator's link acts for no seat.",
        "chance-action": "Deals and other chance actions are the server's to make, never a client's.",
        "stale": "The action was chosen at an earlier point of the match than the current one; "
        "nothing was applied (look at the latest view and choose again).",
        "too-large": "The message is longer than the server accepts.",
        "rate-limited": "Too many messages in a short time: nothing was applied; wait, then send again.",
        "unknown-link": "The link names no seat of any table.",
        "server-full": "The server holds as many tables (or connections) as it may.",
        "database-error": "The server's database failed: nothing was applied or stored, and nobody "
        "was told; send the message again later.",
        "damaged-table": "The table's stored record cannot be read back: the server has set it aside "
        "(its host is told) and serves the other tables.",
    }
)
"""The codes of the errors a server sends about a message rather than a move, with their meanings.

An error document's `code` is one of these or an `IllegalMoveError` code from
[`ERROR_CODES`][cucumber_rules.ERROR_CODES] (a move the rules forbid).

Example:
    >>> sorted(PROTOCOL_CODES)[:3]
    ['chance-action', 'damaged-table', 'database-error']
"""
