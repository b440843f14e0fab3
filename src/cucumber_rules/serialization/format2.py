"""Reading format 2: the documents written by the 0.2 development releases, before the 1.0 contract.

Format 3 renamed the fields whose names had two meanings, and dropped the ones another
game's documents carried for nothing. Each class says what changed in its own terms, so
that a game added later can rename its fields the same way:

- `renamed` (a class attribute of a rules, view, score or round-result class): format 2's
  name -> format 3's (`Score.renamed`: `rounds` -> `round_points`; `LadderResult.renamed`:
  `marks` -> `marked`, `eliminated` -> `went_out`; `CatastropheRules.renamed`: `hands` ->
  `hand_count`);
- `retired` (views and scores): fields format 2 wrote for every game, kept now only by the
  games that have them, with the one value they held elsewhere, per seat (`marks`: 0,
  `eliminated`: false). A document whose class lacks such a field may carry it only with
  that value in every seat; anything else is refused, naming it.

`upgrade(kind, body)` rewrites a format-2 body in the format-3 layout; the document is then
read and checked as any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .. import _registry
from .._paths import fail

__all__ = ["upgrade"]


def _renamed(cls: type, body: Any, path: str, seats: int | None = None) -> Any:
    """`body` (an object of `cls`) with its format-2 keys renamed, and its retired fields dropped.

    A retired field holds its one value once per seat (`seats`, where the body says how many).
    """
    if type(body) is not dict:
        return body
    renamed: Mapping[str, str] = getattr(cls, "renamed", {})
    out = {}
    for key, value in body.items():
        new = renamed.get(key, key)
        if new != key and new in body:
            raise fail(f"{path}.{key}", f"format 2 called {new!r} {key!r}: give one of them, not both")
        out[new] = value
    fields = {a.name for a in attrs.fields(cls)} if attrs.has(cls) else set()
    for key, empty in getattr(cls, "retired", {}).items():
        if key in out and key not in fields:
            value = out.pop(key)
            if type(value) is not list or any(type(v) is not type(empty) or v != empty for v in value):
                raise fail(
                    f"{path}.{key}", f"this game has no {key}: format 2 wrote {empty!r} for every seat"
                )
            if seats is not None and len(value) != seats:
                raise fail(
                    f"{path}.{key}",
                    f"this game has no {key}: format 2 wrote {empty!r} for every seat, "
                    f"{seats} values, not {len(value)}",
                )
    return out


def _results(result_type: type, results: Any, path: str) -> Any:
    if type(results) is not list:
        return results
    return [_renamed(result_type, r, f"{path}[{i}]") for i, r in enumerate(results)]


def upgrade(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """A format-2 rules, state, record, view or score body in the format-3 layout.

    A body of a game that is not registered, or not an object where one is due, is left as it is
    (the converter names what is wrong).

    Example:
        >>> upgrade("rules", {"name": "catastrophe", "game": "catastrophe", "hands": 2})["hand_count"]
        2
        >>> sorted(upgrade("score", {"game": "catastrophe", "rounds": [], "marks": [0, 0], "results": []}))
        ['game', 'results', 'round_points']
    """
    games = _registry.games()
    rules = body if kind == "rules" else body.get("rules")
    name = body.get("game") if kind == "score" else rules.get("game") if type(rules) is dict else None
    game = games.get(name) if type(name) is str else None
    if game is None:
        return body
    if kind == "rules":
        return _renamed(game.rules_type, body, "$")  # type: ignore[no-any-return]
    body = dict(body)
    if "rules" in body:
        body["rules"] = _renamed(game.rules_type, body["rules"], "$.rules")
    if kind in ("view", "score"):
        cls = game.view_type if kind == "view" else game.score_type
        seated = body.get("players" if kind == "view" else "totals")  # (a score has a total per seat)
        body = _renamed(cls, body, "$", len(seated) if type(seated) is list else None)
        if "results" in body:
            body["results"] = _results(game.result_type, body["results"], "$.results")
    elif kind == "state" and type(body.get("match")) is dict:
        match = dict(body["match"])
        if "results" in match:
            match["results"] = _results(game.result_type, match["results"], "$.match.results")
        body["match"] = match
    return body
