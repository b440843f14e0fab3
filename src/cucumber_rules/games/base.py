"""What a game provides: the `Game` base class a trick mechanism subclasses, and the `Badge` it draws."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ..actions import Decision
from ..errors import IllegalMoveError

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn

    from ..actions import Action, Deal, Play
    from ..cards import Card
    from ..encoding import DealPlan
    from ..rules import Rules
    from ..scoring import Score
    from ..state import Match, RoundResult, State, Table, Trick
    from ..views import Dealt, Event, PlayerView


__all__ = ["Badge", "Game"]


@attrs.frozen
class Badge:
    """A sign a picture draws beside a trick: Catastrophe's Trick Marker (see `Game.trick_extras`).

    Example:
        >>> b = Badge("HIGH", "▲", "highest wins", "Trick Marker High", "high", "high")
        >>> b.struck, b.side
        (False, 'high')
    """

    word: str
    """The big word on the badge (`"HIGH"`, or `"?"` while unset)."""
    arrow: str
    """A small sign under it (`"▲"`), or empty."""
    meaning: str
    """A caption under the badge (`"broken: lowest wins"`)."""
    text: str
    """What it says, for screen readers."""
    key: str | None
    """A value for the picture's `data-` attribute and styling (`"high-broken"`); None when unset."""
    side: str | None
    """Which of the game's sides it shows (picks the colour: `"high"`, `"low"`); None when unset."""
    struck: bool = False
    """Crossed out (Catastrophe: a broken rule)."""


class Game:
    """What a trick mechanism provides: its rules, presets, engine, codes, views, JSON, words and bots.

    Subclass it, set the class attributes and implement the engine methods
    (those that raise `NotImplementedError` here); the other methods have
    defaults that fit a simple game. Then `register_game(MyGame())`. A game is
    a description, not a state: keep instances immutable.

    The engine calls its methods only where its own checks have passed: the
    match is not over, the action's kind is due, and (for a `Play`) the seat is
    the seat to act. See the docs' "Adding a game" for a complete example.

    Example:
        >>> import cucumber_rules as cr
        >>> game = cr.GAMES["ladder"]
        >>> game.name, sorted(game.presets), game.unit
        ('ladder', ['agurk', 'five-cucumbers', 'fuenf-gurken', 'gurka'], 'round')
    """

    name: ClassVar[str] = ""
    """The game's registry name, e.g. `"ladder"` (also `Rules.game`)."""
    title: ClassVar[str] = ""
    """A human title, e.g. `"Ladder games"`."""
    rules_type: ClassVar[type[Rules]]
    """The game's rules class: a subclass of `Rules` whose `option` fields are its options."""
    presets: ClassVar[Mapping[str, Rules]] = {}
    """The game's presets by canonical name (lower case, words joined by `-`)."""
    aliases: ClassVar[Mapping[str, str]] = {}
    """Other names of its presets: alias -> preset name."""
    error_codes: ClassVar[Mapping[str, str]] = {}
    """The codes of its rules of play (`IllegalMoveError.code`) with what they mean."""
    decisions: ClassVar[tuple[type[Decision], ...]] = ()
    """Its decision action classes (the ladder's `Revive`), beside `Deal` and `Play`."""
    events: ClassVar[tuple[type, ...]] = ()
    """Event classes its views add to the public history (Catastrophe's `Revealed`)."""
    match_type: ClassVar[type[Match]]
    """Its `Match` class."""
    table_type: ClassVar[type[Table]]
    """Its `Table` class."""
    trick_type: ClassVar[type[Trick]]
    """Its `Trick` class."""
    result_type: ClassVar[type[RoundResult]]
    """Its `RoundResult` class."""
    view_type: ClassVar[type[PlayerView]]
    """Its `PlayerView` class."""
    unit: ClassVar[str] = "round"
    """What one deal's play is called (`"round"`; Catastrophe: `"hand"`)."""
    penalty_words: ClassVar[str] = "points per seat per round"
    """What `penalties` counts, in words (for simulation summaries)."""
    preset_titles: ClassVar[Mapping[str, str]] = {}
    """How its presets are called in titles (`"five-cucumbers"` -> `"Five Cucumbers"`)."""
    shows_dealer: ClassVar[bool] = True
    """Whether a dealer deals (pictures and narration name them); Catastrophe has a starter instead."""
    format1_unused: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """For reading JSON format 1 (cucumber_rules 0.1, which had one layout for both its games): the
    fields it wrote that this game does not have, with the empty value they held, per object
    (`"view"`, `"trick"`, `"result"`). A game without it cannot appear in format 1."""

    # ----------------------------------------------------------------- the engine

    def new_match(self, rules: Rules, players: tuple[str, ...], first: int) -> Match:
        """The `Match` of a new game: zero totals, the seat before `first` as the dealer.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].new_match(cr.ruleset("catastrophe"), ("a", "b", "c"), 1).dealer
            0
        """
        n = len(players)
        return self.match_type(
            rules=rules, players=players, first=first, totals=(0,) * n, dealer=(first - 1) % n
        )

    def deal_error(self, state: State, deal: Deal) -> IllegalMoveError | None:
        """Why `deal` does not fit the coming round (code `bad-deal`), or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> cr.GAMES["ladder"].deal_error(s, cr.Deal(hands=[["2C"], ["3C", "4C"]])).message
            'bad deal: seat 0 must receive 2 cards, not 1'
        """
        raise NotImplementedError

    def sample_deal(self, state: State, rng: random.Random) -> Deal:
        """A random deal for the coming round, drawn with `rng` only.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> [len(h) for h in cr.GAMES["ladder"].sample_deal(s, random.Random(1)).hands]
            [2, 2]
        """
        raise NotImplementedError

    def start_round(self, state: State, deal: Deal) -> State:
        """The state after a checked deal: the round starts.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=2), players=2)
            >>> s = cr.GAMES["ladder"].start_round(s, cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s.to_act, [str(c) for c in s.hands[0]]
            (0, ['2C', '9S'])
        """
        raise NotImplementedError

    def legal(self, state: State) -> tuple[Action, ...]:
        """The legal actions of the seat to act (never called at chance or once over), sorted.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> [str(m.card) for m in cr.GAMES["ladder"].legal(s)]  # Gurka: follow high when you can
            ['KD']
        """
        raise NotImplementedError

    def play_error(self, state: State, play: Play) -> IllegalMoveError | None:
        """Why the seat to act may not play this card now, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> cr.GAMES["ladder"].play_error(s, cr.Play(1, "3C")).code
            'must-follow'
        """
        raise NotImplementedError

    def play(self, state: State, play: Play) -> State:
        """The state after a checked play (the default `apply_play` calls it; required unless a game
        overrides `apply_play`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.GAMES["ladder"].play(s, cr.Play(0, "9S"))
            >>> s.to_act, [str(p.card) for p in s.trick]
            (1, ['9S'])
        """
        raise NotImplementedError

    def apply_play(self, state: State, play: Play) -> State:
        """Check and apply a play of the seat to act; raise the `IllegalMoveError` if illegal.

        The default checks with `play_error` and applies with `play`; a game may fuse them.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> s = cr.apply(s, cr.Play(0, "9S"))
            >>> cr.GAMES["ladder"].apply_play(s, cr.Play(1, "KD")).to_act  # KD takes the trick and leads
            1
        """
        error = self.play_error(state, play)
        if error is not None:
            raise error
        return self.play(state, play)

    def decision_error(self, state: State, decision: Decision) -> IllegalMoveError | None:
        """Why this decision may not be taken now, or None (default: no decision is ever due).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
            >>> cr.GAMES["catastrophe"].decision_error(s, cr.Revive(0, True)).code
            'no-decision'
        """
        return IllegalMoveError(
            "no-decision",
            f"seat {decision.seat} has no decision to take now",
            seat=decision.seat,
            action=decision,
        )

    def decide(self, state: State, decision: Decision) -> State:
        """The state after a checked decision (required when the game has `decisions`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
            >>> cr.GAMES["catastrophe"].decide(s, cr.Revive(0, True))
            Traceback (most recent call last):
            NotImplementedError: the catastrophe game has no decisions
        """
        raise NotImplementedError(f"the {self.name} game has no decisions")

    def score(self, state: State) -> Score:
        """The score now. The default ranks the seats by total, lowest first.

        A score depends on `state.match` alone (views work it out, once per match value, from a
        copy of the match in a `State` that holds nothing else).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].score(cr.new_game(cr.ruleset("agurk"), players=3)).totals
            (0, 0, 0)
        """
        from ..scoring import Score
        from ..state import result_rows

        m = state.match
        results, rows = result_rows(m)
        n = len(m.players)
        winners = set(m.winners)
        order = sorted(range(n), key=lambda s: (s not in winners, m.totals[s], s))
        return Score(
            totals=m.totals,
            rounds=rows,
            marks=(0,) * n,
            eliminated=(False,) * n,
            winners=m.winners,
            standings=tuple(order),
            results=results,
            game=self.name,
        )

    def max_actions(self, rules: Rules, players: int) -> int:
        """A hard bound on the actions of a match (deals and decisions included).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].max_actions(cr.ruleset("catastrophe"), 4)  # 4 hands: a deal, 40 cards
            164
        """
        raise NotImplementedError

    state_attributes: ClassVar[Mapping[str, Callable[[State], Any]]] = {}
    """The game's own readings of a state, read as `state.<name>` (Catastrophe: `marker`, `lead`;
    the ladder: `high`). `register_game` makes them properties of `State`; on a state of another
    game they raise `AttributeError`."""

    # ----------------------------------------------------------------- views and JSON

    def view_fields(self, state: State, seat: int | None) -> dict[str, Any]:
        """The values of the fields `view_type` adds to `PlayerView`, as `seat` may see them.

        Views never change the dict they get (a view's own fields are read-only).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> cr.GAMES["catastrophe"].view_fields(s, 0)
            {'revealed': None, 'marker': None, 'captured': ((), (), ())}
        """
        return {}

    view_fields_shared: ClassVar[bool] = False
    """True if `view_fields` answers the same for every seat and the spectator, from the state's
    `match`, `table` and `extra` alone (both built-in games' do). Views then ask once per trick and
    value of `extra`, and share the answer. `check_game` holds a game to it: every seat's answer
    must be the spectator's, and every view's fields what `view_fields` says of its own state."""

    def public_events(self, actions: Sequence[Action], rules: Rules, seat: int | None) -> tuple[Event, ...]:
        """The public events of a stretch of actions as `seat` saw them (deals reduced to `Dealt`).

        Example:
            >>> import cucumber_rules as cr
            >>> deal = cr.Deal(hands=[["2C"], ["3C"]])
            >>> cr.GAMES["ladder"].public_events([deal], cr.ruleset("gurka", hand_size=1), 0)
            (Dealt(hand=(card('2C'),), sizes=(1, 1), leader=None),)
        """
        from ..actions import Deal
        from ..views import Dealt

        out: list[Event] = []
        for action in actions:
            if type(action) is Deal:
                hand = action.hands[seat] if seat is not None else ()
                out.append(Dealt(hand, tuple(len(h) for h in action.hands), action.leader))
            else:
                out.append(action)
        return tuple(out)

    def round_events(
        self, rules: Rules, deal: Deal, done: int, actions: Sequence[Action]
    ) -> tuple[Event, ...] | None:
        """The public events of `actions` within `deal`'s round, worked out from them alone; None if not.

        Views extend the events of a round by each trick's new actions with it, instead of calling
        `public_events` on the whole round again. `actions` are the round's actions from its `done`-th
        on, counting its deal as the 0th (so with `done == 0` they start with `deal`); the answer is
        what `public_events` makes of them for a spectator, without the deal's `Dealt` (a seat's events
        may differ from a spectator's only by it). The default answers when the game keeps
        `Game.public_events` (every other action is its own event), else None: a game that overrides
        `public_events` alone keeps its views right, at a cost that grows with the round.

        Example:
            >>> import cucumber_rules as cr
            >>> deal = cr.Deal(hands=[["2C"], ["3C"]])
            >>> rules = cr.ruleset("gurka", hand_size=1)
            >>> cr.GAMES["ladder"].round_events(rules, deal, 0, [deal, cr.Play(0, "2C")])
            (Play(seat=0, card=card('2C')),)
        """
        if type(self).public_events is Game.public_events:
            return tuple(actions[1:] if done == 0 else actions)
        return None

    def check_view(self, view: PlayerView) -> str | None:
        """Check a loaded view's own fields: `"$.path: message"` for the first problem, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> import attrs
            >>> v = cr.view(s, 0)
            >>> cr.GAMES["catastrophe"].check_view(v) is None
            True
            >>> cr.GAMES["catastrophe"].check_view(attrs.evolve(v, captured=((),)))
            '$.captured: must have one entry per seat (3), not 1'
        """
        return None

    def view_cards(self, view: PlayerView) -> list[Card]:
        """The cards of the round a view shows beyond its hand and tricks (Catastrophe: revealed cards).

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
            >>> s = cr.apply(s, cr.sample_chance(s, random.Random(2)))
            >>> cr.GAMES["catastrophe"].view_cards(cr.view(s, 0))  # the card turned up to lead
            [card('43')]
        """
        return []

    # ----------------------------------------------------------------- words

    def describe_deal(self, state: State) -> str:
        """One line for the start of a round: who leads (never the cards), e.g. `Hand 2: Bo leads`.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe"), players=["Ann", "Bo", "Cy"])
            >>> cr.GAMES["catastrophe"].describe_deal(cr.apply(s, cr.sample_chance(s, random.Random(1))))
            'Hand 1: Ann leads'
        """
        table = state.table
        assert table is not None
        return f"{self.unit.capitalize()} {state.match.rounds + 1}: {state.players[table.leader]} leads"

    def describe_trick(self, state: State, trick: Trick, number: int, *, last: bool = False) -> str:
        """One line for a finished trick: who played what and who took it.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> cr.Game().describe_trick(s, s.table.tricks[0], 1)
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
            >>> cr.Game().describe_result(s, s.match.results[0])  # (the ladder's says who paid for what)
            ['round 1 points: Ann 0 · Bo 13']
        """
        row = " · ".join(f"{state.players[s]} {p}" for s, p in enumerate(result.points))
        return [f"{self.unit} {result.number} points: {row}"]

    def describe_table(self, view: PlayerView) -> str:
        """What a player must know about the current trick beyond its cards (Catastrophe: the
        revealed lead card and the Trick Marker), as a short text; default none.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply(cr.apply(s, cr.Play(0, "30")), cr.Play(1, "31"))  # 31 above 30: High
            >>> cr.GAMES["catastrophe"].describe_table(cr.view(s, 2))
            'High: highest wins'
        """
        return ""

    def decision_prompt(self, view: PlayerView) -> str:
        """The question a human answers with one of `view.legal`'s decisions, listing the choices.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game().decision_prompt(cr.view(cr.new_game(cr.ruleset("agurk"), players=3), 0))
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
            >>> cr.Game().decision_answers(v)  # no decision is due
            {}
            >>> sorted(cr.GAMES["ladder"].decision_answers(v))  # the ladder's revival: yes or no
            ['n', 'no', 'y', 'yes']
        """
        decisions = [a for a in view.legal if isinstance(a, Decision)]
        return {str(i): a for i, a in enumerate(decisions, 1)}

    def ranking(self, rules: Rules) -> str:
        """How `score(state).standings` orders the seats, in words (the CLI's standings caption).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].ranking(cr.ruleset("catastrophe"))
            'Ranked by fewest cucumbers, then by the lowest single-hand score.'
        """
        return "Ranked by lowest total."

    def describe_seat(self, state: State, seat: int) -> str:
        """A note after a seat's total in a scores line, e.g. `" (out)"` (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> cr.Game().describe_seat(s, 1)
            ''
        """
        return ""

    # ----------------------------------------------------------------- pictures (cucumber_rules.render)

    def card_icons(self, rules: Rules, card: Card) -> int:
        """How many cucumbers are printed on a card's face (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["catastrophe"].card_icons(cr.ruleset("catastrophe"), cr.card("55"))
            5
        """
        return 0

    def points_word(self, rules: Rules) -> str:
        """What the totals count, in one word (`"points"`; Five Cucumbers and Catastrophe: `"cucumbers"`).

        Example:
            >>> import cucumber_rules as cr
            >>> [cr.GAMES["ladder"].points_word(cr.ruleset(p)) for p in ("agurk", "five-cucumbers")]
            ['points', 'cucumbers']
        """
        return "points"

    def trick_extras(self, source: Trick | PlayerView) -> tuple[Card | None, Badge | None]:
        """What a picture shows beside a trick's plays: a card turned up from the stock and a badge.

        `source` is a completed trick, or a view for the trick in progress. Default: neither.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "30"), cr.Play(1, "31"), cr.Play(2, "20")])
            >>> card, badge = cr.GAMES["catastrophe"].trick_extras(s.table.tricks[0])
            >>> card, badge.meaning  # 31 set High, 20 broke it
            (None, 'broken: lowest wins')
        """
        return None, None

    def seat_note(self, view: PlayerView, seat: int) -> str:
        """A note a picture shows beside a seat's hand (Catastrophe: what it has captured); default none.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> s = cr.apply_all(s, [cr.Play(0, "30"), cr.Play(1, "31"), cr.Play(2, "20")])
            >>> cr.GAMES["catastrophe"].seat_note(cr.view(s, 0), 2)
            'captured 3 cards, 3 cucumbers'
        """
        return ""

    def result_note(self, result: RoundResult, seat: int) -> str:
        """A mark after a seat's points in a results table (the ladder: ` ✱` for a cucumber mark).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> cr.Game().result_note(s.match.results[0], 1)
            ''
        """
        return ""

    # ----------------------------------------------------------------- bots, statistics, tests, docs

    def heuristic(self, view: PlayerView, rng: random.Random, *, caution: float = 1.0) -> Action:
        """The heuristic bot's choice among `view.legal` (default: a random legal action).

        `caution` weighs the expected loss of a play against its gain, for games whose
        heuristic weighs risks; others ignore it.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=2), players=2),
            ...              cr.Deal(hands=[["2C", "9S"], ["3C", "KD"]]))
            >>> str(cr.GAMES["ladder"].heuristic(cr.view(s, 0), random.Random(1)).card)  # sheds its high card
            '9S'
        """
        return rng.choice(view.legal)

    def penalties(self, state: State) -> tuple[int, ...]:
        """What the finished rounds cost, for statistics (default: every seat's positive points).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> cr.Game().penalties(s)
            (13,)
        """
        return tuple(p for r in state.match.results for p in r.points if p > 0)

    def draw_options(self, draw: DrawFn, base: Rules) -> dict[str, Any]:
        """Random valid option overrides of a preset, for Hypothesis (`testing.rules()`); default none."""
        return {}

    def round_cards(self, state: State) -> list[Card]:
        """The round's cards that are in no hand, no trick and not in the stock (Catastrophe: reveals).

        `check_game` counts them with the rest to check that every card is accounted for.

        Example:
            >>> import cucumber_rules as cr, random
            >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
            >>> cr.GAMES["catastrophe"].round_cards(cr.apply(s, cr.sample_chance(s, random.Random(2))))
            [card('43')]
        """
        return []

    def decision_examples(self, seat: int) -> tuple[Decision, ...]:
        """Some decisions of `seat`, for `check_game` to try when none is due (default: none).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].decision_examples(1)
            (Revive(seat=1, accept=True), Revive(seat=1, accept=False))
        """
        return ()

    def check_state(self, state: State) -> str | None:
        """A game's own invariants of a state (for `testing.check_game`): a failure message, or None.

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply(cr.new_game(cr.ruleset("catastrophe", hand_size=2), players=3),
            ...              cr.Deal(hands=[["30", "60"], ["29", "31"], ["20", "21"]]))
            >>> cr.GAMES["catastrophe"].check_state(s) is None  # its captured cards are its tricks'
            True
        """
        return None

    # ----------------------------------------------------------------- hidden information (sampling)

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """A deal for the round due in `state` that fits what a viewer knows (for `sample_world`).

        Each seat `s` gets its `known` cards plus hidden ones up to `dealt.sizes[s]`, each
        hidden card one that `allowed(s, card)` accepts; `events` are the round's public
        events other than plays and decisions (Catastrophe's revealed cards). The default
        deals the rest of the `rules.deck` deck with `sampling.assign_cards`, with no stock
        and the announced `dealt.leader`. None if no deal fits.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> d = cr.Dealt(hand=(cr.card("2C"),), sizes=(1, 1))
            >>> cr.Game().complete_deal(s, ((cr.card("2C"),), ()), d, (), lambda s, c: c.rank == 14,
            ...                         random.Random(1)).hands[1][0].rank
            14
        """
        from ..actions import trusted_deal
        from ..cards import DECKS
        from ..sampling import assign_cards, joined_hands, remaining_cards

        pool = remaining_cards(DECKS[state.match.rules.deck], *known)
        needs = [size - len(hand) for size, hand in zip(dealt.sizes, known, strict=True)]
        found = assign_cards(pool, needs, allowed, rng)
        if found is None:
            return None
        return trusted_deal(joined_hands(known, found[0]), (), dealt.leader)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """The state after a legal round `index` (0-based) from `state` (its deal due) that ends with
        `view.results[index]`, with any decisions taken after it (for `sample_world`).

        The view sums up the rounds before its own in `results`; any legal round with the same
        result will do. The default searches with `sampling.search_round` (no decisions);
        a game whose results are rare under random play overrides it with a construction.

        Raises:
            ValueError: If no such round was found.

        Example:
            >>> import random
            >>> import cucumber_rules as cr
            >>> s = cr.new_game(cr.ruleset("gurka", hand_size=1), players=2)
            >>> v = cr.view(cr.apply_all(s, [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"),
            ...                              cr.Play(1, "KS")]), 0)
            >>> cr.Game().rebuild_round(s, v, 0, random.Random(1)).match.totals
            (0, 13)
        """
        from ..sampling import search_round

        found = search_round(state, view.results[index], rng)
        if found is None:
            raise ValueError(f"could not rebuild round {index + 1} of this {self.name} match")
        return found

    def facts(self, rules: Rules) -> list[tuple[str, str]]:
        """Rows describing a rule set for the docs' preset tables: (what, value).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game().facts(cr.ruleset("gurka"))
            [('deck', 'standard-52'), ('players', '2–7')]
        """
        return [("deck", rules.deck), ("players", f"{rules.min_players}–{rules.max_players}")]

    # ----------------------------------------------------------------- encodings (cucumber_rules.encoding)

    def action_cards(self, rules: Rules) -> tuple[Card, ...]:
        """The cards a seat may play, in action-id order: ids `0..len-1` (default: each distinct card
        of `rules.deck`, in card order).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].action_cards(cr.ruleset("five-cucumbers"))[:3]
            (card('1'), card('2'), card('3'))
        """
        from ..cards import DECKS

        return tuple(dict.fromkeys(DECKS[rules.deck]))

    def action_decisions(self, rules: Rules, seat: int) -> tuple[Decision, ...]:
        """Every decision `seat` may take under `rules`, in action-id order after the cards (default:
        none). There must be as many for every seat.

        Example:
            >>> import cucumber_rules as cr
            >>> cr.GAMES["ladder"].action_decisions(cr.ruleset("agurk", revival=True), 0)
            (Revive(seat=0, accept=True), Revive(seat=0, accept=False))
        """
        return ()

    def observation_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The named parts of the observation vector, with sizes (default: `encoding.common_parts`).

        Example:
            >>> import cucumber_rules as cr
            >>> cr.Game().observation_parts(cr.ruleset("gurka"), 2)[:2]
            (('hand', 52), ('seen', 52))
        """
        from ..encoding import common_parts

        return common_parts(rules, players)

    def observe(self, view: PlayerView) -> list[float]:
        """A seat's view as the floats `observation_parts` lays out (`encoding.common_observation`).

        Example:
            >>> import cucumber_rules as cr
            >>> s = cr.apply_all(cr.new_game(cr.ruleset("gurka", hand_size=1), players=["Ann", "Bo"]),
            ...                  [cr.Deal(hands=[["2C"], ["KS"]]), cr.Play(0, "2C"), cr.Play(1, "KS")])
            >>> parts = cr.Game().observation_parts(s.rules, 2)
            >>> len(cr.Game().observe(cr.view(s, 0))) == sum(size for _, size in parts)
            True
        """
        from ..encoding import common_observation

        return common_observation(view)

    def deal_plan(self, state: State) -> DealPlan:
        """How the deal due now is made, for dealing it card by card (`encoding.DealPlan`).

        The default (`encoding.default_deal_plan`) fits deals that are uniform over `rules.deck`.

        Example:
            >>> import cucumber_rules as cr
            >>> plan = cr.GAMES["ladder"].deal_plan(cr.new_game(cr.ruleset("gurka", hand_size=1), players=2))
            >>> plan.hands, plan.stock, len(plan.deck)
            ((1, 1), 0, 52)
        """
        from ..encoding import default_deal_plan

        return default_deal_plan(self, state)

    def __repr__(self) -> str:
        return f"<Game {self.name!r}>"
