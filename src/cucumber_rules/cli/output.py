"""What the commands print: the standings table, the simulation summary, option values."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

import cucumber_rules as cr
from cucumber_rules.simulate import SimulationResult

from .common import rules_title, shown

# --------------------------------------------------------------------------- standings


def _ranking(rules: cr.Rules) -> str:
    """How `Score.standings` orders the seats, for the standings table's caption."""
    return cr.game_of(rules).words.ranking(rules)


def standings_table(state: cr.State, where: str | None = None) -> Table:
    """The standings of `state`; `where` names the point of a record they are at (`after hand 2 of 4`)."""
    sc = cr.score(state)
    over = state.is_over
    if where is not None:
        title = f"Standings ({where})"
    else:
        title = "Final standings" if over else "Standings (the match is in play)"
    table = Table(
        title=title,
        caption=_ranking(state.rules),
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("total", justify="right")
    # (Marks and eliminations are the ladder's own per-seat values: `Score.per_seat` names them.)
    own = type(sc).per_seat
    marks: tuple[int, ...] = sc.marks if "marks" in own else ()
    out: tuple[bool, ...] = sc.eliminated if "eliminated" in own else (False,) * len(sc.totals)
    ladder = any(marks)
    if ladder:
        table.add_column("marks", justify="right")
    table.add_column("status")
    unit = cr.game_of(state).unit
    out_in = {seat: r.number for r in sc.results for seat in getattr(r, "went_out", ())}  # elimination games
    for place, seat in enumerate(sc.standings, 1):
        if seat in sc.winners:
            status = "winner"
        elif out[seat]:
            status = f"out in {unit} {out_in[seat]}" if seat in out_in else "out"
        else:
            status = "" if over else "in play"
        row = [str(place), shown(state.players[seat]), str(sc.totals[seat])]
        if ladder:
            row.append(str(marks[seat]))
        table.add_row(*row, status)
    return table


# --------------------------------------------------------------------------- simulate


def _rate(rate: Any) -> tuple[str, str]:
    return f"{rate.rate:.1%}", f"{rate.low:.1%} – {rate.high:.1%}"


#: The win tables' caption: why a count of wins can be fractional.
_SHARED = "Ties share a win: each of k winners of a match counts 1/k of a win."


def print_summary(out: Console, result: SimulationResult) -> None:
    data = result.to_dict()
    rounds = data["rounds_per_match"]
    game = cr.game_of(result.rules)
    unit = game.unit + "s"
    summary = Table(title=f"{shown(rules_title(result.rules))}: {result.players} players, seed {result.seed}")
    summary.add_column("")
    summary.add_column("value", justify="right")
    summary.add_row("matches", str(data["matches"]))
    summary.add_row(
        f"{unit} per match", f"{rounds['mean']:.2f} (min {rounds['min']:.0f}, max {rounds['max']:.0f})"
    )
    summary.add_row("decisions per match", f"{data['decisions_per_match']:.1f}")
    summary.add_row("seats rotate", "yes" if result.rotate else "no")
    out.print(summary)

    seats = Table(title="Win rate by seat", caption=_SHARED, caption_justify="left")
    seats.add_column("seat", justify="right")
    if not result.rotate:
        seats.add_column("bot")
    seats.add_column("wins", justify="right")
    seats.add_column("rate", justify="right")
    seats.add_column("95% interval", justify="right")
    for s, rate in enumerate(result.seat_rates()):
        row = [str(s)] + ([shown(result.bots[s])] if not result.rotate else [])
        seats.add_row(*row, f"{rate.wins:g}", *_rate(rate))
    out.print(seats)

    bots = Table(title="Win rate by bot", caption=_SHARED, caption_justify="left")
    bots.add_column("bot")
    bots.add_column("seats played", justify="right")
    bots.add_column("wins", justify="right")
    bots.add_column("rate", justify="right")
    bots.add_column("95% interval", justify="right")
    for name, rate in result.bot_rates().items():
        bots.add_row(shown(name), str(rate.games), f"{rate.wins:g}", *_rate(rate))
    out.print(bots)

    pen = data["penalties"]
    what = game.stats.penalty_words
    out.print(
        f"Penalties ({what}): n={pen['count']:.0f}, mean {pen['mean']:.2f}, median {pen['median']:g}, "
        f"90th percentile {pen['p90']:g}, max {pen['max']:g}"
    )
    dist = result.penalty_distribution()
    if dist:
        histogram = Table(title="Penalty distribution")
        histogram.add_column("penalty", justify="right")
        histogram.add_column("count", justify="right")
        histogram.add_column("share", justify="right")
        total = sum(dist.values())
        for value, count in dist.items():
            histogram.add_row(str(value), str(count), f"{count / total:.1%}")
        out.print(histogram)


# --------------------------------------------------------------------------- rules


def value_text(value: Any) -> str:
    if isinstance(value, tuple):
        fives = [str(i + 1) for i, v in enumerate(value) if v == 5]
        if all(v in (1, 5) for v in value):
            return f"5 on {', '.join(fives)}; 1 on the others"
        return ",".join(str(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
