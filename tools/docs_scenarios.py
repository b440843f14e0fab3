"""Turn a worked example (a Gherkin scenario of `features/`) into a Python program a reader can run.

The rule pages show the scenarios of the feature files, which the test suite runs through
pytest-bdd. For the live pages, each scenario (each row of a scenario outline) also becomes a
short program that plays the scenario through the public API:

- the `Given`/`When` steps become `cr.new_game(...)`, the rigged deals, the cards played, the
  seeded deals and random choices, each action followed by `show(state, action)` (on the page:
  one picture per step);
- the `Then` steps become `print` lines that show what the step checks (who may play what, why
  a card is refused, who takes the trick, the scores...), so the program's output answers them.

The program is written while the scenario is played here, action by action, with `cr.apply`:
an action the engine refuses, or a `Given`/`When` step this module does not know, is an error
(the docs build fails and names the scenario). `tools/docs_live.py` runs each program once at
build time for the page's static picture and output, and checks that it ends in the same state.

The step phrases are those of `tests/steps/`; a new phrase there needs a line here.

Example:
    >>> steps = [
    ...     Step("Context", "a game of gurka for 2 players with hand size 1"),
    ...     Step("Action", "the cards are dealt:", [["seat", "hand"], ["0", "2C"], ["1", "9S"]]),
    ...     Step("Action", "seat 0 leads 2C"),
    ...     Step("Outcome", "seat 1 may play only 9S"),
    ... ]
    >>> program = translate(steps)
    >>> print(program.code, end="")
    import cucumber_rules as cr
    <BLANKLINE>
    state = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
    <BLANKLINE>
    for action in [
        cr.Deal(hands=[
            ["2C"],    # seat 0
            ["9S"],    # seat 1
        ]),
        cr.Play(0, "2C"),    # seat 0 leads
    ]:
        state = cr.apply(state, action)
        show(state, action)
    <BLANKLINE>
    print("seat 1 may play:", *[str(a.card) for a in cr.view(state, 1).legal])
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import attrs

import cucumber_rules as cr

__all__ = ["Program", "Step", "TranslationError", "substitute", "translate"]

#: A player in step text: `seat 3`, or a player's name (a capitalised word).
WHO = r"seat \d+|[A-Z][a-z]\w*"
#: One card in step text.
CARD = r"(?:10|[2-9TJQKA])[SHDC♠♥♦♣]|\d{1,2}"
_NAMES = r"[A-Z][a-z]\w*(?:, [A-Z][a-z]\w*)* and [A-Z][a-z]\w*"
_OPTION_PHRASES: dict[str, tuple[str, object]] = {
    "surprise cucumber": ("surprise", True),
    "if you can't beat 'em": ("cant_beat_em", True),
    "can't beat 'em": ("cant_beat_em", True),
}


class TranslationError(ValueError):
    """A scenario this module cannot turn into a program (an unknown step, an illegal action)."""


@attrs.frozen
class Step:
    """One step: its kind (`Context`, `Action`, `Outcome`: Given, When, Then), text and data table."""

    kind: str
    text: str
    table: list[list[str]] | None = None


@attrs.frozen
class Program:
    """A scenario as a program: its code and the state the scenario ends in (None: no game started)."""

    code: str
    state: cr.State | None


# --- words ---------------------------------------------------------------------------------------------


def _split(text: str) -> list[str]:
    return [p.strip() for p in re.split(r",\s*|\s+and\s+", text.strip()) if p.strip()]


def _cards(text: str) -> list[str]:
    words = [w for w in text.replace(",", " ").split() if w.lower() not in {"and", "only"}]
    if words in (["-"], ["none"], ["nothing"], ["no", "cards"]):
        return []
    return [str(cr.card(w)) for w in words]


def _value(text: str) -> object:
    word = text.strip().lower()
    if word in {"on", "yes", "true"}:
        return True
    if word in {"off", "no", "false"}:
        return False
    if word == "none":
        return None
    if re.fullmatch(r"-?\d+", word):
        return int(word)
    return word


def _options(text: str | None) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in _split(text or ""):
        phrase = item.lower()
        on_card = re.fullmatch(r"(\d+) cucumbers? on card (\d+)", phrase)
        if on_card:
            current = options.get("cucumbers")
            table = list(
                current if isinstance(current, tuple) else cr.RULESETS["catastrophe"].cucumbers or ()
            )
            table[int(on_card[2]) - 1] = int(on_card[1])
            options["cucumbers"] = tuple(table)
        elif phrase in _OPTION_PHRASES:
            name, value = _OPTION_PHRASES[phrase]
            options[name] = value
        else:
            *words, value = phrase.split()
            if not words:
                raise TranslationError(f"an option is written 'name value', not {item!r}")
            options["_".join(w.replace("'", "") for w in words)] = _value(value)
    return options


def _rows(table: Sequence[Sequence[str]]) -> list[dict[str, str]]:
    keys = [h.strip().lower() for h in table[0]]
    return [dict(zip(keys, (c.strip() for c in row), strict=True)) for row in table[1:]]


def substitute(text: str, row: dict[str, str]) -> str:
    """Fill an outline's `<placeholders>` from an Examples row.

    Example:
        >>> substitute("seat 0 leads <card>", {"card": "QS"})
        'seat 0 leads QS'
    """
    return re.sub(r"<([^<>]+)>", lambda m: row.get(m[1], m[0]), text)


def _hand(cards: Sequence[str]) -> str:
    """Python source for a hand: a list of card texts, written as `"2C 5H 8D".split()` when long."""
    if len(cards) > 3:
        return f'"{" ".join(cards)}".split()'
    return "[" + ", ".join(f'"{c}"' for c in cards) + "]"


# --- the program -----------------------------------------------------------------------------------------


class _Writer:
    """Plays a scenario step by step and writes the program that does the same."""

    def __init__(self) -> None:
        self.preset: str | None = None
        self.players: int | tuple[str, ...] = 0
        self.options: dict[str, object] = {}
        self.first = 0
        self.state: cr.State | None = None
        self.groups: list[tuple[str, list[str]]] = []
        self.pending: list[str] = []
        self.imports = {"import cucumber_rules as cr"}
        self.reported: set[str] = set()

    # ------------------------------------------------------------ the table

    @property
    def labels(self) -> tuple[str, ...]:
        if isinstance(self.players, tuple):
            return self.players
        return tuple(f"seat {i}" for i in range(self.players))

    def seat(self, who: str) -> int:
        found = re.fullmatch(r"seat (\d+)", who.strip())
        if found:
            return int(found[1])
        if who.strip() not in self.labels:
            raise TranslationError(f"no player called {who!r}")
        return self.labels.index(who.strip())

    def _setup_code(self) -> list[str]:
        lines = []
        options = []
        for name, value in self.options.items():
            if name == "cucumbers" and isinstance(value, tuple):
                default = cr.RULESETS["catastrophe"].cucumbers or ()
                lines.append('cucumbers = list(cr.RULESETS["catastrophe"].cucumbers)    # one count per card')
                lines += [
                    f"cucumbers[{i}] = {v}    # card {i + 1}"
                    for i, v in enumerate(value)
                    if i >= len(default) or v != default[i]
                ]
                options.append(", cucumbers=cucumbers")
            else:
                options.append(f", {name}={value!r}")
        players = (
            "[" + ", ".join(f'"{p}"' for p in self.players) + "]"
            if isinstance(self.players, tuple)
            else str(self.players)
        )
        first = f", first={self.first}" if self.first else ""
        rules = f'cr.ruleset("{self.preset}"{"".join(options)})'
        return [*lines, f"state = cr.new_game({rules}, players={players}{first})"]

    def start(self) -> cr.State:
        """The state, starting the game on first use."""
        if self.state is None:
            if self.preset is None:
                raise TranslationError("the scenario starts no game ('Given a game of ... for ...')")
            self.state = cr.new_game(cr.ruleset(self.preset, **self.options), players=self.players,
                                     first=self.first)  # fmt: skip
            self.groups.append(("setup", self._setup_code()))
        return self.state

    # ------------------------------------------------------------ actions

    def act(self, action: cr.Action, source: str, comment: str = "") -> None:
        """Apply an action now and add it to the pending list of the program."""
        state = self.start()
        try:
            self.state = cr.apply(state, action)
        except cr.IllegalMoveError as error:
            raise TranslationError(f"the engine refuses {action}: {error}") from error
        self.pending.append(source + (f"    # {comment}" if comment else ""))

    def flush(self) -> None:
        """Write the pending actions as one loop that applies and shows each."""
        if not self.pending:
            return
        loop = ["for action in [", *(f"    {line}" for line in self.pending)]
        loop += ["]:", "    state = cr.apply(state, action)", "    show(state, action)"]
        self.groups.append(("actions", loop))
        self.pending = []

    def statement(self, *lines: str, kind: str = "code") -> None:
        """Write a group of code lines after the pending actions."""
        self.flush()
        self.groups.append((kind, list(lines)))

    def code(self) -> str:
        """The program: imports, then the groups, a blank line between them (none between reports)."""
        imports = sorted(self.imports, key=lambda line: (line != "import random", line))
        lines = [*imports]
        previous = "imports"
        for kind, group in self.groups:
            if not (kind == previous == "report"):
                lines.append("")
            lines += group
            previous = kind
        return "\n".join(lines) + "\n"

    def who(self, seat: int) -> str:
        return self.labels[seat]

    def deal_code(self, hands: Sequence[Sequence[str]], stock: Sequence[str], leader: int | None) -> str:
        rows = [f"        {_hand(h)},    # {self.who(s)}" for s, h in enumerate(hands)]
        extra = ""
        if stock:
            extra += f", stock={_hand(stock)}"
        if leader is not None:
            extra += f", leader={leader}"
        return "cr.Deal(hands=[\n" + "\n".join(rows) + "\n    ]" + extra + "),"

    def deal_from_table(self, table: Sequence[Sequence[str]]) -> tuple[list[list[str]], list[str]]:
        hands: list[list[str]] = [[] for _ in self.labels]
        stock: list[str] = []
        for row in table[1:]:
            who, cards = row[0].strip(), _cards(row[1])
            if who.lower() == "stock":
                stock = cards
            else:
                hands[self.seat(f"seat {who}" if who.isdigit() else who)] = cards
        return hands, stock

    def deal(self, table: Sequence[Sequence[str]], leader: str | None = None) -> None:
        hands, stock = self.deal_from_table(table)
        seat = None if leader is None else self.seat(leader)
        self.act(cr.Deal(hands=hands, stock=stock, leader=seat), self.deal_code(hands, stock, seat))

    def play(self, who: str, card: str, verb: str) -> None:
        seat = self.seat(who)
        text = str(cr.card(card))
        self.act(cr.Play(seat, text), f'cr.Play({seat}, "{text}"),', f"{self.who(seat)} {verb}")

    def plays(self, cards: Sequence[str], comment: str) -> None:
        """Cards played one after another by whoever is to act (a trick, a one-card round)."""
        parts = []
        for text in cards:
            state = self.start()
            seat = state.to_act
            if seat is None or seat < 0:
                raise TranslationError(f"{comment}: {text} cannot be played now (no seat is to act)")
            self.state = cr.apply(state, cr.Play(seat, text))
            parts.append(f'cr.Play({seat}, "{text}"),')
        self.pending.append(" ".join(parts) + f"    # {comment}")

    def seeded_deal(self, seed: int) -> None:
        state = self.start()
        self.imports.add("import random")
        self.state = cr.apply(state, cr.sample_chance(state, random.Random(seed)))
        self.statement(
            f"deal = cr.sample_chance(state, random.Random({seed}))    # shuffled with seed {seed}",
            "state = cr.apply(state, deal)",
            "show(state, deal)",
        )

    def random_actions(self, seed: int, limit: int | None) -> None:
        state = self.start()
        self.imports.add("import random")
        rng = random.Random(seed)
        taken = 0
        while state.to_act is not None and (limit is None or taken < limit):
            moves = cr.legal_moves(state)
            action = cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(moves)
            state = cr.apply(state, action)
            taken += 1
        self.state = state
        head = ["while state.to_act is not None:"] if limit is None else [
            f"for _ in range({limit}):",
            "    if state.to_act is None:",
            "        break",
        ]  # fmt: skip
        self.statement(
            f"rng = random.Random({seed})",
            *head,
            "    moves = cr.legal_moves(state)",
            "    action = cr.sample_chance(state, rng) if state.to_act == cr.CHANCE else rng.choice(moves)",
            "    state = cr.apply(state, action)",
            "    show(state, action)",
        )

    # ------------------------------------------------------------ reports (the Then steps)

    def report(self, key: str, *lines: str) -> None:
        """Print what a Then step checks, once per point of the scenario and kind of report."""
        if key in self.reported:
            return
        self.reported.add(key)
        self.statement(*lines, kind="report")

    def mark(self) -> None:
        """Actions happened: later reports are new ones."""
        self.reported = set()


# --- steps -----------------------------------------------------------------------------------------------


def _context(w: _Writer, step: Step) -> bool:
    text = step.text
    game = re.fullmatch(
        rf"a game of (?P<preset>.+?) for (?P<players>\d+ players|{_NAMES}) ?(?:with (?P<options>.+))?", text
    )
    if game:
        count = game["players"].removesuffix(" players")
        w.preset = game["preset"]
        w.players = int(count) if count.isdigit() else tuple(_split(game["players"]))
        w.options = _options(game["options"])
        return True
    starter = re.fullmatch(rf"(?P<who>{WHO}) is the starting player", text)
    if starter:
        w.first = w.seat(starter["who"])
        return True
    return False


def _action(w: _Writer, step: Step) -> bool:
    text, table = step.text, step.table
    if text == "the cards are dealt:" and table:
        w.deal(table)
    elif (
        found := re.fullmatch(rf"the cards are dealt, with (?P<who>{WHO}) drawn to start:", text)
    ) and table:
        w.deal(table, leader=found["who"])
    elif found := re.fullmatch(r"the cards are shuffled and dealt with seed (?P<seed>\d+)", text):
        w.seeded_deal(int(found["seed"]))
    elif found := re.fullmatch(rf"(?P<who>{WHO}) (?P<verb>leads|plays) (?P<card>{CARD})", text):
        w.play(found["who"], found["card"], found["verb"])
    elif text == "the tricks are played:" and table:
        for number, row in enumerate(_rows(table), start=1):
            w.plays(_cards(row["cards"]), f"trick {row.get('trick', number)}")
    elif text == "the trick is played card by card:" and table:
        for row in _rows(table):
            w.play(row.get("player") or row["seat"], row["plays"], "plays")
    elif text == "these one-card rounds are played:" and table:
        _one_card_rounds(w, table)
    elif found := re.fullmatch(rf"(?P<who>{WHO}) (?P<choice>buys back in|stays out)", text):
        seat = w.seat(found["who"])
        accept = found["choice"] == "buys back in"
        w.act(cr.Revive(seat, accept), f"cr.Revive({seat}, {accept}),", f"{w.who(seat)} {found['choice']}")
    elif found := re.fullmatch(
        r"the match is played to the end with random choices from seed (?P<seed>\d+)", text
    ):
        w.random_actions(int(found["seed"]), None)
    elif found := re.fullmatch(
        r"(?P<count>\d+) actions? (?:is|are) taken at random with seed (?P<seed>\d+)", text
    ):
        w.random_actions(int(found["seed"]), int(found["count"]))
    elif text != "the game is saved as text":  # a save changes nothing; the tests check it
        return False
    w.mark()
    return True


def _one_card_rounds(w: _Writer, table: Sequence[Sequence[str]]) -> None:
    header = [h.strip() for h in table[0]]
    checks = {"round", "pays", "points", "totals"}
    columns = [(i, w.seat(h)) for i, h in enumerate(header) if h.lower() not in checks]
    for raw, row in zip(table[1:], _rows(table), strict=True):
        hands: list[list[str]] = [[] for _ in w.labels]
        for column, seat in columns:
            hands[seat] = _cards(raw[column])
        state = w.start()
        deal = cr.Deal(hands=hands)
        try:
            state = cr.apply(state, deal)
        except cr.IllegalMoveError as error:
            raise TranslationError(f"one-card round {row.get('round', '?')}: {error}") from error
        code = ["cr.Deal(hands=[" + ", ".join(_hand(h) for h in hands) + "]),"]
        while (actor := state.to_act) is not None and actor >= 0 and (hand := cr.view(state, actor).hand):
            (card,) = hand
            state = cr.apply(state, cr.Play(actor, card))
            code.append(f'cr.Play({actor}, "{card}"),')
        w.state = state
        w.pending.append(" ".join(code) + f"    # round {row.get('round', '?')}")


def _outcome(w: _Writer, step: Step) -> None:
    """Print what the Then step checks. Phrases with nothing to show (checks of the text) print nothing."""
    text = step.text
    if found := re.fullmatch(
        r"starting a game of (?P<preset>.+?) for (?P<players>\d+) players(?:, seat (?P<first>\d+) first)? "
        r'is refused for the option "(?P<option>\w+)"',
        text,
    ):
        first = f", first={found['first']}" if found["first"] else ""
        w.statement(
            "try:",
            f'    cr.new_game(cr.ruleset("{found["preset"]}"), players={found["players"]}{first})',
            "except cr.InvalidRulesError as error:",
            '    print("refused, option", error.option, "-", error)',
        )
        return
    if w.preset is None:
        return
    w.start()
    seat_of = w.seat
    if found := re.fullmatch(rf"(?P<who>{WHO}) may (?:not )?play .+", text):
        seat = seat_of(found["who"])
        w.report(
            f"legal {seat}",
            f'print("{w.who(seat)} may play:", *[str(a.card) for a in cr.view(state, {seat}).legal])',
        )
    elif found := re.fullmatch(
        rf'playing (?P<card>{CARD}) by (?P<who>{WHO}) is refused with "[a-z-]+"', text
    ):
        seat, card = seat_of(found["who"]), str(cr.card(found["card"]))
        w.report(
            f"refused {seat} {card}",
            f'error = cr.check(state, cr.Play({seat}, "{card}"))',
            f'print("{w.who(seat)} playing {card}:", f"[{{error.code}}] {{error}}" if error else "legal")',
        )
    elif (found := re.fullmatch(
        rf'dealing these hands(?:, with (?P<who>{WHO}) drawn to start,)? is refused with "[a-z-]+":', text
    )) and step.table:  # fmt: skip
        hands, stock = w.deal_from_table(step.table)
        leader = None if found["who"] is None else seat_of(found["who"])
        deal = w.deal_code(hands, stock, leader).rstrip(",")
        w.statement(
            f"error = cr.check(state, {deal})",
            'print("this deal:", f"[{error.code}] {error}")',
            kind="report",
        )
    elif re.fullmatch(r'drawing a random deal is refused with "[a-z-]+"', text):
        w.imports.add("import random")
        w.statement(
            "try:",
            "    cr.sample_chance(state, random.Random(1))",
            "except cr.IllegalMoveError as error:",
            '    print("no deal:", f"[{error.code}] {error}")',
        )
    elif found := re.fullmatch(
        rf'(?P<who>{WHO}) (?P<choice>buying back in|staying out) is refused with "[a-z-]+"', text
    ):
        seat = seat_of(found["who"])
        accept = found["choice"] == "buying back in"
        w.statement(
            f"error = cr.check(state, cr.Revive({seat}, {accept}))",
            f'print("{w.who(seat)} {found["choice"]}:", f"[{{error.code}}] {{error}}" if error else "legal")',
            kind="report",
        )
    elif re.search(r"takes the trick|leads the next trick", text):
        w.report(
            "trick",
            "trick = cr.view(state, None).tricks[-1]",
            'print("last trick:", ", ".join(f"{state.players[p.seat]} {p.card}" for p in trick.plays),',
            '      "->", state.players[trick.taker], "takes it")',
        )
    elif re.search(r"Trick Marker|revealed from the stock", text):
        w.report(
            "marker",
            'print("Trick Marker:", state.marker, "| revealed card:", state.round.revealed)',
        )
    elif re.search(
        r"scores for the|totals are|pays \d|takes \d+ cucumber|cucumber mark|eliminated|still in the game|"
        r"wins the match|share the win|match is (?:not )?over|(?:rounds?|hands?) (?:has|have) been played|"
        r"standings|exactly one player is left",
        text,
    ):
        ladder = issubclass(cr.game_of(cr.ruleset(w.preset or "agurk")).score_type, cr.LadderScore)
        w.report(
            "score",
            "score = cr.score(state)",
            'print("last round:", score.round_points[-1] if score.round_points else "-",'
            ' "| totals:", score.totals)',
            'print("cucumber marks:", score.marks, "| out:", score.eliminated, "| winners:", score.winners)'
            if ladder  # marks and eliminations are the ladder's
            else 'print("winners:", score.winners)',
        )
    elif re.search(
        r"'s turn|a deal is due|leads the first trick|starts the hand|decide whether|is the dealer", text
    ):
        w.report(
            "turn",
            "seen = cr.view(state, None)    # to_act: a seat, cr.CHANCE (-1) for a deal, None when over",
            'print("to act:", seen.to_act, "| dealer:", seen.dealer, "| leader:", seen.leader)',
        )
    elif found := re.fullmatch(rf"(?P<who>{WHO}) (?:holds .+|is dealt no cards)", text):
        seat = seat_of(found["who"])
        w.report(
            f"hand {seat}", f'print("{w.who(seat)} holds:", *cr.view(state, {seat}).hand or ["nothing"])'
        )
    elif re.fullmatch(r"every player holds \d+ cards", text):
        w.report("sizes", 'print("cards in each hand:", cr.view(state, None).hand_sizes)')
    elif found := re.fullmatch(rf"(?P<who>{WHO}) has captured .+", text):
        seat = seat_of(found["who"])
        w.report(f"captured {seat}",
                 f'print("{w.who(seat)} has captured:", *cr.view(state, None).captured[{seat}])')  # fmt: skip


def translate(steps: Sequence[Step]) -> Program:
    """Play the steps and write the program that plays them (see the module's docstring).

    Raises:
        TranslationError: A Given or When step is unknown, or the engine refuses an action.
    """
    w = _Writer()
    kind = "Context"
    for step in steps:
        kind = kind if step.kind == "Conjunction" else step.kind
        try:
            if kind == "Context" and _context(w, step):
                continue
            if kind in ("Context", "Action"):
                if not _action(w, step):
                    raise TranslationError(
                        "no translation for this step (add its phrase to tools/docs_scenarios.py)"
                    )
                continue
            _outcome(w, step)
        except (TranslationError, cr.RulesError) as error:
            raise TranslationError(f"the step {step.text!r}: {error}") from error
    w.flush()
    if not w.groups:
        return Program("", None)
    return Program(w.code(), w.state)


def steps_of(scenario: dict[str, Any], background: Sequence[dict[str, Any]],
             row: dict[str, str] | None = None) -> list[Step]:  # fmt: skip
    """The steps of a parsed Gherkin scenario (its background's first), placeholders filled from `row`."""
    out = []
    for raw in [*background, *scenario["steps"]]:
        text = raw["text"] if row is None else substitute(raw["text"], row)
        table = None
        if raw.get("dataTable"):
            table = [
                [c["value"] if row is None else substitute(c["value"], row) for c in r["cells"]]
                for r in raw["dataTable"]["rows"]
            ]
        out.append(Step(raw["keywordType"], text, table))
    return out
