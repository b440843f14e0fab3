"""The ladder games in words and numbers: narration, the heuristic, statistics, tests and docs."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...actions import Action, Play
from ...cards import DECKS
from .rules import round_limit
from .types import LadderMatch, LadderResult, Revive

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

    from ...state import State, Trick
    from ...views import PlayerView
    from .rules import LadderRules

__all__ = [
    "describe_deal",
    "describe_result",
    "describe_seat",
    "describe_trick",
    "draw_options",
    "facts",
    "heuristic",
    "max_actions",
    "penalties",
]


def describe_deal(state: State) -> str:
    """`Round 3: Bo deals, Cy leads (Di sits out)`.

    Example:
        >>> import cucumber_rules as cr
        >>> s0 = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
        >>> describe_deal(cr.apply(s0, cr.sample_chance(s0, __import__("random").Random(1))))
        'Round 1: Cy deals, Ann leads'
    """
    m: LadderMatch = state.match  # type: ignore[assignment]
    table = state.table
    assert table is not None
    names = state.players
    sitting = [s for s in range(len(names)) if s not in table.seats and not m.out[s]]
    line = f"Round {m.rounds + 1}: {names[m.dealer]} deals, {names[table.leader]} leads"
    if sitting:
        line += " (" + ", ".join(names[s] for s in sitting) + " sits out)"
    return line


def describe_trick(state: State, trick: Trick, number: int, *, last: bool = False) -> str:
    """`trick 7: Ann 2C, Bo 9S → Bo takes the last trick`.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka"), players=["Ann", "Bo"])
        >>> describe_trick(s, cr.Trick(0, (cr.Play(0, "2C"), cr.Play(1, "9S")), 1), 7, last=True)
        'trick 7: Ann 2C, Bo 9S → Bo takes the last trick'
    """
    names = state.players
    plays = ", ".join(f"{names[p.seat]} {p.card}" for p in trick.plays)
    return f"trick {number}: {plays} → {names[trick.taker]}" + (" takes the last trick" if last else "")


def describe_result(state: State, result: LadderResult) -> list[str]:
    """Who paid what for which card, tie bonuses, cucumber marks, eliminations, returns, the round limit.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
        >>> r = cr.LadderResult(1, (0, 9, -9), (0, 9, 0), payer=1, card=cr.card("9S"))
        >>> describe_result(s, r)
        ['Bo pays 9 for 9S (total 9)', 'Cy played the same rank: -9 (total 0)']
        >>> s = cr.new_game(cr.ruleset("agurk", reverse=True), players=["Ann", "Bo", "Cy"])
        >>> describe_result(s, cr.LadderResult(1, (0, 0, 14), (0, 0, 14), payer=2, card=cr.card("AD")))
        ['Cy pays 14, the value of the highest card AD (total 14)']
    """
    names = state.players
    rules: LadderRules = state.match.rules  # type: ignore[assignment]
    lines = []
    payer = result.payer
    before_reset = result.totals[payer] if payer not in result.marks else None
    total = f" (total {before_reset})" if before_reset is not None else ""
    if rules.reverse:  # the lowest card pays the value of the highest, which another seat may have played
        lines.append(
            f"{names[payer]} pays {result.points[payer]}, the value of the highest card {result.card}{total}"
        )
    else:
        lines.append(f"{names[payer]} pays {result.points[payer]} for {result.card}{total}")
    for seat, points in enumerate(result.points):
        if points < 0:
            lines.append(f"{names[seat]} played the same rank: {points} (total {result.totals[seat]})")
    for seat in result.marks:
        lines.append(
            f"{names[seat]} crosses {rules.threshold}: a cucumber mark, score reset to {result.totals[seat]}"
        )
    for seat in result.eliminated:
        lines.append(f"{names[seat]} is eliminated")
    for seat in result.returned:
        lines.append(f"{names[seat]} is back in with {result.totals[seat]}")
    m: LadderMatch = state.match  # type: ignore[assignment]
    if rules.fixed_rounds is None and m.winners and result.number == m.rounds and m.out.count(0) > 1:
        lines.append("Round limit reached: the lowest total still in wins")
    return lines


def describe_seat(state: State, seat: int) -> str:
    """`" (out)"`, `" (marked)"` or `" (2 marks)"` after a seat's total.

    Example:
        >>> import cucumber_rules as cr
        >>> describe_seat(cr.new_game(cr.ruleset("agurk"), players=3), 0)
        ''
    """
    m: LadderMatch = state.match  # type: ignore[assignment]
    rules: LadderRules = m.rules  # type: ignore[assignment]
    if m.out[seat]:
        return " (out)"
    if m.marks[seat] and rules.lives > 1:
        return " (marked)" if m.marks[seat] == 1 else f" ({m.marks[seat]} marks)"
    return ""


def heuristic(view: PlayerView, rng: random.Random, *, caution: float = 1.0) -> Action:
    """Only the last trick costs, and it goes to the highest card: play the highest legal card.

    It sheds high cards while tricks are free, forces the others to throw their
    low cards when it leads high, keeps its lowest card for the end, and always
    buys back in when the revival rule offers it.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
        ...              cr.Deal(hands=[["2C", "KS"], ["3H", "AS"]]))
        >>> heuristic(cr.view(s, 0), __import__("random").Random(1))
        Play(seat=0, card=card('KS'))
    """
    legal = view.legal
    if legal and type(legal[0]) is Play:  # plays only (sorted, one seat's: by card): the highest is last
        return legal[-1]
    revivals = [a for a in legal if isinstance(a, Revive)]  # else the revival decisions
    if revivals:
        return next((a for a in revivals if a.accept), revivals[0])
    return rng.choice(legal)


def penalties(state: State) -> tuple[int, ...]:
    """What the last trick cost its payer, per finished round.

    Example:
        >>> import cucumber_rules as cr
        >>> penalties(cr.new_game(cr.ruleset("agurk"), players=3))
        ()
    """
    results: tuple[LadderResult, ...] = state.match.results.items()  # type: ignore[assignment]
    return tuple(r.points[r.payer] for r in results)


def max_actions(rules: LadderRules, players: int) -> int:
    """A hard bound on the actions of a match: its most rounds times the most actions of a round.

    A match has at most `round_limit(rules, players)` rounds (`fixed_rounds`, else
    the `round_limit` option, else the automatic limit), since the engine ends an
    undecided match there. A round is one deal, at most `hand_size` plays from each
    seat, and with `revival` at most one decision (only the round's payer can be put
    out in it, and no decision follows the last round).

    Example:
        >>> import cucumber_rules as cr
        >>> max_actions(cr.ruleset("gurka", fixed_rounds=2), 2)
        30
        >>> max_actions(cr.ruleset("gurka", round_limit=3, revival=True), 3)
        69
    """
    per_round = 1 + players * rules.hand_size + (1 if rules.revival else 0)
    return round_limit(rules, players) * per_round


def draw_options(draw: DrawFn, base: LadderRules) -> dict[str, Any]:
    """Random valid option overrides of a ladder preset (thresholds kept small so matches stay short).

    `round_limit` is sometimes a few rounds, so that matches ending at the limit are exercised.

    Example:
        >>> from hypothesis import given, settings, strategies as st
        >>> import cucumber_rules as cr
        >>> agurk = cr.ruleset("agurk")
        >>> @settings(max_examples=5, database=None)
        ... @given(st.composite(lambda draw: draw_options(draw, agurk))())
        ... def test(options):
        ...     cr.ruleset("agurk", **options)
        >>> test()
    """
    from hypothesis import strategies as st

    def maybe(name: str, values: SearchStrategy[Any]) -> Any:
        return draw(values) if draw(st.booleans()) else getattr(base, name)

    deck = maybe("deck", st.sampled_from(["standard-52", "five-cucumbers-60"]))
    five = deck == "five-cucumbers-60"
    penalty = maybe("penalty", st.sampled_from(["card-value", "cucumbers"] if five else ["card-value"]))
    if not five:
        penalty = "card-value"
    doubling = maybe("doubling", st.sampled_from(["none", "per-one", "once"] if five else ["none"]))
    if not five:
        doubling = "none"
    most = len(DECKS[deck]) // base.max_players
    hand_size = min(maybe("hand_size", st.integers(1, most)), most)
    top = 45 if penalty == "card-value" else 8
    threshold = min(maybe("threshold", st.integers(1, top)), top)
    fixed_rounds = maybe("fixed_rounds", st.none() | st.integers(1, 4))
    limit = maybe("round_limit", st.none() | st.integers(1, 6))  # small: matches that reach it
    if fixed_rounds is not None:
        limit = None
    revival = maybe("revival", st.booleans())
    if fixed_rounds is not None or base.max_players < 3:
        revival = False
    return {
        "deck": deck,
        "penalty": penalty,
        "doubling": doubling,
        "hand_size": hand_size,
        "threshold": threshold,
        "fixed_rounds": fixed_rounds,
        "round_limit": limit,
        "revival": revival,
        "follow": maybe("follow", st.sampled_from(["optional-lowest", "forced-lowest"])),
        "ace_lead": maybe("ace_lead", st.booleans()),
        "tie_bonus": maybe("tie_bonus", st.booleans()),
        "lives": maybe("lives", st.integers(1, 3)),
        "next_leader": maybe("next_leader", st.sampled_from(["rotate", "penalized"])),
        "reverse": maybe("reverse", st.booleans()),
    }


def facts(rules: LadderRules) -> list[tuple[str, str]]:
    """The rows of a ladder preset's at-a-glance table in the docs.

    Example:
        >>> import cucumber_rules as cr
        >>> facts(cr.ruleset("gurka"))[-1]
        ('threshold', '30 (reaching it eliminates)')
        >>> facts(cr.ruleset("gurka", round_limit=20))[-1]
        ('round limit', '20 rounds, then the lowest total still in wins')
    """
    if rules.lives == 1:
        lives = "reaching it eliminates"
    else:
        lives = f"{rules.lives} lives: each crossing but the last draws a cucumber mark and resets the total"
    if rules.fixed_rounds is not None:
        return [
            ("cards per player", str(rules.hand_size)),
            (
                "match",
                f"{rules.fixed_rounds} rounds, the lowest total wins; only the last trick of a round scores",
            ),
        ]
    rows = [
        ("cards per player", str(rules.hand_size)),
        ("match", "rounds until one player is left; only the last trick of a round scores"),
        ("threshold", f"{rules.threshold} ({lives})"),
    ]
    if rules.round_limit is not None:
        rows.append(("round limit", f"{rules.round_limit} rounds, then the lowest total still in wins"))
    return rows
