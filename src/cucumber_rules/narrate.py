"""Match narration: what happened at the table, in plain words.

[`narrate`][cucumber_rules.narrate.narrate] turns one step of a match (the state
before, the action, the state after) into lines of text: the deal (who deals and
leads, never the cards), each finished trick (who played what, who took it),
the end of a round (what it cost, marks, eliminations, the scores) and the
winners. It tells only what every player at the table sees, so the CLI's `play`
command uses it to report the bots' moves. The words for each game come from
its `Game.words`, a [`Words`][cucumber_rules.narrate.Words] group: the defaults
are here, and a game that says more subclasses it (the ladder's `LadderWords`).

For a player at the table, [`rules_intro`][cucumber_rules.narrate.rules_intro] says how a
trick is taken where the game has a rule worth saying first (Catastrophe's Trick Marker),
[`marker_note`][cucumber_rules.narrate.marker_note] where the marker stands at their turn,
and [`barred`][cucumber_rules.narrate.barred] why a card of their hand cannot be played now,
in the library's own words put to them ([`to_you`][cucumber_rules.narrate.to_you]).

Example:
    >>> import cucumber_rules as cr
    >>> s0 = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"])
    >>> s1 = cr.apply(s0, cr.Deal(hands=[["2C"], ["9S"]]))
    >>> s2 = cr.apply(s1, cr.Play(0, "2C"))
    >>> s3 = cr.apply(s2, cr.Play(1, "9S"))
    >>> for line in narrate(s2, cr.Play(1, "9S"), s3):
    ...     print(line)
      trick 1: Ann 2C, Bo 9S → Bo takes the last trick
      Bo pays 9 for 9S (total 9)
      scores: Ann 0 · Bo 9
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .actions import Action, Deal, Decision, Play
from .engine import check
from .game import HookGroup, game_of
from .rules import Rules
from .state import RoundResult, State, Trick
from .views import PlayerView, view

__all__ = [
    "Words",
    "barred",
    "describe_trick",
    "marker_note",
    "narrate",
    "rules_intro",
    "scores_line",
    "to_you",
]


def scores_line(state: State) -> str:
    """The running totals, with the game's notes (out, marked).

    Example:
        >>> import cucumber_rules as cr
        >>> scores_line(cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"]))
        'scores: Ann 0 · Bo 0 · Cy 0'
    """
    words = Words.of(game_of(state))
    m = state.match
    parts = [
        f"{name} {m.totals[seat]}{words.describe_seat(state, seat)}" for seat, name in enumerate(m.players)
    ]
    return "scores: " + " · ".join(parts)


def describe_trick(state: State, trick: Trick, number: int, *, last: bool = False) -> str:
    """One line for a finished trick, in the game's words.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
        >>> t = cr.CatastropheTrick(leader=0, plays=(cr.Play(0, "22"), cr.Play(1, "30"), cr.Play(2, "25")),
        ...                         taker=1, marker=cr.Marker.HIGH)
        >>> describe_trick(s, t, 1)
        'trick 1: Ann 22, Bo 30, Cy 25 [High: highest wins] → Bo takes 7 cucumbers'
    """
    return Words.of(game_of(state)).describe_trick(state, trick, number, last=last)


def _winners(state: State, seats: Sequence[int]) -> str:
    names = ", ".join(state.players[s] for s in seats)
    return f"Winner: {names}" if len(seats) == 1 else f"Shared win: {names}"


def narrate(before: State, action: Action, after: State) -> list[str]:
    """Lines of plain text describing one step of a match.

    Only public information is told: a deal is reported without its cards.

    Args:
        before: The state before the action.
        action: The action applied.
        after: The state after it.

    Returns:
        Zero or more lines (a play that does not finish a trick gives none).

    Example:
        >>> import cucumber_rules as cr
        >>> s0 = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
        >>> deal = cr.Deal(hands=[[f"{r}{s}" for r in range(2, 9)] for s in "CDH"])
        >>> narrate(s0, deal, cr.apply(s0, deal))
        ['Round 1: Cy deals, Ann leads']
    """
    words = Words.of(game_of(after))
    lines: list[str] = []
    if isinstance(action, Deal):
        lines.append(words.describe_deal(after))
    elif isinstance(action, Decision):
        lines.append(f"{after.players[action.seat]} {str(action).removeprefix(f'seat {action.seat} ')}")
    elif isinstance(action, Play):
        old, new = before.table, after.table
        if old is not None and new is not None and len(new.tricks) > len(old.tricks):
            finished = after.match.rounds > before.match.rounds
            lines.append("  " + words.describe_trick(after, new.tricks[-1], len(new.tricks), last=finished))
            if finished:
                result = after.match.results.last
                assert result is not None
                lines.extend("  " + line for line in words.describe_result(after, result))
                lines.append("  " + scores_line(after))
    if after.is_over and not before.is_over:
        lines.append(_winners(after, after.match.winners))
    return lines


# --------------------------------------------------------------------------- explaining a turn to its player

_YOU = (
    (re.compile(r"\bevery other player plays their lowest card\b"), "you must play your lowest card"),
    (re.compile(r"\bthey hold\b"), "you hold"),
    (re.compile(r"\bthey must\b"), "you must"),
    (re.compile(r"\btheir hand\b"), "your hand"),
    (re.compile(r"\bthe hand holds\b"), "your hand holds"),
    (re.compile(r"(:|, so) must play\b"), r"\1 you must play"),
    (re.compile(r"\bthe lowest card\b"), "your lowest card"),
)


def to_you(message: str, seat: int, players: Sequence[str]) -> str:
    """The library's third-person message about `seat`, addressed to the player in that seat.

    `IllegalMoveError` messages are a stable third-person contract ("seat 2 cannot
    play 9H: must play 10 or higher, or the lowest card 3C"); at the table the
    human reads "you cannot play 9H: you must play 10 or higher, or your lowest card 3C".
    Other seats are named.

    Example:
        >>> message = "seat 2 cannot play 9H: must play 10 or higher, or the lowest card 3C"
        >>> to_you(message, 2, ["Ann", "Bo", "Cy"])
        'you cannot play 9H: you must play 10 or higher, or your lowest card 3C'
    """
    text = re.sub(rf"^seat {seat}\b", "you", message)
    for pattern, replacement in _YOU:
        text = pattern.sub(replacement, text)
    return re.sub(
        r"\bseat (\d+)\b",
        lambda m: players[int(m[1])] if int(m[1]) < len(players) else m[0],
        text,
    )


def rules_intro(rules: Rules) -> str | None:
    """How a trick is taken in the game of `rules`, or None where the rules table says enough
    (`Words.rules_intro`).

    Example:
        >>> import cucumber_rules as cr
        >>> "Trick Marker" in rules_intro(cr.ruleset("catastrophe")), rules_intro(cr.ruleset("agurk"))
        (True, None)
    """
    return Words.of(game_of(rules)).rules_intro(rules)


def marker_note(v: PlayerView) -> str | None:
    """What the viewer must know at their turn beyond the cards, or None (`Words.turn_note`;
    Catastrophe: the Trick Marker as it stands, and what it asks of them).

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=["Ann", "Bo", "Cy"])
        >>> s = cr.apply(s, cr.Deal(hands=[["22", "5"], ["30", "10"], ["25", "15"]]))
        >>> print(marker_note(cr.view(s, 0)))
        Trick Marker: not set. You lead; the next card sets it (higher: High, lower: Low).
    """
    return None if v.seat is None else Words.of(game_of(v)).turn_note(v)


_CANNOT = re.compile(r"^you cannot (?:play|lead) \S+: (.*?)(?: \((?:you hold|lead one of) [^()]*\))?$")


def barred(state: State, seat: int) -> list[str]:
    """Why each card in the hand of `seat` cannot be played now, one line per reason, addressed to them.

    The reasons are the library's own `IllegalMoveError` messages (`check`), put to the
    player with `to_you`, without the list of the cards they may play.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_size=3), players=["Ann", "Bo", "Cy"])
        >>> s = cr.apply(s, cr.Deal(hands=[["5", "22", "60"], ["30", "10", "40"], ["25", "15", "50"]]))
        >>> barred(s, 0)
        ['Not now: 5 (a 5-cucumber card may not lead a trick while your hand holds other cards)']
    """
    v = view(state, seat)
    if v.to_act != seat:
        return []
    legal = {a.card for a in v.legal if isinstance(a, Play)}
    reasons: dict[str, list[str]] = {}
    for card in dict.fromkeys(v.hand):
        if card in legal:
            continue
        error = check(state, Play(seat, card))
        if error is None:  # (a card the view's legal moves leave out but the engine takes: none is barred)
            continue
        message = to_you(error.message, seat, state.players)
        found = _CANNOT.match(message)
        reasons.setdefault(found[1] if found else message, []).append(str(card))
    return [f"Not now: {' '.join(cards)} ({reason})" for reason, cards in reasons.items()]


class Words(HookGroup):
    """The hook group of a game's words: `Game.words` (see `Game`).

    Narration, the command line and the docs' tables ask it. The defaults fit a
    game whose tricks are taken by one card and whose rounds score points.

    Example:
        >>> import cucumber_rules as cr
        >>> type(cr.GAMES["ladder"].words).__name__, type(cr.Game.words).__name__
        ('LadderWords', 'Words')
    """

    __slots__ = ()
    attribute = "words"  # (`Game.words`)

    def describe_deal(self, state: State) -> str:
        """One line for the start of a round: who leads (never the cards), e.g. `Hand 2: Bo leads`.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(1)))
            >>> cr.GAMES["catastrophe"].words.describe_deal(s)
            'Hand 1: Ann leads'
        """
        table = state.table
        assert table is not None
        unit = game_of(state).unit
        return f"{unit.capitalize()} {state.match.rounds + 1}: {state.players[table.leader]} leads"

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """One line for a finished trick: who played what and who took it.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> Words().describe_trick(s, s.table.tricks[0], 1)
            'trick 1: Ann 2C, Bo KS → Bo takes it'
        """
        plays = ", ".join(f"{state.players[p.seat]} {p.card}" for p in trick.plays)
        return f"trick {number}: {plays} → {state.players[trick.taker]} takes it"

    def describe_result(self, state: State, result: RoundResult) -> list[str]:
        """Lines for a finished round (the scores line is added by the caller).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> Words().describe_result(s, s.match.results[0])  # (the ladder's says who paid for what)
            ['round 1 points: Ann 0 · Bo 13']
        """
        row = " · ".join(f"{state.players[s]} {p}" for s, p in enumerate(result.points))
        return [f"{game_of(state).unit} {result.number} points: {row}"]

    def describe_table(self, view: PlayerView) -> str:
        """What a player must know about the current trick beyond its cards (Catastrophe: the
        revealed lead card and the Trick Marker), as a short text; default none.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply(cr.apply(s, cr.Play(0, "30")), cr.Play(1, "31"))  # 31 above 30: High
            >>> cr.GAMES["catastrophe"].words.describe_table(cr.view(s, 2))
            'High: highest wins'
        """
        return ""

    def rules_intro(self, rules: Rules) -> str | None:
        """How a trick is taken, in a few sentences, where the rules table does not say enough
        (Catastrophe: the Trick Marker); default None.

        Example:
            >>> import cucumber_rules as cr
            >>> Words().rules_intro(cr.ruleset("agurk")) is None
            True
        """
        return None

    def turn_note(self, view: PlayerView) -> str | None:
        """What a seated player must know at their turn beyond the cards, addressed to them
        (Catastrophe: the Trick Marker and what it asks of them); default None.

        Example:
            >>> import cucumber_rules as cr
            >>> Words().turn_note(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0)) is None
            True
        """
        return None

    def describe_seat(self, state: State, seat: int) -> str:
        """A note after a seat's total in a scores line, e.g. `" (out)"` (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> Words().describe_seat(cr.new_game(cr.ruleset("gurka"), players=2), 1)
            ''
        """
        return ""

    def decision_prompt(self, view: PlayerView) -> str:
        """The question a human answers with one of `view.legal`'s decisions, listing the choices.

        Example:
            >>> import cucumber_rules as cr
            >>> Words().decision_prompt(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0))
            'Choose:'
        """
        decisions = [a for a in view.legal if isinstance(a, Decision)]
        return (
            "Choose: " + " · ".join(f"{i}: {a}" for i, a in enumerate(decisions, 1))
            if decisions
            else "Choose:"
        )

    def decision_answers(self, view: PlayerView) -> Mapping[str, Decision]:
        """What a human may type to take each of `view.legal`'s decisions (default: their numbers).

        Example:
            >>> import cucumber_rules as cr
            >>> v = cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0)
            >>> Words().decision_answers(v)  # no decision is due
            {}
            >>> sorted(cr.GAMES["ladder"].words.decision_answers(v))  # the ladder's revival: yes or no
            ['n', 'no', 'y', 'yes']
        """
        decisions = [a for a in view.legal if isinstance(a, Decision)]
        return {str(i): a for i, a in enumerate(decisions, 1)}

    def ranking(self, rules: Rules) -> str:
        """How `score(state).standings` orders the seats, in words (the CLI's standings caption).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].words.ranking(cr.ruleset("catastrophe"))
            'Ranked by fewest cucumbers, then by the lowest single-hand score.'
        """
        return "Ranked by lowest total."

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """Rows describing a rule set for the docs' preset tables: (what, value).

        Example:
            >>> import cucumber_rules as cr
            >>> Words().facts(cr.ruleset("gurka"))
            [('deck', 'standard-52'), ('players', '2–7')]
        """
        return [("deck", rules.deck), ("players", f"{rules.min_players}–{rules.max_players}")]
