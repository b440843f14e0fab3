"""Re-validating loaded documents: states and records by replay, views and scores by consistency.

A state document is checked by replaying its history from `new_game(rules,
players, first=first)` and comparing the document with the replayed state, field
by field: the first difference (a tampered hand, a wrong turn, a forged score, a
missing or unknown field) is reported with its JSON path. A loaded state is
therefore always one the engine itself produced. Records are replayed too; views
and scores, which cannot be replayed, are checked for consistency.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import cattrs

from .. import _registry
from .._paths import At, Bad, diff, fail, kind_name, same_json
from ..actions import Action, Play
from ..errors import IllegalMoveError, InvalidRulesError
from ..history import History
from ..rules import Rules
from ..sampling.consistency import MOST_EVENTS, check_names, check_results, validate_view
from ..scoring import Score
from ..state import State

__all__ = [
    "check_counts",
    "check_names",
    "diff",
    "replay_actions",
    "state_document",
    "structure_state",
    "validate_score",
    "validate_view",
]

_CARD_CODES: Final = frozenset(
    {"not-in-hand", "must-follow", "must-play-lowest", "cannot-lead-five", "must-follow-marker"}
)


def replay_actions(
    rules: Rules, players: tuple[str, ...], first: int, actions: tuple[Action, ...] | History[Action]
) -> State:
    """Replay actions from a new game; an illegal one raises `At("[i]", Bad(...))` (relative to the actions).

    Example:
        >>> import cucumber_rules as cr
        >>> replay_actions(cr.ruleset("gurka"), ("a", "b"), 0, ()).to_act == cr.CHANCE
        True
    """
    from ..engine import apply, new_game

    try:
        state = new_game(rules, players, first=first)
    except InvalidRulesError as err:
        where = "first" if err.option == "first" else "players"
        raise At(f"<{where}>", Bad(str(err).removeprefix(f"{err.option}: "))) from None
    for i, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalMoveError as err:
            where = ".card" if err.code in _CARD_CODES else ".seat" if err.code == "not-your-turn" else ""
            raise At(f"[{i}]", Bad(f"illegal action ({err.code}): {err.message}", where)) from None
        except Exception as err:  # an engine failure on hostile input must still be a clean error
            raise At(
                f"[{i}]", Bad(f"engine error (please report this bug): {type(err).__name__}: {err}")
            ) from None
    return state


def structure_state(
    conv: cattrs.Converter,
    value: Any,
    legacy: Callable[[State], dict[str, Any]] | None = None,
    *,
    consume: bool = False,
) -> State:
    """A state from its document: replay its history, then require every field to match the replay.

    `legacy` writes the replayed state in an older layout to compare against (format 1).
    With `consume`, `value` is the caller's to give up: its parsed history is taken out of it
    once structured, so the replay does not keep it alive (`loads` passes its own copy).

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.serialization.documents import converter
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2),
        ...              cr.Deal(hands=[["2C"], ["3H"]]))
        >>> value = converter().unstructure(s, cr.State)
        >>> structure_state(converter(), value, consume=True) == s, "history" in value
        (True, False)
    """
    if type(value) is not dict:
        raise Bad(f"expected an object, not {kind_name(value)}")
    for key in ("rules", "players", "first", "history"):
        if key not in value:
            raise Bad(f"missing field {key!r}", f".{key}")
    parts: dict[str, Any] = {}
    for key, t in (
        ("rules", Rules),
        ("players", tuple[str, ...]),
        ("first", int),
        ("history", tuple[Action, ...]),
    ):
        try:
            parts[key] = conv.structure(value[key], t)
        except Exception as err:
            raise At(f".{key}", err) from None
    if consume:
        del value["history"]
    try:
        state = replay_actions(parts["rules"], parts["players"], parts["first"], parts["history"])
    except At as err:
        if err.step.startswith("<"):
            raise At("." + err.step.strip("<>"), err.error) from None
        raise At(".history", err) from None
    expected = legacy(state) if legacy is not None else state_document(conv, state, history=False)
    skip = ("rules", "players", "first", "history")
    expected = {k: v for k, v in expected.items() if k not in skip}
    found = {k: v for k, v in value.items() if k not in skip}
    if not same_json(expected, found):
        bad = diff(expected, found)
        if bad is not None:
            raise bad
    return state


def state_document(conv: cattrs.Converter, state: Any, *, history: bool = True) -> dict[str, Any]:
    """A state as its document layout: rules, players and first at the top, then its fields.

    Without `history`, the `"history"` field is left out (`loads` compares everything else with the
    state it rebuilt from that history).

    Example:
        >>> import cucumber_rules as cr
        >>> list(state_document(cr.make_converter(), cr.new_game(cr.ruleset("agurk"), players=3)))[:5]
        ['rules', 'players', 'first', 'to_act', 'match']
    """
    m = state.match
    match = conv.unstructure(m, type(m))
    for key in ("rules", "players", "first"):
        del match[key]
    table = state.table
    document = {
        "rules": conv.unstructure(m.rules, type(m.rules)),
        "players": list(m.players),
        "first": m.first,
        "to_act": state.to_act,
        "match": match,
        "table": None if table is None else conv.unstructure(table, type(table)),
        "hands": [[str(c) for c in hand] for hand in state.hands],
        "trick": conv.unstructure(state.trick, tuple[Play, ...]),
        "best": None if state.best is None else conv.unstructure(state.best, Play),
        "extra": None if state.extra is None else conv.unstructure(state.extra, type(state.extra)),
    }
    if history:
        document["history"] = conv.unstructure(state.history, History)
    return document


# --------------------------------------------------------------------------- scores and counts


def check_counts(body: dict[str, Any]) -> None:
    """Refuse a score or view document whose counts disagree, before reading any of its lists.

    The rows must be the results' points, one per result (`validate_score` checks their values once
    they are read); a view holds no more results than rounds dealt, and no more events than one round
    of any game can have. So a document padded with rows, results or events is refused in time
    proportional to nothing but its parsing.

    Example:
        >>> check_counts({"round_points": [[0, 1]], "results": []})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidStateError: $.round_points: must hold one row per result: 1 rows ...
    """
    rows, results = body.get("round_points"), body.get("results", [])
    if type(rows) is list and type(results) is list and len(rows) != len(results):
        many = f"must hold one row per result: {len(rows)} rows for {len(results)} results"
        raise fail("$.round_points", many)
    number, events = body.get("round_number"), body.get("events")
    if type(number) is int and type(results) is list and len(results) > max(number, 0):
        raise fail("$.results", f"{len(results)} results do not fit round {number}")
    if type(events) is list and len(events) > MOST_EVENTS:
        raise fail("$.events", f"a round has at most {MOST_EVENTS} events, not {len(events)}")


def validate_score(sc: Score) -> None:
    """Check a loaded score for consistency (seats, one entry per seat, rows and results agree).

    Example:
        >>> import attrs, cucumber_rules as cr
        >>> sc = cr.score(cr.new_game(cr.ruleset("agurk"), players=3))
        >>> validate_score(sc)
        >>> validate_score(attrs.evolve(sc, winners=(5,)))
        Traceback (most recent call last):
        ...
        cucumber_rules.errors.InvalidStateError: $.winners[0]: 5 is not a seat (0..2)
    """
    n = len(sc.totals)
    if not 2 <= n <= 16:
        raise fail("$.totals", f"a match has 2 to 16 seats, not {n}")
    check_results(sc, n)
    game = _registry.games().get(sc.game)
    problem = None if game is None else game.views.check_score(sc)  # (what the game's scoring makes)
    if problem is not None:
        where, _, message = problem.partition(": ")
        raise fail(where, message)
