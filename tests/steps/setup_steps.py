"""Given steps: which game, for whom, with which options; who starts; the deal."""

from __future__ import annotations

import random

from pytest_bdd import given, parsers, when

import cucumber_rules as cr

from .world import WHO, Game, deal_from_table, parse_options, split_list

_NAMES = r"[A-Z][a-z]\w*(?:, [A-Z][a-z]\w*)* and [A-Z][a-z]\w*"


@given(
    parsers.re(rf"a game of (?P<preset>.+?) for (?P<players>\d+ players|{_NAMES}) ?(?:with (?P<options>.+))?")
)
def a_game(game: Game, preset: str, players: str, options: str | None) -> None:
    """`a game of agurk for 4 players`, `... for Ann, Bo and Cy`, `... with threshold 21 and ace lead off`."""
    count = players.removesuffix(" players")
    who: int | tuple[str, ...] = int(count) if count.isdigit() else tuple(split_list(players))
    game.setup(preset, who, parse_options(options))


@given(parsers.re(rf"(?P<who>{WHO}) is the starting player"))
def starting_player(game: Game, who: str) -> None:
    """The seat that leads the first trick of the match (`first` of `new_game`)."""
    assert not game.started, "name the starting player before the cards are dealt"
    game.first = game.seat(who)


@given("the cards are dealt:")
@when("the cards are dealt:")
def cards_dealt(game: Game, datatable: list[list[str]]) -> None:
    """A rigged deal, from a `| seat | hand |` table."""
    game.act(deal_from_table(game, datatable), "this deal")


@given(parsers.re(rf"the cards are dealt, with (?P<who>{WHO}) drawn to start:"))
@when(parsers.re(rf"the cards are dealt, with (?P<who>{WHO}) drawn to start:"))
def cards_dealt_with_starter(game: Game, datatable: list[list[str]], who: str) -> None:
    """A rigged deal that also settles a tie for the starting player (`Deal.leader`)."""
    game.act(deal_from_table(game, datatable, leader=who), f"this deal, with {who} drawn to start")


@given(parsers.re(r"the cards are shuffled and dealt with seed (?P<seed>\d+)"))
@when(parsers.re(r"the cards are shuffled and dealt with seed (?P<seed>\d+)"))
def random_deal(game: Game, seed: str) -> None:
    """A random deal drawn by `cr.sample_chance` with `random.Random(seed)`."""
    deal = cr.sample_chance(game.state, random.Random(int(seed)))
    game.act(deal, f"the random deal of seed {seed}")
