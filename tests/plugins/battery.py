"""A fixed battery of what the built-in games do, to compare before and after a hostile plug-in.

`matches()` plays one seeded match of every built-in preset (the ladder's revival and
Catastrophe's Surprise Cucumber on, so their `"revive"` decisions and `"reveal"` events are in
the documents); `fingerprint(matches)` records everything an embedder sees of them: the
registry's listings, `ruleset` of every preset, the JSON documents of the rules, final state,
record, views and score and whether each reads back equal, `bool(state)`, the legal moves and
the code of an illegal one at a fixed point, and the attributes of the library's classes (`State`,
`Rules`, the built-in games' own state and rules classes, and the other value classes). A failure
is recorded as its type and message rather than raised, so two fingerprints compare as values.
Run as a script, it prints the fingerprint as JSON (the entry-point tests compare a process with
hostile plug-ins installed against one without).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import cucumber_rules as cr

__all__ = ["CLASSES", "PRESETS", "QUICK", "attribute_names", "fingerprint", "matches"]

PRESETS: dict[str, dict[str, Any]] = {
    "agurk": {"revival": True},
    "gurka": {},
    "five-cucumbers": {},
    "fuenf-gurken": {},
    "catastrophe": {"surprise": True},
}
"""The built-in presets, with options that bring the games' own decisions and events into play."""


CLASSES: tuple[type, ...] = (
    cr.State,
    cr.Rules,
    cr.Match,
    cr.Table,
    cr.Trick,
    cr.RoundResult,
    cr.PlayerView,
    cr.Score,
    cr.Game,
    cr.LadderState,
    cr.LadderRules,
    cr.LadderView,
    cr.CatastropheState,
    cr.CatastropheRules,
    cr.CatastropheView,
)
"""The classes whose namespaces the fingerprint records: a plug-in must add nothing to them."""


SHARED_OPTIONS = ("deck", "hand_size", "threshold", "surprise")
"""Options whose `Option` the fingerprint records (the common ones name every game that has them)."""


def _play(rules: cr.Rules, seed: int) -> tuple[cr.State, cr.State]:
    """A seeded random match: the state after its first trick's first play, and the final state."""
    rng = random.Random(seed)
    state = cr.new_game(rules, 3)
    early = None
    while not state.is_over:
        moves = cr.legal_moves(state)
        state = cr.apply(state, rng.choice(moves) if moves else cr.sample_chance(state, rng))
        if early is None and state.trick:
            early = state
    assert early is not None
    return early, state


def matches() -> dict[str, tuple[cr.State, cr.State]]:
    """One seeded match of every built-in preset (call it before any plug-in is registered)."""
    return {name: _play(cr.ruleset(name, **options), seed=7) for name, options in PRESETS.items()}


def _outcome(run: Callable[..., Any], *args: Any) -> Any:
    try:
        return run(*args)
    except Exception as error:  # recorded, not raised: the fingerprints are compared as values
        return f"{type(error).__name__}: {error}"


QUICK = ("view",)
"""The documents a quick fingerprint writes and reads (a final view holds the rules, the revivals and
the reveals)."""


def _documents(early: cr.State, final: cr.State, kinds: tuple[str, ...] | None) -> dict[str, Any]:
    values: dict[str, Any] = {
        "rules": final.rules,
        "state": final,
        "early state": early,
        "record": cr.record(final),
        "view": cr.view(final, 0),
        "early view": cr.view(early, 1),
        "spectator": cr.view(final, None),
        "score": cr.score(final),
    }
    out: dict[str, Any] = {}
    for kind, value in values.items():
        if kinds is not None and kind not in kinds:
            continue
        text = _outcome(cr.dumps, value)
        out[kind] = [text, _outcome(_reads_back, text, value)]
    return out


def _illegal_codes(state: cr.State) -> list[Any]:
    """The codes of a play out of turn, and of the first card held that may not be played now."""
    seat = state.to_act
    assert seat is not None
    other = (seat + 1) % state.num_players
    legal = set(cr.legal_moves(state))
    wrong = [cr.Play(other, state.hands[other][0])]
    wrong += [cr.Play(seat, c) for c in state.hands[seat] if cr.Play(seat, c) not in legal][:1]
    codes: list[Any] = []
    for play in wrong:
        try:
            cr.apply(state, play)
            codes.append("accepted")
        except cr.IllegalMoveError as error:
            codes.append([error.code, str(error)])
    return codes


def attribute_names(cls: type) -> list[str]:
    """The names in a class's namespace (but attrs' flag that its annotations are resolved)."""
    return sorted(name for name in vars(cls) if name != "__attrs_types_resolved__")


def _reads_back(text: str, value: Any) -> bool:
    return bool(cr.loads(text) == value)


def _listings() -> list[Any]:
    return [list(cr.GAMES), list(cr.RULESETS), dict(cr.ERROR_CODES), list(cr.OPTIONS)]


def _shared_options() -> list[str]:
    return [repr(cr.OPTIONS[name]) for name in SHARED_OPTIONS]


def _ruleset(preset: str) -> list[str]:
    return [repr(cr.ruleset(preset)), cr.ruleset(preset.upper()).name]


def _legal(state: cr.State) -> list[str]:
    return [str(a) for a in cr.legal_moves(state)]


def _foreign_option(rules: cr.Rules) -> Any:
    return rules.round_count  # High Card's option


def fingerprint(played: dict[str, tuple[cr.State, cr.State]], *, quick: bool = False) -> dict[str, Any]:
    """Everything the battery sees of the built-in games, as plain JSON-ready values.

    A quick one writes and reads only the `QUICK` documents (about a fifth of the time).
    """
    out: dict[str, Any] = {
        "listings": _outcome(_listings),
        "options": _outcome(_shared_options),
        "classes": {cls.__name__: attribute_names(cls) for cls in CLASSES},
    }
    for preset, (early, final) in played.items():
        out[preset] = {
            "ruleset": _outcome(_ruleset, preset),
            "documents": _documents(early, final, QUICK if quick else None),
            "bool": [_outcome(bool, early), _outcome(bool, final)],
            "legal": _outcome(_legal, early),
            "illegal": _outcome(_illegal_codes, early),
            "foreign option": _outcome(_foreign_option, final.rules),
        }
    return out


if __name__ == "__main__":
    print(json.dumps(fingerprint(matches()), sort_keys=True))
