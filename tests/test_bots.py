"""Bots play legal moves from their own view only, never touch the global RNG; the heuristic wins."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import attrs
import pytest

import cucumber_rules as cr
from cucumber_rules.bots import BOTS, Bot, HeuristicBot, ISMCTSBot, RandomBot, get_bot, resolve_bots
from cucumber_rules.games import game_of
from cucumber_rules.simulate import play_match, simulate
from cucumber_rules.views import PlayerView
from helpers import catastrophe_state, deal, ladder_state, play, start

PRESETS = ("agurk", "gurka", "five-cucumbers", "fuenf-gurken", "catastrophe")


HEURISTIC = HeuristicBot()


def choose(state: cr.State, bot: Bot = HEURISTIC, seed: int = 0) -> str:
    """The card the bot plays for the seat to act, as text."""
    assert state.to_act is not None
    assert state.to_act >= 0
    action = bot.choose(cr.view(state, state.to_act), random.Random(seed))
    assert cr.is_legal(state, action), action
    assert isinstance(action, cr.Play)
    return str(action.card)


# --------------------------------------------------------------------------- every bot


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bot", [RandomBot(), HeuristicBot()], ids=["random", "heuristic"])
def test_bots_finish_matches_with_legal_moves(preset: str, bot: Bot) -> None:
    # apply() validates every action, so an illegal choice would raise here.
    rules = cr.ruleset(preset)
    final = play_match(rules, [bot, RandomBot(), bot], seed=3)
    assert final.is_over
    assert cr.score(final).winners


def test_variants_are_played_legally() -> None:
    variants = [
        cr.ruleset("catastrophe", surprise=True, cant_beat_em=True),
        cr.ruleset("catastrophe", surprise=True),
        cr.ruleset("gurka", revival=True, threshold=15),
        cr.ruleset("agurk", reverse=True, hand_size=3),
        cr.ruleset("five-cucumbers", fixed_rounds=3),
    ]
    for rules in variants:
        final = play_match(rules, [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()], seed=5)
        assert final.is_over, rules.name


class Spy:
    """A bot that records what it was shown and checks it is only a view of its own seat."""

    name = "spy"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: PlayerView, rng: random.Random) -> cr.Action:
        assert isinstance(view, PlayerView)
        assert type(view) is view.rules._game.view_type
        assert view.seat is not None
        assert view.seat == view.to_act
        assert view.legal
        assert len(view.hand) == view.hand_sizes[view.seat]
        self.calls += 1
        return view.legal[0]


def test_bots_are_given_their_own_view_only() -> None:
    spy = Spy()
    final = play_match(cr.ruleset("gurka", threshold=12), [spy, spy], seed=1)
    assert spy.calls == sum(1 for a in final.history if not isinstance(a, cr.Deal))


def test_choice_depends_only_on_the_view() -> None:
    # Seat 0 holds the same cards in both deals, the other seats different ones: same view, same choice.
    rules = cr.ruleset("agurk", hand_size=3)
    a = cr.apply(cr.new_game(rules, 3), deal("2C 9S KH", "3D 4D 5D", "6H 7H 8H"))
    b = cr.apply(cr.new_game(rules, 3), deal("2C 9S KH", "AS AD AC", "3C 4C 5C"))
    assert cr.view(a, 0) == cr.view(b, 0)
    for bot in BOTS.values():
        assert bot.choose(cr.view(a, 0), random.Random(9)) == bot.choose(cr.view(b, 0), random.Random(9))


def test_bots_never_use_the_global_random_module(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the global random module was used")

    for name in ("random", "choice", "choices", "shuffle", "randrange", "randint", "sample", "uniform"):
        monkeypatch.setattr(random, name, boom)
    for preset in ("agurk", "catastrophe"):
        assert play_match(cr.ruleset(preset), [HeuristicBot(), RandomBot(), RandomBot()], seed=2).is_over


@pytest.mark.parametrize(
    ("iterations", "error", "message"),
    [
        (0, ValueError, "iterations must be at least 1, not 0"),
        ("5", TypeError, "iterations must be an int, not '5'"),
        (True, TypeError, "iterations must be an int, not True"),
    ],
)
def test_ismcts_iterations_must_be_a_positive_int(
    iterations: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        ISMCTSBot(iterations=iterations)
    assert str(caught.value) == message


def test_ismcts_takes_any_integer_type_for_iterations() -> None:
    import numpy as np

    bot = ISMCTSBot(iterations=np.int64(12))
    assert bot.iterations == 12
    assert type(bot.iterations) is int
    assert bot == ISMCTSBot(iterations=12)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"exploration": "x"}, TypeError, "exploration must be a number, not str"),
        ({"exploration": None}, TypeError, "exploration must be a number, not NoneType"),
        ({"exploration": True}, TypeError, "exploration must be a number, not bool"),
        ({"exploration": float("nan")}, ValueError, "exploration must be a finite number, not nan"),
        ({"exploration": float("inf")}, ValueError, "exploration must be a finite number, not inf"),
        ({"exploration": -0.5}, ValueError, "exploration must be at least 0, not -0.5"),
        ({"seconds": True}, TypeError, "seconds must be a number, not bool"),
        ({"seconds": "1"}, TypeError, "seconds must be a number, not str"),
        ({"seconds": float("inf")}, ValueError, "seconds must be a finite number, not inf"),
        ({"seconds": 0}, ValueError, "seconds must be positive or None, not 0"),
    ],
)
def test_ismcts_refuses_bad_settings_when_built(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    # A bad setting used to be taken and to fail deep in the search (or make it meaningless).
    with pytest.raises(error) as caught:
        ISMCTSBot(iterations=2, **options)
    assert str(caught.value) == message


@pytest.mark.parametrize("caution", [float("nan"), float("inf"), -float("inf"), "1", True, None])
def test_heuristic_caution_must_be_a_finite_number(caution: Any) -> None:
    # A NaN caution used to make every cost compare false and the Catastrophe heuristic fail with IndexError.
    with pytest.raises((TypeError, ValueError), match="caution must be a"):
        HeuristicBot(caution=caution)
    state = cr.new_game(cr.ruleset("catastrophe"), players=3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(1)))
    if isinstance(caution, float):
        view = cr.view(state, state.to_act)
        with pytest.raises(ValueError, match="caution must be a finite number"):
            game_of(state.match.rules).bots.heuristic(view, random.Random(2), caution=caution)
    assert HeuristicBot(caution=0).caution == 0
    assert HeuristicBot(caution=-1.5).caution == -1.5
    assert HeuristicBot(caution=Fraction(1, 2)).caution == 0.5  # type: ignore[arg-type]  # any real number


def test_bots_are_immutable_values() -> None:
    bot = HeuristicBot()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        bot.caution = 2.0  # type: ignore[misc]
    assert HeuristicBot() == HeuristicBot()
    assert RandomBot() == RandomBot()
    assert {b.name for b in BOTS.values()} == {"random", "heuristic", "ismcts"}
    assert isinstance(RandomBot(), Bot)
    assert isinstance(HeuristicBot(), Bot)


def test_random_bot_uses_the_given_rng() -> None:
    hands = [" ".join(f"{rank}{suit}" for rank in "2345678") for suit in "CDHS"]
    state = cr.apply(cr.new_game(cr.ruleset("agurk"), 4), deal(*hands))
    view = cr.view(state, 0)
    picks = {str(RandomBot().choose(view, random.Random(seed))) for seed in range(40)}
    assert len(picks) > 3  # varies with the rng ...
    assert RandomBot().choose(view, random.Random(1)) == RandomBot().choose(
        view, random.Random(1)
    )  # ... only


def test_a_bot_without_a_move_says_so() -> None:
    state = cr.apply(cr.new_game(cr.ruleset("gurka", hand_size=1), 2), deal("2C", "3C"))
    for bot in BOTS.values():
        with pytest.raises(ValueError, match="no legal action"):
            bot.choose(cr.view(state, 1), random.Random(0))


# --------------------------------------------------------------------------- the ladder heuristic


def test_ladder_leader_sheds_its_highest_card() -> None:
    state = start(cr.ruleset("agurk", hand_size=3), "2C 9S KH", "3D 4D 5D", "6H 7H 8H")
    assert choose(state) == "KH"


def test_ladder_follower_plays_its_highest_legal_card_not_its_lowest() -> None:
    # Seat 1 may play the lowest card (3D) or anything >= 5C; it keeps 3D for the end.
    state = play(start(cr.ruleset("agurk", hand_size=3), "5C 9S KH", "3D 6D QD", "6H 7H 8H"), "5C")
    assert choose(state) == "QD"


def test_ladder_keeps_the_low_card_for_the_last_trick() -> None:
    state = play(start(cr.ruleset("agurk", hand_size=2), "2C 9S", "4D KD", "3H 5H"), "9S")
    assert choose(state) == "KD"  # not its lowest card 4D, which it keeps for the last trick
    state = play(state, "KD", "3H", "4D", "5H", "2C")
    assert cr.score(state).totals == (0, 0, 5)


def test_heuristic_buys_back_in() -> None:
    rules = cr.ruleset("gurka", revival=True, hand_size=1, threshold=5)
    state = start(rules, "2C", "3C", "9S")
    state = play(state, "2C", "3C", "9S")
    assert ladder_state(state).match.pending == (2,)
    action = HeuristicBot().choose(cr.view(state, 2), random.Random(0))
    assert action == cr.Revive(2, True)


# --------------------------------------------------------------------------- the Catastrophe heuristic


def _one_card_risk(
    r: int, lead: int | None, played: list[int], trick: list[int], rule: Any, ranks: list[int], later: int
) -> float:
    # The heuristic's risk of one card, written out card by card (as it was before `card_risks` shared work).
    from bisect import bisect_left, bisect_right

    if lead is None:
        return 0.0
    below, above, n = bisect_left(ranks, lead), bisect_right(ranks, lead), len(ranks)
    if rule is None:
        low = r < lead
        lo, hi = (0, below) if low else (above, n)
    elif not rule.broken:
        low = rule.lowest_wins
        if r < lead if low else r > lead:
            current = min(played) if low else max(played)
            if not (r < current if low else r > current):
                return 0.0
            lo, hi = (0, below) if low else (above, n)
        else:
            low, lo, hi = not low, 0, n
    else:
        low = rule.lowest_wins
        best = min([*trick, lead]) if low else max([*trick, lead])
        if not (r < best if low else r > best):
            return 0.0
        lo, hi = 0, n
    if later == 0:
        return 1.0
    if lo == hi:
        lo, hi = 0, n
    if lo == hi:
        return 1.0
    beating = bisect_left(ranks, r, lo, hi) - lo if low else hi - bisect_right(ranks, r, lo, hi)
    return float((1.0 - beating / (hi - lo)) ** later)


def _plain_costs(view: PlayerView, caution: float) -> list[float]:
    # Catastrophe's heuristic written plainly from the view's fields (as it was before `views.glance`):
    # the unseen cards are the deck's but the hand, the trick, the revealed lead and every completed trick.
    from cucumber_rules.games.catastrophe.rules import Marker

    plan = view.rules._plan
    per_card = plan.cucumbers
    trick = [p.card for p in view.trick]
    revealed = view.revealed
    lead = revealed if revealed is not None else (trick[0] if trick else None)
    seen = {*view.hand, *trick, *([revealed] if revealed is not None else [])}
    for done in view.tricks:
        seen.update(p.card for p in done.plays)
        if (card := getattr(done, "revealed", None)) is not None:
            seen.add(card)
    unseen = sorted(c.rank for c in plan.deck if c not in seen)
    mean = sum(per_card[r] for r in unseen) / len(unseen) if unseen else 1.0
    later = max(0, len(view.players) - len(trick) - 1)
    in_play = sum(per_card[c.rank] for c in trick) + (per_card[revealed.rank] if revealed is not None else 0)
    rule = None if view.marker is None else Marker(view.marker)
    lead_rank = None if lead is None else lead.rank
    played = [c.rank for c in trick if c is not lead]
    costs = []
    for p in view.legal:
        r = p.card.rank  # type: ignore[union-attr]
        risk = _one_card_risk(r, lead_rank, played, [c.rank for c in trick], rule, unseen, later)
        keep = (per_card[r] - 1) + max(0.0, abs(r - 30.5) - 15.0) / 15.0
        costs.append(caution * risk * (in_play + per_card[r] + later * mean) - keep)
    return costs


@pytest.mark.parametrize("options", [{}, {"surprise": True}, {"surprise": True, "cant_beat_em": True}])
def test_catastrophe_heuristic_weighs_as_written_plainly(options: dict[str, Any]) -> None:
    # The heuristic reads its view through `glance` and counts unseen cards from the captured piles, only
    # when it must: each play's gain is exactly the plain reading's cost, negated, and each choice the
    # cheapest play (ties within 1e-9 broken by the same draw).
    from cucumber_rules.games.catastrophe.bots import card_gains

    rules = cr.ruleset("catastrophe", **options)
    game = game_of(rules)
    rng = random.Random(3)
    compared = 0
    for players in (3, 4, 6):
        state = cr.new_game(rules, players)
        while not state.is_over:
            if state.to_act == cr.CHANCE:
                state = cr.apply(state, cr.sample_chance(state, rng))
                continue
            caution = rng.choice([0.0, 0.5, 1.0, 3.0])
            view = cr.view(state, state.to_act)
            costs = _plain_costs(cr.view(state, state.to_act), caution)
            assert card_gains(view, view.legal, caution) == [-c for c in costs]  # type: ignore[arg-type]
            cheapest = min(costs)
            ties = [p for p, c in zip(view.legal, costs, strict=True) if c - cheapest <= 1e-9]
            seed = rng.randrange(10**6)
            expected = ties[0] if len(ties) == 1 else random.Random(seed).choice(ties)
            assert game.bots.heuristic(view, random.Random(seed), caution=caution) == expected
            compared += 1
            moves = cr.legal_moves(state)
            state = cr.apply(state, moves[rng.randrange(len(moves))])
    assert compared > 300


def test_catastrophe_risks_of_all_cards_at_once_equal_each_cards_risk() -> None:
    from cucumber_rules.games.catastrophe.bots import BELOW_60, card_risks
    from cucumber_rules.games.catastrophe.rules import Marker

    rng = random.Random(4)
    checked = 0
    for _ in range(3000):
        ranks = sorted(rng.sample(range(1, 61), rng.randint(0, 30)))
        trick = rng.sample(range(1, 61), rng.randint(1, 5))
        lead = rng.choice([None, trick[0], rng.randint(1, 60)])
        played = [r for r in trick if r != lead] or [rng.randint(1, 60)]
        rule = rng.choice([None, *Marker])
        cards = rng.sample(range(1, 61), rng.randint(1, 10))
        later = rng.randint(0, 4)
        expected = [_one_card_risk(r, lead, played, trick, rule, ranks, later) for r in cards]
        seen = sorted(set(range(1, 61)) - set(ranks))  # (`card_risks` counts the deck's cards but these)
        assert card_risks(cards, lead, played, trick, rule, seen, BELOW_60, later) == expected
        checked += sum(0 < x < 1 for x in expected)
    assert checked > 1000  # most draws reach the estimate, not only the shortcuts


def test_catastrophe_leader_leads_an_extreme_card_never_a_five() -> None:
    rules = cr.ruleset("catastrophe", hand_size=3)
    state = start(rules, "30 55 60", "29 31 40", "20 21 22", "41 42 43")
    assert choose(state) == "60"


def test_catastrophe_dumps_a_five_when_someone_else_takes() -> None:
    # 30 led, 40 sets High, 10 breaks it (lowest wins): 2 would take the trick, 55 is safe.
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = play(start(rules, "30 31", "40 41", "10 11", "2 55"), "30", "40", "10")
    assert catastrophe_state(state).marker == "high-broken"
    assert choose(state) == "55"


def test_catastrophe_follows_high_below_the_taker() -> None:
    # High rule with 50 taking: 45 (a five) stays under it; 52 and 56 would take the trick.
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = play(start(rules, "30 31", "50 51", "35 36", "45 52"), "30", "50", "35")
    assert choose(state) == "45"


def test_catastrophe_sets_the_rule_close_to_the_lead() -> None:
    rules = cr.ruleset("catastrophe", hand_size=3)
    state = play(start(rules, "30 31 32", "29 33 60", "10 20 50", "11 21 51"), "30")
    assert choose(state) in ("29", "33")


def test_catastrophe_takes_with_a_light_card_when_it_must_take() -> None:
    # Last to play under High with 35 taking: both 45 and 52 take; 52 carries 1 cucumber, 45 five.
    rules = cr.ruleset("catastrophe", hand_size=2)
    state = play(start(rules, "30 31", "35 36", "32 33", "45 52"), "30", "35", "32")
    assert choose(state) == "52"


# --------------------------------------------------------------------------- strength


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_clearly_beats_random(preset: str) -> None:
    result = simulate(cr.ruleset(preset), players=3, bots=["heuristic", "random"], matches=18, seed=11)
    rate = result.bot_rates()["heuristic"]
    assert rate.low > 1 / 3, f"{preset}: heuristic win rate {rate.rate:.2f} ({rate.low:.2f}..{rate.high:.2f})"


# --------------------------------------------------------------------------- registry


def test_get_bot_and_resolve_bots() -> None:
    assert get_bot(" Random ") is BOTS["random"]
    custom = HeuristicBot(caution=2.0)
    assert get_bot(custom) is custom
    assert [b.name for b in resolve_bots("heuristic", 3)] == ["heuristic"] * 3
    assert [b.name for b in resolve_bots(["random", custom], 3)] == ["random", "heuristic", "heuristic"]
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        get_bot("clever")
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        resolve_bots("random,random,random", 2)
    with pytest.raises(ValueError, match="at least one bot"):
        resolve_bots([], 2)
    with pytest.raises(TypeError):
        get_bot(42)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the search bot


@pytest.mark.parametrize(
    "rules",
    [
        cr.ruleset("agurk", hand_size=4, threshold=12),
        cr.ruleset("gurka", revival=True, threshold=12, hand_size=3),
        cr.ruleset("five-cucumbers", hand_size=4),
        cr.ruleset("catastrophe", hand_size=4, hand_count=2),
        cr.ruleset("catastrophe", surprise=True, cant_beat_em=True, hand_size=4, hand_count=1),
    ],
    ids=lambda r: r.name,
)
def test_ismcts_plays_whole_matches_legally(rules: cr.Rules) -> None:
    bot = ISMCTSBot(iterations=12)
    rng = random.Random(4)
    state = cr.new_game(rules, 4 if rules.max_players >= 4 else 3)
    while not state.is_over:
        if state.to_act == cr.CHANCE:
            state = cr.apply(state, cr.sample_chance(state, rng))
            continue
        view = cr.view(state, state.to_act)
        action = bot.choose(view, rng)
        assert action in cr.legal_moves(state)
        state = cr.apply(state, action)


def test_ismcts_is_reproducible_by_seed_and_searches() -> None:
    state = cr.new_game(cr.ruleset("agurk"), players=4)
    state = cr.apply(state, cr.sample_chance(state, random.Random(8)))
    view = cr.view(state, state.to_act)
    bot = ISMCTSBot(iterations=40)
    moves = {bot.choose(view, random.Random(seed)) for seed in range(6)}
    assert all(
        bot.choose(view, random.Random(seed)) == bot.choose(view, random.Random(seed)) for seed in (1, 2)
    )
    assert moves <= set(view.legal)
    rules = cr.ruleset("gurka", hand_size=3, threshold=10)
    a = play_match(rules, [ISMCTSBot(iterations=8), RandomBot(), RandomBot()], seed=5)
    b = play_match(rules, [ISMCTSBot(iterations=8), RandomBot(), RandomBot()], seed=5)
    assert a == b


def test_ismcts_keeps_its_low_card_for_the_last_trick() -> None:
    # Two cards left, seat 0 leads: leading the 2 keeps the King for the last trick and loses it;
    # leading the King (which surely takes this trick) keeps the 2 and cannot take the last one.
    rules = cr.ruleset("agurk", hand_size=2)
    state = cr.apply(cr.new_game(rules, 3), cr.Deal(hands=[["2C", "KC"], ["5D", "9D"], ["6H", "10H"]]))
    assert ISMCTSBot(iterations=60).choose(cr.view(state, 0), random.Random(1)) == cr.Play(0, "KC")


def test_ismcts_beats_random_bots() -> None:
    # A fixed seed: the outcome is the same on every run. By chance a seat wins 1/4 of the matches.
    result = simulate(
        cr.ruleset("five-cucumbers", hand_size=5),
        players=4,
        bots=[ISMCTSBot(iterations=25), "random"],
        matches=10,
        seed=3,
    )
    assert result.bot_rates()["ismcts"].wins >= 6


def test_ismcts_settings_and_registry() -> None:
    assert get_bot("ismcts") == ISMCTSBot()
    assert ISMCTSBot().name == "ismcts"
    assert [b.name for b in resolve_bots("ismcts,random", 3)] == ["ismcts", "random", "random"]
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSBot(seconds=0)
    with pytest.raises(TypeError):
        ISMCTSBot(iterations=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollout must be 'heuristic' or 'random'"):
        ISMCTSBot(rollout="greedy")
    assert ISMCTSBot().rollout == "heuristic"
    state = cr.apply(
        cr.new_game(cr.ruleset("gurka", hand_size=2), 2), cr.Deal(hands=[["2C", "KC"], ["5D", "9D"]])
    )
    with pytest.raises(ValueError, match="no legal action"):
        ISMCTSBot().choose(cr.view(state, 1), random.Random(1))
    timed = ISMCTSBot(iterations=10_000, seconds=0.05)
    assert timed.choose(cr.view(state, 0), random.Random(1)) in cr.legal_moves(state)


def test_ismcts_leaves_revival_to_the_heuristic() -> None:
    rules = cr.ruleset("gurka", revival=True, threshold=1, hand_size=1)
    state = cr.apply_all(
        cr.new_game(rules, 3),
        [cr.Deal(hands=[["2C"], ["KC"], ["3C"]]), cr.Play(0, "2C"), cr.Play(1, "KC"), cr.Play(2, "3C")],
    )
    view = cr.view(state, 1)
    assert ISMCTSBot().choose(view, random.Random(1)) == HeuristicBot().choose(view, random.Random(1))


def test_ismcts_plays_by_the_heuristic_when_a_view_cannot_be_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    from cucumber_rules import sampling

    def refuse(view: PlayerView, rng: random.Random) -> None:
        raise ValueError("could not rebuild round 1")

    monkeypatch.setattr(sampling, "WorldSampler", refuse)
    state = cr.new_game(cr.ruleset("agurk"), players=3)
    state = cr.apply(state, cr.sample_chance(state, random.Random(2)))
    view = cr.view(state, state.to_act)
    assert ISMCTSBot().choose(view, random.Random(3)) == HeuristicBot().choose(view, random.Random(3))


def test_catastrophe_risk_counts_like_a_brute_force_count() -> None:
    # `card_risk` counts the unseen cards that would beat a card by bisection; count them one by one.
    from cucumber_rules.games.catastrophe.bots import card_risk
    from cucumber_rules.games.catastrophe.rules import Marker

    def brute(
        r: int, lead: int, played: list[int], rule: Marker | None, unseen: list[int], later: int
    ) -> float:
        def beats(a: int, b: int, low: bool) -> bool:
            return a < b if low else a > b

        if rule is None:
            low = r < lead
            pool = [u for u in unseen if (u < lead if low else u > lead)]
        elif not rule.broken:
            low = rule.lowest_wins
            if r < lead if low else r > lead:
                if not beats(r, min(played) if low else max(played), low):
                    return 0.0
                pool = [u for u in unseen if (u < lead if low else u > lead)]
            else:
                low, pool = not low, list(unseen)
        else:
            low = rule.lowest_wins
            if not beats(r, min([*played, lead]) if low else max([*played, lead]), low):
                return 0.0
            pool = list(unseen)
        if later == 0:
            return 1.0
        pool = pool or list(unseen)
        if not pool:
            return 1.0
        return float((1.0 - sum(1 for u in pool if beats(u, r, low)) / len(pool)) ** later)

    rng = random.Random(4)
    differ = 0
    for _ in range(3000):
        cards = rng.sample(range(1, 61), 12)
        lead, r, played, unseen = cards[0], cards[1], cards[2:4], sorted(cards[4 : 4 + rng.randrange(9)])
        rule = rng.choice([None, *Marker])
        later = rng.randrange(4)
        expected = brute(r, lead, played, rule, unseen, later)
        assert card_risk(r, lead, played, [lead, *played], rule, unseen, later) == expected
        differ += expected not in (0.0, 1.0)
    assert differ > 300  # the counts mattered, not just the early exits


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_ismcts_plays_out_by_either_policy(rollout: str) -> None:
    # Both playout policies search and play legal, reproducible moves; they may choose differently.
    rules = cr.ruleset("catastrophe", hand_count=1)
    result = simulate(
        rules, players=4, bots=[ISMCTSBot(iterations=10, rollout=rollout), "heuristic"], matches=2, seed=3
    )
    again = simulate(
        rules, players=4, bots=[ISMCTSBot(iterations=10, rollout=rollout), "heuristic"], matches=2, seed=3
    )
    assert [(m.totals, m.penalties) for m in result.matches] == [
        (m.totals, m.penalties) for m in again.matches
    ]
