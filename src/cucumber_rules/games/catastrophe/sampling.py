"""Catastrophe's part of hidden-information sampling (`cucumber_rules.sampling`).

- `complete_deal`: a hand's deal from what a viewer knows: the stock starts with
  the cards revealed so far (Surprise Cucumber) and If You Can't Beat 'Em keeps
  every 5-cucumber card in the hands;
- `rebuild_hand`: an earlier hand that ends with given cucumbers per seat, built
  directly rather than searched for by playing. First the exact, bounded search
  of `rebuild.construct_hand` (trick counts and card classes per seat, then cards
  with anchors, played in an always-legal order): it builds every hand of the
  kind described there. Only a hand that needs a trick made of 5-cucumber cards
  alone (a custom cucumbers table, or a tiny hand with If You Can't Beat 'Em)
  falls back to the older randomised local search: the hand's cards are grouped
  into tricks, each given to a taker, and cards are moved between tricks (and the
  undealt cards) and takers changed until every seat's cucumbers are right; and
  if that fails too, the game falls back to the generic
  `cucumber_rules.sampling.search_round`, which plays random hands. Every trick
  is played in an order that is always legal: the lead (or the revealed card) is
  the trick's lowest card and the taker plays its highest, so the marker is High
  and everyone obeys it (or the mirror image, Low). The leader never takes a
  trick from hand, so takers of consecutive tricks differ (with Surprise the
  first player may take it). The engine replays the result and checks it;
- `check_view`: a loaded view's earlier hands folded into the match without
  their cards. Each hand's points must be ones its cards could score (`HandCheck`:
  every seat's points the cucumbers of whole tricks' worth of the deck's cards, the
  seats' tricks adding up to the hand's); the engine then scores the hand, so the
  totals, the winners and the next starter are its own. The current hand is then
  checked from there (`cucumber_rules.sampling.check_round`). Whether an earlier hand
  could be played out card by card is left to `sample_world`, which rebuilds it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...actions import Action, Deal, Play, trusted_deal
from ...cards import Card
from ...dealing import after_table
from ...engine import apply
from ...errors import IllegalMoveError, InvalidStateError
from ...history import EMPTY
from ...sampling import Sampling
from ...state import CHANCE, State
from ...tricks import state_builder
from .rebuild import construct_hand
from .rules import BONUS, BONUS_FIVES
from .scoring import finish_hand, starters
from .types import CatastropheState, CatastropheTable, Revealed

if TYPE_CHECKING:
    from ...views import Dealt, Event, PlayerView
    from .rules import CatastropheRules

__all__ = ["CatastropheSampling", "HandCheck", "check_view", "complete_deal", "fold_results", "rebuild_hand"]

#: Local-search steps per attempt, and attempts, of `rebuild_hand` (after `construct_hand`).
STEPS = 6000
ATTEMPTS = 6


def complete_deal(
    state: State,
    known: tuple[tuple[Card, ...], ...],
    dealt: Dealt,
    events: tuple[Any, ...],
    allowed: Callable[[int, Card], bool],
    rng: random.Random,
) -> Deal | None:
    """A Catastrophe deal that fits a viewer's knowledge (see `Game.complete_deal`).

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", surprise=True, hand_size=2), players=3)
        >>> d = cr.Dealt(hand=(cr.card("7"), cr.card("9")), sizes=(2, 2, 2))
        >>> deal = complete_deal(s, ((cr.card("7"), cr.card("9")), (), ()), d,
        ...                      (cr.Revealed(cr.card("30")),), lambda s, c: True, random.Random(1))
        >>> deal.hands[0], deal.stock[0], len(deal.stock)
        ((card('7'), card('9')), card('30'), 54)
    """
    from ...sampling import assign_cards, joined_hands, remaining_cards

    rules: CatastropheRules = state.match.rules  # type: ignore[assignment]
    p = rules._plan
    reveals = [e.card for e in events if type(e) is Revealed]
    pool = remaining_cards(p.deck, *known, reveals)
    needs = [size - len(hand) for size, hand in zip(dealt.sizes, known, strict=True)]
    five = p.five
    spare = (lambda c: not five[c.rank]) if rules.cant_beat_em else None
    found = assign_cards(pool, needs, allowed, rng, spare=spare)
    if found is None:
        return None
    hidden, rest = found
    hands = joined_hands(known, hidden)
    stock: tuple[Card, ...] = ()
    if rules.surprise:
        left = list(rest)
        rng.shuffle(left)
        if rules.cant_beat_em:
            per = rules.cards_per_player(len(known))
            left = left[: per - len(reveals)]
        stock = (*reveals, *left)
    return trusted_deal(hands, stock, dealt.leader)


def rebuild_hand(state: State, target: Any, rng: random.Random) -> State | None:
    """A legal hand from `state` (its deal due) whose result equals `target`, or None.

    Example:
        >>> import random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> rebuild_hand(s, target, random.Random(1)).match.totals
        (12, 9, 17)
    """
    found = construct_hand(state, target, rng, _play)
    if found is not None:
        return found
    for _ in range(ATTEMPTS):
        found = _attempt(state, target, rng)
        if found is not None:
            return found
    return None


def _attempt(state: State, target: Any, rng: random.Random) -> State | None:
    m = state.match
    rules: CatastropheRules = m.rules  # type: ignore[assignment]
    p = rules._plan
    n = len(m.players)
    per = rules.cards_per_player(n)
    surprise = rules.surprise
    cbe = rules.cant_beat_em
    size = n + 1 if surprise else n
    cuc = p.cucumbers
    five = p.five
    tied = starters(state)
    leader = rng.choice(tied)
    goal: Sequence[int] = target.points

    # The hand's cards: every 5-cucumber card with If You Can't Beat 'Em, the rest at random.
    deck = list(p.deck)
    rng.shuffle(deck)
    if cbe:
        others = [c for c in deck if not five[c.rank]]
        chosen = list(p.fives) + others[: per * size - len(p.fives)]
        spare = others[per * size - len(p.fives) :]
    else:
        chosen, spare = deck[: per * size], deck[per * size :]
    rng.shuffle(chosen)
    tricks = [chosen[j * size : (j + 1) * size] for j in range(per)]
    mean = sum(cuc[c.rank] for c in chosen) / per
    bonus = [s for s in range(n) if cbe and goal[s] == BONUS]
    left = sum(cuc[c.rank] for c in chosen) - sum(g for s, g in enumerate(goal) if s not in bonus)
    shares = [
        max(0, left / len(bonus) if s in bonus else g) / mean if mean else 1 for s, g in enumerate(goal)
    ]
    takers = _takers(per, n, leader, surprise, shares, rng)
    value = [sum(cuc[c.rank] for c in t) for t in tricks]
    count = [sum(1 for c in t if five[c.rank]) for t in tricks]

    def bad(trick: list[Card]) -> int:
        # 0 if a legal order exists: an extreme card may lead (or be the revealed card).
        low = min(trick, key=_rank)
        high = max(trick, key=_rank)
        if surprise and not cbe:
            return 0
        return 3 if five[low.rank] and five[high.rank] else 0

    flaws = [bad(t) for t in tricks]

    def cost() -> int:
        got = [0] * n
        fives = [0] * n
        for j, t in enumerate(takers):
            got[t] += value[j]
            fives[t] += count[j]
        total = sum(flaws)
        rest = sum(value) - sum(g for s, g in enumerate(goal) if s not in bonus)
        for s in range(n):
            if s in bonus:  # four 5-cucumber cards or more, and what the others do not take
                total += 6 * max(0, BONUS_FIVES - fives[s]) + abs(got[s] * len(bonus) - rest)
            elif cbe and fives[s] >= BONUS_FIVES:
                total += 6 * (fives[s] - BONUS_FIVES + 1) + abs(got[s] - goal[s])
            else:
                total += abs(got[s] - goal[s])
        return total

    def refresh(j: int) -> None:
        t = tricks[j]
        value[j] = sum(cuc[c.rank] for c in t)
        count[j] = sum(1 for c in t if five[c.rank])
        flaws[j] = bad(t)

    current = cost()
    rnd = rng.random
    for step in range(STEPS):
        if current == 0:
            break
        slack = 0.05 * (1.0 - step / STEPS)  # accept a worse step now and then, less and less often
        move = rnd()
        if move < 0.2 and per > 1:  # another taker for one trick
            j = rng.randrange(per)
            old = takers[j]
            takers[j] = rng.randrange(n)
            if not _takers_ok(takers, leader, surprise):
                takers[j] = old
                continue
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                takers[j] = old
        elif move < 0.45 and spare:  # a card of a trick for an undealt one
            j = rng.randrange(per)
            i = rng.randrange(size)
            k = rng.randrange(len(spare))
            if cbe and five[tricks[j][i].rank]:
                continue
            tricks[j][i], spare[k] = spare[k], tricks[j][i]
            refresh(j)
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                tricks[j][i], spare[k] = spare[k], tricks[j][i]
                refresh(j)
        elif per > 1:  # two cards of different tricks trade places
            a, b = rng.sample(range(per), 2)
            i, k = rng.randrange(size), rng.randrange(size)
            tricks[a][i], tricks[b][k] = tricks[b][k], tricks[a][i]
            refresh(a)
            refresh(b)
            new = cost()
            if new <= current or rnd() < slack:
                current = new
            else:
                tricks[a][i], tricks[b][k] = tricks[b][k], tricks[a][i]
                refresh(a)
                refresh(b)
    if current:
        return None
    return _play(state, tricks, takers, leader, tied, spare, rng)


def _rank(c: Card) -> int:
    return c.rank


def _takers(
    per: int, n: int, leader: int, surprise: bool, shares: list[float], rng: random.Random
) -> list[int]:
    """Takers for the tricks: about `shares[s]` tricks each, never the trick's leader (unless Surprise)."""
    total = sum(shares) or 1.0
    want = [x * per / total for x in shares]
    counts = [int(x) for x in want]
    for s in sorted(range(n), key=lambda s: counts[s] - want[s])[: per - sum(counts)]:
        counts[s] += 1
    takers: list[int] = []
    last = leader
    for _ in range(per):
        choices = [s for s in range(n) if counts[s] > 0 and (surprise or s != last)]
        if not choices:
            choices = [s for s in range(n) if surprise or s != last]
        top = max(counts[s] for s in choices)
        t = rng.choice([s for s in choices if counts[s] == top])
        counts[t] -= 1
        takers.append(t)
        last = t
    return takers


def _takers_ok(takers: list[int], leader: int, surprise: bool) -> bool:
    if surprise:
        return True
    last = leader
    for t in takers:
        if t == last:
            return False
        last = t
    return True


def _play(
    state: State,
    tricks: list[list[Card]],
    takers: list[int],
    leader: int,
    tied: tuple[int, ...],
    spare: list[Card],
    rng: random.Random,
) -> State | None:
    """Lay the tricks out as a deal and plays in a legal order; replay them with the engine."""
    m = state.match
    rules: CatastropheRules = m.rules  # type: ignore[assignment]
    p = rules._plan
    n = len(m.players)
    five = p.five
    surprise = rules.surprise
    hands: list[list[Card]] = [[] for _ in range(n)]
    reveals: list[Card] = []
    plays: list[Action] = []
    lead = leader
    for trick, taker in zip(tricks, takers, strict=True):
        ordered = sorted(trick, key=_rank)
        low, high = ordered[0], ordered[-1]
        if surprise:  # the revealed card is the lowest (High) or the highest (Low)
            rising = not (rules.cant_beat_em and five[low.rank])
            reveal = low if rising else high
            reveals.append(reveal)
            rest = ordered[1:] if rising else ordered[:-1]
            best = rest[-1] if rising else rest[0]
            middle = rest[:-1] if rising else rest[1:]
            seats = [(lead + k) % n for k in range(n)]
            cards: dict[int, Card] = {taker: best}
            others = [s for s in seats if s != taker]
        else:  # the lead is the lowest (High) or the highest (Low); the taker plays the other extreme
            rising = not five[low.rank]
            first, best = (low, high) if rising else (high, low)
            middle = ordered[1:-1]
            seats = [(lead + k) % n for k in range(n)]
            cards = {lead: first, taker: best}
            others = [s for s in seats if s not in cards]
        rng.shuffle(middle)
        for s, c in zip(others, middle, strict=True):
            cards[s] = c
        for s in seats:
            hands[s].append(cards[s])
            plays.append(Play(s, cards[s]))
        lead = taker
    stock: list[Card] = []
    if surprise:
        stock = reveals + ([] if rules.cant_beat_em else spare)
    deal = Deal(hands=hands, stock=stock, leader=leader if len(tied) > 1 else None)
    try:
        after = apply(state, deal)
        for a in plays:
            after = apply(after, a)
    except IllegalMoveError:
        return None
    if after.match.rounds != m.rounds + 1:
        return None
    return after


# --------------------------------------------------------------------------- checking a loaded view


def check_view(view: PlayerView) -> str | None:
    """A Catastrophe view's earlier hands folded into the match, then its current hand checked.

    Returns `"$.path: message"` for the first field no match explains, or None. A view with
    no earlier hand is left to the library's own check of a first round.

    Example:
        >>> import attrs, random
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_count=3), players=3)
        >>> rng = random.Random(2)
        >>> while s.match.rounds < 1 or s.to_act != 1:
        ...     moves = cr.legal_moves(s)
        ...     s = cr.apply(s, rng.choice(moves) if moves else cr.sample_chance(s, rng))
        >>> v = cr.view(s, 0)
        >>> check_view(v) is None
        True
        >>> odd = attrs.evolve(v.results[0], points=(99, 0, 0), totals=(99, 0, 0))
        >>> print(check_view(attrs.evolve(v, results=(odd,), rounds=((99, 0, 0),))))
        $.results[0].points[0]: 99 cucumbers cannot be captured in a hand of 3 players
    """
    from ...sampling import check_round, finished_rounds

    finished = finished_rounds(view)
    if finished == 0:
        return None
    try:
        before = fold_results(view, finished)
    except InvalidStateError as err:
        return str(err)
    return check_round(view, before)


def fold_results(view: PlayerView, count: int) -> State:
    """The state before hand `count + 1` of the view's match, from its first `count` results.

    Each hand's points must pass `HandCheck`; the engine then scores the hand from captured
    cards that score those points (no hand is played: the state's history leaves the earlier
    hands out, and its table is not a real one). It serves to check the view, not to replay.

    Raises:
        InvalidStateError: Naming the first result no hand can give.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe"), players=3)
        >>> target = cr.RoundResult(1, (12, 9, 17), (12, 9, 17))
        >>> after = rebuild_hand(s, target, random.Random(1))
        >>> fold_results(cr.view(after, 0), 1).match == after.match
        True
    """
    from ...engine import new_game

    state = new_game(view.rules, view.players, first=view.first)
    check = HandCheck(view.rules, len(view.players))  # type: ignore[arg-type]
    for index in range(count):
        target = view.results[index]
        if state.to_act != CHANCE:
            raise InvalidStateError(f"$.results[{index}]", f"the match was over after hand {index}")
        problem = check.problem(target.points)
        if problem is not None:
            where, message = problem
            raise InvalidStateError(f"$.results[{index}].points{where}", message)
        after = score_hand(state, target.points, check)
        got = after.match.results[-1]
        if got != target:
            seat = next(s for s, (a, b) in enumerate(zip(got.totals, target.totals, strict=True)) if a != b)
            raise InvalidStateError(
                f"$.results[{index}].totals[{seat}]",
                f"must be the total before plus the hand's points ({got.totals[seat]})",
            )
        state = after
    return state


def score_hand(state: State, points: tuple[int, ...], check: HandCheck) -> State:
    """The state after a hand from `state` (its deal due) in which each seat scored `points`.

    The engine scores the hand from captured cards that score those points (`HandCheck.captured`),
    so the totals, the winners and the next starter are its own; nothing is played.

    Example:
        >>> import cucumber_rules as cr
        >>> s = cr.new_game(cr.ruleset("catastrophe", hand_count=1), players=3)
        >>> after = score_hand(s, (3, 20, 7), HandCheck(s.rules, 3))
        >>> after.match.totals, after.match.winners
        ((3, 20, 7), (0,))
    """
    n = len(points)
    seats = tuple(range(n))
    captured = tuple(check.captured(p) for p in points)
    table = CatastropheTable(seats, after_table(seats, n), 0, captured=captured)
    assert state.to_act == CHANCE
    # (no history: only the match matters here)
    return finish_hand(
        state_builder(CatastropheState)(CHANCE, state.match, table, ((),) * n, (), None, None, EMPTY, None)
    )


class HandCheck:
    """Which points a hand's seats can score, for one rule set and number of players (necessary
    conditions, checked without cards).

    A seat captures whole tricks (`n` cards each, `n + 1` with Surprise Cucumber), so its
    points must be the cucumbers of `size * t` of the deck's cards for some number of tricks
    `t` (with If You Can't Beat 'Em: at most three 5-cucumber cards, or four and more for
    -5), and the seats' tricks must add up to the hand's. The sums of `k` cards are worked
    out once, as bit sets.

    Example:
        >>> import cucumber_rules as cr
        >>> check = HandCheck(cr.ruleset("catastrophe"), 3)
        >>> check.problem((12, 9, 17)) is None, check.problem((12, 9, 18))
        (True, ('', 'no cards of whole tricks score these points together'))
    """

    def __init__(self, rules: CatastropheRules, players: int) -> None:
        p = rules._plan
        self.players = players
        self.per = rules.cards_per_player(players)
        self.size = players + 1 if rules.surprise else players
        self.cbe = rules.cant_beat_em
        self.fives = len(p.fives)
        self.five_card = p.fives[0] if p.fives else None
        worths: dict[int, list[Card]] = {}
        for c in p.others:
            worths.setdefault(p.cucumbers[c.rank], []).append(c)
        self.worths = worths
        most = self.per * self.size
        # sums[k]: a bit set of the cucumbers `k` cards other than 5-cucumber cards can score
        sums = [1] + [0] * most
        for worth, cards in worths.items():
            grown = [0] * (most + 1)
            for k, have in enumerate(sums):
                if have:
                    for extra in range(min(len(cards), most - k) + 1):
                        grown[k + extra] |= have << (worth * extra)
            sums = grown
        self.sums = sums
        self._tricks: dict[int, int] = {}
        self._captured: dict[int, tuple[Card, ...]] = {}

    def tricks(self, points: int) -> int:
        """The numbers of tricks whose cards can score `points` for one seat, as a bit set."""
        found = self._tricks.get(points)
        if found is None:
            found = 0
            bonus = self.cbe and points == BONUS
            if points >= 0 or bonus:
                for t in range(self.per + 1):
                    k = self.size * t
                    top = min(self.fives, k)
                    for f in range(
                        BONUS_FIVES if bonus else 0, top + 1 if bonus or not self.cbe else min(top, 3) + 1
                    ):
                        rest = self.sums[k - f]
                        if rest and (bonus or (points >= 5 * f and rest >> (points - 5 * f) & 1)):
                            found |= 1 << t
                            break
            self._tricks[points] = found
        return found

    def problem(self, points: tuple[int, ...]) -> tuple[str, str] | None:
        """Why no hand scores `points`: (`[seat]` or "", message), or None."""
        reach = 1
        for seat, score in enumerate(points):
            options = self.tricks(score)
            if not options:
                return (
                    f"[{seat}]",
                    f"{score} cucumbers cannot be captured in a hand of {self.players} players",
                )
            grown = 0
            t = 0
            while options:
                if options & 1:
                    grown |= reach << t
                options >>= 1
                t += 1
            reach = grown
        if not reach >> self.per & 1:
            return "", "no cards of whole tricks score these points together"
        if self.cbe and sum(1 for x in points if x == BONUS) * BONUS_FIVES > self.fives:
            return "", f"-5 needs {BONUS_FIVES} of the {self.fives} 5-cucumber cards: one seat at most"
        return None

    def captured(self, points: int) -> tuple[Card, ...]:
        """Cards that score `points` in the engine's count (only their cucumbers matter here).

        Only for points `tricks` accepts: -5 is four 5-cucumber cards, anything else the
        fewest cards of the deck's worths (repeats allowed) with at most three 5-cucumber cards.
        """
        found = self._captured.get(points)
        if found is None:
            found = self._captured[points] = self._cards_for(points)
        return found

    def _cards_for(self, points: int) -> tuple[Card, ...]:
        if self.cbe and points == BONUS:
            assert self.five_card is not None
            return (self.five_card,) * BONUS_FIVES
        coins = sorted(self.worths, reverse=True)
        fives = min(points // 5, 3 if self.cbe else points // 5) if self.five_card is not None else 0
        for f in range(fives, -1, -1):
            found = _change(points - 5 * f, coins)
            if found is not None:
                picked = [self.worths[w][0] for w in found]
                return (*(self.five_card,) * f, *picked)  # type: ignore[arg-type]
        raise AssertionError(f"no cards score {points}")  # (`tricks` accepted it: some cards do)


def _change(amount: int, coins: list[int]) -> list[int] | None:
    """`amount` as a sum of `coins` (each any number of times), or None (coins are small: a tiny search)."""
    best: list[list[int] | None] = [[]] + [None] * amount
    for total in range(1, amount + 1):
        for coin in coins:
            if 0 < coin <= total and best[total - coin] is not None:
                best[total] = [*best[total - coin], coin]  # type: ignore[misc]
                break
    return best[amount]


class CatastropheSampling(Sampling):
    """Catastrophe's sampling: the stock starts with the revealed cards; earlier hands are built.

    Example:
        >>> type(CatastropheSampling()).__name__
        'CatastropheSampling'
    """

    __slots__ = ()

    def complete_deal(
        self,
        state: State,
        known: tuple[tuple[Card, ...], ...],
        dealt: Dealt,
        events: tuple[Event, ...],
        allowed: Callable[[int, Card], bool],
        rng: random.Random,
    ) -> Deal | None:
        """See `complete_deal`: the stock starts with the revealed cards."""
        return complete_deal(state, known, dealt, events, allowed, rng)

    def rebuild_round(self, state: State, view: PlayerView, index: int, rng: random.Random) -> State:
        """See `rebuild_hand`: a hand built to end with the view's cucumbers, else searched for."""
        found = rebuild_hand(state, view.results[index], rng)
        return found if found is not None else super().rebuild_round(state, view, index, rng)
