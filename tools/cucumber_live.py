"""Page-side helpers for the live documentation: run an example, step through it, play a match.

The documentation site runs Python in the reader's browser (Pyodide); its scripts
(`docs/javascripts/live.js`) load this module next to the `cucumber_rules` wheel and call:

- [`run`][] for a code example: it executes the code, captures what it prints, and collects
  a picture for every `show(...)` call (the frames the page steps through card by card);
- [`Match`][] for the `play/` page: a match between the reader (seat 0) and the library's bots,
  with deals drawn from a seeded generator and every step narrated.

It uses only the public API of `cucumber_rules` (and `render`, `bots`, `narrate`), runs the same
in CPython (the tests import it from `tools/`) and in the browser, and exchanges plain
JSON-ready dicts with the page. The build copies it to `site/live/cucumber_live.py`.

Example:
    >>> result = run("import cucumber_rules as cr\\nprint(cr.ruleset('agurk').threshold)")
    >>> result["output"], result["error"], result["frames"]
    ('21\\n', None, [])
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import traceback
from typing import Any

import cucumber_rules as cr
from cucumber_rules import render
from cucumber_rules.bots import get_bot
from cucumber_rules.narrate import barred, marker_note, narrate, rules_intro

__all__ = ["Match", "action_words", "run", "second_person", "trick_done"]

#: The name the reader's code runs under (its tracebacks show it).
CODE_NAME = "<example>"
#: Narration and the pictures' words speak of every seat in the third person; the reader, whose seat is
#: called "You", is put in the second: "You take the trick", not "You takes the trick".
_VERBS = {"deals": "deal", "leads": "lead", "takes": "take", "pays": "pay", "crosses": "cross",
          "buys": "buy", "stays": "stay", "sits": "sit", "is": "are", "has": "have", "holds": "hold",
          "wins": "win", "plays": "play"}  # fmt: skip
_SECOND_PERSON = re.compile(rf"\bYou ({'|'.join(_VERBS)})\b")
#: A printed picture: one line holding a whole SVG element.
_PRINTED_SVG = re.compile(r"<svg\b.*</svg>", re.DOTALL)
#: The most pictures one run collects (a random match to the end would otherwise make thousands).
MAX_FRAMES = 400


def second_person(text: str) -> str:
    """`You pays 9` as `You pay 9`: the library's third person put to the reader, whose seat is called "You".

    Used on narration, on a picture's words (its `aria-label`, `<title>` and labels: the SVG text as a
    whole) and on the description read to screen readers.

    Example:
        >>> second_person("You takes the trick. The match is over: You wins. Bo holds 2 cards.")
        'You take the trick. The match is over: You win. Bo holds 2 cards.'
    """
    return _SECOND_PERSON.sub(lambda m: "You " + _VERBS[m[1]], text)


def action_words(state: cr.State, action: cr.Action) -> str:
    """A short caption for an action taken in `state`: `"Ann plays KD"`, `"the deal"`.

    Example:
        >>> import cucumber_rules as cr
        >>> state = cr.new_game(cr.ruleset("agurk"), players=["Ann", "Bo", "Cy"])
        >>> action_words(state, cr.Play(1, "KD")), action_words(state, cr.Revive(2, False))
        ('Bo plays KD', 'Cy stays out')
    """
    if isinstance(action, cr.Play):
        return f"{state.players[action.seat]} plays {action.card}"
    if isinstance(action, cr.Revive):
        return f"{state.players[action.seat]} " + ("buys back in" if action.accept else "stays out")
    return "the deal"


class _Frames:
    """The `show` function given to example code: each call adds a picture and a caption."""

    def __init__(self) -> None:
        self.frames: list[dict[str, str]] = []
        self.dropped = 0
        self._last: cr.State | None = None

    def show(
        self,
        obj: cr.State | cr.PlayerView,
        action: cr.Action | str | None = None,
        *,
        seat: int | None = None,
        **options: Any,
    ) -> None:
        """Draw `obj` as the next step: a State face up (or as `seat` sees it), a PlayerView as it is.

        `action`, the action that led to this state (or any caption text), captions the step;
        when the previous step showed the state before it, the narration of what happened
        (a finished trick, a round's scores) is added.
        """
        caption: list[str] = []
        if isinstance(action, str):
            caption.append(action)
        elif action is not None and isinstance(obj, cr.State):
            before = self._last
            caption.append(action_words(obj, action))
            if before is not None:
                caption += [line.strip() for line in narrate(before, action, obj)]
        if isinstance(obj, cr.State):
            self._last = obj
        if len(self.frames) >= MAX_FRAMES:
            self.dropped += 1
            return
        if isinstance(obj, cr.State) and seat is None:
            options.setdefault("open_hands", True)
        self.frames.append({"svg": render.svg(obj, seat, **options), "caption": "\n".join(caption)})


def _user_traceback(error: BaseException) -> str:
    """The traceback of an exception raised by example code, from the example's own frames on."""
    frames = traceback.extract_tb(error.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename == CODE_NAME), 0)
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames[start:])]
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


def run(code: str, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run example code; return what it printed, its pictures and its error, if any.

    The code sees a function `show(state_or_view, action=None, seat=None, **options)` that
    draws a picture with [`cucumber_rules.render.svg`][] (a State face up, unless a `seat`
    is given) and adds it as a step. A picture the code prints (a line holding a whole
    `<svg>` element, as `print(render.svg(state))` writes) is shown as a step too, as on the
    built page. Pass a `namespace` to share variables between runs (the blocks of one
    page); by default each run starts afresh.

    Returns:
        `{"output": printed text, "frames": [{"svg", "caption"}, ...], "error": traceback or None}`.

    Example:
        >>> code = '''
        ... import cucumber_rules as cr
        ... state = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"])
        ... for action in [cr.Deal(hands=[["2C"], ["9S"]]), cr.Play(0, "2C"), cr.Play(1, "9S")]:
        ...     state = cr.apply(state, action)
        ...     show(state, action)
        ... print(cr.score(state).totals)
        ... '''
        >>> result = run(code)
        >>> result["output"], [f["caption"].splitlines()[0] for f in result["frames"]]
        ('(0, 9)\\n', ['the deal', 'Ann plays 2C', 'Bo plays 9S'])
        >>> run("1 / 0")["error"].splitlines()[-1]
        'ZeroDivisionError: division by zero'
        >>> printed = run("from cucumber_rules import render\\nprint(render.card_svg('QS'))\\nprint('done')")
        >>> printed["output"], printed["frames"][0]["svg"].startswith("<svg")
        ('done\\n', True)
    """
    frames = _Frames()
    scope: dict[str, Any] = {"__name__": "__example__"} if namespace is None else namespace
    scope["show"] = frames.show
    out = io.StringIO()
    error = None
    try:
        compiled = compile(code, CODE_NAME, "exec")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            exec(compiled, scope)
    except SyntaxError as problem:
        error = "".join(traceback.format_exception_only(type(problem), problem))
    except Exception as problem:
        error = _user_traceback(problem)
    if frames.dropped:
        out.write(f"({frames.dropped} more steps not drawn: a run keeps the first {MAX_FRAMES} pictures)\n")
    text = []
    for line in out.getvalue().splitlines(keepends=True):
        if _PRINTED_SVG.fullmatch(line.strip()):
            frames.frames.append({"svg": line.strip(), "caption": ""})
        else:
            text.append(line)
    return {"output": "".join(text), "frames": frames.frames, "error": error}


class Match:
    """A match of the reader, in seat 0, against the library's bots, for the `play/` page.

    Deals are drawn with a `random.Random` seeded from `seed`, the bots' choices with
    another, so a seed replays the same match for the same moves. Each call returns what
    changed as a JSON-ready dict (see `snapshot`).

    Example:
        >>> match = Match("gurka", players=3, bots="random", seed=1)
        >>> first = match.snapshot()
        >>> first["status"], len(first["legal"]) > 0
        ('Your turn: play a card.', True)
        >>> after = match.act(first["legal"][0]["index"])
        >>> after["log"][0].startswith("You play")
        True
    """

    def __init__(self, preset: str, players: int = 4, bots: str = "heuristic", seed: int = 0,
                 name: str = "You", **options: Any) -> None:  # fmt: skip
        rules = cr.ruleset(preset, **options)
        names = [name, *(f"Bot {i}" for i in range(1, players))]
        self.rules = rules
        self.seat = 0
        self.bot = get_bot(bots)
        self.seed = seed
        self._deals = random.Random(f"{seed}/deals")
        self._choices = random.Random(f"{seed}/bots")
        self.state = cr.new_game(rules, players=names)
        self._log: list[str] = [f"{rules.name}, {players} players, {self.bot.name} bots, seed {seed}."]
        self._tricks: list[dict[str, Any]] = []
        self._advance()

    @property
    def legal(self) -> tuple[cr.Action, ...]:
        """The reader's legal actions now (empty when it is not their turn)."""
        return cr.legal_moves(self.state) if self.state.to_act == self.seat else ()

    def _step(self, action: cr.Action, caption: str | None) -> None:
        before = self.state
        self.state = cr.apply(before, action)
        if caption:
            self._log.append(caption)
        lines = [self._words(line.strip()) for line in narrate(before, action, self.state)]
        self._log += lines
        done = trick_done(before, self.state)
        if done is not None:
            said = {key: self._words(done[key]) for key in ("svg", "text", "cost", "words")}
            self._tricks.append({**done, **said, "lines": lines})

    def _words(self, text: str) -> str:
        """Text of the library's, put to the reader if their seat is called "You" (see `second_person`)."""
        return second_person(text) if self.state.players[self.seat] == "You" else text

    def _advance(self) -> None:
        """Deal and let the bots play until it is the reader's turn or the match is over."""
        state = self.state
        while state.to_act is not None and state.to_act != self.seat:
            if state.to_act == cr.CHANCE:
                self._step(cr.sample_chance(state, self._deals), None)
            else:
                choice = self.bot.choose(cr.view(state, state.to_act), self._choices)
                self._step(choice, action_words(state, choice))
            state = self.state

    @property
    def intro(self) -> str | None:
        """How a trick is taken, where the game has a rule worth saying before the first card."""
        return rules_intro(self.rules)

    def act(self, index: int) -> dict[str, Any]:
        """Take the reader's legal action number `index` (of `snapshot()["legal"]`), then let the bots play.

        Raises:
            IndexError: There is no such legal action now.
        """
        legal = self.legal
        if not 0 <= index < len(legal):
            raise IndexError(f"no legal action {index}: there are {len(legal)}")
        action = legal[index]
        start, tricks = len(self._log), len(self._tricks)
        if isinstance(action, cr.Play):
            caption = f"You play {action.card}"
        else:
            caption = "You buy back in" if getattr(action, "accept", False) else "You stay out"
        self._step(action, caption)
        self._advance()
        return self.snapshot(since=start, tricks_since=tricks)

    def snapshot(self, since: int = 0, tricks_since: int | None = None) -> dict[str, Any]:
        """What the page shows: the picture of the reader's view, their choices, the log since `since`.

        The picture is drawn from `cr.view(state, 0)`, so it shows only what seat 0 may see.
        `tricks` are the tricks completed since the reader's last move (each a `trick_done`
        dict with its narration in `lines`), to be shown one by one before the table moves
        on; `last_trick` is the latest completed trick, kept in view; `hints` say where the
        Trick Marker stands and why a card of the hand may not be played now.
        """
        v = cr.view(self.state, self.seat)
        legal = []
        for i, action in enumerate(self.legal):
            if isinstance(action, cr.Play):
                legal.append({"index": i, "label": str(action.card), "card": str(action.card)})
            else:
                label = "Buy back in" if getattr(action, "accept", False) else "Stay out"
                legal.append({"index": i, "label": label, "card": None})
        if v.is_over:
            won = [v.players[s] for s in v.winners]
            status = "You win!" if self.seat in v.winners and len(won) == 1 else f"Winner: {', '.join(won)}."
            if self.seat in v.winners and len(won) > 1:
                status = f"A shared win: {', '.join(won)}."
        elif legal and legal[0]["card"] is None:
            status = "You are out: buy back in?"
        else:
            status = "Your turn: play a card."
        hints: list[str] = []
        if legal and legal[0]["card"] is not None:
            note = marker_note(v)
            hints = ([note] if note else []) + barred(self.state, self.seat)
        return {
            "svg": self._words(render.svg(v, results=True)),
            "text": self._words(render.describe(v, results=True)),
            "legal": legal,
            "log": self._log[since:],
            "status": status,
            "over": v.is_over,
            "tricks": self._tricks[tricks_since:] if tricks_since is not None else [],
            "last_trick": self._tricks[-1] if self._tricks else None,
            "hints": hints,
        }


def trick_done(before: cr.State, after: cr.State) -> dict[str, Any] | None:
    """The trick the step from `before` to `after` completed, as the page shows it; None if none was.

    `svg` draws the trick (every card, who took it; the Trick Marker in Catastrophe), `text`
    is its description, `taker` who took it, `number` its number in the round, and `cost`
    what taking it cost, in the game's words.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"])
        >>> s = cr.apply(cr.apply(s, cr.Deal(hands=[["2C"], ["9S"]])), cr.Play(0, "2C"))
        >>> done = trick_done(s, cr.apply(s, cr.Play(1, "9S")))
        >>> done["taker"], done["number"], done["cost"]
        ('Bo', 1, 'Bo pays 9 for 9S (total 9)')
    """
    old, new = before.table, after.table
    if old is None or new is None or len(new.tricks) <= len(old.tricks):
        return None
    trick = new.tricks[-1]
    number = len(new.tricks)
    last = after.match.rounds > before.match.rounds
    words = cr.game_of(after).words.describe_trick(after, trick, number, last=last)
    taker = after.players[trick.taker]
    if last:
        result = after.match.results.last
        cost = "; ".join(cr.game_of(after).words.describe_result(after, result)) if result is not None else ""
    elif " takes " in words:  # (Catastrophe: "→ Bo takes 7 cucumbers")
        cost = words.rsplit(" takes ", 1)[-1]
    else:
        cost = "nothing yet: only the last trick of a round is paid for"
    title = f"Trick {number}" + (" (the last of the round)" if last else "")
    picture = render.trick_svg(trick, after.players, rules=after.rules, title=title)
    text = picture.split('aria-label="', 1)[1].split('"', 1)[0] if 'aria-label="' in picture else words
    return {"svg": picture, "text": text, "taker": taker, "number": number, "cost": cost, "words": words}
