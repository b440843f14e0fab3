"""`replay`: a saved game or match record checked and scored; told whole, one round, or a trick at a time."""

from __future__ import annotations

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
    if narrated or step or round_number is not None:
        match = _Retold.of(rec)
        unit = cr.game_of(rec).unit
        if round_number is not None and not match.rounds:
            fail(f"--round {round_number}: this match has not dealt its first {unit} yet")
        if round_number is not None and not 1 <= round_number <= match.rounds:
            fail(f"--round must be a {unit} 1..{match.rounds} of this match, not {round_number}")
        if step and match.rounds:
            state = _step_through(out, match, round_number or 1)
        elif round_number is not None:
            start, end = match.round_span(round_number)
            match.tell(out, start, end)
            state = match.states[end]
            if not state.is_over:
                out.print(f"(after {unit} {round_number} of {match.rounds})")
        elif not step:
            match.tell(out, 0, len(rec.actions))
    out.print(standings_table(state))
    sc = cr.score(state)
    if state.is_over:
        out.print("Winner: " + ", ".join(shown(state.players[s]) for s in sc.winners))
    elif state.to_act == cr.CHANCE:
        out.print("The match is in progress: a deal is due.")
    else:
        assert state.to_act is not None
        name, seat = state.players[state.to_act], f"seat {state.to_act}"
        who = seat if name == seat else f"{shown(name)} ({seat})"
        out.print(f"The match is in progress: {who} is to act.")


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
        return lines

    def tell(self, out: Console, start: int, end: int) -> None:
        for index in range(start, end):
            for line in self.lines(index):
                out.print(shown(line))


def _step_help(unit: str) -> str:
    return f"Enter: the next trick · r N: jump to {unit} N · t: the table in words · q: stop"


def _step_through(out: Console, match: _Retold, first_round: int) -> cr.State:
    """Tell the match a trick at a time from round `first_round`; the state where the reader stopped."""
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
                return after
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
    return match.states[total]
