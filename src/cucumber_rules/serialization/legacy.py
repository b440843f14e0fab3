"""Reading format 1: the documents cucumber_rules 0.1 wrote.

Format 1 had one rules object for every game (the other game's options `null`)
and one layout for every state, whose `round.high`, `match.payer` and result
fields meant different things per game. Format 2 writes each game's own fields.
A format-1 document is upgraded to format 2 here (rules, views, scores,
records), or, for a state, checked against the replayed state written in the
format-1 layout; either way it loads to the same value as before. Only the two
games that existed in 0.1 can appear in format 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from .. import _registry
from ..actions import Play
from ..state import State
from .format1 import Format1

if TYPE_CHECKING:
    from ..game import GameBase

__all__ = ["FORMAT1_OPTIONS", "state_v1", "upgrade"]

#: Every option of 0.1's single `Rules`, in its order.
FORMAT1_OPTIONS: Final = (
    "deck", "min_players", "max_players", "hand_size", "follow", "ace_lead", "penalty", "doubling",
    "tie_bonus", "threshold", "lives", "next_leader", "reverse", "revival", "fixed_rounds", "surprise",
    "cant_beat_em", "hands", "cucumbers",
)  # fmt: skip


def _rules(value: Any) -> Any:
    """A format-1 rules object without the other game's `null` options (its own are left for checks).

    An option added since 0.1 (the ladder's `round_limit`) is added with its default,
    which is what 0.1 played.
    """
    GAMES = _registry.games()
    from ..options import option_fields

    game = value.get("game") if type(value) is dict else None
    if type(game) is not str or game not in GAMES:  # (the converter names what is wrong)
        return value
    rules_type = GAMES[game].rules_type
    own = option_fields(rules_type)
    old = {new: was for was, new in rules_type.renamed.items()}  # (format 2's names: read by `format2`)
    known = {old.get(name, name) for name in own}
    body = {k: v for k, v in value.items() if not (k in FORMAT1_OPTIONS and k not in known and v is None)}
    for name, field in own.items():
        if name not in FORMAT1_OPTIONS and old.get(name) not in FORMAT1_OPTIONS and name not in body:
            body[name] = list(field.default) if isinstance(field.default, tuple) else field.default
    return body


def _drop(value: Any, unused: Mapping[str, Any]) -> Any:
    """Remove the fields another game used where they hold their empty value (else they are refused)."""
    if type(value) is not dict:
        return value
    return {k: v for k, v in value.items() if not (k in unused and v == unused[k])}


def _upgrade_view(body: dict[str, Any], game: GameBase[State]) -> dict[str, Any]:
    unused = Format1.of(game).unused
    body = _drop(body, unused.get("view", {}))
    if type(body.get("tricks")) is list:
        body["tricks"] = [_drop(t, unused.get("trick", {})) for t in body["tricks"]]
    if type(body.get("results")) is list:
        body["results"] = [_drop(r, unused.get("result", {})) for r in body["results"]]
    return body


def _v2_names(cls: type) -> set[str]:
    """The fields of a value class by the names format 2 gave them (format 3 renamed some: `renamed`)."""
    old = {new: was for was, new in getattr(cls, "renamed", {}).items()}
    return {old.get(a.name, a.name) for a in attrs.fields(cls) if a.init}


def _v1_field(result: Any, name: str) -> list[Any]:
    """A result's field by its format-1 name, as a list (empty where the game has no such field)."""
    return list(getattr(result, getattr(type(result), "renamed", {}).get(name, name), ()))


def _fitting(results: list[Any], game: GameBase[State]) -> int:
    """How many format-1 results read as this game's results once its unused fields are dropped."""
    fields = _v2_names(game.result_type)
    unused = Format1.of(game).unused.get("result", {})
    return sum(1 for r in results if type(r) is dict and set(_drop(r, unused)) == fields)


def upgrade(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """A format-1 rules, record, view or score body in the format-2 layout.

    Example:
        >>> upgrade("rules", {"name": "agurk", "game": "ladder", "surprise": None, "threshold": 21})
        {'name': 'agurk', 'game': 'ladder', 'threshold': 21, 'round_limit': None}
    """
    GAMES = _registry.games()

    if kind == "rules":
        return _rules(body)  # type: ignore[no-any-return]
    body = dict(body)
    if "rules" in body:
        body["rules"] = _rules(body["rules"])
    name = body["rules"].get("game") if type(body.get("rules")) is dict else None
    if kind == "view" and type(name) is str and name in GAMES and Format1.of(GAMES[name]).unused:
        body = _upgrade_view(body, GAMES[name])
    if kind == "score":
        results = body.get("results")
        games = [g for g in GAMES.values() if Format1.of(g).unused]
        if type(results) is list:
            # The game whose results these are: the one most of them fit (a bad result among good ones
            # is then named as such), then the one with the most of its unused fields dropped.
            game = max(
                games, key=lambda g: (_fitting(results, g), len(Format1.of(g).unused.get("result", {})))
            )
            body["game"] = game.name
            body["results"] = [_drop(r, Format1.of(game).unused.get("result", {})) for r in results]
    return body


def state_v1(conv: Any, state: State) -> dict[str, Any]:
    """A state written in the format-1 layout (what 0.1's `dumps` wrote), to check a format-1 document.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.serialization import make_converter
        >>> doc = state_v1(make_converter(), cr.new_game(cr.ruleset("agurk"), players=3))
        >>> doc["round"], doc["match"]["payer"], doc["rules"]["surprise"]
        (None, -1, None)
    """
    m = state.match
    n = len(m.players)
    rules = conv.unstructure(m.rules)
    rules_v1 = {"name": rules["name"], "game": rules["game"], **{k: rules.get(k) for k in FORMAT1_OPTIONS}}
    zeros = [0] * n
    results = []
    for r in m.results:
        payer = getattr(r, "payer", None)
        found = getattr(r, "card", None)
        results.append({
            "number": r.number, "points": list(r.points), "totals": list(r.totals), "payer": payer,
            "card": None if found is None else str(found), "marks": _v1_field(r, "marks"),
            "eliminated": _v1_field(r, "eliminated"), "returned": _v1_field(r, "returned"),
        })  # fmt: skip
    match = {
        "totals": list(m.totals),
        "marks": list(getattr(m, "marks", zeros)),
        "out": list(getattr(m, "out", zeros)),
        "revived": list(getattr(m, "revived", [False] * n)),
        "sitting_out": list(getattr(m, "sitting_out", ())),
        "pending": list(getattr(m, "pending", ())),
        "dealer": m.dealer,
        "payer": getattr(m, "payer", getattr(m, "starter", -1)) if m.rounds else -1,
        "rounds": m.rounds,
        "results": results,
        "winners": list(m.winners),
    }
    table = state.table
    round_: dict[str, Any] | None = None
    if table is not None:
        revealed = getattr(table, "revealed", None)
        lead = getattr(state, "lead", None)  # Catastrophe's "high" was the lead card's number
        high = lead.rank if lead is not None else (0 if state.best is None else state.best.card.rank)
        tricks = [
            {
                "leader": t.leader, "plays": conv.unstructure(t.plays), "taker": t.taker,
                "marker": None if (marker := getattr(t, "marker", None)) is None else str(marker),
                "revealed": None if (card := getattr(t, "revealed", None)) is None else str(card),
            }
            for t in table.tricks
        ]  # fmt: skip
        round_ = {
            "hands": [[str(c) for c in h] for h in state.hands],
            "table": {
                "seats": list(table.seats), "after": list(table.after), "leader": table.leader,
                "tricks": tricks, "stock": [str(c) for c in table.stock],
                "revealed": None if revealed is None else str(revealed),
                "captured": [[str(c) for c in h] for h in getattr(table, "captured", ())],
            },
            "trick": [conv.unstructure(p, Play) for p in state.trick],
            "high": high,
            "taker": state.taker,
            "marker": None if state.extra is None else conv.unstructure(state.extra, type(state.extra)),
        }  # fmt: skip
    return {
        "rules": rules_v1, "players": list(m.players), "first": m.first, "to_act": state.to_act,
        "match": match, "round": round_, "history": conv.unstructure(state.history),
    }  # fmt: skip
