"""The batched engine against the library, decision by decision (`cucumber_rules.batch.check`).

Every preset over its whole player range (lanes of different counts in one batch) for 200 matches or
more, and every option value at least once (`VARIANTS`: each option's values beside the presets'),
with and without auto-reset; a slow-marked run of 2,000 Agurk matches beside them. `check` compares the
seat to act, the legal mask, every hand, the trick, the totals, marks, eliminations, revivals and
Catastrophe's marker, reveals and captured cucumbers at every decision, the rewards against
`cr.returns` at every match's end, and observations on a sample of decisions.
"""

from __future__ import annotations

from typing import Any

import pytest

import cucumber_rules as cr
from cucumber_rules import batch

R = cr.ruleset

#: (rules, player counts, matches): the presets over their whole ranges.
PRESETS = [
    (R("agurk"), range(3, 8), 200),
    (R("gurka"), range(2, 8), 200),
    (R("five-cucumbers"), range(2, 7), 200),
    (R("fuenf-gurken"), range(2, 7), 200),
    (R("catastrophe"), range(3, 7), 200),
]

#: A cucumbers table of its own: 5-cucumber cards at 1, 8, 15, ... and 0 to 3 on the others.
TABLE = tuple(5 if i % 7 == 0 else i % 4 for i in range(60))

#: Every option value the presets do not already play, at least once (short matches where the option
#: allows: a small threshold or hand size plays more rounds per second of checking).
VARIANTS = [
    # follow, ace_lead, tie_bonus, lives (3), a small threshold
    (R("gurka", follow="optional-lowest", ace_lead=True, tie_bonus=True, lives=3, threshold=15), range(2, 8)),
    (R("agurk", follow="forced-lowest", ace_lead=True, tie_bonus=False, lives=1), range(3, 8)),
    # reverse, next_leader, hand sizes
    (R("agurk", reverse=True, next_leader="penalized", hand_size=4), range(3, 8)),
    (R("five-cucumbers", reverse=True, next_leader="rotate", hand_size=3), range(2, 7)),
    # revival (decisions), with one life and with marks
    (R("agurk", revival=True, lives=1, threshold=10), range(3, 8)),
    (R("gurka", revival=True, lives=2, hand_size=3, threshold=12), range(3, 8)),
    (R("five-cucumbers", revival=True, doubling="once", hand_size=5), range(3, 7)),
    # fixed_rounds, round_limit
    (R("gurka", fixed_rounds=5, hand_size=3), range(2, 8)),
    (R("agurk", fixed_rounds=3, tie_bonus=True), range(3, 8)),
    (R("agurk", round_limit=4), range(3, 8)),
    (R("five-cucumbers", round_limit=3, next_leader="penalized"), range(2, 7)),
    # penalty, doubling, tie bonus on the numbered deck
    (R("five-cucumbers", doubling="none", tie_bonus=True, penalty="card-value", threshold=30), range(2, 7)),
    (R("fuenf-gurken", follow="forced-lowest", ace_lead=True, lives=2), range(2, 7)),
    # the deck the other way round: the 52-card deck with the penalized leader
    (R("gurka", next_leader="penalized", hand_size=5, threshold=20), range(2, 8)),
    # Catastrophe: Surprise Cucumber (8 cards at six), If You Can't Beat 'Em, both, a cucumbers table, hands
    (R("catastrophe", surprise=True), range(3, 7)),
    (R("catastrophe", cant_beat_em=True), range(3, 7)),
    (R("catastrophe", surprise=True, cant_beat_em=True, hand_count=2), range(3, 7)),
    (R("catastrophe", hand_count=2, hand_size=5, cucumbers=TABLE), range(3, 7)),
    (R("catastrophe", hand_count=1, hand_size=1, cant_beat_em=False), range(3, 7)),
]


def _id(value: Any) -> str:
    if isinstance(value, cr.Rules):
        changed = {k: v for k, v in value.options().items() if v != cr.RULESETS[value.name].options()[k]}
        shown = ",".join(f"{k}={'table' if k == 'cucumbers' else v}" for k, v in changed.items())
        return value.name + (f"[{shown}]" if shown else "")
    return str(value)


@pytest.mark.parametrize(("rules", "players", "matches"), PRESETS, ids=_id)
def test_presets_play_the_librarys_game(rules: cr.Rules, players: range, matches: int) -> None:
    env = batch.make(rules, players=players, size=128, record=True)
    report = batch.check(env, matches=matches, seed=1, observe=0.02)
    assert report.matches >= matches
    assert report.replays == 4
    assert report.observations > 100


@pytest.mark.parametrize(("rules", "players"), VARIANTS, ids=_id)
def test_every_option_value_plays_the_librarys_game(rules: cr.Rules, players: range) -> None:
    env = batch.make(rules, players=players, size=128, record=True)
    report = batch.check(env, matches=200, seed=2, observe=0.02)
    assert report.matches >= 200


@pytest.mark.parametrize("preset", ["agurk", "five-cucumbers", "catastrophe"])
def test_without_auto_reset_lanes_wait_at_the_end(preset: str) -> None:
    rules = R(preset)
    counts = range(rules.min_players, rules.max_players + 1)
    env = batch.make(rules, players=counts, size=64, auto_reset=False)
    report = batch.check(env, matches=64, seed=3, observe=0.05)
    assert report.matches >= 64


@pytest.mark.slow
def test_two_thousand_agurk_matches() -> None:
    env = batch.make("agurk", players=range(3, 8), size=512, record=True)
    report = batch.check(env, matches=2000, seed=4, observe=0.005)
    assert report.matches >= 2000
    assert report.decisions > 500_000
