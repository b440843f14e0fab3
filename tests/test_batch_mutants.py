"""The lockstep harness has teeth: one-line rule mutants planted in the kernels, each caught.

Each mutant changes one rule in one place, as a slip in a kernel would: a comparison (`>=` for `>`),
a table (the spec's threshold, bonus, round limit), a flag. `batch.check` must raise `LockstepError`
for every one of them within a few dozen matches. The list is on the docs page (docs/batch.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest

import cucumber_rules as cr
from cucumber_rules import batch
from cucumber_rules.batch import catastrophe, env, ladder
from cucumber_rules.batch.backend import Array, Backend
from cucumber_rules.batch.spec import Spec, spec_of

R = cr.ruleset

#: The kernels' own rule functions, kept before any mutant replaces them.
PAY, MARK = ladder.pay, catastrophe.mark


def _spec(**changes: Any) -> Callable[[pytest.MonkeyPatch], None]:
    """A mutant of the rules' tables: `spec_of` gives a spec with `changes`."""

    def plant(monkeypatch: pytest.MonkeyPatch) -> None:
        def mutant(rules: cr.Rules, seats: int) -> Spec:
            spec = spec_of(rules, seats)
            values = {k: v(spec) if callable(v) else v for k, v in changes.items()}
            return attrs.evolve(spec, **values)

        monkeypatch.setattr(env, "spec_of", mutant)

    return plant


def _function(module: Any, name: str, mutant: Callable[..., Any]) -> Callable[[pytest.MonkeyPatch], None]:
    """A mutant of one rule function of a kernel."""

    def plant(monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(module, name, mutant)

    return plant


def _takes_earlier(spec: Spec, rank: Array, high: Array, lead: Array, first: Array) -> Array:
    take = (rank > high) | first  # ties go to the earlier card
    if spec.ace >= 0:
        take &= first | (lead != spec.ace)
    return take


def _follow_no_lowest(bk: Backend, spec: Spec, held: Array, high: Array, low: Array) -> Array:
    ge = bk.take(spec.ge, high) & held
    out: Array = np.where(np.logical_or.reduce(ge, axis=1)[:, None], ge, held)  # optional lowest dropped
    return out


def _threshold_strict(
    spec: Spec, totals: Array, marks: Array, total: Array, payer_marks: Array
) -> tuple[Array, Array]:
    cross = total > spec.threshold  # `>` for `>=`
    out = cross & (payer_marks + 1 >= spec.lives)
    return out, cross & ~out


def _reset_to_zero(bk: Backend, totals: Array, dealt: Array, out: Array, payer: Array) -> Array:
    return np.zeros(totals.shape[0], totals.dtype)  # a mark resets to 0, not the best other total


def _comeback_with_own(bk: Backend, totals: Array, dealt: Array, out: Array) -> Array:
    found: Array = np.where(out == 0, totals, 0).max(axis=1)  # counts the seats not dealt in too
    return found


def _revival_with_one_other(spec: Spec, eliminated: Array, revived: Array, others: Array) -> Array:
    found: Array = eliminated & ~revived & (others >= 1)  # two other players needed, not one
    return found


def _pay_first_of_lowest(
    bk: Backend, spec: Spec, played: Array, ranks: Array, taker: Array, taken: Array, order: Array
) -> tuple[Array, Array, Array]:
    payer, paying, amount = PAY(bk, spec, played, ranks, taker, taken, order)
    if spec.reverse:
        low = np.where(played, ranks, 1 << 29)
        first = np.where(played & (low == low.min(axis=1)[:, None]), -order, -99).argmax(axis=1)
        payer = first.astype(np.int32)  # the first of the lowest cards pays, not the last
    return payer, paying, amount


def _marker_broken_high_takes_highest(
    bk: Backend, marker: Array, card: Array, lead: Array, high: Array, setting: Array, leading: Array
) -> tuple[Array, Array]:
    up = card > lead
    broken = ((marker == 1) & ~up) | ((marker == 2) & up)
    new = np.where(setting, np.where(up, np.int32(1), np.int32(2)), np.where(broken, marker + 2, marker))
    lowest = marker == 2  # High broken: the highest card wins (it is the lowest)
    beats = np.where(lowest, card < high, card > high)
    return new, leading | setting | broken | ((marker > 0) & beats)


def _marker_break_against_best(
    bk: Backend, marker: Array, card: Array, lead: Array, high: Array, setting: Array, leading: Array
) -> tuple[Array, Array]:
    return MARK(bk, marker, card, np.where(marker > 0, high, lead), high, setting, leading)


def _fives_may_lead(bk: Backend, spec: Spec, marker: Array, lead: Array, leading: Array) -> Array:
    k = spec.num_cards
    found: Array = np.where(marker == 1, 2 + lead, np.where(marker == 2, 2 + k + lead, 0))  # no lead row
    return found


def _winners_no_best_hand(bk: Backend, totals: Array, low: Array, seated: Array) -> Array:
    fewest = np.where(seated, totals, 1 << 29).min(axis=1)
    found: Array = seated & (totals == fewest[:, None])  # ties share, the best hand not asked
    return found


def _reveal_not_captured(bk: Backend, spec: Spec, trick: Array, lead: Array) -> tuple[Array, Array]:
    won = trick + 1  # the trick's cards only: the revealed lead card left out
    return bk.take(spec.cucumbers, won).sum(axis=1), bk.take(spec.fives, won).sum(axis=1)


def _starter_lowest(bk: Backend, totals: Array, seated: Array) -> Array:
    low = np.where(seated, totals, 1 << 29).min(axis=1)
    found: Array = seated & (totals == low[:, None])
    return found


#: (name, rules, player counts, plant): the mutants, each a one-line slip in a rule of a kernel.
MUTANTS: list[tuple[str, cr.Rules, range, Callable[[pytest.MonkeyPatch], None]]] = [
    # the ladder
    ("ties go to the earlier card", R("agurk"), range(3, 8), _function(ladder, "takes", _takes_earlier)),
    ("optional lowest dropped", R("agurk"), range(3, 8), _function(ladder, "follow", _follow_no_lowest)),
    ("forced following read as optional", R("gurka"), range(2, 8), _spec(forced=False)),
    ("ace lead ignored", R("gurka"), range(2, 8), _spec(ace=-1)),
    (
        "threshold > instead of >=",
        R("gurka"),
        range(2, 8),
        _function(ladder, "thresholds", _threshold_strict),
    ),
    ("no tie bonus", R("agurk"), range(3, 8), _spec(tie_bonus=False)),
    (
        "a mark resets the total to 0",
        R("agurk"),
        range(3, 8),
        _function(ladder, "reset_total", _reset_to_zero),
    ),
    ("one life too many", R("agurk"), range(3, 8), _spec(lives=3)),
    ("card values off by one", R("gurka"), range(2, 8), _spec(value=lambda s: s.value + 1)),
    (
        "1s doubled once, not per 1",
        R("five-cucumbers", hand_size=2, threshold=30),
        range(2, 7),
        _spec(doubling="once"),
    ),
    ("the payer does not lead next", R("five-cucumbers"), range(2, 7), _spec(rotate=True)),
    ("the deal does not rotate", R("agurk"), range(3, 8), _spec(rotate=False)),
    (
        "reverse: the first of the lowest pays",
        R("agurk", reverse=True),
        range(3, 8),
        _function(ladder, "pay", _pay_first_of_lowest),
    ),
    (
        "revival offered with one other player in",
        R("gurka", revival=True, threshold=10),
        range(3, 8),
        _function(ladder, "offers_revival", _revival_with_one_other),
    ),
    (
        "a revived seat comes back counting all seats",
        R("gurka", revival=True, threshold=10, lives=2),
        range(3, 8),
        _function(ladder, "comeback_total", _comeback_with_own),
    ),
    (
        "round limit one round late",
        R("agurk", round_limit=3),
        range(3, 8),
        _spec(limit=lambda s: s.limit + 1),
    ),
    ("fixed rounds one short", R("gurka", fixed_rounds=3), range(2, 8), _spec(fixed_rounds=2)),
    # Catastrophe
    (
        "5-cucumber cards may lead",
        R("catastrophe"),
        range(3, 7),
        _function(catastrophe, "restriction", _fives_may_lead),
    ),
    (
        "High broken: the highest wins",
        R("catastrophe"),
        range(3, 7),
        _function(catastrophe, "mark", _marker_broken_high_takes_highest),
    ),
    (
        "a break tested against the card taking, not the lead",
        R("catastrophe"),
        range(3, 7),
        _function(catastrophe, "mark", _marker_break_against_best),
    ),
    (
        "the best single hand does not break ties",
        R("catastrophe", hand_count=2, hand_size=3),
        range(3, 7),
        _function(catastrophe, "winners", _winners_no_best_hand),
    ),
    (
        "Surprise: the revealed card is not captured",
        R("catastrophe", surprise=True),
        range(3, 7),
        _function(catastrophe, "trick_cucumbers", _reveal_not_captured),
    ),
    (
        "If You Can't Beat 'Em at three fives",
        R("catastrophe", cant_beat_em=True),
        range(3, 7),
        _spec(bonus_fives=3),
    ),
    (
        "the lowest total starts",
        R("catastrophe"),
        range(3, 7),
        _function(catastrophe, "starter", _starter_lowest),
    ),
    ("one hand too many", R("catastrophe"), range(3, 7), _spec(hand_count=5)),
]


@pytest.mark.parametrize(("name", "rules", "players", "plant"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_the_harness_catches_the_mutant(
    name: str,
    rules: cr.Rules,
    players: range,
    plant: Callable[[pytest.MonkeyPatch], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plant(monkeypatch)
    test_env = batch.make(rules, players=players, size=64)
    with pytest.raises(batch.LockstepError):
        batch.check(test_env, matches=150, observe=0.02)


def test_without_a_mutant_the_same_runs_pass() -> None:
    for _, rules, players, _ in MUTANTS[:3]:
        batch.check(batch.make(rules, players=players, size=64), matches=20, observe=0.02)
