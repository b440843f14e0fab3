"""Invariants of deals, views, serialization and determinism."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..actions import Action, Deal
from ..engine import apply, apply_all, is_legal, legal_moves, new_game, sample_chance, score
from ..records import record, replay
from ..serialization import dumps, loads
from ..state import CHANCE, State
from ..views import Views, view
from .base import CheckBase, cards_text
from .shareable import mutable_parts

__all__ = ["ViewChecks"]


class ViewChecks(CheckBase):
    """`check_dealt`, `check_deal_secrecy`, `check_views`, `check_shareable`, `check_round_trips`,
    `check_determinism`.

    Example:
        >>> import cucumber_rules as cr
        >>> from cucumber_rules.testing import match, strategies
        >>> s = strategies.random_play(cr.ruleset("gurka"), 2, 0, 1, 3)  # a deal and two plays
        >>> check = match.MatchCheck(s.rules, 2, 0, None)
        >>> check.check_views(s, cr.legal_moves(s), every_seat=True), check.check_round_trips(s)
        (None, None)
    """

    def check_dealt(self, before: State, deal: Deal, after: State) -> None:
        used = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
        if used - self.deck:
            self.fail(
                "card-conservation",
                f"the deal uses cards beyond the deck: {cards_text((used - self.deck).elements())}",
            )
        r = after.round
        if r is None or [sorted(h) for h in deal.hands] != [list(h) for h in r.hands]:
            self.fail("card-conservation", "the hands after the deal are not the dealt hands")
        self.remember(deal, used)
        if after.to_act is not None and after.to_act >= 0:
            self.check_deal_secrecy(before, deal, after, after.to_act)

    def check_deal_secrecy(self, before: State, deal: Deal, after: State, seat: int) -> None:
        """Seat `seat`'s view must not depend on how the other seats' hidden cards were dealt."""
        others = [s for s in range(self.n) if s != seat and deal.hands[s]]
        pool = [c for s in others for c in deal.hands[s]]
        never = self.deck - Counter(c for h in deal.hands for c in h) - Counter(deal.stock)
        for candidates in (pool + list(never.elements()), pool):
            shuffled = list(candidates)
            self.aux.shuffle(shuffled)
            hands = [list(h) for h in deal.hands]
            for s in others:
                size = len(hands[s])
                hands[s], shuffled = shuffled[:size], shuffled[size:]
            alternative = Deal(hands=hands, stock=deal.stock, leader=deal.leader)
            if is_legal(before, alternative):
                break
        else:
            return
        other_state = apply(before, alternative)
        mine = self.call("views", f"view(state, {seat})", view, after, seat)
        theirs = self.call("views", f"view(state, {seat})", view, other_state, seat)
        if mine != theirs:
            self.fail("views", f"seat {seat}'s view after a deal depends on the other seats' hidden cards")
        if view(after, None) != view(other_state, None):
            self.fail("views", "the spectator's view after a deal depends on the hidden cards")

    def check_views(self, state: State, legal: tuple[Action, ...], *, every_seat: bool) -> None:
        """Views show the seat's own hand, the public facts, the game's own fields and its legal moves.

        Every step checks the seat to act; checkpoints check every seat and the spectator. A game
        whose `view_fields_shared` is true must give every seat the spectator's `view_fields`.
        """
        to_act = state.to_act
        seats: list[int | None] = [None, *range(self.n)] if every_seat else []
        if not every_seat and to_act is not None and to_act >= 0:
            seats.append(to_act)
        game = self.game
        if Views.of(
            game
        ).view_fields_shared:  # the game's word that views may share one answer: hold it to it
            spectator = Views.of(game).view_fields(state, None)
            for seat in seats:
                if seat is not None and Views.of(game).view_fields(state, seat) != spectator:
                    self.fail(
                        "views",
                        f"view_fields(state, {seat}) differs from the spectator's, but the game's "
                        "view_fields_shared says every seat sees the same",
                    )
        hands = state.hands
        public = (
            ("hand_sizes", tuple(len(h) for h in hands)),
            ("to_act", to_act),
            ("trick", state.trick),
            ("tricks", () if state.table is None else state.table.tricks),
            ("totals", state.match.totals),
            ("winners", state.match.winners),
        )
        for seat in seats:
            v = self.call("views", f"view(state, {seat})", view, state, seat)
            expected: tuple[tuple[str, Any], ...] = (
                ("seat", seat),
                ("hand", () if seat is None else hands[seat]),
                ("legal", legal if seat is not None and seat == to_act else ()),
                *public,
                *Views.of(self.game).view_fields(state, seat).items(),
            )
            wrong = [name for name, want in expected if getattr(v, name) != want]
            if wrong:
                self.fail("views", f"view(state, {seat}) has wrong {', '.join(wrong)}")
            if type(v) is not self.game.view_type:
                self.fail(
                    "views",
                    f"view(state, {seat}) is a {type(v).__name__}, "
                    f"not the game's {self.game.view_type.__name__}",
                )
            if every_seat and v != view(state, seat):
                self.fail("views", f"view(state, {seat}) is not deterministic")

    def check_shareable(self, value: State | Deal) -> None:
        """Nothing mutable is reachable from a state, its score and every view of it (fresh and filled
        in), or from a deal `sample_chance` drew (`testing.shareable.mutable_parts`)."""
        if isinstance(value, Deal):
            found = mutable_parts(value, "sample_chance(state)")
        else:
            found = mutable_parts(value, "state") + mutable_parts(score(value), "score(state)")
            for seat in (None, *range(self.n)):
                fresh = view(value, seat)
                found += mutable_parts(fresh, f"view(state, {seat})")  # before it is filled in
                _ = fresh.events  # fills it in
                found += mutable_parts(fresh, f"view(state, {seat}) filled in")
        if found:
            shown = "; ".join(f"{path} is a {what}" for path, what in found[:3])
            more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
            self.fail("shareable", f"a value returned to callers reaches something mutable: {shown}{more}")

    def check_round_trips(self, state: State) -> None:
        values: list[tuple[str, Any]] = [("rules", self.rules), ("state", state), ("score", score(state))]
        values += [(f"view {seat}", view(state, seat)) for seat in (None, *range(self.n))]
        for what, value in values:
            text = self.call("serialization", f"dumps({what})", dumps, value)
            back = self.call("serialization", f"loads(dumps({what}))", loads, text)
            if back != value:
                self.fail("serialization", f"loads(dumps({what})) is not equal to the {what}")
            if dumps(back) != text:
                self.fail("serialization", f"dumps is not stable for the {what}")
        rec = self.call("serialization", "record(state)", record, state)
        again = self.call("serialization", "replay(record(state))", replay, rec)
        if again != state:
            self.fail("serialization", "replay(record(state)) is not equal to the state")
        back_rec = self.call("serialization", "loads(dumps(record))", loads, dumps(rec))
        if back_rec != rec:
            self.fail("serialization", "loads(dumps(record)) is not equal to the record")

    def check_determinism(
        self, start: State, first: int, actions: list[Action], checkpoints: dict[int, State], final: State
    ) -> None:
        """Replay the actions, and replay the sampling with the global `random` reseeded at each step."""
        end = self.index
        self.index = 0
        again = new_game(self.rules, self.n, first=first)
        if again != start:
            self.fail("determinism", "new_game gave different states for the same arguments")
        replayed = self.call("determinism", "apply_all", apply_all, again, actions)
        if replayed != final:
            self.fail("determinism", "apply_all of the same actions gave a different final state")
        rng = random.Random(self.seed)
        if rng.randrange(self.n) != first:
            self.fail("determinism", "the first seat was drawn differently")
        noise = random.Random(f"cucumber-rules-noise-2-{self.seed}")
        state = again
        for i, expected in enumerate(actions):
            self.index = i
            random.seed(noise.getrandbits(64))
            action = sample_chance(state, rng) if state.to_act == CHANCE else rng.choice(legal_moves(state))
            if action != expected:
                self.fail("determinism", f"the same seed drew {action}, not {expected}")
            state = apply(state, action)
            if i + 1 in checkpoints and state != checkpoints[i + 1]:
                self.fail("determinism", "the same actions gave a different state")
        self.index = end
