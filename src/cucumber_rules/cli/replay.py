"""`replay`: a saved game or match record checked and scored; told whole, one round, or a trick at a time."""

from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import Annotated

import attrs
import typer
from rich.console import Console

import cucumber_rules as cr
from cucumber_rules.narrate import narrate
from cucumber_rules.render import describe

from .common import fail, make_console, rules_title, shown
from .output import standings_table
from .prompts import ask_pause
from .saves import load_save, replay_save


def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A game saved by `play --save`, or a match record (cr.dumps(cr.record(state))).",
        ),
    ],
    narrated: Annotated[
        bool,
        typer.Option(
            "--narrate",
            help="Tell the match trick by trick: each deal's hands, each trick and what it cost, the scores.",
        ),
    ] = False,
    round_number: Annotated[
        int | None,
        typer.Option("--round", "-r", metavar="N", help="Tell only round N (Catastrophe: hand N)."),
    ] = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Tell the match a trick at a time: Enter for the next, 'r N' to jump to round N, "
            "'t' for the table in words, 'q' to stop.",
        ),
    ] = False,
) -> None:
    """Check a saved game or match record and print its score; tell it trick by trick, or one round.

    Exit code 1 if the file is not a valid record.
    """
    rec, saved = load_save(file)
    state = replay_save(file, rec)
    out = make_console()
    out.print(
        f"{shown(str(file))}: a valid record of {shown(rules_title(rec.rules))}, {len(rec.players)} players, "
        f"{len(rec.actions)} actions"
    )
    if saved is not None:
        lineup = ", ".join(
            f"{shown(name)} ({'you' if bot is None else shown(bot)})"
            for name, bot in zip(rec.players, saved.bots, strict=True)
        )
        out.print(f"Saved by cucumber-rules play (seed {saved.seed}): {lineup}")
    # Where the telling stopped before the record's end (the state there, and where that is in words).
    stop: tuple[cr.State, str] | None = None
    if narrated or step or round_number is not None:
        match = _Retold.of(rec)
        unit = cr.game_of(rec).unit
        if round_number is not None and not match.rounds:
            fail(f"--round {round_number}: this match has not dealt its first {unit} yet")
        if round_number is not None and not 1 <= round_number <= match.rounds:
            fail(f"--round must be a {unit} 1..{match.rounds} of this match, not {round_number}")
        if step and match.rounds:
            stop = match.stop(_step_through(out, match, round_number or 1))
        elif round_number is not None:
            start, end = match.round_span(round_number)
            match.tell(out, start, end)
            if end < len(rec.actions):
                stop = match.states[end], f"after {unit} {round_number} of {match.rounds}"
        elif not step:
            match.tell(out, 0, len(rec.actions))
    if stop is None:
        out.print(standings_table(state))
        if state.is_over:
            out.print("Winner: " + _winners(state))
        else:
            out.print(f"The match is in progress: {_to_act(state)}.")
        return
    # Told up to a point before the record's end: the standings there, labelled as such, and the end apart.
    at, where = stop
    out.print(standings_table(at, where=where))
    out.print(f"{where[0].upper()}{where[1:]}, {_to_act(at)}.")
    more = len(rec.actions) - len(at.actions)
    if state.is_over:
        out.print(
            f"The record goes on for {more} more actions, to the end of the match. Winner: {_winners(state)}"
        )
    else:
        out.print(f"The record goes on for {more} more actions; at its end, {_to_act(state)}.")


def _winners(state: cr.State) -> str:
    """The winners of a finished match, by name."""
    return ", ".join(shown(state.players[s]) for s in cr.score(state).winners)


def _to_act(state: cr.State) -> str:
    """Who acts next in a match in play, in words: `Cy (seat 2) is to act`, or `a deal is due`."""
    if state.to_act == cr.CHANCE:
        return "a deal is due"
    assert state.to_act is not None
    name, seat = state.players[state.to_act], f"seat {state.to_act}"
    who = seat if name == seat else f"{shown(name)} ({seat})"
    return f"{who} is to act"


def _trick_in_play(state: cr.State) -> str | None:
    """The trick left open, in the words of a finished trick's line; None if no card of it is played.

    `narrate` tells a trick when it is taken; a record that stops mid-trick ends with these cards.
    """
    if not state.trick or state.table is None or state.to_act is None or state.to_act < 0:
        return None
    first, *rest = state.trick
    plays = ", ".join(
        [f"{state.players[first.seat]} led {first.card}"]
        + [f"{state.players[p.seat]} {p.card}" for p in rest]
    )
    extra = cr.game_of(state).words.describe_table(cr.view(state, None))
    marker = f" [{extra}]" if extra else ""
    number = len(state.table.tricks) + 1
    return f"  trick {number} in play: {plays}{marker}; {state.players[state.to_act]} to play"


@attrs.frozen
class _Retold:
    """A match record replayed step by step, to be told in any order."""

    record: cr.Record
    states: tuple[cr.State, ...]
    """The state before each action, and the last state after them all."""
    deals: tuple[int, ...]
    """The index of each round's deal among the actions."""

    @classmethod
    def of(cls, rec: cr.Record) -> _Retold:
        states = [cr.new_game(rec.rules, list(rec.players), first=rec.first)]
        for action in rec.actions:
            states.append(cr.apply(states[-1], action))
        deals = tuple(i for i, a in enumerate(rec.actions) if isinstance(a, cr.Deal))
        return cls(rec, tuple(states), deals)

    @property
    def rounds(self) -> int:
        """The rounds begun."""
        return len(self.deals)

    def round_span(self, number: int) -> tuple[int, int]:
        """The actions of round `number` (from 1): from its deal to the next deal or the end."""
        end = self.deals[number] if number < len(self.deals) else len(self.record.actions)
        return self.deals[number - 1], end

    def lines(self, index: int) -> list[str]:
        """What action `index` tells: `narrate`'s lines, and a deal's hands (a record holds them all)."""
        before, action, after = self.states[index], self.record.actions[index], self.states[index + 1]
        lines = narrate(before, action, after)
        if isinstance(action, cr.Deal):
            lines += [
                f"  {name} holds {' '.join(str(c) for c in hand)}"
                for name, hand in zip(after.players, action.hands, strict=True)
                if hand
            ]
        if index + 1 == len(self.record.actions):
            open_trick = _trick_in_play(after)
            if open_trick is not None:
                lines.append(open_trick)
        return lines

    def stop(self, index: int) -> tuple[cr.State, str] | None:
        """The state after the first `index` actions, and where that is in words; None at the record's end."""
        if index >= len(self.record.actions):
            return None
        state = self.states[index]
        number = bisect.bisect_left(self.deals, index)  # (the rounds dealt before the stop)
        tricks = 0 if state.table is None else len(state.table.tricks)
        return state, f"after trick {tricks} of {cr.game_of(self.record).unit} {number}"

    def tell(self, out: Console, start: int, end: int) -> None:
        for index in range(start, end):
            for line in self.lines(index):
                out.print(shown(line))


def _step_help(unit: str) -> str:
    return f"Enter: the next trick · r N: jump to {unit} N · t: the table in words · q: stop"


def _step_through(out: Console, match: _Retold, first_round: int) -> int:
    """Tell the match a trick at a time from round `first_round`; the actions told when the reader stopped."""
    unit = cr.game_of(match.record).unit
    index = match.round_span(first_round)[0]
    total = len(match.record.actions)
    out.print(_step_help(unit))
    while index < total:
        told = match.lines(index)
        for line in told:
            out.print(shown(line))
        index += 1
        after = match.states[index]
        if index == total or not told or isinstance(match.record.actions[index - 1], cr.Deal):
            continue  # (pause after each trick, not after a deal or a play that leaves the trick open)
        while True:
            answer = ask_pause(out, ">")
            if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
                return index
            word = answer.strip().lower()
            if word in ("", "n", "next"):
                break
            if word in ("t", "table"):
                for sentence in describe(after, open_hands=True).split(". "):
                    out.print(shown(sentence.removesuffix(".") + "."))
                continue
            jump = re.fullmatch(r"(?:r|round)\s*(\d+)", word)
            if jump and 1 <= int(jump[1]) <= match.rounds:
                index = match.round_span(int(jump[1]))[0]
                break
            if jump:
                out.print(f"This match has {unit}s 1..{match.rounds}.")
                continue
            out.print(_step_help(unit))
    return total
